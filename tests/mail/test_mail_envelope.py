"""envelope.parse: raw bytes -> sender, text, sign-on, loop class (pitfalls A4, E1, E2, E3)."""

from __future__ import annotations

import base64
from dataclasses import asdict

import pytest

from adjudicator import yamlio
from adjudicator.mail import envelope
from adjudicator.mail.envelope import parse
from adjudicator.mail.text import canonical_address, clean_text

from mailhelp import CZECH, JUDGE, raw_mail


def p(raw: bytes, envelope_from: str | None = "alice@example.org"):
    return parse(raw, own_address=JUDGE, envelope_from=envelope_from)


def test_plain_mail_sender_signon_and_text():
    inbound = p(raw_mail("\nJUDGE g Alice raven-oak-417\nBID 3\n", sender="Alice@Example.ORG",
                         display='"Eve <eve@evil.example>"'))
    assert inbound.sender == "Alice@example.org"  # addr-spec, domain lower-cased, display name ignored
    assert inbound.message_id == "<m1@example.org>" and inbound.subject == "orders"
    assert inbound.signon == envelope.SignOn("g", "alice", "raven-oak-417", 2)
    assert inbound.text == "\n\nBID 3"  # the sign-on blanked: line numbers kept, no password
    assert inbound.loop is None and inbound.error is None and inbound.answerable


@pytest.mark.parametrize("charset", ["utf-8", "iso-8859-2", "windows-1250"])
@pytest.mark.parametrize("cte", ["8bit", "quoted-printable", "base64"])
def test_e2_czech_charsets_in_every_transfer_encoding(charset, cte):
    raw = raw_mail(f"JUDGE g alice pw\n{CZECH}\n", content_type=f"text/plain; charset={charset}", cte=cte, charset=charset)
    assert p(raw).text.strip() == CZECH


@pytest.mark.parametrize("charset", ["utf-8", "iso-8859-2", "windows-1250"])
def test_a4_e2_eight_bit_body_without_any_charset(charset):
    # GNU mailutils `mail` sends exactly this: raw 8-bit bytes, no MIME headers at all
    inbound = p(raw_mail(f"JUDGE g alice pw\n{CZECH}\n", charset=charset))
    assert inbound.text.strip() == CZECH and "\ufffd" not in inbound.body


def test_e2_unknown_and_wrong_charsets_fall_back_instead_of_raising():
    assert p(raw_mail(CZECH, content_type="text/plain; charset=x-klingon", cte="8bit")).body == CZECH
    assert p(raw_mail(CZECH, content_type="text/plain; charset=us-ascii", cte="8bit")).body == CZECH
    latin2_declared_utf8 = raw_mail(CZECH, content_type="text/plain; charset=utf-8", cte="8bit", charset="iso-8859-2")
    assert p(latin2_declared_utf8).body == CZECH


def test_e2_html_only_mail_becomes_text():
    html = ("<html><head><style>p {color: red}</style><title>T</title></head><body>"
            "<div>JUDGE g alice pw</div><div>BID&nbsp;3 &amp; more</div>řádek<br>druhý<br/>"
            "<p>  spaced   words  </p><blockquote>JUDGE g bob stolen<br>BID 99</blockquote>"
            "<script>alert(1)</script></body></html>")
    inbound = p(raw_mail(html, content_type="text/html; charset=utf-8", cte="quoted-printable"))
    assert inbound.html
    assert inbound.signon.house == "alice"
    assert [line for line in inbound.text.split("\n") if line] == ["BID 3 & more", "řádek", "druhý", "spaced words"]


def test_plain_part_preferred_and_attachments_noted_not_read():
    raw = (b"From: a@example.org\r\nTo: judge@example.net\r\nSubject: x\r\nMIME-Version: 1.0\r\n"
           b"Content-Type: multipart/mixed; boundary=B\r\n\r\n"
           b"--B\r\nContent-Type: multipart/alternative; boundary=C\r\n\r\n"
           b"--C\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nJUDGE g alice pw\r\nBID 1\r\n"
           b"--C\r\nContent-Type: text/html\r\n\r\n<p>JUDGE g alice pw</p><p>BID 9</p>\r\n--C--\r\n"
           b"--B\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename=orders.txt\r\n\r\nBID 7\r\n"
           b"--B\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\n"
           + base64.encodebytes(b"\x89PNG") + b"--B--\r\n")
    inbound = p(raw)
    assert inbound.text.strip() == "BID 1" and not inbound.html
    assert inbound.attachments == ("orders.txt", "image/png")


def test_e3_raw_eight_bit_headers_never_leave_surrogates():
    raw = ("From: Jiří Novák <jiri@example.cz>\r\nTo: judge@example.net\r\n".encode()
           + "Subject: Příkazy\r\n".encode("iso-8859-2")
           + b"Message-ID: <x@example.cz>\r\n\r\nJUDGE g alice pw\r\n")
    inbound = p(raw)
    assert inbound.sender == "jiri@example.cz" and inbound.subject == "Příkazy"
    dumped = yamlio.dumps(asdict(inbound))
    assert "\\uDC" not in dumped.upper() and not any("\udc80" <= c <= "\udcff" for c in dumped)
    dumped.encode("utf-8")  # would raise on a lone surrogate


def test_a3_smtputf8_sender_address_is_kept():
    raw = "From: Jiří <jiří@example.cz>\r\nTo: judge@example.net\r\nSubject: x\r\n\r\nJUDGE g jiri pw\r\n".encode()
    assert p(raw, envelope_from="jiří@example.cz").sender == "jiří@example.cz"
    assert clean_text("jiří@example.cz".encode().decode("ascii", "surrogateescape")) == "jiří@example.cz"


E1_REPRODUCERS = [b"From:<@\r\n\r\nx", b"From:F:;\x01  \r\n\r\nx", b"From:F.mo:n@[\r\n\r\nx"]


@pytest.mark.parametrize("raw", E1_REPRODUCERS)
def test_e1_fuzz_reproducers_give_an_error_not_an_exception(raw):
    with_envelope = p(raw, envelope_from="fuzz@example.org")
    assert with_envelope.error and with_envelope.sender == "fuzz@example.org" and with_envelope.answerable
    without = p(raw, envelope_from=None)
    assert without.error and without.sender is None and not without.answerable


def test_e1_unparseable_header_with_a_plain_address_still_finds_a_sender():
    inbound = p(b"From: Broken <bob@example.org>, F:;\x01  \r\n\r\nx", envelope_from=None)
    assert inbound.sender == "bob@example.org"


@pytest.mark.parametrize("headers,envelope_from,why", [
    ({}, "", "null envelope sender"),
    ({}, "MAILER-DAEMON@mx.example.org", "MAILER-DAEMON"),
    ({"Content-Type": "multipart/report; report-type=delivery-status; boundary=x"}, "x@example.org", "delivery report"),
    ({"Auto-Submitted": "auto-replied"}, "x@example.org", "auto-submitted"),
    ({"Auto-Submitted": "auto-generated (vacation)"}, "x@example.org", "auto-submitted"),
    ({"Precedence": "bulk"}, "x@example.org", "precedence"),
    ({"Precedence": "junk"}, "x@example.org", "precedence"),
    ({"Precedence": "list"}, "x@example.org", "precedence"),
    ({"X-Autoreply": "yes"}, "x@example.org", "auto-reply"),
    ({"X-Autorespond": "yes"}, "x@example.org", "auto-reply"),
    ({"X-Throne-Judge": "1"}, "x@example.org", "our own mail"),
    ({}, JUDGE, "our own mail"),
])
def test_loops_and_bounces_are_classified(headers, envelope_from, why):
    inbound = p(raw_mail("JUDGE g alice pw\n", headers=headers), envelope_from=envelope_from)
    assert why in (inbound.loop or "") and not inbound.answerable


def test_our_message_id_and_normal_mail_from_our_domain():
    ours = p(raw_mail("hi", message_id="<20261121.ab.throne-judge@example.net>"))
    assert "our own mail" in ours.loop
    neighbour = p(raw_mail("hi", sender="bob@example.net", message_id="<abc@example.net>"), envelope_from="bob@example.net")
    assert neighbour.loop is None
    assert p(raw_mail("hi", headers={"Auto-Submitted": "no"})).loop is None


def test_bounce_known_from_return_path_when_the_envelope_is_unknown():
    assert "null" in p(raw_mail("x", headers={"Return-Path": "<>"}), envelope_from=None).loop


def test_quotes_and_signature_dropped_with_line_numbers_kept():
    body = ("JUDGE g alice pw\nBID 1\n> JUDGE g bob other\n> BID 9\nBID 2\n"
            "> " + "y" * 1200 + "\n continuation of the quoted line\nBID 3\n-- \nAlice\nBID 99\n")
    inbound = p(raw_mail(body))
    assert inbound.text.split("\n") == ["", "BID 1", "", "", "BID 2", "", "", "BID 3"]


def test_signon_variants():
    assert p(raw_mail("\ufeff  judge  G   Bob  Pw-1  # comment\n")).signon == envelope.SignOn("g", "bob", "Pw-1", 1)
    missing = p(raw_mail("JUDGE g bob\nBID 1"))
    assert missing.signon is None and missing.signon_problem == "the password is missing"
    # a greeting of up to three short lines may come first (it is left for the game's reader)
    greeted = p(raw_mail("Hello judge,\n\nJUDGE g bob pw\nBID 1"))
    assert greeted.signon == envelope.SignOn("g", "bob", "pw", 3) and greeted.text == "Hello judge,\n\n\nBID 1"
    assert p(raw_mail("Hello\nthere\nmy\nfriend\nJUDGE g bob pw")).signon is None
    addressed = p(raw_mail("Judge, my orders for this round:\nJUDGE g bob pw\nBID 1"))  # a greeting, no bad sign-on
    assert addressed.signon == envelope.SignOn("g", "bob", "pw", 2) and addressed.signon_problem is None
    assert p(raw_mail("judge! JUDGE g bob pw")).signon is None
    assert p(raw_mail("x" * 81 + "\nJUDGE g bob pw")).signon is None
    assert p(raw_mail("")).signon is None and p(raw_mail("")).signon_problem is None


def test_format_flowed_lines_are_joined():
    flowed = "JUDGE g alice pw\r\nPRESS ALL: a long line that the client \r\nwrapped at the margin\r\nBID 2\r\n"
    inbound = p(raw_mail(flowed, content_type="text/plain; charset=utf-8; format=flowed"))
    assert inbound.text.split("\n")[1:] == ["PRESS ALL: a long line that the client wrapped at the margin", "BID 2"]


def test_canonical_address():
    assert canonical_address("<Ned@Example.ORG>") == "Ned@example.org"
    assert canonical_address("judge@localhost") == "judge@localhost"
    for bad in ("", "ned", "@example.org", "ned@", "a b@example.org", "ned@exa mple.org", "<>"):
        assert canonical_address(bad) is None, bad


def test_a2_line_broken_inside_a_character_does_not_garble_the_rest():
    long_line = ("PRESS ALL: " + "ř" * 600).encode()
    split = long_line[:997] + b"\r\n " + long_line[997:]  # 997: inside a two-byte character
    assert split[996] >= 0x80 and split[998:999] == b"\n"
    for content_type in ("text/plain; charset=utf-8", None):
        body = b"JUDGE g alice pw\r\n" + split + b"\r\n" + CZECH.encode() + b"\r\n"
        inbound = p(raw_mail(body, content_type=content_type, cte="8bit" if content_type else None))
        assert inbound.text.split("\n")[-1] == CZECH
