"""The transactions at any time on the engine (agot2e-ru, gold-economy; RULES.md V22, D25): the self-play
bots make every kind without a refusal, and a transaction waits in the ledger until the next adjudication
publishes it, once, before the step's own events."""

from __future__ import annotations

import pytest

from adjudicator import ruleset as rulesets
from adjudicator import selfplay

RULESET = rulesets.get("agot2e-ru")


def test_the_bots_make_every_kind_of_transaction_and_none_is_refused():
    kinds = set()
    for seed in (308, 309):  # two seeded games between them make every kind
        played = selfplay.play(RULESET, RULESET.default_players(4), seed, options={"preview": "yes"})
        assert played.rejected == []
        kinds |= {entry["event"]["key"] for entry in played.state["ledger"]}
        told = [e.key for e in played.events if e.key.startswith(("agot.bank.", "agot.purse."))]
        assert sorted(told) == sorted(entry["event"]["key"] for entry in played.state["ledger"])  # each told once
    assert {"agot.bank.loan", "agot.bank.repaid", "agot.purse.gift", "agot.purse.token", "agot.purse.supply",
            "agot.bank.growth", "agot.bank.collects", "agot.bank.collected"} <= kinds


def test_a_transaction_is_published_once_at_the_next_adjudication_before_the_step():
    state = RULESET.case_state({"players": ["stark", "lannister", "baratheon"]})
    sub = RULESET.submit(state, "stark", "GIVE Lannister 2")
    assert sub.applied and sub.state["gold"]["lannister"] == 7  # done at once
    assert [str(n) for n in sub.notes] == ["Stark gives 2 gold to Lannister (purses: Stark 3, Lannister 7)."]
    state, events = RULESET.advance(sub.state, force=True)
    assert events[0].text == "Stark gives 2 gold to Lannister (purses: Stark 3, Lannister 7)." and events[0].to is None
    assert len(events) > 1  # the step's own events follow
    state, events = RULESET.advance(state, force=True)
    assert not any(e.key == "agot.purse.gift" for e in events)
    assert [(e["step"], e["told"]) for e in state["ledger"]] == [("orders", True)]


def test_a_refused_mail_makes_no_transaction():
    state = RULESET.case_state({"players": ["stark", "lannister", "baratheon"]})
    sub = RULESET.submit(state, "stark", "LOAN 5\nMARCH Nowhere -> Winterfell: 1 footman")
    assert not sub.applied and sub.state["gold"]["stark"] == 5 and sub.state["ledger"] == []


def test_supply_bought_at_the_recount_spares_the_cut_it_made_fit():
    """The seed's occasion for Free-City supply: the round's supply recount leaves Lannister over its limit
    (armies 3, 3 against supply 2); two purchases make them fit, so it owes no REMOVE and loses nothing."""
    state = RULESET.case_state({
        "players": ["stark", "lannister", "baratheon"], "round": 2, "step": "action", "gold": {"lannister": 9},
        "areas": {"Lannisport": {"lannister": ["footman"] * 3}, "Stoney Sept": {"lannister": ["footman"] * 3}}})
    while state["step"] != "supply_recount":
        state, _ = RULESET.advance(state, force=False)
    assert [o.player for o in RULESET.pending(state)] == ["lannister"] and state["supply"]["lannister"] == 2
    sub = RULESET.submit(state, "lannister", "BUY SUPPLY")
    assert [o.player for o in RULESET.pending(sub.state)] == ["lannister"]  # supply 3: armies 3, 3 still too many
    sub = RULESET.submit(sub.state, "lannister", "BUY SUPPLY")
    assert sub.state["supply"]["lannister"] == 4 and RULESET.pending(sub.state) == []
    state, events = RULESET.advance(sub.state, force=False)
    assert state["areas"]["lannisport"]["lannister"] == ["footman"] * 3 and state["step"] != "supply_recount"
    assert not any(e.key == "agot.default.supply" for e in events)


@pytest.mark.parametrize("line, error, example", [
    ("LOAN 3", "Baratheon already has 2 loans of the Iron Bank, the most at once (2): repay its debt of 8 first",
     "REPAY 3"),
    ("GIVE Baratheon 1", "Baratheon cannot give gold to itself: name another house", "GIVE Stark 1"),
    ("GIVE Tyrell 1", 'unknown house "Tyrell" (houses: Stark, Lannister, Baratheon)', "GIVE Lannister 1"),
    ("GIVE Stark 4", "Baratheon's purse holds 3 gold, not the 4 this needs", "GIVE Stark 3"),
    ("BUY SUPPLY", "Baratheon controls no area with a port whose sea is free of enemy ships", "BUY TOKEN Kingswood"),
    ("REPAY 9", "Baratheon owes the Iron Bank 8 gold, not 9", "REPAY 3"),
])
def test_every_refusal_names_the_problem_with_a_valid_example(line, error, example):
    state = RULESET.case_state({
        "players": ["stark", "lannister", "baratheon"], "gold": {"baratheon": 3}, "debts": {"baratheon": 8},
        "loans": {"baratheon": 2}, "areas": {"Kingswood": {"baratheon": ["footman"]},
                                             "Shipbreaker Bay": {"lannister": ["ship"]}}})
    result = RULESET.submit(state, "baratheon", line).parsed.lines[0]
    assert error in str(result.error) and result.example == example
    assert RULESET.submit(state, "baratheon", result.example).applied
