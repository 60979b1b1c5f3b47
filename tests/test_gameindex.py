"""The glance caches (adjudicator/gameindex.py): `tick`, `judge list` and the report sweep open
only the games whose files changed, and never serve a stale glance.

Files written by a test are seconds old at most, and a stamp younger than ``RACY_NS`` is not
trusted (derived again every time); ``age`` sets a game's files an hour back, as a quiet game's
are, so that the cached path is the one taken.
"""

from __future__ import annotations

import os
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest

from adjudicator import clock, gameindex
from adjudicator.judge import Judge

sys.path.insert(0, str(Path(__file__).resolve().parent / "mail"))
from mailhelp import make_desk  # noqa: E402

PLAYERS = {"alice": {"address": "alice@example.org"}, "bob": {"address": "bob@example.org"}}


def age(data: Path, game: str, seconds: int = 3600) -> None:
    """Every file and folder of ``game`` ``seconds`` older (a game nobody touched for that long)."""
    when = time.time() - seconds
    for root, dirs, files in os.walk(data / game):
        for name in dirs + files:
            os.utime(Path(root) / name, (when, when))


def counting(monkeypatch, obj, name: str) -> list:
    calls: list = []
    original = getattr(obj, name)

    def wrapper(*args, **kwargs):
        calls.append(args[0] if args else None)
        return original(*args, **kwargs)

    monkeypatch.setattr(obj, name, wrapper)
    return calls


@pytest.fixture
def games(judge, fake_clock):
    """Five toy games; game ``d`` has a deadline 24 h earlier than the others."""
    for game in "abcde":
        if game == "d":
            fake_clock.advance(hours=-24)
        judge.new_game(game, "toy", PLAYERS, seed=1)
        if game == "d":
            fake_clock.advance(hours=24)
    for game in "abcde":
        age(judge.store.root, game)
    return judge


def test_a_quiet_game_is_glanced_at_from_the_cache(games, monkeypatch):
    first = games.overview()
    assert sorted(first) == list("abcde") and first["a"]["version"] == 1 and first["a"]["ruleset"] == "toy"
    derived = counting(monkeypatch, games, "_glance")
    again = Judge(games.store, now=games.now)  # another process: reads the cache file
    monkeypatch.setattr(again, "_glance", lambda game: pytest.fail(f"{game} derived again"))
    assert again.overview() == first
    assert games.overview() == first and derived == []


def test_a_change_by_any_process_renews_that_game_alone(games, monkeypatch):
    games.overview()
    other = Judge(games.store, now=games.now)
    other.submit("b", "alice", "BID 3")
    other.submit("b", "bob", "BID 1")  # a new version of b, written by "another process"
    derived = counting(monkeypatch, games, "_glance")
    glance = games.overview()
    assert derived == ["b"] and glance["b"]["version"] == 3
    # just changed: its stamp is too young to be trusted, so it is derived again until it is not
    assert games.overview()["b"]["version"] == 3 and derived == ["b", "b"]
    age(games.store.root, "b")
    games.overview()
    games.overview()
    assert derived == ["b", "b", "b"]


def test_a_pause_and_a_hand_repaired_game_yaml_are_seen(games):
    assert games.overview()["c"]["paused"] is False
    games.pause("c")
    assert games.overview()["c"]["paused"] is True and games.overview()["c"]["due_at"] is None
    before = games.overview()["a"]["due_at"]
    config = games.store.root / "a" / "game.yaml"
    config.write_text(config.read_text().replace("grace: 1h", "grace: 5h"))  # the GM edits it by hand
    age(games.store.root, "a", 3000)  # even set back to a time in the past, the stamp differs
    after = games.overview()["a"]["due_at"]
    assert clock.from_text(after) - clock.from_text(before) == timedelta(hours=4)


def test_tick_opens_only_the_due_games(games, fake_clock, monkeypatch):
    games.overview()
    fake_clock.advance(hours=48)  # past d's deadline (and grace), not the others'
    opened = counting(monkeypatch, games, "present")
    ticked = games.tick()
    assert [game for game, _ in ticked.done] == ["d"]
    assert set(opened) == {"d"}


def test_a_lost_or_torn_cache_is_rebuilt(games):
    first = games.overview()
    (games.store.root / "cache" / "gameindex.json").write_bytes(b'{"format": 1, "games": {"a": [tr')
    assert Judge(games.store, now=games.now).overview() == first
    (games.store.root / "cache" / "gameindex.json").unlink()
    assert Judge(games.store, now=games.now).overview() == first


def test_a_broken_game_is_shown_broken_until_mended_and_tick_flags_it(games, fake_clock):
    state = games.store.root / "e" / "states" / "000001.yaml"
    good = state.read_bytes()
    state.chmod(0)
    if os.access(state, os.R_OK):  # root reads anything: break it another way
        state.chmod(0o644)
        state.write_bytes(b"format: 1\nstate: [unclosed\n")
    glance = games.overview()["e"]
    assert "broken" in glance and "000001.yaml" in glance["broken"]
    assert [game for game, _ in games.tick().failed] == ["e"]
    state.chmod(0o644)
    state.write_bytes(good)
    age(games.store.root, "e")
    assert games.overview()["e"]["version"] == 1  # a broken glance is never trusted: derived again


def test_stamps_younger_than_the_racy_window_are_not_trusted(tmp_path):
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "game.yaml").write_text("x")
    assert gameindex.stamp(str(tmp_path / "g"), ("game.yaml",)) is None
    old = time.time() - 10
    os.utime(tmp_path / "g" / "game.yaml", (old, old))
    st = os.stat(tmp_path / "g" / "game.yaml")
    assert gameindex.stamp(str(tmp_path / "g"), ("game.yaml", "flag.yaml")) == [
        [st.st_mtime_ns, st.st_size, st.st_ino], None]


def test_the_report_sweep_skips_quiet_games_and_sees_a_gm_action(tmp_path, monkeypatch):
    desk = make_desk(tmp_path)
    desk.postmaster.sweep()
    age(desk.data, "g")
    desk.postmaster.sweep()  # the stamp taken now is old enough to be kept
    told = counting(monkeypatch, desk.postmaster, "_tell_game")
    assert desk.postmaster.sweep() == [] and told == []
    desk.judge.extend("g", "2h")  # the GM, from the command line
    queued = desk.postmaster.sweep()
    assert len(told) == 1 and [n for n in queued if "notice" in n or "extend" in n]


def test_the_present_cache_sees_a_change_made_within_one_tick_of_the_file_system_clock(games):
    """A second change within a few milliseconds keeps a folder's time; the present cache still
    sees it (the next numbered file is part of its stamp)."""
    data = games.store.root
    assert games.present("a").journal_seq == 0  # cached now
    times = {name: os.stat(data / "a" / name).st_mtime_ns for name in ("states", "journal")}
    Judge(games.store, now=games.now).submit("a", "alice", "BID 3")  # another process
    for name, ns in times.items():  # as if within the same tick: the folders' times unchanged
        os.utime(data / "a" / name, ns=(ns, ns))
    assert games.present("a").journal_seq == 1 and games.present("a").state["bids"] == {"alice": 3}


def test_a_sweep_that_told_a_quiet_game_does_not_open_it_again(tmp_path, monkeypatch):
    desk = make_desk(tmp_path)
    desk.judge.extend("g", "2h")  # news for the players: a notice
    age(desk.data, "g")
    told = counting(monkeypatch, desk.postmaster, "_tell_game")
    assert [n for n in desk.postmaster.sweep() if "notice" in n or "extend" in n]
    assert desk.postmaster.sweep() == [] and len(told) == 1  # its own mail.yaml did not count as news
