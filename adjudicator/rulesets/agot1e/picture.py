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

import math
from collections import Counter
from functools import cache
from typing import Any

from ... import layered, yamlio
from ...picture import template
from ...ruleset import OBSERVER
from ...paths import TEMPLATES_DIR
from ..agot import position as pos
from ..agot.context import ctx_of
from .edition import load_gamedata
from .mapshapes import FRAME, Shapes, shapes_for

PANEL_WIDTH = 300
UNIT_STEP = 14  # pixels between the units of one area
TRACKS = ("iron_throne", "fiefdoms", "kings_court")


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
    return _render("all", model(view, player, language, caption=caption))


def png(view: dict, player: str | None, language: str = "en", *, caption: str = "") -> bytes:
    """The same picture as a PNG, drawn in layers (:func:`layers`): what a report mail carries."""
    return layered.png(layers(view, player, language, caption=caption))


def layers(view: dict, player: str | None, language: str = "en", *, caption: str = "") -> layered.Layers:
    """The picture as static layers (keyed by data version, language and number of houses, and
    drawn from those alone) and the sprites of what ``view`` holds; they compose to :func:`svg`."""
    key = ("agot1e", view["data_version"], language, len(view["houses"]))
    return layered.from_template(_template(), model(view, player, language, caption=caption), key)


def _template():
    return template("agot1e/board.svg.j2")


def _render(layer: str, context: dict) -> str:
    return _template().render(layer=layer, **context)


def model(view: dict, player: str | None, language: str = "en", *, caption: str = "") -> dict[str, Any]:
    """Everything the template draws: ``S``, what never changes in a game (:func:`static_model`),
    and ``D``, what ``view`` holds, from ``view`` only."""
    data_version = view["data_version"]
    ctx = ctx_of(view)
    gd = ctx.gd
    static = static_model(data_version, language, len(view["houses"]))
    shapes = shapes_for(data_version)
    house_colours = static["colours"]["houses"]
    w = words(language)
    c = shapes.cell

    def xy(p) -> tuple[int, int]:
        # whole pixels: a token then looks the same wherever it stands, and is drawn once (layered.py)
        return round(p[0] * c), round(p[1] * c)

    def colour(house: str) -> dict:
        return house_colours.get(house) or {"token": "#777777", "ink": "#ffffff", "tint": "#cccccc"}

    controllers, tints = {}, {}
    units, orders, powers, neutrals = [], [], [], []
    planned = _planned_orders(view, player)
    for area_id in shapes.rings:
        info = gd.board.area(area_id)
        held = None if info.kind == "sea" else pos.controller(view, gd, area_id)
        if held:
            controllers[area_id] = held
            tints[area_id] = colour(held)["tint"]
        spots = shapes.places.get(area_id, {})
        found = pos.occupant(view, area_id)
        if found:
            house, present = found
            routed = Counter(view["routed"].get(area_id, []))
            ux, uy = xy(spots["units"])
            row = pos.sort_units(present)
            left = ux - (len(row) - 1) * UNIT_STEP // 2
            for i, kind in enumerate(row):
                is_routed = routed[kind] > 0
                if is_routed:
                    routed[kind] -= 1
                units.append({"x": left + i * UNIT_STEP, "y": uy, "kind": kind, "house": house,
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
    dynamic = {"controllers": controllers, "tints": tints, "units": units, "orders": orders, "powers": powers,
               "neutrals": neutrals, **_panel(view, player, gd, ctx, w, colour, static["panel"], caption)}
    return {"S": static, "D": dynamic}


@cache
def static_model(data_version: str, language: str, houses: int) -> dict[str, Any]:
    """What never changes in a game of ``houses`` houses: the areas in their plain colours (and
    the box around each, whole pixels), borders, rivers, names, the panel's layout, headings and
    legend. Drawn from these three alone, so a cached static layer cannot hold a player's view."""
    gd = load_gamedata(data_version)
    shapes = shapes_for(data_version)
    colours = _board_yaml(data_version)["colours"]
    w = words(language)
    c = shapes.cell
    areas, labels = [], []
    for area_id, rings in shapes.rings.items():
        info = gd.board.area(area_id)
        sea = info.kind == "sea"
        xs = [x * c for ring in rings for x, _ in ring]
        ys = [y * c for ring in rings for _, y in ring]
        areas.append({
            "id": area_id, "kind": info.kind, "fill": colours["sea"] if sea else colours["land"],
            "d": " ".join("M" + " L".join(f"{x * c:.1f},{y * c:.1f}" for x, y in ring) + " Z" for ring in rings),
            "box": [math.floor(min(xs)) - 1, math.floor(min(ys)) - 1, math.ceil(max(xs)) + 1, math.ceil(max(ys)) + 1],
        })
        lx, ly = shapes.places[area_id]["label"]
        labels.append({"x": round(lx * c, 1), "y": round(ly * c, 1), "lines": _wrap(info.name), "sea": sea,
                       "castle": info.castle, "supply": info.supply, "power": info.power, "home": bool(info.home_of)})
    rivers = [" ".join(f"{x * c:.1f},{y * c:.1f}" for x, y in chain.points) for chain in shapes.river_chains()]
    map_w, map_h = shapes.width * c, shapes.height * c
    return {
        "width": map_w + PANEL_WIDTH, "height": map_h, "map_w": map_w, "map_h": map_h, "language": language,
        "colours": colours, "areas": areas, "borders": _borders(shapes, gd, c), "rivers": rivers, "labels": labels,
        "panel": _panel_layout(gd, w, map_w, houses),
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


def _panel_layout(gd, w: dict, map_w: float, houses: int) -> dict:
    """The side panel's fixed parts: where each block goes (it depends on the number of houses),
    its headings, the wildling and round tracks' boxes and the legend."""
    y = 104
    tracks = []
    for t in TRACKS:
        tracks.append({"id": t, "title": w["tracks"][t], "y": y})
        y += 42
    houses_y = y
    wildlings_y = houses_y + 6 + houses * 21 + 24
    rounds_y = wildlings_y + 46
    return {
        "x": map_w + 14,
        "tracks": tracks,
        "houses_y": houses_y,
        "houses_title": w["houses"],
        "power_title": w["power"],
        "supply_title": w["supply"],
        "castles_title": w["castles"],
        "wildlings_y": wildlings_y,
        "wildlings_title": w["wildlings"],
        "wildlings": list(gd.setup.wildlings.track),
        "rounds_y": rounds_y,
        "rounds_title": w["rounds"],
        "rounds": list(range(1, gd.setup.rounds + 1)),
        "legend_y": rounds_y + 46,
        "legend_title": w["legend"],
        "kinds": w["kinds"],
        "legend": w["legend_items"],
        "order_example": _order_label("march +1*", w),
    }


def _panel(view: dict, player: str | None, gd, ctx, w: dict, colour, layout: dict, caption: str) -> dict:
    """The side panel's values: who looks, round and step, the three influence tracks, per house
    its power tokens, supply (and the armies it allows) and castles, where the wildling and round
    tracks stand."""
    houses = list(view["houses"])
    chips = {h: {"id": h, "name": ctx.house(h), **colour(h)} for h in houses}
    rounds = gd.setup.rounds
    phase = w["phase"].get(view["phase"], view["phase"])
    step = w["step"].get(view["step"], view["step"])
    status = phase if view["phase"] == "over" else f"{phase}: {step}"
    if view.get("winner") == "draw":
        status = w["draw"]
    elif view.get("winner"):
        status = w["winner"].format(house=ctx.house(view["winner"]))
    supply_levels = max(gd.setup.supply_armies)
    track = list(gd.setup.wildlings.track)
    return {
        "caption": caption,
        "viewer": w["gm_view"] if player is None else w["public_view"] if player == OBSERVER else
                  w["view_of"].format(house=ctx.house(player)),
        "title": w["round"].format(round=min(view["round"], rounds), rounds=rounds),
        "status": status,
        "tracks": [{"id": t["id"], "y": t["y"], "houses": [chips[h] for h in view["tracks"][t["id"]] if h in chips]}
                   for t in layout["tracks"]],
        "houses": [{**chips[h], "y": layout["houses_y"] + 6 + i * 21,
                    "available": view["power"][h], "on_board": pos.power_on_board(view, h),
                    "supply": view["supply"][h],
                    "armies": "·".join(str(n) for n in gd.setup.supply_armies[min(view["supply"][h], supply_levels)]),
                    "castles": pos.castles_controlled(view, gd, h)} for i, h in enumerate(houses)],
        "wildlings_here": track.index(view["wildlings"]) if view["wildlings"] in track else 0,
        "round_here": min(view["round"], rounds) - 1,
    }
