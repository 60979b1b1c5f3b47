"""Small builders of the ``agot.*`` messages that many modules need: an order token.

Why a module: an order token ("march +1*") appears inside events, errors and lines (planning, the
raven, raids, battles, the grammar's list of valid orders); the engine keeps it as data (the token's
kind and its language-neutral rest: " +1*"), and each catalogue names the kind in its words
("pochod +1*"). A command line quoted in a message is a plain parameter rendered by the messages'
``line`` filter (the ruleset's ``line`` hook, :mod:`.lines`).
"""

from __future__ import annotations

from ...messages import Msg, fast_msg


def token(text: str, trade: bool = False) -> Msg:
    """An order token as written canonically ("march +1*", "support", "raid*") -> ``agot.token``;
    ``trade``: the game plays with gold (agot2e-ru), where the Consolidate Power token is the Trade order."""
    text = str(text)
    word = text.split(" ", 1)[0]
    kind = word.rstrip("*")
    return fast_msg("agot.token", kind="trade" if trade and kind == "consolidate" else kind, rest=text[len(kind):])


def trade_word(text: str | None, trade: bool) -> str | None:
    """A canonical order token as a board shows it: ``consolidate`` is ``trade`` in a game with gold."""
    return "trade" + text[len("consolidate"):] if trade and text and text.startswith("consolidate") else text
