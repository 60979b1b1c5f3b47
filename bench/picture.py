"""Benchmark of the board picture: the PNG of one report for a mid-game 5-house position.

Run: ``python bench/picture.py [--runs N]``. A report's picture is drawn once per player and
version (``Postmaster.report_new_versions``): view -> the picture's model and sprites
(``rulesets/agot1e/picture.py``) -> PNG composed on the cached static layers
(``adjudicator/layered.py``). Reported apart:

- the first picture of a process: the board's shapes derived, the template compiled, the static
  layers drawn, every sprite drawn; and the first picture in a second language (its static layers);
- the report picture: the same position for each player in turn, alternately in English and
  Czech, each run with a new caption (as each version has), so at least one sprite is new each time;
- a game's versions: every step of rounds 2 to 4 of the same game, each drawn for all five houses,
  as the reports of those versions would be: units move, tokens change, new sprites are drawn;
- for comparison, the same picture as one SVG rendered whole by resvg (the way before layers).

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

if __name__ == "__main__":
    main()
