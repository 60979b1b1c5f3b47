"""The board's PNG, as a report mail carries it, is drawn in layers (adjudicator/layered.py): cached
static layers and the sprites of one player's view. Checked here: it equals the full SVG drawn
whole (what tests/agot1e/test_board_picture.py checks element by element) within 8-bit rounding,
also when the caches were filled by other players' pictures; two players' PNGs differ exactly where
their own views do (their planned orders, whose view it is); and the static layers are drawn from
the data version, the language and the number of houses alone, never from a view.
"""

from __future__ import annotations

import pytest
from PIL import ImageChops

from adjudicator import layered
from adjudicator.picture import png_from_svg
from adjudicator.ruleset import get
from adjudicator.rulesets.agot import picture as picture_model
from adjudicator.rulesets.agot1e import picture
from adjudicator.selfplay import play
from boardshapes import assert_same_picture, rgb

FIVE = ["stark", "lannister", "baratheon", "greyjoy", "tyrell"]
PLANS = {
    "stark": {"winterfell": "march -1", "white-harbor": "defense +1", "the-shivering-sea": "support"},
    "lannister": {"lannisport": "raid*", "stoney-sept": "consolidate", "the-golden-sound": "march 0"},
    "baratheon": {"dragonstone": "march +1*", "kingswood": "raid", "shipbreaker-bay": "support"},
    "greyjoy": {"pyke": "defense +2*", "greywater-watch": "march 0", "ironmans-bay": "raid"},
    "tyrell": {"highgarden": "support +1*", "dornish-marches": "march -1", "redwyne-straights": "consolidate*"},
}


@pytest.fixture(scope="module")
def mid_game():
    return play(get("agot1e"), FIVE, 3, stop=lambda s: s["round"] == 4 and s["step"] == "march").state


@pytest.fixture(scope="module")
def planning():
    state = get("agot1e").new_game(FIVE, {}, 11)
    for house, orders in PLANS.items():
        state["plans"].setdefault(house, {"orders": None})["orders"] = orders
    return state


def test_the_png_is_the_full_picture_drawn_in_layers(mid_game, planning):
    rs = get("agot1e")
    layered.clear_caches()
    # fill the caches with other players' pictures first: nothing of theirs may show in the next ones
    for player, language in (("greyjoy", "cs"), ("tyrell", "en")):
        picture.png(rs.view(mid_game, player), player, language, caption="w1 v41")
    for state, player, language in ((mid_game, "stark", "en"), (mid_game, "lannister", "cs"), (mid_game, None, "en"),
                                    (planning, "baratheon", "en"), (planning, None, "cs")):
        view = rs.view(state, player)
        got = rgb(picture.png(view, player, language, caption="w1 v42"))
        whole = rgb(png_from_svg(picture.svg(view, player, language, caption="w1 v42")))
        assert_same_picture(got, whole)


def _order_boxes(view: dict, player: str | None) -> list[tuple[int, int, int, int]]:
    orders = picture.model(view, player)["D"]["orders"]
    return [(o["x"] - 13, o["y"] - 13, o["x"] + 13, o["y"] + 13) for o in orders if o["planned"]]


def _inside(x: int, y: int, boxes) -> bool:
    return any(x0 <= x < x1 and y0 <= y < y1 for x0, y0, x1, y1 in boxes)


def test_two_players_pngs_differ_exactly_where_their_own_views_do(planning):
    """Stark's picture shows Stark's planned orders and Baratheon's shows Baratheon's; nothing else on
    the board differs, and in the panel only the line saying whose view it is."""
    rs = get("agot1e")
    views = {h: rs.view(planning, h) for h in ("stark", "baratheon")}
    pngs = {h: rgb(picture.png(v, h, "en", caption="w1 v2")) for h, v in views.items()}
    stark_boxes, baratheon_boxes = _order_boxes(views["stark"], "stark"), _order_boxes(views["baratheon"], "baratheon")
    assert len(stark_boxes) == len(baratheon_boxes) == 3
    for box in stark_boxes + baratheon_boxes:
        assert ImageChops.difference(pngs["stark"].crop(box), pngs["baratheon"].crop(box)).getbbox() is not None
    panel_x = round(picture_model.static_model("agot1e", "v1", "en", 5)["map_w"])
    viewer_line = (panel_x, 66, pngs["stark"].width, 86)
    diff = ImageChops.difference(pngs["stark"], pngs["baratheon"]).convert("L").point(lambda v: 255 if v > 4 else 0)
    allowed = stark_boxes + baratheon_boxes + [viewer_line]
    width, height = diff.size
    data = diff.tobytes()
    stray = [(i % width, i // width) for i, v in enumerate(data) if v and not _inside(i % width, i // width, allowed)]
    assert stray == []
    assert diff.crop(viewer_line).getbbox() is not None


def test_static_layers_are_drawn_from_the_key_alone(mid_game, planning):
    """Every view with the same data version, language and number of houses has the same static
    layers, and they hold nothing of a view: whose view, the caption, the round, a unit or token."""
    rs = get("agot1e")
    drawn = {}
    for state in (mid_game, planning):
        for player in FIVE + [None]:
            layers = picture.layers(rs.view(state, player), player, "cs", caption="w1 v42")
            drawn.setdefault(layers.key, set()).add(layers.static())
    assert list(drawn) == [("agot1e", "v1", "cs", 5)] and len(drawn[("agot1e", "v1", "cs", 5)]) == 1
    under, over = next(iter(drawn[("agot1e", "v1", "cs", 5)]))
    for word in ("w1 v42", "Jak to vidí", "data-controller", "data-house", "data-area", "Kolo 4", "Kolo 1"):
        assert word not in under + over
    three = picture.layers(rs.view(rs.new_game(FIVE[:3], {}, 1), "stark"), "stark", "cs")
    assert three.key == ("agot1e", "v1", "cs", 3) and three.static() != (under, over)


def test_sprites_are_the_players_dynamic_layer(planning):
    """The sprites handed to the composition are the player's own: their planned orders, no one else's."""
    rs = get("agot1e")
    for house in ("stark", "greyjoy"):
        layers = picture.layers(rs.view(planning, house), house, "en")
        labels = {picture_model._order_label(text, picture_model.words("en")) for text in PLANS[house].values()}
        markup = "".join(s.markup for s in layers.sprites)
        for label in labels:
            assert f">{label}</text>" in markup
        orders = [s for s in layers.sprites if 'stroke-dasharray="3 2"' in s.markup]
        assert len(orders) == len(PLANS[house])
        assert all(s.x > 0 and s.y > 0 for s in orders)
