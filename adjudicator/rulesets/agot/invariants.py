"""What must hold in every AGoT state (either edition) after every step, whatever the players did.

Checked by the property tests and by self-play after each step; a violation is an engine bug.
"""

from __future__ import annotations

from collections import Counter

from . import gold, hostages, ironbank, mercenaries
from . import position as pos
from .context import Ctx

def violations(state: dict, ctx: Ctx) -> list[str]:
    out: list[str] = []
    gd = ctx.gd
    houses = state["houses"]
    for area, holders in state["areas"].items():
        if len([h for h, u in holders.items() if u]) != 1:
            out.append(f"{area}: {len(holders)} houses (one house per area)")
        for house, units in holders.items():
            if units != pos.sort_units(units):  # the engine's readers rely on it (position.unrouted)
                out.append(f"{area}: units {units} not in the rulebook's order")
            if house not in houses:
                out.append(f"{area}: units of {house}, not in play")
            if gd.board.is_land(area) == all(u == "ship" for u in units):
                out.append(f"{area}: {units} in the wrong kind of area")
            if not pos.port_room(state, gd, house, area, 0) or pos.closed(state, gd, area):
                out.append(f"{area}: {units} in a full or closed area")
        if area in state["neutral"]:
            out.append(f"{area}: units stand on a neutral force")
    held = pos.holdings(state)  # every house's units in one pass over the board
    on_board = Counter(state["control"].values())
    for house in houses:
        mine = held.get(house, {})
        count = Counter(unit for units in mine.values() for unit in units)
        for unit in gd.setup.unit_limits:
            limit = pos.unit_limit(state, gd, house, unit)
            if count[unit] > limit:
                out.append(f"{house}: {count[unit]} {unit}s, the limit is {limit}")
        cutting = (state["phase"] == "westeros" and state["step"] == "supply" and house in (state.get("westeros") or {}).get("over", [])
                   ) or state["step"] == "supply_recount"  # agot2e-ru: the cut of every round's recount, owed
        sizes = pos.armies({a: {house: u} for a, u in mine.items()}, house)  # (agot2e-ru: sellswords not counted)
        if not pos.armies_fit(state, gd, house, sizes) and not cutting:  # a Supply card's cut still to come
            out.append(f"{house}: armies {sizes} break supply {state['supply'][house]}")
        total = state["power"][house] + on_board[house]
        if not 0 <= state["power"][house] or total > gd.setup.power_limit:
            out.append(f"{house}: power {state['power'][house]} available + {on_board[house]} on the board")
        cards = state["hands"][house] + state["discards"][house] + hostages.out_of_hand(state, house)  # agot2e-ru
        fight = state["battle"]
        if fight and (fight.get("cards") or {}).get(house) is not None and fight["stage"] != "after":
            cards = cards + [fight["cards"][house]]  # on the table until discarded (2e: before the stage "after")
        if sorted(cards) != sorted(c.id for c in gd.house_cards[house]):
            out.append(f"{house}: hand {state['hands'][house]} + discards {state['discards'][house]} is not its 7 cards")
    for track, order in state["tracks"].items():
        if sorted(order) != sorted(houses):
            out.append(f"track {track} {order} is not a permutation of {houses}")
    for area, units in state["routed"].items():
        if units != pos.sort_units(units):
            out.append(f"{area}: routed {units} not in the rulebook's order")
        if Counter(units) - Counter(pos.units_in(state, area, pos.owner(state, area) or "")):
            out.append(f"{area}: routed {units} not among its units")
    fight = state["battle"]
    for area in state["orders"]:
        if pos.order_owner(state, area) is None and not (fight and fight["area"] == area and fight["stage"] != "supports"):
            # (a defender whose last unit an ability killed keeps its order until the battle ends: the
            # conquest names it; 2e questions may come in between, e.g. the Blade's Tides of Battle redraw)
            out.append(f"{area}: an order where no unit stands")
    for area, house in state["control"].items():
        if not gd.board.is_land(area) or (pos.owner(state, area) not in (None, house)):
            out.append(f"{area}: {house}'s power token where it cannot be")
    for deck, cards in (state.get("decks") or {}).items():
        copies = sorted(card for card, _ in gd.westeros_decks[deck].copies())
        if sorted(cards) != copies:
            out.append(f"Westeros deck {deck} {cards} is not a permutation of its cards")
    scanned: dict[str, int] = {}  # the victory count's set operations against controller(), castle by castle
    for area in set(gd.board.castle_areas) - pos.uncounted_castles(state, gd):
        if (who := pos.controller(state, gd, area)) is not None:
            scanned[who] = scanned.get(who, 0) + 1
    if pos.castle_counts(state, gd) != scanned:
        out.append(f"castle counts {pos.castle_counts(state, gd)} differ from the areas' controllers {scanned}")
    if state["wildlings"] not in gd.setup.wildlings.track:
        out.append(f"wildling threat {state['wildlings']} is not on the track {list(gd.setup.wildlings.track)}")
    for house in houses:
        if house in state["tracks"]["iron_throne"] and not 0 <= state["supply"][house] <= max(gd.setup.supply_armies):
            out.append(f"{house}: supply {state['supply'][house]} off the track")
    return out + gold.violations(state) + ironbank.violations(state, ctx) + mercenaries.violations(state, ctx)


def missed_victory(state: dict, ctx: Ctx) -> list[str]:
    """A house that holds enough castles to win in a game nobody has won. Never after a step of a game played
    from its start, as self-play plays it (the engine checks victory after every step, skipping the count
    when what it reads is what its last check found no winner in: ``engine.victory``); a position made up
    for a test may start so (its first step decides it), which is why :func:`violations` does not ask it."""
    if state["winner"] is not None or (winner := pos.check_victory(state, ctx.gd)) is None:
        return []
    return [f"{winner} holds {pos.castles_controlled(state, ctx.gd, winner)} castles and has not won"]


def leaks(view: dict, state: dict, viewer: str) -> list[str]:
    """Another house's secrets found in ``viewer``'s view (hands, plans, the seed)."""
    out = []
    if "seed" in view:
        out.append("the seed")
    if any(isinstance(cards, list) for cards in (view.get("decks") or {}).values()):
        out.append("the order of the Westeros decks")
    if isinstance(view.get("wildling_deck"), list):
        out.append("the order of the wildling deck")
    for house in state["houses"]:
        if house == viewer:
            continue
        if isinstance(view.get("hands", {}).get(house), list):
            out.append(f"{house}'s hand")
        if house in (view.get("plans") or {}):
            out.append(f"{house}'s plan")
    if view.get("plan") != state["plans"].get(viewer):
        out.append("a plan that is not the viewer's own")
    return out
