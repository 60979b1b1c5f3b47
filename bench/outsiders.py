"""Benchmark of what mail from outsiders costs the judge: mail no game pays for.

Run: ``PYTHONPATH=. python bench/outsiders.py [--games 1000] [--mails 20]``. With N toy games
(three seats each, files aged so that their glances are trusted, as a judge's quiet games are),
CPU time (``time.process_time``) per mail of ``Postmaster.process_pending``, for a batch of mails
of each kind, each from a new address:

1. a mail without a sign-on (answered in the language of a seat the sender holds, if any);
2. ``LIST``;
3. a 1.9 MB mail of 15,000 tiny attachments without a sign-on (one mail; its reply's size too);
4. the rate limiter: a counted mail from each of M new senders (``RateLimiter.hit``), per hit.

A benchmark, not a test: nothing here asserts a speed. Run it with ``PYTHONPATH`` set to an older
checkout to compare (the 15,000-attachment and LIST figures of the README were measured so).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "mail")]

from adjudicator.judge import Judge  # noqa: E402
from adjudicator.mail.process import Postmaster  # noqa: E402
from adjudicator.mail.ratelimit import RateLimiter  # noqa: E402
from adjudicator.mail.settings import MailSettings  # noqa: E402
from adjudicator.store import Store  # noqa: E402
from conftest import START, FakeClock  # noqa: E402
from mailhelp import JUDGE, raw_mail  # noqa: E402


def bomb(count: int) -> bytes:
    parts = ["--B\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nhello\r\n"]
    parts += [f'--B\r\nContent-Type: application/octet-stream; name="f{i:05d}.bin"\r\n'
              f'Content-Disposition: attachment; filename="f{i:05d}.bin"\r\n\r\nAAAA\r\n' for i in range(count)]
    return raw_mail("".join(parts) + "--B--\r\n", sender="bomb@evil.example", message_id="<bomb@evil.example>",
                    content_type='multipart/mixed; boundary="B"')


def per_mail(postmaster: Postmaster, bodies: list[tuple[str, bytes]]) -> float:
    for sender, raw in bodies:
        postmaster.receive(raw, mail_from=sender, sync=False)
    start = time.process_time()
    postmaster.process_pending()
    return (time.process_time() - start) / len(bodies)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--mails", type=int, default=20)
    parser.add_argument("--senders", type=int, default=5000)
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="bench-outsiders-")) / "data"
    clock = FakeClock()
    judge = Judge(Store(data, fsync=False), now=clock)
    for i in range(args.games):
        judge.new_game(f"g{i:05d}", "toy", {h: {"address": f"{h}{i}@example.org"} for h in ("alice", "bob", "carol")},
                       seed=i)
    then = time.time() - 3600
    for path in sorted(data.rglob("*"), key=lambda p: -len(p.parts)):
        os.utime(path, (then, then))
    postmaster = Postmaster(judge, MailSettings(JUDGE, rate_limit=10**6))
    postmaster.process(postmaster.receive(raw_mail("LIST", sender="warm@up.example"), mail_from="warm@up.example"))
    print(f"{args.games} games, {args.mails} mails of each kind, CPU per mail:")
    hello = [(f"x{i}@out.example", raw_mail("hello", sender=f"x{i}@out.example", message_id=f"<h{i}@out>"))
             for i in range(args.mails)]
    print(f"  no sign-on        {per_mail(postmaster, hello) * 1000:8.1f} ms")
    lists = [(f"l{i}@out.example", raw_mail("LIST", sender=f"l{i}@out.example", message_id=f"<l{i}@out>"))
             for i in range(args.mails)]
    print(f"  LIST              {per_mail(postmaster, lists) * 1000:8.1f} ms")
    number = postmaster.receive(bomb(15000), mail_from="bomb@evil.example", sync=False)
    start = time.process_time()
    handled = postmaster.process(number)
    cpu = time.process_time() - start
    size = (postmaster.outbox.root / f"{handled.mails[0]}.eml").stat().st_size
    print(f"  15,000 attachments {cpu * 1000:7.1f} ms, reply {size} bytes")
    limiter = RateLimiter(data / "bench-ratelimit", limit=30, window_seconds=3600)
    start = time.process_time()
    for i in range(args.senders):
        limiter.hit(f"s{i}@spam.example", START + timedelta(seconds=i / 10))
    print(f"  rate limiter, {args.senders} new senders: {(time.process_time() - start) / args.senders * 1e6:.0f} us a hit")


if __name__ == "__main__":
    main()
