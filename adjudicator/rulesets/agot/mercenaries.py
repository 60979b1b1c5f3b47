"""Sellsword companies: the Russian fan variant's mercenary module (agot2e-ru, option ``mercenaries``,
which needs ``gold-economy``; its RULES.md V19 quotes the seed and D49-D59 are our decisions).

The seed's phase 6, "Фаза наемников", is a variant step after the action phase (``variantsteps.py``),
played from round ``mercenaries.from_round`` (the seed ignores "Sellswords to Hire" before round IV).
It has two stages, each a round of mail:

* **wages**: every house holding a company says ``WAGES PAY`` (keeps it), ``WAGES DISMISS`` (a last wage:
  its sellswords sail home, the company is for hire again) or ``WAGES STOP`` (unpaid); default: pay if the
  purse allows, else stop. A stage with no holder is skipped.
* **auction**: every house that may hire (it holds no company and controls a land area next to a sea
  without another house's ships: the sellswords come from Essos) sends a sealed ``HIRE <company> <n>``
  or ``HIRE NONE``; default: no bid. The bids are revealed together; for each company offered (those for
  hire and those just left unpaid, in the order of ``variant-params``) the highest bid at least its
  minimum hires it, ties to the house higher on the Iron Throne track. A new company lands in the hirer's
  eligible area holding most of its units; an unpaid one changes banners where it stands. An unpaid
  company nobody hires revolts: a die (seeded from the game's seed) makes its areas neutral forces.

State (present only with the option; public): ``state["mercenaries"]``: company id -> ``None`` (for hire),
the holding house, or ``"gone"`` (destroyed or revolted: never hired again). A company's units are the
``sellsword`` units of its holder on the board (a house holds one company at most, so the unit kind and
the house say which company): they march, support, fight and retreat as the house's own, and stay
outside the supply limit (``position.army_size``). ``state["hiring"]`` holds the step's stage while it is
played. Sealed lines live in the house's plan (``hire``, ``wages``: one canonical line each) until the
step resolves them.
"""

from __future__ import annotations

import random

from ...messages import Msg
from ...ruleset import Event, Owed
from . import gold
from . import position as pos
from .aftermath import KEEP_ORDER, retreat_options
from .commands import Hire, Wages
from .context import Ctx
from .support import unit_value

STEP = "mercenaries"
SELLSWORD = "sellsword"


# -- the companies ---------------------------------------------------------------------------------


def in_play(state: dict) -> bool:
    return "mercenaries" in state


def companies(ctx: Ctx):
    return ctx.params.mercenaries.companies


def held_by(state: dict, house: str) -> str | None:
    """The company ``house`` holds, or None."""
    return next((c for c, h in (state.get("mercenaries") or {}).items() if h == house), None)


def sellswords(state: dict, house: str) -> dict[str, int]:
    """area -> how many sellswords of ``house`` stand there."""
    return {a: n for a, holders in state["areas"].items() if (n := holders.get(house, []).count(SELLSWORD))}


def may_hire(state: dict, ctx: Ctx, house: str) -> list[str]:
    """The land areas where a company hired by ``house`` may land: areas it controls next to a sea holding
    no other house's ships (seed: "только игроки, владеющие территорией, имеющей доступ к морскому району,
    свободному от вражеских кораблей"); empty when it holds a company already (one at a time)."""
    if held_by(state, house) is not None:
        return []
    board = ctx.gd.board
    out = []
    for area in board.land_areas:
        if pos.controller(state, ctx.gd, area) != house or area in state["neutral"]:
            continue
        if any(board.is_sea(n) and pos.owner(state, n) in (None, house) for n in board.neighbours(area)):
            out.append(area)
    return out


def landing(state: dict, ctx: Ctx, house: str, areas: list[str]) -> str:
    """Where a newly hired company lands (ours, D51): the hirer's eligible area holding most of its
    units, then the first by name."""
    return min(areas, key=lambda a: (-len(pos.units_in(state, a, house)), ctx.area(a)))


# -- mail lines ------------------------------------------------------------------------------------


def check(state: dict, ctx: Ctx, house: str, command) -> tuple[Msg | None, str | None]:
    """A HIRE or WAGES line: refused without the option (naming it), for an unknown or lost company, or a
    bid under its minimum or over the purse; WAGES only from a house holding a company. Both may be sent
    ahead in the round (the phase comes after the action phase); they expire with the round."""
    example = "HIRE golden-company 6" if isinstance(command, Hire) else "WAGES PAY"
    if not ctx.on("mercenaries") or not in_play(state):
        return Msg("agot.error.no_mercenaries"), None
    if isinstance(command, Wages):
        if held_by(state, house) is None:
            return Msg("agot.error.wages_no_company"), "HIRE NONE"
        return None, None
    if command.company is None:
        return None, None
    if (mine := held_by(state, house)) is not None:
        return Msg("agot.error.hire_holding", company=mine), "HIRE NONE"
    cid = command.company  # the grammar read the name into an id (grammar._company_names)
    if cid not in companies(ctx):
        return Msg("agot.error.hire_unknown", text=cid, companies=list(companies(ctx))), example
    company = companies(ctx)[cid]
    if state["mercenaries"][cid] == "gone":
        return Msg("agot.error.hire_gone", company=cid), "HIRE NONE"
    if (state.get("hiring") or {}).get("stage") == "auction" and cid not in offered(state, ctx):
        return Msg("agot.error.hire_not_offered", company=cid, house=state["mercenaries"][cid]), "HIRE NONE"
    if command.bid < company.minimum:
        return Msg("agot.error.hire_minimum", company=cid, n=command.bid, minimum=company.minimum), \
            f"HIRE {cid} {company.minimum}"
    if not gold.can_pay(state, house, command.bid):
        return Msg("agot.error.hire_purse", n=command.bid, purse=gold.held(state, house)), "HIRE NONE"
    return None, None


def store(state: dict, ctx: Ctx, house: str, command) -> None:
    """The line replaces the one on file (the plan's ``hire`` or ``wages``, made when first sent)."""
    pos.plan(state, house)["hire" if isinstance(command, Hire) else "wages"] = [command.canonical(ctx.names)]


def _line(state: dict, ctx: Ctx, house: str, key: str):
    lines = pos.plan(state, house).get(key) or []
    return ctx.command(lines[0]) if lines else None


# -- the step --------------------------------------------------------------------------------------


def start(state: dict, ctx: Ctx) -> list[Event]:
    """The mercenary phase begins: companies whose last sellsword fell are lost; then the wages."""
    if not ctx.on("mercenaries") or not in_play(state) or state["round"] < ctx.params.mercenaries.from_round:
        return []
    events = []
    for cid, house in state["mercenaries"].items():
        if house not in (None, "gone") and not sellswords(state, house):
            state["mercenaries"][cid] = "gone"
            events.append(Event("agot.mercs.destroyed", company=cid, house=house))
    state["hiring"] = {"stage": "wages", "unpaid": []}
    events.append(Event("agot.mercs.phase", round=state["round"]))
    if not _holders(state):
        events += _to_auction(state, ctx)
    return events


def _holders(state: dict) -> list[str]:
    return [h for h in pos.turn_order(state) if held_by(state, h) is not None]


def _bidders(state: dict, ctx: Ctx) -> list[str]:
    """The houses asked for a bid: those that may hire and can pay some company's minimum."""
    cheapest = min((companies(ctx)[c].minimum for c in offered(state, ctx)), default=None)
    return [h for h in pos.turn_order(state)
            if cheapest is not None and gold.can_pay(state, h, cheapest) and may_hire(state, ctx, h)]


def offered(state: dict, ctx: Ctx) -> list[str]:
    """The companies auctioned now: those for hire and those just left unpaid, in ``variant-params`` order."""
    unpaid = state["hiring"]["unpaid"]
    return [c for c in companies(ctx) if state["mercenaries"][c] is None or c in unpaid]


def pending(state: dict, ctx: Ctx) -> list[Owed]:
    hiring = state.get("hiring")
    if not hiring:
        return []
    if hiring["stage"] == "wages":
        out = []
        for house in _holders(state):
            cid = held_by(state, house)
            out.append(Owed(house, Msg("agot.owed.wages", company=cid, wages=companies(ctx)[cid].wages,
                                       purse=gold.held(state, house)), "step", _line(state, ctx, house, "wages") is not None))
        return out
    for_hire = offered(state, ctx)
    return [Owed(h, Msg("agot.owed.hire", companies=[[c, companies(ctx)[c].minimum] for c in for_hire],
                        purse=gold.held(state, h)), "step", _line(state, ctx, h, "hire") is not None)
            for h in _bidders(state, ctx)]


def advance(state: dict, ctx: Ctx, force: bool) -> list[Event]:
    hiring = state.get("hiring")
    if not hiring:
        return []
    if hiring["stage"] == "wages":
        return _wages(state, ctx)
    return _auction(state, ctx)


def _wages(state: dict, ctx: Ctx) -> list[Event]:
    """Every holder's WAGES line (or the default), in Iron Throne order; then the auction."""
    events = []
    for house in _holders(state):
        cid = held_by(state, house)
        wage = companies(ctx)[cid].wages
        line = _line(state, ctx, house, "wages")
        choice = line.choice if line else ("pay" if gold.can_pay(state, house, wage) else "stop")
        if not line:
            events.append(Event("agot.default.wages", house=house, company=cid, choice=choice))
        if choice in ("pay", "dismiss") and not gold.can_pay(state, house, wage):
            events.append(Event("agot.mercs.cannot_pay", house=house, company=cid, wages=wage))
            choice = "stop"
        if choice == "stop":
            state["hiring"]["unpaid"].append(cid)
            events.append(Event("agot.mercs.unpaid", house=house, company=cid))
            continue
        gold.pay(state, house, wage)
        if choice == "pay":
            events.append(Event("agot.mercs.paid", house=house, company=cid, wages=wage))
        else:
            n = sum(sellswords(state, house).values())
            _remove_all(state, house)
            state["mercenaries"][cid] = None
            events.append(Event("agot.mercs.dismissed", house=house, company=cid, wages=wage, n=n))
        pos.plan(state, house).pop("wages", None)
    return events + _to_auction(state, ctx)


def _to_auction(state: dict, ctx: Ctx) -> list[Event]:
    """The auction stage, or (nobody may bid, or nothing is offered) its outcome at once."""
    state["hiring"]["stage"] = "auction"
    if offered(state, ctx) and _bidders(state, ctx):
        return []
    return _auction(state, ctx)


def _auction(state: dict, ctx: Ctx) -> list[Event]:
    """The sealed bids revealed together, each company hired by the highest bid at least its minimum (ties:
    the Iron Throne track), the unpaid companies nobody hired revolting."""
    events = []
    for_hire = offered(state, ctx)
    unpaid = list(state["hiring"]["unpaid"])
    bids: dict[str, tuple[str, int]] = {}
    bidders = _bidders(state, ctx) if for_hire else []
    for house in bidders:
        line = _line(state, ctx, house, "hire")
        if line is None or line.company is None:
            events.append(Event("agot.mercs.no_bid", house=house))
            continue
        events.append(Event("agot.mercs.bid", house=house, company=line.company, n=line.bid))
        company = companies(ctx)[line.company]
        if line.company not in for_hire or line.bid < company.minimum or not gold.can_pay(state, house, line.bid):
            events.append(Event("agot.mercs.bid_void", house=house, company=line.company, n=line.bid,
                                minimum=company.minimum, purse=gold.held(state, house),
                                offered=line.company in for_hire))
            continue
        bids[house] = (line.company, line.bid)
    throne = state["tracks"]["iron_throne"]
    for cid in for_hire:
        on_it = sorted(((n, h) for h, (c, n) in bids.items() if c == cid), key=lambda b: (-b[0], throne.index(b[1])))
        if on_it:
            n, winner = on_it[0]
            if len(on_it) > 1 and on_it[1][0] == n:
                events.append(Event("agot.mercs.tie", company=cid, houses=[h for m, h in on_it if m == n]))
            gold.pay(state, winner, n)
            events += _hired(state, ctx, cid, winner, n)
        elif cid in unpaid:
            events += _revolt(state, ctx, cid)
    for house in state["houses"]:
        pos.plan(state, house).pop("hire", None)
        pos.plan(state, house).pop("wages", None)
    state.pop("hiring", None)
    return events


def _hired(state: dict, ctx: Ctx, cid: str, house: str, n: int) -> list[Event]:
    former = state["mercenaries"][cid]
    if former is None:  # from Essos: it lands in one of the hirer's areas by a free sea
        area = landing(state, ctx, house, may_hire(state, ctx, house))
        state["mercenaries"][cid] = house
        count = companies(ctx)[cid].sellswords
        pos.add_units(state, area, house, [SELLSWORD] * count)
        return [Event("agot.mercs.hired", house=house, company=cid, n=n, units=count, area=ctx.area(area))]
    state["mercenaries"][cid] = house
    events = [Event("agot.mercs.changes_banners", house=house, former=former, company=cid, n=n)]
    for area, count in sorted(sellswords(state, former).items(), key=lambda a: ctx.area(a[0])):
        events += _turn(state, ctx, area, former, house, count)
    return events


def _strength(state: dict, ctx: Ctx, area: str, house: str, units: list[str]) -> int:
    routed = list(pos.routed_in(state, area))
    total = 0
    for unit in units:
        if unit in routed:
            routed.remove(unit)  # routed units count 0 (seed: "Беглецы имеют боевую силу 0")
            continue
        total += unit_value(ctx, unit, area, attacking=False)
    return total


def _garrison(state: dict, ctx: Ctx, area: str, own: list[str]) -> int:
    """The castle's defence on its former holder's side (seed: "Замки всегда остаются на стороне предыдущих
    владельцев (если там никого нет - то значит у прежнего владельца там сила гарнизона)"): the home garrison
    token while it stands; else, beside its units, the printed garrison (V6 defends only with units)."""
    token = (state.get("garrisons") or {}).get(area)
    if token:
        return token
    castle = ctx.gd.board.area(area).castle
    return ctx.params.printed_garrison(castle) if own and ctx.on("printed-garrisons") and castle != "none" else 0


def _fight(state: dict, ctx: Ctx, area: str, former: str, own: list[str], count: int, penalty: int) \
        -> tuple[bool, int, int, int]:
    """Sellswords against their former holder's units and castle in ``area`` (no house cards, D53):
    (whether the sellswords win, their strength, the defence, the garrison in it); ties to the defence."""
    mercs = _strength(state, ctx, area, former, [SELLSWORD] * count)
    garrison = _garrison(state, ctx, area, own)
    defence = (max(0, _strength(state, ctx, area, former, own) - penalty) if own else 0) + garrison
    return mercs > defence, mercs, defence, garrison


def _beaten(state: dict, ctx: Ctx, area: str, former: str, own: list[str]) -> list[Event]:
    """The former holder beaten by sellswords in ``area``: its units retreat, its garrison token is removed
    for good (as a garrison beaten in battle, 2e B14), its power token and order leave."""
    events = _rout(state, ctx, area, former, own) if own else []
    if (state.get("garrisons") or {}).get(area):
        del state["garrisons"][area]
        events.append(Event("agot.battle.garrison_removed", house=former, area=ctx.area(area)))
    _take_area(state, area, former)
    return events


def _turn(state: dict, ctx: Ctx, area: str, former: str, house: str, count: int) -> list[Event]:
    """The sellswords of ``former`` in ``area`` go over to ``house``: alone (and no garrison token), the area
    changes banners; beside ``former``'s own units or garrison, they fight them at once, the units at -1
    (D53)."""
    own = [u for u in pos.units_in(state, area, former) if u != SELLSWORD]
    won, mercs, defence, garrison = _fight(state, ctx, area, former, own, count, ctx.params.mercenaries.ambush_penalty)
    if not own and not garrison:
        _take_area(state, area, former)
        pos.set_units(state, area, house, [SELLSWORD] * count)
        return [Event("agot.mercs.area_changes", house=house, area=ctx.area(area), n=count)]
    if won:
        events = [Event("agot.mercs.ambush_won", house=house, former=former, area=ctx.area(area), mercs=mercs,
                        defence=defence, garrison=garrison)]
        events += _beaten(state, ctx, area, former, own)
        pos.set_units(state, area, house, [SELLSWORD] * count)
        return events
    pos.set_units(state, area, former, own)
    _order_without_units(state, area)
    return [Event("agot.mercs.ambush_lost", house=house, former=former, area=ctx.area(area), mercs=mercs,
                  defence=defence, garrison=garrison, n=count)]


def _order_without_units(state: dict, area: str) -> None:
    """The sellswords destroyed were the area's last units (its garrison beat them): their order leaves the
    board, unless the house's power token holds the area and orders stand there (orders-in-token-areas)."""
    if pos.order_owner(state, area) is None:
        state["orders"].pop(area, None)


def _take_area(state: dict, area: str, former: str) -> None:
    """``former`` loses ``area``: its power token goes back to its pool, its order leaves the board."""
    if state["control"].get(area) == former:
        del state["control"][area]
        state["power"][former] += 1
    state["orders"].pop(area, None)


def _rout(state: dict, ctx: Ctx, area: str, loser: str, units: list[str]) -> list[Event]:
    """``loser``'s units beaten in ``area`` by sellswords retreat, routed, as a beaten defender's (the 2nd
    edition's retreat rules and the variant's options; siege engines die with a beaten army, 2e R7.1; the
    default area, no line asked: D54)."""
    siege = [u for u in units if u in ctx.gd.setup.castle_only_units]
    units = [u for u in units if u not in siege]
    b = {"area": area, "origin": None, "defender": loser}
    legal, fit = retreat_options(state, ctx, b, units) if units else ([], 0)
    pos.set_units(state, area, loser, [u for u in pos.units_in(state, area, loser) if u == SELLSWORD])
    if not legal:
        return [Event("agot.mercs.no_retreat", house=loser, area=ctx.area(area), units=units + siege)]
    dest = min(legal, key=lambda a: (-len(pos.units_in(state, a, loser)), ctx.area(a)))
    keep = sorted(units, key=KEEP_ORDER.index)
    kept, lost = keep[:fit], keep[fit:] + siege
    pos.add_units(state, dest, loser, kept, routed=True)
    return [Event("agot.mercs.retreat", house=loser, area=ctx.area(area), dest=ctx.area(dest), kept=kept, lost=lost)]


def _die(state: dict, ctx: Ctx, cid: str, area: str) -> int:
    """A die seeded from the game's seed, the round, the company and the area: the same game rolls the same."""
    rng = random.Random(f"{state.get('seed', 0)}-mercenaries-{state['round']}-{cid}-{area}")
    return rng.randint(1, ctx.params.mercenaries.die)


def _revolt(state: dict, ctx: Ctx, cid: str) -> list[Event]:
    """An unpaid company nobody hired revolts in every area where it stands (seed: "бросьте кубик и добавьте к
    нему число, равное деленное на 2 итоговая сила наемников ... (максимум = 9)"): alone, the area becomes a
    neutral force of the die + half its strength; beside its former holder's units (or garrison token), it
    fights them first, and is destroyed unless it wins (D53)."""
    former = state["mercenaries"][cid]
    state["mercenaries"][cid] = "gone"
    events = [Event("agot.mercs.revolt", house=former, company=cid)]
    cap = ctx.params.mercenaries.revolt_at_most
    for area, count in sorted(sellswords(state, former).items(), key=lambda a: ctx.area(a[0])):
        own = [u for u in pos.units_in(state, area, former) if u != SELLSWORD]
        won, mercs, defence, garrison = _fight(state, ctx, area, former, own, count, 0)
        if own or garrison:
            if not won:
                pos.set_units(state, area, former, own)
                _order_without_units(state, area)
                events.append(Event("agot.mercs.revolt_crushed", house=former, area=ctx.area(area), mercs=mercs,
                                    defence=defence, garrison=garrison, n=count))
                continue
            events.append(Event("agot.mercs.revolt_wins", house=former, area=ctx.area(area), mercs=mercs,
                                defence=defence, garrison=garrison))
        events += _beaten(state, ctx, area, former, own)
        die = _die(state, ctx, cid, area)
        strength = min(cap, die + mercs // 2)
        pos.set_units(state, area, former, [])
        state["neutral"][area] = strength
        events.append(Event("agot.mercs.neutral", area=ctx.area(area), die=die, half=mercs // 2, strength=strength,
                            most=cap))
    return events


def _remove_all(state: dict, house: str) -> None:
    for area in sellswords(state, house):
        pos.set_units(state, area, house, [u for u in pos.units_in(state, area, house) if u != SELLSWORD])
        if not pos.units_in(state, area, house):
            state["orders"].pop(area, None)


def bot_mail(state: dict, ctx: Ctx, house: str, rng: random.Random) -> str:
    """The self-play bot (``variantsteps``): the wages mostly paid (sometimes a dismissal or a stop); a
    sealed bid on a company the purse affords, about half the time."""
    if state["hiring"]["stage"] == "wages":
        return rng.choice(["WAGES PAY", "WAGES PAY", "WAGES DISMISS", "WAGES STOP"])
    purse = gold.held(state, house)
    affordable = [c for c in offered(state, ctx) if companies(ctx)[c].minimum <= purse]
    if not affordable or rng.random() < 0.5:
        return "HIRE NONE"
    company = rng.choice(affordable)
    return f"HIRE {company} {rng.randint(companies(ctx)[company].minimum, purse)}"


# -- what must hold --------------------------------------------------------------------------------


def violations(state: dict, ctx: Ctx) -> list[str]:
    """Sellswords only of a house holding a company, never more than its company has; one company a house."""
    held = state.get("mercenaries")
    out = []
    for house in state["houses"]:
        mine = [c for c, h in (held or {}).items() if h == house]
        n = sum(sellswords(state, house).values())
        if len(mine) > 1:
            out.append(f"{house} holds {len(mine)} companies {mine}")
        if n and not mine:
            out.append(f"{house}: {n} sellswords without a company")
        if mine and n > companies(ctx)[mine[0]].sellswords:
            out.append(f"{house}: {n} sellswords, its company {mine[0]} has {companies(ctx)[mine[0]].sellswords}")
    if held is not None and sorted(held) != sorted(companies(ctx)):
        out.append(f"companies {sorted(held)} are not the game's {sorted(companies(ctx))}")
    return out
