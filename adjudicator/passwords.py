"""Player passwords: generated once, shown once, stored only as keyed hashes.

A password guards a house against mischief (another player, a forged sender), not a bank vault:
it has about 19 bits (two words and three digits, easy to type in a mail). So the judge checks
it with HMAC-SHA256 under a secret key of the data directory (``<data>/secret.key``, mode 0600,
made on first use), salted per password: microseconds per mail instead of scrypt's 40 ms, and
someone who reads ``game.yaml`` but not the key learns nothing they could test a guess against.
(Against someone who reads both, no hash of a 19-bit secret would hold for long.)

Games made before this kept ``scrypt$...`` hashes; they still verify, and a process remembers
the ones it verified, so a long-running server pays scrypt once per player.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from functools import lru_cache
from pathlib import Path

_WORDS = "amber birch cedar dune ember fjord grove heath iris jade kestrel lichen moss north oak pine quartz raven stone thorn umber vale wolf yew".split()
KEY_FILE = "secret.key"


def generate() -> str:
    """A password easy to type in a mail: two words and three digits, e.g. ``raven-oak-417``."""
    return f"{secrets.choice(_WORDS)}-{secrets.choice(_WORDS)}-{secrets.randbelow(1000):03d}"


def key(data_dir: os.PathLike | str) -> bytes:
    """The data directory's secret key, made (32 random bytes, mode 0600) the first time it is needed."""
    path = Path(data_dir) / KEY_FILE
    try:
        return bytes.fromhex(path.read_text().strip())
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".tmp-{os.getpid()}-key-{secrets.token_hex(4)}")  # whole, then linked: never torn
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32) + "\n")
            out.flush()
            os.fsync(out.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:  # another process made it first: theirs is the key
            pass
    finally:
        tmp.unlink()
    return bytes.fromhex(path.read_text().strip())


def hash_password(password: str, secret: bytes) -> str:
    salt = secrets.token_bytes(16)
    return f"hmac-sha256${salt.hex()}${_mac(secret, salt, password)}"


def _mac(secret: bytes, salt: bytes, password: str) -> str:
    return hmac.new(secret, salt + password.encode("utf-8"), hashlib.sha256).hexdigest()


def verify(password: str, stored: str, secret: bytes) -> bool:
    scheme = stored.split("$", 1)[0]
    if scheme == "hmac-sha256":
        try:
            _, salt, digest = stored.split("$")
            return hmac.compare_digest(_mac(secret, bytes.fromhex(salt), password), digest)
        except ValueError:
            return False
    if scheme == "scrypt":
        return _scrypt_verify(password, stored)
    return False


@lru_cache(maxsize=4096)
def _scrypt_verify(password: str, stored: str) -> bool:
    """A legacy ``scrypt$n$r$p$salt$digest`` hash (remembered: scrypt costs ~40 ms a check)."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        got = hashlib.scrypt(password.encode("utf-8"), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p),
                             dklen=len(digest) // 2)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got.hex(), digest)
