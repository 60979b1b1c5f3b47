"""Canonical command lines in a player's language: ``PLAY Gnome 5 OR LOWEST`` -> ``HRAJ gnóm 5 NEBO NEJNIŽŠÍ``.

The grammar echoes what it understood, gives examples and keeps plans on file as *canonical*
lines, in its own (English) words. A Czech player should read them in Czech, written so that
the grammar reads them back as the same command (the test round-trips every command form).
:func:`line` reads a canonical line back into its parts and renders the message
``claim.line.<command>`` of the player's catalogue, whose command words and card names are the
language's (``templates/<lang>/claim/messages.yaml``). The English catalogue renders each
canonical line unchanged.

The free text of an example the grammar invents (the PRESS message of ``PRESS alice: shall we
talk?``, the game and password of the sign-on example) is a catalogue text too, shown in the
language.
Anything that is not a canonical line (a mail-level line the mail service answered, say) is
returned as it stands.
"""

from __future__ import annotations

import re

from ...mailcommands import ALL, Help, OrdersQuery, Status
from ...messages import Msg, render
from . import terms
from .gamedata import GameData
from .grammar import Cancel, LineError, Names, Play, Take, example_text, parse_line

_PRESS = re.compile(r"PRESS (ANON )?([^:]*): (.*)$", re.S)
_JUDGE = re.compile(r"JUDGE (\S+) (\S+) (\S+)$")
EXAMPLE_TEXTS = ("claim.example.press", "claim.example.press_long", "claim.example.game", "claim.example.password")
"""Catalogue texts the grammar's examples carry in English (see ``grammar.example_text``)."""


def message(gd: GameData, text: str) -> Msg | None:
    """The canonical line ``text`` as a ``claim.line.*`` message, or None if it is none."""
    if not text.strip():
        return None
    if text.startswith("PRESS "):
        m = _PRESS.match(text)
        if m is None:
            return None
        to = ALL if m.group(2) == ALL else [p.strip() for p in m.group(2).split(",")]
        return Msg("claim.line.press", anonymous=bool(m.group(1)), to=to, text=_example(m.group(3)))
    if text.startswith("JUDGE "):
        m = _JUDGE.match(text)
        return None if m is None else Msg("claim.line.judge", game=_example(m.group(1)), player=m.group(2),
                                          password=_example(m.group(3)))
    try:
        command = parse_line(text, Names(gd, tuple(gd.factions)))
    except LineError:
        return None
    if isinstance(command, (Play, Take)):
        return terms.line_msg("play" if isinstance(command, Play) else "take", command.alts)
    if isinstance(command, Cancel):
        return Msg("claim.line.cancel")
    if isinstance(command, Help):
        return Msg("claim.line.help", topic=command.topic)
    if isinstance(command, Status):
        return Msg("claim.line.status")
    if isinstance(command, OrdersQuery):
        return Msg("claim.line.orders")
    return None


def _example(text: str) -> str | Msg:
    """An example's free text: the catalogue's message when the grammar took it from there."""
    for key in EXAMPLE_TEXTS:
        if text == example_text(key):
            return Msg(key)
    return text


def line(gd: GameData, text: str, language: str) -> str:
    """``text`` (a canonical line) in ``language``'s command words; anything else unchanged."""
    found = message(gd, text)
    return text if found is None else render(found, language)
