"""Moments as a player reads them: in their time zone and language, and as a time left.

The judge keeps every time in UTC (files, journals, the ``X-Judge`` line). A player sees a
deadline in the zone of their seat (``SET TIMEZONE Europe/Prague``; by default the zone of their
language: ``Europe/Prague`` for Czech, UTC for English) and as a duration from now ("in 1 day 3
hours", "za 1 den 3 hodiny"). Weekday names, unit names with their plural forms and the phrase
around the duration come from the language's catalogue (``templates/<lang>/messages.yaml``:
``names.weekday``, ``names.time_unit``, ``mail.time.*``).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from . import messages
from .messages import Msg

DEFAULT_ZONES = {"en": "UTC", "cs": "Europe/Prague"}


class UnknownZone(ValueError):
    """A time zone name the tz database does not know."""


def zone(name: str | None, language: str) -> ZoneInfo:
    """The zone called ``name`` (an IANA name, case-insensitive), else the language's default."""
    name = name or DEFAULT_ZONES.get(language, "UTC")
    try:
        return ZoneInfo(canonical_zone(name))
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def canonical_zone(name: str) -> str:
    """``europe/prague`` -> ``Europe/Prague``; raises :class:`UnknownZone` for a name the tz database lacks."""
    wanted = name.strip()
    if wanted.upper() in ("UTC", "GMT", "Z"):
        return "UTC"
    try:
        ZoneInfo(wanted)
        return wanted
    except (ZoneInfoNotFoundError, ValueError):
        pass
    for known in _zones():
        if known.lower() == wanted.lower():
            return known
    raise UnknownZone(wanted)


_ZONES: list[str] = []


def _zones() -> list[str]:
    if not _ZONES:
        _ZONES.extend(sorted(available_timezones()))
    return _ZONES


def moment(when: datetime | None, zone_: ZoneInfo, language: str) -> str:
    """``Tue 24 Nov 2026 18:00 CET`` / ``út 24. 11. 2026 18:00 SEČ`` (the catalogue's format)."""
    if when is None:
        return ""
    return _moment(when, zone_, language)


@lru_cache(maxsize=4096)
def _moment(when: datetime, zone_: ZoneInfo, language: str) -> str:
    """(Kept per moment, zone and language: every reply in a game shows the same deadline.)"""
    local = when.astimezone(zone_)
    weekday = messages.render(Msg(f"mail.weekday.{local.isoweekday()}"), language)
    return messages.render(Msg("mail.time.moment", weekday=weekday, day=local.day, month=local.month,
                               year=local.year, hour=f"{local.hour:02d}", minute=f"{local.minute:02d}",
                               zone=_zone_abbreviation(local, language)), language)


def _zone_abbreviation(local: datetime, language: str) -> str:
    abbreviation = local.tzname() or "UTC"
    return messages.catalogue(language).words.get(f"zone.{abbreviation}", abbreviation)


def left(delta: timedelta, language: str) -> str:
    """``in 1 day 3 hours`` / ``za 1 den 3 hodiny``: the two largest units, rounded down; under a
    minute, ``in less than a minute``; a past moment, ``passed``."""
    seconds = int(delta.total_seconds())
    if seconds <= 0:
        return _left_text("passed", (), language)
    if seconds < 60:
        return _left_text("soon", (), language)
    parts = []
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and len(parts) < 2:
            parts.append((unit, seconds // size))
            seconds %= size
        elif parts:
            break
    return _left_text("in", tuple(parts), language)


@lru_cache(maxsize=4096)
def _left_text(key: str, parts: tuple, language: str) -> str:
    """(Kept per wording: the replies of one minute all say the same.)"""
    if not parts:
        return messages.render(Msg(f"mail.time.{key}"), language)
    return messages.render(Msg("mail.time.in", parts=[{"unit": unit, "n": n} for unit, n in parts]), language)


def deadline_text(deadline: datetime | None, now: datetime | None, zone_: ZoneInfo, language: str) -> str:
    """``Tue 24 Nov 2026 18:00 CET (in 1 day 3 hours)``: the deadline as the player reads it."""
    if deadline is None:
        return ""
    text = moment(deadline, zone_, language)
    if now is not None:
        text += f" ({left(deadline - now, language)})"
    return text


def utc(moment_: datetime) -> datetime:
    return moment_.astimezone(timezone.utc)
