"""The mail layer's settings: the judge's own address and the limits that protect games.

Kept apart from the modules that use them so that the command line, the server and the tests
build one object and pass it down, instead of each module reading options or environment.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from .. import yamlio
from .text import canonical_address

# Mail carrying orders is small: 2 MB of SMTP DATA is plenty, and aiosmtpd's own default
# (32 MB) would let any peer fill the inbox (pitfall A1).
DATA_SIZE_LIMIT = 2_000_000
# The text body a game sees; a larger one gets a reply instead of a parse.
MAX_BODY_BYTES = 1_000_000
# Mails per sender address and window before the judge stops answering (a looping peer).
RATE_LIMIT = 30
RATE_WINDOW_SECONDS = 3600
# The unprocessed inbox: over this many bytes, new mail is refused for now (SMTP 452, ingest 75),
# the MTA keeps it and retries; a flood faster than the judge processes cannot fill the disk.
MAX_INBOX_BYTES = 200_000_000
# Observers per game (OBSERVE by mail): each gets every phase's report, rendered and sent.
MAX_OBSERVERS = 50
# How long an OBSERVE confirmation code holds, in hours of the judge's clock (also said in HELP).
OBSERVE_CODE_HOURS = 48
# `judge poll --security`: IMAP over TLS, STARTTLS, or plain (loopback only), and the port of each.
IMAP_PORTS = {"ssl": 993, "starttls": 143, "none": 143}


@dataclass(frozen=True)
class MailSettings:
    """Who the judge is on the mail and how much it accepts."""

    address: str = "judge@localhost"
    gm: str | None = None  # the GM's address: failures the judge cannot mend are mailed there
    display_name: str = "Throne judge"
    max_body_bytes: int = MAX_BODY_BYTES
    rate_limit: int = RATE_LIMIT
    rate_window_seconds: int = RATE_WINDOW_SECONDS
    max_observers: int = MAX_OBSERVERS
    max_inbox_bytes: int = MAX_INBOX_BYTES

    def __post_init__(self):
        canonical = canonical_address(self.address)
        if canonical is None:
            raise ValueError(f"not a mail address: {self.address!r} (example: judge@example.org)")
        object.__setattr__(self, "address", canonical)

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2]


# ---------------------------------------------------------------------------------------
# Kept with the data: the judge's address and the GM's, so that every command agrees
# ---------------------------------------------------------------------------------------

DEFAULT_ADDRESS = "judge@localhost"
STORED = "judge.yaml"
"""``<data>/judge.yaml``: the judge's own address and the GM's, stored the first time they are
given (``--address``, ``--gm`` or their environment variables) so that ``deliver``, ``remind``,
``tick`` and ``ingest`` run from cron never fall back to ``judge@localhost``."""


def stored(data_dir: os.PathLike | str) -> dict:
    """What ``<data>/judge.yaml`` holds (empty if nothing was stored yet)."""
    try:
        return yamlio.load_mapping(Path(data_dir) / STORED)
    except yamlio.YamlFileError:
        return {}


def resolve(data_dir: os.PathLike | str, *, address: str | None = None, gm: str | None = None,
            **limits) -> MailSettings:
    """The settings for a command: what it was given, else what is stored with the data, else the
    defaults; what it was given and differs from what is stored is stored (a ValueError names a
    bad address before anything is written)."""
    kept = stored(data_dir)
    settings = MailSettings(address=address or kept.get("address") or DEFAULT_ADDRESS,
                            gm=(gm or kept.get("gm") or None), **limits)
    if settings.gm is not None:
        gm_address = canonical_address(settings.gm)
        if gm_address is None:
            raise ValueError(f"not a mail address: {settings.gm!r} (example: gm@example.org)")
        settings = replace(settings, gm=gm_address)
    wanted = {"address": settings.address if address else None, "gm": settings.gm if gm else None}
    changes = {k: v for k, v in wanted.items() if v is not None and kept.get(k) != v}
    if changes:
        Path(data_dir).mkdir(parents=True, exist_ok=True)
        yamlio.dump(Path(data_dir) / STORED, {"format": 1, **{k: v for k, v in kept.items() if k != "format"},
                                             **changes})
    return settings


def parse_hostport(text: str, default_port: int) -> tuple[str, int]:
    """``127.0.0.1:2525``, ``[::1]:25``, ``mail.example.org`` -> (host, port)."""
    text = text.strip()
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest.lstrip(":")
    elif text.count(":") == 1:
        host, port = text.split(":")
    else:
        host, port = text, ""
    if not host:
        raise ValueError(f"no host in {text!r} (example: 127.0.0.1:2525)")
    try:
        return host, int(port) if port else default_port
    except ValueError:
        raise ValueError(f"bad port in {text!r} (example: 127.0.0.1:2525)") from None
