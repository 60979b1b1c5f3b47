"""An exclusive lock across processes: ``flock`` on a file, waiting at most ``timeout`` seconds.

One implementation for the game lock (store.py) and the mail service's inbox, processing and
delivery locks (mail/). The lock is released when the descriptor closes, so a process that
dies never leaves it held.
"""

from __future__ import annotations

import errno
import fcntl
import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator


@contextmanager
def file_lock(path: Path, timeout: float, busy: Callable[[], Exception], mode: int = 0o600) -> Iterator[None]:
    """Hold an exclusive flock on ``path``; after ``timeout`` seconds raise ``busy()``."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, mode)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as exc:
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                    raise
                if time.monotonic() >= deadline:
                    raise busy() from None
                time.sleep(0.005)  # polling: flock has no timeout of its own
        yield
    finally:
        os.close(fd)
