"""``judge ingest``'s hand-over to a running server (``mail/handover.py``): journal, wake, exit,
without importing click or the judge; anything else is left to the full command, stdin unread."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from adjudicator.mail import handover
from adjudicator.mail.inbox import Inbox

from conftest import subprocess_env
from mailhelp import JUDGE, raw_mail

PROBE = """
import json, sys
from adjudicator.mail import handover
code = handover.main(sys.argv[1:])
heavy = sorted(m for m in ("click", "jinja2", "adjudicator.cli", "adjudicator.judge", "adjudicator.store",
                           "adjudicator.mail.process", "networkx") if m in sys.modules)
print(json.dumps({"code": code, "heavy": heavy}))
"""


def run_probe(data, raw: bytes, *args: str) -> tuple[dict, str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], input=raw, env=subprocess_env(data),
                          capture_output=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), done.stderr.decode()


def test_with_a_server_listening_the_mail_is_journaled_and_the_server_woken_with_few_imports(tmp_path):
    data = tmp_path / "data"
    inbox = Inbox(data).ensure()
    point = inbox.wake_point()  # what a running `judge serve` listens on
    try:
        raw = raw_mail("JUDGE g alice pw\nBID 2", message_id="<h1@x.org>")
        result, said = run_probe(data, raw, "ingest", "--address", JUDGE, "--sender", "alice@example.org",
                                 "--recipient", JUDGE)
        assert result == {"code": 0, "heavy": []}
        assert said == "judge: inbox 000001: journaled; handed to the running server\n"
        assert point.recv(16) == b"!"  # woken (the probe before the journal may have woken it too)
    finally:
        point.close()
    reread = Inbox(data)
    [number] = reread.pending()
    stored, meta = reread.read(number)
    assert stored == raw and meta["mail_from"] == "alice@example.org" and meta["via"] == "pipe"


def test_mail_for_another_address_is_refused_by_the_hand_over_as_by_the_full_command(tmp_path):
    data = tmp_path / "data"
    point = Inbox(data).ensure().wake_point()
    try:
        result, said = run_probe(data, raw_mail("hello"), "ingest", "--address", JUDGE, "--recipient",
                                 "someone@example.net")
    finally:
        point.close()
    assert result["code"] == 67 and "no such recipient here (someone@example.net)" in said
    assert Inbox(data).pending() == []


@pytest.mark.parametrize("argv", [
    ["ingest", "--sender", "a@example.org"],  # no server listens: the full command processes the mail
    ["deliver"],  # another command
    ["ingest", "--help"],
    ["ingest", "--unknown", "x"],
    ["ingest", "--address", "not an address"],  # the full command says what is wrong
    ["ingest", "--rate-limit", "0"],
    ["--now", "yesterday", "ingest"],
    ["ingest", "--sender"],  # a value missing
])
def test_anything_else_is_left_to_the_full_command_with_stdin_unread(tmp_path, monkeypatch, argv):
    data = tmp_path / "data"
    Inbox(data).ensure()
    point = None if argv[:3] == ["ingest", "--sender", "a@example.org"] else Inbox(data).wake_point()
    stdin = io.BytesIO(raw_mail("JUDGE g alice pw\nBID 2"))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stdin))
    monkeypatch.setenv("JUDGE_DATA", str(data))
    try:
        assert handover.main(argv) is None
    finally:
        if point is not None:
            point.close()
    assert stdin.tell() == 0 and Inbox(data).pending() == []
