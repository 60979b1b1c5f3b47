"""A Czech player's mail, all of it, over a seeded 3-house agot1e game played through the judge and the
mail layer (adjudicator/mail/process.py's Postmaster): replies (with refused lines, HELP, STATUS and
ORDERS?), reports (digests), reminders, press and notices. Nothing in them may be a message key or an
English word of the catalogues (tests/i18nhelp.py), and the Czech player's own mails are written in
Czech: the Czech rendering of the lines a bot would send (Ruleset.line), which the grammar reads as
the same commands.

The judge's own Czech frame (templates/cs/*.j2) lists the mail-level commands in both languages
(NÁPOVĚDA | HELP, ...): its words are allowed in the whole mails, as in the oriflamme test; the
second test renders the agot parts alone (events, owed decisions, summaries, the board, HELP, lines
on file) and allows nothing.
"""

from __future__ import annotations

import re

from adjudicator import messages
from czechtable import CzechTable, frame_words, prose
from i18nhelp import untranslated

HOUSES = ("stark", "lannister", "baratheon")
CZECH = "lannister"
NAMESPACES = ("agot", "agot1e")
WRONG = ["POCHOD Lannisport -> Winterfell: 1 pěšák", "POCHD Lannisport -> Riverrun: 1 pěšák", "NÁJEZD Lannisport",
         "PODPORA Lannisport -> Nikdo", "KARTA Eddard Stark", "SÁZKA 100", "SHROMÁŽDĚNÍ Lannisport: drak",
         "ZRUŠ něco", "MEČ NĚKDY", "ODSTRAŇ Lannisport: 3 lodě", "VRAŤ Tywina", "POŘADÍ Stark"]
"""Lines a Czech player gets wrong: each is refused with the reason and an example, in Czech."""


def _table(tmp_path, seed: int) -> CzechTable:
    return CzechTable(tmp_path, game="w", ruleset="agot1e", players=HOUSES, czech=CZECH, wrong=WRONG, seed=seed)


def _play(table: CzechTable, seed: int, rounds: int = 3) -> None:
    table.play(seed, steps=600, press_every=5, wrong_per_mail=3, enough=lambda present: present.state["round"] > rounds)


def test_a_czech_player_reads_every_mail_of_a_seeded_game_in_czech(tmp_path):
    table = _table(tmp_path, seed=21)
    _play(table, seed=21)
    mails = table.mails_to(CZECH)
    for kind in (r"^report-", r"^remind-", r"-press-", r"-reply$"):
        assert any(re.search(kind, name) for name in mails), (kind, sorted(mails))
    text = "\n".join(mails.values())
    for seen in ("ODMÍTNUTO", "příklad: ", "Co se stalo", "Odhalené rozkazy", "Rod Lannister", "Příkazy Hry o trůny",
                 "  ok       ROZKAZY", "Kolo 1 končí.", "Rozhodčí má od hráče lannister", "pěšák"):
        assert seen in text, seen
    assert table.wrong >= len(WRONG)
    assert messages.keys_in(text, ("agot", "agot1e", "judge", "mail")) == []
    frame = frame_words()
    leaks = {name: [w for w in untranslated(prose(body), "cs", NAMESPACES) if w.lower() not in frame]
             for name, body in mails.items()}
    assert {name: found for name, found in leaks.items() if found} == {}


def test_the_agot_parts_of_a_czech_mail_have_no_english_word_at_all(tmp_path):
    """Without the allowance for the judge's frame: the board, the HELP block and everything the
    ruleset says, rendered alone for the Czech player over the game."""
    from adjudicator import reports
    table = _table(tmp_path, seed=22)
    _play(table, seed=22, rounds=2)
    present = table.judge.present("w")
    env = reports.environment("cs")
    files = table.judge.store.open("w")
    parts = [env.get_template("agot1e/help.txt.j2").render()]
    for number in files.version_numbers():
        version = files.read_version(number)
        for event in version.get("events") or []:
            if event.get("to") in (None, [CZECH]):
                parts.append(messages.render(event, "cs"))
        state = version["state"]
        board = reports.board_of(present.ruleset, present.ruleset.view(state, CZECH), CZECH)
        parts.append(env.get_template("agot1e/board.txt.j2").render(board=board, player=CZECH, ruleset="agot1e"))
        parts += [messages.render(o.what, "cs") for o in present.ruleset.pending(state)]
        parts.append(messages.render(present.ruleset.summary(state), "cs"))
        parts += [present.ruleset.line(line, "cs") for line in present.ruleset.on_file(state, CZECH)]
    text = "\n".join(parts)
    assert messages.keys_in(text, NAMESPACES) == []
    assert untranslated(text, "cs", NAMESPACES) == []
    assert "Odhalené rozkazy" in text and "Orders revealed" not in text
