"""The rebellion of the Russian fan variant (agot2e-ru option ``rebellion``; its RULES.md V18, D29-D32): a
variant step of the round (``variantsteps.py``), the first after the action phase.

The seed's event card is in its missing section VI, so the trigger is ours: a round whose Westeros
cards include one of ``variant-params`` ``rebellion.cards`` (the 2nd edition's Last Days of Summer, which
otherwise does nothing; ``westeros.py`` announces it as the card resolves) ends its action phase with a
rebellion. Every house with an area of its own
(land, controlled) of total strength at most ``rebellion.strength_at_most`` names one (``REBEL <area>``;
default at the deadline: its weakest such area, ties by name). Total strength is what would defend the
area (the seed: "включая силу отрядов, бонусы от гарнизона замка и приказов обороны"): its unrouted
units as defenders, its garrison as in a battle (``battle.garrison_of``) and its Defense order, still on
the board after the action phase. In Iron Throne order a die (``rebellion.die`` sides, seeded from the
game's seed, the round and the house) is rolled for each, publicly; a roll above the strength wins: the
house's units there retreat as a beaten defender's (routed; a ``RETREAT <area> FROM <area>`` line on
file chooses, else the battle's default; siege engines, which never retreat, are destroyed), its order there
and its power token go, a home garrison
token goes over to the rebels, and a neutral force of the roll plus the castle's garrison holds the
area (conquered as any neutral force). Ships in the area's port stay.

``state["rebellion"]``: the card and the houses asked while the step waits (public).
"""

from __future__ import annotations

import random

from ...messages import Msg
from ...ruleset import Event, Owed
from . import aftermath, say
from . import position as pos
from .battle import garrison_of
from .battlefield import units_list
from .commands import Rebel
from .context import Ctx
from .support import unit_value

PLAN_KEY = "rebels"
"""The house's ``REBEL`` line on file (a list of one line, the last sent; ``submission.py``)."""


def trigger(state: dict, ctx: Ctx) -> str | None:
    """The Westeros card of this round that brings the rebellion, or None."""
    cards = ((state.get("westeros") or {}).get("cards") or {}).values()
    return next((card for card in cards if card in ctx.params.rebellion_cards), None)


def strength(state: dict, ctx: Ctx, house: str, area: str) -> int:
    """The total strength of ``house``'s ``area`` against rebels: its unrouted units defending, its garrison,
    its Defense order."""
    units = sum(unit_value(ctx, u, area, False) for u in pos.unrouted(state, area, house))
    defense = pos.order_bonus(state, area) if pos.order_kind(state, area) == "defense" else 0
    return units + garrison_of(state, ctx, area, house) + defense


def eligible(state: dict, ctx: Ctx, house: str) -> dict[str, int]:
    """``house``'s land areas of total strength at most the seed's 5 -> their strength."""
    most = ctx.params.rebellion_strength_at_most
    out = {}
    for area in ctx.gd.board.land_areas:
        if pos.controller(state, ctx.gd, area) == house and (n := strength(state, ctx, house, area)) <= most:
            out[area] = n
    return out


def weakest(ctx: Ctx, areas: dict[str, int]) -> str:
    return min(areas, key=lambda a: (areas[a], ctx.area(a)))


def roll(state: dict, ctx: Ctx, house: str) -> int:
    """The die of the rebellion against ``house`` this round: from the game's seed, never unseeded."""
    return random.Random(f"{state.get('seed', 0)}-rebellion-{state['round']}-{house}").randint(1, ctx.params.rebellion_die)


# -- the step (variantsteps.py) -------------------------------------------------------------------------------


def start(state: dict, ctx: Ctx) -> list[Event]:
    card = trigger(state, ctx) if ctx.on("rebellion") else None
    if card is None:
        return []
    asked = [h for h in pos.turn_order(state) if eligible(state, ctx, h)]
    if asked:
        state["rebellion"] = {"card": card, "houses": asked}
    return [Event("agot.rebellion.comes", card=card, most=ctx.params.rebellion_strength_at_most)]


def pending(state: dict, ctx: Ctx) -> list[Owed]:
    if not state.get("rebellion"):
        return []
    most = ctx.params.rebellion_strength_at_most
    out = []
    for house in state["rebellion"]["houses"]:
        areas = eligible(state, ctx, house)
        line = pos.plan(state, house).get(PLAN_KEY)
        out.append(Owed(house, Msg("agot.owed.rebel", most=most, areas=[ctx.area(a) for a in sorted(areas, key=ctx.area)]),
                        "step", bool(line) and ctx.command(line[0]).area in areas))
    return out


def advance(state: dict, ctx: Ctx, force: bool) -> list[Event]:
    """Every asked house's rebellion, in Iron Throne order."""
    events: list[Event] = []
    for house in state.pop("rebellion")["houses"]:
        areas = eligible(state, ctx, house)
        line = pos.plan(state, house).pop(PLAN_KEY, None)
        area = ctx.command(line[0]).area if line else None
        if area not in areas:
            area = weakest(ctx, areas)
            events.append(Event("agot.default.rebel", house=house, area=ctx.area(area)))
        events += _rise(state, ctx, house, area, areas[area])
    return events


def _rise(state: dict, ctx: Ctx, house: str, area: str, total: int) -> list[Event]:
    die = roll(state, ctx, house)
    events = [Event("agot.rebellion.roll", house=house, area=ctx.area(area), strength=total, roll=die)]
    if die <= total:
        return events + [Event("agot.rebellion.fails", house=house, area=ctx.area(area))]
    castle = garrison_of(state, ctx, area, house)
    events += _retreat(state, ctx, house, area)
    order = say.token(state["orders"].pop(area)) if area in state["orders"] else None
    token = state["control"].pop(area, None) is not None
    (state.get("garrisons") or {}).pop(area, None)  # a home's garrison token: the castle goes over to the rebels
    state["neutral"][area] = die + castle
    return events + [Event("agot.rebellion.succeeds", house=house, area=ctx.area(area), neutral=die + castle, roll=die,
                           castle=castle, order=order, token=token)]


def _retreat(state: dict, ctx: Ctx, house: str, area: str) -> list[Event]:
    """The house's units leave ``area`` as a beaten defender's would (the seed: "следуя правилам отступления"),
    routed; with nowhere to go they are destroyed."""
    units = pos.units_in(state, area, house)
    engines = [u for u in units if u in ctx.gd.setup.castle_only_units]  # 2e: siege engines never retreat (R7.1)
    units = [u for u in units if u not in engines]
    pos.set_units(state, area, house, units)
    events = [Event("agot.battle.siege_destroyed", house=house, units=units_list(engines), area=ctx.area(area))] \
        if engines else []
    if not units:
        return events
    b = {"area": area, "defender": house, "origin": None}
    legal, fit = aftermath.retreat_options(state, ctx, b, units)
    pos.set_units(state, area, house, [])
    if not legal:
        return events + [Event("agot.battle.no_retreat", house=house, area=ctx.area(area), units=units_list(units))]
    dest, said = aftermath.retreat_destination(state, ctx, b, house, legal)
    events += said
    keep = sorted(units, key=aftermath.KEEP_ORDER.index)
    kept, lost = keep[:fit], keep[fit:]
    pos.add_units(state, dest, house, kept, routed=True)
    return events + [Event("agot.battle.defender_retreats", house=house, kept=units_list(kept), lost=units_list(lost),
                           area=ctx.area(area), dest=ctx.area(dest))]


# -- mail ---------------------------------------------------------------------------------------------------


def check(state: dict, ctx: Ctx, house: str, command: Rebel) -> Msg | None:
    """Why ``REBEL <area>`` cannot be taken now, or None. While the rebellion asks, the area must be one of
    the house's of total strength at most 5; sent ahead (from the Westeros phase that revealed the card to
    the end of the action phase) only an area of the house's own, judged again when the rebellion comes."""
    if not ctx.on("rebellion"):
        return Msg("agot.error.no_rebellion")
    most = ctx.params.rebellion_strength_at_most
    asked = state.get("rebellion")
    ahead = not asked and trigger(state, ctx) is not None and state["phase"] not in _after_action(ctx)
    if not asked and not ahead:
        return Msg("agot.error.rebel_not_now")
    if asked and house not in asked["houses"]:
        return Msg("agot.error.rebel_not_asked", most=most)
    areas = eligible(state, ctx, house)
    if command.area not in areas and (asked or pos.controller(state, ctx.gd, command.area) != house
                                      or not ctx.gd.board.is_land(command.area)):
        return Msg("agot.error.rebel_area", area=ctx.area(command.area), most=most,
                   areas=[ctx.area(a) for a in sorted(areas, key=ctx.area)])
    return None


def _after_action(ctx: Ctx) -> set[str]:
    """The variant's steps after the action phase (the rebellion's and later ones): a line sent ahead is too late."""
    return {name for name, _ in ctx.rules.variant.STEPS["after_action"]}


def bot_mail(state: dict, ctx: Ctx, house: str, rng: random.Random) -> str | None:
    """A random area of the house's (sometimes nothing: the default)."""
    areas = eligible(state, ctx, house) if state.get("rebellion") and house in state["rebellion"]["houses"] else {}
    if not areas or rng.random() < 0.2:
        return None
    return Rebel(rng.choice(sorted(areas))).canonical(ctx.names)
