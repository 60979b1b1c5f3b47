"""A Czech player's mail, all of it, over a seeded oriflamme game played through the judge and the
mail layer (adjudicator/mail/process.py's Postmaster): replies (with refused lines, HELP, STATUS and
ORDERS?), reports, reminders and press. Nothing in them may be a message key or an English word of
the catalogues (tests/i18nhelp.py), and the Czech player's own mails are written in Czech: the
Czech rendering of the lines a bot would send (Ruleset.line), which the grammar reads as the same
commands."""

from __future__ import annotations

import re

from adjudicator import messages
from czechtable import CzechTable, frame_words, prose
from i18nhelp import untranslated

PLAYERS = ("red", "blue", "green")
CZECH = "blue"
WRONG = ["VYLOŽ Lučištnici", "VYLOŽ Drak NA KONEC", "ODHAL 9", "CÍL Lord: PŘED", "NECHEJ Vraždu V KOLE 3",
         "CÍL Zbrojnoš: DOPROSTŘED", "ZPRÁVA nikdo: ahoj", "ZRUŠ všechno"]
"""Lines a Czech player gets wrong: each is refused with the reason and an example, in Czech."""


def _table(tmp_path, seed: int) -> CzechTable:
    return CzechTable(tmp_path, game="k", ruleset="oriflamme", players=PLAYERS, czech=CZECH, wrong=WRONG, seed=seed,
                      czech_press="ahoj, tady modrý")


def _play(table: CzechTable, seed: int) -> None:
    table.play(seed, steps=400, press_every=7, wrong_per_mail=4)


def test_a_czech_player_reads_every_mail_of_a_seeded_game_in_czech(tmp_path):
    table = _table(tmp_path, seed=5)
    _play(table, seed=5)
    mails = table.mails_to(CZECH)
    for kind in (r"^report-", r"^remind-", r"-press-", r"-reply$"):
        assert any(re.search(kind, name) for name in mails), (kind, sorted(mails))
    text = "\n".join(mails.values())
    # the Czech player met every part of the ruleset's mail
    for seen in ("ODMÍTNUTO", "příklad: ", "Řada intrik", "Vaše ruka:", "Příkazy Krvavého trůnu", "Čeká se na",
                 "Hráč Red vykládá kartu lícem dolů", "bod vlivu", "konec hry po 6. kole", "Rozhodčí má od hráče blue",
                 "  ok       VYLOŽ ", "  ok       ODHAL ", "neznámá karta „drak“", "Hra skončila: "):
        assert seen in text, seen
    assert table.wrong == len(WRONG) and text.count("ODMÍTNUTO") >= len(WRONG)
    assert messages.keys_in(text, ("oriflamme", "judge", "mail")) == []
    frame = frame_words()
    leaks = {name: [w for w in untranslated(prose(body), "cs", ("oriflamme",)) if w.lower() not in frame]
             for name, body in mails.items()}
    assert {name: found for name, found in leaks.items() if found} == {}


def test_the_oriflamme_parts_of_a_czech_mail_have_no_english_word_at_all(tmp_path):
    """Without the allowance for the judge's frame: the board, the HELP block and everything the
    ruleset says, rendered alone for the Czech player over the whole game."""
    from adjudicator import reports
    table = _table(tmp_path, seed=8)
    _play(table, seed=8)
    present = table.judge.present("k")
    env = reports.environment("cs")
    versions = table.judge.store.open("k").version_numbers()
    parts = [env.get_template("oriflamme/help.txt.j2").render()]
    for number in versions:
        view = table.judge.store.open("k").read_version(number)
        for event in view.get("events") or []:
            if event.get("to") in (None, [CZECH]):
                parts.append(messages.render(event, "cs"))
        state = view["state"]
        board = reports.board_of(present.ruleset, present.ruleset.view(state, CZECH), CZECH)
        parts.append(env.get_template("oriflamme/board.txt.j2").render(board=board, player=CZECH))
        parts += [messages.render(o.what, "cs") for o in present.ruleset.pending(state)]
        parts.append(messages.render(present.ruleset.summary(state), "cs"))
        parts += [present.ruleset.line(line, "cs") for line in present.ruleset.on_file(state, CZECH)]
    text = "\n".join(parts)
    assert messages.keys_in(text, ("oriflamme",)) == []
    assert untranslated(text, "cs", ("oriflamme",)) == []
    assert "Lučištnice" in text and "Archer" not in text
