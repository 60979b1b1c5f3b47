"""Making writes durable in groups: one ``syncfs`` for many files instead of an ``fsync`` each.

Two things must be on disk before the judge says so: a received mail before its SMTP 250 (or
``judge ingest``'s exit 0), and a game's journal entry before anything that follows from it.
The first is written by many SMTP sessions at once: each writes its files without syncing, and
one ``syncfs`` of the data directory's file system then makes a whole group durable before any
of them is answered (:class:`GroupCommit`). Writes the judge can make again from what is already
durable (replies, reports, the inbox's done marks, bookkeeping files) are not synced one by one
either: the postmaster syncs once after a batch of mails, before it marks them done.

``syncfs`` is Linux's; elsewhere :func:`sync` falls back to ``os.sync``, which syncs every file
system (slower, as safe).
"""

from __future__ import annotations

import ctypes
import os
from pathlib import Path

_libc = None


def sync(path: os.PathLike | str) -> None:
    """Make every write to the file system holding ``path`` durable."""
    global _libc
    if _libc is None:
        try:
            _libc = ctypes.CDLL(None, use_errno=True)
            _libc.syncfs  # noqa: B018  (present on Linux)
        except (OSError, AttributeError):
            _libc = False
    if _libc:
        fd = os.open(Path(path), os.O_RDONLY)
        try:
            if _libc.syncfs(fd) != 0:
                error = ctypes.get_errno()
                raise OSError(error, os.strerror(error), str(path))
        finally:
            os.close(fd)
    else:
        os.sync()


class GroupCommit:
    """``await commit()`` returns once a sync that began after the caller's writes has ended.

    Callers that arrive while a sync runs share the next one: under load a sync covers every
    mail written meanwhile, so the cost of durability is paid per group, not per mail.
    """

    def __init__(self, path: os.PathLike | str):
        import asyncio  # only `judge serve` commits in groups; `judge ingest` must not pay for asyncio

        self.path = Path(path)
        self.lock = asyncio.Lock()
        self.started = 0  # syncs begun
        self.finished = 0  # the highest begun sync that has ended

    async def commit(self) -> None:
        import asyncio

        ticket = self.started  # any sync that begins from now on covers the caller's writes
        async with self.lock:
            if self.finished > ticket:
                return
            self.started += 1
            mine = self.started
            await asyncio.get_running_loop().run_in_executor(None, sync, self.path)
            self.finished = mine
