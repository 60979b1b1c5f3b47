"""The self-play campaign CI runs: 201 seeded whole games over 3, 4 and 5 houses, and replays.

Each game is played by seeded bots that write mail; the invariants (unit and supply limits,
power 0..20, one house per area, tracks, cards, decks, no secret in any house's view) are
checked after every step. A violation fails with the seed and step that reproduce it
(``judge selfplay --ruleset agot1e --houses N --seed SEED``). Longer campaigns: raise --games.
"""

from __future__ import annotations

import re

import pytest


@pytest.mark.parametrize("houses", [3, 4, 5])
def test_67_seeded_games_per_house_count_run_without_a_violation(cli, houses):
    result = cli("selfplay", "--ruleset", "agot1e", "--houses", str(houses), "--games", "67", "--seed", str(1000 * houses))
    assert result.exit_code == 0, result.output[-3000:]
    lines = result.output.splitlines()
    assert len(lines) == 67
    assert all(re.match(r"game \d+ seed \d+: winner (stark|lannister|baratheon|greyjoy|tyrell|draw), round 10, \d+ battles", line)
               for line in lines), lines
    assert sum(int(re.search(r"(\d+) battles", line).group(1)) for line in lines) > 67  # the bots do fight


def test_stored_bot_games_replay_from_their_journals(cli):
    result = cli("selfplay", "--ruleset", "agot1e", "--houses", "3", "--games", "2", "--seed", "42", "--store")
    assert result.exit_code == 0, result.output
    for game in ("selfplay-42", "selfplay-43"):
        replayed = cli("replay", game)
        assert replayed.exit_code == 0 and "replay reproduces every version" in replayed.output
        assert "over:" in cli("list").output
