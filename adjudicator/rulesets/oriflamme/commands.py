"""Typed commands of the Oriflamme mail grammar (what :mod:`.grammar` makes of a line).

References to cards:

* :class:`Ref` ``pos`` (a position in the queue, 1 = the first card to resolve), ``end``
  (``first``/``last``), or ``card`` with ``owner`` (None: the sender's own card);
* own-card references (PLACE ... ON, REVEAL, WAIT, TARGET <card>) are turned into card ids by
  :mod:`.submission`, which knows the position.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...mailcommands import Help, OrdersQuery, Press, Status  # noqa: F401  (one set for every ruleset)
ALL = "ALL"


@dataclass(frozen=True)
class Ref:
    pos: int | None = None
    end: str | None = None  # first | last
    owner: str | None = None  # None: the sender
    card: str | None = None

    def as_dict(self, sender: str) -> dict:
        if self.pos is not None:
            return {"pos": self.pos}
        if self.end is not None:
            return {"end": self.end}
        return {"owner": self.owner or sender, "card": self.card}


@dataclass(frozen=True)
class Spec:
    """What follows ``TARGET <card>:``. Which fields make sense depends on the card (checked later)."""

    side: str | None = None  # before | after (Soldier, Spy, Shapeshifter's model)
    end: str | None = None  # first | last (Archer; Assassination: a card reference)
    then: "Spec | None" = None  # Shapeshifter: the copied ability's side or end
    ref: Ref | None = None  # Assassination, Royal Decree: the card
    to: int | str | None = None  # Royal Decree: front | back | a position


@dataclass(frozen=True)
class Place:
    card: str
    where: str  # front | back | on
    on: Ref | None = None


@dataclass(frozen=True)
class Reveal:
    card: Ref
    round: int | None = None


@dataclass(frozen=True)
class Wait:
    card: Ref


@dataclass(frozen=True)
class Target:
    card: Ref
    spec: Spec


@dataclass(frozen=True)
class Clear:
    pass










Command = Place | Reveal | Wait | Target | Clear | Help | Status | OrdersQuery | Press
