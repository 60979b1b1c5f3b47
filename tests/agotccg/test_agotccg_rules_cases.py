"""Every agotccg rules case under tests/cases/agotccg (format: shared/CASES.md), one test each."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.cases import run_case

CASES = sorted((Path(__file__).parent.parent / "cases" / "agotccg").glob("*.yaml"))


def test_the_suite_covers_every_phase_keyword_claim_and_decision():
    names = {p.stem for p in CASES}
    for prefix in ("setup-", "plot-", "draw-", "marshal-", "challenge", "dominance-", "standing-", "win-",
                   "keyword-limited", "keyword-renown", "keyword-stealth", "keyword-no-attachments",
                   "claim-military", "claim-intrigue", "claim-power", "duplicate-", "unique-", "melee-", "ahead-"):
        assert any(n.startswith(prefix) for n in names), prefix
    wanted = [
        "setup-five-gold-limit", "setup-one-limited", "setup-mulligan-redraws-seven", "setup-mulligan-only-once",
        "setup-no-two-copies-of-a-unique", "setup-out-of-house-costs-two-more",
        "plot-initiative-tie-fewer-power", "plot-initiative-tie-random",  # initiative ties
        "challenge-tie-goes-to-the-attacker", "challenge-zero-strength-nobody-wins",  # challenge ties
        "dominance-tie-nobody", "melee-dominance-tie-for-the-highest",  # dominance ties
        "claim-power-more-than-house-power", "claim-intrigue-larger-than-hand",  # decisions 1-3
        "claim-military-more-than-characters", "plot-last-plot-returns-the-others",  # decisions 3-4
        "melee-challenge-any-opponent", "melee-turn-order-clockwise-from-first",  # decision 5
        "keyword-stealth-default-strongest", "keyword-stealth-not-on-a-stealth-character",  # decision 9
        "challenge-defender-wins",  # decision 10 (Renown of defenders)
        "win-at-fifteen-immediately", "win-power-on-characters-counts", "win-by-dominance",  # decision 11
        "duplicate-saves-from-a-kill", "duplicate-nosave-lets-it-die", "duplicate-of-another-version",
        "unique-dead-cannot-come-back", "marshal-alliance-no-penalty", "attachment-on-an-opponent-strength-floor-zero",
    ]
    assert [w for w in wanted if w not in names] == []
    assert len(CASES) >= 40


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_rules_case(path):
    result = run_case(path)
    assert result.passed, result.report()
