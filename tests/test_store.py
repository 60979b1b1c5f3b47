"""The versioned YAML store: atomic writes, locks, corrupt files, hashed passwords."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from adjudicator import passwords, yamlio
from adjudicator.ruleset import Event
from adjudicator.store import StoreError
from adjudicator.yamlio import YamlFileError

from conftest import subprocess_env


def test_crash_between_temp_write_and_rename_leaves_previous_version_current(judge, toy_game, monkeypatch):
    judge.submit("g", "alice", "BID 1")
    files = judge.store.open("g")

    def crash(src, dst):
        raise OSError("power cut")  # the temp file is written and fsync'ed, the rename never happens

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        judge.submit("g", "bob", "BID 2")  # completes the bids: the journal entry itself cannot be written
    monkeypatch.undo()
    assert files.version_numbers() == [1]
    present = judge.present("g")
    assert present.version == 1 and present.state["bids"] == {"alice": 1}
    assert not [n for n in os.listdir(files.path / "journal") if n.startswith(".tmp-")]


def test_crash_after_journal_before_version_is_recovered_from_the_journal(judge, toy_game, monkeypatch):
    """The submission was journaled, the version write died: the present still holds the submission."""
    judge.submit("g", "alice", "BID 1")
    files = judge.store.open("g")
    real_replace = os.replace

    def crash_on_states(src, dst):
        if "/states/" in str(dst):
            raise OSError("power cut")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", crash_on_states)
    with pytest.raises(OSError):
        judge.submit("g", "bob", "BID 2")
    monkeypatch.undo()
    assert files.version_numbers() == [1]
    present = judge.present("g")  # version 1 + both journal entries, folded
    assert present.state["step"] == "score" or present.state["round"] == 2
    judge.submit("g", "alice", "BID 4")  # the game goes on and writes the versions it owes
    assert judge.replay("g") == []


def test_leftover_temp_files_are_ignored(judge, toy_game):
    files = judge.store.open("g")
    (files.path / "states" / ".tmp-abc123").write_text("half a file")
    assert files.version_numbers() == [1]
    assert judge.present("g").version == 1


def test_two_processes_submitting_at_once_both_land(tmp_path):
    data = tmp_path / "data"
    env = subprocess_env(data)
    players = ["ann", "ben", "cat", "dan"]
    subprocess.run([sys.executable, "-m", "adjudicator", "new", "race", "--ruleset", "toy", "--seed", "1",
                    *[f"--player={p}={p}@example.org" for p in players]], env=env, check=True, capture_output=True)
    procs = [subprocess.Popen([sys.executable, "-m", "adjudicator", "submit", "race", "--as", p, "-"], env=env,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for p in players]
    for i, proc in enumerate(procs):
        proc.stdin.write(f"BID {i + 1}\n".encode())
        proc.stdin.close()
    for proc in procs:
        assert proc.wait(timeout=60) == 0, proc.stderr.read().decode()
    from adjudicator.judge import Judge
    from adjudicator.store import Store

    judge = Judge(Store(data))
    files = judge.store.open("race")
    assert files.journal_numbers() == [1, 2, 3, 4]
    history = [files.read_version(n) for n in files.version_numbers()]
    bids = [t for v in history for t in (Event.from_dict(e).text for e in v["events"]) if t.startswith("Bids:")]
    assert bids == ["Bids: ann 1, ben 2, cat 3, dan 4"]
    assert judge.replay("race") == []


@pytest.mark.parametrize("garbage, line", [
    ("format: 1\nversion: 2\nstate: {a: [1, 2\n", 4),      # truncated mid-flow
    ("format: 1\n  version: 2\n bad: indentation\n", 2),  # hand-broken
    ("\x00\x01binary", None),                            # not text
])
def test_corrupt_state_file_is_named_and_game_stays_usable(judge, toy_game, garbage, line):
    judge.submit("g", "alice", "BID 1")
    judge.submit("g", "bob", "BID 2")  # versions 2 (score) and 3 (round 2)
    files = judge.store.open("g")
    assert files.version_numbers() == [1, 2, 3]
    lost = files.read_version(3)
    files.version_path(3).write_bytes(garbage.encode("latin-1"))
    present = judge.present("g")
    assert "000003.yaml" in present.problems[0]
    if line:
        assert f"line {line}" in present.problems[0]
    # version 2 is the first of the two versions its entry owes: the second is made again from
    # the journal and written as version 4; the broken file is never overwritten
    assert present.version == 4 and present.state == lost["state"]
    assert files.read_version(4)["state"] == lost["state"]
    judge.submit("g", "alice", "BID 5")  # still playable
    assert files.version_numbers()[-1] == 4
    assert files.version_path(3).read_bytes() == garbage.encode("latin-1")


def test_state_file_of_wrong_format_or_shape_is_refused_by_name(judge, toy_game):
    files = judge.store.open("g")
    files.version_path(1).write_text("format: 99\nversion: 1\njournal_seq: 0\nstate: {}\n")
    with pytest.raises(StoreError, match=r"000001.yaml: unsupported format 99"):
        judge.present("g")
    files.version_path(1).write_text("- just\n- a list\n")
    with pytest.raises(StoreError, match=r"000001.yaml: expected a mapping"):
        judge.present("g")


def test_broken_game_yaml_names_the_file(judge, toy_game):
    files = judge.store.open("g")
    (files.path / "game.yaml").write_text("format: 1\nplayers: [unclosed\n")
    with pytest.raises(YamlFileError, match=r"game.yaml line 3"):
        judge.present("g")


def test_yaml_never_builds_python_objects():
    with pytest.raises(YamlFileError):
        yamlio.loads("!!python/object/apply:os.system ['echo pwned']")


def test_passwords_are_stored_only_as_keyed_salted_hashes(judge, toy_game):
    text = (judge.store.open("g").path / "game.yaml").read_text()
    key = judge.store.secret()
    assert (judge.store.root / "secret.key").stat().st_mode & 0o777 == 0o600
    for player, secret in toy_game.items():
        assert secret not in text
        stored = judge.store.open("g").config()["players"][player]["password"]
        assert stored.startswith("hmac-sha256$") and passwords.verify(secret, stored, key)
        assert not passwords.verify(secret + "x", stored, key)
        assert not passwords.verify(secret, stored, b"another data directory's key")
    a, b = passwords.hash_password("same", key), passwords.hash_password("same", key)
    assert a != b  # salted


def test_games_made_before_keep_their_scrypt_hashes():
    stored = "scrypt$16384$8$1$00112233445566778899aabbccddeeff$" + __import__("hashlib").scrypt(
        b"oak-pine-042", salt=bytes.fromhex("00112233445566778899aabbccddeeff"), n=16384, r=8, p=1, dklen=32).hex()
    assert passwords.verify("oak-pine-042", stored, b"any key") and not passwords.verify("oak-pine-043", stored, b"k")


def test_every_file_carries_its_format_and_the_game_its_data_version(judge, toy_game):
    judge.submit("g", "alice", "BID 1")
    files = judge.store.open("g")
    assert files.config()["format"] == 1 and files.config()["data_version"] == "toy-1"
    assert files.read_version(1)["format"] == 1 and files.read_journal(1)["format"] == 1


def test_bad_game_ids_and_missing_games_are_refused(judge):
    with pytest.raises(StoreError, match="bad game id"):
        judge.store.open("../etc")
    with pytest.raises(StoreError, match="no game 'nope'"):
        judge.store.open("nope")


def test_the_journal_index_answers_as_the_journal_whatever_happened_to_it(judge, toy_game):
    """``journal.index`` (which mail each entry recorded) is a cache kept by each process: lines
    another process appended are read, a torn or misnumbered index is rebuilt from the journal."""
    from adjudicator.store import Store

    files = judge.store.open("g")
    for n in range(1, 4):
        files.append_journal({"kind": "submit", "player": "alice", "text": "", "inbox_id": "i", "inbox": n,
                              "message_id": f"<m{n}@x>", "from": "alice@example.org", "at": "2026-11-21T12:00:00Z"})
    assert files.find_mail(3, inbox_id="i", number=2, message_id=None, sender=None) == (2, True)
    other = Store(judge.store.root).open("g")  # another process appends one entry
    other.append_journal({"kind": "submit", "player": "bob", "text": "", "inbox_id": "i", "inbox": 4,
                          "message_id": "<m4@x>", "from": "bob@example.org", "at": "2026-11-21T12:00:00Z"})
    assert files.find_mail(4, inbox_id="j", number=9, message_id="<m4@x>", sender="bob@example.org") == (4, False)
    index = files.path / "journal.index"
    whole = index.read_text()
    for damage in (whole[:-9], whole.replace("\n3\t", "\n7\t"), whole + "5\tsubmit\n"):
        index.write_text(damage)
        assert [row[:4] for row in files.journal_index(4)] == [(n, "submit", "i", n) for n in range(1, 5)]
        assert index.read_text() == whole  # rebuilt
    assert files.find_mail(4, inbox_id="i", number=5, message_id="<m5@x>", sender="bob@example.org") is None
