"""Benchmark of the board picture: the SVG and the PNG of one report for a mid-game 5-house position.

Run: ``python bench/picture.py [--runs N]``. A report's picture is drawn once per player and
version (``Postmaster.report_new_versions``): view -> SVG (``rulesets/agot1e/picture.py``) ->
PNG (``adjudicator/picture.py``, resvg with the project's font). The first drawing also derives
the board's shapes and compiles the template (cached afterwards); it is reported apart.
A benchmark, not a test: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import statistics
import time

from adjudicator.picture import png_from_svg
from adjudicator.ruleset import get
from adjudicator.rulesets.agot1e import picture
from adjudicator.selfplay import play

HOUSES = ["stark", "lannister", "baratheon", "greyjoy", "tyrell"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    rs = get("agot1e")
    state = play(rs, HOUSES, 3, stop=lambda s: s["round"] == 4 and s["step"] == "march").state
    started = time.perf_counter()
    png_from_svg(picture.svg(rs.view(state, "stark"), "stark", "en", caption="bench"))
    first = time.perf_counter() - started
    svg_ms, png_ms, total_ms = [], [], []
    size = 0
    for i in range(args.runs):
        player = HOUSES[i % len(HOUSES)]
        t0 = time.perf_counter()
        svg = picture.svg(rs.view(state, player), player, "cs" if i % 2 else "en", caption="bench")
        t1 = time.perf_counter()
        png = png_from_svg(svg)
        t2 = time.perf_counter()
        svg_ms.append((t1 - t0) * 1000)
        png_ms.append((t2 - t1) * 1000)
        total_ms.append((t2 - t0) * 1000)
        size = len(png)
    print(f"first picture (shapes derived, template compiled): {first * 1000:.0f} ms")
    print(f"report picture, {args.runs} runs: median {statistics.median(total_ms):.1f} ms "
          f"(SVG {statistics.median(svg_ms):.1f} ms, PNG {statistics.median(png_ms):.1f} ms), "
          f"min {min(total_ms):.1f} ms, max {max(total_ms):.1f} ms; PNG {size / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
