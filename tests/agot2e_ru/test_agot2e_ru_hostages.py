"""The hostage lines (agot2e-ru, option hostages; RULES.md V20) as a player meets them: every form in English,
Czech and Russian words reads as one command, the Czech echo reads back as the same command, and a refused
line comes with a line the judge accepts; HELP and the board tell the hostages in English and Czech."""

from __future__ import annotations

import pytest

from adjudicator import reports
from adjudicator.ruleset import get
from adjudicator.rulesets.agot.context import ctx_of
from adjudicator.rulesets.agot.grammar import parse_mail
from adjudicator.rulesets.agot.lines import in_language
from i18nhelp import untranslated

POSITION = {"players": ["stark", "lannister", "baratheon"], "round": 3, "step": "hostages",
            "hostages": [{"card": "Eddard Stark", "holder": "lannister", "since": 2},
                         {"card": "Tywin Lannister", "holder": "stark", "since": 2}]}


@pytest.mark.parametrize("english, czech, russian", [
    ("RANSOM Eddard Stark 4", "VÝKUPNÉ Eddard Stark 4", "ВЫКУП Eddard Stark 4"),
    ("RANSOM Tywin Lannister 1 + Eddard Stark", "VÝKUPNÉ Tywin Lannister 1 + Eddard Stark",
     "ВЫКУП Tywin Lannister 1 + Eddard Stark"),
    ("RANSOM NONE", "VÝKUPNÉ NIC", "ВЫКУП НЕТ"),
    ("ACCEPT Eddard Stark FROM Stark", "PŘIJMI Eddard Stark OD Stark", "ПРИНЯТЬ Eddard Stark ОТ Stark"),
    ("REFUSE Eddard Stark", "ODMÍTNI Eddard Stark", "ОТКАЗАТЬ Eddard Stark"),
    ("EXECUTE Eddard Stark", "POPRAVA Eddard Stark", "КАЗНЬ Eddard Stark"),
    ("EXECUTE Eddard Stark: FOR 3", "POPRAVA Eddard Stark: PRO 3", "КАЗНЬ Eddard Stark: ЗА 3"),
    ("EXECUTE Eddard Stark: AGAINST 2", "POPRAVA Eddard Stark: PROTI 2", "КАЗНЬ Eddard Stark: ПРОТИВ 2"),
    ("EXECUTE Eddard Stark: NONE", "POPRAVA Eddard Stark: NIC", "КАЗНЬ Eddard Stark: НЕТ"),
])
def test_every_form_reads_alike_in_three_languages_and_echoes_in_czech(english, czech, russian):
    ctx = ctx_of(get("agot2e-ru").case_state(POSITION))
    commands = [parse_mail(text, ctx.names).commands for text in (english, czech, russian)]
    assert commands[0] == commands[1] == commands[2] and len(commands[0]) == 1
    assert commands[0][0].canonical(ctx.names) == english
    assert in_language(english, "cs") == czech


def test_a_refused_hostage_line_comes_with_a_line_the_judge_accepts():
    ru = get("agot2e-ru")
    sub = ru.submit(ru.case_state(POSITION), "baratheon", "EXECUTE Eddard Stark")
    (line,) = sub.parsed.lines
    assert "you do not hold Eddard Stark (Lannister does)" in str(line.error)
    assert line.example == "RANSOM Eddard Stark 4"
    assert ru.submit(ru.case_state(POSITION), "baratheon", line.example).applied


def test_hostage_lines_are_refused_outside_the_westeros_and_hostage_phases():
    ru = get("agot2e-ru")
    sub = ru.submit(ru.case_state({**POSITION, "step": "planning"}), "baratheon", "RANSOM Eddard Stark 4")
    assert not sub.applied
    assert "hostage lines are sent in the Westeros phase or the hostage phase" in str(sub.parsed.lines[0].error)


def test_help_and_board_tell_the_hostages_in_english_and_czech(judge):
    judge.new_game("ru", "agot2e-ru", {h: {"address": f"{h}@example.org"} for h in ("stark", "lannister", "baratheon")},
                   seed=3, options={"preview": "yes"})
    present = judge.present("ru")
    present.state["hostages"]["held"].append({"card": "eddard-stark", "house": "stark", "holder": "lannister",
                                              "since": 1})
    present.state["hands"]["stark"].remove("eddard-stark")
    english = reports.render_help(present, "stark")
    assert "RANSOM <hostage> <gold> [+ <your hostage>] | RANSOM NONE" in english and "EXECUTE <hostage>: FOR <n>" in english
    czech = reports.render_help(present, "stark", "cs")
    assert "VÝKUPNÉ <rukojmí> <zlato>" in czech and "POPRAVA <rukojmí>: PRO <n> | PROTI <n> | NIC" in czech
    variant = czech[czech.index("Ruská fanouškovská varianta"):]  # the judge's frame names English commands too
    assert untranslated(variant, "cs", ("agot", "agot2e")) == []
    board = reports.render_view(present, "baratheon", present.ruleset.view(present.state, "baratheon"))
    assert "Hostages: Eddard Stark (Stark) held by Lannister, 0 of 3 rounds." in board
    deska = reports.render_view(present, "baratheon", present.ruleset.view(present.state, "baratheon"), "cs")
    assert "Rukojmí: Eddard Stark (rod Stark) drží rod Lannister, 0 z 3 kol." in deska
    assert untranslated(deska, "cs", ("agot", "agot2e")) == []


def test_cards_returning_to_an_emptied_hand_are_counted_when_some_are_hostages():
    """A hand emptied with two of its cards held hostage takes back the other five, and the report says
    five, not "all seven" (agot1e's and agot2e's wording stays for a whole hand)."""
    from adjudicator.rulesets.agot import aftermath
    from adjudicator.rulesets.agot.context import ctx_of
    from adjudicator.rulesets.agot2e_ru.ruleset import AGOT2E_RU

    state = AGOT2E_RU.case_state({"players": ["stark", "lannister", "baratheon"], "hostages": [
        {"card": "Eddard Stark", "holder": "lannister", "since": 1},
        {"card": "Robb Stark", "holder": "baratheon", "since": 1}]})
    state["discards"]["stark"] = list(state["hands"]["stark"])
    state["hands"]["stark"] = []
    [event] = aftermath.refill_empty_hand(state, ctx_of(state), "stark")
    assert len(state["hands"]["stark"]) == 5 and state["discards"]["stark"] == []
    assert event.text == "Stark has played its last house card: the 5 not held hostage return to its hand."
