"""Every report mail carries the board as that player sees it, as a PNG attachment.

The picture is drawn from the player's view only (tests/agot1e/test_board_picture.py checks the
SVG); here: the attachment is there, is a PNG, is named after the version, differs per player
where their views differ, and a report still goes out when drawing fails.
"""

from __future__ import annotations

import email
import email.policy
import struct
from pathlib import Path

from adjudicator import layered
from adjudicator.judge import Judge
from adjudicator.mail.process import Postmaster
from adjudicator.mail.settings import MailSettings
from adjudicator.store import Store

from conftest import FakeClock
from mailhelp import JUDGE, raw_mail, text_of

HOUSES = ["stark", "lannister", "baratheon"]
ORDERS = {
    "stark": "ORDERS\nWinterfell: march -1\nWhite Harbor: defense +1",
    "lannister": "ORDERS\nLannisport: march -1\nStoney Sept: support",
    "baratheon": "ORDERS\nDragonstone: defense +1\nKingswood: raid",
}
ARTEFACTS = Path(__file__).resolve().parents[2] / "artefacts" / "pictures"


class _Game:
    def __init__(self, tmp_path: Path):
        self.judge = Judge(Store(tmp_path / "data", fsync=False), now=FakeClock())
        self.passwords = self.judge.new_game("w", "agot1e", {
            h: {"address": f"{h}@example.org", "language": "cs" if h == "lannister" else "en",
                "reports": "every-step"} for h in HOUSES}, seed=3)  # a report to each after every step
        self.postmaster = Postmaster(self.judge, MailSettings(JUDGE, rate_limit=1000))

    def mail(self, house: str, body: str) -> dict:
        raw = raw_mail(f"JUDGE w {house} {self.passwords[house]}\n{body}\n", sender=f"{house}@example.org",
                       message_id=f"<{house}@example.org>")
        handled = self.postmaster.process(self.postmaster.receive(raw, mail_from=f"{house}@example.org"))
        return {name: email.message_from_bytes((self.postmaster.outbox.root / f"{name}.eml").read_bytes(),
                                               policy=email.policy.default) for name in handled.mails}


def _reports(mails: dict) -> dict:
    return {name.rsplit("-", 1)[1]: m for name, m in mails.items() if name.startswith("report-")}


def _png(message) -> tuple[str, bytes]:
    parts = [p for p in message.iter_attachments() if p.get_content_type() == "image/png"]
    assert len(parts) == 1, [p.get_content_type() for p in message.iter_attachments()]
    data = parts[0].get_content()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert width > 900 and height > 900
    return parts[0].get_filename(), data


def test_every_report_mail_carries_the_players_board_as_a_png(tmp_path):
    game = _Game(tmp_path)
    mails = {}
    for house in HOUSES:
        mails.update(game.mail(house, ORDERS[house]))
    reports = _reports(mails)
    assert sorted(reports) == sorted(HOUSES)
    version = game.judge.present("w").version
    pictures = {}
    for house, message in reports.items():
        name, data = _png(message)
        assert name == f"board-v{version}.png"
        assert "X-Judge:" in text_of(message)  # the text part is still the report
        pictures[house] = data
    assert len(set(pictures.values())) == 3, "each player's own view is drawn"
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    (ARTEFACTS / "report-attachment-lannister-cs.png").write_bytes(pictures["lannister"])


def test_a_report_goes_out_without_the_picture_when_drawing_fails(tmp_path, monkeypatch, caplog):
    game = _Game(tmp_path)

    def broken(svg, **kwargs):
        raise RuntimeError("no renderer today")

    layered.clear_caches()  # nothing drawn earlier may stand in for the renderer
    monkeypatch.setattr(layered, "png_from_svg", broken)
    mails = {}
    for house in HOUSES:
        mails.update(game.mail(house, ORDERS[house]))
    reports = _reports(mails)
    assert sorted(reports) == sorted(HOUSES)
    for message in reports.values():
        assert not list(message.iter_attachments()) and "X-Judge:" in text_of(message)
    assert "could not be drawn" in caplog.text
