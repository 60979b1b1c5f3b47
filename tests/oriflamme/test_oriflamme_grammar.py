"""The oriflamme mail grammar: every command in English and Czech, canonical echo, every kind of rejection
with a valid example (grammar.py), and the legality checks a mail meets against the state (submission.py)."""

from __future__ import annotations

import pytest

from adjudicator.rulesets.oriflamme import grammar
from adjudicator.rulesets.oriflamme.caseposition import case_state
from adjudicator.rulesets.oriflamme.commands import Clear, Help, OrdersQuery, Place, Press, Ref, Reveal, Spec, Status, \
    Target, Wait
from adjudicator.rulesets.oriflamme.gamedata import load_gamedata
from adjudicator.rulesets.oriflamme.ruleset import ORIFLAMME

GD = load_gamedata()
PLAYERS = ("red", "blue", "green")


def parse(line: str):
    [result] = grammar.parse_mail(line, GD, PLAYERS)
    return result


def command(line: str):
    result = parse(line)
    assert result.error is None, str(result.error)
    return result.command


def english(error) -> str:
    """An error (a message) as an English player reads it."""
    return "" if error is None else str(error)


@pytest.mark.parametrize("line, wanted", [
    ("PLACE Archer FRONT", Place("archer", "front")),
    ("place archer back", Place("archer", "back")),
    ("PLACE Royal Decree at the back of the queue", Place("royal-decree", "back")),
    ("PLACE Spy ON Archer", Place("spy", "on", Ref(card="archer"))),
    ("PLACE Spy onto 3", Place("spy", "on", Ref(pos=3))),
    ("PLACE Spy ON position 3", Place("spy", "on", Ref(pos=3))),
    ("VYLOŽ Královský výnos NA KONEC", Place("royal-decree", "back")),
    ("vyloz spiknuti na zacatek", Place("conspiracy", "front")),
    ("VYLOŽ Špeha NA Lučištnici", Place("spy", "on", Ref(card="archer"))),
    ("PLACE imit FRONT", Place("shapeshifter", "front")),
    ("REVEAL Heir", Reveal(Ref(card="heir"))),
    ("REVEAL 2 IN ROUND 4", Reveal(Ref(pos=2), 4)),
    ("reveal my conspiracy from round 5", Reveal(Ref(card="conspiracy"), 5)),
    ("ODHAL Vraždu V KOLE 3", Reveal(Ref(card="assassination"), 3)),
    ("WAIT Lord", Wait(Ref(card="lord"))),
    ("NECHEJ Lorda", Wait(Ref(card="lord"))),
    ("WAIT 4", Wait(Ref(pos=4))),
    ("TARGET Archer: LAST", Target(Ref(card="archer"), Spec(end="last"))),
    ("TARGET Soldier AFTER", Target(Ref(card="soldier"), Spec(side="after"))),
    ("CÍL Zbrojnoš: PŘED", Target(Ref(card="soldier"), Spec(side="before"))),
    ("CÍL Zbrojnoš: PO", Target(Ref(card="soldier"), Spec(side="after"))),
    ("TARGET Spy: next", Target(Ref(card="spy"), Spec(side="after"))),
    ("TARGET Shapeshifter: BEFORE, LAST", Target(Ref(card="shapeshifter"), Spec(side="before", then=Spec(end="last")))),
    ("TARGET Shapeshifter: after then before",
     Target(Ref(card="shapeshifter"), Spec(side="after", then=Spec(side="before")))),
    ("TARGET Assassination: 4", Target(Ref(card="assassination"), Spec(ref=Ref(pos=4)))),
    ("TARGET Assassination: FIRST", Target(Ref(card="assassination"), Spec(end="first"))),
    ("TARGET Assassination: blue Lord", Target(Ref(card="assassination"), Spec(ref=Ref(owner="blue", card="lord")))),
    ("TARGET Assassination: Blue's Lord", Target(Ref(card="assassination"), Spec(ref=Ref(owner="blue", card="lord")))),
    ("TARGET Assassination: Lord of green", Target(Ref(card="assassination"), Spec(ref=Ref(owner="green", card="lord")))),
    ("TARGET Assassination: Heir", Target(Ref(card="assassination"), Spec(ref=Ref(card="heir")))),
    ("TARGET Royal Decree: 2 -> BACK", Target(Ref(card="royal-decree"), Spec(ref=Ref(pos=2), to="back"))),
    ("TARGET Decree: blue Spy to 1", Target(Ref(card="royal-decree"), Spec(ref=Ref(owner="blue", card="spy"), to=1))),
    ("CÍL Výnos: 2 na začátek", Target(Ref(card="royal-decree"), Spec(ref=Ref(pos=2), to="front"))),
    ("TARGET Royal Decree: LAST → 1", Target(Ref(card="royal-decree"), Spec(ref=Ref(end="last"), to=1))),
    ("CLEAR", Clear()),
    ("ZRUŠ", Clear()),
    ("HELP", Help()),
    ("nápověda targets", Help("targets")),
    ("STATUS", Status()),
    ("stav", Status()),
    ("ORDERS?", OrdersQuery()),
    ("orders ?", OrdersQuery()),
    ("ROZKAZY?", OrdersQuery()),
    ("PRESS blue, green: shall we?", Press(("blue", "green"), "shall we?")),
    ("PRESS ANON ALL: Boo", Press("ALL", "Boo", True)),
    ("ZPRÁVA všem: ahoj", Press("ALL", "ahoj")),
])
def test_every_command_parses_in_english_and_czech(line, wanted):
    assert command(line) == wanted


@pytest.mark.parametrize("line, error, example", [
    ("FROBNICATE", 'unknown command "FROBNICATE"', "PLACE Archer FRONT"),
    ("plce Archer FRONT", "did you mean PLACE?", "PLACE Archer FRONT"),
    ("PLACE Archr FRONT", "did you mean Archer?", "PLACE Archer FRONT"),
    ("PLACE Spy", "FRONT, BACK or ON <your card>", "PLACE Spy BACK"),
    ("PLACE Spy 2", "never between two cards", "PLACE Spy BACK"),
    ("PLACE", "PLACE needs a card", "PLACE Archer FRONT"),
    ("PLACE Spy ON Spy", "a card cannot go onto itself", "PLACE Spy FRONT"),
    ("PLACE S FRONT", 'unknown card "s"', "PLACE Archer FRONT"),
    ("PLACE Spi FRONT", None, None),  # a unique prefix: Spiknutí (Conspiracy)
    ("PLACE Lor FRONT", None, None),
    ("REVEAL", "a card (its name or its position) is missing", "REVEAL Archer"),
    ("REVEAL 0", "positions start at 1", "REVEAL 1"),
    ("WAIT Lord IN ROUND 3", "WAIT is for the card's next turn only", "REVEAL Archer IN ROUND 3"),
    ("TARGET Archer", "TARGET needs your card, a colon and the target", "TARGET Soldier: AFTER"),
    ("TARGET Archer:", "the target is missing", "TARGET Soldier: AFTER"),
    ("TARGET Shapeshifter: BEFORE, 3", "only the copied ability's target may follow", "TARGET Shapeshifter: BEFORE, FIRST"),
    ("TARGET Royal Decree: 2 -> sideways", 'where to? "sideways"', "TARGET Royal Decree: 2 -> BACK"),
    ("TARGET Assassination: blue", "which card of blue?", "TARGET Assassination: Archer"),
    ("TARGET Assassination: purple Lord", 'unknown card "purple lord"', None),
    ("CLEAR everything", "CLEAR takes nothing after it", "CLEAR"),
    ("PRESS purple: hi", "no player 'purple' in this game", "PRESS red: shall we talk?"),
    ("PRESS blue:", "empty PRESS message", "PRESS ALL: shall we talk?"),
    ("PRESS hello", 'PRESS needs "<player>: <message>"', "PRESS ALL: shall we talk?"),
    ("PLACE Spy FRONT \x00", "unreadable character U+0000", "HELP"),
    ("PRESS ALL: " + "x" * 5000, "line too long", grammar.EXAMPLES["LONG"]),
    ("JUDGE g red pw", None, None),  # the sign-on, first: skipped (no result at all)
])
def test_rejections_name_the_problem_and_give_a_valid_example(line, error, example):
    results = grammar.parse_mail(line, GD, PLAYERS)
    if line.startswith("JUDGE"):
        assert results == []
        return
    [result] = results
    if error is None:
        assert result.error is None
        return
    assert result.error is not None and error.lower() in english(result.error).lower(), english(result.error)
    if example is not None:
        assert result.example == example
    fixed = grammar.parse_mail(result.example, GD, PLAYERS)
    assert fixed and fixed[0].error is None, f"the example {result.example!r} does not parse"


def test_every_fixed_example_parses():
    for keyword, line in grammar.EXAMPLES.items():
        [result] = grammar.parse_mail(line, GD, PLAYERS)
        assert result.error is None, (keyword, line, result.error)


def test_a_sign_on_later_in_the_mail_is_an_error_and_comments_blank_and_quoted_lines_are_skipped():
    results = grammar.parse_mail("JUDGE g red pw\n\n# a comment\n> PLACE quoted\nPLACE Lord FRONT # mine\n"
                                 "JUDGE g red pw\n-- \nPLACE junk in the signature", GD, PLAYERS)
    assert [(r.lineno, r.error is None) for r in results] == [(5, True), (6, False)]
    assert "sign-on line belongs first" in english(results[1].error)


def test_a_line_broken_by_the_mta_is_joined_again():
    long = "PRESS ALL: " + "word " * 200
    text = long[:995] + "\r\n " + long[995:]
    [result] = grammar.parse_mail(text, GD, PLAYERS)
    assert result.command.text.split() == long.split(":", 1)[1].split()


def test_players_may_not_be_named_like_cards_or_keywords():
    from adjudicator.ruleset import RulesetError
    with pytest.raises(RulesetError, match="also a card name or a word of the mail grammar"):
        ORIFLAMME.new_game(["red", "lord", "blue"], {}, 1)
    with pytest.raises(RulesetError, match="also a card name or a word of the mail grammar"):
        ORIFLAMME.new_game(["red", "next", "blue"], {}, 1)
    with pytest.raises(RulesetError, match="3 to 5 players"):
        ORIFLAMME.new_game(["red", "blue"], {}, 1)
    with pytest.raises(RulesetError, match="no option colour"):
        ORIFLAMME.new_game(["red", "blue", "green"], {"colour": "x"}, 1)
    with pytest.raises(RulesetError, match="is not a player"):
        ORIFLAMME.new_game(["red", "blue", "green"], {"first": "pink"}, 1)
    assert ORIFLAMME.new_game(["red", "blue", "green"], {"first": "green"}, 1)["first"] == "green"


# -- against a position: canonical echo and legality ------------------------------------------------------


def submit(position: dict, player: str, text: str):
    return ORIFLAMME.submit(case_state(position), player, text)


ROUND3 = {"round": 3, "phase": "place", "placer": "blue", "queue": ["red Lord up", "blue Heir down", "red Spy down 2"],
          "hands": {"red": ["Archer", "Soldier", "Conspiracy", "Assassination", "Royal Decree"]}}


def test_accepted_lines_echo_canonically_with_positions_resolved_to_the_sender_s_cards():
    sub = submit(ROUND3, "red", "vyloz lucistnici na konec\nPLACE zbroj ON 3\nODHAL 3 V KOLE 5\nnechej spiknuti\n"
                                "cíl výnos: 2 na začátek\ntarget vrazdu: blue's heir\nHELP\nPRESS blue: hi")
    assert sub.applied, [english(ln.error) for ln in sub.parsed.lines]
    assert [ln.canonical for ln in sub.parsed.lines] == [
        "PLACE Archer BACK", "PLACE Soldier ON Spy", "REVEAL Spy IN ROUND 5", "WAIT Conspiracy",
        "TARGET Royal Decree: 2 -> FRONT", "TARGET Assassination: Blue Heir", "HELP", "PRESS Blue: hi"]
    assert ORIFLAMME.on_file(sub.state, "red") == [
        "PLACE Archer BACK", "PLACE Soldier ON Spy", "REVEAL Spy IN ROUND 5", "WAIT Conspiracy",
        "TARGET Assassination: Blue Heir", "TARGET Royal Decree: 2 -> FRONT"]
    assert sub.requests == [("help", None), ("press", ("blue",), "hi", False)]
    assert [str(n) for n in sub.notes] == ["PLACE Soldier ON Spy: for your placement in round 5."]  # red placed in round 3
    assert [n.render("cs") for n in sub.notes] == ["VYLOŽ Zbrojnoše NA Špeha: pro vaše vykládání v kole 5."]


@pytest.mark.parametrize("text, error", [
    ("PLACE Lord FRONT", "your Lord is not in your hand (it is in the queue)"),
    ("PLACE Heir FRONT", "your Heir is not in your hand (it was set aside at the start)"),
    ("PLACE Archer FRONT\nPLACE Archer BACK", "your Archer is already placed by an earlier PLACE line of this mail"),
    ("PLACE Archer ON 2", "position 2 holds Blue's card: a card goes only onto your own cards"),
    ("PLACE Archer ON 9", "position 9 holds no card"),
    ("PLACE Archer ON Heir", "your Heir was set aside at the start"),
    ("PLACE Archer ON Soldier", "your Soldier is not on top of a stack in the queue"),
    ("PLACE Archer FRONT\nPLACE Soldier BACK\nPLACE Conspiracy BACK\nPLACE Assassination BACK\nPLACE Royal Decree BACK",
     "you have only 3 placements left in this game"),
    ("REVEAL Lord", "your Lord is already face up"),
    ("REVEAL 2", "the card at position 2 is Blue's, not yours"),
    ("REVEAL 7", "there is no position 7 (the queue has 3 cards)"),
    ("REVEAL Spy IN ROUND 2", "round 2 is not to come (this is round 3 of 6)"),
    ("REVEAL Spy IN ROUND 7", "round 7 is not to come"),
    ("WAIT Heir", "your Heir was set aside at the start: it is out of this game"),
    ("TARGET Lord: FIRST", "the Lord chooses nothing: it has no target"),
    ("TARGET Conspiracy: FIRST", "the Conspiracy chooses nothing"),
    ("TARGET Archer: AFTER", "the Archer's target is FIRST or LAST"),
    ("TARGET Spy: AFTER, FIRST", "the Spy's target is BEFORE or AFTER"),
    ("TARGET Soldier: FIRST", "the Soldier's target is BEFORE or AFTER"),
    ("TARGET Shapeshifter: BEFORE", "your Shapeshifter was set aside at the start"),
    ("TARGET Assassination: 2 -> BACK", "the Assassination's target is a card"),
    ("TARGET Royal Decree: 2", "the Royal Decree's target is a card and where it goes"),
    ("TARGET Royal Decree: Royal Decree -> 1", "the Royal Decree cannot move itself"),
])
def test_legality_rejections_change_nothing(text, error):
    state = case_state(ROUND3)
    before = ORIFLAMME.on_file(state, "red")
    sub = ORIFLAMME.submit(state, "red", "WAIT Spy\n" + text)
    assert not sub.applied
    errors = [english(ln.error) for ln in sub.parsed.lines if not ln.ok]
    assert any(error in e for e in errors), errors
    assert all(ln.example for ln in sub.parsed.lines if not ln.ok)
    for ln in sub.parsed.lines:
        if not ln.ok:
            assert grammar.parse_mail(ln.example, GD, PLAYERS)[0].error is None, ln.example
    assert ORIFLAMME.on_file(sub.state, "red") == before


def test_place_on_in_round_1_and_clear():
    sub = submit({"round": 1, "phase": "place"}, "red", "PLACE Spy ON 1")
    assert not sub.applied
    state = case_state({"round": 1, "phase": "place", "hands": {"red": ["Lord", "Spy", "Heir"]}})
    sub = ORIFLAMME.submit(state, "red", "PLACE Lord FRONT\nPLACE Spy ON Lord\nREVEAL Heir\nCLEAR\nPLACE Heir BACK")
    assert sub.applied
    assert ORIFLAMME.on_file(sub.state, "red") == ["PLACE Heir BACK"]
    sub = ORIFLAMME.submit(sub.state, "red", "PLACE Spy FRONT")  # a mail with PLACE lines replaces them
    assert ORIFLAMME.on_file(sub.state, "red") == ["PLACE Spy FRONT"]


def test_an_answer_to_the_question_asked_must_fit_now():
    position = {"round": 3, "phase": "resolve", "cursor": 2,
                "queue": ["green Lord down", "red Shapeshifter up", "blue Soldier up"]}
    assert not ORIFLAMME.pending(case_state(position))[0].done
    sub = submit(position, "red", "TARGET Shapeshifter: AFTER")  # copying the Soldier needs a side too
    assert not sub.applied
    [line] = sub.parsed.lines
    assert english(line.error) == ("this target is not complete; choose one of: AFTER, BEFORE (copy Blue's Soldier, "
                                   "eliminating Green's face-down card) | AFTER, AFTER (copy Blue's Soldier, eliminating "
                                   "Blue's Soldier)")
    assert line.example == "TARGET Shapeshifter: AFTER, BEFORE"
    sub = submit(position, "red", "TARGET Shapeshifter: BEFORE, AFTER")  # no model before it
    assert not sub.applied and "this target does not fit the queue now" in english(sub.parsed.lines[0].error)
    sub = submit(position, "red", "TARGET Shapeshifter: AFTER, AFTER")
    assert sub.applied
    assert ORIFLAMME.pending(sub.state)[0].done
    [owed] = ORIFLAMME.pending(sub.state)
    assert str(owed.what).startswith("the target of your Shapeshifter at position 2: TARGET Shapeshifter: AFTER, BEFORE")


def test_a_shapeshifter_target_with_a_copied_part_still_fits_a_model_that_chooses_nothing():
    position = {"round": 3, "phase": "resolve", "cursor": 2, "queue": ["blue Lord up", "red Shapeshifter up", "green Heir up"]}
    sub = submit(position, "red", "TARGET Shapeshifter: AFTER, FIRST")  # copies the Heir: nothing to choose
    assert sub.applied, [english(ln.error) for ln in sub.parsed.lines]
    state, events = ORIFLAMME.advance(sub.state, force=False)
    texts = [e.text for e in events]
    assert "Red's Shapeshifter copies Green's Heir (the Heir's ability, not its name)." in texts
    assert state["influence"] == {"red": 3, "blue": 1, "green": 3}  # and Green's Heir: no other face-up Heir
