"""A Czech player's mail, all of it, over a seeded oriflamme game played through the judge and the
mail layer (adjudicator/mail/process.py's Postmaster): replies (with refused lines, HELP, STATUS and
ORDERS?), reports, reminders and press. Nothing in them may be a message key or an English word of
the catalogues (tests/i18nhelp.py), and the Czech player's own mails are written in Czech: the
Czech rendering of the lines a bot would send (Ruleset.line), which the grammar reads as the same
commands."""

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
from adjudicator.rulesets.oriflamme.ruleset import ORIFLAMME
from adjudicator.store import Store
from conftest import FakeClock
from i18nhelp import untranslated

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mail"))  # the mail tests' helpers
from mailhelp import JUDGE, raw_mail, text_of  # noqa: E402

PLAYERS = ("red", "blue", "green")
CZECH = "blue"
WRONG = ["VYLOŽ Lučištnici", "VYLOŽ Drak NA KONEC", "ODHAL 9", "CÍL Lord: PŘED", "NECHEJ Vraždu V KOLE 3",
         "CÍL Zbrojnoš: DOPROSTŘED", "ZPRÁVA nikdo: ahoj", "ZRUŠ všechno"]
"""Lines a Czech player gets wrong: each is refused with the reason and an example, in Czech."""


class Table:
    """Game ``k`` (Blue writes in Czech) with a postmaster; every mail goes in as a raw message."""

    def __init__(self, tmp_path, seed: int):
        self.clock = FakeClock()
        self.judge = Judge(Store(tmp_path / "data", fsync=False), now=self.clock)
        self.passwords = self.judge.new_game("k", "oriflamme", {
            p: {"address": f"{p}@example.org", **({"language": "cs"} if p == CZECH else {})} for p in PLAYERS},
            seed=seed)
        self.postmaster = Postmaster(self.judge, MailSettings(JUDGE))
        self.count = 0
        self.wrong = 0  # how many of WRONG the Czech player has sent
        self.czech_mails = 0

    def mail(self, player: str, body: str) -> None:
        self.count += 1
        sender = f"{player}@example.org"
        raw = raw_mail(f"JUDGE k {player} {self.passwords[player]}\n{body}", sender=sender,
                       message_id=f"<{player}-{self.count}@example.org>")
        self.postmaster.process(self.postmaster.receive(raw, mail_from=sender))

    def mails_to(self, player: str) -> dict[str, str]:
        outbox = self.postmaster.outbox
        out = {}
        for path in sorted([*outbox.root.glob("*.eml"), *outbox.sent_dir.glob("*.eml")]):
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            if message["To"] and f"{player}@example.org" in message["To"]:
                out[path.stem] = text_of(message)
        return out


def _in_czech(state: dict, text: str) -> str:
    """A bot's mail as a Czech player writes it: each line as the judge would echo it, in Czech."""
    sub = ORIFLAMME.submit(copy.deepcopy(state), CZECH, text)
    assert sub.applied
    return "\n".join("ZPRÁVA VŠEM: ahoj, tady modrý" if line.canonical.startswith("PRESS")
                     else ORIFLAMME.line(line.canonical, "cs") for line in sub.parsed.lines)


def _play(table: Table, seed: int) -> None:
    rng = random.Random(seed)
    for step in range(400):
        present = table.judge.present("k")
        if present.ruleset.result(present.state) is not None:
            return
        for owed in present.owed():
            if owed.done or rng.random() < 0.1:
                continue
            state = table.judge.present("k").state
            text = ORIFLAMME.bot_mail(state, owed.player, rng)
            if owed.player == CZECH:
                text = _in_czech(state, text)
                table.czech_mails += 1
                text += ["\nNÁPOVĚDA", "\nSTAV", "\nROZKAZY?", ""][table.czech_mails % 4]
                if table.wrong < len(WRONG):  # a mail with wrong lines changes nothing: the right one follows
                    table.mail(CZECH, "\n".join([text, *WRONG[table.wrong:table.wrong + 4]]))
                    table.wrong += 4
            elif step % 7 == 0:
                text += f"\nPRESS {CZECH}: hello from {owed.player}"
            table.mail(owed.player, text)
        present = table.judge.present("k")
        if present.ruleset.result(present.state) is None and present.missing():
            table.clock.moment = present.deadline() - (present.deadline() - table.clock()) / 10
            table.postmaster.remind()
            table.clock.moment = present.deadline()
            table.judge.adjudicate("k", force=True, reason="deadline")
            table.postmaster.sweep_reports()
    raise AssertionError("the game did not end")


def _frame_words() -> set[str]:
    """Words of the judge's own Czech mail frame (templates/cs/*.j2, the lead's part of issue 11):
    its keyword list (HELP, STATUS, ORDERS?, PRESS, SET LANGUAGE) is English for now."""
    words = set()
    for path in (TEMPLATES_DIR / "cs").glob("*.j2"):
        words |= {w.lower() for w in re.findall(r"[A-Za-zÀ-ž]{4,}", path.read_text(encoding="utf-8"))}
    return words


def _prose(text: str) -> str:
    """What a player reads as words: without the machine-readable X-Judge line (for tools) and the
    text of relayed press (the players' own words, here English from the others)."""
    return re.sub(r"(?m)^(X-Judge: .*|.*hello from \w+.*)$", "", text)


def test_a_czech_player_reads_every_mail_of_a_seeded_game_in_czech(tmp_path):
    table = Table(tmp_path, seed=5)
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
    frame = _frame_words()
    leaks = {name: [w for w in untranslated(_prose(body), "cs", ("oriflamme",)) if w.lower() not in frame]
             for name, body in mails.items()}
    assert {name: found for name, found in leaks.items() if found} == {}


def test_the_oriflamme_parts_of_a_czech_mail_have_no_english_word_at_all(tmp_path):
    """Without the allowance for the judge's frame: the board, the HELP block and everything the
    ruleset says, rendered alone for the Czech player over the whole game."""
    from adjudicator import reports
    table = Table(tmp_path, seed=8)
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
