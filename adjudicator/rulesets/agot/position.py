"""Reading and changing an AGoT position (either edition): the state dict every step module works on.

The state is plain YAML-serialisable data keyed by ids (areas ``kings-landing``, houses
``stark``, cards ``tywin-lannister``), so it is stored as it is and compared in replays:

=================  ==============================================================================
``edition``        ``agot1e`` | ``agot2e`` (absent in agot1e games stored before the editions split)
``data_version``   the data the game was created with (``games/<edition>/<version>``)
``houses``         houses in play
``round``          1..10 (11 once the game is over)
``phase``          ``westeros`` | ``planning`` | ``action`` | ``over``
``step``           the step within the phase: ``westeros``, ``supply``, ``muster``, ``bid``, ``tiebreak``,
                   ``wildlings``, ``losses``, ``reclaim`` (``westeros.py``); ``orders``, ``raven``; ``raid``,
                   ``march``, ``battle``, ``consolidate`` (see ``engine.py``); ``over``
``tracks``         ``iron_throne``, ``fiefdoms``, ``kings_court``: houses, position 1 first
``power``          available power tokens per house
``supply``         supply level per house
``wildlings``      the wildling threat
``areas``          area -> {house: [units]} (one house per area; units sorted)
``routed``         area -> [units] routed this round (a sub-list of that area's units)
``control``        area -> house: power tokens laid on land areas
``neutral``        area -> strength of the neutral force token still there (agot2e-ru: also the rebels'; a
                   home area under one is nobody's, :func:`controller`)
``garrisons``      area -> strength of a garrison token still there (2e; absent or empty in agot1e)
``impassable``     areas closed for the whole game (2e, 3 players; absent or empty in agot1e)
``orders``         area -> order token text (``march -1``, ``raid*``): placed orders, public once revealed
``hands``          house -> card ids in hand;   ``discards``: house -> card ids played
``blade_used``     the Valyrian Steel Blade was used this round
``plans``          house -> what the house sent (orders, instructions sent ahead): SECRET
``turn``           index into the Iron Throne track of the house whose raid/march is next
``battle``         the battle being fought, or None (``battle.py``)
``march_battles``  agot2e-ru ``multi-battle-march``: the battles a march has still to fight, in order (absent: none)
``restrictions``   order kinds forbidden this round by a Westeros card (and ``rains-of-autumn``)
``decks``          Westeros deck -> card ids, top first: SECRET (views show the sizes)
``reshuffles``     Westeros deck -> how often Winter Is Coming reshuffled it (seeds the next shuffle)
``westeros``       this round's Westeros phase: cards, bids, ties, losses (``westeros.py``), or None
``winner``         a house, ``draw`` or None
``port_takeover``  2e: [{house, castle}]: taken ports whose new owners are asked how many ships to replace,
                   the first asked now (``takeover.py``); absent otherwise
``rebellion``      agot2e-ru ``rebellion``: {card, houses} while the houses asked name their areas
                   (``rebellion.py``); absent otherwise
``hand``           agot2e-ru ``hand-of-the-king``: the Hand's house while it is asked (``hand.py``); absent otherwise
=================  ==============================================================================
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from .edition import edition_of
from .gamedata import GameData

UNIT_ORDER = ("footman", "knight", "ship", "siege_engine", "sellsword")  # siege engines: 2nd edition;
# sellswords: agot2e-ru's mercenaries, a hired company's units (agot/mercenaries.py), outside the supply limit


_RANK = {unit: i for i, unit in enumerate(UNIT_ORDER)}.__getitem__
"""A unit's place in :data:`UNIT_ORDER` (a KeyError for no unit: a dict's lookup, faster than the tuple's ``index``)."""


def sort_units(units: Iterable[str]) -> list[str]:
    """A new list of ``units`` in the rulebook's order."""
    out = list(units)
    if len(out) > 1:  # (most lists a battle reports hold one unit)
        out.sort(key=_RANK)
    return out


# -- units ---------------------------------------------------------------------------------------


def occupant(state: dict, area: str) -> tuple[str, list[str]] | None:
    """The house with units in ``area`` and its units, or None."""
    holders = state["areas"].get(area)
    if holders:
        for house, units in holders.items():
            if units:
                return house, units
    return None


def owner(state: dict, area: str) -> str | None:
    """The house with units in ``area``, or None (the engine's most frequent question: no tuple built)."""
    holders = state["areas"].get(area)
    if holders:
        for house, units in holders.items():
            if units:
                return house
    return None


def order_owner(state: dict, area: str) -> str | None:
    """The house whose order stands, or may stand, in ``area``: the house with units there; with the
    agot2e-ru option ``orders-in-token-areas`` also the house whose power token holds an area without
    units (RULES.md V25)."""
    holders = state["areas"].get(area)  # (owner's loop, without the call: asked some 20 times a battle)
    if holders:
        for house, units in holders.items():
            if units:
                return house
    if (state.get("options") or {}).get("orders-in-token-areas") == "yes":
        return state["control"].get(area)
    return None


def units_in(state: dict, area: str, house: str) -> list[str]:
    return list((state["areas"].get(area) or {}).get(house, []))


def set_units(state: dict, area: str, house: str, units: Iterable[str]) -> None:
    """Put exactly ``units`` of ``house`` in ``area`` (an empty list clears the area)."""
    units = sort_units(units)
    if units:
        state["areas"][area] = {house: units}
    else:
        state["areas"].pop(area, None)
    routed = state["routed"].get(area)
    if routed:
        kept = list((Counter(routed) & Counter(units)).elements())
        if kept and units:
            state["routed"][area] = sort_units(kept)
        else:
            state["routed"].pop(area, None)


def minus(units: Iterable[str], taken: Iterable[str]) -> list[str]:
    """``units`` less ``taken``, as many of each kind as ``units`` hold (``Counter``'s ``-`` in the order
    of ``units``, without building Counters: marches and battles ask it at every step)."""
    left = list(units)
    for unit in taken:
        if unit in left:
            left.remove(unit)
    return left


def remove_units(state: dict, area: str, units: Iterable[str]) -> None:
    """Take ``units`` out of ``area`` (routed ones first, since they are the same kind of unit)."""
    found = occupant(state, area)
    if not found:
        return
    house, present = found
    if area not in state["routed"]:  # the usual case: no routed marks to keep in step
        set_units(state, area, house, minus(present, units))
        return
    left = Counter(present)
    left.subtract(Counter(units))
    routed = Counter(state["routed"].get(area, []))
    routed.subtract(Counter(units))
    set_units(state, area, house, list((+left).elements()))
    if area in state["routed"] or +routed:
        still = list((+routed).elements())
        if still and occupant(state, area):
            state["routed"][area] = sort_units(still)
        else:
            state["routed"].pop(area, None)


def add_units(state: dict, area: str, house: str, units: Iterable[str], *, routed: bool = False) -> None:
    set_units(state, area, house, units_in(state, area, house) + list(units))
    if routed:
        state["routed"][area] = sort_units(state["routed"].get(area, []) + list(units))


def routed_in(state: dict, area: str) -> list[str]:
    return list(state["routed"].get(area, []))


def unrouted(state: dict, area: str, house: str | None = None) -> list[str]:
    """The units of ``house`` (default: whoever holds ``area``) in ``area`` that are not routed, in the
    rulebook's order: those that may march, support and defend (CZ p.11). Most areas have no routed
    mark, and then nothing is counted (battles ask this at every step)."""
    holders = state["areas"].get(area)
    if not holders:
        return []
    if house is None:  # (owner's loop, without the call)
        for house, units in holders.items():
            if units:
                break
        else:
            house = None
    units = holders.get(house) or []
    routed = state["routed"].get(area)
    if not routed:
        return list(units)
    return sort_units((Counter(units) - Counter(routed)).elements())


def house_units(state: dict, house: str) -> Counter:
    """How many of each unit ``house`` has on the board."""
    return Counter([unit for holders in state["areas"].values() for unit in holders.get(house, ())])


def holdings(state: dict) -> dict[str, dict[str, list[str]]]:
    """house -> area -> its units there, for every house with units, in one pass over the board: the
    occupancy seen from the houses' side, for questions about every house at once (the invariants,
    after every step). Derived when asked and never stored, so it cannot drift from ``state['areas']``."""
    out: dict[str, dict[str, list[str]]] = {}
    for area, holders in state["areas"].items():
        for house, units in holders.items():
            if units:
                out.setdefault(house, {})[area] = units
    return out


def closed(state: dict, gd: GameData, area: str) -> bool:
    """2e, 3 players: an impassable area, or the port of one (RULES.md R3.3); never entered."""
    shut = state.get("impassable")
    return bool(shut) and (area in shut or gd.board.area(area).port_of in shut)


def ships_may_enter(state: dict, gd: GameData, house: str, area: str) -> bool:
    """Ships of ``house`` may enter ``area`` (a sea or a port): any open sea; a port (2e) only while
    ``house`` controls its castle area (RULES.md R6.3, B9) and it is open."""
    port = gd.board.area(area)
    if closed(state, gd, area):
        return False
    return port.kind != "port" or controller(state, gd, port.port_of) == house


def port_room(state: dict, gd: GameData, house: str, area: str, ships: int) -> bool:
    """``ships`` more ships of ``house`` fit in ``area``: always at sea, at most ``port_max_ships`` in a port (2e)."""
    if gd.board.area(area).kind != "port":
        return True
    return len(state["areas"].get(area, {}).get(house, [])) + ships <= gd.setup.port_max_ships


def occupier(state: dict, gd: GameData, area: str) -> str | None:
    """Whom a march into ``area`` attacks: the house with units there or, in 2e, the house whose garrison
    stands alone in its home area (agot2e RULES.md B14); None for an empty area."""
    held = owner(state, area)
    if held is None and (state.get("garrisons") or {}).get(area):
        return gd.board.area(area).home_of
    return held


def unit_limit(state: dict, gd: GameData, house: str, unit: str) -> int:
    """How many ``unit`` pieces ``house`` has: the data's, or (agot2e-ru ``variant-units``) the per-house
    limits recorded at creation in ``state["unit_limits"]``."""
    return (state.get("unit_limits") or {}).get(house, gd.setup.unit_limits).get(unit, 0)  # (no sellsword is a house's own)


def port_to_take(state: dict, gd: GameData, house: str, castle: str) -> tuple[str, int, int] | None:
    """2e: ``house`` has just taken ``castle``: (the owner of the other house's ships in its port, how
    many there are, how many of them ``house`` may replace: its unused ships within its supply), or
    None when there is nothing to take (agot2e RULES.md R6.5)."""
    port = gd.board.port(castle)
    held = owner(state, port) if port else None
    if held in (None, house):
        return None
    ships = len(units_in(state, port, held))
    room = unit_limit(state, gd, house, "ship") - house_units(state, house)["ship"]
    away = attacking_off_board(state, house)
    most = next((k for k in range(min(ships, room), 0, -1) if supply_after(state, gd, house, {**away, port: ["ship"] * k})), 0)
    return held, ships, most


def attacking_off_board(state: dict, house: str) -> dict[str, list[str]]:
    """``house``'s attackers off the board until their battle, by battle area (another house's: they are
    all ``house`` has there): the battle's, and the agot2e-ru ``multi-battle-march`` battles still waiting.
    They count for supply (CZ p.9: the attackers form an army there), so a port taken meanwhile is not
    refilled beyond it."""
    out = {}
    fight = state.get("battle")
    waiting = [(b["area"], b["attacker"], b["units"]) for b in state.get("march_battles") or ()]
    if fight:
        waiting.append((fight["area"], fight["attacker"], fight["units"]))
    for area, attacker, units in waiting:
        if attacker == house and units:
            out[area] = list(units)
    return out


def take_port(state: dict, gd: GameData, house: str, castle: str, want: int | None = None) -> tuple[str, int, int] | None:
    """2e: the other house's ships in the port of ``castle``, just taken by ``house``, are destroyed and
    ``house`` replaces ``want`` of them (None: as many as allowed, B10; more than allowed: the most).
    Returns (the old ships' owner, how many ships were there, how many are replaced) or None."""
    found = port_to_take(state, gd, house, castle)
    if found is None:
        return None
    held, ships, most = found
    port = gd.board.port(castle)
    set_units(state, port, held, [])
    replaced = most if want is None else min(want, most)
    if replaced:
        set_units(state, port, house, ["ship"] * replaced)
    return held, ships, replaced


def ship_seas(state: dict, gd: GameData, house: str, *, unrouted: bool = False) -> set[str]:
    """Sea areas holding ``house``'s ships: the links of its ship transport (CZ p.9); with
    ``unrouted`` only those with a ship that is not routed (routed units take no part in a march)."""
    return {a for a in gd.board.sea_set.intersection(state["areas"]) if owner(state, a) == house
            and (not unrouted or len(state["areas"][a][house]) > len(state["routed"].get(a, [])))}


# -- control ----------------------------------------------------------------------------------------


def controller(state: dict, gd: GameData, area: str) -> str | None:
    """Who controls ``area``: its units, else a power token, else the house whose home it is.

    CZ p.9: a home area stays its house's "until a) enemy units are there or b) an enemy has
    taken control (a new power token laid on the crest)": when enemy units leave without
    laying a token, the home is its house's again.
    """
    who = owner(state, area)
    if who:
        return who
    if area in state["control"]:
        return state["control"][area]
    home = gd.board.area(area).home_of
    if home and home in state["houses"] and area not in state["neutral"]:  # agot2e-ru: rebels (rebellion.py), revolting sellswords (mercenaries.py)
        return home
    return None


def castles_controlled(state: dict, gd: GameData, house: str) -> int:
    """Cities and strongholds ``house`` controls (the victory count)."""
    return castle_counts(state, gd).get(house, 0)


def uncounted_castles(state: dict, gd: GameData) -> frozenset[str]:
    """Castle areas that count for no victory: with the agot2e-ru option ``moat-cailin``, Moat Cailin
    (RULES.md V24; read from the state's options and the variant's numbers, as the victory check has no
    context)."""
    if (state.get("options") or {}).get("moat-cailin") != "yes":
        return frozenset()
    return frozenset({edition_of(state).variant.load_params(state["data_version"]).moat_cailin})


def castle_counts(state: dict, gd: GameData) -> dict[str, int]:
    """Cities and strongholds each house controls: :func:`controller` for every castle area, written as
    set operations on the board's castles (the victory check runs after every step): the castles with
    units, then those with a power token, then the home castles left to their houses."""
    areas, control, houses, neutral = state["areas"], state["control"], state["houses"], state["neutral"]
    castles = gd.board.castle_set
    if (state.get("options") or {}).get("moat-cailin") == "yes":
        castles = castles.difference(uncounted_castles(state, gd))
    counts: dict[str, int] = {}
    held = set()
    for area in castles.intersection(areas):
        for house, units in areas[area].items():
            if units:
                counts[house] = counts.get(house, 0) + 1
                held.add(area)
                break
    for area in castles.intersection(control).difference(held) if control else ():
        who = control[area]
        if who is not None:
            counts[who] = counts.get(who, 0) + 1
    for area, home in gd.board.home_castles:
        if area not in held and area not in control and area not in neutral and home in houses and area in castles:
            counts[home] = counts.get(home, 0) + 1
    return counts


def check_victory(state: dict, gd: GameData) -> str | None:
    """The house that holds enough cities and strongholds to win at once (7; 8 with 3 players); never
    with the variant's ``hold-seven-castles`` (agot2e-ru: the end of the round decides, ``engine.end_round``;
    read from the state's options, as this check has no context)."""
    if (state.get("options") or {}).get("hold-seven-castles") == "yes":
        return None
    target = gd.setup.victory_target(len(state["houses"]))
    counts = castle_counts(state, gd)
    if max(counts.values(), default=0) < target:  # nearly always: nobody is near
        return None
    for house in turn_order(state):
        if counts.get(house, 0) >= target:
            return house
    return None


# -- tracks and tokens --------------------------------------------------------------------------------


def turn_order(state: dict) -> list[str]:
    return list(state["tracks"]["iron_throne"])


def holder(state: dict, token: str) -> str:
    """Who holds a special token: ``iron_throne``, ``valyrian_steel_blade``, ``messenger_raven``."""
    return state["tracks"][_TOKEN_TRACKS[token]][0]


_TOKEN_TRACKS = {"iron_throne": "iron_throne", "valyrian_steel_blade": "fiefdoms", "messenger_raven": "kings_court"}


def fiefdoms_rank(state: dict, house: str) -> int:
    """0 is the top of the Fiefdoms track (wins ties in battle)."""
    return state["tracks"]["fiefdoms"].index(house)


def star_limit(state: dict, gd: GameData, house: str) -> int:
    stars = gd.setup.game(len(state["houses"])).kings_court_stars
    return stars[state["tracks"]["kings_court"].index(house)]


# -- supply ----------------------------------------------------------------------------------------


def army_size(units: list[str]) -> int:
    """The units of an army that count for supply: all but sellswords (agot2e-ru, paid in gold instead)."""
    return len(units) - units.count("sellsword")


def armies(areas: dict, house: str) -> list[int]:
    """Sizes of ``house``'s armies (2+ units in one area), largest first."""
    return sorted((n for h in areas.values() if (n := army_size(h.get(house, []))) >= 2), reverse=True)


def within_supply(state: dict, gd: GameData, house: str, areas: dict | None = None) -> bool:
    """Do ``house``'s armies fit its supply level (in ``areas``, default the board)?"""
    return armies_fit(state, gd, house, armies(state["areas"] if areas is None else areas, house))


def armies_fit(state: dict, gd: GameData, house: str, sizes: list[int]) -> bool:
    """Do armies of ``sizes`` (largest first) fit ``house``'s supply level?"""
    if not sizes:  # (no army: nothing to fit)
        return True
    allowed = gd.setup.armies_allowed(state["supply"][house])
    if len(sizes) > len(allowed):
        return False
    for size, limit in zip(sizes, allowed):
        if size > limit:
            return False
    return True


def areas_after(state: dict, house: str, changes: dict[str, list[str]]) -> dict:
    """A copy of the board's areas with the areas in ``changes`` holding these units of ``house``."""
    areas = {a: dict(h) for a, h in state["areas"].items()}
    for area, units in changes.items():
        if units:
            areas[area] = {house: list(units)}
        else:
            areas.pop(area, None)
    return areas


def supply_after(state: dict, gd: GameData, house: str, changes: dict[str, list[str]]) -> bool:
    """Would ``house`` be within supply if the areas in ``changes`` held these units of it? (The armies of
    :func:`areas_after`, counted without copying the board: marches and musters ask it for every option.)"""
    sizes = []
    for area, holders in state["areas"].items():  # (army_size inlined: asked for every area of the board)
        units = holders.get(house)
        if units and len(units) >= 2 and area not in changes and (n := len(units) - units.count("sellsword")) >= 2:
            sizes.append(n)
    for units in changes.values():
        if (n := army_size(units)) >= 2:
            sizes.append(n)
    return armies_fit(state, gd, house, sorted(sizes, reverse=True))


# -- orders ----------------------------------------------------------------------------------------


_TOKENS: dict[str, tuple[str, int]] = {}
"""An order token's text -> (kind, modifier), read once per text: a game has a few dozen texts, and battles ask
them at every step. The loops over every order look a text up here with the dict's ``get`` (no call), then
:func:`_token` for a text not read yet."""


def _token(text: str) -> tuple[str, int]:
    """(kind, modifier) of an order token's text: ``march +1*`` -> (march, 1)."""
    found = _TOKENS.get(text)
    if found is None:
        parts = text.rstrip("*").split()
        found = text.split()[0].rstrip("*"), (int(parts[1]) if len(parts) > 1 else 0)
        if len(_TOKENS) < 256:  # (any text may come from a rules case's position: kept bounded)
            _TOKENS[text] = found
    return found


def order_kind(state: dict, area: str) -> str | None:
    text = state["orders"].get(area)
    return (_TOKENS.get(text) or _token(text))[0] if text else None


def order_star(state: dict, area: str) -> bool:
    return str(state["orders"].get(area, "")).endswith("*")


def order_bonus(state: dict, area: str) -> int:
    """The modifier printed on the order in ``area`` (0 where there is none)."""
    text = state["orders"].get(area)
    return (_TOKENS.get(text) or _token(str(text)))[1] if text else 0


def order_areas(state: dict, kind: str) -> list[str]:
    """Areas holding an order of ``kind`` (anyone's), in board order of the state, in one pass over the orders."""
    tokens = _TOKENS
    return [area for area, text in state["orders"].items() if text and (tokens.get(text) or _token(text))[0] == kind]


def orders_of(state: dict, house: str, kind: str | None = None) -> list[str]:
    """Areas holding ``house``'s orders (of ``kind``), in board order of the state."""
    return [a for a in state["orders"] if order_owner(state, a) == house and (kind is None or order_kind(state, a) == kind)]


def orders_by_house(state: dict, kind: str) -> dict[str, list[str]]:
    """house -> the areas holding its orders of ``kind`` (as :func:`orders_of` lists them), for every house
    with one, in one pass over the orders (whose turn is next asks it after every step)."""
    out: dict[str, list[str]] = {}
    tokens = _TOKENS
    for area, text in state["orders"].items():
        if text and (tokens.get(text) or _token(text))[0] == kind:
            who = order_owner(state, area)
            if who is not None:
                if who in out:
                    out[who].append(area)
                else:
                    out[who] = [area]
    return out


def remove_order(state: dict, area: str) -> None:
    state["orders"].pop(area, None)


# -- plans (secret instructions) ---------------------------------------------------------------------

PLAN_KEYS = ("raids", "marches", "supports", "cards", "casualties", "retreats", "abilities",
             "musters", "removes", "tiebreaks", "reclaims")


def empty_plan() -> dict:
    """``bids``: slot (``iron_throne``, ``fiefdoms``, ``kings_court``, ``wildlings``) -> power (westeros.py)."""
    return {"orders": None, "raven": None, "blade": "auto", "bids": {}, **{k: [] for k in PLAN_KEYS}}


def plan(state: dict, house: str) -> dict:
    plans = state["plans"]
    if house not in plans:  # not setdefault: an empty plan is built only when it is needed
        plans[house] = empty_plan()
    return plans[house]


def power_on_board(state: dict, house: str) -> int:
    return sum(1 for h in state["control"].values() if h == house)


def gain_power(state: dict, house: str, amount: int, limit: int = 20) -> int:
    """Give ``house`` up to ``amount`` power from the bank (a house never holds more than 20); returns what it got."""
    room = max(0, limit - state["power"][house] - power_on_board(state, house))
    got = min(amount, room)
    state["power"][house] += got
    return got
