"""A whole agotccg game by mail through the mail layer (adjudicator/mail/process.py's Postmaster), with
one Czech player: every mail goes in as a raw message, every reply, report, reminder and press comes
out of the outbox. Nothing the Czech player reads may be a message key or an English word of the
catalogues (tests/i18nhelp.py), and the Czech player's own mails are Czech: the Czech rendering of
the lines a bot would send (Ruleset.line), which the grammar reads as the same commands."""

from __future__ import annotations

import re

import pytest

from adjudicator import messages
from adjudicator.rulesets.agotccg.ruleset import AGOTCCG
from czechtable import CzechTable, frame_words, prose
from i18nhelp import untranslated

PLAYERS = ("alice", "bob", "carol")
CZECH = "bob"
WRONG = ["ZAHRAJ Drak", "VÝZVA PLÍŽIVÁ: Frostfang", "ZÁPLETKA Tichá", "OBRANA VOJENSKÁ Alice: NIKDO",
         "PRVNÍ nikdo", "ZABIJ Neznámý rytíř", "ZPRÁVA nikdo: ahoj", "MULIGAN teď"]
"""Lines a Czech player gets wrong: each is refused with the reason and an example, in Czech."""


def _table(tmp_path, seed: int) -> CzechTable:
    return CzechTable(tmp_path, game="k", ruleset="agotccg", players=PLAYERS, czech=CZECH, wrong=WRONG, seed=seed,
                      options={"decks": "stark-a,lannister-b,greyjoy-a"}, czech_press="ahoj, tady Bob")


def _play(table: CzechTable, seed: int) -> None:
    table.play(seed, steps=1500, press_every=9, wrong_per_mail=4)


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> CzechTable:
    table = _table(tmp_path_factory.mktemp("agotccg-mail"), seed=7)
    _play(table, seed=7)
    return table


def test_a_game_by_mail_with_a_czech_player_reads_wholly_in_czech(table):
    assert AGOTCCG.result(table.judge.present("k").state) in PLAYERS
    mails = table.mails_to(CZECH)
    for kind in (r"^report-", r"^remind-", r"-press-", r"-reply$"):
        assert any(re.search(kind, name) for name in mails), (kind, sorted(mails))
    text = "\n".join(mails.values())
    for seen in ("ODMÍTNUTO", "příklad: ", "Vaše ruka", "Čeká se na", "zápletku", "Iniciativa: ", "Nadvláda",
                 "výzvu proti hráči", "konec hry", "  ok       ZÁPLETKA ", "  ok       ZAHRAJ ", "  ok       VÝZVA ",
                 "žádná karta se nejmenuje „drak“", "„pliziva“ není typ výzvy", "příklad: PRVNÍ JÁ"):
        assert seen in text, seen
    assert table.wrong == len(WRONG) and text.count("ODMÍTNUTO") >= len(WRONG) - 1
    assert messages.keys_in(text, ("agotccg", "judge", "mail")) == []
    frame = frame_words()
    leaks = {name: [w for w in untranslated(prose(body), "cs", ("agotccg",)) if w.lower() not in frame]
             for name, body in mails.items()}
    assert {name: found for name, found in leaks.items() if found} == {}
    english = "\n".join(table.mails_to("alice").values())
    assert messages.keys_in(english, ("agotccg", "judge", "mail")) == []
    assert "Your hand (only you see it):" in english and "Initiative: " in english


def test_no_player_mail_holds_the_game_masters_view_of_the_hands(table):
    for player in PLAYERS:
        for name, body in table.mails_to(player).items():
            assert "\nHands:\n" not in body and "\nRuce hráčů:\n" not in body, name
            if name.startswith("report-"):
                own = "Vaše ruka (vidíte ji jen vy):" if player == CZECH else "Your hand (only you see it):"
                assert body.count(own) == 1, name
