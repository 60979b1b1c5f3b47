"""2nd edition: the starred Consolidate Power order's choice (agot2e RULES.md R8.4, B25, 11.1-11.2).

A starred Consolidate Power order in a castle area gives the Power as any Consolidate Power order, or
musters in its own area as if a Mustering card resolved there, with that area's points:
``CONSOLIDATE <area>: POWER | MUSTER <items>``. The consolidate step resolves the houses in turn order
(``action.resolve_consolidate``); a house whose starred order could muster and that has no usable line
on file is asked alone when its turn comes, and the deadline's default is the Power (B25). A line sent
ahead is judged when its turn comes: a muster that is not legal then is not used (the house is asked,
or at the deadline takes the Power).
"""

from __future__ import annotations

from ...messages import Msg
from ...ruleset import Event, Owed
from . import gold, westeros
from . import position as pos
from .commands import Consolidate, Muster
from .context import Ctx

STARRED = "consolidate*"


def _castle(ctx: Ctx, area: str) -> bool:
    return ctx.gd.board.is_land(area) and bool(westeros.muster_points(ctx, area))


def asked(state: dict, ctx: Ctx, house: str) -> str | None:
    """The castle area of ``house``'s starred Consolidate Power order when it could muster there (a choice
    to make), else None; never in agot1e (``OrderRules.consolidate_musters``)."""
    if not ctx.rules.orders.consolidate_musters or gold.in_play(state):  # agot2e-ru: Trade instead (D16)
        return None
    for area in pos.orders_of(state, house, "consolidate"):
        if state["orders"][area] == STARRED and _castle(ctx, area) and any(
                m.area == area for m in westeros.muster_options(state, ctx, house)):
            return area
    return None


def _line(state: dict, ctx: Ctx, house: str, area: str) -> tuple[int, Consolidate] | None:
    lines = pos.plan(state, house).get("consolidations") or []
    found = [(i, c) for i, line in enumerate(lines) if (c := ctx.command(line)).area == area]
    return found[-1] if found else None


def _problem(state: dict, ctx: Ctx, house: str, command: Consolidate) -> Msg | None:
    if command.muster is None:
        return None
    return westeros.muster_problem(state, ctx, house, Muster(command.area, command.muster))


def chosen(state: dict, ctx: Ctx, house: str, area: str) -> Consolidate | None:
    """The house's CONSOLIDATE line for ``area`` if it is legal now."""
    line = _line(state, ctx, house, area)
    return line[1] if line is not None and _problem(state, ctx, house, line[1]) is None else None


def pending(state: dict, ctx: Ctx) -> list[Owed]:
    """The first house in turn order still to consolidate whose starred order asks a choice."""
    for house in pos.turn_order(state):
        if not pos.orders_of(state, house, "consolidate"):
            continue
        area = asked(state, ctx, house)
        if area is not None:
            return [Owed(house, Msg("agot.owed.consolidate", area=ctx.area(area),
                                    points=westeros.muster_points(ctx, area)), "step",
                         chosen(state, ctx, house, area) is not None)]
    return []


def resolve(state: dict, ctx: Ctx, house: str, area: str, force: bool) -> tuple[list[Event], bool] | None:
    """``house``'s starred order in ``area``: a muster by its line (the order leaves the board), the Power
    (False: counted with the house's other orders), or None: not decided yet (asked, no ``force``)."""
    command = chosen(state, ctx, house, area)
    line = _line(state, ctx, house, area)
    if command is None and not force:
        return None
    events = []
    if line is not None:
        del pos.plan(state, house)["consolidations"][line[0]]
        if command is None:
            events.append(Event("agot.skipped_because", line=line[1].canonical(ctx.names),
                                problem=_problem(state, ctx, house, line[1]), to=(house,)))
    if command is None:
        return events + [Event("agot.default.consolidate", house=house, area=ctx.area(area))], False
    if command.muster is None:
        return events, False
    pos.remove_order(state, area)
    done = westeros._apply_muster(state, ctx, house, Muster(area, command.muster))
    return events + [Event("agot.consolidate.musters", house=house, done=done)], True


def check(state: dict, ctx: Ctx, house: str, command: Consolidate, orders: dict) -> tuple[Msg | None, str | None]:
    """A CONSOLIDATE line names a castle area with the house's starred Consolidate Power order (placed, or
    in the orders it has sent); its muster is judged in full when the house is asked, else only for
    what never changes (the area's points)."""
    where = ctx.area(command.area)
    if gold.in_play(state):  # agot2e-ru: the tokens are Trade orders, which muster nothing (D16)
        return Msg("agot.error.consolidate_is_trade", area=where), None
    if str(orders.get(command.area, "")) != STARRED:
        return Msg("agot.error.no_starred_consolidate", area=where), None
    if not _castle(ctx, command.area):
        return Msg("agot.error.consolidate_no_castle", area=where), f"CONSOLIDATE {where}: POWER"
    if command.muster is None:
        return None, None
    if state["step"] == "consolidate" and asked(state, ctx, house) == command.area:
        problem = _problem(state, ctx, house, command)
        options = [m for m in westeros.muster_options(state, ctx, house) if m.area == command.area]
        example = Consolidate(command.area, options[0].items).canonical(ctx.names) if options else None
        return problem, example if problem else None
    points, cost = westeros.muster_points(ctx, command.area), westeros._cost(ctx, command.muster)
    if cost > points:
        return Msg("agot.error.muster_points", area=where, points=points, cost=cost), f"CONSOLIDATE {where}: POWER"
    return None, None


def store(state: dict, ctx: Ctx, house: str, command: Consolidate) -> None:
    """A CONSOLIDATE line replaces the one on file for its area (2e: the plan's ``consolidations``)."""
    plan = pos.plan(state, house)
    lines = [line for line in plan.get("consolidations") or [] if ctx.command(line).area != command.area]
    plan["consolidations"] = lines + [command.canonical(ctx.names)]
