"""Every agot2e rules case under tests/cases/agot2e (format: shared/CASES.md), one test each."""

from __future__ import annotations

import re

from pathlib import Path

import pytest

from adjudicator.cases import run_case
from adjudicator.ruleset import RulesetError, get

CASES = sorted((Path(__file__).parent.parent / "cases" / "agot2e").glob("*.yaml"))


def test_the_suite_is_complete():
    """At least 100 cases (issue 14), one for every ability the engine resolves, every wildling card and
    every Westeros card of the 2nd edition that does something of its own."""
    assert len(CASES) >= 100
    names = {p.stem for p in CASES}
    abilities = ["catelyn-stark", "balon-greyjoy", "mace-tyrell", "tywin-lannister", "stannis-baratheon",
                 "davos-seaworth", "theon-greyjoy", "asha-greyjoy", "nymeria-sand", "kevan-lannister",
                 "victarion-greyjoy", "the-blackfish", "roose-bolton", "doran-martell", "queen-of-thorns",
                 "salladhor-saan", "arianne-martell"]
    assert [a for a in abilities if f"card-{a}" not in names] == []
    wildlings = ["a-king-beyond-the-wall", "crow-killers", "mammoth-riders", "massing-on-the-milkwater",
                 "preemptive-raid", "rattleshirts-raiders", "silence-at-the-wall", "skinchanger-scout",
                 "the-horde-descends"]
    assert [w for w in wildlings if not any(n.startswith(f"wildlings-{w}") for n in names)] == []
    westeros = ["web-of-lies", "rains-of-autumn", "storm-of-swords", "feast-for-crows", "sea-of-storms",
                "a-throne-of-blades", "dark-wings-dark-words", "put-to-the-sword", "game-of-thrones"]
    assert [w for w in westeros if not any(n.startswith(f"westeros-{w}") for n in names)] == []


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_rules_case(path):
    result = run_case(path)
    assert result.passed, result.report()


def test_a_game_needs_no_option_and_takes_only_tides_of_battle():
    """The edition is complete (RULES.md section 0): no preview gate; the one option is Tides of Battle,
    and the preview's option of issue 14 is still accepted, changing nothing."""
    agot2e, three = get("agot2e"), ["stark", "lannister", "baratheon"]
    assert agot2e.new_game(three, {}, 1)["edition"] == "agot2e"
    assert "tides_of_battle" not in agot2e.new_game(three, {}, 1)
    assert agot2e.new_game(three, {"tides-of-battle": "yes"}, 1)["tides_of_battle"] is True
    assert agot2e.new_game(three, {"preview": "yes"}, 1) == agot2e.new_game(three, {}, 1)
    with pytest.raises(RulesetError, match="not tides-of-battle=maybe .example: --option tides-of-battle=yes"):
        agot2e.new_game(three, {"tides-of-battle": "maybe"}, 1)
    with pytest.raises(RulesetError, match=re.escape("agot2e has one option, tides-of-battle=yes|no, not option fog")):
        agot2e.new_game(three, {"fog": "yes"}, 1)
