"""Report mails of Oriflamme and Claim carry the table as that player sees it, as a PNG attachment.

The pictures themselves are checked in tests/test_table_pictures.py; here: a mail that makes a new
version brings every player a report with exactly one PNG, drawn per player (their views differ:
their own hands), in each player's language.
"""

from __future__ import annotations

import email
import email.policy
import io
import random
from pathlib import Path

import pytest
from PIL import Image

from adjudicator.judge import Judge
from adjudicator.mail.process import Postmaster
from adjudicator.mail.settings import MailSettings
from adjudicator.store import Store

from conftest import FakeClock
from mailhelp import JUDGE, raw_mail, text_of

ARTEFACTS = Path(__file__).resolve().parents[2] / "artefacts" / "pictures"


def _reports_after_one_step(tmp_path: Path, ruleset: str, players: list[str]) -> tuple[dict, int]:
    """Bots mail whoever is owed a decision until a mail makes a new version; the report mails."""
    judge = Judge(Store(tmp_path / "data", fsync=False), now=FakeClock())
    passwords = judge.new_game("t", ruleset, {p: {"address": f"{p}@example.org", "reports": "every-step",
                                                  "language": "cs" if i == 1 else "en"} for i, p in enumerate(players)},
                               seed=5)  # a report to every player after every step (not digests)
    postmaster = Postmaster(judge, MailSettings(JUDGE, rate_limit=1000))
    rng = random.Random(1)
    for attempt in range(10):
        present = judge.present("t")
        owed = [o for o in present.owed() if not o.done]
        player = owed[0].player
        body = present.ruleset.bot_mail(present.state, player, rng)
        raw = raw_mail(f"JUDGE t {player} {passwords[player]}\n{body}\n", sender=f"{player}@example.org",
                       message_id=f"<{player}-{attempt}@example.org>")
        handled = postmaster.process(postmaster.receive(raw, mail_from=f"{player}@example.org"))
        mails = {name: email.message_from_bytes((postmaster.outbox.root / f"{name}.eml").read_bytes(),
                                                policy=email.policy.default) for name in handled.mails}
        reports = {name.rsplit("-", 1)[1]: m for name, m in mails.items() if name.startswith("report-")}
        if reports:
            return reports, judge.present("t").version
    raise AssertionError("no mail made a new version")


@pytest.mark.parametrize("ruleset, players", [("oriflamme", ["red", "blue", "green"]),
                                              ("claim2", ["alice", "bob", "carol"]),
                                              ("claim", ["alice", "bob"])])
def test_a_report_mail_carries_the_table_as_a_png(tmp_path, ruleset, players):
    reports, version = _reports_after_one_step(tmp_path, ruleset, players)
    assert sorted(reports) == sorted(players)
    pictures = {}
    for player, message in reports.items():
        parts = [p for p in message.iter_attachments() if p.get_content_type() == "image/png"]
        assert len(parts) == 1 and parts[0].get_filename() == f"board-v{version}.png"
        image = Image.open(io.BytesIO(parts[0].get_content()))
        assert image.format == "PNG" and image.width >= 900 and image.height >= 400
        assert "X-Judge:" in text_of(message)
        pictures[player] = parts[0].get_content()
    assert len(set(pictures.values())) == len(players), "each player's own view is drawn"
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    (ARTEFACTS / f"report-attachment-{ruleset}-{players[1]}-cs.png").write_bytes(pictures[players[1]])
