"""``judge serve`` as a real process: a toy game played by mail, the SMTP traps, kill -9, deadlines."""

from __future__ import annotations

import smtplib
import socket

import pytest

from adjudicator.judge import Judge
from adjudicator.mail.inbox import Inbox
from adjudicator.mail.process import Postmaster
from adjudicator.mail.server import JudgeHandler
from adjudicator.mail.settings import MailSettings
from adjudicator.store import Store

from conftest import START, FakeClock
from mailhelp import JUDGE, ServerProcess, ThreadedSMTP, maildir_messages, make_desk, raw_mail, text_of


def make_game(data, players):
    judge = Judge(Store(data), now=FakeClock())
    return judge, judge.new_game("g", "toy", {name: {"address": address} for name, address in players.items()}, seed=7)


def wait_mail(server, count, what):
    def enough():
        mails = maildir_messages(server.data / "maildir")
        return mails if len(mails) >= count else None

    return server.wait_for(enough, f"{count} mails in the Maildir ({what})")


def by_to(messages, to, subject_part=""):
    found = [m for m in messages if m["To"] == to and subject_part in m["Subject"]]
    assert len(found) == 1, [(m["To"], m["Subject"]) for m in messages]
    return found[0]


def test_a_toy_game_played_by_mail_through_the_real_server(tmp_path):
    data = tmp_path / "data"
    judge, pw = make_game(data, {"alice": "alice@example.org", "jiri": "jiří@example.cz"})
    server = ServerProcess(data)
    try:
        # A8: loopback IPv4, our greeting name; A1/A3/A4 settings advertised
        assert server.host == "127.0.0.1"
        with pytest.raises(OSError):
            socket.create_connection(("::1", server.port), timeout=1).close()
        smtp = smtplib.SMTP(server.host, server.port, local_hostname="client.example.org")
        code, greeting = smtp.ehlo()
        assert code == 250 and greeting.split(b"\n")[0] == b"judge.example.net"
        assert smtp.has_extn("smtputf8") and smtp.has_extn("8bitmime") and smtp.esmtp_features["size"] == "2000000"
        # A6: an unknown recipient is refused during the dialogue
        assert smtp.mail("alice@example.org")[0] == 250
        assert smtp.rcpt("postmaster@example.net")[0] == 550
        smtp.rset()
        # a bounce: accepted (never refuse a bounce) but never answered
        smtp.sendmail("", [JUDGE], raw_mail(f"JUDGE g alice {pw['alice']}\nBID 9", message_id="<bounce@x.org>"))
        # A2: a 1,600-byte line sent directly is accepted and parsed
        smtp.sendmail("alice@example.org", [JUDGE],
                      raw_mail(f"JUDGE g alice {pw['alice']}\nBID 3  # " + "x" * 1600 + "\n", message_id="<a1@x.org>"))
        # A3 + A4: an SMTPUTF8 sender, a raw 8-bit body without any charset
        body = f"JUDGE g jiri {pw['jiri']}\nBID 1  # Příkazy: žluťoučký kůň\n".encode()
        smtp.sendmail("jiří@example.cz", [JUDGE], raw_mail(body, sender="jiří@example.cz", display="Jiří",
                                                          message_id="<j1@x.cz>"), mail_options=["SMTPUTF8"])
        # A1: more text than the judge reads (but within the SMTP limit) gets a clear reply ...
        smtp.sendmail("alice@example.org", [JUDGE], raw_mail(f"JUDGE g alice {pw['alice']}\n" + "# pad\n" * 200_000,
                                                             message_id="<big@x.org>"))
        # ... and more than the SMTP limit is refused: at MAIL when announced, else with 552 after the data
        with pytest.raises(smtplib.SMTPSenderRefused) as refused:
            smtp.sendmail("alice@example.org", [JUDGE], raw_mail(("x" * 70 + "\n") * 36_000, message_id="<huge@x.org>"))
        assert refused.value.smtp_code == 552
        assert smtp.mail("alice@example.org")[0] == 250 and smtp.rcpt(JUDGE)[0] == 250
        assert smtp.data(raw_mail(("x" * 70 + "\n") * 36_000, message_id="<huge@x.org>"))[0] == 552
        smtp.quit()

        mails = wait_mail(server, 5, "2 replies, 2 reports, the too-large reply")
        replies = {m["In-Reply-To"]: text_of(m) for m in mails if m["In-Reply-To"]}
        assert set(replies) == {"<a1@x.org>", "<j1@x.cz>", "<big@x.org>"}  # not the bounce
        assert "ok       BID 3" in replies["<a1@x.org>"]
        assert "ok       BID 1" in replies["<j1@x.cz>"] and "Adjudicated:" in replies["<j1@x.cz>"]
        assert "the judge reads at most 1,000,000" in replies["<big@x.org>"]
        for to in ("alice@example.org", "jiří@example.cz"):
            report = text_of(by_to(mails, to, "[g]"))
            assert "Bids: alice 3, jiri 1" in report and "alice wins round 1" in report
        texts = [e["text"] for e in (judge.store.open("g").read_journal(n) for n in (1, 2))]
        assert "Příkazy: žluťoučký kůň" in texts[1]
    finally:
        code = server.stop()
    assert code == 0, server.stderr()  # SIGTERM: a clean stop
    assert "Traceback" not in server.stderr()


def test_kill_9_after_the_250_loses_nothing_and_due_games_adjudicate_at_start(tmp_path):
    data = tmp_path / "data"
    judge, pw = make_game(data, {"alice": "alice@example.org", "bob": "bob@example.org"})
    held = ServerProcess(data, env={"JUDGE_TEST_HOLD_INBOX": "1"}, now="2026-11-21T13:00:00Z")
    try:
        with smtplib.SMTP(held.host, held.port) as smtp:
            smtp.sendmail("alice@example.org", [JUDGE], raw_mail(f"JUDGE g alice {pw['alice']}\nBID 4"))
        assert Inbox(data).pending() == [1]  # journaled before the 250
    finally:
        held.kill()  # kill -9 after the 250, before processing
    assert judge.store.open("g").journal_numbers() == []

    # back up three days later: the held mail first, then the deadline that passed meanwhile
    later = "2026-11-24T12:00:00Z"
    server = ServerProcess(data, now=later)
    try:
        mails = wait_mail(server, 3, "alice's reply and two reports")
        files = judge.store.open("g")
        entries = [files.read_journal(n) for n in files.journal_numbers()]
        assert [(e["kind"], e.get("inbox"), e.get("reason")) for e in entries] == [
            ("submit", 1, None), ("adjudicate", None, "deadline")]
        assert "Bids: alice 4, bob 0" in text_of(by_to(mails, "bob@example.org", "[g]"))
        assert Inbox(data).pending() == []
    finally:
        assert server.stop() == 0
    # and once more: nothing is processed or reported twice
    again = ServerProcess(data, now=later)
    try:
        with smtplib.SMTP(again.host, again.port) as smtp:
            smtp.sendmail("carol@example.org", [JUDGE], raw_mail("hello", sender="carol@example.org"))
        mails = wait_mail(again, 4, "the answer to carol")
        assert len(mails) == 4 and "has no sign-on line" in text_of(by_to(mails, "carol@example.org"))
        assert len(judge.store.open("g").journal_numbers()) == 2
    finally:
        assert again.stop() == 0


def test_mail_journaled_while_the_worker_reads_the_inbox_is_processed_as_sent(tmp_path, monkeypatch):
    """``judge serve`` journals mail in its SMTP thread while its worker thread reads the inbox at
    any moment. Here the worker's look at the inbox (``pending()``) comes at the worst one: each
    mail's bytes written, not yet noted. Every mail is then still read whole: its sign-on, its
    Message-ID (the reply's In-Reply-To). (One Inbox shared by the threads read such a mail from
    the wrong offset: "no sign-on" and a reply to nothing, in 3 of 100 runs of the three-house game
    of test_mail_game.py, two run at a time.)"""
    from adjudicator.mail import inbox as inbox_module

    desk = make_desk(tmp_path)
    real = inbox_module.crashpoint
    monkeypatch.setattr(inbox_module, "crashpoint", lambda label: (
        real(label), label.startswith("after appending") and desk.postmaster.inbox.pending()))
    with ThreadedSMTP(JudgeHandler(desk.postmaster)) as server:
        with smtplib.SMTP("127.0.0.1", server.port) as smtp:
            for n, player in enumerate(("alice", "bob", "carol")):
                smtp.sendmail(f"{player}@example.org", [JUDGE], raw_mail(
                    f"JUDGE g {player} {desk.passwords[player]}\nBID {n + 1}", sender=f"{player}@example.org",
                    message_id=f"<{player}@x.org>"))
    handled = desk.postmaster.process_pending()
    assert [(h.status, h.player) for h in handled] == [("submitted", "alice"), ("submitted", "bob"),
                                                       ("submitted", "carol")]
    for done in handled:
        [reply] = [name for name in done.mails if name.endswith("-reply")]
        assert desk.outbox_message(reply)["In-Reply-To"] == f"<{done.player}@x.org>"


class Broken(Postmaster):
    def __init__(self, tmp_path, error):
        super().__init__(Judge(Store(tmp_path / "data"), now=FakeClock(START)), MailSettings(JUDGE))
        self.error = error

    def receive(self, *args, **kwargs):
        raise self.error


@pytest.mark.parametrize("error", [RuntimeError("state file locked"), OSError(28, "No space left on device")])
def test_a5_trouble_answers_451_and_leaks_nothing(tmp_path, error):
    with ThreadedSMTP(JudgeHandler(Broken(tmp_path, error))) as server:
        with smtplib.SMTP("127.0.0.1", server.port) as smtp:
            with pytest.raises(smtplib.SMTPDataError) as failed:
                smtp.sendmail("alice@example.org", [JUDGE], raw_mail("JUDGE g alice pw"))
    assert failed.value.smtp_code == 451 and failed.value.smtp_error.startswith(b"4.3.0")
    assert b"locked" not in failed.value.smtp_error and b"space" not in failed.value.smtp_error


def test_a5_an_exception_outside_data_also_answers_451(tmp_path):
    class Exploding(JudgeHandler):
        async def handle_RCPT(self, *args):
            raise RuntimeError("secret internals")

    with ThreadedSMTP(Exploding(Broken(tmp_path, None))) as server:
        with smtplib.SMTP("127.0.0.1", server.port) as smtp:
            smtp.ehlo()
            assert smtp.mail("alice@example.org")[0] == 250
            code, text = smtp.rcpt(JUDGE)
    assert code == 451 and b"secret" not in text
