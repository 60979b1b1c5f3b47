"""The judge behind a real Postfix: the pipe (``judge ingest``) and SMTP relay (``judge serve``).

What these check is what only a real MTA shows (issue 10): Postfix's pipe reads at most 4 KB of a
command's output and bounces the player's orders when the command dies or exits with anything
but 0 or 75; the null sender of a bounce; recipients refused during the SMTP dialogue rather
than bounced afterwards; the size limits of the MTA and of the judge.
"""

from __future__ import annotations

import email
import email.policy
import smtplib
import subprocess
import sys

import pytest

from adjudicator.judge import Judge
from adjudicator.mail.inbox import Inbox
from adjudicator.store import Store
from stack import PLAYERS, MailStack

NOW = "2026-11-21T12:00:00Z"


@pytest.fixture(scope="module")
def stack():
    stack = MailStack(NOW)
    yield stack
    stack.stop()


@pytest.fixture(scope="module")
def pipe_game(stack):
    """Game ``p`` (agot1e) on the pipe's data directory, its players at mbox.test."""
    from adjudicator.clock import from_text

    judge = Judge(Store(stack.pipe_data), now=lambda: from_text(NOW))
    passwords = judge.new_game("p", "agot1e", {h: {"address": f"{u}@mbox.test"}
                                               for h, u in zip(("stark", "lannister", "baratheon"), PLAYERS)}, seed=3)
    stack.chown_pipe_data()
    return passwords


def send(stack: MailStack, sender: str, to: str, body: str, *, subject: str = "orders", message_id: str) -> None:
    message = (f"From: {sender or 'MAILER-DAEMON@mbox.test'}\r\nTo: {to}\r\nSubject: {subject}\r\n"
               f"Message-ID: {message_id}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}").encode()
    with smtplib.SMTP("127.0.0.1", stack.ports["mta"], local_hostname="client.mbox.test") as smtp:
        smtp.sendmail(sender, [to], message)


def parsed(raw: bytes):
    return email.message_from_bytes(raw, policy=email.policy.default)


def text(raw: bytes) -> str:
    message = parsed(raw)
    part = message.get_body(("plain",)) if message.is_multipart() else message
    return part.get_content()


def test_orders_through_the_pipe_are_answered_and_postfix_sees_one_short_line(stack, pipe_game):
    body = f"Hi judge,\nJUDGE p stark {pipe_game['stark']}\nORDERS?\nSTATUS\n\nThanks,\nNed\n"
    send(stack, "player1@mbox.test", "judge@pipe.test", body, message_id="<pipe-1@mbox.test>")
    [reply] = stack.wait_mail("player1", 1, "the judge's reply through Postfix")
    answer = text(reply)
    assert parsed(reply)["From"].addresses[0].addr_spec == "judge@pipe.test"
    assert "REJECTED" not in answer and "ignored  Thanks,  (a sign-off)" in answer
    log = stack.wait_log("judge: inbox 000001: submitted")
    line = next(ln for ln in log.splitlines() if "relay=judgepipe" in ln and "000001" in ln)
    assert "status=sent" in line and "Traceback" not in log


def test_an_unexpected_error_in_ingest_defers_the_mail_never_bounces_it(stack, pipe_game):
    stack.break_ingest(True)
    try:
        send(stack, "player2@mbox.test", "judge@pipe.test", f"JUDGE p lannister {pipe_game['lannister']}\nORDERS?\n",
             message_id="<pipe-2@mbox.test>")
        log = stack.wait_log("temporary failure (logged)")
        line = next(ln for ln in log.splitlines() if "temporary failure (logged)" in ln)
        assert "status=deferred" in line and "status=bounced" not in log
        assert "RuntimeError: injected failure" in (stack.pipe_data / "log" / "ingest.log").read_text()
    finally:
        stack.break_ingest(False)
    stack.flush()  # the MTA's retry: the message is taken once (the journaled copy, then the retry)
    [reply] = stack.wait_mail("player2", 1, "the reply after the retry")
    assert "ORDERS?" in text(reply)
    files = Store(stack.pipe_data).open("p")
    assert [files.read_journal(n)["player"] for n in files.journal_numbers()] == ["stark", "lannister"]


def test_a_bounce_is_never_answered(stack, pipe_game):
    before = {u: len(stack.mailbox(u)) for u in PLAYERS}
    send(stack, "", "judge@pipe.test", f"JUDGE p baratheon {pipe_game['baratheon']}\nORDERS?\n",
         message_id="<bounce-1@mbox.test>")
    stack.wait_log("judge: inbox 000004: ignored")  # 2 and 3 were the deferred mail and its retry
    assert {u: len(stack.mailbox(u)) for u in PLAYERS} == before
    assert Inbox(stack.pipe_data).meta(4)["result"]["detail"].startswith("bounce")


def test_unknown_recipients_are_refused_during_the_smtp_dialogue(stack):
    with smtplib.SMTP("127.0.0.1", stack.ports["mta"], local_hostname="client.mbox.test") as smtp:
        smtp.mail("player1@mbox.test")
        for to in ("postmaster@pipe.test", "other@judge.test"):
            code, _ = smtp.rcpt(to)
            assert code >= 500, to  # no accept-then-bounce backscatter


def test_a_mail_over_the_judges_size_limit_is_bounced_by_the_mta_with_the_judges_reason(stack, pipe_game):
    before = len(stack.mailbox("player3"))
    big = f"JUDGE p baratheon {pipe_game['baratheon']}\n" + ("# padding line of an enormous mail\n" * 70_000)
    send(stack, "player3@mbox.test", "judge@pipe.test", big, message_id="<big-1@mbox.test>")
    bounce = stack.wait_mail("player3", before + 1, "the MTA's bounce")[-1]
    assert "message too large" in bounce.decode("utf-8", "replace")
    assert not any("big-1" in p.read_text(errors="replace") for p in (stack.pipe_data / "inbox").glob("*.yaml"))


@pytest.fixture(scope="module")
def served(stack, tmp_path_factory):
    """``judge serve`` on the relay port behind Postfix, relaying its mail back through Postfix."""
    data = tmp_path_factory.mktemp("serve") / "data"
    from adjudicator.clock import from_text

    passwords = Judge(Store(data), now=lambda: from_text(NOW)).new_game(
        "s", "agot1e", {h: {"address": f"{u}@mbox.test"} for h, u in zip(("stark", "lannister", "baratheon"), PLAYERS)},
        seed=4)
    proc = subprocess.Popen(
        [sys.executable, "-m", "adjudicator", "--data", str(data), "--now", NOW, "serve",
         "--listen", f"127.0.0.1:{stack.ports['relay']}", "--address", "judge@judge.test",
         "--relay", f"127.0.0.1:{stack.ports['mta']}", "--deliver-every", "0.2"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert "listening on" in proc.stdout.readline().decode()
    yield passwords
    proc.terminate()
    assert proc.wait(30) == 0


def test_serve_behind_postfix_answers_through_the_relay_and_bounces_nothing(stack, served):
    before = len(stack.mailbox("player3"))
    send(stack, "player3@mbox.test", "judge@judge.test", f"JUDGE s baratheon {served['baratheon']}\nHELP\n",
         message_id="<serve-1@mbox.test>")
    reply = stack.wait_mail("player3", before + 1, "the reply from judge serve")[-1]
    assert "HELP" in text(reply) and parsed(reply)["From"].addresses[0].addr_spec == "judge@judge.test"
    assert parsed(reply)["In-Reply-To"] == "<serve-1@mbox.test>"
