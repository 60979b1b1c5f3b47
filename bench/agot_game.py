"""Benchmark of whole agot1e games on the engine alone: games per second and the time of a round.

Run: ``python bench/agot_game.py [--games N]``. Seeded bots decide everything (through the mail
grammar, as in ``judge selfplay``); invariants are checked after every step, as in self-play,
so the figure is what a self-play campaign achieves. Times are CPU time of this process
(``time.process_time``): other work on a shared machine slows them less than a wall clock. A
benchmark, not a test.
"""

from __future__ import annotations

import argparse
import statistics
import time

from adjudicator.rulesets.agot1e.ruleset import AGOT1E
from adjudicator.selfplay import play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    houses = AGOT1E.default_players(5)
    durations, rounds = [], []
    for seed in range(args.games):
        started = time.process_time()
        played = play(AGOT1E, houses, seed)
        durations.append(time.process_time() - started)
        rounds.append(min(played.state["round"], 10))
    total = sum(durations)
    per_round = [d / r for d, r in zip(durations, rounds)]
    print(f"agot1e complete 5-house games (bots, invariants checked): {args.games / total:.1f} games/s of CPU time, "
          f"median {statistics.median(durations) * 1000:.0f} ms per game, {statistics.mean(rounds):.1f} rounds on average")
    print(f"agot1e one round of a 5-house game: median {statistics.median(per_round) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
