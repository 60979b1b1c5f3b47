"""Small builders of the ``agot.*`` messages that many modules need: an order token.

Why a module: an order token ("march +1*") appears inside events, errors and lines (planning, the
raven, raids, battles, the grammar's list of valid orders); the engine keeps it as data (the token's
kind and its language-neutral rest: " +1*"), and each catalogue names the kind in its words
("pochod +1*"). A command line quoted in a message is a plain parameter rendered by the messages'
``line`` filter (the ruleset's ``line`` hook, :mod:`.lines`).
"""

from __future__ import annotations

from ...messages import Msg


def token(text: str) -> Msg:
    """An order token as written canonically ("march +1*", "support", "raid*") -> ``agot.token``."""
    text = str(text)
    word = text.split(" ", 1)[0]
    kind = word.rstrip("*")
    return Msg("agot.token", kind=kind, rest=text[len(kind):])
