"""Benchmark of the agot1e engine's action phase: battles per second, and one 5-house action phase.

Run: ``python bench/agot_battles.py``. Engine only (no store, no mail): the figures measure
the rules code, in CPU time of this process (``time.process_time``), so that other work on a shared
machine slows them less than it would a wall clock. A benchmark, not a test: nothing here asserts a speed.
"""

from __future__ import annotations

import random
import statistics
import time

from adjudicator.plaindata import clone
from adjudicator.rulesets.agot import bot
from adjudicator.rulesets.agot.context import ctx_of
from adjudicator.rulesets.agot1e.ruleset import AGOT1E

case_state = AGOT1E.case_state

BATTLE = {  # the rulebook's support example (CZ p.10): three supporters, both cards chosen
    "players": ["stark", "lannister", "baratheon", "greyjoy", "tyrell"],
    "step": "action",
    "areas": {"Blackwater": {"lannister": ["footman"]}, "The Reach": {"tyrell": ["knight", "knight"]},
              "Stoney Sept": {"lannister": ["footman", "knight"]}, "Harrenhal": {"baratheon": ["knight"]},
              "King's Landing": {"tyrell": ["knight"]}},
    "neutral": {},
    "orders": {"Blackwater": "defense +1", "The Reach": "march +1*", "Stoney Sept": "support",
               "Harrenhal": "support", "King's Landing": "support"},
}
MAILS = {
    "tyrell": "MARCH The Reach -> Blackwater: 2 knight\nSUPPORT King's Landing -> Tyrell\nCARD Mace Tyrell",
    "lannister": "SUPPORT Stoney Sept -> Lannister\nCARD Tywin Lannister",
    "baratheon": "SUPPORT Harrenhal -> Lannister",
}


def battles_per_second(count: int) -> float:
    start = case_state(BATTLE)
    for house, text in MAILS.items():
        start = AGOT1E.submit(start, house, text).state
    started = time.process_time()
    for _ in range(count):
        state = clone(start)  # as the judge copies a state
        while state["step"] != "consolidate":
            state, _ = AGOT1E.advance(state, force=True)
    return count / (time.process_time() - started)


def action_phase(seed: int) -> tuple[float, int]:
    """Seconds for one 5-house action phase in which every area holds a march order (bots decide)."""
    rng = random.Random(seed)
    state = AGOT1E.new_game(["stark", "lannister", "baratheon", "greyjoy", "tyrell"], {}, seed)
    ctx = ctx_of(state)
    for house in state["houses"]:
        areas = [a for a in state["areas"] if next(iter(state["areas"][a])) == house]
        tokens = ["march -1", "march 0", "march +1*", "support"]
        orders = "\n".join(f"{ctx.area(a)}: {tokens[i]}" for i, a in enumerate(areas))
        state = AGOT1E.submit(state, house, "ORDERS\n" + orders).state
    state, _ = AGOT1E.advance(state, force=True)  # reveal
    marches = sum(1 for t in state["orders"].values() if t.startswith("march"))
    started = time.process_time()
    while state["phase"] == "action" or state["step"] == "raven":
        for owed in AGOT1E.pending(state):
            if not owed.done and (text := bot.mail_for(state, ctx, owed.player, rng)):
                sub = AGOT1E.submit(state, owed.player, text)
                state = sub.state if sub.applied else state
        state, _ = AGOT1E.advance(state, force=not all(o.done for o in AGOT1E.pending(state)))
    return time.process_time() - started, marches


def main() -> None:
    rates = [battles_per_second(300) for _ in range(5)]
    print(f"agot1e battles (support example, 3 supporters): {statistics.median(rates):7.0f} battles/s of CPU time "
          f"(median of 5 runs of 300; best {max(rates):.0f})")
    runs = [action_phase(seed) for seed in range(20)]
    times = [t for t, _ in runs]
    print(f"agot1e 5-house action phase, {runs[0][1]} march orders, bots deciding: "
          f"median {statistics.median(times) * 1000:.1f} ms (min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f})")


if __name__ == "__main__":
    main()
