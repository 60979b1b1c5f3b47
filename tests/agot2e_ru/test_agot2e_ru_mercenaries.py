"""agot2e-ru's mercenaries (option ``mercenaries``, RULES.md V19) as players meet them: sealed HIRE bids by
mail in English and Czech, echoed in each player's language, a bid over the purse refused with the reason,
the auction's outcome and the companies in everyone's report, a Czech reader's mails wholly Czech; every
HIRE and WAGES form read back from Czech and Russian words; ``judge new`` refusing the module without the
gold economy."""

from __future__ import annotations

import email
import email.policy
import re
import sys
from pathlib import Path

import pytest

from adjudicator import messages
from adjudicator import ruleset as rulesets
from adjudicator.judge import Judge
from adjudicator.mail.process import Postmaster
from adjudicator.mail.settings import MailSettings
from adjudicator.ruleset import RulesetError
from adjudicator.rulesets.agot.grammar import GameDataNames, parse_mail
from adjudicator.rulesets.agot2e.edition import load_gamedata
from adjudicator.store import Store
from conftest import FakeClock
from i18nhelp import untranslated

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mail"))  # the mail tests' helpers
from mailhelp import JUDGE, raw_mail, text_of  # noqa: E402

HOUSES = ("stark", "lannister", "baratheon", "greyjoy")
CZECH = "stark"


def _mail(postmaster: Postmaster, passwords: dict, house: str, body: str, n: int) -> None:
    sender = f"{house}@example.org"
    raw = raw_mail(f"JUDGE ru {house} {passwords[house]}\n{body}", sender=sender, message_id=f"<{house}-{n}@example.org>")
    postmaster.process(postmaster.receive(raw, mail_from=sender))


def _texts(postmaster: Postmaster, house: str) -> list[str]:
    outbox = postmaster.outbox
    out = []
    for path in sorted([*outbox.root.glob("*.eml"), *outbox.sent_dir.glob("*.eml")], key=lambda p: p.stat().st_mtime_ns):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        if message["To"] and f"{house}@example.org" in message["To"]:
            out.append(text_of(message))
    return out


def test_sealed_bids_by_mail_in_english_and_czech(tmp_path):
    clock = FakeClock()
    judge = Judge(Store(tmp_path / "data", fsync=False), now=clock)
    passwords = judge.new_game("ru", "agot2e-ru", {
        h: {"address": f"{h}@example.org", **({"language": "cs"} if h == CZECH else {})} for h in HOUSES},
        seed=15, options={"preview": "yes"})
    postmaster = Postmaster(judge, MailSettings(JUDGE))
    while judge.present("ru").state["step"] != "mercenaries":  # nobody writes: every deadline's defaults
        present = judge.present("ru")
        assert present.state["round"] <= 4 and present.ruleset.result(present.state) is None
        clock.moment = present.deadline()
        judge.adjudicate("ru", force=True, reason="deadline")
        postmaster.sweep_reports()
    state = judge.present("ru").state
    assert state["round"] == 4 and state["hiring"]["stage"] == "auction"  # nobody holds a company yet
    bidders = [o.player for o in judge.present("ru").missing()]  # a coast by a sea free of enemy ships, gold
    assert CZECH in bidders and len(bidders) >= 3 and all(state["gold"][h] >= 6 for h in bidders)
    english = next(h for h in bidders if h != CZECH)

    # over the purse: refused with the purse in the reason, nothing kept
    _mail(postmaster, passwords, english, f"HIRE golden company {state['gold'][english] + 1}", 900)
    refused = _texts(postmaster, english)[-1]
    assert f"more than your {state['gold'][english]}" in refused
    # the sealed bids: kept in the plan, echoed in the sender's words, secret from the others
    _mail(postmaster, passwords, english, "HIRE The Second Sons 4", 901)
    assert "HIRE second-sons 4" in _texts(postmaster, english)[-1]
    _mail(postmaster, passwords, CZECH, "NAJMOUT Druzí synové 5", 902)
    reply = _texts(postmaster, CZECH)[-1]
    assert "NAJMOUT Druzí synové 5" in reply
    assert untranslated(re.sub(r"(?m)^X-Judge: .*$", "", reply), "cs", ("agot", "agot2e", "agot2e-ru")) == []
    for house in bidders:
        if house not in (english, CZECH):
            _mail(postmaster, passwords, house, "HIRE NONE", 903)
    postmaster.sweep_reports()  # the last bid in, the judge resolves the auction at once
    state = judge.present("ru").state
    assert state["mercenaries"]["second-sons"] == CZECH
    assert sum(u == "sellsword" for holders in state["areas"].values() for u in holders.get(CZECH, [])) == 3
    report = _texts(postmaster, english)[-1]
    assert f"{english.capitalize()} bids 4 gold for The Second Sons." in report
    assert "Stark hires The Second Sons for 5 gold: 3 sellswords land in" in report
    assert "The Second Sons (Stark: 3 sellswords, wages 1)" in report
    czech = _texts(postmaster, CZECH)[-1]
    assert "Rod Stark najímá Druzí synové za 5 zl.: v oblasti" in czech and "Druzí synové (Stark: 3 žoldnéři" in czech
    assert messages.keys_in(czech, ("agot", "agot2e", "judge", "mail")) == []
    assert untranslated(re.sub(r"(?m)^X-Judge: .*$", "", czech), "cs", ("agot", "agot2e", "agot2e-ru")) == []


def test_judge_new_refuses_mercenaries_without_the_gold_economy():
    rs = rulesets.get("agot2e-ru")
    with pytest.raises(RulesetError, match="the option mercenaries needs gold-economy .*--option mercenaries=no"):
        rs.new_game(["stark", "lannister", "baratheon"], {"preview": "yes", "gold-economy": "no", "mercenaries": "yes"}, 1)
    state = rs.new_game(["stark", "lannister", "baratheon"], {"preview": "yes", "gold-economy": "no"}, 1)
    assert "mercenaries" not in state and "gold" not in state and state["options"]["mercenaries"] == "no"
    state = rs.new_game(["stark", "lannister", "baratheon"], {"preview": "yes"}, 1)
    assert state["mercenaries"] == {"golden-company": None, "second-sons": None, "windblown": None}


@pytest.mark.parametrize("text", ["HIRE golden-company 6", "HIRE second-sons 4", "HIRE windblown 12", "HIRE NONE",
                                  "WAGES PAY", "WAGES STOP", "WAGES DISMISS"])
def test_every_mercenary_line_reads_back_from_czech_and_russian_words(text):
    rs = rulesets.get("agot2e-ru")
    names = GameDataNames(load_gamedata("v1"), variant=True)
    command = parse_mail(text, names).commands
    czech = rs.line(text, "cs")
    assert czech.split()[0] in ("NAJMOUT", "ŽOLD") and parse_mail(czech, names).commands == command
    russian = {"HIRE": "НАНЯТЬ", "WAGES": "ЖАЛОВАНЬЕ", "NONE": "НЕТ", "PAY": "ПЛАТИТЬ", "STOP": "СТОП",
               "DISMISS": "РАСПУСТИТЬ"}
    assert parse_mail(" ".join(russian.get(w, w) for w in text.split()), names).commands == command
    assert rs.line(text, "en") == text


def test_sellswords_crushed_by_the_garrison_alone_take_their_order_off_the_board():
    """Found by the campaign (3 houses, Tides of Battle, seed 3069): the revolt crushed in Lannisport by its
    garrison left Lannister's Defense order on an empty area."""
    from adjudicator.ruleset import get

    ru = get("agot2e-ru")
    state = ru.case_state({"players": ["stark", "lannister", "baratheon"], "round": 5, "step": "action",
                           "mercenaries": {"windblown": "lannister"},
                           "areas": {"Lannisport": {"lannister": ["sellsword", "sellsword"]},
                                     "Stoney Sept": {"lannister": ["footman"]}},
                           "orders": {"Lannisport": "defense +2*", "Stoney Sept": "defense +1"}})
    while state["step"] != "mercenaries" or state["hiring"]["stage"] == "wages":
        if state["step"] == "mercenaries":
            state = ru.submit(state, "lannister", "WAGES STOP").state
        state, _ = ru.advance(state, force=True)
        assert ru.violations(state) == []
    state, events = ru.advance(state, force=True)
    assert any("crushes the revolt" in e.text for e in events)
    assert "lannisport" not in state["orders"] and state["orders"]["stoney-sept"] == "defense +1"
    assert ru.violations(state) == []
