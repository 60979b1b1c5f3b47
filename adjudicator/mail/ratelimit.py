"""A per-sender rate limit, kept on disk so that it survives restarts and is shared by processes.

A peer that answers every mail (an auto-responder the loop filter did not recognise, a broken
script) would otherwise make the judge answer it forever. Only mail that changes nothing is
counted (no or a wrong sign-on, an unknown game): a signed-on player playing is never limited,
however many mails a busy evening takes. Over the limit a sender's mail is still journaled in
the inbox but not processed (not even its password checked), and the sender gets one notice
per window. The file is small: per address only the newest ``limit + 1`` times.
Callers hold the inbox processing lock, so a plain atomic rewrite is safe.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from .. import clock, yamlio

FORMAT = 1


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    notify: bool  # over the limit and not yet told in this window
    count: int  # mails from this sender in the window, this one included


class RateLimiter:
    """``limit`` mails per ``window`` seconds per sender address, recorded in ``path``."""

    def __init__(self, path: os.PathLike | str, *, limit: int, window_seconds: int, fsync: bool = True):
        self.path = Path(path)
        self.limit = limit
        self.window = timedelta(seconds=window_seconds)
        self.fsync = fsync
        self._cache: tuple | None = None

    def _load(self) -> dict:
        """The file's senders, read again only when another process rewrote it."""
        try:
            st = self.path.stat()
            key = (st.st_mtime_ns, st.st_size, st.st_ino)
        except FileNotFoundError:
            return {}
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        try:
            data = yamlio.load_mapping(self.path)
        except yamlio.YamlFileError:
            return {}  # damaged: start afresh (a rate limit is not worth a stopped judge)
        senders = data.get("senders") if isinstance(data.get("senders"), dict) else {}
        self._cache = (key, senders)
        return senders

    def check(self, address: str, now: datetime) -> Verdict:
        """Is ``address`` already over the limit? Counts nothing; the first refusal in a window
        is marked so that the sender is told once (``notify``)."""
        key = address.lower()
        senders = self._recent(now, key)
        record = senders[key]
        count = len(record["times"])
        if count < self.limit:
            return Verdict(True, False, count)
        notify = record["noticed"] is None
        if notify:
            record["noticed"] = now
            self._save(senders)
        return Verdict(False, notify, count)

    def hit(self, address: str, now: datetime) -> Verdict:
        """Count one mail from ``address`` at ``now`` and say whether to process it."""
        key = address.lower()
        senders = self._recent(now, key)
        record = senders[key]
        record["times"] = (record["times"] + [now])[-(self.limit + 1):]
        count = len(record["times"])
        allowed = count <= self.limit
        notify = not allowed and record["noticed"] is None
        if notify:
            record["noticed"] = now
        self._save(senders)
        return Verdict(allowed, notify, count)

    def _recent(self, now: datetime, key: str) -> dict:
        """Every sender's mails within the window (``key`` always present)."""
        start = now - self.window
        senders = {}
        for who, record in self._load().items():
            try:
                times = [t for t in (clock.from_text(x) for x in record.get("times", [])) if t > start]
                noticed = clock.from_text(record.get("noticed"))
            except (TypeError, ValueError, AttributeError):
                continue
            if times or who == key:
                senders[who] = {"times": times, "noticed": noticed if noticed and noticed > start else None}
        senders.setdefault(key, {"times": [], "noticed": None})
        return senders

    def _save(self, senders: dict) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        yamlio.dump(self.path, {"format": FORMAT, "senders": {
            who: {"times": [clock.to_text(t) for t in r["times"]], "noticed": clock.to_text(r["noticed"])}
            for who, r in senders.items()}}, fsync=False)  # bookkeeping, synced with its batch
        self._cache = None
