"""A battle's end (CZ p.11-12): the loser's casualties, the retreat, the conquest of the area,
the discards and the seventh card's return. Sub-steps of :mod:`.battle`, which dispatches to
them; the battle dict is described in ``battle.py``'s docstring."""

from __future__ import annotations

from collections import Counter

from ...messages import Msg, fast_msg
from ...ruleset import Event, fast_event
from . import position as pos
from . import hostages, say, takeover
from .battlefield import ability_active, card_icons, choose, consume_instruction, fighting_units, find_instruction, units_list
from .context import Ctx

CASUALTY_ORDER = ("footman", "sellsword", "ship", "knight")  # PBEM.md default casualties: weakest first (never a
# siege engine; agot2e-ru's sellswords after the footmen, RULES.md D55)
KEEP_ORDER = ("sellsword", "knight", "ship", "footman")  # units kept first when supply forces some out (sellswords
# first: outside the supply limit, they never take a place)


# -- sub-step: casualties ----------------------------------------------------------------------------------------------


def casualty_count(state: dict, b: dict, ctx: Ctx) -> tuple[int, list[str]]:
    """(how many units the loser loses, the units it may lose): routed units never (CZ p.11), nor
    siege engines (2e: they die with a beaten army instead, agot2e RULES.md R7.1)."""
    available = fighting_units(state, b, b["loser"])  # (a new list)
    if ctx.gd.setup.castle_only_units:  # (1e: no siege engines)
        available = [u for u in available if u not in ctx.gd.setup.castle_only_units]
    return min(b["casualties"], len(available)), available


def casualty_choice(n: int, available: list[str]) -> bool:
    """Does the loser have a choice to make?"""
    return 0 < n < len(available) and len(set(available)) > 1


def casualty_problem(n: int, available: list[str], units) -> Msg | None:
    if len(units) != n:
        return fast_msg("agot.error.casualties_exactly", n=n, available=units_list(available))
    if Counter(units) - Counter(available):
        return fast_msg("agot.error.casualties_only", available=units_list(available))
    return None


def casualty_line(state: dict, ctx: Ctx, b: dict, n: int, available: list[str]):
    return find_instruction(state, ctx, b["loser"], "casualties", b["area"],
                 lambda c: casualty_problem(n, available, c.units) is None)


def beaten(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """2e: what a beaten side loses besides casualties: its siege engines, which never retreat
    (RULES.md R7.1), and the defender's garrison, removed for good (R7.2). Nothing in agot1e."""
    loser, area = b["loser"], b["area"]
    events = []
    engines = None
    if ctx.gd.setup.castle_only_units:  # (1e: no siege engines)
        army = b["units"] if loser == b["attacker"] else pos.units_in(state, area, loser)
        engines = [u for u in army if u in ctx.gd.setup.castle_only_units]
    if engines:
        left = Counter(army) - Counter(engines)
        if loser == b["attacker"]:
            b["units"] = pos.sort_units(left.elements())
        else:
            pos.set_units(state, area, loser, left.elements())
        events.append(fast_event("agot.battle.siege_destroyed", house=loser, units=units_list(engines), area=ctx.area(area)))
    if loser == b["defender"] and (state.get("garrisons") or {}).get(area) and ctx.gd.board.area(area).home_of == loser:
        del state["garrisons"][area]
        events.append(fast_event("agot.battle.garrison_removed", house=loser, area=ctx.area(area)))
    return events


def resolve_casualties(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    return beaten(state, ctx, b) + _winner_losses(state, ctx, b) + _casualties(state, ctx, b)


def skull_losses(state: dict, b: dict, ctx: Ctx) -> tuple[int, list[str]]:
    """2e Tides of Battle: (how many units the winner loses to the loser's skulls, the units it may lose:
    its fighting units but siege engines); none when The Blackfish prevents it (R8.6)."""
    winner = b["winner"]
    n = b.get("winner_losses", 0)
    if not n or ability_active(b, winner, ctx.rules.cards.NO_CASUALTIES):
        return 0, []
    available = [u for u in fighting_units(state, b, winner) if u not in ctx.gd.setup.castle_only_units]
    return min(n, len(available)), available


def skull_line(state: dict, ctx: Ctx, b: dict, n: int, available: list[str]):
    """The winner's CASUALTIES line that names exactly the units its skull losses take (the casualties
    pattern of PBEM: a line sent ahead serves whichever side the house ends on)."""
    return find_instruction(state, ctx, b["winner"], "casualties", b["area"],
                            lambda c: casualty_problem(n, available, c.units) is None)


def _named_or_weakest(state: dict, house: str, found, n: int, available: list[str]) -> tuple[list[str], list[Event]]:
    """The ``n`` units ``house`` loses: those its CASUALTIES line on file names (``found``, used up), else
    the weakest first (PBEM; 2e B30), with a note when it had a choice."""
    if found:
        consume_instruction(state, house, "casualties", found[0])
        return list(found[1].units), []
    units = sorted(available, key=CASUALTY_ORDER.index)[:n]
    note = [fast_event("agot.default.casualties", house=house, units=units_list(units))] if casualty_choice(n, available) else []
    return units, note


def _winner_losses(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """2e Tides of Battle: the units the winner loses to the loser's skulls (R8.6): its CASUALTIES line,
    else the weakest first (B30), never a siege engine; The Blackfish prevents it."""
    n, available = skull_losses(state, b, ctx)
    b.pop("winner_losses", None)
    winner = b["winner"]
    if not n:
        return []
    lost, events = _named_or_weakest(state, winner, skull_line(state, ctx, b, n, available), n, available)
    left = Counter(b["units"] if winner == b["attacker"] else pos.units_in(state, b["area"], winner)) - Counter(lost)
    if winner == b["attacker"]:
        b["units"] = pos.sort_units(left.elements())
    else:
        pos.set_units(state, b["area"], winner, left.elements())
        if not pos.occupant(state, b["area"]) and b["area"] in state["orders"]:
            pos.remove_order(state, b["area"])  # FAQ2: no order stays where no unit is (R8.8)
    return events + [fast_event("agot.tides.winner_loses", house=winner, units=units_list(lost), area=ctx.area(b["area"]))]


def _casualties(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    winner, loser, area = b["winner"], b["loser"], b["area"]
    b["stage"] = "retreat"
    n, available = casualty_count(state, b, ctx)
    swords, forts = card_icons(state, ctx, b, winner)[0], card_icons(state, ctx, b, loser)[1]
    why = fast_msg("agot.battle.swords", swords=swords, win_card=b["cards"][winner], fortifications=forts,
              lose_card=b["cards"][loser])  # a card None: 2e, no card left after Tyrion's
    if n == 0:
        event = "agot.battle.nothing_to_lose" if b["casualties"] and not available else "agot.battle.no_casualties"
        events = [fast_event(event, house=loser, why=why)]
        if loser == b["defender"] and not pos.occupant(state, area):  # 2e: only siege engines were there
            events += resolve_retreat(state, ctx, b)
        return events
    units, events = _named_or_weakest(state, loser, casualty_line(state, ctx, b, n, available), n, available)
    if loser == b["attacker"]:
        b["units"] = pos.sort_units(pos.minus(b["units"], units))
    else:
        pos.set_units(state, area, loser, pos.minus(pos.units_in(state, area, loser), units))  # only fighting units die: the routed marks stay
    events.append(fast_event("agot.battle.loses", house=loser, units=units_list(units), area=ctx.area(area), why=why))
    if loser == b["defender"] and not pos.occupant(state, area):  # wiped out: the attacker moves in at once
        events += resolve_retreat(state, ctx, b)
    return events


# -- sub-step: retreat, conquest, discards ---------------------------------------------------------------------------------


def retreat_problem(state: dict, ctx: Ctx, b: dict, dest: str) -> Msg | None:
    """Why the defender may not retreat to ``dest`` at all (supply aside), or None (CZ p.11)."""
    board, area, loser = ctx.gd.board, b["area"], b["defender"]
    if dest == area:
        return fast_msg("agot.retreat_no.battle_area")
    if dest == b["origin"]:
        return fast_msg("agot.retreat_no.origin")
    if not board.is_land(area):  # ships: to an adjacent sea, or (2e) into their own open port
        if board.is_land(dest) or not board.adjacent(dest, area) or not pos.ships_may_enter(state, ctx.gd, loser, dest):
            return fast_msg("agot.retreat_no.ships", area=ctx.area(area))
    elif not board.is_land(dest):
        return fast_msg("agot.retreat_no.land")
    elif dest not in board.reach_by_march(area, pos.ship_seas(state, ctx.gd, loser)) or pos.closed(state, ctx.gd, dest):
        return fast_msg("agot.retreat_no.unreachable", area=ctx.area(area))
    other = pos.owner(state, dest)
    if other and other != loser:
        return fast_msg("agot.retreat_no.units", house=other)
    if dest in state["neutral"]:
        return fast_msg("agot.retreat_no.neutral")
    home = board.area(dest).home_of
    if home not in (None, loser) and (state.get("garrisons") or {}).get(dest):  # 2e, agot2e RULES.md B38
        return fast_msg("agot.retreat_no.garrison", house=home)
    token = state["control"].get(dest)
    if token and token != loser:
        return fast_msg("agot.retreat_no.token", house=token)
    if ctx.on("retreat-own-areas") and board.is_land(dest) and pos.controller(state, ctx.gd, dest) != loser:
        return fast_msg("agot.retreat_no.not_own")  # agot2e-ru RULES.md V4: only into an area the loser controls
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
        problem = fast_msg("agot.retreat_no.supply", k=k, n=len(units))
    return fast_msg("agot.error.retreat", dest=ctx.area(dest), problem=problem, legal=[ctx.area(a) for a in legal])


def retreat_destination(state: dict, ctx: Ctx, b: dict, house: str, legal: list[str]) -> tuple[str, list[Event]]:
    """Where ``house``'s beaten units go among ``legal`` areas: its RETREAT line on file (used up), the only
    area, else the default (the area with most of its units, then by name), said in an event. Shared by a
    battle's loser and agot2e-ru's rebellion."""
    found = retreat_line(state, ctx, b, legal)
    if found:
        consume_instruction(state, house, "retreats", found[0])
        return found[1].area, []
    if len(legal) == 1:
        return legal[0], []
    dest = min(legal, key=lambda a: (-len(pos.units_in(state, a, house)), ctx.area(a)))
    return dest, [fast_event("agot.default.retreat", house=house, area=ctx.area(dest))]


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
            events.append(fast_event("agot.battle.attacker_retreats", house=attacker, kept=units_list(kept),
                                lost=units_list(lost), area=ctx.area(area), origin=ctx.area(b["origin"])))
            b["units"] = []
            hostages.wiped(ctx, b, kept)
        else:
            hostages.wiped(ctx, b, [])  # agot2e-ru: the attacking army died in its casualties
    else:
        events += defender_retreats(state, ctx, b)
        events += conquer(state, ctx, b)
    return events + after_retreat(state, ctx, b)


def after_retreat(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """The winner's "if you win" abilities (RULES.md R8.10): Ser Jaime at once, the others may ask."""
    events = []
    winner = b["winner"]
    card = b["cards"][winner]  # (2e: None after Tyrion's, if its hand held no other card)
    if ability_active(b, winner, ctx.rules.cards.WIN_POWER):
        want = ctx.rules.cards.WIN_POWER[card]
        got = pos.gain_power(state, winner, want, ctx.gd.setup.power_limit)
        events.append(fast_event("agot.battle.win_power", card=card, house=winner, got=got, want=want,
                            limit=ctx.gd.setup.power_limit))
    if ctx.rules.cards.BY_TIMING:
        return events + win_choice(state, ctx, b)
    if ability_active(b, winner, ctx.rules.cards.WIN_CHOICE):
        if ctx.rules.cards.choice_options(state, ctx, b, card):
            b["stage"] = "ability"
            return events
        events.append(fast_event("agot.battle.nothing_to_choose", card=card, house=winner))
    return events + end_battle(state, ctx, b)


def win_choice(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """2e: the winner's "if you win" choice (Cersei, Renly; agot2e RULES.md R8.5), asked alone at the stage
    ``ability`` when no usable line is on file; then the combat clean-up."""
    winner = b["winner"]
    events = []
    if ability_active(b, winner, ctx.rules.cards.WIN_CHOICE):
        events, asked = choose(state, ctx, b, winner, b["cards"][winner], "ability")
        if asked:
            return events
    return events + end_battle(state, ctx, b)


def end_battle(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    events = discard_cards(state, ctx, b)
    if ctx.rules.cards.BY_TIMING:
        return events + after_combat(state, ctx, b)
    return events + _over(state)


def _over(state: dict) -> list[Event]:
    state["battle"] = None
    state["step"] = "march"
    return []


def after_combat(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """2e: the ``after_combat`` abilities at the end of the combat clean-up, the played cards discarded
    (and Roose Bolton's reclaim done), in Iron Throne order (B20): Patchface's discard from the opponent's
    hand, asked alone (stage ``after``: he must see the hand) unless a usable line is on file; Ser Loras
    Tyrell's March order into the conquered area (agot2e RULES.md R8.5)."""
    events = []
    b.setdefault("resolved", [])
    for house in ctx.rules.cards.ability_order(state, b):
        card = b["cards"][house]
        if ability_active(b, house, ctx.rules.cards.DISCARD_FROM_HAND):
            more, asked = choose(state, ctx, b, house, card, "after")
            events += more
            if asked:
                return events
        if ability_active(b, house, ctx.rules.cards.MARCH_FOLLOWS) and f"after {card}" not in b["resolved"]:
            b["resolved"].append(f"after {card}")  # (done once, also when Patchface's question follows)
            events += _march_follows(state, ctx, b, house, card)
    return events + _over(state)


def _march_follows(state: dict, ctx: Ctx, b: dict, house: str, card: str) -> list[Event]:
    """2e Ser Loras Tyrell: if his house attacked and won, the March order that began the combat moves into
    the conquered area instead of being removed, and may be resolved again this round; nothing moves when
    the attackers did not move in (Arianne Martell) or the order is not known (a battle begun elsewhere)."""
    area = b["area"]
    if house != b["attacker"] or b["winner"] != house or not b.get("order") or pos.owner(state, area) != house:
        return [fast_event("agot.ability.loras_no_march", card=card, house=house)]
    state["orders"][area] = b["order"]
    return [fast_event("agot.ability.loras", card=card, house=house, order=say.token(b["order"]), area=ctx.area(area))]


def refill_empty_hand(state: dict, ctx: Ctx, house: str) -> list[Event]:
    """A house whose hand an ability emptied (2e Patchface) takes its cards back, as after its last card
    (:func:`discard_cards`): no house is ever left without a card."""
    if state["hands"][house]:
        return []
    state["hands"][house] = hostages.own_cards(state, ctx, house)
    state["discards"][house] = []
    return [_all_back(state, house)]


def _all_back(state: dict, house: str) -> Event:
    """The last card played: the house's cards return (agot2e-ru: only those not held hostage, and the
    event says how many)."""
    if "hostages" in state and len(state["hands"][house]) != 7:
        return fast_event("agot.battle.seventh_card", house=house, back=len(state["hands"][house]))
    return fast_event("agot.battle.seventh_card", house=house)


def defender_retreats(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    events = []
    area, loser = b["area"], b["defender"]
    routed = pos.routed_in(state, area)
    survivors = fighting_units(state, b, loser)
    legal, fit = retreat_options(state, ctx, b, survivors) if survivors else ([], 0)
    robb = []
    if len(legal) > 1 and ability_active(b, b["winner"], ctx.rules.cards.RETREAT_CHOICE):  # 2e Robb Stark
        b["asking"] = b["cards"][b["winner"]]  # asked at the retreat stage, with the loser's own retreat
        robb, _ = choose(state, ctx, b, b["winner"], b["asking"], "retreat")
    pos.set_units(state, area, loser, [])
    hostages.wiped(ctx, b, [])  # agot2e-ru: until some units retreat
    if routed:
        events.append(fast_event("agot.battle.routed_destroyed", house=loser, units=units_list(routed), area=ctx.area(area)))
    if not survivors:
        return events
    if not legal:
        events.append(fast_event("agot.battle.no_retreat", house=loser, area=ctx.area(area), units=units_list(survivors)))
        return events
    events += robb
    if b.get("retreat_to"):
        dest = b["retreat_to"]
    else:
        dest, said = retreat_destination(state, ctx, b, loser, legal)
        events += said
    keep = sorted(survivors, key=KEEP_ORDER.index)
    kept, lost = keep[:fit], keep[fit:]
    pos.add_units(state, dest, loser, kept, routed=True)
    hostages.wiped(ctx, b, kept)
    events.append(fast_event("agot.battle.defender_retreats", house=loser, kept=units_list(kept), lost=units_list(lost),
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
        events.append(fast_event("agot.ability.attackers_stay_out", card=b["cards"][defender], house=attacker,
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
    events.append(fast_event("agot.battle.takes", house=attacker, area=ctx.area(area), units=units_list(b["units"]),
                        defender=defender, order=order, token=token))
    b["units"] = []
    return events + takeover.taken(state, ctx, attacker, area)  # 2e: its port (R6.5)


def discard_cards(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """CZ p.12: played cards are discarded; a house that played its seventh card takes all seven back
    (also when Melisandre emptied its hand: no house is ever left without a card); 2e: all but the
    last card played, which is discarded (``cards.LAST_CARD_DISCARDED``)."""
    events = []
    for house in (b["attacker"], b["defender"]):
        card = b["cards"][house]
        if card is None:  # 2e: it fought without a card after Tyrion's (its hand holds the returned one)
            continue
        if house in b["seventh"] and ctx.rules.cards.LAST_CARD_DISCARDED:  # 2e R8.11: the last card is discarded
            state["hands"][house] = [c for c in hostages.own_cards(state, ctx, house) if c != card]
            state["discards"][house] = [card]
            events.append(fast_event("agot.battle.last_card", house=house, card=card))
        elif house in b["seventh"] or not state["hands"][house]:
            state["hands"][house] = hostages.own_cards(state, ctx, house)
            state["discards"][house] = []
            events.append(_all_back(state, house))
        else:
            state["discards"][house].append(card)
        if house == b["loser"] and ability_active(b, house, ctx.rules.cards.RECLAIM_ON_LOSS) and state["discards"][house]:
            state["hands"][house] += state["discards"][house]  # 2e Roose Bolton: the whole pile, Roose with it
            state["discards"][house] = []
            events.append(fast_event("agot.ability.reclaims_discards", card=card, house=house))
    return events + hostages.capture(state, ctx, b)  # agot2e-ru: the card of an army wiped out
