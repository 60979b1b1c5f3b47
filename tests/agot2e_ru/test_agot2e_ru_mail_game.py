"""A whole 4-house agot2e-ru game (every option on) played by mail through the judge and the
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
from mailhelp import JUDGE, play_by_mail, text_of  # noqa: E402

HOUSES = ("stark", "lannister", "baratheon", "greyjoy")
CZECH = "stark"


def test_a_whole_four_house_variant_game_by_mail(tmp_path):
    clock = FakeClock()
    judge = Judge(Store(tmp_path / "data", fsync=False), now=clock)
    passwords = judge.new_game("ru", "agot2e-ru", {
        h: {"address": f"{h}@example.org", **({"language": "cs"} if h == CZECH else {})} for h in HOUSES},
        seed=15, options={"preview": "yes"})
    postmaster = Postmaster(judge, MailSettings(JUDGE))
    sent = play_by_mail(judge, postmaster, clock, "ru", passwords, random.Random(15))
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
