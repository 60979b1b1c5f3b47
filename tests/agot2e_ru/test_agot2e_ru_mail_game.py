"""A whole 4-house agot2e-ru game (the preview, every option on) played by mail through the judge and the
mail layer: seeded bots write every house's mail, the deadlines pass on a fake clock for what they leave
out, and the game runs to its end by the variant's victory (7 castles held to a round's end, or the final
ranking by castles and muster points). Stark reads Czech: none of its mail may show a message key."""

from __future__ import annotations

import email
import email.policy
import random
import re
import sys
from pathlib import Path

from adjudicator import messages
from adjudicator.judge import Judge
from adjudicator.mail.process import Postmaster
from adjudicator.mail.settings import MailSettings
from adjudicator.store import Store
from conftest import FakeClock

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mail"))  # the mail tests' helpers
from mailhelp import JUDGE, raw_mail, text_of  # noqa: E402

HOUSES = ("stark", "lannister", "baratheon", "greyjoy")
CZECH = "stark"


def test_a_whole_four_house_variant_game_by_mail(tmp_path):
    clock = FakeClock()
    judge = Judge(Store(tmp_path / "data", fsync=False), now=clock)
    passwords = judge.new_game("ru", "agot2e-ru", {
        h: {"address": f"{h}@example.org", **({"language": "cs"} if h == CZECH else {})} for h in HOUSES},
        seed=15, options={"preview": "yes"})
    postmaster = Postmaster(judge, MailSettings(JUDGE))
    rng = random.Random(15)
    sent = 0
    for _ in range(2000):  # a bound: a game that never ends fails below
        present = judge.present("ru")
        if present.ruleset.result(present.state) is not None:
            break
        for owed in present.owed():
            text = None if owed.done or rng.random() < 0.2 else present.ruleset.bot_mail(present.state, owed.player, rng)
            if text:
                sent += 1
                raw = raw_mail(f"JUDGE ru {owed.player} {passwords[owed.player]}\n{text}",
                               sender=f"{owed.player}@example.org", message_id=f"<{owed.player}-{sent}@example.org>")
                postmaster.process(postmaster.receive(raw, mail_from=f"{owed.player}@example.org"))
        present = judge.present("ru")
        if present.ruleset.result(present.state) is None and present.missing():
            clock.moment = present.deadline()
            judge.adjudicate("ru", force=True, reason="deadline")
            postmaster.sweep_reports()
    state = judge.present("ru").state
    assert state["options"]["hold-seven-castles"] == "yes" and state["phase"] == "over"
    assert state["winner"] in (*HOUSES, "draw") and sent > 50

    mails = {"en": [], "cs": []}
    outbox = postmaster.outbox
    for path in sorted([*outbox.root.glob("*.eml"), *outbox.sent_dir.glob("*.eml")]):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        language = "cs" if message["To"] and f"{CZECH}@example.org" in message["To"] else "en"
        mails[language].append(re.sub(r"(?m)^X-Judge: .*$", "", text_of(message)))
    english, czech = "\n".join(mails["en"]), "\n".join(mails["cs"])
    assert "muster points" in english or "at the end of round" in english  # the variant's victory, told
    assert "bodů shromažďování" in czech or "na konci" in czech
    assert messages.keys_in(czech, ("agot", "agot2e", "judge", "mail")) == []
