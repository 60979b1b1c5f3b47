"""Checks of a drawn AGoT board (``games/<edition>/vN/board.yaml``, adjudicator/rulesets/agot/mapshapes.py)
against its ``map.yaml``, shared by both editions' picture tests (tests/agot1e/test_board_picture.py,
tests/agot2e/test_agot2e_picture.py), and the comparison of a PNG drawn in layers with the SVG drawn whole.

Touching = the drawn outlines share a point (a border or a corner). Two areas touch exactly when map.yaml
says they are adjacent, except the land pairs board.yaml lists as split by a river: they touch, are not
adjacent, and their border is drawn as a river.
"""

from __future__ import annotations

import io
import struct
import xml.etree.ElementTree as ET

from PIL import Image, ImageChops

from adjudicator.rulesets.agot.mapshapes import FRAME

SVG = "{http://www.w3.org/2000/svg}"


def drawn_points(shapes) -> dict[str, set]:
    return {area: {(round(x, 6), round(y, 6)) for ring in rings for x, y in ring} for area, rings in shapes.rings.items()}


def touching(shapes) -> set[frozenset]:
    points = drawn_points(shapes)
    areas = sorted(points)
    return {frozenset((a, b)) for i, a in enumerate(areas) for b in areas[i + 1:] if points[a] & points[b]}


def assert_touching_is_adjacency(shapes, board_map: dict) -> None:
    touch = touching(shapes)
    adjacent = {frozenset(pair) for pair in board_map["borders"]}
    rivers = {frozenset(pair) for pair in shapes.rivers}
    name = lambda pairs: sorted(tuple(sorted(p)) for p in pairs)  # noqa: E731
    assert name(adjacent - touch) == [], "adjacent in map.yaml but apart in the drawing"
    assert name(touch - adjacent - rivers) == [], "touching in the drawing but not adjacent in map.yaml"
    assert name(rivers & adjacent) == [] and name(rivers - touch) == []
    assert touch == shapes.touching(), "the drawn outlines and the cell layout disagree"
    for pair in rivers:  # each river is drawn, and only between land areas
        assert all(board_map["areas"][a]["kind"] == "land" for a in pair)
        assert any(frozenset((c.left, c.right)) == pair for c in shapes.river_chains())


def _segments(shapes):
    for index, chain in enumerate(shapes.chains):
        for p, q in zip(chain.points, chain.points[1:]):
            yield index, p, q


def _cross(p, q, r, s) -> bool:
    def orient(a, b, c):
        v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return 0 if abs(v) < 1e-12 else (1 if v > 0 else -1)

    if {p, q} & {r, s}:
        return False  # chains meet at their shared end points
    o1, o2, o3, o4 = orient(p, q, r), orient(p, q, s), orient(r, s, p), orient(r, s, q)
    return o1 * o2 < 0 and o3 * o4 < 0 or (0 in (o1, o2, o3, o4) and _touch(p, q, r, s))


def _touch(p, q, r, s) -> bool:
    def on(a, b, c):
        return (min(a[0], b[0]) - 1e-9 <= c[0] <= max(a[0], b[0]) + 1e-9
                and min(a[1], b[1]) - 1e-9 <= c[1] <= max(a[1], b[1]) + 1e-9
                and abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) < 1e-12)

    return on(p, q, r) or on(p, q, s) or on(r, s, p) or on(r, s, q)


def crossing_borders(shapes) -> set:
    """The pairs of border chains that cross or touch between their ends (none on a good board)."""
    buckets: dict[tuple[int, int], list] = {}
    for seg in _segments(shapes):
        _, p, q = seg
        for bx in range(int(min(p[0], q[0])), int(max(p[0], q[0])) + 1):
            for by in range(int(min(p[1], q[1])), int(max(p[1], q[1])) + 1):
                buckets.setdefault((bx, by), []).append(seg)
    bad = set()
    for segs in buckets.values():
        for i, (ci, p, q) in enumerate(segs):
            for cj, r, s in segs[i + 1:]:
                if ci == cj and ({p, q} & {r, s}):
                    continue
                if _cross(p, q, r, s):
                    bad.add((shapes.chains[ci].left, shapes.chains[ci].right, shapes.chains[cj].left, shapes.chains[cj].right))
    return bad


def inside(rings, x: float, y: float) -> bool:
    result = False
    for ring in rings:
        for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1]):
            if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
                result = not result
    return result


def assert_places_inside(shapes, board_map: dict) -> None:
    """Every area has its places (power on land, a neutral force token where map.yaml gives one, a
    garrison where it has one), each inside the area, units, order and power apart."""
    for area, info in board_map["areas"].items():
        spots = shapes.places[area]
        wanted = {"label", "units", "order"} | ({"power"} if info["kind"] == "land" else set())
        wanted |= {"neutral"} if info.get("neutral_force") else set()
        wanted |= {"garrison"} if info.get("garrison") else set()
        assert wanted <= set(spots), area
        for key, (x, y) in spots.items():
            assert inside(shapes.rings[area], x, y), f"{area}: {key} at ({x:.1f}, {y:.1f}) lies outside the area"
        apart = ("units", "order") + tuple(k for k in ("power", "garrison") if k in spots)
        assert len({spots[k] for k in apart}) == len(apart), area


def assert_frame_chains_on_the_frame(shapes) -> None:
    for chain in shapes.chains:
        if FRAME in (chain.left, chain.right):
            assert all(x in (0, shapes.width) or y in (0, shapes.height) for x, y in chain.points)


def centre(shapes, area: str) -> tuple[float, float]:
    cells = shapes.cells[area]
    return sum(x for x, _ in cells) / len(cells), sum(y for _, y in cells) / len(cells)


def tree(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    """The SVG groups of class ``cls`` (units, order tokens, ... carry data-area / data-house)."""
    return [g for g in root.iter(SVG + "g") if cls in (g.get("class") or "").split()]


def area_paths(root: ET.Element) -> list[str]:
    return [p.get("id") for p in root.iter(SVG + "path") if "area" in (p.get("class") or "").split()]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def rgb(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def assert_same_picture(got: Image.Image, whole: Image.Image) -> None:
    """The PNG drawn in layers equals the SVG drawn whole within 8-bit rounding."""
    assert got.size == whole.size
    diff = ImageChops.difference(got, whole).convert("L")
    histogram = diff.histogram()
    assert max(i for i, n in enumerate(histogram) if n) <= 12, "a pixel differs by more than rounding"
    assert sum(histogram[4:]) <= 100, "more than a few pixels differ by more than rounding"
