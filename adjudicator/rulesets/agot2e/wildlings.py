"""The 2nd edition's wildling cards (data ``wildling_cards.yaml``; agot2e RULES.md R4.7, section 11.3):
what follows the bids of a wildling attack, for the shared bidding (``ctx.rules.wildlings``).

After the bids the top card of the wildling deck (``state['wildling_deck']``, shuffled from the game's
seed by ``westeros.new_wildling_deck``, secret) is revealed and resolved, then goes to the bottom: after a Night's Watch win the highest
bidder's reward; after a wildling win the lowest bidder's penalty first, then every other house's in
turn order (FAQ1/FAQ2).

A King Beyond the Wall's track is chosen by ``TRACK``, Massing on the Milkwater's discard by ``DISCARD``
(sent with the bid or asked after the reveal, step ``outcome``); every other choice a card gives is taken
by its deadline default (section 11.3, B30-B35): the mail commands for them (PROMOTE, DEMOTE, PENALTY,
...) are still to come (RULES.md section 0).
"""

from __future__ import annotations

from collections import Counter

from ...ruleset import Event
from ..agot import bidding
from ..agot import position as pos
from ..agot.commands import TRACK_SLOTS
from ..agot.context import Ctx
from ...messages import Msg
from ...ruleset import Owed

TRACK_ORDER = ("iron_throne", "fiefdoms", "kings_court")  # B31: ties for the reward


def after_attack(state: dict, ctx: Ctx, result: str, pick: str, events=None) -> tuple[list[Event], bool]:
    """Reveal the top wildling card for the attack's ``result`` (``won``: the Night's Watch held,
    ``pick`` is the highest bidder; else ``pick`` is the lowest bidder), then resolve it at once, or
    first ask the houses the card gives a mailed choice (step ``outcome``, :func:`pending_outcome`)."""
    events = list(events or [])
    deck = state["wildling_deck"]
    card_id = deck.pop(0)
    deck.append(card_id)  # to the bottom (SR)
    events.append(Event("agot.wildlings.card", card=card_id))
    state["westeros"]["outcome"] = {"card": card_id, "result": result, "pick": pick}
    if _asked(state, ctx):
        state["step"] = "outcome"
        return events, False
    more, done = resolve_outcome(state, ctx, True)
    return events + more, done


def _groups(state: dict) -> list[tuple[str, str]]:
    """(house, its outcome group) in the order the card resolves them: after a Night's Watch win the
    highest bidder's reward; else the lowest bidder's penalty, then everyone else in turn order (FAQ1/FAQ2)."""
    o = state["westeros"]["outcome"]
    if o["result"] == "won":
        return [(o["pick"], "highest_bidder")]
    return [(o["pick"], "lowest_bidder")] + [(h, "everyone_else") for h in pos.turn_order(state) if h != o["pick"]]


ASKED: dict[str, tuple[str, str]] = {"tracks": ("agot.owed.track", "tracks"), "discards": ("agot.owed.discard", "cards")}
"""What a card may ask by mail, by the house's plan key of its lines (``TRACK``, ``DISCARD``) -> the
owed message and its parameter."""

_VALUE = {"tracks": lambda command: TRACK_SLOTS[command.track], "discards": lambda command: command.card_id}


def choices(state: dict, ctx: Ctx, house: str, kind: str) -> list[str]:
    """What ``house`` may name with a ``kind`` line (:data:`ASKED`) for the card being resolved (none:
    the card does not ask it): A King Beyond the Wall's tracks, Massing on the Milkwater's hand of two or more."""
    o = (state.get("westeros") or {}).get("outcome")
    if not o:
        return []
    card = ctx.gd.wildling_cards[o["card"]]
    for h, group in _groups(state):
        params = getattr(card, group).params
        if h != house:
            continue
        if kind == "tracks" and card.effect_key == "influence-track-moves" and params["tracks"] != "all":
            return [t for t in TRACK_ORDER if t in params["tracks"]]
        if kind == "discards" and card.effect_key == "house-cards-lost-or-back" and params.get("discard") == 1 \
                and len(state["hands"][house]) >= 2:
            return sorted(state["hands"][house], key=ctx.card)
    return []


def _asked(state: dict, ctx: Ctx) -> list[tuple[str, str, list[str]]]:
    return [(h, kind, options) for h, _ in _groups(state) for kind in ASKED
            if (options := choices(state, ctx, h, kind))]


def chosen(state: dict, ctx: Ctx, house: str, kind: str, options: list[str]) -> str | None:
    """The value of ``house``'s last ``kind`` line on file among ``options`` (a line naming something
    else, or sent with a bid when the card drawn asks nothing of it, is not used)."""
    for line in reversed(pos.plan(state, house).get(kind, [])):
        value = _VALUE[kind](ctx.command(line))
        if value in options:
            return value
    return None


def pending_outcome(state: dict, ctx: Ctx) -> list[Owed]:
    return [Owed(h, Msg(ASKED[kind][0], **{ASKED[kind][1]: options}), "step",
                 chosen(state, ctx, h, kind, options) is not None) for h, kind, options in _asked(state, ctx)]


def resolve_outcome(state: dict, ctx: Ctx, force: bool) -> tuple[list[Event], bool]:
    """Resolve the revealed card for every house it concerns, each by its mailed choice or its default."""
    groups = _groups(state)
    card = ctx.gd.wildling_cards[state["westeros"].pop("outcome")["card"]]
    resolve = _HANDLERS[card.effect_key]
    events, done = [], True
    for house, group in groups:
        events, done = resolve(state, ctx, card, group, house, events)
    return events, done


# -- helpers ---------------------------------------------------------------------------------------------


def _units(state: dict, house: str, areas=None) -> list[tuple[str, str]]:
    return [(a, u) for a, holders in state["areas"].items() for u in holders.get(house, [])
            if areas is None or a in areas]


def _destroy(state: dict, ctx: Ctx, house: str, n: int, card: str, areas=None) -> list[Event]:
    """``n`` of ``house``'s units, the weakest first (B30), then by area name; as many as it has (B6)."""
    units = sorted(_units(state, house, areas), key=lambda au: (bidding.WEAKEST_FIRST.index(au[1]), ctx.area(au[0])))
    cut = units[:n]
    if not cut:
        return []
    removed = bidding.remove_units(state, ctx, house, bidding.as_removes(cut))
    return [Event("agot.wildlings.kill", house=house, removed=removed)]


def _swap(state: dict, area: str, house: str, old: str, new: str) -> None:
    units = Counter(pos.units_in(state, area, house))
    units[old] -= 1
    units[new] += 1
    pos.set_units(state, area, house, units.elements())


def _move_on_track(state: dict, house: str, track: str, to_top: bool) -> None:
    order = [h for h in state["tracks"][track] if h != house]
    state["tracks"][track] = [house, *order] if to_top else [*order, house]


# -- the cards -------------------------------------------------------------------------------------------


def _tracks(state, ctx, card, group, house, events):
    """A King Beyond the Wall (B31: the reward where the house rises most, the penalty where it falls least)."""
    params = getattr(card, group).params
    picked = None if params["tracks"] == "all" else chosen(state, ctx, house, "tracks", list(params["tracks"]))
    pos.plan(state, house).pop("tracks", None)
    if group == "highest_bidder":
        track = picked or max(TRACK_ORDER, key=lambda t: (state["tracks"][t].index(house), -TRACK_ORDER.index(t)))
        _move_on_track(state, house, track, True)
        events.append(Event("agot.wildlings.track_top_chosen" if picked else "agot.wildlings.track_top",
                            house=house, track=track))
    elif params["tracks"] == "all":
        for track in TRACK_ORDER:
            _move_on_track(state, house, track, False)
        events.append(Event("agot.wildlings.track_bottom_all", house=house))
    else:
        choices = list(params["tracks"])
        last = len(state["houses"]) - 1
        track = picked or min(reversed(choices), key=lambda t: last - state["tracks"][t].index(house))  # ties: King's Court
        _move_on_track(state, house, track, False)
        events.append(Event("agot.wildlings.track_bottom_chosen" if picked else "agot.wildlings.track_bottom",
                            house=house, track=track))
    return events, True


def _crow_killers(state, ctx, card, group, house, events):
    """Crow Killers (B32): the reward promotes footmen where the house has most units; penalties demote
    knights by area name; a knight with no footman piece left to replace it is destroyed."""
    params = getattr(card, group).params
    limits = {u: pos.unit_limit(state, ctx.gd, house, u) for u in ("footman", "knight")}
    if "promote_footmen" in params:
        areas = sorted((a for a, u in _units(state, house) if u == "footman"),
                       key=lambda a: (-len(pos.units_in(state, a, house)), ctx.area(a)))
        done = 0
        for area in areas:
            if done == params["promote_footmen"] or pos.house_units(state, house)["knight"] >= limits["knight"]:
                break
            _swap(state, area, house, "footman", "knight")
            done += 1
        events.append(Event("agot.wildlings.promoted", house=house, n=done))
        return events, True
    knights = sorted((a for a, u in _units(state, house) if u == "knight"), key=ctx.area)
    if params["demote_knights"] != "all":
        knights = knights[:params["demote_knights"]]
    demoted = lost = 0
    for area in knights:
        if pos.house_units(state, house)["footman"] < limits["footman"]:
            _swap(state, area, house, "knight", "footman")
            demoted += 1
        else:
            pos.remove_units(state, area, ["knight"])
            lost += 1
    events.append(Event("agot.wildlings.demoted", house=house, n=demoted, lost=lost))
    return events, True


def _mammoths(state, ctx, card, group, house, events):
    """Mammoth Riders: the reward takes back the strongest discard (= 1e W10); penalties destroy units (B30)."""
    params = getattr(card, group).params
    if "reclaim_cards" in params:
        if state["discards"][house]:
            chosen = bidding.default_reclaim(state, ctx, house)
            state["discards"][house].remove(chosen)
            state["hands"][house].append(chosen)
            events.append(Event("agot.wildlings.reclaimed", house=house, card=chosen))
        else:
            events.append(Event("agot.wildlings.nothing_to_reclaim", house=house))
        return events, True
    return events + _destroy(state, ctx, house, params["destroy_units"], card.id), True


def _milkwater(state, ctx, card, group, house, events):
    """Massing on the Milkwater: the reward takes back every discard; penalties discard from a hand of
    two or more: every card of the highest strength (lowest bidder), or the weakest (B33)."""
    params = getattr(card, group).params
    hand, discards = state["hands"][house], state["discards"][house]
    if "reclaim_cards" in params:
        back = list(discards)
        hand.extend(back)
        discards.clear()
        events.append(Event("agot.wildlings.reclaimed_all", house=house, cards=back))
        return events, True
    picked = chosen(state, ctx, house, "discards", list(hand))
    pos.plan(state, house).pop("discards", None)
    if len(hand) < 2:
        return events, True
    if params["discard"] == "highest_strength":
        top = max(ctx.gd.card(c).strength for c in hand)
        gone = [c for c in hand if ctx.gd.card(c).strength == top]
    elif picked:
        gone = [picked]
    else:
        gone = [min(hand, key=lambda c: (ctx.gd.card(c).strength, ctx.card(c)))]
        events.append(Event("agot.default.discard", house=house))
    for c in gone:
        hand.remove(c)
        discards.append(c)
    if not hand:  # the hand cycle (R8.11): a house never stays without cards
        hand.extend(discards)
        discards.clear()
    events.append(Event("agot.wildlings.discarded", house=house, cards=gone))
    return events, True


def _preemptive(state, ctx, card, group, house, events):
    """Preemptive Raid: after a Night's Watch win the wildlings attack again at 6 without the highest
    bidder (B5); the lowest bidder's default is to lose its two weakest units (B34)."""
    params = getattr(card, group).params
    if group == "highest_bidder":
        state["wildlings"] = ctx.gd.setup.wildlings.track[0]
        events.append(Event("agot.wildlings.again", strength=params["new_attack_strength"], house=house))
        events += bidding.start_wildlings(state, ctx, strength=params["new_attack_strength"], without=house)
        return events, False
    if group == "lowest_bidder":
        return events + _destroy(state, ctx, house, params["destroy_units"], card.id), True
    return events, True


def _rattleshirt(state, ctx, card, group, house, events):
    """Rattleshirt's Raiders: the supply track moves; a house over its new limit removes units (= 1e W7 default)."""
    params = getattr(card, group).params
    levels = max(ctx.gd.setup.supply_armies)
    state["supply"][house] = max(0, min(levels, state["supply"][house] + params["supply"]))
    events.append(Event("agot.wildlings.supply", house=house, supply=state["supply"][house]))
    cut = bidding.default_supply_cut(state, ctx, house)
    if cut:
        events.append(Event("agot.wildlings.kill", house=house,
                            removed=bidding.remove_units(state, ctx, house, bidding.as_removes(cut))))
    return events, True


def _nothing(state, ctx, card, group, house, events):
    return events, True


def _skinchanger(state, ctx, card, group, house, events):
    """Skinchanger Scout: the highest bidder gets its bid back; the others discard available Power."""
    params = getattr(card, group).params
    if params.get("return_bid"):
        bid = state["westeros"]["bids"][bidding.WILDLINGS][house]
        got = pos.gain_power(state, house, bid, ctx.gd.setup.power_limit)
        events.append(Event("agot.wildlings.power_back", house=house, n=got))
        return events, True
    lose = state["power"][house] if params["discard_power"] == "all" else min(params["discard_power"], state["power"][house])
    state["power"][house] -= lose
    events.append(Event("agot.wildlings.power_lost", house=house, n=lose))
    return events, True


def _horde(state, ctx, card, group, house, events):
    """The Horde Descends: the reward's muster defaults to nothing; the lowest bidder loses 2 units in
    the castle area where it has most (B35), else anywhere; everyone else loses 1 (B30)."""
    params = getattr(card, group).params
    if group == "highest_bidder":
        events.append(Event("agot.wildlings.no_muster", house=house))
        return events, True
    areas = None
    if params.get("where") == "castle-area-else-anywhere":
        castles = [a for a, holders in state["areas"].items() if len(holders.get(house, [])) >= params["destroy_units"]
                   and ctx.gd.board.is_land(a) and ctx.gd.board.area(a).castle != "none"]
        if castles:
            areas = {min(castles, key=lambda a: (-len(pos.units_in(state, a, house)), ctx.area(a)))}
    return events + _destroy(state, ctx, house, params["destroy_units"], card.id, areas), True


_HANDLERS = {"influence-track-moves": _tracks, "knights-and-footmen-swap": _crow_killers,
             "units-lost-or-card-back": _mammoths, "house-cards-lost-or-back": _milkwater,
             "preemptive-raid": _preemptive, "supply-moves": _rattleshirt, "nothing": _nothing,
             "power-lost-or-back": _skinchanger, "muster-or-units-lost": _horde}
"""effect_key -> its handler (every key of wildling_cards.yaml; the test checks it)."""
