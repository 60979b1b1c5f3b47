"""Candidate examples for a refused line: lines of the same command made from the present position
and the sender's own areas, orders, units and cards (issue 10: every error's example is valid in the
present position and for that player).

The submission (``submission.py``) keeps the example an error came with when the judge accepts it in
its place, and otherwise tries these candidates, in order, until one is accepted; ``HELP`` is the
last resort. So a candidate here need not be legal: it only has to be likely, and cheap. Never a
``MARCH <from> -> NONE``: that throws the march away, which is no fix for a march that went wrong.
An example may span lines (a supply cut over several areas: each REMOVE line is one area).
"""

from __future__ import annotations

from collections import Counter

from . import action, aftermath, bidding, gold, hostages, ironbank, westeros
from . import position as pos
from .battlefield import asked_choice, choice_text, fighting_units
from .commands import house_name, units_text
from .context import Ctx

ORDER_PREFERENCE = ("defense +1", "march 0", "support", "consolidate", "raid", "march -1")
"""Order tokens tried for an example order line, the plain ones first (no star, no limit issue)."""

PER_AREA = 8
"""Destinations (or targets) tried per area: the first few legal ones make a good enough example."""


def candidates(state: dict, ctx: Ctx, house: str, keyword: str, orders: dict[str, str], command=None) -> list[str]:
    """Likely valid lines of ``keyword`` for ``house`` now; ``orders``: its orders (board or mail or
    file); ``command``: the refused command, when it parsed (its area is tried first)."""
    make = _MAKERS.get(keyword)
    if make is None:
        return []
    seen: dict[str, None] = {}
    for line in make(state, ctx, house, orders, command):
        seen.setdefault(line, None)
    return list(seen)


def _first(areas, command) -> list[str]:
    """``areas`` with the refused command's area first."""
    src = getattr(command, "src", None) or getattr(command, "area", None)
    return sorted(areas, key=lambda a: a != src)


def _of_kind(orders: dict[str, str], kind: str) -> list[str]:
    return [a for a, t in orders.items() if str(t).startswith(kind)]


def _order_lines(state, ctx, house, orders, command):
    mine = [a for a in state["areas"] if pos.owner(state, a) == house]
    for area in _first(sorted(mine, key=ctx.area), command):
        for token in ORDER_PREFERENCE:
            if token == "consolidate" and ctx.gd.board.is_sea(area):
                continue
            yield f"{ctx.area(area)}: {token}"


def _marches(state, ctx, house, orders, command):
    board = ctx.gd.board
    for src in _first(_of_kind(orders, "march"), command):
        free = Counter(pos.units_in(state, src, house)) - Counter(pos.routed_in(state, src))
        if not free:
            continue
        unit = "ship" if board.is_sea(src) else ("footman" if free["footman"] else "knight")
        quiet = lambda a: pos.owner(state, a) not in (None, house) or a in state["neutral"]  # noqa: E731
        dests = sorted(action.reachable(state, ctx, house, src), key=lambda a: (quiet(a), ctx.area(a)))
        for dest in dests[:PER_AREA]:
            yield f"MARCH {ctx.area(src)} -> {ctx.area(dest)}: 1 {unit}"


def _raids(state, ctx, house, orders, command):
    for src in _first(_of_kind(orders, "raid"), command):
        if state["phase"] == "action" and src in state["orders"]:
            targets = action.raid_targets(state, ctx, src)
        else:
            targets = action.raid_reach(state, ctx, house, src, occupants_known=state["phase"] == "planning")
        for target in targets[:PER_AREA]:
            yield f"RAID {ctx.area(src)} -> {ctx.area(target)}"
    for src in _first(_of_kind(orders, "raid"), command):
        yield f"RAID {ctx.area(src)} -> NONE"  # a raid with no target is removed anyway: nothing is lost


def _supports(state, ctx, house, orders, command):
    b = state.get("battle")
    for src in _first(_of_kind(orders, "support"), command):
        if b and ctx.gd.board.adjacent(src, b["area"]):
            for side in (b["attacker"], b["defender"]):
                yield f"SUPPORT {ctx.area(src)} -> {ctx.house(side)} IN {ctx.area(b['area'])}"
        yield f"SUPPORT {ctx.area(src)} -> {ctx.house(house)}"
        yield f"SUPPORT {ctx.area(src)} -> NONE"


def _battle_area(state, house) -> str | None:
    b = state.get("battle")
    return b["area"] if b and house in (b["attacker"], b["defender"]) else None


def _cards(state, ctx, house, orders, command):
    area = _battle_area(state, house)
    hand = list(state["hands"][house]) or [c.id for c in ctx.gd.house_cards[house]]
    for card in hand:
        if area:
            yield f"CARD {ctx.card(card)} IN {ctx.area(area)}"
        yield f"CARD {ctx.card(card)}"
    if ctx.on("optional-house-card"):  # agot2e-ru: no card in the battle, announced before the cards
        yield f"CARD NONE IN {ctx.area(area)}" if area else "CARD NONE"


def _casualties(state, ctx, house, orders, command):
    b = state.get("battle")
    if b and b.get("loser") == house:
        n, available = aftermath.casualty_count(state, b, ctx)
        if n:
            units = sorted(available, key=aftermath.CASUALTY_ORDER.index)[:n]
            yield f"CASUALTIES {units_text(tuple(pos.sort_units(units)))} IN {ctx.area(b['area'])}"
    if b and house in (b["attacker"], b["defender"]):
        for unit in sorted(set(fighting_units(state, b, house)), key=aftermath.CASUALTY_ORDER.index):
            yield f"CASUALTIES 1 {unit} IN {ctx.area(b['area'])}"
    for unit in sorted(pos.house_units(state, house), key=aftermath.CASUALTY_ORDER.index):
        yield f"CASUALTIES 1 {unit}"


def _retreats(state, ctx, house, orders, command):
    b = state.get("battle")
    if b and b["defender"] == house:
        legal, _ = aftermath.retreat_options(state, ctx, b, fighting_units(state, b, house))
        for area in legal:
            yield f"RETREAT {ctx.area(area)} FROM {ctx.area(b['area'])}"
    for area in sorted((a for a in state["areas"] if pos.owner(state, a) == house and ctx.gd.board.is_land(a)),
                       key=ctx.area):
        yield f"RETREAT {ctx.area(area)}"


def _abilities(state, ctx, house, orders, command):
    b = state.get("battle")
    asked = asked_choice(state, ctx, house)  # 2e: any card's question
    if asked is None and b and b.get("stage") == "ability" and b["winner"] == house:
        asked = b["cards"][house]
    if asked is not None:
        for value in ctx.rules.cards.choice_options(state, ctx, b, asked):
            yield f"ABILITY {ctx.card(asked)}: {choice_text(ctx, value)}"
        yield f"ABILITY {ctx.card(asked)}: no"
    optional = [c for c in ctx.rules.cards.CHOICE_STAGE if c not in ctx.rules.cards.MANDATORY] \
        if ctx.rules.cards.BY_TIMING else ctx.rules.cards.WIN_CHOICE
    for card in ctx.gd.house_cards[house]:
        if card.id in optional:
            yield f"ABILITY {card.name}: no"


def _raven(state, ctx, house, orders, command):
    yield "RAVEN PASS"


def _bids(state, ctx, house, orders, command):
    yield "BID 0"
    yield f"BID {state['power'][house]}"
    yield "BID THRONE 0 FIEFDOMS 0 COURT 0"


def _tiebreaks(state, ctx, house, orders, command):
    tie = (state.get("westeros") or {}).get("tie")
    if tie:
        yield "\n".join("TIEBREAK " + ", ".join(ctx.house(h) for h in group) for group in tie["groups"])
    yield "TIEBREAK " + ", ".join(ctx.house(h) for h in pos.turn_order(state))


def _musters(state, ctx, house, orders, command):
    options = westeros.muster_options(state, ctx, house)
    for muster in sorted(options, key=lambda m: m.area != getattr(command, "area", None))[:3 * PER_AREA]:
        yield muster.canonical(ctx.names)
    yield "MUSTER NONE"


def _removes(state, ctx, house, orders, command):
    kind = westeros.removal_now(state, house)
    preview = westeros.supply_preview(state, ctx) if kind is None else None
    if kind == "supply" or (preview is not None and not pos.within_supply(preview, ctx.gd, house)):
        at = state if kind else preview
        cut = bidding.as_removes(bidding.default_supply_cut(at, ctx, house))
    elif kind == "losses":
        cut = bidding.as_removes(bidding.default_losses(state, ctx, house, state["westeros"]["losses"][house]))
    else:  # sent ahead for wildling losses: any unit of the house will do as an example
        cut = []
        for area in sorted((a for a in state["areas"] if pos.owner(state, a) == house), key=ctx.area)[:PER_AREA]:
            yield f"REMOVE {ctx.area(area)}: 1 {pos.units_in(state, area, house)[0]}"
    if cut:
        yield "\n".join(r.canonical(ctx.names) for r in cut)
        for r in cut:
            yield r.canonical(ctx.names)


def _reclaims(state, ctx, house, orders, command):
    for card in sorted(state["discards"][house], key=ctx.card):
        yield f"RECLAIM {ctx.card(card)}"


def _clears(state, ctx, house, orders, command):
    yield "CLEAR MARCHES"
    yield "CLEAR"


def _always(state, ctx, house, orders, command):
    yield "ORDERS?"


def _consolidations(state, ctx, house, orders, command):
    """2e: the Power of a starred Consolidate Power order in a castle area (always legal)."""
    for area in _first(sorted((a for a, t in orders.items() if str(t) == "consolidate*"), key=ctx.area), command):
        yield f"CONSOLIDATE {ctx.area(area)}: POWER"


def _loans(state, ctx, house, orders, command):
    """agot2e-ru: the largest loan now, else paying the debt back (a third loan's fix)."""
    if not gold.in_play(state):
        return
    yield f"LOAN {ironbank.loan_limit(state, ctx, house)}"
    yield from _repays(state, ctx, house, orders, None)


def _repays(state, ctx, house, orders, command):
    if gold.in_play(state) and min(state["debts"][house], gold.held(state, house)):
        yield f"REPAY {min(state['debts'][house], gold.held(state, house))}"


def _gives(state, ctx, house, orders, command):
    purse = gold.held(state, house) if gold.in_play(state) else 0
    if purse:
        n = min(getattr(command, "n", 1), purse)
        for other in (h for h in state["houses"] if h != house):
            yield f"GIVE {house_name(other)} {n}"


def _buys(state, ctx, house, orders, command):
    """A house token for a controlled area without one (the refused line's area first), else supply."""
    if not gold.in_play(state):
        return
    board = ctx.gd.board
    mine = [a for a in board.land_areas if pos.controller(state, ctx.gd, a) == house and a not in state["control"]
            and board.area(a).home_of != house]
    for area in _first(sorted(mine, key=ctx.area), command)[:PER_AREA]:
        yield f"BUY TOKEN {ctx.area(area)}"
    yield "BUY SUPPLY"


_MAKERS = {
    "BUY": _buys, "GIVE": _gives, "LOAN": _loans, "REPAY": _repays,  # agot2e-ru: the transactions (transactions.py)
    "CONSOLIDATE": _consolidations,  # 2e
    "ORDER": _order_lines, "MARCH": _marches, "RAID": _raids, "SUPPORT": _supports, "CARD": _cards,
    "BLADE": lambda *_: iter(["BLADE AUTO"]), "CASUALTIES": _casualties, "RETREAT": _retreats,
    "ABILITY": _abilities, "RAVEN": _raven, "BID": _bids, "BIDALL": _bids, "TIEBREAK": _tiebreaks,
    "MUSTER": _musters, "REMOVE": _removes, "RECLAIM": _reclaims, "CLEAR": _clears, "ORDERS": _always,
    "ORDERS?": _always,
    # agot2e-ru: the rebellion's eligible areas (or any own land area, sent ahead); the Hand's lines
    "REBEL": lambda state, ctx, house, orders, command: (
        f"REBEL {ctx.area(a)}" for a in sorted(ctx.gd.board.land_areas, key=ctx.area)
        if pos.controller(state, ctx.gd, a) == house),
    "HAND": lambda *_: iter(["HAND LOOK I", "HAND PASS"]),
    **{k: lambda state, ctx, house, orders, command: hostages.examples(state, ctx, house)  # agot2e-ru
       for k in ("RANSOM", "ACCEPT", "REFUSE", "EXECUTE")},
}
