"""The drawn AGoT board of either edition: area shapes derived from the cell layout in
``games/<edition>/vN/board.yaml`` (agot1e's 45 areas, agot2e's 58 with its ports).

The board is authored as data, not code: ``layout`` is a grid of characters, one per cell, each
naming the area (land or sea) that covers that cell (``codes`` maps characters to area ids).
Everything drawn is derived from it here, so the picture cannot disagree with itself:

- the border between two areas is the chain of cell edges they share, cut at the points where
  three or more areas (or the frame) meet; each chain is smoothed once (Chaikin's corner cutting,
  ``smoothing`` passes, ends fixed), and both areas use the very same points, so neighbours share
  their border exactly and nothing overlaps or leaves a gap;
- an area's outline is its chains joined in order (an area with an island in it, such as
  Ironman's Bay around Pyke, gets an inner ring too: drawn with the even-odd rule);
- two areas touch in the drawing exactly when their cells share an edge or a corner, which is what
  the adjacency test compares with ``map.yaml`` (a 2nd-edition port is a small area of its own, in
  the water beside its castle, touching only that land area and its one sea); ``rivers`` lists the land pairs that touch but are
  not adjacent, and their shared chains are drawn as rivers.

``places`` gives, per area, where its name, units, order token, power token and neutral force
token go (grid units: x to the right, y down, cell ``(x, y)`` covers ``[x, x+1] x [y, y+1]``).

Pure: reads YAML once per data version (cached), does no drawing of its own.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ... import yamlio
from ...paths import GAMES_DIR

FRAME = "<frame>"  # the region outside the board
PLACE_KEYS = ("label", "units", "order", "power")


class BoardShapeError(ValueError):
    """board.yaml cannot be turned into a board (named cell, area or pair)."""


Point = tuple[float, float]


@dataclass(frozen=True)
class Chain:
    """A stretch of border between two regions (``FRAME`` for the outside), as smoothed points."""

    left: str
    right: str
    points: tuple[Point, ...]


@dataclass
class Shapes:
    width: int  # cells
    height: int
    cell: float  # pixels per cell in the picture
    grid: tuple[str, ...]  # area id per cell, row by row (row-major list of rows)
    rings: dict[str, list[list[Point]]]  # area -> rings of grid-unit points (outer first)
    chains: list[Chain]
    rivers: list[tuple[str, str]]
    places: dict[str, dict[str, Point]]
    cells: dict[str, list[tuple[int, int]]] = field(default_factory=dict)

    def touching(self) -> set[frozenset[str]]:
        """Pairs of areas whose cells share an edge or a corner."""
        pairs: set[frozenset[str]] = set()
        w, h, g = self.width, self.height, self.grid
        for y in range(h):
            for x in range(w):
                a = g[y * w + x]
                for dx, dy in ((1, 0), (0, 1), (1, 1), (-1, 1)):
                    nx, ny = x + dx, y + dy
                    if 0 <= nx < w and ny < h:
                        b = g[ny * w + nx]
                        if a != b:
                            pairs.add(frozenset((a, b)))
        return pairs

    def river_chains(self) -> list[Chain]:
        wanted = {frozenset(p) for p in self.rivers}
        return [c for c in self.chains if frozenset((c.left, c.right)) in wanted]


def board_path(edition: str, data_version: str) -> Path:
    return GAMES_DIR / edition / data_version / "board.yaml"


@cache
def shapes_for(edition: str, data_version: str) -> Shapes:
    """The board of ``games/<edition>/<data_version>/board.yaml`` (cached: it never changes in a run)."""
    path = board_path(edition, data_version)
    data = yamlio.load_mapping(path)
    try:
        return derive(data, str(path))
    except (ValueError, TypeError, KeyError, AttributeError) as exc:  # a GM's fix: named as the file's error
        raise yamlio.YamlFileError(path, str(exc).removeprefix(f"{path}: ")) from None


def derive(data: dict, source: str = "board.yaml") -> Shapes:
    """Shapes from the parsed board.yaml (``source`` names it in errors)."""
    codes = {str(k): str(v) for k, v in (data.get("codes") or {}).items()}
    for code in codes:
        if len(code) != 1:
            raise BoardShapeError(f"{source}: code {code!r} is not one character")
    rows = [r.rstrip() for r in str(data.get("layout") or "").splitlines() if r.strip()]
    if not rows:
        raise BoardShapeError(f"{source}: no layout")
    width, height = len(rows[0]), len(rows)
    grid: list[str] = []
    for y, row in enumerate(rows):
        if len(row) != width:
            raise BoardShapeError(f"{source}: layout row {y} has {len(row)} cells, not {width}")
        for x, ch in enumerate(row):
            if ch not in codes:
                raise BoardShapeError(f"{source}: layout cell ({x}, {y}) has the unknown code {ch!r}")
            grid.append(codes[ch])
    cells: dict[str, list[tuple[int, int]]] = {}
    for i, area in enumerate(grid):
        cells.setdefault(area, []).append((i % width, i // width))
    missing = set(codes.values()) - set(cells)
    if missing:
        raise BoardShapeError(f"{source}: no cells for {', '.join(sorted(missing))}")

    def region(x: int, y: int) -> str:
        return grid[y * width + x] if 0 <= x < width and 0 <= y < height else FRAME

    _check_pinches(region, width, height, source)
    bend, warp = _bender(width, height, data.get("warp") or {}, float(data.get("jitter", 0.0)))
    chains, by_edge = _chains(region, width, height, int(data.get("smoothing", 2)), bend)
    rings = {area: _rings(area, region, width, height, chains, by_edge) for area in cells}
    rivers = [tuple(str(a) for a in pair) for pair in data.get("rivers") or []]
    for pair in rivers:
        if len(pair) != 2 or not all(a in cells for a in pair):
            raise BoardShapeError(f"{source}: river {list(pair)} does not name two areas of the layout")
    places = {}
    for area, spots in (data.get("places") or {}).items():
        if area not in cells:
            raise BoardShapeError(f"{source}: places for {area!r}, which is not in the layout")
        places[str(area)] = {str(k): warp(float(v[0]), float(v[1])) for k, v in (spots or {}).items()}
    return Shapes(width, height, float(data.get("cell", 16)), tuple(grid), rings, chains, rivers, places, cells)


def _check_pinches(region, width: int, height: int, source: str) -> None:
    """Refuse a corner where one area meets itself only diagonally (its outline would pinch)."""
    for y in range(height + 1):
        for x in range(width + 1):
            a, b, c, d = region(x - 1, y - 1), region(x, y - 1), region(x - 1, y), region(x, y)
            if (a == d and b != a and c != a and a != FRAME) or (b == c and a != b and d != b and b != FRAME):
                raise BoardShapeError(f"{source}: at grid point ({x}, {y}) an area touches itself only at a corner")


def _bender(width: int, height: int, warp: dict, jitter: float):
    """Where a point is drawn: a smooth wave (``warp``: ``amplitude`` and ``wavelength`` in cells)
    fading out towards the frame, plus for grid points a small fixed ``jitter``, so that straight
    borders look drawn by hand. Points on the frame stay put. Both depend on the point alone, so
    every chain through a grid point moves it the same way. Returns (bend for grid points, warp
    for any point: the places)."""
    amplitude = float(warp.get("amplitude", 0.0))
    wavelength = float(warp.get("wavelength", 16.0))
    if jitter >= 0.25 or amplitude * (2 * math.pi / wavelength + 0.25) >= 0.6:
        raise BoardShapeError("board.yaml: warp or jitter so strong that borders could cross")

    def smooth(x: float, y: float) -> Point:
        fade = max(0.0, min(1.0, x / 4, (width - x) / 4, y / 4, (height - y) / 4))
        return (x + amplitude * fade * math.sin(2 * math.pi * y / wavelength + 1.3),
                y + amplitude * fade * math.sin(2 * math.pi * x / wavelength + 0.4))

    def bend(p: tuple[int, int]) -> Point:
        x, y = p
        if x in (0, width) or y in (0, height):
            return float(x), float(y)
        h = zlib.crc32(f"{x},{y}".encode())
        jx = ((h & 0xFFFF) / 0xFFFF - 0.5) * 2 * jitter
        jy = (((h >> 16) & 0xFFFF) / 0xFFFF - 0.5) * 2 * jitter
        sx, sy = smooth(x, y)
        return sx + jx, sy + jy

    return bend, smooth


def _chains(region, width: int, height: int, passes: int, bend):
    """Border chains between junctions, smoothed; and unit edge -> (chain index, forward?)."""
    # Unit edges between different regions, keyed by their two end points (sorted).
    edges: dict[tuple[tuple[int, int], tuple[int, int]], tuple[str, str]] = {}
    for y in range(-1, height):
        for x in range(-1, width):
            here = region(x, y)
            if 0 <= x + 1 <= width and 0 <= y + 1 <= height:
                right, below = region(x + 1, y), region(x, y + 1)
                if here != right and not (here == FRAME and right == FRAME) and y >= 0:
                    edges[((x + 1, y), (x + 1, y + 1))] = (here, right)
                if here != below and not (here == FRAME and below == FRAME) and x >= 0:
                    edges[((x, y + 1), (x + 1, y + 1))] = (here, below)
    at: dict[tuple[int, int], list] = {}
    for key in edges:
        for p in key:
            at.setdefault(p, []).append(key)

    def is_node(p: tuple[int, int]) -> bool:
        x, y = p
        around = {region(x - 1, y - 1), region(x, y - 1), region(x - 1, y), region(x, y)}
        corner = x in (0, width) and y in (0, height)
        return len(around) >= 3 or corner or len(at[p]) != 2

    chains: list[Chain] = []
    by_edge: dict = {}
    done: set = set()

    def walk(start: tuple[int, int], first) -> None:
        pair = edges[first]
        pts = [start]
        key, p = first, start
        while True:
            done.add(key)
            q = key[1] if key[0] == p else key[0]
            pts.append(q)
            by_edge[key] = (len(chains), key[0] == p)  # forward if the chain runs key[0] -> key[1]
            if q == start or is_node(q):
                break
            nxt = [k for k in at[q] if k != key and k not in done]
            if not nxt:
                break
            key, p = nxt[0], q
        left, right = pair
        frame = FRAME in pair
        closed = pts[0] == pts[-1] and not is_node(pts[0])
        smooth = [(float(a), float(b)) for a, b in pts] if frame else _chaikin([bend(q) for q in pts], passes, closed=closed)
        smooth = _simplify(smooth)
        chains.append(Chain(left, right, tuple(smooth)))

    for p in sorted(at):
        if is_node(p):
            for key in sorted(at[p]):
                if key not in done:
                    walk(p, key)
    for key in sorted(edges):  # closed loops with no junction: islands
        if key not in done:
            walk(key[0], key)
    return chains, by_edge


def _chaikin(pts: list[Point], passes: int, closed: bool) -> list[Point]:
    """Chaikin corner cutting; the end points of an open chain stay where they are."""
    out: list[Point] = list(pts)
    for _ in range(passes):
        if len(out) < 3:
            break
        if closed:
            ring = out[:-1]
            new = []
            for i, p in enumerate(ring):
                q = ring[(i + 1) % len(ring)]
                new += [(0.75 * p[0] + 0.25 * q[0], 0.75 * p[1] + 0.25 * q[1]),
                        (0.25 * p[0] + 0.75 * q[0], 0.25 * p[1] + 0.75 * q[1])]
            out = new + [new[0]]
        else:
            new = [out[0]]
            for i in range(len(out) - 1):
                p, q = out[i], out[i + 1]
                if i > 0:
                    new.append((0.75 * p[0] + 0.25 * q[0], 0.75 * p[1] + 0.25 * q[1]))
                if i < len(out) - 2:
                    new.append((0.25 * p[0] + 0.75 * q[0], 0.25 * p[1] + 0.75 * q[1]))
            new.append(out[-1])
            out = new
    return out


def _simplify(pts: list[Point], tolerance: float = 0.015) -> list[Point]:
    """Drop points that lie (almost) on the line through their neighbours: straight stretches
    need only their ends, and a smaller SVG draws faster. The ends are kept."""
    if len(pts) < 3:
        return pts
    out = [pts[0]]
    for i in range(1, len(pts) - 1):
        (ax, ay), (bx, by), (cx, cy) = out[-1], pts[i], pts[i + 1]
        length = math.hypot(cx - ax, cy - ay)
        if length == 0 or abs((cx - ax) * (by - ay) - (cy - ay) * (bx - ax)) / length > tolerance:
            out.append(pts[i])
    out.append(pts[-1])
    return out


def _rings(area: str, region, width: int, height: int, chains: list[Chain], by_edge: dict) -> list[list[Point]]:
    """The outline rings of ``area``: its directed boundary edges (area on the left when going
    round counter-clockwise on screen) linked up, then each run of edges replaced by its chain."""
    nxt: dict[tuple[int, int], tuple[int, int]] = {}
    for y in range(height):
        for x in range(width):
            if region(x, y) != area:
                continue
            # Going round the cell with y pointing down: top edge right-to-left, left edge down, ...
            if region(x, y - 1) != area:
                nxt[(x + 1, y)] = (x, y)
            if region(x - 1, y) != area:
                nxt[(x, y)] = (x, y + 1)
            if region(x, y + 1) != area:
                nxt[(x, y + 1)] = (x + 1, y + 1)
            if region(x + 1, y) != area:
                nxt[(x + 1, y + 1)] = (x + 1, y)
    rings = []
    seen: set = set()
    for start in sorted(nxt):
        if start in seen:
            continue
        loop = [start]
        p = start
        while True:
            seen.add(p)
            p = nxt[p]
            if p == start:
                break
            loop.append(p)
        rings.append(_replace_by_chains(loop, chains, by_edge))
    # outer ring first: the one with the largest extent
    rings.sort(key=lambda r: -(max(x for x, _ in r) - min(x for x, _ in r)) * (max(y for _, y in r) - min(y for _, y in r)))
    return rings


def _replace_by_chains(loop: list[tuple[int, int]], chains: list[Chain], by_edge: dict) -> list[Point]:
    n = len(loop)
    steps = []
    for i in range(n):
        a, b = loop[i], loop[(i + 1) % n]
        key = (a, b) if a < b else (b, a)
        index, forward = by_edge[key]
        steps.append((index, forward == (key[0] == a)))  # True if walking the chain in its own direction
    # rotate so that the loop starts at the beginning of a chain
    start = 0
    for i in range(n):
        if steps[i] != steps[i - 1]:
            start = i
            break
    steps = steps[start:] + steps[:start]
    out: list[Point] = []
    i = 0
    while i < n:
        index, along = steps[i]
        j = i
        while j < n and steps[j] == (index, along):
            j += 1
        pts = list(chains[index].points)
        if not along:
            pts.reverse()
        out.extend(pts[:-1])
        i = j
    return out
