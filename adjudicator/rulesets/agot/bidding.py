"""Bids of the Westeros phase and what follows them: Clash of Kings (CZ p.5-6) and the Wildling
Attack (CZ p.6), with the Iron Throne holder's tie orders, the wildlings' losses and the house
card the Night's Watch's best bidder takes back. Also the units removal shared with the Supply
card (``REMOVE`` lines). Driven by :mod:`.westeros`, which owns the step machine: every
``resolve_*`` here returns ``(events, done)``, ``done`` meaning the card is fully resolved.

Bids are secret: they wait in the houses' plans (``plan['bids']``: slot -> power, a slot being a
track id or ``wildlings``) and become public, in the events and in ``state['westeros']``, only
when the whole bid is resolved. A mail's bids are refused when the bids on file for the slots
still to come would add up to more power than the house can have (the power bid on one track is
gone for the next). A bid that is more than the house's power when it is due all the same (the
power it counted on did not come) is cut to that power, and only that house is told: asking
instead would tell everyone, through the list of who still owes, that its secret bid failed
(RULES.md W3, W14). A house that sent nothing bids 0 (PBEM.md).

Ties (RULES.md R11.6/R11.7, A34): the Iron Throne holder of that moment orders the tied houses
within the block of places they share (``TIEBREAK`` lines, first place first). For the Iron
Throne bid itself that is the previous holder, who still holds the token while the bid runs
("Žeton Železného trůnu nemění majitele, dokud neskončí probíhající dražba"). Default: the tied
houses keep their previous relative order on that track; for the Night's Watch, their order on
the Iron Throne track (the highest bidder is the first of them, the lowest bidder the last).
"""

from __future__ import annotations

import random
from collections import Counter

from ...messages import Msg
from ...ruleset import Event, Owed
from . import gold
from . import position as pos
from .commands import Remove
from .context import Ctx

TRACKS = ("iron_throne", "fiefdoms", "kings_court")
WILDLINGS = "wildlings"
SLOT_NAME = {  # only for the comments of BID lines on file ("BID 3  # Fiefdoms"); messages name slots by id
"iron_throne": "Iron Throne", "fiefdoms": "Fiefdoms", "kings_court": "King's Court",
             WILDLINGS: "Night's Watch"}
WEAKEST_FIRST = ("footman", "sellsword", "ship", "siege_engine", "knight")  # PBEM.md default removals: weakest unit first (2e siege engines: B30)


def _w(state: dict) -> dict:
    return state["westeros"]


def purse(state: dict) -> dict[str, int]:
    """What bids are paid from, house -> amount: the available Power; agot2e-ru with gold, the gold
    dragons (RULES.md V16: bids in gold, the wildlings' too)."""
    return state["gold"] if gold.in_play(state) else state["power"]


def currency_key(state: dict, key: str) -> str:
    """``key``, or its gold form (``<key>_gold``) when bids are paid in gold."""
    return key + "_gold" if gold.in_play(state) else key


# -- bids ------------------------------------------------------------------------------------------


def stored_bid(state: dict, house: str, slot: str) -> int | None:
    """The bid ``house`` sent for ``slot``, cut to its power now (RULES.md W14), or None."""
    bid = pos.plan(state, house).get("bids", {}).get(slot)
    return min(bid, purse(state)[house]) if bid is not None else None


def bidders(state: dict) -> list[str]:
    """Houses with a choice: a house without power bids 0."""
    return [h for h in pos.turn_order(state) if purse(state)[h] > 0]


def _sitting_out(state: dict, slot: str) -> str | None:
    """2e, Preemptive Raid: the house that does not bid in the wildlings' second attack (B5)."""
    return (_w(state).get("attack") or {}).get("without") if slot == WILDLINGS else None


def pending_bids(state: dict, ctx: Ctx, slot: str) -> list[Owed]:
    attack = _w(state).get("attack") if slot == WILDLINGS else None
    strength = attack["strength"] if attack else state["wildlings"]
    return [Owed(h, Msg(currency_key(state, "agot.owed.bid"), slot=slot, wildlings=strength, power=purse(state)[h]), "step",
                 stored_bid(state, h, slot) is not None)
            for h in bidders(state) if h != _sitting_out(state, slot)]


def _collect(state: dict, ctx: Ctx, slot: str) -> tuple[dict[str, int], list[Event]]:
    """Everyone's bid for ``slot`` (defaults 0), paid to the bank; the reveal event."""
    events = []
    bids = {}
    for house in pos.turn_order(state):
        if house == _sitting_out(state, slot):
            continue
        plan_bids = pos.plan(state, house).setdefault("bids", {})
        sent = plan_bids.pop(slot, None)
        have = purse(state)
        if sent is None:
            bid = 0
            if have[house] > 0:
                events.append(Event("agot.default.bid", house=house))
        else:
            bid = min(sent, have[house])
            if bid < sent:  # RULES.md W14: to that house only; a public word would reveal the secret bid
                events.append(Event(currency_key(state, "agot.bid.cut"), slot=slot, sent=sent, power=have[house],
                                    bid=bid, to=(house,)))
        have[house] -= bid
        bids[house] = bid
    shown = [Msg("agot.house_bid", house=h, n=b)
             for h, b in sorted(bids.items(), key=lambda x: (-x[1], pos.turn_order(state).index(x[0])))]
    events.append(Event("agot.bid.revealed", slot=slot, bids=shown))
    return bids, events


# -- tie orders ------------------------------------------------------------------------------------


def tie_lines(state: dict, ctx: Ctx, house: str) -> list[tuple[str, ...]]:
    return [ctx.command(line).houses for line in pos.plan(state, house).get("tiebreaks", [])]


def _line_index(state: dict, ctx: Ctx, decider: str, group: list[str]) -> int | None:
    """Index of the first TIEBREAK line of ``decider`` naming every house of ``group``."""
    for i, houses in enumerate(tie_lines(state, ctx, decider)):
        if set(group) <= set(houses):
            return i
    return None


def _line_for(state: dict, ctx: Ctx, decider: str, group: list[str]) -> tuple[str, ...] | None:
    """The first TIEBREAK line of ``decider`` naming every house of ``group``."""
    i = _line_index(state, ctx, decider, group)
    return None if i is None else tie_lines(state, ctx, decider)[i]


def _drop_used_lines(state: dict, ctx: Ctx, decider: str, groups: list[list[str]]) -> None:
    """The TIEBREAK lines that ordered this tie are used: they leave the file (one line per tie;
    a line naming every house of two tied groups of the same bid serves both)."""
    used = {_line_index(state, ctx, decider, g) for g in groups} - {None}
    lines = pos.plan(state, decider).get("tiebreaks", [])
    pos.plan(state, decider)["tiebreaks"] = [line for i, line in enumerate(lines) if i not in used]


def _order_group(state: dict, ctx: Ctx, decider: str, group: list[str], default: list[str]) -> tuple[list[str], list[Event]]:
    line = _line_for(state, ctx, decider, group)
    if line is not None:
        ordered = sorted(group, key=line.index)
        return ordered, [Event("agot.tie.ordered", house=decider, houses=ordered)]
    ordered = sorted(group, key=default.index)
    return ordered, [Event("agot.default.tie", house=decider, houses=ordered)]


def pending_tiebreak(state: dict, ctx: Ctx) -> list[Owed]:
    tie = _w(state)["tie"]
    decider = pos.holder(state, "iron_throne")
    groups = [list(g) for g in tie["groups"]]
    if tie["slot"] in TRACKS:
        what = Msg("agot.owed.tie_track", slot=tie["slot"], groups=groups)
    else:
        what = Msg("agot.owed.tie_wildlings", won=tie["result"] == "won", groups=groups)
    done = all(_line_for(state, ctx, decider, g) is not None for g in tie["groups"])
    return [Owed(decider, what, "step", done)]


def tie_groups(bids: dict[str, int]) -> list[list[str]]:
    by_bid: dict[int, list[str]] = {}
    for house, bid in bids.items():
        by_bid.setdefault(bid, []).append(house)
    return [sorted(g) for b, g in sorted(by_bid.items(), reverse=True) if len(g) > 1]


# -- Clash of Kings ----------------------------------------------------------------------------------


def start_clash(state: dict, ctx: Ctx) -> list[Event]:
    w = _w(state)
    w["track"] = TRACKS[0]
    state["step"] = "bid"
    return [Event("agot.clash.begins")]


def resolve_bid(state: dict, ctx: Ctx, force: bool) -> tuple[list[Event], bool]:
    w = _w(state)
    track = w["track"]
    bids, events = _collect(state, ctx, track)
    w["bids"] = {**w.get("bids", {}), track: bids}
    groups = tie_groups(bids)
    if groups:
        w["tie"] = {"slot": track, "groups": groups}
        state["step"] = "tiebreak"
        return events, False
    return events + _place(state, ctx, track, bids, {}), _next_track(state)


def _place(state: dict, ctx: Ctx, track: str, bids: dict[str, int], orders: dict[int, list[str]]) -> list[Event]:
    """The new order of ``track``: bids high to low; tied houses as ``orders`` (bid -> houses) says."""
    previous = list(state["tracks"][track])
    rank = {}
    for bid, houses in orders.items():
        for i, h in enumerate(houses):
            rank[h] = i
    new = sorted(previous, key=lambda h: (-bids[h], rank.get(h, 0), previous.index(h)))
    state["tracks"][track] = new
    return [Event("agot.clash.track", slot=track, houses=new)]


def _next_track(state: dict) -> bool:
    """Move to the next track's bid; True when the Clash of Kings is over."""
    w = _w(state)
    w.pop("tie", None)
    i = TRACKS.index(w["track"])
    if i + 1 == len(TRACKS):
        w["track"] = None
        return True
    w["track"] = TRACKS[i + 1]
    state["step"] = "bid"
    return False


def resolve_tiebreak(state: dict, ctx: Ctx, force: bool) -> tuple[list[Event], bool]:
    w = _w(state)
    tie = w["tie"]
    decider = pos.holder(state, "iron_throne")
    slot = tie["slot"]
    events: list[Event] = []
    if slot in TRACKS:
        bids = w["bids"][slot]
        orders = {}
        for group in tie["groups"]:
            ordered, said = _order_group(state, ctx, decider, group, state["tracks"][slot])
            orders[bids[group[0]]] = ordered
            events += said
        _drop_used_lines(state, ctx, decider, tie["groups"])
        return events + _place(state, ctx, slot, bids, orders), _next_track(state)
    ordered, events = _order_group(state, ctx, decider, tie["groups"][0], pos.turn_order(state))
    _drop_used_lines(state, ctx, decider, tie["groups"])
    w.pop("tie")
    pick = ordered[0] if tie["result"] == "won" else ordered[-1]
    return ctx.rules.wildlings.after_attack(state, ctx, tie["result"], pick, events)


# -- Wildling Attack -----------------------------------------------------------------------------------


def start_wildlings(state: dict, ctx: Ctx, strength: int | None = None, without: str | None = None) -> list[Event]:
    """A wildling attack with the threat's strength (or ``strength`` without the house ``without``: 2e
    Preemptive Raid's second attack, B5)."""
    state["step"] = "wildlings"
    _w(state)["attack"] = {"strength": state["wildlings"] if strength is None else strength, "without": without}
    return [Event("agot.wildlings.attack", strength=_w(state)["attack"]["strength"])]


def threat_after(state: dict, ctx: Ctx, won: bool) -> int:
    """The threat after an attack: the track's start (1e, and 2e after a Night's Watch win), or in 2e two
    spaces back after a wildling win (data ``wildlings.after_*``; RULES.md R4.7)."""
    wild = ctx.gd.setup.wildlings
    if won:
        return wild.track[0] if wild.after_nights_watch_win is None else wild.after_nights_watch_win
    if wild.after_wildlings_win is None:
        return wild.track[0]
    return max(wild.track[0], state["wildlings"] + wild.after_wildlings_win)


def resolve_wildlings(state: dict, ctx: Ctx, force: bool) -> tuple[list[Event], bool]:
    w = _w(state)
    threat = w["attack"]["strength"] if w.get("attack") else state["wildlings"]
    bids, events = _collect(state, ctx, WILDLINGS)
    total = sum(bids.values())
    won = total >= threat
    w["bids"] = {**w.get("bids", {}), WILDLINGS: bids}
    w["nights_watch"] = {"threat": threat, "total": total, "result": "won" if won else "lost"}
    state["wildlings"] = threat_after(state, ctx, won)
    cards_decide = bool(ctx.gd.wildling_cards)  # 2e: a card, still unknown, decides what the bidders get
    if won:
        events.append(Event("agot.wildlings.held", total=total, threat=threat, after=state["wildlings"]))
        best = max(bids.values())
        group = [h for h in pos.turn_order(state) if h in bids and bids[h] == best]
        relevant = cards_decide or any(state["discards"][h] for h in group)
    else:
        events.append(Event("agot.wildlings.overrun", total=total, threat=threat, after=state["wildlings"]))
        low = min(bids.values())
        group = [h for h in pos.turn_order(state) if h in bids and bids[h] == low]
        relevant = cards_decide or any(pos.house_units(state, h) for h in group)
    if len(group) > 1 and relevant:
        w["tie"] = {"slot": WILDLINGS, "groups": [sorted(group)], "result": w["nights_watch"]["result"]}
        state["step"] = "tiebreak"
        return events, False
    pick = group[0] if won else group[-1]
    return ctx.rules.wildlings.after_attack(state, ctx, w["nights_watch"]["result"], pick, events)


def after_attack(state: dict, ctx: Ctx, result: str, pick: str, events=None) -> tuple[list[Event], bool]:
    """What follows the bids in agot1e (``ctx.rules.wildlings`` of agot1e): the highest bidder may take
    back a card (CZ p.13), or every house loses units worth the data's mustering points."""
    w = _w(state)
    events = list(events or [])
    every = ctx.gd.setup.wildlings.every_house_loss
    if result == "won":
        w["reclaimer"] = pick
        if not state["discards"][pick]:
            events.append(Event("agot.wildlings.nothing_to_reclaim", house=pick))
            return events, True
        events.append(Event("agot.wildlings.may_reclaim", house=pick))
        state["step"] = "reclaim"
        return events, False
    w["lowest"] = pick
    w["losses"] = {h: every + (ctx.gd.setup.wildlings.lowest_bidder_extra if h == pick else 0)
                   for h in pos.turn_order(state) if pos.house_units(state, h)}
    events.append(Event("agot.wildlings.losses", every=every, house=pick,
                        lowest=every + ctx.gd.setup.wildlings.lowest_bidder_extra))
    if not w["losses"]:
        return events, True
    state["step"] = "losses"
    return events, False


# -- reclaim ---------------------------------------------------------------------------------------------


def reclaim_line(state: dict, ctx: Ctx, house: str) -> str | None:
    """The first RECLAIM card of ``house`` that is in its discards."""
    for line in pos.plan(state, house).get("reclaims", []):
        card = ctx.command(line).card_id
        if card in state["discards"][house]:
            return card
    return None


def pending_reclaim(state: dict, ctx: Ctx) -> list[Owed]:
    house = _w(state)["reclaimer"]
    return [Owed(house, Msg("agot.owed.reclaim", cards=list(state["discards"][house])), "step",
                 reclaim_line(state, ctx, house) is not None)]


def default_reclaim(state: dict, ctx: Ctx, house: str) -> str:
    """PBEM.md: the strongest discarded card (ties: the first by name)."""
    return min(state["discards"][house], key=lambda c: (-ctx.gd.card(c).strength, ctx.card(c)))


def resolve_reclaim(state: dict, ctx: Ctx, force: bool) -> tuple[list[Event], bool]:
    house = _w(state)["reclaimer"]
    card = reclaim_line(state, ctx, house)
    events = []
    if card is None:
        card = default_reclaim(state, ctx, house)
        events.append(Event("agot.default.reclaim", house=house))
    state["discards"][house].remove(card)
    state["hands"][house].append(card)
    pos.plan(state, house)["reclaims"] = []
    events.append(Event("agot.wildlings.reclaimed", house=house, card=card))
    return events, True


# -- removing units (Supply card and wildling losses) ------------------------------------------------


def value(ctx: Ctx, unit: str) -> int:
    """A unit's worth in mustering points (CZ p.6: footman 1, knight 2, ship 1)."""
    return ctx.gd.setup.muster_costs[unit]


def areas_after(state: dict, ctx: Ctx, house: str, removes: list[Remove]) -> tuple[dict | None, Msg | None]:
    """A copy of the board's areas after ``removes`` (or the problem: units that are not there)."""
    areas = {a: {h: list(u) for h, u in holders.items()} for a, holders in state["areas"].items()}
    for r in removes:
        have = Counter(areas.get(r.area, {}).get(house, []))
        if Counter(r.units) - have:
            return None, Msg("agot.error.area_holds", area=ctx.area(r.area), units=list(pos.sort_units(have.elements())))
        left = pos.sort_units((have - Counter(r.units)).elements())
        if left:
            areas[r.area] = {house: left}
        else:
            areas.pop(r.area, None)
    return areas, None


def _allowed(state: dict, ctx: Ctx, house: str) -> tuple[int, ...]:
    table = ctx.gd.setup.supply_armies
    return table[min(state["supply"][house], max(table))]


def supply_text(state: dict, ctx: Ctx, house: str, areas: dict | None = None) -> Msg:
    sizes = pos.armies(state["areas"] if areas is None else areas, house)
    return Msg("agot.supply", armies=list(sizes), supply=state["supply"][house], allowed=list(_allowed(state, ctx, house)))


def supply_problem(state: dict, ctx: Ctx, house: str, removes: list[Remove]) -> Msg | None:
    """Why these removals are not a legal supply reduction: units not there, still over the limit,
    or a unit removed that was not needed ("removes units until its armies fit", CZ p.3)."""
    areas, problem = areas_after(state, ctx, house, removes)
    if problem:
        return problem
    if not pos.within_supply(state, ctx.gd, house, areas):
        return Msg("agot.error.still_over_supply", supply=supply_text(state, ctx, house, areas))
    for area, unit in sorted({(r.area, u) for r in removes for u in r.units}):
        trial = {a: dict(h) for a, h in areas.items()}
        trial[area] = {house: pos.sort_units(trial.get(area, {}).get(house, []) + [unit])}
        if pos.within_supply(state, ctx.gd, house, trial):
            return Msg("agot.error.removal_not_needed", unit=unit, area=ctx.area(area))
    return None


def min_cut(sizes: list[int], allowed: tuple[int, ...]) -> int:
    """The fewest units to remove so that armies of ``sizes`` fit ``allowed`` (each army either kept,
    matched in size order with an allowed one, or cut down to a lone unit)."""
    sizes = sorted(sizes, reverse=True)
    limits = sorted(allowed, reverse=True)
    inf = float("inf")
    best = [0] + [inf] * len(limits)  # best[j]: cost so far with j allowed armies used
    for s in sizes:
        new = [inf] * (len(limits) + 1)
        for j, cost in enumerate(best):
            if cost == inf:
                continue
            new[j] = min(new[j], cost + s - 1)
            if j < len(limits):
                new[j + 1] = min(new[j + 1], cost + max(0, s - limits[j]))
        best = new
    return int(min(best))


def default_supply_cut(state: dict, ctx: Ctx, house: str, rng: random.Random | None = None) -> list[tuple[str, str]]:
    """PBEM.md default: units from the largest armies first, weakest unit first (RULES.md A31: between
    equal armies the weakest unit, then the first area by name), never more than needed. With
    ``rng``: a random legal reduction (bots)."""
    areas = {a: {h: list(u) for h, u in holders.items()} for a, holders in state["areas"].items()}
    allowed = _allowed(state, ctx, house)
    cut = []
    while True:
        need = min_cut(pos.armies(areas, house), allowed)
        if need == 0:
            return cut
        options = []
        for area, holders in areas.items():
            units = holders.get(house, [])
            if len(units) < 2:
                continue
            for unit in set(units):
                trial = {**areas, area: {house: pos.sort_units((Counter(units) - Counter([unit])).elements())}}
                if min_cut(pos.armies(trial, house), allowed) == need - 1:
                    options.append((-len(units), WEAKEST_FIRST.index(unit), ctx.area(area), area, unit))
        options.sort()
        _, _, _, area, unit = rng.choice(options) if rng else options[0]
        units = Counter(areas[area][house]) - Counter([unit])
        areas[area] = {house: pos.sort_units(units.elements())}
        cut.append((area, unit))


def _all_units(state: dict, house: str) -> list[tuple[str, str]]:
    return [(a, u) for a, holders in state["areas"].items() for u in holders.get(house, [])]


def _reachable(values: list[int]) -> set[int]:
    sums = {0}
    for v in values:
        sums |= {s + v for s in sums}
    return sums


def loss_target(state: dict, ctx: Ctx, house: str, need: int) -> int:
    """The worth a house removes (RULES.md A36): ``need`` if its units can make it up exactly, else the
    smallest reachable worth above it, or everything it has if that is less."""
    values = [value(ctx, u) for _, u in _all_units(state, house)]
    if sum(values) <= need:
        return sum(values)
    return min(s for s in _reachable(values) if s >= need)


def losses_problem(state: dict, ctx: Ctx, house: str, need: int, removes: list[Remove]) -> Msg | None:
    areas, problem = areas_after(state, ctx, house, removes)
    if problem:
        return problem
    worth = sum(value(ctx, u) for r in removes for u in r.units)
    target = loss_target(state, ctx, house, need)
    total = sum(value(ctx, u) for _, u in _all_units(state, house))
    if target == total and total <= need:
        return None if worth == total else Msg("agot.error.worth_only", total=total)
    if worth != target:
        return Msg("agot.error.losses_worth", target=target, need=need, worth=worth)
    return None


def loss_choice(state: dict, ctx: Ctx, house: str, need: int) -> bool:
    """Does ``house`` have more than one way to lose ``need``?"""
    target = loss_target(state, ctx, house, need)
    groups = Counter(_all_units(state, house))
    ways = {0: 1}
    for (area, unit), n in groups.items():
        new: dict[int, int] = {}
        for s, count in ways.items():
            for k in range(n + 1):
                t = s + k * value(ctx, unit)
                if t <= target:
                    new[t] = min(2, new.get(t, 0) + count)
        ways = new
    return ways.get(target, 0) > 1


def default_losses(state: dict, ctx: Ctx, house: str, need: int, rng: random.Random | None = None) -> list[tuple[str, str]]:
    """PBEM.md default: the weakest units first (footman, ship, knight; from the largest army, then by
    area name), making up exactly the worth of :func:`loss_target`. With ``rng``: a random legal choice."""
    target = loss_target(state, ctx, house, need)
    units = _all_units(state, house)
    if rng:
        rng.shuffle(units)
    else:
        units.sort(key=lambda au: (WEAKEST_FIRST.index(au[1]), -len(pos.units_in(state, au[0], house)), ctx.area(au[0])))
    chosen, left = [], target
    for i, (area, unit) in enumerate(units):
        v = value(ctx, unit)
        if v <= left and (left - v) in _reachable([value(ctx, u) for _, u in units[i + 1:]]):
            chosen.append((area, unit))
            left -= v
        if left == 0:
            break
    return chosen


def as_removes(cut: list[tuple[str, str]]) -> list[Remove]:
    by_area: dict[str, list[str]] = {}
    for area, unit in cut:
        by_area.setdefault(area, []).append(unit)
    return [Remove(a, tuple(pos.sort_units(u))) for a, u in by_area.items()]


def usable_prefix(state: dict, ctx: Ctx, house: str, problem) -> int | None:
    """How many of the house's REMOVE lines, in the order written, make a legal removal (the fewest)."""
    lines = pos.plan(state, house).get("removes", [])
    removes = [ctx.command(line) for line in lines]
    for k in range(1, len(removes) + 1):
        if problem(removes[:k]) is None:
            return k
    return None


def remove_units(state: dict, ctx: Ctx, house: str, removes: list[Remove]) -> list[Msg]:
    """Take the units off the board; what was removed where (``agot.removed`` messages)."""
    parts = []
    for r in removes:
        pos.remove_units(state, r.area, r.units)
        parts.append(Msg("agot.removed", units=list(r.units), area=ctx.area(r.area)))
    return parts


def pending_losses(state: dict, ctx: Ctx) -> list[Owed]:
    out = []
    for house, need in _w(state)["losses"].items():
        if not loss_choice(state, ctx, house, need):
            continue
        done = usable_prefix(state, ctx, house, lambda rs: losses_problem(state, ctx, house, need, rs)) is not None
        out.append(Owed(house, Msg("agot.owed.losses", need=need), "step", done))
    return out


def resolve_losses(state: dict, ctx: Ctx, force: bool) -> tuple[list[Event], bool]:
    events = []
    for house, need in _w(state)["losses"].items():
        check = lambda rs: losses_problem(state, ctx, house, need, rs)  # noqa: E731
        k = usable_prefix(state, ctx, house, check)
        plan = pos.plan(state, house)
        if k is not None:
            removes = [ctx.command(line) for line in plan["removes"][:k]]
            del plan["removes"][:k]
        else:
            removes = as_removes(default_losses(state, ctx, house, need))
            if loss_choice(state, ctx, house, need):
                events.append(Event("agot.default.losses", house=house))
        events.append(Event("agot.wildlings.kill", house=house, removed=remove_units(state, ctx, house, removes)))
    return events, True
