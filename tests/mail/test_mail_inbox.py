"""The inbox journal: numbered raw messages in a log, pending until done; the rate limiter."""

from __future__ import annotations

import os
import stat
from datetime import timedelta

from adjudicator import yamlio
from adjudicator.mail.inbox import Inbox
from adjudicator.mail.ratelimit import RateLimiter

from conftest import START


def test_journal_numbers_envelopes_and_done(tmp_path):
    inbox = Inbox(tmp_path)
    first = inbox.journal(b"one", mail_from="a@example.org", rcpt_tos=["judge@example.net"], received=START)
    second = inbox.journal(b"two", mail_from="", received=START)
    assert (first, second) == (1, 2) and inbox.pending() == [1, 2]
    raw, meta = inbox.read(1)
    assert raw == b"one" and meta["mail_from"] == "a@example.org" and meta["rcpt_tos"] == ["judge@example.net"]
    assert meta["received"] == "2026-11-21T12:00:00Z" and meta["size"] == 3
    assert inbox.read(2)[1]["mail_from"] == ""  # the null sender, distinct from unknown (None)
    [segment] = list((tmp_path / "inbox" / "log").glob("*.log"))
    assert stat.S_IMODE(os.stat(segment).st_mode) == 0o600  # raw mail holds passwords
    inbox.mark_done(1, {"status": "submitted"})
    assert inbox.pending() == [2] and inbox.read(1)[0] == b"one"
    assert inbox.meta(1)["result"] == {"status": "submitted"}
    assert Inbox(tmp_path).pending() == [2]  # another process sees the same
    assert inbox.journal(b"three", mail_from=None) == 3  # numbers never reused, done ones count
    assert inbox.id == Inbox(tmp_path).id and len(inbox.id) == 8


def test_e3_surrogates_in_the_envelope_never_reach_the_files(tmp_path):
    inbox = Inbox(tmp_path)
    sender = "jiří@example.cz".encode().decode("utf-8", "surrogateescape")
    broken = b"ji\xf8\xed@example.cz".decode("utf-8", "surrogateescape")  # Latin-2 bytes on the wire
    inbox.journal(b"x", mail_from=broken, rcpt_tos=[sender])
    assert Inbox(tmp_path).read(1)[1]["mail_from"] == "jiří@example.cz"
    assert Inbox(tmp_path).read(1)[1]["rcpt_tos"] == ["jiří@example.cz"]


def test_a_record_torn_by_a_kill_is_cut_off_by_the_next_writer(tmp_path):
    inbox = Inbox(tmp_path)
    inbox.journal(b"whole", mail_from="a@example.org")
    [segment] = list((tmp_path / "inbox" / "log").glob("*.log"))
    with open(segment, "ab") as torn:  # a writer killed mid-append, before its 250
        torn.write(b'JUDGE-INBOX {"number": 2, "size": 100}\nonly part of it')
    assert Inbox(tmp_path).pending() == [1]  # never seen as a message
    assert Inbox(tmp_path).journal(b"next", mail_from="b@example.org") == 2  # the sender's retry takes its place
    assert Inbox(tmp_path).read(2)[0] == b"next" and Inbox(tmp_path).pending() == [1, 2]


def test_segments_roll_over_and_finished_ones_are_archived(tmp_path, monkeypatch):
    from adjudicator.mail import inbox as module

    monkeypatch.setattr(module, "SEGMENT_RECORDS", 2)
    inbox = Inbox(tmp_path)
    numbers = [inbox.journal(f"m{i}".encode(), mail_from="a@example.org") for i in range(5)]
    assert numbers == [1, 2, 3, 4, 5] and len(list(inbox.log_dir.glob("*.log"))) == 3
    for number in (1, 2, 3):
        inbox.mark_done(number, {"status": "submitted"})
    assert sorted(p.name for p in inbox.log_dir.glob("*.log")) == ["000002.log", "000003.log"]
    assert sorted(p.name for p in inbox.done_dir.glob("*.log")) == ["000001.log"]
    assert Inbox(tmp_path).pending() == [4, 5] and Inbox(tmp_path).read(1)[0] == b"m0"
    assert Inbox(tmp_path).meta(2)["result"] == {"status": "submitted"}
    assert Inbox(tmp_path).journal(b"m5", mail_from="a@example.org") == 6


def test_an_inbox_of_the_older_layout_goes_on_in_the_log(tmp_path):
    old = tmp_path / "inbox"
    (old / "done").mkdir(parents=True)
    (old / "done" / "000007.eml").write_bytes(b"done long ago")
    (old / "000008.eml").write_bytes(b"still pending")
    yamlio.dump(old / "000008.yaml", {"format": 1, "number": 8, "mail_from": "a@example.org", "rcpt_tos": []})
    inbox = Inbox(tmp_path)
    assert inbox.pending() == [8] and inbox.read(8) == (b"still pending", {**inbox.read(8)[1]})
    assert inbox.read(8)[1]["mail_from"] == "a@example.org" and not (old / "000008.eml").exists()
    assert inbox.journal(b"new", mail_from="b@example.org") == 9  # no number used before is used again


def test_rate_limiter_window_and_single_notice(tmp_path):
    limiter = RateLimiter(tmp_path / "r.yaml", limit=2, window_seconds=3600)
    verdicts = [limiter.hit("A@Example.org", START + timedelta(minutes=i)) for i in range(4)]
    assert [(v.allowed, v.notify) for v in verdicts] == [(True, False), (True, False), (False, True), (False, False)]
    later = RateLimiter(tmp_path / "r.yaml", limit=2, window_seconds=3600)  # survives a restart
    assert not later.hit("a@example.org", START + timedelta(minutes=30)).allowed
    assert later.hit("a@example.org", START + timedelta(hours=2)).allowed


def _bytes_written() -> int:
    """What this process has written so far (Linux ``/proc/self/io``: ``wchar``), to measure
    bookkeeping volume rather than time."""
    for line in open("/proc/self/io"):
        if line.startswith("wchar:"):
            return int(line.split()[1])
    raise AssertionError("no wchar in /proc/self/io")


def test_rate_limiter_many_senders_costs_a_line_each_and_is_shared(tmp_path):
    """Senders rotating their address: each counted mail adds a line to the record instead of
    rewriting every sender of the window (which made a flood of fresh addresses quadratic); a
    second process (or a restart) sees the same counts; the window's end forgets them all."""
    path = tmp_path / "r.log"
    limiter = RateLimiter(path, limit=1, window_seconds=3600)
    senders = [f"s{i}@spam.example" for i in range(3000)]
    before = _bytes_written()
    assert all(limiter.hit(s, START + timedelta(seconds=i)).allowed for i, s in enumerate(senders))
    assert _bytes_written() - before < 3000 * 200  # a whole rewrite per hit: about 300 MB
    other = RateLimiter(path, limit=1, window_seconds=3600)  # another process, or after a restart
    second = other.hit(senders[7], START + timedelta(minutes=55))
    assert (second.allowed, second.notify, second.count) == (False, True, 2)
    third = limiter.hit(senders[7], START + timedelta(minutes=56))  # sees the other's hit and notice
    assert (third.allowed, third.notify, third.count) == (False, False, 2)  # (the newest limit + 1 are kept)
    assert limiter.check(senders[8], START + timedelta(minutes=56)).allowed is False
    later = START + timedelta(hours=3)
    for i in range(3000):  # a new window: the old senders are forgotten and the record shrinks
        assert limiter.hit(f"t{i}@spam.example", later + timedelta(seconds=i)).allowed
    assert limiter.hit(senders[7], later + timedelta(hours=1)).allowed
    assert path.stat().st_size < 3000 * 2 * 60
