"""Changes to a game's seats and followers that are not moves: game.yaml, under the game lock.

The GM's ``judge abandon``/``judge set``/``judge observers`` and the players' mail commands
(``SET PASSWORD``, ``SET ABSENCE``, ``TAKEOVER``, ``OBSERVE``, ``DRAW``: ``adjudicator/mail/``)
change a game's configuration, not its state: each change is made under the game's lock, with
a ``note`` entry in the journal (the audit trail: who changed what, from where; never a
password), then game.yaml is rewritten. What each seat may hold besides its address, password
and preferences (``mail/preferences.py``)::

    abandoned: true          the GM freed the seat: the first TAKEOVER gets it (with a new password)
    absences: [{from: 2026-12-01T00:00:00Z, to: 2026-12-08T00:00:00Z}]   SET ABSENCE (mail/absence.py)
    draw: true               the player votes for a draw (secret until every surviving player does)

and the game: ``absence_cap`` (days of absence a player may take in the game; default
:data:`adjudicator.absences.DEFAULT_ABSENCE_CAP`), ``observers`` (address -> ``{language}``) and ``observing``
(``false``: OBSERVE is refused).
"""

from __future__ import annotations

from datetime import datetime
from typing import Callable

from . import clock, passwords
from .absences import DEFAULT_ABSENCE_CAP
from .judge import Judge, JudgeError

MIN_PASSWORD = 8  # characters of a password a player chooses (SET PASSWORD)


def _change(judge: Judge, game: str, note: str, change: Callable[[dict], dict | None], **entry) -> dict | None:
    """Run ``change(config)`` under the game lock; when it returns the details of a change (a
    dict), journal a ``note`` with them and write game.yaml. Returns those details (None: nothing
    changed)."""
    files = judge.store.open(game)
    with files.lock(judge.lock_timeout):
        config = files.config()
        details = change(config)
        if details is None:
            return None
        files.append_journal({"kind": "note", "note": note, **entry, **details, "at": clock.to_text(judge.now())})
        files.write_config(config)
    return details


def _seat(config: dict, game: str, house: str) -> dict:
    players = config.get("players") or {}
    if house not in players:
        raise JudgeError(f"game {game} has no player {house!r} (players: {', '.join(players)})")
    if players[house] is None:
        players[house] = {}
    return players[house]


# -- takeover -------------------------------------------------------------------------------
def abandon(judge: Judge, game: str, house: str, *, undo: bool = False) -> bool:
    """The GM marks ``house`` abandoned (``undo``: not any more); False if it already was (was not)."""
    def change(config):
        seat = _seat(config, game, house)
        if bool(seat.get("abandoned")) != undo:
            return None
        if undo:
            seat.pop("abandoned", None)
        else:
            seat["abandoned"] = True
        return {"player": house, "abandoned": not undo}
    return _change(judge, game, "abandoned", change, source="gm") is not None


def abandoned(config: dict) -> list[str]:
    """The houses of a game open for TAKEOVER."""
    return [h for h, seat in (config.get("players") or {}).items() if (seat or {}).get("abandoned")]


def take_over(judge: Judge, game: str, house: str, address: str, language: str) -> str | None:
    """Give the abandoned ``house`` to ``address`` with a new password (returned, to be mailed);
    None if the house is not abandoned (any more: someone was quicker). The journal entry is a
    ``replace``, as the GM's ``judge replace``, so the players' notice and audit trail are the same."""
    secret = passwords.generate()
    files = judge.store.open(game)
    with files.lock(judge.lock_timeout):
        config = files.config()
        seat = _seat(config, game, house)
        if not seat.get("abandoned"):
            return None
        seat.pop("abandoned")
        seat.pop("draw", None)
        seat.pop("absences", None)
        seat.update(address=address, language=language,
                    password=passwords.hash_password(secret, judge.store.secret()))
        files.append_journal({"kind": "replace", "player": house, "address": address, "source": "takeover",
                              "at": clock.to_text(judge.now())})
        files.write_config(config)
    return secret


# -- the player's own settings ----------------------------------------------------------------
def set_password(judge: Judge, game: str, house: str, password: str) -> None:
    """``house``'s new password (checked by :func:`password_problem`), stored hashed."""
    hashed = passwords.hash_password(password, judge.store.secret())

    def change(config):
        _seat(config, game, house)["password"] = hashed
        return {"player": house}
    _change(judge, game, "password", change, source="mail")


def password_problem(password: str) -> str | None:
    """Why ``password`` cannot be a house's password (a key of ``mail.password.*``), or None."""
    if len(password) < MIN_PASSWORD:
        return "short"
    if not password.isprintable() or any(c.isspace() or c == "#" for c in password):
        return "characters"
    return None


def absence_cap(config: dict) -> int:
    try:
        return max(0, int(config.get("absence_cap", DEFAULT_ABSENCE_CAP)))
    except (TypeError, ValueError):
        return DEFAULT_ABSENCE_CAP


def add_absence(judge: Judge, game: str, house: str, start: datetime, end: datetime,
                check: Callable[[dict, dict], str | None]) -> str | None:
    """Add the absence ``start``..``end`` to ``house``'s seat, if ``check(config, seat)`` finds no
    problem (returned instead: it runs under the lock, where the seat's other absences are sure).
    Adding the same absence twice (a mail processed again) changes nothing."""
    problem: list[str] = []

    def change(config):
        seat = _seat(config, game, house)
        absence = {"from": clock.to_text(start), "to": clock.to_text(end)}
        if absence in (seat.get("absences") or []):
            return None
        why = check(config, seat)
        if why is not None:
            problem.append(why)
            return None
        seat["absences"] = [*(seat.get("absences") or []), absence]
        return {"player": house, **absence}
    _change(judge, game, "absence", change, source="mail")
    return problem[0] if problem else None


def clear_absences(judge: Judge, game: str, house: str, now: datetime) -> int:
    """Cancel ``house``'s absences not over at ``now`` (SET ABSENCE NONE); how many there were.
    A deadline already moved for one stays where it is."""
    gone: list[dict] = []

    def change(config):
        seat = _seat(config, game, house)
        kept = [a for a in seat.get("absences") or [] if clock.from_text(a["to"]) <= now]
        gone.extend(a for a in seat.get("absences") or [] if a not in kept)
        if not gone:
            return None
        seat["absences"] = kept
        return {"player": house, "cancelled": len(gone)}
    _change(judge, game, "absence", change, source="mail")
    return len(gone)


def vote_draw(judge: Judge, game: str, house: str, vote: bool) -> bool:
    """Record ``house``'s draw vote; False if it was already so."""
    def change(config):
        seat = _seat(config, game, house)
        if bool(seat.get("draw")) == vote:
            return None
        if vote:
            seat["draw"] = True
        else:
            seat.pop("draw", None)
        return {"player": house, "draw": vote}
    return _change(judge, game, "draw vote", change, source="mail") is not None


# -- the game -----------------------------------------------------------------------------------
def set_game(judge: Judge, game: str, *, absence_cap: int | None = None, observing: bool | None = None) -> dict:
    """The GM's game settings (``judge set``); returns what changed."""
    def change(config):
        new = {}
        if absence_cap is not None and config.get("absence_cap") != absence_cap:
            new["absence_cap"] = absence_cap
        if observing is not None and config.get("observing", True) != observing:
            new["observing"] = observing
        config.update(new)
        return new or None
    return _change(judge, game, "settings", change, source="gm") or {}


def observers(config: dict) -> dict[str, dict]:
    """Address -> ``{language}`` of those who follow the game (OBSERVE)."""
    found = config.get("observers")
    return {a: (o or {}) for a, o in found.items()} if isinstance(found, dict) else {}


class ObserversFull(JudgeError):
    """The game has as many observers as the judge takes (``MailSettings.max_observers``)."""


def observe(judge: Judge, game: str, address: str, language: str | None, *, stop: bool = False,
            since: int | None = None, source: str = "mail", cap: int | None = None) -> bool:
    """Add ``address`` to the game's observers (``stop``: remove it), reported the versions after
    ``since``; False if nothing changed. Raises :class:`JudgeError` if the GM closed the game to
    observers, :class:`ObserversFull` if it has ``cap`` observers already (each one's reports
    are rendered and sent: a cap bounds what one game's phase end costs)."""
    def change(config):
        watching = observers(config)
        if stop:
            if address not in watching:
                return None
            del watching[address]
        else:
            if config.get("observing", True) is False:
                raise JudgeError(f"game {game} takes no observers")
            if address in watching and watching[address].get("language") == language:
                return None
            if cap is not None and address not in watching and len(watching) >= cap:
                raise ObserversFull(f"game {game} has {len(watching)} observers, the most it takes")
            watching[address] = {"language": language or "en", **({"since": since} if since else {})}
        config["observers"] = watching
        return {"observer": address, "observing": not stop}
    return _change(judge, game, "observer", change, source=source) is not None
