"""Raw message bytes -> :class:`Inbound`: who sent it, what it says, and whether to answer.

Everything here is pure (bytes in, a dataclass out) and never raises on bad input, because a
mail judge receives whatever the internet sends. The traps this module is shaped around were
reproduced on this stack (``shared/reference/mail-pitfalls.md``):

* **E1** the stdlib parser raises arbitrary exceptions, lazily, when a malformed header is
  *accessed*. So parsing and extracting happen inside one ``try/except Exception``; a failure
  becomes ``Inbound.error`` (the caller answers "could not parse your mail" if some sender is
  still known from the envelope or a plain-text scan of the From header).
* **E2** a missing charset on an 8-bit body is silently decoded as ASCII with U+FFFD, an unknown
  charset raises, HTML-only mail has no text/plain body. Bodies are therefore decoded here from
  the transfer-decoded bytes: the declared charset when it decodes strictly, else UTF-8, else
  windows-1250 or ISO-8859-2 (see :func:`decode_bytes`); HTML becomes text with the stdlib
  ``html.parser``.
* **E3** raw 8-bit headers leave surrogate escapes in strings, which ``yaml`` would store as
  ``"\\uDCC5"``. Every string leaving this module goes through :func:`clean_text`, and nothing
  is keyed on display names: senders are addr-specs with a lower-cased domain.
* Loop prevention (the classic judge failure) is decided from a plain scan of the raw header
  block, which cannot raise, so that even an unparseable bounce is recognised.

The body handed to a game keeps the line numbers of the mail the player wrote: quoted lines,
their transport continuations and the sign-on line are replaced by blank lines rather than
removed, and everything from a signature line (``-- ``) on is cut.
"""

from __future__ import annotations

import email
import email.message
import email.policy
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from ..mailbody import FOLD_MIN_BYTES
from .text import canonical_address, clean_text, decode_bytes

# Marks on the mail the judge sends, so that our own mail coming back is never answered.
OWN_HEADER = "X-Throne-Judge"
OWN_MESSAGE_ID_MARK = ".throne-judge@"
# FOLD_MIN_BYTES (adjudicator/mailbody.py): a line starting with whitespace right after a
# physical line this long is an MTA's continuation of it (pitfall A2). The games' grammars join
# such lines; here they only matter for dropping quoted lines whole.

_MESSAGE_ID = re.compile(r"<[!-;=?-~]+@[!-;=?-~]+>")  # printable ASCII without < > and space
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class SignOn:
    """The first non-blank line ``JUDGE <game> <house> <password>``."""

    game: str
    house: str
    password: str = field(repr=False)
    lineno: int = 1


@dataclass
class Inbound:
    """One received mail as the judge understands it."""

    sender: str | None = None  # whom to answer: From's addr-spec, else the envelope sender
    envelope_from: str | None = None  # MAIL FROM; "" is the null sender (bounces); None unknown
    message_id: str | None = None
    references: tuple[str, ...] = ()
    subject: str = ""
    body: str = ""  # the text, quotes and signature dropped, sign-on still in
    text: str = ""  # what the game gets: the body with the sign-on line blanked
    body_bytes: int = 0  # UTF-8 size of the decoded text before anything was dropped
    html: bool = False  # the text came from an HTML part
    attachments: tuple[str, ...] = ()
    parts_unread: int = 0  # MIME parts past MAX_PARTS, not parsed (counted as attachments)
    signon: SignOn | None = None
    signon_problem: str | None = None  # a JUDGE line that is not a valid sign-on
    loop: str | None = None  # why this mail must never be answered (bounce, auto-reply, our own)
    error: str | None = None  # why it could not be parsed

    @property
    def answerable(self) -> bool:
        return self.loop is None and self.sender is not None


# ---------------------------------------------------------------------------------------
# Small pieces (public: the tests and process.py use them)
# ---------------------------------------------------------------------------------------


class _HtmlText(HTMLParser):
    """HTML -> plain lines as a reader sees them: ``<br>`` ends a line; a block starts and ends a
    line only where there is text to end (adjacent block edges make one break, as in a browser),
    so that the line numbers in the judge's answer are the lines the player saw and wrote.
    Scripts, styles and quoted mail (``blockquote``) are dropped."""

    BLOCKS = {"p", "div", "tr", "li", "ul", "ol", "table", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "dd", "dt",
              "section", "article", "header", "footer", "address", "center", "pre", "body"}
    SKIPPED = {"script", "style", "head", "title", "template", "blockquote"}  # blockquote: quoted mail

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current = ""
        self.skip = 0
        self.pre = 0

    def _break(self, hard: bool) -> None:
        if hard or self.current.strip():
            self.lines.append(self.current)
            self.current = ""

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIPPED:
            self.skip += 1
        elif tag == "br":
            self._break(True)
        elif tag in self.BLOCKS:
            self._break(False)
            self.pre += tag == "pre"

    def handle_endtag(self, tag):
        if tag in self.SKIPPED:
            self.skip = max(0, self.skip - 1)
        elif tag in self.BLOCKS:
            self._break(False)
            self.pre = max(0, self.pre - (tag == "pre"))

    def handle_startendtag(self, tag, attrs):
        if tag == "br":
            self._break(True)
        elif tag in self.BLOCKS:
            self._break(False)

    def handle_data(self, data):
        if self.skip:
            return
        if self.pre:
            *done, self.current = (self.current + data).split("\n")
            self.lines += done
        else:
            self.current += re.sub(r"[ \t\r\n\f]+", " ", data)


def html_to_text(html: str) -> str:
    """The text a reader sees in an HTML mail, one line per block or ``<br>``."""
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    parser._break(False)
    lines = [line.replace("\xa0", " ").strip() for line in parser.lines]
    while lines and not lines[0]:
        lines.pop(0)
    return "\n".join(lines).rstrip("\n")


def unflow(text: str, delsp: bool) -> str:
    """Undo ``format=flowed`` (RFC 3676): soft-broken lines (ending in a space) are joined.

    Thunderbird and others send flowed text wrapped at ~72 columns, which would cut every
    long order line in two.
    """
    out: list[str] = []
    current: list | None = None  # [depth, text]
    for line in _LINE_BREAK.split(text):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        if content.startswith(" "):
            content = content[1:]  # space-stuffing
        soft = content.endswith(" ") and content != "-- "
        if soft and delsp:
            content = content[:-1]
        if current is not None and current[0] == depth:
            current[1] += content
        else:
            if current is not None:
                out.append(">" * current[0] + current[1])
            current = [depth, content]
        if not soft:
            out.append(">" * current[0] + current[1])
            current = None
    if current is not None:
        out.append(">" * current[0] + current[1])
    return "\n".join(out)


def drop_quotes_and_signature(text: str) -> str:
    """Blank quoted lines (``>``) and their MTA continuations; cut from a signature line on.

    Lines are blanked, not removed, so that the line numbers in the judge's answer are the
    line numbers of the player's mail.
    """
    out: list[str] = []
    prev_len = 0
    quoted = False
    for line in _LINE_BREAK.split(text):
        continuation = line[:1] in (" ", "\t") and prev_len >= FOLD_MIN_BYTES
        prev_len = len(line.encode("utf-8", "surrogatepass"))
        if continuation:
            out.append("" if quoted else line)
            continue
        if line.rstrip() == "--":
            break
        quoted = line.startswith(">")
        out.append("" if quoted else line)
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out)


_SIGN_ON_AGAIN = re.compile(r"^(\W*judge\s+\S+\s+\S+\s+)[^\s#]+", re.I)
"""A sign-on pasted again below the first: its password is masked before the game (its journal, the
reply's echo of the line) sees it."""

_SIGN_ON_IN_SUBJECT = re.compile(r"^((?:\s*(?:re|fwd?|aw|odp|sv)\s*:)*\W*judge\s+\S+\s+\S+\s+)[^\s#]+", re.I)
"""A sign-on typed in the Subject (which is no sign-on: the body's first lines are): its password is
masked before anything echoes the Subject (the reply's and the copy's subjects, ``judge inbox``)."""

GREETING_LINES = 3
"""Lines of greeting ("Hi judge,", "Judge, my orders:") allowed before the sign-on line."""


def find_signon(body: str) -> tuple[SignOn | None, str | None, str]:
    """The sign-on of ``body`` (its first non-blank line but a short greeting), a problem with it,
    and the game's text.

    The game's text is the body with the sign-on line blanked (the password never reaches the
    journal or a reply); a greeting above it stays, for the game's reader to set aside
    (``mailbody.not_orders``). Up to :data:`GREETING_LINES` short lines may come before the
    ``JUDGE`` line; a mail whose first lines are anything else has no sign-on.
    """
    lines = body.split("\n")
    before = 0
    for index, line in enumerate(lines):
        stripped = line.replace("\ufeff", "").strip()
        if not stripped:
            continue
        if not re.match(r"judge(?![\w-])(?!\s*[,!])", stripped, re.I):  # "Judge, ..." greets
            before += 1
            if before > GREETING_LINES or len(stripped) > 80:
                return None, None, body
            continue
        words = stripped.split("#", 1)[0].split()
        lines[index] = ""
        lines[index + 1:] = [_SIGN_ON_AGAIN.sub(r"\1********", later) for later in lines[index + 1:]]
        text = "\n".join(lines)
        if len(words) != 4:
            what = {1: "game, house and password are", 2: "house and password are", 3: "the password is"}
            problem = (f"{what[len(words)]} missing" if len(words) in what
                       else f"it has {len(words) - 1} words after JUDGE, not 3")
            return None, problem, text
        return SignOn(words[1].lower(), words[2].lower(), words[3], index + 1), None, text
    return None, None, body


def raw_headers(raw: bytes) -> list[tuple[str, str]]:
    """The header block as (lower-case name, unfolded value) pairs; never raises.

    Decoded as Latin-1 (every byte maps), which is all loop classification needs: it looks
    at ASCII keywords only.
    """
    head = re.split(rb"\r?\n\r?\n", raw, maxsplit=1)[0].decode("latin-1")
    out: list[tuple[str, str]] = []
    for line in _LINE_BREAK.split(head):
        if line[:1] in (" ", "\t"):
            if out:
                out[-1] = (out[-1][0], out[-1][1] + " " + line.strip())
            continue
        name, sep, value = line.partition(":")
        if sep and name and not any(c.isspace() for c in name):
            out.append((name.lower(), value.strip()))
    return out


def _first(headers: list[tuple[str, str]], name: str) -> str | None:
    return next((value for key, value in headers if key == name), None)


def classify_loop(headers: list[tuple[str, str]], envelope_from: str | None, sender: str | None,
                  own_address: str) -> str | None:
    """Why a mail must not be answered, or None. Answering any of these starts a mail loop."""
    own_address = own_address.lower()
    own_domain = own_address.rpartition("@")[2]
    if envelope_from == "":
        return "bounce (null envelope sender)"
    for who in (envelope_from, sender):
        if who and who.rpartition("@")[0].lower() == "mailer-daemon":
            return "bounce (from MAILER-DAEMON)"
        if who and who.lower() == own_address:
            return "our own mail (sent from the judge's address)"
    content_type = (_first(headers, "content-type") or "").lower()
    if content_type.startswith(("multipart/report", "message/delivery-status")):
        return "delivery report"
    for name, value in headers:
        word = value.split(";")[0].split("(")[0].strip().lower()
        if name == "auto-submitted" and word != "no":
            return f"auto-submitted ({word or 'empty'})"
        if name == "precedence" and word in ("bulk", "junk", "list"):
            return f"precedence {word}"
        if name in ("x-autoreply", "x-autorespond", "x-autoresponder"):
            return "auto-reply"
        if name == OWN_HEADER.lower():
            return "our own mail (our header)"
        if name == "x-loop" and own_address in value.lower():
            return "our own mail (X-Loop)"
        if name == "message-id" and OWN_MESSAGE_ID_MARK + own_domain in value.lower():
            return "our own mail (our Message-ID)"
    return None


def _envelope_sender(headers: list[tuple[str, str]]) -> str | None:
    """The envelope sender an MTA recorded in ``Return-Path`` (pipes add it; pitfall A7)."""
    value = _first(headers, "return-path")
    if value is None:
        return None
    return "" if _null_sender(value) else canonical_address(value.strip())


def _null_sender(value: str) -> bool:
    """The null sender of a bounce: empty, ``<>``, or the word ``MAILER-DAEMON`` that Postfix's
    pipe passes for it unless its ``null_sender=`` is set (shared/reference/postfix-recipe.md)."""
    return value.strip().strip("<>").strip().lower() in ("", "mailer-daemon")


def _scan_from(headers: list[tuple[str, str]]) -> str | None:
    """An address found by a plain scan of the From header (for mail the parser chokes on)."""
    value = _first(headers, "from") or ""
    for candidate in re.findall(r"[^\s<>\"',;:()\[\]]+@[^\s<>\"',;:()\[\]]+", value):
        address = canonical_address(candidate)
        if address:
            return address
    return None


# ---------------------------------------------------------------------------------------
# The whole parse
# ---------------------------------------------------------------------------------------


def parse(raw: bytes, *, own_address: str, envelope_from: str | None = None) -> Inbound:
    """Parse one raw message. Never raises; a malformed mail comes back with ``error`` set.

    ``envelope_from`` is the SMTP ``MAIL FROM`` (``""`` for the null sender); when unknown
    (a pipe without ``--sender``) the ``Return-Path`` header is used.
    """
    headers = raw_headers(raw)
    if envelope_from is None:
        envelope_from = _envelope_sender(headers)
    elif _null_sender(envelope_from):
        envelope_from = ""
    else:
        envelope_from = canonical_address(envelope_from)
    inbound = Inbound(envelope_from=envelope_from)
    try:
        bounded, inbound.parts_unread = _bounded(raw)
        _extract(bounded, inbound)
    except Exception as exc:  # noqa: BLE001  (pitfall E1: anything can come out of a bad header)
        inbound = Inbound(envelope_from=envelope_from, error=f"{exc.__class__.__name__} while reading the mail")
        inbound.sender = (envelope_from or None) or _scan_from(headers)
        value = _first(headers, "message-id") or ""
        found = _MESSAGE_ID.search(value)
        inbound.message_id = found.group(0) if found else None
    inbound.loop = classify_loop(headers, envelope_from, inbound.sender, own_address)
    return inbound


class _Received(email.message.EmailMessage):
    """A received message, only ever read: each header is parsed once. The stdlib parses a header
    again at every access, and finding the body and the attachments asks for Content-Type and
    Content-Disposition about eight times a mail (a third of the time an order mail took).

    A Content-Type as plain as ``text/plain; charset=utf-8`` is not parsed
    into a header object at all: the stdlib's methods that read them (``get_content_type``,
    ``get_param``, ``get_content_charset`` ...) split the header's text, which for such a value is
    the text the header object would give."""

    def get(self, name, failobj=None):
        parsed = self.__dict__.setdefault("_parsed", {})
        key = name.lower()
        if key not in parsed:
            raw = _raw_value(self, key) if key in _PLAIN_WHEN_SIMPLE else None
            parsed[key] = raw if raw is not None and _SIMPLE_PARAMETERS.fullmatch(raw) else super().get(name, _ABSENT)
        value = parsed[key]
        return failobj if value is _ABSENT else value


_ABSENT = object()
_RECEIVED = email.policy.default.clone(message_factory=_Received)
_PLAIN_WHEN_SIMPLE = ("content-type",)  # (MIMEPart.is_attachment reads a Content-Disposition object)
_TOKEN = r"[A-Za-z0-9!#$%&'*+.^_`|~-]+"
_SIMPLE_PARAMETERS = re.compile(rf"{_TOKEN}(?:/{_TOKEN})?(?:; ?{_TOKEN}={_TOKEN})*")
"""A MIME header of tokens only: no quotes, comments, encoded words, folding or 8-bit text."""
_SIMPLE_FROM = re.compile(r"(?:[A-Za-z0-9]+(?: [A-Za-z0-9]+)* )?(<)?([A-Za-z0-9_%+-]+(?:\.[A-Za-z0-9_%+-]+)*"
                          r"@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)(?(1)>)")
"""``jon@example.org``, ``<jon@example.org>``, ``Jon Snow <jon@example.org>``: a From whose one
address the stdlib's address parser would find as it stands (dot-atoms, a display name of plain
words); anything else goes to that parser."""


def _sender(msg) -> str | None:
    raw = _raw_value(msg, "from")
    if raw is None:
        return None
    simple = _simple_from(raw) if isinstance(msg, (_Received, _PlainText)) else None
    if simple is not None:
        return canonical_address(simple)
    for address in msg["From"].addresses:
        sender = canonical_address(address.addr_spec)
        if sender:
            return sender
    return None



def _simple_from(raw: str) -> str | None:
    """The address of a From plain enough to read without the stdlib's address parser, else None."""
    simple = _SIMPLE_FROM.fullmatch(raw.strip())
    return simple.group(2) if simple and (simple.group(1) or raw.strip() == simple.group(2)) else None


def _simple_subject(raw: str) -> bool:
    """A Subject with nothing to decode: ASCII, no encoded word, not folded."""
    return raw.isascii() and "=?" not in raw and "\n" not in raw and "\r" not in raw


class _PlainText:
    """A mail of one plain-text part read without the stdlib's parser (:func:`_plain_message`):
    the few questions :func:`_extract` asks of a message, answered as the stdlib answers them
    for such a mail (``tests/mail/test_mail_fuzz.py`` compares both readings)."""

    def __init__(self, headers: list[tuple[str, str]], body: bytes, params: dict[str, str]):
        self._headers, self._body, self._params = headers, body, params

    def raw_items(self):
        return iter(self._headers)

    def get_body(self, preferencelist):
        return self if "plain" in preferencelist else None

    def is_multipart(self) -> bool:
        return False

    def get_content_maintype(self) -> str:
        return "text"

    def get_content_subtype(self) -> str:
        return "plain"

    def get_payload(self, decode: bool) -> bytes:
        assert decode
        return self._body

    def get_param(self, name: str) -> str | None:
        return self._params.get(name)

    def get_content_charset(self) -> str | None:
        charset = self._params.get("charset")
        return charset.lower() if charset is not None else None

    def walk(self):
        yield self


_PLAIN_TYPE = re.compile(r"text/plain(?:; ?[A-Za-z0-9!#$%&'+.^_`|~-]+=[A-Za-z0-9!#$%&'*+.^_`|~-]+)*", re.I)
"""``text/plain`` with parameters of tokens (no ``*`` in a name: RFC 2231's encoded parameters)."""
_HEADER_LINE = re.compile(r"[!-9;-~]+:")
_PLAIN_CTE = re.compile(r"[78]bit", re.I)
_PLAIN_MAX = 8192  # the stdlib's parser reads a mail in chunks of this size; smaller ones in one


def _plain_message(raw: bytes) -> _PlainText | None:
    """``raw`` as a :class:`_PlainText` when it is the usual order mail: under 8 KiB, an ASCII
    header block of well-formed lines (folded ones too) ended by an empty line, no Content-Type or
    ``text/plain`` with token parameters, no Content-Disposition, no transfer encoding but
    7bit or 8bit, a From and Subject that :func:`_sender` and :func:`_subject` read without the
    stdlib. Anything else (None) goes to the stdlib's parser. The header block is split as the
    stdlib's ``feedparser`` splits it, and each value is its ``raw_items`` value."""
    if len(raw) >= _PLAIN_MAX:
        return None
    headers: list[tuple[str, str]] = []
    end = None
    for found in _RAW_LINES.finditer(raw):
        line = found.group()
        if line in (b"\r\n", b"\n", b"\r"):
            end = found.end()  # the empty line that ends the header block (the stdlib drops it)
            break
        try:
            text = line.decode("ascii")
        except UnicodeDecodeError:
            return None
        if text[:1] in (" ", "\t"):
            if not headers:
                return None  # a continuation first: the stdlib records a defect
            headers[-1] = (headers[-1][0], headers[-1][1] + text)
        elif text.startswith("From ") or not _HEADER_LINE.match(text):
            return None  # an mbox From line, or a line the stdlib takes for the start of the body
        else:
            name, value = text.split(":", 1)
            headers.append((name, value.lstrip(" \t")))
    if end is None or not headers:
        return None
    headers = [(name, value.rstrip("\r\n")) for name, value in headers]
    first: dict[str, str] = {}
    for name, value in headers:
        first.setdefault(name.lower(), value)
    if "content-disposition" in first:
        return None
    cte = first.get("content-transfer-encoding")
    if cte is not None and not _PLAIN_CTE.fullmatch(cte):
        return None
    if "from" in first and _simple_from(first["from"]) is None:
        return None
    if "subject" in first and not _simple_subject(first["subject"]):
        return None
    params: dict[str, str] = {}
    ctype = first.get("content-type")
    if ctype is not None:
        if not _PLAIN_TYPE.fullmatch(ctype):
            return None
        for part in ctype.split(";")[1:]:
            key, _, value = part.strip().partition("=")
            params.setdefault(key.lower(), value)
    return _PlainText(headers, raw[end:], params)


_RAW_LINES = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)")
"""The lines of a mail as the stdlib's parser cuts them (each with its line end)."""

def _extract(raw: bytes, inbound: Inbound) -> None:
    msg = _plain_message(raw) or email.message_from_bytes(raw, policy=_RECEIVED)
    sender = _sender(msg)
    inbound.sender = sender or (inbound.envelope_from or None)
    inbound.message_id = next(iter(_message_ids(msg, "message-id")), None)
    inbound.references = tuple((_message_ids(msg, "references") or _message_ids(msg, "in-reply-to"))[-10:])
    inbound.subject = _SIGN_ON_IN_SUBJECT.sub(r"\1********", _subject(msg))

    body_part = msg.get_body(preferencelist=("plain",))
    html = False
    if body_part is None:
        body_part = msg.get_body(preferencelist=("html",))
        html = body_part is not None
    if body_part is None and not msg.is_multipart() and msg.get_content_maintype() == "text":
        body_part = msg  # e.g. text/x-something, or a lone part marked as attachment
    text = ""
    if body_part is not None:
        payload = body_part.get_payload(decode=True) or b""
        text = decode_bytes(payload, body_part.get_content_charset())
        if html or body_part.get_content_subtype() == "html":
            html = True
            text = html_to_text(text)
        elif (body_part.get_param("format") or "").lower() == "flowed":
            text = unflow(text, (body_part.get_param("delsp") or "").lower() == "yes")
    text = clean_text(text.replace("\ufeff", ""))
    inbound.html = html
    inbound.body_bytes = len(text.encode("utf-8"))
    inbound.attachments = tuple(
        clean_text(part.get_filename() or part.get_content_type())
        for part in msg.walk()
        if part is not body_part and not part.is_multipart()
        and (part.is_attachment() or part.get_filename() or part.get_content_maintype() != "text")
    )
    inbound.body = drop_quotes_and_signature(text)
    inbound.signon, inbound.signon_problem, inbound.text = find_signon(inbound.body)


def _raw_value(msg, name: str) -> str | None:
    return next((value for key, value in msg.raw_items() if key.lower() == name), None)


def _message_ids(msg, name: str) -> list[str]:
    value = _raw_value(msg, name)
    return _MESSAGE_ID.findall(value) if value else []


def _subject(msg) -> str:
    """The Subject: RFC 2047 decoded by the stdlib, raw 8-bit bytes decoded here (E3)."""
    raw = _raw_value(msg, "subject")
    if raw is None:
        return ""
    try:
        if isinstance(msg, (_Received, _PlainText)) and _simple_subject(raw):
            value = raw  # what the stdlib's unstructured header would give: nothing to decode
        elif raw.isascii():
            value = str(msg["subject"])
        else:
            value = decode_bytes(raw.encode("utf-8", "surrogateescape"))
    except Exception:  # noqa: BLE001  a bad Subject alone should not make the mail unreadable
        value = decode_bytes(raw.encode("utf-8", "surrogateescape"))
    return " ".join(clean_text(value).split())


MAX_PARTS = 100
"""MIME parts of a mail that are parsed: a 1.6 MB mail of 15,000 tiny attachments took seconds
to parse (the headers of each part), and had no sign-on to pay for it. A mail's text comes before
its attachments; the parts after these are counted, not parsed."""
_BOUNDARY = re.compile(rb'(?i)\bboundary\s*=\s*(?:"([^"\r\n]+)"|([^\s;"]+))')
_DELIMITER = re.compile(rb"(?m)^--([^\r\n]*)")


def _bounded(raw: bytes) -> tuple[bytes, int]:
    """``raw`` cut before the delimiter line that would open its MIME part number ``MAX_PARTS + 1``,
    and how many parts were cut off. A delimiter line is ``--`` and a boundary some Content-Type of
    the mail declares, so a line of text that starts with ``--`` is not taken for one. Costs a scan
    of the bytes (a mail is at most ``settings.DATA_SIZE_LIMIT`` bytes)."""
    if raw.count(b"\n--") <= MAX_PARTS:
        return raw, 0
    boundaries = {(m.group(1) or m.group(2)).strip() for m in _BOUNDARY.finditer(raw)}
    opened, cut = 0, None
    for found in _DELIMITER.finditer(raw):
        if found.group(1).rstrip(b" \t") not in boundaries:
            continue  # text, or a closing delimiter (its boundary followed by --)
        opened += 1
        if opened == MAX_PARTS + 1:
            cut = found.start()
    return (raw, 0) if cut is None else (raw[:cut], opened - MAX_PARTS)
