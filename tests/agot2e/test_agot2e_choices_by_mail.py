"""The 2nd edition's Westeros and wildling choices by mail, through the judge and the mail layer
(adjudicator/mail/process.py's Postmaster): CHOOSE, PROMOTE, DEMOTE, PENALTY with REMOVE, RAVEN LOOK
and BOTTOM (agot2e RULES.md 11.2). Each game starts from a rules-case position; one house reads Czech,
so its mail may show no message key and no English catalogue word (tests/i18nhelp.py). The card a
Messenger Raven sees reaches its holder's mail and nobody else's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjudicator.rulesets.agot2e.ruleset import AGOT2E
from i18nhelp import untranslated
from positiontable import PositionTable
from test_agot2e_mail_game import _frame_words


HOUSES = ("stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell")
WILDLING_ATTACK = {"round": 4, "step": "westeros", "wildlings": 2,
                   "westeros_cards": {"I": "Last Days of Summer", "II": "Last Days of Summer", "III": "Wildlings Attack"}}


class Table(PositionTable):
    """A game of the six houses by mail, from ``position``; ``czech`` reads Czech."""

    def __init__(self, tmp_path: Path, monkeypatch, position: dict, czech: str):
        super().__init__(tmp_path, monkeypatch, AGOT2E, HOUSES, position, czech)

    def czech_clean(self, text: str) -> list[str]:
        """The Czech reader's text: keys and English catalogue words, outside quoted mail lines and the
        judge's own frame (which names the English mail commands too)."""
        frame = _frame_words()
        return [w for w in untranslated(re.sub(r"„[^“]*“", "", text), "cs", ("agot", "agot2e")) if w.lower() not in frame]


@pytest.fixture
def table(tmp_path, monkeypatch):
    return lambda position, czech: Table(tmp_path, monkeypatch, position, czech)


def test_choose_by_mail_the_holder_is_asked_in_czech_and_its_choice_resolves(table):
    t = table({"round": 4, "step": "westeros", "supply": {"stark": 0},
               "westeros_cards": {"I": "A Throne of Blades", "II": "Last Days of Summer", "III": "Sea of Storms"},
               "areas": {"Winterfell": {"stark": ["footman"]}, "Dragonstone": {"baratheon": ["footman"]}}}, "baratheon")
    assert [(o.player, o.done) for o in AGOT2E.pending(t.state)] == [("baratheon", False)]
    t.mail("baratheon", "STAV")
    asked = t.new_mail()["baratheon"]
    assert "Zásobování, Shromažďování, nic (ZVOL Trůn z čepelí: zásobování nebo ZVOL Trůn z čepelí: shromažďování" \
        " nebo ZVOL Trůn z čepelí: nic)" in asked
    t.mail("stark", "CHOOSE Put to the Sword: no defense")  # not revealed this round: a note, nothing kept
    assert "Your CHOOSE line for Put to the Sword is ignored: the card is not revealed this round." \
        in t.new_mail()["stark"]
    t.mail("baratheon", "ZVOL Trůn z čepelí: zásobování")
    assert t.state["phase"] == "planning" and t.state["supply"]["stark"] == 1
    mail = t.new_mail()
    assert "A Throne of Blades: Baratheon chooses Supply." in mail["stark"]
    assert "Trůn z čepelí: rod Baratheon volí: Zásobování." in mail["baratheon"]
    assert t.czech_clean(asked + mail["baratheon"]) == []


def test_choose_by_mail_at_the_deadline_the_holder_takes_the_default_nothing(table):
    t = table({"round": 4, "step": "westeros",
               "westeros_cards": {"I": "Last Days of Summer", "II": "Dark Wings, Dark Words", "III": "Sea of Storms"}},
              "greyjoy")
    assert [o.player for o in AGOT2E.pending(t.state)] == ["lannister"]
    t.deadline()
    assert "Dark Wings, Dark Words: Lannister holds the token that chooses and sent no choice; default: nothing" \
        in t.new_mail()["stark"]


def test_crow_killers_by_mail_promote_when_asked(table):
    won = table({**WILDLING_ATTACK, "wildling_deck": ["Crow Killers"],
                 "areas": {"Winterfell": {"stark": ["footman", "footman", "knight"]},
                           "White Harbor": {"stark": ["footman"]}}}, "stark")
    won.mail("stark", "SÁZKA 5")
    for n, house in enumerate(HOUSES[1:]):  # no tie for the lowest bidder
        won.mail(house, f"BID {n}")
    assert won.state["step"] == "outcome" and [o.player for o in AGOT2E.pending(won.state)] == ["stark"]
    asked = won.new_mail()["stark"]
    assert "POVYŠ <oblast>[: <počet>], ... nebo POVYŠ NIC; pěšáci v oblastech White Harbor, Winterfell" in asked
    won.mail("stark", "POVYŠ White Harbor: 1")
    assert won.state["areas"]["white-harbor"]["stark"] == ["knight"]
    assert "Rod Stark mění pěšáky v rytíře: 1." in won.new_mail()["stark"]
    assert won.czech_clean(asked) == []


def test_crow_killers_lost_by_mail_a_czech_demote_names_the_knights(tmp_path, monkeypatch):
    t = Table(tmp_path, monkeypatch, {**WILDLING_ATTACK, "wildling_deck": ["Crow Killers"],
                                      "power": {h: 1 for h in HOUSES},
                                      "areas": {"Lannisport": {"lannister": ["knight", "knight"]},
                                                "Stoney Sept": {"lannister": ["knight"]}}}, "lannister")
    t.mail("stark", "BID 0")
    for house in HOUSES[1:]:
        t.mail(house, "BID 1")
    assert [o.player for o in AGOT2E.pending(t.state)] == ["lannister"]
    t.mail("lannister", "DEGRADUJ Stoney Sept, Lannisport")
    assert t.state["areas"]["stoney-sept"]["lannister"] == ["footman"]
    assert sorted(t.state["areas"]["lannisport"]["lannister"]) == ["footman", "knight"]
    assert t.czech_clean(t.new_mail()["lannister"]) == []


def test_preemptive_raid_by_mail_penalty_units_with_remove_lines_when_asked(table):
    t = table({**WILDLING_ATTACK, "wildling_deck": ["Preemptive Raid"], "power": {h: 1 for h in HOUSES},
               "areas": {"Winterfell": {"stark": ["footman", "footman", "knight"]}, "Bay of Ice": {"stark": ["ship"]}}},
              "stark")
    t.mail("stark", "BID 0")
    for house in HOUSES[1:]:
        t.mail(house, "BID 1")
    assert [o.player for o in AGOT2E.pending(t.state)] == ["stark"]
    asked = t.new_mail()["stark"]
    assert "TREST JEDNOTKY" in asked and t.czech_clean(asked) == []
    t.mail("stark", "TREST JEDNOTKY\nODSTRAŇ Winterfell: rytíř")  # one unit of two: refused, nothing changes
    reply = t.new_mail()["stark"]
    assert "jmenujte přesně tolik jednotek k odstranění: 2 (tyto řádky jmenují 1)" in reply
    assert t.czech_clean(reply) == []
    t.mail("stark", "TREST JEDNOTKY\nODSTRAŇ Winterfell: rytíř\nODSTRAŇ Bay of Ice: loď")
    assert t.state["phase"] == "planning"
    assert t.state["areas"]["winterfell"]["stark"] == ["footman", "footman"] and "bay-of-ice" not in t.state["areas"]


def test_raven_look_by_mail_shows_the_card_to_its_holder_alone(table):
    t = table({"round": 4, "step": "planning", "wildling_deck": ["Crow Killers", "Silence at the Wall"],
               "areas": {"Lannisport": {"lannister": ["footman"]}, "Winterfell": {"stark": ["footman"]},
                         "Pyke": {"greyjoy": ["footman"]}}}, "lannister")
    t.mail("stark", "ORDERS\nWinterfell: defense +1")
    t.mail("greyjoy", "ORDERS\nPyke: defense +1")
    t.mail("lannister", "ROZKAZY\nLannisport: obrana +1\nHAVRAN NAHLÉDNI")
    assert t.state["step"] == "raven_card" and [o.player for o in AGOT2E.pending(t.state)] == ["lannister"]
    seen = t.new_mail()
    assert "Váš havran vidí vrchní kartu divokých: Zabijáci vran (ukazuje se jen vám)." in seen["lannister"]
    assert "HAVRAN NAHOŘE (nechat ji navrchu) nebo HAVRAN DOSPOD" in seen["lannister"]
    t.mail("lannister", "HAVRAN DOSPOD")
    assert t.state["step"] != "raven_card" and t.state["wildling_deck"][0] != "crow-killers"
    after = t.new_mail()
    assert "Lannister puts the wildling card at the bottom of the deck." in after["stark"]
    assert t.czech_clean(seen["lannister"] + after["lannister"]) == []
    for house in HOUSES:
        if house != "lannister":
            assert "Crow Killers" not in seen[house] + after[house], house
            assert "Your raven sees" not in seen[house] + after[house], house


def test_help_of_agot2e_lists_the_second_edition_commands_in_each_language(table):
    t = table({"round": 4, "step": "planning", "areas": {"Lannisport": {"lannister": ["footman"]}}}, "martell")
    t.mail("stark", "HELP")
    t.mail("martell", "NÁPOVĚDA")
    mail = t.new_mail()
    for line in ("CHOOSE <card>: <option>", "PROMOTE <area>[: <n>], ... | NONE", "DEMOTE <area>[: <n>], ...",
                 "PENALTY UNITS | TRACK", "RAVEN LOOK [+ RAVEN TOP | BOTTOM]", "TRACK THRONE | FIEFDOMS | COURT",
                 "DISCARD <house card>", "Put to the Sword: NO DEFENSE | NO MARCH+1 | NOTHING"):
        assert line in mail["stark"], line
    for line in ("ZVOL <karta>: <volba>", "POVYŠ <oblast>[: <počet>], ... | NIC", "DEGRADUJ <oblast>",
                 "TREST JEDNOTKY | STUPNICE", "HAVRAN NAHLÉDNI", "STUPNICE TRŮN | PODDANÍ | DVŮR", "ODHOĎ <karta rodu>"):
        assert line in mail["martell"], line
    assert t.czech_clean(mail["martell"]) == []


def _lose_the_attack(t: "Table", lowest: str = "stark") -> None:
    """Every house bids 1 but ``lowest`` (0): the wildlings win, ``lowest`` is the lowest bidder."""
    for house in HOUSES:
        t.mail(house, "BID 0" if house == lowest else "BID 1")


def test_mammoth_riders_by_mail_reclaim_when_asked_in_czech(table):
    t = table({**WILDLING_ATTACK, "wildling_deck": ["Mammoth Riders"],
               "discards": {"stark": ["Eddard Stark", "Catelyn Stark", "Roose Bolton"]}}, "stark")
    t.mail("stark", "SÁZKA 5")
    for n, house in enumerate(HOUSES[1:]):
        t.mail(house, f"BID {n}")
    assert t.state["step"] == "outcome" and [o.player for o in AGOT2E.pending(t.state)] == ["stark"]
    asked = t.new_mail()["stark"]
    assert "VRAŤ <karta>" in asked and t.czech_clean(asked) == []
    t.mail("stark", "VRAŤ Robb Stark")  # not discarded: refused, still asked
    reply = t.new_mail()["stark"]
    assert t.state["step"] == "outcome" and "Robb Stark" in reply and t.czech_clean(reply) == []
    t.mail("stark", "VRAŤ Roose Bolton")
    assert t.state["phase"] == "planning" and "roose-bolton" in t.state["hands"]["stark"]
    assert sorted(t.state["discards"]["stark"]) == ["catelyn-stark", "eddard-stark"]
    assert "Stark takes Roose Bolton back into its hand." in t.new_mail()["lannister"]


def test_mammoth_riders_lost_by_mail_remove_exactly_three_when_asked(table):
    t = table({**WILDLING_ATTACK, "wildling_deck": ["Mammoth Riders"], "power": {h: 1 for h in HOUSES},
               "areas": {"Winterfell": {"stark": ["footman", "footman", "knight"]}, "Bay of Ice": {"stark": ["ship"]}}},
              "stark")
    _lose_the_attack(t)
    assert [o.player for o in AGOT2E.pending(t.state)] == ["stark"]
    asked = t.new_mail()["stark"]
    assert "Jezdci na mamutech: odstraňte jednotky, počet: 3" in asked and t.czech_clean(asked) == []
    t.mail("stark", "ODSTRAŇ Winterfell: rytíř\nODSTRAŇ Bay of Ice: loď")  # two of three: refused
    reply = t.new_mail()["stark"]
    assert "jmenujte přesně tolik jednotek k odstranění: 3 (tyto řádky jmenují 2)" in reply
    assert t.czech_clean(reply) == []
    t.mail("stark", "ODSTRAŇ Winterfell: rytíř, pěšák\nODSTRAŇ Bay of Ice: loď")
    assert t.state["phase"] == "planning"
    assert t.state["areas"]["winterfell"]["stark"] == ["footman"] and "bay-of-ice" not in t.state["areas"]


def test_rattleshirts_raiders_by_mail_remove_to_fit_the_lower_supply(table):
    t = table({**WILDLING_ATTACK, "wildling_deck": ["Rattleshirt's Raiders"], "power": {h: 1 for h in HOUSES},
               "supply": {h: 1 for h in HOUSES},
               "areas": {"Winterfell": {"stark": ["footman", "footman", "knight"]},
                         "White Harbor": {"stark": ["footman", "footman"]}}}, "martell")
    _lose_the_attack(t)
    assert [o.player for o in AGOT2E.pending(t.state)] == ["stark"]
    assert "supply reduction: your armies 3, 2 against supply 0 (allowed: 2, 2)" in t.new_mail()["stark"]
    t.mail("stark", "REMOVE White Harbor: footman")  # the army of 3 is still too big: refused
    assert "still break the supply limit" in t.new_mail()["stark"] and t.state["step"] == "outcome"
    t.mail("stark", "REMOVE Winterfell: knight")
    assert t.state["phase"] == "planning" and t.state["supply"]["stark"] == 0
    assert t.state["areas"]["winterfell"]["stark"] == ["footman", "footman"]


def test_the_horde_descends_by_mail_two_units_in_one_castle_area(table):
    t = table({**WILDLING_ATTACK, "wildling_deck": ["The Horde Descends"], "power": {h: 1 for h in HOUSES},
               "areas": {"Winterfell": {"stark": ["footman", "footman", "knight"]},
                         "White Harbor": {"stark": ["footman", "knight"]}}}, "stark")
    _lose_the_attack(t)
    asked = t.new_mail()["stark"]
    assert "Horda se valí: odstraňte jednotky v jedné oblasti s hradem, počet: 2" in asked
    assert t.czech_clean(asked) == []
    t.mail("stark", "ODSTRAŇ Winterfell: rytíř\nODSTRAŇ White Harbor: rytíř")  # two areas: refused
    reply = t.new_mail()["stark"]
    assert "jmenujte jednotky v jedné oblasti s hradem, počet: 2" in reply
    assert t.czech_clean(reply) == [] and t.state["step"] == "outcome"
    t.mail("stark", "ODSTRAŇ White Harbor: pěšák, rytíř")
    assert t.state["phase"] == "planning" and "white-harbor" not in t.state["areas"]
    assert sorted(t.state["areas"]["winterfell"]["stark"]) == ["footman", "footman", "knight"]


def test_the_horde_descends_by_mail_the_highest_bidder_musters_in_one_castle_area(table):
    t = table({**WILDLING_ATTACK, "wildling_deck": ["The Horde Descends"],
               "areas": {"Winterfell": {"stark": ["footman"]}, "White Harbor": {"stark": ["footman"]}}}, "martell")
    t.mail("stark", "BID 5")
    for n, house in enumerate(HOUSES[1:]):
        t.mail(house, f"BID {n}")
    assert [o.player for o in AGOT2E.pending(t.state)] == ["stark"]
    assert "The Horde Descends: muster in one castle area (MUSTER <castle>: <units> or MUSTER NONE; White Harbor, " \
        "Winterfell)" in t.new_mail()["stark"]
    t.mail("stark", "MUSTER Winterfell: footman\nMUSTER White Harbor: footman")
    assert "The Horde Descends musters in one castle area only" in t.new_mail()["stark"]
    assert t.state["step"] == "outcome"
    t.mail("stark", "MUSTER Winterfell: knight")
    assert t.state["phase"] == "planning"
    assert sorted(t.state["areas"]["winterfell"]["stark"]) == ["footman", "knight"]
    assert t.state["areas"]["white-harbor"]["stark"] == ["footman"]


def test_the_horde_descends_at_the_deadline_the_lowest_bidder_takes_the_default_with_a_note(table):
    t = table({**WILDLING_ATTACK, "wildling_deck": ["The Horde Descends"], "power": {h: 1 for h in HOUSES},
               "areas": {"Winterfell": {"stark": ["footman", "footman", "knight"]},
                         "White Harbor": {"stark": ["footman", "knight"]}}}, "lannister")
    _lose_the_attack(t)
    t.deadline()
    mail = t.new_mail()
    assert "Stark sent no legal REMOVE; default: its weakest units in its castle area with most of its units." \
        in mail["stark"]
    assert "Rod Stark neposlal platné ODSTRAŇ" in mail["lannister"] and t.czech_clean(mail["lannister"]) == []
    assert t.state["areas"]["winterfell"]["stark"] == ["knight"]


def test_help_of_agot2e_lists_the_wildling_unit_commands(table):
    t = table({"round": 4, "step": "planning", "areas": {"Lannisport": {"lannister": ["footman"]}}}, "martell")
    t.mail("stark", "HELP")
    t.mail("martell", "NÁPOVĚDA")
    mail = t.new_mail()
    for line in ("Mammoth Riders, highest bidder: which discarded card comes back",
                 "Rattleshirt's Raiders (to fit the lower supply)", "The Horde Descends, highest bidder: muster in one"):
        assert line in mail["stark"], line
    for line in ("Jezdci na mamutech, nejvyšší sázka", "Nájezdníci Chrastící košile (podle nižšího",
                 "SHROMÁŽDĚNÍ <město či pevnost>: <jednotky> | NIC   Horda se valí"):
        assert line in mail["martell"], line
    assert t.czech_clean(mail["martell"]) == []
