"""The 2nd edition's action-phase choices by mail (RULES.md 11.1-11.2): PORT (a taken port's ships),
CONSOLIDATE (the starred Consolidate Power), ``upgrade -> siege engine``, BLADE REDRAW/KEEP (Tides of
Battle) and the winner's CASUALTIES for a skull. Each: the question asked of the right house alone,
answered by a mail (English or Czech words), or left to its deadline default; what a Czech player reads
of it has no key and no English catalogue word; agot1e does not know the new forms."""

from __future__ import annotations

import pytest

from adjudicator.messages import render
from adjudicator.rulesets.agot.grammar import GameDataNames, parse_mail
from adjudicator.rulesets.agot1e.edition import load_gamedata as first_edition_data
from adjudicator.rulesets.agot1e.ruleset import AGOT1E
from adjudicator.rulesets.agot2e.ruleset import AGOT2E
from i18nhelp import untranslated

HOUSES = ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"]
FIEFDOMS = {"fiefdoms": ["lannister", "greyjoy", "tyrell", "martell", "stark", "baratheon"]}


def czech_leaks(*messages) -> list[str]:
    return [leak for m in messages for leak in untranslated(render(m, "cs"), "cs", ("agot",))]


def run_until_asked(state: dict) -> list:
    """Adjudicate what needs nobody (or is in) until someone owes a decision still missing."""
    events = []
    for _ in range(50):
        owed = AGOT2E.pending(state)
        if owed and not all(o.done for o in owed):
            return events
        events += AGOT2E.advance(state, force=False)[1]
    raise AssertionError("nobody was asked")


def mail(state: dict, house: str, text: str):
    sub = AGOT2E.submit(state, house, text)
    return sub


def errors(sub) -> list[str]:
    return [str(line.error) for line in sub.parsed.lines if not line.ok]


# -- PORT --------------------------------------------------------------------------------------------------


def taken_port(**more) -> dict:
    """Tyrell's march into Lannisport, empty but for Lannister's three ships in its port."""
    return AGOT2E.case_state({"players": HOUSES, "step": "action", "garrisons": {},
                              "areas": {"Port of Lannisport": {"lannister": ["ship", "ship", "ship"]},
                                        "Searoad Marches": {"tyrell": ["knight", "footman"]}},
                              "orders": {"Searoad Marches": "march 0"}, **more})


def test_the_taker_of_a_port_is_asked_alone_and_its_port_line_decides():
    state = taken_port()
    assert mail(state, "tyrell", "MARCH Searoad Marches -> Lannisport: ALL").applied
    events = run_until_asked(state)
    assert any("Tyrell takes Port of Lannisport with Lannisport" in e.text for e in events)
    owed = AGOT2E.pending(state)
    assert [(o.player, o.done) for o in owed] == [("tyrell", False)]
    assert "at most 3 (PORT Port of Lannisport: TAKE <n> | TAKE ALL | TAKE NONE)" in str(owed[0].what)
    assert czech_leaks(owed[0].what, *events) == []
    # the castle's name names its port; three may be replaced: Tyrell has six ships unused
    assert mail(state, "tyrell", "PORT Lannisport: TAKE 3").applied
    assert [o.done for o in AGOT2E.pending(state)] == [True]
    assert "PORT Port of Lannisport: TAKE 3" in AGOT2E.on_file(state, "tyrell")
    texts = [e.text for e in AGOT2E.advance(state, force=False)[1]]
    assert "Tyrell takes Port of Lannisport: Lannister's 3 ships there are destroyed, 3 replaced by Tyrell's own." \
        in texts
    assert "PORT Port of Lannisport: TAKE 3" not in AGOT2E.on_file(state, "tyrell")  # used: it leaves the file


def test_an_answer_above_what_the_taker_may_replace_is_refused_with_a_valid_example():
    state = taken_port(supply={"tyrell": 0},  # supply 0: two armies of two, Lannisport's and Highgarden's
                       areas={"Port of Lannisport": {"lannister": ["ship", "ship", "ship"]},
                              "Searoad Marches": {"tyrell": ["knight", "footman"]},
                              "Highgarden": {"tyrell": ["footman", "footman"]}})
    assert mail(state, "tyrell", "MARCH Searoad Marches -> Lannisport: ALL").applied
    run_until_asked(state)
    assert "at most 1" in str(AGOT2E.pending(state)[0].what)
    sub = mail(state, "tyrell", "PŘÍSTAV Port of Lannisport: VEZMI 2")
    assert not sub.applied
    assert "you may replace at most 1 ship there (your unused ships, within your supply), not 2" in errors(sub)
    assert "PORT Port of Lannisport: TAKE 1" in str(sub.parsed.lines[0].example)
    assert czech_leaks(sub.parsed.lines[0].error) == []
    assert mail(state, "tyrell", "PŘÍSTAV Port of Lannisport: VEZMI NIC").applied
    texts = [e.text for e in AGOT2E.advance(state, force=False)[1]]
    assert "Tyrell takes Port of Lannisport: Lannister's 3 ships there are destroyed." in texts
    assert AGOT2E.case_compare(state, "areas", {"Port of Lannisport": {}}) == []


def test_at_the_deadline_the_taker_replaces_as_many_ships_as_allowed():
    state = taken_port()
    assert mail(state, "tyrell", "MARCH Searoad Marches -> Lannisport: ALL").applied
    run_until_asked(state)
    texts = [e.text for e in AGOT2E.advance(state, force=True)[1]]
    assert texts[:2] == ["Tyrell sent no PORT; default: as many ships replaced as allowed.",
                         "Tyrell takes Port of Lannisport: Lannister's 3 ships there are destroyed, 3 replaced by "
                         "Tyrell's own."]
    assert "port_takeover" not in state


# -- CONSOLIDATE ------------------------------------------------------------------------------------------------


def starred_consolidate(**more) -> dict:
    return AGOT2E.case_state({"players": HOUSES, "step": "action", "power": {"lannister": 0, "tyrell": 0},
                              "areas": {"Lannisport": {"lannister": ["footman"]}, "Highgarden": {"tyrell": ["footman"]}},
                              "orders": {"Lannisport": "consolidate*", "Highgarden": "consolidate*"}, **more})


def test_starred_consolidate_power_asks_each_owner_alone_in_turn_order():
    state = starred_consolidate()
    run_until_asked(state)
    first, = AGOT2E.pending(state)
    order = [h for h in state["tracks"]["iron_throne"] if h in ("lannister", "tyrell")]
    assert first.player == order[0] and not first.done
    area = "Lannisport" if first.player == "lannister" else "Highgarden"
    assert f"(CONSOLIDATE {area}: POWER | MUSTER <units>)" in str(first.what)
    assert czech_leaks(first.what) == []
    other = order[1]
    assert mail(state, other, f"CONSOLIDATE {'Highgarden' if other == 'tyrell' else 'Lannisport'}: MUSTER footman").applied
    assert [o.player for o in AGOT2E.pending(state)] == [first.player]  # the later house waits its turn
    assert mail(state, first.player, f"KONSOLIDACE {area}: SHROMÁŽDĚNÍ povýšení na obléhací stroj").applied
    events = AGOT2E.advance(state, force=False)[1]
    texts = [e.text for e in events]
    assert f"{first.player.title()} musters with its starred Consolidate Power: {area}: upgrades 1 footman to siege " \
           f"engine." in texts
    assert any(t.startswith(f"{other.title()} musters with its starred Consolidate Power") for t in texts)
    assert czech_leaks(*events) == []
    assert state["round"] == 2 and state["power"]["lannister"] == state["power"]["tyrell"] == 0


def test_a_starred_consolidate_muster_that_is_not_legal_now_is_refused_when_asked():
    state = starred_consolidate(areas={"Lannisport": {"lannister": ["knight"]}}, orders={"Lannisport": "consolidate*"})
    run_until_asked(state)
    sub = mail(state, "lannister", "CONSOLIDATE Lannisport: MUSTER upgrade -> siege engine")
    assert not sub.applied and "there is no footman in Lannisport to upgrade" in errors(sub)
    assert str(sub.parsed.lines[0].example).startswith("CONSOLIDATE Lannisport: MUSTER ")
    texts = [e.text for e in AGOT2E.advance(state, force=True)[1]]
    assert "Lannister sent no CONSOLIDATE for Lannisport; default: the Power." in texts
    assert "Lannister consolidates power in Lannisport: +1." in texts


def test_consolidate_refused_without_a_starred_order_there():
    state = starred_consolidate(orders={"Lannisport": "consolidate", "Highgarden": "consolidate*"})
    sub = mail(state, "lannister", "CONSOLIDATE Lannisport: POWER")
    assert not sub.applied and "you have no starred Consolidate Power order in Lannisport" in errors(sub)


# -- upgrade -> siege engine -----------------------------------------------------------------------------------


def test_upgrade_to_a_siege_engine_by_mail_in_czech():
    state = AGOT2E.case_state({"players": HOUSES, "round": 4, "step": "westeros",
                               "westeros_cards": {"I": "Mustering", "II": "Last Days of Summer", "III": "Sea of Storms"},
                               "areas": {"Lannisport": {"lannister": ["footman", "footman"]}}})
    sub = mail(state, "lannister", "SHROMÁŽDĚNÍ Lannisport: povýšení pěšáka na obléhací stroj")
    assert sub.applied and sub.parsed.lines[0].canonical == "MUSTER Lannisport: upgrade -> siege engine"
    events = []
    while state["phase"] == "westeros":
        events += AGOT2E.advance(state, force=True)[1]
    done = next(e for e in events if e.text.startswith("Lannister musters"))
    assert done.text == "Lannister musters: Lannisport: upgrades 1 footman to siege engine."
    assert czech_leaks(done) == [] and "povýšení na obléhací stroj: 1 pěšák" in render(done, "cs")
    assert AGOT2E.case_compare(state, "areas", {"Lannisport": {"lannister": ["footman", "siege_engine"]}}) == []


# -- BLADE REDRAW / KEEP ----------------------------------------------------------------------------------------


def blade_battle(tides: list[str], **more) -> dict:
    """Lannister, the Blade's holder, marches on Tyrell at Riverrun with Tides of Battle on."""
    state = AGOT2E.case_state({"players": HOUSES, "step": "action", "tides_of_battle": True, "tides_next": tides,
                               "tracks": FIEFDOMS,
                               "areas": {"Stoney Sept": {"lannister": ["footman", "knight", "knight"]},
                                         "Riverrun": {"tyrell": ["footman"]}},
                               "orders": {"Stoney Sept": "march 0"}, **more})
    assert mail(state, "lannister", "MARCH Stoney Sept -> Riverrun: ALL\nCARD The Hound").applied
    assert mail(state, "tyrell", "CARD Margaery Tyrell\nRETREAT Seagard").applied
    return state


def test_the_blade_holder_is_asked_alone_its_card_told_to_it_alone():
    state = blade_battle(["skull", "blank", "plus-three"])
    events = run_until_asked(state)
    told = [e for e in events if e.key == "agot.tides.your_card"]
    assert [e.to for e in told] == [("lannister",)]
    assert "You draw a skull (Tides of Battle) at Riverrun" in told[0].text
    assert czech_leaks(*told) == []
    owed, = AGOT2E.pending(state)
    assert owed.player == "lannister" and "(BLADE REDRAW | BLADE KEEP)" in str(owed.what)
    assert czech_leaks(owed.what) == []
    assert "skull" not in str(owed.what)  # what is owed is public; the card is not
    for house in ("tyrell", "stark"):
        view = AGOT2E.view(state, house)
        assert "tides_secret" not in view and not view["battle"].get("tides")
    sub = mail(state, "tyrell", "CARD Margaery Tyrell IN Riverrun")
    assert not sub.applied  # the cards are down
    assert mail(state, "lannister", "MEČ VYMĚŇ POKUD lebka").applied
    texts = [e.text for e in AGOT2E.advance(state, force=False)[1]]
    assert texts[:2] == ["Lannister uses the Valyrian Steel Blade to discard its Tides of Battle card and draw "
                         "another.", "Tides of Battle: Lannister draws +3; Tyrell draws 0."]
    assert "tides_secret" not in state and state["blade_used"]


def test_the_blade_holder_keeps_its_card_at_the_deadline():
    state = blade_battle(["plus-two", "blank", "plus-three"])
    run_until_asked(state)
    texts = [e.text for e in AGOT2E.advance(state, force=True)[1]]
    assert texts[:2] == ["Lannister sent no BLADE REDRAW or KEEP; default: it keeps its Tides of Battle card.",
                         "Tides of Battle: Lannister draws +2; Tyrell draws 0."]


def test_a_redraw_line_for_another_battle_leaves_the_question_open():
    state = blade_battle(["plus-two", "blank", "plus-three"])
    assert mail(state, "lannister", "BLADE REDRAW AT Seagard").applied
    run_until_asked(state)
    assert [o.done for o in AGOT2E.pending(state)] == [False]
    assert mail(state, "lannister", "BLADE KEEP").applied
    assert AGOT2E.on_file(state, "lannister")[-2:] == ["BLADE REDRAW AT Seagard", "BLADE KEEP"]
    assert [o.done for o in AGOT2E.pending(state)] == [True]


# -- the units a skull costs the winner ------------------------------------------------------------------------


def test_the_winner_is_asked_which_units_the_losers_skull_costs_it():
    state = blade_battle(["blank", "skull"], tracks={})  # Lannister is not the Blade's holder
    events = run_until_asked(state)
    assert "The skull on Tyrell's Tides of Battle card costs Lannister 1 more unit." in [e.text for e in events]
    owed, = AGOT2E.pending(state)
    assert owed.player == "lannister"
    assert str(owed.what) == ("units the skull costs you: 1 of 1 footman, 2 knights in the battle at Riverrun "
                              "(CASUALTIES <units>)")
    assert czech_leaks(owed.what) == []
    sub = mail(state, "lannister", "CASUALTIES 2 knights")
    assert not sub.applied and "you lose exactly 1 unit (of 1 footman, 2 knights)" in errors(sub)
    assert mail(state, "lannister", "ZTRÁTY 1 rytíř").applied
    texts = [e.text for e in AGOT2E.advance(state, force=False)[1]]
    assert "Lannister loses 1 knight in Riverrun to the skull." in texts
    while state["battle"]:
        AGOT2E.advance(state, force=True)
    assert AGOT2E.case_compare(state, "areas", {"Riverrun": {"lannister": ["footman", "knight"]}}) == []


# -- the first edition knows none of it --------------------------------------------------------------------------


@pytest.mark.parametrize("line", ["PORT Pyke: TAKE 1", "CONSOLIDATE Lannisport: POWER", "BLADE REDRAW", "BLADE KEEP",
                                  "MUSTER Lannisport: upgrade -> siege engine"])
def test_agot1e_refuses_the_second_edition_forms_as_before(line):
    names = GameDataNames(first_edition_data())
    error = parse_mail(line, names).lines[0].error
    assert error is not None
    assert error.key in ("agot.error.unknown_command_list", "agot.error.blade_mode", "agot.error.upgrade_form")
    state = AGOT1E.new_game(["stark", "lannister", "baratheon"], {}, 1)
    assert not AGOT1E.submit(state, "stark", line).applied


# -- HELP and the lines on file in Czech -------------------------------------------------------------------------


def test_help_lists_the_action_phase_commands_in_english_and_czech():
    from adjudicator import reports
    english = reports.environment("en").get_template("agot2e/help.txt.j2").render()
    czech = reports.environment("cs").get_template("agot2e/help.txt.j2").render()
    for words in ("PORT <port>: TAKE <n>", "CONSOLIDATE <area>: POWER | MUSTER <units>", "upgrade -> siege engine",
                  "BLADE REDRAW [IF <card>", "BLADE KEEP", "RAID <from>"):
        assert words in english
    for words in ("PŘÍSTAV <přístav>: VEZMI <počet>", "KONSOLIDACE <oblast>: MOC | SHROMÁŽDĚNÍ <jednotky>",
                  "povýšení na obléhací stroj", "MEČ VYMĚŇ [POKUD <karta>", "MEČ PONECH", "NÁJEZD <odkud>"):
        assert words in czech
    assert untranslated(czech, "cs", ("agot",)) == []


def test_the_new_lines_on_file_read_back_in_czech():
    state = blade_battle(["plus-two", "blank", "plus-three"])
    sub = mail(state, "lannister", "MUSTER Lannisport: upgrade -> siege engine")
    assert not sub.applied and "no Mustering now" in errors(sub)[0]
    assert mail(state, "lannister", "BLADE REDRAW IF skull, +1 fortification AT Riverrun\nPORT Pyke: TAKE 2\n"
                                    "CLEAR BLADE\nBLADE KEEP").applied
    assert AGOT2E.on_file(state, "lannister")[-2:] == ["PORT Port of Pyke: TAKE 2", "BLADE KEEP"]  # CLEAR BLADE
    assert mail(state, "lannister", "BLADE REDRAW IF skull, +1 fortification AT Riverrun").applied
    names = GameDataNames(AGOT2E.rules.gamedata())
    filed = AGOT2E.on_file(state, "lannister")
    lines = [AGOT2E.line(line, "cs") for line in filed]
    assert "MEČ VYMĚŇ POKUD +1 opevnění, lebka V Riverrun" in lines and "PŘÍSTAV Port of Pyke: VEZMI 2" in lines
    for english, czech in zip(filed, lines):
        assert parse_mail(czech, names).lines[0].canonical == english
    assert untranslated("\n".join(lines), "cs", ("agot",)) == []
    assert mail(state, "lannister", "CLEAR").applied and AGOT2E.on_file(state, "lannister") == []
