"""Versioned YAML game files on disk.

::

    <data dir>/<game id>/
      game.yaml            ruleset, data version, players, addresses, password hashes, deadlines
      states/000001.yaml   one file per adjudicated step, never rewritten; the highest good one is current
      journal/000001.yaml  every accepted input (mail, GM action), numbered, durable before any version it makes
      flag.yaml            only while the game needs the GM: what failed (see GameFiles.flag)
      .lock                flock'ed by whoever changes the game

The data directory also holds the mail service's ``inbox/``, ``outbox/`` and ``maildir/``
(``adjudicator/mail``); those names are not game ids. ``cache/`` there holds derived caches
(``gameindex.py``: every game at a glance, what the report sweep last saw), rebuilt whenever lost.

A game's *present* is its latest readable version plus the journal entries after it (see
``judge.py``); this module only knows files. Every write is atomic (``yamlio.atomic_write``);
every file carries ``format: 1`` so that a later layout can migrate old games.
"""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path

from . import clock, durability, passwords, yamlio
from .locks import file_lock
from .yamlio import YamlFileError

log = logging.getLogger("adjudicator.store")

FORMAT = 1
_GAME_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}\Z")  # \Z: "$" would let a final line break through
RESERVED = frozenset({"inbox", "outbox", "maildir", "log", "cache"})  # the mail service's folders in the data directory
_NUMBERED = re.compile(r"^(\d{6})\.yaml$")


class StoreError(Exception):
    """A problem with the game files that the GM must see (missing game, lock held, ...)."""


class GameLocked(StoreError):
    """Another process holds the game's lock for longer than we may wait (transient)."""


def check_game_id(game_id: str) -> str:
    if not _GAME_ID.match(game_id or ""):
        raise StoreError(
            f"bad game id {game_id!r}: use 1-40 lower-case letters, digits, '-' or '_', starting with a letter or digit (example: westeros1)"
        )
    if game_id in RESERVED:
        raise StoreError(f"game id {game_id!r} is reserved for the mail service's folder (example: westeros1)")
    return game_id


CONFIG_SHAPE = {  # the keys of game.yaml that code reads without a check of its own: type, example
    "ruleset": (str, "ruleset: agot1e"),
    "players": (dict, "players: {stark: {address: ned@example.org}}"),
    "deadlines": (dict, "deadlines: {planning: 48h, step: 24h, grace: 1h}"),
    "options": (dict, "options: {}"),
}


VERSION_SHAPE = {"state": (dict, "state: {round: 1}"), "events": (list, "events: [{key: judge.begins, params: {game: w}}]")}


def _check_config(path: Path, config: dict) -> None:
    """game.yaml's keys and seats of the wrong type named (``yamlio.check_keys``)."""
    yamlio.check_keys(path, config, CONFIG_SHAPE)
    for kind, length in (config.get("deadlines") or {}).items():
        try:
            clock.parse_duration(length)
        except ValueError as exc:
            raise yamlio.YamlFileError(path, f"deadlines: '{kind}' is {exc}") from None
    for player, seat in (config.get("players") or {}).items():
        if not isinstance(seat, dict):
            raise yamlio.YamlFileError(path, f"the seat of '{player}' must be a mapping, found {type(seat).__name__} "
                                             f"(example: players: {{{player}: {{address: ned@example.org}}}})")


def _numbered(directory: Path) -> list[int]:
    """Numbers of the ``NNNNNN.yaml`` files in ``directory``, ascending (temp files ignored)."""
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return []
    return sorted(int(m.group(1)) for m in map(_NUMBERED.match, names) if m)


class GameFiles:
    """The files of one game. Mutating methods expect the caller to hold :meth:`lock`."""

    def __init__(self, path: Path, *, fsync: bool = True, index_cache: dict | None = None, writes: dict | None = None):
        self.path = path
        self.id = path.name
        self.fsync = fsync
        self._index_cache = {} if index_cache is None else index_cache  # the Store's: see _index_rows
        self._writes = {} if writes is None else writes  # the Store's: see Store.writes
        self._read: dict[int, None] = {}  # the versions this process read, in the order last read: versions_read

    def _wrote(self) -> None:
        """Count a change of this game's files by this process (:meth:`Store.writes`)."""
        self._writes[self.id] = self._writes.get(self.id, 0) + 1

    # -- lock ---------------------------------------------------------------------------
    def lock(self, timeout: float = 30.0):
        """Exclusive per-game lock across processes (flock on ``.lock``)."""
        return file_lock(self.path / ".lock", timeout,
                         lambda: GameLocked(f"game {self.id} is busy (locked by another process); try again"), 0o644)

    def stamp(self, version: int | None = None, journal_seq: int | None = None) -> tuple:
        """Changes whenever any process adds a version or journal entry, or anyone rewrites
        game.yaml or the given version or journal file in place (a GM's hand repair). Seven
        ``stat`` calls, no listing: a folder of thousands of journal files costs no more than
        one of three.

        The files *after* the given version and journal entry are part of it (their absence):
        a folder's time alone could miss a second change within the file system's clock tick
        (a few milliseconds), but a new version or entry is always the next numbered file."""
        root = str(self.path)
        paths = [f"{root}/game.yaml", f"{root}/states", f"{root}/journal"]
        if version:
            paths += [f"{root}/states/{version:06d}.yaml", f"{root}/states/{version + 1:06d}.yaml"]
        if journal_seq is not None:
            paths.append(f"{root}/journal/{journal_seq + 1:06d}.yaml")
            if journal_seq:
                paths.append(f"{root}/journal/{journal_seq:06d}.yaml")
        out = []
        for path in paths:
            try:
                st = os.stat(path)
                out.append((st.st_mtime_ns, st.st_size, st.st_ino))
            except FileNotFoundError:
                out.append(None)
        return tuple(out)

    # -- game.yaml ----------------------------------------------------------------------
    def config(self) -> dict:
        path = self.path / "game.yaml"
        config = yamlio.load_mapping(path, format_version=FORMAT)
        _check_config(path, config)
        return config

    def write_config(self, config: dict) -> None:
        self._wrote()
        yamlio.dump(self.path / "game.yaml", {"format": FORMAT, **{k: v for k, v in config.items() if k != "format"}}, fsync=self.fsync)

    # -- the GM's flag --------------------------------------------------------------------
    def flag(self) -> dict | None:
        """Why the game needs the GM (``flag.yaml``: ``problem``, ``at``, ``what``, ``mailed``), or None.
        Written when the judge could not run the game on its own (a deadline that failed)."""
        try:
            return yamlio.load_mapping(self.path / "flag.yaml")
        except YamlFileError:
            return None

    def write_flag(self, flag: dict) -> None:
        yamlio.dump(self.path / "flag.yaml", {"format": FORMAT, **{k: v for k, v in flag.items() if k != "format"}},
                    fsync=self.fsync)

    def clear_flag(self) -> None:
        try:
            (self.path / "flag.yaml").unlink()
        except FileNotFoundError:
            pass

    # -- versions -----------------------------------------------------------------------
    def version_numbers(self) -> list[int]:
        return _numbered(self.path / "states")

    def version_path(self, number: int) -> Path:
        return self.path / "states" / f"{number:06d}.yaml"

    def versions_read(self) -> list[int]:
        """The versions this process has read of this game, the last read first: where to look when
        the judge fails on a state it loaded (``Judge.diagnose``)."""
        return list(reversed(self._read))

    def read_version(self, number: int) -> dict:
        path = self.version_path(number)
        self._read.pop(number, None)
        self._read[number] = None
        data = yamlio.load_mapping(path, format_version=FORMAT)
        for key in ("version", "journal_seq", "state"):
            if key not in data:
                raise YamlFileError(path, f"missing key {key!r}")
        if data["version"] != number:
            raise YamlFileError(path, f"says version {data['version']!r} but is file {number}")
        yamlio.check_keys(path, {**data, "events": data.get("events") or []}, VERSION_SHAPE)  # no events: none
        return data

    def latest_good_version(self) -> tuple[dict, list[YamlFileError]]:
        """The highest version that reads cleanly, and the errors of any newer broken ones."""
        problems: list[YamlFileError] = []
        numbers = self.version_numbers()
        unwritten = set(self.unwritten_versions(numbers))
        for number in reversed(numbers):
            if number in unwritten:
                continue  # not a problem: owed again by the fold (unwritten_versions)
            try:
                return self.read_version(number), problems
            except YamlFileError as exc:
                problems.append(exc)
        if problems:
            raise StoreError(f"game {self.id} has no readable state version: " + "; ".join(map(str, problems)))
        raise StoreError(f"game {self.id} has no state version")

    def write_version(self, data: dict, *, sync: bool = True) -> int:
        """Write the next version (one above the highest file, readable or not); return its number.
        ``sync=False``: the caller syncs (``Judge.tick``'s group)."""
        number = (self.version_numbers() or [0])[-1] + 1
        self._wrote()
        body = {"format": FORMAT, "version": number, **{k: v for k, v in data.items() if k not in ("format", "version")}}
        yamlio.dump(self.version_path(number), body, fsync=self.fsync and sync)
        return number

    # -- journal ------------------------------------------------------------------------
    def journal_numbers(self) -> list[int]:
        return _numbered(self.path / "journal")

    def read_journal(self, seq: int) -> dict:
        path = self.path / "journal" / f"{seq:06d}.yaml"
        data = yamlio.load_mapping(path, format_version=FORMAT)
        if data.get("seq") != seq or "kind" not in data or "at" not in data:
            raise YamlFileError(path, f"not a journal entry (needs seq, kind and at; example: seq: {seq}, "
                                      'kind: adjudicate, at: "2026-11-21T12:00:00Z")')
        return data

    def journal_after(self, seq: int) -> list[dict]:
        """Journal entries after ``seq``, without the empty files at its end (:meth:`unwritten_tail`)."""
        numbers = [n for n in self.journal_numbers() if n > seq]
        unwritten = set(self.unwritten_tail(numbers))
        return [self.read_journal(n) for n in numbers if n not in unwritten]

    def unwritten_tail(self, numbers: list[int] | None = None) -> list[int]:
        """The journal files at the end of the journal that are empty: entries written in a group
        (``Judge.grouped``) whose sync a power loss prevented. Their mails were never marked done
        in the inbox, so they are processed again; the entries count as never written. An empty
        file before a readable entry is damage, not this, and stays an error for the GM."""
        return _empty_tail(self.path / "journal", self.journal_numbers() if numbers is None else numbers)

    def unwritten_versions(self, numbers: list[int] | None = None) -> list[int]:
        """The same of the versions: written unsynced by a tick (``Judge._write_later``) whose last
        sync a power loss prevented; their journal entries are durable, the fold owes them again."""
        return _empty_tail(self.path / "states", self.version_numbers() if numbers is None else numbers)

    def follows(self, version: int, journal_seq: int) -> bool:
        """Is there a version after ``version`` or a journal entry after ``journal_seq`` (two ``stat``
        calls)? After a fold that read up to them, only an unwritten tail or a broken version."""
        return os.path.exists(f"{self.path}/states/{version + 1:06d}.yaml") or \
            os.path.exists(f"{self.path}/journal/{journal_seq + 1:06d}.yaml")

    def drop_unwritten_tail(self) -> list[int]:
        """Under the lock: remove the :meth:`unwritten_tail` and :meth:`unwritten_versions`, so that
        the next entry and version take their numbers; the journal entries removed."""
        self._wrote()
        tail = self.unwritten_tail()
        for n in tail:
            (self.path / "journal" / f"{n:06d}.yaml").unlink()
        if tail:
            log.warning("game %s: empty journal entries %s (a power loss before their group's sync) removed; "
                        "their mails are processed again", self.id, ", ".join(map(str, sorted(tail))))
        versions = self.unwritten_versions()
        for n in versions:
            self.version_path(n).unlink()
        if versions:
            log.warning("game %s: empty versions %s (a power loss before the tick's sync) removed; they are "
                        "written again from the journal", self.id, ", ".join(map(str, sorted(versions))))
        return tail

    def sync_journal(self, first: int, last: int) -> None:
        """Make journal entries ``first``..``last`` durable (each file, then the folder): those a
        group wrote unsynced, before a version that follows from them is written."""
        if not self.fsync:
            return
        for n in range(first, last + 1):
            try:
                fd = os.open(self.path / "journal" / f"{n:06d}.yaml", os.O_RDONLY)
            except FileNotFoundError:
                continue  # a number never taken (entries are numbered without gaps; replace notes are too)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        yamlio.fsync_dir(self.path / "journal")

    def next_journal_seq(self) -> int:
        return (self.journal_numbers() or [0])[-1] + 1

    def append_journal(self, entry: dict, *, sync: bool = True) -> dict:
        """Durably record an input; returns the entry with its ``seq`` (the next number).
        ``sync=False``: written whole (renamed into place) but not synced: the caller syncs a group.
        A synced entry is written only once every entry before it is durable (here a ``syncfs``
        when the caller does not say ``seq``; the judge syncs those after its last version), so
        that an entry a power loss empties can only be at the end (:meth:`unwritten_tail`).

        A caller that knows the next number (the judge: its present under the lock) passes it as
        ``seq``, and no listing of the journal is needed; it must not be taken yet."""
        if not entry.get("seq"):  # (the judge's fold has dropped the unwritten tail already)
            self.drop_unwritten_tail()
            if sync and self.fsync:  # entries a group wrote before this one must not end up empty behind it
                durability.sync(self.path)
        seq = entry.get("seq") or self.next_journal_seq()
        journal = f"{self.path}/journal"
        path = f"{journal}/{seq:06d}.yaml"
        if os.path.exists(path) or (seq > 1 and not os.path.exists(f"{journal}/{seq - 1:06d}.yaml")):
            raise StoreError(f"journal of {self.id}: entry {seq} is not the next one ({self.next_journal_seq()})")
        body = {"format": FORMAT, "seq": seq, **{k: v for k, v in entry.items() if k not in ("format", "seq")}}
        self._wrote()
        yamlio.dump(path, body, fsync=self.fsync and sync)
        self._index_append([body])
        return body

    # -- the journal index: what each journal entry is, without reading it -----------------
    # ``journal.index``: a line per journal entry, ``seq <tab> kind <tab> inbox id <tab> inbox
    # number <tab> Message-ID <tab> sender`` ("-" where an entry has none). It only speeds up two
    # questions of the mail layer: "was this mail recorded before?" and "which GM actions have the
    # players not been told of?" Appended without fsync, caught up from the journal when it lags
    # (a crash, a process that wrote none), rebuilt when unreadable.
    INDEX = "journal.index"

    def _index_append(self, entries: list[dict]) -> None:
        data = "".join("\t".join([str(e["seq"]), *(_index_field(e.get(k)) for k in
                                                   ("kind", "inbox_id", "inbox", "message_id", "from"))]) + "\n"
                       for e in entries).encode("utf-8")
        path = f"{self.path}/{self.INDEX}"
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(fd, data)
                st = os.fstat(fd)
            finally:
                os.close(fd)
        except OSError:
            return  # a cache: the next lookup catches up from the journal
        hit = self._index_cache.get(path)
        if hit and (hit[0], hit[1] + len(data)) == (st.st_ino, st.st_size):  # nobody else appended meanwhile:
            rows = _index_lines(data.decode("utf-8"), hit[2])  # the process's copy gets the lines it wrote
            if rows is not None:
                self._index_cache[path] = (st.st_ino, st.st_size, rows)

    def journal_index(self, upto: int) -> list[tuple]:
        """``(seq, kind, inbox id, inbox number, Message-ID, sender)`` of journal entries 1..``upto``."""
        rows = self._index_rows()
        if rows is None:
            rows = []  # not this journal's index (or damaged): build it again
            self._index_cache.pop(f"{self.path}/{self.INDEX}", None)
            try:
                os.unlink(f"{self.path}/{self.INDEX}")
            except FileNotFoundError:
                pass
        last = len(rows)
        if last < upto:
            missing = [self.read_journal(n) for n in range(last + 1, upto + 1)]
            self._index_append(missing)
            return rows + [_index_row(e) for e in missing]
        return rows[:upto]

    def find_mail(self, upto: int, *, inbox_id: str, number: int, message_id: str | None,
                  sender: str | None) -> tuple[int, bool] | None:
        """The journal entry (up to ``upto``) that recorded this mail: (seq, the same inbox
        message?) or None. Same inbox message: this inbox's id and number; else the same
        Message-ID from the same sender (an MTA that delivered the mail twice)."""
        for seq, _kind, entry_inbox_id, entry_number, entry_message_id, entry_sender in reversed(self.journal_index(upto)):
            if entry_inbox_id == inbox_id and entry_number == number:
                return seq, True
            if message_id and entry_message_id == message_id and entry_sender == sender:
                return seq, False
        return None

    def _index_rows(self) -> list[tuple] | None:
        """The index's rows, numbered 1, 2, ... in order (None: they are not, the index is damaged
        or another journal's). A process keeps them (``index_cache``, by file: not to be changed)
        and reads only what was appended since, so that a mail costs the new lines, not the whole
        journal's; the lines it appends itself it keeps without reading them back."""
        path = f"{self.path}/{self.INDEX}"
        hit = self._index_cache.get(path)
        if hit:  # nothing appended since (asked twice a mail): a stat, not an open and a read
            try:
                st = os.stat(path)
            except FileNotFoundError:
                st = None
            if st is not None and (st.st_ino, st.st_size) == hit[:2]:
                return hit[2]
        try:
            with open(path, "rb") as fh:
                st = os.fstat(fh.fileno())
                hit = self._index_cache.get(path)
                rows, start = (hit[2], hit[1]) if hit and hit[0] == st.st_ino and hit[1] <= st.st_size else ([], 0)
                fh.seek(start)
                data = fh.read()
        except FileNotFoundError:
            self._index_cache.pop(path, None)
            return []
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = "\x00"  # damaged: rebuilt
        rows = _index_lines(text, rows)
        if rows is None:
            self._index_cache.pop(path, None)
            return None
        self._index_cache[path] = (st.st_ino, start + len(data), rows)
        return rows


class Store:
    """All games under one data directory."""

    def __init__(self, root: os.PathLike | str, *, fsync: bool = True):
        self.root = Path(root)
        self.fsync = fsync
        self._secret: bytes | None = None
        self._index_cache: dict[str, tuple] = {}  # journal index file -> (inode, bytes read, rows)
        self._writes: dict[str, int] = {}  # game id -> changes of its files by this process: writes()
        self._root = str(self.root)
        self._files: dict[str, GameFiles] = {}  # game id -> its GameFiles (open)

    def writes(self, game_id: str) -> int:
        """How many times this process changed ``game_id``'s files (a version, a journal entry,
        game.yaml, an unwritten tail removed) through any :class:`GameFiles` of this store: the
        judge trusts a present it checked only while this number stays (``Judge.trusting``)."""
        return self._writes.get(game_id, 0)

    def all_writes(self) -> int:
        """How many times this process changed any game's files (:meth:`writes`, summed)."""
        return sum(self._writes.values())

    def secret(self) -> bytes:
        """The key that passwords are checked with (``passwords.key``: ``secret.key``, mode 0600)."""
        if self._secret is None:
            self._secret = passwords.key(self.root)
        return self._secret

    def game_ids(self) -> list[str]:
        """Every game: a folder with a game.yaml (written last when a game is made). One ``stat``
        per folder, on plain strings: ``tick`` and the mail sweep list 10,000 games in a few ms."""
        try:
            names = os.listdir(self.root)
        except (FileNotFoundError, NotADirectoryError):
            return []
        root = str(self.root)
        return sorted(name for name in names if _GAME_ID.match(name) and os.path.isfile(f"{root}/{name}/game.yaml"))

    def exists(self, game_id: str) -> bool:
        return os.path.isfile(f"{self._root}/{game_id}/game.yaml")

    def open(self, game_id: str) -> GameFiles:
        """The files of ``game_id`` (one ``stat``: it must exist). A :class:`GameFiles` holds no
        state of its own, so each game's is made once (a mail opens its game three times)."""
        files = self._files.get(game_id)
        if files is None:
            check_game_id(game_id)
        if not self.exists(game_id):
            known = ", ".join(self.game_ids()) or "none"
            raise StoreError(f"no game {game_id!r} in {self.root} (games: {known})")
        if files is None:
            files = self._files[game_id] = GameFiles(self.root / game_id, fsync=self.fsync,
                                                     index_cache=self._index_cache, writes=self._writes)
        return files

    def create(self, game_id: str, config: dict, first_version: dict) -> GameFiles:
        """Lay out a new game: directories, version 1, then game.yaml last (it marks the game as existing)."""
        check_game_id(game_id)
        if self.exists(game_id):
            raise StoreError(f"game {game_id!r} already exists in {self.root}")
        path = self.root / game_id
        for sub in ("states", "journal"):
            (path / sub).mkdir(parents=True, exist_ok=True)
        files = GameFiles(path, fsync=self.fsync, index_cache=self._index_cache, writes=self._writes)
        with files.lock():
            if files.version_numbers():
                raise StoreError(f"{path} holds leftovers of another game; remove it first")
            files.write_version(first_version)
            files.write_config(config)
        return files


def _empty_tail(directory: Path, numbers: list[int]) -> list[int]:
    """The numbers at the end of ``numbers`` whose files in ``directory`` are empty, highest first."""
    tail = []
    for n in reversed(numbers):
        try:
            if os.path.getsize(directory / f"{n:06d}.yaml") != 0:
                break
        except FileNotFoundError:
            break
        tail.append(n)
    return tail


def _index_field(value) -> str:
    text = "-" if value is None else str(value)
    return text.replace("\t", " ").replace("\n", " ") or "-"


def _index_lines(text: str, rows: list[tuple]) -> list[tuple] | None:
    """``rows`` (numbered 1, 2, ...) followed by the rows of the index lines ``text`` (a new list);
    None if a line is torn (the last one too: no line end) or damaged, or does not number the next entry."""
    if text and not text.endswith("\n"):
        return None
    rows = list(rows)
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) != 6 or not parts[0].isdigit() or int(parts[0]) != len(rows) + 1:
            return None
        seq, kind, inbox_id, number, message_id, sender = parts
        rows.append((int(seq), kind, None if inbox_id == "-" else inbox_id,
                     int(number) if number.isdigit() else None, None if message_id == "-" else message_id,
                     None if sender == "-" else sender))
    return rows


def _index_row(entry: dict) -> tuple:
    return (entry["seq"], entry.get("kind"), entry.get("inbox_id"), entry.get("inbox"), entry.get("message_id"),
            entry.get("from"))
