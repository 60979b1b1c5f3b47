"""Rules-case positions (``shared/CASES.md``) to states and back.

A case names areas, units and cards as players write them; the state holds ids. Omitted keys
take the standard setup for the case's ``players``; ``areas`` given means every area not listed
is empty. An illegal position (two houses in one area, more units than a house owns, an order
where no unit of that house stands) is refused with the reason.

Besides the position keys, an expectation may name ``controllers``: area -> the house that
controls it (by units, power token or home crest) or null, a derived view for control rules.

Westeros keys: ``westeros_cards`` ({I: Supply, II: Clash of Kings, III: Wildling Attack}), with
``step: westeros``, the three cards revealed this round instead of drawing them (nothing is
resolved yet: the mammoths move on the first step); with another step, the cards this round's
Westeros phase revealed and resolved already (only the record: agot2e-ru's rebellion reads it); ``decks`` ({I: [Supply, Mustering]}) the top
cards of a deck, the rest following in the seeded order; ``restrictions`` ([Rains of Autumn] or
order kinds) a Westeros card's restriction already in force this round (for a case that starts
after the Westeros phase). As expectations, ``westeros_cards`` and ``decks`` are compared by card
name and ``restrictions`` as the state holds it.

2nd-edition keys: ``garrisons`` ({Winterfell: 2}) the garrison tokens standing (default: every playing
house's); ``wildling_deck`` ([Crow Killers, ...]) the top wildling cards in order; ``tides_of_battle``
(true: the option is on) with ``tides_next`` ([skull, plus-three]) the next combat's Tides of Battle
cards, the attacker's first; ``impassable`` (an expectation only: the closed areas).
"""

from __future__ import annotations

from collections import Counter

from ...cases import check_shapes, diff_values
from ...ruleset import RulesetError
from . import position as pos
from .board import UnknownName
from .context import ctx_of
from .edition import Edition
from .grammar import GameDataNames, parse_order_token
from .newgame import initial_state
from . import westeros

STEPS = {"planning": ("planning", "orders"), "action": ("action", "raid"), "westeros": ("westeros", "westeros")}


def _area(names: GameDataNames, text) -> str:
    try:
        return names.resolve_area(str(text))
    except UnknownName as exc:
        raise RulesetError(str(exc)) from None


def _card(gd, house: str, text) -> str:
    try:
        return gd.resolve_card(str(text), house).id
    except UnknownName as exc:
        raise RulesetError(str(exc)) from None


POSITION_SHAPES = {  # key -> (shape, example): cases.check_shapes, before the position is read
    "players": (list[str], "players: [stark, lannister, baratheon]"),
    "seed": (int, "seed: 7"),
    "round": (int, "round: 3"),
    "step": (str, "step: action"),
    "tracks": (dict[str, list[str]], "tracks: {iron_throne: [baratheon, lannister, stark]}"),
    "supply": (dict[str, int], "supply: {stark: 2}"),
    "power": (dict[str, int], "power: {stark: 5}"),
    "wildlings": (int, "wildlings: 4"),
    "areas": (dict[str, dict[str, list[str]]], "areas: {Winterfell: {stark: [footman, knight]}}"),
    "control": (dict[str, str], "control: {Lannisport: lannister}"),
    "neutral": (dict[str, int], "neutral: {The Eyrie: 6}"),
    "garrisons": (dict[str, int], "garrisons: {Winterfell: 2}"),
    "routed": (dict[str, list[str]], "routed: {Seagard: [footman]}"),
    "orders": (dict[str, str], "orders: {Winterfell: march +1}"),
    "hands": (dict[str, list[str]], "hands: {stark: [Eddard Stark, Robb Stark]}"),
    "discards": (dict[str, list[str]], "discards: {stark: [Catelyn Stark]}"),
    "blade_used": (bool, "blade_used: true"),
    "decks": (dict[str, list[str]], "decks: {I: [Supply, Mustering]}"),
    "tides_of_battle": (bool, "tides_of_battle: true"),
    "tides_next": (list[str], "tides_next: [skull, plus-three]"),
    "wildling_deck": (list[str], "wildling_deck: [Crow Killers, Massing on the Milkwater]"),
    "restrictions": (list[str], "restrictions: [Rains of Autumn]"),
    "westeros_cards": (dict[str, str], "westeros_cards: {I: Supply, II: Clash of Kings, III: Wildling Attack}"),
}


def _in_play(state: dict, text: str, where: str) -> str:
    """The house ``text`` names, which must be playing (a house key or value of the position)."""
    house = text.lower()
    if house not in state["houses"]:
        raise RulesetError(f"{where}: {house!r} is not in play (houses: {', '.join(state['houses'])})")
    return house


def _houses(rules: Edition, position: dict) -> list[str]:
    return [h.lower() for h in position.get("players") or rules.gamedata().setup.houses]


def case_state(rules: Edition, position: dict, options: dict[str, str] | None = None) -> dict:
    """The state of a rules case's ``position``; ``options``: a variant's game options (agot2e-ru), known
    before the position is read (an order on a power token alone needs ``orders-in-token-areas``)."""
    check_shapes(position, POSITION_SHAPES)
    houses = _houses(rules, position)
    state = initial_state(rules, houses, seed=int(position.get("seed", 0)))
    if options is not None:
        state["options"] = options
    ctx = ctx_of(state)
    gd, names = ctx.gd, ctx.names
    state["round"] = int(position.get("round", 1))
    step = position.get("step", "planning")
    if step not in STEPS:
        raise RulesetError(f"unknown step {step!r} (planning, action or westeros)")
    state["phase"], state["step"] = STEPS[step]
    for track, order in (position.get("tracks") or {}).items():
        if track not in state["tracks"]:
            raise RulesetError(f"unknown track {track!r}")
        order = [h.lower() for h in order or []]
        if sorted(order) != sorted(state["houses"]):
            raise RulesetError(f"track {track} must order exactly the houses in play: {', '.join(state['houses'])}")
        state["tracks"][track] = order
    for key in ("supply", "power"):
        for house, value in (position.get(key) or {}).items():
            state[key][_in_play(state, house, f"{key}.{house}")] = int(value)
    if "wildlings" in position:
        state["wildlings"] = int(position["wildlings"])
    if "areas" in position:
        state["areas"] = {}
        for text, holders in (position["areas"] or {}).items():
            area = _area(names, text)
            holders = {_in_play(state, h, f"areas.{text}.{h}"): list(u) for h, u in (holders or {}).items() if u}
            if len(holders) > 1:
                raise RulesetError(f"two houses in {gd.board.name(area)}: {', '.join(holders)}")
            for house, units in holders.items():
                if set(units) - set(pos.UNIT_ORDER):
                    raise RulesetError(f"unknown unit in {gd.board.name(area)}: {units}")
                if gd.board.is_land(area) == all(u == "ship" for u in units):
                    raise RulesetError(f"{gd.board.name(area)}: ships only at sea, footmen and knights only on land")
                state["areas"][area] = {house: pos.sort_units(units)}
    for house in state["houses"]:
        over = {u: n for u, n in pos.house_units(state, house).items()
                if u in gd.setup.unit_limits and n > pos.unit_limit(state, gd, house, u)}  # (sellswords: agot2e-ru's)
        if over:
            raise RulesetError(f"{house} has more units than it owns: {over}")
    if "control" in position:
        state["control"] = {}
        for text, house in (position["control"] or {}).items():
            area = _area(names, text)
            if not gd.board.is_land(area):
                raise RulesetError(f"a power token cannot hold a sea area or a port ({gd.board.name(area)})")
            state["control"][area] = _in_play(state, house, f"control.{text}")
    if "neutral" in position:
        state["neutral"] = {_area(names, a): int(s) for a, s in (position["neutral"] or {}).items()}
    if "garrisons" in position:  # 2e: the garrison tokens still standing (default: every playing house's)
        state["garrisons"] = {_area(names, a): int(s) for a, s in (position["garrisons"] or {}).items()}
    for text, units in (position.get("routed") or {}).items():
        area = _area(names, text)
        units = units or []
        if Counter(units) - Counter(pos.units_in(state, area, pos.owner(state, area) or "")):
            raise RulesetError(f"routed units {units} are not in {gd.board.name(area)}")
        state["routed"][area] = pos.sort_units(units)
    for text, token in (position.get("orders") or {}).items():
        area = _area(names, text)
        if pos.order_owner(state, area) is None:
            raise RulesetError(f"an order in {gd.board.name(area)}, where no unit stands")
        try:
            state["orders"][area] = parse_order_token(token).canonical()
        except ValueError as exc:
            raise RulesetError(f"{gd.board.name(area)}: {exc}") from None
    for key in ("hands", "discards"):
        for house, cards in (position.get(key) or {}).items():
            house = _in_play(state, house, f"{key}.{house}")
            state[key][house] = [_card(gd, house, c) for c in cards or []]
    if "discards" in position and "hands" not in position:
        for house in state["houses"]:
            state["hands"][house] = [c for c in state["hands"][house] if c not in state["discards"][house]]
    for house in state["houses"]:
        if Counter(state["hands"][house]) & Counter(state["discards"][house]):
            raise RulesetError(f"{house} has a card both in hand and in discards")
    if position.get("blade_used"):
        state["blade_used"] = True
    for deck, cards in (position.get("decks") or {}).items():
        deck = _deck(deck)
        rest = list(state["decks"][deck])
        top = []
        for text in cards or []:
            card = _westeros_card(gd, deck, text)
            if card not in rest:
                raise RulesetError(f"deck {deck} has no more copies of {gd.westeros_cards[card].name}")
            rest.remove(card)
            top.append(card)
        state["decks"][deck] = top + rest
    if position.get("tides_of_battle"):  # 2e option: on, and the next combat's cards (attacker's first)
        state["tides_of_battle"] = True
        state["tides_next"] = [_tides_card(gd, text) for text in position.get("tides_next") or []]
    if "wildling_deck" in position:  # 2e: these wildling cards on top, in this order, the rest after
        top = [_wildling_card(gd, text) for text in position["wildling_deck"] or []]
        state["wildling_deck"] = top + [c for c in state["wildling_deck"] if c not in top]
    for text in position.get("restrictions") or []:
        for kind in _restriction(gd, text):
            if kind not in state["restrictions"]:
                state["restrictions"].append(kind)
    given = position.get("westeros_cards")
    if given is not None:
        if not isinstance(given, dict) or sorted(map(_deck, given)) != sorted(westeros.DECKS):
            raise RulesetError("westeros_cards names one card for each deck: {I: ..., II: ..., III: ...}")
        given = {_deck(d): _westeros_card(gd, _deck(d), c) for d, c in given.items()}
        if step != "westeros":  # the cards this round's Westeros phase revealed, resolved already (agot2e-ru's rebellion reads them)
            state["westeros"] = {"cards": given, "mammoths": 0, "deck": None}
    if step == "westeros":
        westeros.reveal(state, ctx, given)
        for text in position.get("restrictions") or []:
            for kind in _restriction(gd, text):
                if kind not in state["restrictions"]:
                    state["restrictions"].append(kind)
    return state


def _deck(text) -> str:
    deck = str(text).strip().upper()
    if deck not in westeros.DECKS:
        raise RulesetError(f"unknown Westeros deck {text!r} (I, II or III)")
    return deck


def _westeros_card(gd, deck: str, text) -> str:
    """The id of the Westeros card ``text`` names (name or id, any case) in ``deck``."""
    folded = " ".join(str(text).replace("-", " ").split()).casefold()
    for card_id, card in gd.westeros_cards.items():
        if folded in (card.name.casefold(), card_id.replace("-", " ")):
            if card_id not in [c for c, _ in gd.westeros_decks[deck].copies()]:
                raise RulesetError(f"{card.name} is not in Westeros deck {deck}")
            return card_id
    names = ", ".join(c.name for c in gd.westeros_cards.values())
    raise RulesetError(f"unknown Westeros card {text!r} (cards: {names})")


def _tides_card(gd, text) -> str:
    folded = " ".join(str(text).replace("-", " ").split()).casefold()
    for card_id, card in gd.tides_of_battle.items():
        if folded in (card.name.casefold().replace("-", " "), card_id.replace("-", " ")):
            return card_id
    raise RulesetError(f"unknown Tides of Battle card {text!r} (cards: {', '.join(gd.tides_of_battle)})")


def _wildling_card(gd, text) -> str:
    folded = " ".join(str(text).replace("-", " ").split()).casefold()
    for card_id, card in gd.wildling_cards.items():
        if folded in (card.name.casefold(), card_id.replace("-", " ")):
            return card_id
    names = ", ".join(c.name for c in gd.wildling_cards.values()) or "none in this edition"
    raise RulesetError(f"unknown wildling card {text!r} (cards: {names})")


def _restriction(gd, text) -> list[str]:
    """A restriction written as a Westeros card's name or as what the state holds (an order kind, or
    in 2e an order token): the entries it puts in ``state['restrictions']``."""
    folded = " ".join(str(text).replace("-", " ").split()).casefold()
    named = []
    for card_id, card in gd.westeros_cards.items():
        kinds = westeros.restrictions_of(gd, card_id)
        if kinds:
            named.append(card.name)
            if folded in (card.name.casefold(), card_id.replace("-", " "), *(k.replace("-", " ") for k in kinds)):
                return kinds
    raise RulesetError(f"unknown restriction {text!r} ({', '.join(named)})")


def case_done(start: dict, state: dict, until: str) -> bool:
    if until == "end of step":
        return True
    if until == "end of round":
        return state["round"] > start["round"]
    order = ("westeros", "planning", "action")  # the phases of a round, in order
    for phase in order:
        if until == f"end of {phase}":
            if state["round"] > start["round"] or state["winner"] is not None:
                return True
            at = order.index(start["phase"]) if start["phase"] in order else 0
            return at <= order.index(phase) and state["phase"] in order and order.index(state["phase"]) > order.index(phase)
    if until == "end of game":
        return False
    raise RulesetError(f"unknown until {until!r}")


def _public(state: dict, key: str):
    """A state key shaped like the case format: display names, sorted where order means nothing."""
    ctx = ctx_of(state)
    name, card = ctx.gd.board.name, ctx.card
    if key == "areas":
        return {name(a): {h: list(u) for h, u in holders.items()} for a, holders in state["areas"].items()}
    if key in ("routed",):
        return {name(a): list(u) for a, u in state[key].items()}
    if key in ("control", "neutral", "orders", "garrisons"):
        return {name(a): v for a, v in (state.get(key) or {}).items()}
    if key == "impassable":
        return sorted(name(a) for a in state.get(key) or ())
    if key in ("hands", "discards"):
        return {h: sorted(card(c) for c in cards) for h, cards in state[key].items()}
    if key == "controllers":  # derived: who controls each land area (units, power token, home)
        return {name(a): pos.controller(state, ctx.gd, a) for a in ctx.gd.board.land_areas}
    if key == "step":
        return state["phase"] if state["phase"] != "action" else "action"
    if key == "westeros_cards":
        cards = (state.get("westeros") or {}).get("cards")
        return {d: ctx.gd.westeros_cards[c].name for d, c in cards.items()} if cards else None
    if key == "decks":
        return {d: [ctx.gd.westeros_cards[c].name for c in cards] for d, cards in state["decks"].items()}
    if key == "wildling_deck":
        return [ctx.gd.wildling_cards[c].name for c in state.get("wildling_deck") or []]
    return state.get(key)


def _normal(state: dict, key: str, expected):
    """The expectation with names resolved the same way, so that prefixes and aliases match."""
    ctx = ctx_of(state)
    if key in ("areas", "routed", "control", "controllers", "neutral", "orders", "garrisons") \
            and isinstance(expected, dict):
        out = {}
        for text, value in expected.items():
            area = ctx.gd.board.name(_area(ctx.names, text))
            if key == "areas":
                value = {str(h).lower(): pos.sort_units(u) for h, u in (value or {}).items() if u} or None
            elif key == "routed":
                value = pos.sort_units(value or []) or None
            elif key == "orders" and value is not None:
                value = parse_order_token(str(value)).canonical()
            out[area] = value
        return out
    if key == "impassable" and isinstance(expected, list):
        return sorted(ctx.gd.board.name(_area(ctx.names, t)) for t in expected)
    if key in ("hands", "discards") and isinstance(expected, dict):
        return {str(h).lower(): sorted(ctx.card(_card(ctx.gd, str(h).lower(), c)) for c in cards or [])
                for h, cards in expected.items()}
    return expected


def case_compare(state: dict, key: str, expected) -> list[str]:
    try:
        want = _normal(state, key, expected)
    except RulesetError as exc:
        return [f"{key}: {exc}"]
    have = _public(state, key)
    if key in ("areas", "routed") and isinstance(want, dict):
        # an area expected empty (null or {}) must hold nothing
        have = {a: have.get(a) for a in want}
        for a, v in have.items():
            if isinstance(v, dict):
                have[a] = {h: pos.sort_units(u) for h, u in v.items()}
    return diff_values(key, want, have)
