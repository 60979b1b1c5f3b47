"""The deadline index (adjudicator/deadlineindex.py): `judge tick` opens only the games whose
deadline has come, the index is rebuilt from the games whenever it cannot be trusted, and no
crash makes it late (a game may be looked at needlessly, never passed over)."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import crashharness as harness
from adjudicator import deadlineindex
from adjudicator.judge import Judge
from adjudicator.store import Store

PLAYERS = {"alice": {"address": "alice@example.org"}, "bob": {"address": "bob@example.org"}}


def settled(data: Path) -> None:
    """The data directory's folder time an hour back, as a quiet directory's is (a stamp younger
    than two seconds is not trusted: the next tick would check every game)."""
    when = time.time() - 3600
    os.utime(data, (when, when))
    Judge(Store(data)).overview()  # the full check records the settled stamp


def opened_by_tick(judge: Judge, monkeypatch) -> tuple[list[str], object]:
    opened: list[str] = []
    original = judge.present

    def present(game_id, **kwargs):
        opened.append(game_id)
        return original(game_id, **kwargs)

    monkeypatch.setattr(judge, "present", present)
    return opened, judge.tick()


def test_tick_opens_only_the_games_whose_deadline_has_come(judge, fake_clock, monkeypatch):
    for name in ("a", "b", "c"):
        judge.new_game(name, "toy", PLAYERS)
    fake_clock.advance(hours=12)
    judge.new_game("late", "toy", PLAYERS)
    settled(judge.store.root)
    fake_clock.advance(hours=37)  # a, b and c are past deadline and grace; "late" is not
    opened, tick = opened_by_tick(judge, monkeypatch)
    assert sorted(game for game, _ in tick.done) == ["a", "b", "c"]
    assert "late" not in opened
    entries = judge.deadlines.read()[0]
    assert entries["a"] > entries["late"]  # the adjudicated games' next deadlines are in


def test_a_missing_or_torn_index_is_rebuilt_from_the_games(judge, fake_clock):
    judge.new_game("a", "toy", PLAYERS)
    settled(judge.store.root)
    index = judge.deadlines.path
    for damage in (lambda: index.unlink(), lambda: index.write_text("garbage\x00\n a\n")):
        damage()
        assert judge.deadlines.due("2100-01-01T00:00:00Z") is None  # not trusted
        fake_clock.advance(days=3)
        assert [game for game, _ in judge.tick().done] == ["a"]


def test_a_game_folder_added_by_hand_is_found(judge, fake_clock, tmp_path):
    judge.new_game("a", "toy", PLAYERS)
    settled(judge.store.root)
    fake_clock.advance(hours=1)
    assert judge.tick().done == []
    shutil.copytree(judge.store.root / "a", judge.store.root / "copied")  # a restored backup, say
    fake_clock.advance(days=3)
    assert sorted(game for game, _ in judge.tick().done) == ["a", "copied"]


def test_an_early_entry_is_corrected_by_the_tick_that_opens_the_game(judge, fake_clock, monkeypatch):
    judge.new_game("a", "toy", PLAYERS)
    settled(judge.store.root)
    with judge.store.open("a").lock():
        judge.deadlines.set("a", "2000-01-01T00:00:00Z")  # as a crash between two writes could leave it
    opened, tick = opened_by_tick(judge, monkeypatch)
    assert opened and tick.done == []  # looked at needlessly, once
    assert judge.deadlines.read()[0]["a"] == judge.present("a").index_due()
    opened, _ = opened_by_tick(judge, monkeypatch)
    assert opened == []


def test_a_long_log_is_compacted_to_one_line_per_game(judge, fake_clock):
    judge.new_game("a", "toy", PLAYERS)
    settled(judge.store.root)
    due = judge.deadlines.read()[0]["a"]
    with judge.store.open("a").lock():
        for _ in range(deadlineindex.COMPACT_SLACK + 10):
            judge.deadlines.set("a", due)
    judge.tick()
    assert judge.deadlines.path.read_text().splitlines()[1:] == [f"a {due}"]


def test_a_kill_at_each_line_of_a_deadline_brought_earlier_loses_no_deadline(tmp_path):
    """Baratheon's orders complete the planning step an hour after the start: the next step's
    deadline (24 h) comes before the planning's (48 h), so the index line goes before the entry."""
    prepared = tmp_path / "prepared" / "data"
    context = harness.prepare_two_sent(prepared)
    early = "2030-01-01T01:00:00Z"
    probe, trace = tmp_path / "probe" / "data", tmp_path / "trace"
    shutil.copytree(prepared, probe)
    orders = tmp_path / "orders.txt"
    orders.write_text(context["orders"])
    submit = ("submit", harness.GAME, "--as", "baratheon", str(orders))
    before = Judge(Store(probe)).present(harness.GAME).index_due()
    assert harness.Judging(probe, now=early, trace=trace)(*submit).code == 0
    after = Judge(Store(probe)).present(harness.GAME).index_due()
    assert after < before  # brought earlier, as this test means
    points = [int(line.split()[0]) for line in trace.read_text().splitlines() if "deadline index" in line]
    assert points
    for point in points + [points[-1] + 1]:  # each index line, and the entry's first write after them
        data = tmp_path / f"crash-{point}" / "data"
        shutil.copytree(prepared, data)
        assert harness.Judging(data, now=early, crash_at=point)(*submit).code == -9
        assert harness.deadline_index_late(data) == []
        # the GM repeats the submission if it did not reach the journal; the deadline then works
        if not harness._journal_has(data, player="baratheon"):
            assert harness.Judging(data, now=early)(*submit).code == 0
        assert harness.deadline_index_late(data) == []
        assert harness.Judging(data, now="2030-01-02T03:00:00Z")("tick").out.strip() != "No game is due."
