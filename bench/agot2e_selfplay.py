"""The agot2e (or agot2e-ru) self-play campaign: N seeded whole games per house count (3 to 6), invariants checked.

Run: ``python bench/agot2e_selfplay.py [--ruleset agot2e-ru] [--games 1000] [--houses 3,4,5,6] [--tides] [--first 0]
[--progress 0]`` (agot2e-ru: every variant option on, as a game made without options).
Seeded bots decide everything through the mail grammar, as in ``judge selfplay --ruleset agot2e --option preview=yes``; the
invariants are checked after every step. Exits 1 at the first violation, printing the seed and step
that reproduce it, and prints per house count the games, their time and the winners. Not a test (the
suite plays a seeded slice: ``tests/agot2e/test_agot2e_selfplay.py``); game ``i`` of a count ``n``
plays with seed ``1000 * n + i``, as the slice does. ``--first I`` starts at game ``I`` (a long campaign
split over processes: ``--first 500 --games 500`` plays games 500-999); ``--progress K`` prints a line
after every ``K`` games, so that a run cut short still tells how far it got without a violation.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from adjudicator.ruleset import get
from adjudicator.selfplay import InvariantViolation, play


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="agot2e", choices=("agot2e", "agot2e-ru"))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--houses", default="3,4,5,6")
    parser.add_argument("--tides", action="store_true", help="with the Tides of Battle option")
    parser.add_argument("--first", type=int, default=0, help="the index of the first game of each count")
    parser.add_argument("--progress", type=int, default=0, help="a line after every K games (0: none)")
    args = parser.parse_args()
    ruleset = get(args.ruleset)
    for count in (int(n) for n in args.houses.split(",")):
        houses = ruleset.default_players(count)
        winners: Counter = Counter()
        battles = refused = 0
        started = time.perf_counter()
        for done, i in enumerate(range(args.first, args.first + args.games), 1):
            seed = 1000 * count + i
            try:
                options = {"preview": "yes", **({"tides-of-battle": "yes"} if args.tides else {})}
                played = play(ruleset, houses, seed, options=options)
            except InvariantViolation as exc:
                print(f"VIOLATION with {count} houses: {exc}")
                return 1
            winners[played.state["winner"]] += 1
            battles += sum(1 for e in played.events if e.text.startswith("Battle at "))
            refused += len(played.rejected)
            if args.progress and done % args.progress == 0:
                print(f"  {count} houses: games {args.first}-{i} without a violation,"
                      f" {time.perf_counter() - started:.0f} s", flush=True)
        took = time.perf_counter() - started
        print(f"{count} houses: {args.games} games (from game {args.first}) without a violation in {took:.0f} s "
              f"({args.games / took:.1f} games/s), {battles / args.games:.1f} battles per game, "
              f"{refused} bot mails refused; winners {dict(winners.most_common())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
