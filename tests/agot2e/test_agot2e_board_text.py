"""The board section of an agot2e report (templates/<lang>/agot/board.txt.j2 through agot2e/board.txt.j2, the
display data of adjudicator/rulesets/agot/display.py): each garrison token on its home area while it stands,
the neutral force tokens of the house count, ships in ports, siege engines, and in a 3-house game the areas
closed for the game with their ports; in English and in Czech, with no English word in the Czech."""

from __future__ import annotations

import re

from adjudicator import reports
from adjudicator.judge import Judge
from adjudicator.store import Store
from conftest import FakeClock
from i18nhelp import untranslated

HOUSES = ("stark", "lannister", "baratheon", "greyjoy")


def _present(tmp_path, houses=HOUSES):
    judge = Judge(Store(tmp_path / "data", fsync=False), now=FakeClock())
    judge.new_game("b", "agot2e", {h: {"address": f"{h}@example.org"} for h in houses}, seed=8,
                   options={"preview": "yes"})
    return judge.present("b")


def _board(present, language: str, player: str = "stark") -> dict[str, str]:
    """The board section's lines by area name (the name and its castle kind, then what is there)."""
    text = reports.render_report(present, player, [], 1, language)
    section = text.split("\n\n")
    lines = next(part for part in section if part.startswith(("Board (", "Mapa ("))).splitlines()[1:]
    return {m.group(1).strip(): m.group(2) for line in lines if (m := re.match(r"  (.{28}) (.*)", line))}


def test_garrisons_and_neutral_forces_of_a_four_house_game(tmp_path):
    present = _present(tmp_path)
    assert present.state["garrisons"] == {"winterfell": 2, "pyke": 2, "lannisport": 2, "dragonstone": 2}
    en, cs = _board(present, "en"), _board(present, "cs")
    assert en["Winterfell (stronghold)"] == "Stark: 1 footman, 1 knight; garrison 2"
    assert en["Pyke (stronghold)"].endswith("; garrison 2") and en["Dragonstone (stronghold)"].endswith("; garrison 2")
    assert cs["Winterfell (pevnost)"] == "Stark: 1 pěšák, 1 rytíř; posádka 2"
    assert en["Sunspear (stronghold)"] == "neutral force 5" and cs["Sunspear (pevnost)"] == "neutrální síla 5"
    assert en["Storm's End (castle)"] == "neutral force 4" and en["The Eyrie (castle)"] == "neutral force 6"
    assert sum("garrison" in line for line in en.values()) == 4, "no garrison where no house plays"
    assert not any("Highgarden" in name for name in en), "Tyrell does not play: nothing of it on the board"


def test_a_garrison_that_fell_is_gone_from_the_board(tmp_path):
    present = _present(tmp_path)
    del present.state["garrisons"]["winterfell"]
    assert _board(present, "en")["Winterfell (stronghold)"] == "Stark: 1 footman, 1 knight"


def test_ships_in_ports_and_siege_engines(tmp_path):
    present = _present(tmp_path)
    present.state["areas"]["port-of-winterfell"] = {"stark": ["ship", "ship"]}
    present.state["areas"]["lannisport"]["lannister"].append("siege_engine")
    en, cs = _board(present, "en"), _board(present, "cs")
    assert en["Port of Winterfell"] == "Stark: 2 ships" and cs["Port of Winterfell"] == "Stark: 2 lodě"
    assert en["Lannisport (stronghold)"] == "Lannister: 1 footman, 1 knight, 1 siege engine; garrison 2"
    assert cs["Lannisport (pevnost)"] == "Lannister: 1 pěšák, 1 rytíř, 1 obléhací stroj; posádka 2"


def test_a_three_house_game_names_its_closed_areas_and_ports(tmp_path):
    present = _present(tmp_path, HOUSES[:3])
    en = reports.render_report(present, "stark", [], 1, "en")
    cs = reports.render_report(present, "stark", [], 1, "cs")
    closed = ("Closed for this game (no unit may enter): Dornish Marches, Highgarden, Oldtown, Port of Oldtown, Port of"
              " Pyke, Port of Storm's End, Port of Sunspear, Prince's Pass, Pyke, Salt Shore, Starfall, Storm's End,"
              " Sunspear, The Boneway, Three Towers, Yronwood\n")
    assert closed in en
    assert "Uzavřeno pro tuto hru (žádná jednotka sem nesmí): Dornish Marches, Highgarden," in cs
    assert untranslated(cs.split("\n", 1)[1], "cs", ("agot",)) == []
    four = reports.render_report(_present(tmp_path / "four"), "stark", [], 1, "en")
    assert "Closed for this game" not in four
