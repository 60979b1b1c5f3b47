"""The AGoT board of either edition as a picture (SVG), drawn from one player's view only.

Each edition's package has a module ``picture`` that re-exports :func:`svg` and :func:`png` (found
by ``adjudicator/reports.py`` like ``display``); they are handed ``ruleset.view(state, player)``,
never the state, and read the edition from it (``state["edition"]``): what
the view does not hold cannot be drawn. Another house's orders before the reveal are in no view
(they live in that house's secret plan), so they are not drawn at all, not even face down; the
player's own orders from their plan are drawn on their own picture, marked as not yet revealed.
The GM's view (player None) holds everything and draws every house's planned orders.

Split of the work: this module turns the view and the drawn board (:mod:`.mapshapes`, from
``games/<edition>/vN/board.yaml``) into a plain model of shapes, positions and words; the markup is
the Jinja template ``templates/pictures/agot/board.svg.j2``; the words of each language are in
``templates/<language>/agot/picture.yaml``. Area names stay as on the board in every language.

What only the 2nd edition has is drawn from its data and its state, with no test of the edition's
name: ports (areas of kind ``port``, water tinted by whoever holds the castle beside them), siege
engines (a unit kind of its ``Shape``), garrison tokens (``state["garrisons"]``) and the areas a
3-house game closes (``state["impassable"]``, and their ports). agot1e has none of them and its
picture is unchanged.
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
from . import position as pos
from .context import ctx_of
from .edition import edition as edition_named
from .mapshapes import FRAME, Shapes, board_path, shapes_for

PANEL_WIDTH = 300
PANEL_WIDTH_SIX = 340  # six houses: a track's six chips side by side, and the 2e legend's four unit kinds
UNIT_STEP = 14  # pixels between the units of one area
TRACKS = ("iron_throne", "fiefdoms", "kings_court")


@cache
def words(language: str) -> dict:
    """The picture's words in ``language`` (``templates/<language>/agot/picture.yaml``)."""
    return yamlio.load_mapping(TEMPLATES_DIR / language / "agot" / "picture.yaml")


@cache
def _board_yaml(edition: str, data_version: str) -> dict:
    return yamlio.load_mapping(board_path(edition, data_version))


def svg(view: dict, player: str | None, language: str = "en", *, caption: str = "") -> str:
    """The board as ``player`` may see it (None: the GM), as an SVG document."""
    return _render("all", model(view, player, language, caption=caption))


def png(view: dict, player: str | None, language: str = "en", *, caption: str = "") -> bytes:
    """The same picture as a PNG, drawn in layers (:func:`layers`): what a report mail carries."""
    return layered.png(layers(view, player, language, caption=caption))


def layers(view: dict, player: str | None, language: str = "en", *, caption: str = "") -> layered.Layers:
    """The picture as static layers (keyed by edition, data version, language and number of houses,
    and drawn from those alone) and the sprites of what ``view`` holds; they compose to :func:`svg`."""
    key = (ctx_of(view).rules.name, view["data_version"], language, len(view["houses"]))
    return layered.from_template(_template(), model(view, player, language, caption=caption), key)


def _template():
    return template("agot/board.svg.j2")


def _render(layer: str, context: dict) -> str:
    return _template().render(layer=layer, **context)


def model(view: dict, player: str | None, language: str = "en", *, caption: str = "") -> dict[str, Any]:
    """Everything the template draws: ``S``, what never changes in a game (:func:`static_model`),
    and ``D``, what ``view`` holds, from ``view`` only."""
    data_version = view["data_version"]
    ctx = ctx_of(view)
    gd = ctx.gd
    static = static_model(ctx.rules.name, data_version, language, len(view["houses"]))
    shapes = shapes_for(ctx.rules.name, data_version)
    house_colours = static["colours"]["houses"]
    w = words(language)
    c = shapes.cell

    def xy(p) -> tuple[int, int]:
        # whole pixels: a token then looks the same wherever it stands, and is drawn once (layered.py)
        return round(p[0] * c), round(p[1] * c)

    def colour(house: str) -> dict:
        return house_colours.get(house) or {"token": "#777777", "ink": "#ffffff", "tint": "#cccccc"}

    controllers, tints = {}, {}
    units, orders, powers, neutrals, garrisons, closed = [], [], [], [], [], []
    planned = _planned_orders(view, player)
    standing = view.get("garrisons") or {}
    for area_id in shapes.rings:
        info = gd.board.area(area_id)
        held = None if info.kind == "sea" else pos.controller(view, gd, info.port_of or area_id)
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
            owner = pos.order_owner(view, area_id) or ""
            orders.append({"x": ox, "y": oy, "label": _order_label(text, w), "text": text, "area": area_id,
                           "house": owner, "planned": is_planned, **colour(owner)})
        if area_id in view["control"]:
            px, py = xy(spots["power"])
            house = view["control"][area_id]
            powers.append({"x": px, "y": py, "house": house, "area": area_id, **colour(house)})
        if view["neutral"].get(area_id):
            nx, ny = xy(spots.get("neutral", spots["units"]))
            neutrals.append({"x": nx, "y": ny, "strength": view["neutral"][area_id], "area": area_id})
        if standing.get(area_id):  # 2e: a house's garrison token on its home area
            gx, gy = xy(spots["garrison"])
            house = info.home_of or ""
            garrisons.append({"x": gx, "y": gy, "strength": standing[area_id], "area": area_id, "house": house,
                              **colour(house)})
        if pos.closed(view, gd, area_id):  # 2e, 3 houses: closed for the game (a port with its castle)
            cx, cy = xy(spots["units"])
            closed.append({"x": cx, "y": cy, "area": area_id})
    dynamic = {"controllers": controllers, "tints": tints, "units": units, "orders": orders, "powers": powers,
               "neutrals": neutrals, "garrisons": garrisons, "closed": closed,
               **_panel(view, player, gd, ctx, w, colour, static["panel"], caption)}
    return {"S": static, "D": dynamic}


@cache
def static_model(edition: str, data_version: str, language: str, houses: int) -> dict[str, Any]:
    """What never changes in a game of ``houses`` houses: the areas in their plain colours (and
    the box around each, whole pixels), borders, rivers, names, the panel's layout, headings and
    legend. Drawn from these four alone, so a cached static layer cannot hold a player's view."""
    rules = edition_named(edition)
    gd = rules.gamedata(data_version)
    shapes = shapes_for(edition, data_version)
    colours = _board_yaml(edition, data_version)["colours"]
    w = words(language)
    c = shapes.cell
    areas, labels = [], []
    for area_id, rings in shapes.rings.items():
        info = gd.board.area(area_id)
        sea = info.kind == "sea"
        xs = [x * c for ring in rings for x, _ in ring]
        ys = [y * c for ring in rings for _, y in ring]
        areas.append({
            "id": area_id, "kind": info.kind, "fill": colours.get(info.kind, colours["land"]),
            "d": " ".join("M" + " L".join(f"{x * c:.1f},{y * c:.1f}" for x, y in ring) + " Z" for ring in rings),
            "box": [math.floor(min(xs)) - 1, math.floor(min(ys)) - 1, math.ceil(max(xs)) + 1, math.ceil(max(ys)) + 1],
        })
        lx, ly = shapes.places[area_id]["label"]
        labels.append({"x": round(lx * c, 1), "y": round(ly * c, 1), "lines": _wrap(info.name), "sea": sea,
                       "port": info.kind == "port",
                       "castle": info.castle, "supply": info.supply, "power": info.power, "home": bool(info.home_of)})
    rivers = [" ".join(f"{x * c:.1f},{y * c:.1f}" for x, y in chain.points) for chain in shapes.river_chains()]
    map_w, map_h = shapes.width * c, shapes.height * c
    return {
        "width": map_w + (PANEL_WIDTH if houses <= 5 else PANEL_WIDTH_SIX), "height": map_h, "map_w": map_w, "map_h": map_h, "language": language,
        "colours": colours, "areas": areas, "borders": _borders(shapes, gd, c), "rivers": rivers, "labels": labels,
        "panel": _panel_layout(gd, rules.shape.units, w, map_w, houses),
    }


def _borders(shapes: Shapes, gd, c: float) -> dict[str, str]:
    """Every border once, as one path per kind: ``land`` (between land areas), ``coast``, ``sea``
    (between waters: seas and 2e ports). Rivers are drawn on their own; the frame is not drawn."""
    paths: dict[str, list[str]] = {"land": [], "coast": [], "sea": []}
    rivers = {frozenset(p) for p in shapes.rivers}
    for chain in shapes.chains:
        if FRAME in (chain.left, chain.right) or frozenset((chain.left, chain.right)) in rivers:
            continue
        seas = (not gd.board.is_land(chain.left)) + (not gd.board.is_land(chain.right))
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


def _panel_layout(gd, kinds: tuple[str, ...], w: dict, map_w: float, houses: int) -> dict:
    """The side panel's fixed parts: where each block goes (it depends on the number of houses),
    its headings, the wildling and round tracks' boxes and the legend (the edition's unit
    ``kinds``; ports, garrisons and closed areas where its board has ports)."""
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
        "units": list(kinds),
        "unit_step": 90 if len(kinds) <= 3 else 68,
        "ports": bool(gd.board.port_areas),
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
