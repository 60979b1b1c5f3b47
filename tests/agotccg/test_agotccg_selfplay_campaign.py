"""The agotccg self-play campaign, a seeded slice of it: whole games of 2, 3 and 4 players through
``judge selfplay``, the invariants checked after every step (cards conserved in their places, plots
conserved, power in play = gained - returned, the win exactly at 15, kneeling only by taking part in
a challenge, no two copies of a unique card in play nor one in play and dead, duplicates and
attachments where they may be, Limited and challenge types once per round, no secret in another
player's view). A violation fails with the seed and step that reproduce it
(``judge selfplay --ruleset agotccg --houses N --seed SEED``).

The full campaign is the same command with ``--games 1000`` per player count (README, "A Game of
Thrones CCG": its figures).
"""

from __future__ import annotations

import copy
import re

import pytest

from adjudicator import selfplay
from adjudicator.rulesets.agotccg import invariants
from adjudicator.rulesets.agotccg.gamedata import load_gamedata
from adjudicator.rulesets.agotccg.ruleset import AGOTCCG

GAMES = 25  # per player count in the suite; the campaign plays 1,000
GD = load_gamedata()


@pytest.mark.parametrize("houses", [2, 3, 4])
def test_seeded_games_run_without_a_violation(cli, houses):
    result = cli("selfplay", "--ruleset", "agotccg", "--houses", str(houses), "--games", str(GAMES),
                 "--seed", str(100000 * houses))
    assert result.exit_code == 0, result.output[-3000:]
    lines = result.output.splitlines()
    assert len(lines) == GAMES
    names = "|".join(["alice", "bob", "carol", "dave"][:houses])
    pattern = re.compile(rf"game \d+ seed \d+: winner ({names}), round \d+, power .*, (\d+) challenges, "
                         r"(\d+) killed, \d+ steps")
    assert all(pattern.fullmatch(line) for line in lines), [ln for ln in lines if not pattern.fullmatch(ln)][:3]
    assert sum(int(pattern.fullmatch(line).group(3)) for line in lines) > GAMES  # the bots do fight


def test_a_stored_bot_game_replays_from_its_journal(cli):
    result = cli("selfplay", "--ruleset", "agotccg", "--houses", "4", "--games", "1", "--seed", "42", "--store")
    assert result.exit_code == 0, result.output
    replayed = cli("replay", "selfplay-42")
    assert replayed.exit_code == 0 and "replay reproduces every version" in replayed.output


def test_one_and_five_players_are_refused(cli):
    for houses in ("1", "5"):
        result = cli("selfplay", "--ruleset", "agotccg", "--houses", houses)
        assert result.exit_code != 0 and "2 to 4 players" in result.output


def test_the_invariants_catch_a_broken_state():
    played = selfplay.play(AGOTCCG, ["alice", "bob"], 5,
                           stop=lambda s: s["round"] >= 2 and s["phase"] == "challenges" and s["step"] == "defend")
    state = played.state
    assert AGOTCCG.violations(state) == []

    def broken(change) -> list[str]:
        bad = copy.deepcopy(state)
        change(bad)
        return invariants.violations(bad, GD)

    assert any("cards not conserved" in p for p in broken(lambda s: s["hand"]["alice"].pop()))
    assert any("power in play" in p for p in broken(lambda s: s["house_power"].__setitem__("bob", 3)))
    assert any("plots not conserved" in p for p in broken(lambda s: s["plots"]["bob"]["used"].append("iron-price")))
    some = next(p for p in ("alice", "bob") if state["characters"][p])
    entry = state["characters"][some][0]

    def kneel_one(s):
        for e in s["characters"][some]:
            if not e["knelt"]:
                e["knelt"] = True
                return
        s["characters"][some][0]["knelt"] = False

    assert any("knelt characters" in p for p in broken(kneel_one))
    assert any("two copies of unique" in p or "cards not conserved" in p
               for p in broken(lambda s: s["characters"][some].append(dict(copy.deepcopy(entry)))))
    assert any("without 15 power" in p for p in broken(lambda s: s.__setitem__("winner", "alice")))
    leaky = AGOTCCG.view(state, "bob")
    leaky["hand"]["alice"] = list(state["hand"]["alice"])
    leaky["deck"]["bob"] = list(state["deck"]["bob"])
    assert sorted(invariants.leaks(leaky, state, "bob")) == ["alice's hand", "bob's deck"]
