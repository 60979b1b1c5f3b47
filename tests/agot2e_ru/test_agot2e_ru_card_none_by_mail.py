"""CARD NONE by mail (agot2e-ru option optional-house-card, RULES.md V23): in a game the seeded bots play by
mail, the first battle whose defender has not yet said whether it plays a house card is answered by hand:
the defender writes the Russian keywords (КАРТА НЕТ), the attacker reads the defender's word in its
question and answers; both fight without a card and keep their hands. A Czech player's KARTA ŽÁDNÁ is
echoed in Czech; in a game without the option the line is refused, naming the option."""

from __future__ import annotations

import random

from czechtable import CzechTable


HOUSES = ("stark", "lannister", "baratheon", "greyjoy")
CZECH = "stark"
NAMES = {"stark": "Stark", "lannister": "Lannister", "baratheon": "Baratheon", "greyjoy": "Greyjoy"}


class Table(CzechTable):
    def __init__(self, tmp_path, options: dict):
        super().__init__(tmp_path, game="ru", ruleset="agot2e-ru", players=HOUSES, czech=CZECH, wrong=[], seed=15,
                         options=options)

    def play_until(self, wanted, rng, most: int = 400):
        """Bots mail every owed decision (a battle's house cards left to the hand) until ``wanted(state)``."""
        for _ in range(most):
            present = self.judge.present("ru")
            if wanted(present.state):
                return present.state
            assert present.ruleset.result(present.state) is None, "the game ended before the wanted position"
            for owed in present.owed():
                if owed.done or rng.random() < 0.1:
                    continue
                state = self.judge.present("ru").state
                if wanted(state):
                    return state
                text = present.ruleset.bot_mail(state, owed.player, rng)
                if text is not None:
                    text = "\n".join(line for line in text.splitlines() if not line.startswith("CARD"))
                    if text.strip():
                        self.mail(owed.player, text)
            present = self.judge.present("ru")
            if not wanted(present.state) and present.missing():
                self.deadline()
        raise AssertionError("no such position in the seeded game")


def _announcing(state: dict) -> bool:
    b = state.get("battle")
    return bool(b) and b["stage"] == "announce" and b.get("announcing") == b["defender"]


def test_card_none_announced_by_mail_defender_first(tmp_path):
    table = Table(tmp_path, {})
    state = table.play_until(_announcing, random.Random(15))
    b = state["battle"]
    defender, attacker = b["defender"], b["attacker"]
    hands = {h: sorted(state["hands"][h]) for h in (defender, attacker)}

    reply = table.mail(defender, "КАРТА НЕТ")
    assert "CARD NONE" in reply or "KARTA ŽÁDNÁ" in reply  # the echo, in the defender's language
    after = table.judge.present("ru").state
    assert defender in after["battle"]["no_card"] and after["battle"]["announcing"] == attacker
    asked = table.judge.present("ru").owed()
    assert [o.player for o in asked] == [attacker]
    table.postmaster.sweep_reports()
    told = "\n".join(table.mails_to(attacker).values())  # the attacker's question names the defender's word
    assert (f"rod {NAMES[defender]} ohlásil, že kartu nezahraje" if attacker == CZECH
            else f"({NAMES[defender]} announced no card)") in told

    word = "KARTA ŽÁDNÁ" if attacker == CZECH else "CARD NONE"
    assert word in table.mail(attacker, word)
    final = table.judge.present("ru").state
    for house in (defender, attacker):
        assert sorted(final["hands"][house]) == hands[house]  # no card played: the hands are as they were
    table.postmaster.sweep_reports()
    english = "\n".join(table.mails_to(next(h for h in (attacker, defender) if h != CZECH)).values())
    assert f"{NAMES[defender]} announces: no house card in the battle at" in english
    assert f"{NAMES[defender]} fights without a house card." in english
    assert f"{NAMES[attacker]} fights without a house card." in english


def test_card_none_is_refused_by_mail_without_the_option(tmp_path):
    table = Table(tmp_path, {"optional-house-card": "no"})
    reply = table.mail("lannister", "CARD NONE")
    assert "CARD NONE is the agot2e-ru option optional-house-card" in reply
    reply = table.mail(CZECH, "KARTA ŽÁDNÁ")
    assert "KARTA ŽÁDNÁ je volba optional-house-card varianty agot2e-ru" in reply
    assert all(table.judge.present("ru").state["plans"][h]["cards"] == [] for h in ("lannister", CZECH))


def test_card_none_is_kept_for_the_battle_in_czech(tmp_path):
    """Sent ahead in the planning phase, in Czech: echoed in Czech and kept on file for a battle."""
    table = Table(tmp_path, {})
    reply = table.mail(CZECH, "KARTA ŽÁDNÁ V Winterfell")
    assert "KARTA ŽÁDNÁ V Winterfell" in reply
    assert table.judge.present("ru").state["plans"][CZECH]["cards"] == ["CARD NONE IN Winterfell"]


def test_card_none_is_read_in_english_czech_and_russian_and_unknown_to_agot1e():
    """``CARD NONE`` (Czech KARTA ŽÁDNÁ, Russian КАРТА НЕТ) for 2nd-edition data; agot1e's grammar keeps
    reading NONE as a card's name (its errors stay as they were)."""
    from adjudicator.ruleset import get
    from adjudicator.rulesets.agot.grammar import GameDataNames, parse_mail
    from adjudicator.rulesets.agot1e.edition import load_gamedata as first_edition
    from adjudicator.rulesets.agot2e.edition import load_gamedata as second_edition

    names = GameDataNames(second_edition())
    for text, area in (("CARD NONE", None), ("karta žádná v Harrenhal", "harrenhal"), ("КАРТА НЕТ", None)):
        [command] = parse_mail(text, names).commands
        assert (command.card_id, command.battle_area) == (None, area), text
    assert not parse_mail("CARD NONE", GameDataNames(first_edition())).ok
    assert get("agot2e-ru").line("CARD NONE IN Harrenhal", "cs") == "KARTA ŽÁDNÁ V Harrenhal"
