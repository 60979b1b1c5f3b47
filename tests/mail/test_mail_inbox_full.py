"""A global cap on the unprocessed inbox: mail that arrives faster than the judge processes it
(a flood) is refused for now once the inbox holds ``--inbox-limit`` bytes: ``judge serve``
answers 452 (temporary: the MTA keeps the mail and retries) instead of 250, ``judge ingest``
exits 75 (EX_TEMPFAIL). Nothing is journaled then, nothing lost; once processed, mail is taken again."""

from __future__ import annotations

import smtplib
import subprocess
import sys

import pytest

from adjudicator.judge import Judge
from adjudicator.mail.inbox import Inbox
from adjudicator.store import Store

from conftest import FakeClock, subprocess_env
from mailhelp import JUDGE, ServerProcess, raw_mail

PADDING = "x" * 1000  # each mail about 1.2 KB


def _game(data):
    Judge(Store(data), now=FakeClock()).new_game("g", "toy", {"alice": {"address": "alice@example.org"}, "bob": {"address": "bob@example.org"}}, seed=1)


def _ingest(data, n: int, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "adjudicator", "ingest", "--address", JUDGE, "--sender",
                           "x@example.org", *args], input=raw_mail(f"hello {n}\n{PADDING}", sender="x@example.org",
                                                                   message_id=f"<i{n}@example.org>"),
                          env=subprocess_env(data), capture_output=True)


def test_ingest_exits_75_while_the_unprocessed_inbox_is_over_its_limit(tmp_path):
    data = tmp_path / "data"
    _game(data)
    inbox = Inbox(data)
    for n in range(3):  # mail journaled and not processed yet (a server that died, a flood)
        inbox.journal(raw_mail(f"hi {n}\n{PADDING}", sender="x@example.org"), mail_from="x@example.org")
    done = _ingest(data, 1, "--inbox-limit", "3000")
    assert done.returncode == 75 and b"the inbox is full; try again later" in done.stdout + done.stderr
    assert Inbox(data).pending() == [1, 2, 3]  # not journaled: the MTA keeps it and retries
    done = _ingest(data, 2, "--inbox-limit", "10000")  # under the limit: journaled and processed
    assert done.returncode == 0 and Inbox(data).pending() == []


def test_serve_answers_452_while_the_unprocessed_inbox_is_over_its_limit(tmp_path):
    data = tmp_path / "data"
    _game(data)
    held = ServerProcess(data, "--inbox-limit", "3000", env={"JUDGE_TEST_HOLD_INBOX": "1"})
    try:
        with smtplib.SMTP(held.host, held.port) as smtp:
            for n in range(3):
                smtp.sendmail("x@example.org", [JUDGE], raw_mail(f"hi {n}\n{PADDING}", sender="x@example.org",
                                                                 message_id=f"<s{n}@example.org>"))
            with pytest.raises(smtplib.SMTPDataError) as refused:
                smtp.sendmail("x@example.org", [JUDGE], raw_mail("one more", sender="x@example.org"))
        assert refused.value.smtp_code == 452 and b"inbox is full" in refused.value.smtp_error
        assert Inbox(data).pending() == [1, 2, 3]
        # an MTA pipe into ingest, with this server running (the hand-over), is refused the same way
        done = _ingest(data, 9, "--inbox-limit", "3000")
        assert done.returncode == 75 and Inbox(data).pending() == [1, 2, 3]
    finally:
        held.stop()
    server = ServerProcess(data, "--inbox-limit", "3000")  # one that processes: the inbox empties
    try:
        server.wait_for(lambda: Inbox(data).pending() == [], "the held mail processed")
        with smtplib.SMTP(server.host, server.port) as smtp:
            assert smtp.sendmail("x@example.org", [JUDGE], raw_mail("again", sender="x@example.org",
                                                                     message_id="<again@example.org>")) == {}
    finally:
        server.stop()


def test_the_unprocessed_size_is_kept_as_mail_is_journaled_and_marked_in_any_process(tmp_path, monkeypatch):
    """``Inbox.pending_bytes`` is asked at every mail accepted: kept per segment as records and done
    marks are written or read (not a sum over every message), it agrees with one, for the process that
    writes and for another that reads the same inbox, across a new segment."""
    monkeypatch.setattr("adjudicator.mail.inbox.SEGMENT_RECORDS", 4)
    data = tmp_path / "data"
    writer, reader = Inbox(data, fsync=False), Inbox(data, fsync=False)
    numbers = [writer.journal(raw_mail(f"m {n}\n" + "y" * n * 10, sender="x@example.org"), mail_from="x@example.org",
                              sync=False) for n in range(10)]
    for n in numbers[::3]:
        writer.mark_done(n, {"status": "done"})

    def summed(inbox: Inbox) -> int:
        return sum(size for s in inbox._live() for n, (_, size) in s.records.items() if n not in s.done)

    assert writer.pending_bytes() == summed(writer) == reader.pending_bytes() == summed(Inbox(data)) > 0
    for n in numbers:
        if writer.is_pending(n):
            reader.mark_done(n, {"status": "done"})
    assert writer.pending_bytes() == reader.pending_bytes() == 0


def test_the_server_reads_the_inbox_size_now_and_then_and_never_lets_a_flood_past_the_cap(tmp_path, monkeypatch):
    """The listener asks at every mail whether the inbox is over its cap. It reads the inbox's size only
    every ``PENDING_EVERY`` mails, adding what it journaled in between (which can only overstate what
    waits), and reads it again before it refuses: the cap holds, a mail is refused only on a real
    reading, and a flood costs no listing of the inbox per mail."""
    from adjudicator.mail import server
    from adjudicator.mail.process import Postmaster
    from adjudicator.mail.settings import MailSettings

    data = tmp_path / "data"
    _game(data)
    mail = raw_mail(f"hi\n{PADDING}", sender="x@example.org")
    limit = 40 * len(mail)
    postmaster = Postmaster(Judge(Store(data), now=FakeClock()), MailSettings(JUDGE, max_inbox_bytes=limit))
    handler = server.JudgeHandler(postmaster)
    reads = []
    real = handler.inbox.pending_bytes  # (the listener's own Inbox: see server.py)
    monkeypatch.setattr(handler.inbox, "pending_bytes", lambda: reads.append(real()) or reads[-1])
    accepted = 0
    for _ in range(60):  # a flood, nothing processed
        if handler._full(len(mail)):
            break
        postmaster.receive(mail, mail_from="x@example.org", sync=False, inbox=handler.inbox)
        accepted += 1
    assert accepted == 40 and real() == limit  # refused at the first mail that would go past the cap
    assert reads[-1] == limit and len(reads) <= 4  # that refusal read the inbox; the others mostly did not
    done = postmaster.inbox.pending()[:5]
    for number in done:  # processing drains it: the next mail reads again and is taken
        postmaster.inbox.mark_done(number, {"status": "done"})
    assert handler._full(len(mail)) is False
