"""Player passwords: generated once, shown once, stored only as salted scrypt hashes."""

from __future__ import annotations

import hashlib
import hmac
import secrets

# Interactive-strength scrypt parameters (RFC 7914 suggests n=2**14 for interactive use).
_N, _R, _P = 2**14, 8, 1
_WORDS = "amber birch cedar dune ember fjord grove heath iris jade kestrel lichen moss north oak pine quartz raven stone thorn umber vale wolf yew".split()


def generate() -> str:
    """A password easy to type in a mail: two words and three digits, e.g. ``raven-oak-417``."""
    return f"{secrets.choice(_WORDS)}-{secrets.choice(_WORDS)}-{secrets.randbelow(1000):03d}"


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return f"scrypt${_N}${_R}${_P}${salt.hex()}${digest.hex()}"


def verify(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        got = hashlib.scrypt(password.encode("utf-8"), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=len(digest) // 2)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got.hex(), digest)
