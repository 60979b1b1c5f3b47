"""A whole agotccg game by mail through the mail layer (adjudicator/mail/process.py's Postmaster), with
one Czech player: every mail goes in as a raw message, every reply, report, reminder and press comes
out of the outbox. Nothing the Czech player reads may be a message key or an English word of the
catalogues (tests/i18nhelp.py), and the Czech player's own mails are Czech: the Czech rendering of
the lines a bot would send (Ruleset.line), which the grammar reads as the same commands."""

from __future__ import annotations

import copy
import email
import email.policy
import random
import re
import sys
from pathlib import Path

import pytest

from adjudicator import messages
from adjudicator.judge import Judge
from adjudicator.mail.process import Postmaster
from adjudicator.mail.settings import MailSettings
from adjudicator.paths import TEMPLATES_DIR
from adjudicator.rulesets.agotccg.ruleset import AGOTCCG
from adjudicator.store import Store
from conftest import FakeClock
from i18nhelp import untranslated

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mail"))  # the mail tests' helpers
from mailhelp import JUDGE, raw_mail, text_of  # noqa: E402

PLAYERS = ("alice", "bob", "carol")
CZECH = "bob"
WRONG = ["ZAHRAJ Drak", "VÝZVA PLÍŽIVÁ: Frostfang", "ZÁPLETKA Tichá", "OBRANA VOJENSKÁ Alice: NIKDO",
         "PRVNÍ nikdo", "ZABIJ Neznámý rytíř", "ZPRÁVA nikdo: ahoj", "MULIGAN teď"]
"""Lines a Czech player gets wrong: each is refused with the reason and an example, in Czech."""


class Table:
    def __init__(self, tmp_path, seed: int):
        self.clock = FakeClock()
        self.judge = Judge(Store(tmp_path / "data", fsync=False), now=self.clock)
        self.passwords = self.judge.new_game("k", "agotccg", {
            p: {"address": f"{p}@example.org", **({"language": "cs"} if p == CZECH else {})} for p in PLAYERS},
            seed=seed, options={"decks": "stark-a,lannister-b,greyjoy-a"})
        self.postmaster = Postmaster(self.judge, MailSettings(JUDGE))
        self.count = 0
        self.wrong = 0
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
    sub = AGOTCCG.submit(copy.deepcopy(state), CZECH, text)
    assert sub.applied, [(ln.text, ln.error) for ln in sub.parsed.lines if ln.error]
    return "\n".join("ZPRÁVA VŠEM: ahoj, tady Bob" if line.canonical.startswith("PRESS")
                     else AGOTCCG.line(line.canonical, "cs") for line in sub.parsed.lines)


def _play(table: Table, seed: int) -> None:
    rng = random.Random(seed)
    for step in range(1500):
        present = table.judge.present("k")
        if present.ruleset.result(present.state) is not None:
            return
        for owed in present.owed():
            if owed.done or rng.random() < 0.1:
                continue
            state = table.judge.present("k").state
            text = AGOTCCG.bot_mail(state, owed.player, rng)
            if owed.player == CZECH:
                text = _in_czech(state, text)
                table.czech_mails += 1
                text += ["\nNÁPOVĚDA", "\nSTAV", "\nROZKAZY?", ""][table.czech_mails % 4]
                if table.wrong < len(WRONG):  # a mail with wrong lines changes nothing: the right one follows
                    table.mail(CZECH, "\n".join([text, *WRONG[table.wrong:table.wrong + 4]]))
                    table.wrong += 4
            elif step % 9 == 0:
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
    """Words of the judge's own Czech mail frame (templates/cs/*.j2): its keyword list is English."""
    words = set()
    for path in (TEMPLATES_DIR / "cs").glob("*.j2"):
        words |= {w.lower() for w in re.findall(r"[A-Za-zÀ-ž]{4,}", path.read_text(encoding="utf-8"))}
    return words


def _prose(text: str) -> str:
    """What a player reads as words: without the X-Judge line and the relayed press of the others."""
    return re.sub(r"(?m)^(X-Judge: .*|.*hello from \w+.*)$", "", text)


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> Table:
    table = Table(tmp_path_factory.mktemp("agotccg-mail"), seed=7)
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
    frame = _frame_words()
    leaks = {name: [w for w in untranslated(_prose(body), "cs", ("agotccg",)) if w.lower() not in frame]
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
