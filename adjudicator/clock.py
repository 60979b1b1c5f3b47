"""Time as the judge sees it: aware UTC datetimes, ISO text in files, durations like ``48h``.

The clock is always passed in (``now``); nothing below the command line reads the system
time, so tests move time by hand and never sleep.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

_DURATION = re.compile(r"^\s*(?:(\d+)\s*d)?\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m(?:in)?)?\s*(?:(\d+)\s*s)?\s*$", re.I)


def utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(microsecond=0)


def parse_duration(text: str) -> timedelta:
    """``48h``, ``2d``, ``1d12h``, ``90m``, ``30s``; a bare number is hours."""
    text = str(text).strip()
    if text.isdigit():
        return timedelta(hours=int(text))
    match = _DURATION.match(text)
    if not text or not match or not any(match.groups()):
        raise ValueError(f"not a duration: {text!r} (examples: 48h, 2d, 1d12h, 90m)")
    days, hours, minutes, seconds = (int(g or 0) for g in match.groups())
    return timedelta(days=days, hours=hours, minutes=minutes, seconds=seconds)


def format_duration(delta: timedelta) -> str:
    seconds = int(delta.total_seconds())
    parts = []
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        if seconds >= size:
            parts.append(f"{seconds // size}{unit}")
            seconds %= size
    return "".join(parts) or "0s"


def to_text(moment: datetime | None) -> str | None:
    return None if moment is None else moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def from_text(text: str | None) -> datetime | None:
    """Read an ISO time (``2026-11-21T10:00:00Z``); naive times are taken as UTC."""
    if text is None:
        return None
    moment = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
