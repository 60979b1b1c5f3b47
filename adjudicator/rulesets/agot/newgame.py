"""The standard setup of a new game (1e: CZ p.2) for the houses in play, from the edition's data."""

from __future__ import annotations

from ...ruleset import RulesetError
from . import position as pos
from . import westeros
from .edition import Edition


def initial_state(rules: Edition, houses: list[str], seed: int) -> dict:
    """The standard setup for the houses in play (CZ p.2; absent houses' units become neutral forces, p.13)."""
    gd = rules.gamedata()
    counts = sorted(gd.setup.player_counts)
    if len(houses) not in counts:
        fewest = gd.setup.player_counts[counts[0]].houses
        raise RulesetError(f"{rules.name} has no {len(houses)}-player game (players: {', '.join(map(str, counts[:-1]))} "
                           f"or {counts[-1]}; example: {' '.join(f'--player {h}=...' for h in fewest)})")
    game = gd.setup.game(len(houses))
    if sorted(houses) != sorted(game.houses):
        raise RulesetError(
            f"with {len(houses)} players the houses are {', '.join(game.houses)} (CZ p.13), not {', '.join(houses)}"
            f" (example: --player stark=ned@example.org --player lannister=tywin@example.org ...)")
    areas: dict = {}
    neutral = {a: gd.board.area(a).neutral_force for a in gd.board if gd.board.area(a).neutral_force}
    neutral.update(game.neutral_forces)  # 2e: the tokens of this player count
    for house, placed in gd.setup.starting_units.items():
        for area, units in placed.items():
            units = _without(units, game.removed_units.get(house, {}).get(area, ()))
            if house in houses:
                if units:
                    areas[area] = {house: pos.sort_units(units)}
            elif rules.absent_units_neutral:
                neutral[area] = neutral.get(area, 0) + sum(gd.setup.unit_strength[u] for u in units)
    return {
        "edition": rules.name,
        "data_version": gd.version,
        "seed": seed,
        "houses": list(game.houses),
        "round": 1,
        "phase": "planning",
        "step": "orders",
        "tracks": {k: list(v) for k, v in gd.setup.start_tracks(len(houses)).items()},
        "power": {h: gd.setup.starting_power for h in game.houses},
        "supply": {h: gd.setup.starting_supply[h] for h in game.houses},
        "wildlings": gd.setup.wildlings.start,
        "areas": areas,
        "routed": {},
        "control": {},
        "neutral": neutral,
        "impassable": list(game.impassable),  # 2e, 3 players: closed areas (their ports with them)
        "garrisons": {a: gd.board.area(a).garrison for a in gd.board
                      if gd.board.area(a).garrison and gd.board.area(a).home_of in houses},  # 2e
        "orders": {},
        "hands": {h: [c.id for c in gd.house_cards[h]] for h in game.houses},
        "discards": {h: [] for h in game.houses},
        "blade_used": False,
        "plans": {h: pos.empty_plan() for h in game.houses},
        "turn": 0,
        "battle": None,
        "restrictions": [],
        "winner": None,
        # Westeros decks, top card first, shuffled from the seed (westeros.py); revealed cards go to
        # the bottom; Winter Is Coming reshuffles with the seed and its deck's reshuffle count.
        "decks": westeros.new_decks(seed, gd),
        "reshuffles": {deck: 0 for deck in westeros.DECKS},
        "westeros": None,
        **({"wildling_deck": westeros.new_wildling_deck(seed, gd)} if gd.wildling_cards else {}),  # 2e: SECRET
    }


def _without(units, removed) -> list[str]:
    """``units`` less one of each unit listed in ``removed`` (2e: start units a player count leaves out)."""
    left = list(units)
    for unit in removed:
        left.remove(unit)
    return left
