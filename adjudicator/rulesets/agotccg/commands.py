"""Typed commands of the agotccg mail grammar (what :mod:`.grammar` makes of a line).

Cards are :class:`Ref`: the name as written (folded), an optional copy number (``#2``) and, for
the target of an attachment, an optional owner. The grammar knows words, not the game: which
card of the sender's hand or table a name means is :mod:`.submission`'s business.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...mailcommands import Help, OrdersQuery, Press, Status  # noqa: F401  (one set for every ruleset)

ALL = "ALL"


@dataclass(frozen=True)
class Ref:
    text: str  # folded name as written
    copy: int | None = None
    owner: str | None = None  # a player (the target of an attachment, a stealth target)


@dataclass(frozen=True)
class Keep:
    pass


@dataclass(frozen=True)
class Mulligan:
    pass


@dataclass(frozen=True)
class Setup:
    cards: tuple[Ref, ...]  # () with NOTHING


@dataclass(frozen=True)
class Plot:
    card: Ref


@dataclass(frozen=True)
class First:
    player: str | None  # None: the sender (ME)


@dataclass(frozen=True)
class Item:
    card: Ref
    on: Ref | None = None  # an attachment's character


@dataclass(frozen=True)
class Marshal:
    items: tuple[Item, ...]  # () with NOTHING


@dataclass(frozen=True)
class Attack:
    type: str
    opponent: str | None
    attackers: tuple[Ref, ...]
    stealth: tuple[Ref, ...] = ()


@dataclass(frozen=True)
class Pass:
    pass


@dataclass(frozen=True)
class Defend:
    type: str
    against: str | None
    cards: tuple[Ref, ...]  # () with NOBODY


@dataclass(frozen=True)
class Kill:
    cards: tuple[Ref, ...]


@dataclass(frozen=True)
class Save:
    card: Ref
    save: bool = True  # False: NOSAVE


@dataclass(frozen=True)
class Clear:
    pass


Command = (Keep | Mulligan | Setup | Plot | First | Marshal | Attack | Pass | Defend | Kill | Save | Clear | Help
           | Status | OrdersQuery | Press)
