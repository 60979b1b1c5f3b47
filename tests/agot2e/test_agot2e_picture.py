"""The drawn agot2e board (games/agot2e/v1/board.yaml: 58 areas, 8 of them ports) and the picture drawn
from a player's view by the shared AGoT picture (adjudicator/rulesets/agot/picture.py).

What tests/agot1e/test_board_picture.py and test_board_png.py check for the 1st edition, here for the
2nd: the drawing agrees with map.yaml (areas touch exactly when adjacent, rivers excepted; a port touches
only its castle's land area and its one sea), no two borders cross, every place lies in its area, the
board looks like Westeros; every area is drawn once, units (ships in ports and siege engines too), order
tokens, power tokens, neutral forces and garrisons are where the view has them, a 3-house game's closed
areas (and their ports) are crossed out, a player sees their own planned orders and no other house's,
the words are Czech in Czech, the PNG a report carries is the SVG drawn in layers, and a report mail
of an agot2e game carries it. PNG artefacts for eyes go to ``artefacts/pictures/``.
"""

from __future__ import annotations

import email
import email.policy
import html
import sys
from collections import Counter
from pathlib import Path

import pytest

import boardshapes
from adjudicator import layered, reports, yamlio
from adjudicator.judge import Judge
from adjudicator.mail.process import Postmaster
from adjudicator.mail.settings import MailSettings
from adjudicator.paths import GAMES_DIR
from adjudicator.picture import png_from_svg
from adjudicator.ruleset import get
from adjudicator.rulesets.agot.mapshapes import shapes_for
from adjudicator.rulesets.agot.picture import words
from adjudicator.rulesets.agot2e import picture
from adjudicator.selfplay import play
from adjudicator.store import Store
from boardshapes import (area_paths, assert_frame_chains_on_the_frame, assert_places_inside, assert_same_picture,
                         assert_touching_is_adjacency, crossing_borders, groups, png_size, rgb, tree)
from conftest import FakeClock

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mail"))  # the mail tests' helpers
from mailhelp import JUDGE, raw_mail  # noqa: E402

ARTEFACTS = Path(__file__).resolve().parents[2] / "artefacts" / "pictures"
SIX = ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"]
PREVIEW = {"preview": "yes"}


@pytest.fixture(scope="module")
def shapes():
    return shapes_for("agot2e", "v1")


@pytest.fixture(scope="module")
def board_map():
    return yamlio.load_mapping(GAMES_DIR / "agot2e" / "v1" / "map.yaml")


@pytest.fixture(scope="module")
def mid_game():
    """A 6-house game in round 3, marches under way, a ship put in three ports (their castle's holder's)
    and a siege engine in Lannister's Lannisport (besides any the bots mustered)."""
    state = play(get("agot2e"), SIX, 6002, options=PREVIEW,
                 stop=lambda s: s["round"] == 3 and s["step"] == "march").state
    holders = state["areas"].setdefault("lannisport", {})
    assert not any(h != "lannister" and units for h, units in holders.items())
    holders["lannister"] = [*holders.get("lannister", []), "siege_engine"]
    for castle, house in (("lannisport", "lannister"), ("pyke", "greyjoy"), ("storms-end", "baratheon")):
        held = next((h for h, units in state["areas"].get(castle, {}).items() if units), house)
        state["areas"][f"port-of-{castle}"] = {held: ["ship"]}  # a ship in each of three ports, whoever sailed
    return state


@pytest.fixture(scope="module")
def three():
    """A 3-house game (RULES.md R3.3: twelve areas closed, and their ports) in round 2."""
    return play(get("agot2e"), SIX[:3], 3002, options=PREVIEW, stop=lambda s: s["round"] == 2).state


def _artefact(name: str, view: dict, player: str | None, language: str = "en") -> Path:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTEFACTS / name
    path.write_bytes(picture.png(view, player, language, caption="w2 v7"))
    return path


# ---------------------------------------------------------------------------------------
# The geometry against map.yaml
# ---------------------------------------------------------------------------------------


def test_every_area_of_map_yaml_is_drawn_and_nothing_else(shapes, board_map):
    assert set(shapes.rings) == set(board_map["areas"]) and len(shapes.rings) == 58


def test_areas_touch_in_the_drawing_exactly_when_map_yaml_says_they_are_adjacent(shapes, board_map):
    assert_touching_is_adjacency(shapes, board_map)
    touch = boardshapes.touching(shapes)
    ports = {a: info for a, info in board_map["areas"].items() if info["kind"] == "port"}
    assert len(ports) == 8
    for port, info in ports.items():  # water beside its castle, on its one sea, nothing else
        assert {b for pair in touch if port in pair for b in pair} - {port} == {info["port_of"], info["sea"]}


def test_no_two_borders_cross_or_touch_between_their_ends(shapes):
    assert not crossing_borders(shapes)
    assert_frame_chains_on_the_frame(shapes)


def test_every_place_lies_inside_its_area_and_every_area_has_its_places(shapes, board_map):
    assert_places_inside(shapes, board_map)
    assert {a for a, info in board_map["areas"].items() if info.get("garrison")} == {
        a for a, spots in shapes.places.items() if "garrison" in spots}


def test_the_board_looks_like_westeros(shapes):
    """North at the top, the Iron Islands west, Dragonstone east, the new Dorne in the south: the Boneway
    between the Reach and Yronwood, Salt Shore on the south coast, the West Summer Sea west of the East."""
    def centre(area):
        return boardshapes.centre(shapes, area)

    y = [centre(a)[1] for a in ("castle-black", "winterfell", "moat-cailin", "riverrun", "the-reach", "the-boneway",
                                "yronwood", "salt-shore")]
    assert y == sorted(y)
    w, h = shapes.width, shapes.height
    assert centre("castle-black")[1] < h * 0.1 and centre("sunspear")[1] > h * 0.8
    assert centre("pyke")[0] < centre("riverrun")[0] < centre("harrenhal")[0]
    assert centre("dragonstone")[0] > centre("kings-landing")[0] and centre("dragonstone")[0] > w * 0.75
    assert centre("three-towers")[0] < centre("princes-pass")[0] < centre("yronwood")[0] < centre("sunspear")[0]
    assert centre("west-summer-sea")[0] < w / 3 < 2 * w / 3 < centre("east-summer-sea")[0]
    for port in ("port-of-winterfell", "port-of-pyke", "port-of-lannisport", "port-of-oldtown"):
        assert centre(port)[0] < centre(port.removeprefix("port-of-"))[0] + 1, "a western port lies west of its castle"
    for port in ("port-of-dragonstone", "port-of-storms-end", "port-of-sunspear"):
        assert centre(port)[0] > centre(port.removeprefix("port-of-"))[0] - 1


# ---------------------------------------------------------------------------------------
# The picture
# ---------------------------------------------------------------------------------------


def test_every_area_is_drawn_exactly_once(mid_game, board_map):
    root = tree(picture.svg(get("agot2e").view(mid_game, "martell"), "martell"))
    assert sorted(area_paths(root)) == sorted(f"area-{a}" for a in board_map["areas"])


def test_units_tokens_and_garrisons_are_drawn_where_the_view_has_them(mid_game):
    rs = get("agot2e")
    root = tree(picture.svg(rs.view(mid_game, "greyjoy"), "greyjoy"))
    drawn: dict[str, Counter] = {}
    for g in groups(root, "unit"):
        drawn.setdefault(g.get("data-area"), Counter())[(g.get("data-house"), g.get("data-kind"))] += 1
    expected = {area: Counter((house, u) for house, units in holders.items() for u in units)
                for area, holders in mid_game["areas"].items() if any(holders.values())}
    assert drawn == expected and sum(sum(c.values()) for c in expected.values()) > 10
    engines = [g.get("data-area") for g in groups(root, "siege_engine")]
    assert "lannisport" in engines and sorted(engines) == sorted(
        a for a, holders in mid_game["areas"].items() for units in holders.values() for u in units if u == "siege_engine")
    assert {a for a in drawn if a.startswith("port-of-")} == {"port-of-lannisport", "port-of-pyke", "port-of-storms-end"}
    assert all(kind == "ship" for a, c in drawn.items() if a.startswith("port-of-") for _, kind in c)
    garrisons = {(g.get("data-area"), g.get("data-house")) for g in groups(root, "garrison")}
    assert garrisons == {(a, get("agot2e").rules.gamedata().board.area(a).home_of) for a in mid_game["garrisons"]}
    assert len(garrisons) == 6
    assert {(g.get("data-area"), g.get("data-house")) for g in groups(root, "power")} == set(mid_game["control"].items())
    assert {g.get("data-area") for g in groups(root, "neutral")} == {"the-eyrie", "kings-landing"}
    assert {g.get("data-area") for g in groups(root, "order")} == set(mid_game["orders"]) and mid_game["orders"]
    assert groups(root, "closed") == [], "six houses: no area is closed"


def test_a_three_house_game_crosses_out_its_closed_areas_and_their_ports(three):
    rs = get("agot2e")
    view = rs.view(three, "stark")
    root = tree(picture.svg(view, "stark"))
    closed = {g.get("data-area") for g in groups(root, "closed")}
    shut = set(three["impassable"])
    assert len(shut) == 12 and closed == shut | {"port-of-pyke", "port-of-oldtown", "port-of-storms-end",
                                                 "port-of-sunspear"}
    assert {g.get("data-area") for g in groups(root, "garrison")} == {"winterfell", "lannisport", "dragonstone"}
    _artefact("agot2e-three-stark-en.png", view, "stark")


def test_a_player_sees_their_own_planned_orders_and_never_another_houses():
    rs = get("agot2e")
    state = rs.new_game(SIX[:4], PREVIEW, 11)
    state["areas"]["port-of-winterfell"] = {"stark": ["ship"]}  # a ship in port takes an order too
    state["areas"]["port-of-pyke"] = {"greyjoy": ["ship"]}
    plans = {"stark": {"winterfell": "march -1", "port-of-winterfell": "raid"},
             "greyjoy": {"pyke": "defense +1", "port-of-pyke": "support", "greywater-watch": "march 0"}}
    for house, orders in plans.items():
        state["plans"][house]["orders"] = orders
    for house, orders in plans.items():
        found = groups(tree(picture.svg(rs.view(state, house), house)), "order")
        assert {g.get("data-area") for g in found} == set(orders) and {g.get("data-house") for g in found} == {house}
        assert all("planned" in g.get("class") for g in found)
    assert len(groups(tree(picture.svg(rs.view(state, None), None)), "order")) == 5, "the GM sees every plan"
    assert groups(tree(picture.svg(rs.view(state, "lannister"), "lannister")), "order") == []


def test_pictures_in_both_languages_with_the_2nd_editions_words_and_artefacts(mid_game):
    rs = get("agot2e")
    en = html.unescape(picture.svg(rs.view(mid_game, "stark"), "stark", "en", caption="w2 v7"))
    cs = html.unescape(picture.svg(rs.view(mid_game, "martell"), "martell", "cs", caption="w2 v7"))
    for word in ("Siege engine", "Garrison", "Port", "Closed for this game", "Port of", "The Boneway",
                 "Stark's view"):
        assert word in en
    for word in ("Obléhací stroj", "Posádka", "Přístav", "Uzavřeno pro tuto hru", "Železný trůn", "Port of"):
        assert word in cs  # area names as on the board
    assert "Siege engine" not in cs and "Garrison" not in cs
    assert en.count('class="port-name"') >= 8 and "Port of Pyke" in en, "each port's name (a long one on two lines)"
    for name, player, language in (("agot2e-mid-game-martell-cs.png", "martell", "cs"),
                                   ("agot2e-mid-game-gm-en.png", None, "en")):
        width, height = png_size(_artefact(name, rs.view(mid_game, player), player, language).read_bytes())
        assert width > 1000 and height > 1000


def test_the_png_is_the_full_picture_drawn_in_layers(mid_game, three):
    rs = get("agot2e")
    layered.clear_caches()
    picture.png(rs.view(mid_game, "tyrell"), "tyrell", "cs", caption="w2 v6")  # another player's caches first
    for state, player, language in ((mid_game, "stark", "en"), (mid_game, None, "cs"), (three, "baratheon", "en")):
        view = rs.view(state, player)
        got = rgb(picture.png(view, player, language, caption="w2 v7"))
        assert_same_picture(got, rgb(png_from_svg(picture.svg(view, player, language, caption="w2 v7"))))
    assert picture.layers(rs.view(mid_game, "stark"), "stark", "en").key == ("agot2e", "v1", "en", 6)


def test_a_report_mail_of_an_agot2e_game_carries_the_board(tmp_path):
    judge = Judge(Store(tmp_path / "data", fsync=False), now=FakeClock())
    houses = SIX[:3]
    passwords = judge.new_game("w2", "agot2e", {h: {"address": f"{h}@example.org", "reports": "every-step"}
                                                for h in houses}, seed=3, options=PREVIEW)
    assert reports.draws_picture(judge.present("w2"))
    postmaster = Postmaster(judge, MailSettings(JUDGE, rate_limit=1000))
    orders = {"stark": "Winterfell: march -1\nWhite Harbor: defense +1\nThe Shivering Sea: support",
              "lannister": "Lannisport: march -1\nStoney Sept: support\nThe Golden Sound: raid",
              "baratheon": "Dragonstone: defense +1\nKingswood: raid\nShipbreaker Bay: support"}
    mails = {}
    for house in houses:
        raw = raw_mail(f"JUDGE w2 {house} {passwords[house]}\nORDERS\n{orders[house]}\n", sender=f"{house}@example.org",
                       message_id=f"<{house}@example.org>")
        handled = postmaster.process(postmaster.receive(raw, mail_from=f"{house}@example.org"))
        mails.update({name: email.message_from_bytes((postmaster.outbox.root / f"{name}.eml").read_bytes(),
                                                     policy=email.policy.default) for name in handled.mails})
    sent = {name.rsplit("-", 1)[1]: m for name, m in mails.items() if name.startswith("report-")}
    assert sorted(sent) == sorted(houses)
    version = judge.present("w2").version
    for message in sent.values():
        (png,) = [p for p in message.iter_attachments() if p.get_content_type() == "image/png"]
        assert png.get_filename() == f"board-v{version}.png" and png_size(png.get_content())[0] > 1000


def test_the_pictures_words_have_the_same_keys_in_both_languages():
    def keys(table, prefix=""):
        return {k for key, value in table.items()
                for k in (keys(value, f"{prefix}{key}.") if isinstance(value, dict) else {f"{prefix}{key}"})}

    assert keys(words("en")) == keys(words("cs"))
    assert {"kinds.siege_engine", "legend_items.garrison", "legend_items.port", "legend_items.closed"} <= keys(words("cs"))
