"""The table pictures of Oriflamme and Claim (issue 12): drawn from a player's view only.

Checked: the SVG is well formed in English and Czech, for players and the GM; nothing secret is in
a player's picture: changing only what that player may not see (other players' hands, cards set
aside and followers, another family's face-down cards, the deck's order) leaves the picture byte
for byte the same; the player's own hand (and own face-down cards) is drawn; the PNG, drawn in
layers, equals the whole SVG drawn by resvg within 8-bit rounding. PNGs for eyes go to
``artefacts/pictures/``. That a report mail carries the PNG: tests/mail/test_mail_table_pictures.py.
"""

from __future__ import annotations

import copy
import html
import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from adjudicator import messages
from adjudicator import layered
from adjudicator.picture import png_from_svg
from adjudicator.ruleset import get
from adjudicator.rulesets.claim import picture as claim_picture
from adjudicator.rulesets.oriflamme import picture as oriflamme_picture
from adjudicator.rulesets.oriflamme.gamedata import load_gamedata as oriflamme_data
from adjudicator.selfplay import play

ARTEFACTS = Path(__file__).resolve().parents[1] / "artefacts" / "pictures"
SVG = "{http://www.w3.org/2000/svg}"
FAMILIES = ["red", "blue", "green", "yellow"]


@pytest.fixture(scope="module")
def oriflamme():
    """Round 4, resolving: stacks, face-down cards with influence, covered cards, discards."""
    state = play(get("oriflamme"), FAMILIES, 5, stop=lambda s: s["round"] == 4 and s["phase"] == "resolve").state
    assert any(not c["up"] for stack in state["queue"] for c in stack) and any(len(s) > 1 for s in state["queue"])
    return state


@pytest.fixture(scope="module")
def claim_mid_trick():
    state = play(get("claim2"), ["alice", "bob", "carol"], 4,
                 stop=lambda s: s["phase"] == 1 and s["trick"] == 5 and len(s["table"]) == 2).state
    assert state["prizes"] and state["table"]
    return state


@pytest.fixture(scope="module")
def claim_phase_two():
    state = play(get("claim"), ["alice", "bob", "carol", "dave"], 6,
                 stop=lambda s: s["phase"] == 2 and s["trick"] == 3).state
    assert state["phase"] == 2 and any(state["score"].values())
    return state


def _rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _same_picture(a: Image.Image, b: Image.Image) -> bool:
    histogram = ImageChops.difference(a, b).convert("L").histogram()
    return a.size == b.size and max(i for i, n in enumerate(histogram) if n) <= 12 and sum(histogram[4:]) <= 100


def _texts(element: ET.Element) -> str:
    return " ".join(t.strip() for t in element.itertext())


def _artefact(name: str, png: bytes) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    (ARTEFACTS / name).write_bytes(png)


# ---------------------------------------------------------------------------------------
# Oriflamme
# ---------------------------------------------------------------------------------------


def _oriflamme_secrets_changed(state: dict, player: str) -> dict:
    """The same game but for what ``player`` may not see: other families' hands and cards set aside
    and the identities of their face-down cards in the queue are others."""
    changed = copy.deepcopy(state)
    ids = list(oriflamme_data(state["data_version"]).ids)
    for p in state["players"]:
        if p == player:
            continue
        changed["hands"][p] = list(reversed(ids))[:len(state["hands"][p])]
        changed["aside"][p] = ids[:len(state["aside"][p])]
        for stack in changed["queue"]:
            for c in stack:
                if c["owner"] == p and not c["up"]:
                    c["card"] = ids[(ids.index(c["card"]) + 3) % len(ids)]
    return changed


def test_oriflamme_pictures_are_well_formed_and_keep_every_secret(oriflamme):
    rs = get("oriflamme")
    for player, language in (("red", "en"), ("blue", "cs"), (None, "en")):
        svg = oriflamme_picture.svg(rs.view(oriflamme, player), player, language, caption="k1 v17")
        root = ET.fromstring(svg)
        stacks = [g for g in root.iter(SVG + "g") if "stack" in (g.get("class") or "").split()]
        assert len(stacks) == len(oriflamme["queue"])
        if player is None:
            continue
        changed = _oriflamme_secrets_changed(oriflamme, player)
        assert changed != oriflamme
        assert oriflamme_picture.svg(rs.view(changed, player), player, language, caption="k1 v17") == svg
        # the player's own hand and set-aside cards are drawn, named; no one else's
        hand = sorted(g.get("data-card") for g in root.iter(SVG + "g") if g.get("class") == "hand-card")
        aside = sorted(g.get("data-card") for g in root.iter(SVG + "g") if g.get("class") == "aside-card")
        assert hand == sorted(oriflamme["hands"][player]) and aside == sorted(oriflamme["aside"][player])
        # the player's own face-down cards are named on their stacks, the others' are not
        for g, stack in zip(stacks, oriflamme["queue"]):
            top = stack[-1]
            name = messages.render(messages.Msg("oriflamme.name", card=top["card"]), language)
            shown = html.unescape(_texts(g))
            assert (name in shown) == (top["up"] or top["owner"] == player), (top, shown)


def test_oriflamme_png_is_the_svg_drawn_in_layers(oriflamme):
    rs = get("oriflamme")
    layered.clear_caches()
    oriflamme_picture.png(rs.view(oriflamme, "green"), "green", "en", caption="k1 v16")  # caches filled by another
    for player, language, name in (("red", "en", "oriflamme-red-en.png"), ("blue", "cs", "oriflamme-blue-cs.png"),
                                   (None, "en", "oriflamme-gm-en.png")):
        view = rs.view(oriflamme, player)
        png = oriflamme_picture.png(view, player, language, caption="k1 v17")
        assert _same_picture(_rgb(png), _rgb(png_from_svg(oriflamme_picture.svg(view, player, language, caption="k1 v17"))))
        _artefact(name, png)
    start = get("oriflamme").new_game(FAMILIES[:3], {}, 1)
    empty = oriflamme_picture.png(rs.view(start, "red"), "red", "cs", caption="k2 v1")
    assert _same_picture(_rgb(empty), _rgb(png_from_svg(oriflamme_picture.svg(rs.view(start, "red"), "red", "cs",
                                                                               caption="k2 v1"))))


# ---------------------------------------------------------------------------------------
# Claim
# ---------------------------------------------------------------------------------------


def _claim_secrets_changed(state: dict, player: str) -> dict:
    """The same game but for what ``player`` may not see: other players' hands and followers, the
    deck's order, the seed, plans."""
    changed = copy.deepcopy(state)
    hidden = [c for p in state["players"] if p != player for c in state["hands"][p] + state["followers"][p]]
    hidden += state["deck"]
    hidden.reverse()
    for p in state["players"]:
        if p == player:
            continue
        changed["hands"][p], hidden = hidden[:len(state["hands"][p])], hidden[len(state["hands"][p]):]
        changed["followers"][p], hidden = hidden[:len(state["followers"][p])], hidden[len(state["followers"][p]):]
    changed["deck"] = hidden
    changed["seed"] = state["seed"] + 1
    return changed


@pytest.mark.parametrize("which", ["claim_mid_trick", "claim_phase_two"])
def test_claim_pictures_are_well_formed_and_keep_every_secret(which, request):
    state = request.getfixturevalue(which)
    rs = get(state["ruleset"])
    for player, language in (("alice", "en"), ("bob", "cs"), (None, "en")):
        svg = claim_picture.svg(rs.view(state, player), player, language, caption="t1 v9")
        root = ET.fromstring(svg)
        played = [g for g in root.iter(SVG + "g") if (g.get("class") or "") == "card played"]
        assert [g.get("data-card") for g in played] == [p["card"] for p in state["table"]] or state["step"] == "take"
        if player is None:
            continue
        changed = _claim_secrets_changed(state, player)
        assert changed != state
        assert claim_picture.svg(rs.view(changed, player), player, language, caption="t1 v9") == svg
        hand = [g.get("data-card") for g in root.iter(SVG + "g") if g.get("class") == "hand-card"]
        followers = [g.get("data-card") for g in root.iter(SVG + "g") if g.get("class") == "follower-card"]
        assert sorted(hand) == sorted(state["hands"][player]) and sorted(followers) == sorted(state["followers"][player])
        cells = {(g.get("data-player"), g.get("data-row")): _texts(g) for g in root.iter(SVG + "g")
                 if g.get("class") == "cell"}
        for p in state["players"]:
            assert cells[(p, "hand")] == str(len(state["hands"][p]))
            assert cells[(p, "followers")] == str(len(state["followers"][p]))
            for faction in state["factions"]:
                owned = sum(1 for c in state["score"][p] if c.split("-")[0] == faction)
                assert cells[(p, faction)] == str(owned), (p, faction)


def test_claim_png_is_the_svg_drawn_in_layers(claim_mid_trick, claim_phase_two):
    layered.clear_caches()
    for state, player, language, name in ((claim_mid_trick, "alice", "en", "claim2-alice-en.png"),
                                          (claim_mid_trick, "bob", "cs", "claim2-bob-cs.png"),
                                          (claim_phase_two, "carol", "cs", "claim-carol-cs.png"),
                                          (claim_phase_two, None, "en", "claim-gm-en.png")):
        view = get(state["ruleset"]).view(state, player)
        png = claim_picture.png(view, player, language, caption="t1 v9")
        assert _same_picture(_rgb(png), _rgb(png_from_svg(claim_picture.svg(view, player, language, caption="t1 v9"))))
        _artefact(name, png)
