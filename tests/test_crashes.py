"""kill -9 at injected crash points: the game never freezes, nothing is lost or applied twice.

The whole campaign (every crash point of every scenario) is ``python tests/crashharness.py``;
here, the issue's own reproduction and a seeded slice of the campaign.
"""

from __future__ import annotations

import pytest

import crashharness as harness
from adjudicator.judge import Judge
from adjudicator.store import Store


def test_a_kill_between_two_versions_of_one_adjudication_never_freezes_the_game(tmp_path):
    data = tmp_path / "data"
    harness.prepare_fresh(data)
    judge = harness.Judging(data)
    trace = tmp_path / "trace"
    # where the tick would write version 4: the crash point before it
    traced = harness.Judging(tmp_path / "probe" / "data", trace=trace)
    harness.prepare_fresh(traced.data)
    assert traced("tick").code == 0
    point = next(int(line.split()[0]) for line in trace.read_text().splitlines() if line.endswith("before writing 000004.yaml"))

    assert harness.Judging(data, crash_at=point)("tick").code == -9
    files = Store(data).open(harness.GAME)
    assert files.version_numbers() == [1, 2, 3]  # version 3 is the consolidate step: it owes nobody

    status = judge("status", harness.GAME)
    assert status.code == 0 and "round 2, planning" in status.out  # the owed versions are written
    assert files.version_numbers() == [1, 2, 3, 4, 5]
    assert judge("tick").out.strip() == "No game is due."
    assert judge("replay", harness.GAME).code == 0
    # the game goes on: a mail is taken, a forced adjudication makes versions, deadlines work
    present = Judge(Store(data)).present(harness.GAME)
    orders = present.ruleset.bot_mail(present.state, "stark", __import__("random").Random(1))
    (tmp_path / "orders.txt").write_text(orders)
    assert judge("submit", harness.GAME, "--as", "stark", str(tmp_path / "orders.txt")).code == 0
    assert "new version(s) 6" in judge("adjudicate", harness.GAME, "--force").out
    assert "new version(s)" in harness.Judging(data, now="2030-01-06T00:00:00Z")("tick").out
    assert judge("replay", harness.GAME).code == 0


@pytest.mark.parametrize("scenario", harness.SCENARIOS, ids=lambda s: s.name)
def test_a_seeded_slice_of_the_kill_9_campaign(scenario, tmp_path):
    report = harness.run_scenario(scenario, tmp_path, sample=2, seed=20261123)
    assert report.points > 0 and len(report.tried) == min(2, report.points)
    assert report.failures == []


@pytest.mark.parametrize("name", ["tick", "ingest"])
def test_a_kill_at_each_group_sync_loses_nothing(name, tmp_path):
    """The group commits (a tick's two syncs, a mail batch's one): killed just before each."""
    scenario = next(s for s in harness.SCENARIOS if s.name == name)
    report = harness.run_scenario(scenario, tmp_path, sample=0, always_labelled="sync")
    assert len(report.tried) == {"tick": 2, "ingest": 1}[name]
    assert report.failures == []
