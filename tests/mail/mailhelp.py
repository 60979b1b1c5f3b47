"""Helpers for the mail tests: raw mail builders, a toy game with a postmaster, SMTP in a thread,
``judge serve`` as a subprocess on the tests' clock, waits bounded by the judge's progress.

Imported by the ``test_mail_*`` modules (fixtures are imported by name; no second conftest.py,
whose module name would clash with ``tests/conftest.py``).
"""

from __future__ import annotations

import asyncio
import base64
import email
import email.policy
import mailbox
import quopri
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from adjudicator.judge import Judge
from adjudicator.mail.demo import PATIENCE, wait_until
from adjudicator.mail.process import Postmaster
from adjudicator.mail.server import smtp_factory
from adjudicator.mail.settings import MailSettings
from adjudicator.store import Store
from conftest import FakeClock, subprocess_env

JUDGE = "judge@example.net"
HANG = 5 * PATIENCE
"""Seconds a whole ``judge`` command run as a process (``judge demo``) may take: a guard against a
hang, far beyond a run on a loaded machine; its own waits are bounded by its progress."""
CZECH = "Příliš žluťoučký kůň úpěl ďábelské ódy"


def raw_mail(body: str | bytes = "", *, sender: str = "alice@example.org", subject: str = "orders",
             message_id: str | None = "<m1@example.org>", headers: dict | None = None, content_type: str | None = None,
             cte: str | None = None, charset: str = "utf-8", display: str = "Alice") -> bytes:
    """One raw message: ``body`` str is encoded with ``charset`` and ``cte`` (8bit, quoted-printable,
    base64); bytes are used as they are. ``content_type`` None means no MIME headers at all."""
    data = body.encode(charset) if isinstance(body, str) else body
    if cte == "quoted-printable":
        data = quopri.encodestring(data)
    elif cte == "base64":
        data = base64.encodebytes(data)
    lines = [f"From: {display} <{sender}>", f"To: {JUDGE}", f"Subject: {subject}", "Date: Sat, 21 Nov 2026 12:00:00 +0000"]
    if message_id:
        lines.append(f"Message-ID: {message_id}")
    if content_type:
        lines += ["MIME-Version: 1.0", f"Content-Type: {content_type}"]
    if cte:
        lines.append(f"Content-Transfer-Encoding: {cte}")
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    head = "\r\n".join(lines).encode("utf-8") + b"\r\n\r\n"
    return head + data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def text_of(msg) -> str:
    """A message's text with plain newlines (our messages are CRLF on the wire); of a report with
    the board picture attached, its text part."""
    return msg.get_body(preferencelist=("plain",)).get_content().replace("\r\n", "\n")


@dataclass
class Desk:
    """A judge with the toy game ``g`` (alice, bob, carol) and a postmaster for it."""

    judge: Judge
    clock: FakeClock
    postmaster: Postmaster
    passwords: dict
    data: Path

    def mail(self, raw: bytes, mail_from: str | None = "alice@example.org"):
        number = self.postmaster.receive(raw, mail_from=mail_from)
        return self.postmaster.process(number)

    def signed(self, player: str, body: str, *, sender: str | None = None, password: str | None = None,
               message_id: str | None = None, **kw):
        sender = sender or f"{player}@example.org"
        text = f"JUDGE g {player} {password or self.passwords[player]}\n{body}"
        mid = message_id or f"<{player}-{time.monotonic_ns()}@example.org>"
        return self.mail(raw_mail(text, sender=sender, message_id=mid, **kw), mail_from=sender)

    def outbox_text(self, name: str) -> str:
        path = self.postmaster.outbox.root / f"{name}.eml"
        if not path.exists():
            path = self.postmaster.outbox.sent_dir / f"{name}.eml"
        return text_of(email.message_from_bytes(path.read_bytes(), policy=email.policy.default))

    def outbox_message(self, name: str):
        path = self.postmaster.outbox.root / f"{name}.eml"
        return email.message_from_bytes(path.read_bytes(), policy=email.policy.default)

    def journal(self) -> list[dict]:
        files = self.judge.store.open("g")
        return [files.read_journal(n) for n in files.journal_numbers()]


def make_desk(tmp_path: Path, **settings) -> Desk:
    clock = FakeClock()
    judge = Judge(Store(tmp_path / "data"), now=clock)
    passwords = judge.new_game("g", "toy", {
        "alice": {"address": "alice@example.org"},
        "bob": {"address": "bob@example.org", "language": "cs"},
        "carol": {"address": "carol@example.org"},
    }, seed=7)
    return Desk(judge, clock, Postmaster(judge, MailSettings(JUDGE, **settings)), passwords, tmp_path / "data")


@pytest.fixture
def desk(tmp_path) -> Desk:
    return make_desk(tmp_path)


def maildir_messages(path: Path) -> list:
    if not all((path / sub).is_dir() for sub in ("tmp", "new", "cur")):  # the judge may be making it right now
        return []
    box = mailbox.Maildir(path, factory=None, create=False)
    return [email.message_from_bytes(box.get_bytes(key), policy=email.policy.default) for key in box.keys()]


class ThreadedSMTP:
    """An aiosmtpd server (the judge's own factory: every setting explicit) in a thread, on 127.0.0.1:0."""

    def __init__(self, handler):
        self.handler = handler
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def __enter__(self) -> "ThreadedSMTP":
        self.thread.start()

        async def start():
            return await self.loop.create_server(smtp_factory(self.handler, server_name="sink.test", loop=self.loop),
                                                 "127.0.0.1", 0)

        self.server = asyncio.run_coroutine_threadsafe(start(), self.loop).result(PATIENCE)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    def __exit__(self, *exc) -> None:
        async def stop():
            self.server.close()
            await self.server.wait_closed()

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(PATIENCE)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(PATIENCE)
        self.loop.close()


class ServerProcess:
    """``judge serve`` as a real process on a free loopback port, delivering into ``<data>/maildir``,
    on the tests' clock (``now``, default ``conftest.START``: a game made on :class:`FakeClock`
    and the server agree on the time; nothing falls due while a test plays)."""

    def __init__(self, data: Path, *extra: str, env: dict | None = None, now: str | None = None,
                 address: str | None = JUDGE):
        self.data = data
        self.log = open(data.parent / f"serve-{time.monotonic_ns()}.log", "wb")
        environment = {**subprocess_env(data), **(env or {})}
        if now:
            environment["JUDGE_NOW"] = now
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "adjudicator", "serve", "--listen", "127.0.0.1:0",
             *(["--address", address] if address else []),
             "--server-name", "judge.example.net", "--deliver-every", "0.2", *extra],
            env=environment, stdout=subprocess.PIPE, stderr=self.log)
        line = self.proc.stdout.readline().decode()  # the announce line, or EOF if it died
        if "listening on" not in line:
            self.proc.wait(PATIENCE)
            raise AssertionError(f"server did not start: {line!r}\n{self.stderr()}")
        self.host, _, port = line.split("listening on ", 1)[1].split()[0].rpartition(":")
        self.port = int(port)
        self.announce = line

    def wait_for(self, done, what: str):
        """Wait until ``done`` returns something true, and return that (:func:`wait_until`): an
        error at once if this server exits, after :data:`PATIENCE` seconds if it hangs."""
        return wait_until(done, what, server=self.proc)

    def stderr(self) -> str:
        if not self.log.closed:
            self.log.flush()
        return Path(self.log.name).read_text(errors="replace")

    def stop(self, sig=signal.SIGTERM) -> int:
        self.proc.send_signal(sig)
        code = self.proc.wait(PATIENCE)
        self.proc.stdout.close()
        self.log.close()
        return code

    def kill(self) -> None:
        self.proc.kill()  # SIGKILL: no cleanup of any kind
        self.proc.wait(PATIENCE)
        self.proc.stdout.close()
        self.log.close()


def free_port_connect_refused(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return False
    except OSError:
        return True


def play_by_mail(judge: Judge, postmaster: Postmaster, clock: FakeClock, game: str, passwords: dict, rng,
                 *, skip: float = 0.2, most: int = 2000) -> int:
    """Seeded bots play ``game`` by mail to its end: each owed decision is mailed (signed on as
    ``<house>@example.org``) or, with probability ``skip``, left to the deadline, which the fake clock
    then passes. Returns how many mails were sent (at most ``most`` rounds of mail and deadline)."""
    sent = 0
    for _ in range(most):
        present = judge.present(game)
        if present.ruleset.result(present.state) is not None:
            break
        for owed in present.owed():
            if owed.done or rng.random() < skip:
                continue
            text = present.ruleset.bot_mail(judge.present(game).state, owed.player, rng)
            if text is None:
                continue
            sent += 1
            sender = f"{owed.player}@example.org"
            raw = raw_mail(f"JUDGE {game} {owed.player} {passwords[owed.player]}\n{text}", sender=sender,
                           message_id=f"<{owed.player}-{sent}@example.org>")
            postmaster.process(postmaster.receive(raw, mail_from=sender))
        present = judge.present(game)
        if present.ruleset.result(present.state) is None and present.missing():
            clock.moment = present.deadline()
            judge.adjudicate(game, force=True, reason="deadline")
            postmaster.sweep_reports()
    return sent


__all__ = ["CZECH", "HANG", "JUDGE", "Desk", "ServerProcess", "ThreadedSMTP", "desk", "free_port_connect_refused",
           "maildir_messages", "make_desk", "play_by_mail", "raw_mail", "text_of"]
