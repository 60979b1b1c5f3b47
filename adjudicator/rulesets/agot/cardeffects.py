"""What house cards do to the board, shared by both editions' ability code (``agot1e/cards.py``,
``agot2e/cards.py``) and their deadline defaults (B26): a track dropped to its bottom, an order
removed, and which order or track a default picks."""

from __future__ import annotations

from ...ruleset import Event
from . import position as pos
from . import say
from .context import Ctx
from .support import support_value

TRACK_FALL_TIES = ("fiefdoms", "iron_throne", "kings_court")
"""2e Doran Martell's default track, among equal falls (B26: Fiefdoms decides combat ties)."""


def fall_most(state: dict, victim: str) -> str:
    """2e Doran Martell's deadline default (B26): the track where the opponent falls most."""
    last = len(state["houses"]) - 1
    return max(TRACK_FALL_TIES, key=lambda t: last - state["tracks"][t].index(victim))


def to_bottom(state: dict, b: dict, victim: str, card: str, track: str, *, default: bool = False) -> Event:
    """2e Doran Martell (mandatory): the opponent drops to the bottom of ``track``. Dominance tokens and turn
    order follow the tracks at once."""
    state["tracks"][track] = [h for h in state["tracks"][track] if h != victim] + [victim]
    return Event("agot.ability.to_bottom" if default else "agot.ability.to_bottom_chosen", card=card, house=victim,
                 track=track)


ORDER_PREFERENCE = ("support", "march", "consolidate", "raid", "defense")
"""2e Queen of Thorns' default among the opponent's other orders (B26)."""


def order_to_remove(state: dict, ctx: Ctx, b: dict, victim: str, orders: list[str]) -> str:
    """2e Queen of Thorns' deadline default among ``orders`` (B26): the opponent's support of this combat
    that adds the most, else the first by kind (support, march, consolidate, raid, defense), then by area
    name."""
    backing = [n for n in orders if b["supports"].get(n) == victim]
    if backing:
        return max(sorted(backing, key=ctx.area), key=lambda n: support_value(state, ctx, b, n)[0])
    return min(orders, key=lambda n: (ORDER_PREFERENCE.index(pos.order_kind(state, n)), ctx.area(n)))


def remove_adjacent_order(state: dict, ctx: Ctx, b: dict, house: str, card: str, target: str) -> list[Event]:
    """2e Queen of Thorns (mandatory): the opponent's order in ``target``, next to the combat, goes; a
    removed Support order stops supporting it."""
    b["supports"].pop(target, None)
    return [removes_order(state, ctx, card, house, target)]


def removes_order(state: dict, ctx: Ctx, card: str, house: str, area: str) -> Event:
    """A card's ability takes the order in ``area`` off the board (1e Cersei, Asha; 2e Queen of Thorns,
    Cersei)."""
    kind, owner = state["orders"][area], pos.order_owner(state, area)
    pos.remove_order(state, area)
    return Event("agot.ability.removes_order", card=card, house=house, owner=owner, order=say.token(kind),
                 area=ctx.area(area))
