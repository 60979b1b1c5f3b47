"""Hostages: the Russian fan variant's hostage module (agot2e-ru, option ``hostages``; its RULES.md V20).

A house card becomes a hostage when its army is wiped out in the battle it was played in ("Когда армия
уничтожается после боя, и нет оставшихся отступающих единиц ... побеждающий игрок берет карту противника в
заложники"): the card leaves its owner's hand and discards and is held by the winner. The game keeps them in
``state["hostages"]`` (public: the card was face up in the battle)::

    held:     [{card, house (its owner), holder, since (the round it was taken)}, ...]
    executed: [{card, house, holder}, ...]   out of the game for good (RULES.md D46)

so a house's seven cards are its hand + its discards + its cards held or executed (``invariants``). A game
without the option has no ``"hostages"`` key: agot1e, agot2e and the other variants are unchanged.

The hostage phase (the seed's phase 2, between Westeros and planning) is the variant step ``hostages``
(``variantsteps.py``) in three stages, each one round of mail (``state["hostage_phase"]`` while it runs):

``offers``   every house may offer for hostages held by others (``RANSOM <hostage> <gold> [+ <hostage>]``,
             ``RANSOM NONE``); the offers are revealed together, in Iron Throne order (default: none);
``answers``  each holder answers for each hostage: ``ACCEPT <hostage> FROM <house>``, ``REFUSE <hostage>`` or
             ``EXECUTE <hostage>`` (default: refuse; a hostage held ``rounds_at_most`` rounds must go:
             the best offer is accepted, else the execution is attempted);
``bids``     for each execution attempted, every house sides secretly with gold
             (``EXECUTE <hostage>: FOR <n> | AGAINST <n> | NONE``; default none); the holder stands for it.
             The bids are revealed together and all paid to the pool; the Iron Throne's gold counts
             ``iron_throne_bid_factor`` times and its side wins a tie; more for than against: executed.
             A hostage at its limit that is not executed goes home.

Lines are held in the house's plan (``plan["hostages"]``, canonical lines, secret) until their stage closes.
"""

from __future__ import annotations

from ...messages import Msg
from ...ruleset import Event, Owed
from . import gold
from . import position as pos
from .commands import Answer, ExecutionBid, Ransom
from .context import Ctx

PHASE = "hostage_phase"


# -- the hostages and the house cards ------------------------------------------------------------------


def in_play(state: dict) -> bool:
    return "hostages" in state


def held(state: dict) -> list[dict]:
    return state["hostages"]["held"] if in_play(state) else []


def find(state: dict, card: str) -> dict | None:
    return next((h for h in held(state) if h["card"] == card), None)


def out_of_hand(state: dict, house: str) -> list[str]:
    """``house``'s cards held by another house or executed: neither in its hand nor in its discards."""
    if not in_play(state):
        return []
    return [h["card"] for h in held(state) + state["hostages"]["executed"] if h["house"] == house]


def own_cards(state: dict, ctx: Ctx, house: str) -> list[str]:
    """The house cards ``house`` plays with: its seven less those held by others or executed. What its
    hand becomes when the discards come back (the seventh card), so a hostage never returns that way."""
    gone = set(out_of_hand(state, house))
    return [c.id for c in ctx.gd.house_cards[house] if c.id not in gone]


def rounds_held(state: dict, entry: dict) -> int:
    """The rounds a hostage has been held, all its holders together (counted at each hostage phase)."""
    return state["round"] - entry["since"]


def _at_limit(state: dict, ctx: Ctx, entry: dict) -> bool:
    return rounds_held(state, entry) >= ctx.params.hostage_rounds


def _strength(ctx: Ctx, card: str) -> int:
    return ctx.gd.card(card).strength


def capture(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """After a battle's cards are discarded: the loser's card taken hostage by the winner when the loser's
    army was wiped out (``b["wiped"]``, set by the retreat). Nothing without the option."""
    if not ctx.on("hostages") or not in_play(state) or not b.get("wiped"):
        return []
    loser, winner = b["loser"], b["winner"]
    card = b["cards"].get(loser)
    where = next((k for k in ("discards", "hands") if card is not None and card in state[k][loser]), None)
    if where is None:
        return []
    state[where][loser].remove(card)
    state["hostages"]["held"].append({"card": card, "house": loser, "holder": winner, "since": state["round"]})
    if not state["hands"][loser] and state["discards"][loser]:  # never a house without a card while it has some
        state["hands"][loser], state["discards"][loser] = state["discards"][loser], []
    return [Event("agot.hostages.taken", house=winner, card=card, owner=loser, rounds=ctx.params.hostage_rounds)]


def wiped(ctx: Ctx, b: dict, survivors: list[str]) -> None:
    """Note in the battle whether the loser's army is gone (no unit survived the casualties and retreat)."""
    if ctx.on("hostages"):
        b["wiped"] = not survivors


def _give(state: dict, entry: dict, to: str) -> bool:
    """``entry``'s hostage passes to ``to``: held by it, or home to its hand when ``to`` is its owner."""
    if entry["house"] == to:
        state["hostages"]["held"].remove(entry)
        state["hands"][to].append(entry["card"])
        return True
    entry["holder"] = to
    return False


# -- the lines on file ------------------------------------------------------------------------------------


def _lines(state: dict, ctx: Ctx, house: str) -> list:
    return [ctx.command(line) for line in pos.plan(state, house).get("hostages") or []]


def _key(command) -> tuple:
    if isinstance(command, Ransom):
        return ("ransom", command.card_id)
    if isinstance(command, Answer):
        return ("answer", command.card_id)
    return ("bid", command.card_id)


def store(state: dict, ctx: Ctx, house: str, command) -> None:
    """A line replaces the one on file for the same hostage and stage; ``RANSOM NONE`` takes back every
    offer, an offer takes back ``RANSOM NONE``."""
    plan = pos.plan(state, house)
    kept = []
    for line in plan.get("hostages") or []:
        old = ctx.command(line)
        if _key(old) == _key(command) or (isinstance(command, Ransom) and isinstance(old, Ransom)
                                           and None in (command.card_id, old.card_id)):
            continue
        kept.append(line)
    plan["hostages"] = kept + [command.canonical(ctx.names)]


def _take(state: dict, ctx: Ctx, house: str, kind: type, card: str | None = None):
    """The house's line of ``kind`` (for ``card``), removed from its plan; None if it has none."""
    plan = pos.plan(state, house)
    for i, line in enumerate(plan.get("hostages") or []):
        command = ctx.command(line)
        if isinstance(command, kind) and (card is None or command.card_id == card):
            del plan["hostages"][i]
            return command
    return None


# -- checks of a mail's lines --------------------------------------------------------------------------


def check(state: dict, ctx: Ctx, house: str, command) -> tuple[Msg | None, str | None]:
    """A hostage line: the option on, in the Westeros or hostage phase, about a hostage as it stands."""
    if not ctx.on("hostages"):
        return Msg("agot.error.no_hostages"), "HELP"
    if state["phase"] not in ("westeros", "hostages"):
        return Msg("agot.error.hostage_when"), "HELP"
    stage = (state.get(PHASE) or {}).get("stage", "offers")
    if isinstance(command, Ransom):
        return _check_ransom(state, ctx, house, command, stage)
    entry = find(state, command.card_id)
    if entry is None:
        return Msg("agot.error.not_a_hostage", card=command.card_id), None
    if isinstance(command, Answer):
        if stage == "bids":
            return Msg("agot.error.hostage_stage_over", stage="answers"), None
        if entry["holder"] != house:
            return Msg("agot.error.not_your_hostage", card=command.card_id, holder=entry["holder"]), None
        offers = [o for o in state.get(PHASE, {}).get("offers", []) if o["card"] == command.card_id]
        if command.choice == "accept" and stage == "answers" and not any(o["house"] == command.house for o in offers):
            return Msg("agot.error.no_such_offer", card=command.card_id, house=command.house), None
        if command.choice == "accept" and command.house == house:
            return Msg("agot.error.no_such_offer", card=command.card_id, house=command.house), None
        if command.choice == "refuse" and _at_limit(state, ctx, entry):
            return Msg("agot.error.hostage_must_go", card=command.card_id, rounds=ctx.params.hostage_rounds), \
                Answer(command.card_id, "execute").canonical(ctx.names)
        return None, None
    if stage == "bids" and command.card_id not in state[PHASE]["executions"]:
        return Msg("agot.error.no_execution", card=command.card_id), None
    if command.side == "against" and entry["holder"] == house:
        return Msg("agot.error.holder_for_execution"), ExecutionBid(command.card_id, "for", 0).canonical(ctx.names)
    if command.gold > gold.held(state, house):
        return Msg("agot.error.hostage_purse", n=command.gold, have=gold.held(state, house)), None
    return None, None


def _check_ransom(state: dict, ctx: Ctx, house: str, command: Ransom, stage: str) -> tuple[Msg | None, str | None]:
    if stage != "offers":
        return Msg("agot.error.hostage_stage_over", stage="offers"), None
    if command.card_id is None:
        return None, None
    entry = find(state, command.card_id)
    if entry is None:
        return Msg("agot.error.not_a_hostage", card=command.card_id), None
    if entry["holder"] == house:
        return Msg("agot.error.own_hostage", card=command.card_id), None
    if command.gold > gold.held(state, house):
        return Msg("agot.error.hostage_purse", n=command.gold, have=gold.held(state, house)), None
    for card in command.cards:
        other = find(state, card)
        if other is None or other["holder"] != house or card == command.card_id:
            return Msg("agot.error.not_your_hostage", card=card, holder=other["holder"] if other else None), None
    value = _value(ctx, command.gold, command.cards)
    need = _strength(ctx, command.card_id)
    if value < need:
        return Msg("agot.error.ransom_too_low", card=command.card_id, value=value, need=need), \
            Ransom(command.card_id, need).canonical(ctx.names) if gold.can_pay(state, house, need) else None
    return None, None


def _value(ctx: Ctx, n: int, cards) -> int:
    """An offer's worth: its gold plus the strength of every hostage offered (the seed's price)."""
    return n + sum(_strength(ctx, c) for c in cards)


# -- the step ------------------------------------------------------------------------------------------------


def _offerers(state: dict) -> list[str]:
    return [h for h in pos.turn_order(state) if any(e["holder"] != h for e in held(state))]


def start(state: dict, ctx: Ctx) -> list[Event]:
    if not ctx.on("hostages") or not held(state):
        return []
    state[PHASE] = {"stage": "offers", "offers": [], "executions": []}
    shown = [[e["card"], e["house"], e["holder"], rounds_held(state, e)] for e in held(state)]
    return [Event("agot.hostages.phase", hostages=shown, rounds=ctx.params.hostage_rounds)]


def pending(state: dict, ctx: Ctx) -> list[Owed]:
    phase = state.get(PHASE)
    if phase is None:
        return []
    stage = phase["stage"]
    if stage == "offers":
        return [Owed(h, Msg("agot.owed.hostage_offers",
                            hostages=[[e["card"], e["holder"]] for e in held(state) if e["holder"] != h]),
                     "step", any(isinstance(c, Ransom) for c in _lines(state, ctx, h))) for h in _offerers(state)]
    if stage == "answers":
        out = []
        for h in pos.turn_order(state):
            cards = [e["card"] for e in held(state) if e["holder"] == h]
            if cards:
                answered = {c.card_id for c in _lines(state, ctx, h) if isinstance(c, Answer)}
                out.append(Owed(h, Msg("agot.owed.hostage_answers", cards=cards,
                                       offers=[[o["card"], o["house"]] for o in phase["offers"] if o["card"] in cards]),
                                "step", set(cards) <= answered))
        return out
    cards = phase["executions"]
    return [Owed(h, Msg("agot.owed.execution_bids", cards=cards), "step",
                 set(cards) <= {c.card_id for c in _lines(state, ctx, h) if isinstance(c, ExecutionBid)})
            for h in pos.turn_order(state)]


def advance(state: dict, ctx: Ctx, force: bool) -> list[Event]:
    """Close the current stage (missing lines take their defaults) and open the next, if any."""
    phase = state[PHASE]
    if phase["stage"] == "offers":
        events = _close_offers(state, ctx)
        phase["stage"] = "answers"
        return events
    if phase["stage"] == "answers":
        events = _close_answers(state, ctx)
        if phase["executions"]:
            phase["stage"] = "bids"
            return events
    else:
        events = _close_bids(state, ctx)
    del state[PHASE]
    for house in state["houses"]:  # what was sent for a stage that did not come (a hostage gone) expires
        pos.plan(state, house).pop("hostages", None)
    return events


def _close_offers(state: dict, ctx: Ctx) -> list[Event]:
    phase = state[PHASE]
    events = []
    for house in pos.turn_order(state):
        while (command := _take(state, ctx, house, Ransom)) is not None:
            if command.card_id is None:
                continue
            problem, _ = _check_ransom(state, ctx, house, command, "offers")
            if problem is not None:
                events.append(Event("agot.skipped_because", line=command.canonical(ctx.names), problem=problem,
                                    to=(house,)))
                continue
            phase["offers"].append({"house": house, "card": command.card_id, "gold": command.gold,
                                    "cards": list(command.cards)})
    if not phase["offers"]:
        return events + [Event("agot.hostages.no_offers")]
    shown = [[o["house"], o["card"], o["gold"], o["cards"]] for o in phase["offers"]]
    return events + [Event("agot.hostages.offers", offers=shown)]


def _payable(state: dict, offer: dict) -> bool:
    """The offerer still has the gold and the hostages it offered (none of them put to the vote), and the
    hostage is still another house's."""
    voted = state[PHASE]["executions"]
    return gold.can_pay(state, offer["house"], offer["gold"]) and all(
        (e := find(state, c)) is not None and e["holder"] == offer["house"] and c not in voted
        for c in offer["cards"]) and (e := find(state, offer["card"])) is not None and e["holder"] != offer["house"]


def _close_answers(state: dict, ctx: Ctx) -> list[Event]:
    phase = state[PHASE]
    events = []
    for holder in pos.turn_order(state):
        for entry in [e for e in held(state) if e["holder"] == holder]:
            if find(state, entry["card"]) is not entry or entry["holder"] != holder:
                continue  # given away as part of an offer accepted earlier in this stage
            card = entry["card"]
            answer = _take(state, ctx, holder, Answer, card)
            offers = [o for o in phase["offers"] if o["card"] == card and _payable(state, o)]
            limit = _at_limit(state, ctx, entry)
            chosen = next((o for o in offers if answer and answer.choice == "accept" and o["house"] == answer.house),
                          None)
            if answer is not None and answer.choice == "accept" and chosen is None:
                made = any(o["card"] == card and o["house"] == answer.house for o in phase["offers"])
                problem = Msg("agot.error.offer_unpaid" if made else "agot.error.no_such_offer", card=card,
                              house=answer.house)
                events.append(Event("agot.skipped_because", line=answer.canonical(ctx.names), to=(holder,),
                                    problem=problem))
                answer = None
            if answer is not None and answer.choice == "refuse" and limit:
                answer = None
            if answer is None and limit:
                best = max(offers, key=lambda o: _value(ctx, o["gold"], o["cards"]), default=None)
                if best is not None:
                    chosen = best
                    events.append(Event("agot.default.hostage_accept", house=holder, card=card, offerer=best["house"]))
                else:
                    answer = Answer(card, "execute")
                    events.append(Event("agot.default.hostage_execute", house=holder, card=card))
            if chosen is not None:
                events += _ransom(state, ctx, entry, chosen)
            elif answer is not None and answer.choice == "execute":
                phase["executions"].append(card)
                events.append(Event("agot.hostages.execution_attempt", house=holder, card=card, owner=entry["house"]))
            elif offers:
                events.append(Event("agot.hostages.refused", house=holder, card=card))
    return events


def _ransom(state: dict, ctx: Ctx, entry: dict, offer: dict) -> list[Event]:
    holder, buyer, card = entry["holder"], offer["house"], entry["card"]
    gold.pay(state, buyer, offer["gold"])
    gold.receive(state, holder, offer["gold"])
    for other in offer["cards"]:
        _give(state, find(state, other), holder)
    home = _give(state, entry, buyer)
    return [Event("agot.hostages.ransomed", house=holder, card=card, buyer=buyer, gold=offer["gold"],
                  cards=list(offer["cards"]), home=home)]


def _close_bids(state: dict, ctx: Ctx) -> list[Event]:
    phase = state[PHASE]
    events = []
    throne = pos.holder(state, "iron_throne")
    factor = ctx.params.iron_throne_bid_factor
    for card in phase["executions"]:
        entry = find(state, card)  # (never given away since: a hostage put to the vote pays no ransom)
        totals = {"for": 0, "against": 0}
        bids, throne_side = [], None
        for house in pos.turn_order(state):
            bid = _take(state, ctx, house, ExecutionBid, card)
            side, n = (bid.side, bid.gold) if bid is not None else (None, 0)
            if house == entry["holder"] and side != "for":
                side, n = "for", 0  # the holder stands for the execution (the seed: in that faction at first)
            if side is None:
                continue
            n = min(n, gold.held(state, house))  # a purse spent elsewhere since: what is left
            gold.pay(state, house, n)
            weight = n * factor if house == throne else n
            totals[side] += weight
            bids.append([house, side, n, weight])
            if house == throne:
                throne_side = side
        executed = totals["for"] > totals["against"] or (totals["for"] == totals["against"] and throne_side == "for")
        events.append(Event("agot.hostages.votes", card=card, bids=bids, yes=totals["for"], no=totals["against"],
                            throne=throne, factor=factor, tie=totals["for"] == totals["against"]))
        if executed:
            state["hostages"]["held"].remove(entry)
            state["hostages"]["executed"].append({k: entry[k] for k in ("card", "house", "holder")})
            events.append(Event("agot.hostages.executed", house=entry["holder"], card=card, owner=entry["house"]))
        elif _at_limit(state, ctx, entry):
            _give(state, entry, entry["house"])
            events.append(Event("agot.hostages.freed", house=entry["holder"], card=card, owner=entry["house"]))
        else:
            events.append(Event("agot.hostages.spared", house=entry["holder"], card=card, owner=entry["house"]))
    return events


def examples(state: dict, ctx: Ctx, house: str):
    """Lines ``house`` may send now (the valid examples of a refused hostage line): its answers for the
    hostages it holds, offers at the base price for the others, NONE lines."""
    phase = state.get(PHASE) or {}
    for card in phase.get("executions", []):
        yield ExecutionBid(card, None).canonical(ctx.names)
    for entry in held(state):
        if entry["holder"] == house:
            for offer in phase.get("offers", []):
                if offer["card"] == entry["card"]:
                    yield Answer(entry["card"], "accept", offer["house"]).canonical(ctx.names)
            yield Answer(entry["card"], "execute").canonical(ctx.names)
        else:
            yield Ransom(entry["card"], _strength(ctx, entry["card"])).canonical(ctx.names)
    yield Ransom(None).canonical(ctx.names)


# -- the bot ----------------------------------------------------------------------------------------------------


def bot_mail(state: dict, ctx: Ctx, house: str, rng) -> str | None:
    """A random legal mail for the stage ``house`` owes (self-play): offers, answers, bids."""
    phase = state.get(PHASE)
    if phase is None:
        return None
    lines = []
    if phase["stage"] == "offers":
        for entry in held(state):
            if entry["holder"] != house and rng.random() < 0.5:
                need = _strength(ctx, entry["card"])
                mine = [e["card"] for e in held(state) if e["holder"] == house and e["card"] != entry["card"]]
                cards = tuple(rng.sample(mine, 1)) if mine and rng.random() < 0.3 else ()
                n = max(0, need - _value(ctx, 0, cards)) + rng.randint(0, 2)
                lines.append(Ransom(entry["card"], n, cards))
        lines = lines or [Ransom(None)]
    elif phase["stage"] == "answers":
        for entry in [e for e in held(state) if e["holder"] == house]:
            offers = [o["house"] for o in phase["offers"] if o["card"] == entry["card"]]
            options = [Answer(entry["card"], "refuse"), Answer(entry["card"], "execute")]
            options += [Answer(entry["card"], "accept", h) for h in offers] * 2
            lines.append(rng.choice(options))
    else:
        for card in phase["executions"]:
            side = rng.choice([None, "for", "against"])
            lines.append(ExecutionBid(card, side, rng.randint(0, min(3, gold.held(state, house))) if side else 0))
    legal = [c.canonical(ctx.names) for c in lines if check(state, ctx, house, c)[0] is None]
    return "\n".join(legal) or None
