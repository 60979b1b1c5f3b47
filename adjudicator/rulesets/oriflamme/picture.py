"""The Oriflamme table as a picture, drawn from one player's view only.

Found by ``adjudicator/reports.py`` like ``display`` (a module named ``picture`` in the ruleset's
package) and handed ``ruleset.view(state, player)``, never the state. It draws what
:func:`.display.board` makes of that view, so the picture shows what the text report shows: the
queue as stacks (another family's face-down cards as card backs with their owner and influence;
the viewer's own face-down cards named, marked face down), influence, hand sizes, cards in the
queue and set aside, discards, the round and the phase, and the viewer's own hand and set-aside
cards. The GM's view (player None) draws no hand.

The markup is ``templates/pictures/oriflamme/table.svg.j2``, the words
``templates/<language>/oriflamme/picture.yaml``, the colours ``templates/pictures/oriflamme/style.yaml``.
The PNG is drawn in layers (:mod:`adjudicator.layered`): the background and headings once per
data version, language and number of families; cards, rows and lines as cached sprites.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from ... import layered, messages, yamlio
from ...paths import TEMPLATES_DIR
from ...picture import template
from ...ruleset import OBSERVER
from . import display

WIDTH = 920
MARGIN = 20
PER_ROW = 10  # stacks in a row of the queue
SLOT = 88  # pixels from one stack to the next
ROW = 164  # pixels from one row of stacks to the next
QUEUE_Y = 132  # top of the first row
FAMILY_ROW = 26
STRIPS = 2  # covered cards shown above a stack's top card
NAME_WIDTH = 12  # characters on a line of a card's name
HAND_STEP = 80


def svg(view: dict, player: str | None, language: str = "en", *, caption: str = "") -> str:
    """The table as ``player`` may see it (None: the GM), as an SVG document."""
    return _template().render(layer="all", **model(view, player, language, caption=caption))


def png(view: dict, player: str | None, language: str = "en", *, caption: str = "") -> bytes:
    """The same picture as a PNG, drawn in layers: what a report mail carries."""
    return layered.png(layers(view, player, language, caption=caption))


def layers(view: dict, player: str | None, language: str = "en", *, caption: str = "") -> layered.Layers:
    full = model(view, player, language, caption=caption)
    static = full["S"]
    key = ("oriflamme", view["data_version"], language, static["players"], static["rows"])
    return layered.from_template(_template(), full, key)


def _template():
    return template("oriflamme/table.svg.j2")


@cache
def words(language: str) -> dict:
    """The picture's words in ``language`` (``templates/<language>/oriflamme/picture.yaml``)."""
    return yamlio.load_mapping(TEMPLATES_DIR / language / "oriflamme" / "picture.yaml")


@cache
def style() -> dict:
    return yamlio.load_mapping(TEMPLATES_DIR / "pictures" / "oriflamme" / "style.yaml")


def colours(players: list[str]) -> dict[str, dict]:
    """Each family's colours: by its name when it is a colour the style knows, else by its seat."""
    s = style()
    return {p: s["families"].get(p) or s["families"][s["seats"][i % len(s["seats"])]] for i, p in enumerate(players)}


@cache
def static_model(data_version: str, language: str, players: int, rows: int) -> dict[str, Any]:
    """What never changes while a game of ``players`` families has a queue of ``rows`` rows (the
    picture grows with the queue, so a few sizes per game): the size, the headings and where each
    part goes."""
    w = words(language)
    families_y = QUEUE_Y + rows * ROW + 12
    hand_y = families_y + 40 + players * FAMILY_ROW + 14
    return {
        "width": WIDTH, "height": hand_y + 96, "language": language, "style": style(), "players": players,
        "rows": rows, "margin": MARGIN, "queue_y": QUEUE_Y, "families_y": families_y, "hand_y": hand_y,
        "title": w["title"], "queue_title": w["queue"], "families_title": w["families"],
        "columns": [{"x": MARGIN + x, "title": w[k]} for x, k in
                    ((140, "influence"), (215, "hand"), (275, "in_queue"), (345, "aside"), (420, "discards"))],
    }


def model(view: dict, player: str | None, language: str = "en", *, caption: str = "") -> dict[str, Any]:
    """``S`` (:func:`static_model`) and ``D``, everything :func:`.display.board` makes of ``view``."""
    board = display.board(view, player)
    w = words(language)
    ids = {display.display(p): p for p in view["players"]}
    family = colours(list(view["players"]))
    rows = max(math.ceil(len(board["queue"]) / PER_ROW), 1)  # the picture grows with the queue
    static = static_model(view["data_version"], language, len(view["players"]), rows)

    def name(card: dict | None) -> str:
        return "" if card is None else messages.render(card["name"], language)

    def card(c: dict) -> dict:
        return {"owner": c["owner"], "up": c["up"], "tokens": c["tokens"], "known": c["card"] is not None,
                "lines": _wrap(name(c["card"])), "name": name(c["card"]),
                "kind": w["kinds"][c["card"]["kind"]] if c["card"] else "", **family[ids[c["owner"]]]}

    stacks = []
    for i, s in enumerate(board["queue"]):
        stacks.append({"x": MARGIN + (i % PER_ROW) * SLOT, "y": QUEUE_Y + (i // PER_ROW) * ROW, "pos": s["pos"],
                       "next": s["next"], "owner": ids[s["owner"]], "card": card(s),
                       "strips": [card(c) for c in s["covered"][:STRIPS]],
                       "more": w["more"].format(count=len(s["covered"]) - STRIPS) if len(s["covered"]) > STRIPS else ""})
    families = []
    for i, p in enumerate(board["players"]):
        marks = [w["you"]] * p["me"] + [w["first"]] * p["first"]
        families.append({"y": static["families_y"] + 40 + i * FAMILY_ROW, "id": p["id"], "name": p["name"],
                         "marks": ", ".join(marks), "influence": p["influence"], "hand": p["hand"],
                         "in_queue": p["in_queue"], "aside": p["aside"],
                         "discards": ", ".join(name(c) for c in p["discards"]), **family[p["id"]]})
    hand = [{"x": MARGIN + i * HAND_STEP, "lines": _wrap(name(c)), "kind": w["kinds"][c["kind"]], "id": c["id"]}
            for i, c in enumerate(board["my_hand"])]
    aside_x = MARGIN + max(len(hand), 1) * HAND_STEP + 24
    aside = [{"x": aside_x + i * HAND_STEP, "lines": _wrap(name(c)), "kind": w["kinds"][c["kind"]], "id": c["id"]}
             for i, c in enumerate(board["my_aside"])]
    me = family.get(player) if player else None
    return {"S": static, "D": {
        "caption": caption,
        "title": w["round"].format(round=board["round"], rounds=board["rounds"]),
        "status": _status(board, w),
        "viewer": w["gm_view"] if player is None else w["public_view"] if player == OBSERVER else
                  w["view_of"].format(player=display.display(player)),
        "me": me,
        "empty": w["empty"] if not stacks else "",
        "next": w["next"],
        "face_down": w["face_down"],
        "stacks": stacks,
        "families": families,
        "hand_title": w["gm_hands"] if player is None else w["my_hand"],
        "hand": hand,
        "aside_title": w["my_aside"] if aside else "",
        "aside_x": aside_x,
        "aside": aside,
    }}


def _status(board: dict, w: dict) -> str:
    if board["over"]:
        if board["winner"] == "draw":
            return w["draw"].format(players=f" {w['and']} ".join(board["winners"]))
        return w["winner"].format(player=board["winner"])
    if board["phase"] == "place":
        line = w["place"].format(player=board["placing"]) if board["placing"] else ""
    elif board["next_position"]:
        line = w["resolve"].format(position=board["next_position"])
    else:
        line = w["resolved"]
    if board["question"] and board["question"]["player"] != board["placing"]:
        waiting = w["waiting"].format(player=board["question"]["player"])
        line = f"{line}; {waiting}" if line else waiting[:1].upper() + waiting[1:]
    return line


def _wrap(name: str) -> list[str]:
    """A card's name on one or two lines (split at the space nearest the middle)."""
    if len(name) <= NAME_WIDTH or " " not in name:
        return [name] if name else []
    spaces = [i for i, ch in enumerate(name) if ch == " "]
    cut = min(spaces, key=lambda i: abs(i - len(name) / 2))
    return [name[:cut], name[cut + 1:]]
