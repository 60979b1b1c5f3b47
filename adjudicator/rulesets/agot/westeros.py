"""The Westeros phase (CZ p.2-6, 13) and the end of the game (CZ p.12): a pure step module.

From round 2 (``setup.westeros_from_round``) a round starts here (CZ p.2 "fáze Westeros (nehraje
se v prvním kole)"). :func:`begin` reveals the top card of decks I, II and III: a Winter Is Coming
reshuffles its deck and reveals again (RULES.md R11.2). Every revealed card goes to the bottom of
its deck at once, so the decks always hold every card. The order-restricting card of deck III acts
from the reveal, so orders mailed during the Westeros phase are already checked against it.
The engine then alternates :func:`pending` and :func:`advance`:

``westeros``   the wildling threat rises one space per mammoth on the revealed cards (R11.1);
               then the cards resolve, I, II, III
``supply``     Supply: every house's supply level is recounted; houses over the limit remove
               units (``REMOVE``; default: :func:`bidding.default_supply_cut`)
``muster``     Mustering: houses with a castle muster, applied in turn order (``MUSTER``; default
               nothing)
``bid``        Clash of Kings: the bid for ``westeros['track']`` (``BID``; default 0)
``tiebreak``   the Iron Throne holder orders tied bidders (``TIEBREAK``; default: previous order)
``wildlings``  Wildling Attack: the Night's Watch bid (``BID``; default 0)
``losses``     the wildlings won: units worth 2 (the lowest bidder 4) mustering points removed
``reclaim``    the Night's Watch won: the highest bidder takes a discarded house card back
``outcome``    2e: the houses a wildling card lets choose answer it (``agot2e/wildlings.py``)
``choose``     2e: the token holder chooses for A Throne of Blades, Dark Wings Dark Words or Put
               to the Sword (``CHOOSE``; default nothing); the card then resolves as its choice
Game of Thrones, the restrictions (Sea of Storms, Storm of Swords, Feast for Crows, Rains of
Autumn) and Last Days of Summer need nobody. A sub-step where nobody owes anything resolves in
the same :func:`advance`. After card III the planning phase starts.

``state['decks']``: deck -> card ids, the top first (shuffled from the game's seed);
``state['reshuffles']``: deck -> how many times Winter Is Coming reshuffled it (the seed of the
next shuffle); ``state['westeros']``: this round's cards and what the phase has decided so far,
all public (bids are in the plans, secret, until they are resolved); None in round 1.

After round 10 (``setup.rounds``) :func:`end_game` ranks the houses (R10.2): most cities and
strongholds, then supply, then available power, else a draw.
"""

from __future__ import annotations

import random
from collections import Counter

from ...messages import Msg
from ...plaindata import clone
from ...ruleset import Event, Owed
from . import bidding, gold, planning, say, support
from . import position as pos
from .commands import (Bid, BidAll, Choose, Discard, Muster, MusterItem, OrderLine, Penalty,
                       Promote, Reclaim, Remove, Tiebreak, Track, TRACK_SLOTS)
from .context import Ctx, ctx_of
from .gamedata import GameData
from .grammar import parse_order_token

DECKS = ("I", "II", "III")
WINTER = "winter-is-coming"
SUPPLY, MUSTERING, CLASH, THRONES, WILDLING_ATTACK = (
    "supply", "mustering", "clash-of-kings", "game-of-thrones", "wildling-attack")
RESTRICTS = {"sea-of-storms": "raid", "storm-of-swords": "defense", "feast-for-crows": "consolidate",
             "rains-of-autumn": support.RAINS_OF_AUTUMN}
"""agot1e card -> the entry it puts in ``state['restrictions']`` for the round (order kinds; CZ p.13)."""
RESHUFFLE = "reshuffle-deck"  # 2e's effect_key of Winter Is Coming
FORBID, HOLDER_CHOOSES = "forbid-orders", "holder-chooses"  # 2e effect keys


def effect(gd: GameData, card: str) -> str:
    """What a Westeros card does: its ``effect_key`` (2e data), else its id (agot1e's cards are named
    by their effects: supply, mustering, clash-of-kings, game-of-thrones, wildling-attack ...)."""
    return gd.westeros_cards[card].effect_key or card


def restrictions_of(gd: GameData, card: str) -> list[str]:
    """What ``card`` puts in ``state['restrictions']``: order kinds (agot1e) or the texts of the order
    tokens it forbids (2e ``forbid-orders``, data ``params.orders``)."""
    if effect(gd, card) == FORBID:
        texts = {t.id: t.text for t in gd.setup.order_tokens}
        return [texts[token] for token in gd.westeros_cards[card].params["orders"]]
    return [RESTRICTS[card]] if card in RESTRICTS and effect(gd, card) == card else []
COMMANDS = (Bid, BidAll, Tiebreak, Muster, Remove, Reclaim, Track, Discard, Choose, Promote, Penalty)


def _w(state: dict) -> dict:
    return state["westeros"]


# -- decks ---------------------------------------------------------------------------------------------


def shuffled(seed, deck: str, gd: GameData, shuffle: int = 0, cards: list[str] | None = None) -> list[str]:
    """Deck ``deck`` (or ``cards``) shuffled by a generator seeded from the game's seed, the deck and
    how many reshuffles came before: the same game always draws the same cards."""
    cards = list(cards) if cards is not None else [card for card, _ in gd.westeros_decks[deck].copies()]
    random.Random(f"{seed}-westeros-{deck}-{shuffle}").shuffle(cards)
    return cards


def new_decks(seed, gd: GameData) -> dict[str, list[str]]:
    return {deck: shuffled(seed, deck, gd) for deck in DECKS}


def new_wildling_deck(seed, gd: GameData) -> list[str]:
    """2e: the wildling deck, top first, shuffled from the game's seed (agot2e RULES.md R4.7)."""
    cards = list(gd.wildling_cards)
    random.Random(f"{seed}-wildlings").shuffle(cards)
    return cards


def mammoth(gd: GameData, deck: str, card: str) -> bool:
    return any(e.card.id == card and e.mammoth for e in gd.westeros_decks[deck].entries)


def _decks(state: dict, gd: GameData) -> dict:
    if "decks" not in state:  # a state made before the Westeros phase existed
        state["decks"] = new_decks(state.get("seed", 0), gd)
    state.setdefault("reshuffles", {deck: 0 for deck in DECKS})
    return state["decks"]


def _draw(state: dict, ctx: Ctx, deck: str) -> str:
    cards = _decks(state, ctx.gd)[deck]
    card = cards.pop(0)
    cards.append(card)  # revealed cards go to the bottom (CZ p.2 step 4)
    return card


def _winter(state: dict, ctx: Ctx, deck: str) -> str:
    """Winter Is Coming: shuffle the whole deck (this card too) and reveal again (CZ p.13)."""
    state["reshuffles"][deck] += 1
    state["decks"][deck] = shuffled(state.get("seed", 0), deck, ctx.gd, state["reshuffles"][deck], state["decks"][deck])
    return _draw(state, ctx, deck)


def reveal(state: dict, ctx: Ctx, given: dict[str, str] | None = None) -> list[Event]:
    """Reveal this round's three cards (``given``: a rules case's cards instead of drawing), count
    their mammoths and set the round's restrictions."""
    _decks(state, ctx.gd)
    cards, mammoths, events = {}, 0, []
    for deck in DECKS:
        card = given[deck] if given else _draw(state, ctx, deck)
        mammoths += mammoth(ctx.gd, deck, card)
        for _ in range(1000):
            if effect(ctx.gd, card) not in (WINTER, RESHUFFLE):
                break
            events.append(Event("agot.westeros.winter", deck=deck))
            card = _winter(state, ctx, deck)
            mammoths += mammoth(ctx.gd, deck, card)  # RULES.md A35: the new card's mammoth counts
        else:
            raise ValueError(f"Westeros deck {deck} holds nothing but Winter Is Coming")
        cards[deck] = card
    state["westeros"] = {"cards": cards, "mammoths": mammoths, "deck": None}
    at = ctx.gd.setup.wildlings.attack_at
    if at is not None and _threat_after_mammoths(state, ctx, mammoths) >= at:
        state["westeros"]["attack_first"] = True  # 2e, B1: the wildlings attack before card I
    state["restrictions"] = [kind for c in cards.values() for kind in restrictions_of(ctx.gd, c)]
    shown = [Msg("agot.westeros.drawn", deck=deck, card=c) for deck, c in cards.items()]
    events.append(Event("agot.westeros.cards", cards=shown))
    return events


def begin(state: dict, ctx: Ctx) -> list[Event]:
    """Start the Westeros phase of ``state['round']`` (the round marker has moved already)."""
    state.update(phase="westeros", step="westeros", turn=0)
    events = reveal(state, ctx)
    return [Event("agot.round_westeros", round=state["round"])] + events + drop_unrevealed_chooses(state, ctx)


# -- the step machine -----------------------------------------------------------------------------------


def pending(state: dict, ctx: Ctx) -> list[Owed]:
    step = state["step"]
    w = _w(state)
    if step == "supply":
        return owed_supply(state, ctx, w["over"])
    if step == "muster":
        return owed_muster(state, ctx)
    if step == "bid":
        return bidding.pending_bids(state, ctx, w["track"])
    if step == "wildlings":
        return bidding.pending_bids(state, ctx, bidding.WILDLINGS)
    if step == "tiebreak":
        return bidding.pending_tiebreak(state, ctx)
    if step == "losses":
        return bidding.pending_losses(state, ctx)
    if step == "reclaim":
        return bidding.pending_reclaim(state, ctx)
    if step == "outcome":  # 2e: a wildling card's mailed choices (agot2e/wildlings.py)
        return ctx.rules.wildlings.pending_outcome(state, ctx)
    if step == "choose":  # 2e: the token holder's CHOOSE
        card = w["cards"][w["deck"]]
        holder = _chooser(state, ctx, card)
        lines = [Msg("agot.line.choose", card=card, option=option) for option in _options(ctx, card)]
        return [Owed(holder, Msg("agot.owed.choose", card=card, options=_options(ctx, card), lines=lines), "step",
                     _chosen(state, ctx, holder, card) is not None)]
    return []


def advance(state: dict, ctx: Ctx, force: bool) -> list[Event]:
    """Resolve the current sub-step, then every following one that waits for nobody."""
    events = _resolve(state, ctx, force)
    while state["phase"] == "westeros" and not pending(state, ctx) and pos.check_victory(state, ctx.gd) is None:
        events += _resolve(state, ctx, force)
    return events


def _resolve(state: dict, ctx: Ctx, force: bool) -> list[Event]:
    step = state["step"]
    if step == "westeros":
        events = _mammoths(state, ctx)
        if _w(state).pop("attack_first", False):  # 2e: the wildlings attack at once, before card I (B1)
            return events + [Event("agot.wildlings.threat_reached", threat=state["wildlings"])] + \
                bidding.start_wildlings(state, ctx)
        return events + _start(state, ctx, DECKS[0])
    resolver = {"supply": _resolve_supply, "muster": _resolve_muster, "bid": bidding.resolve_bid,
                "tiebreak": bidding.resolve_tiebreak, "wildlings": bidding.resolve_wildlings,
                "losses": bidding.resolve_losses, "reclaim": bidding.resolve_reclaim,
                "outcome": getattr(ctx.rules.wildlings, "resolve_outcome", None), "choose": _resolve_choose}.get(step)
    if resolver is None:
        raise ValueError(f"unknown Westeros step {step!r}")
    events, done = resolver(state, ctx, force)
    if done and pos.check_victory(state, ctx.gd) is None:  # RULES.md A28: a win stops the round at once
        events += _next(state, ctx)
    return events


def _mammoths(state: dict, ctx: Ctx) -> list[Event]:
    """CZ p.13: right after the reveal, one space per mammoth; RULES.md A35: it stops at 12."""
    n = _w(state)["mammoths"]
    if not n:
        return []
    before = state["wildlings"]
    state["wildlings"] = _threat_after_mammoths(state, ctx, n)
    return [Event("agot.westeros.mammoths", before=before, after=state["wildlings"], n=n)]


def _threat_after_mammoths(state: dict, ctx: Ctx, n: int) -> int:
    track = ctx.gd.setup.wildlings.track
    at = max((i for i, v in enumerate(track) if v <= state["wildlings"]), default=0)
    return track[min(at + n, len(track) - 1)]


def _start(state: dict, ctx: Ctx, deck: str) -> list[Event]:
    w = _w(state)
    w["deck"] = deck
    card = w["cards"][deck]
    if effect(ctx.gd, card) == HOLDER_CHOOSES:
        return _holder_chooses(state, ctx, card)
    return _resolve_card(state, ctx, card)


def _resolve_card(state: dict, ctx: Ctx, card: str, port_power: bool | None = None) -> list[Event]:
    """Resolve ``card`` (the deck's, or what a holder-chooses card resolves as): start its step, or
    apply it and go on to the next deck."""
    kind = effect(ctx.gd, card)
    if kind in (SUPPLY, MUSTERING, THRONES) and gold.in_play(state):  # agot2e-ru: every round's own steps (D18)
        return [Event("agot.westeros.economy_nothing", card=card, kind=kind)] + _next(state, ctx)
    if kind == SUPPLY:
        return _start_supply(state, ctx)
    if kind == MUSTERING:
        state["step"] = "muster"
        return [Event("agot.westeros.mustering")]
    if kind == CLASH:
        return bidding.start_clash(state, ctx)
    if kind == WILDLING_ATTACK:
        return bidding.start_wildlings(state, ctx)
    if kind == THRONES:
        events = _game_of_thrones(state, ctx, card, port_power)
    elif kind == FORBID:
        events = [Event("agot.westeros.forbids", card=card,
                        tokens=[say.token(t) for t in restrictions_of(ctx.gd, card)])]
    elif restrictions_of(ctx.gd, card):
        events = [Event("agot.westeros.effect", card=card)]
    elif ctx.on("rebellion") and card in ctx.params.rebellion_cards:  # agot2e-ru: the rebellion to come (rebellion.py)
        events = [Event("agot.rebellion.announced", card=card, most=ctx.params.rebellion_strength_at_most)]
    else:
        events = [Event("agot.westeros.nothing", card=card)]
    return events + _next(state, ctx)


# -- 2e: the cards whose token holder chooses (A Throne of Blades, Dark Wings Dark Words, Put to the Sword)


def _chooser(state: dict, ctx: Ctx, card: str) -> str:
    return pos.holder(state, ctx.gd.westeros_cards[card].params["token"])


def _options(ctx: Ctx, card: str) -> list[str]:
    return list(ctx.gd.westeros_cards[card].params["options"])


def _chosen(state: dict, ctx: Ctx, house: str, card: str) -> str | None:
    """The option of ``house``'s last CHOOSE line on file for ``card``, or None."""
    for line in reversed(pos.plan(state, house).get("chooses", [])):
        command = ctx.command(line)
        if command.card_id == card:
            return command.option
    return None


def _holder_chooses(state: dict, ctx: Ctx, card: str) -> list[Event]:
    """The holder's CHOOSE line on file (sent ahead) applies at once; else the holder is asked (step
    ``choose``; agot2e RULES.md 11.1)."""
    if _chosen(state, ctx, _chooser(state, ctx, card), card) is None:
        state["step"] = "choose"
        return []
    events, _ = _resolve_choose(state, ctx, False, card)
    return events


def _resolve_choose(state: dict, ctx: Ctx, force: bool, card: str | None = None) -> tuple[list[Event], bool]:
    """Resolve the holder's choice, or its default, nothing (B28): the card then resolves as the card it
    names (Supply, Mustering, Clash of Kings, Game of Thrones with the card's ``port_power``; Put to the
    Sword's restrictions those of Storm of Swords or Rains of Autumn, from now to the end of the round).
    Its line is used, so it leaves the file. Never 'done' here: the option's own resolution moves on."""
    w = _w(state)
    card = card or w["cards"][w["deck"]]
    holder = _chooser(state, ctx, card)
    option = _chosen(state, ctx, holder, card)
    plan = pos.plan(state, holder)
    plan["chooses"] = [line for line in plan.get("chooses", []) if ctx.command(line).card_id != card]
    if option is None:
        w.setdefault("choices", {})[w["deck"]] = "nothing"
        return [Event("agot.westeros.holder_default", card=card, house=holder)] + _next(state, ctx), False
    w.setdefault("choices", {})[w["deck"]] = option
    events = [Event("agot.westeros.holder_chose", card=card, house=holder, option=option)]
    if option == "nothing":
        return events + _next(state, ctx), False
    forbidden = restrictions_of(ctx.gd, option)
    if forbidden:
        state["restrictions"] = list(state["restrictions"]) + [k for k in forbidden if k not in state["restrictions"]]
        events.append(Event("agot.westeros.forbids", card=card, tokens=[say.token(t) for t in forbidden]))
        return events + _next(state, ctx), False
    return events + _resolve_card(state, ctx, option, ctx.gd.westeros_cards[card].params.get("port_power")), False


def choose_lines(state: dict, ctx: Ctx) -> list[str]:
    """Every CHOOSE line the card asking now (step ``choose``) accepts."""
    card = _w(state)["cards"][_w(state)["deck"]]
    return [Choose(card, option).canonical(ctx.names) for option in _options(ctx, card)]


def choose_problem(state: dict, ctx: Ctx, house: str, command: Choose) -> tuple[Msg | None, str | None]:
    """A CHOOSE line is refused only when its card asks now and the sender does not hold the token
    (sent ahead, the token may still change hands; a line for a card not revealed is ignored, with a
    note: :func:`choose_notes`)."""
    w = state.get("westeros") or {}
    if state["phase"] == "westeros" and state["step"] == "choose" and w["cards"][w["deck"]] == command.card_id:
        holder = _chooser(state, ctx, command.card_id)
        if house != holder:
            return Msg("agot.error.not_the_chooser", card=command.card_id, house=holder), None
    return None, None


def _choose_ignored(state: dict, ctx: Ctx, command: Choose) -> str | None:
    """Why a CHOOSE line sent now cannot be used: its card is not revealed this round, or it has
    resolved already (None: it may be used; outside the Westeros phase it waits for the next one)."""
    if state["phase"] != "westeros" or not state.get("westeros"):
        return None
    w = _w(state)
    decks = [d for d, c in w["cards"].items() if c == command.card_id]
    if not decks:
        return "agot.note.choose_not_revealed"
    current = DECKS.index(w["deck"]) if w["deck"] is not None else -1  # None: no deck started yet
    if any(DECKS.index(d) > current or (DECKS.index(d) == current and d not in w.get("choices", {})) for d in decks):
        return None
    return "agot.note.choose_resolved"


def choose_notes(state: dict, ctx: Ctx, house: str, commands: list) -> list[Msg]:
    """The reply's notes for CHOOSE lines that will not be used (agot2e RULES.md 11.2)."""
    return [Msg(key, card=c.card_id) for c in commands if isinstance(c, Choose) and (key := _choose_ignored(state, ctx, c))]


def drop_unrevealed_chooses(state: dict, ctx: Ctx) -> list[Event]:
    """At the reveal: CHOOSE lines sent before it for a card not revealed this round are dropped, and
    their senders told."""
    events = []
    for house in pos.turn_order(state):
        plan = pos.plan(state, house)
        keep = []
        for line in plan.get("chooses", []):
            command = ctx.command(line)
            if command.card_id in _w(state)["cards"].values():
                keep.append(line)
            else:
                events.append(Event("agot.westeros.choose_dropped", card=command.card_id, to=(house,)))
        if "chooses" in plan:
            plan["chooses"] = keep
    return events


def _next(state: dict, ctx: Ctx) -> list[Event]:
    w = _w(state)
    i = DECKS.index(w["deck"]) if w["deck"] is not None else -1  # None: after the attack at 12 (2e, B1)
    for key in ("over", "tie", "reclaimer", "losses", "lowest", "track", "attack"):
        w.pop(key, None)
    if i + 1 < len(DECKS):
        return _start(state, ctx, DECKS[i + 1])
    w["deck"] = None
    state.update(phase="planning", step="orders", turn=0)
    for house in state["houses"]:  # RULES.md section 12: what the Westeros phase did not use expires with it
        pos.plan(state, house).update(bids={}, musters=[], removes=[], tiebreaks=[], reclaims=[])
        for key in ("tracks", "discards", "chooses", "promotes", "demotes", "penalties"):  # 2e
            pos.plan(state, house).pop(key, None)
    return [Event("agot.round_planning", round=state["round"])] + _recheck_orders(state, ctx)


def _recheck_orders(state: dict, ctx: Ctx) -> list[Event]:
    """Orders mailed during the Westeros phase were checked against the position then; units may
    have gone since (skipped, as planning.reveal would) and the King's Court may have changed the
    stars (then the whole set no longer holds: the house is asked again)."""
    events = []
    for house in pos.turn_order(state):
        plan = pos.plan(state, house)
        if not plan["orders"]:
            continue
        kept = {a: t for a, t in plan["orders"].items() if pos.order_owner(state, a) == house}
        for area in sorted(plan["orders"].keys() - kept.keys()):
            events.append(Event("agot.westeros.order_dropped", area=ctx.area(area), to=(house,)))
        lines = [OrderLine(a, (t := parse_order_token(text)).kind, t.bonus, t.star) for a, text in kept.items()]
        errors = planning.check_orders(state, ctx, house, lines)
        if errors:
            plan["orders"] = None
            why = [Msg("agot.error.at", area=ctx.area(lines[i].area), error=restriction_text(state, ctx, lines[i], e))
                   for i, e in sorted(errors.items())]  # (2e: Put to the Sword's choice forbids from its resolution)
            events.append(Event("agot.westeros.orders_no_longer_hold", why=why, to=(house,)))
        else:
            plan["orders"] = kept
    return events


# -- Supply (CZ p.2-3) ----------------------------------------------------------------------------------


def barrels(state: dict, gd: GameData, house: str) -> int:
    return sum(gd.board.area(a).supply for a in gd.board.land_areas if pos.controller(state, gd, a) == house)


def recount_supply(state: dict, ctx: Ctx) -> tuple[list[Event], list[str]]:
    """Every house's supply level from its barrels; the events, and the houses now over their limit
    (the Supply card; agot2e-ru's supply recount of every round)."""
    top = max(ctx.gd.setup.supply_armies)
    parts = []
    for house in pos.turn_order(state):
        before = state["supply"][house]
        state["supply"][house] = min(top, barrels(state, ctx.gd, house))
        parts.append(Msg("agot.westeros.supply_level", house=house, level=state["supply"][house], before=before))
    over = [h for h in pos.turn_order(state) if not pos.within_supply(state, ctx.gd, h)]
    events = [Event("agot.westeros.supply", levels=parts)]
    for house in over:
        events.append(Event("agot.westeros.over_supply", house=house, supply=bidding.supply_text(state, ctx, house)))
    return events, over


def _start_supply(state: dict, ctx: Ctx) -> list[Event]:
    events, _w(state)["over"] = recount_supply(state, ctx)
    state["step"] = "supply"
    return events


def owed_supply(state: dict, ctx: Ctx, houses: list[str]) -> list[Owed]:
    """What ``houses``, over their supply limit, owe: REMOVE lines."""
    return [Owed(h, Msg("agot.owed.supply", supply=bidding.supply_text(state, ctx, h)), "step",
                 bidding.usable_prefix(state, ctx, h, lambda rs, h=h: bidding.supply_problem(state, ctx, h, rs)) is not None)
            for h in houses]


def _resolve_supply(state: dict, ctx: Ctx, force: bool) -> tuple[list[Event], bool]:
    return cut_to_supply(state, ctx, _w(state)["over"]), True


def cut_to_supply(state: dict, ctx: Ctx, houses: list[str]) -> list[Event]:
    """``houses`` over their limit remove units: their REMOVE lines, else the default cut."""
    events = []
    for house in houses:
        k = bidding.usable_prefix(state, ctx, house, lambda rs, h=house: bidding.supply_problem(state, ctx, h, rs))
        plan = pos.plan(state, house)
        if k is not None:
            removes = [ctx.command(line) for line in plan["removes"][:k]]
            del plan["removes"][:k]
        else:
            removes = bidding.as_removes(bidding.default_supply_cut(state, ctx, house))
            events.append(Event("agot.default.supply", house=house))
        events.append(Event("agot.westeros.removes", house=house, removed=bidding.remove_units(state, ctx, house, removes),
                            supply=state["supply"][house]))
    return events


# -- Mustering (CZ p.4-5) -------------------------------------------------------------------------------


def muster_castles(state: dict, ctx: Ctx, house: str) -> list[str]:
    """Cities and strongholds ``house`` controls (RULES.md A32: a power token is enough) that give muster
    points; agot2e-ru with gold, its docks too (``economy.muster_areas``)."""
    if gold.in_play(state):
        return ctx.rules.variant.economy.muster_areas(state, ctx, house)
    board = ctx.gd.board
    return [a for a in board.land_areas if muster_points(ctx, a) and pos.controller(state, ctx.gd, a) == house]


def muster_points(ctx: Ctx, area: str) -> int:
    """The muster points printed on ``area``'s castle; with the agot2e-ru option ``moat-cailin`` Moat Cailin
    gives none (RULES.md V24)."""
    if ctx.on("moat-cailin") and area == ctx.params.moat_cailin:
        return 0
    return ctx.gd.board.area(area).muster_points


def ship_seas(state: dict, ctx: Ctx, house: str, castle: str) -> list[str]:
    """Seas next to ``castle`` where a ship may be mustered: none of another house's ships ("Pokud je
    takové mořské území obsazeno loděmi jiného rodu, nemůžete tu shromažďovat"), no neutral force; in
    2e also the castle's own port while it has room."""
    board = ctx.gd.board
    seas = [s for s in board.neighbours(castle) if board.is_sea(s) and pos.owner(state, s) in (None, house)
            and s not in state["neutral"]]
    port = board.port(castle)  # 2e: the castle's own port, even past enemy ships in its sea (R4.5)
    if port is not None and pos.port_room(state, ctx.gd, house, port, 1):
        seas.append(port)
    return seas


def _cost(ctx: Ctx, items) -> int:
    costs = ctx.gd.setup.muster_costs
    return sum(costs["upgrade"] if i.upgrade else costs[i.unit] for i in items)


def _placed(state: dict, ctx: Ctx, house: str, muster: Muster) -> tuple[dict[str, list[str]] | None, str | None]:
    """Area -> the house's units there after ``muster``, or the reason it is illegal now."""
    gd = ctx.gd
    area, name = muster.area, ctx.area(muster.area)
    points = muster_points(ctx, area)  # (agot2e-ru moat-cailin: none in Moat Cailin)
    economy = ctx.rules.variant.economy if gold.in_play(state) else None  # agot2e-ru: docks, gold (V17)
    if not points and not (economy and economy.is_dock(ctx, area)):
        return None, Msg("agot.error.moat_no_muster" if gd.board.area(area).muster_points else "agot.error.muster_no_castle",
                         area=name)
    if pos.controller(state, gd, area) != house:
        return None, Msg("agot.error.muster_not_controlled", area=name)
    if economy:
        problem = economy.muster_problem(state, ctx, house, area, muster.items, lambda items: _cost(ctx, items))
        if problem:
            return None, problem
    elif (cost := _cost(ctx, muster.items)) > points:
        return None, Msg("agot.error.muster_points", area=name, points=points, cost=cost)
    counts = pos.house_units(state, house)
    changes = {area: pos.units_in(state, area, house)}
    footmen = changes[area].count("footman")  # "already in that area": not one mustered now
    for item in muster.items:
        if item.upgrade:  # to a knight; 2e also to a siege engine (R4.5, data upgrade_to)
            if not footmen:
                return None, Msg("agot.error.no_footman_to_upgrade", area=name)
            footmen -= 1
            unit = item.unit
            changes[area].remove("footman")
            changes[area].append(unit)
            counts.update({"footman": -1, unit: 1})
        elif item.unit == "ship":
            seas = ship_seas(state, ctx, house, area)
            sea = item.sea
            if sea is None:
                if len(seas) != 1:
                    return None, (Msg("agot.error.no_sea_for_ship", area=name) if not seas else
                                  Msg("agot.error.say_which_sea", seas=[ctx.area(s) for s in seas]))
                sea = seas[0]
            elif not (gd.board.is_sea(sea) or sea == gd.board.port(area)) or not gd.board.adjacent(sea, area):
                return None, Msg("agot.error.not_sea_next_to", sea=ctx.area(sea), area=name)
            elif sea == gd.board.port(area) and len(changes.get(sea, pos.units_in(state, sea, house))) \
                    >= gd.setup.port_max_ships:
                return None, Msg("agot.error.port_full", dest=ctx.area(sea), most=gd.setup.port_max_ships)
            elif sea not in seas:
                who = pos.owner(state, sea)
                return None, (Msg("agot.error.sea_holds_ships", sea=ctx.area(sea), house=who) if who
                              else Msg("agot.error.sea_holds_neutral", sea=ctx.area(sea)))
            changes.setdefault(sea, pos.units_in(state, sea, house)).append("ship")
            counts["ship"] += 1
            unit = "ship"
        else:
            changes[area].append(item.unit)
            counts[item.unit] += 1
            unit = item.unit
        limit = pos.unit_limit(state, gd, house, unit)
        if counts[unit] > limit:
            return None, Msg("agot.error.all_units_placed", n=limit, unit=unit)
    if not pos.supply_after(state, gd, house, changes):
        after = bidding.supply_text(state, ctx, house, pos.areas_after(state, house, changes))
        return None, Msg("agot.error.muster_supply", after=after)
    return changes, None


def muster_problem(state: dict, ctx: Ctx, house: str, muster: Muster) -> str | None:
    return _placed(state, ctx, house, muster)[1]


def _apply_muster(state: dict, ctx: Ctx, house: str, muster: Muster) -> Msg:
    """Muster (legal now); the text of what appeared where."""
    before = {a: Counter(pos.units_in(state, a, house)) for a in state["areas"]}
    changes, _ = _placed(state, ctx, house, muster)
    for area, units in changes.items():
        pos.set_units(state, area, house, units)
    parts = []
    upgraded = Counter(i.unit for i in muster.items if i.upgrade)
    if upgraded["knight"]:
        parts.append(Msg("agot.mustered.upgrades", n=upgraded["knight"]))
    if upgraded["siege_engine"]:  # 2e
        parts.append(Msg("agot.mustered.siege_upgrades", n=upgraded["siege_engine"]))
    for area, units in changes.items():
        new = Counter(units) - before.get(area, Counter())
        if area == muster.area:
            new -= upgraded
        if +new:
            parts.append(Msg("agot.mustered.units", units=list(pos.sort_units(new.elements())), area=ctx.area(area)))
    if gold.in_play(state):  # agot2e-ru: every muster is paid in gold (V17)
        parts.append(ctx.rules.variant.economy.muster_paid(state, ctx, house, muster.items))
    return Msg("agot.mustered", area=ctx.area(muster.area), parts=parts)


def mustering_to_come(state: dict) -> bool:
    """Is a Mustering card still to resolve this round (units may yet appear)?"""
    return _coming(state, MUSTERING, ("muster",))


def muster_seas(state: dict, ctx: Ctx, house: str) -> set[str]:
    """The seas a Mustering still to come this round may put a ship of ``house`` in."""
    if not mustering_to_come(state):
        return set()
    return {sea for castle in muster_castles(state, ctx, house) for sea in ship_seas(state, ctx, house, castle)}


def muster_options(state: dict, ctx: Ctx, house: str) -> list[Muster]:
    """Every single thing ``house`` could muster now (one item in one castle)."""
    out = []
    for castle in muster_castles(state, ctx, house):
        items = [MusterItem("footman"), MusterItem("knight"), MusterItem("knight", None, True)]
        items += [MusterItem(u, None, up) for u in ctx.gd.setup.castle_only_units for up in (False, True)
                  if not up or u in ctx.gd.setup.upgrade_to]  # 2e: siege engines, mustered or upgraded
        items += [MusterItem("ship", sea) for sea in ship_seas(state, ctx, house, castle)]
        out += [m for i in items if muster_problem(state, ctx, house, m := Muster(castle, (i,))) is None]
    return out


def owed_muster(state: dict, ctx: Ctx) -> list[Owed]:
    """Every house that could muster something owes MUSTER lines (or MUSTER NONE)."""
    key = "agot.owed.muster_gold" if gold.in_play(state) else "agot.owed.muster"  # agot2e-ru: with the purse
    return [Owed(h, Msg(key, areas=[ctx.area(a) for a in muster_castles(state, ctx, h)],
                        **({"purse": gold.held(state, h)} if gold.in_play(state) else {})), "step",
                 bool(pos.plan(state, h).get("musters")))
            for h in pos.turn_order(state) if muster_options(state, ctx, h)]


def muster_scratch(state: dict) -> dict:
    """A copy of ``state`` that musters may be tried on: its units and (agot2e-ru) purses its own."""
    scratch = {**state, "areas": clone(state["areas"]), "routed": {}}
    if gold.in_play(state):
        scratch["gold"] = dict(state["gold"])
    return scratch


def _resolve_muster(state: dict, ctx: Ctx, force: bool) -> tuple[list[Event], bool]:
    return resolve_musters(state, ctx), True


def resolve_musters(state: dict, ctx: Ctx) -> list[Event]:
    """Every house's MUSTER lines in turn order (the Mustering card; agot2e-ru's mustering of every round);
    a house that could muster and sent nothing musters nothing."""
    events = []
    for house in pos.turn_order(state):
        plan = pos.plan(state, house)
        lines = plan.get("musters") or []
        if not lines:
            if muster_options(state, ctx, house):
                events.append(Event("agot.default.muster", house=house))
            continue
        done = []
        for line in lines:
            muster = ctx.command(line)
            if muster.area is None:
                events.append(Event("agot.westeros.musters_nothing", house=house))
                continue
            problem = muster_problem(state, ctx, house, muster)
            if problem:
                events.append(Event("agot.skipped_because", line=line, problem=problem, to=(house,)))
                continue
            done.append(_apply_muster(state, ctx, house, muster))
        plan["musters"] = []
        if done:
            events.append(Event("agot.westeros.musters", house=house, done=done))
    return events


# -- Game of Thrones (CZ p.13) ------------------------------------------------------------------------------


def crowns(state: dict, gd: GameData, house: str) -> int:
    return sum(gd.board.area(a).power for a in gd.board.land_areas if pos.controller(state, gd, a) == house)


def paying_ports(state: dict, gd: GameData, house: str) -> int:
    """2e: the ports ``house`` owns that hold one of its ships while no enemy ship is in the port's sea
    (agot2e RULES.md R4.6); 0 on a board without ports."""
    count = 0
    for port in gd.board.port_areas:
        area = gd.board.area(port)
        if pos.controller(state, gd, area.port_of) == house and pos.units_in(state, port, house) \
                and pos.owner(state, area.sea) in (None, house):
            count += 1
    return count


def _game_of_thrones(state: dict, ctx: Ctx, card: str, port_power: bool | None = None) -> list[Event]:
    """Power per crown (CZ p.13), and per paying port where the card says so (2e ``params.port_power``;
    ``port_power`` overrides it: Dark Wings, Dark Words' collection counts crowns only, B2)."""
    ports = bool(ctx.gd.westeros_cards[card].params.get("port_power") if port_power is None else port_power)
    parts = []
    for house in pos.turn_order(state):
        want = crowns(state, ctx.gd, house) + (paying_ports(state, ctx.gd, house) if ports else 0)
        got = pos.gain_power(state, house, want, ctx.gd.setup.power_limit)
        parts.append(Msg("agot.westeros.crowns_got", house=house, got=got, want=want, limit=ctx.gd.setup.power_limit))
    return [Event("agot.westeros.game_of_thrones", gains=parts)]


# -- the end of the game (CZ p.12) ----------------------------------------------------------------------------


_METRICS = {
    "castles": lambda state, gd, h: pos.castles_controlled(state, gd, h),
    "land_areas": lambda state, gd, h: sum(1 for a in gd.board.land_areas if pos.controller(state, gd, a) == h),
    "supply": lambda state, gd, h: state["supply"][h],
    "power": lambda state, gd, h: state["power"][h],
    "iron_throne": lambda state, gd, h: -(state["tracks"]["iron_throne"].index(h) + 1),  # position 1 best
}
"""The final tie-breaks the data may name (``victory.final_tiebreak``), each bigger-is-better."""


def standings(state: dict, gd: GameData) -> list[tuple[str, tuple[int, ...]]]:
    """Houses with their ranking key (``setup.final_tiebreak``: agot1e castles, supply, power; 2e castles,
    land areas, supply, Iron Throne position), best first."""
    rows = [(h, tuple(_METRICS[m](state, gd, h) for m in gd.setup.final_tiebreak)) for h in pos.turn_order(state)]
    return sorted(rows, key=lambda row: row[1], reverse=True)


def end_game(state: dict, ctx: Ctx) -> list[Event]:
    """After the last round: the most cities and strongholds win; ties by the data's tie-breaks (agot1e:
    supply, then available power, a tie on all three is a draw, RULES.md R10.2, A43; 2e: land areas,
    supply, then the Iron Throne, which always decides, agot2e RULES.md R9.2)."""
    rows = standings(state, ctx.gd)
    best = [h for h, key in rows if key == rows[0][1]]
    state["winner"] = best[0] if len(best) == 1 else "draw"
    state.update(phase="over", step="over", turn=0)
    metrics = ctx.gd.setup.final_tiebreak
    table = [Msg("agot.end.standing", house=h, **{m: (-v if m == "iron_throne" else v) for m, v in zip(metrics, key)})
             for h, key in rows]
    events = [Event("agot.end.standings", rounds=ctx.gd.setup.rounds, table=table)]
    if state["winner"] == "draw":
        events.append(Event("agot.end.draw", houses=list(best)))
    else:
        events.append(Event("agot.end.winner", house=best[0]))
    return events


# -- mail: what a house may send during the Westeros phase -----------------------------------------------------


def _remaining(state: dict) -> list[tuple[str, str, bool]]:
    """(deck, card, started) for this round's cards not yet resolved."""
    if state["phase"] != "westeros" or not state.get("westeros"):
        return []
    w = _w(state)
    current = w["deck"]
    start = 0 if current is None else DECKS.index(current)
    chosen = w.get("choices") or {}  # 2e: a holder-chooses card resolving as the card its holder chose
    return [(d, chosen.get(d, w["cards"][d]) if d == current else w["cards"][d], d == current) for d in DECKS[start:]]


def bid_slots(state: dict) -> list[str]:
    """The bids still to come this round, in order (the first is the one ``BID n`` answers)."""
    slots: list[str] = []
    step = state["step"]
    w = state.get("westeros") or {}
    if state["phase"] == "westeros" and w.get("deck") is None and (
            w.get("attack_first") or (step in ("wildlings", "tiebreak") and w.get("attack"))):
        slots.append(bidding.WILDLINGS)  # 2e: the attack at 12, before card I (B1)
    for deck, card, started in _remaining(state):
        if card == CLASH:
            if not started:
                slots += bidding.TRACKS
            elif step == "bid":
                slots += bidding.TRACKS[bidding.TRACKS.index(w["track"]):]
            elif step == "tiebreak" and w["tie"]["slot"] in bidding.TRACKS:
                slots += bidding.TRACKS[bidding.TRACKS.index(w["tie"]["slot"]) + 1:]
        elif card == WILDLING_ATTACK and (not started or step == "wildlings"):
            slots.append(bidding.WILDLINGS)
    return slots


def _may_become(state: dict, ctx: Ctx, card: str) -> bool:
    """2e: may a holder-chooses card still to resolve this round resolve as ``card`` (A Throne of Blades
    as Mustering: MUSTER lines may be sent before its holder chooses)?"""
    return any(effect(ctx.gd, c) == HOLDER_CHOOSES and card in _options(ctx, c)
               and (not started or state["step"] == "choose") for _, c, started in _remaining(state))


def _coming(state: dict, card: str, steps: tuple[str, ...] = ()) -> bool:
    """Is ``card`` still to resolve this round (not started, or started and in one of ``steps``)?"""
    return any(c == card and (not started or state["step"] in steps) for _, c, started in _remaining(state))


def _most(state: dict, ctx: Ctx, house: str, slot: str) -> int:
    """The most ``house`` could have for ``slot``: its power, plus a Game of Thrones still to come before
    (within the cap of R1.3, which counts the power tokens on the board)."""
    most = bidding.purse(state)[house]
    if gold.in_play(state):  # agot2e-ru: bids in gold, which no Westeros card brings (D18)
        return most
    for deck, card, started in _remaining(state):
        if card == THRONES and not started and slot == bidding.WILDLINGS:
            room = max(0, ctx.gd.setup.power_limit - most - pos.power_on_board(state, house))
            most += min(room, crowns(state, ctx.gd, house))
    return most


def _bids_after(state: dict, house: str, slots: list[str], command) -> dict[str, int]:
    """The house's bids for the slots still to come once ``command`` (a BID line) is filed."""
    bids = {s: n for s, n in (pos.plan(state, house).get("bids") or {}).items() if s in slots}
    if isinstance(command, Bid):
        bids[slots[0]] = command.n
    else:
        values = {"iron_throne": command.throne, "fiefdoms": command.fiefdoms, "kings_court": command.court}
        bids.update({s: values[s] for s in slots if s in values})
    return bids


def _bid_total_problem(state: dict, ctx: Ctx, house: str, slots: list[str], bids: dict[str, int]):
    """Bids that add up to more power than ``house`` can have when they are paid (each bid goes to
    the bank before the next one): the problem and a valid example, or None."""
    most = max(_most(state, ctx, house, s) for s in slots)
    total = sum(bids.values())
    if total <= most:
        return None
    shown = [Msg("agot.slot_bid", slot=s, n=bids[s]) for s in slots if s in bids]
    return Msg(bidding.currency_key(state, "agot.error.bids_total"), total=total, bids=shown, most=most)


def removal_now(state: dict, house: str) -> str | None:
    """``supply`` or ``losses`` when ``house`` owes a removal in the current step."""
    w = state.get("westeros") or {}
    if state["phase"] == "westeros" and state["step"] == "supply" and house in w.get("over", []):
        return "supply"
    if state["step"] == "supply_recount" and not pos.within_supply(state, ctx_of(state).gd, house):  # agot2e-ru
        return "supply"
    if state["phase"] == "westeros" and state["step"] == "losses" and house in w.get("losses", {}):
        return "losses"
    return None


def _removal_problem(state: dict, ctx: Ctx, house: str, kind: str):
    if kind == "supply":
        return lambda rs: bidding.supply_problem(state, ctx, house, rs)
    need = _w(state)["losses"][house]
    return lambda rs: bidding.losses_problem(state, ctx, house, need, rs)


def check_commands(state: dict, ctx: Ctx, house: str, commands: list) -> dict[int, tuple[str, str | None]]:
    """Errors (and a valid example) by index into ``commands``, the Westeros lines of one mail."""
    errors: dict[int, tuple[str, str | None]] = {}
    slots = bid_slots(state)
    # the bids of this mail are checked together with those on file, in the order written
    bid_state = {**state, "plans": {**state["plans"], house: {**pos.plan(state, house),
                                                              "bids": dict(pos.plan(state, house).get("bids") or {})}}}
    musters = [i for i, c in enumerate(commands) if isinstance(c, Muster)]
    removes = [i for i, c in enumerate(commands) if isinstance(c, Remove)]
    for i, command in enumerate(commands):
        problem, example = None, None
        if isinstance(command, Bid):
            if not slots:
                problem = Msg("agot.error.no_bid_now")
            elif command.n > _most(state, ctx, house, slots[0]):
                problem = Msg(bidding.currency_key(state, "agot.error.bid_too_high"), most=_most(state, ctx, house, slots[0]))
                example = f"BID {_most(state, ctx, house, slots[0])}"
            else:
                bids = _bids_after(bid_state, house, slots, command)
                bid_state["plans"][house]["bids"] = bids
                problem = _bid_total_problem(state, ctx, house, slots, bids)
                if problem:
                    rest = sum(n for s, n in bids.items() if s != slots[0])
                    example = f"BID {max(0, _most(state, ctx, house, slots[0]) - rest)}"
        elif isinstance(command, BidAll):
            tracks = [s for s in slots if s in bidding.TRACKS]
            if not tracks:
                problem = Msg("agot.error.no_clash_now")
            else:
                bids = _bids_after(bid_state, house, slots, command)
                bid_state["plans"][house]["bids"] = bids
                problem = _bid_total_problem(state, ctx, house, slots, bids)
                if problem:
                    left, fitted = _most(state, ctx, house, tracks[0]) - sum(
                        n for s, n in bids.items() if s not in bidding.TRACKS), {}
                    for track, n in (("throne", command.throne), ("fiefdoms", command.fiefdoms), ("court", command.court)):
                        fitted[track] = max(0, min(n, left))
                        left -= fitted[track]
                    example = BidAll(**fitted).canonical()
        elif isinstance(command, Tiebreak):
            if not slots and state["step"] != "tiebreak":
                problem = Msg("agot.error.no_tie_now")
            elif state["step"] == "tiebreak" and house == pos.holder(state, "iron_throne"):
                groups = _w(state)["tie"]["groups"]
                if not any(set(g) <= set(command.houses) for g in groups):
                    problem = Msg("agot.error.name_tied", groups=[list(g) for g in groups])
                    example = "TIEBREAK " + ", ".join(ctx.house(h) for h in groups[0])
        elif isinstance(command, Reclaim):
            card = ctx.gd.card(command.card_id)
            reclaimer = (state.get("westeros") or {}).get("reclaimer")
            if card.house != house:
                problem = Msg("agot.error.not_your_card", card=card.id, owner=card.house, house=house)
            elif not (_coming(state, WILDLING_ATTACK, ("wildlings", "tiebreak")) or
                      (state["step"] == "reclaim" and reclaimer == house) or _wildling_bid_ahead(state, ctx) or
                      _wildling_asks(state, ctx, house, "reclaim")):
                problem = (Msg("agot.error.not_reclaimer") if state["step"] == "reclaim"
                           else Msg("agot.error.not_asked", word="RECLAIM") if state["step"] == "outcome"
                           else Msg("agot.error.no_reclaim_now"))
            elif card.id not in state["discards"][house]:
                problem = Msg("agot.error.not_discarded", card=card.id)
            if problem and state["discards"][house]:
                example = f"RECLAIM {ctx.card(state['discards'][house][0])}"
        elif isinstance(command, Track):
            problem, example = _track_problem(state, ctx, house, command)
        elif isinstance(command, Discard):
            problem, example = _discard_problem(state, ctx, house, command)
        elif isinstance(command, Choose):
            problem, example = choose_problem(state, ctx, house, command)
        elif isinstance(command, (Promote, Penalty)):
            problem, example = ctx.rules.wildlings.line_problem(state, ctx, house, command, _wildling_bid_ahead(state, ctx))
        elif isinstance(command, Muster):
            if gold.in_play(state):  # agot2e-ru: the round's mustering after the action phase (V17)
                if state["phase"] == "westeros" and not _wildling_bid_ahead(state, ctx) \
                        and not _wildling_asks(state, ctx, house, "musters"):
                    problem = Msg("agot.error.no_muster_now_gold")
            elif not _coming(state, MUSTERING, ("muster",)) and not _may_become(state, ctx, MUSTERING) and \
                    not _wildling_bid_ahead(state, ctx) and not _wildling_asks(state, ctx, house, "musters"):
                problem = Msg("agot.error.no_muster_now")
        elif isinstance(command, Remove):
            preview = supply_preview(state, ctx)
            fits = preview is not None and pos.within_supply(preview, ctx.gd, house)
            if not (removal_now(state, house) or (_coming(state, SUPPLY) and not fits) or
                    _coming(state, WILDLING_ATTACK, ("wildlings", "tiebreak", "losses")) or
                    _wildling_bid_ahead(state, ctx) or _removes_asked(state, ctx, house)):
                problem = (Msg("agot.error.armies_will_fit", supply=preview["supply"][house]) if fits
                           else Msg("agot.error.no_removal_now"))
        if problem:
            errors[i] = (problem, example)
    if musters and not any(i in errors for i in musters):
        errors.update(_check_musters(state, ctx, house, commands, musters))
    if len({commands[i].area for i in musters} - {None}) > 1 and _wildling_asks(state, ctx, house, "musters"):
        errors.setdefault(musters[-1], (Msg("agot.error.muster_one_castle_area"), commands[musters[0]].canonical(ctx.names)))
    if removes and not any(i in errors for i in removes):
        errors.update(_check_removes(state, ctx, house, commands, removes))
    return errors


def _wildling_bid_ahead(state: dict, ctx: Ctx) -> bool:
    """Is a 2nd-edition wildling attack's bid (or its tie) still to come, so that its card's lines may ride with it?"""
    w = state.get("westeros") or {}
    return bool(ctx.gd.wildling_cards) and (bidding.WILDLINGS in bid_slots(state) or (
        state["step"] == "tiebreak" and (w.get("tie") or {}).get("slot") == bidding.WILDLINGS))


def _track_problem(state: dict, ctx: Ctx, house: str, command: Track) -> tuple[Msg | None, str | None]:
    """TRACK (2e, A King Beyond the Wall) rides with a wildling bid, or answers the card's question."""
    if state["step"] == "outcome":
        choices = ctx.rules.wildlings.choices(state, ctx, house, "tracks")
        if TRACK_SLOTS[command.track] in choices:
            return None, None
        return (Msg("agot.error.track_not_yours", tracks=choices),
                Track(next(k for k, v in TRACK_SLOTS.items() if v == choices[0])).canonical() if choices else None)
    return (None, None) if _wildling_bid_ahead(state, ctx) else (Msg("agot.error.no_track_now"), None)


def _discard_problem(state: dict, ctx: Ctx, house: str, command: Discard) -> tuple[Msg | None, str | None]:
    """DISCARD (2e, Massing on the Milkwater): a card in the sender's hand, with a wildling bid or when asked."""
    hand = state["hands"][house]
    example = f"DISCARD {ctx.card(sorted(hand, key=ctx.card)[0])}" if hand else None
    if state["step"] == "outcome":
        if not ctx.rules.wildlings.choices(state, ctx, house, "discards"):
            return Msg("agot.error.no_discard_asked"), None
    elif not _wildling_bid_ahead(state, ctx):
        return Msg("agot.error.no_discard_now"), None
    if command.card_id not in hand:
        return Msg("agot.error.not_in_hand_of", card=command.card_id, house=house), example
    return None, None


def _check_musters(state: dict, ctx: Ctx, house: str, commands: list, at: list[int]) -> dict:
    """The mail's MUSTER lines, with the lines on file for other castles, must all be legal now (agot2e-ru:
    sent before this round's taxes, with the purse those taxes would bring now)."""
    scratch = muster_scratch(state)
    if gold.in_play(state) and state["phase"] in ("planning", "action"):
        scratch["gold"][house] += ctx.rules.variant.economy.taxes_due(state, ctx, house)
    mine = {commands[i].area for i in at}
    for line in pos.plan(state, house).get("musters", []):
        muster = ctx.command(line)
        if muster.area is not None and muster.area not in mine and muster_problem(scratch, ctx, house, muster) is None:
            _apply_muster(scratch, ctx, house, muster)
    errors, seen = {}, set()
    for i in at:
        muster = commands[i]
        if muster.area is None:
            if len(at) > 1:
                errors[i] = (Msg("agot.error.muster_none_and_more"), "MUSTER NONE")
            continue
        problem = (Msg("agot.error.muster_twice", area=ctx.area(muster.area)) if muster.area in seen
                   else muster_problem(scratch, ctx, house, muster))
        seen.add(muster.area)
        if problem:
            options = muster_options(state, ctx, house)
            errors[i] = (problem, options[0].canonical(ctx.names) if options else None)
        else:
            _apply_muster(scratch, ctx, house, muster)
    return errors


def supply_preview(state: dict, ctx: Ctx) -> dict | None:
    """The position right after this round's Supply recount, when nothing can change it before
    (the Supply card is the next card to resolve): sent-ahead REMOVE lines are then checked at once."""
    rest = _remaining(state)
    if state["step"] != "westeros" or not rest or rest[0][1] != SUPPLY or gold.in_play(state):
        return None
    top = max(ctx.gd.setup.supply_armies)
    return {**state, "supply": {h: min(top, barrels(state, ctx.gd, h)) for h in state["houses"]}}


def _removes_asked(state: dict, ctx: Ctx, house: str) -> bool:
    """2e: is ``house`` asked at step ``outcome`` for units a wildling card destroys?"""
    return bool(ctx.gd.wildling_cards) and ctx.rules.wildlings.asks_removes(state, ctx, house)


def _wildling_asks(state: dict, ctx: Ctx, house: str, kind: str) -> bool:
    """2e: is ``house`` asked at step ``outcome`` for Mammoth Riders' ``reclaim`` or The Horde Descends'
    ``musters``?"""
    if not ctx.gd.wildling_cards:
        return False
    asked = {"reclaim": ctx.rules.wildlings.reclaim_asked, "musters": ctx.rules.wildlings.musters_asked}[kind]
    return asked(state, ctx, house)


def _check_removes(state: dict, ctx: Ctx, house: str, commands: list, at: list[int]) -> dict:
    removes = [commands[i] for i in at]
    if _removes_asked(state, ctx, house):
        problem = ctx.rules.wildlings.removes_problem(state, ctx, house, removes)
        return {at[0]: (problem, ctx.rules.wildlings.removes_example(state, ctx, house))} if problem else {}
    kind = removal_now(state, house)
    preview = supply_preview(state, ctx) if kind is None else None
    if preview is not None and not pos.within_supply(preview, ctx.gd, house):
        state, kind = preview, "supply"  # the house will be over its limit: check the cut now
    if kind is None:  # sent ahead: the units must be there now
        _, problem = bidding.areas_after(state, ctx, house, removes)
    else:
        check = _removal_problem(state, ctx, house, kind)
        if any(check(removes[:k]) is None for k in range(1, len(removes) + 1)):
            return {}
        problem = check(removes)
    if problem is None:
        return {}
    if kind == "supply":
        example = bidding.as_removes(bidding.default_supply_cut(state, ctx, house))
    elif kind == "losses":
        example = bidding.as_removes(bidding.default_losses(state, ctx, house, _w(state)["losses"][house]))
    else:
        example = []
    return {at[0]: (problem, example[0].canonical(ctx.names) if example else None)}


def store(state: dict, ctx: Ctx, house: str, commands: list) -> None:
    """Keep a legal mail's Westeros lines in the house's plan. A mail's REMOVE, TIEBREAK and RECLAIM
    lines replace those on file; a MUSTER line replaces the one on file for its castle; a bid
    replaces the one on file for its slot."""
    plan = pos.plan(state, house)
    commands = [c for c in commands if not (isinstance(c, Choose) and _choose_ignored(state, ctx, c))]  # noted
    for key in ("bids", "musters", "removes", "tiebreaks", "reclaims") + tuple(  # 2e only: added when sent
            SECOND_EDITION_KEYS[kind] for kind in {_kind_of(c) for c in commands} if kind in SECOND_EDITION_KEYS):
        plan.setdefault(key, {} if key == "bids" else [])
    slots = bid_slots(state)
    replaced = set()
    for command in commands:
        line = command.canonical(ctx.names)
        if isinstance(command, Bid):
            plan["bids"][slots[0]] = command.n
        elif isinstance(command, BidAll):
            values = {"iron_throne": command.throne, "fiefdoms": command.fiefdoms, "kings_court": command.court}
            for slot in slots:
                if slot in values:
                    plan["bids"][slot] = values[slot]
        elif isinstance(command, Muster):  # a castle's line replaces that castle's; NONE replaces all
            keep = [] if command.area is None else [m for m in plan["musters"] if ctx.command(m).area not in (command.area, None)]
            plan["musters"] = keep + [line]
        elif isinstance(command, Choose):  # one line per card: a new one replaces the card's
            plan["chooses"] = [c for c in plan["chooses"] if ctx.command(c).card_id != command.card_id] + [line]
        else:
            key = {Remove: "removes", Tiebreak: "tiebreaks", Reclaim: "reclaims", **SECOND_EDITION_KEYS}[_kind_of(command)]
            if key not in replaced:
                plan[key] = []
                replaced.add(key)
            plan[key].append(line)


SECOND_EDITION_KEYS = {Track: "tracks", Discard: "discards", Choose: "chooses", "promote": "promotes",
                       "demote": "demotes", Penalty: "penalties"}
"""2e: the plan key of each 2nd-edition Westeros line (a key is added to the plan when such a line is sent)."""


def _kind_of(command):
    """A command's key in :data:`SECOND_EDITION_KEYS` (PROMOTE and DEMOTE are one class) or its class."""
    if isinstance(command, Promote):
        return "demote" if command.demote else "promote"
    return type(command)


def on_file(state: dict, ctx: Ctx, house: str) -> list[str]:
    """The bids on file, as lines, and (2e) the TRACK and DISCARD lines (the other Westeros lines are in
    the plan's lists of ``position.PLAN_KEYS``)."""
    bids = pos.plan(state, house).get("bids") or {}
    if all(t in bids for t in bidding.TRACKS):
        out = [f"BID THRONE {bids['iron_throne']} FIEFDOMS {bids['fiefdoms']} COURT {bids['kings_court']}"]
    else:
        out = [f"BID {n}  # {bidding.SLOT_NAME[s]}" for s, n in bids.items() if s in bidding.TRACKS]
    if bidding.WILDLINGS in bids:
        out.append(f"BID {bids[bidding.WILDLINGS]}  # Night's Watch")
    plan = pos.plan(state, house)
    return out + [line for key in SECOND_EDITION_KEYS.values() for line in plan.get(key, [])]  # 2e


def restriction_text(state: dict, ctx: Ctx, line: OrderLine, message: Msg) -> Msg:
    """Name the Westeros card in a planning error about an order (its kind in agot1e, its token in 2e)
    the card forbids."""
    if message.key != "agot.error.token_forbidden":
        return message
    w = state.get("westeros") or {}
    for deck, card in (w.get("cards") or {}).items():
        chosen = (w.get("choices") or {}).get(deck, "nothing")  # 2e: Put to the Sword's choice
        forbidden = restrictions_of(ctx.gd, card) + (restrictions_of(ctx.gd, chosen) if chosen != "nothing" else [])
        if line.kind in forbidden or line.token.canonical() in forbidden:
            return Msg(message.key, {**message.params, "card": card})
    return message
