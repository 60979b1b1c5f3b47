"""Whether engine work changed behaviour: a hash of every self-play step, for this checkout and another one.

Run: ``python bench/engine_trace.py OTHER_CHECKOUT [--coarse]`` (e.g. a ``git archive`` of the commit before a speed
change). For 31 seeded games (agot1e 3 to 5 houses; agot2e 3, 4 and 6 with and without Tides of Battle;
agot2e-ru 3 to 6 houses, with Tides of Battle, without half support) it hashes, step by step, each bot
mail and the judge's answer to it (accepted or not, every line's reading), who owes what, the events,
the state and the view of every house, the GM and an observer, then prints the games whose hashes
differ. Each checkout runs in a fresh process whose ``adjudicator`` comes from it, as in
``engine_ab.py``. A check for speed work, where "nothing changed" is the claim; not a test.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

GAMES = [("agot1e", n, seed, {}) for n in (3, 4, 5) for seed in (1, 2, 3)] + \
    [("agot2e", n, seed, {"tides-of-battle": tides}) for n in (3, 4, 6) for seed in (1, 2) for tides in ("yes", "no")] + \
    [("agot2e-ru", n, seed, {"preview": "yes"}) for n in (3, 4, 5, 6) for seed in (1, 2)] + \
    [("agot2e-ru", 6, 15, {"preview": "yes", "tides-of-battle": "yes"}),
     ("agot2e-ru", 4, 8, {"preview": "yes", "half-support": "no"})]


def _digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=repr).encode()).hexdigest()


def trace(name: str, houses: int, seed: int, options: dict, coarse: bool = False) -> str:
    """The hash of one seeded game, step by step (the loop of ``selfplay.play``, every step recorded).
    ``coarse``: only what players see of it, for a change that resolves in one step what took several while
    nobody was asked anything in between: every bot mail and its answer, the events in order, and, where
    someone is asked something (and at the end), who owes what, the state, the views and the invariants."""
    from adjudicator import ruleset as rulesets
    from adjudicator.plaindata import clone

    rules = rulesets.get(name)
    rng = random.Random(seed)
    players = rules.default_players(houses)
    state = rules.new_game(list(players), dict(options), seed)
    digest = hashlib.sha256()
    for _ in range(5000):
        if rules.result(state) is not None:
            break
        for owed in rules.pending(state):
            if owed.done or rng.random() < 0.1:
                continue
            text = rules.bot_mail(state, owed.player, rng)
            if text is None:
                continue
            sub = rules.submit(clone(state), owed.player, text)
            digest.update(repr((text, sub.applied, sub.parsed)).encode())
            if sub.applied:
                state = sub.state
        owed = rules.pending(state)
        complete = all(o.done for o in owed)
        if not (coarse and complete):
            digest.update(_digest([repr(o) for o in owed]).encode())
        state, events = rules.advance(state, force=not complete)
        if coarse:
            for event in events:
                digest.update(repr(event).encode())
            if rules.result(state) is None and all(o.done for o in rules.pending(state)):
                continue
        else:
            digest.update(_digest([repr(e) for e in events]).encode())
        digest.update(_digest(state).encode())
        for viewer in [*players, None, "observer"]:
            digest.update(_digest(rules.view(state, viewer)).encode())
        digest.update(repr(rules.violations(state)).encode())
    return digest.hexdigest()[:16]


def in_checkout(root: Path, coarse: bool) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, __file__, "--measure", *(["--coarse"] if coarse else [])], cwd=root, env=env,
                         capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", nargs="?", type=Path)
    parser.add_argument("--coarse", action="store_true",
                        help="compare what players see (mails, answers, events in order, the questions and the state "
                             "where someone is asked), not each step: for a change that merges steps nobody is asked in")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        for game in GAMES:
            print(trace(*game, coarse=args.coarse), flush=True)
        return
    if args.other is None:
        parser.error("name the other checkout")
    other, this = in_checkout(args.other.resolve(), args.coarse), in_checkout(HERE.parent, args.coarse)
    differ = [game for game, a, b in zip(GAMES, other, this) if a != b]
    for name, houses, seed, options in differ:
        print(f"differs: {name}, {houses} houses, seed {seed}, options {options}")
    how = "where a player is asked or told" if args.coarse else "step by step"
    print(f"{len(GAMES) - len(differ)} of {len(GAMES)} games identical {how}")


if __name__ == "__main__":
    main()
