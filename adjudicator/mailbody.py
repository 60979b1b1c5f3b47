"""A mail body as the lines a player wrote, for every game's grammar.

Transport damage is undone once, here: the line ends of every platform, and the breaks an MTA
makes in an over-long line (Postfix breaks at 998 bytes and indents the rest:
shared/reference/mail-pitfalls.md A2). Quoted lines and signatures are dropped. Words are
compared in one folded form, without diacritics, so that Czech is accepted with or without them.
"""

from __future__ import annotations

import re
import unicodedata

FOLD_MIN_BYTES = 990
"""A physical line this long, followed by an indented one, was broken by an MTA."""


def logical_lines(text: str) -> list[tuple[int, str]]:
    """Split a body into (first physical line number, text) pairs, undoing transport damage.

    * CRLF, CR and LF all end a line (not ``str.splitlines``, which also splits on form feeds
      and Unicode separators and would shift the line numbers players see).
    * A line starting with whitespace right after a physical line of :data:`FOLD_MIN_BYTES` or
      more is the MTA's continuation of it; the one inserted whitespace character is dropped.
      After a short line an indented line is just indented (people indent orders), so it is
      *not* joined: joining would glue every indented order together.
    * Quoted lines (``>``) are dropped, and everything from a signature line (``-- ``) on.
    """
    out: list[tuple[int, str]] = []
    prev_len = 0
    quoted = False
    for lineno, line in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
        if line[:1] in (" ", "\t") and prev_len >= FOLD_MIN_BYTES and (out or quoted):
            if not quoted:
                out[-1] = (out[-1][0], out[-1][1] + line[1:])
            prev_len = len(line.encode("utf-8", "surrogatepass"))
            continue
        prev_len = len(line.encode("utf-8", "surrogatepass"))
        if line.rstrip() == "--":
            break
        quoted = line.startswith(">")
        if not quoted:
            out.append((lineno, line))
    return out


def strip_accents(text: str) -> str:
    """Lower case without diacritics: ``Nájezd`` and ``najezd`` compare equal."""
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if not unicodedata.combining(c)).casefold()


def text_problem(line: str, max_chars: int) -> str | None:
    """Why ``line`` is not a line of text a player wrote (too long, control or undecodable
    characters: binary data or a wrong character set), or None."""
    if len(line) > max_chars:
        return f"line too long ({len(line)} characters, at most {max_chars})"
    for c in line:
        if c == "\ufffd" or (c != "\t" and unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn")):
            return f"unreadable character U+{ord(c):04X} (binary data or a wrong character set?); send plain text"
    return None
