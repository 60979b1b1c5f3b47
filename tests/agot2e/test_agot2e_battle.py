"""Siege engines and garrisons in the shared battle (agot2e RULES.md R2.2, R7.1, R7.2, R8.6): whole
battles on the 2nd-edition board, both sides taking the deadline defaults, every state in between
checked against the engine's invariants."""

from __future__ import annotations

from adjudicator.messages import render
from adjudicator.rulesets.agot import aftermath, battle, invariants
from adjudicator.rulesets.agot import position as pos
from adjudicator.rulesets.agot.caseposition import case_state
from adjudicator.rulesets.agot.context import ctx_of
from adjudicator.rulesets.agot2e.edition import EDITION

SIX = ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"]
# One card left in hand each, so the deadline default plays it: Eddard Stark 4 (2 swords), Tywin Lannister 4
# (Robb Stark 3 for a defender that must lose).
STARK_DISCARDS = ["Robb Stark", "Roose Bolton", "Greatjon Umber", "Ser Rodrick Cassel", "The Blackfish", "Catelyn Stark"]
LANNISTER_DISCARDS = ["Ser Gregor Clegane", "The Hound", "Ser Jaime Lannister", "Tyrion Lannister",
                      "Ser Kevan Lannister", "Cersei Lannister"]


def fight(areas: dict, origin: str, area: str, units: list[str], attacker: str = "lannister",
          stark_card: str = "Eddard Stark") -> tuple[dict, list[str]]:
    state = case_state(EDITION, {
        "players": SIX, "step": "action", "areas": areas,
        "hands": {"stark": [stark_card], "lannister": ["Tywin Lannister"]},
        "discards": {"stark": [c for c in ["Eddard Stark", *STARK_DISCARDS] if c != stark_card],
                     "lannister": LANNISTER_DISCARDS}})
    ctx = ctx_of(state)
    pos.remove_units(state, origin, units)
    events = battle.start(state, ctx, area=area, attacker=attacker, origin=origin, units=units, march_bonus=0)
    while state["battle"] is not None:
        events += battle.advance(state, ctx, True)
        assert invariants.violations(state, ctx) == []
    return state, [e.text for e in events]


def test_a_siege_engine_attacking_a_castle_area_counts_four():
    state, lines = fight({"Harrenhal": {"lannister": ["footman", "siege_engine"]}, "Riverrun": {"stark": ["footman"]}},
                         "harrenhal", "riverrun", ["footman", "siege_engine"])
    assert "Strength at Riverrun before the house cards: Lannister 5 (1 footman and 1 siege engine 5);" \
           " Stark 1 (1 footman 1)." in lines
    assert state["areas"]["riverrun"] == {"lannister": ["footman", "siege_engine"]}


def test_a_siege_engine_counts_nothing_against_an_area_without_a_castle():
    _, lines = fight({"Harrenhal": {"lannister": ["footman", "siege_engine"]}, "Stoney Sept": {"stark": ["footman"]}},
                     "harrenhal", "stoney-sept", ["footman", "siege_engine"])
    assert any(line.startswith("Strength at Stoney Sept before the house cards: Lannister 1 (1 footman and"
                               " 1 siege engine 1)") for line in lines)


def test_a_beaten_defenders_siege_engines_are_destroyed_not_retreated_and_never_casualties():
    state, lines = fight({"Riverrun": {"stark": ["footman", "footman", "footman"]},
                          "Harrenhal": {"lannister": ["footman", "siege_engine"]}},
                         "riverrun", "harrenhal", ["footman", "footman", "footman"], attacker="stark")
    assert "Strength at Harrenhal before the house cards: Stark 3 (3 footmen 3); Lannister 1 (1 footman and" \
           " 1 siege engine 1)." in lines
    assert "Lannister's 1 siege engine in Harrenhal cannot retreat and is destroyed with the beaten army." in lines
    assert "Lannister loses 1 footman in Harrenhal (2 swords on Eddard Stark against 0 fortifications on" \
           " Tywin Lannister)." in lines
    assert pos.house_units(state, "lannister")["siege_engine"] == 0


def test_a_beaten_attackers_siege_engines_do_not_go_home():
    state, lines = fight({"Harrenhal": {"lannister": ["siege_engine"]}, "Stoney Sept": {"stark": ["knight", "footman"]}},
                         "harrenhal", "stoney-sept", ["siege_engine"])
    assert "Lannister's 1 siege engine in Stoney Sept cannot retreat and is destroyed with the beaten army." in lines
    assert "harrenhal" not in state["areas"]


def test_a_garrison_adds_to_its_houses_defence_of_its_home_and_is_removed_when_it_loses():
    state, lines = fight({"Greywater Watch": {"lannister": ["footman", "knight", "siege_engine"]},
                          "Winterfell": {"stark": ["footman"]}},
                         "greywater-watch", "winterfell", ["footman", "knight", "siege_engine"])
    assert "Strength at Winterfell before the house cards: Lannister 7 (1 footman and 1 knight and 1 siege engine 7);" \
           " Stark 3 (1 footman 1, garrison +2)." in lines
    assert "Stark's garrison in Winterfell is defeated and removed for good." in lines
    assert "winterfell" not in state["garrisons"]


def test_a_garrison_that_holds_stays():
    state, lines = fight({"Castle Black": {"lannister": ["footman"]}, "Winterfell": {"stark": ["footman"]}},
                         "castle-black", "winterfell", ["footman"])
    assert "Stark wins the battle at Winterfell." in lines
    assert state["garrisons"]["winterfell"] == 2


def test_no_retreat_into_another_houses_garrison():
    """B38: an enemy home whose garrison stands is no empty area to retreat into; an empty area is."""
    state = case_state(EDITION, {"players": SIX, "step": "action", "areas": {"Riverrun": {"stark": ["footman"]}}})
    ctx = ctx_of(state)
    b = {"area": "riverrun", "defender": "stark", "attacker": "tyrell", "origin": "harrenhal"}
    assert render(aftermath.retreat_problem(state, ctx, b, "lannisport"), "en") == "it holds Lannister's garrison"
    assert aftermath.retreat_problem(state, ctx, b, "seagard") is None
