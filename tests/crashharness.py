"""The kill -9 campaign: a real ``judge`` process killed at every crash point of a command.

Each *scenario* is one command a judge runs for real (an adjudication at a deadline, a GM's
submission, a rollback, a mail through the MTA pipe, a delivery run). For each scenario:

1. the command runs once uninterrupted from a prepared data directory, with
   ``JUDGE_CRASH_TRACE`` listing the crash points it passes (see ``adjudicator/crashpoints.py``),
   and what it leaves is the *reference*;
2. for each crash point k (all of them, or a seeded sample), a fresh copy of the prepared
   directory, the command run with ``JUDGE_CRASH_AT=k`` (the process SIGKILLs itself there);
3. the *recovery* that follows such a crash in real life: cron runs ``judge tick`` again, the
   GM looks at ``judge status`` and repeats a command that did not reach the journal, the MTA
   delivers the same message again until ``judge ingest`` exits 0, ``judge deliver`` runs;
4. the checks: the deadline index, as the kill left it, is not later than the game (a game
   may be looked at needlessly, never passed over); the game's versions and journal equal the reference (nothing lost, nothing applied
   twice; the clock is fixed, so they are equal byte for byte but for the inbox's random id),
   the mails delivered are the reference's, each once, no mail is left in the inbox, no temp
   file is left, and ``judge replay`` finds no difference.

Run the whole campaign (its figures go in the README)::

    python tests/crashharness.py                 # every crash point of every scenario
    python tests/crashharness.py --sample 3 --seed 7 --scenario ingest

The test suite runs a seeded slice (``tests/test_crashes.py``).
"""

from __future__ import annotations

import argparse
import email
import email.policy
import os
import random
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS.parent))

from adjudicator import ruleset as rulesets  # noqa: E402
from adjudicator.clock import from_text  # noqa: E402
from adjudicator.judge import Judge  # noqa: E402
from adjudicator.mail.inbox import Inbox  # noqa: E402
from adjudicator.store import Store  # noqa: E402
from adjudicator.yamlio import TMP_PREFIX  # noqa: E402

GAME = "fz"
HOUSES = ("stark", "lannister", "baratheon")
JUDGE_ADDRESS = "judge@example.net"
CREATED = "2030-01-01T00:00:00Z"
LATER = "2030-01-03T01:01:00Z"  # the 48 h planning deadline and the 1 h grace have passed
PASSED_ON = ("JUDGE_IMAP_PASSWORD",)  # the only setting a judge process takes from the caller's environment


@dataclass
class Run:
    code: int
    out: str


class Judging:
    """``judge`` as a real process on one data directory, at a fixed moment; ``crash_at`` and
    ``trace`` arm the crash points of every process it starts."""

    def __init__(self, data: Path, now: str = LATER, *, crash_at: int | None = None, trace: Path | None = None):
        self.data, self.now, self.crash_at, self.trace = data, now, crash_at, trace

    def __call__(self, *args: str, stdin: bytes | None = None) -> Run:
        env = {k: v for k, v in os.environ.items() if not k.startswith("JUDGE_") or k in PASSED_ON}
        env.update(JUDGE_DATA=str(self.data), JUDGE_NOW=self.now, JUDGE_ADDRESS=JUDGE_ADDRESS)
        if self.crash_at:
            env["JUDGE_CRASH_AT"] = str(self.crash_at)
        if self.trace:
            env["JUDGE_CRASH_TRACE"] = str(self.trace)
        done = subprocess.run([sys.executable, "-m", "adjudicator", *args], input=stdin, env=env,
                              capture_output=True, timeout=120)
        return Run(done.returncode, (done.stdout + done.stderr).decode("utf-8", "replace"))


@dataclass
class Scenario:
    name: str
    prepare: Callable[[Path], dict]  # builds the data directory; returns what act/recover need
    act: Callable[[Judging, dict], Run]  # the command that is killed
    recover: Callable[[Judging, dict], None]  # what happens next in real life
    mail: bool = False  # compare the delivered mail too


# -- preparing -------------------------------------------------------------------------------


def _new_game(data: Path) -> tuple[Judge, dict]:
    rulesets.get("agot1e")
    judge = Judge(Store(data), now=lambda: from_text(CREATED))
    passwords = judge.new_game(GAME, "agot1e", {h: {"address": f"{h}@example.org"} for h in HOUSES}, seed=41)
    return judge, passwords


def _orders(judge: Judge, house: str, seed: int) -> str:
    present = judge.present(GAME)
    return present.ruleset.bot_mail(present.state, house, random.Random(seed))


def prepare_fresh(data: Path) -> dict:
    _, passwords = _new_game(data)
    return {"passwords": passwords}


def prepare_two_sent(data: Path) -> dict:
    """Stark and Lannister have sent their orders; Baratheon's mail will complete the step."""
    judge, passwords = _new_game(data)
    for index, house in enumerate(HOUSES[:2]):
        outcome = judge.submit(GAME, house, _orders(judge, house, index))
        assert outcome.applied, outcome.parsed
    return {"passwords": passwords, "orders": _orders(judge, "baratheon", 2)}


def prepare_adjudicated(data: Path) -> dict:
    """A deadline passed with nobody's orders in: versions 2-5 (round 2's planning)."""
    judge, passwords = _new_game(data)
    judge.now = lambda: from_text(LATER)
    judge.tick()
    return {"passwords": passwords}


# -- acting and recovering --------------------------------------------------------------------


def _journal_has(data: Path, **fields) -> bool:
    files = Store(data).open(GAME)
    return any(all(files.read_journal(n).get(k) == v for k, v in fields.items()) for n in files.journal_numbers())


def _mail(context: dict) -> bytes:
    body = f"JUDGE {GAME} baratheon {context['passwords']['baratheon']}\n{context['orders']}\n"
    return (f"From: baratheon@example.org\r\nTo: {JUDGE_ADDRESS}\r\nSubject: orders\r\n"
            f"Message-ID: <orders-1@example.org>\r\nDate: Tue, 01 Jan 2030 12:00:00 +0000\r\n"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}").encode()


def _submit_file(judge: Judging, context: dict) -> Path:
    path = judge.data.parent / "orders.txt"
    path.write_text(context["orders"])
    return path


SCENARIOS = [
    Scenario(
        "tick", prepare_fresh,
        act=lambda judge, c: judge("tick"),
        recover=lambda judge, c: (judge("tick"), judge("status", GAME)),
    ),
    Scenario(
        "submit", prepare_two_sent,
        act=lambda judge, c: judge("submit", GAME, "--as", "baratheon", str(_submit_file(judge, c))),
        # the GM sees no answer, looks at the game, and submits again if it is not in the journal
        recover=lambda judge, c: (judge("status", GAME), None if _journal_has(judge.data, player="baratheon") else
                                  judge("submit", GAME, "--as", "baratheon", str(_submit_file(judge, c)))),
    ),
    Scenario(
        "rollback", prepare_adjudicated,
        act=lambda judge, c: judge("rollback", GAME, "--to", "2"),
        recover=lambda judge, c: (judge("status", GAME), None if _journal_has(judge.data, kind="rollback") else
                                  judge("rollback", GAME, "--to", "2"), judge("deliver")),  # cron delivers
        mail=True,
    ),
    Scenario(
        "ingest", prepare_two_sent,
        act=lambda judge, c: judge("ingest", "--sender", "baratheon@example.org", stdin=_mail(c)),
        recover=lambda judge, c: _until_accepted(judge, c),
        mail=True,
    ),
    Scenario(
        "deliver", prepare_adjudicated,
        act=lambda judge, c: judge("deliver"),
        recover=lambda judge, c: judge("deliver"),
        mail=True,
    ),
]


def _until_accepted(judge: Judging, context: dict) -> None:
    """The MTA delivers the message again while ``judge ingest`` does not exit 0, then cron delivers."""
    for _ in range(5):
        if judge("ingest", "--sender", "baratheon@example.org", stdin=_mail(context)).code == 0:
            break
    else:
        raise AssertionError("judge ingest never accepted the message")
    judge("deliver")


# -- observing --------------------------------------------------------------------------------


def _without(entry: dict, *keys: str) -> dict:
    return {k: v for k, v in entry.items() if k not in keys}


def observe(data: Path, with_mail: bool) -> dict:
    """What must be the same after a crash and its recovery as after an uninterrupted run."""
    files = Store(data).open(GAME)
    seen = {
        "versions": [files.read_version(n) for n in files.version_numbers()],
        # the inbox's id is random per data directory and the inbox number depends on retries
        "journal": [_without(files.read_journal(n), "inbox", "inbox_id") for n in files.journal_numbers()],
    }
    if with_mail:
        seen["mail"] = sorted(_mail_key(p) for sub in ("new", "cur") for p in (data / "maildir" / sub).glob("*"))
        seen["inbox pending"] = Inbox(data).pending()
        seen["outbox pending"] = sorted(p.name for p in (data / "outbox").glob("*.eml"))
    return seen


def _mail_key(path: Path) -> tuple:
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    kind = (message["X-Judge-State"] or "").rpartition("kind=")[2] or "plain"
    return str(message["To"]), str(message["Subject"]), kind, message.get_body(("plain",)).get_content()


def problems_after(data: Path, reference: dict, with_mail: bool) -> list[str]:
    found = []
    seen = observe(data, with_mail)
    for key, expected in reference.items():
        if seen[key] != expected:
            found.append(f"{key} differ from the uninterrupted run: {_difference(seen[key], expected)}")
    differences = Judge(Store(data)).replay(GAME)
    found += [f"replay: {d}" for d in differences]
    leftovers = [str(p.relative_to(data)) for p in data.rglob(f"{TMP_PREFIX}*")]
    if leftovers:
        found.append(f"temp files left: {leftovers}")
    return found


def deadline_index_late(data: Path) -> list[str]:
    """The deadline index may be early, never late (``adjudicator/deadlineindex.py``): its entry
    for the game, read as it is (trusted or not), is not after the moment the game falls due
    (its files folded in memory, writing nothing)."""
    judge = Judge(Store(data))
    entries = judge.deadlines.read()[0]
    truth = judge._fold(judge.store.open(GAME))[0].index_due()
    held = entries.get(GAME, "-")
    if truth != "-" and (held == "-" or held > truth):
        return [f"the deadline index says {held} for a game due at {truth}"]
    return []


def _difference(seen, expected) -> str:
    if isinstance(seen, list) and isinstance(expected, list):
        if len(seen) != len(expected):
            return f"{len(seen)} items, expected {len(expected)}"
        for index, (a, b) in enumerate(zip(seen, expected)):
            if a != b:
                return f"item {index + 1}: {str(a)[:300]} != {str(b)[:300]}"
    return f"{str(seen)[:300]} != {str(expected)[:300]}"


# -- the campaign -----------------------------------------------------------------------------


@dataclass
class Report:
    scenario: str
    points: int  # crash points the command passes
    tried: list[int] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def run_scenario(scenario: Scenario, work: Path, *, sample: int | None = None, seed: int = 0,
                 always: tuple[int, ...] = (), always_labelled: str | None = None) -> Report:
    """Crash ``scenario``'s command at every crash point (or ``sample`` of them, chosen with
    ``seed``, plus the points in ``always`` and those whose label contains ``always_labelled``)
    and check each recovery against the reference."""
    prepared = work / f"{scenario.name}-prepared" / "data"
    prepared.parent.mkdir(parents=True)
    context = scenario.prepare(prepared)
    # the reference: uninterrupted, with its crash points traced; the recovery after a clean
    # run must change nothing
    reference_dir = work / f"{scenario.name}-reference" / "data"
    shutil.copytree(prepared, reference_dir)
    trace = work / f"{scenario.name}.trace"
    first = scenario.act(Judging(reference_dir, trace=trace), context)
    if first.code != 0:
        raise AssertionError(f"{scenario.name}: the uninterrupted command failed ({first.code}):\n{first.out}")
    labels = trace.read_text().splitlines()
    scenario.recover(Judging(reference_dir), context)
    reference = observe(reference_dir, scenario.mail)
    report = Report(scenario.name, len(labels))
    chosen = list(range(1, len(labels) + 1))
    if sample is not None and sample < len(labels):
        chosen = sorted(set(random.Random(f"{seed}:{scenario.name}").sample(chosen, sample)) |
                        {k for k in always if 1 <= k <= len(labels)} |
                        {k for k in chosen if always_labelled and always_labelled in labels[k - 1]})
    for k in chosen:
        data = work / f"{scenario.name}-crash-{k}" / "data"
        shutil.copytree(prepared, data)
        where = f"{scenario.name} point {k} ({labels[k - 1]})"
        report.tried.append(k)
        killed = scenario.act(Judging(data, crash_at=k), context)
        if killed.code != -9:
            report.failures.append(f"{where}: not killed (exit {killed.code}): {killed.out[-300:]}")
            continue
        try:
            late = deadline_index_late(data)  # as the kill left it: a tick right now would trust it
            scenario.recover(Judging(data), context)
            found = late + problems_after(data, reference, scenario.mail)
        except Exception as exc:  # noqa: BLE001  a recovery that raises is a failure to report
            found = [f"recovery raised {exc.__class__.__name__}: {exc}"]
        report.failures += [f"{where}: {p}" for p in found]
        if not found:
            shutil.rmtree(data.parent)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", action="append", choices=[s.name for s in SCENARIOS],
                        help="Only this scenario (repeatable; default: all).")
    parser.add_argument("--sample", type=int, default=None, help="Crash points per scenario (default: every one).")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    total = failed = 0
    with tempfile.TemporaryDirectory(prefix="crash-campaign-") as tmp:
        for scenario in SCENARIOS:
            if args.scenario and scenario.name not in args.scenario:
                continue
            report = run_scenario(scenario, Path(tmp), sample=args.sample, seed=args.seed)
            total += len(report.tried)
            failed += len(report.failures)
            print(f"{report.scenario:<9} {report.points:>3} crash points, {len(report.tried):>3} tried, "
                  f"{len(report.failures)} failures", flush=True)
            for line in report.failures:
                print(f"  FAIL {line}", flush=True)
    print(f"{total} crash points tried, {failed} failures")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
