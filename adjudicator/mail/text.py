"""Untrusted text from mail, as plain strings: bytes decoded, strings cleaned, addresses made
canonical.

Pure functions on ``str`` and ``bytes`` with nothing but ``codecs`` and ``re``: the settings,
the inbox and ``judge ingest``'s hand-over to a running server use them without importing the
email package and the MIME reading of ``envelope.py``.
"""

from __future__ import annotations

import codecs
import re

_SURROGATES = re.compile("[\ud800-\udfff]+")
_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def canonical_address(text: str | None) -> str | None:
    """``Local@Domain.ORG`` -> ``Local@domain.org``; None when it is no usable addr-spec.

    The local part keeps its case (RFC 5321 leaves it to the receiving host); the domain is
    case-insensitive and lower-cased so that comparisons and rate-limit keys agree.
    """
    if not text:
        return None
    text = clean_text(str(text)).strip()
    if text.startswith("<") and text.endswith(">"):
        text = text[1:-1].strip()
    local, at, domain = text.rpartition("@")
    if not at or not local or not domain or "@" in local.strip('"'):
        return None
    if any(c.isspace() or c in "<>,;()[]\\" or ord(c) < 32 for c in domain) or "." not in domain and domain != "localhost":
        return None
    if any(ord(c) < 32 or c in "<>" for c in local) or (" " in local and not local.startswith('"')):
        return None
    return f"{local}@{domain.lower()}"


def clean_text(text: str) -> str:
    """A string safe for YAML and replies: surrogate escapes decoded, control characters gone.

    Surrogates are what the stdlib leaves for undecodable raw bytes (pitfall E3); the bytes
    are recovered and decoded like a body without charset. NUL and other C0 controls (but
    tab and line ends) are dropped: they mean nothing in a mail and YAML would escape them.
    """
    if _SURROGATES.search(text):
        try:
            text = decode_bytes(text.encode("utf-8", "surrogateescape"))
        except UnicodeEncodeError:  # surrogates that were never bytes
            pass
        text = _SURROGATES.sub("\ufffd", text)
    return _CONTROLS.sub("", text)


def decode_bytes(data: bytes, charset: str | None = None) -> str:
    """Decode a body or header: the declared charset if it fits, else a Czech-aware guess.

    A declared charset wins; if the bytes do not fit it, single-byte charsets keep it with
    U+FFFD for the misfits, and UTF-8 is kept only when the text is still mostly UTF-8 (an MTA
    breaking a long line inside a character, pitfall A2, must not turn the whole mail into
    mojibake), else the text is guessed. Without a (working) charset: UTF-8 when the bytes
    are (mostly) UTF-8; else windows-1250 if any byte is in 0x80-0x9F (where windows-1250 has
    š, ž, ť, Š, Ž, Ť and ISO-8859-2 only control characters); else ISO-8859-2. The two agree
    on every other Czech letter.
    """
    charset = (charset or "").strip().strip('"').lower()
    if charset and charset not in ("us-ascii", "ascii", "unknown-8bit", "x-unknown"):
        try:
            codec = codecs.lookup(charset).name
        except LookupError:
            codec = None
        if codec is not None:
            try:
                return data.decode(codec)
            except Exception:  # noqa: BLE001  UnicodeDecodeError, or odd codecs' own errors
                pass
            if codec != "utf-8":
                try:
                    return data.decode(codec, "replace")
                except Exception:  # noqa: BLE001
                    pass
    if data.isascii():
        return data.decode("ascii")
    text = data.decode("utf-8", "replace")
    bad = text.count("\ufffd")
    if not bad or sum(1 for c in text if c > "\x7f" and c != "\ufffd") >= 3 * bad:
        return text
    if any(0x80 <= b <= 0x9F for b in data):
        return data.decode("windows-1250", "replace")
    return data.decode("iso-8859-2")
