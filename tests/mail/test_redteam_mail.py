"""Red team: the judge attacked by mail, as a player or an outsider would (real Postmaster paths, the
toy game ``g`` of ``mailhelp.make_desk``: alice, bob, carol; ``judge ingest`` as a real process).

Each test is one attack and what the judge must do about it. The attacks that found holes:

* guessing a house's password from ever new sender addresses (the rate limit is per address, and a
  generated password has about 19 bits): at most ``rate_limit`` wrong passwords per house and hour,
  from whatever address, and the right password is not tried for a house over that;
* junk mail with a player's forged From filling that address's rate limit, so that the player's own
  signed-on orders are refused for an hour (just before a deadline, an opponent's weapon);
* a second ``JUDGE`` line (a player pasting the sign-on twice, or a first line of greeting too many)
  put its password into the game's journal and back into replies.
"""

from __future__ import annotations

import email
import email.policy
import subprocess
import sys
from datetime import timedelta

from adjudicator import yamlio
from adjudicator.judge import Judge
from adjudicator.store import Store

from conftest import FakeClock, subprocess_env
from i18nhelp import untranslated
from mailhelp import JUDGE, make_desk, maildir_messages, raw_mail, text_of


def replies(desk, handled):
    return [desk.outbox_message(n) for n in handled.mails]


# ---------------------------------------------------------------------------------------------
# Passwords: guessing, another house's seat, another game
# ---------------------------------------------------------------------------------------------


def test_guessing_a_password_from_ever_new_addresses_is_limited_per_house(tmp_path):
    """The blind takeover: ``JUDGE g alice <guess>`` + ``SET PASSWORD mine-mine-1`` from a new forged
    address each time needs no answer at all; one right guess hands the house over. So wrong
    passwords count per house too, whoever sends them, and a house over its count is not tried."""
    desk = make_desk(tmp_path, rate_limit=5)
    guesses = [desk.mail(raw_mail(f"JUDGE g alice oak-oak-{i:03d}\nSET PASSWORD attacker-pass-1",
                                  sender=f"x{i}@evil.example", message_id=f"<guess{i}@evil.example>"),
                         mail_from=f"x{i}@evil.example") for i in range(8)]
    assert [g.status for g in guesses[:5]] == ["wrong-password"] * 5
    assert {g.status for g in guesses[5:]} == {"house-locked"}
    # ... and the right password, from yet another address, is not tried while the house is locked
    right = desk.mail(raw_mail(f"JUDGE g alice {desk.passwords['alice']}\nSET PASSWORD attacker-pass-1",
                               sender="x99@evil.example", message_id="<guess99@evil.example>"),
                      mail_from="x99@evil.example")
    assert right.status == "house-locked"
    assert desk.journal() == []
    assert desk.signed("bob", "BID 1").status == "submitted"  # another house is not locked
    desk.clock.advance(hours=1, seconds=1)
    assert desk.signed("alice", "BID 2").status == "submitted"  # an hour later: the house plays again


def test_a_locked_house_is_told_in_its_players_language_and_the_gm_once(tmp_path):
    desk = make_desk(tmp_path, rate_limit=3, gm="gm@example.org")
    for i in range(4):
        desk.mail(raw_mail(f"JUDGE g bob oak-oak-{i:03d}\nBID 1", sender=f"x{i}@evil.example",
                           message_id=f"<g{i}@evil.example>"), mail_from=f"x{i}@evil.example")
    handled = desk.signed("bob", "BID 2", sender="bob.phone@example.com")  # right password, another address
    assert handled.status == "house-locked"
    text = desk.outbox_text(handled.mails[0])
    assert "bob" in text and "hodin" in text and untranslated(text, "cs", ()) == []
    to_gm = [n for n in desk.postmaster.outbox.pending() if n.startswith("gm-locked-g-bob")]
    assert len(to_gm) == 1 and "too many wrong passwords" in desk.outbox_message(to_gm[0])["Subject"]


def test_guesses_from_other_addresses_do_not_lock_the_player_out_of_the_registered_address(tmp_path):
    """Locking a house by guessing from throwaway addresses would keep its player's orders out before a
    deadline: the registered address has a count of wrong passwords of its own. A guesser who forges
    that address too gets only that count more, then it is locked as well."""
    desk = make_desk(tmp_path, rate_limit=3)
    for i in range(5):  # throwaway addresses: the house's count from elsewhere is spent
        desk.mail(raw_mail(f"JUDGE g bob oak-oak-{i:03d}\nBID 1", sender=f"x{i}@evil.example",
                           message_id=f"<g{i}@evil.example>"), mail_from=f"x{i}@evil.example")
    assert desk.signed("bob", "BID 2").status == "submitted"  # bob from his registered address plays on
    forged = [desk.mail(raw_mail(f"JUDGE g bob elm-elm-{i:03d}\nBID 1", sender="bob@example.org",
                                 message_id=f"<f{i}@evil.example>"), mail_from="bob@example.org").status
              for i in range(5)]
    assert forged[:3] == ["wrong-password"] * 3  # at most the limit more guesses: then no password is tried
    assert set(forged[3:]) <= {"house-locked", "rate-limited"} and forged[3:]
    assert desk.signed("bob", "BID 3").status in ("house-locked", "rate-limited")
    assert desk.judge.present("g").state["bids"]["bob"] == 2


def test_another_houses_seat_or_another_game_with_ones_own_password_changes_nothing(tmp_path):
    desk = make_desk(tmp_path)
    desk.judge.new_game("h", "toy", {"alice": {"address": "alice@example.org"},
                                     "bob": {"address": "bob@example.org"}}, seed=3)
    own = desk.passwords["alice"]
    for sign_on, status in [(f"JUDGE g bob {own}", "wrong-password"), (f"JUDGE h alice {own}", "wrong-password"),
                            (f"JUDGE g alice {own.upper()}X", "wrong-password"),
                            (f"JUDGE g alice {own[:-1]}", "wrong-password"),
                            (f"JUDGE g alice {own}\u200b", "wrong-password")]:
        handled = desk.mail(raw_mail(f"{sign_on}\nBID 9", message_id=f"<{sign_on}@example.org>"))
        assert handled.status == status, sign_on
    assert desk.journal() == [] and desk.judge.store.open("h").journal_numbers() == []


def test_a_second_judge_line_keeps_its_password_out_of_the_journal_and_the_replies(tmp_path):
    desk = make_desk(tmp_path)
    secret = desk.passwords["alice"]
    handled = desk.signed("alice", f"JUDGE g alice {secret}\nBID 3", sender="alice.phone@example.com")
    assert secret not in yamlio.dumps(desk.journal())
    for message in replies(desk, handled):  # the reply and the copy to the registered address
        assert secret not in message.as_string() and secret not in text_of(message)



def test_a_sign_on_typed_in_the_subject_keeps_its_password_out_of_every_subject(tmp_path):
    desk = make_desk(tmp_path)
    secret = desk.passwords["alice"]
    handled = desk.signed("alice", "BID 3", sender="alice.phone@example.com", subject=f"Re: JUDGE g alice {secret}")
    assert handled.status == "submitted"
    messages = replies(desk, handled)  # the reply and the copy to the registered address
    assert len(messages) == 2 and all("JUDGE g alice ********" in m["Subject"] for m in messages)
    for message in messages:
        assert secret not in message.as_string()
    desk.postmaster.receive(raw_mail("BID 2", subject=f"JUDGE g alice {secret}", message_id="<later@x>"),
                            mail_from="alice@example.org")
    (waiting,) = desk.postmaster.waiting()  # what `judge inbox` shows the GM
    assert "JUDGE g alice ********" in waiting and secret not in waiting

# ---------------------------------------------------------------------------------------------
# Forged senders: where the answer goes, and whom a forgery can hurt
# ---------------------------------------------------------------------------------------------


def test_junk_with_a_players_forged_address_does_not_lock_out_that_players_orders(tmp_path):
    desk = make_desk(tmp_path, rate_limit=5)
    for i in range(7):  # an opponent's junk "from" bob: no sign-on, answered to bob, then not at all
        desk.mail(raw_mail("buy cheap swords", sender="bob@example.org", message_id=f"<junk{i}@evil.example>"),
                  mail_from="bob@example.org")
    assert desk.signed("bob", "BID 4").status == "submitted"
    assert desk.judge.present("g").state["bids"]["bob"] == 4


def test_the_answer_goes_to_from_never_to_reply_to_sender_or_return_path(tmp_path):
    desk = make_desk(tmp_path)
    headers = {"Reply-To": "evil@evil.example", "Sender": "evil@evil.example", "Return-Path": "<evil@evil.example>",
               "Cc": "evil@evil.example", "Disposition-Notification-To": "evil@evil.example"}
    handled = desk.signed("alice", "BID 3\nSTATUS", headers=headers)
    assert handled.status == "submitted"
    for message in replies(desk, handled):
        assert "evil" not in message.as_string()
        assert message["To"] == "alice@example.org"
    # a wrong password from a forged From is answered to that From only, and says nothing of the game's state
    wrong = desk.mail(raw_mail("JUDGE g bob guess-guess-123\nBID 1\nSTATUS", sender="bob@example.org",
                               headers=headers), mail_from="evil@evil.example")
    [answer] = replies(desk, wrong)
    assert answer["To"] == "bob@example.org" and "evil" not in answer.as_string()
    assert "BID 3" not in text_of(answer) and "alice" not in text_of(answer)


def test_a_sign_on_from_a_stranger_works_only_with_the_password_and_the_registered_player_is_told(tmp_path):
    desk = make_desk(tmp_path)
    handled = desk.signed("alice", "BID 7\nSET PASSWORD stolen-seat-99", sender="evil@evil.example")
    copy = next(m for m in replies(desk, handled) if m["To"] == "alice@example.org")
    assert "evil@evil.example" in text_of(copy) and "SET PASSWORD ********" in text_of(copy)
    assert "stolen-seat-99" not in copy.as_string()


def test_mail_posing_as_the_judge_a_daemon_or_an_autoresponder_is_never_answered_even_signed_on(tmp_path):
    desk = make_desk(tmp_path)
    sign_on = f"JUDGE g alice {desk.passwords['alice']}\nBID 5"
    for sender, envelope_from, headers in [
        (JUDGE, "alice@example.org", {}),
        (JUDGE.upper(), "alice@example.org", {}),
        ("alice@example.org", JUDGE, {}),
        ("MAILER-DAEMON@example.org", "alice@example.org", {}),
        ("alice@example.org", "", {}),
        ("alice@example.org", "<>", {}),
        ("alice@example.org", "MAILER-DAEMON", {}),
        ("alice@example.org", "alice@example.org", {"Auto-Submitted": "auto-replied"}),
        ("alice@example.org", "alice@example.org", {"Precedence": "bulk"}),
        ("alice@example.org", "alice@example.org", {"X-Loop": JUDGE}),
        ("alice@example.org", "alice@example.org", {"X-Throne-Judge": "1"}),
    ]:
        handled = desk.mail(raw_mail(sign_on, sender=sender, headers=headers,
                                     message_id=f"<{sender}-{envelope_from}-{len(headers)}@example.org>"),
                            mail_from=envelope_from)
        assert handled.status == "ignored" and handled.mails == [], (sender, envelope_from, headers)
    assert desk.journal() == [] and desk.postmaster.outbox.pending() == []


def test_ingest_takes_the_envelope_sender_of_the_mta_over_a_forged_return_path(tmp_path):
    """Through ``judge ingest`` (a real process): Postfix passes the envelope sender; a Return-Path
    header written by the sender (``<>``, to pass as a bounce) changes nothing, either way."""
    data = tmp_path / "data"
    passwords = Judge(Store(data), now=FakeClock()).new_game(
        "g", "toy", {"alice": {"address": "alice@example.org"}, "bob": {"address": "bob@example.org"}}, seed=1)
    env = subprocess_env(data)
    raw = raw_mail(f"JUDGE g alice {passwords['alice']}\nBID 4", headers={"Return-Path": "<>"})
    run = subprocess.run([sys.executable, "-m", "adjudicator", "ingest", "--sender", "alice@example.org",
                          "--recipient", JUDGE, "--address", JUDGE], input=raw, env=env, capture_output=True)
    assert run.returncode == 0, run.stderr
    delivered = maildir_messages(data / "maildir")
    assert [m["To"] for m in delivered] == ["alice@example.org"]
    assert "ok       BID 4" in text_of(delivered[0])


# ---------------------------------------------------------------------------------------------
# What comes back: header injection, echoes
# ---------------------------------------------------------------------------------------------


def test_no_header_injection_through_subject_names_or_encoded_words(tmp_path):
    desk = make_desk(tmp_path)
    subjects = ["=?utf-8?q?x=0D=0ABcc:_evil@evil.example=0D=0A=0D=0Abody?=",
                "=?utf-8?b?" + "eA0KQmNjOiBldmlsQGV2aWwuZXhhbXBsZQ==" + "?=",  # "x\r\nBcc: evil@evil.example"
                "x\u2028Bcc: evil@evil.example", "x\x85Bcc: evil@evil.example"]
    for n, subject in enumerate(subjects):
        handled = desk.signed("alice", "BID 3\nPRESS ALL: hi\rBcc: evil@evil.example", subject=subject,
                              display="=?utf-8?q?Alice=0D=0ABcc:_evil@evil.example?=", message_id=f"<inj{n}@e>")
        for name in handled.mails:
            raw = (desk.postmaster.outbox.root / f"{name}.eml").read_bytes()
            head = raw.split(b"\r\n\r\n", 1)[0]
            assert not any(line.lower().startswith((b"bcc:", b"cc:")) for line in head.split(b"\r\n")), name
            message = email.message_from_bytes(raw, policy=email.policy.default)
            assert [a.addr_spec for a in message["To"].addresses] in (
                ["alice@example.org"], ["bob@example.org"], ["carol@example.org"]), name
            assert message["Bcc"] is None and message["Cc"] is None


# ---------------------------------------------------------------------------------------------
# Odd MIME: nothing crashes, nothing is read that the player did not write as text
# ---------------------------------------------------------------------------------------------


def _wrap(body: bytes, *, sender="alice@example.org", extra: str = "") -> bytes:
    return (f"From: Alice <{sender}>\r\nTo: {JUDGE}\r\nSubject: x\r\nMessage-ID: <{abs(hash(body))}@example.org>\r\n"
            f"MIME-Version: 1.0\r\n{extra}").encode() + body


def test_deeply_nested_multipart_is_answered_and_changes_nothing(tmp_path):
    desk = make_desk(tmp_path)
    depth = 3000
    body = b"".join(f'Content-Type: multipart/mixed; boundary="b{i}"\r\n\r\n--b{i}\r\n'.encode() for i in range(depth))
    body += f"Content-Type: text/plain\r\n\r\nJUDGE g alice {desk.passwords['alice']}\r\nBID 1\r\n".encode()
    body += b"".join(f"--b{i}--\r\n".encode() for i in reversed(range(depth)))
    handled = desk.mail(_wrap(body))
    # its text comes after its 100th MIME part, which is not parsed (envelope.MAX_PARTS)
    assert handled.status in ("unparseable", "submitted", "no-sign-on") and handled.mails
    assert not desk.postmaster.inbox.pending()


def test_an_attachment_named_like_orders_is_not_read_as_orders(tmp_path):
    desk = make_desk(tmp_path)
    orders = f"JUDGE g alice {desk.passwords['alice']}\r\nBID 9\r\n"
    body = ('Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nhello\r\n'
            '--b\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename="orders.txt"\r\n\r\n'
            f'{orders}--b--\r\n').encode()
    handled = desk.mail(_wrap(body))
    assert handled.status == "no-sign-on" and desk.journal() == []
    assert "orders.txt" in text_of(replies(desk, handled)[0])


def test_binary_and_bomb_like_base64_bodies_are_answered_and_change_nothing(tmp_path):
    import base64
    desk = make_desk(tmp_path)
    blob = base64.encodebytes(bytes(range(256)) * 5000)  # 1.28 MB of binary as "text"
    body = b"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n" + blob
    handled = desk.mail(_wrap(body))
    assert handled.status in ("too-large", "no-sign-on") and handled.mails and desk.journal() == []
    zeros = base64.encodebytes(b"\0" * 1_400_000)  # NULs are dropped: a huge body that shrinks to nothing
    handled = desk.mail(_wrap(b"Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n" + zeros))
    assert handled.status in ("too-large", "no-sign-on") and handled.mails and desk.journal() == []


def test_html_hidden_text_and_the_plain_part_the_player_did_not_see(tmp_path):
    """multipart/alternative: the judge reads the text part (what a plain reader shows); an HTML-only
    mail's scripts, styles and quoted blocks are not read."""
    desk = make_desk(tmp_path)
    sign_on = f"JUDGE g alice {desk.passwords['alice']}"
    html = (f"<html><head><title>BID 8</title><style>BID 7</style></head><body><p>{sign_on}</p>"
            "<script>BID 6</script><blockquote>BID 5</blockquote><p>BID 2</p></body></html>")
    handled = desk.mail(raw_mail(html, content_type="text/html; charset=utf-8"))
    assert handled.status == "submitted" and desk.judge.present("g").state["bids"]["alice"] == 2


# ---------------------------------------------------------------------------------------------
# Replays and timing
# ---------------------------------------------------------------------------------------------


def test_an_old_mail_replayed_with_its_message_id_does_not_take_back_newer_orders(tmp_path):
    desk = make_desk(tmp_path)
    first = raw_mail(f"JUDGE g alice {desk.passwords['alice']}\nBID 3", message_id="<first@example.org>")
    assert desk.mail(first).status == "submitted"
    assert desk.signed("alice", "BID 5", message_id="<second@example.org>").status == "submitted"
    replay = desk.mail(first)  # an MTA's redelivery, or someone who kept a copy
    assert replay.status == "duplicate" and replay.mails == []
    assert desk.judge.present("g").state["bids"]["alice"] == 5
    desk.signed("bob", "BID 1")
    desk.signed("carol", "BID 1")  # the round adjudicates: a new round, new bids
    assert desk.judge.present("g").state["round"] == 2
    assert desk.mail(first).status == "duplicate"  # still known after versions were written
    assert "alice" not in desk.judge.present("g").state["bids"]


def test_gm_words_by_mail_are_no_gm_commands_even_from_the_gms_address(tmp_path):
    desk = make_desk(tmp_path, gm="gm@example.org")
    for n, body in enumerate(["ADJUDICATE g", "PAUSE g", "EXTEND g 48h", "ROLLBACK g 1", "REPLACE g alice gm@example.org",
                              "ABANDON g alice", "TAKEOVER g alice"]):
        handled = desk.mail(raw_mail(body, sender="gm@example.org", message_id=f"<gm{n}@example.org>"),
                            mail_from="gm@example.org")
        assert handled.status in ("no-sign-on", "open-refused"), body
    signed = desk.signed("alice", "PAUSE\nEXTEND 48h\nADJUDICATE\nTAKEOVER g bob")
    assert signed.status == "rejected"
    present = desk.judge.present("g")
    assert not present.paused() and present.version == 1 and present.config["players"]["alice"]["address"] == \
        "alice@example.org"
    assert desk.judge.present("g").deadline() == desk.clock.moment + timedelta(hours=48)


# ---------------------------------------------------------------------------------------------
# Seats changing hands: takeover, replace
# ---------------------------------------------------------------------------------------------


def test_a_player_cannot_take_over_a_second_house_of_the_same_game(tmp_path):
    from adjudicator import seats
    desk = make_desk(tmp_path)
    seats.abandon(desk.judge, "g", "alice")
    grab = desk.mail(raw_mail("TAKEOVER g alice", sender="bob@example.org", message_id="<grab@example.org>"),
                     mail_from="bob@example.org")
    assert grab.status == "open-refused"
    assert desk.judge.present("g").config["players"]["alice"]["address"] == "alice@example.org"
    taken = desk.mail(raw_mail("TAKEOVER g alice", sender="dave@example.org", message_id="<take@example.org>"),
                      mail_from="dave@example.org")
    assert taken.status == "takeover"
    assert desk.judge.present("g").config["players"]["alice"]["address"] == "dave@example.org"


def test_after_a_takeover_or_a_replace_the_old_password_signs_on_no_more(tmp_path):
    from adjudicator import seats
    desk = make_desk(tmp_path)
    seats.abandon(desk.judge, "g", "alice")
    desk.mail(raw_mail("TAKEOVER g alice", sender="dave@example.org", message_id="<take@example.org>"),
              mail_from="dave@example.org")
    assert desk.signed("alice", "BID 1").status == "wrong-password"  # the old player, old password
    desk.judge.replace("g", "bob", "erin@example.org")
    assert desk.signed("bob", "BID 1").status == "wrong-password"
    # an observer has no seat to sign on to
    seats.observe(desk.judge, "g", "olga@example.org", "en")
    assert desk.mail(raw_mail("JUDGE g olga whatever-123\nBID 1", sender="olga@example.org",
                              message_id="<obs2@example.org>"), mail_from="olga@example.org").status == "unknown-house"
    assert [e["kind"] for e in desk.journal() if e["kind"] == "submit"] == []
