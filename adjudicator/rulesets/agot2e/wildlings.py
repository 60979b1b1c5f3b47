"""The 2nd edition's wildling cards (data ``wildling_cards.yaml``; agot2e RULES.md R4.7, section 11.3):
what follows the bids of a wildling attack, for the shared bidding (``ctx.rules.wildlings``).

After the bids the top card of the wildling deck (``state['wildling_deck']``, shuffled from the game's
seed by ``westeros.new_wildling_deck``, secret) is revealed and resolved, then goes to the bottom: after a Night's Watch win the highest
bidder's reward; after a wildling win the lowest bidder's penalty first, then every other house's in
turn order (FAQ1/FAQ2).

A King Beyond the Wall's track is chosen by ``TRACK``, Massing on the Milkwater's discard by ``DISCARD``,
Crow Killers' footmen by ``PROMOTE`` and knights by ``DEMOTE``, Preemptive Raid's penalty by ``PENALTY
UNITS`` (with ``REMOVE`` lines) or ``PENALTY TRACK`` (each sent with the bid or asked after the reveal,
step ``outcome``); Mammoth Riders', Rattleshirt's Raiders' and The Horde Descends' choices are taken by
their deadline defaults (section 11.3, B30-B35).
"""

from __future__ import annotations

from collections import Counter

from ...ruleset import Event
from ..agot import bidding
from ..agot import position as pos
from ..agot.commands import TRACK_SLOTS, Penalty, Promote, Remove
from ..agot.context import Ctx
from ...messages import Msg
from ...ruleset import Owed

TRACK_ORDER = ("iron_throne", "fiefdoms", "kings_court")  # B31: ties for the reward
CROW_KILLERS, PREEMPTIVE_RAID = "knights-and-footmen-swap", "preemptive-raid"  # effect keys with mailed choices


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


ASKED: dict[str, tuple[str, str]] = {"tracks": ("agot.owed.track", "tracks"), "discards": ("agot.owed.discard", "cards"),
                                     "promotes": ("agot.owed.promote", "areas"), "demotes": ("agot.owed.demote", "areas"),
                                     "penalties": ("agot.owed.penalty", "choices")}
"""What a card may ask by mail, by the house's plan key of its lines (``TRACK``, ``DISCARD``, ``PROMOTE``,
``DEMOTE``, ``PENALTY``) -> the owed message and its parameter."""

_VALUE = {"tracks": lambda command: TRACK_SLOTS[command.track], "discards": lambda command: command.card_id,
          "promotes": lambda command: command, "demotes": lambda command: command,
          "penalties": lambda command: command.choice}


def _params(ctx: Ctx, effect_key: str, group: str) -> dict:
    """The data's ``params`` of the wildling card with ``effect_key`` for ``group``."""
    card = next(c for c in ctx.gd.wildling_cards.values() if c.effect_key == effect_key)
    return getattr(card, group).params


def choices(state: dict, ctx: Ctx, house: str, kind: str) -> list[str]:
    """What ``house`` may name with a ``kind`` line (:data:`ASKED`) for the card being resolved (none:
    the card does not ask it): A King Beyond the Wall's tracks, Massing on the Milkwater's hand of two or
    more, Crow Killers' areas with footmen (while knight pieces are left) or, for a house with more than
    the two knights it demotes, with knights, Preemptive Raid's two penalties (for a house with units)."""
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
        if kind == "promotes" and "promote_footmen" in params and _knights_left(state, ctx, house):
            return _areas_with(state, ctx, house, "footman")
        if kind == "demotes" and isinstance(params.get("demote_knights"), int) \
                and pos.house_units(state, house)["knight"] > params["demote_knights"]:
            return _areas_with(state, ctx, house, "knight")
        if kind == "penalties" and "drop_positions" in params and pos.house_units(state, house):
            return ["units", "track"]
    return []


def _areas_with(state: dict, ctx: Ctx, house: str, unit: str) -> list[str]:
    return sorted({a for a, u in _units(state, house) if u == unit}, key=ctx.area)


def _knights_left(state: dict, ctx: Ctx, house: str) -> int:
    return ctx.gd.setup.unit_limits["knight"] - pos.house_units(state, house)["knight"]


def _swap_problem(state: dict, ctx: Ctx, house: str, command: Promote) -> Msg | None:
    """What is wrong with a PROMOTE or DEMOTE line now: an area without that many of the house's footmen
    (knights), more than two footmen (more knight pieces than are left), or not exactly the two knights
    (all, if fewer) that Crow Killers' penalty demotes."""
    unit = "knight" if command.demote else "footman"
    for area, n in command.areas:
        have = pos.units_in(state, area, house).count(unit)
        if have < n:
            return Msg("agot.error.area_has_only", area=ctx.area(area), n=have, unit=unit)
    total = sum(n for _, n in command.areas)
    if command.demote:
        need = min(_params(ctx, CROW_KILLERS, "everyone_else")["demote_knights"], pos.house_units(state, house)["knight"])
        return None if total == need else Msg("agot.error.demote_exactly", n=need)
    most = min(_params(ctx, CROW_KILLERS, "highest_bidder")["promote_footmen"], _knights_left(state, ctx, house))
    return None if total <= most else Msg("agot.error.promote_most", n=most)


def line_problem(state: dict, ctx: Ctx, house: str, command, ahead: bool) -> tuple[Msg | None, str | None]:
    """PROMOTE, DEMOTE and PENALTY lines (westeros.check_commands): sent with a wildling bid (``ahead``)
    they must make sense with the house's units now; at step ``outcome`` they must answer what the card
    asks of the sender."""
    kind = "penalties" if isinstance(command, Penalty) else "demotes" if command.demote else "promotes"
    word = {"penalties": "PENALTY", "demotes": "DEMOTE", "promotes": "PROMOTE"}[kind]
    if state["step"] == "outcome":
        if not choices(state, ctx, house, kind):
            return Msg("agot.error.not_asked", word=word), None
    elif not ahead:
        return Msg("agot.error.no_wildling_choice_now", word=word), None
    if kind != "penalties":
        problem = _swap_problem(state, ctx, house, command)
        if problem is not None:
            return problem, _swap_example(state, ctx, house, command.demote)
    return None, None


def _swap_example(state: dict, ctx: Ctx, house: str, demote: bool) -> str | None:
    """A valid PROMOTE (DEMOTE) line for ``house`` now: a refused line's example, the bot's DEMOTE."""
    areas = [a for a, u in sorted(_units(state, house), key=lambda au: ctx.area(au[0]))
             if u == ("knight" if demote else "footman")]
    areas = areas[:_params(ctx, CROW_KILLERS, "everyone_else")["demote_knights"]] if demote else areas[:1]
    if not areas:
        return None if demote else "PROMOTE NONE"
    return Promote(tuple(Counter(areas).items()), demote).canonical(ctx.names)


def bot_line(state: dict, ctx: Ctx, house: str, kind: str, rng) -> str | None:
    """A legal answer to what the card asks ``house`` (self-play's bot), picked with ``rng``."""
    options = choices(state, ctx, house, kind)
    if not options:
        return None
    pick = rng.choice(options)
    if kind == "tracks":
        return f"TRACK {next(w for w, t in TRACK_SLOTS.items() if t == pick).upper()}"
    if kind == "discards":
        return f"DISCARD {ctx.card(pick)}"
    if kind == "promotes":
        return rng.choice(["PROMOTE NONE", Promote(((pick, 1),)).canonical(ctx.names)])
    if kind == "penalties":
        return f"PENALTY {pick.upper()}"
    return _swap_example(state, ctx, house, demote=True)


def removes_problem(state: dict, ctx: Ctx, house: str, removes: list[Remove]) -> Msg | None:
    """Preemptive Raid's two units (B6: all, if fewer), at step ``outcome``: the REMOVE lines must name
    exactly that many of the sender's units, anywhere (RULES.md R4.7, 11.3)."""
    _, problem = bidding.areas_after(state, ctx, house, removes)
    if problem is not None:
        return problem
    need = min(_params(ctx, PREEMPTIVE_RAID, "lowest_bidder")["destroy_units"], len(_units(state, house)))
    named = sum(len(r.units) for r in removes)
    return None if named == need else Msg("agot.error.remove_exactly", n=need, named=named)


def asks_removes(state: dict, ctx: Ctx, house: str) -> bool:
    """Is ``house`` the lowest bidder of a Preemptive Raid at step ``outcome`` (its REMOVE lines answer it)?"""
    return state["step"] == "outcome" and bool(choices(state, ctx, house, "penalties"))


def _asked(state: dict, ctx: Ctx) -> list[tuple[str, str, list[str]]]:
    return [(h, kind, options) for h, _ in _groups(state) for kind in ASKED
            if (options := choices(state, ctx, h, kind))]


def chosen(state: dict, ctx: Ctx, house: str, kind: str, options: list[str]) -> str | None:
    """The value of ``house``'s last ``kind`` line on file among ``options`` (a line naming something
    else, or sent with a bid when the card drawn asks nothing of it, is not used)."""
    for line in reversed(pos.plan(state, house).get(kind, [])):
        command = ctx.command(line)
        value = _VALUE[kind](command)
        if (_swap_problem(state, ctx, house, command) is None) if kind in ("promotes", "demotes") else value in options:
            return value
    return None


def pending_outcome(state: dict, ctx: Ctx) -> list[Owed]:
    return [Owed(h, Msg(ASKED[kind][0], **{ASKED[kind][1]: [ctx.area(a) for a in options]
                                            if kind in ("promotes", "demotes") else options}), "step",
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
    """Crow Killers: the reward promotes the footmen of the house's PROMOTE line, by default (B32) where
    it has most units; penalties demote the knights of its DEMOTE line (everyone else), by default by
    area name (the lowest bidder: all); a knight with no footman piece left to replace it is destroyed."""
    params = getattr(card, group).params
    limits = {u: pos.unit_limit(state, ctx.gd, house, u) for u in ("footman", "knight")}
    plan = pos.plan(state, house)
    if "promote_footmen" in params:
        picked = chosen(state, ctx, house, "promotes", [])
        plan.pop("promotes", None)
        if picked is not None:
            areas = [a for a, n in picked.areas for _ in range(n)]
        else:
            areas = sorted((a for a, u in _units(state, house) if u == "footman"),
                           key=lambda a: (-len(pos.units_in(state, a, house)), ctx.area(a)))
        done = 0
        for area in areas:
            if done == params["promote_footmen"] or pos.house_units(state, house)["knight"] >= limits["knight"]:
                break
            _swap(state, area, house, "footman", "knight")
            done += 1
        events.append(Event("agot.wildlings.promoted_chosen" if picked is not None else "agot.wildlings.promoted",
                            house=house, n=done))
        return events, True
    asked = group == "everyone_else" and pos.house_units(state, house)["knight"] > params["demote_knights"]
    picked = chosen(state, ctx, house, "demotes", []) if asked else None
    plan.pop("demotes", None)
    knights = sorted((a for a, u in _units(state, house) if u == "knight"), key=ctx.area)
    if picked is not None:
        knights = [a for a, n in picked.areas for _ in range(n)]
    elif params["demote_knights"] != "all":
        knights = knights[:params["demote_knights"]]
        if asked:
            events.append(Event("agot.default.demote", house=house))
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
        picked = chosen(state, ctx, house, "penalties", ["units", "track"])
        removes = [ctx.command(line) for line in pos.plan(state, house).get("removes", [])]
        for key in ("penalties", "removes"):
            pos.plan(state, house).pop(key, None)
        if picked == "track":
            return events + _drop_on_best_track(state, house, params["drop_positions"]), True
        if removes and removes_problem(state, ctx, house, removes) is None:
            removed = bidding.remove_units(state, ctx, house, removes)
            return events + [Event("agot.wildlings.kill", house=house, removed=removed)], True
        if picked is None and _units(state, house):
            events.append(Event("agot.default.penalty", house=house))
        return events + _destroy(state, ctx, house, params["destroy_units"], card.id), True
    return events, True


def _drop_on_best_track(state: dict, house: str, places: int) -> list[Event]:
    """Preemptive Raid's PENALTY TRACK: ``places`` down on the track where the house stands best; ties
    Iron Throne, Fiefdoms, King's Court (our choice: SR lets the Iron Throne holder pick)."""
    track = min(TRACK_ORDER, key=lambda t: (state["tracks"][t].index(house), TRACK_ORDER.index(t)))
    order = state["tracks"][track]
    at = order.index(house)
    order.remove(house)
    order.insert(min(at + places, len(order)), house)
    return [Event("agot.wildlings.track_dropped", house=house, track=track, place=order.index(house) + 1)]


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
