"""agotccg through the judge: games created with options, refused options, hidden information in views
and reports, decisions sent ahead, deadline defaults, reports per phase, replay."""

from __future__ import annotations

import copy
import pytest

from adjudicator import reports
from adjudicator import ruleset as rulesets
from adjudicator.ruleset import Event, RulesetError
from adjudicator.rulesets.agotccg import invariants
from adjudicator.rulesets.agotccg.gamedata import load_gamedata
from adjudicator.rulesets.agotccg.ruleset import AGOTCCG

GD = load_gamedata()


def seats(*names, **language) -> dict:
    return {p: {"address": f"{p}@example.org", **({"language": language[p]} if p in language else {})} for p in names}


def test_registered_with_the_judge():
    assert "agotccg" in rulesets.names()
    assert rulesets.get("agotccg") is AGOTCCG


def test_a_new_game_shuffles_the_chosen_decks_and_deals_seven(judge):
    judge.new_game("g", "agotccg", seats("alice", "bob"), seed=4, options={"decks": "stark-b, greyjoy-a"})
    state = judge.present("g").state
    assert state["decks"] == {"alice": "stark-b", "bob": "greyjoy-a"}
    assert state["houses"] == {"alice": ["stark"], "bob": ["greyjoy"]}
    assert {p: len(h) for p, h in state["hand"].items()} == {"alice": 7, "bob": 7}
    assert len(state["deck"]["alice"]) == sum(GD.deck("stark-b").cards.values()) - 7
    assert (state["phase"], state["step"], state["round"]) == ("setup", "mulligan", 0)
    owed = judge.present("g").owed()
    assert [(o.player, o.deadline_kind, o.done) for o in owed] == [("alice", "planning", False),
                                                                   ("bob", "planning", False)]
    assert invariants.violations(state, GD) == []


def test_without_decks_players_named_after_houses_play_them_and_the_others_are_drawn(judge):
    judge.new_game("h", "agotccg", seats("stark", "carol", "dave"), seed=9)
    houses = judge.present("h").state["houses"]
    assert houses["stark"] == ["stark"]
    assert len({h[0] for h in houses.values()}) == 3
    judge.new_game("h2", "agotccg", seats("stark", "carol", "dave"), seed=9)
    assert judge.present("h2").state == judge.present("h").state


@pytest.mark.parametrize("players, options, problem", [
    (("alice",), {}, "2 to 4 players, not 1"),
    (("a1", "b1", "c1", "d1", "e1"), {}, "2 to 4 players, not 5"),
    (("alice", "bob"), {"rounds": "3"}, "no option rounds"),
    (("alice", "bob"), {"decks": "stark-a"}, "2 decks are needed"),
    (("alice", "bob"), {"decks": "stark-a,martell-a"}, "no deck 'martell-a'"),
    (("alice", "lord"), {}, "also a word of a card name"),
    (("alice", "pass"), {}, "also a word of a card name or of the mail grammar"),
])
def test_bad_games_are_refused_with_the_reason(judge, players, options, problem):
    with pytest.raises(RulesetError, match=problem):
        judge.new_game("bad", "agotccg", seats(*players), options=options)


def test_views_hide_hands_decks_plots_and_plans(judge):
    judge.new_game("g", "agotccg", seats("alice", "bob"), seed=2, options={"decks": "stark-a,lannister-a"})
    hand = judge.present("g").state["hand"]["alice"]
    setup = [c for c in hand if GD.card(c).type == "character" and GD.card(c).cost <= 2][:1]
    text = "KEEP\n" + (f"SETUP {GD.card(setup[0]).name}\n" if setup else "SETUP NOTHING\n") + "PLOT Quiet Harvest\n"
    outcome = judge.submit("g", "alice", text)
    assert outcome.applied, [ln.error for ln in outcome.parsed.lines]
    present = judge.present("g")
    bob = AGOTCCG.view(present.state, "bob")
    assert bob["hand"] == {"alice": 7, "bob": bob["hand"]["bob"]} and isinstance(bob["hand"]["bob"], list)
    assert bob["deck"] == {"alice": 53, "bob": 53}
    assert bob["plots"]["alice"]["deck"] == 7 and isinstance(bob["plots"]["bob"]["deck"], list)
    assert "plans" not in bob and bob["plan"] == present.state["plans"]["bob"]
    assert invariants.leaks(bob, present.state, "bob") == []
    leaky = copy.deepcopy(bob)
    leaky["hand"]["alice"] = list(present.state["hand"]["alice"])
    assert invariants.leaks(leaky, present.state, "bob") == ["alice's hand"]
    bobs = {GD.card(c).id for c in present.state["hand"]["bob"]}
    for language in ("en", "cs"):
        text = reports.render_view(present, "bob", bob, language)
        for card in present.state["hand"]["alice"]:
            assert GD.card(card).id in bobs or GD.name(card, language) not in text, (language, card)
        assert "Quiet Harvest" not in text and "Tichá sklizeň" not in text  # Alice's plot before the reveal
    assert AGOTCCG.on_file(present.state, "alice")[-1] == "PLOT Quiet Harvest"


def test_the_deadline_applies_the_defaults_and_the_game_reaches_challenges(judge, fake_clock):
    judge.new_game("d", "agotccg", seats("alice", "bob"), seed=3, options={"decks": "targaryen-a,baratheon-b"},
                   deadlines={"planning": "48h", "step": "24h", "grace": "1h"})
    for _ in range(6):
        fake_clock.advance(hours=49)
        judge.tick()
    present = judge.present("d")
    assert present.state["round"] >= 1
    texts = [Event.from_dict(e).text for v in judge.store.open("d").version_numbers()
             for e in judge.version("d", v).get("events") or []]
    assert "Alice sent no mulligan decision; by default the starting hand is kept." in texts
    assert "Alice sent no setup; by default nothing is put into play." in texts
    assert any(t.startswith("Alice chose no plot") for t in texts)


def test_reports_come_per_phase_and_replay_rebuilds_the_game(judge, fake_clock):
    judge.new_game("r", "agotccg", seats("alice", "bob"), seed=5, options={"decks": "stark-a,lannister-b"})
    for player in ("alice", "bob"):
        judge.submit("r", player, "KEEP\nSETUP NOTHING\nPLOT Quiet Harvest\nFIRST ME\nMARSHAL NOTHING\nPASS\n"
                                  "DEFEND MILITARY: NOBODY\nDEFEND INTRIGUE: NOBODY\nDEFEND POWER: NOBODY")
    present = judge.present("r")
    assert present.state["round"] == 2 and present.state["phase"] == "plot"
    phases = [judge.version("r", v)["phase"] for v in judge.store.open("r").version_numbers()]
    assert phases[0] == "0 setup" and "1 challenges" in phases and phases[-1] == "2 plot"
    assert judge.replay("r") == []


def test_the_summary_and_the_header_name_the_phase(judge):
    judge.new_game("s", "agotccg", seats("alice", "bob"), seed=5)
    present = judge.present("s")
    assert str(AGOTCCG.summary(present.state)) == "setup: mulligans"
    assert "step=setup/mulligan" in reports.header(present, "alice", "report")
    assert AGOTCCG.phase(present.state) == "0 setup"
