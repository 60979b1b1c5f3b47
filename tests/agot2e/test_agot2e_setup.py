"""agot2e's data loads through the shared AGoT loader (rulesets/agot/gamedata.py) and sets up the
games of 3 to 6 houses as RULES.md R3.1-R3.3 say (garrisons, neutral forces, impassable areas, the
3-player game's missing port ship)."""

from __future__ import annotations

import pytest

from adjudicator.rulesets.agot.newgame import initial_state
from adjudicator.rulesets.agot2e.edition import EDITION, load_gamedata

HOUSES = {6: ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"],
          5: ["stark", "lannister", "baratheon", "greyjoy", "tyrell"],
          4: ["stark", "lannister", "baratheon", "greyjoy"],
          3: ["stark", "lannister", "baratheon"]}


def test_the_board_has_ports_as_a_third_kind_of_area():
    gd = load_gamedata()
    board = gd.board
    assert (len(board.land_areas), len(board.sea_areas), len(board.port_areas)) == (38, 12, 8)
    assert board.port("lannisport") == "port-of-lannisport"
    port = board.area("port-of-pyke")
    assert (port.port_of, port.sea) == ("pyke", "ironmans-bay")
    assert set(board.neighbours("port-of-pyke")) == {"pyke", "ironmans-bay"}
    assert board.resolve("Port of Pyke") == "port-of-pyke"
    assert board.area("winterfell").garrison == 2


def test_the_rest_of_the_second_edition_data_loads():
    gd = load_gamedata()
    assert gd.setup.unit_limits == {"footman": 10, "knight": 5, "ship": 6, "siege_engine": 2}
    assert gd.setup.castle_only_units == ("siege_engine",) and gd.setup.upgrade_to == ("knight", "siege_engine")
    assert gd.setup.port_max_ships == 3
    assert gd.setup.wildlings.start == 2 and gd.setup.wildlings.attack_at == 12
    assert gd.setup.final_tiebreak == ("castles", "land_areas", "supply", "iron_throne")
    assert sum(len(cards) for cards in gd.house_cards.values()) == 42
    tyrion = gd.resolve_card("Tyrion", "lannister")
    assert (tyrion.ability_key, tyrion.timing) == ("cancel-opponent-card", "cancel")
    assert len(gd.wildling_cards) == 9 and sum(c.count for c in gd.tides_of_battle.values()) == 24
    assert gd.westeros_cards["rains-of-autumn"].params["orders"] == ["march-plus-1"]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_new_game_places_only_the_houses_that_play(players):
    gd = load_gamedata()
    state = initial_state(EDITION, HOUSES[players], seed=1)
    assert state["edition"] == "agot2e" and state["wildlings"] == 2
    holders = {h for units in state["areas"].values() for h in units}
    assert holders == set(HOUSES[players])
    assert set(state["garrisons"]) == {gd.board.home_area(h) for h in HOUSES[players]}
    assert all(tuple(state["tracks"][t]) == gd.setup.start_tracks(players)[t] for t in state["tracks"])
    assert all(len(order) == players for order in state["tracks"].values())


def test_absent_houses_leave_neutral_force_tokens_or_closed_areas():
    six, five, four, three = (initial_state(EDITION, HOUSES[n], seed=1) for n in (6, 5, 4, 3))
    assert six["neutral"] == {"kings-landing": 5, "the-eyrie": 6} and six["impassable"] == []
    assert five["neutral"]["sunspear"] == 5 and "storms-end" not in five["neutral"]
    assert four["neutral"]["storms-end"] == 4 and "highgarden" not in four["neutral"]
    assert three["neutral"] == {"kings-landing": 5, "the-eyrie": 6}
    assert "pyke" in three["impassable"] and "sunspear" in three["impassable"]


def test_the_three_player_game_has_no_lannister_port_ship():
    """RULES.md B37 (SR issue #92): a data change if RB p.28 says otherwise."""
    four = initial_state(EDITION, HOUSES[4], seed=1)
    three = initial_state(EDITION, HOUSES[3], seed=1)
    assert four["areas"]["port-of-lannisport"] == {"lannister": ["ship"]}
    assert "port-of-lannisport" not in three["areas"]


def test_the_abilities_the_battle_resolves_are_the_cards_with_those_ability_keys():
    """rulesets/agot2e/cards.py names cards by id; the data names their kind: they must agree."""
    from adjudicator.rulesets.agot2e import cards

    gd = load_gamedata()
    by_key = {}
    for hand in gd.house_cards.values():
        for card in hand:
            by_key.setdefault(card.ability_key, set()).add(card.id)
    assert {key: by_key[key] for key in cards.KEYS} == {key: set(ids or by_key[key]) for key, ids in cards.KEYS.items()}
    assert cards.ALL_ABILITIES == frozenset().union(*(by_key[key] for key in cards.KEYS))
