"""The mail body as lines, shared by every game's grammar (adjudicator/mailbody.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.mailbody import FOLD_MIN_BYTES, line_problem, logical_lines, strip_accents


def test_line_ends_quotes_and_signatures():
    body = "ORDERS\r\nLannisport: march -1\r> quoted\nStoney Sept: raid\n-- \nsigned, Tywin\nBID 9"
    assert logical_lines(body) == [(1, "ORDERS"), (2, "Lannisport: march -1"), (4, "Stoney Sept: raid")]


def test_an_mta_break_is_joined_but_an_indented_order_is_not():
    long = "PRESS ALL: " + "x" * FOLD_MIN_BYTES
    assert logical_lines(f"{long}\r\n yz\r\nORDERS\r\n  Lannisport: raid") == [
        (1, long + "yz"), (2, "ORDERS"), (3, "  Lannisport: raid")]  # numbered as the player wrote them


def test_folded_words_and_what_is_not_text():
    assert strip_accents("Nájezd PĚŠÁK") == strip_accents("najezd pesak") == "najezd pesak"
    assert line_problem("BID 3", 100) is None
    assert line_problem("x" * 101, 100) == ("too_long", {"length": 101, "limit": 100})
    assert line_problem("BID \x00", 100) == ("unreadable", {"code": "U+0000"})
    assert line_problem("BID \ufffd", 100) == ("unreadable", {"code": "U+FFFD"})
    assert line_problem("BID\t3", 100) is None  # a tab is text


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.one_of(
    st.sampled_from(["SET LANGUAGE cs", "set timezone Europe/Prague", "  Nastav jazyk en", "ſet language cs", "ＳＥＴ REPORTS DIGEST",
                     "SET PASSWORD stone-heath-2931", "NASTAV HESLO x", "HISTORY 2", "Historie", "PRESS GM: hi", "Zpráva správce: ahoj",
                     "DRAW", "remíza ne", "ORDERS", "Winterfell: march -1", "> SET LANGUAGE cs", "-- ", "x" * 995, " set language cs"]),
    st.text(max_size=40)), max_size=8), st.sampled_from(["\n", "\r\n", "\r"]))
def test_the_service_readers_skip_a_mail_only_when_no_line_of_it_could_be_theirs(lines, end):
    """preferences and servicelines look at no line of a mail whose folded text has none of their
    first words (mailbody.may_start_with); what they find is what reading every line finds."""
    from adjudicator import mailbody
    from adjudicator.mail import preferences, servicelines

    text = end.join(lines)
    quick = preferences.preference_lines(text), servicelines.service_lines(text)
    saved, mailbody.may_start_with = mailbody.may_start_with, lambda text, words: True
    try:
        assert (preferences.preference_lines(text), servicelines.service_lines(text)) == quick
    finally:
        mailbody.may_start_with = saved
