"""Shared fixtures: a fake clock, a judge on a temporary store, the toy ruleset, the CLI."""

from __future__ import annotations

import os
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import settings

from adjudicator.judge import Judge
from adjudicator.store import Store

TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS))
import toyrules  # noqa: E402,F401  (registers the toy ruleset)

START = datetime(2026, 11, 21, 12, 0, tzinfo=timezone.utc)

# No timed assertions (speed goes in bench/): hypothesis's 200 ms deadline per example failed the property
# tests on the loaded shared machine (tests/agot1e/test_grammar.py, 253 ms), with nothing wrong in the code.
settings.register_profile("no-deadline", deadline=None)
settings.load_profile("no-deadline")


class FakeClock:
    """The judge's clock, moved by hand."""

    def __init__(self, start: datetime = START):
        self.moment = start

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, **kwargs) -> datetime:
        self.moment += timedelta(**kwargs)
        return self.moment


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path / "data")


@pytest.fixture
def judge(store, fake_clock) -> Judge:
    return Judge(store, now=fake_clock)


@pytest.fixture
def toy_game(judge):
    """A two-player toy game, ``g``, with 48h/24h/1h deadlines; returns the passwords."""
    return judge.new_game("g", "toy", {"alice": {"address": "alice@example.org"}, "bob": {"address": "bob@example.org"}},
                          seed=7)


@pytest.fixture
def cli(tmp_path):
    """Run ``judge`` in-process against ``tmp_path/data``; ``now`` sets the clock."""
    runner = CliRunner()

    def run(*args: str, input: str | None = None, now: str = "2026-11-21T12:00:00Z"):
        return runner.invoke(__import__("adjudicator.cli").cli.main,
                             ["--data", str(tmp_path / "data"), "--now", now, *args], input=input, catch_exceptions=False)

    return run


def subprocess_env(data_dir: Path, now: datetime = START) -> dict:
    """Environment for running ``judge`` as a real process with the toy ruleset.

    The process runs on the tests' clock (``JUDGE_NOW``, default :data:`START`, the fake clock's
    start) so that a game made with :class:`FakeClock` and a real process agree on the time, and
    nothing in a test depends on today's date or on how fast the machine runs it."""
    env = dict(os.environ, JUDGE_DATA=str(data_dir), JUDGE_RULESETS="toyrules",
               JUDGE_NOW=now.strftime("%Y-%m-%dT%H:%M:%SZ"))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS), env.get("PYTHONPATH")]))
    return env
