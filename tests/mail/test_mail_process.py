"""The postmaster: sign-on, limits, Judge.record, replies and reports, exactly-once (in-process, fake clock)."""

from __future__ import annotations

import pytest

from adjudicator import yamlio
from adjudicator.judge import Judge
from adjudicator.mail.inbox import Inbox
from adjudicator.mail.process import Postmaster
from adjudicator.mail.settings import MailSettings
from adjudicator.store import GameLocked, Store

from conftest import FakeClock
from mailhelp import CZECH, JUDGE, desk, make_desk, raw_mail, text_of  # noqa: F401  (desk is a fixture)


def only(names, kind):
    found = [n for n in names if n.endswith(kind)]
    assert len(found) == 1, names
    return found[0]


def test_a_mail_is_recorded_and_answered(desk):
    handled = desk.signed("alice", "BID 3", subject="my orders")
    assert handled.status == "submitted" and handled.game == "g" and handled.player == "alice"
    [entry] = desk.journal()
    assert entry["kind"] == "submit" and entry["source"] == "mail" and entry["player"] == "alice"
    assert entry["inbox"] == handled.number and entry["inbox_id"] == desk.postmaster.inbox.id
    assert entry["message_id"].startswith("<alice-") and entry["from"] == "alice@example.org"
    assert entry["text"] == "\nBID 3" and desk.passwords["alice"] not in yamlio.dumps(entry)
    reply = desk.outbox_message(only(handled.mails, "-reply"))
    assert reply["To"] == "alice@example.org" and reply["Subject"] == "Re: my orders"
    assert reply["From"].addresses[0].addr_spec == JUDGE and reply["Auto-Submitted"] == "auto-replied"
    assert reply["In-Reply-To"] == entry["message_id"] and entry["message_id"] in reply["References"]
    assert reply["Message-ID"].endswith(".throne-judge@example.net>") and reply["Date"]
    text = text_of(reply)
    assert "ok       BID 3" in text and "On file for alice:\n  BID 3" in text
    assert desk.passwords["alice"] not in text
    assert not desk.postmaster.inbox.pending() and desk.postmaster.inbox.meta(handled.number)["result"]["status"] == "submitted"


@pytest.mark.parametrize("sign_on,status,says", [
    ("JUDGE nope alice {alice}", "unknown-game", "There is no game nope on this judge"),
    ("JUDGE g dave {alice}", "unknown-house", "Game g has no house dave. Its houses are: alice, bob, carol."),
    ("JUDGE g alice wrong-pass-000", "wrong-password", "Wrong password for alice in game g."),
    ("JUDGE g bob {alice}", "wrong-password", "Wrong password for bob in game g."),  # another house's sign-on
    ("JUDGE g alice", "bad-sign-on", "incomplete: the password is missing"),
    ("BID 3", "no-sign-on", "has no sign-on line"),
])
def test_bad_sign_ons_change_nothing_and_say_which_part_is_wrong(desk, sign_on, status, says):
    before = desk.judge.present("g").state
    handled = desk.mail(raw_mail(sign_on.format(**desk.passwords) + "\nBID 5\n"))
    assert handled.status == status
    assert desk.judge.store.open("g").journal_numbers() == [] and desk.judge.present("g").state == before
    text = desk.outbox_text(only(handled.mails, "-reply"))
    assert says in text and "Nothing was changed." in text and "JUDGE westeros1 stark raven-oak-417" in text
    assert desk.passwords["alice"] not in text


def test_sign_on_from_an_unregistered_address_is_copied_to_the_registered_one(desk):
    handled = desk.signed("alice", "BID 2", sender="alice.phone@example.com")
    assert handled.status == "submitted"
    assert desk.outbox_message(only(handled.mails, "-reply"))["To"] == "alice.phone@example.com"
    copy = desk.outbox_message(only(handled.mails, "-copy"))
    assert copy["To"] == "alice@example.org" and copy["Subject"].startswith("Copy: Re:")
    assert "from alice.phone@example.com, which is not your registered address" in text_of(copy)
    assert "ok       BID 2" in text_of(copy)
    registered = desk.signed("alice", "BID 3")  # from the registered address: no copy
    assert not [n for n in registered.mails if n.endswith("-copy")]


def test_bounces_and_auto_replies_get_no_answer(desk):
    for raw, mail_from in [
        (raw_mail("Delivery failed", headers={"Content-Type": "multipart/report; boundary=x"}), "x@example.org"),
        (raw_mail("I am on holiday", headers={"Auto-Submitted": "auto-replied"}), "alice@example.org"),
        (raw_mail("JUDGE g alice pw\nBID 1"), ""),
        (raw_mail("Re: your report", sender=JUDGE, headers={"X-Throne-Judge": "1"}), JUDGE),
    ]:
        handled = desk.mail(raw, mail_from)
        assert handled.status == "ignored" and handled.mails == []
    assert desk.postmaster.outbox.pending() == [] and not desk.postmaster.inbox.pending()


def test_our_own_reply_coming_back_is_not_answered(desk):
    handled = desk.mail(raw_mail("no sign-on here"))
    ours = (desk.postmaster.outbox.root / f"{handled.mails[0]}.eml").read_bytes()
    assert desk.mail(ours, mail_from="alice@example.org").status == "ignored"


def test_e1_unparseable_mail_is_answered_if_a_sender_is_known_else_dropped(desk):
    answered = desk.mail(b"From:<@\r\n\r\nJUDGE g alice pw", mail_from="fuzz@example.org")
    assert answered.status == "unparseable"
    assert "could not parse your mail" in desk.outbox_text(answered.mails[0])
    dropped = desk.mail(b"From:F:;\x01  \r\n\r\nx", mail_from=None)
    assert dropped.status == "dropped" and dropped.mails == []
    assert desk.postmaster.inbox.meta(dropped.number)["result"]["status"] == "dropped"  # still journaled


def test_a1_oversize_text_body_gets_a_clear_reply(desk):
    handled = desk.signed("alice", "BID 1\n" + "# padding padding padding\n" * 45_000)
    assert handled.status == "too-large"
    assert "the judge reads at most 1,000,000" in desk.outbox_text(handled.mails[0])
    assert desk.judge.store.open("g").journal_numbers() == []


def test_rate_limit_counts_mail_that_changes_nothing_with_one_notice(tmp_path):
    desk = make_desk(tmp_path, rate_limit=3)
    results = [desk.signed("alice", f"BID {i}", password="wrong-pass-123") for i in range(6)]
    assert [r.status for r in results] == ["wrong-password"] * 3 + ["rate-limited"] * 3
    notices = [n for r in results for n in r.mails if n.endswith("-notice")]
    assert len(notices) == 1 and "more than 3 mails" in desk.outbox_text(notices[0])
    assert all("result" in desk.postmaster.inbox.meta(r.number) for r in results)  # journaled, done, not processed
    assert desk.signed("bob", "BID 1").status == "submitted"  # per address
    # over the limit even a right password is not checked (no scrypt for a flood) ...
    assert desk.signed("alice", "BID 9").status == "rate-limited"
    desk.clock.advance(hours=1, seconds=1)
    assert desk.signed("alice", "BID 9").status == "submitted"


def test_a_signed_on_player_playing_is_never_rate_limited(tmp_path):
    desk = make_desk(tmp_path, rate_limit=30)
    results = [desk.signed("alice", f"BID {i % 7}\nSTATUS") for i in range(40)]  # 40 mails in no time
    assert {r.status for r in results} == {"submitted"}
    assert len(desk.journal()) == 40


def test_reports_to_every_player_after_an_adjudication_and_no_secrets(desk):
    alice = desk.signed("alice", "BID 5")
    bob = desk.signed("bob", "BID 2")
    assert not [n for n in alice.mails + bob.mails if n.startswith("report-")]
    # alice's bid is secret (bob reads Czech: "Rozhodčí má od hráče bob" is his "On file")
    assert "5" not in desk.outbox_text(only(bob.mails, "-reply")).split("Rozhodčí má od hráče bob:")[1]
    carol = desk.signed("carol", "BID 1")
    reports = [n for n in carol.mails if n.startswith("report-")]
    assert len(reports) == 3
    for player in ("alice", "bob", "carol"):
        msg = desk.outbox_message(only(reports, f"-{player}"))
        assert msg["To"] == f"{player}@example.org" and msg["Auto-Submitted"] == "auto-generated"
        text = text_of(msg)
        assert "Bids: alice 5, bob 2, carol 1" in text and "alice wins round 1" in text
        assert (f"Co vidí {player}:" if player == "bob" else f"What {player} sees:") in text and "seed" not in text
        assert all(pw not in text for pw in desk.passwords.values())
    assert "Adjudicated:" in desk.outbox_text(only(carol.mails, "-reply"))
    # nothing new: no second report
    assert desk.postmaster.sweep() == []


def test_gm_adjudication_and_deadline_ticks_are_reported_by_the_next_sweep_as_digests(desk):
    desk.judge.adjudicate("g", force=True)  # the GM from the command line: no mail layer involved
    # nobody bid: a tie, and alice must pick the winner; bob and carol's report waits for the phase's end
    assert desk.postmaster.sweep() == ["report-g-20261121T120000Z-v000002-alice"]
    assert desk.postmaster.sweep() == []
    desk.clock.advance(days=3)
    done = desk.postmaster.tick().done
    assert [game for game, _ in done] == ["g"]  # alice's pick defaulted, round 1 scored: a new phase
    reports = sorted(n for n in desk.postmaster.outbox.pending() if n.startswith("report-"))
    assert reports == ["report-g-20261121T120000Z-v000002-alice", "report-g-20261121T120000Z-v000004-alice",
                       "report-g-20261121T120000Z-v000004-bob", "report-g-20261121T120000Z-v000004-carol"]
    bob = desk.outbox_text("report-g-20261121T120000Z-v000004-bob")
    assert "verze 2-4" in bob  # one digest of every step since bob's last report (he reads Czech)


def test_crash_after_record_before_done_processes_nothing_twice(desk, monkeypatch):
    number = desk.postmaster.receive(raw_mail(f"JUDGE g alice {desk.passwords['alice']}\nBID 4"),
                                     mail_from="alice@example.org")

    def crash(self, marks):
        raise OSError("power cut")

    monkeypatch.setattr(Inbox, "mark_all_done", crash)  # the postmaster marks a batch done with it
    with pytest.raises(OSError):
        desk.postmaster.process(number)  # the journal entry and the reply are written, then the crash
    monkeypatch.undo()
    assert desk.postmaster.inbox.pending() == [number] and len(desk.journal()) == 1
    # a new process after the restart
    again = Postmaster(Judge(desk.judge.store, now=desk.clock), desk.postmaster.settings).process_pending()
    assert [h.status for h in again] == ["recovered"] and again[0].mails == []  # nothing queued twice
    assert len(desk.journal()) == 1 and desk.postmaster.inbox.pending() == []
    assert len([n for n in desk.postmaster.outbox.pending() if n.endswith("-reply")]) == 1


def test_crash_before_the_reply_was_queued_gets_the_very_answer_later(desk, monkeypatch):
    number = desk.postmaster.receive(raw_mail(f"JUDGE g alice {desk.passwords['alice']}\nBID 4"),
                                     mail_from="alice@example.org")
    monkeypatch.setattr(Postmaster, "_reply", lambda *a, **k: (_ for _ in ()).throw(OSError("disk full")))
    assert desk.postmaster.process(number).status == "deferred"  # recorded, then the reply could not be written
    monkeypatch.undo()
    assert len(desk.journal()) == 1 and desk.postmaster.inbox.pending() == [number]
    desk.clock.advance(seconds=15)  # a disk problem: retried 15 s later
    [handled] = desk.postmaster.process_pending()
    assert handled.status == "recovered" and len(desk.journal()) == 1
    text = desk.outbox_text(handled.mails[0])
    assert "kind=reply" in text and "ok       BID 4" in text  # the answer worked out again from the journal


def test_the_same_mail_delivered_twice_by_an_mta_is_applied_once(desk):
    raw = raw_mail(f"JUDGE g alice {desk.passwords['alice']}\nBID 4", message_id="<retry@example.org>")
    first, second = desk.mail(raw), desk.mail(raw)
    assert (first.status, second.status) == ("submitted", "duplicate") and second.mails == []
    assert len(desk.journal()) == 1


def test_a_locked_game_defers_the_mail_with_time_based_backoff_and_no_attempt_counted(tmp_path, monkeypatch):
    desk = make_desk(tmp_path, rate_limit=1)
    real = Judge.record

    def locked(self, game_id, entry):
        raise GameLocked("game g is busy (locked by another process); try again")

    monkeypatch.setattr(Judge, "record", locked)
    handled = desk.signed("alice", "BID 4")
    assert handled.status == "deferred" and desk.postmaster.inbox.pending() == [handled.number]
    assert desk.postmaster.process_pending() == []  # not due yet: the next try is 15 s later
    for seconds in (15, 30, 60, 120, 240):  # 15 s, then doubling: a lock held for minutes is waited out
        desk.clock.advance(seconds=seconds)
        assert [h.status for h in desk.postmaster.process_pending()] == ["deferred"]
    meta = desk.postmaster.inbox.meta(handled.number)
    assert meta["waits"] == 6 and "attempts" not in meta  # never counted as a failed attempt
    monkeypatch.setattr(Judge, "record", real)
    desk.clock.advance(minutes=10)
    assert [h.status for h in desk.postmaster.process_pending()] == ["submitted"]


@pytest.mark.parametrize("error", [OSError(30, "Read-only file system"), PermissionError(13, "Permission denied"),
                                   OSError(28, "No space left on device")])
def test_disk_and_permission_errors_never_use_up_attempts(desk, monkeypatch, error):
    real = Judge.record
    monkeypatch.setattr(Judge, "record", lambda *a: (_ for _ in ()).throw(error))
    handled = desk.signed("alice", "BID 4")
    for _ in range(8):
        desk.clock.advance(minutes=11)
        assert [h.status for h in desk.postmaster.process_pending()] == ["deferred"]
    assert "attempts" not in desk.postmaster.inbox.meta(handled.number)
    monkeypatch.setattr(Judge, "record", real)
    desk.clock.advance(minutes=11)
    assert [h.status for h in desk.postmaster.process_pending()] == ["submitted"]  # nothing that got a 250 is lost


def test_an_internal_error_is_retried_with_backoff_and_its_sender_and_the_gm_are_told_once(tmp_path, monkeypatch):
    desk = make_desk(tmp_path, gm="gm@example.org")
    real = Postmaster._submit
    monkeypatch.setattr(Postmaster, "_submit", lambda *a: 1 / 0)
    number = desk.postmaster.receive(raw_mail(f"JUDGE g alice {desk.passwords['alice']}\nBID 4"),
                                     mail_from="alice@example.org")
    assert desk.postmaster.process(number).status == "deferred"
    for minutes in (1, 2, 4, 8):
        assert desk.postmaster.process_pending() == []  # waits its time
        desk.clock.advance(minutes=minutes)
        assert [h.status for h in desk.postmaster.process_pending()] == ["deferred"]
    meta = desk.postmaster.inbox.meta(number)
    assert meta["attempts"] == 5 and "ZeroDivisionError" in meta["last_error"]
    queued = desk.postmaster.outbox.pending()
    [stuck] = [n for n in queued if n.endswith("-stuck")]
    assert "will be tried again" in desk.outbox_text(stuck)
    [gm] = [n for n in queued if n.startswith("gm-stuck-")]
    assert desk.outbox_message(gm)["To"] == "gm@example.org" and "judge inbox --drop 1" in desk.outbox_text(gm)
    assert "STUCK" in desk.postmaster.waiting()[0]
    monkeypatch.setattr(Postmaster, "_submit", real)  # the fix is deployed: the mail is applied after all
    desk.clock.advance(hours=1)
    assert [h.status for h in desk.postmaster.process_pending()] == ["submitted"]


def test_a_mail_stuck_on_a_version_edited_by_hand_names_the_file_and_the_value_to_the_gm(tmp_path):
    """A GM's hand edit of a version (``bids: 5`` where a mapping belongs) makes every mail to the game
    fail: the GM's notice of the stuck mail names the file and the value, as ``judge status`` would."""
    desk = make_desk(tmp_path, gm="gm@example.org")
    version = tmp_path / "data" / "g" / "states" / "000001.yaml"
    version.write_text(version.read_text().replace("  bids: {}\n", "  bids: 5\n"))
    number = desk.postmaster.receive(raw_mail(f"JUDGE g alice {desk.passwords['alice']}\nBID 4"),
                                     mail_from="alice@example.org")
    assert desk.postmaster.process(number).status == "deferred"
    for minutes in (1, 2):
        desk.clock.advance(minutes=minutes)
        assert [h.status for h in desk.postmaster.process_pending()] == ["deferred"]
    [gm] = [n for n in desk.postmaster.outbox.pending() if n.startswith("gm-stuck-")]
    text = desk.outbox_text(gm)
    assert f"{version}: this version file is damaged: state.bids: expected a mapping, found 5 (a new game has bids: {{}})" in text
    assert "judge inbox --drop 1" in text


def test_the_gm_drops_a_stuck_mail_and_its_sender_is_told(desk, monkeypatch):
    monkeypatch.setattr(Postmaster, "_submit", lambda *a: 1 / 0)
    number = desk.postmaster.receive(raw_mail(f"JUDGE g alice {desk.passwords['alice']}\nBID 4"),
                                     mail_from="alice@example.org")
    desk.postmaster.process(number)
    handled = desk.postmaster.drop(number)
    assert handled.status == "dropped-by-gm" and desk.postmaster.inbox.pending() == []
    assert "nothing in it was applied" in desk.outbox_text(handled.mails[0])
    with pytest.raises(ValueError, match="no pending message 1"):
        desk.postmaster.drop(number)


def test_a_failing_deadline_is_mailed_to_the_gm_once(tmp_path, monkeypatch):
    from toyrules import TOY

    desk = make_desk(tmp_path, gm="gm@example.org")
    monkeypatch.setattr(TOY, "advance", lambda state, force: 1 / 0)
    desk.clock.advance(days=3)
    assert desk.postmaster.tick().failed == [("g", "ZeroDivisionError: division by zero")]
    desk.clock.advance(minutes=1)
    desk.postmaster.tick()
    [flag] = [n for n in desk.postmaster.outbox.pending() if n.startswith("gm-flag-g-")]
    message = desk.outbox_message(flag)
    assert message["To"] == "gm@example.org" and message["Subject"] == "[judge] Game g needs you"
    assert "ZeroDivisionError" in desk.outbox_text(flag)


def test_html_only_czech_mail_plays(desk):
    html = f"<div>JUDGE g alice {desk.passwords['alice']}</div><div>BID 6 # {CZECH}</div>"
    handled = desk.mail(raw_mail(html, content_type="text/html; charset=windows-1250", cte="quoted-printable",
                                 charset="windows-1250"))
    assert handled.status == "submitted"
    assert desk.journal()[0]["text"].strip() == f"BID 6 # {CZECH}"


def test_a2_order_line_split_by_an_mta_still_parses(tmp_path):
    judge = Judge(Store(tmp_path / "data"), now=FakeClock())
    houses = ["stark", "lannister", "baratheon"]
    passwords = judge.new_game("w", "agot1e", {h: {"address": f"{h}@example.org"} for h in houses}, seed=1)
    postmaster = Postmaster(judge, MailSettings(JUDGE))
    order = "Lannisport: march -1  # " + "Příkazy na kolo " * 120  # about 2,100 bytes
    data = order.encode()
    cut = 998 - 3  # Postfix breaks at 998 bytes with CRLF SPACE
    while data[cut] & 0xC0 == 0x80 or data[cut - 1] >= 0x80:
        cut -= 1  # keep the cut between two ASCII letters, as in the pitfall's "…kaz\r\n  Pří…"
    split = data[:cut] + b"\r\n " + data[cut:]
    body = f"JUDGE w lannister {passwords['lannister']}\r\nORDERS\r\n".encode() + split + b"\r\n"
    number = postmaster.receive(raw_mail(body, sender="lannister@example.org",
                                         content_type="text/plain; charset=utf-8", cte="8bit"),
                                mail_from="lannister@example.org")
    handled = postmaster.process(number)
    assert handled.status == "submitted", handled
    assert "REJECTED" not in (postmaster.outbox.root / f"{handled.mails[0]}.eml").read_text(errors="replace")


def test_attachments_are_ignored_with_a_note_in_the_reply(desk):
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "alice@example.org", JUDGE, "orders"
    msg["Message-ID"] = "<alice-attach@example.org>"
    msg.set_content(f"JUDGE g alice {desk.passwords['alice']}\nBID 3\n")
    msg.add_attachment(b"\x89PNG\r\n\x1a\n" + bytes(200), maintype="image", subtype="png", filename="map.png")
    handled = desk.mail(msg.as_bytes())
    assert handled.status == "submitted"
    assert desk.judge.present("g").state["bids"] == {"alice": 3}
    text = desk.outbox_text(only(handled.mails, "-reply"))
    assert "Attachments are not read (map.png): the judge reads only the text of a mail." in text


def test_set_timezone_and_reports_are_kept_on_the_seat_and_used_at_once(desk):
    handled = desk.signed("bob", "NASTAV PÁSMO america/new_york\nSET REPORTS EVERY STEP\nBID 2\n")
    assert handled.status == "submitted"
    reply = desk.outbox_text(only(handled.mails, "-reply"))
    assert "  2  ok       NASTAV PÁSMO America/New_York" in reply and "NASTAV ZPRÁVY KAŽDÝ KROK" in reply
    assert "Termíny vám odteď ukazujeme v pásmu America/New_York." in reply
    assert "Termín: po 23. 11. 2026 07:00 EST (za 2 dny)" in reply  # 12:00 UTC, in New York, in Czech
    seat = desk.judge.store.open("g").config()["players"]["bob"]
    assert seat["timezone"] == "America/New_York" and seat["reports"] == "every-step"
    # every step: bob gets the report of alice's forced pick at once; carol (digest) waits for the phase's end
    desk.signed("alice", "BID 2")
    desk.judge.adjudicate("g", force=True)  # carol sent nothing: alice and bob tie, alice must pick
    queued = desk.postmaster.sweep()
    assert sorted(n.rsplit("-", 1)[1] for n in queued) == ["alice", "bob"]


def test_a_bad_set_line_is_refused_on_its_line_and_the_orders_still_count(desk):
    handled = desk.signed("alice", "SET TIMEZONE Mars/Olympus\nBID 4\n")
    reply = desk.outbox_text(only(handled.mails, "-reply"))
    assert "REJECTED SET TIMEZONE Mars/Olympus" in reply and "unknown time zone Mars/Olympus" in reply
    assert "example: SET TIMEZONE Europe/Prague" in reply
    assert desk.judge.present("g").state["bids"] == {"alice": 4}
