"""The hostage phase by mail (agot2e-ru, option hostages; RULES.md V20): seeded bots play a 3-house game by
mail until a card is taken hostage and the hostage phase opens; then a house offers a ransom, the holder
accepts it, and the judge's replies and reports tell it, in English and (Stark reads Czech) wholly in Czech,
where Stark's own lines are Czech words (``VÝKUPNÉ``, ``PŘIJMI``)."""

from __future__ import annotations

import email
import email.policy
import random
import sys
from pathlib import Path

from adjudicator import messages
from adjudicator.judge import Judge
from adjudicator.mail.process import Postmaster
from adjudicator.mail.settings import MailSettings
from adjudicator.rulesets.agot.lines import in_language
from adjudicator.store import Store
from conftest import FakeClock

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mail"))  # the mail tests' helpers
from mailhelp import JUDGE, raw_mail, text_of  # noqa: E402

HOUSES = ("stark", "lannister", "baratheon")
CZECH = "stark"


class Table:
    def __init__(self, tmp_path, seed: int):
        self.clock = FakeClock()
        self.judge = Judge(Store(tmp_path / "data", fsync=False), now=self.clock)
        self.passwords = self.judge.new_game("h", "agot2e-ru", {
            h: {"address": f"{h}@example.org", **({"language": "cs"} if h == CZECH else {})} for h in HOUSES},
            seed=seed, options={"preview": "yes", "mercenaries": "no"})  # (the seeded game as it was before the mercenaries)
        self.postmaster = Postmaster(self.judge, MailSettings(JUDGE))
        self.sent = 0

    @property
    def state(self) -> dict:
        return self.judge.present("h").state

    def mail(self, house: str, body: str) -> None:
        self.sent += 1
        sender = f"{house}@example.org"
        raw = raw_mail(f"JUDGE h {house} {self.passwords[house]}\n{body}", sender=sender,
                       message_id=f"<{house}-{self.sent}@example.org>")
        self.postmaster.process(self.postmaster.receive(raw, mail_from=sender))

    def until_hostage_phase(self, rng: random.Random) -> None:
        """Bots answer by mail (some decisions left to the deadline) until the hostage phase's offers."""
        for _ in range(3000):
            present = self.judge.present("h")
            assert present.ruleset.result(present.state) is None, "the game ended without a hostage phase"
            if present.state["step"] == "hostages" and present.state["hostage_phase"]["stage"] == "offers":
                return
            for owed in present.owed():
                if not owed.done and rng.random() > 0.2:
                    text = present.ruleset.bot_mail(self.state, owed.player, rng)
                    if text:
                        self.mail(owed.player, in_language(text, "cs") if owed.player == CZECH else text)
            present = self.judge.present("h")
            if present.state["step"] != "hostages" and present.missing():
                self.deadline()
        raise AssertionError("no hostage phase")

    def deadline(self) -> None:
        self.clock.moment = self.judge.present("h").deadline()
        self.judge.adjudicate("h", force=True, reason="deadline")
        self.postmaster.sweep_reports()

    def mails_to(self, house: str) -> str:
        outbox = self.postmaster.outbox
        out = []
        for path in sorted([*outbox.root.glob("*.eml"), *outbox.sent_dir.glob("*.eml")]):
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            if message["To"] and f"{house}@example.org" in message["To"]:
                out.append(text_of(message))
        return "\n".join(out)


def test_a_ransom_offered_and_accepted_by_mail(tmp_path):
    table = Table(tmp_path, seed=3)  # Stark holds a Baratheon card as hostage
    table.until_hostage_phase(random.Random(3))
    gd = table.judge.present("h").ruleset.rules.gamedata(table.state["data_version"])
    entry = table.state["hostages"]["held"][0]
    card = gd.card(entry["card"])
    holder = entry["holder"]
    assert card.strength > 0  # gold moves
    buyer = next(h for h in HOUSES if h != holder and table.state["gold"][h] >= card.strength)
    before = dict(table.state["gold"])
    offer = f"RANSOM {card.name} {card.strength}"
    table.mail(buyer, in_language(offer, "cs") if buyer == CZECH else offer)
    for house in HOUSES:  # the other houses that may offer: none
        if house != buyer and any(e["holder"] != house for e in table.state["hostages"]["held"]):
            table.mail(house, "VÝKUPNÉ NIC" if house == CZECH else "RANSOM NONE")
    if table.state["hostage_phase"]["stage"] == "offers":
        table.deadline()
    assert table.state["hostage_phase"]["stage"] == "answers"
    answer = f"ACCEPT {card.name} FROM {buyer.capitalize()}"
    table.mail(holder, in_language(answer, "cs") if holder == CZECH else answer)
    if table.state["step"] == "hostages":
        table.deadline()

    assert table.state["gold"][buyer] == before[buyer] - card.strength
    assert table.state["gold"][holder] == before[holder] + card.strength
    assert all(e["card"] != card.id or e["holder"] == buyer for e in table.state["hostages"]["held"])
    english = table.mails_to(next(h for h in HOUSES if h != CZECH))
    assert "Hostage phase: " in english and f"{buyer.capitalize()} offers {card.strength} gold for {card.name}" in english
    assert f"{holder.capitalize()} accepts {buyer.capitalize()}'s offer of {card.strength} gold for {card.name}" in english
    czech = table.mails_to(CZECH)
    assert "Fáze rukojmích: " in czech and f"za kartu {card.name}" in czech
    assert holder == CZECH  # (seed 3) Stark's own line, echoed in Czech words
    assert any(line.split()[1:2] == ["ok"] and f"PŘIJMI {card.name}" in line and f"OD {buyer.capitalize()}" in line
               for line in czech.splitlines() if line.split())
    assert messages.keys_in(czech, ("agot", "agot2e", "judge", "mail")) == []
