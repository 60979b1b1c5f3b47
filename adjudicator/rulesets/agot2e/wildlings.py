"""The 2nd edition's wildling cards (data ``wildling_cards.yaml``; agot2e RULES.md R4.7, section 11.3):
what follows the bids of a wildling attack, for the shared bidding (``ctx.rules.wildlings``).

After the bids the top card of the wildling deck (``state['wildling_deck']``, shuffled from the game's
seed by ``westeros.new_wildling_deck``, secret) is revealed and resolved, then goes to the bottom: after a Night's Watch win the highest
bidder's reward; after a wildling win the lowest bidder's penalty first, then every other house's in
turn order (FAQ1/FAQ2).

A King Beyond the Wall's track is chosen by ``TRACK``, Massing on the Milkwater's discard by ``DISCARD``,
Crow Killers' footmen by ``PROMOTE`` and knights by ``DEMOTE``, Preemptive Raid's penalty by ``PENALTY
UNITS`` (with ``REMOVE`` lines) or ``PENALTY TRACK``, Mammoth Riders' card by ``RECLAIM`` and its units
by ``REMOVE``, Rattleshirt's Raiders' cut by ``REMOVE``, The Horde Descends' muster by ``MUSTER`` (one castle
area) and its units by ``REMOVE`` (each sent with the bid or asked after the reveal, step ``outcome``;
section 11.3, B30-B35 the defaults, B42 who is asked and which lines serve).
"""

from __future__ import annotations

from collections import Counter

from ...ruleset import Event
from ..agot import bidding
from ..agot import position as pos
from ..agot import westeros
from ..agot.commands import TRACK_SLOTS, Penalty, Promote, Remove
from ..agot.context import Ctx
from ...messages import Msg
from ...ruleset import Owed

TRACK_ORDER = ("iron_throne", "fiefdoms", "kings_court")  # B31: ties for the reward
CROW_KILLERS, PREEMPTIVE_RAID = "knights-and-footmen-swap", "preemptive-raid"  # effect keys with mailed choices
MAMMOTHS, RATTLESHIRT, HORDE = "units-lost-or-card-back", "supply-moves", "muster-or-units-lost"


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
    events += _drop_unasked(state, ctx, card_id)
    if _asked(state, ctx):
        state["step"] = "outcome"
        return events, False
    more, done = resolve_outcome(state, ctx, True)
    return events + more, done


RIDING = ("tracks", "discards", "promotes", "demotes", "penalties")
"""The plan keys of the 2nd edition's own wildling lines, which may ride with the bid before the card is known."""


def _drop_unasked(state: dict, ctx: Ctx, card_id: str) -> list[Event]:
    """The card is revealed: lines sent with the bid that it does not ask of their sender are dropped, and
    the sender is told in its own report (RULES.md 11.2: "the rest is ignored with a note")."""
    events = []
    for house in pos.turn_order(state):
        plan = pos.plan(state, house)
        unused = [line for kind in RIDING if plan.get(kind) and not choices(state, ctx, house, kind)
                  for line in plan.pop(kind)]
        if unused:
            events.append(Event("agot.wildlings.lines_unused", card=card_id, lines=unused, to=(house,)))
    return events


def _groups(state: dict) -> list[tuple[str, str]]:
    """(house, its outcome group) in the order the card resolves them: after a Night's Watch win the
    highest bidder's reward; else the lowest bidder's penalty, then everyone else in turn order (FAQ1/FAQ2)."""
    o = state["westeros"]["outcome"]
    if o["result"] == "won":
        return [(o["pick"], "highest_bidder")]
    return [(o["pick"], "lowest_bidder")] + [(h, "everyone_else") for h in pos.turn_order(state) if h != o["pick"]]


ASKED: dict[str, tuple[str, str]] = {"tracks": ("agot.owed.track", "tracks"), "discards": ("agot.owed.discard", "cards"),
                                     "promotes": ("agot.owed.promote", "areas"), "demotes": ("agot.owed.demote", "areas"),
                                     "penalties": ("agot.owed.penalty", "choices"), "reclaims": ("agot.owed.reclaim", "cards"),
                                     "removes": ("agot.owed.wildling_removes", "areas"),
                                     "musters": ("agot.owed.horde_muster", "areas")}
"""What a card may ask by mail, by the house's plan key of its lines (``TRACK``, ``DISCARD``, ``PROMOTE``,
``DEMOTE``, ``PENALTY``, ``RECLAIM``, ``REMOVE``, ``MUSTER``) -> the owed message and its parameter (the
REMOVE of Rattleshirt's Raiders and of The Horde Descends' lowest bidder have their own, :func:`_owed`)."""

_VALUE = {"tracks": lambda command: TRACK_SLOTS[command.track], "discards": lambda command: command.card_id,
          "promotes": lambda command: command, "demotes": lambda command: command,
          "penalties": lambda command: command.choice, "reclaims": lambda command: command.card_id}


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
        if kind == "reclaims" and card.effect_key == MAMMOTHS and "reclaim_cards" in params \
                and len(state["discards"][house]) >= 2:
            return sorted(state["discards"][house], key=ctx.card)
        if kind == "removes" and card.effect_key in (MAMMOTHS, RATTLESHIRT, HORDE):
            rule = _removal_rule(state, ctx, card, group, house)
            return sorted(rule[2], key=ctx.area) if rule else []
        if kind == "musters" and card.effect_key == HORDE and "muster_areas" in params:
            return sorted({m.area for m in westeros.muster_options(state, ctx, house)}, key=ctx.area)
    return []


def _removal_rule(state: dict, ctx: Ctx, card, group: str, house: str) -> tuple[str, int, list[str]] | None:
    """What REMOVE lines must name for ``house`` in ``group`` of Mammoth Riders, Rattleshirt's Raiders or
    The Horde Descends, when it has a choice: (``"supply"``, the new supply, its areas) for a house over
    the supply the card leaves it, or (``"count"``, n, the areas they may come from) for a house with more
    than the n units the card destroys (The Horde Descends' lowest bidder: one castle area where it has n
    units or more, if it has one, B35)."""
    params = getattr(card, group).params
    units = _units(state, house)
    if card.effect_key == RATTLESHIRT:
        if params["supply"] >= 0:
            return None
        after = _supply_after(state, ctx, house, params["supply"])
        if pos.within_supply(after, ctx.gd, house):
            return None
        return "supply", after["supply"][house], sorted({a for a, _ in units})
    n = params.get("destroy_units")
    if n is None or len(units) <= n:
        return None
    areas = _castle_areas(state, ctx, house, n) if params.get("where") == "castle-area-else-anywhere" else []
    return "count", n, areas or sorted({a for a, _ in units})


def _supply_after(state: dict, ctx: Ctx, house: str, move: int) -> dict:
    """The position with ``house`` moved ``move`` on the supply track (0 to the top)."""
    levels = max(ctx.gd.setup.supply_armies)
    return {**state, "supply": {**state["supply"], house: max(0, min(levels, state["supply"][house] + move))}}


def _castle_areas(state: dict, ctx: Ctx, house: str, n: int) -> list[str]:
    """The castle and stronghold areas where ``house`` has ``n`` units or more (The Horde Descends, B35)."""
    return [a for a, holders in state["areas"].items() if len(holders.get(house, [])) >= n
            and ctx.gd.board.is_land(a) and ctx.gd.board.area(a).castle != "none"]


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
    if kind == "reclaims":
        return f"RECLAIM {ctx.card(pick)}"
    if kind == "removes":
        cut = _default_removal(state, ctx, *_card_and_group(state, ctx, house), house, rng)
        return "\n".join(r.canonical(ctx.names) for r in bidding.as_removes(cut))
    if kind == "musters":
        items = [m for m in westeros.muster_options(state, ctx, house) if m.area == pick]
        return rng.choice(items).canonical(ctx.names) if rng.random() < 0.8 else "MUSTER NONE"
    return _swap_example(state, ctx, house, demote=True)


def removes_problem(state: dict, ctx: Ctx, house: str, removes: list[Remove]) -> Msg | None:
    """The REMOVE lines of a house asked for units at step ``outcome`` (RULES.md R4.7, 11.3): Preemptive
    Raid's two (B6: all, if fewer), anywhere, named by the lines together; for Mammoth Riders, Rattleshirt's
    Raiders and The Horde Descends the lines, in the order written, must come to what the card destroys
    (:func:`_removal_problem`)."""
    card, group = _card_and_group(state, ctx, house)
    if card.effect_key != PREEMPTIVE_RAID:
        check = lambda rs: _removal_problem(state, ctx, card, group, house, rs)  # noqa: E731
        return None if any(check(removes[:k]) is None for k in range(1, len(removes) + 1)) else check(removes)
    return _raid_removes_problem(state, ctx, house, removes)


def _raid_removes_problem(state: dict, ctx: Ctx, house: str, removes: list[Remove]) -> Msg | None:
    """Preemptive Raid's two units (all, if fewer), anywhere, named by the REMOVE lines together."""
    _, problem = bidding.areas_after(state, ctx, house, removes)
    if problem is not None:
        return problem
    need = min(_params(ctx, PREEMPTIVE_RAID, "lowest_bidder")["destroy_units"], len(_units(state, house)))
    named = sum(len(r.units) for r in removes)
    return None if named == need else Msg("agot.error.remove_exactly", n=need, named=named)


def _removal_problem(state: dict, ctx: Ctx, card, group: str, house: str, removes: list[Remove]) -> Msg | None:
    """Why ``removes`` are not what the card destroys of ``house`` (:func:`_removal_rule`): units not there,
    still over the new supply (or a unit not needed), not exactly n units, or (The Horde Descends' lowest
    bidder) not all in one of the castle areas it may lose them in."""
    kind, n, areas = _removal_rule(state, ctx, card, group, house)
    if kind == "supply":
        return bidding.supply_problem(_supply_after(state, ctx, house, getattr(card, group).params["supply"]),
                                      ctx, house, removes)
    _, problem = bidding.areas_after(state, ctx, house, removes)
    if problem is not None:
        return problem
    named = sum(len(r.units) for r in removes)
    if named != n:
        return Msg("agot.error.remove_exactly", n=n, named=named)
    one_area = getattr(card, group).params.get("where") == "castle-area-else-anywhere" and _castle_areas(state, ctx, house, n)
    if any(r.area not in areas for r in removes) or (one_area and len({r.area for r in removes}) != 1):
        return Msg("agot.error.remove_one_castle_area", n=n, areas=[ctx.area(a) for a in areas])
    return None


def _default_removal(state: dict, ctx: Ctx, card, group: str, house: str, rng=None) -> list[tuple[str, str]]:
    """The units the card takes of ``house`` by default (with ``rng``: a random legal choice, for the bot):
    the supply cut of 1e W7 (Rattleshirt's Raiders), else the n weakest (B30), for The Horde Descends'
    lowest bidder in its castle area with most of its units, ties by name (B35)."""
    params = getattr(card, group).params
    if card.effect_key == RATTLESHIRT:
        return bidding.default_supply_cut(_supply_after(state, ctx, house, params["supply"]), ctx, house, rng)
    n, areas = params["destroy_units"], None
    if params.get("where") == "castle-area-else-anywhere":
        castles = _castle_areas(state, ctx, house, n)
        if castles:
            areas = {rng.choice(sorted(castles)) if rng else
                     min(castles, key=lambda a: (-len(pos.units_in(state, a, house)), ctx.area(a)))}
    units = _units(state, house, areas)
    if rng:
        return rng.sample(units, min(n, len(units)))
    return sorted(units, key=lambda au: (bidding.WEAKEST_FIRST.index(au[1]), ctx.area(au[0])))[:n]


def asks_removes(state: dict, ctx: Ctx, house: str) -> bool:
    """Is ``house`` asked for units at step ``outcome`` (Preemptive Raid's lowest bidder, or a house with a
    choice of the units Mammoth Riders, Rattleshirt's Raiders or The Horde Descends destroy)?"""
    return state["step"] == "outcome" and bool(choices(state, ctx, house, "penalties") or choices(state, ctx, house, "removes"))


def removes_example(state: dict, ctx: Ctx, house: str) -> str | None:
    """The first line of the default removal of a house asked for units (a refused REMOVE's example)."""
    card, group = _card_and_group(state, ctx, house)
    if card.effect_key == PREEMPTIVE_RAID:
        return None
    cut = bidding.as_removes(_default_removal(state, ctx, card, group, house))
    return cut[0].canonical(ctx.names) if cut else None


def reclaim_asked(state: dict, ctx: Ctx, house: str) -> bool:
    """Is ``house`` asked at step ``outcome`` for the card Mammoth Riders gives back (RECLAIM)?"""
    return state["step"] == "outcome" and bool(choices(state, ctx, house, "reclaims"))


def musters_asked(state: dict, ctx: Ctx, house: str) -> bool:
    """Is ``house`` asked at step ``outcome`` for The Horde Descends' muster (MUSTER, one castle area)?"""
    return state["step"] == "outcome" and bool(choices(state, ctx, house, "musters"))


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
    return [Owed(h, _owed(state, ctx, h, kind, options), "step", _answered(state, ctx, h, kind, options))
            for h, kind, options in _asked(state, ctx)]


def _owed(state: dict, ctx: Ctx, house: str, kind: str, options: list[str]) -> Msg:
    """What ``house`` is asked (:data:`ASKED`; units by how the card takes them)."""
    if kind == "removes":
        card, group = _card_and_group(state, ctx, house)
        how, n, areas = _removal_rule(state, ctx, card, group, house)
        if how == "supply":
            return Msg("agot.owed.supply", supply=bidding.supply_text(_supply_after(
                state, ctx, house, getattr(card, group).params["supply"]), ctx, house))
        one = getattr(card, group).params.get("where") == "castle-area-else-anywhere" and bool(_castle_areas(state, ctx, house, n))
        return Msg("agot.owed.horde_removes" if one else "agot.owed.wildling_removes", card=card.id, n=n,
                   areas=[ctx.area(a) for a in options])
    return Msg(ASKED[kind][0], **{ASKED[kind][1]: [ctx.area(a) for a in options]
                                  if kind in ("promotes", "demotes", "musters") else options})


def _answered(state: dict, ctx: Ctx, house: str, kind: str, options: list[str]) -> bool:
    if kind == "removes":
        return _usable_removes(state, ctx, *_card_and_group(state, ctx, house), house) is not None
    if kind == "musters":
        return _horde_muster(state, ctx, house) is not None
    return chosen(state, ctx, house, kind, options) is not None


def _card_and_group(state: dict, ctx: Ctx, house: str):
    """The card being resolved and ``house``'s group on it (step ``outcome``)."""
    return ctx.gd.wildling_cards[state["westeros"]["outcome"]["card"]], dict(_groups(state))[house]


def _usable_removes(state: dict, ctx: Ctx, card, group: str, house: str) -> int | None:
    """How many of ``house``'s REMOVE lines on file, in the order written, make what the card destroys."""
    return bidding.usable_prefix(state, ctx, house, lambda rs: _removal_problem(state, ctx, card, group, house, rs))


def _horde_muster(state: dict, ctx: Ctx, house: str) -> str | None:
    """``house``'s last MUSTER line on file that The Horde Descends can use now: ``MUSTER NONE``, or a
    legal muster in one castle area (the lines of other castles are not used)."""
    for line in reversed(pos.plan(state, house).get("musters") or []):
        muster = ctx.command(line)
        if muster.area is None or westeros.muster_problem(state, ctx, house, muster) is None:
            return line
    return None


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
    """Mammoth Riders: the reward takes back the RECLAIM line's card, by default the strongest discard
    (= 1e W10); penalties destroy the units of the REMOVE lines, by default the weakest (B30)."""
    params = getattr(card, group).params
    if "reclaim_cards" in params:
        discards = state["discards"][house]
        picked = chosen(state, ctx, house, "reclaims", list(discards))
        pos.plan(state, house)["reclaims"] = []
        if discards:
            if picked is None and len(discards) >= 2:
                events.append(Event("agot.default.reclaim", house=house))
            back = picked or bidding.default_reclaim(state, ctx, house)
            discards.remove(back)
            state["hands"][house].append(back)
            events.append(Event("agot.wildlings.reclaimed", house=house, card=back))
        else:
            events.append(Event("agot.wildlings.nothing_to_reclaim", house=house))
        return events, True
    return events + _destroy_chosen(state, ctx, card, group, house, "agot.default.losses"), True


def _destroy_chosen(state: dict, ctx: Ctx, card, group: str, house: str, note: str) -> list[Event]:
    """The units the card destroys of ``house``: its REMOVE lines on file if they make them (the fewest
    in the order written), else the default (:func:`_default_removal`), with ``note`` when the house had
    a choice."""
    plan = pos.plan(state, house)
    asked = _removal_rule(state, ctx, card, group, house) is not None
    k = _usable_removes(state, ctx, card, group, house) if asked else None
    events = []
    if k is not None:
        removes = [ctx.command(line) for line in plan["removes"][:k]]
    else:
        removes = bidding.as_removes(_default_removal(state, ctx, card, group, house))
        if asked:
            events.append(Event(note, house=house))
    plan["removes"] = []
    if not removes:
        return events
    return events + [Event("agot.wildlings.kill", house=house, removed=bidding.remove_units(state, ctx, house, removes))]


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
        if removes and _raid_removes_problem(state, ctx, house, removes) is None:
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
    """Rattleshirt's Raiders: the supply track moves; a house over its new limit removes the units of its
    REMOVE lines, by default the supply cut of 1e W7."""
    params = getattr(card, group).params
    cut = _destroy_chosen(state, ctx, card, group, house, "agot.default.supply")
    levels = max(ctx.gd.setup.supply_armies)
    state["supply"][house] = max(0, min(levels, state["supply"][house] + params["supply"]))
    events.append(Event("agot.wildlings.supply", house=house, supply=state["supply"][house]))
    return events + cut, True


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
    """The Horde Descends: the reward musters by the house's MUSTER line (one castle area), by default
    nothing; the lowest bidder loses 2 units in one castle area (B35), else anywhere; everyone else 1
    (B30); each by its REMOVE lines or the default."""
    if group == "highest_bidder":
        plan = pos.plan(state, house)
        line = _horde_muster(state, ctx, house)
        if line is None:
            events.append(Event("agot.wildlings.no_muster", house=house))
            return events, True
        plan["musters"] = [m for m in plan.get("musters") or [] if m != line]
        muster = ctx.command(line)
        if muster.area is None:
            events.append(Event("agot.westeros.musters_nothing", house=house))
        else:
            events.append(Event("agot.westeros.musters", house=house, done=[westeros._apply_muster(state, ctx, house, muster)]))
        return events, True
    note = "agot.default.horde" if getattr(card, group).params.get("where") else "agot.default.losses"
    return events + _destroy_chosen(state, ctx, card, group, house, note), True


_HANDLERS = {"influence-track-moves": _tracks, "knights-and-footmen-swap": _crow_killers,
             "units-lost-or-card-back": _mammoths, "house-cards-lost-or-back": _milkwater,
             "preemptive-raid": _preemptive, "supply-moves": _rattleshirt, "nothing": _nothing,
             "power-lost-or-back": _skinchanger, "muster-or-units-lost": _horde}
"""effect_key -> its handler (every key of wildling_cards.yaml; the test checks it)."""
