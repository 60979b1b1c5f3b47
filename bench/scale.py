"""Benchmark of a judge with many games: ``judge tick``, ``judge list``, the report sweep, and
the memory of ``judge serve``.

Run: ``python bench/scale.py [--games 10000] [--due 100] [--ruleset agot1e]``. The data directory
is made from two games created by the judge (one whose deadline has passed, one whose has
not), each copied to as many game folders as asked (``shutil.copytree`` keeps the files' times,
an hour in the past: quiet games), so that building 10,000 games takes seconds, not an hour.
Then, each a fresh process as cron runs them (times include starting Python and the imports):

1. ``judge list`` the first time (no ``cache/gameindex.json`` yet: every game is read once);
2. ``judge list`` again (the glance cache: a few ``stat`` calls per game);
3. ``judge tick`` with ``--due`` games due: adjudicates those, opens no other (the deadline
   index, ``adjudicator/deadlineindex.py``); once compiling the judge's modules from source
   (``PYTHONDONTWRITEBYTECODE=1``, as this sandbox runs every process) and once an hour later,
   with as many other games due, with the bytecode cached (``PYTHONPYCACHEPREFIX``), as an
   installed judge has it; then with nothing due, both ways;
4. ``judge deliver`` (the report sweep over every game, then delivery), once with the reports
   of the ticked games to send and once with nothing new;
5. ``judge serve`` started on the directory: its peak memory (VmHWM) after its first tick,
   sweep and delivery.

A benchmark, not a test: nothing here asserts a speed. The README quotes its figures.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.judge import Judge  # noqa: E402
from adjudicator.store import Store  # noqa: E402

NOW = datetime(2030, 1, 10, 12, 0, tzinfo=timezone.utc)
LATER = NOW + timedelta(hours=1)
HOUSES = {"oriflamme": ("alice", "bob", "carol"), "agot1e": ("stark", "lannister", "baratheon")}


def build(data: Path, games: int, due: int, ruleset: str) -> None:
    """``due`` games past their deadline at NOW, ``due`` more past it an hour later (``later``:
    the second tick's, run with cached bytecode), the others quiet."""
    players = {p: {"address": f"{p}@bench.example"} for p in HOUSES[ruleset]}
    Judge(Store(data, fsync=False), now=lambda: NOW - timedelta(days=5)).new_game("due0", ruleset, players, seed=1)
    Judge(Store(data, fsync=False), now=lambda: LATER - timedelta(hours=49, minutes=30)).new_game("later0", ruleset,
                                                                                                   players, seed=1)
    Judge(Store(data, fsync=False), now=lambda: NOW).new_game("quiet0", ruleset, players, seed=1)
    hour_ago = time.time() - 3600
    for template in ("due0", "later0", "quiet0"):
        for root, dirs, files in os.walk(data / template):
            for name in dirs + files + [""]:
                os.utime(Path(root) / name, (hour_ago, hour_ago))
    for n in range(1, games - 2):
        template, name = ("due0", f"due{n}") if n < due else ("later0", f"later{n}") if n < 2 * due - 1 \
            else ("quiet0", f"quiet{n}")
        shutil.copytree(data / template, data / name, copy_function=shutil.copy2)


def judge_cmd(data: Path, *args: str, now: datetime = NOW) -> list[str]:
    return [sys.executable, "-m", "adjudicator", "--data", str(data), "--now", now.strftime("%Y-%m-%dT%H:%M:%SZ"), *args]


def timed(data: Path, *args: str, now: datetime = NOW, env: dict | None = None) -> tuple[float, str]:
    """Wall time of one ``judge`` process, and its output; the CPU time it used (user + system)
    is kept in ``LAST_CPU``: on a shared machine the wall time waits for the other jobs too."""
    global LAST_CPU
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(judge_cmd(data, *args, now=now), capture_output=True, text=True, cwd=ROOT, env=env)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    LAST_CPU = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise SystemExit(f"judge {' '.join(args)} failed: {done.stderr[-2000:]}")
    return took, done.stdout


LAST_CPU = 0.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_memory(data: Path) -> tuple[int, float]:
    """Peak resident memory (KiB) of ``judge serve`` once its first tick, sweep and delivery are
    done, and how long they took (seconds until it went quiet)."""
    proc = subprocess.Popen(judge_cmd(data, "serve", "--listen", f"127.0.0.1:{free_port()}"), cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    start = time.perf_counter()
    try:
        busy, quiet_since = -1, None
        while time.perf_counter() - start < 600:  # until it has used no CPU for 3 s: its first rounds done
            if proc.poll() is not None:
                raise SystemExit(f"judge serve died: {proc.stderr.read()[-2000:]}")
            fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            used = int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks
            if used != busy:
                busy, quiet_since = used, time.perf_counter()
            elif time.perf_counter() - quiet_since > 3:
                break
            time.sleep(0.5)
        status = Path(f"/proc/{proc.pid}/status").read_text()
        peak = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:"))
        return peak, quiet_since - start
    finally:
        proc.terminate()
        proc.wait(30)


def in_process(data: Path) -> str:
    """The tick, the report sweep and the reminders of a running ``judge serve`` (its second
    round: imports done, the caches read once), each timed alone."""
    from adjudicator.mail.process import Postmaster
    from adjudicator.mail.settings import resolve

    judge = Judge(Store(data), now=lambda: NOW)
    postmaster = Postmaster(judge, resolve(data))
    for work in (judge.tick, postmaster.sweep_reports, postmaster.remind):
        work()
    times = {}
    for name, work in (("tick", judge.tick), ("report sweep", postmaster.sweep_reports), ("reminders", postmaster.remind)):
        started = time.perf_counter()
        work()
        times[name] = time.perf_counter() - started
    return ", ".join(f"{name} {took:.2f} s" for name, took in times.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--due", type=int, default=100)
    parser.add_argument("--ruleset", choices=sorted(HOUSES), default="agot1e")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="judge-scale-") as tmp:
        data = Path(tmp) / "data"
        start = time.perf_counter()
        build(data, args.games, args.due, args.ruleset)
        print(f"{args.games} {args.ruleset} games ({args.due} due) built in {time.perf_counter() - start:.1f} s")
        took, out = timed(data, "list")
        print(f"judge list, first (every game read):   {took:7.2f} s  ({len(out.splitlines())} lines)")
        took, _ = timed(data, "list")
        print(f"judge list, again (glance cache):       {took:7.2f} s")
        took, _ = timed(data, "--help")
        print(f"judge --help (start and imports only):  {took:7.2f} s  (CPU {LAST_CPU:.2f} s)")
        no_bytecode = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        took, out = timed(data, "tick", env=no_bytecode)
        print(f"judge tick, {args.due} due, no bytecode:     {took:7.2f} s  (CPU {LAST_CPU:.2f} s; "
              f"{out.count(': new version')} games adjudicated)")
        with tempfile.TemporaryDirectory(prefix="judge-pycache-") as cache:  # bytecode cached, as an installed judge has
            bytecode = {**os.environ, "PYTHONPYCACHEPREFIX": cache}
            bytecode.pop("PYTHONDONTWRITEBYTECODE", None)
            subprocess.run([sys.executable, "-c", "import adjudicator.cli, adjudicator.mail.process; "
                            f"from adjudicator import ruleset; ruleset.get({args.ruleset!r})"],  # what a tick imports
                           env=bytecode, cwd=ROOT, capture_output=True, check=True)
            took, out = timed(data, "tick", now=LATER, env=bytecode)
            print(f"judge tick, {args.due} due, bytecode cached: {took:7.2f} s  (CPU {LAST_CPU:.2f} s; "
                  f"{out.count(': new version')} games adjudicated)")
            time.sleep(2.5)  # the games just ticked are no longer "racy" (gameindex.RACY_NS): a quiet tick
            took, _ = timed(data, "tick", now=LATER, env=bytecode)
            print(f"judge tick, nothing due, bytecode cached: {took:5.2f} s  (CPU {LAST_CPU:.2f} s)")
        took, _ = timed(data, "tick", now=LATER, env=no_bytecode)
        print(f"judge tick, nothing due, no bytecode:   {took:7.2f} s  (CPU {LAST_CPU:.2f} s)")
        took, _ = timed(data, "deliver")
        print(f"judge deliver, reports of the ticks:    {took:7.2f} s  ({len(os.listdir(data / 'maildir' / 'new'))} mails)")
        for game in os.listdir(data):  # what the deliver run wrote is old now, as in a quiet hour
            if (data / game / "game.yaml").exists():
                hour_ago = time.time() - 3600
                for name in ("mail.yaml", "states", "journal", "game.yaml"):
                    if (data / game / name).exists():
                        os.utime(data / game / name, (hour_ago, hour_ago))
        timed(data, "deliver")
        took, _ = timed(data, "deliver")
        print(f"judge deliver, nothing new:             {took:7.2f} s")
        print(f"in one process (as judge serve runs them), nothing new: {in_process(data)}")
        peak, after = serve_memory(data)
        print(f"judge serve, peak memory after its first tick and sweep: {peak / 1024:.0f} MiB ({after:.1f} s)")


if __name__ == "__main__":
    main()
