"""Every Claim rules case under tests/cases/claim2 and tests/cases/claim (format: shared/CASES.md),
one test each, and a check that the suite covers every power, tie-break and flow it must."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.cases import run_case, run_cases

ROOT = Path(__file__).parent.parent / "cases"
CASES = sorted((ROOT / "claim2").glob("*.yaml")) + sorted((ROOT / "claim").glob("*.yaml"))


def test_the_suite_covers_every_power_and_tie_break():
    names = {f"{p.parent.name}/{p.stem}" for p in CASES}
    wanted = {
        # phase 1 and phase 2 flow, follow faction, ties
        "claim2/phase1-follower-wins-with-higher-card", "claim2/phase1-leader-wins-a-tie",
        "claim2/phase1-off-faction-card-loses", "claim2/phase1-must-follow-faction-rejected",
        "claim2/phase1-last-trick-starts-phase-2", "claim2/phase2-winner-takes-both-cards",
        # 3-4 players: two prizes, ranking, picks, blind draws
        "claim2/three-players-two-prizes-ranked", "claim2/three-players-winner-owes-the-pick",
        "claim2/three-players-pick-default-higher-prize", "claim2/three-players-identical-prizes-no-pick",
        "claim2/four-players-off-faction-ranked-by-value-then-seat",
        "claim2/four-players-led-faction-tie-goes-to-the-earlier-player",
        # Dragons (the lead exception) in both phases
        "claim2/dragons-example-1-last-dragon-leads", "claim2/dragons-example-2-off-faction-dragon-leads",
        "claim2/dragons-phase-2-follower-dragon-leads", "claim2/three-players-last-of-several-dragons-leads",
        # Seers, 2 and 3-4 players, and the choice
        "claim2/seers-2p-take-the-deck-card", "claim2/seers-2p-take-deck-sent-ahead", "claim2/seers-2p-keep-the-prize",
        "claim2/seers-2p-default-keeps-the-prize", "claim2/three-players-seer-takes-deck-second-picks",
        "claim2/three-players-seer-keeps-prize-third-draws-the-card-seen", "claim2/four-players-seer-takes-deck",
        "claim2/four-players-seer-second-pick-then-draw",
        # Gnomes, Giants (2 and 3-4 players), Trolls
        "claim2/gnomes-won-in-phase-2-are-kept-in-front", "claim2/gnomes-kept-score-at-the-end",
        "claim2/giants-example-1", "claim2/giants-example-2", "claim2/giants-example-3",
        "claim2/four-players-giants-crush-each-opponent-not-the-partner",
        "claim2/three-players-two-equal-giants-crush-two-gnomes-each",
        "claim2/trolls-one-per-trick", "claim2/trolls-set-aside-troll-is-taken-first",
        "claim2/trolls-last-trick-takes-all-set-aside",
        # scoring and every tie-break: 2 players, 3 players, teams
        "claim2/scoring-2p-most-cards-wins-the-faction", "claim2/scoring-2p-tie-higher-top-card",
        "claim2/scoring-2p-tie-second-card", "claim2/scoring-2p-identical-cards-join-nobody",
        "claim2/scoring-2p-equal-factions-more-cards-wins", "claim2/scoring-2p-equal-cards-higher-sum-wins",
        "claim2/scoring-2p-complete-tie-is-a-draw", "claim2/scoring-3p-more-than-each-opponent",
        "claim2/scoring-3p-tie-among-leaders-high-card", "claim2/scoring-3p-equal-factions-cards-then-sum",
        "claim2/scoring-3p-draw-between-two", "claim2/scoring-4p-teams-pool-their-cards",
        "claim2/scoring-4p-team-tie-by-high-card",
        # Claim (1): Knights (2 and 3-4 players), Undead, Dwarves (2 and 3-4), Doppelgangers (2 and 3-4)
        "claim/knights-beat-goblins", "claim/knights-no-power-when-a-knight-is-led",
        "claim/knights-three-players-highest-knight-wins", "claim/knights-three-players-no-effect-without-a-goblin-lead",
        "claim/undead-played-in-phase-1-score-for-the-winner", "claim/undead-three-players-all-to-the-winner",
        "claim/dwarves-go-to-the-loser", "claim/dwarves-three-players-lowest-card-takes-them",
        "claim/dwarves-three-players-equal-lowest-later-player",
        "claim/doppelganger-may-follow-while-holding-the-led-faction",
        "claim/doppelganger-led-doppelgangers-must-be-followed", "claim/doppelganger-copies-no-power-dwarves",
        "claim/doppelganger-following-a-dragon-takes-no-lead",
        "claim/doppelganger-three-players-counts-as-led-in-the-ranking",
        "claim/goblins-no-power-equal-zeros-leader-wins", "claim/custom-deck-two-players",
        "claim/whole-short-game-through-both-phases",
    }
    assert sorted(wanted - names) == []
    assert len(CASES) >= 85


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_rules_case(path):
    result = run_case(path)
    assert result.passed, result.report()


def test_a_wrong_expectation_fails_naming_what_differed(tmp_path):
    case = tmp_path / "wrong.yaml"
    case.write_text((ROOT / "claim2" / "giants-example-1.yaml").read_text(encoding="utf-8")
                    .replace("crushed: [Gnome 3]", "crushed: [Gnome 7]"), encoding="utf-8")
    [result] = run_cases([case])
    assert not result.passed
    assert "crushed: expected ['Gnome 7'], got ['Gnome 3']" in result.report()


@pytest.mark.parametrize("position, problem", [
    ("{players: [alice], hands: {alice: [Gnome 1]}}", "played by 2 to 4 players"),
    ("{hands: {alice: [Gnome 1, Gnome 1, Gnome 1, Gnome 1], bob: [Giant 1, Giant 3, Giant 5, Giant 7]}}",
     "more than 3 Gnome 1"),
    ("{hands: {alice: [Knight 2], bob: [Gnome 1]}}", "there are no Knights in this game"),
    ("{hands: {alice: [Giant 2], bob: [Gnome 1]}}", "Giants have no card 2"),
    ("{hands: {alice: [Gnome 1, Gnome 3], bob: [Giant 1]}}", "hands must hold as many cards each"),
    ("{leader: bob, hands: {alice: [Gnome 1], bob: [Giant 1]}, table: [{alice: Gnome 3}]}", "seat order from the leader bob"),
    ("{phase: 2, hands: {alice: [Gnome 1], bob: [Giant 1]}, deck: [Troll 1]}", "phase 2 has no deck"),
    ("{hands: {alice: [Gnome 1], bob: [Giant 1]}, gnomes: {alice: [Troll 1]}}", "only Gnomes in front"),
])
def test_illegal_positions_fail_with_the_reason(tmp_path, position, problem):
    case = tmp_path / "bad.yaml"
    case.write_text(f"ruleset: claim2\ntitle: bad\nposition: {position}\n", encoding="utf-8")
    [result] = run_cases([case])
    assert result.error is not None and problem in result.error, result.report()
