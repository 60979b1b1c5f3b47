"""Small builders of the ``agot.*`` messages that many modules need: an order token, a canonical line.

Why a module: an order token ("march +1*") and a command line ("MARCH Winterfell -> Karhold: 1
footman") appear inside events and errors; the engine keeps them as data (the token's kind and its
language-neutral rest, the canonical line), and the catalogues render them in each language (the line
by the ruleset's ``line`` hook, :mod:`.lines`).
"""

from __future__ import annotations

from ...messages import Msg


def token(text: str) -> Msg:
    """An order token as written canonically ("march +1*", "support", "raid*") -> ``agot.token``."""
    text = str(text)
    word = text.split(" ", 1)[0]
    kind = word.rstrip("*")
    return Msg("agot.token", kind=kind, rest=text[len(kind):])


def line(text: str) -> Msg:
    """A canonical command line, shown in the reader's command words (``agot.line``)."""
    return Msg("agot.line", line=str(text))
