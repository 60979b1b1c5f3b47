"""oriflamme through the judge: a game created, mails submitted, sent ahead and refused, steps adjudicated,
deadlines applying the defaults, reports rendered in English and Czech, secrets kept, the game replayed."""

from __future__ import annotations

import pytest

from adjudicator import reports
from adjudicator.rulesets.oriflamme import invariants
from adjudicator.rulesets.oriflamme.gamedata import load_gamedata

PLAYERS = {p: {"address": f"{p}@example.org"} for p in ("red", "blue", "green")}
GD = load_gamedata()


@pytest.fixture
def game(judge):
    judge.new_game("k", "oriflamme", PLAYERS, seed=11)
    return judge


def errors(outcome):
    return [(ln.lineno, None if ln.error is None else str(ln.error), ln.example) for ln in outcome.parsed.lines if not ln.ok]


def names(cards):
    return [GD.card(c).name for c in cards]


def test_a_new_game_deals_seeded_secret_hands_and_waits_for_the_first_placement(judge, game):
    state = game.present("k").state
    for p in PLAYERS:
        assert len(state["hands"][p]) == 7 and len(state["aside"][p]) == 3
        assert sorted(state["hands"][p] + state["aside"][p]) == sorted(GD.ids)
        assert state["influence"][p] == 1
    assert state["queue"] == [] and state["round"] == 1 and state["first"] == "red"
    [owed] = game.present("k").owed()
    assert (owed.player, owed.deadline_kind, owed.done) == ("red", "planning", False)
    assert str(owed.what) == "place a card (round 1): PLACE <card> FRONT | BACK"
    judge.new_game("k2", "oriflamme", PLAYERS, seed=11)
    judge.new_game("k3", "oriflamme", PLAYERS, seed=12)
    assert judge.present("k2").state["hands"] == state["hands"]  # the seed decides the deal
    assert judge.present("k3").state["hands"] != state["hands"]
    assert game.present("k").config["data_version"] == "v1"


def test_a_whole_round_adjudicates_from_one_mail_each_and_replays(game):
    hands = game.present("k").state["hands"]
    red, blue, green = (GD.card(hands[p][0]).name for p in ("red", "blue", "green"))
    # Blue and Green send ahead while Red is to place; nothing adjudicates until Red's card is in.
    out = game.submit("k", "blue", f"PLACE {blue} FRONT\nWAIT {blue}")
    assert out.applied and out.versions == []
    out = game.submit("k", "green", f"PLACE {green} BACK\nWAIT {green}")
    assert out.applied and out.versions == []
    assert [o.player for o in game.present("k").owed()] == ["red"]
    out = game.submit("k", "red", f"PLACE {red} FRONT\nWAIT {red}")
    assert out.applied and out.versions, errors(out)
    texts = [e.text for e in out.events if e.to is None]
    assert texts == [
        "Red places a card face down at the front of the queue (position 1).",
        "Blue places a card face down at the front of the queue (position 1).",
        "Green places a card face down at the back of the queue (position 3).",
        "Round 1: every card is placed; the resolution begins at position 1.",
        "Blue leaves its card at position 1 face down and puts 1 influence on it (1 now).",
        "Red leaves its card at position 2 face down and puts 1 influence on it (1 now).",
        "Green leaves its card at position 3 face down and puts 1 influence on it (1 now).",
        "Round 1 ends. Influence: Red 1, Blue 1, Green 1.",
        "Round 2: Blue is the first player and places first.",
    ]
    present = game.present("k")
    assert present.state["round"] == 2 and present.state["phase"] == "place"
    assert [o.player for o in present.owed()] == ["blue"]
    assert all(present.ruleset.on_file(present.state, p) == [] for p in PLAYERS)  # all used
    assert game.replay("k") == []


def test_a_refused_mail_changes_nothing_and_the_reply_shows_the_error_with_an_example(game):
    before = game.present("k").state
    out = game.submit("k", "red", "WAIT 1\nPLACE Spy ON 1\nFROBNICATE")
    assert not out.applied and out.versions == []
    assert [(n, e is not None) for n, e, _ in errors(out)] == [(1, True), (2, True), (3, True)]
    assert errors(out)[0][1] == "there is no position 1 (the queue has 0 cards)"
    assert all(example for _, _, example in errors(out))
    assert game.present("k").state == before
    reply = reports.render_reply(out, game.present("k"), "red")
    assert "REJECTED FROBNICATE" in reply and "example: PLACE Archer FRONT" in reply
    assert "Nothing was changed" in reply


def test_the_judge_asks_only_for_what_it_lacks_and_the_deadline_applies_the_defaults(game, fake_clock):
    state = game.present("k").state
    red = GD.card(state["hands"]["red"][0]).name
    game.submit("k", "red", f"PLACE {red} FRONT")  # no reveal decision sent
    game.adjudicate("k", force=True)  # Blue's deadline: a random card at the back
    game.adjudicate("k", force=True)  # Green's
    present = game.present("k")
    assert present.state["phase"] == "resolve"
    [owed] = present.owed()
    assert (owed.player, str(owed.what), owed.deadline_kind) == ("red", "your face-down card at position 1: REVEAL or WAIT",
                                                               "step")
    fake_clock.advance(days=2)
    [(game_id, outcome)] = game.tick().done
    texts = [e.text for e in outcome.events]
    assert "Red sent no decision for its face-down card at position 1; by default it stays face down." in texts
    assert game.present("k").owed()[0].player == "blue"


def test_secrets_stay_with_their_owner_in_views_status_and_reports(game):
    state = game.present("k").state
    red_card = state["hands"]["red"][0]
    game.submit("k", "red", f"PLACE {GD.card(red_card).name} FRONT\nREVEAL {GD.card(red_card).name}")
    game.submit("k", "blue", "PRESS ALL: hello")
    present = game.present("k")
    rs = present.ruleset
    for viewer in PLAYERS:
        view = rs.view(present.state, viewer)
        assert invariants.leaks(view, present.state, viewer) == []
        assert "seed" not in view and "plans" not in view
    as_blue = rs.view(present.state, "blue")
    assert as_blue["queue"] == [[{"owner": "red", "up": False, "tokens": 0}]]
    assert as_blue["hands"]["red"] == 6 and as_blue["aside"]["red"] == 3 and as_blue["plan"]["decide"] == {}
    assert rs.view(present.state, "red")["queue"][0][0]["card"] == red_card
    assert rs.view(present.state, "red")["plan"]["decide"] == {red_card: {"do": "reveal", "round": None}}
    # the rendered mails: Blue's report shows Red's card as face down and none of Red's hand or set-aside cards
    blue_report = reports.render_report(present, "blue", present.events, 1)
    assert "1. Red: face-down card" in blue_report
    red_only = set(names(state["hands"]["red"] + state["aside"]["red"])) - set(
        names(state["hands"]["blue"] + state["aside"]["blue"]))
    for name in red_only:
        assert name not in blue_report, name
    assert "You placed your" not in blue_report
    red_report = reports.render_report(present, "red", present.events, 1)
    assert f"1. Red: {GD.card(red_card).name} (face down)" in red_report
    assert f"You placed your {GD.card(red_card).name} at the front." in red_report
    status = reports.render_status(present, "blue")
    for name in names(GD.ids):
        assert name not in status, name


def test_reports_render_in_english_and_czech_for_every_player_and_the_gm(game):
    game.submit("k", "red", f"PLACE {GD.card(game.present('k').state['hands']['red'][0]).name} FRONT")
    out = game.submit("k", "blue", "HELP\nSTATUS\nORDERS?")
    present = game.present("k")
    for language in ("en", "cs"):
        for player in PLAYERS:
            report = reports.render_report(present, player, present.events, 1, language)
            assert report.startswith("X-Judge: game=k ")
            assert ("The queue (position 1 resolves first):" in report) == (language == "en")
            assert ("Řada intrik (pozice 1 se vyhodnocuje první):" in report) == (language == "cs")
            reports.render_reminder(present, player, language)
        reply = reports.render_reply(out, present, "blue", language)
        assert ("How this judge plays the rules" in reply) == (language == "en")
        assert ("Jak tento rozhodčí hraje pravidla" in reply) == (language == "cs")
        assert ("PLACE <card> FRONT | BACK" in reply) == (language == "en")
        assert ("VYLOŽ <kartu> NA ZAČÁTEK | NA KONEC" in reply) == (language == "cs")
        gm = reports.render_view(present, None, present.ruleset.view(present.state, None), language)
        assert "On file, per player" in gm or "Co má rozhodčí od každého hráče" in gm  # the GM sees all, readable
    help_en = reports.render_help(present, "green", "en")
    for decision in range(1, 13):
        assert f"\n{decision:2d}. " in help_en


def test_a_game_over_reports_the_winner(judge):
    judge.new_game("z", "oriflamme", PLAYERS, seed=3)
    for _ in range(200):
        present = judge.present("z")
        if present.ruleset.result(present.state) is not None:
            break
        judge.adjudicate("z", force=True)
    present = judge.present("z")
    assert present.state["phase"] == "over" and present.state["round"] == 6
    assert present.ruleset.result(present.state) in ("red", "blue", "green", "draw")
    assert str(present.ruleset.summary(present.state)).startswith("game over after round 6: ")
    assert present.ruleset.summary(present.state).render("cs").startswith("konec hry po 6. kole: ")
    report = reports.render_report(present, "red", present.events, 1)
    assert "game over: " in report
    assert judge.replay("z") == []
