"""The standard setup: every family's ten cards shuffled (seeded), three set aside, seven in hand."""

from __future__ import annotations

import re

from ...mailbody import fold
from ...ruleset import RulesetError
from . import position as pos
from .gamedata import DATA_VERSION, GameData, load_gamedata
from .grammar import RESERVED_WORDS

_NAME = re.compile(r"[a-z][a-z0-9_]{0,19}")
OPTIONS = ("first",)


def check_players(gd: GameData, players: list[str]) -> list[str]:
    players = [str(p) for p in players]
    low, high = gd.game.min_players, gd.game.max_players
    if not low <= len(players) <= high:
        raise RulesetError(f"oriflamme is played by {low} to {high} players, not {len(players)}")
    for p in players:
        if not _NAME.fullmatch(p):
            raise RulesetError(f"bad player name {p!r}: a lower-case letter, then letters, digits or _ (example: red)")
        if fold(p) in gd.names or p in RESERVED_WORDS:
            raise RulesetError(f"the player name {p!r} is also a card name or a word of the mail grammar "
                               f"(example: {gd.game.families[0]})")
    if len(set(players)) != len(players):
        raise RulesetError("two players have the same name")
    return players


def initial_state(players: list[str], seed: int, options: dict | None = None, version: str = DATA_VERSION) -> dict:
    gd = load_gamedata(version)
    players = check_players(gd, players)
    options = dict(options or {})
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise RulesetError(f"oriflamme has no option {', '.join(unknown)} (options: first=<player>)")
    first = options.get("first", players[0])
    if first not in players:
        raise RulesetError(f"option first: {first!r} is not a player (players: {', '.join(players)})")
    state = {
        "data_version": version,
        "players": players,
        "seed": int(seed),
        "draws": 0,
        "round": 1,
        "phase": "place",
        "first": first,
        "placer": 0,
        "cursor": 0,
        "influence": {p: gd.game.start_influence for p in players},
        "hands": {},
        "aside": {},
        "discards": {p: [] for p in players},
        "queue": [],
        "plans": {p: {"place": [], "decide": {}, "target": {}} for p in players},
        "winner": None,
        "winners": [],
    }
    for p in players:  # one seeded shuffle per family, in seat order
        cards = list(gd.ids)
        pos.rng(state).shuffle(cards)
        state["aside"][p] = sorted(cards[:gd.game.set_aside], key=gd.ids.index)
        state["hands"][p] = sorted(cards[gd.game.set_aside:], key=gd.ids.index)
    return state
