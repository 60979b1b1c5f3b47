"""The mail commands at njudge/DPjudge parity (issue 17), mails in and mails out through the
Postmaster, in English and Czech: LIST, OBSERVE/UNOBSERVE and TAKEOVER without a sign-on;
SET PASSWORD, SET ABSENCE, HISTORY, PRESS GM and DRAW in a signed-on mail; each with a wrong use
that gets a clear error and a valid example."""

from __future__ import annotations

import os
import re
import time

import pytest

from adjudicator import reports, seats
from adjudicator.judge import Judge
from adjudicator.ruleset import OBSERVER

from conftest import FakeClock
from i18nhelp import untranslated
from mailhelp import JUDGE, make_desk, raw_mail


def _open(desk, body: str, sender: str = "zed@example.org", n: int = 1):
    """A mail without a sign-on from ``sender``; (handled, {name: text} of what it queued)."""
    handled = desk.mail(raw_mail(body, sender=sender, message_id=f"<open{n}-{body[:6]}@example.org>"), mail_from=sender)
    return handled, {name: desk.outbox_text(name) for name in handled.mails}


def _signed(desk, player: str, body: str, **kw):
    handled = desk.signed(player, body, **kw)
    return handled, {name: desk.outbox_text(name) for name in handled.mails}


def _observe(desk, game: str = "g", sender: str = "zed@example.org", word: str = "OBSERVE", n: int = 1):
    """OBSERVE ``game``, then the line with the code its answer mailed: (handled, mails) of the second."""
    handled, mails = _open(desk, f"{word} {game}", sender=sender, n=n)
    assert handled.status == "observe-asked"
    line = re.search(rf"^    ({word} {game} \S+)$", _reply(mails), re.M).group(1)
    return _open(desk, line, sender=sender, n=n + 1)


def _reply(mails: dict) -> str:
    (text,) = [t for n, t in mails.items() if n.endswith("-reply")]
    return text


def _czech(text: str, namespaces: tuple[str, ...] = ()) -> None:
    """No English in a Czech mail but its X-Judge line, addresses and the command words, which HELP
    gives in both languages on purpose (NÁPOVĚDA | HELP)."""
    text = re.sub(r"(?m)^X-Judge: .*$|\S+@\S+|\b[A-Z?]{2,}\b", "", text)
    text = re.sub(r"round \d+, \w+|\bbid\b", "", text)  # the toy ruleset speaks English only
    assert untranslated(text, "cs", namespaces) == [], untranslated(text, "cs", namespaces)


# -- LIST ---------------------------------------------------------------------------------------


def test_list_names_every_game_with_its_open_houses_in_english_and_czech(tmp_path):
    desk = make_desk(tmp_path)
    seats.abandon(desk.judge, "g", "carol")
    handled, mails = _open(desk, "Hi judge,\nLIST")  # a greeting may come first
    assert handled.status == "list"
    text = _reply(mails)
    assert f"Games on the judge {JUDGE}:" in text
    assert "  g (toy, 3 players, running): round 1, bid; open for takeover: Carol" in text
    assert "TAKEOVER westeros1 greyjoy" in text and "OBSERVE westeros1" in text
    handled, mails = _open(desk, "SEZNAM", n=2)
    text = _reply(mails)
    assert "  g (toy, hráčů: 3, běží): round 1, bid; volné k převzetí: Carol" in text and "PŘEVEZMI" in text
    _czech(text)
    # wrong use: a word too many
    # a mail without a sign-on or any of these commands is told of them
    handled, mails = _open(desk, "What games are there?", n=6)
    assert handled.status == "no-sign-on" and "LIST as the first line of a mail lists the games" in _reply(mails)
    assert "SEZNAM jako první řádek mailu vypíše hry" in _reply(mails)
    handled, mails = _open(desk, "LIST everything", n=3)
    text = _reply(mails)
    assert handled.status == "open-refused"
    assert "The command LIST is incomplete or has words too many." in text and "    LIST\n" in text
    assert "Nothing was changed." in text


# -- OBSERVE ------------------------------------------------------------------------------------


def test_an_observer_gets_reports_of_the_public_view_only_and_can_stop(tmp_path):
    desk = make_desk(tmp_path)
    handled, mails = _observe(desk)
    assert handled.status == "observe"
    text = _reply(mails)
    assert "You now follow game g as an observer" in text and "UNOBSERVE g stops it." in text
    assert "Game g (toy), version 1: round 1, bid" in text  # the public status
    assert seats.observers(desk.judge.present("g").config) == {"zed@example.org": {"language": "en", "since": 1}}
    _signed(desk, "alice", "BID 4")
    handled, _ = _signed(desk, "bob", "BID 2")
    assert not [n for n in handled.mails if n.startswith("observe-")]  # a bid is in, the phase goes on
    handled, _ = _signed(desk, "carol", "BID 1")
    (name,) = [n for n in handled.mails if n.startswith("observe-")]
    report = desk.outbox_text(name)
    assert desk.outbox_message(name)["To"] == "zed@example.org"
    assert "Game g: report for observers, versions 2-3" in report and "What an observer sees:" in report
    assert "Bids: alice 4, bob 2, carol 1" in report  # public once revealed
    assert "You follow this game as an observer; UNOBSERVE g stops these reports." in report
    assert reports.parse_header(report)["player"] == "#observer"
    # the public view: a bid not revealed yet is nobody's business but its bidder's
    _signed(desk, "alice", "BID 5")
    view = desk.judge.present("g").ruleset.view(desk.judge.present("g").state, OBSERVER)
    assert view["bids"] == {}
    handled, mails = _open(desk, "UNOBSERVE g", n=3)
    assert "You no longer follow game g." in _reply(mails)
    assert seats.observers(desk.judge.present("g").config) == {}
    _signed(desk, "bob", "BID 1")
    handled, _ = _signed(desk, "carol", "BID 1")
    assert not [n for n in handled.mails if n.startswith("observe-")]


def test_observe_in_czech_and_its_wrong_uses(tmp_path):
    desk = make_desk(tmp_path)
    handled, mails = _open(desk, "SLEDUJ g", n=10)
    text = _reply(mails)
    assert "Chcete-li sledovat hru g jako pozorovatel" in text and "do 48 hodin" in text
    _czech(text)
    handled, mails = _observe(desk, word="SLEDUJ")
    text = _reply(mails)
    assert "Hru g teď sledujete jako pozorovatel" in text and "NESLEDUJ g sledování zastaví." in text
    _czech(text)
    handled, mails = _open(desk, "OBSERVE nosuchgame", n=2)
    assert handled.status == "open-refused"
    assert "There is no game nosuchgame on this judge." in _reply(mails) and "LIST as the first line" in _reply(mails)
    handled, mails = _open(desk, "OBSERVE", n=3)
    assert "The command OBSERVE is incomplete" in _reply(mails) and "    OBSERVE westeros1" in _reply(mails)
    handled, mails = _open(desk, "NESLEDUJ", n=4)
    assert "Příkaz NESLEDUJ je neúplný" in _reply(mails) and "    NESLEDUJ westeros1" in _reply(mails)
    seats.set_game(desk.judge, "g", observing=False)
    handled, mails = _open(desk, "OBSERVE g", sender="yves@example.org", n=5)
    assert "Game g takes no observers" in _reply(mails) and handled.status == "open-refused"


def test_observe_is_a_double_opt_in_so_a_forged_from_subscribes_nobody(tmp_path):
    """OBSERVE with someone else's address as From (free to forge) used to subscribe that address to
    every phase's report. Now it mails that address a code and nothing of the game; only the line
    with the code, from that address, within 48 hours (the judge's clock) subscribes it."""
    desk = make_desk(tmp_path, max_observers=2)
    handled, mails = _open(desk, "OBSERVE g", sender="victim@example.org")
    assert handled.status == "observe-asked" and list(mails) == handled.mails
    text = _reply(mails)
    assert desk.outbox_message(handled.mails[0])["To"] == "victim@example.org"
    assert "Game g (toy)" not in text and "round 1" not in text and "If you did not ask for this" in text
    assert seats.observers(desk.judge.present("g").config) == {}
    victims_code = re.search(r"OBSERVE g (\S+)$", text, re.M).group(1)
    # the forger asks with its own address, then forges the victim's From with its own code
    handled, mails = _open(desk, "OBSERVE g", sender="forger@evil.example", n=2)
    forgers_code = re.search(r"OBSERVE g (\S+)$", _reply(mails), re.M).group(1)
    handled, mails = _open(desk, f"OBSERVE g {forgers_code}", sender="victim@example.org", n=3)
    assert handled.status == "open-refused"
    assert f"The confirmation code {forgers_code} for game g is wrong or has expired" in _reply(mails)
    assert "OBSERVE g as the first line of a mail sends you a new one." in _reply(mails)
    _open(desk, "OBSERVE g 1c88f10-000000000000", sender="victim@example.org", n=4)
    assert seats.observers(desk.judge.present("g").config) == {}
    _signed(desk, "alice", "BID 4")
    _signed(desk, "bob", "BID 2")
    handled, _ = _signed(desk, "carol", "BID 1")  # a phase ends: nobody is reported to as an observer
    assert not [n for n in handled.mails if n.startswith("observe-")]
    # a code holds 48 hours
    desk.clock.advance(hours=48, minutes=1)
    handled, mails = _open(desk, f"OBSERVE g {victims_code}", sender="victim@example.org", n=5)
    assert handled.status == "open-refused" and "wrong or has expired" in _reply(mails)
    handled, mails = _open(desk, "OBSERVE g", sender="victim@example.org", n=6)
    fresh = re.search(r"OBSERVE g (\S+)$", _reply(mails), re.M).group(1)
    desk.clock.advance(hours=47)
    assert _open(desk, f"OBSERVE g {fresh.upper()}", sender="victim@example.org", n=7)[0].status == "observe"
    assert list(seats.observers(desk.judge.present("g").config)) == ["victim@example.org"]


def test_a_game_takes_at_most_max_observers(tmp_path):
    desk = make_desk(tmp_path, max_observers=2)
    assert _observe(desk, sender="one@example.org")[0].status == "observe"
    handled, mails = _open(desk, "OBSERVE g", sender="two@example.org", n=3)
    line = re.search(r"^    (OBSERVE g \S+)$", _reply(mails), re.M).group(1)
    handled, mails = _open(desk, "OBSERVE g", sender="three@example.org", n=4)  # asked before the cap is reached
    late = re.search(r"^    (OBSERVE g \S+)$", _reply(mails), re.M).group(1)
    assert _open(desk, line, sender="two@example.org", n=5)[0].status == "observe"
    handled, mails = _open(desk, late, sender="three@example.org", n=6)
    assert handled.status == "open-refused"
    assert "Game g already has the most observers the judge takes for a game (2). Nothing was changed." in _reply(mails)
    handled, mails = _open(desk, "SLEDUJ g", sender="four@example.org", n=7)
    assert handled.status == "open-refused" and "Hra g už má nejvíc pozorovatelů" in _reply(mails)
    _czech(_reply(mails))
    assert sorted(seats.observers(desk.judge.present("g").config)) == ["one@example.org", "two@example.org"]
    assert _observe(desk, sender="one@example.org", n=8)[0].status == "observe"  # one already in: not refused


# -- TAKEOVER -----------------------------------------------------------------------------------


def test_takeover_of_an_abandoned_house_mails_a_new_password_and_only_once(tmp_path):
    desk = make_desk(tmp_path, gm="gm@example.org")
    handled, mails = _open(desk, "TAKEOVER g carol", sender="newbie@example.org")
    assert handled.status == "open-refused"
    assert "Carol in game g is not open for takeover. No house of this game is open" in _reply(mails)
    assert seats.abandon(desk.judge, "g", "carol")
    handled, mails = _open(desk, "PŘEVEZMI g carol", sender="newbie@example.org", n=2)
    assert handled.status == "takeover"
    text = _reply(mails)
    assert "Přebíráte rod Carol ve hře g." in text
    _czech(text)
    (welcome,) = [t for n, t in mails.items() if n.startswith("welcome-")]
    password = re.search(r"Vaše heslo je (\S+)", welcome).group(1)
    assert "Přebíráte rod Carol ve hře g" in welcome
    assert any(n.startswith("gm-takeover-g-") for n in desk.postmaster.outbox.pending())
    seat = desk.judge.present("g").config["players"]["carol"]
    assert seat["address"] == "newbie@example.org" and seat["language"] == "cs" and "abandoned" not in seat
    assert desk.journal()[-1]["kind"] == "replace"
    told = desk.postmaster.sweep()  # the other players learn that Carol has a new player, in their language
    assert sorted(n.rsplit("-", 1)[1] for n in told if n.startswith("notice-")) == ["alice", "bob"]
    # the old password is dead, the new one plays
    assert desk.signed("carol", "BID 1", sender="newbie@example.org").status == "wrong-password"
    assert desk.signed("carol", "BID 1", sender="newbie@example.org", password=password).status == "submitted"
    # nobody takes it again, and a house that does not exist is named as such
    handled, mails = _open(desk, "TAKEOVER g carol", sender="late@example.org", n=3)
    assert "Carol in game g is not open for takeover." in _reply(mails)
    handled, mails = _open(desk, "TAKEOVER g dave", sender="late@example.org", n=4)
    assert "Game g has no house dave. Its houses are: alice, bob, carol." in _reply(mails)
    handled, mails = _open(desk, "TAKEOVER g", sender="late@example.org", n=5)
    assert "    TAKEOVER westeros1 greyjoy" in _reply(mails)


# -- SET PASSWORD -------------------------------------------------------------------------------


def test_set_password_changes_it_without_ever_showing_or_journaling_it(tmp_path):
    desk = make_desk(tmp_path)
    handled, mails = _signed(desk, "alice", "SET PASSWORD short\nSET PASSWORD two words")
    text = _reply(mails)
    assert "REJECTED SET PASSWORD ********\n              a password has at least 8 characters" in text
    assert "SET PASSWORD takes one word: your new password" in text and "example: SET PASSWORD stone-heath-2931" in text
    assert "short" not in text and "two words" not in text
    handled, mails = _signed(desk, "alice", "SET PASSWORD Winter-is-coming-7\nBID 2")
    text = _reply(mails)
    assert "  2  ok       SET PASSWORD ********" in text and "Your password is changed" in text
    assert "Winter-is-coming-7" not in text
    assert all("Winter-is-coming-7" not in str(entry) for entry in desk.journal())
    assert "Winter-is-coming-7" not in (desk.data / "g" / "game.yaml").read_text()
    assert desk.signed("alice", "BID 3").status == "wrong-password"
    assert desk.signed("alice", "BID 3", password="Winter-is-coming-7").status == "submitted"
    # in Czech
    handled, mails = _signed(desk, "bob", "NASTAV HESLO krátké\nNASTAV HESLO dlouhé-heslo-99")
    text = _reply(mails)
    assert "ODMÍTNUTO NASTAV HESLO ********" in text and "heslo má aspoň 8 znaků" in text
    assert "příklad: NASTAV HESLO stone-heath-2931" in text and "  3  ok       NASTAV HESLO ********" in text
    assert "Heslo je změněno" in text
    _czech(text)


# -- SET ABSENCE --------------------------------------------------------------------------------


def test_an_absence_moves_a_deadline_that_falls_in_it_and_every_player_is_told(tmp_path):
    desk = make_desk(tmp_path)
    assert desk.judge.present("g").deadline().isoformat() == "2026-11-23T12:00:00+00:00"
    handled, mails = _signed(desk, "alice", "SET ABSENCE 2026-11-22 TO 2026-11-25")
    text = _reply(mails)
    assert "  2  ok       SET ABSENCE 2026-11-22 TO 2026-11-25" in text
    assert ("Your absence from Sun 22 Nov 2026 00:00 UTC to Thu 26 Nov 2026 00:00 UTC is recorded" in text
            and "The present deadline has been moved already." in text)
    assert desk.judge.present("g").deadline().isoformat() == "2026-11-26T00:00:00+00:00"
    entry = desk.journal()[-1]
    assert (entry["kind"], entry["reason"], entry["player"], entry["by"]) == ("extend", "absence", "alice", "2d12h")
    notices = {n: desk.outbox_text(n) for n in desk.postmaster.outbox.pending() if n.startswith("notice-")}
    assert len(notices) == 3
    (to_bob,) = [t for n, t in notices.items() if n.endswith("-bob")]
    assert "Termín hry g se prodlužuje o 2d12h kvůli nepřítomnosti hráče Alice (NASTAV NEPŘÍTOMNOST)." in to_bob
    (to_carol,) = [t for n, t in notices.items() if n.endswith("-carol")]
    assert "The deadline of game g waits 2d12h longer for Alice, who is away (SET ABSENCE)." in to_carol
    # the old deadline passes: nothing is adjudicated while alice is away and owes her bid
    desk.clock.advance(hours=60)
    assert desk.judge.tick().done == []
    desk.clock.advance(hours=50)  # past the end of her absence and the grace
    assert [g for g, _ in desk.judge.tick().done] == ["g"]


def test_a_new_step_inside_an_absence_waits_too_but_not_for_a_player_who_sent_everything(tmp_path):
    desk = make_desk(tmp_path)
    _signed(desk, "alice", "SET ABSENCE 2026-11-21 TO 2026-11-24\nBID 3")  # her bid is in: nothing waits
    assert desk.judge.present("g").deadline().isoformat() == "2026-11-23T12:00:00+00:00"
    desk.clock.advance(hours=49)
    assert [g for g, _ in desk.judge.tick().done] == ["g"]


def test_a_step_that_begins_while_its_player_is_away_gets_its_deadline_moved_at_once(tmp_path):
    desk = make_desk(tmp_path)
    _signed(desk, "bob", "NASTAV NEPŘÍTOMNOST 2026-11-22 DO 2026-11-24\nBID 2")  # his bid is in: nothing moves yet
    assert desk.judge.present("g").deadline().isoformat() == "2026-11-23T12:00:00+00:00"
    _signed(desk, "alice", "BID 1")
    handled, _ = _signed(desk, "carol", "BID 1")  # round 2 begins, bob owes his bid and is away
    assert desk.judge.present("g").deadline().isoformat() == "2026-11-24T23:00:00+00:00"  # midnight in Prague
    (report,) = [desk.outbox_text(n) for n in handled.mails if n.startswith("report-") and n.endswith("-carol")]
    assert "Deadline: Tue 24 Nov 2026 23:00 UTC" in report  # the report already has the new deadline
    assert any(n.startswith("notice-") and n.endswith("-alice") for n in handled.mails)


def test_absence_errors_and_the_cap_in_english_and_czech(tmp_path):
    desk = make_desk(tmp_path)
    handled, mails = _signed(desk, "alice", "SET ABSENCE tomorrow\nSET ABSENCE 2026-12-05 TO 2026-12-01\n"
                                            "SET ABSENCE 2026-13-01 TO 2026-12-02")
    text = _reply(mails)
    assert "write SET ABSENCE <first day> TO <last day>" in text and "the absence ends before it begins" in text
    assert "2026-13-01 is not a day; write it as 2026-12-01 or 1.12.2026" in text
    assert text.count("example: SET ABSENCE 2026-12-01 TO 2026-12-07") == 3
    handled, mails = _signed(desk, "alice", "SET ABSENCE 2026-12-01 TO 2026-12-20")  # 20 days > 14
    assert ("Your absence was not recorded: this game allows each player 14 days of absence; you have 14 days left "
            "and asked for 20.") in _reply(mails)
    handled, mails = _signed(desk, "alice", "SET ABSENCE 2026-11-01 TO 2026-11-02")
    assert "Your absence was not recorded: it is over already." in _reply(mails)
    handled, mails = _signed(desk, "bob", "NASTAV NEPŘÍTOMNOST 1.12.2026 DO 10.12.2026")
    text = _reply(mails)
    assert "  2  ok       NASTAV NEPŘÍTOMNOST 2026-12-01 DO 2026-12-10" in text
    assert "Nepřítomnost od út 1. 12. 2026 00:00 SEČ do pá 11. 12. 2026 00:00 SEČ je zaznamenána" in text
    _czech(text)
    handled, mails = _signed(desk, "bob", "NASTAV NEPŘÍTOMNOST 20.12.2026 DO 31.12.2026")
    assert "zbývá vám 4 dny a žádáte 12" in _reply(mails)
    handled, mails = _signed(desk, "alice", "SET ABSENCE NONE")
    assert "  2  ok       SET ABSENCE NONE" in _reply(mails) and "You had no absence still to come." in _reply(mails)
    seats.set_game(desk.judge, "g", absence_cap=0)
    handled, mails = _signed(desk, "carol", "SET ABSENCE 2026-12-01 TO 2026-12-02")
    assert "this game allows no absences" in _reply(mails)
    assert [a for a in desk.judge.present("g").config["players"]["bob"]["absences"]] == [
        {"from": "2026-11-30T23:00:00Z", "to": "2026-12-10T23:00:00Z"}]
    handled, mails = _signed(desk, "bob", "NASTAV NEPŘÍTOMNOST žádná")
    text = _reply(mails)
    assert "  2  ok       NASTAV NEPŘÍTOMNOST ŽÁDNÁ" in text and "Vaše nadcházející nepřítomnosti jsou zrušeny (1)" in text
    assert desk.judge.present("g").config["players"]["bob"]["absences"] == []


# -- HISTORY ------------------------------------------------------------------------------------


def test_history_mails_past_rounds_from_the_player_s_view(tmp_path):
    desk = make_desk(tmp_path)
    for player, bid in (("alice", 4), ("bob", 2), ("carol", 1)):
        _signed(desk, player, f"BID {bid}")
    _signed(desk, "alice", "BID 5")  # round 2: only alice's bid is in
    handled, mails = _signed(desk, "bob", "HISTORY 1\nHISTORY 2\nHISTORY 9")
    text = _reply(mails)
    assert "  2  ok       HISTORIE 1" in text and "Historie 1. kola vám přijde v samostatném mailu." in text
    assert "Žádná verze této hry není v 9. kole: historie nebyla poslána." in text
    (history, second) = [t for n, t in mails.items() if "-history-" in n]  # one mail per round asked
    assert "Hra g: historie pro hráče bob, 1. kolo, verze 1-2" in history
    assert "Hra g: historie pro hráče bob, 2. kolo, verze 3" in second
    assert "Verze 2: round 1, score\n  Bids: alice 4, bob 2, carol 1" in history
    assert reports.parse_header(history)["kind"] == "history"
    handled, mails = _signed(desk, "carol", "HISTORY")
    (history,) = [t for n, t in mails.items() if n.endswith("-history-all")]
    assert "Game g: history for carol, versions 1-3" in history and "alice: 5" not in history  # a secret bid
    assert "bids: {}" in history
    handled, mails = _signed(desk, "carol", "HISTORY last")
    assert "HISTORY takes the number of a round, not last" in _reply(mails) and "example: HISTORY 2" in _reply(mails)



def test_history_reads_each_version_once_and_again_only_when_its_file_changed(tmp_path, monkeypatch):
    """A long game's HISTORY under the inbox lock: versions already digested come from
    cache/history-<game>.json; only the last one shown is read whole (its board)."""
    from adjudicator.store import GameFiles
    desk = make_desk(tmp_path)
    for player, bid in (("alice", 4), ("bob", 2), ("carol", 1)):
        _signed(desk, player, f"BID {bid}")
    states = desk.judge.store.open("g").path / "states"
    old = time.time() - 60  # older than the stamps' racy window (gameindex.RACY_NS)
    for path in states.iterdir():
        os.utime(path, (old, old))
    reads = []
    real = GameFiles.read_version
    monkeypatch.setattr(GameFiles, "read_version", lambda files, n: reads.append(n) or real(files, n))
    _, first = _signed(desk, "carol", "HISTORY")
    assert reads.count(1) == reads.count(2) == 1 and 3 in reads  # digested once each; the last read whole
    reads.clear()
    _, again = _signed(desk, "carol", "HISTORY")
    assert 1 not in reads and 2 not in reads and 3 in reads
    assert [t for n, t in first.items() if "-history-" in n] == [t for n, t in again.items() if "-history-" in n]
    # a hand repair of version 2 (a new file, an atomic rename) is digested anew
    path = states / "000002.yaml"
    (states / "repair.tmp").write_text(path.read_text())
    os.utime(states / "repair.tmp", (old, old))
    os.replace(states / "repair.tmp", path)
    reads.clear()
    _signed(desk, "carol", "HISTORY")
    assert 1 not in reads and reads.count(2) == 1


# -- PRESS GM -----------------------------------------------------------------------------------


def test_press_to_the_gm_goes_to_the_gm_only(tmp_path):
    desk = make_desk(tmp_path, gm="gm@example.org")
    handled, mails = _signed(desk, "bob", "ZPRÁVA GM: Příští týden jsem pryč.\nBID 1")
    text = _reply(mails)
    assert "Vaše zpráva byla předána správci hry (jen jemu)." in text and "  2  ok       ZPRÁVA GM: Příští týden" in text
    (name,) = [n for n in handled.mails if n.startswith("gm-")]
    message = desk.outbox_message(name)
    assert message["To"] == "gm@example.org" and message["Reply-To"] == "bob@example.org"
    assert "Příští týden jsem pryč." in desk.outbox_text(name)
    assert not [n for n in handled.mails if "-press-" in n and not n.startswith("gm-")]  # no player gets it
    handled, mails = _signed(desk, "alice", "PRESS GM:")
    assert "PRESS GM: needs your message after the colon" in _reply(mails)
    nogm = make_desk(tmp_path / "nogm")
    handled, mails = _signed(nogm, "alice", "PRESS GM: hello")
    assert "This judge knows no address of a game master" in _reply(mails)


def test_press_to_the_gm_is_one_line_however_it_is_separated(tmp_path):
    """A Unicode line separator in a PRESS GM line (as in a PRESS line) makes no lines of the GM's mail."""
    desk = make_desk(tmp_path, gm="gm@example.org")
    handled, _ = _signed(desk, "bob", "PRESS GM: away next week.\u2028From: the GM\u2029all agreed")
    (name,) = [n for n in handled.mails if n.startswith("gm-")]
    assert "away next week. From: the GM all agreed" in desk.outbox_text(name)
    assert not any(line.strip().startswith("From: the GM") for line in desk.outbox_text(name).splitlines())


# -- DRAW ---------------------------------------------------------------------------------------


def test_a_draw_passes_when_every_surviving_player_votes_and_votes_stay_secret(tmp_path):
    desk = make_desk(tmp_path)
    handled, mails = _signed(desk, "alice", "DRAW")
    assert "Your vote for a draw is recorded. Votes are secret" in _reply(mails)
    handled, mails = _signed(desk, "bob", "REMÍZA")
    text = _reply(mails)
    assert "Váš hlas pro remízu je zaznamenán." in text
    _czech(text)
    handled, mails = _signed(desk, "carol", "DRAW maybe")
    assert "DRAW takes nothing (a vote for a draw) or NO (withdrawing it), not maybe" in _reply(mails)
    handled, mails = _signed(desk, "alice", "DRAW NO")
    assert "You do not vote for a draw (any more)." in _reply(mails)
    handled, mails = _signed(desk, "carol", "DRAW")  # alice withdrew: no draw yet
    assert "recorded" in _reply(mails) and "Yours was the last" not in _reply(mails)
    assert "alice" not in _reply(mails).split("Note:")[1].split("\n")[0]  # nobody learns who voted
    handled, mails = _signed(desk, "alice", "DRAW")
    assert "Yours was the last vote missing" in _reply(mails)
    present = desk.judge.present("g")
    assert present.ruleset.result(present.state) == "draw"
    reported = [desk.outbox_text(n) for n in handled.mails if n.startswith("report-")]
    assert len(reported) == 3 and all("the game ends in a draw shared by Alice, Bob, Carol" in r or
                                      "o výsledek se dělí Alice, Bob, Carol" in r for r in reported)
    assert desk.judge.replay("g") == []  # the draw is a journal entry like any other input
    handled, mails = _signed(desk, "bob", "REMÍZA")
    assert "Hra skončila: o remíze už se nehlasuje." in _reply(mails)


def test_agot1e_knows_no_shared_result_so_draw_is_refused(tmp_path):
    from conftest import FakeClock
    from adjudicator.mail.process import Postmaster
    from adjudicator.mail.settings import MailSettings
    from adjudicator.store import Store

    judge = Judge(Store(tmp_path / "data", fsync=False), now=FakeClock())
    houses = {"stark": "en", "lannister": "cs", "baratheon": "en"}
    passwords = judge.new_game("w", "agot1e", {h: {"address": f"{h}@example.org", "language": lang}
                                               for h, lang in houses.items()}, seed=3)
    postmaster = Postmaster(judge, MailSettings(JUDGE))
    number = postmaster.receive(raw_mail(f"JUDGE w lannister {passwords['lannister']}\nREMÍZA\nHELP",
                                         sender="lannister@example.org"), mail_from="lannister@example.org")
    handled = postmaster.process(number)
    text = [postmaster.outbox.root / f"{n}.eml" for n in handled.mails if n.endswith("-reply")][0].read_bytes().decode()
    import email
    import email.policy
    text = email.message_from_string(text, policy=email.policy.default).get_content()
    assert "Pravidla této hry (agot1e) sdílený výsledek neznají: o remíze se hlasovat nedá." in text
    assert "(hlas o remíze: v této hře ne, její pravidla sdílený výsledek neznají)" in text  # HELP says so
    assert "draw" not in (judge.store.open("w").path / "game.yaml").read_text()
    _czech(text, ("agot",))


# -- HELP ---------------------------------------------------------------------------------------


def test_help_lists_every_new_command_in_english_and_czech(tmp_path):
    desk = make_desk(tmp_path)
    present = desk.judge.present("g")
    en = reports.render_help(present, "alice", "en")
    for line in ("SET PASSWORD <new>", "SET ABSENCE <from> TO <to>", "at most 14 days in this game",
                 "HISTORY [round]", "PRESS GM: <text>", "DRAW | DRAW NO", "vote for a draw", "LIST ",
                 "OBSERVE <game>", "UNOBSERVE <game>", "TAKEOVER <game> <house>"):
        assert line in en, line
    cs = reports.render_help(present, "bob", "cs")
    for line in ("NASTAV HESLO <nové>", "NASTAV NEPŘÍTOMNOST <od> DO <do>", "nejvýš 14 dní", "HISTORIE [kolo]",
                 "ZPRÁVA GM: <text>", "REMÍZA | REMÍZA NE", "SEZNAM ", "SLEDUJ <hra>",
                 "NESLEDUJ <hra>", "PŘEVEZMI <hra> <rod>"):
        assert line in cs, line
    _czech(cs)


# -- the GM's side ------------------------------------------------------------------------------


def test_gm_commands_abandon_set_and_observers(cli, tmp_path):
    made = cli("new", "g", "--ruleset", "toy", "--player", "ann=ann@example.org", "--player", "ben=ben@example.org",
               "--absence-cap", "5", "--no-observers", "--no-mail")
    assert made.exit_code == 0, made.output
    config = (tmp_path / "data" / "g" / "game.yaml").read_text()
    assert "absence_cap: 5" in config and "observing: false" in config
    done = cli("abandon", "g", "ben")
    assert done.exit_code == 0 and "g: ben is open for takeover" in done.output
    assert "already was" in cli("abandon", "g", "ben").output
    assert "no longer open" in cli("abandon", "g", "ben", "--undo").output
    wrong = cli("abandon", "g", "zoe")
    assert wrong.exit_code == 1 and "game g has no player 'zoe' (players: ann, ben)" in wrong.output
    done = cli("set", "g", "--absence-cap", "10", "--observers")
    assert done.exit_code == 0 and "absence_cap 10, observing True" in done.output
    assert cli("set", "g").exit_code == 2
    assert "Nobody observes g." in cli("observers", "g").output
    judge = Judge(__import__("adjudicator.store").store.Store(tmp_path / "data"), now=FakeClock())  # as `cli`
    seats.observe(judge, "g", "zed@example.org", "cs")
    assert "zed@example.org (cs)" in cli("observers", "g").output
    assert "no longer observes" in cli("observers", "g", "--remove", "zed@example.org").output
    wrong = cli("observers", "g", "--remove", "zed@example.org")
    assert wrong.exit_code == 1 and "does not observe g" in wrong.output


# -- an observer in every ruleset -----------------------------------------------------------------


@pytest.mark.parametrize("name", ["agot1e", "oriflamme", "claim", "claim2", "agotccg"])
def test_every_ruleset_draws_an_observer_s_report_from_a_view_without_hands_or_plans(name, tmp_path):
    from conftest import FakeClock
    from adjudicator import ruleset as rulesets
    from adjudicator.selfplay import play
    from adjudicator.store import Store

    ruleset = rulesets.get(name)
    players = ruleset.default_players(3 if name in ("agot1e", "oriflamme") else 2)
    judge = Judge(Store(tmp_path / "data", fsync=False), now=FakeClock())
    judge.new_game("x", name, {p: {"address": f"{p}@example.org"} for p in players}, seed=2)
    present = judge.present("x")
    for steps in (0, 6, 40, 5000):
        present.state = play(ruleset, players, 2, max_steps=steps).state
        view = ruleset.view(present.state, OBSERVER)
        for key in ("hands", "hand", "aside", "followers"):
            assert all(isinstance(v, int) for v in (view.get(key) or {}).values()), (steps, key)
        assert not any((view.get("plan") or {}).values())  # no plan is an observer's
        for language in ("en", "cs"):
            text = reports.render_report(present, OBSERVER, [], 1, language)
            assert ("report for observers" in text) if language == "en" else ("zpráva pro pozorovatele" in text)
            reports.picture_of(present, OBSERVER, language)  # drawn from the same view, or None


@pytest.mark.parametrize("name", ["oriflamme", "claim", "claim2"])
def test_the_rulesets_with_a_shared_result_end_in_an_agreed_draw(name, tmp_path):
    """Oriflamme (a tie is a shared victory) and Claim (a tie is a draw) take DRAW; the game then
    reads as a draw everywhere: result, summary, report, picture, invariants, replay."""
    from conftest import FakeClock
    from adjudicator.mail.process import Postmaster
    from adjudicator.mail.settings import MailSettings
    from adjudicator.store import Store

    from adjudicator import ruleset as rulesets

    judge = Judge(Store(tmp_path / "data", fsync=False), now=FakeClock())
    players = rulesets.get(name).default_players(3 if name == "oriflamme" else 2)
    languages = {p: "en" if i == 0 else "cs" for i, p in enumerate(players)}
    passwords = judge.new_game("x", name, {p: {"address": f"{p}@example.org", "language": languages[p]}
                                           for p in players}, seed=4)
    postmaster = Postmaster(judge, MailSettings(JUDGE))
    for n, player in enumerate(players):
        word = "DRAW" if languages[player] == "en" else "REMÍZA"
        number = postmaster.receive(raw_mail(f"JUDGE x {player} {passwords[player]}\n{word}",
                                             sender=f"{player}@example.org", message_id=f"<d{n}@example.org>"),
                                    mail_from=f"{player}@example.org")
        handled = postmaster.process(number)
    present = judge.present("x")
    assert present.ruleset.result(present.state) == "draw"
    assert present.ruleset.violations(present.state) == []
    assert present.owed() == [] and judge.replay("x") == []
    (report,) = [postmaster.outbox.root / f"{n}.eml" for n in handled.mails if n.endswith("-" + players[1])]
    import email
    import email.policy
    message = email.message_from_bytes(report.read_bytes(), policy=email.policy.default)
    text = message.get_body(preferencelist=("plain",)).get_content()
    assert "Všichni hráči ve hře hlasovali pro remízu: hra končí remízou, o výsledek se dělí" in text
    reports.picture_of(present, players[0], "en")


def test_commands_without_a_sign_on_count_against_the_sender_s_rate_limit(tmp_path):
    """LIST and OBSERVE need no password, so they are limited like any mail that plays no game."""
    desk = make_desk(tmp_path, rate_limit=2)
    assert _open(desk, "LIST", n=1)[0].status == "list"
    assert _open(desk, "OBSERVE g", n=2)[0].status == "observe-asked"
    handled, mails = _open(desk, "LIST", n=3)
    assert handled.status == "rate-limited" and "Games on the judge" not in "".join(mails.values())
    assert _open(desk, "LIST", sender="other@example.org", n=4)[0].status == "list"  # per sender
