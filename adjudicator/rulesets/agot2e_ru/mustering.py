"""The seed's phase 8, mustering in every round (option ``gold-economy``; RULES.md V17): in Iron Throne
order each house may muster in its castles (land units, within the castle's muster points) and docks
(ships, 1 point each), paying every unit's gold (``economy.muster_prices``). ``MUSTER`` lines as for the
2nd edition's Mustering card; a house that could muster and sent nothing at the deadline musters
nothing. A step of ``variantsteps.py``; the Mustering card does nothing while the economy is played
(D18)."""

from __future__ import annotations

from ...ruleset import Event, Owed
from ..agot import bot, westeros
from ..agot.context import Ctx


def start(state: dict, ctx: Ctx) -> list[Event]:
    if not ctx.on("gold-economy"):
        return []
    return [Event("agot.mustering_round", round=state["round"])]


def pending(state: dict, ctx: Ctx) -> list[Owed]:
    """Every house that could muster, until the step has resolved (``turn`` 1: done)."""
    return westeros.owed_muster(state, ctx) if ctx.on("gold-economy") and not state["turn"] else []


def advance(state: dict, ctx: Ctx, force: bool) -> list[Event]:
    state["turn"] = 1  # resolved: a house that could still muster owes nothing more this round
    return westeros.resolve_musters(state, ctx)


def bot_mail(state: dict, ctx: Ctx, house: str, rng) -> str | None:
    """Self-play: a legal muster at random, or none."""
    return bot.muster_mail(state, ctx, house, rng) or "MUSTER NONE"
