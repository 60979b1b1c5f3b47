"""``judge ingest`` (MTA pipe) exit codes and ``judge deliver``."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from adjudicator.cli import main
from adjudicator.judge import Judge
from adjudicator.mail.inbox import Inbox
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


def test_ingest_exit_codes(tmp_path):
    data = tmp_path / "data"
    pw = game(data)
    ok = ingest(data, raw_mail(f"JUDGE g alice {pw['alice']}\nBID 2"), "--sender", "alice@example.org")
    assert ok.returncode == 0, ok.stderr
    [reply] = maildir_messages(data / "maildir")  # delivered right away
    assert reply["To"] == "alice@example.org" and "ok       BID 2" in text_of(reply)
    # a bounce (Postfix passes an empty ${sender}): done, never answered, never bounced again
    assert ingest(data, raw_mail("undeliverable"), "--sender", "").returncode == 0
    # Return-Path from the MTA when no --sender is given
    assert ingest(data, raw_mail("undeliverable", headers={"Return-Path": "<>"})).returncode == 0
    assert len(maildir_messages(data / "maildir")) == 1
    # E1: unusable input with nobody to answer: journaled, EX_DATAERR
    bad = ingest(data, b"From:<@\r\n\r\nx")
    assert bad.returncode == 65 and b"dropped" in bad.stderr and b"Traceback" not in bad.stderr
    assert ingest(data, b"").returncode == 65
    assert Inbox(data).pending() == [] and len(list((data / "inbox" / "done").glob("*.eml"))) == 5


def test_ingest_tempfails_when_the_inbox_cannot_be_written(tmp_path):
    data = tmp_path / "data"
    game(data)
    (data / "inbox").write_text("not a directory")
    done = ingest(data, raw_mail("JUDGE g alice pw"), "--sender", "alice@example.org")
    assert done.returncode == 75 and b"try again later" in done.stderr and b"Traceback" not in done.stderr


def test_ingest_tempfails_on_a_locked_game_and_the_next_run_processes_it_once(tmp_path, monkeypatch):
    data = tmp_path / "data"
    pw = game(data)
    runner = CliRunner()
    args = ["--data", str(data), "--now", NOW, "ingest", "--address", JUDGE, "--sender", "alice@example.org"]
    real = Judge.record

    def locked(self, game_id, entry):
        raise GameLocked(f"game {game_id} is busy (locked by another process); try again")

    monkeypatch.setattr(Judge, "record", locked)
    first = runner.invoke(main, args, input=raw_mail(f"JUDGE g alice {pw['alice']}\nBID 2", message_id="<m1@x.org>"))
    assert first.exit_code == 75 and Inbox(data).pending() == [1]
    monkeypatch.setattr(Judge, "record", real)
    # the MTA retries the same message; the pending copy is processed first, the retry is recognised
    retry = runner.invoke(main, args, input=raw_mail(f"JUDGE g alice {pw['alice']}\nBID 2", message_id="<m1@x.org>"))
    assert retry.exit_code == 0
    assert Inbox(data).meta(2)["result"]["status"] == "duplicate"
    assert len(Store(data).open("g").journal_numbers()) == 1
    assert len(maildir_messages(data / "maildir")) == 1


def test_deliver_reports_gm_adjudications_and_sends_the_outbox(tmp_path):
    data = tmp_path / "data"
    game(data)
    Judge(Store(data), now=FakeClock()).adjudicate("g", force=True)
    out = CliRunner().invoke(main, ["--data", str(data), "--now", NOW, "deliver", "--address", JUDGE])
    assert out.exit_code == 0 and out.output.startswith("2 delivered, 0 failed")
    assert sorted(m["To"] for m in maildir_messages(data / "maildir")) == ["alice@example.org", "bob@example.org"]
