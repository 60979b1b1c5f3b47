"""The outbox: complete RFC 5322 messages as files, Maildir delivery, relay with retries and backoff."""

from __future__ import annotations

import email
import email.policy
from adjudicator.mail.envelope import parse
from adjudicator.mail.outbox import FLAG_AFTER_ATTEMPTS, MaildirTransport, Outbox, RelayTransport
from adjudicator.mail.settings import MailSettings

from conftest import FakeClock
from mailhelp import JUDGE, ThreadedSMTP, maildir_messages, text_of


def outbox(tmp_path, clock=None):
    return Outbox(tmp_path, MailSettings(JUDGE), now=clock or FakeClock())


def test_composed_messages_carry_every_header_and_are_recognised_as_ours(tmp_path):
    box = outbox(tmp_path)
    msg = box.compose("alice@example.org", "Re: orders\r\nBcc: victim@example.org", "Ahoj, příkazy přijaty.",
                      in_reply_to="<m1@example.org>", references=("<m0@example.org>",))
    assert box.queue("r1", msg)
    raw = (tmp_path / "outbox" / "r1.eml").read_bytes()
    assert b"\r\n" in raw and b"\nBcc:" not in raw  # no header injection from a player's subject
    sent = email.message_from_bytes(raw, policy=email.policy.default)
    assert sent["From"].addresses[0].addr_spec == JUDGE and sent["To"] == "alice@example.org"
    assert sent["Subject"] == "Re: orders Bcc: victim@example.org"
    assert sent["Auto-Submitted"] == "auto-replied" and sent["X-Throne-Judge"] == "1" and sent["Date"]
    assert sent["In-Reply-To"] == "<m1@example.org>" and sent["References"] == "<m0@example.org> <m1@example.org>"
    assert sent["Message-ID"].endswith(".throne-judge@example.net>")
    assert text_of(sent) == "Ahoj, příkazy přijaty.\n"
    assert "our own mail" in parse(raw, own_address=JUDGE, envelope_from="alice@example.org").loop
    report = box.compose("bob@example.org", "[g] report", "text", auto="auto-generated")
    assert report["Auto-Submitted"] == "auto-generated" and report["In-Reply-To"] is None


def test_queue_is_idempotent_and_maildir_delivery_moves_to_sent(tmp_path):
    box = outbox(tmp_path)
    assert box.queue("a", box.compose("alice@example.org", "s", "one"))
    assert not box.queue("a", box.compose("alice@example.org", "s", "two"))
    restarted = outbox(tmp_path)  # queued mail survives a restart
    assert restarted.pending() == ["a"]
    run = restarted.deliver(MaildirTransport(tmp_path / "maildir"))
    assert run.delivered == ["a"] and restarted.pending() == [] and restarted.sent() == ["a"]
    assert not restarted.queue("a", box.compose("alice@example.org", "s", "three"))  # already sent
    [msg] = maildir_messages(tmp_path / "maildir")
    assert text_of(msg) == "one\n" and msg["To"] == "alice@example.org"
    assert restarted.meta("a", sent=True)["delivered"]


class FlakySink:
    """A relay that answers 451 to the first ``fail`` messages, then accepts (and keeps them)."""

    def __init__(self, fail: int = 1, code: str = "451 4.3.0 try again later"):
        self.fail, self.code = fail, code
        self.received = []

    async def handle_DATA(self, server, session, envelope):
        if self.fail > 0:
            self.fail -= 1
            return self.code
        self.received.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content))
        return "250 OK"


def test_relay_delivery_retries_with_exponential_backoff(tmp_path):
    clock = FakeClock()
    box = outbox(tmp_path, clock)
    box.queue("r", box.compose("jiří@example.cz", "Re: příkazy", "Přijato."))
    with ThreadedSMTP(FlakySink(fail=2)) as sink:
        relay = RelayTransport("127.0.0.1", sink.port, local_hostname="example.net")
        assert box.deliver(relay).failed == ["r"]
        meta = box.meta("r")
        assert meta["attempts"] == 1 and "451" in meta["last_error"] and not meta["flagged"]
        assert meta["next_attempt"] == "2026-11-21T12:01:00Z"  # 1 min
        clock.advance(seconds=30)
        assert box.deliver(relay).waiting == ["r"]  # not due: not tried
        clock.advance(seconds=31)
        assert box.deliver(relay).failed == ["r"]
        assert box.meta("r")["next_attempt"] == "2026-11-21T12:03:01Z"  # then 2 min
        clock.advance(minutes=2)
        assert box.deliver(relay).delivered == ["r"]
        [(mail_from, rcpts, data)] = sink.handler.received
    assert mail_from == JUDGE and rcpts == ["jiří@example.cz"]  # SMTPUTF8 recipient
    assert "jiří@example.cz".encode() in data and box.pending() == []
    assert box.meta("r", sent=True)["attempts"] == 3


def test_undeliverable_mail_is_flagged_and_kept(tmp_path):
    clock = FakeClock()
    box = outbox(tmp_path, clock)
    box.queue("bad", box.compose("nobody@example.org", "s", "x"))
    box.queue("flaky", box.compose("alice@example.org", "s", "x"))
    with ThreadedSMTP(FlakySink(fail=10**6, code="550 5.1.1 no such user")) as sink:
        relay = RelayTransport("127.0.0.1", sink.port)
        box.deliver(relay)
    assert box.meta("bad")["flagged"] and box.meta("flaky")["flagged"]  # a 5xx is flagged at once
    down = RelayTransport("127.0.0.1", 1, timeout=2)  # nothing listens on port 1
    other = outbox(tmp_path / "other", clock)
    other.queue("m", other.compose("alice@example.org", "s", "x"))
    for _ in range(FLAG_AFTER_ATTEMPTS):
        assert other.deliver(down).failed == ["m"]
        clock.advance(hours=7)
    meta = other.meta("m")
    assert meta["flagged"] and meta["attempts"] == FLAG_AFTER_ATTEMPTS and other.pending() == ["m"]
    assert other.flagged() == ["m"]
    assert box.pending() == ["bad", "flaky"]  # nothing is dropped
    clock.advance(hours=7)
    assert other.deliver(MaildirTransport(tmp_path / "md")).delivered == ["m"]


def test_a_report_with_its_picture_and_non_ascii_headers_parses_back_as_composed(tmp_path):
    box = outbox(tmp_path)
    msg = box.compose("jiří@example.cz", "[g] Zpráva o tahu: " + "příkazy " * 30, "Řádek 1\n" + "x" * 120 + " \n.\n",
                      auto="auto-generated")
    msg["X-Judge-State"] = "game=g player=stark kind=report " + " ".join(f"field{i}=value{i}" for i in range(12))
    png = b"\x89PNG\r\n" + bytes(range(256)) * 40
    msg.add_attachment(png, maintype="image", subtype="png", filename="board-v3.png")
    assert box.queue("report", msg)
    raw = (tmp_path / "outbox" / "report.eml").read_bytes()
    assert all(len(line) <= 78 for line in raw.split(b"\r\n\r\n")[0].split(b"\r\n"))  # headers folded
    assert b"\xc5\x99" not in raw.split(b"\r\n\r\n")[0].replace("jiří".encode(), b"")  # only the address raw
    sent = email.message_from_bytes(raw, policy=email.policy.default)
    assert sent["Subject"] == ("[g] Zpráva o tahu: " + "příkazy " * 30).strip()[:200]
    assert sent["X-Judge-State"] == msg["X-Judge-State"] and sent["Auto-Submitted"] == "auto-generated"
    assert Outbox._recipients_from(raw) == ["jiří@example.cz"]
    assert text_of(sent) == "Řádek 1\n" + "x" * 120 + " \n.\n"
    [picture] = sent.iter_attachments()
    assert picture.get_content_type() == "image/png" and picture.get_filename() == "board-v3.png"
    assert picture.get_content() == png and not any(part.defects for part in sent.walk())


def test_a_raw_utf8_address_in_a_header_is_relayed_with_smtputf8(tmp_path):
    """Press to the GM carries the player's address as Reply-To: a non-ASCII address is written
    raw, so the relay must be asked for SMTPUTF8 although every envelope address is ASCII."""

    class Options:
        def __init__(self):
            self.seen = []

        async def handle_DATA(self, server, session, envelope):
            self.seen.append((list(envelope.mail_options), envelope.original_content))
            return "250 OK"

    box = outbox(tmp_path, FakeClock())
    press = box.compose("gm@example.org", "Press", "Ahoj")
    press["Reply-To"] = "jiří@example.cz"
    box.queue("press", press)
    box.queue("plain", box.compose("gm@example.org", "Plain", "x"))
    with ThreadedSMTP(Options()) as sink:
        assert box.deliver(RelayTransport("127.0.0.1", sink.port)).delivered == ["plain", "press"]
    options = {b"Plain" in data: mail_options for mail_options, data in sink.handler.seen}
    assert "SMTPUTF8" in options[False] and "SMTPUTF8" not in options[True]
