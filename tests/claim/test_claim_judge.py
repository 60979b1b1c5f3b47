"""claim2 and claim through the judge: games created with options, mails submitted and refused,
plays sent ahead, deadline defaults, secrets kept out of other players' views and mails, reports
rendered in English and Czech, replay."""

from __future__ import annotations

import copy

import pytest

from adjudicator import reports
from adjudicator import ruleset as rulesets
from adjudicator.messages import Msg, render
from adjudicator.ruleset import RulesetError
from adjudicator.rulesets.claim import invariants
from adjudicator.rulesets.claim.gamedata import load_gamedata

GD = load_gamedata()
PLAYERS = {p: {"address": f"{p}@example.org"} for p in ("alice", "bob", "carol", "dave", "eve")}


def seats(n: int, **language) -> dict:
    return {p: dict(PLAYERS[p], **({"language": language[p]} if p in language else {}))
            for p in list(PLAYERS)[:n]}


def name(card: str) -> str:
    return GD.card_name(card)


def czech(card: str) -> str:
    """A card as a Czech player reads it (the Czech catalogue's name)."""
    return render(Msg("claim.card", faction=GD.faction_of(card), value=GD.value_of(card)), "cs")


@pytest.fixture
def game(judge):
    judge.new_game("t", "claim2", seats(2, bob="cs"), seed=11, options={"leader": "alice"})
    return judge


def errors(outcome):
    """(line, the error in English, the example) of each refused line."""
    return [(ln.lineno, str(ln.error), ln.example) for ln in outcome.parsed.lines if not ln.ok]


# -- new games ---------------------------------------------------------------------------------


def test_a_new_claim2_game_deals_13_each_and_reveals_the_first_prize(game):
    present = game.present("t")
    state = present.state
    assert present.config["data_version"] == "v1" and present.config["options"] == {"leader": "alice"}
    assert state["factions"] == ["gnomes", "giants", "dragons", "trolls", "seers"]
    assert {p: len(h) for p, h in state["hands"].items()} == {"alice": 13, "bob": 13}
    assert len(state["prizes"]) == 1 and len(state["deck"]) == 25
    assert (state["phase"], state["trick"], state["step"], state["leader"], state["turn"]) == (1, 1, "play", "alice", "alice")
    assert state["teams"] is None
    assert [(o.player, str(o.what), o.done) for o in present.owed()] == [("alice", "a card for trick 1 of phase 1 (to lead)", False)]
    assert invariants.violations(state, GD) == []


@pytest.mark.parametrize("ruleset, n, factions, deal, deck", [
    ("claim2", 3, ["gnomes", "giants", "dragons", "trolls", "seers", "undead", "dwarves"], 12, 72 - 36 - 2),
    ("claim2", 4, ["gnomes", "giants", "dragons", "trolls", "seers", "undead", "dwarves"], 9, 72 - 36 - 2),
    ("claim", 2, ["goblins", "knights", "undead", "dwarves", "doppelgangers"], 13, 52 - 26 - 1),
    ("claim", 3, ["dragons", "seers", "goblins", "knights", "undead", "dwarves", "doppelgangers"], 12, 72 - 36 - 2),
    ("claim", 4, ["dragons", "seers", "goblins", "knights", "undead", "dwarves", "doppelgangers"], 9, 72 - 36 - 2),
])
def test_the_default_decks_per_ruleset_and_player_count(judge, ruleset, n, factions, deal, deck):
    judge.new_game("g", ruleset, seats(n), seed=3)
    state = judge.present("g").state
    assert state["factions"] == factions
    assert all(len(h) == deal for h in state["hands"].values())
    assert len(state["deck"]) == deck
    assert state["teams"] == ([["alice", "carol"], ["bob", "dave"]] if n == 4 else None)


def test_options_choose_the_pair_the_factions_and_the_first_leader(judge):
    judge.new_game("mix", "claim2", seats(2), seed=5,
                   options={"pair": "knights", "factions": "Měňavci, dragons,SEER", "leader": "bob"})
    state = judge.present("mix").state
    assert state["factions"] == ["dragons", "seers", "goblins", "knights", "doppelgangers"]
    assert len(state["deck"]) + 26 + 1 == 52 and state["leader"] == "bob"
    judge.new_game("four", "claim", seats(4), seed=5,
                   options={"pair": "gnomes-giants", "factions": "undead,dwarves,doppelgangers,trolls,seers"})
    assert judge.present("four").state["factions"] == ["gnomes", "giants", "trolls", "seers", "undead", "dwarves",
                                                      "doppelgangers"]


@pytest.mark.parametrize("n, options, problem", [
    (5, {}, "claim2 is played by 2 to 4 players, not 5"),
    (1, {}, "claim2 is played by 2 to 4 players, not 1"),
    (2, {"rounds": "3"}, "claim2 has no option rounds"),
    (2, {"pair": "elves"}, "option pair must be gnomes-giants or knights-goblins"),
    (2, {"factions": "dragons,trolls"}, "2 players play one pair and 3 more factions, not 2"),
    (3, {"factions": "dragons,trolls,seers"}, "3 players play one pair and 5 more factions, not 3"),
    (2, {"factions": "dragons,trolls,giants"}, "giants cannot be chosen besides the pair"),
    (2, {"factions": "dragons,dragons,seers"}, "a faction is chosen twice"),
    (2, {"factions": "dragons,trolls,elves"}, 'unknown faction "elves"'),
    (2, {"leader": "zed"}, "option leader must be one of the players"),
])
def test_bad_options_are_refused_with_the_reason(judge, n, options, problem):
    with pytest.raises(RulesetError, match=problem):
        judge.new_game("bad", "claim2", seats(n), options=options)


def test_both_rulesets_are_registered_and_share_one_display_module():
    assert {"claim", "claim2"} <= set(rulesets.names())
    a, b = rulesets.get("claim2"), rulesets.get("claim")
    assert (a.name, b.name) == ("claim2", "claim")
    assert reports._display_module(a) is reports._display_module(b) is not None


def test_the_same_seed_deals_the_same_game(judge):
    judge.new_game("a", "claim", seats(3), seed=99)
    judge.new_game("b", "claim", seats(3), seed=99)
    judge.new_game("c", "claim", seats(3), seed=100)
    sa, sb, sc = (judge.present(g).state for g in "abc")
    assert sa == sb and sa["deck"] != sc["deck"]


# -- mail --------------------------------------------------------------------------------------


def test_a_play_is_echoed_canonically_and_adjudicated_at_once(game):
    state = game.present("t").state
    card = state["hands"]["alice"][0]
    outcome = game.submit("t", "alice", f"JUDGE t alice pw\nhraj {czech(card)}\n")
    assert outcome.applied
    assert [ln.canonical for ln in outcome.parsed.lines] == [f"PLAY {name(card)}"]
    assert [e.text for e in outcome.events] == [f"alice leads {name(card)}."]
    state = game.present("t").state
    assert state["table"] == [{"player": "alice", "card": card}] and state["turn"] == "bob"


def test_must_follow_is_refused_with_the_legal_plays_and_changes_nothing(game):
    state = game.present("t").state
    hand_a, hand_b = state["hands"]["alice"], state["hands"]["bob"]
    lead = next(c for c in hand_a if any(GD.faction_of(c) == GD.faction_of(b) for b in hand_b)
                and any(GD.faction_of(c) != GD.faction_of(b) for b in hand_b))
    game.submit("t", "alice", f"PLAY {name(lead)}")
    off = next(c for c in hand_b if GD.faction_of(c) != GD.faction_of(lead))
    legal = sorted((c for c in hand_b if GD.faction_of(c) == GD.faction_of(lead)), key=GD.sort_key)
    outcome = game.submit("t", "bob", f"STATUS\nPLAY {name(off)}\n")
    assert not outcome.applied
    [(line, error, example)] = errors(outcome)
    led = render(Msg("claim.faction", faction=GD.faction_of(lead)), "en")
    assert line == 2
    assert error == f"you must follow {led}: you hold {', '.join(map(name, legal))}; legal plays: {', '.join(map(name, legal))}"
    assert example == f"PLAY {name(legal[0])}"
    assert outcome.requests == [("status",)]
    assert game.present("t").state["table"] == [{"player": "alice", "card": lead}]


@pytest.mark.parametrize("text, line, wanted", [
    ("PLAY Knight 3", 1, "there are no Knights in this game"),
    ("PLAY Giant 4", 1, "Giants have only the values 1, 3, 5, 7, 9"),
    ("TAKE {absent}", 1, "is not a prize on the table"),
    ("HELP\nFROBNICATE", 2, "unknown command"),
    ("\n".join(["PLAY LOWEST"] * 14), 14, "at most 13 PLAY lines"),
])
def test_rejections_name_the_line_and_give_an_example(game, text, line, wanted):
    state = game.present("t").state
    absent = next(f"Dragon {v}" for v in range(10) if f"dragons-{v}" not in state["prizes"])  # never a prize
    outcome = game.submit("t", "alice", text.format(absent=absent))
    found = {ln: (err, ex) for ln, err, ex in errors(outcome)}
    assert not outcome.applied
    assert wanted in found[line][0], found
    assert found[line][1], "every rejection carries a valid example"


def test_a_card_not_in_hand_is_refused_with_the_hand(game):
    state = game.present("t").state
    missing = next(c for c in GD.deck(state["factions"]) if c not in state["hands"]["alice"]
                   and GD.card_name(c) not in map(name, state["hands"]["alice"]))
    outcome = game.submit("t", "alice", f"PLAY {name(missing)}")
    [(_, error, example)] = errors(outcome)
    assert error.startswith(f"you hold no {name(missing)} (your hand: ")
    assert example.startswith("PLAY ")


def test_plays_sent_ahead_are_on_file_secret_and_used_in_order(game):
    state = game.present("t").state
    a = state["hands"]["alice"]
    outcome = game.submit("t", "alice", f"PLAY {name(a[0])}\nPLAY HIGHEST\nplay {name(a[1])} or lowest\n")
    assert outcome.applied
    assert [e.text for e in outcome.events] == [f"alice leads {name(a[0])}."]  # the first line: her turn now
    present = game.present("t")
    assert present.ruleset.on_file(present.state, "alice") == ["PLAY HIGHEST", f"PLAY {name(a[1])} OR LOWEST"]
    assert present.ruleset.on_file(present.state, "bob") == []
    bob_view = present.ruleset.view(present.state, "bob")
    assert "plans" not in bob_view and bob_view["plan"] == {"play": [], "take": []}
    assert invariants.leaks(bob_view, present.state, "bob") == []
    again = game.submit("t", "alice", "PLAY LOWEST\n")
    assert [str(note) for note in again.notes] == ["These PLAY lines replace the plays you had on file."]
    assert game.present("t").ruleset.on_file(game.present("t").state, "alice") == ["PLAY LOWEST"]


def test_a_whole_game_from_one_mail_each_per_phase(judge):
    judge.new_game("fast", "claim", seats(2), seed=8)
    for _ in range(2):
        for player in ("alice", "bob"):
            judge.submit("fast", player, "\n".join(["PLAY LOWEST"] * 13))
    present = judge.present("fast")
    assert present.ruleset.result(present.state) is not None
    assert present.state["step"] == "over" and sum(len(s) for s in present.state["score"].values()) >= 26 - 0
    assert judge.replay("fast") == []


def test_the_deadline_default_plays_the_lowest_legal_card(game):
    present = game.present("t")
    lowest = min(present.state["hands"]["alice"], key=lambda c: (GD.value_of(c), GD.faction_order(GD.faction_of(c)), c))
    outcome = game.adjudicate("t", force=True, reason="deadline")
    texts = [e.text for e in outcome.events]
    assert texts[:2] == ["alice sent no card for trick 1: the judge plays alice's lowest legal card (default).",
                         f"alice leads {name(lowest)}."]


def test_mail_level_requests_are_passed_to_the_mail_service(game):
    outcome = game.submit("t", "bob", "HELP\nSTATUS\nORDERS?\nPRESS alice: hello\nPRESS ANON ALL: boo\n")
    assert outcome.applied
    assert outcome.requests == [("help", None), ("status",), ("orders?",), ("press", ("alice",), "hello", False),
                                ("press", "ALL", "boo", True)]


# -- secrets -----------------------------------------------------------------------------------


def test_views_hide_hands_followers_deck_seed_and_plans(judge):
    judge.new_game("s", "claim2", seats(4), seed=21)
    for _ in range(12):  # a few tricks, choices answered by the defaults
        judge.adjudicate("s", force=True)
    present = judge.present("s")
    state, rs = present.state, present.ruleset
    assert any(state["followers"].values())
    for player in state["players"]:
        view = rs.view(state, player)
        assert invariants.leaks(view, state, player) == []
        assert "seed" not in view and view["deck"] == len(state["deck"])
        assert view["hands"][player] == state["hands"][player]
        for other in state["players"]:
            if other != player:
                assert view["hands"][other] == len(state["hands"][other])
                assert view["followers"][other] == len(state["followers"][other])
        report = reports.render_report(present, player, present.events, 1)
        hand_lines = [ln for ln in report.splitlines() if ln.startswith(("Your hand", "Your followers", "Hands:"))]
        assert hand_lines == [
            f"Your hand ({len(state['hands'][player])}): " + ", ".join(name(c) for c in sorted(state["hands"][player], key=GD.sort_key)),
            f"Your followers, face down ({len(state['followers'][player])}): "
            + (", ".join(name(c) for c in sorted(state["followers"][player], key=GD.sort_key)) or "none")]


def test_the_seer_peek_and_blind_draws_are_private(judge):
    rs = rulesets.get("claim2")
    state = rs.case_state({"players": ["alice", "bob"], "hands": {"alice": ["Gnome 1"], "bob": ["Seer 2", "Gnome 3"]},
                           "table": [{"alice": "Seer 9"}], "prizes": ["Gnome 1"], "deck": ["Dragon 9"]})
    sub = rs.submit(state, "bob", "PLAY Seer 2")
    state, events = rs.advance(sub.state, force=False)
    private = [e for e in events if e.to is not None]
    assert [(e.text, e.to) for e in private] == [("The top card of the deck is Dragon 9.", ("alice",))]
    assert rs.view(state, "alice")["choice"]["peek"] == "dragons-9"
    assert rs.view(state, "bob")["choice"]["peek"] is None and rs.view(state, "bob")["choice"]["looked"] is True
    assert invariants.leaks(rs.view(state, "bob"), state, "bob") == []
    state, events = rs.advance(state, force=True)  # the default: alice keeps the prize, bob draws blind
    assert [(e.text, e.to) for e in events if e.to] == [("You draw Dragon 9 blind.", ("bob",))]
    assert "bob draws a card blind." in [e.text for e in events if e.to is None]


# -- reports -----------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["claim2", "claim"])
@pytest.mark.parametrize("language", ["en", "cs"])
def test_reports_help_and_views_render(judge, ruleset, language):
    judge.new_game("r", ruleset, seats(3, alice=language), seed=4, options={"leader": "alice"})
    outcome = judge.submit("r", "alice", "PLAY LOWEST\nHELP\nSTATUS\n")
    present = judge.present("r")
    reply = reports.render_reply(outcome, present, "alice", language)
    report = reports.render_report(present, "bob", outcome.events, 1, language)
    helptext = reports.render_help(present, "alice", language)
    gm = reports.render_view(present, None, present.ruleset.view(present.state, None), language)
    title = {"claim2": ("Claim 2", "Trůn 2"), "claim": ("Claim", "Trůn")}[ruleset][language == "cs"]
    assert title in report and title in helptext
    assert ("PLAY <faction> <value>" if language == "en" else "HRAJ <národ> <hodnota>") in helptext
    assert "decisions marked *" in helptext or "rozhodnutí rozhodčího" in helptext
    assert ("Your hand" if language == "en" else "Vaše ruka") in reply
    assert ("Hands:" if language == "en" else "Ruce:") in gm
    bob_hand = ", ".join(name(c) if language == "en" else czech(c)
                         for c in sorted(present.state["hands"]["bob"], key=GD.sort_key))
    assert bob_hand in report and bob_hand not in reply


def test_a_finished_game_reports_the_result(judge):
    judge.new_game("end", "claim2", seats(4), seed=6)
    for _ in range(200):
        present = judge.present("end")
        if present.ruleset.result(present.state) is not None:
            break
        judge.adjudicate("end", force=True)
    present = judge.present("end")
    text = reports.render_report(present, "alice", present.events, 1)
    assert "Game over" in text and "factions" in text
    assert str(present.ruleset.summary(present.state)).startswith("game over:")
    assert judge.replay("end") == []


@pytest.mark.parametrize("ruleset, n, seed", [("claim2", 2, 1), ("claim2", 3, 2), ("claim", 4, 3), ("claim", 2, 4)])
def test_the_board_renders_in_every_state_for_every_player(ruleset, n, seed):
    from adjudicator import selfplay
    from adjudicator.rulesets.claim import display

    rs = rulesets.get(ruleset)
    players = rs.default_players(n)
    seen = {"take": 0, "peek": 0, "over": 0}

    def render(state):
        for viewer in [*players, None]:
            board = display.board(rs.view(state, viewer), viewer)
            for language in ("en", "cs"):
                env = reports.environment(language)
                text = env.get_template(f"{ruleset}/board.txt.j2").render(board=board, player=viewer)
                assert ("Your hand" in text or "Vaše ruka" in text) == (viewer is not None and state["step"] != "over")
        seen["take"] += state["step"] == "take"
        seen["peek"] += bool(state["step"] == "take" and state["choice"].get("peek"))
        return False

    played = selfplay.play(rs, players, seed, stop=render)
    render(played.state)
    assert rs.result(played.state) is not None
    if n > 2:
        assert seen["take"] > 0


def test_a_generic_example_is_a_card_the_player_may_play(game):
    state = game.present("t").state
    lowest = min(state["hands"]["alice"], key=lambda c: (GD.value_of(c), GD.faction_order(GD.faction_of(c)), c))
    outcome = game.submit("t", "alice", "PLAY Knight 3\nFROBNICATE\nPLAU LOWEST\n")
    assert [(ln, ex) for ln, _, ex in errors(outcome)] == [(1, f"PLAY {name(lowest)}"), (2, f"PLAY {name(lowest)}"),
                                                            (3, "PLAY LOWEST")]


def test_a_play_on_file_that_no_longer_fits_is_told_privately_and_asked_for():
    rs = rulesets.get("claim2")
    state = rs.case_state({"players": ["a", "b"], "phase": 2, "hands": {"a": ["Seer 8", "Gnome 1"],
                                                                       "b": ["Dragon 9", "Seer 3"]}})
    state = rs.submit(state, "b", "PLAY Dragon 9").state
    state = rs.submit(state, "a", "PLAY Seer 8").state
    state, events = rs.advance(state, force=False)
    assert [(e.text, e.to) for e in events if e.to] == [
        ("Your play on file (PLAY Dragon 9) fits no legal card for trick 12: the judge asks you for a card.", ("b",))]
    [owed] = rs.pending(state)
    assert (owed.player, str(owed.what), owed.done) == ("b", "a card for trick 12 of phase 2", False)
    assert rs.on_file(state, "b") == ["PLAY Dragon 9"]
    sub = rs.submit(state, "b", "PLAY Dragon 9")
    assert not sub.applied and "you must follow Seers: you hold Seer 3" in str(sub.parsed.lines[0].error)
    state = rs.submit(sub.state, "b", "PLAY Seer 3").state
    assert rs.pending(state)[0].done and rs.on_file(state, "b") == ["PLAY Seer 3"]


def test_a_take_on_file_that_fits_no_pick_is_told_privately_and_asked_for():
    # a played Seer 2 and sent TAKE DECK; b won with Seer 9 and took the deck: a owes the second pick
    rs = rulesets.get("claim2")
    state = rs.case_state({"players": ["a", "b", "c"], "hands": {"a": ["Seer 2", "Gnome 1"], "b": ["Seer 9", "Gnome 3"],
                                                                "c": ["Troll 9", "Gnome 5"]},
                           "prizes": ["Dragon 1", "Giant 7"], "deck": ["Troll 0"]})
    for player, text in (("a", "PLAY Seer 2\nTAKE DECK"), ("b", "PLAY Seer 9\nTAKE DECK"), ("c", "PLAY Troll 9")):
        sub = rs.submit(state, player, text)
        assert sub.applied, [ln.error for ln in sub.parsed.lines]
        state = sub.state
    notices = []
    while all(o.done for o in rs.pending(state)):
        state, events = rs.advance(state, force=False)
        notices += [(e.text, e.to) for e in events if e.to and e.to != ("b",)]
    assert notices == [("Your choice on file (TAKE DECK) fits none of your options for trick 11 "
                        "(Dragon 1 or Giant 7): the judge asks you for a pick.", ("a",))]
    [owed] = rs.pending(state)
    assert (owed.player, str(owed.what), owed.done) == ("a", "a pick of the prizes of trick 11: TAKE Dragon 1 or Giant 7",
                                                   False)
    assert rs.on_file(state, "a") == ["TAKE DECK"]
    _, events = rs.advance(copy.deepcopy(state), force=True)  # the deadline: the line is dropped, the default picks
    assert [(e.text, e.to) for e in events if e.to] == [
        ("Your choice on file (TAKE DECK) fits none of your options for trick 11; it is dropped.", ("a",))]
    assert "a takes the prize Giant 7." in [e.text for e in events if e.to is None]
    state = rs.submit(state, "a", "TAKE Dragon 1").state  # or the answer the judge asked for
    assert rs.pending(state)[0].done and rs.on_file(state, "a") == ["TAKE Dragon 1"]
