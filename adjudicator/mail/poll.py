"""``judge poll``: the judge's mail read from a hosted IMAP mailbox, for a GM without a mail server.

Each poll logs in (``--imap HOST[:PORT]``, ``--user``, the password from ``$JUDGE_IMAP_PASSWORD``
only, never the command line), opens the folder, and for every message not yet taken:

1. fetches it without touching its flags (``BODY.PEEK[]``);
2. journals it in the inbox exactly as ``judge serve`` journals a mail it received over SMTP, and
   syncs it (:meth:`Postmaster.receive`): from here on it cannot be lost;
3. only then marks it taken on the server: the ``\\Seen`` flag, or a move to ``--move-to`` FOLDER.

Then the journaled mail is processed as ``serve`` processes it, due games are adjudicated,
reminders queued, and the outbox delivered (``--relay``: the provider's SMTP submission).

Exactly once. Taken mail is "unseen" mail (or, with ``--move-to``, any mail left in the folder).
A ``kill -9`` between 2 and 3 leaves a message journaled but not marked, and the next poll meets
it again: the inbox record carries the message's IMAP URL (RFC 5092,
``imap://judge@host:993/INBOX;UIDVALIDITY=7/;UID=42``, as its ``peer``, written with the record
in one append), so the poller looks up the records written since its last clean poll
(``inbox/imap.yaml``, per mailbox: the inbox number up to which every polled record is marked)
and marks the message without journaling it again. A message journaled twice all the same (the
folder's UIDVALIDITY changed, the state file was lost) is still applied once: the game journal
knows it by its Message-ID (``process.py``). Only one poller runs per data directory
(``inbox/.poll``).

A message over the judge's size limit (2,000,000 bytes, as ``serve`` refuses at SMTP) is not
journaled: it is marked taken and the GM is told, once.

The library is IMAPClient: it parses IMAP's responses (UIDVALIDITY, the UID lists, FETCH
literals) that the standard library's ``imaplib`` leaves to its caller as raw bytes, works in
UIDs throughout, and has MOVE, STARTTLS and timeouts; it has no dependencies of its own.
"""

from __future__ import annotations

import logging
import signal
import socket
import ssl
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import count
from typing import Iterator
from urllib.parse import quote

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError

from .. import yamlio
from ..crashpoints import crashpoint
from .inbox import InboxError, file_lock
from .outbox import Transport
from .process import Postmaster
from .settings import DATA_SIZE_LIMIT

log = logging.getLogger("adjudicator.mail")

FETCH_BATCH = 20  # messages fetched per FETCH command (a few MB at most)
TIMEOUT = 60.0  # seconds for any IMAP network operation


class PollError(Exception):
    """The mailbox cannot be read now (login refused, network, no such folder): nothing was
    taken, the next poll tries again."""


@dataclass(frozen=True)
class MailboxConfig:
    """Where the judge's mail waits, and how to mark what was taken."""

    host: str
    port: int
    user: str
    password: str
    folder: str = "INBOX"
    security: str = "ssl"
    move_to: str | None = None

    def url(self, uidvalidity: int, uid: int) -> str:
        """The message's IMAP URL (RFC 5092): what an inbox record says it came from."""
        return (f"imap://{quote(self.user, safe='')}@{self.host}:{self.port}/{quote(self.folder, safe='/')}"
                f";UIDVALIDITY={uidvalidity}/;UID={uid}")

    def key(self) -> str:
        """This mailbox in ``inbox/imap.yaml``."""
        return f"imap://{quote(self.user, safe='')}@{self.host}:{self.port}/{quote(self.folder, safe='/')}"


@dataclass
class PollRun:
    """What one poll did."""

    journaled: list[int] = field(default_factory=list)  # inbox numbers
    marked: int = 0  # messages marked taken on the server (journaled now or by a poll that was killed)
    too_large: int = 0


class Poller:
    """Takes new mail from one IMAP folder into the inbox of ``postmaster``'s data directory."""

    def __init__(self, postmaster: Postmaster, mailbox: MailboxConfig):
        self.postmaster = postmaster
        self.mailbox = mailbox
        self.state_path = postmaster.inbox.root / "imap.yaml"

    # -- one poll -------------------------------------------------------------------------
    def poll(self) -> PollRun:
        """Journal every new message and mark it taken. Raises :class:`PollError` when the mailbox
        cannot be read (what was journaled and marked before stays so)."""
        try:
            inbox = self.postmaster.inbox.ensure()
            with file_lock(inbox.root / ".poll", 5.0, "the mailbox (another judge poll on this data directory)"):
                with self._connect() as client:
                    return self._take(client)
        except InboxError as exc:  # the inbox is busy or cannot be written: nothing was marked
            raise PollError(str(exc)) from exc
        except (IMAPClientError, OSError, ssl.SSLError, socket.timeout) as exc:
            raise PollError(f"{self.mailbox.host}:{self.mailbox.port}: {exc}") from exc

    @contextmanager
    def _connect(self) -> Iterator[IMAPClient]:
        box = self.mailbox
        client = IMAPClient(box.host, port=box.port, ssl=box.security == "ssl", timeout=TIMEOUT,
                            ssl_context=ssl.create_default_context() if box.security == "ssl" else None)
        try:
            if box.security == "starttls":
                client.starttls(ssl.create_default_context())
            client.login(box.user, box.password)
            yield client
        finally:
            try:
                client.logout()
            except (IMAPClientError, OSError):
                client.shutdown()

    def _take(self, client: IMAPClient) -> PollRun:
        box = self.mailbox
        if box.move_to and not client.folder_exists(box.move_to):
            client.create_folder(box.move_to)
        uidvalidity = int(client.select_folder(box.folder)[b"UIDVALIDITY"])
        uids = sorted(client.search(["NOT", "DELETED"] if box.move_to else ["UNSEEN", "NOT", "DELETED"]))
        run = PollRun()
        if not uids:
            return run
        checked = self._checked()
        known = self._journaled_since(checked)
        last = checked
        for start in range(0, len(uids), FETCH_BATCH):
            batch = uids[start:start + FETCH_BATCH]
            sizes = client.fetch(batch, ["RFC822.SIZE"])
            wanted = [u for u in batch if box.url(uidvalidity, u) not in known
                      and int(sizes.get(u, {}).get(b"RFC822.SIZE", 0)) <= DATA_SIZE_LIMIT]
            bodies = client.fetch(wanted, ["BODY.PEEK[]"]) if wanted else {}
            for uid in batch:
                url = box.url(uidvalidity, uid)
                if url in known:
                    log.info("imap %s: journaled as inbox %06d before a restart; marking it", url, known[url])
                elif uid not in sizes:
                    continue  # expunged meanwhile by someone else
                elif int(sizes[uid].get(b"RFC822.SIZE", 0)) > DATA_SIZE_LIMIT:
                    self._too_large(url, int(sizes[uid][b"RFC822.SIZE"]))
                    run.too_large += 1
                elif uid in bodies:
                    raw = bytes(bodies[uid][b"BODY[]"])
                    number = self.postmaster.receive(raw, mail_from=None, via="imap", peer=url)
                    run.journaled.append(number)
                    last = max(last, number)
                    log.info("inbox %06d: received from %s", number, url)
                    crashpoint(f"polled imap UID {uid}: journaled, not yet marked")
                else:
                    continue
                self._mark(client, uid)
                crashpoint(f"polled imap UID {uid}: marked")
                run.marked += 1
        self._set_checked(max([last, *known.values()]))
        return run

    def _mark(self, client: IMAPClient, uid: int) -> None:
        box = self.mailbox
        if box.move_to is None:
            client.add_flags([uid], [b"\\Seen"])
        elif client.has_capability("MOVE"):
            client.move([uid], box.move_to)
        else:
            client.copy([uid], box.move_to)
            client.add_flags([uid], [b"\\Deleted"])
            client.expunge([uid] if client.has_capability("UIDPLUS") else None)

    def _too_large(self, url: str, size: int) -> None:
        log.warning("imap %s: %d bytes, over the judge's limit of %d; not taken", url, size, DATA_SIZE_LIMIT)
        self.postmaster.notify_gm(
            "imap-too-large-" + url.rpartition(";UIDVALIDITY=")[2].replace("/;UID=", "-"),
            "A mail too large for the judge",
            f"The message {url} has {size:,} bytes; the judge takes at most {DATA_SIZE_LIMIT:,} (as its SMTP "
            "server refuses larger mail). It was marked as taken and left in the mailbox: read it there, and "
            "tell its sender to send the orders as plain text.")

    # -- what was journaled before --------------------------------------------------------
    def _checked(self) -> int:
        try:
            mailboxes = yamlio.load_mapping(self.state_path).get("mailboxes") or {}
        except yamlio.YamlFileError:
            return 0
        try:
            return int((mailboxes.get(self.mailbox.key()) or {}).get("checked", 0))
        except (TypeError, ValueError):
            return 0

    def _set_checked(self, number: int) -> None:
        """Every message this mailbox journaled up to inbox ``number`` is marked on the server. Not
        synced: lost, the next poll looks further back, which is only slower."""
        try:
            data = yamlio.load_mapping(self.state_path)
        except yamlio.YamlFileError:
            data = {}
        mailboxes = dict(data.get("mailboxes") or {})
        if int((mailboxes.get(self.mailbox.key()) or {}).get("checked", 0)) == number:
            return
        mailboxes[self.mailbox.key()] = {"checked": number}
        yamlio.dump(self.state_path, {"format": 1, "mailboxes": mailboxes}, fsync=False)

    def _journaled_since(self, checked: int) -> dict[str, int]:
        """IMAP URL -> inbox number of the polled records numbered above ``checked``."""
        known = {}
        for number in count(checked + 1):
            meta = self.postmaster.inbox.meta(number)
            if not meta:
                return known
            if meta.get("via") == "imap" and meta.get("peer"):
                known[str(meta["peer"])] = number
        return known


class PollLoop:
    """``judge poll``: poll, then do what ``judge serve``'s worker and postman do, every ``every``
    seconds until SIGTERM or SIGINT (the work in hand is finished first)."""

    def __init__(self, poller: Poller, transport: Transport, *, every: float = 60.0):
        self.poller = poller
        self.postmaster = poller.postmaster
        self.transport = transport
        self.every = every
        self.stopping = threading.Event()

    def once(self) -> PollRun | None:
        """One round: poll (None if the mailbox could not be read: logged, tried at the next
        round), process the inbox, adjudicate due games, queue reminders, deliver."""
        try:
            run: PollRun | None = self.poller.poll()
            if run.journaled or run.marked:
                log.info("imap: %d journaled, %d marked", len(run.journaled), run.marked)
        except PollError as exc:
            log.warning("imap: cannot read the mailbox now: %s", exc)
            run = None
        postmaster = self.postmaster
        postmaster.process_pending()
        for game_id, outcome in postmaster.tick().done:
            log.info("deadline: %s adjudicated, versions %s", game_id, outcome.versions)
        for name in postmaster.remind():
            log.info("reminder queued: %s", name)
        delivered = postmaster.outbox.deliver(self.transport)
        if delivered.delivered:
            log.info("delivered %d mail(s) via %s", len(delivered.delivered), self.transport)
        return run

    def run(self) -> None:
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: self.stopping.set())
        self.postmaster.inbox.ensure()
        self.postmaster.outbox.ensure()
        self.postmaster.remove_leftovers()
        box = self.poller.mailbox
        log.info("judge polling %s@%s:%d/%s every %g s as %s, delivering via %s", box.user, box.host, box.port,
                 box.folder, self.every, self.postmaster.settings.address, self.transport)
        while not self.stopping.is_set():
            try:
                self.once()
            except Exception:  # noqa: BLE001  keep polling; what was journaled stays pending
                log.exception("poll round failed")
            self.stopping.wait(self.every)
        log.info("stopped")
