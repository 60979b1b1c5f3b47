"""The variant's income and its costs in gold (option ``gold-economy``; RULES.md V14-V17): taxes from
gold icons, Trade orders, raids on Trade, and what a muster costs (gold, the castle's muster points,
docks for ships).

Trade orders are the 2nd edition's Consolidate Power tokens read as Trade (``state["orders"]`` keeps
``consolidate`` / ``consolidate*``): they stay on the board through the action phase (the consolidate
step has nothing to do) and are executed, and removed, by the taxes step. The shared engine calls
:func:`raid_on_trade` when a raid removes one, and :func:`muster_problem` / :func:`muster_paid` for every
muster while gold is in play.
"""

from __future__ import annotations

from ...messages import Msg
from ...ruleset import Event
from ..agot import gold, westeros
from ..agot import position as pos
from ..agot.context import Ctx

TRADE = "consolidate"


def gold_icons(ctx: Ctx, area: str) -> int:
    """Gold icons printed in ``area`` (ours: a 2nd-edition crown is a gold icon, ``economy.gold_icons``)."""
    place = ctx.gd.board.area(area)
    return place.power if place.kind == "land" else 0


def multiplier(state: dict, ctx: Ctx, area: str) -> int:
    """What ``area``'s order does to its tax: x2 for Trade, x3 for the starred Trade, else x1 (a Trade
    order on ships is a bluff: a sea or port pays no tax)."""
    order = state["orders"].get(area)
    if order is None or pos.order_kind(state, area) != TRADE or ctx.gd.board.area(area).kind != "land":
        return 1
    economy = ctx.params.economy
    return economy.star_trade_multiplier if str(order).endswith("*") else economy.trade_multiplier


def expected_tax(state: dict, ctx: Ctx, area: str) -> int:
    """The tax ``area`` would pay its holder with the order standing there now."""
    return gold_icons(ctx, area) * multiplier(state, ctx, area)


def raid_on_trade(state: dict, ctx: Ctx, raider: str, area: str) -> int:
    """A raid removes the Trade order in ``area`` (called before the order leaves): the raider gets half
    the tax it would have brought, rounded down, at least the seed's 1; the victim keeps its plain tax
    (the order is gone). Returns the gold taken."""
    economy = ctx.params.economy
    got = max(economy.raid_on_trade_minimum, expected_tax(state, ctx, area) // economy.raid_on_trade_share)
    gold.receive(state, raider, got)
    return got


def taxes_due(state: dict, ctx: Ctx, house: str) -> int:
    """What ``house`` would collect if the taxes were collected now (its Trade orders on the board counted)."""
    return sum(expected_tax(state, ctx, a) for a in ctx.gd.board.land_areas
               if pos.controller(state, ctx.gd, a) == house)


def collect_taxes(state: dict, ctx: Ctx) -> list[Event]:
    """Every house in Iron Throne order: 1 gold per gold icon in the land areas it controls, x2 / x3
    where its Trade order stands; every Trade order then leaves the board."""
    parts = []
    for house in pos.turn_order(state):
        total = taxes_due(state, ctx, house)
        traded = [ctx.area(a) for a in pos.orders_of(state, house, TRADE) if multiplier(state, ctx, a) > 1]
        gold.receive(state, house, total)
        parts.append(Msg("agot.taxes.house", house=house, n=total, trade=traded, purse=gold.held(state, house)))
    removed = [a for a in list(state["orders"]) if pos.order_kind(state, a) == TRADE]
    for area in removed:
        pos.remove_order(state, area)
    return [Event("agot.taxes.collected", parts=parts)]


# -- mustering in gold (V17) ------------------------------------------------------------------------------


def is_dock(ctx: Ctx, area: str) -> bool:
    return area in ctx.params.docks


def muster_areas(state: dict, ctx: Ctx, house: str) -> list[str]:
    """The house's castle areas and docks, where it may muster."""
    board = ctx.gd.board
    return [a for a in board.land_areas if (westeros.muster_points(ctx, a) or is_dock(ctx, a))
            and pos.controller(state, ctx.gd, a) == house]


def price(ctx: Ctx, items) -> int:
    """The gold a muster's items cost (``economy.muster_prices``, ours)."""
    prices = ctx.params.economy.muster_prices
    return sum(prices["upgrade"] if i.upgrade else prices[i.unit] for i in items)


def muster_problem(state: dict, ctx: Ctx, house: str, area: str, items, cost_of) -> Msg | None:
    """Why a muster of ``items`` in ``area`` cannot be paid: ships only in a dock (1 point each dock),
    land units within the castle's muster points (variant-params ``muster_points``), and the gold."""
    board = ctx.gd.board
    name = ctx.area(area)
    ships = [i for i in items if i.unit == "ship" and not i.upgrade]
    land = [i for i in items if i not in ships]
    if ships and not is_dock(ctx, area):
        return Msg("agot.error.muster_ship_no_dock", area=name)
    if cost_of(ships) > int(is_dock(ctx, area)):
        return Msg("agot.error.muster_dock_points", area=name, cost=cost_of(ships))
    castle = board.area(area).castle
    points = ctx.params.muster_value(area, castle) if castle in ("city", "stronghold") \
        and westeros.muster_points(ctx, area) else 0  # (moat-cailin: Moat Cailin gives none)
    if land and not points:
        return Msg("agot.error.muster_no_castle", area=name)
    if cost_of(land) > points:
        return Msg("agot.error.muster_points", area=name, points=points, cost=cost_of(land))
    if not gold.can_pay(state, house, price(ctx, items)):
        return Msg("agot.error.muster_gold", cost=price(ctx, items), purse=gold.held(state, house))
    return None


def muster_paid(state: dict, ctx: Ctx, house: str, items) -> Msg:
    """Pay a legal muster's gold; the part of the mustered text that says so."""
    cost = price(ctx, items)
    gold.pay(state, house, cost)
    return Msg("agot.mustered.paid", n=cost)
