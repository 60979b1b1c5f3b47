"""The drawn agot1e board (games/agot1e/v1/board.yaml) and the picture drawn from a player's view.

Geometry: the drawing agrees with map.yaml (areas touch exactly when adjacent, rivers excepted),
no two borders cross, every place lies in its area, north is at the top. Pictures: every area is
drawn once, units are where the state has them, a player sees their own planned orders and never
another house's. PNG artefacts for eyes are written to ``artefacts/pictures/`` (CI keeps it).
"""

from __future__ import annotations

import html
import math
from collections import Counter
from pathlib import Path

import pytest

import boardshapes
from adjudicator import yamlio
from adjudicator.paths import GAMES_DIR
from adjudicator.ruleset import get
from adjudicator.rulesets.agot.mapshapes import shapes_for
from adjudicator.rulesets.agot1e import picture
from adjudicator.selfplay import play
from boardshapes import (area_paths, assert_frame_chains_on_the_frame, assert_places_inside, assert_touching_is_adjacency,
                         crossing_borders, groups, png_size, tree)

ARTEFACTS = Path(__file__).resolve().parents[2] / "artefacts" / "pictures"
FIVE = ["stark", "lannister", "baratheon", "greyjoy", "tyrell"]


@pytest.fixture(scope="module")
def shapes():
    return shapes_for("agot1e", "v1")


@pytest.fixture(scope="module")
def board_map():
    return yamlio.load_mapping(GAMES_DIR / "agot1e" / "v1" / "map.yaml")


@pytest.fixture(scope="module")
def mid_game():
    """A 5-house game in round 4, marches under way (revealed orders, power tokens, routed units)."""
    return play(get("agot1e"), FIVE, 3, stop=lambda s: s["round"] == 4 and s["step"] == "march").state


def _artefact(name: str, view: dict, player: str | None, language: str = "en", caption: str = "") -> Path:
    """The PNG a report mail would carry (drawn in layers), for eyes."""
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTEFACTS / name
    path.write_bytes(picture.png(view, player, language, caption=caption))
    return path


# ---------------------------------------------------------------------------------------
# The geometry against map.yaml
# ---------------------------------------------------------------------------------------


def test_every_area_of_map_yaml_is_drawn_and_nothing_else(shapes, board_map):
    assert set(shapes.rings) == set(board_map["areas"])


def test_areas_touch_in_the_drawing_exactly_when_map_yaml_says_they_are_adjacent(shapes, board_map):
    """Rivers excepted (tests/boardshapes.py). 1st ed has no ports, so no adjacency crosses water."""
    assert_touching_is_adjacency(shapes, board_map)


def test_no_two_borders_cross_or_touch_between_their_ends(shapes):
    assert not crossing_borders(shapes)


def test_every_place_lies_inside_its_area_and_every_area_has_its_places(shapes, board_map):
    assert_places_inside(shapes, board_map)


def test_the_board_looks_like_westeros(shapes):
    """North at the top, the Iron Islands west in Ironman's Bay, Dragonstone east in Shipbreaker
    Bay, Dorne south, and the seas where the seas are."""
    def centre(area):
        return boardshapes.centre(shapes, area)

    x, y = zip(*(centre(a) for a in ("castle-black", "winterfell", "moat-cailin", "riverrun", "the-reach", "yronwood")))
    assert list(y) == sorted(y), "north to south: Castle Black, Winterfell, Moat Cailin, Riverrun, the Reach, Yronwood"
    w, h = shapes.width, shapes.height
    assert centre("castle-black")[1] < h * 0.1 and centre("sunspear")[1] > h * 0.8
    assert centre("pyke")[0] < centre("riverrun")[0] < centre("harrenhal")[0]
    assert centre("dragonstone")[0] > centre("kings-landing")[0] and centre("dragonstone")[0] > w * 0.75
    assert centre("bay-of-ice")[0] < w / 3 and centre("bay-of-ice")[1] < h / 3
    assert centre("the-shivering-sea")[0] > w * 2 / 3 and centre("the-shivering-sea")[1] < h / 3
    assert centre("the-narrow-sea")[0] > w * 2 / 3 and centre("sunset-sea")[0] < w / 6
    assert centre("summer-sea")[1] > h * 0.85 and centre("the-eyrie")[0] > centre("the-twins")[0]


# ---------------------------------------------------------------------------------------
# The picture
# ---------------------------------------------------------------------------------------


def test_every_area_is_drawn_exactly_once(mid_game, board_map):
    root = tree(picture.svg(get("agot1e").view(mid_game, "stark"), "stark"))
    ids = area_paths(root)
    assert sorted(ids) == sorted(f"area-{a}" for a in board_map["areas"])


def test_units_are_drawn_where_the_state_has_them(mid_game):
    rs = get("agot1e")
    root = tree(picture.svg(rs.view(mid_game, "greyjoy"), "greyjoy"))
    drawn: dict[str, Counter] = {}
    for g in groups(root, "unit"):
        drawn.setdefault(g.get("data-area"), Counter())[(g.get("data-house"), g.get("data-kind"))] += 1
    expected = {area: Counter((house, u) for house, units in holders.items() for u in units)
                for area, holders in mid_game["areas"].items() if any(holders.values())}
    assert drawn == expected and sum(sum(c.values()) for c in expected.values()) > 10
    routed = sum(len(u) for u in mid_game["routed"].values())
    assert len(groups(root, "routed")) == routed
    powers = {(g.get("data-area"), g.get("data-house")) for g in groups(root, "power")}
    assert powers == set(mid_game["control"].items())
    neutral = {g.get("data-area") for g in groups(root, "neutral")}
    assert neutral == {a for a, n in mid_game["neutral"].items() if n}
    orders = {g.get("data-area") for g in groups(root, "order")}
    assert orders == set(mid_game["orders"]) and mid_game["orders"], "revealed orders are public"


def _planning_with_every_plan_on_file() -> dict:
    rs = get("agot1e")
    state = rs.new_game(FIVE, {}, 11)
    assert state["phase"] == "planning" and state["step"] == "orders"
    plans = {
        "stark": {"winterfell": "march -1", "white-harbor": "defense +1", "the-shivering-sea": "support"},
        "lannister": {"lannisport": "raid*", "stoney-sept": "consolidate", "the-golden-sound": "march 0"},
        "baratheon": {"dragonstone": "march +1*", "kingswood": "raid", "shipbreaker-bay": "support"},
        "greyjoy": {"pyke": "defense +2*", "greywater-watch": "march 0", "ironmans-bay": "raid"},
        "tyrell": {"highgarden": "support +1*", "dornish-marches": "march -1", "redwyne-straights": "consolidate*"},
    }
    for house, orders in plans.items():
        state["plans"].setdefault(house, {"orders": None})["orders"] = orders
    return state


def test_a_player_sees_their_own_planned_orders_and_never_another_houses(tmp_path):
    rs = get("agot1e")
    state = _planning_with_every_plan_on_file()
    for house in FIVE:
        svg = picture.svg(rs.view(state, house), house)
        orders = groups(tree(svg), "order")
        assert {g.get("data-area") for g in orders} == set(state["plans"][house]["orders"])
        assert {g.get("data-house") for g in orders} == {house}
        assert all("planned" in g.get("class") for g in orders)
        for other in FIVE:
            if other != house:
                assert not {f'data-area="{a}"' for a in state["plans"][other]["orders"]} & {
                    f'data-area="{g.get("data-area")}"' for g in orders}
    # the GM sees every plan; the picture of a player never holds the state's secrets
    gm = groups(tree(picture.svg(rs.view(state, None), None)), "order")
    assert len(gm) == sum(len(p["orders"]) for p in state["plans"].values())
    _artefact("planning-stark-en.png", rs.view(state, "stark"), "stark", "en", caption="planning")


def test_pictures_in_both_languages_with_czech_words_and_artefacts(mid_game):
    rs = get("agot1e")
    en = picture.svg(rs.view(mid_game, "stark"), "stark", "en", caption="w1 v42")
    cs = picture.svg(rs.view(mid_game, "lannister"), "lannister", "cs", caption="w1 v42")
    gm = picture.svg(rs.view(mid_game, None), None, "en", caption="w1 v42")
    en_text, cs_text = html.unescape(en), html.unescape(cs)
    assert "Iron Throne" in en_text and "Harrenhal" in en_text and "Stark's view" in en_text
    assert "Železný trůn" in cs_text and "Královský dvůr" in cs_text and "Harrenhal" in cs_text and "King's" in cs_text  # names as on the board
    assert "Game master" in gm
    for name, player, language in (("mid-game-stark-en.png", "stark", "en"), ("mid-game-lannister-cs.png", "lannister", "cs"),
                                   ("mid-game-gm-en.png", None, "en")):
        path = _artefact(name, rs.view(mid_game, player), player, language, caption="w1 v42")
        width, height = png_size(path.read_bytes())
        assert width > 900 and height > 900


def test_the_picture_draws_only_from_the_view(mid_game):
    """The function is handed a view; a view without plans or hands draws without them."""
    rs = get("agot1e")
    view = rs.view(mid_game, "baratheon")
    assert "plans" not in view and all(isinstance(v, int) for h, v in view["hands"].items() if h != "baratheon")
    svg = picture.svg(view, "baratheon")
    for house in FIVE:
        if house != "baratheon":
            for card in mid_game["hands"][house]:
                assert card not in svg


def test_judge_map_writes_png_and_svg_and_refuses_other_files(cli, tmp_path):
    result = cli("new", "w1", "--ruleset", "agot1e", "--player", "stark=a@example.org",
                 "--player", "lannister=b@example.org:cs", "--player", "baratheon=c@example.org", "--seed", "5")
    assert result.exit_code == 0, result.output
    png, svg = tmp_path / "board.png", tmp_path / "board.svg"
    result = cli("map", "w1", "--as", "lannister", "-o", str(png))
    assert result.exit_code == 0, result.output
    assert png_size(png.read_bytes())[0] > 900
    result = cli("map", "w1", "--version", "1", "-o", str(svg))
    assert result.exit_code == 0, result.output
    root = tree(svg.read_text(encoding="utf-8"))
    assert len(area_paths(root)) == 45
    assert cli("map", "w1", "-o", str(tmp_path / "board.gif")).exit_code == 2
    assert cli("map", "w1", "--as", "nobody", "-o", str(png)).exit_code == 2
    result = cli("map", "w1", "--version", "9", "-o", str(png))
    assert result.exit_code == 1 and "no version 9" in result.output
    result = cli("map", "nope", "-o", str(png))
    assert result.exit_code == 1 and "nope" in result.output
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    (ARTEFACTS / "judge-map-lannister-cs.png").write_bytes(png.read_bytes())


def test_a_ruleset_without_a_picture_draws_nothing(tmp_path):
    from adjudicator import reports
    from adjudicator.judge import Judge
    from adjudicator.store import Store

    judge = Judge(Store(tmp_path / "d", fsync=False))
    judge.new_game("k", "toy", {p: {"address": f"{p}@example.org"} for p in ("alice", "bob")}, seed=1)
    assert reports.picture_of(judge.present("k"), "alice") is None
    assert reports.picture_png_of(judge.present("k"), "alice") is None


def test_chains_never_run_along_the_frame_inside_the_board(shapes):
    assert_frame_chains_on_the_frame(shapes)
    assert not math.isnan(sum(x + y for c in shapes.chains for x, y in c.points))
