"""A whole 6-house agot2e game played by mail through the judge and
the mail layer (adjudicator/mail/process.py's Postmaster): seeded bots write every house's mail, the
deadlines pass on a fake clock for what they leave out, and the game runs to its end after round 10.
Martell reads Czech: none of its mail may show a message key or an English word of the catalogues
(tests/i18nhelp.py), apart from the judge's own frame, which names the English mail commands too."""

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
from adjudicator.paths import TEMPLATES_DIR
from adjudicator.store import Store
from conftest import FakeClock
from i18nhelp import untranslated

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mail"))  # the mail tests' helpers
from mailhelp import JUDGE, play_by_mail, text_of  # noqa: E402

HOUSES = ("stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell")
CZECH = "martell"


def _frame_words() -> set[str]:
    words = set()
    for path in (TEMPLATES_DIR / "cs").glob("*.j2"):
        words |= {w.lower() for w in re.findall(r"[A-Za-zÀ-ž]{4,}", path.read_text(encoding="utf-8"))}
    return words


def test_a_whole_six_house_game_by_mail(tmp_path):
    clock = FakeClock()
    judge = Judge(Store(tmp_path / "data", fsync=False), now=clock)
    passwords = judge.new_game("six", "agot2e", {
        h: {"address": f"{h}@example.org", **({"language": "cs"} if h == CZECH else {})} for h in HOUSES},
        seed=6, options={"preview": "yes"})
    postmaster = Postmaster(judge, MailSettings(JUDGE))
    sent = play_by_mail(judge, postmaster, clock, "six", passwords, random.Random(6))
    state = judge.present("six").state
    assert state["winner"] in HOUSES and state["round"] == 11 and state["phase"] == "over"
    assert sent > 50  # most decisions came by mail, the rest by the deadline

    outbox = postmaster.outbox
    czech = []
    for path in sorted([*outbox.root.glob("*.eml"), *outbox.sent_dir.glob("*.eml")]):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        if message["To"] and f"{CZECH}@example.org" in message["To"]:
            czech.append(re.sub(r"(?m)^X-Judge: .*$", "", text_of(message)))
    text = "\n".join(czech)
    assert "Karta divokých" in text or "Divocí" in text
    assert messages.keys_in(text, ("agot", "agot2e", "judge", "mail")) == []
    frame = _frame_words()
    assert [w for w in untranslated(re.sub(r"„[^“]*“", "", text), "cs", ("agot", "agot2e")) if w.lower() not in frame] == []
