"""Property tests: random legal positions and random legal decisions never break the invariants.

Invariants (adjudicator/rulesets/agot/invariants.py) are checked after every step: unit and
supply limits, one house per area, power within 0..20, tracks are permutations, hand + discards
(+ the card on the table) = the house's 7 cards, and no house's view holds another's secrets.
"""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.rulesets.agot import bot, invariants
from adjudicator.rulesets.agot import position as pos
from adjudicator.rulesets.agot.context import ctx_of
from adjudicator.rulesets.agot.newgame import initial_state
from adjudicator.rulesets.agot1e.edition import EDITION
from adjudicator.rulesets.agot1e.ruleset import AGOT1E
from adjudicator.selfplay import play

HOUSES = {3: ["stark", "lannister", "baratheon"], 4: ["stark", "lannister", "baratheon", "tyrell"],
          5: ["stark", "lannister", "baratheon", "greyjoy", "tyrell"]}


def random_position(rng: random.Random, players: int) -> dict:
    """A legal mid-game planning position: units scattered within unit and supply limits,
    random tracks, power, control tokens and discards."""
    state = initial_state(EDITION, HOUSES[players], seed=rng.randrange(1000))
    ctx = ctx_of(state)
    gd = ctx.gd
    state["areas"] = {}
    state["neutral"] = {a: s for a, s in state["neutral"].items() if rng.random() < 0.5}
    state["round"] = rng.randint(1, 9)
    for track in state["tracks"]:
        rng.shuffle(state["tracks"][track])
    free = [a for a in gd.board if a not in state["neutral"]]
    rng.shuffle(free)
    for house in state["houses"]:
        state["supply"][house] = rng.randint(0, 6)
        state["power"][house] = rng.randint(0, 12)
        for _ in range(rng.randint(1, 7)):
            if not free:
                break
            area = free.pop()
            kinds = ["ship"] if gd.board.is_sea(area) else ["footman", "knight"]
            units = [rng.choice(kinds) for _ in range(rng.randint(1, 3))]
            trial = {**state["areas"], area: {house: pos.sort_units(units)}}
            fits = all(pos.house_units({"areas": trial}, house)[u] <= gd.setup.unit_limits[u] for u in units)
            if fits and pos.within_supply(state, gd, house, trial):
                state["areas"][area] = {house: pos.sort_units(units)}
        for card in gd.house_cards[house]:
            if rng.random() < 0.3 and len(state["hands"][house]) > 1:
                state["hands"][house].remove(card.id)
                state["discards"][house].append(card.id)
    for area in gd.board.land_areas:
        if pos.owner(state, area) is None and area not in state["neutral"] and rng.random() < 0.1:
            house = rng.choice(state["houses"])
            if state["power"][house] + pos.power_on_board(state, house) < 20:
                state["control"][area] = house
    return state


def play_round(state: dict, rng: random.Random) -> None:
    """Bots decide (sometimes nothing: defaults) through one whole round; invariants after each step."""
    ctx = ctx_of(state)
    start = state["round"]
    for _ in range(500):
        if state["round"] > start or state["winner"]:
            return
        for owed in AGOT1E.pending(state):
            if not owed.done and rng.random() < 0.9 and (text := bot.mail_for(state, ctx, owed.player, rng)):
                sub = AGOT1E.submit(state, owed.player, text)
                assert sub.applied, [(ln.text, ln.error) for ln in sub.parsed.lines if not ln.ok]
        state_before = copy.deepcopy(state)
        AGOT1E.advance(state, force=not all(o.done for o in AGOT1E.pending(state)))
        problems = invariants.violations(state, ctx)
        for house in state["houses"]:
            problems += invariants.leaks(AGOT1E.view(state, house), state, house)
        assert not problems, (problems, AGOT1E.summary(state_before))
    raise AssertionError("a round took more than 500 steps")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4, 5]))
def test_random_positions_keep_the_invariants_through_a_round(seed, players):
    rng = random.Random(seed)
    state = random_position(rng, players)
    ctx = ctx_of(state)
    assert invariants.violations(state, ctx) == []  # the generator makes legal positions
    play_round(state, rng)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4, 5]))
def test_bot_games_keep_the_invariants_and_every_bot_mail_parses(seed, players):
    played = play(AGOT1E, HOUSES[players], seed, stop=lambda s: s["round"] > 4)  # raises on any violation
    assert played.rejected == []


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_engine_is_deterministic(seed):
    first = play(AGOT1E, HOUSES[5], seed, stop=lambda s: s["round"] > 3).state
    second = play(AGOT1E, HOUSES[5], seed, stop=lambda s: s["round"] > 3).state
    assert first == second


def test_a_seeded_slice_of_self_play_fights_battles():
    """The seeded slice above is not vacuous: bot games do reach battles and retreats."""
    games = [play(AGOT1E, HOUSES[5], seed, stop=lambda s: s["round"] > 6) for seed in range(8)]
    battles = sum(1 for g in games for e in g.events if e.text.startswith("Battle at "))
    assert battles >= 5


def test_units_out_of_the_rulebooks_order_are_an_invariant_violation():
    """The engine's readers take an area's units as stored (position.unrouted): sorted, as every writer leaves them."""
    state = initial_state(EDITION, HOUSES[5], 1)
    ctx = ctx_of(state)
    area = next(a for a, holders in state["areas"].items() if len(set(*holders.values())) > 1)
    house, units = pos.occupant(state, area)
    state["areas"][area][house] = list(reversed(units))
    state["routed"][area] = list(reversed(units))
    problems = invariants.violations(state, ctx)
    assert any("not in the rulebook's order" in p and "routed" not in p for p in problems)
    assert any("routed" in p and "not in the rulebook's order" in p for p in problems)


def test_a_victory_count_that_differs_from_the_areas_controllers_is_an_invariant_violation(monkeypatch):
    """position.castle_counts (set operations, after every step) is checked against controller() castle by
    castle in every self-play step; the check is not vacuous."""
    state = initial_state(EDITION, HOUSES[5], 1)
    ctx = ctx_of(state)
    assert invariants.violations(state, ctx) == []
    monkeypatch.setattr(pos, "castle_counts", lambda state, gd: {"stark": 7})
    assert any("castle counts" in p for p in invariants.violations(state, ctx))
