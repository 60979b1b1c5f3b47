"""Property tests: no input of any shape makes the mail path raise or lose a message.

The stdlib email parser raises arbitrary exceptions on malformed input, lazily, when a header
is read (shared/reference/mail-pitfalls.md E1); `envelope.parse` must turn every such input into
a usable result or a "could not parse" answer, and whatever it extracts must be storable as
YAML. A seeded slice runs here; longer runs: raise max_examples (or use atheris, which found
the reproducers of E1).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator import yamlio
from adjudicator.mail import envelope

OWN = "judge@example.net"

HEADER_NAMES = st.sampled_from(["From", "To", "Subject", "Message-ID", "Content-Type", "Content-Transfer-Encoding",
                                "Auto-Submitted", "Precedence", "References", "In-Reply-To", "Return-Path", "X-Autoreply",
                                "Content-Disposition"])
HEADER_VALUES = st.one_of(
    st.text(max_size=60),
    st.binary(max_size=60).map(lambda b: b.decode("latin-1")),
    st.sampled_from(["<@", "F:;\x01  ", "F.mo:n@[", "multipart/mixed; boundary=x", "text/plain; charset=nonesuch",
                     "text/html; charset=windows-1250", "base64", "quoted-printable", "=?utf-8?q?=C5=99?=",
                     "Jiří <jiri@example.cz>", "<>", "auto-replied", "bulk",
                     # plain enough for envelope.py's short cuts, and near misses of them
                     "Jon Snow <Jon.Snow@Example.org>", "jon@example.org", "<jon@example.org>", "Jon Snow jon@example.org",
                     "Jon <jon@example.org> (night watch)", "jon@example.org, ann@example.org", "a..b@example.org",
                     "\"Snow, Jon\" <jon@example.org>", "J. Snow <jon@example.org>", "text/plain; charset=utf-8",
                     "text/plain;charset=UTF-8", "text/plain; format=flowed; delsp=yes", "TEXT/HTML", "text/plain; charset=\"utf-8\"",
                     "attachment; filename=orders.txt", "inline", "orders for  round 2 ", "=?utf-8?q?x?= y"]),
)


@st.composite
def messages(draw):
    headers = draw(st.lists(st.tuples(HEADER_NAMES, HEADER_VALUES), max_size=8))
    body = draw(st.one_of(st.binary(max_size=400), st.text(max_size=400).map(lambda t: t.encode("utf-8", "surrogatepass"))))
    head = b"".join(f"{k}: {v}".encode("utf-8", "surrogateescape") + b"\r\n" for k, v in headers)
    return head + b"\r\n" + body


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(raw=st.one_of(messages(), st.binary(max_size=600)))
def test_any_bytes_parse_without_raising_and_what_is_kept_stores_as_yaml(raw):
    inbound = envelope.parse(raw, own_address=OWN, envelope_from="sender@example.org")
    kept = {"sender": inbound.sender, "subject": inbound.subject, "message_id": inbound.message_id,
            "body": inbound.body, "attachments": list(inbound.attachments), "loop": inbound.loop,
            "error": inbound.error}
    assert yamlio.loads(yamlio.dumps(kept)) == kept  # no surrogates or unstorable text reach the files
    assert yamlio.loads(yamlio.dump_text(kept)) == kept  # nor in the layout the files are written in
    if inbound.signon is not None:
        assert inbound.signon.game and inbound.signon.house


@settings(max_examples=200, deadline=None, derandomize=True)
@given(body=st.text(max_size=300))
def test_any_text_after_a_sign_on_is_found_or_refused_cleanly(body):
    raw = (f"From: alice@example.org\r\nTo: {OWN}\r\nSubject: orders\r\n"
           "Content-Type: text/plain; charset=utf-8\r\n\r\nJUDGE g alice pw\r\n").encode() + body.encode("utf-8", "surrogatepass")
    inbound = envelope.parse(raw, own_address=OWN, envelope_from="alice@example.org")
    assert inbound.sender == "alice@example.org"
    assert inbound.signon is not None and (inbound.signon.game, inbound.signon.house) == ("g", "alice")


def test_every_message_through_the_whole_mail_path_ends_processed(tmp_path):
    """Random and hostile messages, signed on or not, through the in-process postmaster: none
    raises, none stays pending in the inbox, and the game's state only changes by legal mail."""
    import random

    from mailhelp import make_desk

    desk = make_desk(tmp_path, rate_limit=10_000)
    rng = random.Random(20261121)
    sign_on = f"JUDGE g alice {desk.passwords['alice']}\r\n".encode()
    samples = [
        b"", b"\x00\xff" * 50, b"From:<@\r\n\r\nx", b"From:F:;\x01  \r\n\r\nx", b"From:F.mo:n@[\r\n\r\nx",
        b"From: alice@example.org\r\nContent-Type: text/plain; charset=nonesuch\r\n\r\n" + sign_on + b"BID 3\r\n",
        b"From: alice@example.org\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!not base64!!!",
        b"From: alice@example.org\r\nContent-Type: multipart/mixed; boundary=zz\r\n\r\n--zz\r\n\r\n" + sign_on + b"--zz",
        b"From: alice@example.org\r\n\r\n" + sign_on + bytes(rng.randrange(256) for _ in range(300)),
        b"From: alice@example.org\r\n\r\n" + sign_on + ("BID 1\r\n" * 2000).encode(),
    ] + [bytes(rng.randrange(256) for _ in range(rng.randrange(400))) for _ in range(40)]
    for raw in samples:
        handled = desk.mail(raw)
        assert handled.status, raw[:60]
    assert desk.postmaster.inbox.pending() == []
    assert set(desk.judge.present("g").state["bids"]) <= {"alice"}  # only alice's own signed mail could bid


PLAIN_HEADERS = st.lists(st.tuples(
    st.sampled_from(["From", "from", "To", "Subject", "Message-ID", "Content-Type", "content-type", "Content-Transfer-Encoding",
                     "References", "In-Reply-To", "Content-Disposition", "X-Mailer", "MIME-Version", "From ", "X Bad", ""]),
    st.one_of(HEADER_VALUES, st.sampled_from(["7bit", "8BIT", "8bit ", "binary", "1.0", "text/plain", "text/plain; charset=us-ascii",
                                              "text/plain; charset*=utf-8''x", "text/plain; format=flowed", "TEXT/Plain; Charset=UTF-8",
                                              "text/plain; charset=utf-8; charset=latin-1", "text", "orders\r\n\tfolded", "a\r\n b"]))),
    max_size=8)
LINE_ENDS = st.sampled_from(["\r\n", "\n", "\r"])


@st.composite
def plain_messages(draw):
    """Mails near the plain ones that envelope.py reads without the stdlib's parser: one-part
    text with simple headers, and every near miss (folding, odd line ends, 8-bit, a Content-Type
    with RFC 2231 parameters, a missing blank line, a header line the stdlib takes for the body)."""
    head = "".join(f"{k}:{draw(st.sampled_from([' ', '', '  ', chr(9)]))}{v}{draw(LINE_ENDS)}"
                   for k, v in draw(PLAIN_HEADERS)).encode("utf-8", "surrogateescape")
    body = draw(st.one_of(st.binary(max_size=200), st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")),
                          st.sampled_from([b"JUDGE g alice pw\r\nBID 3\r\n", b"> quoted\n-- \nsig", b"a\r\rb\n\r\n"])))
    return head + draw(st.sampled_from([b"\r\n", b"\n", b"\r", b"", b"\r\n\r\n"])) + body


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(raw=st.one_of(messages(), plain_messages(), st.binary(max_size=600)))
def test_parsing_each_header_once_reads_every_mail_as_the_stdlib_does(raw):
    """envelope.py's short cuts (each header parsed once, a plain one-part mail read without the
    stdlib's parser) read every mail as the stdlib's own message class alone does."""
    import email.policy

    cached = envelope.parse(raw, own_address=OWN, envelope_from=None)
    saved = envelope._RECEIVED, envelope._plain_message
    envelope._RECEIVED, envelope._plain_message = email.policy.default, lambda raw: None  # the stdlib alone
    try:
        plain = envelope.parse(raw, own_address=OWN, envelope_from=None)
    finally:
        envelope._RECEIVED, envelope._plain_message = saved
    assert cached == plain


def test_the_usual_order_mail_is_read_without_the_stdlib_parser():
    """The short cut is taken for the mail players send (else it would test nothing above)."""
    raw = (b"From: Jon Snow <jon@example.org>\r\nTo: j@example.net\r\nSubject: orders\r\nMessage-ID: <a@b>\r\n"
           b"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8; format=flowed\r\n"
           b"Content-Transfer-Encoding: 8bit\r\nDKIM-Signature: v=1;\r\n\tb=xyz\r\n\r\nJUDGE g jon pw\r\nP\xc5\x99\r\n")
    assert envelope._plain_message(raw) is not None
    assert envelope._plain_message(raw.replace(b"8bit", b"base64")) is None
    assert envelope.parse(raw, own_address=OWN).body == "JUDGE g jon pw\nPř"
