"""The rules-case runner (CASES.md) on the toy ruleset's cases, and its failure reports."""

from __future__ import annotations

from pathlib import Path

from adjudicator.cases import run_cases

TOY_CASES = Path(__file__).parent / "toycases"


def test_toy_cases_pass():
    results = run_cases([TOY_CASES])
    assert len(results) == 2
    assert [r.report() for r in results if not r.passed] == []


def test_a_wrong_expectation_fails_naming_what_differed(tmp_path):
    case = tmp_path / "wrong.yaml"
    case.write_text((TOY_CASES / "tie-goes-to-the-pick.yaml").read_text().replace("{ann: 1, ben: 0}", "{ann: 0}")
                    .replace("ann sent no pick", "ben sent no pick"))
    [result] = run_cases([case])
    assert not result.passed
    report = result.report()
    assert report.startswith("FAIL A tie is broken by the first player's pick")
    assert "scores.ann: expected 0, got 1" in report
    assert "events: no 'ben sent no pick; default: ann'" in report


def test_rejections_are_checked(tmp_path):
    case = tmp_path / "rejected.yaml"
    case.write_text("""ruleset: toy
title: garbage is rejected
position: {players: [ann, ben]}
decisions:
  ann: "BIDD 3"
expect:
  rejected: {ann: ["unknown command"], ben: ["anything"]}
""")
    [result] = run_cases([case])
    assert result.differences == ["rejected.ben: no error mentions 'anything' (errors: none)"]


def test_unreadable_and_illegal_cases_fail_with_a_reason(tmp_path):
    (tmp_path / "a_broken.yaml").write_text("ruleset: toy\ntitle: [oops\n")
    (tmp_path / "b_illegal.yaml").write_text("ruleset: toy\ntitle: one player\nposition: {players: [ann]}\n")
    (tmp_path / "c_nokeys.yaml").write_text("title: no ruleset\n")
    (tmp_path / "d_unknown.yaml").write_text("ruleset: chess\ntitle: x\nposition: {}\n")
    results = run_cases([tmp_path])
    assert [r.passed for r in results] == [False] * 4
    assert "a_broken.yaml line 3" in results[0].error
    assert "toy needs at least two players" in results[1].error
    assert "missing key(s) ruleset, position" in results[2].error
    assert "unknown ruleset 'chess'" in results[3].error
