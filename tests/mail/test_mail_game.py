"""A game of A Game of Thrones played by mail alone through ``judge serve`` (a real process, real
SMTP with smtplib), replies and reports read back from the Maildir; and ``judge demo``.

The server and the test's own judge run on the tests' clock (``conftest.START``): no deadline
falls due while the bots play, however slowly a loaded machine runs them, and every wait is for
the judge's progress (``MailClient``), never for a fixed time."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta

from adjudicator import clock, reports
from adjudicator.judge import Judge
from adjudicator.mail.demo import MailClient, play_by_mail
from adjudicator.store import Store

from conftest import START, FakeClock, subprocess_env
from mailhelp import HANG, JUDGE, ServerProcess, maildir_messages, text_of

HOUSES = {"stark": "en", "lannister": "cs", "baratheon": "en"}
EXTRAS = {"stark": "HELP", "lannister": "STATUS\nORDERS?",
          "baratheon": "PRESS Stark: Shall we share the Narrow Sea?\nPRESS ANON ALL: boo"}


def _house(message) -> str:
    return message["To"].addresses[0].addr_spec.split("@")[0]


def test_a_three_house_game_is_played_through_a_full_round_by_mail_alone(tmp_path):
    data = tmp_path / "data"
    judge = Judge(Store(data), now=FakeClock())  # the clock of the server below
    passwords = judge.new_game("w", "agot1e", {h: {"address": f"{h}@example.org", "language": lang}
                                               for h, lang in HOUSES.items()}, seed=5)
    addresses = {h: f"{h}@example.org" for h in HOUSES}
    server = ServerProcess(data)
    client = MailClient(server.host, server.port, data, judge_address=JUDGE, server=server.proc)
    try:
        played = play_by_mail(judge, client, "w", passwords, addresses, rounds=1, seed=5, extras=EXTRAS)
        assert played.forced == 0  # by mail alone: every step was answered by a mail
        assert judge.present("w").state["round"] == 2  # round 1 is over
        client.wait_delivered("w")
        round_one = len(client.message_ids)
        # Stark switches to Czech by mail, then the game goes on a few steps
        client.signed("w", "stark", passwords["stark"], addresses["stark"], "SET LANGUAGE cs", subject="jazyk")
        client.wait_processed()
        play_by_mail(judge, client, "w", passwords, addresses, rounds=2, seed=6, max_steps=3)
        client.wait_delivered("w")
    finally:
        client.close()
        code = server.stop()
    assert code == 0 and "Traceback" not in server.stderr(), server.stderr()[-3000:]

    mails = maildir_messages(data / "maildir")
    replies = {m["In-Reply-To"]: m for m in mails if m["In-Reply-To"]}
    assert set(replies) == set(client.message_ids)  # every mail got exactly one reply
    for message_id in client.message_ids:
        reply = text_of(replies[message_id])
        header = reports.parse_header(reply)
        assert header["game"] == "w" and header["kind"] == "reply" and header["player"] == _house(replies[message_id])
        assert "REJECTED" not in reply and "ODMÍTNUTO" not in reply, reply
        assert " ok       " in reply  # the canonical echo, line by line

    first = {h: text_of(replies[client.message_ids[i]]) for i, h in enumerate(HOUSES)}
    assert "  2  ok       ORDERS\n" in first["stark"] and "HELP: how to write to the judge" in first["stark"]
    assert "On file for stark:\n  ORDERS\n" in first["stark"]
    assert "Váš dopis řádek po řádku" in first["lannister"] and "STATUS, hra tak, jak ji vidíte vy:" in first["lannister"]
    assert "(ORDERS?: řádky výše jsou vše" in first["lannister"]
    assert "relayed to Stark" in first["baratheon"] and "NOT relayed (anonymous)" in first["baratheon"]
    press = [m for m in mails if "Press from Baratheon" in str(m["Subject"])]
    assert [_house(m) for m in press] == ["stark"] and "Shall we share the Narrow Sea?" in text_of(press[0])
    assert not [m for m in mails if "Anonymous" in str(m["Subject"])]

    deadlines = {clock.to_text(START + timedelta(hours=hours)) for hours in (24, 48)}  # a step's, a planning's
    reports_ = {h: sorted((m for m in mails if _house(m) == h and "kind=report" in str(m["X-Judge-State"])),
                          key=lambda m: int(reports.parse_header(text_of(m))["version"])) for h in HOUSES}
    for house, own in reports_.items():
        assert len(own) >= 3  # digests: when the house must act, and when a phase ends
        texts = [text_of(m) for m in own]
        for text, message in zip(texts, own):
            header = reports.parse_header(text)
            assert header["game"] == "w" and header["player"] == house and header["kind"] == "report"
            assert header["round"] in ("1", "2") and "/" in header["step"]
            assert header["deadline"] in deadlines  # every step began at START: the server is on the tests' clock
            assert message["X-Judge-State"] == text.splitlines()[0][len("X-Judge: "):]
        english = [t for t in texts if "What happened:" in t]
        czech = [t for t in texts if "Co se stalo" in t]
        if house == "lannister":
            assert czech and not english
            assert all("Stupnice vlivu" in t and "Mapa (území" in t and "Vaše karty rodu v ruce" in t for t in czech)
        elif house == "stark":
            assert english and czech  # Czech after SET LANGUAGE cs
            assert texts.index(czech[0]) > texts.index(english[-1])
        else:
            assert english and not czech
        for text in english:
            assert "Houses:" in text and "Tracks (first place first):" in text and "Board (areas" in text
            assert "Your house cards in hand" in text and "Wildlings:" in text
        assert any("Orders revealed:" in t or "Odhalené rozkazy:" in t for t in texts)  # the events, in the reader's language
        assert any("Round 1 ends." in t or "Kolo 1 končí." in t for t in texts)
    stark_reply = text_of(replies[client.message_ids[round_one]])
    assert "  2  ok       NASTAV JAZYK cs" in stark_reply and "Rozhodčí vám odteď píše v jazyce čeština" in stark_reply


def test_judge_demo_then_judge_serve_serve_the_demo_game_as_the_readme_says(tmp_path):
    data = tmp_path / "judge-data"
    env = subprocess_env(tmp_path / "unused")
    env.pop("JUDGE_DATA")
    done = subprocess.run([sys.executable, "-m", "adjudicator", "demo", "--rounds", "1"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=HANG)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert f"mutt -f {data / 'maildir'}" in out and "Started judge serve on 127.0.0.1:" in out
    assert "judge serve      (SMTP on 127.0.0.1:2525 as judge@localhost" in out  # the default data directory
    mails = maildir_messages(data / "maildir")
    assert len(mails) > 20 and f"the Maildir holds {len(mails)} mails" in out
    assert {m["To"].addresses[0].addr_spec for m in mails} == {f"{h}@demo.example" for h in HOUSES}
    assert any("Anonymous press" in str(m["Subject"]) for m in mails)
    assert Judge(Store(data), now=FakeClock()).present("demo").state["round"] == 2
    passwords = dict(pair.split() for pair in out.rsplit("Passwords: ", 1)[1].strip().split(", "))

    # the README's next command: `judge serve` on the same data serves the demo game
    server = ServerProcess(data, address=None)  # as the README runs it: the address stored with the data
    try:
        client = MailClient(server.host, server.port, data, judge_address="judge@localhost", server=server.proc)
        client.signed("demo", "stark", passwords["stark"], "stark@demo.example", "ORDERS?", subject="still there?")
        client.close()
        reply = server.wait_for(lambda: next((m for m in maildir_messages(data / "maildir")
                                              if m["Subject"] == "Re: still there?"), None), "the reply to stark")
        assert "REJECTED" not in text_of(reply) and "game=demo" in text_of(reply)
    finally:
        assert server.stop() == 0

    # a second demo replaces the first demo's game and nothing else; a game `demo` it did not make stays
    (data / "keep").mkdir()
    again = subprocess.run([sys.executable, "-m", "adjudicator", "--data", str(data), "demo", "--rounds", "1"],
                           env=env, capture_output=True, text=True, timeout=HANG)
    assert again.returncode == 0, again.stderr
    assert (data / "keep").is_dir()
    other = tmp_path / "mine"
    Judge(Store(other), now=FakeClock()).new_game("demo", "toy", {"a": {"address": "a@x.org"}, "b": {"address": "b@x.org"}})
    refused = subprocess.run([sys.executable, "-m", "adjudicator", "--data", str(other), "demo"],
                             env=subprocess_env(tmp_path / "unused"), capture_output=True, text=True, timeout=HANG)
    assert refused.returncode == 1 and "that `judge demo` did not make" in refused.stderr
    assert Judge(Store(other), now=FakeClock()).present("demo").ruleset.name == "toy"
