"""Outgoing mail as files, and its delivery: nothing the judge says is ever dropped.

Every mail is a complete RFC 5322 message (written by ``composer.OutgoingMail``, CRLF) in
``<data>/outbox/NAME.eml``, written atomically: an ``.eml`` in the outbox *is* the queue
entry, its recipients are its To. A YAML sidecar ``NAME.yaml`` appears when a delivery fails
(attempts, next attempt, last error). Delivered mail moves to ``outbox/sent/``.

Names are chosen by the caller and derived from what caused the mail (inbox number, game
version, player), so queueing is idempotent: a mail whose name is already queued or sent is not
queued again, which is what makes re-processing after a crash safe.

Delivery goes through a *transport*: :class:`MaildirTransport` (the default: one Maildir any mail
client opens, for a judge on a single machine and for tests) or :class:`RelayTransport` (an SMTP
relay, optional STARTTLS and login). A failure is retried with exponential backoff recorded in
the sidecar; after many failures, or a permanent (5xx) refusal, the mail is *flagged* and logged
but kept and still retried at the longest interval, for the GM to see and fix.

Every message carries ``Auto-Submitted`` (RFC 3834), our ``X-Throne-Judge`` header and a
Message-ID with our mark, so that our own mail or an auto-responder's answer to it is never
answered (``envelope.classify_loop``).
"""

from __future__ import annotations

import email.policy
import email.utils
import logging
import mailbox
import os
import re
import secrets
import smtplib
import ssl
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Callable, Protocol

from .. import clock, yamlio
from ..crashpoints import crashpoint
from .composer import OutgoingMail, header_text, named_address
from .envelope import OWN_HEADER, OWN_MESSAGE_ID_MARK
from .inbox import InboxBusy, file_lock
from .settings import MailSettings

log = logging.getLogger("adjudicator.mail")

FORMAT = 1
BACKOFF_FIRST = timedelta(minutes=1)
BACKOFF_MAX = timedelta(hours=6)
FLAG_AFTER_ATTEMPTS = 10  # about a day and a half of retries
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


class DeliveryError(Exception):
    """A transport could not hand a mail on; ``permanent`` for a 5xx refusal."""

    def __init__(self, message: str, *, permanent: bool = False):
        super().__init__(message)
        self.permanent = permanent


class Transport(Protocol):
    def send(self, sender: str, recipients: list[str], data: bytes, name: str) -> None:
        """Hand one mail on; ``name`` is its outbox name, unique for ever (transports that can,
        use it to accept a mail only once, should a crash make the outbox send it again)."""


class MaildirTransport:
    """Deliver every mail into one Maildir (``cur/ new/ tmp/``), whoever it is addressed to.

    The file's unique name is the outbox name (written to ``tmp/``, then linked into ``new/``),
    so a mail delivered again after a crash (sent, but not yet moved to ``outbox/sent/``) is
    recognised and not added twice: delivery into the Maildir is exactly once.
    """

    def __init__(self, path: os.PathLike | str):
        self.path = Path(path)

    def send(self, sender: str, recipients: list[str], data: bytes, name: str) -> None:
        try:
            mailbox.Maildir(self.path, create=True)  # the three folders
            if self._delivered(name):
                return
            tmp = self.path / "tmp" / name  # the Maildir's own temp area: a torn file here is rewritten
            with open(tmp, "wb") as fh:
                fh.write(data.replace(b"\r\n", b"\n"))
                fh.flush()
                os.fsync(fh.fileno())
            crashpoint(f"before linking {name} into the Maildir")
            try:
                os.link(tmp, self.path / "new" / name)
            except FileExistsError:
                pass
            finally:
                tmp.unlink()
            yamlio.fsync_dir(self.path / "new")
        except OSError as exc:
            raise DeliveryError(f"cannot write the Maildir {self.path}: {exc.strerror or exc}") from exc

    def _delivered(self, name: str) -> bool:
        """In ``new/`` still, or moved to ``cur/`` by a mail client (which adds ``:2,<flags>``)."""
        return (self.path / "new" / name).exists() or any((self.path / "cur").glob(f"{name}:*")) or (
            self.path / "cur" / name).exists()

    def __str__(self) -> str:
        return f"Maildir {self.path}"


class RelayTransport:
    """Hand mail to an SMTP relay (``host:port``), optionally with STARTTLS and a login."""

    def __init__(self, host: str, port: int, *, starttls: bool = False, username: str | None = None,
                 password: str | None = None, timeout: float = 30.0, local_hostname: str | None = None):
        self.host, self.port = host, port
        self.starttls, self.username, self.password = starttls, username, password
        self.timeout = timeout
        self.local_hostname = local_hostname  # EHLO name; smtplib's default calls getfqdn() (slow DNS)

    def send(self, sender: str, recipients: list[str], data: bytes, name: str) -> None:
        # SMTPUTF8 for a non-ASCII address in the envelope, or written raw in a header (a
        # player's address in the Reply-To of press to the GM: composer.py)
        headers = data.split(b"\r\n\r\n", 1)[0]
        utf8 = not all(r.isascii() for r in [sender, *recipients]) or not headers.isascii()
        options = ["SMTPUTF8"] if utf8 else []
        try:
            with smtplib.SMTP(self.host, self.port, timeout=self.timeout,
                              local_hostname=self.local_hostname or "localhost") as smtp:
                smtp.ehlo()
                if self.starttls:
                    smtp.starttls(context=ssl.create_default_context())
                    smtp.ehlo()
                if self.username:
                    smtp.login(self.username, self.password or "")
                refused = smtp.sendmail(sender, recipients, data, mail_options=options)
        except smtplib.SMTPRecipientsRefused as exc:
            codes = [code for code, _ in exc.recipients.values()]
            raise DeliveryError(f"relay refused every recipient: {_describe(exc.recipients)}",
                                permanent=all(c >= 500 for c in codes)) from None
        except smtplib.SMTPResponseException as exc:
            text = exc.smtp_error.decode("utf-8", "replace") if isinstance(exc.smtp_error, bytes) else str(exc.smtp_error)
            raise DeliveryError(f"relay answered {exc.smtp_code} {text}", permanent=exc.smtp_code >= 500) from None
        except (OSError, smtplib.SMTPException) as exc:
            raise DeliveryError(f"relay {self.host}:{self.port}: {exc.__class__.__name__}: {exc}") from None
        if refused:
            raise DeliveryError(f"relay refused some recipients: {_describe(refused)}",
                                permanent=all(code >= 500 for code, _ in refused.values()))

    def __str__(self) -> str:
        return f"relay {self.host}:{self.port}"


def _describe(refused: dict) -> str:
    return "; ".join(f"{who}: {code} {msg.decode('utf-8', 'replace') if isinstance(msg, bytes) else msg}"
                     for who, (code, msg) in refused.items())


def backoff(attempts: int) -> timedelta:
    """Wait after the ``attempts``-th failure: 1 min, 2, 4, ... up to 6 h."""
    return min(BACKOFF_FIRST * (2 ** max(0, attempts - 1)), BACKOFF_MAX)


@dataclass
class DeliveryRun:
    delivered: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)
    busy: bool = False  # another process was delivering; nothing was tried


class Outbox:
    """``<data>/outbox``: queued mail, delivered by :meth:`deliver`."""

    def __init__(self, data_dir: os.PathLike | str, settings: MailSettings, *,
                 now: Callable[[], datetime] = clock.utcnow, fsync: bool = True):
        self.root = Path(data_dir) / "outbox"
        self.sent_dir = self.root / "sent"
        self.settings = settings
        self.now = now
        self.fsync = fsync

    def ensure(self) -> "Outbox":
        if os.path.isdir(f"{self.sent_dir}") and not os.path.exists(f"{self.root}/game.yaml"):
            return self  # (once for every mail queued: plain strings)
        if (self.root / "game.yaml").exists():
            raise OSError(f"{self.root} holds a game named 'outbox'; the mail layer needs that folder")
        self.sent_dir.mkdir(parents=True, exist_ok=True)
        return self

    # -- composing ------------------------------------------------------------------------
    def message_id(self) -> str:
        return f"<{self.now():%Y%m%d%H%M%S}.{secrets.token_hex(6)}{OWN_MESSAGE_ID_MARK}{self.settings.domain}>"

    def compose(self, to: str, subject: str, body: str, *, auto: str = "auto-replied",
                in_reply_to: str | None = None, references: tuple[str, ...] | list[str] = ()) -> OutgoingMail:
        """A complete message from the judge to the address ``to``; ``auto`` is ``auto-replied``
        or ``auto-generated``. Callers add headers (``X-Judge-State``) and attachments to it."""
        to = header_text(to)
        msg = OutgoingMail(recipient=to, body=body)
        msg["From"] = named_address(self.settings.display_name, self.settings.address)
        msg["To"] = to
        msg["Subject"] = header_text(subject, limit=200) or "(no subject)"
        msg["Date"] = email.utils.format_datetime(self.now())
        msg["Message-ID"] = self.message_id()
        msg["Auto-Submitted"] = auto
        msg[OWN_HEADER] = "1"
        if in_reply_to:
            msg["In-Reply-To"] = in_reply_to
            msg["References"] = " ".join([*[r for r in references if r != in_reply_to][-9:], in_reply_to])
        return msg

    # -- the queue ------------------------------------------------------------------------
    def _paths(self, name: str, sent: bool = False) -> tuple[Path, Path]:
        base = (self.sent_dir if sent else self.root) / name
        return base.with_name(base.name + ".eml"), base.with_name(base.name + ".yaml")

    def has(self, name: str) -> bool:
        """Queued or already sent (two ``stat`` calls on plain strings: once for every mail queued)."""
        return os.path.exists(f"{self.root}/{name}.eml") or os.path.exists(f"{self.sent_dir}/{name}.eml")

    def queue(self, name: str, message: OutgoingMail) -> bool:
        """Queue ``message`` under ``name``; False (and nothing written) if that name exists."""
        name = _SAFE_NAME.sub("_", name)
        self.ensure()
        if self.has(name):
            return False
        # One file, not synced: queued mail is made durable by whoever queued it (the
        # postmaster's sync after a batch, before its mails are marked done; see durability.py).
        # The sidecar is written only when a delivery fails (attempts, backoff, the error).
        yamlio.atomic_write(f"{self.root}/{name}.eml", message.as_bytes(), fsync=False)
        return True

    def pending(self) -> list[str]:
        try:
            names = os.listdir(self.root)
        except FileNotFoundError:
            return []
        return sorted(n[:-4] for n in names if n.endswith(".eml") and not n.startswith(yamlio.TMP_PREFIX))

    def sent(self) -> list[str]:
        try:
            return sorted(n[:-4] for n in os.listdir(self.sent_dir) if n.endswith(".eml"))
        except FileNotFoundError:
            return []

    def meta(self, name: str, sent: bool = False) -> dict:
        try:
            return yamlio.load_mapping(self._paths(name, sent)[1])
        except yamlio.YamlFileError:
            return {}

    def recipients(self, name: str) -> list[str]:
        """Who a queued mail goes to."""
        return self._recipients_from(self._paths(name)[0].read_bytes())

    def flagged(self) -> list[str]:
        return [n for n in self.pending() if self.meta(n).get("flagged")]

    # -- delivery -------------------------------------------------------------------------
    def deliver(self, transport: Transport) -> DeliveryRun:
        """Try every queued mail that is due; one deliverer at a time (others return ``busy``)."""
        run = DeliveryRun()
        self.ensure()
        try:
            with file_lock(self.root / ".delivering", 0.0, "the outbox"):
                for name in self.pending():
                    self._deliver_one(name, transport, run)
        except InboxBusy:
            run.busy = True
        return run

    def hold_delivery(self, stack) -> bool:
        """Hold every deliverer off (their :meth:`deliver` returns ``busy``) until ``stack``
        (an ``ExitStack``) closes; False, holding nothing, when a delivery runs now. The
        postmaster holds it while a batch's journal entries are not yet synced."""
        self.ensure()
        try:
            stack.enter_context(file_lock(self.root / ".delivering", 0.0, "the outbox"))
        except InboxBusy:
            return False
        return True

    def _deliver_one(self, name: str, transport: Transport, run: DeliveryRun) -> None:
        eml, meta_path = self._paths(name)
        meta = self.meta(name)
        now = self.now()
        due = clock.from_text(meta.get("next_attempt")) if meta.get("next_attempt") else None
        if due is not None and due > now:
            run.waiting.append(name)
            return
        try:
            data = eml.read_bytes()
        except FileNotFoundError:
            return  # delivered meanwhile
        recipients = meta.get("to") or self._recipients_from(data)
        try:
            transport.send(self.settings.address, recipients, data, name)
        except DeliveryError as exc:
            attempts = int(meta.get("attempts") or 0) + 1
            flagged = bool(meta.get("flagged")) or exc.permanent or attempts >= FLAG_AFTER_ATTEMPTS
            wait = BACKOFF_MAX if exc.permanent else backoff(attempts)
            meta.update(format=FORMAT, name=name, to=recipients, attempts=attempts, last_error=str(exc)[:500],
                        last_attempt=clock.to_text(now), next_attempt=clock.to_text(now + wait), flagged=flagged)
            yamlio.dump(meta_path, meta, fsync=self.fsync)
            (log.error if flagged else log.warning)(
                "mail %s to %s not delivered (attempt %d%s): %s; next try %s", name, ", ".join(recipients), attempts,
                ", FLAGGED for the GM" if flagged else "", exc, meta["next_attempt"])
            run.failed.append(name)
            return
        meta.update(delivered=clock.to_text(now), via=str(transport), attempts=int(meta.get("attempts") or 0) + 1)
        sent_eml, sent_meta = self._paths(name, sent=True)
        # the sent sidecar first, then the move that ends the queue entry: a crash in between
        # leaves the mail queued, and the transport recognises it as delivered (by its name)
        yamlio.dump(sent_meta, meta, fsync=self.fsync)
        crashpoint(f"before moving {name} to sent")
        os.replace(eml, sent_eml)
        if self.fsync:
            yamlio.fsync_dir(self.sent_dir)
            yamlio.fsync_dir(self.root)
        crashpoint(f"after moving {name} to sent")
        try:
            meta_path.unlink()
        except FileNotFoundError:
            pass
        run.delivered.append(name)

    @staticmethod
    def _recipients_from(data: bytes) -> list[str]:
        """Recipients from the To header (a queued mail has a sidecar only after a failed delivery)."""
        msg = email.message_from_bytes(data, policy=email.policy.default)
        # an SMTPUTF8 address is raw UTF-8 in the header: the parser keeps its bytes as surrogates
        return [a.addr_spec.encode("utf-8", "surrogateescape").decode("utf-8") for a in msg["To"].addresses]
