"""A per-sender rate limit, kept on disk so that it survives restarts and is shared by processes.

A peer that answers every mail (an auto-responder the loop filter did not recognise, a broken
script) would otherwise make the judge answer it forever. Only mail that changes nothing is
counted (no or a wrong sign-on, an unknown game): a signed-on player playing is never limited,
however many mails a busy evening takes. Over the limit a sender's mail is still journaled in
the inbox but not processed, and the sender gets one notice per window; only a mail that signs on
with its house's right password is processed all the same (forged junk must not lock a player out),
its password checked under the house's own limit of wrong passwords (``Postmaster.house_limiter``,
the same class keyed by game and house), so a flood from one address learns nothing by it.

The record is an append-only log, one line per counted mail or notice
(``2026-11-24T05:00:00Z hit a@example.org``, ``... notice a@example.org``), kept in memory with
parsed times: a hit costs one ``stat`` and one short append, whatever the number of senders
(before, the whole record was rewritten at every hit, so that senders rotating their address
made it quadratic). The log is compacted (rewritten with only what is still inside the window,
temp file and rename) when it holds :data:`SLACK` lines more than twice what was live at the last
compaction, so compaction is amortised O(1) per hit and the file stays small. Callers hold the inbox processing
lock (serve, ingest, poll): one writer at a time. Another process's appends are read as a tail
from where this one stopped; its compaction (a new inode) makes this one read the file again.
A torn last line (a power loss before the batch's sync) is skipped.
"""

from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from .. import clock, yamlio

SLACK = 1024
"""Lines a log may hold beyond twice its live ones before it is compacted."""


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    notify: bool  # over the limit and not yet told in this window
    count: int  # mails from this sender in the window, this one included


class _Sender:
    __slots__ = ("times", "noticed")

    def __init__(self, keep: int):
        self.times: deque[datetime] = deque(maxlen=keep)
        self.noticed: datetime | None = None


class RateLimiter:
    """``limit`` mails per ``window`` seconds per sender address, recorded in the log ``path``."""

    def __init__(self, path: os.PathLike | str, *, limit: int, window_seconds: int):
        self.path = Path(path)
        self.limit = limit
        self.window = timedelta(seconds=window_seconds)
        self._senders: dict[str, _Sender] = {}
        self._file: tuple[int, int] | None = None  # (inode, bytes read) of the log as this process knows it
        self._lines = 0  # lines in the log
        self._compact_at = SLACK  # lines at which the log is next compacted

    # -- the verdicts -----------------------------------------------------------------------
    def check(self, address: str, now: datetime) -> Verdict:
        """Is ``address`` already over the limit? Counts nothing; the first refusal in a window
        is marked so that the sender is told once (``notify``)."""
        record = self._recent(address.lower(), now)
        count = len(record.times)
        if count < self.limit:
            return Verdict(True, False, count)
        notify = record.noticed is None
        if notify:
            record.noticed = now
            self._append((now, "notice", address.lower()))
        return Verdict(False, notify, count)

    def hit(self, address: str, now: datetime) -> Verdict:
        """Count one mail from ``address`` at ``now`` and say whether to process it."""
        key = address.lower()
        record = self._recent(key, now)
        record.times.append(now)
        lines = [(now, "hit", key)]
        count = len(record.times)
        allowed = count <= self.limit
        notify = not allowed and record.noticed is None
        if notify:
            record.noticed = now
            lines.append((now, "notice", key))
        self._append(*lines)
        self._compact_if_due(now)
        return Verdict(allowed, notify, count)

    def _recent(self, key: str, now: datetime) -> _Sender:
        """``key``'s record, caught up with the log and cut to the window."""
        self._catch_up()
        start = now - self.window
        record = self._senders.get(key)
        if record is None:
            record = self._senders[key] = _Sender(self.limit + 1)
        while record.times and record.times[0] <= start:
            record.times.popleft()
        if record.noticed is not None and record.noticed <= start:
            record.noticed = None
        return record

    # -- the log ----------------------------------------------------------------------------
    def _catch_up(self) -> None:
        """Read what other processes appended since this one last looked (all of it after a
        compaction, which makes a new file)."""
        try:
            st = self.path.stat()
        except FileNotFoundError:
            self._senders, self._file, self._lines = {}, None, 0
            return
        if self._file is not None and self._file[0] == st.st_ino and self._file[1] == st.st_size:
            return  # nobody else wrote: the usual case, one stat
        if self._file is None or self._file[0] != st.st_ino or st.st_size < self._file[1]:
            self._senders, self._lines, offset = {}, 0, 0
        else:
            offset = self._file[1]
        with open(self.path, "rb") as f:
            f.seek(offset)
            tail = f.read()
        end = tail.rfind(b"\n") + 1  # a line still being written (or torn) is read next time
        for line in tail[:end].decode("utf-8", "replace").splitlines():
            self._lines += 1
            self._apply(line)
        self._file = (st.st_ino, offset + end)

    def _apply(self, line: str) -> None:
        parts = line.split(" ", 2)
        if len(parts) != 3 or parts[1] not in ("hit", "notice"):
            return  # torn or foreign: a rate limit is not worth a stopped judge
        try:
            moment = clock.from_text(parts[0])
        except ValueError:
            return
        record = self._senders.get(parts[2])
        if record is None:
            record = self._senders[parts[2]] = _Sender(self.limit + 1)
        if parts[1] == "hit":
            record.times.append(moment)
        else:
            record.noticed = moment

    def _append(self, *lines: tuple[datetime, str, str]) -> None:
        data = _lines(lines).encode()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, data)  # one short write: whole lines (a torn one is skipped by readers)
            st = os.fstat(fd)
        finally:
            os.close(fd)
        self._lines += len(lines)
        self._file = (st.st_ino, st.st_size)

    def _compact_if_due(self, now: datetime) -> None:
        """Rewrite the log with only what is inside the window once it holds :data:`SLACK` lines
        more than twice what was live at the last compaction: O(live) work after at least
        live + SLACK appends."""
        if self._lines <= self._compact_at:
            return
        start = now - self.window
        live = []
        for who, record in list(self._senders.items()):
            times = [t for t in record.times if t > start]
            noticed = record.noticed if record.noticed is not None and record.noticed > start else None
            if not times and noticed is None:
                del self._senders[who]
                continue
            live += [(t, "hit", who) for t in times] + ([(noticed, "notice", who)] if noticed else [])
        text = _lines(live)
        yamlio.atomic_write(self.path, text, fsync=False)
        st = self.path.stat()
        self._file, self._lines = (st.st_ino, st.st_size), len(live)
        self._compact_at = 2 * len(live) + SLACK


def _lines(lines) -> str:
    """The log's lines for ``(moment, "hit" | "notice", sender)`` triples, one a line whatever the sender."""
    return "".join(f"{clock.to_text(t)} {what} {who.replace(chr(10), ' ')}\n" for t, what, who in lines)
