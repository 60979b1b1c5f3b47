"""Lines of a signed-on player's mail that the mail service answers itself, in every ruleset.

Taken out of the mail before the game's grammar reads it (the lines are blanked, so line numbers
stay), as ``preferences.py`` takes out SET LANGUAGE; Czech words in brackets:

* ``SET PASSWORD <new>`` (``NASTAV HESLO``): the house's password from the next mail on; at least
  8 characters, no spaces, no ``#``. The password is never echoed nor journaled: the reply shows
  ``SET PASSWORD ********``.
* ``SET ABSENCE <from> TO <to>`` (``NASTAV NEPŘÍTOMNOST <od> DO <do>``): days ``2026-12-01`` or
  ``1.12.2026``, both included, in the player's time zone; deadlines falling inside wait for the
  player, within the game's cap (``adjudicator/absences.py``). ``SET ABSENCE NONE``
  (``NASTAV NEPŘÍTOMNOST ŽÁDNÁ``) cancels the absences not over yet.
* ``HISTORY [round]`` (``HISTORIE [kolo]``): the game's past as this player saw it, by separate
  mail: a round's events and the board at its end, or without a round every event so far
  (``history.py``).
* ``PRESS GM: <text>`` (``ZPRÁVA GM: <text>``): a message to the game master only.
* ``DRAW`` / ``DRAW NO`` (``REMÍZA`` / ``REMÍZA NE``): a vote for a draw, or its withdrawal; secret
  until every surviving player has voted, and then the game ends in a draw (``draw.py``), where
  the ruleset allows a shared result.

:func:`service_lines` parses (each line: a canonical form or an error with an example, like a
game's line), :func:`carry_out` does what they ask once the mail is recorded: notes for the
reply. Everything is safe to do twice (a mail processed again after a crash): the same password,
the same absence, the same vote change nothing, and the mails sent have names of their own.
"""

from __future__ import annotations

import logging
import re

from .. import absences, localtime, mailbody, reports, seats
from ..judge import JudgeError
from ..messages import Msg
from ..ruleset import LineResult
from ..store import GameLocked, StoreError
from .envelope import canonical_address

log = logging.getLogger("adjudicator.mail")

MASK = "********"
EXAMPLES = {"password": "SET PASSWORD stone-heath-2931", "absence": absences.EXAMPLE, "history": "HISTORY 2",
            "press-gm": "PRESS GM: may I pause for a wedding?", "draw": "DRAW"}
_PASSWORD = re.compile(r"^(?:set\s+password|nastav\s+heslo)\b\s*(.*)$")
_ABSENCE = re.compile(r"^(?:set\s+absence|nastav\s+nepritomnost)\b\s*(.*)$")
_RANGE = re.compile(r"^(\S+)\s+(?:to|do|-)\s+(\S+)$")
_HISTORY = re.compile(r"^(?:history|historie)\b\s*(.*)$")
_PRESS_GM = re.compile(r"^(?:press|zprava)\s+(?:gm|spravce)\s*:(.*)$")
_DRAW = re.compile(r"^(?:draw|remiza)\b\s*(.*)$")
_FIRST_WORDS = ("set", "nastav", "histor", "press", "zprava", "draw", "remiza")  # what the lines above start with
YES, NO = {"", "yes", "ano"}, {"no", "ne"}
WORDS = {"cs": (("SET PASSWORD", "NASTAV HESLO"), ("SET ABSENCE", "NASTAV NEPŘÍTOMNOST"), ("HISTORY", "HISTORIE"),
                ("PRESS GM:", "ZPRÁVA GM:"), ("DRAW NO", "REMÍZA NE"), ("DRAW", "REMÍZA"))}
_CANONICAL = re.compile(r"(?:SET PASSWORD|SET ABSENCE|HISTORY|PRESS GM:|DRAW)(?: |$)")


def service_lines(text: str) -> tuple[str, list[LineResult], list[tuple]]:
    """The service's lines taken out of ``text``: (the text with them blanked, their results, the
    requests of the valid ones: ``("password", new)``, ``("absence", first, last)`` (ISO days),
    ``("absence-none",)``, ``("history", round | None)``, ``("press-gm", text)``, ``("draw", yes)``)."""
    results: list[LineResult] = []
    asks: list[tuple] = []
    if not mailbody.may_start_with(text, _FIRST_WORDS):
        return text, [], []  # (most mails)
    for lineno, raw in mailbody.logical_lines(text):
        folded = " ".join(mailbody.strip_accents(raw).split())
        if not _PRESS_GM.match(folded):
            folded = folded.split("#", 1)[0].strip()
        found = _one(lineno, raw, folded)
        if found is None:
            continue
        result, ask = found
        results.append(result)
        if ask is not None:
            asks.append(ask)
    if not results:
        return text, [], []
    return mailbody.blank_lines(text, {r.lineno for r in results}), results, asks


def _one(lineno: int, raw: str, folded: str) -> tuple[LineResult, tuple | None] | None:
    words = raw.split("#", 1)[0].split()
    if m := _PASSWORD.match(folded):
        shown = " ".join(words[:2] + [MASK] * (len(words) > 2))  # the password is never shown back
        if len(words) != 3:
            return _bad(lineno, shown, Msg("mail.password.one_word"), "password")
        problem = seats.password_problem(words[2])
        if problem:
            return _bad(lineno, shown, Msg(f"mail.password.{problem}", least=seats.MIN_PASSWORD), "password")
        return LineResult(lineno, shown, canonical=f"SET PASSWORD {MASK}"), ("password", words[2])
    if m := _ABSENCE.match(folded):
        if m.group(1) in ("none", "zadna"):
            return LineResult(lineno, raw, canonical="SET ABSENCE NONE"), ("absence-none",)
        span = _RANGE.match(m.group(1))
        if not span:
            return _bad(lineno, raw, Msg("mail.absence.form"), "absence")
        first, last = absences.parse_day(span.group(1)), absences.parse_day(span.group(2))
        for written, day in ((span.group(1), first), (span.group(2), last)):
            if day is None:
                return _bad(lineno, raw, Msg("mail.absence.day", day=written), "absence")
        if last < first:
            return _bad(lineno, raw, Msg("mail.absence.order"), "absence")
        return (LineResult(lineno, raw, canonical=f"SET ABSENCE {first.isoformat()} TO {last.isoformat()}"),
                ("absence", first.isoformat(), last.isoformat()))
    if m := _HISTORY.match(folded):
        what = m.group(1).strip()
        if what and not (what.isdigit() and int(what) >= 0):
            return _bad(lineno, raw, Msg("mail.history.round", wanted=what), "history")
        number = int(what) if what else None
        return LineResult(lineno, raw, canonical="HISTORY" + (f" {number}" if what else "")), ("history", number)
    if m := _PRESS_GM.match(folded):
        message = " ".join(raw.split(":", 1)[1].split()) if ":" in raw else ""  # one line (U+2028 too), as PRESS
        if not message:
            return _bad(lineno, raw, Msg("mail.press_gm.empty"), "press-gm")
        return LineResult(lineno, raw, canonical=f"PRESS GM: {message}"), ("press-gm", message)
    if m := _DRAW.match(folded):
        what = m.group(1).strip()
        if what not in YES | NO:
            return _bad(lineno, raw, Msg("mail.draw.form", wanted=what), "draw")
        yes = what in YES
        return LineResult(lineno, raw, canonical="DRAW" if yes else "DRAW NO"), ("draw", yes)
    return None


def _bad(lineno: int, text: str, error: Msg, what: str) -> tuple[LineResult, None]:
    return LineResult(lineno, text, error=error, example=EXAMPLES[what]), None


def owns(text: str) -> bool:
    """Is ``text`` a canonical line of this module (for ``reports``' echo in a language)?"""
    return _CANONICAL.match(text) is not None


def line(text: str, language: str) -> str:
    """A canonical line in ``language``'s words (``DRAW NO`` -> ``REMÍZA NE``)."""
    for english, local in WORDS.get(language, ()):
        if text.startswith(english):
            rest = text[len(english):]
            if english == "SET ABSENCE":
                rest = rest.replace(" TO ", " DO ").replace(" NONE", " ŽÁDNÁ")
            return local + rest
    return text


# ---------------------------------------------------------------------------------------------
# Doing what the lines ask, once the mail is recorded
# ---------------------------------------------------------------------------------------------


def carry_out(postmaster, handled, inbound, asks: list[tuple]) -> list[Msg]:
    """Do what ``asks`` (:func:`service_lines`) asks for ``handled.player`` in ``handled.game``:
    the notes for the reply, in mail order. Called under the inbox processing lock."""
    from . import draw, history  # they render and record; imported here, where they are used

    judge, game, house = postmaster.judge, handled.game, handled.player
    notes: list[Msg] = []
    for index, ask in enumerate(asks):
        kind = ask[0]
        try:
            if kind == "password":
                seats.set_password(judge, game, house, ask[1])
                notes.append(Msg("mail.password.done"))
            elif kind == "absence-none":
                notes.append(Msg("mail.absence.cleared", n=seats.clear_absences(judge, game, house, judge.now())))
            elif kind == "absence":
                notes.append(_absence(judge, game, house, ask[1], ask[2]))
            elif kind == "history":
                notes.append(history.send(postmaster, handled, inbound, ask[1]))
            elif kind == "press-gm":
                notes.append(_press_gm(postmaster, handled, inbound, ask[1], index))
            elif kind == "draw":
                notes.append(draw.vote(judge, game, house, ask[1]))
        except GameLocked:
            raise
        except (JudgeError, StoreError) as exc:
            log.error("game %s: %s of %s failed: %s", game, kind, house, exc)
            notes.append(Msg("mail.service_failed"))
    return notes


def _absence(judge, game: str, house: str, first: str, last: str) -> Msg:
    present = judge.present(game, shared=True)
    start, end = absences.window(absences.parse_day(first), absences.parse_day(last),
                                 reports.zone_of(present, house))
    why: list[tuple] = []

    def check(config, seat):
        found = absences.problem(seats.absence_cap(config), seat.get("absences") or [], start, end, judge.now())
        if found:
            why.append(found)
            return found[0]
        return None
    seats.add_absence(judge, game, house, start, end, check)
    if why:
        key, params = why[0]
        return Msg(f"mail.absence.{key}", **params)
    moved = absences.extend(judge, game)
    language = reports.language_of(present, house)
    zone = reports.zone_of(present, house)
    return Msg("mail.absence.done", start=localtime.moment(start, zone, language),
               end=localtime.moment(end, zone, language), moved=moved is not None)


def _press_gm(postmaster, handled, inbound, text: str, index: int) -> Msg:
    gm = postmaster.settings.gm
    if not gm:
        return Msg("mail.press_gm.no_gm")
    name = f"gm-{postmaster._name(handled, f'press-gm-{index}')}"
    message = postmaster.outbox.compose(gm, f"[{handled.game}] Press to the GM from {handled.player}",
                                        f"{handled.player} ({inbound.sender}) in game {handled.game} writes to you:\n\n"
                                        f"{text}\n", auto="auto-generated")
    if canonical_address(inbound.sender):
        message["Reply-To"] = inbound.sender
    if postmaster.outbox.queue(name, message):
        handled.mails.append(name)
    return Msg("mail.press_gm.done")
