"""The engine's two figures for this checkout and another one, measured alternately in one run.

Run: ``python bench/engine_ab.py OTHER_CHECKOUT [--rounds 3] [--games 10]`` (OTHER_CHECKOUT: e.g. a
``git worktree`` or ``git archive`` of an older commit). On a shared machine a figure alone says
little, since other work slows it; measured in turns with the other code, in CPU time, the ratio
holds. Each measurement is a fresh process whose ``adjudicator`` package comes from the checkout
measured (this file's benchmarks, ``agot_battles`` and ``agot_game``'s play, drive it). A
benchmark, not a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def measure(what: str, games: int) -> float:
    """In this process, with whatever ``adjudicator`` is first on the path: battles/s, or ms per game."""
    if what == "battles":
        import agot_battles

        return max(agot_battles.battles_per_second(300) for _ in range(3))
    from adjudicator.rulesets.agot1e.ruleset import AGOT1E
    from adjudicator.selfplay import play

    houses = AGOT1E.default_players(5)
    durations = []
    for seed in range(games):
        started = time.process_time()
        play(AGOT1E, houses, seed)
        durations.append(time.process_time() - started)
    return statistics.median(durations) * 1000


def in_checkout(root: Path, what: str, games: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, __file__, "--measure", what, "--games", str(games)], cwd=root, env=env,
                         capture_output=True, text=True, check=True)
    return float(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", nargs="?", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--measure", choices=("battles", "game"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(measure(args.measure, args.games))
        return
    if args.other is None:
        parser.error("name the other checkout")
    here = HERE.parent
    for what, unit in (("battles", "battles/s"), ("game", "ms per 5-house game")):
        for _ in range(args.rounds):
            other, this = in_checkout(args.other.resolve(), what, args.games), in_checkout(here, what, args.games)
            print(f"{unit}: other {other:.0f}, this {this:.0f}, this/other {this / other:.2f}", flush=True)


if __name__ == "__main__":
    main()
