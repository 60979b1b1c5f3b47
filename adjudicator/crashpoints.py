"""Crash points: places where a ``kill -9`` is injected on purpose, to prove that none loses data.

The judge promises that a process killed at any moment loses nothing received and applies
nothing twice. That promise is tested by killing real processes at every point between two
file operations (``tests/crashharness.py``), not by sleeping and killing at random. Every
place that changes a file calls :func:`crashpoint` just before and just after the change.

Unarmed (the normal case) a crash point costs one global lookup. Two environment variables arm
it, read once at import:

* ``JUDGE_CRASH_AT=N``: the N-th crash point this process reaches kills it with SIGKILL (no
  cleanup, no ``finally``, exactly as ``kill -9``);
* ``JUDGE_CRASH_TRACE=FILE``: every crash point reached is appended to FILE as one line (its
  label), so that a harness knows how many points a command passes.
"""

from __future__ import annotations

import os
import signal

_AT = int(os.environ.get("JUDGE_CRASH_AT") or 0)
_TRACE = os.environ.get("JUDGE_CRASH_TRACE") or None
_ARMED = bool(_AT or _TRACE)
_count = 0


def crashpoint(label: str) -> None:
    """A moment between two file operations; ``label`` says which (for the harness's report)."""
    if not _ARMED:
        return
    global _count
    _count += 1
    if _TRACE:
        with open(_TRACE, "a", encoding="utf-8") as trace:
            trace.write(f"{_count} {label}\n")
    if _count == _AT:
        os.kill(os.getpid(), signal.SIGKILL)
