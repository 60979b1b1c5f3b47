"""The hostage phase by mail (agot2e-ru, option hostages; RULES.md V20): from a position where Stark holds
Stannis Baratheon hostage, Lannister offers a ransom and Stark, who reads and writes Czech, accepts it; the
judge's replies and reports tell it, in English and wholly in Czech, where Stark's own line is Czech words
(``PŘIJMI … OD``)."""

from __future__ import annotations

from adjudicator import messages
from adjudicator.rulesets.agot.lines import in_language
from adjudicator.rulesets.agot2e_ru.ruleset import AGOT2E_RU
from positiontable import PositionTable

HOUSES = ("stark", "lannister", "baratheon")
HOSTAGE_PHASE = {"round": 3, "step": "hostages", "gold": {"lannister": 9},
                 "hostages": [{"card": "Stannis Baratheon", "holder": "stark", "since": 2}]}


def test_a_ransom_offered_and_accepted_by_mail(tmp_path, monkeypatch):
    table = PositionTable(tmp_path, monkeypatch, AGOT2E_RU, HOUSES, HOSTAGE_PHASE, czech="stark")
    assert table.state["hostage_phase"]["stage"] == "offers"
    table.mail("lannister", "RANSOM Stannis Baratheon 4")
    table.mail("baratheon", "RANSOM NONE")
    if table.state["hostage_phase"]["stage"] == "offers":
        table.deadline()
    assert table.state["hostage_phase"]["stage"] == "answers"
    before = dict(table.state["gold"])
    table.mail("stark", in_language("ACCEPT Stannis Baratheon FROM Lannister", "cs"))
    if table.state["step"] == "hostages":
        table.deadline()

    assert table.state["gold"]["lannister"] == before["lannister"] - 4
    assert table.state["gold"]["stark"] == before["stark"] + 4
    assert [(e["card"], e["holder"]) for e in table.state["hostages"]["held"]] == [("stannis-baratheon", "lannister")]
    mails = table.new_mail()
    assert "Lannister offers 4 gold for Stannis Baratheon" in mails["baratheon"]
    assert "Stark accepts Lannister's offer of 4 gold for Stannis Baratheon" in mails["baratheon"]
    czech = mails["stark"]
    assert "za kartu Stannis Baratheon" in czech and "Rukojmí: Stannis Baratheon (rod Baratheon) drží rod Lannister" in czech
    assert any(line.split()[1:2] == ["ok"] and "PŘIJMI Stannis Baratheon" in line and "OD Lannister" in line
               for line in czech.splitlines() if line.split())
    assert messages.keys_in(czech, ("agot", "agot2e", "judge", "mail")) == []
