"""A normal player's mail habits never fail a mail: quoted replies, sign-offs, phone signatures,
greetings, END; the same Czech keywords in every ruleset; line numbers as the player wrote them."""

from __future__ import annotations

import email
import email.policy

import pytest

from adjudicator import mailbody
from adjudicator.judge import Judge
from adjudicator.mail.process import Postmaster
from adjudicator.mail.settings import MailSettings
from adjudicator.store import Store

from conftest import FakeClock
from mailhelp import JUDGE, desk, raw_mail, text_of  # noqa: F401  (desk is a fixture)


def reply_of(desk, handled) -> str:
    return desk.outbox_text(next(n for n in handled.mails if n.endswith("-reply")))


QUOTED_REPLY = """Hi judge,

JUDGE g alice {pw}
BID 3

Thanks,
Alice

On Mon, 23 Nov 2026 at 14:10, Throne judge <judge@example.net> wrote:
> X-Judge: game=g version=1 round=1 step=bid
> Your mail, line by line:
"""


def test_a_quoted_reply_with_greeting_and_sign_off_is_applied_and_the_reply_says_what_was_not_read(desk):
    handled = desk.mail(raw_mail(QUOTED_REPLY.format(pw=desk.passwords["alice"])))
    assert handled.status == "submitted"
    text = reply_of(desk, handled)
    assert "  4  ok       BID 3" in text and "REJECTED" not in text
    assert "  1  ignored  Hi judge,  (a greeting)" in text
    assert "  6  ignored  Thanks,  (a sign-off)" in text and "  7  ignored  Alice  (a sign-off)" in text
    assert "  9  ignored  On Mon, 23 Nov 2026 at 14:10, Throne judge <judge@example.net> wrote:  " \
           "(the header of a quoted mail)" in text
    [entry] = desk.journal()
    assert "Thanks" not in entry["text"] and "Hi judge" not in entry["text"]  # the game never saw them


@pytest.mark.parametrize("tail", [
    "Sent from my iPhone",
    "Odesláno z iPhonu",
    "S pozdravem,\nJan Novák",
    "Díky,\nPetr",
    "Best regards, Ned Stark",
    "Ned",
    "Dne 23. 11. 2026 v 14:10 Throne judge <judge@example.net> napsal(a):\nTvoje rozkazy:\n> BID 9",
    "-----Original Message-----\nFrom: Throne judge\nBID 9",
    "END\nBID 9\nanything at all",
    "KONEC\nBID 9",
    "SIGNOFF\nBID 9",
])
def test_mail_habits_after_the_orders_are_not_read(desk, tail):
    handled = desk.signed("alice", f"BID 3\n\n{tail}\n")
    assert handled.status == "submitted", reply_of(desk, handled)
    assert desk.judge.present("g").state["bids"] == {"alice": 3}  # never BID 9
    assert "ignored" in reply_of(desk, handled)


def test_prose_between_orders_is_still_refused_it_may_be_a_mistyped_order(desk):
    handled = desk.signed("alice", "BID 3\nplease be quick\nPICK bob\n")
    assert handled.status == "rejected"
    assert "REJECTED please be quick" in reply_of(desk, handled)


def test_greeting_only_and_no_orders_says_no_commands(desk):
    handled = desk.signed("alice", "Hello,\n")
    assert handled.status == "submitted"
    assert "ignored  Hello,  (a greeting)" in reply_of(desk, handled)


def test_czech_reply_names_the_ignored_lines_in_czech(desk):
    handled = desk.signed("bob", "Ahoj,\nBID 2\nS pozdravem,\nBob\n")
    text = reply_of(desk, handled)
    assert "vynecháno Ahoj,  (pozdrav)" in text and "vynecháno S pozdravem,  (rozloučení)" in text


def test_line_numbers_are_the_players_lines_not_the_mtas(tmp_path):
    # Postfix breaks a line over 998 bytes and indents the rest: still one line of the player's
    postmaster, passwords = agot_desk(tmp_path, "en")
    long_press = "PRESS ALL: " + "x" * 1200
    broken = long_press[:995] + "\n " + long_press[995:]
    text = agot_reply(postmaster, f"JUDGE w stark {passwords['stark']}\n{broken}\nMARCH Nowhere -> Winterfell: footman\n")
    assert "  3  REJECTED MARCH Nowhere" in text  # sign-on 1, press 2, march 3


def test_html_mail_lines_are_numbered_as_the_player_saw_them(tmp_path):
    postmaster, passwords = agot_desk(tmp_path, "en")
    html = (f'<html><body><div dir="ltr">JUDGE w stark {passwords["stark"]}<div>STATUS</div>'
            '<div><br></div><div>MARCH Nowhere -&gt; Winterfell: footman</div></div></body></html>')
    text = agot_reply(postmaster, html, content_type="text/html; charset=utf-8")
    assert "  4  REJECTED MARCH Nowhere" in text


def test_not_orders_keeps_command_lines_and_numbers():
    text = "Ahoj\nMARCH Winterfell -> Karhold: footman\nWinterfell: march 0\nDíky\nNed\n"
    kept, ignored = mailbody.not_orders(text, {"march"})
    assert kept.split("\n") == ["", "MARCH Winterfell -> Karhold: footman", "Winterfell: march 0", "", "", ""]
    assert [(line.lineno, line.ignored) for line in ignored] == [(1, "greeting"), (4, "signoff"), (5, "signoff")]
    # a line starting with a command word is never prose, a keyword is never a sign-off
    assert mailbody.not_orders("HELP\n", {"help"}) == ("HELP\n", [])


def agot_desk(tmp_path, language="cs"):
    judge = Judge(Store(tmp_path / "data"), now=FakeClock())
    passwords = judge.new_game("w", "agot1e", {h: {"address": f"{h}@example.org", "language": language}
                                                for h in ("stark", "lannister", "baratheon")}, seed=5)
    return Postmaster(judge, MailSettings(JUDGE)), passwords


def agot_reply(postmaster, body, **kw) -> str:
    number = postmaster.receive(raw_mail(body, sender="stark@example.org", **kw), mail_from="stark@example.org")
    handled = postmaster.process(number)
    name = next(n for n in handled.mails if n.endswith("-reply"))
    message = email.message_from_bytes((postmaster.outbox.root / f"{name}.eml").read_bytes(), policy=email.policy.default)
    return text_of(message)


def test_the_czech_mail_level_keywords_work_in_agot1e_as_in_every_ruleset(tmp_path):
    postmaster, passwords = agot_desk(tmp_path)
    body = (f"JUDGE w stark {passwords['stark']}\nROZKAZY\nWinterfell: pochod 0\nNÁPOVĚDA\nSTAV\nROZKAZY?\n"
            "ZPRÁVA Lannister: zdravím\n")
    number = postmaster.receive(raw_mail(body, sender="stark@example.org"), mail_from="stark@example.org")
    handled = postmaster.process(number)
    assert handled.status == "submitted", handled
    reply = next(n for n in handled.mails if n.endswith("-reply"))
    text = (postmaster.outbox.root / f"{reply}.eml").read_bytes().decode("utf-8", "replace")
    assert "ODM" not in text  # nothing refused (ODMÍTNUTO, quoted-printable in the raw message)
    assert any(n.endswith("-press-lannister") for n in handled.mails)
