"""The seed's phase 5, taxes (option ``gold-economy``; RULES.md V14, V15): every house collects 1 gold
per gold icon it controls, x2 / x3 where its Trade order stands, in Iron Throne order; the Trade orders
then leave the board. Nobody decides anything: the step plays itself (a step of ``variantsteps.py``)."""

from __future__ import annotations

from ...ruleset import Event, Owed
from ..agot.context import Ctx
from . import economy


def start(state: dict, ctx: Ctx) -> list[Event]:
    return economy.collect_taxes(state, ctx) if ctx.on("gold-economy") else []


def pending(state: dict, ctx: Ctx) -> list[Owed]:
    return []


def advance(state: dict, ctx: Ctx, force: bool) -> list[Event]:
    return []
