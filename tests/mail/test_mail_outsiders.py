"""Mail from outsiders (no sign-on, an unknown game, an open command) must cost the judge little
however many games it runs: a flood of such mail from ever new addresses is free to send."""

from __future__ import annotations

import os
import time

from adjudicator import gameindex
from adjudicator.judge import Judge
from adjudicator.mail import envelope
from adjudicator.store import GameFiles, Store

from mailhelp import make_desk, raw_mail, text_of


def _more_games(desk, count: int) -> None:
    for i in range(count):
        seats = {"alice": {"address": f"a{i}@example.org"}, "bob": {"address": f"b{i}@example.org"},
                 "carol": {"address": "zed@example.org", "language": "cs"} if i == count - 1 else
                          {"address": f"c{i}@example.org"}}
        desk.judge.new_game(f"h{i:02d}", "toy", seats, seed=i)


class Looks:
    """How often the games' files were looked at: a game's config read, a game's files stamped."""

    def __init__(self, monkeypatch):
        self.configs = self.stamps = 0
        config, stamp = GameFiles.config, gameindex.stamp

        def counted_config(files):
            self.configs += 1
            return config(files)

        def counted_stamp(*args, **kw):
            self.stamps += 1
            return stamp(*args, **kw)

        monkeypatch.setattr(GameFiles, "config", counted_config)
        monkeypatch.setattr(gameindex, "stamp", counted_stamp)


def test_outsiders_mail_looks_at_each_game_at_most_once_a_batch(tmp_path, monkeypatch):
    """The language of an answer to mail that reached no game is that of a seat the sender holds
    anywhere: found from the games' glances made once per batch, not by reading every game's
    config for every mail (about 0.1 s a mail with 1,000 games)."""
    desk = make_desk(tmp_path)
    _more_games(desk, 20)
    postmaster = desk.postmaster
    postmaster.process(postmaster.receive(raw_mail("hello", sender="warm@up.example"), mail_from="warm@up.example"))
    senders = [f"x{i}@outside.example" for i in range(10)] + ["zed@example.org", "bob@example.org"]
    for sender in senders:
        postmaster.receive(raw_mail("hello, what is this?", sender=sender, message_id=f"<{sender}>"), mail_from=sender)
    looks = Looks(monkeypatch)
    handled = postmaster.process_pending()
    assert [h.status for h in handled] == ["no-sign-on"] * len(senders)
    assert looks.configs + looks.stamps <= 21  # each game once; before, every game's config for every mail
    answers = {h.sender: text_of(desk.outbox_message(h.mails[0])) for h in handled}
    for czech in ("zed@example.org", "bob@example.org"):  # a seat in game h19, in game g: Czech only
        assert "přihlašovací řádek" in answers[czech] and "sign-on" not in answers[czech]
    assert "přihlašovací řádek" in answers["x3@outside.example"] and "sign-on line" in answers["x3@outside.example"]


def test_outsiders_mail_one_at_a_time_looks_at_the_games_once_a_minute(tmp_path, monkeypatch):
    """`judge serve` processes mail as it comes, in batches of one: the address -> language map is
    kept across them (a stamp of every game per mail would be 40,000 `stat` calls with 10,000
    games) and made again when this process changed a game or a minute has passed on the judge's
    clock, so that a seat another process made is answered in its language by then."""
    desk = make_desk(tmp_path)
    _more_games(desk, 20)
    postmaster = desk.postmaster

    def one(sender: str, n: int) -> str:
        handled = postmaster.process(postmaster.receive(
            raw_mail("hello, what is this?", sender=sender, message_id=f"<{n}.{sender}>"), mail_from=sender))
        assert handled.status == "no-sign-on"
        return text_of(desk.outbox_message(handled.mails[0]))

    one("warm@up.example", 0)
    looks = Looks(monkeypatch)
    for n in range(12):
        one(f"x{n}@outside.example", n)
    assert looks.configs + looks.stamps == 0  # the map made for the first mail serves them all
    other = Judge(Store(desk.data), now=desk.clock)  # another process seats a Czech player
    other.new_game("late", "toy", {"alice": {"address": "new@example.org", "language": "cs"},
                                   "bob": {"address": "nb@example.org"}, "carol": {"address": "nc@example.org"}},
                   seed=3)
    assert "sign-on line" in one("new@example.org", 1)  # within the minute: every language
    desk.clock.advance(seconds=61)
    answer = one("new@example.org", 2)
    assert "přihlašovací řádek" in answer and "sign-on" not in answer


def _age(data, seconds: int = 3600) -> None:
    """Make every file of the data directory ``seconds`` old: the glances trust only stamps older
    than two seconds (``gameindex.RACY_NS``), and a judge's quiet games are."""
    then = time.time() - seconds
    for path in sorted(data.rglob("*"), key=lambda p: -len(p.parts)):
        os.utime(path, (then, then))


def test_list_by_mail_reads_no_quiet_game(tmp_path, monkeypatch):
    """LIST answers from the games' glances, as `judge list` does: a quiet game costs a few stat
    calls, not a read of its present (about 0.5 s a mail with 1,000 games); the answer is the same."""
    desk = make_desk(tmp_path)
    _more_games(desk, 20)
    postmaster = desk.postmaster
    _age(desk.data)
    first = postmaster.process(postmaster.receive(raw_mail("LIST", sender="l0@list.example"), mail_from="l0@list.example"))
    for i in range(1, 6):
        postmaster.receive(raw_mail("LIST", sender=f"l{i}@list.example", message_id=f"<l{i}>"), mail_from=f"l{i}@list.example")
    presents, present = [], Judge.present
    monkeypatch.setattr(Judge, "present", lambda judge, game, **kw: presents.append(game) or present(judge, game, **kw))
    looks = Looks(monkeypatch)
    handled = postmaster.process_pending()
    assert [h.status for h in handled] == ["list"] * 5
    assert presents == [] and looks.configs == 0  # before: every game's present for every LIST (105)
    answer = text_of(desk.outbox_message(first.mails[0]))
    assert "  h19 (toy, 3 players, running): round 1, bid\n" in answer
    assert all(text_of(desk.outbox_message(h.mails[0])) == answer for h in handled)


def _attachment_bomb(text: str, count: int, sender: str) -> bytes:
    """A mail of ``text`` and ``count`` tiny attachments (15,000 of them: 1.9 MB)."""
    parts = [f"--B\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{text}\r\n"]
    parts += [f'--B\r\nContent-Type: application/octet-stream; name="f{i:05d}.bin"\r\n'
              f'Content-Disposition: attachment; filename="f{i:05d}.bin"\r\n\r\nAAAA\r\n' for i in range(count)]
    return raw_mail("".join(parts) + "--B--\r\n", sender=sender, message_id=f"<bomb-{count}-{sender}>",
                    content_type='multipart/mixed; boundary="B"')


def test_a_mail_of_15000_attachments_gets_a_short_answer(tmp_path):
    """Without a sign-on, a 1.9 MB mail of 15,000 attachments got a 250 KB reply naming each (and
    seconds of parsing): now the first ten are named and the rest counted, in the reader's
    language, and only the first hundred MIME parts are parsed (``envelope.MAX_PARTS``)."""
    desk = make_desk(tmp_path)
    bomb = _attachment_bomb("hello", 15000, "x@evil.example")
    assert len(bomb) < 2_000_000
    handled = desk.mail(bomb, mail_from="x@evil.example")
    assert handled.status == "no-sign-on"
    text = desk.outbox_text(handled.mails[0])
    names = ", ".join(f"f{i:05d}.bin" for i in range(10))
    assert f"not attachments ({names} and 14990 more)." in text
    assert f"ne přílohy ({names} a 14990 dalších)." in text
    assert len(text) < 5000 and "f00010.bin" not in text
    czech = desk.mail(_attachment_bomb("hello", 12, "bob@example.org"), mail_from="bob@example.org")
    assert f"ne přílohy ({names} a 2 další)." in desk.outbox_text(czech.mails[0])
    signed = desk.mail(_attachment_bomb(f"JUDGE g alice {desk.passwords['alice']}\nBID 3", 150, "alice@example.org"),
                       mail_from="alice@example.org")
    assert signed.status == "submitted" and desk.judge.present("g").state["bids"] == {"alice": 3}
    reply = desk.outbox_text(next(n for n in signed.mails if n.endswith("-reply")))
    assert f"Attachments are not read ({names} and 140 more): the judge reads only the text of a mail." in reply


def test_lines_of_text_that_start_with_two_dashes_are_not_taken_for_mime_parts():
    text = "\r\n".join(f"--note {i}" for i in range(300))
    inbound = envelope.parse(_attachment_bomb(text, 3, "x@example.org"), own_address="judge@example.org")
    assert inbound.body.count("--note") == 300 and inbound.attachments == ("f00000.bin", "f00001.bin", "f00002.bin")
    assert inbound.parts_unread == 0
