"""The oriflamme self-play campaign: 210 seeded whole games over 3, 4 and 5 players, and replays.

Bots write random legal mail (English and Czech, decisions sent ahead, HELP/STATUS/PRESS);
after every step the invariants are checked: every family's ten cards are conserved (hand,
set aside, queue, discards), influence is never negative, stacks hold one family, intrigues do
not linger face up, and no player's view holds another player's hand, set-aside cards,
face-down cards or plan. A violation fails with the seed and step that reproduce it
(``judge selfplay --ruleset oriflamme --houses N --seed SEED``).
"""

from __future__ import annotations

import re

import pytest

GAMES = 70  # per player count: 210 in all


@pytest.mark.parametrize("players", [3, 4, 5])
def test_seeded_games_run_without_a_violation(cli, players):
    result = cli("selfplay", "--ruleset", "oriflamme", "--houses", str(players), "--games", str(GAMES),
                 "--seed", str(1000 * players))
    assert result.exit_code == 0, result.output[-3000:]
    lines = result.output.splitlines()
    assert len(lines) == GAMES
    families = "|".join(["red", "blue", "green", "yellow", "black"][:players])
    pattern = rf"game \d+ seed \d+: winner (({families})|shared by [a-z+]+), round 6, (\d+) eliminations, \d+ steps"
    assert all(re.fullmatch(pattern, line) for line in lines), [ln for ln in lines if not re.fullmatch(pattern, ln)]
    assert sum(int(re.search(r"(\d+) eliminations", line).group(1)) for line in lines) > GAMES  # the bots do fight


def test_a_stored_bot_game_replays_from_its_journal(cli):
    result = cli("selfplay", "--ruleset", "oriflamme", "--houses", "4", "--games", "1", "--seed", "42", "--store")
    assert result.exit_code == 0, result.output
    replayed = cli("replay", "selfplay-42")
    assert replayed.exit_code == 0 and "replay reproduces every version" in replayed.output
    assert "over:" in cli("list").output or "game over" in cli("list").output


def test_two_players_are_refused(cli):
    result = cli("selfplay", "--ruleset", "oriflamme", "--houses", "2")
    assert result.exit_code != 0 and "3 to 5 players" in result.output
