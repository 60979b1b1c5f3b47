"""The server-level journal of raw inbound mail: nothing that got its 250 is ever lost.

``journal`` writes the raw bytes (``<data>/inbox/NNNNNN.eml``, fsync'ed, never overwritten)
and a small YAML sidecar (envelope sender, recipients, received time) *before* the SMTP server
answers 250 or ``judge ingest`` exits 0. Processing comes after, possibly in another process
after a crash. A message stays in ``inbox/`` until its game journal entry and its replies are
written; only then does :meth:`Inbox.mark_done` move it to ``inbox/done/`` with a record of
what was done. So after a crash at any moment the message is either still pending (and is
processed at the next start) or done; the mail layer makes processing idempotent by recording
``inbox_id`` + number (and the Message-ID) in the game journal entry and skipping a message
whose entry is already there (see ``process.py``).

Two locks (``flock``, per open file, so they also separate threads of one process):
``.allocate`` while a number is chosen and written, ``.processing`` while one message is
processed, so that a server and a ``judge ingest`` never process the same message at once.
"""

from __future__ import annotations

import os
import re
import secrets
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Iterator

from .. import clock, locks, yamlio
from ..crashpoints import crashpoint
from .envelope import clean_text

FORMAT = 1
_NUMBERED = re.compile(r"^(\d{6,})\.eml$")


class InboxError(Exception):
    """The inbox cannot take or give mail right now (disk, permissions, lock): transient."""


class InboxBusy(InboxError):
    """Another process holds the processing lock for longer than we may wait."""


def file_lock(path: Path, timeout: float, what: str):
    """The mail service's locks (numbering, processing, delivery): :func:`adjudicator.locks.file_lock`
    raising :class:`InboxBusy`, so that callers answer "try again later"."""
    return locks.file_lock(path, timeout, lambda: InboxBusy(f"{what} is busy (locked by another process); try again"))


def _numbers(directory: Path) -> list[int]:
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return []
    return sorted(int(m.group(1)) for m in map(_NUMBERED.match, names) if m)


class Inbox:
    """``<data>/inbox``: numbered raw messages, pending until marked done."""

    def __init__(self, data_dir: os.PathLike | str, *, fsync: bool = True):
        self.root = Path(data_dir) / "inbox"
        self.done_dir = self.root / "done"
        self.fsync = fsync

    # -- layout ---------------------------------------------------------------------------
    def ensure(self) -> "Inbox":
        if (self.root / "game.yaml").exists():
            raise InboxError(f"{self.root} holds a game named 'inbox'; the mail layer needs that folder")
        self.done_dir.mkdir(parents=True, exist_ok=True)
        return self

    @property
    def id(self) -> str:
        """A random id of this inbox, so that a number is unique even if the inbox is ever reset."""
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

    def eml_path(self, number: int, done: bool = False) -> Path:
        return (self.done_dir if done else self.root) / f"{number:06d}.eml"

    def meta_path(self, number: int, done: bool = False) -> Path:
        return (self.done_dir if done else self.root) / f"{number:06d}.yaml"

    # -- receiving ------------------------------------------------------------------------
    def journal(self, raw: bytes, *, mail_from: str | None, rcpt_tos: list[str] | tuple[str, ...] = (),
                received: datetime | None = None, via: str = "smtp", peer: str | None = None) -> int:
        """Durably store one received message; return its number. Raises InboxError (transient)."""
        try:
            self.ensure()
            self.id  # noqa: B018  (created with the first message, never later under load)
            with file_lock(self.root / ".allocate", 30.0, "the inbox"):
                number = self._next_number()
                tmp = self.root / f"{yamlio.temp_prefix()}{number:06d}-{secrets.token_hex(4)}"
                yamlio.atomic_write(tmp, raw, fsync=self.fsync)  # temp file written and fsync'ed
                try:
                    os.link(tmp, self.eml_path(number))  # never overwrites an existing message
                    crashpoint(f"after linking inbox {number:06d}.eml")
                finally:
                    tmp.unlink()
                meta = {
                    "format": FORMAT,
                    "number": number,
                    "mail_from": None if mail_from is None else clean_text(mail_from),
                    "rcpt_tos": [clean_text(r) for r in rcpt_tos],
                    "received": clock.to_text(received or clock.utcnow()),
                    "via": via,
                    "peer": peer,
                    "size": len(raw),
                }
                yamlio.dump(self.meta_path(number), meta, fsync=self.fsync)
                (self.root / "seq").write_text(f"{number + 1}\n")
            return number
        except InboxError:
            raise
        except OSError as exc:
            raise InboxError(f"cannot write the inbox: {exc.strerror or exc}") from exc

    def _next_number(self) -> int:
        """The next free number, in constant time: ``inbox/seq`` holds it (written after each
        message, not fsync'ed); it is only a hint, since a number is taken only if no message
        of that number exists, pending or done. Without the file, the folders are listed once."""
        try:
            number = int((self.root / "seq").read_text())
        except (FileNotFoundError, ValueError):
            number = max([0, *_numbers(self.root), *_numbers(self.done_dir)]) + 1
        while self.eml_path(number).exists() or self.eml_path(number, done=True).exists():
            number += 1
        return number

    # -- reading --------------------------------------------------------------------------
    def pending(self) -> list[int]:
        """Numbers of the messages not yet processed, oldest first."""
        return _numbers(self.root)

    def is_pending(self, number: int) -> bool:
        return self.eml_path(number).exists()

    def read(self, number: int) -> tuple[bytes, dict]:
        """Raw bytes and sidecar (an empty dict if the sidecar was never written or is unreadable)."""
        done = not self.is_pending(number)
        raw = self.eml_path(number, done).read_bytes()
        return raw, self.meta(number)

    def meta(self, number: int) -> dict:
        for done in (False, True):
            try:
                return yamlio.load_mapping(self.meta_path(number, done))
            except yamlio.YamlFileError:
                continue
        return {}

    def update_meta(self, number: int, **changes) -> None:
        """Record bookkeeping (e.g. failed attempts) on a pending message's sidecar."""
        meta = {**self.meta(number), **changes}
        meta.setdefault("format", FORMAT)
        meta.setdefault("number", number)
        yamlio.dump(self.meta_path(number), meta, fsync=self.fsync)

    # -- processing -----------------------------------------------------------------------
    @contextmanager
    def processing_lock(self, timeout: float = 60.0) -> Iterator[None]:
        self.ensure()
        with file_lock(self.root / ".processing", timeout, "the inbox"):
            yield

    def mark_done(self, number: int, result: dict) -> None:
        """Move a processed message to ``done/`` with what was done. Call only when all is written."""
        meta = {**self.meta(number), "result": result}
        meta.setdefault("format", FORMAT)
        meta.setdefault("number", number)
        yamlio.dump(self.meta_path(number, done=True), meta, fsync=self.fsync)
        if self.is_pending(number):
            os.replace(self.eml_path(number), self.eml_path(number, done=True))
            crashpoint(f"after moving inbox {number:06d}.eml to done")
        try:
            os.unlink(self.meta_path(number))
        except FileNotFoundError:
            pass
        if self.fsync:
            yamlio.fsync_dir(self.done_dir)
            yamlio.fsync_dir(self.root)
