"""The 2nd edition's CHOOSE (A Throne of Blades, Dark Wings Dark Words, Put to the Sword), PROMOTE,
DEMOTE, PENALTY and RAVEN LOOK/TOP/BOTTOM at the engine (agot2e RULES.md 11.1-11.3): who is asked,
what is refused and why, what a line sent ahead does, the deadline defaults, the Czech words, and that
agot1e knows none of it."""

from __future__ import annotations

import pytest

from adjudicator.messages import Msg, render
from adjudicator.rulesets.agot import lines
from adjudicator.rulesets.agot.grammar import GameDataNames, parse_mail
from adjudicator.rulesets.agot1e.edition import load_gamedata as load_agot1e
from adjudicator.rulesets.agot2e.edition import load_gamedata
from adjudicator.rulesets.agot2e.ruleset import AGOT2E
from i18nhelp import untranslated

HOUSES = ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"]
THRONE_OF_BLADES = {"I": "A Throne of Blades", "II": "Last Days of Summer", "III": "Sea of Storms"}


def position(**more) -> dict:
    return AGOT2E.case_state({"players": HOUSES, "round": 4, "step": "westeros", **more})


def run(state: dict, force: bool = True) -> list[str]:
    return [e.text for e in AGOT2E.advance(state, force=force)[1]]


def to_step(state: dict) -> list[str]:
    texts = []
    while not AGOT2E.pending(state):
        texts += run(state, force=False)
    return texts


def errors(sub) -> list[str]:
    return [str(ln.error) for ln in sub.parsed.lines if not ln.ok]


# -- CHOOSE ------------------------------------------------------------------------------------------------


def test_the_holder_is_asked_at_step_choose_and_only_the_holder_may_answer():
    state = position(westeros_cards=THRONE_OF_BLADES, supply={"stark": 0})
    to_step(state)
    assert state["step"] == "choose"
    [owed] = AGOT2E.pending(state)
    assert (owed.player, owed.done) == ("baratheon", False)
    assert str(owed.what) == ("choose for A Throne of Blades: Supply, Mustering, nothing (CHOOSE A Throne of Blades:"
                              " SUPPLY or CHOOSE A Throne of Blades: MUSTERING or CHOOSE A Throne of Blades: NOTHING)")
    sub = AGOT2E.submit(state, "stark", "CHOOSE A Throne of Blades: supply")
    assert errors(sub) == ["Baratheon holds the token that chooses for A Throne of Blades, not you"]
    assert AGOT2E.submit(state, "baratheon", "CHOOSE throne of blades: MUSTERING").applied  # a unique start of the name
    assert AGOT2E.pending(state)[0].done
    assert "A Throne of Blades: Baratheon chooses Mustering." in run(state, force=False)
    assert state["step"] == "muster"


def test_the_deadline_default_is_nothing():
    state = position(westeros_cards=THRONE_OF_BLADES, supply={"stark": 0})
    to_step(state)
    texts = run(state, force=True)
    assert "A Throne of Blades: Baratheon holds the token that chooses and sent no choice; default: nothing happens." \
        in texts
    assert state["supply"]["stark"] == 0 and state["phase"] == "planning"


def test_a_choose_line_for_a_card_not_revealed_or_already_resolved_is_ignored_with_a_note():
    state = position(westeros_cards=THRONE_OF_BLADES)
    sub = AGOT2E.submit(state, "greyjoy", "CHOOSE Put to the Sword: no defense")
    assert sub.applied and [str(n) for n in sub.notes] == [
        "Your CHOOSE line for Put to the Sword is ignored: the card is not revealed this round."]
    assert "CHOOSE Put to the Sword: NO DEFENSE" not in AGOT2E.on_file(state, "greyjoy")
    state = position(westeros_cards={**THRONE_OF_BLADES, "II": "Dark Wings, Dark Words"})
    to_step(state)
    assert AGOT2E.submit(state, "baratheon", "CHOOSE A Throne of Blades: nothing").applied
    run(state, force=False)
    assert state["step"] == "choose" and AGOT2E.pending(state)[0].player == "lannister"  # Dark Wings, Dark Words
    sub = AGOT2E.submit(state, "baratheon", "CHOOSE A Throne of Blades: supply")
    assert [str(n) for n in sub.notes] == [
        "Your CHOOSE line for A Throne of Blades is ignored: the card has resolved already."]


def test_a_choose_line_sent_in_the_action_phase_waits_for_the_next_westeros_phase():
    state = AGOT2E.case_state({"players": HOUSES, "round": 3, "step": "action", "supply": {"stark": 0},
                               "areas": {"Winterfell": {"stark": ["footman"]}}})
    sub = AGOT2E.submit(state, "baratheon", "CHOOSE A Throne of Blades: supply\nCHOOSE Dark Wings, Dark Words: power")
    assert sub.applied and sub.notes == []
    assert AGOT2E.on_file(state, "baratheon") == ["CHOOSE A Throne of Blades: SUPPLY",
                                                  "CHOOSE Dark Wings, Dark Words: POWER"]
    state["decks"]["I"] = ["a-throne-of-blades"] + [c for c in state["decks"]["I"] if c != "a-throne-of-blades"]
    state["decks"]["II"] = [c for c in state["decks"]["II"] if c != "dark-wings-dark-words"] + ["dark-wings-dark-words"]
    state["decks"]["II"] = [c for c in state["decks"]["II"] if c != "winter-is-coming"] + ["winter-is-coming"]
    texts = []
    while state["round"] == 3 or state["phase"] == "westeros":
        texts += run(state, force=True)
    assert "A Throne of Blades: Baratheon chooses Supply." in texts
    assert state["supply"]["stark"] == 1
    assert not [ln for ln in AGOT2E.on_file(state, "baratheon") if ln.startswith("CHOOSE")]  # used, or expired


def test_a_line_sent_before_the_reveal_for_a_card_not_drawn_is_dropped_and_its_sender_told():
    state = AGOT2E.case_state({"players": HOUSES, "round": 3, "step": "action",
                               "areas": {"Winterfell": {"stark": ["footman"]}}})
    AGOT2E.submit(state, "lannister", "CHOOSE Dark Wings, Dark Words: clash")
    state["decks"]["II"] = [c for c in state["decks"]["II"] if c not in ("dark-wings-dark-words", "winter-is-coming")] \
        + ["dark-wings-dark-words", "winter-is-coming"]
    events = []
    while state["round"] == 3:
        events += AGOT2E.advance(state, force=True)[1]
    told = [e for e in events if e.key == "agot.westeros.choose_dropped"]
    assert [(e.text, e.to) for e in told] == [
        ("Your CHOOSE line for Dark Wings, Dark Words is ignored: the card is not revealed this round.", ("lannister",))]
    assert "chooses" not in state["plans"]["lannister"] or not state["plans"]["lannister"]["chooses"]


def test_put_to_the_sword_chosen_after_orders_were_mailed_asks_for_them_again():
    state = position(westeros_cards={"I": "Last Days of Summer", "II": "Last Days of Summer", "III": "Put to the Sword"},
                     areas={"Pyke": {"greyjoy": ["footman"]}})
    assert AGOT2E.submit(state, "greyjoy", "ORDERS\nPyke: defense +1").applied
    assert AGOT2E.submit(state, "greyjoy", "CHOOSE Put to the Sword: no defense").applied
    events = []
    while state["phase"] == "westeros":
        events += AGOT2E.advance(state, force=False)[1]
    assert state["restrictions"] == ["defense +1", "defense +2*"]
    again = [e for e in events if e.key == "agot.westeros.orders_no_longer_hold"]
    assert again and again[0].to == ("greyjoy",) and "Put to the Sword" in again[0].text
    sub = AGOT2E.submit(state, "greyjoy", "ORDERS\nPyke: defense +1")
    assert not sub.applied and "Put to the Sword" in errors(sub)[0]


def test_clear_forgets_choose_lines_and_clear_raven_the_raven_card_too():
    state = position(westeros_cards=THRONE_OF_BLADES)
    assert AGOT2E.submit(state, "baratheon", "CHOOSE A Throne of Blades: supply").applied
    assert AGOT2E.submit(state, "baratheon", "CLEAR").applied
    assert AGOT2E.on_file(state, "baratheon") == []
    raven = planning()
    assert AGOT2E.submit(raven, "lannister", "RAVEN LOOK\nRAVEN BOTTOM").applied
    assert AGOT2E.on_file(raven, "lannister") == ["RAVEN LOOK", "RAVEN BOTTOM"]
    assert AGOT2E.submit(raven, "lannister", "CLEAR RAVEN").applied
    assert AGOT2E.on_file(raven, "lannister") == []


def test_choose_refuses_an_unknown_card_and_an_option_the_card_does_not_offer():
    names = GameDataNames(load_gamedata())
    error = parse_mail("CHOOSE Winter: supply", names).lines[0]
    assert str(error.error).startswith("CHOOSE names A Throne of Blades, Dark Wings, Dark Words or Put to the Sword")
    error = parse_mail("CHOOSE Put to the Sword: supply", names).lines[0]
    assert str(error.error) == 'Put to the Sword offers NO DEFENSE, NO MARCH+1, NOTHING, not "supply"'
    assert error.example == "CHOOSE Put to the Sword: NO DEFENSE"


# -- PROMOTE, DEMOTE, PENALTY at step outcome ---------------------------------------------------------------


def crow_killers(won: bool, **more) -> dict:
    state = position(westeros_cards={"I": "Last Days of Summer", "II": "Last Days of Summer", "III": "Wildlings Attack"},
                     wildlings=2, power={h: 1 for h in HOUSES}, **more)
    bids = {"stark": 5 if won else 0, "lannister": 1} if won else {h: (0 if h == "stark" else 1) for h in HOUSES}
    if won:
        state["power"]["stark"] = 5
    for house, n in bids.items():
        assert AGOT2E.submit(state, house, f"BID {n}").applied
    while state["step"] != "outcome":
        run(state, force=True)
    return state


def test_promote_at_step_outcome_is_checked_against_the_footmen_and_the_knight_pieces():
    state = crow_killers(True, wildling_deck=["Crow Killers"],
                         areas={"Winterfell": {"stark": ["footman", "footman", "knight"]}, "Karhold": {"stark": ["knight"]}})
    [owed] = AGOT2E.pending(state)
    assert owed.player == "stark" and "footmen in Winterfell" in str(owed.what)
    sub = AGOT2E.submit(state, "stark", "PROMOTE Karhold")
    assert errors(sub) == ["Karhold holds 0 of your footmen"] and "PROMOTE Winterfell: 1" in str(sub.parsed.lines[0].example)
    assert errors(AGOT2E.submit(state, "lannister", "PROMOTE NONE")) == ["the wildling card asks no PROMOTE of you"]
    assert AGOT2E.submit(state, "stark", "PROMOTE NONE").applied
    assert "Stark turns 0 footmen into knights." in run(state, force=False)
    assert state["areas"]["winterfell"]["stark"] == ["footman", "footman", "knight"]


def test_demote_is_asked_only_of_a_house_with_more_than_two_knights_and_never_of_the_lowest_bidder():
    state = crow_killers(False, wildling_deck=["Crow Killers"],
                         areas={"Winterfell": {"stark": ["knight", "knight", "knight"]},
                                "Lannisport": {"lannister": ["knight", "knight", "knight"]},
                                "Dragonstone": {"baratheon": ["knight", "knight"]}})
    assert [o.player for o in AGOT2E.pending(state)] == ["lannister"]
    assert errors(AGOT2E.submit(state, "stark", "DEMOTE Winterfell: 2")) == ["the wildling card asks no DEMOTE of you"]
    assert errors(AGOT2E.submit(state, "lannister", "DEMOTE Lannisport: 1")) == [
        "name exactly 2 of your knights to turn into footmen"]
    assert AGOT2E.submit(state, "lannister", "DEMOTE Lannisport: 2").applied
    texts = run(state, force=False)
    assert "Stark turns 3 knights into footmen." in texts and "Baratheon turns 2 knights into footmen." in texts
    assert not any("sent no DEMOTE" in t for t in texts)


def test_penalty_track_at_step_outcome_and_the_default_units():
    tracks = {"iron_throne": ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"],
              "fiefdoms": ["lannister", "stark", "baratheon", "greyjoy", "tyrell", "martell"],
              "kings_court": ["lannister", "baratheon", "stark", "greyjoy", "tyrell", "martell"]}
    state = crow_killers(False, wildling_deck=["Preemptive Raid"], tracks=tracks,
                         areas={"Winterfell": {"stark": ["footman", "knight"]}})
    [owed] = AGOT2E.pending(state)
    assert owed.player == "stark" and str(owed.what).startswith("Preemptive Raid: PENALTY UNITS")
    assert errors(AGOT2E.submit(state, "lannister", "PENALTY TRACK")) == ["the wildling card asks no PENALTY of you"]
    assert errors(AGOT2E.submit(state, "stark", "REMOVE Winterfell: knight")) == [
        "name exactly 2 units to remove (these lines name 1)"]
    assert AGOT2E.submit(state, "stark", "PENALTY TRACK").applied
    assert "PENALTY TRACK" in AGOT2E.on_file(state, "stark")
    assert "Stark drops to place 3 on the Iron Throne track." in run(state, force=False)  # ties: the Iron Throne
    assert state["tracks"]["iron_throne"][0] == "lannister" and state["areas"]["winterfell"]["stark"]


def test_lines_for_a_wildling_card_are_refused_when_no_attack_is_coming():
    state = position(westeros_cards=THRONE_OF_BLADES)
    for line, word in (("PROMOTE NONE", "PROMOTE"), ("DEMOTE Winterfell: 1", "DEMOTE"), ("PENALTY UNITS", "PENALTY")):
        assert errors(AGOT2E.submit(state, "stark", line)) == [
            f"no wildling card asks a {word} now ({word} answers a 2nd-edition wildling card: send it with your"
            " Night's Watch bid, or when the card asks)"], line


# -- RAVEN LOOK, TOP, BOTTOM --------------------------------------------------------------------------------


def planning(**more) -> dict:
    return AGOT2E.case_state({"players": HOUSES, "round": 4, "step": "planning",
                              "wildling_deck": ["Crow Killers", "Silence at the Wall"],
                              "areas": {"Lannisport": {"lannister": ["footman"]}}, **more})


def test_raven_look_shows_the_card_to_the_holder_alone_then_asks_top_or_bottom():
    state = planning()
    assert errors(AGOT2E.submit(state, "stark", "RAVEN LOOK")) == ["you do not hold the Messenger Raven"]
    assert AGOT2E.submit(state, "lannister", "ORDERS\nLannisport: defense +1\nRAVEN LOOK").applied
    events = AGOT2E.advance(state, force=False)[1] + AGOT2E.advance(state, force=False)[1]
    seen = [e for e in events if e.key == "agot.raven.seen"]
    assert [(e.text, e.to) for e in seen] == [
        ("Your raven sees the top wildling card: Crow Killers (shown to you alone).", ("lannister",))]
    assert all("Crow Killers" not in e.text for e in events if e.to is None)
    assert state["step"] == "raven_card" and AGOT2E.view(state, "stark")["wildling_deck"] == 9
    [owed] = AGOT2E.pending(state)
    assert owed.player == "lannister" and not owed.done
    assert errors(AGOT2E.submit(state, "lannister", "RAVEN Lannisport: support")) == [
        "your raven looked at the wildling card: it changes no order now (RAVEN TOP or RAVEN BOTTOM)"]
    assert AGOT2E.submit(state, "lannister", "RAVEN TOP").applied
    assert "Lannister leaves the wildling card on top of the deck." in run(state, force=False)
    assert state["phase"] == "action" and state["wildling_deck"][0] == "crow-killers"


def test_raven_top_or_bottom_in_the_action_phase_is_refused():
    state = AGOT2E.case_state({"players": HOUSES, "round": 4, "step": "action",
                               "areas": {"Lannisport": {"lannister": ["footman"]}}, "orders": {"Lannisport": "defense +1"}})
    assert errors(AGOT2E.submit(state, "lannister", "RAVEN BOTTOM")) == [
        "RAVEN LOOK, TOP and BOTTOM belong to the planning phase, LOOK before the raven is used"]


def test_raven_look_is_no_command_of_agot1e():
    from adjudicator.rulesets.agot1e.ruleset import AGOT1E
    assert {"choose", "promote", "demote", "penalty", "zvol", "trest"} <= AGOT2E.keywords  # never prose in a mail
    assert not {"choose", "promote", "demote", "penalty", "zvol", "trest", "track"} & AGOT1E.keywords
    names = GameDataNames(load_agot1e())
    assert str(parse_mail("RAVEN LOOK", names).lines[0].error) == 'RAVEN needs "<area>: <order>" or PASS'
    for line in ("CHOOSE A Throne of Blades: supply", "PROMOTE Winterfell", "DEMOTE Winterfell", "PENALTY UNITS"):
        error = parse_mail(line, names).lines[0].error
        assert error.key == "agot.error.unknown_command_list" and not {"CHOOSE", "PROMOTE", "DEMOTE", "PENALTY"} \
            & set(error.params["commands"]), line


# -- Czech ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("line", [
    "CHOOSE A Throne of Blades: SUPPLY", "CHOOSE A Throne of Blades: MUSTERING", "CHOOSE A Throne of Blades: NOTHING",
    "CHOOSE Dark Wings, Dark Words: CLASH", "CHOOSE Dark Wings, Dark Words: POWER",
    "CHOOSE Put to the Sword: NO DEFENSE", "CHOOSE Put to the Sword: NO MARCH+1",
    "PROMOTE Winterfell: 2", "PROMOTE NONE", "DEMOTE Winterfell: 1, White Harbor: 1",
    "PENALTY UNITS", "PENALTY TRACK", "RAVEN LOOK", "RAVEN TOP", "RAVEN BOTTOM"])
def test_each_new_line_reads_back_from_its_czech_words(line):
    names = GameDataNames(load_gamedata())
    assert parse_mail(line, names).lines[0].canonical == line
    czech = lines.in_language(line, "cs")
    assert czech != line and untranslated(czech, "cs", ("agot", "agot2e")) == []
    assert parse_mail(czech, names).lines[0].canonical == line, czech


def test_the_new_czech_messages_are_all_czech():
    samples = [
        Msg("agot.owed.choose", card="dark-wings-dark-words", options=["clash-of-kings", "game-of-thrones", "nothing"],
            lines=[Msg("agot.line.choose", card="dark-wings-dark-words", option="clash-of-kings")]),
        Msg("agot.westeros.holder_chose", card="put-to-the-sword", house="greyjoy", option="rains-of-autumn"),
        Msg("agot.error.not_the_chooser", card="a-throne-of-blades", house="baratheon"),
        Msg("agot.error.choose_card", text="x"), Msg("agot.error.choose_option", card="a-throne-of-blades", text="x",
                                                     options=["zásobování"]),
        Msg("agot.note.choose_not_revealed", card="put-to-the-sword"), Msg("agot.note.choose_resolved", card="put-to-the-sword"),
        Msg("agot.westeros.choose_dropped", card="a-throne-of-blades"),
        Msg("agot.error.promote_count", word="DEMOTE", text="x"), Msg("agot.error.penalty_word", text="x"),
        Msg("agot.error.area_has_only", area="Winterfell", n=1, unit="knight"), Msg("agot.error.demote_exactly", n=2),
        Msg("agot.error.promote_most", n=2), Msg("agot.error.not_asked", word="PENALTY"),
        Msg("agot.error.no_wildling_choice_now", word="PROMOTE"), Msg("agot.error.remove_exactly", n=2, named=1),
        Msg("agot.owed.promote", areas=["Winterfell"]), Msg("agot.owed.demote", areas=["Winterfell"]),
        Msg("agot.owed.penalty", choices=["units", "track"]), Msg("agot.wildlings.promoted_chosen", house="stark", n=2),
        Msg("agot.default.demote", house="stark"), Msg("agot.default.penalty", house="stark"),
        Msg("agot.wildlings.track_dropped", house="stark", track="kings_court", place=3),
        Msg("agot.owed.raven_or_look"), Msg("agot.owed.raven_card"), Msg("agot.raven.looks", house="stark"),
        Msg("agot.raven.seen", card="crow-killers"), Msg("agot.raven.top", house="stark"),
        Msg("agot.raven.bottom", house="stark"), Msg("agot.default.raven_card", house="stark"),
        Msg("agot.error.raven_look_not_now"), Msg("agot.error.raven_looked")]
    for msg in samples:
        text = render(msg, "cs")
        assert untranslated(text, "cs", ("agot", "agot2e")) == [], (msg.key, text)
        assert text != render(msg, "en"), msg.key
