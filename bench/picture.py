"""Benchmark of the board picture: the PNG of one report for a mid-game 5-house position.

Run: ``python bench/picture.py [--runs N]``. A report's picture is drawn once per player and
version (``Postmaster.report_new_versions``): view -> the picture's model and sprites
(``rulesets/agot/picture.py``, the shared AGoT picture, here agot1e's board) -> PNG composed on the cached static layers
(``adjudicator/layered.py``). Reported apart:

- the first picture of a process: the board's shapes derived, the template compiled, the static
  layers drawn, every sprite drawn; and the first picture in a second language (its static layers);
- the report picture: the same position for each player in turn, alternately in English and
  Czech, each run with a new caption (as each version has), so at least one sprite is new each time;
- a game's versions: every step of rounds 2 to 4 of the same game, each drawn for all five houses,
  as the reports of those versions would be: units move, tokens change, new sprites are drawn;
- for comparison, the same picture as one SVG rendered whole by resvg (the way before layers);
- the table pictures of Oriflamme (4 families, round 4, resolving) and Claim 2 (3 players, a trick
  under way): the first picture, then a report picture each run as above.

Each figure is wall time, with the process's CPU time beside it: on a machine shared with other
work the wall time grows, the CPU time much less.

A benchmark, not a test: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import time

from adjudicator import layered
from adjudicator.picture import png_from_svg
from adjudicator.ruleset import get
from adjudicator.rulesets.agot1e import picture
from adjudicator.rulesets.claim import picture as claim_picture
from adjudicator.rulesets.oriflamme import picture as oriflamme_picture
from adjudicator.selfplay import play

HOUSES = ["stark", "lannister", "baratheon", "greyjoy", "tyrell"]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


class _Timer:
    """Wall and CPU time of each timed call."""

    def __init__(self):
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def __call__(self, draw):
        w, c = time.perf_counter(), time.process_time()
        result = draw()
        self.wall.append(time.perf_counter() - w)
        self.cpu.append(time.process_time() - c)
        return result

    def median(self) -> str:
        return f"{_ms(statistics.median(self.wall))} (CPU {_ms(statistics.median(self.cpu))})"

    def last(self) -> str:
        return f"{_ms(self.wall[-1])} (CPU {_ms(self.cpu[-1])})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    rs = get("agot1e")
    versions: list[dict] = []

    def collect(state: dict) -> bool:
        if state["round"] >= 2:
            versions.append(copy.deepcopy(state))
        return state["round"] == 4 and state["step"] == "march"

    state = play(rs, HOUSES, 3, stop=collect).state
    layered.clear_caches()
    first, first_cs = _Timer(), _Timer()
    first(lambda: picture.png(rs.view(state, "stark"), "stark", "en", caption="bench"))
    first_cs(lambda: picture.png(rs.view(state, "stark"), "stark", "cs", caption="bench"))

    report, sizes = _Timer(), []
    for i in range(args.runs):
        player = HOUSES[i % len(HOUSES)]
        language = "cs" if i % 2 else "en"
        png = report(lambda: picture.png(rs.view(state, player), player, language, caption=f"bench v{i + 1}"))
        sizes.append(len(png))

    per_version = _Timer()
    for number, version in enumerate(versions, start=100):
        for i, player in enumerate(HOUSES):
            language = "cs" if i % 2 else "en"
            per_version(lambda: picture.png(rs.view(version, player), player, language, caption=f"bench v{number}"))

    whole = _Timer()
    for i in range(min(args.runs, 5)):
        player = HOUSES[i % len(HOUSES)]
        whole(lambda: png_from_svg(picture.svg(rs.view(state, player), player, "en", caption=f"bench v{i + 1}")))

    print(f"first picture of a process (board derived, template compiled, static layers and sprites drawn): "
          f"{first.last()}; first in a second language: {first_cs.last()}")
    print(f"report picture, {args.runs} runs: median {report.median()}, min {_ms(min(report.wall))}, "
          f"max {_ms(max(report.wall))}; PNG {statistics.median(sizes) / 1024:.0f} KiB")
    print(f"a game's versions ({len(versions)} steps x {len(HOUSES)} houses): median {per_version.median()}, "
          f"max {_ms(max(per_version.wall))}")
    print(f"for comparison, the SVG rendered whole by resvg: median {whole.median()}")
    tables = (
        ("Oriflamme", "oriflamme", oriflamme_picture, ["red", "blue", "green", "yellow"],
         lambda s: s["round"] == 4 and s["phase"] == "resolve"),
        ("Claim 2", "claim2", claim_picture, ["alice", "bob", "carol"],
         lambda s: s["phase"] == 1 and s["trick"] == 5 and len(s["table"]) == 2),
    )
    for title, name, module, players, stop in tables:
        rs = get(name)
        table = play(rs, players, 5, stop=stop).state
        first, runs = _Timer(), _Timer()
        first(lambda: module.png(rs.view(table, players[0]), players[0], "en", caption="bench"))
        for i in range(args.runs):
            player = players[i % len(players)]
            language = "cs" if i % 2 else "en"
            runs(lambda: module.png(rs.view(table, player), player, language, caption=f"bench v{i + 1}"))
        print(f"{title} table picture: first {first.last()}; {args.runs} runs: median {runs.median()}, "
              f"max {_ms(max(runs.wall))}")

if __name__ == "__main__":
    main()
