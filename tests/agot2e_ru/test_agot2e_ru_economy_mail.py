"""The economy by mail (agot2e-ru, option gold-economy): Trade orders written in English, Czech and Russian,
the taxes after the action phase, and the mustering of every round answered by MUSTER (English), SHROMÁŽDĚNÍ
(Czech) or left to the deadline (nothing mustered); a muster over the castle's points is refused with the purse and a valid
example."""

from __future__ import annotations

import re

import pytest

from czechtable import CzechTable
from i18nhelp import untranslated

HOUSES = ("stark", "lannister", "baratheon")


class Table(CzechTable):
    """A 3-house agot2e-ru game by mail, every option on; Lannister reads Czech."""

    def __init__(self, tmp_path):
        super().__init__(tmp_path, game="ru", ruleset="agot2e-ru", players=HOUSES, czech="lannister", wrong=[],
                         seed=4)

    def all_to(self, house: str) -> str:
        return "\n".join(self.mails_to(house).values())


def test_trade_taxes_and_the_mustering_of_every_round_by_mail(tmp_path):
    table = Table(tmp_path)
    reply = table.mail("stark", "ORDERS\nWinterfell: торговля\nWhite Harbor: defense +1\nThe Shivering Sea: support")
    assert "Winterfell: trade" in reply and "consolidate" not in reply  # the echo names the token as the game does
    czech = table.mail("lannister", "ROZKAZY\nLannisport: obchod\nStoney Sept: obrana +1\nThe Golden Sound: podpora")
    assert "Lannisport: obchod" in czech and "konsolid" not in czech.lower()
    assert "Winterfell: trade" in table.mail("stark", "ORDERS?")  # what the judge holds says it too
    table.mail("baratheon", "ORDERS\nDragonstone: trade\nKingswood: defense +1\nShipbreaker Bay: support")
    while table.state["step"] not in ("mustering",) and table.state["round"] == 1:
        table.deadline()  # the raven, if asked; nothing else is owed before the taxes
    assert table.state["step"] == "mustering"
    assert "Lannisport: trade; " in table.all_to("baratheon")  # revealed as what it is with gold: a Trade order
    assert "Lannisport: obchod; " in table.all_to("lannister")  # (Lannister reads Czech)
    # the taxes: 1 gold per crown, x2 where the Trade order stood
    assert table.state["gold"] == {"stark": 7, "lannister": 6, "baratheon": 8}
    assert "Taxes: " in table.all_to("stark") and "(Trade in Winterfell)" in table.all_to("stark")

    refused = table.mail("stark", "MUSTER Winterfell: knight, footman, footman")
    assert "Winterfell gives 2 muster" in refused or "mustering point" in refused, refused
    reply = table.mail("stark", "MUSTER Winterfell: knight")
    assert "MUSTER Winterfell: knight" in reply
    czech = table.mail("lannister", "SHROMÁŽDĚNÍ Lannisport: pěšák")
    assert "SHROMÁŽDĚNÍ Lannisport: pěšák" in czech or "Lannisport: pěšák" in czech, czech
    assert untranslated(re.sub(r"(?m)^X-Judge: .*$", "", czech), "cs", ("agot", "agot2e")) == []
    table.deadline()  # Baratheon sent nothing: it musters nothing
    assert table.state["round"] == 2
    assert table.state["gold"]["stark"] == 5 and table.state["gold"]["lannister"] == 5
    report = table.all_to("baratheon")
    assert "Stark musters: Winterfell: 1 knight in Winterfell and pays 2 gold." in report
    assert "Baratheon sent no MUSTER; default: nothing mustered." in report
    assert "zlaté" in table.all_to("lannister")


def test_a_muster_over_the_points_is_refused_with_a_valid_example(tmp_path):
    table = Table(tmp_path)
    for house, orders in (("stark", "Winterfell: defense +1"), ("lannister", "Lannisport: defense +1"),
                          ("baratheon", "Dragonstone: defense +1")):
        table.mail(house, f"ORDERS\n{orders}")
    while table.state["step"] != "mustering":
        table.deadline()
    reply = table.mail("stark", "MUSTER Winterfell: knight, footman")
    assert "REJECTED MUSTER Winterfell: knight, footman" in reply
    assert "Winterfell gives 2 mustering points; this costs 3" in reply and "example: MUSTER Winterfell: footman" in reply
    assert "paid in gold (you have 6): MUSTER <castle>: <units>, or MUSTER NONE" in reply


def test_help_tells_the_economy_in_english_and_czech(tmp_path):
    from adjudicator import reports

    present = Table(tmp_path).judge.present("ru")
    english = reports.render_help(present, "stark")
    assert "<area>: trade | trade*" in english and "mustering at the end of every round, paid in gold" in english
    czech = reports.render_help(present, "stark", "cs")
    assert "<oblast>: obchod | obchod*" in czech and "shromažďování na konci každého kola za zlato" in czech


@pytest.mark.parametrize("russian, canonical", [
    ("СТАВКА 3", "BID 3"),
    ("СБОР Lannisport: рыцарь, 2 пехотинца", "MUSTER Lannisport: knight, footman, footman"),
    ("СБОР Lannisport: осадная башня", "MUSTER Lannisport: siege engine"),
    ("СБОР НЕТ", "MUSTER NONE"),
    ("УБРАТЬ Lannisport: пехотинец", "REMOVE Lannisport: 1 footman"),
    ("MARCH Lannisport -> Stoney Sept: 1 рыцарь, 2 пехотинца", "MARCH Lannisport -> Stoney Sept: 2 footmen, 1 knight"),
    ("Pyke: корабль", None),  # a unit word is no order token: refused as any unknown order
])
def test_the_second_editions_bid_muster_and_remove_read_russian_words(russian, canonical):
    """A Russian player answers the economy's bids, musters and supply cuts in Russian too (RULES.md section 4)."""
    from adjudicator.rulesets.agot.grammar import GameDataNames, parse_mail
    from adjudicator.rulesets.agot2e_ru.ruleset import AGOT2E_RU

    parsed = parse_mail(russian, GameDataNames(AGOT2E_RU.rules.gamedata(), variant=True))
    assert [line.canonical for line in parsed.lines] == [canonical]
