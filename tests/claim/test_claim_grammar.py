"""The Claim mail grammar: every command, English and Czech forms, the canonical echo, every kind
of rejection (with its line number, reason and a valid example), and the round trip
canonical -> parse -> the same command."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.messages import Msg, render
from adjudicator.rulesets.claim import grammar
from adjudicator.rulesets.claim.gamedata import load_gamedata
from adjudicator.rulesets.claim.grammar import Cancel, Help, Names, OrdersQuery, Play, Press, Status, Take

GD = load_gamedata()
CLAIM2 = Names(GD, ("gnomes", "giants", "dragons", "trolls", "seers"), ("alice", "bob"))
CLAIM = Names(GD, ("goblins", "knights", "undead", "dwarves", "doppelgangers"), ("alice", "bob", "carol"))


def one(text: str, names: Names = CLAIM2) -> grammar.Line:
    [line] = grammar.parse_mail(text, names)
    return line


@pytest.mark.parametrize("text, alts, canonical", [
    ("PLAY Gnome 5", ("gnomes 5",), "PLAY Gnome 5"),
    ("play gnomes 5", ("gnomes 5",), "PLAY Gnome 5"),
    ("Play GNOME-5", ("gnomes 5",), "PLAY Gnome 5"),
    ("PLAY 5 gnome", ("gnomes 5",), "PLAY Gnome 5"),
    ("PLAY gno 5", ("gnomes 5",), "PLAY Gnome 5"),
    ("HRAJ gnóm 5", ("gnomes 5",), "PLAY Gnome 5"),
    ("zahraj Gnómové 7", ("gnomes 7",), "PLAY Gnome 7"),
    ("hraj věštec 0", ("seers 0",), "PLAY Seer 0"),
    ("hraj vestci 9", ("seers 9",), "PLAY Seer 9"),
    ("HRAJ obr 3 NEBO drak 2 NEBO nejnižší", ("giants 3", "dragons 2", "lowest"), "PLAY Giant 3 OR Dragon 2 OR LOWEST"),
    ("PLAY gnome 5 OR giant 3 OR LOWEST", ("gnomes 5", "giants 3", "lowest"), "PLAY Gnome 5 OR Giant 3 OR LOWEST"),
    ("PLAY troll 4, dragon 1 | highest", ("trolls 4", "dragons 1", "highest"), "PLAY Troll 4 OR Dragon 1 OR HIGHEST"),
    ("PLAY LOWEST", ("lowest",), "PLAY LOWEST"),
    ("play nejvyšší", ("highest",), "PLAY HIGHEST"),
    ("PLAY gnome 5 OR gnome 5", ("gnomes 5",), "PLAY Gnome 5"),
    ("PLAY Gnome 5   # my best", ("gnomes 5",), "PLAY Gnome 5"),
])
def test_play_forms(text, alts, canonical):
    line = one(text)
    assert line.error is None, line.error
    assert line.command == Play(alts)
    assert line.canonical == canonical


@pytest.mark.parametrize("text, names, alts, canonical", [
    ("PLAY Doppelganger 3", CLAIM, ("doppelgangers 3",), "PLAY Doppelganger 3"),
    ("HRAJ měňavec 3", CLAIM, ("doppelgangers 3",), "PLAY Doppelganger 3"),
    ("hraj skřet 0", CLAIM, ("goblins 0",), "PLAY Goblin 0"),
    ("hraj rytíř 9 nebo trpaslík 2", CLAIM, ("knights 9", "dwarves 2"), "PLAY Knight 9 OR Dwarf 2"),
    ("PLAY undead 4 or dwarves 4", CLAIM, ("undead 4", "dwarves 4"), "PLAY Undead 4 OR Dwarf 4"),
    ("PLAY dopp 1", CLAIM, ("doppelgangers 1",), "PLAY Doppelganger 1"),
])
def test_play_claim_factions(text, names, alts, canonical):
    line = one(text, names)
    assert line.error is None, line.error
    assert (line.command, line.canonical) == (Play(alts), canonical)


@pytest.mark.parametrize("text, alts, canonical", [
    ("TAKE PRIZE", ("prize",), "TAKE PRIZE"),
    ("TAKE DECK", ("deck",), "TAKE DECK"),
    ("SEER DECK", ("deck",), "TAKE DECK"),
    ("seer prize", ("prize",), "TAKE PRIZE"),
    ("VEZMI BALÍČEK", ("deck",), "TAKE DECK"),
    ("vezmi stůl", ("prize",), "TAKE PRIZE"),
    ("TAKE dragon 7 OR DECK", ("dragons 7", "deck"), "TAKE Dragon 7 OR DECK"),
    ("take highest", ("highest",), "TAKE HIGHEST"),
    ("PICK lowest", ("lowest",), "TAKE LOWEST"),
])
def test_take_forms(text, alts, canonical):
    line = one(text)
    assert line.error is None, line.error
    assert (line.command, line.canonical) == (Take(alts), canonical)


@pytest.mark.parametrize("text, command, canonical", [
    ("CANCEL", Cancel(), "CANCEL"),
    ("zruš", Cancel(), "CANCEL"),
    ("HELP", Help(None), "HELP"),
    ("help seers", Help("seers"), "HELP seers"),
    ("STATUS", Status(), "STATUS"),
    ("ORDERS?", OrdersQuery(), "ORDERS?"),
    ("orders ?", OrdersQuery(), "ORDERS?"),
    ("PLAYS?", OrdersQuery(), "ORDERS?"),
    ("PRESS bob: hello", Press(("bob",), "hello", False), "PRESS bob: hello"),
    ("PRESS Alice, Bob: hi all", Press(("alice", "bob"), "hi all", False), "PRESS alice, bob: hi all"),
    ("PRESS ALL: good luck", Press("ALL", "good luck", False), "PRESS ALL: good luck"),
    ("PRESS ANON all: boo", Press("ALL", "boo", True), "PRESS ANON ALL: boo"),
])
def test_mail_level_commands(text, command, canonical):
    line = one(text)
    assert line.error is None, line.error
    assert (line.command, line.canonical) == (command, canonical)


@pytest.mark.parametrize("text, error, example", [
    ("PLAY Gnmoe 5", 'unknown faction "Gnmoe"; did you mean Gnome?', "PLAY Gnome 5"),
    ("PLAY Knight 4", "there are no Knights in this game (factions: Gnomes, Giants, Dragons, Trolls, Seers)", "PLAY Gnome 9"),
    ("PLAY Giant 2", "Giants have only the values 1, 3, 5, 7, 9", "PLAY Giant 9"),
    ("PLAY Gnome", 'cannot read "Gnome" as a card: write the faction and the value, LOWEST or HIGHEST', "PLAY Gnome 9"),
    ("PLAY", "PLAY needs a card (faction and value), LOWEST or HIGHEST; alternatives are joined by OR", "PLAY Gnome 9"),
    ("PLAY gnome 5 OR", "PLAY needs a card (faction and value), LOWEST or HIGHEST", "PLAY Gnome 9"),
    ("PLAY DECK", '"DECK" is for TAKE; PLAY takes a card, LOWEST or HIGHEST', "PLAY Gnome 9"),
    ("PLAU gnome 5", 'unknown command "PLAU"; did you mean PLAY?', "PLAY Gnome 5"),
    ("gnome 5", 'a card needs the command PLAY in front: "PLAY gnome 5"', "PLAY Gnome 5"),
    ("Gnome 1", 'a card needs the command PLAY in front: "PLAY Gnome 1"', "PLAY Gnome 1"),
    ("Seer 9", 'a card needs the command PLAY in front: "PLAY Seer 9"', "PLAY Seer 9"),
    ("Věštec 9", 'a card needs the command PLAY in front: "PLAY Věštec 9"', "PLAY Seer 9"),
    ("vestec 0 or gnome 1", 'a card needs the command PLAY in front', "PLAY Seer 0 OR Gnome 1"),
    ("Seers 9", 'a card needs the command PLAY in front: "PLAY Seers 9"', "PLAY Seer 9"),
    ("věštci 9", 'a card needs the command PLAY in front: "PLAY věštci 9"', "PLAY Seer 9"),
    ("FROBNICATE", 'unknown command "FROBNICATE"; commands are PLAY, TAKE, CANCEL, HELP, STATUS, ORDERS?, PRESS', "PLAY Gnome 9"),
    ("TAKE", "TAKE needs a prize (faction and value), PRIZE, DECK, HIGHEST or LOWEST", "TAKE PRIZE"),
    ("CANCEL all", "CANCEL takes nothing after it", "CANCEL"),
    ("PRESS carl: hi", 'no player "carl" in this game (players: alice, bob)', "PRESS alice: shall we talk?"),
    ("PRESS bob", 'PRESS needs "<player>: <message>" or "ALL: <message>"', "PRESS alice: shall we talk?"),
    ("PRESS bob:", "empty PRESS message", "PRESS alice: shall we talk?"),
    ("PLAY " + " OR ".join(["LOWEST"] * 13), "at most 12 alternatives on one line", "PLAY Gnome 9"),
])
def test_rejections_carry_the_reason_and_a_valid_example(text, error, example):
    line = one(text)
    assert line.command is None
    assert str(line.error).startswith(error), line.error  # in English (the catalogue's)
    assert line.example == example
    if example.startswith(("PLAY", "TAKE", "CANCEL", "PRESS")):
        assert one(example).error is None, "the example itself parses"


def test_line_numbers_sign_on_comments_quotes_and_signature():
    text = ("JUDGE g1 alice secret\n\n# a comment\n> PLAY quoted 1\nPLAY Gnome 5\nPLAY Knight 2\n"
            "-- \nPLAY after signature\n")
    lines = grammar.parse_mail(text, CLAIM2)
    assert [(ln.lineno, ln.canonical, ln.error is None) for ln in lines] == [(5, "PLAY Gnome 5", True), (6, None, False)]


def test_a_later_judge_line_is_refused():
    lines = grammar.parse_mail("PLAY Gnome 5\nJUDGE g1 alice x\n", CLAIM2)
    assert str(lines[1].error) == "the sign-on line JUDGE must be the first line of the mail"


def test_transport_damage_and_unreadable_text():
    assert one("PLAY\u00a0Gnome\u00a05").canonical == "PLAY Gnome 5"
    assert one("PLAY Gnome \u20135".replace("\u2013", "-")).canonical == "PLAY Gnome 5"
    assert str(one("PLAY Gnome 5\x00").error).startswith("unreadable character U+0000")
    assert str(one("PRESS ALL: " + "x" * 1200).error).startswith("line too long")


CARDS = [(f, v) for f in CLAIM2.factions for v in dict.fromkeys(GD.factions[f].values)]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(CARDS), st.sampled_from(["lowest", "highest"])), min_size=1, max_size=5),
       st.sampled_from(["PLAY", "HRAJ", "play"]), st.sampled_from([" OR ", " nebo ", ", "]))
def test_round_trip_canonical_parses_to_the_same_command(alts, keyword, joiner):
    def write(a):
        if isinstance(a, str):
            return a
        return render(Msg("claim.card", faction=a[0], value=a[1]), "cs")  # as a Czech player reads it
    line = one(f"{keyword} " + joiner.join(write(a) for a in alts))
    assert line.error is None, line.error
    again = one(line.canonical)
    assert again.command == line.command and again.canonical == line.canonical
