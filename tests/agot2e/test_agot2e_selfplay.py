"""agot2e self-play in the suite: a seeded slice of the campaign ``bench/agot2e_selfplay.py`` runs at
1,000 games per house count. Bots write mail; the invariants (unit, port and supply limits, power,
one house per area, tracks, cards, decks, no secret such as the wildling deck in any house's view) are
checked after every step; a violation fails with the seed and step that reproduce it
(``judge selfplay --ruleset agot2e --houses N --seed SEED --option preview=yes``)."""

from __future__ import annotations

import re

import pytest

HOUSES = ("stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell")


@pytest.mark.parametrize("houses", [3, 4, 5, 6])
def test_seeded_games_per_house_count_run_without_a_violation(cli, houses):
    result = cli("selfplay", "--ruleset", "agot2e", "--houses", str(houses), "--games", "2",
                 "--seed", str(1000 * houses), "--option", "preview=yes")
    assert result.exit_code == 0, result.output[-3000:]
    lines = result.output.splitlines()
    assert len(lines) == 2
    names = "|".join(HOUSES[:houses])
    assert all(re.match(rf"game \d+ seed \d+: winner ({names}), round 10, \d+ battles", line) for line in lines), lines


@pytest.mark.parametrize("houses", [3, 6])
def test_seeded_games_with_tides_of_battle_run_without_a_violation(cli, houses):
    result = cli("selfplay", "--ruleset", "agot2e", "--houses", str(houses), "--games", "1", "--seed", str(500 + houses),
                 "--option", "preview=yes", "--option", "tides-of-battle=yes")
    assert result.exit_code == 0, result.output[-3000:]
    assert re.match(r"game 1 seed \d+: winner \w+, round 10, \d+ battles", result.output), result.output


def test_a_stored_preview_game_replays_from_its_journal(cli):
    result = cli("selfplay", "--ruleset", "agot2e", "--houses", "6", "--games", "1", "--seed", "7", "--store",
                 "--option", "preview=yes")
    assert result.exit_code == 0, result.output
    replayed = cli("replay", "selfplay-7")
    assert replayed.exit_code == 0 and "replay reproduces every version" in replayed.output
