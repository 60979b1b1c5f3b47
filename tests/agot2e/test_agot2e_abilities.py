"""The 2nd edition's house-card choices by mail (``ABILITY <card>: <choice> | NONE``, agot2e RULES.md R8.5,
11.1-11.2): the questions the judge asks alone when no usable line is on file (Patchface after the
battle, with the opponent's hand; Robb Stark's retreat, with the loser's; Tyrion Lannister's opponent's
other card), their answers by mail (English and Czech), the refusals with what was wrong, and the
deadline defaults (optional: not used; mandatory: B26)."""

from __future__ import annotations

from adjudicator import messages
from adjudicator.rulesets.agot2e.ruleset import AGOT2E
from i18nhelp import untranslated

HOUSES = ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"]


def battle(areas: dict, orders: dict, **position) -> dict:
    return AGOT2E.case_state({"players": HOUSES, "step": "action", "areas": areas, "orders": orders, **position})


def mail(state: dict, house: str, text: str):
    sub = AGOT2E.submit(state, house, text)
    return sub, [str(ln.error) for ln in sub.parsed.lines if not ln.ok]


def run(state: dict, until) -> list[str]:
    """Adjudicate, the deadline passing for whatever is missing, until ``until(state)`` holds."""
    texts = []
    for _ in range(50):
        if until(state):
            return texts
        complete = all(o.done for o in AGOT2E.pending(state))
        state, events = AGOT2E.advance(state, force=not complete)
        texts += [e.text for e in events if e.to is None]
    raise AssertionError(f"never reached: {texts}")


def stage(name: str):
    return lambda state: (state.get("battle") or {}).get("stage") == name


def fought():
    """Until the battle has begun and is over."""
    seen = []

    def done(state: dict) -> bool:
        seen.append(state["battle"] is not None)
        return any(seen) and state["battle"] is None
    return done


def owed(state: dict) -> dict:
    return {o.player: o for o in AGOT2E.pending(state)}


PATCHFACE = ({"Crackclaw Point": {"baratheon": ["knight", "knight"]}, "Harrenhal": {"stark": ["footman"]}},
             {"Crackclaw Point": "march 0"})


def test_patchface_is_asked_alone_after_the_battle_with_the_opponents_hand_and_refuses_a_card_not_in_it():
    state = battle(*PATCHFACE, discards={"stark": ["Eddard Stark"]})
    assert mail(state, "baratheon", "MARCH Crackclaw Point -> Harrenhal: ALL\nCARD Patchface")[0].applied
    assert mail(state, "stark", "CARD Greatjon Umber\nRETREAT Riverrun")[0].applied
    texts = run(state, stage("after"))
    assert "Baratheon wins the battle at Harrenhal." in texts
    question = owed(state)
    assert list(question) == ["baratheon"] and not question["baratheon"].done
    asked = messages.render(question["baratheon"].what, "en")
    assert asked.startswith("Patchface (battle at Harrenhal): ABILITY Patchface: which card of the opponent's hand")
    assert "possible: Catelyn Stark, Robb Stark, Roose Bolton, Ser Rod" in asked and asked.endswith("The Blackfish")
    czech = messages.render(question["baratheon"].what, "cs")
    assert "SCHOPNOST Patchface" in czech and untranslated(czech, "cs", ("agot", "agot2e")) == []
    sub, errors = mail(state, "baratheon", "ABILITY Patchface: Eddard Stark")  # discarded before the battle
    assert not sub.applied and errors == ["Eddard Stark is not in Stark's hand"]
    assert mail(state, "baratheon", "SCHOPNOST Patchface: Robb")[0].applied  # Czech command word, a prefix
    assert owed(state)["baratheon"].done
    texts = run(state, fought())
    assert "Patchface: Baratheon looks at Stark's hand and discards Robb Stark from it." in texts
    assert state["discards"]["stark"] == ["eddard-stark", "greatjon-umber", "robb-stark"]


def test_patchface_unanswered_at_the_deadline_is_not_used():
    state = battle(*PATCHFACE)
    assert mail(state, "baratheon", "MARCH Crackclaw Point -> Harrenhal: ALL\nCARD Patchface")[0].applied
    texts = run(state, fought())
    assert "Baratheon sent no choice for Patchface; default: the ability is not used." in texts
    assert len(state["hands"]["stark"]) == 6


ROBB = ({"Riverrun": {"stark": ["knight", "knight", "footman"]}, "Stoney Sept": {"lannister": ["footman", "footman"]}},
        {"Riverrun": "march 0"})


def test_robb_stark_is_asked_the_losers_retreat_together_with_the_loser_and_his_answer_decides():
    state = battle(*ROBB)
    assert mail(state, "stark", "MARCH Riverrun -> Stoney Sept: ALL\nCARD Robb Stark")[0].applied
    assert mail(state, "lannister", "CARD The Hound")[0].applied
    run(state, stage("retreat"))
    question = owed(state)
    assert sorted(question) == ["lannister", "stark"]
    robb = messages.render(question["stark"].what, "en")
    assert "ABILITY Robb Stark: where the loser retreats" in robb
    assert "possible: Blackwater, Harrenhal, Lannisport, Searoad Marches" in robb
    sub, errors = mail(state, "stark", "ABILITY Robb Stark: Riverrun")
    assert not sub.applied and errors[0].startswith("Riverrun is not a legal retreat")
    assert mail(state, "lannister", "RETREAT Lannisport")[0].applied
    assert mail(state, "stark", "ABILITY Robb Stark: Harrenhal")[0].applied
    assert [o.player for o in AGOT2E.pending(state)] == ["stark"]  # the winner's choice makes the loser's moot
    texts = run(state, fought())
    assert "Robb Stark: Stark chooses where Lannister retreats: Harrenhal." in texts
    assert state["areas"]["harrenhal"] == {"lannister": ["footman", "footman"]}


def test_robb_stark_sent_ahead_with_none_leaves_the_retreat_to_the_loser():
    state = battle(*ROBB)
    assert mail(state, "stark", "MARCH Riverrun -> Stoney Sept: ALL\nCARD Robb Stark\nABILITY Robb Stark: NONE")[0].applied
    assert mail(state, "lannister", "CARD The Hound\nRETREAT Searoad Marches")[0].applied
    texts = run(state, fought())
    assert "Stark does not use the ability of Robb Stark." in texts
    assert state["areas"]["searoad-marches"] == {"lannister": ["footman", "footman"]}


TYRION = ({"Searoad Marches": {"tyrell": ["footman", "footman"]}, "Lannisport": {"lannister": ["footman"]}},
          {"Searoad Marches": "march 0"})


def test_tyrions_opponent_is_asked_alone_for_another_card_and_may_not_play_the_one_handed_back():
    state = battle(*TYRION)
    assert mail(state, "tyrell", "MARCH Searoad Marches -> Lannisport: 2 footmen\nCARD Mace Tyrell")[0].applied
    assert mail(state, "lannister", "CARD Tyrion Lannister\nABILITY Tyrion Lannister: IF Mace Tyrell")[0].applied
    texts = run(state, stage("repick"))
    assert "Tyrion Lannister: Lannister hands Mace Tyrell back to Tyrell, who must play another card." in texts
    question = owed(state)
    assert list(question) == ["tyrell"]
    asked = messages.render(question["tyrell"].what, "en")
    assert asked.startswith("another house card for the battle at Lannisport: Mace Tyrell was handed back")
    assert "Mace Tyrell," not in asked.split("(")[1]  # the card handed back is not among the choices
    assert untranslated(messages.render(question["tyrell"].what, "cs"), "cs", ("agot", "agot2e")) == []
    sub, errors = mail(state, "tyrell", "CARD Mace Tyrell")
    assert not sub.applied and errors == ["Mace Tyrell was handed back by Tyrion Lannister: play another card"]
    assert mail(state, "tyrell", "KARTA Randyll Tarly")[0].applied
    texts = run(state, fought())
    assert "Tyrell plays Randyll Tarly (strength 2, 1 sword)." in texts
    assert "mace-tyrell" in state["hands"]["tyrell"] and state["discards"]["tyrell"] == ["randyll-tarly"]


def test_tyrions_opponent_unanswered_plays_its_weakest_other_card_and_tyrion_unanswered_is_not_used():
    state = battle(*TYRION)
    assert mail(state, "tyrell", "MARCH Searoad Marches -> Lannisport: 2 footmen\nCARD Alester Florent")[0].applied
    assert mail(state, "lannister", "CARD Tyrion Lannister")[0].applied
    run(state, stage("cancel"))
    assert "ABILITY Tyrion Lannister: whether to hand the opponent's card back (USE, IF <card>" in \
        messages.render(owed(state)["lannister"].what, "en")
    assert mail(state, "lannister", "SCHOPNOST Tyrion Lannister: POUŽIJ")[0].applied  # Czech USE
    texts = run(state, fought())
    assert "Tyrell sent no house card; default: Queen of Thorns." in texts  # the weakest, not Alester again
    state = battle(*TYRION)
    assert mail(state, "tyrell", "MARCH Searoad Marches -> Lannisport: 2 footmen\nCARD Alester Florent")[0].applied
    assert mail(state, "lannister", "CARD Tyrion Lannister")[0].applied
    texts = run(state, fought())
    assert "Lannister sent no choice for Tyrion Lannister; default: the ability is not used." in texts


QUEEN = ({"Searoad Marches": {"tyrell": ["footman", "footman"]}, "Lannisport": {"lannister": ["footman"]},
          "Stoney Sept": {"lannister": ["knight"]}, "The Golden Sound": {"lannister": ["ship"]}},
         {"Searoad Marches": "march 0", "Stoney Sept": "support", "The Golden Sound": "consolidate"})


def test_queen_of_thorns_is_asked_and_refuses_none_and_an_area_without_the_opponents_order():
    state = battle(*QUEEN)
    assert mail(state, "tyrell", "MARCH Searoad Marches -> Lannisport: 2 footmen\nCARD Queen of Thorns")[0].applied
    assert mail(state, "lannister", "SUPPORT Stoney Sept -> Lannister\nCARD The Hound")[0].applied
    run(state, stage("immediately"))
    asked = messages.render(owed(state)["tyrell"].what, "en")
    assert "possible: Stoney Sept, The Golden Sound" in asked
    assert mail(state, "tyrell", "ABILITY Queen of Thorns: none")[1] == \
        ["the ability of Queen of Thorns is not optional: NONE cannot decline it"]
    assert mail(state, "tyrell", "ABILITY Queen of Thorns: Riverrun")[1] == \
        ["Lannister has no order in Riverrun next to Lannisport"]
    texts = run(state, fought())  # the deadline: B26
    assert "Tyrell sent no choice for Queen of Thorns; default: the opponent's support of this battle that adds" \
           " most, else its first order by kind and area name." in texts
    assert "Queen of Thorns: Tyrell removes Lannister's support order in Stoney Sept." in texts


def test_doran_martell_answered_in_czech_and_a_bad_track_refused_when_sent_ahead():
    state = battle({"Yronwood": {"martell": ["footman", "footman"]}, "The Boneway": {"tyrell": ["footman"]}},
                   {"Yronwood": "march 0"})
    sub, errors = mail(state, "martell", "ABILITY Doran Martell: sideways")
    assert not sub.applied and errors == ["Doran Martell's choice is an influence track: unknown track \"sideways\""
                                          " (tracks: THRONE, FIEFDOMS, COURT)"]
    assert mail(state, "martell", "ABILITY Aeron Damphair: NONE")[1] == ["Aeron Damphair is not one of your house cards"]
    assert mail(state, "martell", "ABILITY Nymeria Sand: NONE")[1] == ["Nymeria Sand has no ability with a choice"]
    assert mail(state, "martell", "POCHOD Yronwood -> The Boneway: 2 pěšáci\nKARTA Doran Martell\n"
                                  "SCHOPNOST Doran Martell: Královský dvůr")[0].applied
    assert mail(state, "tyrell", "CARD Alester Florent")[0].applied
    texts = run(state, fought())
    assert "Doran Martell: Tyrell drops to the last place on the King's Court track." in texts
    assert state["tracks"]["kings_court"][-1] == "tyrell"


def test_ser_loras_march_order_is_resolved_again_when_its_house_mails_the_march():
    state = battle({"The Reach": {"tyrell": ["knight", "footman", "footman"]}, "Blackwater": {"lannister": ["footman"]}},
                   {"The Reach": "march 0"})
    assert mail(state, "tyrell", "MARCH The Reach -> Blackwater: ALL\nCARD Ser Loras Tyrell")[0].applied
    assert mail(state, "lannister", "CARD The Hound\nRETREAT Stoney Sept")[0].applied
    texts = run(state, fought())
    assert "Ser Loras Tyrell: Tyrell's march 0 order moves into Blackwater and may be resolved again this round." in texts
    assert state["orders"]["blackwater"] == "march 0"
    assert mail(state, "tyrell", "MARCH Blackwater -> Crackclaw Point: 1 knight")[0].applied
    texts = run(state, lambda s: "blackwater" not in s["orders"])
    assert "crackclaw-point" in state["areas"] and state["areas"]["crackclaw-point"] == {"tyrell": ["knight"]}


def test_the_cards_asked_for_a_choice_are_the_datas_cards_with_a_choice_and_the_mandatory_ones_its_non_optional():
    from adjudicator.rulesets.agot2e import cards
    from adjudicator.rulesets.agot2e.edition import load_gamedata

    with_choice = [c for hand in load_gamedata().house_cards.values() for c in hand if c.choice]
    assert set(cards.CHOICE_STAGE) == {c.id for c in with_choice}
    assert cards.MANDATORY == {c.id for c in with_choice if not c.optional}


def test_a_refused_choice_comes_with_a_valid_example_from_the_question():
    state = battle(*PATCHFACE)
    assert mail(state, "baratheon", "MARCH Crackclaw Point -> Harrenhal: ALL\nCARD Patchface")[0].applied
    assert mail(state, "stark", "CARD Greatjon Umber\nRETREAT Riverrun")[0].applied
    run(state, stage("after"))
    sub = AGOT2E.submit(state, "baratheon", "ABILITY Patchface: Greatjon Umber")  # played, not in hand
    assert not sub.applied and sub.parsed.lines[0].example == "ABILITY Patchface: Catelyn Stark"


def test_help_lists_the_second_edition_choices_in_english_and_czech(tmp_path):
    from adjudicator.judge import Judge
    from adjudicator.reports import render_help
    from adjudicator.store import Store
    from conftest import FakeClock

    judge = Judge(Store(tmp_path / "data", fsync=False), now=FakeClock())
    judge.new_game("g", "agot2e", {h: {"address": f"{h}@example.org"} for h in HOUSES}, seed=1,
                   options={"preview": "yes"})
    english = render_help(judge.present("g"), "stark", "en")
    assert "ABILITY Tyrion Lannister: USE | IF <card>[, <card>...]" in english
    assert "ABILITY Doran Martell: THRONE | FIEFDOMS | COURT" in english
    assert "ABILITY Patchface: <card>" in english
    czech = render_help(judge.present("g"), "stark", "cs")
    part = czech[czech.index("2. vydání: volby karet rodu"):]
    assert "SCHOPNOST Tyrion Lannister: POUŽIJ | POKUD <karta>[, <karta>...]" in part
    assert untranslated(part, "cs", ("agot", "agot2e")) == []


def test_after_combat_abilities_resolve_once_when_patchfaces_question_comes_after_loras():
    state = battle({"The Reach": {"tyrell": ["knight", "footman", "footman"]}, "Kingswood": {"baratheon": ["footman"]}},
                   {"The Reach": "march 0"},
                   tracks={"iron_throne": ["tyrell", "lannister", "stark", "martell", "greyjoy", "baratheon"]})
    assert mail(state, "tyrell", "MARCH The Reach -> Kingswood: ALL\nCARD Ser Loras Tyrell")[0].applied
    assert mail(state, "baratheon", "CARD Patchface\nRETREAT Storm's End")[0].applied
    texts = run(state, stage("after"))
    assert mail(state, "baratheon", "ABILITY Patchface: Mace Tyrell")[0].applied
    texts += run(state, fought())
    assert sum("Ser Loras Tyrell: Tyrell's march 0 order moves" in t for t in texts) == 1
    assert "Patchface: Baratheon looks at Tyrell's hand and discards Mace Tyrell from it." in texts
