"""The seed's phase 7, the supply recount of every round (option ``gold-economy``; RULES.md V14): every
house's supply level from its barrels, in Iron Throne order; a house over its limit removes units
(``REMOVE`` lines, as for the 2nd edition's Supply card; default at the deadline: the same cut). A step
of ``variantsteps.py``; the Supply card itself does nothing while the economy is played (D18)."""

from __future__ import annotations

from ...ruleset import Event, Owed
from ..agot import position as pos
from ..agot import bidding, bot, westeros
from ..agot.context import Ctx


def _over(state: dict, ctx: Ctx) -> list[str]:
    return [h for h in pos.turn_order(state) if not pos.within_supply(state, ctx.gd, h)]


def start(state: dict, ctx: Ctx) -> list[Event]:
    return westeros.recount_supply(state, ctx)[0] if ctx.on("gold-economy") else []


def pending(state: dict, ctx: Ctx) -> list[Owed]:
    """The houses over their limit, until the cut is made (``turn`` 1: done)."""
    return westeros.owed_supply(state, ctx, _over(state, ctx)) if ctx.on("gold-economy") and not state["turn"] else []


def advance(state: dict, ctx: Ctx, force: bool) -> list[Event]:
    """Every house over its limit cuts at once, when all have sent their lines or at the deadline."""
    state["turn"] = 1
    return westeros.cut_to_supply(state, ctx, _over(state, ctx))


def bot_mail(state: dict, ctx: Ctx, house: str, rng) -> str | None:
    """Self-play: a house over its limit cuts as the 2nd edition's default would, at random."""
    return bot._removes(ctx, bidding.default_supply_cut(state, ctx, house, rng))
