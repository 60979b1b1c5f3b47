"""A new game: options checked, the deck built, shuffled and dealt from the game's seed.

Options (``judge new ... --option KEY=VALUE``), the same for ``claim2`` and ``claim``; only the
defaults differ (``games/claim/v1/setup.yaml``):

* ``pair``: ``gnomes-giants`` or ``knights-goblins`` (also ``gnomes``, ``giants``, ``knights``,
  ``goblins``); default claim2: gnomes-giants, claim: knights-goblins.
* ``factions``: the factions besides the pair, comma-separated, English or Czech names: 3 with
  2 players, 5 with 3-4 players, from Undead, Dwarves, Doppelgangers, Dragons, Trolls, Seers.
  Default with 2 players: the box's own three (the game as sold); with 3-4 players the box's own
  three and two of the other box.
* ``leader``: the player who leads the first trick (the rulebook: the youngest). Default: drawn
  from the game's seed.

Randomness: ``random.Random("claim:<seed>:<n>")`` for the n-th draw of a game, n counted in the
state (``rng``): 0 shuffles the deck, 1 draws the first leader when none is named.
"""

from __future__ import annotations

import random
import re

from ...ruleset import RulesetError
from . import engine
from .gamedata import DATA_VERSION, GameData, UnknownName, deck_problem, load_gamedata

OPTIONS = ("pair", "factions", "leader")
PAIR_WORDS = {"gnomes-giants": "gnomes-giants", "gnomes": "gnomes-giants", "giants": "gnomes-giants",
              "giants-gnomes": "gnomes-giants", "knights-goblins": "knights-goblins", "knights": "knights-goblins",
              "goblins": "knights-goblins", "goblins-knights": "knights-goblins"}
NAME = re.compile(r"[a-z][a-z0-9_-]{0,19}")


def rng_for(state_or_seed, counter: int) -> random.Random:
    seed = state_or_seed["seed"] if isinstance(state_or_seed, dict) else state_or_seed
    return random.Random(f"claim:{seed}:{counter}")


def check_players(gd: GameData, ruleset: str, players: list[str]) -> None:
    if not gd.min_players <= len(players) <= gd.max_players:
        raise RulesetError(f"{ruleset} is played by {gd.min_players} to {gd.max_players} players, not {len(players)}")
    for p in players:
        if not NAME.fullmatch(p):
            raise RulesetError(f"bad player name {p!r}: lower-case letters and digits, up to 20 (example: alice)")
    if len(set(players)) != len(players):
        raise RulesetError("a player is named twice")


def choose_deck(gd: GameData, ruleset: str, count: int, options: dict) -> tuple[str, list[str]]:
    """(pair, factions besides the pair) from the options and the ruleset's defaults."""
    defaults = gd.rulesets[ruleset]
    pair_text = str(options.get("pair", defaults.pair)).strip().lower().replace("+", "-").replace(" ", "")
    pair = PAIR_WORDS.get(pair_text)
    if pair is None:
        raise RulesetError(f"option pair must be gnomes-giants or knights-goblins, not {options['pair']!r} "
                           "(example: --option pair=knights-goblins)")
    if "factions" in options:
        chosen = []
        for word in re.split(r"[,;+\s]+", str(options["factions"]).strip()):
            if not word:
                continue
            try:
                chosen.append(gd.resolve_faction(word))
            except UnknownName as exc:
                raise RulesetError(f"option factions: {exc}") from None
    else:
        chosen = list(defaults.factions[count])
    problem = deck_problem(gd, gd.pairs[pair], chosen, count)
    if problem:
        example = ",".join(defaults.factions[count])
        raise RulesetError(f"option factions: {problem} (example: --option factions={example})")
    return pair, chosen


def initial_state(ruleset: str, players: list[str], options: dict, seed: int) -> dict:
    gd = load_gamedata(DATA_VERSION)
    players = [str(p) for p in players]
    check_players(gd, ruleset, players)
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise RulesetError(f"{ruleset} has no option {', '.join(unknown)} (options: {', '.join(OPTIONS)}; "
                           "example: --option pair=knights-goblins)")
    count = gd.counts[len(players)]
    pair, chosen = choose_deck(gd, ruleset, len(players), options)
    factions = [f for f in gd.factions if f in set(gd.pairs[pair]) | set(chosen)]
    deck = gd.deck(factions)
    rng_for(seed, 0).shuffle(deck)
    leader = options.get("leader")
    if leader is not None:
        leader = str(leader).strip().lower()
        if leader not in players:
            raise RulesetError(f"option leader must be one of the players ({', '.join(players)}), not {leader!r}")
    else:
        leader = rng_for(seed, 1).choice(players)
    hands = {p: [] for p in players}
    for i in range(count.deal * len(players)):  # one card at a time, round the table
        hands[players[i % len(players)]].append(deck.pop(0))
    teams = None
    if len(players) in gd.teams:
        teams = [[players[s] for s in team] for team in gd.teams[len(players)]]
    state = {
        "ruleset": ruleset,
        "data_version": DATA_VERSION,
        "players": players,
        "teams": teams,
        "factions": factions,
        "deal": count.deal,
        "revealed": count.revealed,
        "seed": seed,
        "rng": 2,
        "phase": 1,
        "trick": 1,
        "step": "play",
        "leader": leader,
        "turn": leader,
        "deck": deck,
        "prizes": [],
        "table": [],
        "hands": {p: sorted(h, key=gd.sort_key) for p, h in hands.items()},
        "followers": {p: [] for p in players},
        "score": {p: [] for p in players},
        "gnomes": {p: [] for p in players},
        "trolls_aside": [],
        "discard": [],
        "crushed": [],
        "box": [],
        "plans": {p: {"play": [], "take": []} for p in players},
        "choice": None,
        "last": None,
        "result": None,
        "winner": None,
    }
    engine.start_trick(state, gd, None)
    return state
