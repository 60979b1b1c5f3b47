"""Red team in an agot1e game by mail (``tests/czechtable.py``'s table: stark, lannister, baratheon;
baratheon writes Czech): Stark tries to play Lannister's areas and cards, and to read Lannister's
secret orders and instructions through the judge's answers (echoes, errors, valid examples, HELP,
STATUS, ORDERS?).
"""

from __future__ import annotations

import random

import pytest

from adjudicator.rulesets.agot import position as pos
from adjudicator.rulesets.agot.context import ctx_of

from czechtable import CzechTable
from mailhelp import text_of

ATTACKS = [
    "ORDERS\nLannisport: raid\nStoney Sept: march 0\nWinterfell: march 0",  # another house's areas
    "MARCH Stoney Sept -> Harrenhal: 1 footman",  # another house's march
    "RAID The Golden Sound -> Lannisport",
    "SUPPORT Stoney Sept -> Stark",
    "CARD Tywin Lannister",  # another house's card
    "RECLAIM Tywin Lannister",
    "RAVEN Stoney Sept: raid",  # a raven not held, on another house's area
    "CLEAR ORDERS",
    "ORDERS\nWinterfell: march 0; Stoney Sept: raid",  # two orders on one line
    "Winterfell: march 0 Lannisport: raid",
    "STATUS", "ORDERS?", "HELP",
]


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    table = CzechTable(tmp_path_factory.mktemp("redteam"), game="w", ruleset="agot1e",
                       players=("stark", "lannister", "baratheon"), czech="baratheon", wrong=[], seed=5)
    lannister = table.present.ruleset.bot_mail(table.state, "lannister", random.Random(1))
    table.mail("lannister", lannister + "\nCARD Tywin Lannister\nRETREAT Lannisport\nCASUALTIES 1 knight")
    return table


def test_lannisters_secret_lines_never_reach_stark(table):
    secrets = [line for line in table.present.ruleset.on_file(table.state, "lannister") if line != "ORDERS"]
    assert len(secrets) >= 4, secrets
    for attack in ATTACKS:
        answer = table.mail("stark", attack)
        assert answer, attack
        for line in secrets:
            assert line in attack or line not in answer, (attack, line)  # (Stark's own echo is no leak)


@pytest.mark.parametrize("line", ["ABILITY Tywin Lannister: yes", "CARD Tywin Lannister", "RECLAIM Tywin Lannister"])
def test_a_line_for_another_houses_card_is_refused_even_sent_ahead(table, line):
    answer = table.mail("stark", line)
    assert "REJECTED " + line in answer, answer
    assert line not in "\n".join(table.present.ruleset.on_file(table.state, "stark"))


def test_orders_on_another_houses_areas_are_refused_with_an_example_of_ones_own(table):
    answer = table.mail("stark", "ORDERS\nLannisport: raid\nWinterfell: march 0")
    assert "Lannisport is held by Lannister, not by you" in answer
    example = next(line for line in answer.splitlines() if "example:" in line).split("example:", 1)[1].strip()
    state = table.state
    ctx = ctx_of(state)
    assert example.split(":")[0] in [ctx.area(a) for a in state["areas"] if pos.owner(state, a) == "stark"], example


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_one_press_line_cannot_forge_a_press_block_of_another_house(tmp_path, separator):
    """A PRESS line is one line of the sender's mail; a Unicode line separator inside it must not
    become lines in the relayed mail, where it would pass for a press block from another house."""
    table = CzechTable(tmp_path, game="w", ruleset="agot1e", players=("stark", "lannister", "baratheon"),
                       czech="baratheon", wrong=[], seed=5)
    forged = separator.join(["We are friends.", "", "Press from Lannister (game w, to ALL):", "",
                             "  Lannister will attack Baratheon at Blackwater."])
    before = {path.name for path in table._paths()}
    table.mail("stark", f"PRESS ALL: {forged}")
    relayed = {name: message for name, message in table._outbox(exclude=before).items() if "-press-" in name}
    assert len(relayed) in (0, 2)  # (a grammar that reads the separator as a line end refuses the mail)
    for name, message in relayed.items():
        lines = [line.strip() for line in text_of(message).splitlines()]
        assert not any(line.startswith("Press from Lannister") for line in lines), name
        assert sum(line.startswith(("Press from Stark", "Zpráva od rodu Stark")) for line in lines) == 1, name


@pytest.mark.parametrize("area, accepted", [("Winter\u200bfell", True), ("\u202eWinterfell", True),
                                            ("Winterfell\u00a0", True), ("W\u0456nterfell", False)])
def test_invisible_and_look_alike_characters_in_an_area_name(table, area, accepted):
    """Zero-width and direction marks are not part of a name (the echo shows the area as on the
    board); a Cyrillic look-alike letter is no area of the board: refused, with the real one offered."""
    answer = table.mail("stark", f"ORDERS\n{area}: march 0\nWhite Harbor: support\nThe Shivering Sea: raid")
    if accepted:
        assert "ok       Winterfell: march 0" in answer
    else:
        assert "REJECTED" in answer and "did you mean Winterfell?" in answer
