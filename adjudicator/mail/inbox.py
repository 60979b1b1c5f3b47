"""The server-level journal of raw inbound mail: nothing that got its 250 is ever lost.

Received mail is appended to a log, a *segment* file of records (``<data>/inbox/log/NNNNNN.log``,
mode 0600: raw mail holds sign-on passwords), each record a header line and the raw bytes::

    JUDGE-INBOX {"number": 7, "size": 812, "mail_from": ..., "rcpt_tos": [...], "received": ..., "via": ..., "peer": ...}
    <812 bytes of the message as received>

A message is durable once its record is written and synced, which happens *before* the SMTP
server answers 250 or ``judge ingest`` exits 0. One file appended to, and one ``syncfs`` shared
by every message written meanwhile (``durability.GroupCommit``), is what lets the judge accept
mail nearly as fast as a bare SMTP sink: creating files is what costs on a busy disk.

Processing comes after, possibly in another process after a crash. When a message's processing
is done (its game journal entry and its replies durable), :meth:`Inbox.mark_done` appends its
number and what was done to the segment's ``.done`` file. A segment whose every message is done
(and that is no longer written to) moves to ``inbox/done/``, so listing what is pending reads
only the last segment or two. A done mark is not synced: after a crash a message may be found
pending again, and the mail layer recognises it by the ``inbox`` id and number recorded in the
game journal entry (see ``process.py``). A message that must wait (its game busy, an error)
keeps its retry bookkeeping in ``inbox/retry/NNNNNN.yaml``, which only such a message has.

A running ``judge serve`` listens for a wake-up (:meth:`Inbox.wake_point`, :func:`wake_server`):
``judge ingest`` journals a message durably and, when a server listens, only wakes it and exits
0 (the server processes and answers the mail at once, with its games already in memory);
with no server it processes the message itself.

A record torn by a ``kill -9`` during its append (before its 250) is cut off by the next writer,
under the append lock. Two locks (``flock``, per open file, so they also separate threads):
``.allocate`` while a record is appended, ``.processing`` while messages are processed, so that
a server and a ``judge ingest`` never process the same message at once.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import secrets
import socket
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Iterator

from .. import clock, durability, locks, yamlio
from ..crashpoints import crashpoint
from .text import clean_text

FORMAT = 1
MAGIC = b"JUDGE-INBOX "
SEGMENT_BYTES = 8 * 1024 * 1024  # a new segment after this much
SEGMENT_RECORDS = 2000  # ... or this many messages
_SEGMENT = re.compile(r"^(\d{6})\.log$")
_OLD = re.compile(r"^(\d{6,})\.eml$")  # a message of the older layout (a file per message)


def _wake_name(root: Path) -> str:
    """The wake point of the inbox at ``root``: a Linux abstract Unix socket (no file: nothing
    stale after a ``kill -9``, no path-length limit), named after the inbox's real path."""
    digest = hashlib.sha256(os.path.realpath(root).encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return f"\0throne-judge-inbox-{digest}"


def wake_server(root: Path) -> bool:
    """Tell a ``judge serve`` on this inbox that mail is waiting; False if none listens (no such
    socket, or a platform without abstract sockets). A server too busy to read its wake-ups
    (its socket buffer full) is alive and will scan the inbox anyway: True."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.setblocking(False)
            sock.sendto(b"!", _wake_name(root))
    except BlockingIOError:
        return True
    except OSError as exc:
        return exc.errno in (errno.ENOBUFS, errno.EAGAIN)
    return True


class InboxError(Exception):
    """The inbox cannot take or give mail right now (disk, permissions, lock): transient."""


class InboxBusy(InboxError):
    """Another process holds the processing lock for longer than we may wait."""


def file_lock(path: Path, timeout: float, what: str):
    """The mail service's locks (numbering, processing, delivery): :func:`adjudicator.locks.file_lock`
    raising :class:`InboxBusy`, so that callers answer "try again later"."""
    return locks.file_lock(path, timeout, lambda: InboxBusy(f"{what} is busy (locked by another process); try again"))


class _Segment:
    """What this process knows of one segment file: its records (number -> offset of the raw
    bytes, size), read up to ``end``; the numbers done and where its ``.done`` file was read to."""

    def __init__(self, path: Path):
        self.path = path
        self.done_path = path.with_suffix(".done")
        self._strings = (str(path), str(self.done_path))  # asked after at every mail: no pathlib there
        self.records: dict[int, tuple[int, int]] = {}
        self.headers: dict[int, dict] = {}
        self.end = 0  # bytes of the file scanned (the end of its last whole record)
        self.torn = False  # a partial record after ``end`` (a writer killed mid-append)
        self.done: dict[int, dict] = {}
        self.done_end = 0
        self.pending_bytes = 0  # the sizes of the records not done, kept as records and marks are read or written
        self.top = 0  # the highest number among the records (the next append's is above it)

    def add_record(self, number: int, offset: int, size: int) -> None:
        self.records[number] = (offset, size)
        self.top = max(self.top, number)
        if number not in self.done:
            self.pending_bytes += size

    def add_done(self, number: int, result: dict) -> None:
        if number in self.records and number not in self.done:
            self.pending_bytes -= self.records[number][1]
        self.done[number] = result

    def scan(self) -> None:
        """Read the records appended since the last scan (other processes append too). A partial
        record at the end is left unread (``torn``): it is a writer's at work, or a dead one's,
        which only the next appender, holding the append lock, may cut off."""
        try:
            size = os.stat(self._strings[0]).st_size
        except FileNotFoundError:
            return
        if size == self.end:
            return
        self.torn = False
        with open(self.path, "rb") as data:
            data.seek(self.end)
            while self.end < size:
                header = _header(data.readline())
                offset = data.tell()
                if header is None or offset + header["size"] + 1 > size:
                    self.torn = True
                    break
                data.seek(header["size"], os.SEEK_CUR)
                if data.read(1) != b"\n":
                    self.torn = True
                    break
                self.add_record(header["number"], offset, header["size"])
                self.headers[header["number"]] = header
                self.end = data.tell()

    def exists(self) -> bool:
        return os.path.exists(self._strings[0])

    def scan_done(self) -> None:
        path = self._strings[1]
        try:
            size = os.stat(path).st_size
        except FileNotFoundError:
            return
        if size == self.done_end:
            return
        with open(path, "rb") as marks:
            marks.seek(self.done_end)
            for line in marks:
                if not line.endswith(b"\n"):
                    break  # torn by a crash: the message is pending again, which is safe
                try:
                    mark = json.loads(line)
                    self.add_done(int(mark["number"]), mark.get("result") or {})
                except (ValueError, KeyError, TypeError):
                    pass
                self.done_end += len(line)


def _header(line: bytes) -> dict | None:
    if not line.startswith(MAGIC) or not line.endswith(b"\n"):
        return None
    try:
        header = json.loads(line[len(MAGIC):])
        int(header["number"]), int(header["size"])
    except (ValueError, KeyError, TypeError):
        return None
    return header


class Inbox:
    """``<data>/inbox``: the log of raw messages, and which of them are done.

    An ``Inbox`` object is one thread's: what it has read of the log (its ``_Segment`` records and
    their end) is kept in memory without a lock, so two threads sharing one could each note a record
    where the other moved the end (``judge serve``'s SMTP thread once read a mail from the wrong
    offset so). Another thread, like another process, makes an ``Inbox`` of its own; they meet only in
    the files, under the locks above."""

    def __init__(self, data_dir: os.PathLike | str, *, fsync: bool = True):
        self.root = Path(data_dir) / "inbox"
        self.log_dir = self.root / "log"
        self.done_dir = self.root / "done"
        self.retry_dir = self.root / "retry"
        self.fsync = fsync
        self._segments: dict[str, _Segment] = {}
        self._floor: int | None = None  # numbers the older layout used (see _migrate)
        self._ready = False  # the folders made, the older layout migrated (once per instance)
        self._id: str | None = None
        self._active: _Segment | None = None  # the segment this process last appended to
        self._last_number = 0

    # -- layout ---------------------------------------------------------------------------
    def ensure(self) -> "Inbox":
        if self._ready:
            return self
        if (self.root / "game.yaml").exists():
            raise InboxError(f"{self.root} holds a game named 'inbox'; the mail layer needs that folder")
        for folder in (self.log_dir, self.done_dir, self.retry_dir):
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        if self._floor is None:
            self._floor = self._migrate()
        self._ready = True
        return self

    def _migrate(self) -> int:
        """An inbox of the older layout (a file per message: ``NNNNNN.eml`` and its sidecar,
        ``done/NNNNNN.eml``) goes on in the log: pending messages are appended to it under their
        numbers, and no number ever used is used again. Returns that floor (``layout.yaml``)."""
        marker = self.root / "layout.yaml"
        try:
            return int(yamlio.load_mapping(marker).get("numbers_above", 0))
        except (yamlio.YamlFileError, TypeError, ValueError):
            pass
        with file_lock(self.root / ".allocate", 30.0, "the inbox"):
            old = {int(m.group(1)): d for d in (self.root, self.done_dir) for m in
                   (_OLD.match(n) for n in os.listdir(d)) if m}
            floor = max(old, default=0)
            self._floor = floor  # (so that reading the log below does not migrate again)
            for number in sorted(n for n, d in old.items() if d == self.root):
                raw = (self.root / f"{number:06d}.eml").read_bytes()
                try:
                    side = yamlio.load_mapping(self.root / f"{number:06d}.yaml")
                except yamlio.YamlFileError:
                    side = {}
                segment, _ = self._tail()
                self._append(segment, raw, {"number": number, "size": len(raw), "mail_from": side.get("mail_from"),
                                            "rcpt_tos": side.get("rcpt_tos") or [], "received": side.get("received"),
                                            "via": side.get("via", "smtp"), "peer": side.get("peer")})
            if old and self.fsync:
                durability.sync(self.root)
            for number in (n for n, d in old.items() if d == self.root):
                for suffix in (".eml", ".yaml"):
                    try:
                        os.replace(self.root / f"{number:06d}{suffix}", self.done_dir / f"{number:06d}{suffix}")
                    except FileNotFoundError:
                        pass
            yamlio.dump(marker, {"format": FORMAT, "layout": "log", "numbers_above": floor}, fsync=self.fsync)
        return floor

    @property
    def id(self) -> str:
        """A random id of this inbox, so that a number is unique even if the inbox is ever reset."""
        if self._id is None:
            self._id = self._read_or_make_id()
        return self._id

    def _read_or_make_id(self) -> str:
        path = self.root / "id"
        try:
            return path.read_text().strip()
        except FileNotFoundError:
            pass
        self.ensure()
        tmp = self.root / f"{yamlio.temp_prefix()}id-{secrets.token_hex(4)}"
        yamlio.atomic_write(tmp, secrets.token_hex(4) + "\n", fsync=self.fsync)
        try:
            os.link(tmp, path)  # first writer wins, never overwritten
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
        return path.read_text().strip()

    def _segment(self, path: Path) -> _Segment:
        key = str(path)
        if key not in self._segments:
            self._segments[key] = _Segment(path)
        return self._segments[key]

    def _live(self) -> list[_Segment]:
        """The segments still in ``log/`` (with a pending message, or still written to), scanned."""
        if self._floor is None and self.root.is_dir():
            self.ensure()  # once per process: an inbox of the older layout is moved into the log first
        try:
            names = sorted(n for n in os.listdir(self.log_dir) if _SEGMENT.match(n))
        except FileNotFoundError:
            return []
        alive = {str(self.log_dir / n) for n in names}
        for key in [k for k in self._segments if k not in alive and not k.startswith(str(self.done_dir))]:
            self._segments.pop(key)  # archived by another process
        out = []
        for name in names:
            segment = self._segment(self.log_dir / name)
            segment.scan()
            segment.scan_done()
            out.append(segment)
        return out

    # -- receiving ------------------------------------------------------------------------
    def wake_point(self) -> socket.socket | None:
        """The socket a running server reads its wake-ups from (:func:`wake_server`), bound, non
        blocking; None when it cannot be had (another server holds it, not Linux): the server
        then finds the mail by its periodic scan."""
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            sock.bind(_wake_name(self.root))
        except OSError:
            sock.close()
            return None
        sock.setblocking(False)
        return sock

    def journal(self, raw: bytes, *, mail_from: str | None, rcpt_tos: list[str] | tuple[str, ...] = (),
                received: datetime | None = None, via: str = "smtp", peer: str | None = None,
                sync: bool = True) -> int:
        """Store one received message; return its number. Raises InboxError (transient).

        Durable when this returns if ``sync``; with ``sync=False`` the caller makes it durable
        (``durability.sync``, or a :class:`~adjudicator.durability.GroupCommit` shared by many
        messages) before it answers for it."""
        try:
            self.ensure()
            self.id  # noqa: B018  (created with the first message, never later under load)
            with file_lock(self.root / ".allocate", 30.0, "the inbox"):
                segment, number = self._tail()
                self._append(segment, raw, {
                    "number": number,
                    "size": len(raw),
                    "mail_from": None if mail_from is None else clean_text(mail_from),
                    "rcpt_tos": [clean_text(r) for r in rcpt_tos],
                    "received": clock.to_text(received or clock.utcnow()),
                    "via": via,
                    "peer": peer,
                })
                self._last_number = number
            if sync and self.fsync:
                durability.sync(self.root)
            return number
        except InboxError:
            raise
        except OSError as exc:
            raise InboxError(f"cannot write the inbox: {exc.strerror or exc}") from exc

    @staticmethod
    def _append(segment: _Segment, raw: bytes, header: dict) -> None:
        """Append one record (under the append lock); one ``write`` of it whole when it can."""
        number = header["number"]
        record = MAGIC + json.dumps(header, ensure_ascii=False).encode("utf-8") + b"\n" + raw + b"\n"
        fd = os.open(segment.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            crashpoint(f"before appending inbox {number:06d}")
            written = os.write(fd, record)
            while written < len(record):
                written += os.write(fd, record[written:])
        finally:
            os.close(fd)
        crashpoint(f"after appending inbox {number:06d}")
        segment.add_record(number, segment.end + len(record) - len(raw) - 1, len(raw))
        segment.headers[number] = header
        segment.end += len(record)

    def _tail(self) -> tuple[_Segment, int]:
        """Under the append lock: the segment to append to (cutting off a torn record a killed
        writer left: it never got its 250, so its sender sends it again) and the next number.

        The common case costs one ``stat``: the segment this process last appended to has not
        grown since (nobody else appended) and is not full."""
        active = self._active
        if active is not None and not active.torn and active.end < SEGMENT_BYTES \
                and len(active.records) < SEGMENT_RECORDS:
            try:
                if active.path.stat().st_size == active.end:
                    return active, max(active.top, self._floor or 0, self._last_number) + 1
            except FileNotFoundError:
                pass
        segment, number = self._find_tail()
        self._active = segment
        self._last_number = number - 1
        return segment, number

    def _find_tail(self) -> tuple[_Segment, int]:
        live = self._live()
        archived = sorted(n for n in os.listdir(self.done_dir) if _SEGMENT.match(n))
        if not live:
            last = 0
            if archived:
                newest = self._segment(self.done_dir / archived[-1])
                newest.scan()
                last = max(newest.records, default=0)
            last = max(last, self._floor or 0)
            return self._segment(self.log_dir / _next_segment_name(archived)), last + 1
        segment = live[-1]
        if segment.torn:
            os.truncate(segment.path, segment.end)
            segment.torn = False
        last = max((n for s in live for n in s.records), default=self._floor or 0)
        last = max(last, self._floor or 0)
        if segment.end >= SEGMENT_BYTES or len(segment.records) >= SEGMENT_RECORDS:
            segment = self._segment(self.log_dir / _next_segment_name([s.path.name for s in live] + archived))
        return segment, last + 1

    # -- reading --------------------------------------------------------------------------
    def pending(self) -> list[int]:
        """Numbers of the messages not yet processed, oldest first."""
        return sorted(n for s in self._live() for n in s.records if n not in s.done)

    def pending_bytes(self) -> int:
        """The size of the messages not yet processed (``MailSettings.max_inbox_bytes``: over it,
        new mail is refused for now, so that a flood cannot fill the disk)."""
        return sum(s.pending_bytes for s in self._live())  # (kept per segment: O(segments), not O(messages))

    def done_count(self) -> int:
        """How many messages are done (archived segments included): for tools that wait for the judge."""
        count = sum(len(s.done) for s in self._live())
        for name in os.listdir(self.done_dir) if self.done_dir.is_dir() else ():
            if _SEGMENT.match(name):
                segment = self._segment(self.done_dir / name)
                segment.scan()
                count += len(segment.records)
        return count

    def is_pending(self, number: int) -> bool:
        known = self._known(number)
        if known is not None:
            return number not in known.done
        return any(number in s.records and number not in s.done for s in self._live())

    def _known(self, number: int) -> _Segment | None:
        """The segment this process already read ``number`` in, if it is still where it was read
        (a record never leaves its segment, but a segment may be archived by another process),
        with the done marks appended since: a ``stat`` or two instead of listing and scanning
        the log for each question about a message."""
        for segment in self._segments.values():
            if number in segment.records:
                if not segment.exists():
                    return None
                segment.scan_done()
                return segment
        return None

    def _find(self, number: int) -> _Segment | None:
        known = self._known(number)
        if known is not None:
            return known
        for segment in self._live():
            if number in segment.records:
                return segment
        for name in sorted(os.listdir(self.done_dir), reverse=True) if self.done_dir.is_dir() else ():
            if _SEGMENT.match(name):
                segment = self._segment(self.done_dir / name)
                segment.scan()
                segment.scan_done()
                if number in segment.records:
                    return segment
        return None

    def read(self, number: int) -> tuple[bytes, dict]:
        """Raw bytes and what was recorded with them (envelope sender, recipients, time)."""
        segment = self._find(number)
        if segment is None:
            raise FileNotFoundError(f"no message {number} in the inbox")
        offset, size = segment.records[number]
        with open(segment.path, "rb") as data:
            data.seek(offset)
            raw = data.read(size)
        return raw, dict(segment.headers[number])

    def meta(self, number: int) -> dict:
        """What is known of a message: its envelope data, its retry bookkeeping while pending,
        and once done what was done (``result``)."""
        segment = self._find(number)
        if segment is None:
            return {}
        meta = dict(segment.headers[number])
        if number in segment.done:
            meta["result"] = segment.done[number]
        else:
            meta.update(self.retry(number))
        return meta

    def retry_path(self, number: int) -> Path:
        return self.retry_dir / f"{number:06d}.yaml"

    def retry(self, number: int) -> dict:
        """A pending message's retry bookkeeping (``attempts``, ``waits``, ``next_attempt``,
        ``last_error``): a file of its own, which only a message that waits has, so that asking
        "is it due?" of every pending message costs a ``stat``, not a read."""
        path = self.retry_path(number)
        if not path.exists():
            return {}
        try:
            return yamlio.load_mapping(path)
        except yamlio.YamlFileError:
            return {}

    def note_retry(self, number: int, **changes) -> None:
        """Record retry bookkeeping for a pending message (not synced: a restart may redo it)."""
        self.ensure()
        yamlio.dump(self.retry_path(number), {**self.retry(number), **changes}, fsync=False)

    # -- processing -----------------------------------------------------------------------
    @contextmanager
    def processing_lock(self, timeout: float = 60.0) -> Iterator[None]:
        self.ensure()
        with file_lock(self.root / ".processing", timeout, "the inbox"):
            yield

    def mark_done(self, number: int, result: dict) -> None:
        """Record that a message is processed, with what was done. Call only when what it caused
        is durable (the postmaster syncs first); the mark itself is not synced (see the module
        docstring). A segment all of whose messages are done, and that is not the last, moves to
        ``done/``."""
        self.mark_all_done([(number, result)])

    def mark_all_done(self, marks: list[tuple[int, dict]]) -> None:
        """:meth:`mark_done` of each ``(number, result)`` in turn, the finished segments moved once
        at the end (a batch of mails: one listing of the log, not one a mail)."""
        for number, result in marks:
            segment = self._find(number)
            if segment is None or number in segment.done:
                continue
            line = json.dumps({"number": number, "result": result}, ensure_ascii=False).encode("utf-8") + b"\n"
            fd = os.open(segment.done_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, line)
            finally:
                os.close(fd)
            crashpoint(f"after marking inbox {number:06d} done")
            segment.add_done(number, result)
            segment.done_end += len(line)
            try:
                os.unlink(self.retry_path(number))
            except FileNotFoundError:
                pass
        self._archive_finished()

    def _archive_finished(self) -> None:
        live = self._live()
        for segment in live[:-1]:  # never the last: it is appended to
            if segment.path.parent == self.log_dir and set(segment.records) <= set(segment.done):
                done_marks = segment.done_path
                os.replace(done_marks, self.done_dir / done_marks.name)
                os.replace(segment.path, self.done_dir / segment.path.name)
                self._segments.pop(str(segment.path), None)


def _next_segment_name(names: list[str]) -> str:
    numbers = [int(_SEGMENT.match(n).group(1)) for n in names if _SEGMENT.match(n)]
    return f"{max(numbers, default=0) + 1:06d}.log"
