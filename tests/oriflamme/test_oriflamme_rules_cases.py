"""Every oriflamme rules case under tests/cases/oriflamme (format: shared/CASES.md), one test each."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.cases import run_case

CASES = sorted((Path(__file__).parent.parent / "cases" / "oriflamme").glob("*.yaml"))


def test_the_suite_covers_every_card_every_decision_and_the_seed_examples():
    names = {p.stem for p in CASES}
    cards = ["archer", "soldier", "spy", "heir", "shapeshifter", "lord", "assassination", "royal-decree", "ambush",
             "conspiracy"]
    assert [c for c in cards if not any(n.startswith(f"card-{c}") for n in names)] == []
    wanted = [
        "seed-example-resolution", "seed-example-placement", "seed-example-stack-assassination-uncovers-spy",
        "seed-example-stack-uncovered-face-down-waits",
        "card-archer-alone-eliminates-itself", "card-archer-both-ends-own-may-take-itself",  # decision 1
        "card-soldier-no-neighbour", "card-spy-no-neighbour",  # decision 2
        "card-soldier-chooses-before", "card-spy-chooses-victim",  # decision 3
        "card-spy-victim-without-influence",  # decision 4
        "uncovered-ahead-resolves-this-round", "uncovered-behind-waits-next-round",  # decision 5
        "gap-closes-next-card-resolves", "card-royal-decree-behind-resolves-again",  # decision 6
        "card-royal-decree-in-front-skips",
        "card-ambush-shapeshifter-attacker-discarded", "card-ambush-eliminated-by-opponent-assassination",  # 7
        "end-tie-more-cards-in-queue", "end-shared-victory",  # decision 8
        "card-royal-decree-cannot-move-itself",  # decision 9
        "reveal-takes-influence-wait-adds-one", "card-ambush-revealed", "card-conspiracy-doubles",  # decision 10
        "card-soldier-opponent-before-own", "card-archer-opponent-end-before-own", "card-spy-prefers-opponent",
        "card-shapeshifter-heir-uses-own-name", "card-shapeshifter-heir-blocked-by-other-shapeshifter",
        "card-heir-covered-heir-does-not-count", "end-most-influence-cards-do-not-count",
        "round-ends-first-player-passes", "default-placement-random-card-at-back", "default-face-down-stays-down",
        "card-archer-default-first", "card-assassination-default-first-opponent", "card-royal-decree-default-leaves-card",
        "ahead-place-lines-used-in-order", "ahead-reveal-in-round", "ahead-target-stands-wait-is-used-once",
        "ahead-unusable-place-line-dropped", "ahead-clear",
    ]
    assert [w for w in wanted if w not in names] == []
    assert len(CASES) >= 60


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_rules_case(path):
    result = run_case(path)
    assert result.passed, result.report()
