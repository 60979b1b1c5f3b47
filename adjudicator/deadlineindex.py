"""The deadline index: when each game next falls due, so that ``judge tick`` opens only the games
whose time has come instead of looking at every game (10,000 games: one small file read, not
40,000 ``stat`` calls and a 3 MB glance cache).

The file, ``<data>/cache/deadlines.txt``, is a log of lines ``<game> <due>`` (``due``: the moment
the game's deadline plus grace passes, ``2030-01-03T01:00:00Z``; ``-``: nothing due while no
deadline runs, the game is paused or over; ``*``: look at it at every tick, a game that could not
be read), the last line of a game winning. Its first line is a header with the data directory's
stamp and the time of the last full check; ``@ <stamp>`` lines renew the stamp. It is derived
data, like ``gameindex``'s caches: the games' files are the record.

**The index may be early, never late.** Each game's entry is at most the moment its game truly
falls due, at every instant, crashes included; the worst an index can do is make a tick open a
game needlessly (which the tick then corrects), never make it pass over a due one. That holds
because of the order of writes (:class:`~adjudicator.judge.Judge` ``record``):

* a change that brings a game's due moment *earlier* writes the new moment here, synced,
  *before* the journal entry that makes the change (a kill or power loss between the two leaves
  an index earlier than the game);
* a change that makes it *later* writes the new moment only once the entry is durable (a group's
  entries after the group's sync), under the game's lock, and only if no newer entry followed;
  a crash before that leaves the older, earlier moment;
* every line about a game is written under the game's lock, so lines of one game never race;
  the full check (:meth:`DeadlineIndex.merge`, from the glances of ``Judge.overview``, read without
  the games' locks) may only bring entries earlier, never later.

The index is rebuilt from the games (``Judge.overview``) when it is missing, torn or of another
format, when the data directory's stamp differs from the one it recorded (a game folder added or
removed by hand), and when its last full check is more than :data:`FULL_CHECK_EVERY` old (a hand
repair inside a game: ``judge list`` and the mail service's report sweep check it too, at no
extra cost, since they look at every game anyway).

Appends are single ``write`` calls of one short line on a file opened for appending, under a
shared ``flock`` of ``deadlines.lock``; a compaction (one line per game with a deadline, written
atomically) holds it exclusively, so no append falls between its read and its rename.
"""

from __future__ import annotations

import fcntl
import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from . import yamlio
from .crashpoints import crashpoint
from .gameindex import CACHE_DIR, RACY_NS

FORMAT = "judge-deadlines 1"
NAME = "deadlines.txt"
NONE = "-"  # no deadline running
ALWAYS = "*"  # open at every tick (sorts before every moment)
FULL_CHECK_EVERY = 24 * 3600  # seconds between two full checks against the games, at most
COMPACT_SLACK = 256  # lines beyond one per game before the log is compacted


def data_stamp(root: Path) -> str:
    """The data directory's own stamp (time, inode): it changes when a game folder is added or
    removed. ``-`` when it changed less than ``RACY_NS`` ago (another change could share its time)."""
    try:
        st = os.stat(root)
    except OSError:
        return NONE
    if st.st_mtime_ns > time.time_ns() - RACY_NS:
        return NONE
    return f"{st.st_mtime_ns}:{st.st_ino}"


class DeadlineIndex:
    """The deadline index of the data directory ``root`` (see the module's docstring)."""

    def __init__(self, root: Path, *, fsync: bool = True):
        self.root = Path(root)
        self.fsync = fsync
        self.path = self.root / CACHE_DIR / NAME
        self.lock_path = self.root / CACHE_DIR / "deadlines.lock"

    # -- reading ---------------------------------------------------------------------------
    def read(self) -> tuple[dict[str, str], str | None, float, int]:
        """Entries (game -> due), the recorded data stamp (None: no valid header), the time of the
        last full check, and the number of lines."""
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return {}, None, 0.0, 0
        lines = text.split("\n")
        entries: dict[str, str] = {}
        stamp, checked = None, 0.0
        head = lines[0].split(" ")
        if len(head) == 4 and f"{head[0]} {head[1]}" == FORMAT:
            stamp = head[2]
            try:
                checked = float(head[3])
            except ValueError:
                stamp = None
        for line in lines[1:]:
            game, _, due = line.partition(" ")
            if not due or " " in due:
                continue  # the empty last line (or one a power loss tore)
            if game == "@":
                stamp = due if stamp is not None else None
            else:
                entries[game] = due
        return entries, stamp, checked, len(lines)

    def due(self, now_text: str, *, check: bool = True) -> list[str] | None:
        """The games whose entry has come (``now_text``: ``clock.to_text`` of now), in game order;
        None when the index cannot be trusted and must be checked against the games first
        (``check=False``: the entries as they are). Compacts a long log."""
        entries, stamp, checked, lines = self.read()
        if check and (stamp is None or stamp == NONE or stamp != data_stamp(self.root)
                      or time.time() - checked > FULL_CHECK_EVERY):
            return None
        if lines > len(entries) + COMPACT_SLACK:
            self.compact()
        return sorted(game for game, due in entries.items() if due != NONE and due <= now_text)

    def compact(self) -> None:
        """Rewrite the log as one line per game with a deadline (under the exclusive lock: no
        append falls between the reading and the renaming)."""
        with self._locked(fcntl.LOCK_EX):
            entries, stamp, checked, _ = self.read()
            if stamp is not None:
                self._write({g: d for g, d in entries.items() if d != NONE}, stamp, checked)

    # -- writing ---------------------------------------------------------------------------
    @contextmanager
    def _locked(self, mode: int) -> Iterator[None]:
        try:
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except FileNotFoundError:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, mode)
            yield
        finally:
            os.close(fd)

    def set(self, game_id: str, due: str | None, *, sync: bool = False) -> None:
        """Append ``game_id``'s new entry (``due``: a moment's text, or None: nothing due). The
        caller holds the game's lock. ``sync``: durable before returning (an entry brought earlier
        ahead of the change that brings it, see the module's docstring)."""
        self._append(f"{game_id} {due or NONE}\n", sync=sync)

    def renew_stamp(self) -> None:
        """Record the data directory's present stamp (after adding a game folder)."""
        self._append(f"@ {data_stamp(self.root)}\n", sync=False)

    def _append(self, line: str, *, sync: bool) -> None:
        crashpoint("before the deadline index's line")
        with self._locked(fcntl.LOCK_SH):
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(fd, line.encode("utf-8"))
                if sync and self.fsync:
                    os.fsync(fd)
            finally:
                os.close(fd)
        crashpoint("after the deadline index's line")

    def merge(self, glances: dict[str, str | None], stamp: str) -> None:
        """A full check against the games: ``glances`` (game -> due, ``*`` or None, each derived
        from the game's files, every game of the data directory as listed after ``stamp`` was
        taken). An entry is brought earlier where its game says so, never later (the glances
        were read without the games' locks: a lock holder's line is newer than they are); games
        that are gone are dropped. Writes the index when anything changed or the log grew long."""
        if not self.root.is_dir():
            return  # no data directory yet: no game, nothing to index
        with self._locked(fcntl.LOCK_EX):
            entries, old_stamp, _, lines = self.read()
            merged = {}
            for game, seen in glances.items():
                held = entries.get(game, NONE)
                seen = seen or NONE
                if held == NONE:
                    due = seen
                elif seen == NONE:
                    due = held
                else:
                    due = min(held, seen)
                if due != NONE:
                    merged[game] = due
            if merged == {g: d for g, d in entries.items() if d != NONE} and old_stamp == stamp \
                    and lines <= len(merged) + COMPACT_SLACK:
                self._touch_checked(entries, stamp)
                return
            self._write(merged, stamp)

    def _touch_checked(self, entries: dict[str, str], stamp: str) -> None:
        """Nothing changed: record the full check's time (rewriting only when it is an hour old)."""
        _, _, checked, _ = self.read()
        if time.time() - checked > 3600:
            self._write({g: d for g, d in entries.items() if d != NONE}, stamp)

    def _write(self, entries: dict[str, str], stamp: str, checked: float | None = None) -> None:
        checked = time.time() if checked is None else checked
        text = "".join([f"{FORMAT} {stamp} {checked:.0f}\n"] + [f"{g} {d}\n" for g, d in sorted(entries.items())])
        yamlio.remove_stale_temp(self.path.parent)
        try:
            yamlio.atomic_write(self.path, text.encode("utf-8"), fsync=self.fsync)
        except OSError:
            pass  # a read-only data directory: the next tick checks every game again
