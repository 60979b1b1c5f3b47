"""A seeded game by mail with one player who writes and reads Czech (issue 11's acceptance tests).

Every mail goes in as a raw message through the mail layer (``adjudicator/mail/process.py``'s
Postmaster) and everything a player gets comes out of the outbox. Seeded bots write every mail;
the Czech player's are the Czech rendering of the lines its bot would send (``Ruleset.line``),
which the grammar must read as the same commands, plus HELP/STATUS/ORDERS? and the ruleset's
``wrong`` lines, each of which must be refused in Czech. Deadlines pass on a fake clock, with a
reminder before each.
"""

from __future__ import annotations

import copy
import email
import email.policy
import random
import re
import sys
from pathlib import Path
from typing import Callable

from adjudicator.judge import Judge, Present
from adjudicator.mail.process import Postmaster
from adjudicator.mail.settings import MailSettings
from adjudicator.paths import TEMPLATES_DIR
from adjudicator.store import Store
from conftest import FakeClock

sys.path.insert(0, str(Path(__file__).resolve().parent / "mail"))  # the mail tests' helpers
from mailhelp import JUDGE, raw_mail, text_of  # noqa: E402

EXTRAS = ["\nNÁPOVĚDA", "\nSTAV", "\nROZKAZY?", ""]
"""What the Czech player adds to its mails in turn: the mail-level commands, in Czech."""


class CzechTable:
    """Game ``game`` of ``ruleset`` for ``players`` (``czech`` writes in Czech) with a postmaster."""

    def __init__(self, tmp_path, *, game: str, ruleset: str, players: tuple[str, ...], czech: str,
                 wrong: list[str], seed: int, options: dict | None = None, czech_press: str = "ahoj"):
        self.game, self.players, self.czech, self.wrong_lines = game, players, czech, wrong
        self.czech_press = czech_press
        self.clock = FakeClock()
        self.judge = Judge(Store(tmp_path / "data", fsync=False), now=self.clock)
        self.passwords = self.judge.new_game(game, ruleset, {
            p: {"address": f"{p}@example.org", **({"language": "cs"} if p == czech else {})} for p in players},
            seed=seed, options=options or {})
        self.postmaster = Postmaster(self.judge, MailSettings(JUDGE))
        self.count = 0
        self.wrong = 0  # how many of the wrong lines the Czech player has sent
        self.czech_mails = 0

    @property
    def present(self) -> Present:
        return self.judge.present(self.game)

    @property
    def state(self) -> dict:
        return self.present.state

    def mail(self, player: str, body: str) -> str:
        """Mail ``body`` as ``player``; the text of the mails it brought ``player`` (the judge's reply)."""
        self.count += 1
        sender = f"{player}@example.org"
        raw = raw_mail(f"JUDGE {self.game} {player} {self.passwords[player]}\n{body}", sender=sender,
                       message_id=f"<{player}-{self.count}@example.org>")
        before = {path.name for path in self._paths()}
        self.postmaster.process(self.postmaster.receive(raw, mail_from=sender))
        return "\n".join(text_of(message) for name, message in self._outbox(exclude=before).items()
                         if message["To"] and sender in message["To"])

    def deadline(self) -> None:
        """The deadline passes: the step is adjudicated with its defaults, the reports go out."""
        self.clock.moment = self.present.deadline()
        self.judge.adjudicate(self.game, force=True, reason="deadline")
        self.postmaster.sweep_reports()

    def _paths(self) -> list[Path]:
        """The outbox's mails, queued and sent."""
        outbox = self.postmaster.outbox
        return sorted([*outbox.root.glob("*.eml"), *outbox.sent_dir.glob("*.eml")])

    def _outbox(self, exclude: set[str] = frozenset()) -> dict:
        """The outbox's mails by file name, parsed, but those named in ``exclude``."""
        return {path.name: email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
                for path in self._paths() if path.name not in exclude}

    def mails_to(self, player: str) -> dict[str, str]:
        """Every mail queued or sent to ``player``, by name: its subject line and its text."""
        return {name[:-len(".eml")]: f"Subject: {message['Subject']}\n" + text_of(message)
                for name, message in self._outbox().items()
                if message["To"] and f"{player}@example.org" in message["To"]}

    def in_czech(self, state: dict, text: str) -> str:
        """A bot's mail as the Czech player writes it: each line as the judge would echo it, in Czech
        (press in the player's own Czech words)."""
        ruleset = self.present.ruleset
        sub = ruleset.submit(copy.deepcopy(state), self.czech, text)
        assert sub.applied, [(ln.text, str(ln.error)) for ln in sub.parsed.lines if not ln.ok]
        return "\n".join(f"ZPRÁVA VŠEM: {self.czech_press}" if line.canonical.startswith("PRESS")
                         else ruleset.line(line.canonical, "cs")
                         for line in sub.parsed.lines if line.canonical is not None)

    def play(self, seed: int, *, steps: int, press_every: int, wrong_per_mail: int,
             enough: Callable[[Present], bool] = lambda present: False) -> None:
        """Play until the game ends (or ``enough``): the others press the Czech player every
        ``press_every`` steps in English; a tenth of the owed decisions is left to the deadline."""
        rng = random.Random(seed)
        for step in range(steps):
            present = self.present
            if present.ruleset.result(present.state) is not None or enough(present):
                return
            for owed in present.owed():
                if owed.done or rng.random() < 0.1:
                    continue
                state = self.present.state
                text = present.ruleset.bot_mail(state, owed.player, rng)
                if text is None:
                    continue
                if owed.player == self.czech:
                    text = self.in_czech(state, text)
                    self.czech_mails += 1
                    text += EXTRAS[self.czech_mails % 4]
                    if self.wrong < len(self.wrong_lines):  # wrong lines change nothing: the right mail follows
                        self.mail(self.czech, "\n".join([text, *self.wrong_lines[self.wrong:self.wrong + wrong_per_mail]]))
                        self.wrong += wrong_per_mail
                elif step % press_every == 0:
                    text += f"\nPRESS {self.czech}: hello from {owed.player}"
                self.mail(owed.player, text)
            present = self.present
            if present.ruleset.result(present.state) is None and present.missing():
                self.clock.moment = present.deadline() - (present.deadline() - self.clock()) / 10
                self.postmaster.remind()
                self.clock.moment = present.deadline()
                self.judge.adjudicate(self.game, force=True, reason="deadline")
                self.postmaster.sweep_reports()
        if not enough(self.present):
            raise AssertionError("the game did not end")


def frame_words() -> set[str]:
    """Words of the judge's own Czech mail frame (templates/cs/*.j2): its list of the mail-level
    commands names the English ones too (HELP, STATUS, ORDERS?, PRESS, SET LANGUAGE)."""
    words = set()
    for path in (TEMPLATES_DIR / "cs").glob("*.j2"):
        words |= {w.lower() for w in re.findall(r"[A-Za-zÀ-ž]{4,}", path.read_text(encoding="utf-8"))}
    return words


def prose(text: str) -> str:
    """What a player reads as words: without the machine-readable X-Judge line, the text of relayed
    press (the other players' own words) and what the player wrote, quoted back in an error („...“)."""
    text = re.sub(r"(?m)^(X-Judge: .*|.*hello from \w+.*)$", "", text)
    return re.sub(r"„[^“]*“", "", text)
