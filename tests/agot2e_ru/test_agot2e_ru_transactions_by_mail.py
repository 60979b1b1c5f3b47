"""The transactions at any time by mail (agot2e-ru, gold-economy; RULES.md P13-P16, D25), through the judge
and the mail layer: a LOAN, a GIVE and a BUY are done when the mail is accepted (the reply says so at once,
in the sender's language), every other house's next report tells them, refused lines name the purse or
the rule with a valid example, and Czech and Russian keywords read as the English ones. Stark reads Czech:
its mail shows no message key and no English catalogue word."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from czechtable import CzechTable
from i18nhelp import untranslated
from adjudicator.ruleset import get

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "agot2e"))
from test_agot2e_mail_game import _frame_words  # noqa: E402

HOUSES = ("stark", "lannister", "baratheon")


class Table(CzechTable):
    """A 3-house agot2e-ru game (every option on), Stark in Czech; ``new_mail`` gives what came since the last call."""

    def __init__(self, tmp_path: Path):
        super().__init__(tmp_path, game="ru", ruleset="agot2e-ru", players=HOUSES, czech="stark", wrong=[], seed=3,
                         options={"preview": "yes"})
        self.read: set[str] = set()
        self.postmaster.sweep_reports()
        self.new_mail()

    def mail(self, player: str, body: str) -> str:
        reply = super().mail(player, body)
        self.postmaster.sweep_reports()
        return reply

    def new_mail(self) -> dict[str, str]:
        out = {}
        for house in HOUSES:
            mails = self.mails_to(house)
            out[house] = re.sub(r"(?m)^X-Judge: .*$", "", "\n".join(text for name, text in mails.items()
                                                                    if name not in self.read))
            self.read |= set(mails)
        return out


def _czech_leaks(text: str) -> list[str]:
    frame = _frame_words()
    return [w for w in untranslated(re.sub(r"„[^“]*“", "", text), "cs", ("agot", "agot2e")) if w.lower() not in frame]


def test_transactions_by_mail_are_done_at_once_and_told_to_everyone(tmp_path):
    t = Table(tmp_path)
    t.mail("lannister", "LOAN 12\nGIVE Stark 3\nBUY SUPPLY")
    assert t.state["gold"] == {"stark": 8, "lannister": 10, "baratheon": 5}
    assert t.state["debts"]["lannister"] == 12 and t.state["supply"]["lannister"] == 3
    reply = t.new_mail()["lannister"]
    assert "LOAN 12" in reply and "GIVE Stark 3" in reply
    assert "Lannister borrows 12 gold from the Iron Bank (loan 1; debt 12, purse 17)." in reply
    assert "Lannister gives 3 gold to Stark (purses: Lannister 14, Stark 8)." in reply

    t.mail("stark", "PŮJČKA 3\nDEJ Baratheon 1")  # Czech words
    reply = t.new_mail()["stark"]
    assert "PŮJČKA 3" in reply and "Rod Stark si půjčuje od Železné banky zlaté draky: 3" in reply
    assert _czech_leaks(reply) == []
    t.mail("baratheon", "ЗАЁМ 4\nКУПИТЬ СНАБЖЕНИЕ")  # Russian words (Dragonstone's port, an empty sea)
    assert t.state["debts"]["baratheon"] == 4 and t.state["gold"]["baratheon"] == 6

    t.mail("lannister", "LOAN 2\nLOAN 1")  # a third loan: refused, nothing done
    reply = t.new_mail()["lannister"]
    assert "Lannister already has 2 loans of the Iron Bank, the most at once (2): repay its debt of 14 first" in reply
    assert t.state["debts"]["lannister"] == 12
    t.mail("lannister", "GIVE Lannister 1")
    assert "Lannister cannot give gold to itself: name another house" in t.new_mail()["lannister"]
    t.mail("stark", "DEJ Baratheon 50")
    reply = t.new_mail()["stark"]
    assert "měšec rodu Stark má zlatých draků 10, ne potřebných 50" in reply and _czech_leaks(reply) == []

    for house in HOUSES:  # everyone's orders: the planning step resolves and the reports go out
        t.mail(house, "ORDERS")
    while t.state["step"] == "mustering":  # the round's mustering (gold-economy) waits for its answers
        for owed in get("agot2e-ru").pending(t.state):
            t.mail(owed.player, "MUSTER NONE")
    reports = t.new_mail()
    for house in ("lannister", "baratheon"):
        told = reports[house]
        assert "Lannister borrows 12 gold from the Iron Bank" in told, house
        assert "Baratheon buys supply from the Free Cities for 4 gold" in told, house
        assert told.index("Lannister gives 3 gold to Stark") < told.index("Stark gives 1 gold to Baratheon")
    assert "Rod Lannister dává rodu Stark zlaté draky: 3" in reports["stark"]
    assert _czech_leaks(reports["stark"]) == []
    assert [e["event"]["key"] for e in t.state["ledger"]] == [
        "agot.bank.loan", "agot.purse.gift", "agot.purse.supply", "agot.bank.loan", "agot.purse.gift",
        "agot.bank.loan", "agot.purse.supply", "agot.bank.growth"]  # the round ended: the debts grew
    assert "Debts to the Iron Bank grow by 2: Stark 5, Lannister 14, Baratheon 6." in reports["lannister"]
    assert "Debts to the Iron Bank: Stark 5 (1 loan), Lannister 14 (1 loan), Baratheon 6 (1 loan)." \
        in reports["baratheon"]  # the board section
    assert "Dluhy u Železné banky: Stark 5 (půjčky: 1), Lannister 14 (půjčky: 1)" in reports["stark"]
