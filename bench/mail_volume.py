"""How many mails a player gets per round: a report after every step, against digests.

Run: ``python bench/mail_volume.py [--rounds 2] [--seed 5]``. The same seeded 3-house agot1e game
is played twice by mail through the postmaster (in process, on a fake clock): seeded bots answer
whatever each house owes, one mail per owed step, as ``judge demo`` plays. Once with every
player on ``SET REPORTS EVERY STEP`` (how the judge reported before issue 11: a report to every
player after every adjudicated step), once on the default ``DIGEST`` (a report when the player
must act, when a phase ended, or when the game is over). Printed: mails per player and round,
by kind (the replies to their own mails, reports), and the totals.

A measurement, not a test: the README quotes its figures.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.judge import Judge  # noqa: E402
from adjudicator.mail.process import Postmaster  # noqa: E402
from adjudicator.mail.settings import MailSettings  # noqa: E402
from adjudicator.rulesets.agot import bot  # noqa: E402
from adjudicator.rulesets.agot.context import ctx_of  # noqa: E402
from adjudicator.store import Store  # noqa: E402

HOUSES = ("stark", "lannister", "baratheon")
JUDGE = "judge@bench.example"


class Clock:
    def __init__(self):
        self.moment = datetime(2030, 1, 1, tzinfo=timezone.utc)

    def __call__(self):
        return self.moment


def play(reports: str, rounds: int, seed: int) -> tuple[Counter, int]:
    """Mails (player, kind) over ``rounds`` rounds with every seat on ``reports``; and rounds played."""
    clock = Clock()
    data = Path(tempfile.mkdtemp(prefix="mail-volume-")) / "data"
    judge = Judge(Store(data, fsync=False), now=clock)
    passwords = judge.new_game("v", "agot1e", {h: {"address": f"{h}@bench.example", "reports": reports}
                                               for h in HOUSES}, seed=seed)
    postmaster = Postmaster(judge, MailSettings(JUDGE, rate_limit=10_000))
    rng = random.Random(seed)
    seen: set[str] = set()
    counts: Counter = Counter()
    serial = 0
    for _ in range(2000):
        present = judge.present("v")
        if present.ruleset.result(present.state) is not None or present.state["round"] > rounds:
            break
        owing = list(dict.fromkeys(o.player for o in present.missing()))
        sent = False
        for house in owing:
            text = bot.mail_for(present.state, ctx_of(present.state), house, rng)
            if text is None:
                continue
            serial += 1
            raw = (f"From: {house}@bench.example\r\nTo: {JUDGE}\r\nSubject: orders\r\nMessage-ID: <m{serial}@bench>\r\n"
                   f"\r\nJUDGE v {house} {passwords[house]}\r\n{text}\r\n").encode()
            postmaster.receive(raw, mail_from=f"{house}@bench.example")
            postmaster.process_pending()
            sent = True
        if not sent:  # a step nobody can answer: the deadline passes
            clock.moment += timedelta(days=3)
            postmaster.tick()
        clock.moment += timedelta(minutes=5)
        for name in postmaster.outbox.pending():
            if name in seen:
                continue
            seen.add(name)
            player = name.rsplit("-", 1)[1]
            kind = "report" if name.startswith("report-") else "reply" if name.endswith("-reply") else "other"
            if kind == "reply":
                player = next(h for h in HOUSES if f"{h}@" in postmaster.outbox.recipients(name)[0])
            counts[(player, kind)] += 1
    return counts, min(judge.present("v").state["round"] - 1, rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    for reports in ("every-step", "digest"):
        counts, rounds = play(reports, args.rounds, args.seed)
        per_player = {h: sum(n for (p, _), n in counts.items() if p == h) for h in HOUSES}
        reports_per = {h: counts[(h, "report")] for h in HOUSES}
        print(f"{reports:>10}: {rounds} rounds; mails per player {per_player} "
              f"(reports {reports_per}, replies {dict((h, counts[(h, 'reply')]) for h in HOUSES)}); "
              f"per player and round {sum(per_player.values()) / len(HOUSES) / max(1, rounds):.1f}, "
              f"reports per player and round {sum(reports_per.values()) / len(HOUSES) / max(1, rounds):.1f}")


if __name__ == "__main__":
    main()
