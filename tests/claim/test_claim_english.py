"""The English the claim rulesets write stays exactly what it was before they spoke in keys.

The transcripts in ``tests/claim/expected/`` were written by the code before the conversion to
message keys (issue 11): seeded bot games with 2, 3 and 4 players of both rulesets (summaries,
owed decisions, echoes, errors, notes, events with their audience, the English board and help),
a corpus of refused mails covering every error of the grammar and the submission, and every
rules case's errors, owed decisions and events. The English catalogue must render each of them
unchanged: rules cases (hidden ones too) compare substrings of these texts.
"""

from __future__ import annotations

import difflib

import pytest

import transcript

NAMES = [f"{r}-{n}p-seed{s}.txt" for r, n, s in transcript.GAMES] + ["refusals.txt", "cases.txt"]


def _produce(name: str) -> str:
    if name == "refusals.txt":
        return transcript.refusals()
    if name == "cases.txt":
        return transcript.cases()
    ruleset, players, seed = next(g for g in transcript.GAMES if f"{g[0]}-{g[1]}p-seed{g[2]}.txt" == name)
    return transcript.game(ruleset, players, seed)


@pytest.mark.parametrize("name", NAMES)
def test_the_english_transcript_is_unchanged(name):
    expected = (transcript.EXPECTED / name).read_text(encoding="utf-8")
    produced = _produce(name)
    if produced != expected:
        diff = "".join(list(difflib.unified_diff(expected.splitlines(True), produced.splitlines(True),
                                                 "expected", "produced", n=1))[:80])
        pytest.fail(f"{name} differs from the stored English transcript:\n{diff}")
