"""The inbox journal: numbered raw messages, fsync'ed sidecars, pending until done; the rate limiter."""

from __future__ import annotations

import os
import stat
from datetime import timedelta

from adjudicator import yamlio
from adjudicator.mail.inbox import Inbox
from adjudicator.mail.ratelimit import RateLimiter

from conftest import START


def test_journal_numbers_sidecars_and_done(tmp_path):
    inbox = Inbox(tmp_path)
    first = inbox.journal(b"one", mail_from="a@example.org", rcpt_tos=["judge@example.net"], received=START)
    second = inbox.journal(b"two", mail_from="", received=START)
    assert (first, second) == (1, 2) and inbox.pending() == [1, 2]
    raw, meta = inbox.read(1)
    assert raw == b"one" and meta["mail_from"] == "a@example.org" and meta["rcpt_tos"] == ["judge@example.net"]
    assert meta["received"] == "2026-11-21T12:00:00Z" and meta["size"] == 3
    assert inbox.read(2)[1]["mail_from"] == ""  # the null sender, distinct from unknown (None)
    assert stat.S_IMODE(os.stat(inbox.eml_path(1)).st_mode) == 0o600  # raw mail holds passwords
    inbox.mark_done(1, {"status": "submitted"})
    assert inbox.pending() == [2] and inbox.read(1)[0] == b"one"
    assert inbox.meta(1)["result"] == {"status": "submitted"} and not inbox.meta_path(1).exists()
    assert inbox.journal(b"three", mail_from=None) == 3  # numbers never reused, done ones count
    assert inbox.id == Inbox(tmp_path).id and len(inbox.id) == 8


def test_e3_surrogates_in_the_envelope_never_reach_yaml(tmp_path):
    inbox = Inbox(tmp_path)
    sender = "jiří@example.cz".encode().decode("utf-8", "surrogateescape")
    broken = b"ji\xf8\xed@example.cz".decode("utf-8", "surrogateescape")  # Latin-2 bytes on the wire
    inbox.journal(b"x", mail_from=broken, rcpt_tos=[sender])
    text = inbox.meta_path(1).read_text(encoding="utf-8")
    assert "\\u" not in text.lower() and "jiří@example.cz" in text
    assert yamlio.load(inbox.meta_path(1))["mail_from"] == "jiří@example.cz"


def test_a_missing_sidecar_is_tolerated(tmp_path):
    inbox = Inbox(tmp_path)
    inbox.journal(b"x", mail_from="a@example.org")
    inbox.meta_path(1).unlink()  # a crash between the .eml and its sidecar (before the 250)
    assert inbox.read(1) == (b"x", {})


def test_rate_limiter_window_and_single_notice(tmp_path):
    limiter = RateLimiter(tmp_path / "r.yaml", limit=2, window_seconds=3600)
    verdicts = [limiter.hit("A@Example.org", START + timedelta(minutes=i)) for i in range(4)]
    assert [(v.allowed, v.notify) for v in verdicts] == [(True, False), (True, False), (False, True), (False, False)]
    later = RateLimiter(tmp_path / "r.yaml", limit=2, window_seconds=3600)  # survives a restart
    assert not later.hit("a@example.org", START + timedelta(minutes=30)).allowed
    assert later.hit("a@example.org", START + timedelta(hours=2)).allowed


def test_numbers_are_never_reused_whatever_the_hint_says(tmp_path):
    """Numbering is constant-time (inbox/seq), and a stale or missing hint never reuses a number."""
    from adjudicator.mail.inbox import Inbox

    inbox = Inbox(tmp_path)
    first = [inbox.journal(b"Subject: x\r\n\r\nbody", mail_from="a@example.org") for _ in range(3)]
    assert first == [1, 2, 3]
    inbox.mark_done(2, {"result": "test"})
    (inbox.root / "seq").write_text("1\n")  # stale, as after a crash before the hint was written
    assert inbox.journal(b"Subject: y\r\n\r\nbody", mail_from="a@example.org") == 4
    (inbox.root / "seq").unlink()
    assert inbox.journal(b"Subject: z\r\n\r\nbody", mail_from="a@example.org") == 5
