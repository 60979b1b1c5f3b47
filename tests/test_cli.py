"""Every GM command: its normal path and its error on bad arguments (exit 2) or bad requests (exit 1)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import subprocess_env

NEW = ["new", "g", "--ruleset", "toy", "--player", "alice=alice@example.org", "--player", "bob=bob@example.org:cs",
       "--seed", "5"]


@pytest.fixture
def game(cli):
    result = cli(*NEW)
    assert result.exit_code == 0, result.output
    return result


def test_new_prints_each_password_once_and_stores_only_hashes(game, tmp_path):
    passwords = re.findall(r"^\s+(alice|bob)\s+\S+\s+(\S+)$", game.output, re.M)
    assert [p for p, _ in passwords] == ["alice", "bob"]
    config = (tmp_path / "data" / "g" / "game.yaml").read_text()
    assert all(secret not in config for _, secret in passwords)
    assert "language: cs" in config and "bob@example.org\n" in config


@pytest.mark.parametrize("args, message", [
    (["new", "g", "--ruleset", "toy", "--player", "alice"], "is not NAME=ADDRESS"),
    (["new", "g", "--ruleset", "toy", "--player", "a=a@x.org", "--deadline", "soon"], "not a duration"),
    (["new", "g", "--ruleset", "toy", "--player", "a=a@x.org", "--option", "rounds"], "is not KEY=VALUE"),
    (["new", "g", "--ruleset", "toy", "--player", "a=a@x.org", "--player", "a=b@x.org"], "given twice"),
    (["new", "g", "--player", "a=a@x.org"], "Missing option '--ruleset'"),
    (["--now", "yesterday", "list"], "is not an ISO time"),
])
def test_new_bad_arguments(cli, args, message):
    result = cli(*args)
    assert result.exit_code == 2 and message in result.output


@pytest.mark.parametrize("args, message", [
    (["new", "g", "--ruleset", "chess", "--player", "a=a@x.org"], "unknown ruleset 'chess'"),
    (["new", "Bad/Id", "--ruleset", "toy", "--player", "a=a@x.org", "--player", "b=b@x.org"], "bad game id"),
    (["new", "g", "--ruleset", "toy", "--player", "a=a@x.org"], "toy needs at least two players"),
])
def test_new_refused(cli, args, message):
    result = cli(*args)
    assert result.exit_code == 1 and message in result.output


def test_new_refuses_an_existing_game(cli, game):
    assert "already exists" in cli(*NEW).output


def test_list_and_status(cli, game):
    assert re.search(r"^g\s+toy\s+v1\s+round 1, bid; due 2026-11-23T12:00:00Z", cli("list").output, re.M)
    out = cli("status", "g").output
    assert "Deadline: Mon 23 Nov 2026 12:00 UTC (in 2 days)" in out and "alice: bid (missing)" in out
    assert cli("status", "nope").exit_code == 1


def test_list_without_games(cli):
    assert "No games in" in cli("list").output


def test_submit_from_stdin_and_file_prints_the_reply(cli, game, tmp_path):
    result = cli("submit", "g", "--as", "alice", input="JUDGE g alice whatever\nBID 3\n")
    assert result.exit_code == 0
    assert "1  ok       BID 3" in result.output and "On file for alice:\n  BID 3" in result.output
    mail = tmp_path / "bob.txt"
    mail.write_text("BID 4  # more\n")
    result = cli("submit", "g", "--as", "bob", str(mail))
    assert "Vyhodnoceno:\n" in result.output  # the reply is in the player's language (bob reads Czech) ...
    result = cli("rollback", "g", "--to", "1")
    result = cli("submit", "g", "--as", "alice", input="BID 3\n")
    result = cli("submit", "g", "--as", "bob", "--language", "en", str(mail))  # ... or the one asked for
    assert "Adjudicated:\n  Bids: alice 3, bob 4\n  bob wins round 1" in result.output


def test_submit_rejections_and_bad_arguments(cli, game, tmp_path):
    result = cli("submit", "g", "--as", "alice", input="BID x\n")
    assert result.exit_code == 1
    assert "REJECTED BID x" in result.output and "example: BID 3" in result.output
    assert "Nothing was changed" in result.output
    assert cli("submit", "g", "--as", "carol", input="BID 1").exit_code == 1
    assert cli("submit", "g", input="BID 1").exit_code == 2  # --as missing
    assert "no file" in cli("submit", "g", "--as", "alice", str(tmp_path / "none.txt")).output
    binary = tmp_path / "bin"
    binary.write_bytes(b"\x89PNG\x00\x00\xff")
    result = cli("submit", "g", "--as", "alice", str(binary))
    assert result.exit_code == 2 and "not UTF-8 text" in result.output


def test_show_as_gm_as_player_by_version_and_as_yaml(cli, game):
    cli("submit", "g", "--as", "alice", input="BID 3\n")
    assert "alice: 3" in cli("show", "g").output
    as_bob = cli("show", "g", "--as", "bob").output
    assert "alice: 3" not in as_bob  # a secret bid stays secret
    assert "bids: {}" in cli("show", "g", "--as", "bob", "--format", "yaml").output
    cli("submit", "g", "--as", "bob", input="BID 1\n")
    assert "round: 1" in cli("show", "g", "--version", "1", "--format", "yaml").output
    assert cli("show", "g", "--version", "99").exit_code == 1
    assert cli("show", "g", "--as", "carol").exit_code == 2
    assert cli("show", "g", "--format", "pdf").exit_code == 2


def test_show_works_from_the_last_good_version_when_the_newest_is_corrupt(cli, game, tmp_path):
    cli("submit", "g", "--as", "alice", input="BID 3\n")
    cli("submit", "g", "--as", "bob", input="BID 1\n")
    (tmp_path / "data" / "g" / "states" / "000003.yaml").write_text("format: 1\nstate: [\n")
    result = cli("show", "g")
    assert result.exit_code == 0
    assert "000003.yaml line 3" in result.output  # the warning names the file and line
    # version 2 is the first of two its entry owes: the second is made again from the journal
    assert "step: bid" in result.output and "round: 2" in result.output
    assert "version 4" in cli("status", "g").output


def test_adjudicate_and_force(cli, game):
    result = cli("adjudicate", "g")
    assert result.exit_code == 1 and "still waits for alice: bid; bob: bid" in result.output
    result = cli("adjudicate", "g", "--force")
    assert result.exit_code == 0 and "alice sent no bid; default: 0" in result.output
    assert cli("adjudicate").exit_code == 2


def test_tick(cli, game):
    assert "No game is due." in cli("tick").output
    out = cli("tick", now="2026-11-23T13:00:00Z").output
    assert "g: new version(s) 2" in out
    assert cli("tick", "extra").exit_code == 2


def test_history_and_rollback(cli, game):
    cli("submit", "g", "--as", "alice", input="BID 3\n")
    cli("submit", "g", "--as", "bob", input="BID 1\n")
    assert "g: new version(s) 4" in cli("rollback", "g", "--to", "1").output
    lines = cli("history", "g").output.splitlines()
    assert [line.split()[0] for line in lines] == ["v1", "v2", "v3", "v4"]
    assert "rolled the game back to version 1" in lines[3]
    assert cli("rollback", "g", "--to", "x").exit_code == 2
    assert cli("rollback", "g").exit_code == 2


def test_pause_resume_extend(cli, game):
    assert "g paused." in cli("pause", "g", now="2026-11-22T12:00:00Z").output
    assert cli("pause", "g").exit_code == 1
    assert "resumed; deadline 2026-11-25T12:00:00Z" in cli("resume", "g", now="2026-11-24T12:00:00Z").output
    assert "deadline 2026-11-26T00:00:00Z" in cli("extend", "g", "12h").output
    assert cli("extend", "g", "forever").exit_code == 2
    assert cli("resume", "g").exit_code == 1


def test_replace(cli, game):
    out = cli("replace", "g", "bob", "robert@example.org").output
    assert "bob is now played from robert@example.org; new password:" in out
    assert cli("replace", "g", "bob").exit_code == 2
    assert cli("replace", "g", "zed", "z@x.org").exit_code == 1


def test_replay(cli, game, tmp_path):
    cli("submit", "g", "--as", "alice", input="BID 3\n")
    cli("submit", "g", "--as", "bob", input="BID 1\n")
    assert cli("replay", "g").exit_code == 0
    path = tmp_path / "data" / "g" / "states" / "000003.yaml"
    path.write_text(path.read_text().replace("bob: 0", "bob: 5"))
    result = cli("replay", "g")
    assert result.exit_code == 1 and "version 3: state differs" in result.output


def test_case(cli, tmp_path):
    cases = Path(__file__).parent / "toycases"
    result = cli("case", str(cases))
    assert result.exit_code == 0 and "PASS A tie is broken" in result.output and "2 passed, 0 failed" in result.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: toy\ntitle: t\nposition: {players: [a]}\n")
    result = cli("case", str(bad))
    assert result.exit_code == 1 and "FAIL t" in result.output
    assert cli("case", str(tmp_path / "missing.yaml")).exit_code == 2


def test_a_case_position_key_the_ruleset_does_not_read_is_named_beside_the_result(cli, tmp_path):
    """A typo (``ordrs``) leaves a case testing the setup's orders instead of its own: said on stderr,
    with the key meant; the case runs as before (its result and the stdout lines are CASES.md's)."""
    case = tmp_path / "typo.yaml"
    case.write_text("""ruleset: agot1e
title: a typo in the position
position:
  players: [stark, lannister, baratheon]
  round: 2
  ordrs: {Winterfell: march +1}
  suply: {stark: 2}
expect:
  winner: null
""")
    result = cli("case", str(case))
    assert result.exit_code == 0 and result.stdout == "PASS a typo in the position\n1 passed, 0 failed\n"
    assert result.stderr.splitlines() == [
        f"warning: {case}: position key 'ordrs' is not one agot1e reads, so it is ignored (did you mean 'orders'?)",
        f"warning: {case}: position key 'suply' is not one agot1e reads, so it is ignored (did you mean 'supply'?)"]


@pytest.mark.parametrize("command", ["new", "list", "status", "show", "submit", "adjudicate", "tick", "history",
                                     "rollback", "pause", "resume", "extend", "replace", "replay", "case"])
def test_every_command_has_help(cli, command):
    result = cli(command, "--help")
    assert result.exit_code == 0 and "Usage:" in result.output


def test_the_installed_command_runs_and_reports_errors_without_a_traceback(tmp_path):
    env = subprocess_env(tmp_path / "data")
    done = subprocess.run([sys.executable, "-m", "adjudicator", "status", "nope"], env=env, capture_output=True, text=True)
    assert done.returncode == 1 and "Error: no game 'nope'" in done.stderr and "Traceback" not in done.stderr


def test_status_of_a_game_over_without_a_single_winner(cli):
    cli("new", "d", "--ruleset", "toy", "--player", "ann=a@example.org", "--player", "ben=b@example.org")
    for ann, ben in (("BID 2", "BID 1"), ("BID 0", "BID 3")):  # one round each: a draw after two rounds
        cli("submit", "d", "--as", "ann", input=ann)
        cli("submit", "d", "--as", "ben", input=ben)
    out = cli("status", "d").output
    assert "The game is over: no single winner (a draw or a shared victory, as above)." in out
