"""Absences: a player away from mail, and the deadlines that wait for them.

``SET ABSENCE 2026-12-01 TO 2026-12-07`` (``NASTAV NEPŘÍTOMNOST 1.12.2026 DO 7.12.2026``) records
that the player is away from the start of the first day to the end of the last, in the player's
time zone. A player's absences in one game add up to at most the game's cap (``absence_cap``
days, :data:`DEFAULT_ABSENCE_CAP` unless the GM set another with ``judge new
--absence-cap`` or ``judge set --absence-cap``; 0: no absences). Absences already over do not
count against the cap.

What an absence does: the deadline of a step that falls inside it, while the absent player still
owes a decision in that step, moves to the end of the absence. :func:`extend` records that as an
``extend`` journal entry (``reason: absence``, ``player``), the same input as the GM's ``judge
extend``, so every player is told by the mail layer's notices. It is called by the mail service
right after a ``SET ABSENCE`` and whenever it reports new versions (a new step, with the
deadline in its report already moved), and by ``Judge.tick`` before a deadline is adjudicated.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from . import clock

DEFAULT_ABSENCE_CAP = 14  # days per player and game, unless the GM sets another (judge set --absence-cap)
_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_CZECH = re.compile(r"^(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4})$")
EXAMPLE = "SET ABSENCE 2026-12-01 TO 2026-12-07"


def parse_day(text: str) -> date | None:
    """``2026-12-01`` or ``1.12.2026`` -> the date; None if it is neither or no real day."""
    text = text.strip()
    if m := _ISO.match(text):
        y, mo, d = (int(g) for g in m.groups())
    elif m := _CZECH.match(text):
        d, mo, y = (int(g) for g in m.groups())
    else:
        return None
    try:
        return date(y, mo, d)
    except ValueError:
        return None


def window(first: date, last: date, zone: ZoneInfo) -> tuple[datetime, datetime]:
    """From the start of ``first`` to the end of ``last`` (midnight after it), in ``zone``, as UTC."""
    start = datetime.combine(first, time(0), zone)
    end = datetime.combine(last + timedelta(days=1), time(0), zone)
    return clock.from_text(clock.to_text(start)), clock.from_text(clock.to_text(end))


def _days(absence: dict, now: datetime) -> float:
    """The days of ``absence`` still to come (or under way) at ``now``."""
    start, end = clock.from_text(absence["from"]), clock.from_text(absence["to"])
    return max(0.0, (end - max(start, now)).total_seconds() / 86400)


def problem(cap: int, taken: list[dict], start: datetime, end: datetime, now: datetime) -> tuple[str, dict] | None:
    """Why an absence ``start``..``end`` cannot be taken (a key of ``mail.absence.*`` and its
    parameters), given the player's other absences ``taken`` and the game's ``cap`` in days."""
    if end <= start:
        return "order", {}
    if end <= now:
        return "past", {}
    if cap <= 0:
        return "none", {}
    used = sum(_days(a, now) for a in taken)
    wanted = _days({"from": clock.to_text(start), "to": clock.to_text(end)}, now)
    if used + wanted > cap + 1e-9:
        return "cap", {"cap": cap, "left": max(0, int(cap - used)), "wanted": round(wanted)}
    return None


def absent_until(seat: dict, moment: datetime) -> datetime | None:
    """The end of the player's absence that ``moment`` falls in, or None."""
    for absence in seat.get("absences") or []:
        try:
            start, end = clock.from_text(absence["from"]), clock.from_text(absence["to"])
        except (KeyError, TypeError, ValueError):
            continue
        if start <= moment < end:
            return end
    return None


def extension(present) -> tuple[timedelta, str] | None:
    """How far the present step's deadline must move for an absent player who still owes a
    decision in it (the latest end of such an absence; again while the new deadline falls in
    another one), and who that is; None when it need not move."""
    deadline = present.deadline()
    if deadline is None or present.paused():
        return None
    owing = list(dict.fromkeys(o.player for o in present.missing()))
    players = present.config.get("players") or {}
    moved, who = deadline, None
    for _ in range(len(owing) * 8 + 1):  # each pass moves past one absence; bounded all the same
        ends = [(until, p) for p in owing if (until := absent_until(players.get(p) or {}, moved)) is not None]
        if not ends:
            break
        moved, who = max(ends)
    if who is None:
        return None
    return moved - deadline, who


def extend(judge, game_id: str):
    """Move ``game_id``'s deadline past the absences of players who still owe (see
    :func:`extension`): an ``extend`` journal entry; None when nothing moved."""
    present = judge.present(game_id, shared=True)
    if not any((seat or {}).get("absences") for seat in (present.config.get("players") or {}).values()):
        return None
    found = extension(present)
    if found is None:
        return None
    by, player = found
    return judge.record(game_id, {"kind": "extend", "by": clock.format_duration(by), "reason": "absence",
                                  "player": player})
