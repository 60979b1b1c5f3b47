"""The mail layer's settings: the judge's own address and the limits that protect games.

Kept apart from the modules that use them so that the command line, the server and the tests
build one object and pass it down, instead of each module reading options or environment.
"""

from __future__ import annotations

from dataclasses import dataclass

from .envelope import canonical_address

# Mail carrying orders is small: 2 MB of SMTP DATA is plenty, and aiosmtpd's own default
# (32 MB) would let any peer fill the inbox (pitfall A1).
DATA_SIZE_LIMIT = 2_000_000
# The text body a game sees; a larger one gets a reply instead of a parse.
MAX_BODY_BYTES = 1_000_000
# Mails per sender address and window before the judge stops answering (a looping peer).
RATE_LIMIT = 30
RATE_WINDOW_SECONDS = 3600


@dataclass(frozen=True)
class MailSettings:
    """Who the judge is on the mail and how much it accepts."""

    address: str = "judge@localhost"
    display_name: str = "Throne judge"
    max_body_bytes: int = MAX_BODY_BYTES
    rate_limit: int = RATE_LIMIT
    rate_window_seconds: int = RATE_WINDOW_SECONDS

    def __post_init__(self):
        canonical = canonical_address(self.address)
        if canonical is None:
            raise ValueError(f"not a mail address: {self.address!r} (example: judge@example.org)")
        object.__setattr__(self, "address", canonical)

    @property
    def domain(self) -> str:
        return self.address.rpartition("@")[2]
