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

from .. import clock, durability, locks, yamlio
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
                received: datetime | None = None, via: str = "smtp", peer: str | None = None,
                sync: bool = True) -> int:
        """Store one received message; return its number. Raises InboxError (transient).

        Durable when this returns if ``sync``; with ``sync=False`` the caller makes it durable
        (``durability.sync`` or a :class:`~adjudicator.durability.GroupCommit` shared by many
        messages) before it answers for it. The sidecar is written before the message: an
        ``.eml`` in the inbox is a message whose sidecar is there too."""
        try:
            self.ensure()
            self.id  # noqa: B018  (created with the first message, never later under load)
            with file_lock(self.root / ".allocate", 30.0, "the inbox"):
                number = self._next_number()
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
                yamlio.dump(self.meta_path(number), meta, fsync=False)
                tmp = self.root / f"{yamlio.temp_prefix()}{number:06d}-{secrets.token_hex(4)}"
                yamlio.atomic_write(tmp, raw, fsync=False)
                try:
                    os.link(tmp, self.eml_path(number))  # never overwrites an existing message
                    crashpoint(f"after linking inbox {number:06d}.eml")
                finally:
                    tmp.unlink()
                (self.root / "seq").write_text(f"{number + 1}\n")
            if sync and self.fsync:
                durability.sync(self.root)
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
        return raw, self._sidecar(number, done)

    def _sidecar(self, number: int, done: bool) -> dict:
        try:
            return yamlio.load_mapping(self.meta_path(number, done))
        except yamlio.YamlFileError:
            return {}

    def meta(self, number: int) -> dict:
        """What is known of a message: its sidecar, its retry bookkeeping while pending, and once
        done what was done (``result``)."""
        if self.is_pending(number):
            return {**self._sidecar(number, False), **self.retry(number)}
        return self._sidecar(number, True)

    def retry_path(self, number: int) -> Path:
        return self.root / f"{number:06d}.retry"

    def retry(self, number: int) -> dict:
        """A pending message's retry bookkeeping (``attempts``, ``waits``, ``next_attempt``,
        ``last_error``): a file of its own, which only a message that waits has, so that asking
        "is it due?" of every pending message costs a ``stat``, not a YAML read."""
        path = self.retry_path(number)
        if not path.exists():
            return {}
        try:
            return yamlio.load_mapping(path)
        except yamlio.YamlFileError:
            return {}

    def note_retry(self, number: int, **changes) -> None:
        """Record retry bookkeeping for a pending message (not synced: a restart may redo it)."""
        yamlio.dump(self.retry_path(number), {**self.retry(number), **changes}, fsync=False)

    # -- processing -----------------------------------------------------------------------
    @contextmanager
    def processing_lock(self, timeout: float = 60.0) -> Iterator[None]:
        self.ensure()
        with file_lock(self.root / ".processing", timeout, "the inbox"):
            yield

    def mark_done(self, number: int, result: dict) -> None:
        """Move a processed message to ``done/`` with what was done. Call only when what it caused
        is durable (the postmaster syncs first): the move itself need not be, since a message
        found pending again is recognised by its journal entry and answered from it."""
        meta = {**self.meta(number), "result": result}
        meta.setdefault("format", FORMAT)
        meta.setdefault("number", number)
        yamlio.dump(self.meta_path(number, done=True), meta, fsync=False)
        if self.is_pending(number):
            os.replace(self.eml_path(number), self.eml_path(number, done=True))
            crashpoint(f"after moving inbox {number:06d}.eml to done")
        for path in (self.meta_path(number), self.retry_path(number)):
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
