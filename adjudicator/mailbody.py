"""A mail body as the lines a player wrote, for every game's grammar.

Transport damage is undone once, here: the line ends of every platform, and the breaks an MTA
makes in an over-long line (Postfix breaks at 998 bytes and indents the rest:
shared/reference/mail-pitfalls.md A2). Quoted lines and signatures are dropped. Words are
compared in one folded form, without diacritics, so that Czech is accepted with or without them.

People write mail as they write any mail: a greeting, the quoted mail they answer under its
"On ... wrote:" line, "Sent from my iPhone", "S pozdravem," and a name. :func:`not_orders` finds
those lines before any game's grammar sees the text, so that a habit never rejects the orders;
the reply lists them as ignored, with why. ``END`` (``SIGNOFF``, ``KONEC``) ends the orders, as
in njudge: nothing after it is read.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterable

from .ruleset import LineError, LineResult

FOLD_MIN_BYTES = 990
"""A physical line this long, followed by an indented one, was broken by an MTA."""


def logical_lines(text: str) -> list[tuple[int, str]]:
    """Split a body into (line number as the player wrote it, text) pairs, undoing transport damage.

    * CRLF, CR and LF all end a line (not ``str.splitlines``, which also splits on form feeds
      and Unicode separators and would shift the line numbers players see).
    * A line starting with whitespace right after a physical line of :data:`FOLD_MIN_BYTES` or
      more is the MTA's continuation of it; the one inserted whitespace character is dropped,
      and the continuation does not count as a line: the numbers are those of the player's
      lines, not of the MTA's. After a short line an indented line is just indented (people
      indent orders), so it is *not* joined: joining would glue every indented order together.
    * Quoted lines (``>``) are dropped, and everything from a signature line (``-- ``) on.
    """
    out: list[tuple[int, str]] = []
    prev_len = 0
    quoted = False
    joined = 0
    for physical, line in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
        if line[:1] in (" ", "\t") and prev_len >= FOLD_MIN_BYTES and (out or quoted):
            if not quoted:
                out[-1] = (out[-1][0], out[-1][1] + line[1:])
            prev_len = len(line.encode("utf-8", "surrogatepass"))
            joined += 1
            continue
        prev_len = len(line.encode("utf-8", "surrogatepass"))
        if line.rstrip() == "--":
            break
        quoted = line.startswith(">")
        if not quoted:
            out.append((physical - joined, line))
    return out


# -- lines that are not orders ----------------------------------------------------------------------

END_WORDS = frozenset({"end", "signoff", "konec"})
"""A line of one of these words (folded) ends the orders: nothing after it is read (njudge's
SIGNOFF). ``KONEC ROZKAZU`` ("end of orders") counts too."""

IGNORED = {
    "end": "after END",
    "attribution": "the header of a quoted mail",
    "device": "a mail program's signature",
    "signoff": "a sign-off",
    "greeting": "a greeting",
    "prose": "not an order",
}
"""Why a line was not read, for the reply (the reason keys of :func:`not_orders`)."""

_ATTRIBUTION = re.compile(
    r"^(on|dne|am|le|el|il|op|den|w dniu)\b.{0,300}\b(wrote|napsal|napsala|napsal\(a\)|schrieb|a ecrit|"
    r"escribio|ha scritto|schreef|skrev|napisal|napisala)\s*:?\s*$"
    r"|^-{2,}\s*(original message|puvodni zprava|puvodni e-mail|forwarded message|preposlana zprava|"
    r"ursprungliche nachricht)\s*-{2,}\s*$"
    r"|^_{8,}\s*$")
"""The line a mail program writes above the mail being answered (folded text)."""

_DEVICE = re.compile(r"^(sent from|sent with|sent via|get outlook for|odeslano z|odeslano ze|odeslano pomoci|"
                     r"gesendet von|envoye de)\b")
_SIGNOFFS = ("regards", "best regards", "kind regards", "warm regards", "best wishes", "best", "cheers", "thanks",
             "thank you", "many thanks", "thx", "ta", "yours", "sincerely", "yours sincerely", "all the best",
             "good luck", "see you", "s pozdravem", "se srdecnym pozdravem", "pozdrav", "zdravim", "zdar", "diky",
             "dik", "dekuji", "dekuju", "dekuji predem", "diky moc", "mejte se", "hodne stesti", "ahoj", "cau",
             "nazdar", "hezky den", "pekny den", "pa")
_SIGNOFF = re.compile(r"^(" + "|".join(re.escape(s) for s in sorted(_SIGNOFFS, key=len, reverse=True)) +
                      r")\b[\s,.!;:]*([^\W\d_][\w.'-]*\s*){0,3}$")
"""A closing phrase, alone or followed by a name of up to three words ("S pozdravem Jan Novák")."""
_GREETINGS = ("hi", "hello", "hey", "dear", "good morning", "good evening", "greetings", "ahoj", "cau", "zdravim",
              "dobry den", "dobry vecer", "dobre rano", "vazeny", "vazena", "mily", "mila", "nazdar", "hallo")
_GREETING = re.compile(r"^(" + "|".join(re.escape(s) for s in sorted(_GREETINGS, key=len, reverse=True)) +
                       r")\b[^\d:>-]{0,60}$")
_ORDERLIKE = re.compile(r"[\d:>]|->|=")


@lru_cache(maxsize=64)
def _folded_words(keywords: frozenset[str]) -> frozenset[str]:
    """A grammar's command words folded (:func:`strip_accents`): the same few sets, every mail."""
    return frozenset(strip_accents(k) for k in keywords)


def _fold_line(line: str) -> str:
    return " ".join(strip_accents(line).split())


def not_orders(text: str, keywords: Iterable[str] = ()) -> tuple[str, list[LineResult]]:
    """The lines of ``text`` that are mail habits, not orders: (the text with them blanked, one
    ignored :class:`LineResult` per line, with its reason key from :data:`IGNORED`).

    Blanked, not removed, so that line numbers stay those of the mail. ``keywords`` are the
    folded first words that start a command in the game's grammar: a line starting with one is
    never taken for prose. What is ignored:

    * ``END``/``SIGNOFF``/``KONEC`` and everything after it;
    * a quoted mail's header ("On Mon, 23 Nov 2026 at 14:10, X <x@y> wrote:", "Dne ... napsal(a):",
      "-----Original Message-----") and everything after it (the quoted mail, quoted or not);
    * "Sent from my iPhone" and its kin, and everything after it;
    * a sign-off ("S pozdravem,", "Díky,", "Best regards, Ned") and everything after it (a name);
    * prose before the first line that looks like a command (a greeting) and after the last
      (a name, "Good luck!"): short lines without digits, colons or arrows whose first word is no
      command. Prose between commands is left to the grammar, which rejects it: it may be a
      mistyped order.
    """
    words = _folded_words(frozenset(keywords))
    logical = [(n, raw) for n, raw in logical_lines(text) if raw.split("#", 1)[0].strip()]
    ignored: dict[int, str] = {}
    kept = logical
    cut = None
    for position, (_, raw) in enumerate(logical):
        # a sign-off word before any command ("Ahoj," opens a mail as well as it closes one) greets
        opened = any(not _prose(r, words) for _, r in logical[:position])
        why = _ending(_fold_line(raw.split("#", 1)[0]), words, opened)
        if why:  # this line and the rest; each said as what it is, else as part of what ended here
            ignored.update((n, _ending(_fold_line(r.split("#", 1)[0]), words, True) or why)
                           for n, r in logical[position:])
            kept = logical[:position]
            cut = logical[position][0]
            break
    commandlike = [i for i, (_, raw) in enumerate(kept) if not _prose(raw, words)]
    if commandlike:
        first, last = commandlike[0], commandlike[-1]
        for i, (n, raw) in enumerate(kept):
            if (i < first or i > last) and _prose(raw, words):
                ignored[n] = "greeting" if i < first else "prose"
    else:  # no command at all: the grammar says so; only a greeting line is taken out
        ignored.update((n, "greeting") for n, raw in kept if _GREETING.match(_fold_line(raw)))
    if not ignored:
        return text, []
    texts = dict(logical)
    results = [LineResult(n, texts[n], ignored=why) for n, why in sorted(ignored.items())]
    return blank_lines(text, set(ignored), cut), results


def _ending(folded: str, words: frozenset[str], opened: bool) -> str | None:
    """Why a (folded) line ends what the judge reads, or None; ``opened``: a command came before."""
    if folded in END_WORDS or folded == "konec rozkazu":
        return "end"
    if _ATTRIBUTION.match(folded):
        return "attribution"
    if _DEVICE.match(folded):
        return "device"
    if opened and _SIGNOFF.match(folded) and folded.split()[0] not in words:
        return "signoff"
    return None


def _prose(raw: str, words: frozenset[str]) -> bool:
    """A short line of words that is no command: no digits, colons, arrows; first word no keyword."""
    body = raw.split("#", 1)[0].strip()
    if not body or body.startswith("#"):
        return False
    folded = _fold_line(body)
    if _ORDERLIKE.search(folded) or folded.split()[0].rstrip("?") in words or folded.split()[0] in words:
        return False
    return len(folded.split()) <= 8


def _line_text(logical: list[tuple[int, str]], lineno: int) -> str:
    return next(raw for n, raw in logical if n == lineno)


def blank_lines(text: str, numbers: set[int], cut: int | None = None) -> str:
    """``text`` with the player's lines ``numbers`` (as :func:`logical_lines` counts them) blanked,
    and everything from line ``cut`` on; their MTA continuations too, and every physical line kept
    (so the numbers stay)."""
    out = []
    prev_len = 0
    joined = 0
    blanking = False
    for physical, line in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
        continuation = line[:1] in (" ", "\t") and prev_len >= FOLD_MIN_BYTES
        prev_len = len(line.encode("utf-8", "surrogatepass"))
        if continuation:
            joined += 1
        else:
            lineno = physical - joined
            blanking = lineno in numbers or (cut is not None and lineno >= cut)
        out.append("" if blanking else line)
    return "\n".join(out)


def strip_accents(text: str) -> str:
    """Lower case without diacritics: ``Nájezd`` and ``najezd`` compare equal."""
    if text.isascii():
        return text.casefold()  # (nothing to decompose: most words of most mails)
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if not unicodedata.combining(c)).casefold()


def may_start_with(text: str, words: tuple[str, ...]) -> bool:
    """Could a line of ``text``, folded (:func:`strip_accents`), start with one of ``words`` (folded)?
    False when none of them is anywhere in the folded text: a logical line's folded text is a
    piece of it (the MTA's continuations join it only far past its start), so a reader of lines
    that look for those words need not split the text at all."""
    folded = strip_accents(text)
    return any(word in folded for word in words)


def line_problem(line: str, max_chars: int) -> tuple[str, dict] | None:
    """Why ``line`` is not a line of text a player wrote, as a message key's last part and its
    parameters for the grammar's own catalogue: ``("too_long", {"length", "limit"})``, or
    ``("unreadable", {"code": "U+0000"})`` for the first control or undecodable character (binary
    data or a wrong character set); None for a good line. Every grammar checks its lines with it."""
    if len(line) > max_chars:
        return "too_long", {"length": len(line), "limit": max_chars}
    if line.isascii() and line.replace("\t", "").isprintable():
        return None  # (the usual line: in ASCII the unprintable characters are exactly the controls, Cc)
    for c in line:
        if c == "\ufffd" or (c != "\t" and unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn")):
            return "unreadable", {"code": f"U+{ord(c):04X}"}
    return None


TYPOGRAPHY = str.maketrans({
    "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-",
    "\u2018": "'", "\u2019": "'", "\u02bc": "'", "\u00b4": "'", "`": "'", "\u201c": '"', "\u201d": '"',
    "\u201e": '"', "\u00a0": " ", "\u202f": " ", "\ufeff": None, "\u200b": None, "\u200c": None, "\u200d": None,
    "\u2060": None,
})
"""What phones and word processors make of dashes, quotes and spaces, undone."""


def fold(text: str) -> str:
    """Comparison form: typographic damage undone, no diacritics, lower case, single spaces."""
    return " ".join(strip_accents(str(text).translate(TYPOGRAPHY)).split())


def head_word(body: str) -> tuple[str, str]:
    """A command line's first word, folded (``ORDERS?`` keeps its question mark), and the rest
    after an optional colon."""
    m = re.match(r"\s*([^\s:?]*)(\s*\?)?\s*:?\s*", body)
    assert m is not None
    return fold(m.group(1)) + ("?" if m.group(2) else ""), body[m.end():]


def close_command(word: str, keywords: dict[str, str]) -> str | None:
    """The command a misspelt first word probably means (``odrers`` -> ``ORDERS``; ``keywords``:
    folded word -> keyword), or None. Never the sign-on's ``JUDGE``: it is no command of a mail's body."""
    close = difflib.get_close_matches(word, [w for w in keywords if w != "judge"], 1, 0.75)
    return keywords[close[0]] if close else None


@dataclass(frozen=True)
class CommandLine:
    """One logical line of a mail, parsed: exactly one of ``command``/``error`` is set."""

    lineno: int
    raw: str
    keyword: str | None = None
    command: Any = None
    error: Any = None  # a Msg
    example: str | None = None


def command_lines(text: str, *, keywords: dict[str, str], parse: Callable[[str], Any],
                  check: Callable[[str], None], help_example: str,
                  strip_comment: Callable[[str], str] = lambda raw: raw.split("#", 1)[0]) -> list[CommandLine]:
    """Every non-blank, non-comment line of a mail body parsed by a grammar whose lines start
    with a command word (``keywords``: folded word -> keyword). The sign-on line (``JUDGE`` first)
    is skipped: the mail layer checks it. ``check`` refuses unreadable text and ``parse`` a
    wrong line, each by raising :class:`LineError`."""
    out: list[CommandLine] = []
    first = True
    for lineno, raw in logical_lines(text):
        body = strip_comment(raw).strip()
        if not body:
            continue
        keyword = keywords.get(head_word(body)[0])
        if first and keyword == "JUDGE":
            first = False
            continue
        first = False
        try:
            check(raw)
            command = parse(body)
        except LineError as exc:
            out.append(CommandLine(lineno, raw, keyword, error=exc.message, example=exc.example or help_example))
            continue
        out.append(CommandLine(lineno, raw, keyword, command=command))
    return out

