"""agot2e-ru's rebellion (REBEL, option ``rebellion``) and Hand of the King (HAND LOOK, option
``hand-of-the-king``): RULES.md V18, V21, D29-D35. The rules themselves are in the rules cases
(``tests/cases/agot2e-ru/rebellion-*``, ``hand-of-the-king-*``); here what a case cannot show: the card the
Hand sees reaches the Hand's mail and nobody else's, the die is the game seed's, both commands read back
from their Czech and Russian words, and the Czech texts are all Czech."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.messages import Msg, render
from adjudicator.rulesets.agot import lines, rebellion
from adjudicator.rulesets.agot.context import ctx_of
from adjudicator.rulesets.agot.grammar import GameDataNames, parse_mail
from adjudicator.rulesets.agot2e_ru.ruleset import AGOT2E_RU
from i18nhelp import untranslated
from positiontable import PositionTable


HOUSES = ("stark", "lannister", "baratheon")
AFTER_WESTEROS = {"players": list(HOUSES), "round": 3, "step": "westeros",
                  "tracks": {"iron_throne": ["baratheon", "lannister", "stark"]},
                  "westeros_cards": {"I": "Last Days of Summer", "II": "Last Days of Summer", "III": "Sea of Storms"},
                  "decks": {"II": ["Clash of Kings"]}}
REBELLION = {"players": list(HOUSES), "round": 5, "step": "action", "neutral": {},
             "westeros_cards": {"I": "Last Days of Summer", "II": "Game of Thrones", "III": "Sea of Storms"},
             "areas": {"Lannisport": {"lannister": ["footman", "footman", "footman"]},
                       "Dragonstone": {"baratheon": ["footman", "footman", "footman", "footman"]},
                       "White Harbor": {"stark": ["footman"]}}}


class Table(PositionTable):
    """An agot2e-ru game of three houses by mail from a rules-case position, run to the first decision
    anybody owes; ``czech`` reads Czech."""

    def __init__(self, tmp_path: Path, monkeypatch, position: dict, czech: str):
        super().__init__(tmp_path, monkeypatch, AGOT2E_RU, HOUSES, {k: v for k, v in position.items() if k != "players"},
                         czech)


@pytest.fixture
def table(tmp_path, monkeypatch):
    return lambda position, czech: Table(tmp_path, monkeypatch, position, czech)


# -- the Hand of the King ---------------------------------------------------------------------------------


def test_the_hand_is_asked_and_the_card_it_sees_reaches_its_mail_alone(table):
    t = table(AFTER_WESTEROS, "lannister")
    assert t.state["step"] == "hand" and [(o.player, o.done) for o in AGOT2E_RU.pending(t.state)] == [("lannister", False)]
    t.mail("baratheon", "HAND LOOK II")  # the king is not the Hand
    t.mail("lannister", "PRAVICE NAHLÉDNI II")
    assert t.state["phase"] == "planning" and t.state["decks"]["II"][0] == "clash-of-kings"  # back on top
    mail = t.new_mail()
    assert "you are not the Hand of the King (Lannister is: second on the Iron Throne track)" in mail["baratheon"]
    assert "Vrchní karta balíčku Westerosu II: Střet králů (ukazuje se jen vám; zůstává nahoře)." in mail["lannister"]
    assert "Rod Lannister, Pravice krále, nahlíží na vrchní kartu balíčku Westerosu II." in mail["lannister"]
    for house in ("stark", "baratheon"):
        assert "Lannister, the Hand of the King, looks at the top card of Westeros deck II." in mail[house]
        assert "Clash of Kings" not in mail[house] and "The top card of Westeros deck" not in mail[house], house
    assert untranslated(mail["lannister"], "cs", ("agot", "agot2e")) == []


def test_the_hand_at_the_deadline_looks_at_nothing(table):
    t = table(AFTER_WESTEROS, "stark")
    t.deadline()
    assert t.state["phase"] == "planning"
    mail = t.new_mail()
    assert "Lannister sent no HAND line; default: the Hand looks at no card." in mail["baratheon"]
    assert "Rod Lannister neposlal PRAVICE; výchozí volba: Pravice nenahlíží na žádnou kartu." in mail["stark"]


def test_the_cards_seen_are_events_for_the_hand_alone():
    state = AGOT2E_RU.case_state(AFTER_WESTEROS)
    assert AGOT2E_RU.submit(state, "lannister", "ДЕСНИЦА СМОТРЕТЬ II").applied
    events = []
    while state["phase"] != "planning":  # the Westeros phase, then the Hand's step
        events += AGOT2E_RU.advance(state, force=False)[1]
    seen = [e for e in events if e.key == "agot.hand.seen"]
    assert [(e.text, e.to) for e in seen] == [
        ("The top card of Westeros deck II: Clash of Kings (shown to you alone; it stays on top).", ("lannister",))]
    assert all("Clash of Kings" not in e.text for e in events if e.to is None)
    assert AGOT2E_RU.view(state, "stark").get("plans") is None


# -- the rebellion ---------------------------------------------------------------------------------------------


def test_a_rebellion_by_mail_asks_every_house_with_an_area_and_rolls_in_public(table):
    t = table(REBELLION, "stark")
    assert t.state["step"] == "rebellion"
    assert sorted(o.player for o in AGOT2E_RU.pending(t.state)) == ["lannister", "stark"]  # Dragonstone: 6
    t.mail("lannister", "STATUS")
    t.mail("stark", "STAV")
    asked = t.new_mail()
    assert "the rebellion: REBEL <area> (total strength 5 or less: Lannisport)" in asked["lannister"]
    assert "vzpoura: VZPOURA <oblast> (celková síla nejvýše 5: White Harbor, Winterfell)" in asked["stark"]
    t.mail("stark", "VZPOURA Lannisport")  # not Stark's: refused in Czech, nothing kept
    assert "Lannisport není vaše oblast s celkovou silou nejvýše 5" in t.new_mail()["stark"]
    t.mail("stark", "VZPOURA White Harbor")
    assert "VZPOURA White Harbor" in t.new_mail()["stark"]  # the echo, in Czech words
    t.deadline()
    mail = t.new_mail()
    die = rebellion.roll(t.state, ctx_of(t.state), "stark")  # the game's seed decides, whoever reads it
    assert f"Rebellion against Stark in White Harbor (total strength 2): the die shows {die}." in mail["lannister"]
    assert f"Vzpoura proti rodu Stark v oblasti White Harbor (celková síla 2): na kostce padá {die}." in mail["stark"]
    assert "Lannister sent no REBEL for an area it may name; default: its weakest area, Lannisport." in mail["baratheon"]
    assert untranslated(mail["stark"], "cs", ("agot", "agot2e")) == []


def test_the_die_is_the_game_seeds():
    state = AGOT2E_RU.case_state({**REBELLION, "seed": 7})
    other = AGOT2E_RU.case_state({**REBELLION, "seed": 8})
    ctx = ctx_of(state)
    rolls = [rebellion.roll({**state, "round": r}, ctx, h) for r in range(2, 11) for h in HOUSES]
    assert rolls == [rebellion.roll({**state, "round": r}, ctx, h) for r in range(2, 11) for h in HOUSES]
    assert rolls != [rebellion.roll({**other, "round": r}, ctx, h) for r in range(2, 11) for h in HOUSES]
    assert set(rolls) <= set(range(1, 7))


# -- words -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("line, czech, russian", [
    ("REBEL Winterfell", "VZPOURA Winterfell", "МЯТЕЖ Winterfell"),
    ("HAND LOOK II", "PRAVICE NAHLÉDNI II", "ДЕСНИЦА СМОТРЕТЬ 2"),
    ("HAND PASS", "PRAVICE NIC", "ДЕСНИЦА ПАС")])
def test_each_line_reads_back_from_its_czech_and_russian_words(line, czech, russian):
    names = GameDataNames(AGOT2E_RU.rules.gamedata(), variant=True)
    assert parse_mail(line, names).lines[0].canonical == line
    assert lines.in_language(line, "cs") == czech
    for words in (czech, russian, line.lower()):
        assert parse_mail(words, names).lines[0].canonical == line, words


def test_a_wrong_hand_line_says_what_it_takes():
    names = GameDataNames(AGOT2E_RU.rules.gamedata(), variant=True)
    result = parse_mail("HAND LOOK IV", names).lines[0]
    assert str(result.error) == 'HAND needs LOOK and a Westeros deck (I, II, III) or PASS, not "LOOK IV"'
    assert result.example == "HAND LOOK II"


def test_the_first_edition_knows_neither_word():
    from adjudicator.rulesets.agot1e.ruleset import AGOT1E
    assert {"rebel", "hand", "vzpoura", "pravice", "мятеж", "десница"} <= AGOT2E_RU.keywords
    assert not {"rebel", "hand", "vzpoura", "pravice"} & AGOT1E.keywords


def test_the_czech_messages_are_all_czech():
    samples = [
        Msg("agot.rebellion.announced", card="last-days-of-summer", most=5),
        Msg("agot.rebellion.comes", card="last-days-of-summer", most=5),
        Msg("agot.owed.rebel", most=5, areas=["Winterfell"]), Msg("agot.default.rebel", house="stark", area="Winterfell"),
        Msg("agot.rebellion.roll", house="stark", area="Winterfell", strength=2, roll=4),
        Msg("agot.rebellion.fails", house="stark", area="Winterfell"),
        Msg("agot.rebellion.succeeds", house="stark", area="Winterfell", neutral=6, roll=4, castle=2, order="obrana +1",
            token=True),
        Msg("agot.error.no_rebellion"), Msg("agot.error.rebel_not_now"),
        Msg("agot.error.rebel_area", area="Winterfell", most=5, areas=["White Harbor"]),
        Msg("agot.error.rebel_not_asked", most=5), Msg("agot.owed.hand"), Msg("agot.hand.looks", house="stark", deck="II"),
        Msg("agot.hand.seen", deck="II", card="clash-of-kings"), Msg("agot.hand.passes", house="stark"),
        Msg("agot.default.hand", house="stark"), Msg("agot.error.no_hand"), Msg("agot.error.not_the_hand", house="stark"),
        Msg("agot.error.hand_not_now"), Msg("agot.error.hand_form", text="x", decks=["I", "II", "III"])]
    for msg in samples:
        text = render(msg, "cs")
        assert untranslated(text, "cs", ("agot", "agot2e")) == [], (msg.key, text)
        assert text != render(msg, "en"), msg.key


def test_the_bots_make_both_decisions_in_self_play():
    """A seeded 3-house game with every option on: the bots send REBEL and HAND lines (not only the
    deadline's defaults), and the invariants hold after every step (``selfplay.play`` checks them)."""
    from adjudicator.selfplay import play
    played = play(AGOT2E_RU, list(HOUSES), 2, options={"preview": "yes"})
    keys = [e.key for e in played.events]
    rolls, defaults = keys.count("agot.rebellion.roll"), keys.count("agot.default.rebel")
    assert rolls > defaults and "agot.hand.looks" in keys and "agot.hand.passes" in keys
    assert played.rejected == []
