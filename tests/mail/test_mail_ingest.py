"""``judge ingest`` (MTA pipe) exit codes and ``judge deliver``."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta

from click.testing import CliRunner

from adjudicator import yamlio
from adjudicator.cli import main
from adjudicator.judge import Judge
from adjudicator.mail.inbox import Inbox
from adjudicator.mail.process import Postmaster
from adjudicator.store import GameLocked, Store

from conftest import START, FakeClock, subprocess_env
from mailhelp import JUDGE, maildir_messages, raw_mail, text_of


NOW = START.strftime("%Y-%m-%dT%H:%M:%SZ")  # the command line on the tests' clock


def game(data):
    return Judge(Store(data), now=FakeClock()).new_game(
        "g", "toy", {"alice": {"address": "alice@example.org"}, "bob": {"address": "bob@example.org"}}, seed=1)


def ingest(data, raw: bytes, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "adjudicator", "ingest", "--address", JUDGE, *args], input=raw,
                          env=subprocess_env(data), capture_output=True)


def one_short_line(done: subprocess.CompletedProcess) -> str:
    """What an MTA pipe gets back: at most one short line, never a traceback, on either stream."""
    out = (done.stdout + done.stderr).decode()
    assert out.count("\n") <= 1 and len(out) <= 201 and "Traceback" not in out, out
    return out


def test_ingest_exit_codes(tmp_path):
    data = tmp_path / "data"
    pw = game(data)
    ok = ingest(data, raw_mail(f"JUDGE g alice {pw['alice']}\nBID 2"), "--sender", "alice@example.org",
                "--recipient", JUDGE)
    assert ok.returncode == 0, ok.stderr
    assert "submitted" in one_short_line(ok)
    [reply] = maildir_messages(data / "maildir")  # delivered right away
    assert reply["To"] == "alice@example.org" and "ok       BID 2" in text_of(reply)
    # a bounce (Postfix passes an empty ${sender}, or MAILER-DAEMON without null_sender=): done,
    # never answered, never bounced again
    assert ingest(data, raw_mail("undeliverable"), "--sender", "").returncode == 0
    mailer_daemon = ingest(data, raw_mail("undeliverable", sender="mailer-daemon@mta.example.org"),
                           "--sender", "MAILER-DAEMON")
    assert mailer_daemon.returncode == 0 and "ignored" in one_short_line(mailer_daemon)
    # Return-Path from the MTA when no --sender is given
    assert ingest(data, raw_mail("undeliverable", headers={"Return-Path": "<MAILER-DAEMON>"})).returncode == 0
    assert len(maildir_messages(data / "maildir")) == 1
    # E1: unusable input with nobody to answer: journaled, EX_DATAERR
    bad = ingest(data, b"From:<@\r\n\r\nx")
    assert bad.returncode == 65 and "dropped" in one_short_line(bad)
    assert ingest(data, b"").returncode == 65
    assert Inbox(data).pending() == [] and Inbox(data).done_count() == 6


SERVERLESS_PROBE = """
import json, runpy, sys
sys.argv = ["judge", *sys.argv[1:]]
try:
    runpy.run_module("adjudicator", run_name="__main__")
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code, "server": sorted(m for m in ("aiosmtpd", "asyncio") if m in sys.modules)}))
"""


def test_ingest_with_no_server_processes_the_mail_without_loading_the_smtp_server(tmp_path):
    """An MTA pipe with no ``judge serve`` beside it starts a whole judge per mail: the SMTP listener's
    modules (aiosmtpd, asyncio: a tenth of that start) are not part of it."""
    data = tmp_path / "data"
    pw = game(data)
    done = subprocess.run([sys.executable, "-c", SERVERLESS_PROBE, "ingest", "--address", JUDGE, "--sender",
                           "alice@example.org"], input=raw_mail(f"JUDGE g alice {pw['alice']}\nBID 2"),
                          env=subprocess_env(data), capture_output=True)
    assert json.loads(done.stdout) == {"code": 0, "server": []}, done.stderr
    assert "submitted" in done.stderr.decode()
    [reply] = maildir_messages(data / "maildir")
    assert "ok       BID 2" in text_of(reply)


def test_ingest_refuses_another_recipient_and_too_much_data_as_serve_does(tmp_path):
    data = tmp_path / "data"
    pw = game(data)
    other = ingest(data, raw_mail(f"JUDGE g alice {pw['alice']}\nBID 2"), "--recipient", "postmaster@example.net")
    assert other.returncode == 67 and "no such recipient" in one_short_line(other)
    huge = ingest(data, raw_mail("x" * 2_100_000), "--sender", "alice@example.org")
    assert huge.returncode == 65 and "too large" in one_short_line(huge)
    assert not (data / "inbox").exists() or Inbox(data).pending() == []  # nothing journaled


def test_ingest_tempfails_when_the_inbox_cannot_be_written(tmp_path):
    data = tmp_path / "data"
    game(data)
    (data / "inbox").write_text("not a directory")
    done = ingest(data, raw_mail("JUDGE g alice pw"), "--sender", "alice@example.org")
    assert done.returncode == 75 and "try again later" in one_short_line(done)


def test_any_unexpected_error_is_75_with_one_line_and_the_traceback_in_the_log(tmp_path, monkeypatch):
    data = tmp_path / "data"
    pw = game(data)

    def broken(self, *args, **kwargs):
        raise RuntimeError("a bug " + "x" * 5000)

    monkeypatch.setattr(Postmaster, "process_pending", broken)
    done = CliRunner().invoke(main, ["--data", str(data), "--now", NOW, "ingest", "--address", JUDGE,
                                                     "--sender", "alice@example.org"],
                                              input=raw_mail(f"JUDGE g alice {pw['alice']}\nBID 2"))
    assert done.exit_code == 75
    assert done.stdout == "" and done.stderr == "judge: temporary failure (logged); try again later\n"
    assert "RuntimeError: a bug" in (data / "log" / "ingest.log").read_text()
    assert Inbox(data).pending() == [1]  # journaled: the MTA's retry or the next run processes it


def test_a_locked_game_is_journaled_exit_0_and_the_next_run_processes_it_once(tmp_path, monkeypatch):
    data = tmp_path / "data"
    pw = game(data)
    runner = CliRunner()
    args = ["--data", str(data), "--now", NOW, "ingest", "--address", JUDGE, "--sender", "alice@example.org"]
    real = Judge.record

    def locked(self, game_id, entry):
        raise GameLocked(f"game {game_id} is busy (locked by another process); try again")

    monkeypatch.setattr(Judge, "record", locked)
    first = runner.invoke(main, args, input=raw_mail(f"JUDGE g alice {pw['alice']}\nBID 2", message_id="<m1@x.org>"))
    assert first.exit_code == 0 and Inbox(data).pending() == [1]  # durable: the MTA may forget it
    assert "processed by the next run" in first.output
    monkeypatch.setattr(Judge, "record", real)
    # the next run, 15 s later (the retry waits), processes it; an MTA's second copy is recognised
    later = (START + timedelta(seconds=16)).strftime("%Y-%m-%dT%H:%M:%SZ")
    args[3] = later
    retry = runner.invoke(main, args, input=raw_mail(f"JUDGE g alice {pw['alice']}\nBID 2", message_id="<m1@x.org>"))
    assert retry.exit_code == 0
    assert Inbox(data).meta(1)["result"]["status"] == "submitted"
    assert Inbox(data).meta(2)["result"]["status"] == "duplicate"
    assert len(Store(data).open("g").journal_numbers()) == 1
    assert len(maildir_messages(data / "maildir")) == 1


def test_deliver_reports_gm_adjudications_and_sends_the_outbox(tmp_path):
    data = tmp_path / "data"
    game(data)
    judge = Judge(Store(data), now=FakeClock())
    judge.submit("g", "alice", "BID 2")
    judge.adjudicate("g", force=True)  # bob sent nothing: alice wins round 1, round 2 begins (a new phase)
    out = CliRunner().invoke(main, ["--data", str(data), "--now", NOW, "deliver", "--address", JUDGE])
    assert out.exit_code == 0 and out.output.startswith("2 delivered, 0 failed")
    assert sorted(m["To"] for m in maildir_messages(data / "maildir")) == ["alice@example.org", "bob@example.org"]


def test_the_judges_address_is_stored_with_the_data_so_cron_commands_never_fall_back(tmp_path):
    data = tmp_path / "data"
    game(data)
    runner = CliRunner()
    first = runner.invoke(main, ["--data", str(data), "--now", NOW, "remind", "--address", "Judge@Example.NET",
                                 "--gm", "gm@example.org"])
    assert first.exit_code == 0, first.output
    assert yamlio.load_mapping(data / "judge.yaml") == {"format": 1, "address": "Judge@example.net",
                                                        "gm": "gm@example.org"}
    judge = Judge(Store(data), now=FakeClock())
    judge.submit("g", "alice", "BID 2")
    judge.adjudicate("g", force=True)  # round 1 is over: a new phase, a report to each
    out = runner.invoke(main, ["--data", str(data), "--now", NOW, "deliver"])  # cron: no --address
    assert out.exit_code == 0 and out.output.startswith("2 delivered")
    assert {m["From"].addresses[0].addr_spec for m in maildir_messages(data / "maildir")} == {"Judge@example.net"}
    bad = runner.invoke(main, ["--data", str(data), "deliver", "--gm", "not an address"])
    assert bad.exit_code == 2 and "is not a mail address" in bad.output


def test_a_running_server_is_handed_the_mail_and_answers_it(tmp_path):
    """With `judge serve` running, ingest only journals (durably) and wakes the server, which
    processes and answers the mail; with none, ingest processes it itself."""
    from mailhelp import ServerProcess, wait_for

    data = tmp_path / "data"
    pw = game(data)
    server = ServerProcess(data)
    try:
        done = ingest(data, raw_mail(f"JUDGE g alice {pw['alice']}\nBID 2", message_id="<h1@x.org>"),
                      "--sender", "alice@example.org", "--recipient", JUDGE)
        assert done.returncode == 0 and "handed to the running server" in one_short_line(done)
        [reply] = wait_for(lambda: maildir_messages(data / "maildir"), what="the server's reply")
        assert reply["In-Reply-To"] == "<h1@x.org>" and "ok       BID 2" in text_of(reply)
    finally:
        assert server.stop() == 0
    alone = ingest(data, raw_mail(f"JUDGE g bob {pw['bob']}\nBID 1", message_id="<h2@x.org>"),
                   "--sender", "bob@example.org")
    assert alone.returncode == 0 and "submitted" in one_short_line(alone)
    assert Inbox(data).pending() == []


def test_the_wake_point_reaches_only_a_listening_server(tmp_path):
    from adjudicator.mail.inbox import wake_server

    inbox = Inbox(tmp_path / "data")
    assert wake_server(inbox.root) is False  # nobody listens: ingest processes the mail itself
    point = inbox.wake_point()
    try:
        assert inbox.wake_point() is None  # a second server on the same data gets none
        assert wake_server(inbox.root) is True and point.recv(16) == b"!"
        assert wake_server(Inbox(tmp_path / "other").root) is False  # another data directory's inbox
    finally:
        point.close()
    assert wake_server(inbox.root) is False  # a stopped (or killed) server leaves nothing behind
