"""A game by mail that starts from a rules-case position: the judge, its postmaster and the outbox, for
the tests that show by mail what a rules case cannot (who is asked what, whose mail holds a secret, what a
Czech reader reads). Used by the agot2e choices and the agot2e-ru events tests."""

from __future__ import annotations

import copy
import email
import email.policy
import re
import sys
from pathlib import Path

from adjudicator.judge import Judge
from adjudicator.mail.process import Postmaster
from adjudicator.mail.settings import MailSettings
from adjudicator.store import Store
from conftest import FakeClock

sys.path.insert(0, str(Path(__file__).resolve().parent / "mail"))  # the mail tests' helpers
from mailhelp import JUDGE, raw_mail, text_of  # noqa: E402


class PositionTable:
    """Game ``g`` of ``ruleset`` for ``houses`` from rules-case ``position``, run to the first decision
    anybody owes, as the judge runs steps; ``czech`` reads Czech. The ruleset's ``new_game`` is patched
    (``monkeypatch``) to return that state, so the judge stores it as the game's first version."""

    def __init__(self, tmp_path: Path, monkeypatch, ruleset, houses: tuple[str, ...], position: dict, czech: str):
        state = ruleset.case_state({"players": list(houses), **position})
        while not ruleset.pending(state):
            state, _ = ruleset.advance(state, force=False)
        monkeypatch.setattr(ruleset, "new_game", lambda players, options, seed: copy.deepcopy(state))
        self.houses, self.czech = houses, czech
        self.judge = Judge(Store(tmp_path / "data", fsync=False), now=FakeClock())
        self.passwords = self.judge.new_game("g", ruleset.name, {
            h: {"address": f"{h}@example.org", **({"language": "cs"} if h == czech else {})} for h in houses})
        self.postmaster = Postmaster(self.judge, MailSettings(JUDGE))
        self.sent, self.read = 0, set()
        self.postmaster.sweep_reports()

    @property
    def state(self) -> dict:
        return self.judge.present("g").state

    def mail(self, house: str, body: str) -> None:
        self.sent += 1
        sender = f"{house}@example.org"
        raw = raw_mail(f"JUDGE g {house} {self.passwords[house]}\n{body}", sender=sender,
                       message_id=f"<{house}-{self.sent}@example.org>")
        self.postmaster.process(self.postmaster.receive(raw, mail_from=sender))
        self.postmaster.sweep_reports()

    def deadline(self) -> None:
        self.judge.adjudicate("g", force=True, reason="deadline")
        self.postmaster.sweep_reports()

    def new_mail(self) -> dict[str, str]:
        """House -> the text of every mail queued for it since the last call (X-Judge lines left out)."""
        outbox = self.postmaster.outbox
        out = {h: "" for h in self.houses}
        for path in sorted([*outbox.root.glob("*.eml"), *outbox.sent_dir.glob("*.eml")]):
            if path.name in self.read:
                continue
            self.read.add(path.name)
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            for house in self.houses:
                if message["To"] and f"{house}@example.org" in message["To"]:
                    out[house] += re.sub(r"(?m)^X-Judge: .*$", "", text_of(message)) + "\n"
        return out
