"""Ports and impassable areas in the shared AGoT engine (agot2e RULES.md R3.3, R5.4, R6, R8.1, R8.7):
marches, raids, supports and retreats on the 2nd-edition board, from positions in the rules-case
format (``caseposition.case_state``)."""

from __future__ import annotations

import pytest

from adjudicator.messages import render
from adjudicator.rulesets.agot import action, aftermath, support
from adjudicator.rulesets.agot import position as pos
from adjudicator.rulesets.agot.caseposition import case_state
from adjudicator.rulesets.agot.commands import March, Move, Raid
from adjudicator.rulesets.agot.context import ctx_of
from adjudicator.rulesets.agot.invariants import violations
from adjudicator.rulesets.agot2e.edition import EDITION

SIX = ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"]


def position(areas: dict, **more) -> tuple[dict, object]:
    state = case_state(EDITION, {"players": SIX, "step": "action", "areas": areas, **more})
    return state, ctx_of(state)


def march(src: str, dest: str, *units: str) -> March:
    return March(src, (Move(dest, tuple(units)),))


def text(msg) -> str:
    return render(msg, "en")


def test_ships_move_between_a_sea_and_their_own_port_only():
    state, ctx = position({"Lannisport": {"lannister": ["footman"]}, "The Golden Sound": {"lannister": ["ship"]},
                           "Port of Pyke": {"greyjoy": ["ship"]}, "Pyke": {"greyjoy": ["footman"]},
                           "Ironman's Bay": {"lannister": ["ship"]}})
    assert action.reachable(state, ctx, "lannister", "the-golden-sound") >= {"port-of-lannisport"}
    assert "port-of-pyke" not in action.reachable(state, ctx, "lannister", "ironmans-bay")
    assert action.reachable(state, ctx, "greyjoy", "port-of-pyke") == {"ironmans-bay"}
    state["orders"] = {"the-golden-sound": "march 0", "ironmans-bay": "march 0"}
    assert action.check_march(state, ctx, "lannister", march("the-golden-sound", "port-of-lannisport", "ship")) is None
    problem = action.check_march(state, ctx, "lannister", march("ironmans-bay", "port-of-pyke", "ship"))
    assert text(problem).startswith("Port of Pyke cannot be reached from Ironman's Bay")


def test_land_units_never_enter_a_port():
    state, ctx = position({"Lannisport": {"lannister": ["footman", "knight"]}}, orders={"Lannisport": "march 0"})
    problem = action.check_march(state, ctx, "lannister", march("lannisport", "port-of-lannisport", "footman"))
    assert text(problem).startswith("Port of Lannisport: ships stay at sea")


def test_a_port_holds_at_most_three_ships():
    state, ctx = position({"Lannisport": {"lannister": ["footman"]},
                           "Port of Lannisport": {"lannister": ["ship", "ship", "ship"]},
                           "The Golden Sound": {"lannister": ["ship"]}},
                          orders={"The Golden Sound": "march 0"}, supply={"lannister": 6})
    problem = action.check_march(state, ctx, "lannister", march("the-golden-sound", "port-of-lannisport", "ship"))
    assert text(problem) == "Port of Lannisport holds at most 3 ships"


def test_a_port_raids_only_its_sea_and_is_raided_only_from_it():
    state, ctx = position({"Lannisport": {"lannister": ["footman"]}, "Port of Lannisport": {"lannister": ["ship"]},
                           "The Golden Sound": {"greyjoy": ["ship"]}, "Searoad Marches": {"tyrell": ["footman"]}},
                          orders={"Port of Lannisport": "raid", "Lannisport": "support", "The Golden Sound": "support",
                                  "Searoad Marches": "raid"})
    assert action.raid_targets(state, ctx, "port-of-lannisport") == ["the-golden-sound"]
    assert "port-of-lannisport" not in action.raid_targets(state, ctx, "searoad-marches")
    assert action.raid_targets(state, ctx, "searoad-marches") == ["lannisport"]
    problem = action.check_raid(state, ctx, "lannister", Raid("port-of-lannisport", ("lannisport",)))
    assert text(problem).startswith("Lannisport is not a target of the raid in Port of Lannisport")


def test_ships_in_a_port_support_only_a_battle_in_its_sea():
    state, ctx = position({"Lannisport": {"lannister": ["footman"]}, "Port of Lannisport": {"lannister": ["ship"]},
                           "The Golden Sound": {"greyjoy": ["ship"]}},
                          orders={"Port of Lannisport": "support"})
    assert support.supporters(state, ctx, "the-golden-sound") == ["port-of-lannisport"]
    assert support.supporters(state, ctx, "lannisport") == []


def test_beaten_ships_may_retreat_into_their_own_port_but_not_anothers():
    state, ctx = position({"Lannisport": {"lannister": ["footman"]}, "Pyke": {"greyjoy": ["footman"]},
                           "The Golden Sound": {"lannister": ["ship"]}})
    b = {"area": "the-golden-sound", "defender": "lannister", "attacker": "greyjoy", "origin": "ironmans-bay"}
    assert aftermath.retreat_problem(state, ctx, b, "port-of-lannisport") is None
    state["areas"]["ironmans-bay"] = {"greyjoy": ["ship"]}
    b_pyke = {"area": "ironmans-bay", "defender": "greyjoy", "attacker": "lannister", "origin": "the-golden-sound"}
    assert aftermath.retreat_problem(state, ctx, b_pyke, "port-of-pyke") is None
    pos.set_units(state, "pyke", "greyjoy", [])
    pos.set_units(state, "pyke", "stark", ["footman"])  # Stark holds Pyke: the port is no longer Greyjoy's
    assert text(aftermath.retreat_problem(state, ctx, b_pyke, "port-of-pyke")).startswith("ships retreat only")


def test_nobody_enters_an_impassable_area_in_the_three_player_game():
    state = case_state(EDITION, {"players": SIX[:3], "step": "action",
                                 "areas": {"Lannisport": {"lannister": ["footman"]},
                                           "The Golden Sound": {"lannister": ["ship"]}}})
    ctx = ctx_of(state)
    assert "pyke" in state["impassable"]
    assert "pyke" not in action.reachable(state, ctx, "lannister", "lannisport")
    assert "port-of-pyke" not in action.reachable(state, ctx, "lannister", "the-golden-sound")


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_new_game_meets_the_invariants(players):
    state = case_state(EDITION, {"players": SIX[:players]})
    assert violations(state, ctx_of(state)) == []


@pytest.mark.parametrize("text, wanted", [
    ("Port of Lannisport: raid\nRAID Port of Lannisport -> Lannisport",
     "Lannisport cannot be raided from Port of Lannisport: it is not the sea of that port: a raid from a port "
     "reaches only its sea"),
    ("Lannisport: raid\nRAID Lannisport -> Port of Lannisport",
     "Port of Lannisport cannot be raided from Lannisport: it is a port: a raid from land never reaches a port"),
])
def test_a_raid_sent_ahead_between_a_port_and_the_land_is_refused_for_what_a_port_is(text, wanted):
    """Not "a raid from land never reaches the sea": a port is neither the land nor the open sea."""
    from adjudicator.rulesets.agot2e.ruleset import AGOT2E
    state = AGOT2E.new_game(["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"], {}, 1)
    state["areas"]["port-of-lannisport"] = {"lannister": ["ship"]}
    sub = AGOT2E.submit(state, "lannister", f"ORDERS\n{text}\n")
    [raid] = [ln for ln in sub.parsed.lines if ln.text.startswith("RAID")]
    assert render(raid.error, "en").startswith(wanted)
    assert "přístav" in render(raid.error, "cs") and "z pevniny nikdy nezasáhne moře" not in render(raid.error, "cs")
