"""The Westeros phase and the end of the game (westeros.py, bidding.py): decks, defaults, mail checks."""

from __future__ import annotations

import copy
import itertools
import random
from collections import Counter

import pytest

from adjudicator.rulesets.agot import bidding, engine, invariants, westeros
from adjudicator.rulesets.agot import position as pos
from adjudicator.rulesets.agot.context import ctx_of
from adjudicator.rulesets.agot1e.edition import EDITION, load_gamedata
from adjudicator.rulesets.agot.newgame import initial_state
from adjudicator.rulesets.agot1e.ruleset import AGOT1E
from adjudicator.selfplay import play

case_state = AGOT1E.case_state

HOUSES = {3: ["stark", "lannister", "baratheon"], 4: ["stark", "lannister", "baratheon", "tyrell"],
          5: ["stark", "lannister", "baratheon", "greyjoy", "tyrell"]}
GD = load_gamedata()


def copies(deck: str) -> list[str]:
    return sorted(card for card, _ in GD.westeros_decks[deck].copies())


def run(state: dict, *, force: bool = True, until=lambda s: s["phase"] != "westeros") -> list[str]:
    """Advance (forcing defaults) until ``until``; the public event texts."""
    texts = []
    for _ in range(50):
        if until(state) or state["winner"]:
            return texts
        _, events = AGOT1E.advance(state, force=force)
        texts += [e.text for e in events]
    raise AssertionError("the Westeros phase did not end")


def westeros_position(**position) -> dict:
    return case_state({"step": "westeros", "round": 4, **position})


def submit(state: dict, house: str, text: str):
    return AGOT1E.submit(state, house, text)


def errors(sub) -> list[str]:
    return [str(ln.error) for ln in sub.parsed.lines if not ln.ok]  # in English


# -- decks ---------------------------------------------------------------------------------------------


def test_decks_are_seeded_shuffles_of_the_data():
    first, again, other = (initial_state(EDITION, HOUSES[5], seed)["decks"] for seed in (7, 7, 8))
    assert first == again
    assert first != other
    for deck in westeros.DECKS:
        assert sorted(first[deck]) == copies(deck)


def test_revealed_cards_go_to_the_bottom_and_the_decks_cycle():
    state = initial_state(EDITION, HOUSES[5], 11)
    ctx = ctx_of(state)
    state["decks"] = {d: [c for c in cards if c != westeros.WINTER] + [westeros.WINTER]
                      for d, cards in state["decks"].items()}  # no reshuffle for a whole cycle
    start = copy.deepcopy(state["decks"])
    westeros.reveal(state, ctx)
    assert state["westeros"]["cards"] == {d: start[d][0] for d in westeros.DECKS}
    for d in westeros.DECKS:
        assert state["decks"][d] == start[d][1:] + start[d][:1]
        for card in start[d][1:-1]:
            assert westeros._draw(state, ctx, d) == card
        assert state["decks"][d] == [westeros.WINTER] + start[d][:-1]


def test_winter_is_coming_reshuffles_its_deck_and_reveals_again_deterministically():
    state = initial_state(EDITION, HOUSES[5], 5)
    ctx = ctx_of(state)
    deck = state["decks"]["II"]
    deck.remove(westeros.WINTER)
    deck.insert(0, westeros.WINTER)
    twin = copy.deepcopy(state)
    events = [e.text for e in westeros.reveal(state, ctx)]
    westeros.reveal(twin, ctx)
    assert state["decks"] == twin["decks"] and state["westeros"] == twin["westeros"]
    assert state["westeros"]["cards"]["II"] != westeros.WINTER
    assert state["reshuffles"]["II"] >= 1 and state["reshuffles"]["I"] == 0
    assert any("Winter Is Coming (deck II)" in t for t in events)
    assert all(sorted(state["decks"][d]) == copies(d) for d in westeros.DECKS)
    assert invariants.violations(state, ctx) == []


def test_mammoths_raise_the_threat_one_space_each_and_stop_at_12():
    state = westeros_position(westeros_cards={"I": "Last Days of Summer", "II": "Last Days of Summer",
                                              "III": "Sea of Storms"}, wildlings=8)
    assert state["westeros"]["mammoths"] == 3  # the data's (guessed) mammoths on these three cards
    run(state)
    assert state["wildlings"] == 12
    state = westeros_position(westeros_cards={"I": "Supply", "II": "Game of Thrones", "III": "Wildling Attack"},
                              wildlings=4)
    assert state["westeros"]["mammoths"] == 0


def test_a_deck_that_is_not_a_permutation_is_an_invariant_violation_and_the_order_is_secret():
    state = initial_state(EDITION, HOUSES[5], 1)
    ctx = ctx_of(state)
    assert invariants.violations(state, ctx) == []
    view = AGOT1E.view(state, "stark")
    assert view["decks"] == {d: len(c) for d, c in state["decks"].items()}
    assert invariants.leaks(view, state, "stark") == []
    state["decks"]["I"][0] = "wildling-attack"
    state["wildlings"] = 3
    problems = invariants.violations(state, ctx)
    assert any("deck I" in p for p in problems) and any("threat 3" in p for p in problems)


# -- the rounds -------------------------------------------------------------------------------------------


def test_round_one_has_no_westeros_phase_and_round_two_has_one():
    state = initial_state(EDITION, HOUSES[5], 2)
    ctx = ctx_of(state)
    assert (state["round"], state["phase"], state["westeros"]) == (1, "planning", None)
    engine.end_round(state, ctx)
    assert (state["round"], state["phase"], state["step"]) == (2, "westeros", "westeros")
    assert set(state["westeros"]["cards"]) == set(westeros.DECKS)


def test_end_of_round_clears_the_restrictions():
    state = westeros_position(westeros_cards={"I": "Supply", "II": "Game of Thrones", "III": "Storm of Swords"})
    assert state["restrictions"] == ["defense"]
    run(state)
    assert state["restrictions"] == ["defense"]  # for the whole round
    state["decks"]["III"].remove("feast-for-crows")
    state["decks"]["III"].insert(0, "feast-for-crows")
    engine.end_round(state, ctx_of(state))
    assert state["restrictions"] == ["consolidate"]


def test_after_the_last_round_the_game_is_ranked_and_nothing_follows():
    state = case_state({"round": 10, "step": "action", "orders": {}})
    events = run(state, until=lambda s: False)
    assert state["winner"] is not None and state["round"] == 11 and state["phase"] == "over"
    assert AGOT1E.pending(state) == [] and AGOT1E.advance(state, force=True)[1] == []
    assert any("The game ends after round 10" in t for t in events)


def test_standings_use_castles_then_supply_then_power():
    state = case_state({"round": 10, "step": "action", "orders": {}, "areas": {},
                        "supply": {"stark": 2, "lannister": 2, "baratheon": 2, "greyjoy": 2, "tyrell": 2},
                        "power": {"stark": 3, "lannister": 3, "baratheon": 3, "greyjoy": 3, "tyrell": 3}})
    rows = westeros.standings(state, GD)
    assert all(key == (1, 2, 3) for _, key in rows)
    run(state, until=lambda s: False)
    assert state["winner"] == "draw"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_whole_bot_games_end_with_a_result(players):
    for seed in range(3):
        played = play(AGOT1E, HOUSES[players], seed)
        assert played.state["winner"] is not None, played.state["round"]
        assert played.state["round"] == 11 or played.state["winner"] != "draw"
        assert played.rejected == []


# -- supply -----------------------------------------------------------------------------------------------


def brute_min_cut(sizes, allowed) -> int:
    best = None
    for cut in itertools.product(*(range(s) for s in sizes)):
        left = sorted((s - c for s, c in zip(sizes, cut) if s - c >= 2), reverse=True)
        fits = len(left) <= len(allowed) and all(a <= b for a, b in zip(left, sorted(allowed, reverse=True)))
        if fits and (best is None or sum(cut) < best):
            best = sum(cut)
    return best


def test_min_cut_is_the_fewest_removals():
    rng = random.Random(3)
    for _ in range(300):
        sizes = [rng.randint(2, 5) for _ in range(rng.randint(0, 5))]
        allowed = GD.setup.supply_armies[rng.randint(0, 6)]
        assert bidding.min_cut(sizes, allowed) == brute_min_cut(sizes, allowed), (sizes, allowed)


def test_the_default_supply_cut_is_minimal_and_legal():
    rng = random.Random(9)
    for _ in range(100):
        state = initial_state(EDITION, HOUSES[5], 1)
        ctx = ctx_of(state)
        state["areas"] = {}
        land = [a for a in GD.board.land_areas if a not in state["neutral"]]
        rng.shuffle(land)
        for area in land[: rng.randint(1, 6)]:
            state["areas"][area] = {"stark": pos.sort_units(rng.choice(["footman", "knight"]) for _ in range(rng.randint(1, 4)))}
        state["supply"]["stark"] = rng.randint(0, 3)
        for r in (None, rng):
            cut = bidding.default_supply_cut(state, ctx, "stark", r)
            assert len(cut) == bidding.min_cut(pos.armies(state["areas"], "stark"), bidding._allowed(state, ctx, "stark"))
            if cut:
                assert bidding.supply_problem(state, ctx, "stark", bidding.as_removes(cut)) is None


def test_a_supply_cut_sent_ahead_is_checked_against_the_coming_recount():
    position = {"westeros_cards": {"I": "Supply", "II": "Last Days of Summer", "III": "Last Days of Summer"},
                "supply": {"stark": 2}, "areas": {"Winterfell": {"stark": ["footman", "footman", "knight"]},
                                                  "White Harbor": {"stark": ["footman", "footman"]}},
                "round": 3}
    state = westeros_position(**position)
    sub = submit(state, "stark", "REMOVE Winterfell: knight")  # armies 3, 2 fit the coming supply 1
    assert not sub.applied and "will fit" in errors(sub)[0]
    state = westeros_position(**{**position, "supply": {"stark": 2},
                                 "areas": {**position["areas"], "The Shivering Sea": {"stark": ["ship", "ship"]}}})
    sub = submit(state, "stark", "REMOVE Winterfell: knight")
    assert not sub.applied and "still break" in errors(sub)[0]
    assert submit(state, "stark", "REMOVE The Shivering Sea: ship").applied
    run(state)
    assert state["areas"]["the-shivering-sea"] == {"stark": ["ship"]}


# -- mustering ------------------------------------------------------------------------------------------------


def test_mustering_needs_a_mustering_card_and_legal_lines():
    state = initial_state(EDITION, HOUSES[5], 1)
    sub = submit(state, "stark", "MUSTER Winterfell: footman")
    assert not sub.applied and "Westeros phase" in errors(sub)[0]
    state = westeros_position(westeros_cards={"I": "Mustering", "II": "Last Days of Summer", "III": "Last Days of Summer"})
    sub = submit(state, "stark", "MUSTER White Harbor: footman")  # White Harbor holds a footman: a city
    assert sub.applied
    sub = submit(state, "stark", "MUSTER Karhold: footman")
    assert not sub.applied and "no city or stronghold" in errors(sub)[0]
    sub = submit(state, "stark", "MUSTER Winterfell: footman, footman\nMUSTER Winterfell: knight")
    assert not sub.applied and "twice" in errors(sub)[1]
    sub = submit(state, "stark", "MUSTER Winterfell: ship")  # Bay of Ice or The Shivering Sea (own ship)
    assert not sub.applied and "say where" in errors(sub)[0]
    assert submit(state, "stark", "MUSTER Winterfell: ship -> Bay of Ice, footman").applied
    assert pos.plan(state, "stark")["musters"] == ["MUSTER White Harbor: footman",
                                                 "MUSTER Winterfell: ship -> Bay of Ice, footman"]
    run(state)
    assert state["areas"]["bay-of-ice"] == {"stark": ["ship"]}
    assert state["areas"]["winterfell"] == {"stark": ["footman", "footman", "knight"]}
    assert state["areas"]["white-harbor"] == {"stark": ["footman", "footman"]}


def test_muster_default_is_nothing():
    state = westeros_position(westeros_cards={"I": "Mustering", "II": "Last Days of Summer", "III": "Last Days of Summer"})
    before = copy.deepcopy(state["areas"])
    assert {o.player for o in AGOT1E.pending(state)} == set()  # the "westeros" step asks nobody
    run(state, until=lambda s: s["step"] == "muster")
    assert {o.player for o in AGOT1E.pending(state)} == set(HOUSES[5])
    texts = run(state)
    assert state["areas"] == before
    assert sum("default: nothing mustered" in t for t in texts) == 5


# -- Clash of Kings -------------------------------------------------------------------------------------------


def test_bids_are_secret_until_resolved_and_then_public():
    state = westeros_position(westeros_cards={"I": "Last Days of Summer", "II": "Clash of Kings", "III": "Last Days of Summer"})
    assert submit(state, "stark", "BID THRONE 3 FIEFDOMS 1 COURT 1").applied
    assert submit(state, "lannister", "BID 2").applied  # the next bid: the Iron Throne
    assert pos.plan(state, "lannister")["bids"] == {"iron_throne": 2}
    assert AGOT1E.on_file(state, "stark")[:1] == ["BID THRONE 3 FIEFDOMS 1 COURT 1"]
    view = AGOT1E.view(state, "lannister")
    assert "bids" not in (view["westeros"] or {}) and view["plan"]["bids"] == {"iron_throne": 2}
    run(state, force=False, until=lambda s: s["step"] == "bid")
    owed = {o.player: o.done for o in AGOT1E.pending(state)}
    assert owed["stark"] and owed["lannister"] and not owed["tyrell"]
    run(state, until=lambda s: s["westeros"].get("track") == "fiefdoms")
    assert state["westeros"]["bids"]["iron_throne"]["stark"] == 3
    assert state["tracks"]["iron_throne"][0] == "stark" and state["power"]["stark"] == 2


def test_a_bid_outside_the_westeros_phase_or_over_power_is_refused():
    state = initial_state(EDITION, HOUSES[5], 1)
    assert "Westeros phase" in errors(submit(state, "stark", "BID 3"))[0]
    state = westeros_position(westeros_cards={"I": "Last Days of Summer", "II": "Clash of Kings", "III": "Last Days of Summer"})
    assert "power" in errors(submit(state, "stark", "BID THRONE 6 FIEFDOMS 0 COURT 0"))[0]
    state = westeros_position(westeros_cards={"I": "Last Days of Summer", "II": "Game of Thrones", "III": "Wildling Attack"})
    assert submit(state, "stark", "BID 6").applied  # Game of Thrones comes first: Winterfell's crown
    assert "power" in errors(submit(state, "stark", "BID 7"))[0]


def test_tiebreak_at_the_tie_must_name_the_tied_houses():
    state = westeros_position(westeros_cards={"I": "Last Days of Summer", "II": "Clash of Kings", "III": "Last Days of Summer"})
    for house in HOUSES[5]:
        submit(state, house, "BID THRONE 1 FIEFDOMS 0 COURT 0" if house in ("stark", "tyrell") else
               "BID THRONE 0 FIEFDOMS 0 COURT 0")
    run(state, force=False, until=lambda s: s["step"] == "tiebreak")
    [owed] = AGOT1E.pending(state)
    assert owed.player == "baratheon" and not owed.done
    sub = submit(state, "baratheon", "TIEBREAK Stark, Lannister")
    assert not sub.applied and "name all the tied houses" in errors(sub)[0]
    assert submit(state, "stark", "TIEBREAK Tyrell, Stark").applied  # kept, should Stark hold the throne later
    assert submit(state, "baratheon", "TIEBREAK Tyrell, Stark\nTIEBREAK Greyjoy, Lannister, Baratheon").applied
    assert AGOT1E.pending(state)[0].done
    run(state, until=lambda s: s["westeros"].get("track") == "fiefdoms")
    assert state["tracks"]["iron_throne"] == ["tyrell", "stark", "greyjoy", "lannister", "baratheon"]


# -- Wildling Attack --------------------------------------------------------------------------------------------


def test_wildling_losses_sent_ahead_are_used_in_the_order_written_after_a_supply_cut():
    state = westeros_position(
        westeros_cards={"I": "Supply", "II": "Last Days of Summer", "III": "Wildling Attack"}, wildlings=12,
        supply={"stark": 2}, power={"stark": 1, "lannister": 0, "baratheon": 0, "greyjoy": 0, "tyrell": 0},
        areas={"Winterfell": {"stark": ["footman", "footman", "knight"]}, "White Harbor": {"stark": ["footman", "footman"]},
               "The Shivering Sea": {"stark": ["ship", "ship"]}})
    assert submit(state, "stark", "BID 1\nREMOVE White Harbor: footman\nREMOVE The Shivering Sea: 2 ships").applied
    texts = run(state)
    assert state["areas"]["white-harbor"] == {"stark": ["footman"]}
    assert "the-shivering-sea" not in state["areas"]
    assert not any("default" in t for t in texts)


def test_wildling_loss_defaults_take_the_exact_worth_with_the_weakest_units():
    state = initial_state(EDITION, HOUSES[5], 1)
    ctx = ctx_of(state)
    state["areas"] = {"winterfell": {"stark": ["footman", "knight"]}, "the-shivering-sea": {"stark": ["ship"]},
                      "karhold": {"stark": ["knight"]}}
    assert bidding.loss_target(state, ctx, "stark", 2) == 2
    assert Counter(u for _, u in bidding.default_losses(state, ctx, "stark", 2)) == Counter(["footman", "ship"])
    assert Counter(u for _, u in bidding.default_losses(state, ctx, "stark", 4)) == Counter(["footman", "ship", "knight"])
    assert bidding.loss_target(state, ctx, "stark", 7) == 6  # everything
    state["areas"] = {"winterfell": {"stark": ["knight", "knight"]}}
    assert not bidding.loss_choice(state, ctx, "stark", 2)
    rng = random.Random(1)
    for need in (2, 4):
        for _ in range(20):
            cut = bidding.default_losses(state, ctx, "stark", need, rng)
            assert bidding.losses_problem(state, ctx, "stark", need, bidding.as_removes(cut)) is None


def test_reclaim_needs_a_discarded_card_of_ones_own():
    state = westeros_position(westeros_cards={"I": "Last Days of Summer", "II": "Last Days of Summer", "III": "Wildling Attack"},
                              discards={"stark": ["Eddard Stark"]})
    assert "not among your discarded" in errors(submit(state, "stark", "RECLAIM Robb Stark"))[0]
    assert "Lannister card" in errors(submit(state, "stark", "RECLAIM Tywin Lannister"))[0]
    assert submit(state, "stark", "RECLAIM Eddard Stark").applied


def test_orders_sent_during_westeros_that_lose_their_stars_are_dropped():
    state = westeros_position(westeros_cards={"I": "Last Days of Summer", "II": "Clash of Kings", "III": "Last Days of Summer"})
    sub = submit(state, "lannister", "ORDERS\nLannisport: march +1*\nStoney Sept: defense +2*\nThe Golden Sound: raid*\n"
                                     "BID THRONE 0 FIEFDOMS 0 COURT 0")
    assert sub.applied  # King's Court position 1: three stars
    assert submit(state, "tyrell", "BID THRONE 0 FIEFDOMS 0 COURT 5").applied
    ctx = ctx_of(state)
    events = engine.advance(state, ctx, True)
    while state["phase"] == "westeros":
        events += engine.advance(state, ctx, True)
    assert state["tracks"]["kings_court"][:2] == ["tyrell", "lannister"]  # still 3 stars at position 2
    assert pos.plan(state, "lannister")["orders"] is not None
    state = westeros_position(westeros_cards={"I": "Last Days of Summer", "II": "Clash of Kings", "III": "Last Days of Summer"})
    submit(state, "lannister", "ORDERS\nLannisport: march +1*\nStoney Sept: defense +2*\nThe Golden Sound: raid*")
    for house in ("stark", "baratheon"):
        submit(state, house, "BID THRONE 0 FIEFDOMS 0 COURT 5")
    events = []
    while state["phase"] == "westeros":
        events += engine.advance(state, ctx, True)
    assert state["tracks"]["kings_court"].index("lannister") == 2  # two stars now
    assert pos.plan(state, "lannister")["orders"] is None
    assert any("no longer hold" in e.text and e.to == ("lannister",) for e in events)


def test_a_muster_over_supply_shows_the_armies_as_they_would_be_after_the_muster():
    """Issue 10: the error listed the armies before the muster (3, 2), which fit supply 3."""
    state = westeros_position(westeros_cards={"I": "Mustering", "II": "Last Days of Summer", "III": "Last Days of Summer"},
                              supply={"lannister": 3},
                              areas={"Riverrun": {"lannister": ["knight", "knight", "knight"]},
                                     "Harrenhal": {"lannister": ["footman", "footman"]}})
    run(state, until=lambda s: s["step"] == "muster")
    [error] = errors(submit(state, "lannister", "MUSTER Riverrun: footman"))
    assert "supply" in error and "armies 4, 2 against supply 3" in error, error


def test_a_march_over_supply_shows_the_armies_as_they_would_be_after_the_march():
    state = case_state({"step": "action", "supply": {"lannister": 0}, "neutral": {},
                        "areas": {"Lannisport": {"lannister": ["footman", "knight"]},
                                  "Stoney Sept": {"lannister": ["footman", "footman"]}},
                        "orders": {"Lannisport": "march 0"}})
    [error] = errors(submit(state, "lannister", "MARCH Lannisport -> Stoney Sept: knight"))
    assert "after this march: armies 3 against supply 0" in error, error


def test_bids_that_add_up_to_more_than_the_power_are_refused_at_mail_time():
    """Issue 10: with 5 power, 3 + 2 + 2 cannot be paid: the power bid on one track is gone for the next."""
    state = westeros_position(westeros_cards={"I": "Last Days of Summer", "II": "Clash of Kings", "III": "Last Days of Summer"},
                              power={"baratheon": 5})
    sub = submit(state, "baratheon", "BID THRONE 3 FIEFDOMS 2 COURT 2")
    [line] = [ln for ln in sub.parsed.lines if not ln.ok]
    assert "add up to 7" in str(line.error) and "only 5 power" in str(line.error)
    assert submit(copy.deepcopy(state), "baratheon", line.example).applied
    assert submit(state, "baratheon", "BID THRONE 3 FIEFDOMS 2 COURT 0").applied
    sub = submit(state, "baratheon", "BID 4")  # the Iron Throne again, with Fiefdoms 2 on file
    assert not sub.applied and "add up to 6" in errors(sub)[0]
    assert [ln.example for ln in sub.parsed.lines] == ["BID 3"]
    assert submit(state, "baratheon", "BID 3").applied


def test_a_bid_sent_ahead_that_the_house_can_no_longer_pay_is_cut_to_its_power_and_told_only_to_it():
    """RULES.md W14: no public word about a secret bid; nobody waits for the house either."""
    state = westeros_position(westeros_cards={"I": "Last Days of Summer", "II": "Clash of Kings", "III": "Last Days of Summer"},
                              power={"baratheon": 5})
    assert submit(state, "baratheon", "BID THRONE 1 FIEFDOMS 4 COURT 0").applied
    run(state, force=False, until=lambda s: s["step"] == "bid")
    state["power"]["baratheon"] = 2  # power lost meanwhile (e.g. a GM's repair)
    run(state, until=lambda s: s["westeros"].get("track") == "fiefdoms")
    assert [o.done for o in AGOT1E.pending(state) if o.player == "baratheon"] == [True]
    _, events = AGOT1E.advance(state, force=True)
    told = [e for e in events if "Baratheon" in e.text or "baratheon" in (e.to or ())]
    assert [(e.text, e.to) for e in told if e.to] == [
        ("Your Fiefdoms bid of 4 is more than your 1 power: you bid 1.", ("baratheon",))]
    public = [e.text for e in told if e.to is None]
    assert not any("4" in t for t in public if "Baratheon" in t and "bids" not in t), public
    assert state["westeros"]["bids"]["fiefdoms"]["baratheon"] == 1 and state["power"]["baratheon"] == 0
