"""The action phase without battles: raids, marches, consolidate power (CZ p.7-12).

Raids and marches resolve one order at a time in Iron Throne order, repeated until none is
left. The house whose turn it is owes a decision: it is taken from the RAID/MARCH lines the
house sent ahead (in the order written, the first one legal now) and asked for otherwise.
``state["turn"]`` is the index on the Iron Throne track where the search for the next house
starts.
"""

from __future__ import annotations

from collections import Counter

from ...messages import Msg, fast_msg
from ...ruleset import Event, Owed, fast_event
from . import battle, bidding, consolidate, gold, say, support, takeover
from . import position as pos
from .commands import ALL, NEUTRAL, March, Raid
from .context import Ctx

RAID_TARGETS = ("support", "raid", "consolidate")  # CZ p.7: never march or defense
UPGRADES_ON_WIN = ("renly-baratheon",)  # a house card that may turn a footman into a knight before a march


# -- whose turn --------------------------------------------------------------------------------------


def next_house(state: dict, kind: str, ctx: Ctx | None = None) -> str | None:
    """The next house in turn order, from ``state['turn']``, that still has an order of ``kind``
    (for raids, with ``ctx``: a raid that has a target; the others go without asking; for marches, one
    with units to move: agot2e-ru ``orders-in-token-areas``, :func:`drop_idle_marches`)."""
    having = pos.orders_by_house(state, kind)
    if not having:
        return None
    order = state["tracks"]["iron_throne"]
    areas = state["areas"]
    houses = list(filter(order.__contains__, having))
    if len(houses) > 1:  # in turn order from state["turn"] (the track's index i comes (i - turn) % n-th)
        turn, n = state["turn"], len(order)
        houses.sort(key=lambda house: (order.index(house) - turn) % n)
    for house in houses:
        if kind == "march":
            for area in having[house]:
                if (areas.get(area) or {}).get(house):
                    break
            else:  # (none of its March orders has units to move)
                continue
        if ctx is None or any(raid_targets(state, ctx, a) for a in having[house]):
            return house
    return None


def drop_idle_marches(state: dict, ctx: Ctx) -> list[Event]:
    """The marches are over: a March order left on a power token alone (agot2e-ru ``orders-in-token-areas``,
    RULES.md V25), which no unit reached to march on, is removed; a house is never asked about one while
    all its March orders are so (:func:`next_house`)."""
    events = []
    for area in pos.order_areas(state, "march"):
        house, token = pos.order_owner(state, area), state["orders"][area]
        pos.remove_order(state, area)
        events.append(fast_event("agot.march.idle", house=house, order=say.token(token), area=ctx.area(area)))
    return events


def pass_turn(state: dict, house: str) -> None:
    state["turn"] = (state["tracks"]["iron_throne"].index(house) + 1) % len(state["houses"])


# -- raids ---------------------------------------------------------------------------------------------


def raid_reaches(ctx: Ctx, src: str, n: str) -> bool:
    """Whether a raid from ``src`` may ever reach the adjacent ``n`` (``board.raid_reaches``); with the
    agot2e-ru option ``ports-safe-from-raids`` never a port from its sea (RULES.md V12)."""
    board = ctx.gd.board
    if ctx.on("ports-safe-from-raids") and board.area(n).kind == "port" and board.is_sea(src):
        return False
    return board.raid_reaches(src, n)


def raid_targets(state: dict, ctx: Ctx, area: str) -> list[str]:
    """Areas whose orders the raid in ``area`` may remove (adjacent enemy support/raid/consolidate)."""
    house = pos.order_owner(state, area)
    board = ctx.gd.board
    star_defense = ctx.rules.orders.star_raid_defense and pos.order_star(state, area)
    kinds = RAID_TARGETS + ("defense",) if star_defense else RAID_TARGETS  # 2e: raid* may remove a Defense order
    out = []
    for n in board.neighbours(area):
        if not raid_reaches(ctx, area, n):
            continue
        if n in state["orders"] and pos.order_owner(state, n) not in (None, house) and pos.order_kind(state, n) in kinds:
            out.append(n)
    return sorted(out)


def drop_hopeless_raids(state: dict, ctx: Ctx) -> list[Event]:
    """A raid with no legal target is removed without asking (CZ p.7); targets never appear later."""
    events = []
    for area in pos.order_areas(state, "raid"):
        if not raid_targets(state, ctx, area):
            pos.remove_order(state, area)
            events.append(fast_event("agot.raid.no_target", area=ctx.area(area)))
    return events


def check_raid(state: dict, ctx: Ctx, house: str, raid: Raid) -> str | None:
    where = ctx.area(raid.src)
    if pos.order_kind(state, raid.src) != "raid" or pos.order_owner(state, raid.src) != house:
        return fast_msg("agot.error.no_order_in", kind="raid", area=where)
    if raid.none:
        return None
    legal = raid_targets(state, ctx, raid.src)
    most = ctx.rules.orders.star_raid_targets if pos.order_star(state, raid.src) else 1
    if len(raid.targets) > most:
        return fast_msg("agot.error.raid_at_most", area=where, n=most)
    if len(set(raid.targets)) != len(raid.targets):
        return fast_msg("agot.error.same_target_twice")
    for target in raid.targets:
        if target not in legal:
            return fast_msg("agot.error.not_raid_target", target=ctx.area(target), area=where,
                       targets=[ctx.area(t) for t in legal])
    return None


def raid_reach(state: dict, ctx: Ctx, house: str, src: str, *, occupants_known: bool) -> list[str]:
    """The areas a raid from ``src`` might ever target this round: adjacent (never through ships),
    never a sea from land (CZ p.7), and, when the occupants cannot change before the raid, held by
    another house (an order needs units; a house never raids its own, RULES.md A10)."""
    board = ctx.gd.board
    return sorted((n for n in board.neighbours(src) if raid_reaches(ctx, src, n)
                   and (not occupants_known or pos.order_owner(state, n) not in (None, house))), key=ctx.area)


def raid_never_legal(state: dict, ctx: Ctx, house: str, raid: Raid, *, star: bool | None,
                     occupants_known: bool) -> str | None:
    """What makes a RAID line sent ahead illegal whatever happens before its turn (the targets' orders
    are secret until the reveal and are judged then); ``star`` None: the order's token is not known."""
    if raid.none:
        return None
    where = ctx.area(raid.src)
    most = 1 if star is False else ctx.rules.orders.star_raid_targets
    if len(raid.targets) > most:
        return fast_msg("agot.error.raid_at_most", area=where, n=most)
    if len(set(raid.targets)) != len(raid.targets):
        return fast_msg("agot.error.same_target_twice")
    board = ctx.gd.board
    possible = raid_reach(state, ctx, house, raid.src, occupants_known=occupants_known)
    for target in raid.targets:
        if target in possible:
            continue
        if not board.adjacent(raid.src, target):
            why = "not_adjacent"
        elif not raid_reaches(ctx, raid.src, target):
            if board.raid_reaches(raid.src, target):
                why = "port"  # the agot2e-ru option's rule
            elif board.area(raid.src).kind == "port":
                why = "from_port"  # 2e: a port's raid reaches only its sea
            elif board.area(target).kind == "port":
                why = "land_to_port"
            else:
                why = "sea"
        elif pos.order_owner(state, target) == house:
            why = "own_units"
        else:
            why = "no_units"
        return fast_msg("agot.error.cannot_raid", target=ctx.area(target), area=where, why=why,
                   targets=[ctx.area(t) for t in possible])
    return None


def _planned(state: dict, ctx: Ctx, house: str, key: str, check) -> int | None:
    """Index of the first instruction under plan[key] that is legal now."""
    for i, line in enumerate(pos.plan(state, house)[key]):
        if check(state, ctx, house, ctx.command(line)) is None:
            return i
    return None


def pending_turn(state: dict, ctx: Ctx, kind: str) -> list[Owed]:
    """The house whose raid or march is next owes one, unless a legal one was sent ahead."""
    house = next_house(state, kind, ctx if kind == "raid" else None)
    if house is None:
        return []
    areas = [ctx.area(a) for a in pos.orders_of(state, house, kind)]
    key, check = ("raids", check_raid) if kind == "raid" else ("marches", check_march)
    done = _planned(state, ctx, house, key, check) is not None
    return [Owed(house, fast_msg("agot.owed.turn", kind=kind, areas=areas), "step", done)]


def resolve_raid(state: dict, ctx: Ctx, force: bool) -> tuple[list[Event], bool]:
    """The next house's raid: (events, True when no raid was left to resolve: the step is over)."""
    events = drop_hopeless_raids(state, ctx)
    house = next_house(state, "raid", ctx)
    if house is None:
        return events, True
    pass_turn(state, house)
    raid, skipped = _take_planned(state, ctx, house, "raids", check_raid)
    events += skipped
    if raid is None:  # only on force: the deadline passed
        area = [a for a in pos.orders_of(state, house, "raid") if raid_targets(state, ctx, a)][0]
        pos.remove_order(state, area)
        return events + [fast_event("agot.default.turn", house=house, kind="raid", area=ctx.area(area))], False
    pos.remove_order(state, raid.src)
    if raid.none:
        return events + [fast_event("agot.raid.unused", house=house, area=ctx.area(raid.src))], False
    for target in raid.targets:
        victim, kind = pos.order_owner(state, target), pos.order_kind(state, target)
        got = None
        if kind == "consolidate" and gold.in_play(state):  # agot2e-ru: a raid on Trade takes gold (V15)
            events.append(fast_event("agot.raid.trade", house=house, src=ctx.area(raid.src), target=ctx.area(target),
                                victim=victim, n=ctx.rules.variant.economy.raid_on_trade(state, ctx, house, target)))
            pos.remove_order(state, target)
            continue
        pos.remove_order(state, target)
        if kind == "consolidate":  # CZ p.7: plundering gives the raider a power token from the bank
            got = pos.gain_power(state, house, 1, ctx.gd.setup.power_limit)
        events.append(fast_event("agot.raid.done", house=house, src=ctx.area(raid.src), target=ctx.area(target),
                            victim=victim, kind=kind, plunder=got))
        lost = min(ctx.rules.orders.pillage_loss, state["power"][victim]) if kind == "consolidate" else 0
        if lost:  # 2e: the victim of a pillage discards available Power (agot2e RULES.md R8.1)
            state["power"][victim] -= lost
            events.append(fast_event("agot.raid.pillaged", house=victim, n=lost))
    return events + drop_hopeless_raids(state, ctx), False


def _take_planned(state: dict, ctx: Ctx, house: str, key: str, check) -> tuple[Raid | March | None, list[Event]]:
    """Take the first instruction under plan[key] that is legal now off the plan (None if there is
    none), with the instructions written before it, illegal now, dropped with a private note each."""
    index = _planned(state, ctx, house, key, check)
    lines = pos.plan(state, house)[key]
    skipped = lines[: index if index is not None else len(lines)]
    del lines[: len(skipped)]
    notes = [fast_event("agot.skipped", line=line, to=(house,)) for line in skipped] if skipped else []
    return (ctx.command(lines.pop(0)) if index is not None else None), notes


# -- marches -------------------------------------------------------------------------------------------


def reachable(state: dict, ctx: Ctx, house: str, src: str) -> set[str]:
    """Where units in ``src`` may march: adjacent areas of their kind, plus land by own ships (CZ p.8);
    routed ships carry nobody: routed units take no part in a march (CZ p.12). 2e: ships move between
    a sea and a port only their house owns; nobody enters an impassable area."""
    board = ctx.gd.board
    if not board.is_land(src):
        return {n for n in board.neighbours(src) if not board.is_land(n) and pos.ships_may_enter(state, ctx.gd, house, n)}
    reach = board.reach_by_march(src, pos.ship_seas(state, ctx.gd, house, unrouted=True)) - {src}
    if not state.get("impassable"):  # (2e with 3 houses only)
        return reach
    return {n for n in reach if not pos.closed(state, ctx.gd, n)}


def knight_reach(state: dict, ctx: Ctx, house: str, src: str, seas: set[str], *, controlled: bool = True) -> set[str]:
    """agot2e-ru ``knight-double-move`` (RULES.md V10): where knights alone may march in two moves, through
    a land area ``house`` controls before the march (``controlled`` False: through any land area, for a
    line sent ahead, whose turn may come after control changed); each move may use ships (``seas``)."""
    board = ctx.gd.board
    out: set[str] = set()
    if not board.is_land(src):
        return out
    for mid in board.reach_by_march(src, seas) - {src}:
        if pos.closed(state, ctx.gd, mid) or (controlled and pos.controller(state, ctx.gd, mid) != house):
            continue
        out |= {n for n in board.reach_by_march(mid, seas) if not pos.closed(state, ctx.gd, n)}
    return out - {src}


def reach_text(ctx: Ctx, src: str, reach) -> Msg:
    """"from Winterfell a march reaches Castle Black, Karhold, ..." for an error."""
    return fast_msg("agot.error.reach", src=ctx.area(src), areas=sorted((ctx.area(a) for a in reach), key=str.casefold))


def possible_ship_seas(state: dict, ctx: Ctx, house: str, orders: dict[str, str], extra: set[str] = frozenset()) -> set[str]:
    """Every sea where ``house`` may have an unrouted ship when a march of this round resolves: where
    its ships are now (routed ones stay routed), ``extra`` (seas a coming Mustering may put a ship in),
    and every sea its ships may reach by the march orders in ``orders``, relays included. A superset:
    which of those marches come first, and which ships survive, is judged at the march's turn."""
    board = ctx.gd.board
    seas = pos.ship_seas(state, ctx.gd, house, unrouted=True) | set(extra)
    marching = {a for a, t in orders.items() if not board.is_land(a) and str(t).startswith("march")}
    seas |= {board.area(a).sea for a in marching if board.area(a).kind == "port"}  # 2e: ships out of a port
    frontier = list(seas & marching)
    while frontier:
        for n in board.neighbours(frontier.pop()):
            if board.is_sea(n) and n not in seas:
                seas.add(n)
                if n in marching:
                    frontier.append(n)
    return seas


def march_never_legal(state: dict, ctx: Ctx, house: str, march: March, *, seas: set[str], units_known: bool) -> str | None:
    """What makes a MARCH line sent ahead illegal whatever happens before its turn: a destination of the
    wrong kind, one no march from there can reach even by every ship ``seas`` may hold, the same
    destination twice, and (``units_known``: no earlier march of the house feeds the area and no
    Mustering is to come) units that are not there. Armies, enemies, neutral forces, supply and power
    change before the turn: those are judged then."""
    board = ctx.gd.board
    src, where = march.src, ctx.area(march.src)
    dests = [m.dest for m in march.moves]
    if len(set(dests)) != len(dests):
        return fast_msg("agot.error.same_destination_twice")
    if not board.is_land(src):
        reach = {n for n in board.neighbours(src) if not board.is_land(n) and not pos.closed(state, ctx.gd, n)}
    else:
        reach = {n for n in board.reach_by_march(src, seas) - {src} if not pos.closed(state, ctx.gd, n)}
    for move in march.moves:
        dest = ctx.area(move.dest)
        units = () if move.units == ALL else move.units
        if board.is_land(move.dest) != board.is_land(src) or (not board.is_land(src) and set(units) - {"ship"}) \
                or (board.is_land(src) and "ship" in units):
            return fast_msg("agot.error.wrong_kind_of_area", dest=dest, reach=reach_text(ctx, src, reach))
        if move.dest not in reach and not (ctx.on("knight-double-move") and set(units or ["knight"]) == {"knight"}
                                           and move.dest in knight_reach(state, ctx, house, src, seas, controlled=False)):
            return fast_msg("agot.error.unreachable", dest=dest, src=where, reach=reach_text(ctx, src, reach),
                       by_then=board.is_land(src))
    if units_known and march.moves:
        moving = Counter()
        for group in _march_units(state, src, march):
            moving.update(group)
        present = Counter(pos.units_in(state, src, house))
        free = present - Counter(pos.routed_in(state, src))
        short = moving - free
        if set(short) == {"knight"} and any(c.id in UPGRADES_ON_WIN for c in ctx.gd.house_cards[house]):
            # Renly Baratheon may yet turn a footman defending there into a knight (CZ p.14)
            short = Counter() if short["knight"] <= free["footman"] - moving["footman"] else short
        if short:
            if moving - present:
                return fast_msg("agot.error.holds_only", area=where, units=list(pos.units_in(state, src, house)))
            return fast_msg("agot.error.routed_cannot_march", area=where)
    return None


def _strength(ctx: Ctx, units, dest: str) -> int:
    """A march's own strength against the neutral force in ``dest`` (siege engines count where it has a castle)."""
    return sum(support.unit_value(ctx, u, dest, True) for u in units)


def neutral_backing(state: dict, ctx: Ctx, house: str, area: str) -> int:
    """agot2e-ru ``neutral-support`` (RULES.md V7): what other houses' supports add to the neutral force in
    ``area`` against ``house``'s march, each by a ``SUPPORT <area> -> NEUTRAL [IN <area>]`` line on file
    when the march resolves (secret until then: a march is never refused for them, it may lose,
    :func:`_neutral_holds`); counted as a support for the defender (half, with ``half-support``)."""
    if not ctx.on("neutral-support"):
        return 0
    return neutral_support(state, ctx, NEUTRAL, area, exclude=house)


def neutral_support(state: dict, ctx: Ctx, house: str, area: str, only: str | None = None,
                    exclude: str | None = None) -> int:
    """Support a march into a neutral force gets (CZ p.12 "spolu s jakýmikoli podpůrnými jednotkami").

    Entering a neutral area is no battle, so there is no support step to ask in: an adjacent
    support order counts when its owner, the marching house included, has sent ``SUPPORT <area>
    -> <house> [IN <neutral area>]`` before the march resolves, as a battle's default is no
    support. ``house`` NEUTRAL: the supports for the neutral force (agot2e-ru, :func:`neutral_backing`),
    ``exclude`` the marching house's. Its strength is counted as in a battle (routed units 0, footmen 0 under Rains of
    Autumn, the order's bonus)."""
    total = 0
    for src in ctx.gd.board.neighbours(area):
        if pos.order_kind(state, src) != "support":
            continue
        helper = pos.order_owner(state, src)
        if not ctx.gd.board.supports_into(src, area) or only not in (None, helper) or helper == exclude:
            continue
        if not any((c := ctx.command(line)).src == src and c.house == house and c.battle_area in (None, area)
                   for line in pos.plan(state, helper)["supports"]):
            continue
        total += support.support_share(ctx, support.support_strength(state, ctx, src, area=area,
                                                                  attacking=house != NEUTRAL)[0])
    return total


def _march_units(state: dict, src: str, march: March) -> list[list[str]]:
    """The units of each move of ``march`` (ALL: every unit in ``src`` that is not routed)."""
    out = []
    free = None
    for move in march.moves:
        if move.units == ALL:
            free = pos.unrouted(state, src) if free is None else free
            out.append(pos.sort_units(free))
        else:
            out.append(list(move.units))
    return out


def check_march(state: dict, ctx: Ctx, house: str, march: March, *, mail_time: bool = False) -> str | None:
    """What is wrong with ``march`` now, or None. ``mail_time``: for a reply to the house, which must
    not learn another house's secret SUPPORT lines: a march into a neutral force counts only the
    house's own, and is not refused for strength when another house's support order could join."""
    board = ctx.gd.board
    if pos.order_kind(state, march.src) != "march" or pos.order_owner(state, march.src) != house:
        return fast_msg("agot.error.no_order_in", kind="march", area=ctx.area(march.src))
    if not march.moves:
        return None
    groups = _march_units(state, march.src, march)
    moving = groups[0] if len(groups) == 1 else [unit for group in groups for unit in group]
    present = pos.units_in(state, march.src, house)
    left = pos.minus(present, moving)  # what stays behind, in the rulebook's order
    if len(left) != len(present) - len(moving):
        return fast_msg("agot.error.holds_only", area=ctx.area(march.src), units=present)
    if march.src in state["routed"]:
        free = pos.unrouted(state, march.src, house)
        if len(pos.minus(free, moving)) != len(free) - len(moving):
            return fast_msg("agot.error.routed_cannot_march", area=ctx.area(march.src))
    battles = 0
    if len(march.moves) > 1 and len({m.dest for m in march.moves}) != len(march.moves):
        return fast_msg("agot.error.same_destination_twice")
    changes = {march.src: left}
    land = board.is_land(march.src)
    # A bordering land area is always in a land march's reach (reachable: nothing closed without impassable
    # areas); the reach is worked out for another destination, or for an error that lists it.
    bordering = board.neighbours(march.src) if land and not state.get("impassable") else ()
    reach = None
    for move, units in zip(march.moves, groups):
        if not units:
            return fast_msg("agot.error.no_units_for", dest=ctx.area(move.dest))
        if board.is_land(move.dest) != land or (not land and set(units) - {"ship"}) or (land and "ship" in units):
            reach = reachable(state, ctx, house, march.src) if reach is None else reach
            return fast_msg("agot.error.wrong_kind_of_area", dest=ctx.area(move.dest), reach=reach_text(ctx, march.src, reach))
        if move.dest not in bordering:
            reach = reachable(state, ctx, house, march.src) if reach is None else reach
            if move.dest not in reach and not (ctx.on("knight-double-move") and set(units) == {"knight"} and move.dest
                                               in knight_reach(state, ctx, house, march.src,
                                                               pos.ship_seas(state, ctx.gd, house, unrouted=True))):
                return fast_msg("agot.error.unreachable", dest=ctx.area(move.dest), src=ctx.area(march.src),
                           reach=reach_text(ctx, march.src, reach), by_then=False)
        if not land and not pos.port_room(state, ctx.gd, house, move.dest, len(units)):  # (a land area is no port)
            return fast_msg("agot.error.port_full", dest=ctx.area(move.dest), most=ctx.gd.setup.port_max_ships)
        enemy = pos.occupier(state, ctx.gd, move.dest)
        if enemy and enemy != house:
            battles += 1  # CZ p.8: only one destination held by another house's units
            changes[move.dest] = units  # the attackers form an army there too (CZ p.9 "Zlaté pravidlo")
        elif move.dest in state["neutral"]:  # CZ p.12: entering a neutral area is no battle
            battles += ctx.rules.orders.neutral_is_the_attack  # 2e: but it is the march's one attack (R7.3)
            need = state["neutral"][move.dest]
            have = _strength(ctx, units, move.dest) + pos.order_bonus(state, march.src) + \
                neutral_support(state, ctx, house, move.dest, only=house if mail_time else None)
            foreign = mail_time and any(pos.order_kind(state, n) == "support" and pos.order_owner(state, n) not in (None, house)
                                        for n in board.neighbours(move.dest))
            if have < need and not foreign:
                return fast_msg("agot.error.neutral_too_strong", dest=ctx.area(move.dest), need=need, have=have)
            changes[move.dest] = units
        else:
            changes[move.dest] = pos.units_in(state, move.dest, house) + units
    if battles > 1 and not ctx.on("multi-battle-march"):  # agot2e-ru: one battle per destination (RULES.md V11)
        return fast_msg("agot.error.one_battle")
    if not pos.supply_after(state, ctx.gd, house, changes):
        after = bidding.supply_text(state, ctx, house, pos.areas_after(state, house, changes))
        return fast_msg("agot.error.march_supply", after=after)
    if march.leave_power and not left and board.is_land(march.src):
        if state["power"][house] < 1 and ctx.gd.board.area(march.src).home_of != house:
            return fast_msg("agot.error.no_power_to_leave")
    return None


def resolve_march(state: dict, ctx: Ctx, force: bool) -> list[Event]:
    house = next_house(state, "march")
    if house is None:
        return []
    pass_turn(state, house)
    march, events = _take_planned(state, ctx, house, "marches", check_march)
    if march is None:
        area = pos.orders_of(state, house, "march")[0]
        pos.remove_order(state, area)
        return events + [fast_event("agot.default.turn", house=house, kind="march", area=ctx.area(area))]
    return events + execute_march(state, ctx, house, march)


def execute_march(state: dict, ctx: Ctx, house: str, march: March) -> list[Event]:
    """Move the units of a legal march; start its battle, if any, last (CZ p.9)."""
    src, bonus, order = march.src, pos.order_bonus(state, march.src), state["orders"][march.src]
    pos.remove_order(state, src)
    if not march.moves:
        return [fast_event("agot.march.none", house=house, area=ctx.area(src))]
    events = []
    battles = []
    for move, units in zip(march.moves, _march_units(state, src, march)):
        enemy = pos.occupier(state, ctx.gd, move.dest)
        if enemy and enemy != house:
            battles.append((move.dest, units))
            continue
        held = _neutral_holds(state, ctx, house, src, move.dest, units, bonus) if move.dest in state["neutral"] else None
        if held:
            events.append(held)
            continue
        pos.remove_units(state, src, units)
        neutral = state["neutral"].pop(move.dest) if move.dest in state["neutral"] else None
        taken = _order_taken(state, ctx, house, move.dest)
        token = state["control"].get(move.dest)
        if token and token != house:
            del state["control"][move.dest]  # CZ p.9: back to the bank, no battle
        else:
            token = None
        pos.add_units(state, move.dest, house, units)
        events.append(fast_event("agot.march.done", house=house, units=_counts(units), src=ctx.area(src),
                            dest=ctx.area(move.dest), neutral=neutral, token=token))
        events += taken + takeover.taken(state, ctx, house, move.dest)
    for _, units in battles:
        pos.remove_units(state, src, units)
    events += _leave_power(state, ctx, house, march)
    if len(battles) > 1:  # agot2e-ru multi-battle-march: the others wait off the board, in the order written
        state["march_battles"] = [{"area": dest, "units": units, "attacker": house, "origin": src, "bonus": bonus,
                                   "order": order} for dest, units in battles[1:]]
    if battles:
        events += battle.start(state, ctx, area=battles[0][0], attacker=house, origin=src, units=battles[0][1],
                               march_bonus=bonus, order=order)
    return events


def next_march_battle(state: dict, ctx: Ctx) -> list[Event]:
    """agot2e-ru ``multi-battle-march`` (RULES.md V11): after one of a march's battles, its next one, with
    the same march order's bonus; a destination that no other house holds any more is simply entered."""
    waiting = state["march_battles"]
    nxt = waiting.pop(0)
    if not waiting:
        del state["march_battles"]
    dest, house, src = nxt["area"], nxt["attacker"], nxt["origin"]
    enemy = pos.occupier(state, ctx.gd, dest)
    if enemy and enemy != house:
        return battle.start(state, ctx, area=dest, attacker=house, origin=src, units=nxt["units"],
                            march_bonus=nxt["bonus"], order=nxt.get("order"))
    pos.add_units(state, dest, house, nxt["units"])
    return [fast_event("agot.march.done", house=house, units=_counts(nxt["units"]), src=ctx.area(src),
                  dest=ctx.area(dest), neutral=None, token=None)] + takeover.taken(state, ctx, house, dest)


def _neutral_holds(state: dict, ctx: Ctx, house: str, src: str, dest: str, units: list[str], bonus: int) -> Event | None:
    """agot2e-ru ``neutral-support`` (RULES.md V7): other houses' supports for the neutral force in ``dest``
    may make a march that was strong enough for the force alone lose ("Игрок может проиграть бой с
    нейтральной силой ... в случае ... неожиданной подмоги"): the units stay where they came from, routed
    (the seed gives no casualties for it). None when the march takes the area."""
    backing = neutral_backing(state, ctx, house, dest)
    if not backing:
        return None
    have = _strength(ctx, units, dest) + bonus + neutral_support(state, ctx, house, dest)
    if have >= state["neutral"][dest] + backing:
        return None
    state["routed"][src] = pos.sort_units(pos.routed_in(state, src) + list(units))
    return fast_event("agot.march.neutral_holds", house=house, units=_counts(units), src=ctx.area(src), dest=ctx.area(dest),
                 neutral=state["neutral"][dest], backing=backing, have=have)


def _order_taken(state: dict, ctx: Ctx, house: str, area: str) -> list[Event]:
    """agot2e-ru ``orders-in-token-areas`` (RULES.md V25): a march into an area where another house's order
    stands on its power token alone takes the order off the board, with the token."""
    victim = pos.order_owner(state, area) if area in state["orders"] else None
    if victim in (None, house):
        return []
    kind = state["orders"][area]
    pos.remove_order(state, area)
    return [fast_event("agot.march.order_taken", house=victim, order=say.token(kind), area=ctx.area(area))]


def _leave_power(state: dict, ctx: Ctx, house: str, march: March) -> list[Event]:
    src = march.src
    if pos.owner(state, src) or not ctx.gd.board.is_land(src):
        return []
    if not march.leave_power or state["control"].get(src) == house or ctx.gd.board.area(src).home_of == house:
        return []
    if state["power"][house] < 1:
        return [fast_event("agot.march.no_power_to_leave", house=house, area=ctx.area(src), to=(house,))]
    state["power"][house] -= 1
    state["control"][src] = house
    return [fast_event("agot.march.leaves_power", house=house, area=ctx.area(src))]


def _counts(units) -> dict[str, int]:
    """Units as ``{kind: count}`` in the rulebook's order (a message's parameter)."""
    counts = Counter(units)
    return {u: counts[u] for u in sorted(counts, key=pos.UNIT_ORDER.index)}


# -- consolidate power ---------------------------------------------------------------------------------


def consolidate_value(state: dict, ctx: Ctx, house: str, area: str) -> int:
    """The Power a Consolidate Power order in ``area`` gives: 1e 1, and 1 more if a crown is printed
    there; 2e 1 plus 1 per crown (R8.4), on a port 1 while no enemy ship is in its sea, on a sea nothing
    (B19)."""
    place = ctx.gd.board.area(area)
    if place.kind == "sea":
        return 0
    if place.kind == "port":
        return int(pos.owner(state, place.sea) in (None, house))
    return 1 + (place.power if ctx.rules.orders.consolidate_per_crown else place.power > 0)


def resolve_consolidate(state: dict, ctx: Ctx, force: bool = False) -> list[Event]:
    """Every consolidate order still on the board: 1 power, and 1 more if a crown is printed there
    (CZ p.12 "navíc získá 1 žeton moci také za každé území, které společně s rozkazem konsolidace
    sil obsahuje symbol moci": one more per *area* with a crown, so King's Landing's two crowns
    give 2, not 3; the Game of Thrones card counts each crown, "za každý symbol síly").
    2e: house by house in turn order, a starred order in a castle area by its owner's choice
    (``consolidate.py``); the step stops at a house still to be asked (``force``: the deadline has
    passed for the first such house), so orders are left on the board until every house is done.
    agot2e-ru with gold: the tokens are Trade orders, left for the taxes step (V15)."""
    if gold.in_play(state):
        return []
    events = []
    for house in pos.turn_order(state):
        areas = pos.orders_of(state, house, "consolidate")
        if not areas:
            continue
        starred = consolidate.asked(state, ctx, house)
        if starred is not None:
            decided = consolidate.resolve(state, ctx, house, starred, force)
            if decided is None:
                return events
            force = False  # the deadline decides for one house: the next one is asked in turn
            more, mustered = decided
            events += more
            areas = [a for a in areas if not (mustered and a == starred)]
            if not areas:
                continue
        want = sum(consolidate_value(state, ctx, house, a) for a in areas)
        got = pos.gain_power(state, house, want, ctx.gd.setup.power_limit)
        for a in areas:
            pos.remove_order(state, a)
        events.append(fast_event("agot.consolidate", house=house, areas=[ctx.area(a) for a in areas], got=got, want=want,
                            limit=ctx.gd.setup.power_limit))
    return events


def consolidating(state: dict) -> bool:
    """Is a consolidate order left on the board (the step waits for a house's choice)? (agot2e-ru with
    gold: Trade orders wait for the taxes step, not this one.)"""
    return not gold.in_play(state) and any(pos.order_kind(state, a) == "consolidate" for a in state["orders"])
