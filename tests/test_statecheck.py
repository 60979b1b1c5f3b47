"""``statecheck``: a version's state compared with a new game's, kind by kind, names the value a hand
wrote of the wrong type, and finds nothing in the states the engines make themselves (else
``Judge.diagnose`` would send a GM to mend a healthy file)."""

from __future__ import annotations

import pytest

from adjudicator import ruleset as rulesets, selfplay
from adjudicator.statecheck import first_slip

NEW = {"round": 1, "houses": ["stark", "lannister"], "supply": {"stark": 1, "lannister": 2}, "winner": None,
       "areas": {"winterfell": {"stark": ["footman"]}}, "plans": {"stark": {"marches": [], "card": None}},
       "flags": {"done": False}}


@pytest.mark.parametrize("state,slip", [
    ({"round": "one"}, "state.round: expected a number, found 'one' (a new game has round: 1)"),
    ({"houses": ["stark", 3]}, "state.houses[1]: expected a text, found 3 (a new game has houses[1]: 'stark')"),
    ({"supply": {"stark": "x"}}, "state.supply.stark: expected a number, found 'x' (a new game has stark: 1)"),
    ({"supply": {"greyjoy": [1]}}, "state.supply.greyjoy: expected a number, found [1] (a new game has greyjoy: 1)"),
    ({"areas": {"the-eyrie": {"stark": "knight"}}}, "state.areas.the-eyrie.stark: expected a list, found 'knight'"),
    ({"flags": {"done": 1}}, "state.flags.done: expected true or false, found 1 (a new game has done: False)"),
    ({"plans": "none"}, "state.plans: expected a mapping, found 'none'"),
    ({"winner": "DELETE"}, "state: the key 'winner' is missing (a new game has winner: None)"),
])
def test_a_value_of_another_kind_than_a_new_games_is_named(state, slip):
    state = {k: v for k, v in {**NEW, **state}.items() if v != "DELETE"}
    assert first_slip(state, NEW).startswith(slip)


@pytest.mark.parametrize("state", [
    {"winner": "stark", "round": 10, "supply": {"stark": 0}},  # null in a new game: anything later
    {"plans": {"stark": {"marches": [{"from": "winterfell"}], "card": "eddard-stark"}}},
    {"areas": {}, "new_key": [1, "a"]},  # keys a new game does not have: nothing to compare with
    {"round": None},
])
def test_what_a_game_may_come_to_hold_is_no_slip(state):
    assert first_slip({**NEW, **state}, NEW) is None


@pytest.mark.parametrize("name", [n for n in rulesets.names() if selfplay.supports_selfplay(rulesets.get(n))])
def test_no_state_an_engine_makes_in_a_bot_game_is_taken_for_damage(name):
    ruleset = rulesets.get(name)
    players = ruleset.default_players(4)
    example = ruleset.new_game(list(players), {}, 0)
    slips: list[str] = []
    selfplay.play(ruleset, players, 5, stop=lambda state: slips.append(first_slip(state, example)) and False)
    assert len(slips) > 5 and set(slips) == {None}, (len(slips), [s for s in slips if s][:3])
