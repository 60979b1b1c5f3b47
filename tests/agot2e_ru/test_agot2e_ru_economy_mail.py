"""The economy by mail (agot2e-ru, option gold-economy): Trade orders written in English, Czech and Russian,
the taxes after the action phase, and the mustering of every round answered by MUSTER (English), SHROMÁŽDĚNÍ
(Czech) or left to the deadline (nothing mustered); a muster over the castle's points is refused with the purse and a valid
example."""

from __future__ import annotations

import email
import email.policy
import re
import sys
from pathlib import Path

import pytest

from adjudicator.judge import Judge
from adjudicator.mail.process import Postmaster
from adjudicator.mail.settings import MailSettings
from adjudicator.store import Store
from conftest import FakeClock
from i18nhelp import untranslated

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mail"))  # the mail tests' helpers
from mailhelp import JUDGE, raw_mail, text_of  # noqa: E402

HOUSES = ("stark", "lannister", "baratheon")


class Table:
    def __init__(self, tmp_path):
        self.clock = FakeClock()
        self.judge = Judge(Store(tmp_path / "data", fsync=False), now=self.clock)
        self.passwords = self.judge.new_game("ru", "agot2e-ru", {
            h: {"address": f"{h}@example.org", **({"language": "cs"} if h == "lannister" else {})} for h in HOUSES},
            seed=4, options={"preview": "yes"})
        self.postmaster = Postmaster(self.judge, MailSettings(JUDGE))
        self.count = 0

    def mail(self, house: str, body: str) -> str:
        """Send ``body`` as ``house``; the judge's reply to it."""
        self.count += 1
        sender = f"{house}@example.org"
        raw = raw_mail(f"JUDGE ru {house} {self.passwords[house]}\n{body}", sender=sender,
                       message_id=f"<{house}-{self.count}@example.org>")
        before = set(self._mails())
        self.postmaster.process(self.postmaster.receive(raw, mail_from=sender))
        return "\n".join(text for name, (to, text) in self._mails().items() if name not in before and to == sender)

    def _mails(self) -> dict[str, tuple[str, str]]:
        outbox = self.postmaster.outbox
        out = {}
        for path in sorted([*outbox.root.glob("*.eml"), *outbox.sent_dir.glob("*.eml")]):
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            out[path.stem] = (str(message["To"]), text_of(message))
        return out

    def all_to(self, house: str) -> str:
        return "\n".join(text for to, text in self._mails().values() if f"{house}@example.org" in to)

    def deadline(self) -> None:
        present = self.judge.present("ru")
        self.clock.moment = present.deadline()
        self.judge.adjudicate("ru", force=True, reason="deadline")
        self.postmaster.sweep_reports()

    @property
    def state(self) -> dict:
        return self.judge.present("ru").state


def test_trade_taxes_and_the_mustering_of_every_round_by_mail(tmp_path):
    table = Table(tmp_path)
    reply = table.mail("stark", "ORDERS\nWinterfell: торговля\nWhite Harbor: defense +1\nThe Shivering Sea: support")
    assert "Winterfell: consolidate" in reply  # the Trade order is the Consolidate Power token
    table.mail("lannister", "ROZKAZY\nLannisport: obchod\nStoney Sept: obrana +1\nThe Golden Sound: podpora")
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
