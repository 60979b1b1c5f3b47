"""A battle's end (CZ p.11-12): the loser's casualties, the retreat, the conquest of the area,
the discards and the seventh card's return. Sub-steps of :mod:`.battle`, which dispatches to
them; the battle dict is described in ``battle.py``'s docstring."""

from __future__ import annotations

from collections import Counter

from ...messages import Msg
from ...ruleset import Event
from . import position as pos
from . import say
from .battlefield import ability_active, card_icons, consume_instruction, fighting_units, find_instruction, units_list
from .context import Ctx

CASUALTY_ORDER = ("footman", "ship", "knight")  # PBEM.md default casualties: weakest first (never a siege engine)
KEEP_ORDER = ("knight", "ship", "footman")  # units kept first when supply forces some out


# -- sub-step: casualties ----------------------------------------------------------------------------------------------


def casualty_count(state: dict, b: dict, ctx: Ctx) -> tuple[int, list[str]]:
    """(how many units the loser loses, the units it may lose): routed units never (CZ p.11), nor
    siege engines (2e: they die with a beaten army instead, agot2e RULES.md R7.1)."""
    available = [u for u in fighting_units(state, b, b["loser"]) if u not in ctx.gd.setup.castle_only_units]
    return min(b["casualties"], len(available)), available


def casualty_choice(n: int, available: list[str]) -> bool:
    """Does the loser have a choice to make?"""
    return 0 < n < len(available) and len(set(available)) > 1


def casualty_problem(n: int, available: list[str], units) -> Msg | None:
    if len(units) != n:
        return Msg("agot.error.casualties_exactly", n=n, available=units_list(available))
    if Counter(units) - Counter(available):
        return Msg("agot.error.casualties_only", available=units_list(available))
    return None


def casualty_line(state: dict, ctx: Ctx, b: dict, n: int, available: list[str]):
    return find_instruction(state, ctx, b["loser"], "casualties", b["area"],
                 lambda c: casualty_problem(n, available, c.units) is None)


def beaten(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """2e: what a beaten side loses besides casualties: its siege engines, which never retreat
    (RULES.md R7.1), and the defender's garrison, removed for good (R7.2). Nothing in agot1e."""
    loser, area = b["loser"], b["area"]
    events = []
    army = b["units"] if loser == b["attacker"] else pos.units_in(state, area, loser)
    engines = [u for u in army if u in ctx.gd.setup.castle_only_units]
    if engines:
        left = Counter(army) - Counter(engines)
        if loser == b["attacker"]:
            b["units"] = pos.sort_units(left.elements())
        else:
            pos.set_units(state, area, loser, left.elements())
        events.append(Event("agot.battle.siege_destroyed", house=loser, units=units_list(engines), area=ctx.area(area)))
    if loser == b["defender"] and (state.get("garrisons") or {}).get(area) and ctx.gd.board.area(area).home_of == loser:
        del state["garrisons"][area]
        events.append(Event("agot.battle.garrison_removed", house=loser, area=ctx.area(area)))
    return events


def resolve_casualties(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    return beaten(state, ctx, b) + _winner_losses(state, ctx, b) + _casualties(state, ctx, b)


def _winner_losses(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """2e Tides of Battle: the units the winner loses to the loser's skulls (R8.6), the weakest first
    (B30; the choice by mail is still to come), never a siege engine; The Blackfish prevents it."""
    n, winner = b.pop("winner_losses", 0), b["winner"]
    if not n or ability_active(b, winner, ctx.rules.cards.NO_CASUALTIES):
        return []
    army = b["units"] if winner == b["attacker"] else fighting_units(state, b, winner)
    lost = sorted((u for u in army if u not in ctx.gd.setup.castle_only_units), key=CASUALTY_ORDER.index)[:n]
    if not lost:
        return []
    left = Counter(b["units"] if winner == b["attacker"] else pos.units_in(state, b["area"], winner)) - Counter(lost)
    if winner == b["attacker"]:
        b["units"] = pos.sort_units(left.elements())
    else:
        pos.set_units(state, b["area"], winner, left.elements())
        if not pos.occupant(state, b["area"]) and b["area"] in state["orders"]:
            pos.remove_order(state, b["area"])  # FAQ2: no order stays where no unit is (R8.8)
    return [Event("agot.tides.winner_loses", house=winner, units=units_list(lost), area=ctx.area(b["area"]))]


def _casualties(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    winner, loser, area = b["winner"], b["loser"], b["area"]
    b["stage"] = "retreat"
    n, available = casualty_count(state, b, ctx)
    win_card, lose_card = ctx.gd.card(b["cards"][winner]), ctx.gd.card(b["cards"][loser])
    swords, forts = card_icons(state, ctx, b, winner)[0], card_icons(state, ctx, b, loser)[1]
    why = Msg("agot.battle.swords", swords=swords, win_card=win_card.id, fortifications=forts, lose_card=lose_card.id)
    if n == 0:
        event = "agot.battle.nothing_to_lose" if b["casualties"] and not available else "agot.battle.no_casualties"
        events = [Event(event, house=loser, why=why)]
        if loser == b["defender"] and not pos.occupant(state, area):  # 2e: only siege engines were there
            events += resolve_retreat(state, ctx, b)
        return events
    events = []
    found = casualty_line(state, ctx, b, n, available)
    if found:
        units = list(found[1].units)
        consume_instruction(state, loser, "casualties", found[0])
    else:
        units = sorted(available, key=CASUALTY_ORDER.index)[:n]
        if casualty_choice(n, available):
            events.append(Event("agot.default.casualties", house=loser, units=units_list(units)))
    if loser == b["attacker"]:
        left = Counter(b["units"]) - Counter(units)
        b["units"] = pos.sort_units(left.elements())
    else:
        left = Counter(pos.units_in(state, area, loser)) - Counter(units)
        pos.set_units(state, area, loser, left.elements())  # only fighting units die: the routed marks stay
    events.append(Event("agot.battle.loses", house=loser, units=units_list(units), area=ctx.area(area), why=why))
    if loser == b["defender"] and not pos.occupant(state, area):  # wiped out: the attacker moves in at once
        events += resolve_retreat(state, ctx, b)
    return events


# -- sub-step: retreat, conquest, discards ---------------------------------------------------------------------------------


def retreat_problem(state: dict, ctx: Ctx, b: dict, dest: str) -> Msg | None:
    """Why the defender may not retreat to ``dest`` at all (supply aside), or None (CZ p.11)."""
    board, area, loser = ctx.gd.board, b["area"], b["defender"]
    if dest == area:
        return Msg("agot.retreat_no.battle_area")
    if dest == b["origin"]:
        return Msg("agot.retreat_no.origin")
    if not board.is_land(area):  # ships: to an adjacent sea, or (2e) into their own open port
        if board.is_land(dest) or not board.adjacent(dest, area) or not pos.ships_may_enter(state, ctx.gd, loser, dest):
            return Msg("agot.retreat_no.ships", area=ctx.area(area))
    elif not board.is_land(dest):
        return Msg("agot.retreat_no.land")
    elif dest not in board.reach_by_march(area, pos.ship_seas(state, ctx.gd, loser)) or pos.closed(state, ctx.gd, dest):
        return Msg("agot.retreat_no.unreachable", area=ctx.area(area))
    other = pos.owner(state, dest)
    if other and other != loser:
        return Msg("agot.retreat_no.units", house=other)
    if dest in state["neutral"]:
        return Msg("agot.retreat_no.neutral")
    home = board.area(dest).home_of
    if home not in (None, loser) and (state.get("garrisons") or {}).get(dest):  # 2e, agot2e RULES.md B38
        return Msg("agot.retreat_no.garrison", house=home)
    token = state["control"].get(dest)
    if token and token != loser:
        return Msg("agot.retreat_no.token", house=token)
    if ctx.on("retreat-own-areas") and board.is_land(dest) and pos.controller(state, ctx.gd, dest) != loser:
        return Msg("agot.retreat_no.not_own")  # agot2e-ru RULES.md V4: only into an area the loser controls
    return None  # an unoccupied enemy home area counts as empty (CZ p.11's definition; RULES.md A12)


def retreat_fit(state: dict, ctx: Ctx, b: dict, dest: str, units: list[str], loser: str | None = None) -> int:
    """How many of ``units`` may retreat to ``dest`` within the loser's supply (CZ p.11 rule 3)."""
    loser = loser or b["defender"]
    there = pos.units_in(state, dest, loser)
    keep = sorted(units, key=KEEP_ORDER.index)
    for k in range(len(keep), 0, -1):
        if pos.supply_after(state, ctx.gd, loser, {b["area"]: [], dest: there + keep[:k]}) \
                and pos.port_room(state, ctx.gd, loser, dest, k):
            return k
    return 0


def retreat_options(state: dict, ctx: Ctx, b: dict, units: list[str]) -> tuple[list[str], int]:
    """(the legal retreat areas, how many units may retreat there). Legal: reachable (adjacent, or
    through the loser's own ships for land units), empty or the loser's, not where the attacker came
    from, and within supply; when no area takes every unit, the areas that take the most (the rest
    are destroyed). Nothing legal: ([], 0), the units are destroyed."""
    board, area = ctx.gd.board, b["area"]
    if not board.is_land(area):
        candidates = [n for n in board.neighbours(area) if not board.is_land(n)]
    else:
        candidates = sorted(board.reach_by_march(area, pos.ship_seas(state, ctx.gd, b["defender"])))
    fits = {n: retreat_fit(state, ctx, b, n, units) for n in candidates if retreat_problem(state, ctx, b, n) is None}
    best = max(fits.values(), default=0)
    if best == 0:
        return [], 0
    return sorted((n for n, k in fits.items() if k == best), key=ctx.area), best


def retreat_error(state: dict, ctx: Ctx, b: dict, dest: str, legal: list[str], units: list[str]) -> Msg:
    problem = retreat_problem(state, ctx, b, dest)
    if problem is None:
        k = retreat_fit(state, ctx, b, dest, units)
        problem = Msg("agot.retreat_no.supply", k=k, n=len(units))
    return Msg("agot.error.retreat", dest=ctx.area(dest), problem=problem, legal=[ctx.area(a) for a in legal])


def retreat_line(state: dict, ctx: Ctx, b: dict, legal: list[str]):
    return find_instruction(state, ctx, b["defender"], "retreats", b["area"], lambda c: c.area in legal)


def resolve_retreat(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    events = []
    area, attacker = b["area"], b["attacker"]
    if b["loser"] == attacker:
        if b["units"]:  # back where they came from, within supply (CZ p.11 rule 3: the rest are destroyed)
            keep = sorted(b["units"], key=KEEP_ORDER.index)
            fit = retreat_fit(state, ctx, b, b["origin"], keep, attacker)
            kept, lost = keep[:fit], keep[fit:]
            if kept:
                pos.add_units(state, b["origin"], attacker, kept, routed=True)
            events.append(Event("agot.battle.attacker_retreats", house=attacker, kept=units_list(kept),
                                lost=units_list(lost), area=ctx.area(area), origin=ctx.area(b["origin"])))
            b["units"] = []
    else:
        events += defender_retreats(state, ctx, b)
        events += conquer(state, ctx, b)
    return events + after_retreat(state, ctx, b)


def after_retreat(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """The winner's "if you win" abilities (RULES.md R8.10): Ser Jaime at once, the others may ask."""
    events = []
    winner = b["winner"]
    card = ctx.gd.card(b["cards"][winner])
    if ability_active(b, winner, ctx.rules.cards.WIN_POWER):
        want = ctx.rules.cards.WIN_POWER[card.id]
        got = pos.gain_power(state, winner, want, ctx.gd.setup.power_limit)
        events.append(Event("agot.battle.win_power", card=card.id, house=winner, got=got, want=want,
                            limit=ctx.gd.setup.power_limit))
    if ability_active(b, winner, ctx.rules.cards.WIN_CHOICE):
        if ctx.rules.cards.choice_options(state, ctx, b, card.id):
            b["stage"] = "ability"
            return events
        events.append(Event("agot.battle.nothing_to_choose", card=card.id, house=winner))
    return events + end_battle(state, ctx, b)


def end_battle(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    events = discard_cards(state, ctx, b)
    state["battle"] = None
    state["step"] = "march"
    return events


def defender_retreats(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    events = []
    area, loser = b["area"], b["defender"]
    routed = pos.routed_in(state, area)
    survivors = fighting_units(state, b, loser)
    legal, fit = retreat_options(state, ctx, b, survivors) if survivors else ([], 0)
    pos.set_units(state, area, loser, [])
    if routed:
        events.append(Event("agot.battle.routed_destroyed", house=loser, units=units_list(routed), area=ctx.area(area)))
    if not survivors:
        return events
    if not legal:
        events.append(Event("agot.battle.no_retreat", house=loser, area=ctx.area(area), units=units_list(survivors)))
        return events
    found = retreat_line(state, ctx, b, legal)
    if found:
        dest = found[1].area
        consume_instruction(state, loser, "retreats", found[0])
    elif len(legal) == 1:
        dest = legal[0]
    else:
        dest = min(legal, key=lambda a: (-len(pos.units_in(state, a, loser)), ctx.area(a)))
        events.append(Event("agot.default.retreat", house=loser, area=ctx.area(dest)))
    keep = sorted(survivors, key=KEEP_ORDER.index)
    kept, lost = keep[:fit], keep[fit:]
    pos.add_units(state, dest, loser, kept, routed=True)
    events.append(Event("agot.battle.defender_retreats", house=loser, kept=units_list(kept), lost=units_list(lost),
                        area=ctx.area(area), dest=ctx.area(dest)))
    return events


def conquer(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """The attacker takes the area (CZ p.12): the defender's orders there and its power token go.
    2e Arianne Martell, beaten defending: her orders and token go too, but the attackers go back to the
    area they came from and the area stays empty (agot2e RULES.md R8.5, FFGF)."""
    area, attacker, defender = b["area"], b["attacker"], b["defender"]
    events = []
    state["routed"].pop(area, None)
    if ability_active(b, defender, ctx.rules.cards.ATTACKERS_STAY_OUT):
        if area in state["orders"]:
            pos.remove_order(state, area)
        state["control"].pop(area, None)
        pos.add_units(state, b["origin"], attacker, b["units"])
        events.append(Event("agot.ability.attackers_stay_out", card=b["cards"][defender], house=attacker,
                            area=ctx.area(area), origin=ctx.area(b["origin"])))
        b["units"] = []
        return events
    pos.set_units(state, area, attacker, b["units"])
    order = None
    if area in state["orders"]:
        order = say.token(state["orders"][area])
        pos.remove_order(state, area)
    token = state["control"].get(area)
    if token and token != attacker:
        del state["control"][area]
    else:
        token = None
    events.append(Event("agot.battle.takes", house=attacker, area=ctx.area(area), units=units_list(b["units"]),
                        defender=defender, order=order, token=token))
    b["units"] = []
    return events + port_taken(state, ctx, attacker, area)


def port_taken(state: dict, ctx: Ctx, house: str, castle: str) -> list[Event]:
    """2e: the port of a castle area taken by ``house`` (after the retreat, R6.5): the old owner's ships
    and their order go, ``house``'s replace them (B10: the most allowed)."""
    taken = pos.take_port(state, ctx.gd, house, castle)
    if taken is None:
        return []
    old, ships, replaced = taken
    port = ctx.gd.board.port(castle)
    if port in state["orders"]:
        pos.remove_order(state, port)
    return [Event("agot.port.taken", house=house, port=ctx.area(port), old=old, ships=ships, replaced=replaced)]


def discard_cards(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """CZ p.12: played cards are discarded; a house that played its seventh card takes all seven back
    (also when Melisandre emptied its hand: no house is ever left without a card)."""
    events = []
    for house in (b["attacker"], b["defender"]):
        card = b["cards"][house]
        if house in b["seventh"] or not state["hands"][house]:
            state["hands"][house] = [c.id for c in ctx.gd.house_cards[house]]
            state["discards"][house] = []
            events.append(Event("agot.battle.seventh_card", house=house))
        else:
            state["discards"][house].append(card)
        if house == b["loser"] and ability_active(b, house, ctx.rules.cards.RECLAIM_ON_LOSS) and state["discards"][house]:
            state["hands"][house] += state["discards"][house]  # 2e Roose Bolton: the whole pile, Roose with it
            state["discards"][house] = []
            events.append(Event("agot.ability.reclaims_discards", card=card, house=house))
    return events
