"""What must hold in every AGoT state (either edition) after every step, whatever the players did.

Checked by the property tests and by self-play after each step; a violation is an engine bug.
"""

from __future__ import annotations

from collections import Counter

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
            if house not in houses:
                out.append(f"{area}: units of {house}, not in play")
            if gd.board.is_land(area) == all(u == "ship" for u in units):
                out.append(f"{area}: {units} in the wrong kind of area")
            if not pos.port_room(state, gd, house, area, 0) or pos.closed(state, gd, area):
                out.append(f"{area}: {units} in a full or closed area")
        if area in state["neutral"]:
            out.append(f"{area}: units stand on a neutral force")
    for house in houses:
        count = pos.house_units(state, house)
        for unit in gd.setup.unit_limits:
            limit = pos.unit_limit(state, gd, house, unit)
            if count[unit] > limit:
                out.append(f"{house}: {count[unit]} {unit}s, the limit is {limit}")
        cutting = state["phase"] == "westeros" and state["step"] == "supply" and house in (state.get("westeros") or {}).get("over", [])
        if not pos.within_supply(state, gd, house) and not cutting:  # a Supply card's cut still to come
            out.append(f"{house}: armies {pos.armies(state['areas'], house)} break supply {state['supply'][house]}")
        total = state["power"][house] + pos.power_on_board(state, house)
        if not 0 <= state["power"][house] or total > gd.setup.power_limit:
            out.append(f"{house}: power {state['power'][house]} available + {pos.power_on_board(state, house)} on the board")
        cards = Counter(state["hands"][house]) + Counter(state["discards"][house])
        if state["battle"] and house in state["battle"].get("cards", {}):
            cards[state["battle"]["cards"][house]] += 1  # on the table until the battle ends
        if sorted(cards.elements()) != sorted(c.id for c in gd.house_cards[house]):
            out.append(f"{house}: hand {state['hands'][house]} + discards {state['discards'][house]} is not its 7 cards")
    for track, order in state["tracks"].items():
        if sorted(order) != sorted(houses):
            out.append(f"track {track} {order} is not a permutation of {houses}")
    for area, units in state["routed"].items():
        if Counter(units) - Counter(pos.units_in(state, area, pos.owner(state, area) or "")):
            out.append(f"{area}: routed {units} not among its units")
    for area in state["orders"]:
        if pos.owner(state, area) is None:
            out.append(f"{area}: an order where no unit stands")
    for area, house in state["control"].items():
        if not gd.board.is_land(area) or (pos.owner(state, area) not in (None, house)):
            out.append(f"{area}: {house}'s power token where it cannot be")
    for deck, cards in (state.get("decks") or {}).items():
        copies = sorted(card for card, _ in gd.westeros_decks[deck].copies())
        if sorted(cards) != copies:
            out.append(f"Westeros deck {deck} {cards} is not a permutation of its cards")
    if state["wildlings"] not in gd.setup.wildlings.track:
        out.append(f"wildling threat {state['wildlings']} is not on the track {list(gd.setup.wildlings.track)}")
    for house in houses:
        if house in state["tracks"]["iron_throne"] and not 0 <= state["supply"][house] <= max(gd.setup.supply_armies):
            out.append(f"{house}: supply {state['supply'][house]} off the track")
    return out


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
