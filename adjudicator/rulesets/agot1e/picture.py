"""The agot1e board as a picture (SVG), drawn from one player's view only.

:func:`svg` is found by ``adjudicator/reports.py`` (a module named ``picture`` in the ruleset's
package, like ``display``) and is handed ``ruleset.view(state, player)``, never the state: what
the view does not hold cannot be drawn. Another house's orders before the reveal are in no view
(they live in that house's secret plan), so they are not drawn at all, not even face down; the
player's own orders from their plan are drawn on their own picture, marked as not yet revealed.
The GM's view (player None) holds everything and draws every house's planned orders.

Split of the work: this module turns the view and the drawn board (:mod:`.mapshapes`, from
``games/agot1e/vN/board.yaml``) into a plain model of shapes, positions and words; the markup is
the Jinja template ``templates/pictures/agot1e/board.svg.j2``; the words of each language are in
``templates/<language>/agot1e/picture.yaml``. Area names stay as on the board in every language.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

import jinja2

from ... import yamlio
from ...paths import TEMPLATES_DIR
from . import position as pos
from .context import ctx_for
from .mapshapes import FRAME, Shapes, shapes_for

PANEL_WIDTH = 300
UNIT_STEP = 14  # pixels between the units of one area
TRACKS = ("iron_throne", "fiefdoms", "kings_court")


@cache
def _template() -> jinja2.Template:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES_DIR / "pictures"),
                             undefined=jinja2.StrictUndefined, autoescape=True, trim_blocks=True, lstrip_blocks=True)
    return env.get_template("agot1e/board.svg.j2")


@cache
def words(language: str) -> dict:
    """The picture's words in ``language`` (``templates/<language>/agot1e/picture.yaml``)."""
    return yamlio.load_mapping(TEMPLATES_DIR / language / "agot1e" / "picture.yaml")


@cache
def _board_yaml(data_version: str) -> dict:
    from .mapshapes import board_path
    return yamlio.load_mapping(board_path(data_version))


def svg(view: dict, player: str | None, language: str = "en", *, caption: str = "") -> str:
    """The board as ``player`` may see it (None: the GM), as an SVG document."""
    return _template().render(model(view, player, language, caption=caption))


def model(view: dict, player: str | None, language: str = "en", *, caption: str = "") -> dict[str, Any]:
    """Everything the template draws, from ``view`` only."""
    data_version = view["data_version"]
    ctx = ctx_for(data_version, tuple(view["houses"]))
    gd = ctx.gd
    shapes = shapes_for(data_version)
    colours = _board_yaml(data_version)["colours"]
    house_colours = colours["houses"]
    w = words(language)
    c = shapes.cell

    def xy(p) -> tuple[float, float]:
        return round(p[0] * c, 1), round(p[1] * c, 1)

    def colour(house: str) -> dict:
        return house_colours.get(house) or {"token": "#777777", "ink": "#ffffff", "tint": "#cccccc"}

    areas, labels, units, orders, powers, neutrals = [], [], [], [], [], []
    planned = _planned_orders(view, player)
    for area_id, rings in shapes.rings.items():
        info = gd.board.area(area_id)
        sea = info.kind == "sea"
        held = None if sea else pos.controller(view, gd, area_id)
        fill = colours["sea"] if sea else (colour(held)["tint"] if held else colours["land"])
        areas.append({
            "id": area_id, "kind": info.kind, "fill": fill, "controller": held or "",
            "d": " ".join("M" + " L".join(f"{x * c:.1f},{y * c:.1f}" for x, y in ring) + " Z" for ring in rings),
        })
        spots = shapes.places.get(area_id, {})
        lx, ly = xy(spots["label"])
        labels.append({"x": lx, "y": ly, "lines": _wrap(info.name), "sea": sea, "castle": info.castle,
                       "supply": info.supply, "power": info.power, "home": bool(info.home_of)})
        found = pos.occupant(view, area_id)
        if found:
            house, present = found
            routed = Counter(view["routed"].get(area_id, []))
            ux, uy = xy(spots["units"])
            row = pos.sort_units(present)
            left = ux - (len(row) - 1) * UNIT_STEP / 2
            for i, kind in enumerate(row):
                is_routed = routed[kind] > 0
                if is_routed:
                    routed[kind] -= 1
                units.append({"x": round(left + i * UNIT_STEP, 1), "y": uy, "kind": kind, "house": house,
                              "area": area_id, "routed": is_routed, **colour(house)})
        text = view["orders"].get(area_id)
        is_planned = False
        if text is None and area_id in planned:
            text, is_planned = planned[area_id], True
        if text is not None:
            ox, oy = xy(spots["order"])
            owner = pos.owner(view, area_id) or ""
            orders.append({"x": ox, "y": oy, "label": _order_label(text, w), "text": text, "area": area_id,
                           "house": owner, "planned": is_planned, **colour(owner)})
        if area_id in view["control"]:
            px, py = xy(spots["power"])
            house = view["control"][area_id]
            powers.append({"x": px, "y": py, "house": house, "area": area_id, **colour(house)})
        if view["neutral"].get(area_id):
            nx, ny = xy(spots.get("neutral", spots["units"]))
            neutrals.append({"x": nx, "y": ny, "strength": view["neutral"][area_id], "area": area_id})
    rivers = [" ".join(f"{x * c:.1f},{y * c:.1f}" for x, y in chain.points) for chain in shapes.river_chains()]
    borders = _borders(shapes, gd, c)

    map_w, map_h = shapes.width * c, shapes.height * c
    return {
        "width": map_w + PANEL_WIDTH, "height": map_h, "map_w": map_w, "map_h": map_h,
        "colours": colours, "areas": areas, "borders": borders, "rivers": rivers, "labels": labels, "units": units,
        "orders": orders, "powers": powers, "neutrals": neutrals,
        "panel": _panel(view, player, gd, ctx, w, colour, map_w, caption),
        "language": language,
    }


def _borders(shapes: Shapes, gd, c: float) -> dict[str, str]:
    """Every border once, as one path per kind: ``land`` (between land areas), ``coast``, ``sea``
    (between seas). Rivers are drawn on their own; the frame is not drawn."""
    paths: dict[str, list[str]] = {"land": [], "coast": [], "sea": []}
    rivers = {frozenset(p) for p in shapes.rivers}
    for chain in shapes.chains:
        if FRAME in (chain.left, chain.right) or frozenset((chain.left, chain.right)) in rivers:
            continue
        seas = gd.board.is_sea(chain.left) + gd.board.is_sea(chain.right)
        kind = ("land", "coast", "sea")[seas]
        paths[kind].append("M" + " L".join(f"{x * c:.1f},{y * c:.1f}" for x, y in chain.points))
    return {kind: " ".join(parts) for kind, parts in paths.items()}


def _planned_orders(view: dict, player: str | None) -> dict[str, str]:
    """Orders on file but not yet on the board: the player's own plan (the GM: every plan)."""
    if player is None:
        plans = (view.get("plans") or {}).values()
    else:
        plans = [view.get("plan") or {}]
    out: dict[str, str] = {}
    for plan in plans:
        out.update((plan or {}).get("orders") or {})
    return out


def _order_label(text: str, w: dict) -> str:
    """``march -1`` -> ``M-1``, ``raid*`` -> ``R*`` (letters per language)."""
    head, _, bonus = text.partition(" ")
    kind = head.rstrip("*")
    star = head.endswith("*") or bonus.endswith("*")
    bonus = bonus.rstrip("*").strip()
    letter = w["order_letters"].get(kind, kind[:1].upper())
    return f"{letter}{'' if bonus in ('', '0', '+0') else bonus}{'*' if star else ''}"


def _wrap(name: str, width: int = 13) -> list[str]:
    """A long area name on two lines, split at the space nearest the middle."""
    if len(name) <= width or " " not in name:
        return [name]
    spaces = [i for i, ch in enumerate(name) if ch == " "]
    cut = min(spaces, key=lambda i: abs(i - len(name) / 2))
    return [name[:cut], name[cut + 1:]]


def _panel(view: dict, player: str | None, gd, ctx, w: dict, colour, x0: float, caption: str) -> dict:
    """The side panel: who looks, round and step, the three influence tracks, per house its power
    tokens, supply (and the armies it allows) and castles, the wildling track, rounds, a legend."""
    houses = list(view["houses"])
    chips = {h: {"id": h, "name": ctx.house(h), **colour(h)} for h in houses}
    rounds = gd.setup.rounds
    phase = w["phase"].get(view["phase"], view["phase"])
    step = w["step"].get(view["step"], view["step"])
    title = w["round"].format(round=min(view["round"], rounds), rounds=rounds)
    status = phase if view["phase"] == "over" else f"{phase}: {step}"
    if view.get("winner") == "draw":
        status = w["draw"]
    elif view.get("winner"):
        status = w["winner"].format(house=ctx.house(view["winner"]))
    supply_levels = max(gd.setup.supply_armies)
    return {
        "x": x0 + 14,
        "caption": caption,
        "viewer": w["gm_view"] if player is None else w["view_of"].format(house=ctx.house(player)),
        "title": title,
        "status": status,
        "tracks": [{"id": t, "title": w["tracks"][t], "houses": [chips[h] for h in view["tracks"][t] if h in chips]}
                   for t in TRACKS],
        "houses_title": w["houses"],
        "power_title": w["power"],
        "supply_title": w["supply"],
        "houses": [{**chips[h], "available": view["power"][h], "on_board": pos.power_on_board(view, h),
                    "supply": view["supply"][h],
                    "armies": "·".join(str(n) for n in gd.setup.supply_armies[min(view["supply"][h], supply_levels)]),
                    "castles": pos.castles_controlled(view, gd, h)} for h in houses],
        "wildlings_title": w["wildlings"],
        "wildlings": [{"value": v, "here": v == view["wildlings"]} for v in gd.setup.wildlings.track],
        "castles_title": w["castles"],
        "rounds_title": w["rounds"],
        "rounds": [{"n": n, "here": n == min(view["round"], rounds)} for n in range(1, rounds + 1)],
        "legend_title": w["legend"],
        "kinds": w["kinds"],
        "legend": w["legend_items"],
        "order_example": _order_label("march +1*", w),
        "me": chips.get(player) if player else None,
    }
