"""``judge serve``: the SMTP server, the inbox worker, the deadline clock and the postman.

The aiosmtpd server is created here explicitly, with every setting that has a trap behind it
(``shared/reference/mail-pitfalls.md``):

* A1 ``data_size_limit`` 2 MB (the default 32 MB is far beyond any orders);
* A2 ``line_length_limit`` raised from RFC 5321's 1001 to 64 KiB: a script or ``mail`` tool
  talking to the judge directly with one long order line would otherwise have the whole
  message refused (``500 Line too long``); behind an MTA lines arrive split, and the games'
  grammars join the continuations;
* A3 ``enable_SMTPUTF8=True`` (``SMTP`` defaults to False; Postfix bounces ``jiří@`` senders);
* A4 ``decode_data=False``: 8BITMIME is advertised and ``original_content`` stays bytes;
* A5 every exception and every failure to journal becomes ``451 4.3.0`` (never a 500 that
  bounces a player's orders, never exception text on the wire);
* A6 ``handle_RCPT`` answers 550 for any recipient but the judge's own address;
* A8 bound to the address given (default ``127.0.0.1:2525``, never ``::1`` by accident) and the
  greeting name given (no ``getfqdn()`` on a machine with broken DNS);
* A9 the idle timeout stated.

A message is journaled in the inbox and made durable *before* the 250 (one ``syncfs`` shared by
the messages of every session that wrote meanwhile: ``durability.GroupCommit``); the 250 never
waits for game processing. Processing runs in one worker thread (woken by each journaled message, so replies
are quick), which also runs ``Judge.tick`` and queues the reminders due (``Postmaster.remind``)
at start and every ``tick_every`` seconds; a second
thread delivers the outbox, woken when mail is queued and every ``deliver_every`` seconds.
SIGTERM and SIGINT stop the server cleanly: the listener closes, the worker finishes the
message in hand, nothing half-done is left (and a ``kill -9`` loses nothing either: unprocessed
mail stays in the inbox and is processed at the next start).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import signal
import threading
import time
from typing import Callable

from aiosmtpd.smtp import SMTP

from ..durability import GroupCommit
from .text import canonical_address
from .outbox import Transport
from .process import Postmaster
from .settings import DATA_SIZE_LIMIT

log = logging.getLogger("adjudicator.mail")

TEMPFAIL = "451 4.3.0 Temporary failure on the judge, please try again later"
INBOX_FULL = "452 4.3.1 The judge's inbox is full, please try again later"
IDLE_TIMEOUT = 300  # seconds (aiosmtpd's default, stated)
PENDING_EVERY = 32  # mails between two readings of the inbox's unprocessed size (JudgeHandler._full)


class JudgeSMTP(SMTP):
    """aiosmtpd's SMTP with a line limit for hand-written mail (pitfall A2, see module docstring)."""

    line_length_limit = 65_536


def smtp_factory(handler, *, server_name: str, loop: asyncio.AbstractEventLoop,
                 data_size_limit: int = DATA_SIZE_LIMIT) -> Callable[[], SMTP]:
    """A protocol factory for ``loop.create_server`` with every relevant setting explicit."""
    return functools.partial(JudgeSMTP, handler, data_size_limit=data_size_limit, enable_SMTPUTF8=True,
                             decode_data=False, hostname=server_name, ident="throne judge",
                             timeout=IDLE_TIMEOUT, loop=loop)


class JudgeHandler:
    """aiosmtpd hooks: accept mail for the judge's address only, journal it, answer."""

    def __init__(self, postmaster: Postmaster, *, on_journaled: Callable[[int], None] = lambda n: None):
        self.postmaster = postmaster
        self.address = postmaster.settings.address.lower()
        self.on_journaled = on_journaled
        self.commit = GroupCommit(postmaster.inbox.root)  # one sync for the mails written meanwhile
        self._pending = (0, None)  # (mails journaled since, the inbox's unprocessed bytes then + theirs): _full

    def _full(self, size: int) -> bool:
        """Is the unprocessed inbox over its cap (``--inbox-limit``)? Asked at every mail, read from the
        inbox (a listing and a ``stat`` per segment) only every :data:`PENDING_EVERY` mails and whenever
        the last reading was over: in between, the mails this server journaled are added to it, which
        can only overstate what waits (processing lowers it), never let a flood past the cap."""
        since, pending = self._pending
        limit = self.postmaster.settings.max_inbox_bytes
        if pending is None or since >= PENDING_EVERY or pending >= limit:
            since, pending = 0, self.postmaster.inbox.pending_bytes()
        full = pending >= limit
        self._pending = (since + 1, pending + (0 if full else size))
        return full

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if (canonical_address(address) or "").lower() != self.address:
            return "550 5.1.1 No such recipient here"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server, session, envelope):
        peer = str(session.peer[0]) if isinstance(session.peer, tuple) and session.peer else None
        try:
            if self._full(len(envelope.original_content)):
                log.warning("inbox full: mail from %s refused for now (452)", peer)
                return INBOX_FULL  # temporary: the client keeps the mail and retries
            # appended right here: an append under a lock held for microseconds is cheaper than a
            # hop to a thread and back; the sync, which waits on the disk, runs in a thread
            number = self.postmaster.receive(envelope.original_content, mail_from=envelope.mail_from,
                                             rcpt_tos=envelope.rcpt_tos, via="smtp", peer=peer, sync=False)
            if self.postmaster.inbox.fsync:
                await self.commit.commit()  # durable before the 250, with every mail written meanwhile
        except Exception:  # noqa: BLE001  disk full, lock busy, anything: the client retries
            log.exception("could not journal a message from %s", peer)
            return TEMPFAIL
        self.on_journaled(number)
        return f"250 2.0.0 OK, queued as {number}"

    async def handle_exception(self, error: Exception) -> str:
        log.error("SMTP session error: %s: %s", error.__class__.__name__, error)
        return TEMPFAIL


class Server:
    """The running judge: SMTP listener + worker thread + postman thread."""

    def __init__(self, postmaster: Postmaster, transport: Transport, *, host: str = "127.0.0.1", port: int = 2525,
                 server_name: str | None = None, tick_every: float = 60.0, deliver_every: float = 30.0,
                 scan_every: float = 10.0, hold_inbox: bool = False,
                 announce: Callable[[str], None] = lambda line: print(line, flush=True)):
        self.postmaster = postmaster
        self.transport = transport
        self.host, self.port = host, port
        self.server_name = server_name or postmaster.settings.domain
        self.tick_every, self.deliver_every, self.scan_every = tick_every, deliver_every, scan_every
        self.hold_inbox = hold_inbox  # tests only: journal but never process (a crash before processing)
        self.announce = announce
        self.stopping = threading.Event()
        self.wake_worker = threading.Event()
        self.wake_postman = threading.Event()
        self.bound: tuple[str, int] | None = None

    # -- threads --------------------------------------------------------------------------
    def _work(self) -> None:
        next_tick = 0.0  # tick at once: games that fell due while the judge was down
        while not self.stopping.is_set():
            self.wake_worker.clear()
            try:
                if not self.hold_inbox:
                    # unprocessed mail first, then deadlines; each reply is delivered as soon as it is queued
                    self.postmaster.process_pending(on_handled=lambda h: h.mails and self.wake_postman.set())
                    if time.monotonic() >= next_tick:
                        ticked = self.postmaster.tick()
                        for game_id, outcome in ticked.done:
                            log.info("deadline: %s adjudicated, versions %s", game_id, outcome.versions)
                        for name in self.postmaster.remind():
                            log.info("reminder queued: %s", name)
                        next_tick = time.monotonic() + self.tick_every
                        self.wake_postman.set()
            except Exception:  # noqa: BLE001  keep serving; the message stays pending
                log.exception("worker error")
            wait = self.scan_every if self.hold_inbox else min(self.scan_every, max(0.0, next_tick - time.monotonic()))
            self.wake_worker.wait(wait)

    def _post(self) -> None:
        while not self.stopping.is_set():
            self.wake_postman.clear()
            try:
                run = self.postmaster.outbox.deliver(self.transport)
                if run.delivered:
                    log.info("delivered %d mail(s) via %s", len(run.delivered), self.transport)
            except Exception:  # noqa: BLE001
                log.exception("postman error")
            self.wake_postman.wait(self.deliver_every)

    def _journaled(self, number: int) -> None:
        log.debug("inbox %06d: received", number)  # (its processing logs it at INFO)
        self.wake_worker.set()

    def _woken(self, wake) -> None:
        """A ``judge ingest`` journaled a mail and handed it over (``inbox.wake_server``)."""
        try:
            while wake.recv(64):
                pass
        except OSError:
            pass
        self.wake_worker.set()

    # -- the whole thing ------------------------------------------------------------------
    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        self.postmaster.inbox.ensure()
        self.postmaster.outbox.ensure()
        self.postmaster.remove_leftovers()
        handler = JudgeHandler(self.postmaster, on_journaled=self._journaled)
        server = await loop.create_server(smtp_factory(handler, server_name=self.server_name, loop=loop),
                                          host=self.host, port=self.port)
        self.bound = server.sockets[0].getsockname()[:2]
        wake = None if self.hold_inbox else self.postmaster.inbox.wake_point()
        if wake is not None:
            loop.add_reader(wake.fileno(), self._woken, wake)
        elif not self.hold_inbox:
            log.warning("no wake point (another server on this data? not Linux?): mail from `judge ingest` "
                        "is found by the scan every %s s", self.scan_every)
        stop = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        threads = [threading.Thread(target=self._work, name="judge-worker"),
                   threading.Thread(target=self._post, name="judge-postman")]
        for thread in threads:
            thread.start()
        host, port = self.bound
        self.announce(f"judge listening on {host}:{port} as {self.postmaster.settings.address}, delivering via {self.transport}")
        try:
            await stop.wait()
        finally:
            log.info("stopping")
            server.close()
            await server.wait_closed()
            if wake is not None:
                loop.remove_reader(wake.fileno())
                wake.close()
            self.stopping.set()
            self.wake_worker.set()
            self.wake_postman.set()
            for thread in threads:
                await loop.run_in_executor(None, thread.join)
        log.info("stopped")
