"""The mail body as lines, shared by every game's grammar (adjudicator/mailbody.py)."""

from __future__ import annotations

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
