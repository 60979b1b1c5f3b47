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

import copy
import email
import email.policy
import random
import re
import sys
from pathlib import Path

from adjudicator import messages
from adjudicator.judge import Judge
from adjudicator.mail.process import Postmaster
from adjudicator.mail.settings import MailSettings
from adjudicator.paths import TEMPLATES_DIR
from adjudicator.rulesets.agot1e.ruleset import AGOT1E
from adjudicator.store import Store
from conftest import FakeClock
from i18nhelp import untranslated

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mail"))  # the mail tests' helpers
from mailhelp import JUDGE, raw_mail, text_of  # noqa: E402

HOUSES = ("stark", "lannister", "baratheon")
CZECH = "lannister"
NAMESPACES = ("agot", "agot1e")
WRONG = ["POCHOD Lannisport -> Winterfell: 1 pěšák", "POCHD Lannisport -> Riverrun: 1 pěšák", "NÁJEZD Lannisport",
         "PODPORA Lannisport -> Nikdo", "KARTA Eddard Stark", "SÁZKA 100", "SHROMÁŽDĚNÍ Lannisport: drak",
         "ZRUŠ něco", "MEČ NĚKDY", "ODSTRAŇ Lannisport: 3 lodě", "VRAŤ Tywina", "POŘADÍ Stark"]
"""Lines a Czech player gets wrong: each is refused with the reason and an example, in Czech."""


class Table:
    """Game ``w`` (Lannister writes in Czech) with a postmaster; every mail goes in as a raw message."""

    def __init__(self, tmp_path, seed: int):
        self.clock = FakeClock()
        self.judge = Judge(Store(tmp_path / "data", fsync=False), now=self.clock)
        self.passwords = self.judge.new_game("w", "agot1e", {
            h: {"address": f"{h}@example.org", **({"language": "cs"} if h == CZECH else {})} for h in HOUSES},
            seed=seed)
        self.postmaster = Postmaster(self.judge, MailSettings(JUDGE))
        self.count = 0
        self.wrong = 0
        self.czech_mails = 0

    def mail(self, house: str, body: str) -> None:
        self.count += 1
        sender = f"{house}@example.org"
        raw = raw_mail(f"JUDGE w {house} {self.passwords[house]}\n{body}", sender=sender,
                       message_id=f"<{house}-{self.count}@example.org>")
        self.postmaster.process(self.postmaster.receive(raw, mail_from=sender))

    def mails_to(self, house: str) -> dict[str, str]:
        outbox = self.postmaster.outbox
        out = {}
        for path in sorted([*outbox.root.glob("*.eml"), *outbox.sent_dir.glob("*.eml")]):
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            if message["To"] and f"{house}@example.org" in message["To"]:
                out[path.stem] = f"Subject: {message['Subject']}\n" + text_of(message)
        return out


def _in_czech(state: dict, text: str) -> str:
    """A bot's mail as a Czech player writes it: each line as the judge would echo it, in Czech."""
    sub = AGOT1E.submit(copy.deepcopy(state), CZECH, text)
    assert sub.applied, [(ln.text, str(ln.error)) for ln in sub.parsed.lines if not ln.ok]
    return "\n".join(AGOT1E.line(line.canonical, "cs") for line in sub.parsed.lines
                     if line.canonical is not None or line.ok)


def _play(table: Table, seed: int, rounds: int = 3) -> None:
    rng = random.Random(seed)
    for step in range(600):
        present = table.judge.present("w")
        if present.ruleset.result(present.state) is not None or present.state["round"] > rounds:
            return
        for owed in present.owed():
            if owed.done or rng.random() < 0.1:
                continue
            state = table.judge.present("w").state
            text = AGOT1E.bot_mail(state, owed.player, rng)
            if text is None:
                continue
            if owed.player == CZECH:
                text = _in_czech(state, text)
                table.czech_mails += 1
                text += ["\nNÁPOVĚDA", "\nSTAV", "\nROZKAZY?", ""][table.czech_mails % 4]
                if table.wrong < len(WRONG):  # a mail with wrong lines changes nothing: the right one follows
                    table.mail(CZECH, "\n".join([text, *WRONG[table.wrong:table.wrong + 3]]))
                    table.wrong += 3
            elif step % 5 == 0:
                text += f"\nPRESS {CZECH}: hello from {owed.player}"
            table.mail(owed.player, text)
        present = table.judge.present("w")
        if present.ruleset.result(present.state) is None and present.missing():
            table.clock.moment = present.deadline() - (present.deadline() - table.clock()) / 10
            table.postmaster.remind()
            table.clock.moment = present.deadline()
            table.judge.adjudicate("w", force=True, reason="deadline")
            table.postmaster.sweep_reports()
    raise AssertionError("the game did not reach its round")


def _frame_words() -> set[str]:
    """Words of the judge's own Czech mail frame (templates/cs/*.j2): its list of the mail-level
    commands names the English ones too (HELP, STATUS, ORDERS?, PRESS, SET LANGUAGE)."""
    words = set()
    for path in (TEMPLATES_DIR / "cs").glob("*.j2"):
        words |= {w.lower() for w in re.findall(r"[A-Za-zÀ-ž]{4,}", path.read_text(encoding="utf-8"))}
    return words


def _prose(text: str) -> str:
    """What a player reads as words: without the machine-readable X-Judge line, the text of relayed
    press (the other players' own words) and what the player wrote, quoted back in an error („...“)."""
    text = re.sub(r"(?m)^(X-Judge: .*|.*hello from \w+.*)$", "", text)
    return re.sub(r"„[^“]*“", "", text)


def test_a_czech_player_reads_every_mail_of_a_seeded_game_in_czech(tmp_path):
    table = Table(tmp_path, seed=21)
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
    frame = _frame_words()
    leaks = {name: [w for w in untranslated(_prose(body), "cs", NAMESPACES) if w.lower() not in frame]
             for name, body in mails.items()}
    assert {name: found for name, found in leaks.items() if found} == {}


def test_the_agot_parts_of_a_czech_mail_have_no_english_word_at_all(tmp_path):
    """Without the allowance for the judge's frame: the board, the HELP block and everything the
    ruleset says, rendered alone for the Czech player over the game."""
    from adjudicator import reports
    table = Table(tmp_path, seed=22)
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
