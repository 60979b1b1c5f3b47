"""Mail the GM's commands cause: welcomes at ``judge new``/``replace``, notices of extend, pause,
resume, rollback and a seat changing hands, in each player's language."""

from __future__ import annotations

import email
import email.policy

from adjudicator.judge import Judge
from adjudicator.mail.outbox import Outbox
from adjudicator.mail.process import Postmaster
from adjudicator.mail.settings import MailSettings
from adjudicator.store import Store

from conftest import START


def queued(tmp_path) -> dict[str, object]:
    outbox = Outbox(tmp_path / "data", MailSettings())
    return {name: email.message_from_bytes((outbox.root / f"{name}.eml").read_bytes(), policy=email.policy.default)
            for name in outbox.pending()}


def body(message) -> str:
    return message.get_content().replace("\r\n", "\n")


def test_new_and_replace_mail_each_player_a_welcome_with_the_password_in_their_language(cli, tmp_path):
    made = cli("new", "w", "--ruleset", "toy", "--player", "ann=ann@example.org",
               "--player", "ben=ben@example.org:cs", "--seed", "1")
    assert made.exit_code == 0 and "2 welcome mails queued" in made.output
    passwords = dict(line.split()[0:3:2] for line in made.output.splitlines()[1:3])
    mails = queued(tmp_path)
    ann = next(m for n, m in mails.items() if n.endswith("-ann"))
    ben = next(m for n, m in mails.items() if n.endswith("-ben"))
    assert ann["To"] == "ann@example.org" and ann["Subject"] == "[w] Welcome: you play Ann"
    assert f"Your password is {passwords['ann']}" in body(ann) and f"JUDGE w ann {passwords['ann']}" in body(ann)
    assert ben["Subject"] == "[w] Vítejte: hrajete za rod Ben" and f"Vaše heslo je {passwords['ben']}" in body(ben)
    assert passwords["ann"] not in body(ben)  # each mail carries its own password only
    replaced = cli("replace", "w", "ben", "bea@example.org")
    new_password = replaced.output.split("new password: ")[1].split()[0]
    [bea] = [m for n, m in queued(tmp_path).items() if n not in mails]
    assert bea["To"] == "bea@example.org" and "Přebíráte rod Ben" in body(bea) and new_password in body(bea)
    # the other players are told the seat changed hands (never the address); the new player was welcomed
    told = Postmaster(Judge(Store(tmp_path / "data"), now=lambda: START), MailSettings()).sweep()
    assert [n for n in told if n.startswith("notice-")] == [n for n in told if n.endswith("-ann")]
    [note] = [m for n, m in queued(tmp_path).items() if n.startswith("notice-")]
    assert note["To"] == "ann@example.org" and note["Subject"] == "[w] A house has a new player"
    assert "Ben has a new player in game w: the seat changed hands" in body(note)
    assert "bea@example.org" not in body(note) and new_password not in body(note)
    assert cli("new", "x", "--ruleset", "toy", "--player", "a=a@x.org", "--player", "b=b@x.org",
               "--no-mail").exit_code == 0
    assert not [n for n in queued(tmp_path) if "-x-" in n]


def test_every_player_is_told_when_the_gm_extends_pauses_resumes_or_rolls_back(cli, tmp_path):
    cli("new", "w", "--ruleset", "toy", "--player", "ann=ann@example.org", "--player", "ben=ben@example.org:cs",
        "--no-mail")
    cli("submit", "w", "--as", "ann", input="BID 2\n")
    cli("submit", "w", "--as", "ben", input="BID 1\n")  # round 1 scored: versions 2 and 3
    for command in (("extend", "w", "24h"), ("pause", "w"), ("resume", "w"), ("rollback", "w", "--to", "1")):
        assert "Every player of w is told by mail" in cli(*command).output, command
    assert not [n for n in queued(tmp_path) if n.startswith("notice-")]  # the mail layer tells them, from the journal
    sweeper = Postmaster(Judge(Store(tmp_path / "data"), now=lambda: START), MailSettings())
    swept = sweeper.sweep()
    assert len([n for n in swept if n.startswith("notice-")]) == 8 and sweeper.sweep() == []  # each once, to each
    notices = {n: m for n, m in queued(tmp_path).items() if n.startswith("notice-")}
    assert len(notices) == 8
    texts = [body(m) for m in notices.values()]
    assert any("The GM extended the deadline of game w by 24h." in t for t in texts)
    assert any("Správce hry pozastavil hru w" in t for t in texts)
    rollback = next(body(m) for n, m in notices.items() if n.endswith("-ann") and "rolled" in body(m))
    assert "rolled game w back to version 1" in rollback
    assert "version 2: round 1, score" in rollback and "version 3: round 2, bid" in rollback  # what was undone
