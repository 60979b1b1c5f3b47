"""`judge selfplay`: bots play whole games; invariant violations stop the run with seed and step."""

from __future__ import annotations

import pytest

from adjudicator import selfplay as sp
from adjudicator.judge import Judge
from adjudicator.store import Store

from conftest import FakeClock
from toyrules import TOY


def test_engine_games_are_played_to_the_end_and_summarised(cli):
    result = cli("selfplay", "--ruleset", "toy", "--houses", "3", "--games", "4", "--seed", "7")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split(":")[0] for line in lines] == [f"game {i} seed {6 + i}" for i in range(1, 5)]
    assert all("2 rounds" in line for line in lines)


def test_a_violation_stops_the_run_with_its_seed_and_step(monkeypatch):
    played = sp.play(TOY, ["ann", "ben"], 3, options={"bug": "0"})
    assert TOY.result(played.state) is not None
    with pytest.raises(sp.InvariantViolation, match=r"seed 3, step \d+ \(round 3, bid\): scores do not add up"):
        sp.play(TOY, ["ann", "ben"], 3, options={"bug": "1"})


def test_the_cli_exits_1_on_a_violation(cli, monkeypatch):
    real = TOY.new_game
    monkeypatch.setattr(TOY, "new_game", lambda players, options, seed: real(players, {"bug": "1"}, seed))
    result = cli("selfplay", "--ruleset", "toy", "--houses", "2", "--seed", "4")
    assert result.exit_code == 1 and "VIOLATION in game 1: seed 4, step" in result.output


def test_stored_games_replay_from_their_journals(tmp_path):
    clock = FakeClock()
    judge = Judge(Store(tmp_path, fsync=False), now=clock)
    played = sp.play_stored(judge, "bots", "toy", ["ann", "ben", "cat"], 11, tick=lambda d: clock.advance(seconds=d.total_seconds()))
    assert TOY.result(played.state) is not None and played.rejected == []
    assert judge.replay("bots") == []


def test_selfplay_needs_bots_and_a_player_count(cli):
    assert cli("selfplay", "--ruleset", "toy", "--houses", "0").exit_code == 2
    assert cli("selfplay", "--houses", "3").exit_code == 2
