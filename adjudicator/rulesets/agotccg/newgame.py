"""A new game: each player's deck chosen, shuffled from the game's seed, seven cards drawn.

Option ``decks=<deck>,<deck>,...`` gives the players' decks in seat order (ids of
``games/agotccg/v1/decks.yaml``: ``stark-a``, ``lannister-b``, ...). Without it, a player named
after a house plays that house, the others a house drawn from the seed (a house nobody plays yet,
while there is one); deck A or B is drawn from the seed. Several players may play one house (S004
"Více hráčů může hrát za stejný rod").
"""

from __future__ import annotations

import re

from ...mailbody import fold
from ...ruleset import RulesetError
from . import position as pos
from .gamedata import DATA_VERSION, GameData, load_gamedata
from .grammar import RESERVED_WORDS

_NAME = re.compile(r"[a-z][a-z0-9_]{0,19}")
OPTIONS = ("decks",)


def name_words(gd: GameData) -> set[str]:
    """Every word of every card name (folded): a player may not be called so (``ON <player> <card>``)."""
    return {w for name in gd.names for w in name.split()}


def check_players(gd: GameData, players: list[str]) -> list[str]:
    players = [str(p) for p in players]
    low, high = gd.game.min_players, gd.game.max_players
    if not low <= len(players) <= high:
        raise RulesetError(f"agotccg is played by {low} to {high} players, not {len(players)}")
    words = name_words(gd)
    for p in players:
        if not _NAME.fullmatch(p):
            raise RulesetError(f"bad player name {p!r}: a lower-case letter, then letters, digits or _ "
                               "(example: alice)")
        if p in RESERVED_WORDS or p in words:
            raise RulesetError(f"the player name {p!r} is also a word of a card name or of the mail grammar "
                               "(example: alice)")
    if len(set(players)) != len(players):
        raise RulesetError("two players have the same name")
    return players


def choose_decks(gd: GameData, players: list[str], options: dict, state: dict) -> dict[str, str]:
    if "decks" in options:
        wanted = [fold(d).replace(" ", "-") for d in re.split(r"[,\s]+", str(options["decks"])) if d.strip()]
        if len(wanted) != len(players):
            raise RulesetError(f"option decks: {len(players)} decks are needed, one per player in seat order "
                               f"(example: decks={','.join(d.id for d in gd.decks[:len(players)])})")
        unknown = [d for d in wanted if d not in gd.deck_by_id]
        if unknown:
            raise RulesetError(f"option decks: no deck {unknown[0]!r} (decks: {', '.join(d.id for d in gd.decks)})")
        return dict(zip(players, wanted))
    houses = {p: p for p in players if p in gd.houses}
    for p in players:
        if p not in houses:
            free = [h for h in gd.houses if h not in houses.values()] or list(gd.houses)
            houses[p] = pos.rng(state).choice(free)
    decks = {}
    for p in players:
        choices = [d.id for d in gd.decks if d.house == (houses[p],)]
        decks[p] = pos.rng(state).choice(choices)
    return decks


def blank_state(players: list[str], seed: int, version: str = DATA_VERSION) -> dict:
    return {
        "data_version": version, "players": list(players), "houses": {}, "decks": {}, "seed": int(seed), "draws": 0,
        "round": 0, "phase": "setup", "step": "mulligan", "initiative": {}, "initiative_winner": None,
        "first": None, "order": [], "active": 0,
        "deck": {p: [] for p in players}, "hand": {p: [] for p in players},
        "plots": {p: {"deck": [], "used": [], "current": None} for p in players},
        "house_power": {p: 0 for p in players},
        "characters": {p: [] for p in players}, "locations": {p: [] for p in players},
        "discard": {p: [] for p in players}, "dead": {p: [] for p in players},
        "gold": {p: None for p in players}, "limited": {p: 0 for p in players},
        "challenges_done": {p: [] for p in players}, "participants": {p: [] for p in players}, "challenge": None,
        "mulligans": {p: False for p in players}, "power_gained": 0, "power_returned": 0,
        "plans": {p: pos.empty_plan() for p in players}, "winner": None,
    }


def initial_state(players: list[str], seed: int, options: dict | None = None, version: str = DATA_VERSION) -> dict:
    gd = load_gamedata(version)
    players = check_players(gd, players)
    options = dict(options or {})
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise RulesetError(f"agotccg has no option {', '.join(unknown)} (options: decks=<deck>,<deck>,...)")
    state = blank_state(players, seed, version)
    decks = choose_decks(gd, players, options, state)
    for p in players:  # one seeded shuffle per player, in seat order (S004: the cut is the seed's)
        deck = gd.deck(decks[p])
        state["decks"][p] = deck.id
        state["houses"][p] = list(deck.house)
        cards = deck.instances()
        pos.rng(state).shuffle(cards)
        state["deck"][p] = cards[gd.game.hand:]
        state["hand"][p] = cards[:gd.game.hand]
        state["plots"][p]["deck"] = list(deck.plots)
    return state
