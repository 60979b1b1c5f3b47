"""``judge tick``'s group commit (issue 13): the due games' journal entries are synced together,
then their versions are written and synced together: two syncs per tick instead of about ten per
game, and still no version on disk before the entry it follows from is durable."""

from __future__ import annotations

from adjudicator import durability
from adjudicator.judge import Judge
from adjudicator.store import GameFiles, Store

PLAYERS = {"alice": {"address": "alice@example.org"}, "bob": {"address": "bob@example.org"}}


def two_due_games(judge, fake_clock):
    for game in ("g1", "g2"):
        judge.new_game(game, "toy", PLAYERS, seed=7)
    judge.submit("g1", "alice", "BID 3")
    fake_clock.advance(hours=50)  # the 48 h planning deadline and the 1 h grace have passed


def spy(monkeypatch, order):
    real_append, real_write, real_sync = GameFiles.append_journal, GameFiles.write_version, durability.sync
    monkeypatch.setattr(GameFiles, "append_journal", lambda files, entry, sync=True: (
        order.append(("entry", files.id, sync)), real_append(files, entry, sync=sync))[1])
    monkeypatch.setattr(GameFiles, "write_version", lambda files, body, sync=True: (
        order.append(("version", files.id, sync)), real_write(files, body, sync=sync))[1])
    monkeypatch.setattr(durability, "sync", lambda path: (order.append(("sync",)), real_sync(path))[1])


def test_a_tick_syncs_its_entries_together_then_writes_and_syncs_the_versions(judge, fake_clock, monkeypatch):
    two_due_games(judge, fake_clock)
    order = []
    spy(monkeypatch, order)
    ticked = judge.tick()
    assert [game for game, _ in ticked.done] == ["g1", "g2"]
    first_sync = order.index(("sync",))
    assert order[:first_sync] == [("entry", "g1", False), ("entry", "g2", False)]
    versions = order[first_sync + 1:-1]
    assert versions and {step[0] for step in versions} == {"version"} and all(step[2] is False for step in versions)
    assert order[-1] == ("sync",)
    for game, outcome in ticked.done:  # the outcome names the versions written in the second half
        assert outcome.versions and outcome.versions[-1] == judge.present(game).version
        assert judge.replay(game) == []
    order.clear()
    assert judge.tick().done == [] and order == []  # nothing due: no sync at all


def test_versions_a_power_loss_emptied_after_a_tick_are_written_again_from_the_journal(judge, fake_clock, tmp_path):
    two_due_games(judge, fake_clock)
    ticked = dict(judge.tick().done)
    expected = {game: judge.present(game) for game in ("g1", "g2")}
    for game, outcome in ticked.items():  # the second sync never ended: the versions' files are empty
        for number in outcome.versions:
            judge.store.open(game).version_path(number).write_bytes(b"")
    again = Judge(Store(judge.store.root), now=fake_clock)  # the judge started again
    for game, outcome in ticked.items():
        present = again.present(game)
        assert present.problems == [] and present.version == outcome.versions[-1]
        assert present.state == expected[game].state and present.clock == expected[game].clock
        files = again.store.open(game)
        assert files.read_version(outcome.versions[-1])["state"] == present.state  # written again
        assert again.replay(game) == []


def test_a_game_another_process_touched_between_the_two_halves_is_folded_again(judge, fake_clock, monkeypatch):
    two_due_games(judge, fake_clock)
    other = Judge(Store(judge.store.root), now=fake_clock)  # e.g. `judge status` run by the GM meanwhile
    real_sync = durability.sync
    seen = []

    def sync_then_look(path):
        real_sync(path)
        if not seen:
            seen.append(other.present("g1"))  # finds the versions owed, writes them itself

    monkeypatch.setattr(durability, "sync", sync_then_look)
    ticked = dict(judge.tick().done)
    files = judge.store.open("g1")
    assert seen[0].version == files.version_numbers()[-1]  # written once, by the other judge
    assert judge.present("g1").state == seen[0].state and judge.replay("g1") == []
    assert ticked["g2"].versions and judge.replay("g2") == []
