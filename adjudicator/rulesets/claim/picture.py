"""The Claim table as a picture, drawn from one player's view only (``claim2`` and ``claim`` alike).

Found by ``adjudicator/reports.py`` like ``display`` and handed ``ruleset.view(state, player)``,
never the state. It draws what :func:`.display.board` makes of that view, so it shows what the
text report shows: the phase and trick, the current trick (the prize cards in phase 1, the cards
played in order, who leads, who won it while the prize is being chosen), the previous trick, per
player the hand and follower pile as counts and the score pile as counts per faction (and the
Gnomes kept in front), who would take each faction now, the deck, and the viewer's own hand and
followers. Other players' hands and followers are counts in the view, so they cannot be drawn.

The markup is ``templates/pictures/claim/table.svg.j2``, the words
``templates/<language>/claim/picture.yaml``, the colours ``templates/pictures/claim/style.yaml``.
The PNG is drawn in layers (:mod:`adjudicator.layered`): the background and the grid's row
headings once per game's shape and language; cards, counts and lines as cached sprites.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ... import layered, messages, yamlio
from ...paths import TEMPLATES_DIR
from ...picture import template
from ...ruleset import OBSERVER
from . import display, terms
from .gamedata import DATA_VERSION, load_gamedata

WIDTH = 920
MARGIN = 20
TABLE_Y = 132  # top of the cards of this trick
CARD_STEP = 76
GRID_Y = 300  # the heading of the players' grid
GRID_ROW = 22
LABEL_WIDTH = 190
COLUMN = 130
SMALL_STEP = 56


def svg(view: dict, player: str | None, language: str = "en", *, caption: str = "") -> str:
    """The table as ``player`` may see it (None: the GM), as an SVG document."""
    return _template().render(layer="all", **model(view, player, language, caption=caption))


def png(view: dict, player: str | None, language: str = "en", *, caption: str = "") -> bytes:
    """The same picture as a PNG, drawn in layers: what a report mail carries."""
    return layered.png(layers(view, player, language, caption=caption))


def layers(view: dict, player: str | None, language: str = "en", *, caption: str = "") -> layered.Layers:
    key = ("claim", view["ruleset"], view.get("data_version", DATA_VERSION), language, len(view["players"]),
           tuple(view["factions"]))
    return layered.from_template(_template(), model(view, player, language, caption=caption), key)


def _template():
    return template("claim/table.svg.j2")


@cache
def words(language: str) -> dict:
    """The picture's words in ``language`` (``templates/<language>/claim/picture.yaml``)."""
    return yamlio.load_mapping(TEMPLATES_DIR / language / "claim" / "picture.yaml")


@cache
def style() -> dict:
    return yamlio.load_mapping(TEMPLATES_DIR / "pictures" / "claim" / "style.yaml")


@cache
def static_model(ruleset: str, data_version: str, language: str, players: int, factions: tuple[str, ...]) -> dict[str, Any]:
    """What never changes in a game: its title, size, the grid's row headings (the factions in play)
    and where each part goes."""
    gd = load_gamedata(data_version)
    w = words(language)
    cs = language == "cs"
    defaults = gd.rulesets.get(ruleset)
    title = (defaults.title_cs if cs else defaults.title) if defaults else ruleset
    rows = [{"key": "hand", "title": w["hand"], "faction": None}, {"key": "followers", "title": w["followers"], "faction": None}]
    for fid in factions:
        rows.append({"key": fid, "title": messages.render(terms.faction_msg(fid), language), "faction": fid,
                     **style()["factions"][fid]})
    if "gnomes" in factions:
        rows.append({"key": "gnomes-kept", "title": w["gnomes_kept"], "faction": None})
    for i, row in enumerate(rows):
        row["y"] = GRID_Y + 40 + i * GRID_ROW
    info_y = GRID_Y + 40 + len(rows) * GRID_ROW + 14
    hand_y = info_y + 30
    return {
        "width": WIDTH, "height": hand_y + 2 * 86 + 8, "language": language, "style": style(), "margin": MARGIN,
        "title": title, "table_title": w["table"], "table_y": TABLE_Y, "grid_y": GRID_Y, "grid_title": w["players"],
        "rows": rows, "label_width": LABEL_WIDTH, "column": COLUMN, "side_x": MARGIN + LABEL_WIDTH + players * COLUMN,
        "side_title": w["side"], "info_y": info_y, "hand_y": hand_y,
    }


def model(view: dict, player: str | None, language: str = "en", *, caption: str = "") -> dict[str, Any]:
    """``S`` (:func:`static_model`) and ``D``, everything :func:`.display.board` makes of ``view``."""
    data_version = view.get("data_version", DATA_VERSION)
    board = display.board(view, player)
    w = words(language)
    static = static_model(view["ruleset"], data_version, language, len(view["players"]), tuple(view["factions"]))
    colours = style()["factions"]

    def card(c: dict) -> dict:
        name = messages.render(c["name"], language)  # "Gnome 5" / "gnóm 5": the faction's word, then the value
        singular = name.rsplit(" ", 1)[0]
        return {"id": c["id"], "faction": c["faction"], "value": c["value"], "band": singular[:1].upper() + singular[1:],
                "name": name, **colours[c["faction"]]}

    def names(cards: list[dict]) -> str:
        return ", ".join(card(c)["name"] for c in cards)

    last = board["last"]
    current = last is not None and last["current"]
    table = []
    if board["phase"] == 1 and not board["over"]:
        table += [{"card": card(c), "label": w["prize"], "mark": "", "prize": True} for c in board["prizes"]]
    plays = last["plays"] if current else board["table"]
    leader = last["leader"] if current else board["leader"]
    for i, p in enumerate(plays):
        marks = [w["leads"]] * (i == 0 and p["player"] == leader) + [w["wins"]] * (current and p["player"] == last["winner"])
        table.append({"card": card(p["card"]), "label": p["player"], "mark": ", ".join(marks), "prize": False})
    for i, t in enumerate(table):
        t["x"] = MARGIN + i * CARD_STEP + (16 if not t["prize"] and board["phase"] == 1 and board["prizes"] else 0)
    waiting = board["turn"] if board["step"] == "play" and not board["over"] else None

    previous = ""
    if last is not None and not current:
        prizes = w["for"].format(cards=names(last["prizes"])) if last["prizes"] else ""
        plays_text = ", ".join(f"{p['player']} {card(p['card'])['name']}" for p in last["plays"])
        previous = w["previous"].format(trick=last["trick"], prizes=prizes, plays=plays_text, winner=last["winner"])

    sides = {s["faction"]: s["side"] for s in board["standings"]}
    columns = []
    for i, p in enumerate(board["players"]):
        score = {g["faction"]: len(g["values"]) for g in p["score"]}
        marks = [w["you"]] * p["me"] + [w["partner"].format(partner=p["partner"])] * bool(p["partner"])
        cells = {"hand": p["hand"], "followers": p["followers"], "gnomes-kept": len(p["gnomes"])}
        cells.update({fid: score.get(fid, 0) for fid in view["factions"]})
        columns.append({"x": MARGIN + LABEL_WIDTH + i * COLUMN, "name": p["name"], "marks": ", ".join(marks),
                        "me": p["me"], "cells": [{"y": row["y"], "value": cells[row["key"]]} for row in static["rows"]]})
    side = [{"y": row["y"], "text": sides.get(row["faction"]) or w["nobody"]} for row in static["rows"] if row["faction"]]

    info = [w["deck"].format(count=board["deck"]), w["discard"].format(count=len(board["discard"]))]
    if board["trolls_aside"]:
        info.append(w["trolls_aside"].format(cards=names(board["trolls_aside"])))
    if board["crushed"]:
        info.append(w["crushed"].format(cards=names(board["crushed"])))
    hand = [dict(card(c), x=MARGIN + i * SMALL_STEP) for i, c in enumerate(board["my_hand"])]
    followers = [dict(card(c), x=MARGIN + i * SMALL_STEP) for i, c in enumerate(board["my_followers"])]
    return {"S": static, "D": {
        "caption": caption,
        "title": f"{w['phase'][board['phase']]} · {w['trick'].format(trick=board['trick'], tricks=board['tricks'])}",
        "status": _status(board, w, waiting, leader),
        "viewer": w["gm_view"] if player is None else w["public_view"] if player == OBSERVER else
                  w["view_of"].format(player=player),
        "table": table,
        "waiting": waiting,
        "waiting_x": MARGIN + len(table) * CARD_STEP + (16 if board["phase"] == 1 and board["prizes"] else 0),
        "waiting_label": w["waiting"],
        "previous": previous,
        "columns": columns,
        "side": side,
        "info": " · ".join(info),
        "hand_title": w["gm_hands"] if player is None else w["my_hand"].format(count=len(hand)),
        "hand": hand,
        "followers_title": "" if player is None else w["my_followers"].format(count=len(followers)),
        "followers": followers,
    }}


def _status(board: dict, w: dict, waiting: str | None, leader: str) -> str:
    if board["over"]:
        if board["winner"] == "draw":
            return w["draw"].format(tied=f" {w['and']} ".join(board["tied"]))
        return w["winner"].format(winner=board["winner"])
    if board["choice"]:
        choice = board["choice"]
        deck = choice["kind"] == "seer" or choice["deck"]
        return w["chooses_deck" if deck else "chooses"].format(player=choice["player"])
    return w["leads_turn"].format(leader=leader, turn=waiting or "")
