"""``judge poll`` against a real Dovecot: a GM's hosted mailbox, read over IMAP (issue 17).

Players mail ``judge@mbox.test`` through Postfix, which delivers into the Dovecot mailbox of user
``judge``; ``judge poll`` takes the mail from there over IMAP and answers through Postfix as its
relay, into the players' own Dovecot mailboxes. The kill -9 campaign of ``tests/crashharness.py``
runs on ``judge poll --once`` too, every point between fetching and marking included.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from imapclient import IMAPClient

import crashharness as harness
from adjudicator.clock import from_text
from adjudicator.judge import Judge
from adjudicator.mail.inbox import Inbox, file_lock
from adjudicator.store import Store
from stack import IMAP_PASS, PLAYERS, MailStack
from test_postfix import parsed, send, text

NOW = "2026-11-21T12:00:00Z"
JUDGE = "judge@mbox.test"


@pytest.fixture(scope="module")
def stack():
    stack = MailStack(NOW, users=("judge", "judge2", *PLAYERS))
    yield stack
    stack.stop()


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """Game ``h`` (agot1e) on a data directory of its own, its players at mbox.test."""
    data = tmp_path_factory.mktemp("poll") / "data"
    passwords = Judge(Store(data), now=lambda: from_text(NOW)).new_game(
        "h", "agot1e", {h: {"address": f"{u}@mbox.test"} for h, u in zip(("stark", "lannister", "baratheon"), PLAYERS)},
        seed=5)
    return data, passwords


def imap(stack: MailStack, user: str = "judge") -> IMAPClient:
    client = IMAPClient("127.0.0.1", port=stack.ports["imap"], ssl=False, timeout=30)
    client.login(user, IMAP_PASS)
    return client


def command(stack: MailStack, data: Path, *args: str, user: str = "judge") -> list[str]:
    return [sys.executable, "-m", "adjudicator", "--data", str(data), "--now", NOW, "poll", "--imap",
            f"127.0.0.1:{stack.ports['imap']}", "--user", user, "--security", "none", "--address", f"{user}@mbox.test",
            "--relay", f"127.0.0.1:{stack.ports['mta']}", *args]


def environment(password: str = IMAP_PASS) -> dict:
    return {**{k: v for k, v in os.environ.items() if not k.startswith("JUDGE_")}, "JUDGE_IMAP_PASSWORD": password}


def poll(stack: MailStack, data: Path, *args: str, password: str = IMAP_PASS, user: str = "judge") -> subprocess.CompletedProcess:
    return subprocess.run(command(stack, data, "--once", *args, user=user), env=environment(password),
                          capture_output=True, text=True, timeout=120)


def arrived(stack: MailStack, user: str, count: int) -> None:
    """Wait until ``user``'s INBOX holds ``count`` messages, looking without reading them (which
    would mark them seen, as ``stack.wait_mail`` does)."""
    deadline = time.monotonic() + 60
    while len(flags(stack, "INBOX", user)) < count:
        assert time.monotonic() < deadline, f"timed out waiting for mail to {user}\n{stack.log[-3000:]}"
        time.sleep(0.2)


def flags(stack: MailStack, folder: str, user: str = "judge") -> list[tuple]:
    with imap(stack, user) as client:
        client.select_folder(folder, readonly=True)
        found = client.fetch(client.search(["ALL"]), ["FLAGS"])
        return [tuple(f for f in found[uid][b"FLAGS"] if f != b"\\Recent") for uid in sorted(found)]


def test_mail_in_a_hosted_mailbox_is_taken_once_and_answered_through_the_relay(stack, game):
    data, passwords = game
    send(stack, "player1@mbox.test", JUDGE, f"Hi,\nJUDGE h stark {passwords['stark']}\nORDERS?\n",
         message_id="<poll-1@mbox.test>")
    arrived(stack, "judge", 1)
    assert flags(stack, "INBOX") == [()]

    done = poll(stack, data)
    assert done.returncode == 0, done.stderr
    assert "1 mail(s) taken from INBOX, 1 marked; 0 waiting in the inbox" in done.stdout
    [reply] = stack.wait_mail("player1", 1, "the judge's reply through the relay")
    assert "ORDERS?" in text(reply) and parsed(reply)["In-Reply-To"] == "<poll-1@mbox.test>"
    assert parsed(reply)["From"].addresses[0].addr_spec == JUDGE
    assert flags(stack, "INBOX") == [(b"\\Seen",)]
    meta = Inbox(data).meta(1)
    assert meta["via"] == "imap" and meta["peer"].startswith(f"imap://judge@127.0.0.1:{stack.ports['imap']}/INBOX;")
    assert meta["result"]["status"] == "submitted" and meta["mail_from"] is None  # the sender: Return-Path

    again = poll(stack, data)  # nothing new: nothing taken, nothing answered twice
    assert again.returncode == 0 and "0 mail(s) taken" in again.stdout
    files = Store(data).open("h")
    assert [files.read_journal(n)["player"] for n in files.journal_numbers()] == ["stark"]
    assert len(list((data / "outbox" / "sent").glob("*.eml"))) == 1


def test_with_move_to_taken_mail_leaves_the_folder_and_reading_it_elsewhere_hides_nothing(stack, game):
    data, passwords = game
    send(stack, "player2@mbox.test", "judge2@mbox.test", f"JUDGE h lannister {passwords['lannister']}\nORDERS?\n",
         message_id="<poll-2@mbox.test>")
    arrived(stack, "judge2", 1)
    with imap(stack, "judge2") as client:  # the GM reads the mailbox in a mail client: the new mail is seen
        client.select_folder("INBOX")
        client.add_flags(client.search(["ALL"]), [b"\\Seen"])

    done = poll(stack, data, "--move-to", "Judged", user="judge2")
    assert done.returncode == 0, done.stderr
    assert "1 mail(s) taken from INBOX, 1 marked" in done.stdout
    [reply] = stack.wait_mail("player2", 1, "the reply to the second mail")
    assert "ORDERS?" in text(reply) and parsed(reply)["From"].addresses[0].addr_spec == "judge2@mbox.test"
    assert flags(stack, "INBOX", "judge2") == [] and len(flags(stack, "Judged", "judge2")) == 1
    files = Store(data).open("h")
    assert [files.read_journal(n)["player"] for n in files.journal_numbers()] == ["stark", "lannister"]


def test_the_poll_loop_answers_mail_as_it_comes_and_stops_cleanly(stack, game):
    data, passwords = game
    loop = subprocess.Popen(command(stack, data, "--every", "1"), env=environment(), stderr=subprocess.PIPE, text=True)
    try:
        send(stack, "player3@mbox.test", JUDGE, f"JUDGE h baratheon {passwords['baratheon']}\nORDERS?\n",
             message_id="<poll-3@mbox.test>")
        [reply] = stack.wait_mail("player3", 1, "the reply of the running poll loop")
        assert "ORDERS?" in text(reply) and parsed(reply)["In-Reply-To"] == "<poll-3@mbox.test>"
    finally:
        loop.terminate()
        assert loop.wait(60) == 0
    log = loop.stderr.read()
    assert "judge polling judge@127.0.0.1" in log and "stopped" in log and "Traceback" not in log
    assert flags(stack, "INBOX") == [(b"\\Seen",), (b"\\Seen",)]


def test_a_wrong_password_takes_nothing_and_says_so(stack, game):
    data, _ = game
    done = poll(stack, data, password="not-the-password")
    assert done.returncode == 1 and "cannot read the mailbox judge@127.0.0.1" in done.stderr
    assert "not-the-password" not in done.stderr + done.stdout


def test_a_second_poller_on_the_same_data_takes_nothing(stack, game):
    data, _ = game
    Inbox(data).ensure()
    with file_lock(data / "inbox" / ".poll", 1.0, "test"):  # a poller at work
        done = poll(stack, data)
    assert done.returncode == 1 and "another judge poll on this data directory" in done.stderr


def test_without_the_password_in_the_environment_poll_refuses_to_start(stack, game):
    data, _ = game
    done = poll(stack, data, password="")
    assert done.returncode == 2 and "$JUDGE_IMAP_PASSWORD" in done.stderr


# -- kill -9 --------------------------------------------------------------------------------------


def _crash_scenario(stack: MailStack) -> harness.Scenario:
    """The harness's mail of Baratheon's orders, which complete the step, in a folder of the judge's
    mailbox made for each run (the reference and every crash start from the same mailbox)."""

    def folder(judge: harness.Judging) -> str:
        return "run-" + judge.data.parent.name

    def command(judge: harness.Judging) -> harness.Run:
        return judge("poll", "--imap", f"127.0.0.1:{stack.ports['imap']}", "--user", "judge", "--security", "none",
                     "--folder", folder(judge), "--once")

    def act(judge: harness.Judging, context: dict) -> harness.Run:
        with imap(stack) as client:
            if not client.folder_exists(folder(judge)):
                client.create_folder(folder(judge))
                client.append(folder(judge), harness._mail(context))
        return command(judge)

    def recover(judge: harness.Judging, context: dict) -> None:
        command(judge)  # the next poll (cron, or the loop's next round)
        assert flags(stack, folder(judge)) == [(b"\\Seen",)]
        inbox = Inbox(judge.data)
        assert inbox.pending() == [] and inbox.done_count() == 1, "the mail was journaled twice"

    return harness.Scenario("poll", harness.prepare_two_sent, act, recover, mail=True)


def test_a_kill_between_fetch_and_mark_loses_nothing_and_applies_nothing_twice(stack, tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_IMAP_PASSWORD", IMAP_PASS)
    report = harness.run_scenario(_crash_scenario(stack), tmp_path, sample=3, seed=20261123,
                                  always_labelled="polled imap")
    labels = (tmp_path / "poll.trace").read_text().splitlines()
    killed = [labels[k - 1] for k in report.tried]
    assert any("journaled, not yet marked" in label for label in killed)
    assert any(label.endswith(": marked") for label in killed)
    assert report.failures == []
