"""Benchmark of agot1e order mails end to end inside the judge: signed on, parsed, applied,
journaled, reply rendered and queued, as ``judge serve`` processes a batch (no SMTP, no delivery).

Run: ``python bench/orders.py [--mails 300] [--games 10] [--runs 3] [--profile FILE]``. The mails
(the same order mail of each house of ``--games`` agot1e games in turn, each replacing that
house's orders, so no step is adjudicated) are put in the inbox with ``Postmaster.receive``, then
``Postmaster.process_pending`` is timed with ``time.process_time`` (CPU time of this process:
on a machine shared with other jobs, wall time mostly measures them; the wall time is printed
beside it), and its user and system parts apart: the system part is mostly the kernel creating
the two files a mail writes (its journal entry, its reply), which on a file system without a
journal, as this sandbox's, grows with every file deleted on it in the last minutes (ext4's
``recently_deleted`` scan: each new inode skips those freed in the last 60 to 360 s), whoever
deleted them, a bench's cleanup of its last run included. So the runs' data directories are
removed only after the last run, and ``--keep`` leaves them in place (printed; the caller removes
them after its last measurement), so that processes measured in turns do not pay for each
other's cleanup either. The store syncs as in service
(fsync on, the batch's group commit).

A benchmark, not a test: nothing here asserts a speed. The README quotes its figures.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.judge import Judge  # noqa: E402
from adjudicator.mail.process import Postmaster  # noqa: E402
from adjudicator.mail.settings import MailSettings  # noqa: E402
from adjudicator.store import Store  # noqa: E402

HOUSES = ("stark", "lannister", "baratheon")
JUDGE = "judge@bench.example"
ORDERS = {"stark": "ORDERS\nWinterfell: march -1\nWhite Harbor: defense +1\nThe Shivering Sea: support\n",
          "lannister": "ORDERS\nLannisport: march 0\nStoney Sept: support\nThe Golden Sound: raid\n",
          "baratheon": "ORDERS\nDragonstone: march\nKingswood: support\nShipbreaker Bay: defense\n"}
NOW = datetime(2030, 1, 1, 1, tzinfo=timezone.utc)


def run(mails: int, games: int, profile: str | None, folder: str) -> tuple[float, float, float, int]:
    """CPU, wall and user CPU seconds of ``process_pending`` for ``mails`` mails; replies queued.
    The data directory is made in ``folder`` and left there (see the module's docstring)."""
    tmp = tempfile.mkdtemp(dir=folder)
    data = Path(tmp) / "data"
    judge = Judge(Store(data), now=lambda: NOW)
    passwords = {f"g{n}": judge.new_game(f"g{n}", "agot1e", {h: {"address": f"{h}@bench.example"} for h in HOUSES},
                                         seed=n) for n in range(games)}
    postmaster = Postmaster(judge, MailSettings(JUDGE, rate_limit=1_000_000))
    for n in range(mails + 6):
        game, house = f"g{n % games}", HOUSES[(n // games) % len(HOUSES[:2])]  # two houses: no step completes
        raw = (f"From: {house}@bench.example\r\nTo: {JUDGE}\r\nSubject: orders {n}\r\nMessage-ID: <m{n}@bench>\r\n"
               f"Content-Type: text/plain; charset=utf-8\r\n\r\n"
               f"JUDGE {game} {house} {passwords[game][house]}\r\n{ORDERS[house]}").encode()
        postmaster.receive(raw, mail_from=f"{house}@bench.example")
        if n == 5:
            postmaster.process_pending()  # warm up: imports, templates, caches (as a running server has)
    profiler = None
    if profile:
        import cProfile
        profiler = cProfile.Profile()
        profiler.enable()
    cpu, wall, user = time.process_time(), time.perf_counter(), os.times().user
    handled = postmaster.process_pending()
    cpu, wall, user = time.process_time() - cpu, time.perf_counter() - wall, os.times().user - user
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(profile)
    statuses = {h.status for h in handled}
    replies = len([n for n in postmaster.outbox.pending() if n.endswith("-reply")])
    if len(handled) != mails or replies < mails:
        raise SystemExit(f"{len(handled)} of {mails} mails handled ({statuses}), {replies} replies")
    return cpu, wall, user, replies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mails", type=int, default=300)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", help="write a cProfile of the last run here")
    parser.add_argument("--keep", action="store_true", help="leave the runs' data directories for the caller to remove")
    args = parser.parse_args()
    rates, user_rates = [], []
    folder = tempfile.mkdtemp(prefix="bench-orders-")
    try:
        for n in range(args.runs):
            cpu, wall, user, _ = run(args.mails, args.games, args.profile if n == args.runs - 1 else None, folder)
            rates.append(args.mails / cpu)
            user_rates.append(args.mails / user)
            print(f"run {n + 1}: {args.mails} mails in {cpu:.2f} s CPU ({args.mails / cpu:.0f} mails per CPU second; "
                  f"user {user:.2f} s, system {cpu - user:.2f} s), {wall:.2f} s wall")
    finally:
        if args.keep:
            print(f"data kept in {folder}")
        else:
            shutil.rmtree(folder)
    print(f"median: {statistics.median(rates):.0f} mails per CPU second "
          f"({statistics.median(user_rates):.0f} per second of user CPU)")


if __name__ == "__main__":
    main()
