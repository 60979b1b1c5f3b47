"""The judge's outgoing mail, written as bytes directly: the one composer for every kind of mail.

Composing with ``email.message.EmailMessage`` parsed every header into header objects and
refolded them through the email policy: about a fifth of the time of processing one order mail
(issue 13). Every mail the judge writes has the same simple shape, so it is written here
directly, with the email package only for what it does well (RFC 2047 encoded words,
``formataddr``):

* headers in the order they were set, each one line of printable text (control characters and
  line breaks from untrusted text become spaces: no header injection), folded at spaces to 78
  columns, RFC 2047 encoded (UTF-8) when not ASCII; the exception is an address (To, Reply-To):
  a non-ASCII address cannot be encoded, it is written raw (UTF-8), and the relay delivers such
  a mail with SMTPUTF8 (``RelayTransport`` asks for it when the recipient is not ASCII);
* a UTF-8 quoted-printable text body (CRLF lines, at most 76 columns);
* with attachments (the report's board picture), ``multipart/mixed``: the text, then each
  attachment base64 encoded.

The result parses with ``email.message_from_bytes(..., policy=email.policy.default)`` into the
same headers and body the stdlib composer gave.
"""

from __future__ import annotations

import base64
import binascii
import email.utils
import re
import secrets
from dataclasses import dataclass, field
from email.header import Header

CRLF = "\r\n"
_FOLD_AT = 78
_ADDRESS_HEADERS = frozenset({"To", "Reply-To"})  # one bare address each, written raw (UTF-8 if need be)
_UNSAFE_FILENAME = re.compile(r"[^A-Za-z0-9._-]+")  # a filename written as is, never quoted or encoded


def header_text(text: str, limit: int | None = None) -> str:
    """A header value from untrusted text: one line, no control characters (optionally bounded)."""
    if not text.isprintable():
        text = "".join(c if c.isprintable() else " " for c in text)
    text = " ".join(text.split())
    return text if limit is None else text[:limit]


def _fold(name: str, value: str) -> str:
    """``Name: value`` as wire lines: an ASCII value folded at spaces, any other one RFC 2047 encoded."""
    if not value.isascii():
        return f"{name}: " + Header(value, "utf-8", header_name=name).encode(linesep=CRLF, maxlinelen=_FOLD_AT)
    if len(name) + 2 + len(value) <= _FOLD_AT:
        return f"{name}: {value}"  # (most headers: the loop below would not break it)
    words = value.split(" ")
    lines, current = [], f"{name}: {words[0]}"
    for word in words[1:]:
        if len(current) + 1 + len(word) > _FOLD_AT:
            lines.append(current)
            current = ""
        current += " " + word
    lines.append(current)
    return CRLF.join(lines)


def named_address(display_name: str, address: str) -> str:
    """``Display Name <address>``: the name quoted as needed, or RFC 2047 encoded when not ASCII."""
    if display_name.isascii():
        return email.utils.formataddr((header_text(display_name), address))
    return f"{Header(header_text(display_name), 'utf-8').encode()} <{address}>"


@dataclass
class Attachment:
    data: bytes
    maintype: str
    subtype: str
    filename: str


@dataclass
class OutgoingMail:
    """One mail from the judge: its headers, its text, its attachments; :meth:`as_bytes` writes it.

    Headers are set as on an ``EmailMessage`` (``mail["X-Judge-State"] = ...``) and read back the
    same way (the value, or None)."""

    recipient: str  # the To address (bare addr-spec): the mail's only recipient
    body: str
    headers: list[tuple[str, str]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)

    def __setitem__(self, name: str, value: str) -> None:
        self.headers.append((name, header_text(str(value))))

    def __getitem__(self, name: str) -> str | None:
        return next((value for key, value in self.headers if key.lower() == name.lower()), None)

    def add_attachment(self, data: bytes, *, maintype: str, subtype: str, filename: str) -> None:
        self.attachments.append(Attachment(data, maintype, subtype, _UNSAFE_FILENAME.sub("_", filename)))

    def as_bytes(self) -> bytes:
        lines = [f"{name}: {value}" if name in _ADDRESS_HEADERS else _fold(name, value) for name, value in self.headers]
        lines.append("MIME-Version: 1.0")
        text = self._text_part()
        if not self.attachments:
            return (CRLF.join(lines) + CRLF).encode("utf-8") + text
        boundary = f"=_judge_{secrets.token_hex(12)}"  # "=_" never occurs in QP or base64 text
        lines.append(f'Content-Type: multipart/mixed; boundary="{boundary}"')
        parts = [text, *(self._attachment_part(a) for a in self.attachments)]
        delimiter = f"{CRLF}--{boundary}{CRLF}".encode("ascii")
        return ((CRLF.join(lines) + CRLF + CRLF).encode("utf-8") + delimiter[2:] + delimiter.join(parts)
                + f"{CRLF}--{boundary}--{CRLF}".encode("ascii"))

    def _text_part(self) -> bytes:
        body = self.body if self.body.endswith("\n") else self.body + "\n"
        data = body.replace("\r\n", "\n").replace("\n", CRLF).encode("utf-8")
        return (b'Content-Type: text/plain; charset="utf-8"\r\n'
                b"Content-Transfer-Encoding: quoted-printable\r\n\r\n" + binascii.b2a_qp(data, istext=True))

    @staticmethod
    def _attachment_part(attachment: Attachment) -> bytes:
        return (f"Content-Type: {attachment.maintype}/{attachment.subtype}{CRLF}"
                f"Content-Transfer-Encoding: base64{CRLF}"
                f'Content-Disposition: attachment; filename="{attachment.filename}"{CRLF}{CRLF}').encode("ascii") + \
            base64.encodebytes(attachment.data).replace(b"\n", b"\r\n")
