"""The 2nd edition's wildling-card choices by mail (agot2e/wildlings.py, RULES.md 11.2-11.3): A King
Beyond the Wall's ``TRACK``, asked of the right houses after the card is revealed (step ``outcome``),
sent ahead with the bid, or left to its deadline default."""

from __future__ import annotations

from adjudicator.rulesets.agot.grammar import EXAMPLES, SECOND_EDITION_COMMANDS, GameDataNames, parse_mail
from adjudicator.rulesets.agot2e.edition import load_gamedata
from adjudicator.rulesets.agot2e.ruleset import AGOT2E

HOUSES = ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"]
TRACKS = {"iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"],
          "fiefdoms": ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"],
          "kings_court": ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"]}


def king_beyond_the_wall(**position) -> dict:
    """Round 4, deck III a Wildlings Attack at 6 with A King Beyond the Wall on top of the wildling deck."""
    return AGOT2E.case_state({
        "players": HOUSES, "round": 4, "step": "westeros", "wildlings": 2, "tracks": TRACKS,
        "westeros_cards": {"I": "Last Days of Summer", "II": "Last Days of Summer", "III": "Wildlings Attack"},
        "wildling_deck": ["A King Beyond the Wall"], **position})


def advance(state: dict, force: bool) -> list[str]:
    return [e.text for e in AGOT2E.advance(state, force=force)[1]]


def to_the_card(state: dict, bids: dict[str, int]) -> list[str]:
    """Mail the bids and adjudicate (defaults for the rest) up to the card's question."""
    for house, n in bids.items():
        assert AGOT2E.submit(state, house, f"BID {n}").applied
    texts = []
    while state["step"] != "outcome" and state["phase"] == "westeros":
        texts += advance(state, force=True)
    return texts


def errors(sub) -> list[str]:
    return [str(ln.error) for ln in sub.parsed.lines if not ln.ok]


def test_the_highest_bidder_is_asked_for_a_track_after_the_reveal_and_its_choice_applies():
    state = king_beyond_the_wall()
    assert "The wildling card: A King Beyond the Wall." in to_the_card(state, {"tyrell": 5, "lannister": 2})
    owed = AGOT2E.pending(state)
    assert [(o.player, o.done) for o in owed] == [("tyrell", False)]
    assert "TRACK <track>: Iron Throne, Fiefdoms, King's Court" in str(owed[0].what)
    sub = AGOT2E.submit(state, "lannister", "TRACK THRONE")
    assert not sub.applied and "the card gives you no track to choose" in errors(sub)[0]
    assert AGOT2E.submit(state, "tyrell", "TRACK fiefdoms").applied
    assert [o.done for o in AGOT2E.pending(state)] == [True]
    texts = advance(state, force=False)
    assert "Tyrell moves to the top of the Fiefdoms track." in texts
    assert state["tracks"]["fiefdoms"][0] == "tyrell" and state["tracks"]["iron_throne"][-1] == "tyrell"


def test_after_a_loss_everyone_but_the_lowest_bidder_is_asked_and_only_fiefdoms_or_court_are_allowed():
    state = king_beyond_the_wall(power={h: 1 for h in HOUSES})
    to_the_card(state, {h: 1 for h in HOUSES if h != "martell"})  # Martell bids 0: the lowest
    assert sorted(o.player for o in AGOT2E.pending(state)) == sorted(h for h in HOUSES if h != "martell")
    sub = AGOT2E.submit(state, "stark", "TRACK THRONE")
    assert not sub.applied
    assert "the card lets you choose only Fiefdoms or King's Court" in errors(sub)[0]
    assert "TRACK FIEFDOMS" in str(sub)  # the valid example
    assert AGOT2E.submit(state, "stark", "STUPNICE dvůr").applied  # the Czech command word
    texts = advance(state, force=True)  # the deadline: the others take their default
    assert "Stark drops to the last place on the King's Court track." in texts
    assert "Martell drops to the last place on all three influence tracks." in texts
    assert "Greyjoy drops to the last place on the King's Court track (default: where it falls least)." in texts
    assert state["phase"] == "planning"


def test_a_track_line_is_refused_where_no_wildling_card_can_ask_for_it():
    state = king_beyond_the_wall(westeros_cards={"I": "Last Days of Summer", "II": "Last Days of Summer",
                                                 "III": "Rains of Autumn"})
    sub = AGOT2E.submit(state, "tyrell", "TRACK COURT")
    assert not sub.applied and "no influence track to choose now" in errors(sub)[0]


def test_the_second_edition_commands_examples_parse_and_their_czech_lines_round_trip():
    names = GameDataNames(load_gamedata())
    for key in SECOND_EDITION_COMMANDS:
        assert parse_mail(EXAMPLES[key], names).ok, key
    for czech, line in (("STUPNICE trůn", "TRACK THRONE"), ("stupnice Poddaní", "TRACK FIEFDOMS"),
                        ("Stupnice královský dvůr", "TRACK COURT")):
        assert parse_mail(czech, names).lines[0].canonical == line


def test_massing_on_the_milkwater_asks_a_discard_of_the_houses_with_two_cards_or_more():
    state = king_beyond_the_wall(power={h: 1 for h in HOUSES}, wildling_deck=["Massing on the Milkwater"],
                                 hands={"greyjoy": ["Balon Greyjoy"]})
    to_the_card(state, {h: 1 for h in HOUSES if h != "martell"})  # Martell bids 0: the lowest
    owed = {o.player: o for o in AGOT2E.pending(state)}
    assert sorted(owed) == sorted(h for h in HOUSES if h not in ("martell", "greyjoy"))  # Greyjoy holds one card
    assert "DISCARD <card>:" in str(owed["stark"].what) and "Eddard Stark" in str(owed["stark"].what)
    sub = AGOT2E.submit(state, "greyjoy", "DISCARD Balon Greyjoy")
    assert not sub.applied and "the card asks no discard of you" in errors(sub)[0]
    assert AGOT2E.submit(state, "stark", "ODHOĎ Robb Stark").applied  # the Czech command word
    assert "DISCARD Robb Stark" in AGOT2E.on_file(state, "stark")
    texts = advance(state, force=True)
    assert "Stark discards Robb Stark." in texts and "Stark sent no DISCARD" not in " ".join(texts)
    assert "Tyrell sent no DISCARD; default: the weakest card in hand." in texts
    assert "robb-stark" in state["discards"]["stark"]


def test_lines_sent_with_the_bid_that_the_card_does_not_ask_are_dropped_with_a_note_to_their_sender():
    from pathlib import Path

    from adjudicator import yamlio
    from adjudicator.ruleset import get

    case = yamlio.load_mapping(Path(__file__).parents[1] / "cases/agot2e/wildlings-lines-not-asked-ignored-with-a-note.yaml")
    rs = get("agot2e")
    state = rs.case_state(case["position"])
    for house, text in case["decisions"].items():
        sub = rs.submit(state, house, text)
        assert sub.applied, [str(n) for n in sub.notes]
        state = sub.state
    events = []
    while state["phase"] == "westeros":
        state, more = rs.advance(state, force=True)
        events += more
    notes = [e for e in events if e.key == "agot.wildlings.lines_unused"]
    assert [(e.to, e.text) for e in notes] == [(("lannister",), "A King Beyond the Wall does not ask you for what these lines"
                                               " sent with your bid answer; they are ignored: TRACK FIEFDOMS; PENALTY UNITS.")]
    assert rs.on_file(state, "lannister") == [] and "penalties" not in state["plans"]["lannister"]


def test_a_variant_command_word_is_prose_in_an_agot2e_mail_and_a_command_in_an_agot2e_ru_mail():
    """"Give my regards ..." in an agot2e mail is no GIVE line: the variant's words (grammar.VARIANT_COMMANDS)
    are known only to agot2e-ru's games, so the line is read as prose, not refused as a broken command."""
    from adjudicator import mailbody
    from adjudicator.ruleset import get

    agot2e, variant = get("agot2e"), get("agot2e-ru")
    assert not {"give", "loan", "hand", "rebel", "buy"} & agot2e.keywords
    assert {"give", "loan", "hand", "rebel", "buy"} <= variant.keywords
    mail = "RAVEN PASS\nGive my regards to Lannister"
    kept, ignored = mailbody.not_orders(mail, agot2e.keywords)
    assert [r.ignored for r in ignored] == ["prose"] and kept.split("\n")[0] == "RAVEN PASS"
    kept, ignored = mailbody.not_orders(mail, variant.keywords)
    assert ignored == [] and kept == mail  # a GIVE line in the variant's game: the grammar reads it
