"""``judge ingest`` handing a message to a running ``judge serve``, without the rest of the judge.

An MTA pipe starts ``judge ingest`` once per message. When a ``judge serve`` runs on the same
data, all ingest has to do is journal the message durably in the inbox and wake the server,
which processes it, answers and delivers. :func:`main` does exactly that in a fresh process
that imports the inbox and the mail settings only: not click, not the judge, the engines or the
templates (issue 13: ingest <= 150 ms a mail).

``judge`` (``adjudicator/__main__.py``) calls :func:`main` before anything else. It returns
None, having read nothing, whenever this is not that case: not ``ingest``, no server listening,
``--help``, an option it does not know, a value the full command must judge (a bad address,
rate limit or ``--now``). The full command (``commands.ingest``) then runs as before; its first
steps are :func:`take`, the same for both.

Should the server stop between the wake-up that found it and the one after the journal, the
message is journaled all the same and ingest exits 0: the next ``judge serve``, ``ingest`` or
``deliver`` processes it (as it does a message whose game was busy).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

EX_OK, EX_USAGE, EX_DATAERR, EX_NOUSER, EX_TEMPFAIL = 0, 64, 65, 67, 75
MAX_OUTPUT = 200  # characters of the one line ingest prints (Postfix's pipe reads 4 KB at most)

# the options of ``judge [global] ingest [ingest's]`` (see cli.main and commands.ingest): takes a value?
_GLOBAL = {"--data": True, "--now": True, "--no-fsync": False}
_INGEST = {"--sender": True, "--recipient": True, "--address": True, "--gm": True, "--relay": True,
           "--relay-starttls": False, "--relay-user": True, "--maildir": True, "--no-deliver": False,
           "--log-file": True, "--rate-limit": True, "--inbox-limit": True}


@dataclass
class Taken:
    """What :func:`take` did: ``code`` and ``line`` when ingest is done (handed over, refused or
    failed), else None and the message's inbox number, for the caller to process it."""

    code: int | None
    line: str = ""
    number: int | None = None
    raw: bytes = b""
    problem: str | None = None  # why the message could not be journaled (for the log)


def take(data: Path, address: str, stream, *, sender: str | None, recipient: str | None, received,
         fsync: bool, inbox_limit: int | None = None) -> Taken:
    """Read one message from ``stream``, refuse it if too large or not for ``address`` (or for now,
    when the unprocessed inbox holds ``inbox_limit`` bytes), journal it durably and wake a
    running server."""
    from .inbox import Inbox, InboxError, wake_server
    from .settings import DATA_SIZE_LIMIT
    from .text import canonical_address

    raw = stream.read(DATA_SIZE_LIMIT + 1)
    if len(raw) > DATA_SIZE_LIMIT:
        while stream.read(1 << 16):
            pass  # read it all: a pipe left unread makes the MTA report a broken pipe instead of our reason
        return Taken(EX_DATAERR, f"judge: message too large (the judge takes at most {DATA_SIZE_LIMIT:,} bytes)")
    if recipient is not None and (canonical_address(recipient) or "").lower() != address.lower():
        return Taken(EX_NOUSER, f"judge: no such recipient here ({recipient}); this judge is {address}")
    inbox = Inbox(data, fsync=fsync)
    try:
        if inbox_limit is not None and inbox.pending_bytes() >= inbox_limit:
            return Taken(EX_TEMPFAIL, "judge: the inbox is full; try again later",
                         problem=f"inbox full: {inbox_limit} bytes or more wait to be processed")
        number = inbox.journal(raw, mail_from=sender, received=received, via="pipe")
    except (InboxError, OSError) as exc:
        return Taken(EX_TEMPFAIL, "judge: cannot journal the message now; try again later", problem=str(exc))
    if raw.strip() and wake_server(inbox.root):
        # durable now; the running server processes it at once and answers (and, if it dies
        # first, its next start, the next ingest or `judge deliver` does)
        return Taken(EX_OK, f"judge: inbox {number:06d}: journaled; handed to the running server", number, raw)
    return Taken(None, "", number, raw)


def main(argv: list[str]) -> int | None:
    """``judge ingest`` with a server running: the exit status; None when the full command must run."""
    options = _parse(argv)
    if options is None:
        return None
    from .. import clock
    from ..paths import DEFAULT_DATA
    from . import settings as settings_module
    from .inbox import wake_server
    from .text import canonical_address

    env = os.environ
    data = Path(options.get("--data") or env.get("JUDGE_DATA") or DEFAULT_DATA)
    address, gm = options.get("--address") or env.get("JUDGE_ADDRESS"), options.get("--gm") or env.get("JUDGE_GM")
    if any(value is not None and canonical_address(value) is None for value in (address, gm)):
        return None
    rate = options.get("--rate-limit") or env.get("JUDGE_RATE_LIMIT") or str(settings_module.RATE_LIMIT)
    limit = options.get("--inbox-limit") or env.get("JUDGE_INBOX_LIMIT") or str(settings_module.MAX_INBOX_BYTES)
    now = options.get("--now") or env.get("JUDGE_NOW")
    try:
        received = clock.from_text(now) if now else clock.utcnow()
        if int(rate) < 1 or int(limit) < 1:
            return None
    except ValueError:
        return None
    if not wake_server(data / "inbox"):
        return None  # nobody listens: the full command processes the mail itself
    try:
        settings = settings_module.resolve(data, address=address, gm=gm, rate_limit=int(rate))
    except ValueError:
        return None
    taken = take(data, settings.address, sys.stdin.buffer, sender=options.get("--sender"),
                 recipient=options.get("--recipient"), received=received, fsync="--no-fsync" not in options,
                 inbox_limit=int(limit))
    if taken.code is None:  # the server went away meanwhile: the message waits, durable, for the next run
        taken.code, taken.line = EX_OK, f"judge: inbox {taken.number:06d}: journaled; processed by the next run"
    if taken.problem is not None:
        from .commands import _logging  # only now: the log of a failure is worth the imports

        _logging(Path(options["--log-file"]) if options.get("--log-file") else data / "log" / "ingest.log")
        import logging

        logging.getLogger("adjudicator.mail").warning("cannot journal a message: %s", taken.problem)
    try:
        print(taken.line[:MAX_OUTPUT], file=sys.stderr, flush=True)
    except OSError:
        pass  # the MTA stopped reading: the exit status is what counts
    return taken.code


def _parse(args: list[str]) -> dict | None:
    """``{option: value}`` of ``[global options] ingest [ingest's options]``; None for anything else."""
    found: dict = {}
    known, command = _GLOBAL, False
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        if arg == "ingest" and not command:
            known, command = _INGEST, True
            continue
        name, equals, value = arg.partition("=")
        if name not in known or name in found:
            return None
        if known[name] and not equals:
            if index >= len(args):
                return None
            value = args[index]
            index += 1
        elif not known[name]:
            if equals:
                return None
            value = True
        found[name] = value
    return found if command else None
