"""The Claim self-play campaign: 200 seeded whole games per player count (2, 3 and 4) for each of
claim2 and claim, through ``judge selfplay``; after every step the invariants are checked (cards
conserved, follow faction never broken, hands / followers / deck in step with the tricks, kept
Gnomes and set-aside Trolls only of their faction, no secret in another player's view). A
violation fails with the seed and step that reproduce it (``judge selfplay --ruleset claim2
--houses N --seed SEED``). Plus stored games through the judge, replayed from their journals.
"""

from __future__ import annotations

import re

import pytest

from adjudicator import ruleset as rulesets
from adjudicator import selfplay
from adjudicator.rulesets.claim import invariants
from adjudicator.rulesets.claim.gamedata import load_gamedata

WINNER = {2: r"(alice|bob|draw)", 3: r"(alice|bob|carol|draw)", 4: r"(alice\+carol|bob\+dave|draw)"}


@pytest.mark.parametrize("ruleset", ["claim2", "claim"])
@pytest.mark.parametrize("houses", [2, 3, 4])
def test_200_seeded_games_per_player_count_run_without_a_violation(cli, ruleset, houses):
    result = cli("selfplay", "--ruleset", ruleset, "--houses", str(houses), "--games", "200", "--seed", str(1000 * houses))
    assert result.exit_code == 0, result.output[-3000:]
    lines = result.output.splitlines()
    assert len(lines) == 200
    pattern = re.compile(rf"game \d+ seed \d+: winner {WINNER[houses]}, factions .*, \d+ dragon leads, \d+ steps")
    assert all(pattern.fullmatch(line) for line in lines), [ln for ln in lines if not pattern.fullmatch(ln)][:3]
    winners = {re.search(r"winner (\S+),", line).group(1) for line in lines}
    assert len(winners - {"draw"}) == (2 if houses != 3 else 3)  # every seat wins some games


def test_stored_bot_games_replay_from_their_journals(cli):
    for ruleset, houses, seed in (("claim2", 2, 42), ("claim", 4, 77)):
        result = cli("selfplay", "--ruleset", ruleset, "--houses", str(houses), "--games", "1", "--seed", str(seed), "--store")
        assert result.exit_code == 0, result.output
        replayed = cli("replay", f"selfplay-{seed}")
        assert replayed.exit_code == 0 and "replay reproduces every version" in replayed.output
    listing = cli("list").output
    assert listing.count("; over: ") == 2


def test_the_invariants_catch_a_broken_state():
    rs = rulesets.get("claim2")
    gd = load_gamedata()
    played = selfplay.play(rs, ["alice", "bob"], 5, stop=lambda s: s["phase"] == 1 and s["trick"] == 4 and len(s["table"]) == 1)
    state = played.state
    assert rs.violations(state) == []
    lost = dict(state, deck=state["deck"][1:])
    assert any("cards not conserved" in p for p in invariants.violations(lost, gd))
    led = state["table"][0]["card"]
    follow = [c for c in state["hands"]["bob"] if gd.faction_of(c) == gd.faction_of(led)]
    other = [c for c in state["hands"]["bob"] if gd.faction_of(c) != gd.faction_of(led)]
    if follow and other:
        broken = dict(state, table=state["table"] + [{"player": "bob", "card": other[0]}],
                      hands=dict(state["hands"], bob=[c for c in state["hands"]["bob"] if c != other[0]]))
        assert any("while holding" in p for p in invariants.violations(broken, gd))
    leaky = rs.view(state, "bob")
    leaky["hands"]["alice"] = list(state["hands"]["alice"])
    assert invariants.leaks(leaky, state, "bob") == ["alice's hand"]
