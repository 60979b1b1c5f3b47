"""agot2e-ru self-play in the suite, every option on (the default): a seeded slice for 3 to 6 houses. Bots
write mail; the invariants (unit, port and supply limits, power, one house per area, tracks, cards, decks,
no secret in any house's view) are checked after every step; a violation fails with the seed and step that
reproduce it (``judge selfplay --ruleset agot2e-ru --houses N --seed SEED``)."""

from __future__ import annotations

import re

import pytest

HOUSES = ("stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell")


@pytest.mark.parametrize("houses", [3, 4, 5, 6])
def test_seeded_games_with_every_option_on_run_without_a_violation(cli, houses):
    result = cli("selfplay", "--ruleset", "agot2e-ru", "--houses", str(houses), "--games", "2",
                 "--seed", str(1500 * houses))
    assert result.exit_code == 0, result.output[-3000:]
    lines = result.output.splitlines()
    assert len(lines) == 2
    names = "|".join((*HOUSES[:houses], "draw"))  # the variant's final ranking may end in a shared win
    assert all(re.match(rf"game \d+ seed \d+: winner ({names}), round \d+, \d+ battles", line) for line in lines), lines


def test_a_seeded_game_with_tides_of_battle_too(cli):
    result = cli("selfplay", "--ruleset", "agot2e-ru", "--houses", "6", "--games", "1", "--seed", "15",
                 "--option", "tides-of-battle=yes")
    assert result.exit_code == 0, result.output[-3000:]
    assert re.match(r"game 1 seed 15: winner \w+, round \d+, \d+ battles", result.output), result.output


def test_a_stored_variant_game_replays_from_its_journal(cli):
    """The options are recorded with the game: a replay rebuilds every version the same."""
    result = cli("selfplay", "--ruleset", "agot2e-ru", "--houses", "4", "--games", "1", "--seed", "8", "--store",
                 "--option", "half-support=no")
    assert result.exit_code == 0, result.output
    replayed = cli("replay", "selfplay-8")
    assert replayed.exit_code == 0 and "replay reproduces every version" in replayed.output
