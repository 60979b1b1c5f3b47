"""Caches of what every game looks like, checked by the times of its files, so that the commands
that go over all games (``judge tick``, ``judge list``, the mail service's report sweep) cost a
few ``stat`` calls per quiet game instead of reading its state.

A cache is never the record: the game's own files are. Each entry keeps the *stamp* of the
files it was derived from (modification time in nanoseconds, size and inode of, e.g.,
``game.yaml``, ``states/``, ``journal/`` and ``flag.yaml``; a folder's time changes whenever a
file is added to it or removed, and every write in the store adds a file: versions and journal
entries are new files, rewrites are atomic renames). Reading the cache stats each game again and
derives anew every entry whose stamp differs, so a change by any process, GM commands and hand
repairs included, is seen by the next reader without anyone having to update an index under a
lock, and a crash between a change and an index update cannot leave a stale entry behind.

Two details make that sound:

* the stamp is taken *before* the game is read, so a change made while it is read leaves a
  stamp that no longer matches, and the entry is derived again next time;
* a stamp with a time less than :data:`RACY_NS` old is not trusted (stored as ``null``, so
  derived again next time): a file system's clock is coarse (ext4 advances it every few
  milliseconds), and a second change within the same tick would keep the time of the first
  (the "racily clean" problem git has with its index).

The caches live in ``<data>/cache/`` (a folder of their own, so that a killed writer's temp
file is found and removed by the next save without listing the data directory's thousands of
games). They are JSON, not YAML: they are derived data, rebuilt from the games at any time,
read whole by every ``tick``, and for 10,000 games JSON reads about ten times faster. A
missing, torn or foreign cache file is simply rebuilt.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Callable, Iterable

from . import yamlio

FORMAT = 2  # 2: a game's glance holds its seats, observing and the summary as a message
CACHE_DIR = "cache"
"""The data directory's folder of derived caches (a reserved name: no game may take it)."""
RACY_NS = 2_000_000_000
"""A stamp younger than this (2 s) is not trusted: another change could share its time."""

Stamp = list


def stamp(game_dir: str, names: Iterable[str], now_ns: int | None = None, own: Iterable[str] = ()) -> Stamp | None:
    """``[mtime_ns, size, inode]`` (or None when missing) of each of ``names`` in ``game_dir``;
    None as a whole when one of them changed less than :data:`RACY_NS` ago, unless it is one of
    ``own``: a file the caller has just written itself, under a lock that keeps out every other
    writer of it."""
    now_ns = time.time_ns() if now_ns is None else now_ns
    out: Stamp = []
    for name in names:
        try:
            st = os.stat(f"{game_dir}/{name}")
        except FileNotFoundError:
            out.append(None)
            continue
        if st.st_mtime_ns > now_ns - RACY_NS and name not in own:
            return None
        out.append([st.st_mtime_ns, st.st_size, st.st_ino])
    return out


class StampedCache:
    """``path`` (a JSON file): game id -> [stamp, payload], for the games in the data directory ``root``.

    :meth:`refresh` returns a payload per game, deriving (``derive(game_id)``) only those whose
    files changed since their entry was made; :meth:`mark` and :meth:`forget` let a caller that
    did the work itself (the report sweep) say so.
    """

    def __init__(self, root: Path, name: str, names: tuple[str, ...], own: tuple[str, ...] = ()):
        self.root = Path(root)
        self.own = own  # files only the cache's own user writes, under its lock: young is no doubt
        self.path = self.root / CACHE_DIR / name
        self.names = names
        self._entries: dict[str, list] | None = None
        self._changed = False

    def load(self) -> dict[str, list]:
        if self._entries is None:
            yamlio.remove_stale_temp(self.path.parent)  # what a writer killed mid-save left
            try:
                data = json.loads(self.path.read_bytes())
                entries = data["games"] if data.get("format") == FORMAT and data.get("names") == list(self.names) else {}
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                entries = {}
            self._entries = entries if isinstance(entries, dict) else {}
        return self._entries

    def stamp(self, game_id: str) -> Stamp | None:
        return stamp(f"{self.root}/{game_id}", self.names, own=self.own)

    def unchanged(self, game_id: str, current: Stamp | None) -> bool:
        """Is the entry of ``game_id`` there and made from files stamped ``current``?"""
        hit = self.load().get(game_id)
        return current is not None and isinstance(hit, list) and len(hit) == 2 and hit[0] == current

    def payload(self, game_id: str) -> Any:
        return self.load()[game_id][1]

    def mark(self, game_id: str, current: Stamp | None, payload: Any = None) -> None:
        """Remember ``payload`` for ``game_id`` as derived from files stamped ``current`` (taken
        before they were read; None: derive it again next time)."""
        entries = self.load()
        if entries.get(game_id) != [current, payload]:
            entries[game_id] = [current, payload]
            self._changed = True

    def forget(self, game_id: str) -> None:
        if self.load().pop(game_id, None) is not None:
            self._changed = True

    def keep_only(self, game_ids: Iterable[str]) -> None:
        """Drop the entries of games that are gone."""
        entries = self.load()
        for gone in set(entries) - set(game_ids):
            del entries[gone]
            self._changed = True

    def refresh(self, game_ids: list[str], derive: Callable[[str], Any],
                trusted: Callable[[Any], bool] = lambda payload: True) -> dict[str, Any]:
        """A payload for each of ``game_ids``: cached when its files are unchanged, else derived.
        A payload that is not ``trusted`` (a game that could not be read: a permission mended
        changes no file time) is derived again every time."""
        out = {}
        for game_id in game_ids:
            current = self.stamp(game_id)
            if self.unchanged(game_id, current):
                out[game_id] = self.payload(game_id)
                continue
            out[game_id] = derive(game_id)
            self.mark(game_id, current if trusted(out[game_id]) else None, out[game_id])
        self.keep_only(game_ids)
        self.save()
        return out

    def save(self) -> None:
        """Write the cache if it changed (atomically, not synced: it is rebuilt if lost)."""
        if not self._changed or self._entries is None:
            return
        try:
            self.path.parent.mkdir(exist_ok=True)
            yamlio.atomic_write(self.path, json.dumps({"format": FORMAT, "names": list(self.names), "games": self._entries},
                                           separators=(",", ":"), default=str).encode(),
                                fsync=False)
        except OSError:
            return  # a read-only data directory: the next reader derives again
        self._changed = False
