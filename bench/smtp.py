"""Benchmark of the mail side: SMTP acceptance, orders end to end, and ``judge ingest`` per mail.

Run: ``python bench/smtp.py [--accept N] [--orders N] [--ingest N] [--connections K]``. Three
measures, all on loopback with real processes, the same smtplib client code for every server:

1. **accepted/s**: mails accepted (250 given) per second by ``judge serve`` and by a bare
   aiosmtpd sink (a handler that answers 250 and drops the mail), and their ratio. The judge
   journals every message (written and fsync'ed in ``inbox/``) *before* its 250; it runs with
   ``--hold-inbox`` here, so that processing does not compete with the listener for the CPU
   (processing is measure 2). K client threads, one reused connection each.
2. **orders/s end to end**: agot1e order mails (sign-on with scrypt password check, parse,
   legality, journal entry fsync'ed, reply rendered and queued, then delivered to the Maildir)
   processed per second by a normal ``judge serve``, from the first SMTP send to the last
   message marked done in the inbox.
3. **ingest s/mail**: wall time of one ``judge ingest`` (a fresh process per mail, as an MTA
   pipe runs it), median of N: with a ``judge serve`` running on the same data (interpreter
   start, the few imports of the hand-over, the journal and its sync, a wake-up to the server),
   and with none (the whole judge imported, the mail processed and the reply delivered).

A benchmark, not a test: nothing here asserts a speed. The README quotes its figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

JUDGE = "judge@bench.example"
ORDERS = "ORDERS\nWinterfell: march -1\nWhite Harbor: defense +1\nThe Shivering Sea: support\n"


# ---------------------------------------------------------------------------------------
# The bare sink (run as: python bench/smtp.py --sink)
# ---------------------------------------------------------------------------------------


class Sink:
    async def handle_DATA(self, server, session, envelope):
        return "250 2.0.0 OK"


def run_sink() -> None:
    from aiosmtpd.smtp import SMTP

    async def main():
        loop = asyncio.get_running_loop()
        server = await loop.create_server(lambda: SMTP(Sink(), hostname="sink.bench", enable_SMTPUTF8=True),
                                          "127.0.0.1", 0)
        print(f"sink listening on 127.0.0.1:{server.sockets[0].getsockname()[1]}", flush=True)
        stop = asyncio.Event()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        await stop.wait()

    asyncio.run(main())


# ---------------------------------------------------------------------------------------
# Processes and the client
# ---------------------------------------------------------------------------------------


def start(args: list[str], env: dict | None = None) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}, cwd=ROOT)
    line = proc.stdout.readline().decode()
    if "listening on" not in line:
        raise SystemExit(f"{' '.join(args)} did not start: {line!r}")
    return proc, int(line.split("listening on ", 1)[1].split()[0].rpartition(":")[2])


def stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    proc.wait(30)
    proc.stdout.close()


def serve(data: Path, *extra: str) -> tuple[subprocess.Popen, int]:
    return start(["-m", "adjudicator", "--data", str(data), "serve", "--listen", "127.0.0.1:0", "--address", JUDGE,
                  "--deliver-every", "0.2", "--rate-limit", "1000000", *extra])


def message(sender: str, body: str, n: int) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = JUDGE
    msg["Subject"] = f"orders {n}"
    msg["Message-ID"] = f"<bench-{n}-{time.monotonic_ns()}@bench.example>"
    msg.set_content(body)
    return msg.as_bytes()


def send_all(port: int, mails: list[tuple[str, bytes]], connections: int) -> float:
    """Send every mail over ``connections`` reused connections (one thread each); seconds taken."""
    import smtplib

    shares = [mails[i::connections] for i in range(connections)]
    errors: list[BaseException] = []

    def worker(share):
        try:
            with smtplib.SMTP("127.0.0.1", port, local_hostname="client.bench", timeout=60) as smtp:
                for sender, raw in share:
                    smtp.sendmail(sender, [JUDGE], raw)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(share,)) for share in shares]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    taken = time.perf_counter() - started
    if errors:
        raise errors[0]
    return taken


def new_game(data: Path) -> dict[str, str]:
    from adjudicator.judge import Judge
    from adjudicator.store import Store

    return Judge(Store(data)).new_game("b", "agot1e", {h: {"address": f"{h}@bench.example"}
                                                      for h in ("stark", "lannister", "baratheon")}, seed=1)


def done_count(data: Path) -> int:
    from adjudicator.mail.inbox import Inbox

    return Inbox(data).done_count() if (data / "inbox").is_dir() else 0


# ---------------------------------------------------------------------------------------
# The three measures
# ---------------------------------------------------------------------------------------


def accept_rates(count: int, connections: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        passwords = new_game(data)
        mails = [("stark@bench.example", message("stark@bench.example", f"JUDGE b stark {passwords['stark']}\n{ORDERS}", n))
                 for n in range(count)]
        sink, port = start([str(Path(__file__).resolve()), "--sink"])
        try:
            send_all(port, mails[:20], connections)  # warm up
            sink_rate = count / send_all(port, mails, connections)
        finally:
            stop(sink)
        judge, port = serve(data, "--hold-inbox")
        try:
            send_all(port, mails[:20], connections)
            judge_rate = count / send_all(port, mails, connections)
        finally:
            stop(judge)
    return judge_rate, sink_rate


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def orders_end_to_end(count: int, connections: int) -> tuple[float, float]:
    """Mails per second, and the server's CPU seconds per mail (the machine may be shared: CPU
    time does not count the waits for other jobs)."""
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        passwords = new_game(data)
        mails = [("stark@bench.example", message("stark@bench.example", f"JUDGE b stark {passwords['stark']}\n{ORDERS}", n))
                 for n in range(count)]
        judge, port = serve(data)
        try:
            send_all(port, mails[:5], 1)  # warm up: imports, caches
            deadline = time.monotonic() + 60
            while done_count(data) < 5 and time.monotonic() < deadline:
                time.sleep(0.01)
            started, cpu = time.perf_counter(), cpu_seconds(judge.pid)
            send_all(port, mails[5:], connections)
            deadline = time.monotonic() + 600
            while done_count(data) < count and time.monotonic() < deadline:
                time.sleep(0.005)
            taken = time.perf_counter() - started
            cpu = cpu_seconds(judge.pid) - cpu
            replies = sum(1 for n in os.listdir(data / "outbox" / "sent") if n.endswith("-reply.eml")) + \
                sum(1 for n in os.listdir(data / "outbox") if n.endswith("-reply.eml"))
        finally:
            stop(judge)
        if done_count(data) < count or replies < count:
            raise SystemExit(f"only {done_count(data)} of {count} processed, {replies} replies")
    return (count - 5) / taken, cpu / (count - 5)


def ingest_times(count: int, *, server: bool, bytecode: bool = False) -> tuple[list[float], list[float]]:
    """Wall time and CPU time of each of ``count`` ``judge ingest`` runs; with ``server``, a
    ``judge serve`` runs on the same data, so ingest journals the mail and hands it over.
    ``bytecode``: the judge's modules compiled once and cached, as an installed judge has them,
    even where ``PYTHONDONTWRITEBYTECODE`` is set (then every start compiles them again)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "adjudicator")], env=env, check=True)
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        passwords = new_game(data)
        running = serve(data)[0] if server else None
        times, cpus = [], []
        try:
            for n in range(count):
                raw = message("stark@bench.example", f"JUDGE b stark {passwords['stark']}\n{ORDERS}", n)
                started, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
                done = subprocess.run([sys.executable, "-m", "adjudicator", "--data", str(data), "ingest", "--address",
                                       JUDGE, "--sender", "stark@bench.example", "--rate-limit", "1000000"], input=raw,
                                      capture_output=True, cwd=ROOT, env=env)
                times.append(time.perf_counter() - started)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
                if done.returncode != 0 or (server and b"handed to the running server" not in done.stderr):
                    raise SystemExit(f"judge ingest failed: {done.stderr.decode()[-500:]}")
        finally:
            if running is not None:
                stop(running)
    return times, cpus


def python_start() -> tuple[float, float]:
    """Wall and CPU time of ``python -c pass`` (the interpreter alone), medians of five."""
    runs, cpus = [], []
    for _ in range(5):
        started, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        runs.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(runs), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sink", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--accept", type=int, default=400, help="mails per server for the acceptance rate")
    parser.add_argument("--orders", type=int, default=150, help="order mails processed end to end")
    parser.add_argument("--ingest", type=int, default=12, help="judge ingest runs")
    parser.add_argument("--connections", type=int, default=4, help="client connections (one thread each)")
    parser.add_argument("--ingest-only", action="store_true", help="measure 3 only")
    args = parser.parse_args()
    if args.sink:
        run_sink()
        return
    print(f"# {platform.node() and ''}{os.cpu_count()} CPUs, Python {platform.python_version()}, {platform.system()}")
    if not args.ingest_only:
        judge_rate, sink_rate = accept_rates(args.accept, args.connections)
        print(f"accepted/s, {args.accept} mails over {args.connections} connections: judge serve (journaled, fsync) "
              f"{judge_rate:.0f}/s, bare aiosmtpd sink {sink_rate:.0f}/s, ratio {judge_rate / sink_rate:.2f}")
        rate, cpu = orders_end_to_end(args.orders, args.connections)
        print(f"order mails processed end to end (sign-on, parse, apply, journal, reply queued): {rate:.1f}/s "
              f"({1000 / rate:.0f} ms each; the server's CPU {cpu * 1000:.1f} ms a mail, {1 / cpu:.0f} mails per CPU second)")
    for server, bytecode in ((True, False), (True, True), (False, False)):
        runs, cpus = ingest_times(args.ingest, server=server, bytecode=bytecode)
        print(f"judge ingest, one process per mail, {'a server running (journal, hand over)' if server else 'no server (journal, process, deliver)'}"
              f"{', bytecode cached' if bytecode else ''}: "
              f"median {statistics.median(runs) * 1000:.0f} ms, min {min(runs) * 1000:.0f} ms over {len(runs)} mails; "
              f"CPU median {statistics.median(cpus) * 1000:.0f} ms")
    wall, cpu = python_start()
    print(f"python -c pass alone: {wall * 1000:.0f} ms (CPU {cpu * 1000:.0f} ms)")

if __name__ == "__main__":
    main()
