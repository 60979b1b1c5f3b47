"""agot1e through the judge: a game created, mails submitted and refused, rounds adjudicated, replayed."""

from __future__ import annotations

import pytest

from adjudicator.ruleset import Event, RulesetError

HOUSES = {h: {"address": f"{h}@example.org"} for h in ("stark", "lannister", "baratheon", "greyjoy", "tyrell")}


@pytest.fixture
def game(judge):
    judge.new_game("w", "agot1e", HOUSES, seed=3)
    return judge


def errors(outcome):
    return [(ln.lineno, str(ln.error), ln.example) for ln in outcome.parsed.lines if not ln.ok]  # errors in English


def test_a_new_game_has_the_standard_setup_and_waits_for_orders(game):
    present = game.present("w")
    assert present.state["areas"]["lannisport"] == {"lannister": ["footman", "knight"]}
    assert present.state["neutral"] == {"kings-landing": 5, "the-eyrie": 6, "sunspear": 5}
    assert [(o.player, str(o.what), o.deadline_kind) for o in present.owed()][:1] == [("stark", "orders", "planning")]
    assert present.config["data_version"] == "v1"


def test_player_counts_fix_the_houses(judge):
    with pytest.raises(RulesetError, match="with 3 players the houses are stark, lannister, baratheon"):
        judge.new_game("x", "agot1e", {h: HOUSES[h] for h in ("stark", "lannister", "tyrell")})
    judge.new_game("three", "agot1e", {h: HOUSES[h] for h in ("stark", "lannister", "baratheon")})
    state = judge.present("three").state
    assert state["tracks"]["fiefdoms"] == ["stark", "baratheon", "lannister"]
    assert state["neutral"]["pyke"] == 3 and state["neutral"]["ironmans-bay"] == 2  # Greyjoy's units, neutral
    assert "highgarden" not in state["areas"] and state["neutral"]["highgarden"] == 3


def test_an_order_for_another_house_s_units_is_refused_and_changes_nothing(game):
    outcome = game.submit("w", "stark", "ORDERS\nWinterfell: march 0\nLannisport: raid\n")
    assert not outcome.applied
    [(lineno, error, example)] = [e for e in errors(outcome) if e[0] == 3]
    assert error == "Lannisport is held by Lannister, not by you"
    assert example == "Winterfell: defense +1" or example.endswith(": defense +1")
    assert game.present("w").state["plans"]["stark"]["orders"] is None


@pytest.mark.parametrize("house, text, line, wanted", [
    ("stark", "ORDERS\nWintrefell: march 0\n", 2, "did you mean Winterfell?"),
    ("stark", "ORDERS\nThe Shivering Sea: consolidate\n", 2, "consolidate power orders go on land only"),
    ("stark", "ORDERS\nKarhold: raid\n", 2, "you have no units in Karhold"),
    ("baratheon", "ORDERS\nDragonstone: march +1*\nKingswood: defense +2*\nShipbreaker Bay: support +1*\n", 4,
     "allows 2 starred orders"),  # King's Court position 3: two stars
    ("stark", "ORDERS\nWinterfell: raid\nWhite Harbor: raid\nThe Shivering Sea: raid\n", 4, "you have only 2 raid tokens"),
    ("stark", "MARCH Winterfell -> Karhold: knight\n", 1, "you have no march order in Winterfell"),
    ("stark", "BID 3\n", 1, "Westeros phase"),
    ("stark", "CARD Tywin Lannister\n", 1, "Tywin Lannister is a Lannister card, not a Stark card"),
    ("stark", "FROBNICATE\n", 1, "unknown command"),
])
def test_grammar_and_legality_rejections_name_the_line(game, house, text, line, wanted):
    outcome = game.submit("w", house, text)
    found = {ln: (err, ex) for ln, err, ex in errors(outcome)}
    assert not outcome.applied
    assert wanted in found[line][0], found
    assert found[line][1], "every rejection carries a valid example"


def test_accepted_forms_echo_canonically(game):
    outcome = game.submit("w", "stark", "orders\nwinterfel: M+1\nwhite harbor: d+1\nShivering: S\n")
    assert outcome.applied
    assert [ln.canonical for ln in outcome.parsed.lines] == [
        "ORDERS", "Winterfell: march +1*", "White Harbor: defense +1", "The Shivering Sea: support"]


def test_a_round_of_orders_by_mail_adjudicates_and_replays(game):
    game.submit("w", "lannister", "ORDERS\nLannisport: march -1\nStoney Sept: support\nThe Golden Sound: raid\n"
                                  "MARCH Lannisport -> Searoad Marches: 1 footman\nRAVEN PASS\n")
    for house in ("stark", "baratheon", "greyjoy", "tyrell"):
        game.submit("w", house, "ORDERS\n")
    present = game.present("w")
    # round 2 opens with the Westeros phase (CZ p.2), which waits if its cards ask for decisions
    assert present.state["round"] == 2 and present.state["phase"] in ("westeros", "planning")
    assert present.state["areas"]["searoad-marches"] == {"lannister": ["footman"]}
    texts = [Event.from_dict(e).text for n in present.files.version_numbers() for e in present.files.read_version(n)["events"]]
    assert "Lannister marches 1 footman from Lannisport to Searoad Marches." in texts
    assert game.replay("w") == []


def test_orders_are_secret_until_all_are_in(game):
    game.submit("w", "lannister", "ORDERS\nLannisport: march -1\n")
    present = game.present("w")
    as_stark = present.ruleset.view(present.state, "stark")
    assert as_stark["orders"] == {} and as_stark["plan"]["orders"] is None
    assert as_stark["hands"]["lannister"] == 7 and isinstance(as_stark["hands"]["stark"], list)
    assert present.ruleset.view(present.state, "lannister")["plan"]["orders"] == {"lannisport": "march -1"}


def test_a_rejection_during_a_battle_names_the_problem_and_gives_an_example():
    from adjudicator.rulesets.agot1e.ruleset import AGOT1E

    state = AGOT1E.case_state({"step": "action", "neutral": {},
                        "areas": {"The Reach": {"tyrell": ["knight", "knight"]}, "Blackwater": {"lannister": ["footman"]}},
                        "orders": {"The Reach": "march 0"}, "discards": {"lannister": ["Tywin Lannister"]}})
    state = AGOT1E.submit(state, "tyrell", "MARCH The Reach -> Blackwater: 2 knight").state
    while not (state["battle"] and state["battle"]["stage"] == "cards"):
        state, _ = AGOT1E.advance(state, force=True)
    sub = AGOT1E.submit(state, "lannister", "SUPPORT Blackwater -> Lannister\nCARD Tywin IN Blackwater")
    assert not sub.applied
    lines = {ln.lineno: ln for ln in sub.parsed.lines}
    assert str(lines[1].error) == "you have no support order in Blackwater"
    assert "not in your hand" in str(lines[2].error)
    assert lines[2].example == "CARD Ser Jaime Lannister IN Blackwater"


def test_a_game_stored_before_the_editions_split_still_plays():
    """agot1e states on disk have no "edition" key (the shared AGoT engine came later): they are agot1e's."""
    from adjudicator.rulesets.agot1e.ruleset import AGOT1E
    from adjudicator.selfplay import play

    new = play(AGOT1E, ["stark", "lannister", "baratheon"], 4, stop=lambda s: s["round"] > 2).state
    old = {k: v for k, v in new.items() if k != "edition"}
    assert [o.player for o in AGOT1E.pending(old)] == [o.player for o in AGOT1E.pending(new)]
    assert AGOT1E.advance(old, force=True)[1] == AGOT1E.advance(new, force=True)[1]
    assert "edition" not in old
