"""The mail-level commands every game's grammar accepts, and what the mail service does with them.

``HELP [topic]``, ``STATUS``, ``ORDERS?`` and ``PRESS [ANON] <player>[, ...] | ALL: <text>`` change
nothing in a game: a ruleset's grammar parses them (its own keywords and player names) into
these classes, and its ``submit`` hands them on as ``Submission.requests`` (see
:func:`requests`), which the mail service answers (adjudicator/mail/process.py). One set of
classes for every ruleset, so that the mail service needs no knowledge of any game.
"""

from __future__ import annotations

from dataclasses import dataclass

ALL = "ALL"  # PRESS to every player

MAIL_WORDS: dict[str, str] = {
    "help": "HELP", "napoveda": "HELP", "pomoc": "HELP",
    "status": "STATUS", "stav": "STATUS",
    "orders?": "ORDERS?", "rozkazy?": "ORDERS?",
    "press": "PRESS", "zprava": "PRESS",
}
"""The mail-level commands' first words (folded: lower case, no diacritics), the same in every
ruleset and language; each grammar merges them into its own table of command words."""


@dataclass(frozen=True, slots=True)
class Help:
    """``HELP [topic]`` (the topic is an extension; the judge may ignore it)."""

    topic: str | None = None

    def canonical(self, names=None) -> str:
        return "HELP" + (f" {self.topic}" if self.topic else "")


@dataclass(frozen=True, slots=True)
class Status:
    """``STATUS``: the sender's own view of the game, in the reply."""

    def canonical(self, names=None) -> str:
        return "STATUS"


@dataclass(frozen=True, slots=True)
class OrdersQuery:
    """``ORDERS?``: what the judge holds for the sender."""

    def canonical(self, names=None) -> str:
        return "ORDERS?"


@dataclass(frozen=True, slots=True)
class Press:
    """``PRESS [ANON] <player>[, <player>...] | ALL: <text>``; ``to`` is player ids or :data:`ALL`.

    The text is kept as written (only trimmed): it is a message between people. ``names`` may
    offer ``player_name(id)`` for the canonical echo (agot1e writes houses capitalised)."""

    to: tuple[str, ...] | str
    text: str
    anonymous: bool = False

    def canonical(self, names=None) -> str:
        show = getattr(names, "player_name", None) or (lambda player: player)
        to = ALL if self.to == ALL else ", ".join(show(p) for p in self.to)
        return f"PRESS {'ANON ' if self.anonymous else ''}{to}: {self.text}"


def requests(commands) -> list[tuple]:
    """The mail-level commands among ``commands``, as the tuples of ``Submission.requests``:
    ``("help", topic)``, ``("status",)``, ``("orders?",)``, ``("press", ALL | (player, ...), text, anonymous)``."""
    out: list[tuple] = []
    for command in commands:
        if isinstance(command, Help):
            out.append(("help", command.topic))
        elif isinstance(command, Status):
            out.append(("status",))
        elif isinstance(command, OrdersQuery):
            out.append(("orders?",))
        elif isinstance(command, Press):
            # one line of the sender's mail stays one line: a Unicode line separator in it (U+2028, U+2029)
            # would make lines of the relayed mail that pass for another house's press
            text = " ".join(command.text.splitlines())
            out.append(("press", ALL if command.to == ALL else tuple(command.to), text, command.anonymous))
    return out
