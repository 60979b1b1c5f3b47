"""Replies, reports, reminders, press and the mail-level commands (in-process, fake clock).

Every template is rendered in both languages for a toy game and an agot1e game at several steps
(planning, the raven, mid-battle, the Westeros phase, game over) with StrictUndefined: a missing
value fails here, never as a blank in a player's mail.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from adjudicator import reports, yamlio
from adjudicator.judge import Judge
from adjudicator.mail.process import Postmaster
from adjudicator.mail.settings import MailSettings
from adjudicator.paths import TEMPLATES_DIR
from adjudicator.ruleset import LineResult, get
from adjudicator.rulesets.agot.context import ctx_of
from adjudicator.selfplay import play
from adjudicator.store import Store

from conftest import FakeClock
from mailhelp import JUDGE, desk, raw_mail, text_of  # noqa: F401  (desk is a fixture)

HOUSES = ["stark", "lannister", "baratheon"]


# ---------------------------------------------------------------------------------------
# Every template, both languages, both rulesets, several steps
# ---------------------------------------------------------------------------------------


def _agot_states() -> dict[str, dict]:
    rs = get("agot1e")
    return {
        "planning": rs.new_game(HOUSES, {}, 0),
        "raven": play(rs, HOUSES, 0, stop=lambda s: s["step"] == "raven").state,
        "mid-battle": play(rs, HOUSES, 0, stop=lambda s: s["step"] == "battle" and s["battle"]["stage"] == "casualties").state,
        "battle-supports": play(rs, HOUSES, 0, stop=lambda s: s["step"] == "battle").state,
        "westeros": play(rs, HOUSES, 0, stop=lambda s: s["phase"] == "westeros" and s["step"] == "bid").state,
        "game-over": play(rs, HOUSES, 0).state,
    }


def _toy_states(judge: Judge) -> dict[str, dict]:
    rs = get("toy")
    tied = rs.new_game(["alice", "bob", "carol"], {}, 7)
    tied.update(step="tiebreak", tied=["alice", "bob"], bids={"alice": 3, "bob": 3, "carol": 1})
    over = rs.new_game(["alice", "bob", "carol"], {}, 7)
    over.update(round=3, scores={"alice": 2, "bob": 0, "carol": 0})
    bid = rs.new_game(["alice", "bob", "carol"], {}, 7)
    bid["bids"] = {"alice": 3}
    return {"bid": bid, "tiebreak": tied, "game-over": over}


@pytest.fixture(scope="module")
def agot_states():
    return _agot_states()


def _game(tmp_path: Path, ruleset: str, players: list[str], press: str = "signed", **kw):
    judge = Judge(Store(tmp_path / "data", fsync=False), now=FakeClock())
    languages = kw.pop("languages", {})
    passwords = judge.new_game("w", ruleset, {p: {"address": f"{p}@example.org", "language": languages.get(p, "en")}
                                              for p in players}, seed=3, press=press)
    return judge, passwords


def _render_all(present, outcome, player: str, language: str) -> dict[str, str]:
    mail_lines = [LineResult(9, "SET LANGUAGE cs", canonical="SET LANGUAGE cs"),
                  LineResult(10, "SET LANGUAGE xx", error="unknown language 'xx'", example="SET LANGUAGE cs")]
    press = [{"to": "ALL", "anonymous": False, "relayed": ["Lannister", "Baratheon"], "problem": None},
             {"to": "Stark", "anonymous": True, "relayed": [], "problem": "no-anonymous"}]
    blocks = [{"anonymous": False, "text": "Winter is coming.\nSecond line.", "to": "ALL"}]
    return {
        "reply": reports.render_reply(outcome, present, player, language, mail_lines=mail_lines, press=press,
                                      language_set=language, via_mail=True),
        "report": reports.render_report(present, player, present.events, 1, language, now=FakeClock()()),
        "reminder": reports.render_reminder(present, player, language, now=FakeClock()()),
        "press": reports.render_press(present, player, "stark", blocks, language),
        "press-anon": reports.render_press(present, player, None, [{**blocks[0], "anonymous": True}], language),
        "help": reports.render_help(present, player, language, "orders"),
        "view": reports.render_view(present, player, present.ruleset.view(present.state, player), language),
        "view-gm": reports.render_view(present, None, present.ruleset.view(present.state, None), language),
        "status": reports.render_status(present, player, language),
    }


@pytest.mark.parametrize("language", reports.LANGUAGES)
def test_every_template_renders_for_agot1e_at_every_kind_of_step(tmp_path, agot_states, language):
    judge, _ = _game(tmp_path, "agot1e", HOUSES)
    outcome = judge.submit("w", "stark", "ORDERS\nWinterfell: march -1\nHELP\nSTATUS\nORDERS?\nPRESS ALL: hello")
    assert [r[0] for r in outcome.requests] == ["help", "status", "orders?", "press"]
    for step, state in agot_states.items():
        present = judge.present("w")
        present.state = state
        for player in HOUSES:
            texts = _render_all(present, outcome, player, language)
            for kind in ("reply", "report", "reminder", "press", "press-anon"):
                header = reports.parse_header(texts[kind])
                assert header and header["game"] == "w" and header["player"] == player and header["kind"] == kind.split("-")[0]
                assert header["round"] == str(state["round"]) and header["step"] == f"{state['phase']}/{state['step']}"
            board = texts["report"]
            ctx = ctx_of(state)
            assert all(ctx.card(c) in board for c in state["hands"][player])  # the player's own hand, by name
            if language == "cs":
                assert "Železný trůn" in board and "Stupnice vlivu" in board and "Vaše karty rodu" in board
                assert re.search(r"\d (pěšák|pěšáci|rytíř|rytíři|loď|lodě)", board), board
                assert "Zpráva od rodu Stark" in texts["press"] and "Anonymní zpráva" in texts["press-anon"]
            else:
                assert "Iron Throne:" in board and "Your house cards in hand" in board
                assert "Press from Stark" in texts["press"] and "Anonymous press" in texts["press-anon"]
            assert "Stark" not in texts["press-anon"].split("\n", 1)[1]
            if step == "mid-battle":
                assert ("Bitva o" if language == "cs" else "Battle at") + " " + ctx.area(state["battle"]["area"]) in board
                assert all(ctx.card(c) in board for c in state["battle"]["cards"].values())  # revealed: public
            if step == "westeros":
                assert ("Karty Westerosu" if language == "cs" else "Westeros cards this round") in board
            if step == "game-over":
                assert ("Hra skončila" if language == "cs" else "The game is over") in board
            assert "Winter is coming.\n  Second line." in texts["press"]


@pytest.mark.parametrize("language", reports.LANGUAGES)
def test_every_template_renders_for_the_toy_ruleset_with_the_generic_fallbacks(tmp_path, language):
    judge, _ = _game(tmp_path, "toy", ["alice", "bob", "carol"])
    outcome = judge.submit("w", "alice", "BID 3")
    for step, state in _toy_states(judge).items():
        present = judge.present("w")
        present.state = state
        texts = _render_all(present, outcome, "bob", language)
        assert ("Co vidí bob:" if language == "cs" else "What bob sees:") in texts["report"]
        assert "seed" not in texts["report"]
        if step == "bid":
            assert "alice: 3" not in texts["report"] and "alice: 3" in texts["view-gm"]  # the view hides the bid
        assert reports.parse_header(texts["report"])["step"] == state["step"]


def test_the_two_languages_have_the_same_templates():
    def names(language):
        root = TEMPLATES_DIR / language
        return sorted(str(p.relative_to(root)) for p in root.rglob("*.j2"))

    assert names("en") == names("cs") and "agot1e/board.txt.j2" in names("en")


# ---------------------------------------------------------------------------------------
# The mail service: replies in the player's language, SET LANGUAGE, HELP/STATUS/ORDERS?, PRESS
# ---------------------------------------------------------------------------------------


class Game:
    """An agot1e game ``w`` with a postmaster; ``mail`` sends one signed mail and returns what was queued."""

    def __init__(self, tmp_path: Path, press: str = "signed", languages: dict | None = None,
                 reports: str = "every-step"):
        self.clock = FakeClock()
        self.judge = Judge(Store(tmp_path / "data", fsync=False), now=self.clock)
        self.passwords = self.judge.new_game("w", "agot1e", {  # a report after every step, unless asked
            h: {"address": f"{h}@example.org", "language": (languages or {}).get(h, "en"), "reports": reports}
            for h in HOUSES}, seed=3, press=press)
        self.postmaster = Postmaster(self.judge, MailSettings(JUDGE, rate_limit=1000))
        self.count = 0

    def mail(self, house: str, body: str):
        self.count += 1
        raw = raw_mail(f"JUDGE w {house} {self.passwords[house]}\n{body}\n", sender=f"{house}@example.org",
                       message_id=f"<{house}-{self.count}@example.org>")
        handled = self.postmaster.process(self.postmaster.receive(raw, mail_from=f"{house}@example.org"))
        return handled, {name: self.message(name) for name in handled.mails}

    def message(self, name: str):
        import email
        import email.policy

        path = self.postmaster.outbox.root / f"{name}.eml"
        return email.message_from_bytes(path.read_bytes(), policy=email.policy.default)


def _one(mails: dict, suffix: str):
    found = [m for n, m in mails.items() if n.endswith(suffix)]
    assert len(found) == 1, list(mails)
    return found[0]


ORDERS = {
    "stark": "ORDERS\nWinterfell: march -1\nWhite Harbor: defense +1",
    "lannister": "ORDERS\nLannisport: march -1\nStoney Sept: support",
    "baratheon": "ORDERS\nDragonstone: defense +1\nKingswood: raid",
}


def test_a_czech_player_gets_czech_replies_and_reports(tmp_path):
    game = Game(tmp_path, languages={"lannister": "cs"})
    _, mails = game.mail("lannister", ORDERS["lannister"])
    reply = text_of(_one(mails, "-reply"))
    assert "Váš dopis řádek po řádku:" in reply and "ok       Lannisport: pochod -1" in reply  # echoes in Czech words
    assert "Rozhodčí má od hráče lannister:\n  ROZKAZY\n  Lannisport: pochod -1" in reply
    game.mail("stark", ORDERS["stark"])
    handled, mails = game.mail("baratheon", ORDERS["baratheon"])
    reports_ = {n.rsplit("-", 1)[1]: text_of(m) for n, m in mails.items() if n.startswith("report-")}
    assert set(reports_) == set(HOUSES)
    cs, en = reports_["lannister"], reports_["stark"]
    assert "Co se stalo:" in cs and "Odhalené rozkazy:" in cs  # the events in Czech too
    assert "Kolo 1 z 10" in cs and "rozkaz pochod -1" in cs and "Poštovní havran" in cs
    assert "What happened:" in en and "order march -1" in en and "Messenger Raven" in en
    assert _one(mails, "-lannister")["Subject"].endswith(f"(verze {game.judge.present('w').version})")


def test_set_language_switches_the_player_and_is_kept_out_of_the_game_journal(tmp_path):
    game = Game(tmp_path)
    handled, mails = game.mail("stark", "SET LANGUAGE cs\n" + ORDERS["stark"])
    assert handled.status == "submitted"
    reply = text_of(_one(mails, "-reply"))
    assert "  2  ok       NASTAV JAZYK cs" in reply and "Rozhodčí vám odteď píše v jazyce čeština (cs)." in reply
    assert "Váš dopis řádek po řádku" in reply and "  3  ok       ROZKAZY" in reply  # line numbers kept
    files = game.judge.store.open("w")
    assert files.config()["players"]["stark"]["language"] == "cs"
    entries = [files.read_journal(n) for n in files.journal_numbers()]
    assert [(e["kind"], e.get("note")) for e in entries] == [("note", "preferences"), ("submit", None)]
    assert "SET LANGUAGE" not in entries[1]["text"] and entries[1]["text"].split("\n")[1] == ""
    # a bad language: that line is refused, the rest of the mail still counts; back to English
    handled, mails = game.mail("stark", "set language klingon\nSET LANGUAGE en\nORDERS?")
    reply = text_of(_one(mails, "-reply"))
    assert "REJECTED set language klingon" in reply and "example: SET LANGUAGE cs" in reply
    assert "From now on the judge writes to you in English (en)." in reply
    assert files.config()["players"]["stark"]["language"] == "en"
    assert game.judge.replay("w") == []  # the journal replays without the mail-level lines


def test_help_status_and_orders_query_are_answered_in_the_reply(tmp_path):
    game = Game(tmp_path)
    game.mail("stark", ORDERS["stark"])
    _, mails = game.mail("stark", "HELP\nSTATUS\nORDERS?")
    reply = text_of(_one(mails, "-reply"))
    assert "HELP: how to write to the judge" in reply and "JUDGE w stark <your password>" in reply
    assert "MARCH <from> -> <to>: <units>" in reply  # the game's own commands
    assert "STATUS, as you see the game:" in reply and "Your house cards in hand (7):" in reply
    assert "On file for stark:\n  ORDERS\n  Winterfell: march -1\n  White Harbor: defense +1" in reply
    assert "ORDERS?: the lines above are everything" in reply


def test_press_is_relayed_signed_and_anonymous_press_is_refused_unless_the_game_allows_it(tmp_path):
    game = Game(tmp_path / "signed")
    handled, mails = game.mail("stark", "PRESS Lannister, Baratheon: Winter is coming.\nPRESS ANON ALL: boo")
    assert handled.status == "submitted"
    relayed = {m["To"]: text_of(m) for n, m in mails.items() if "-press-" in n}
    assert set(relayed) == {"lannister@example.org", "baratheon@example.org"}
    text = relayed["lannister@example.org"]
    assert "Press from Stark (game w, to Lannister, Baratheon):\n\n  Winter is coming." in text
    assert reports.parse_header(text)["player"] == "lannister" and "boo" not in text
    assert _one(mails, "-press-lannister")["In-Reply-To"] is None
    reply = text_of(_one(mails, "-reply"))
    assert "relayed to Lannister, Baratheon" in reply and "NOT relayed (anonymous): this game allows no anonymous" in reply

    game = Game(tmp_path / "anonymous", press="anonymous", languages={"baratheon": "cs"})
    _, mails = game.mail("stark", "PRESS ANON ALL: The lion lies.")
    anon = {m["To"]: m for n, m in mails.items() if "-press-anon-" in n}
    assert set(anon) == {"lannister@example.org", "baratheon@example.org"}
    for message in anon.values():
        body = text_of(message)
        assert "The lion lies." in body and "stark" not in body.lower() and "stark" not in str(message["Subject"]).lower()
        assert message["In-Reply-To"] is None and message["References"] is None
    assert "Anonymní zpráva (hra w, pro ALL)" in text_of(anon["baratheon@example.org"])
    assert "relayed anonymously to Lannister, Baratheon" in text_of(_one(mails, "-reply"))

    game = Game(tmp_path / "none", press="none")
    _, mails = game.mail("stark", "PRESS ALL: hello")
    assert not [n for n in mails if "-press-" in n]
    assert "NOT relayed: this game relays no press" in text_of(_one(mails, "-reply"))


def test_press_in_a_mail_that_changed_nothing_is_not_relayed(tmp_path):
    game = Game(tmp_path)
    handled, mails = game.mail("stark", "PRESS ALL: hello\nORDERS\nLannisport: march -1")
    assert handled.status == "rejected" and not [n for n in mails if "-press-" in n]
    reply = text_of(_one(mails, "-reply"))
    assert "NOT relayed: nothing in this mail was applied" in reply and "Nothing was changed" in reply
    handled, mails = game.mail("stark", "PRESS Stark: note to self")
    assert "NOT relayed: name another house" in text_of(_one(mails, "-reply"))


def test_reports_and_replies_carry_the_machine_readable_line_and_header(tmp_path):
    game = Game(tmp_path)
    game.mail("stark", ORDERS["stark"])
    game.mail("lannister", ORDERS["lannister"])
    _, mails = game.mail("baratheon", ORDERS["baratheon"])
    present = game.judge.present("w")
    for name, message in mails.items():
        text = text_of(message)
        header = reports.parse_header(text)
        assert message["X-Judge-State"] == text.splitlines()[0][len("X-Judge: "):]
        assert header["game"] == "w" and header["version"] == str(present.version)
        assert header["round"] == "1" and header["step"] == f"{present.state['phase']}/{present.state['step']}"
        assert header["deadline"] == present.clock["deadline"]
        assert header["kind"] == ("reply" if name.endswith("-reply") else "report")


# ---------------------------------------------------------------------------------------
# Reminders under a fake clock
# ---------------------------------------------------------------------------------------


def test_one_reminder_per_step_and_player_who_still_owes_when_little_time_is_left(desk):
    # toy: bids are planning-type decisions, 48h; a reminder is due with 20 % (9.6h) left
    desk.signed("alice", "BID 2")
    assert desk.postmaster.remind() == []
    desk.clock.advance(hours=38)  # 10h left
    assert desk.postmaster.remind() == []
    desk.clock.advance(hours=1)  # 9h left
    names = desk.postmaster.remind()
    assert sorted(n.rsplit("-", 1)[1] for n in names) == ["bob", "carol"]  # alice has bid
    bob = desk.outbox_text(next(n for n in names if n.endswith("-bob")))
    assert bob.startswith("X-Judge: game=g version=1") and "kind=reminder" in bob.splitlines()[0]
    assert "Připomínka: hra g čeká na vás (bob)." in bob and "po 23. 11. 2026 13:00 SEČ (za 9 hodin)" in bob and "- bid" in bob
    carol = desk.outbox_text(next(n for n in names if n.endswith("-carol")))
    assert "Reminder: game g waits for you (carol)." in carol and "Mon 23 Nov 2026 12:00 UTC (in 9 hours)" in carol
    assert desk.postmaster.remind() == []  # once per step and player
    reminded = yamlio.load_mapping(desk.postmaster.reminded_path)["games"]["g"]
    assert reminded == {"version": 1, "players": ["bob", "carol"]}
    # the next step: reminders again when its time runs short (24h steps: 4.8h)
    desk.signed("bob", "BID 2")
    desk.signed("carol", "BID 2")  # a three-way tie: alice owes the pick
    present = desk.judge.present("g")
    assert present.state["step"] == "tiebreak" and present.version == 2
    desk.clock.advance(hours=19)
    assert desk.postmaster.remind() == []
    desk.clock.advance(hours=1)
    assert [n.rsplit("-", 1)[1] for n in desk.postmaster.remind()] == ["alice"]
    desk.clock.advance(hours=5)  # past the deadline: no reminder, the tick applies the defaults
    assert desk.postmaster.remind() == []


def test_reminders_stop_for_paused_and_finished_games(desk):
    desk.judge.pause("g")
    desk.clock.advance(hours=47)
    assert desk.postmaster.remind() == []


# ---------------------------------------------------------------------------------------
# The command line: --press, languages, show --language, remind
# ---------------------------------------------------------------------------------------


def test_new_with_press_and_languages_and_show_in_czech(cli, tmp_path):
    result = cli("new", "w", "--ruleset", "agot1e", "--press", "anonymous", "--player", "stark=ned@example.org",
                 "--player", "lannister=tywin@example.org:cs", "--player", "baratheon=stannis@example.org", "--seed", "1")
    assert result.exit_code == 0, result.output
    config = yamlio.load_mapping(tmp_path / "data" / "w" / "game.yaml")
    assert config["press"] == "anonymous" and config["players"]["lannister"]["language"] == "cs"
    shown = cli("show", "w", "--as", "lannister").output
    assert "Kolo 1 z 10, plánování: rozkazy" in shown and "Vaše karty rodu v ruce (7):" in shown
    assert "Round 1 of 10, planning: orders" in cli("show", "w", "--as", "lannister", "--language", "en").output
    gm = cli("show", "w").output
    assert "Hands:" in gm and "On file, per player" in gm  # the GM sees everything, readable
    assert "seed:" not in gm and "seed: 1" in cli("show", "w", "--format", "yaml").output  # raw on request
    bad = cli("new", "x", "--ruleset", "agot1e", "--player", "stark=ned@example.org:de")
    assert bad.exit_code == 2 and "no language 'de'" in bad.output
    assert cli("new", "y", "--ruleset", "agot1e", "--press", "loud", "--player", "stark=a@b.org").exit_code == 2


def test_judge_remind_queues_and_delivers(cli, tmp_path):
    cli("new", "g", "--ruleset", "toy", "--player", "alice=alice@example.org", "--player", "bob=bob@example.org:cs")
    assert "0 reminder(s) queued" in cli("remind").output
    result = cli("remind", now="2026-11-23T04:00:00Z")  # 8h before the 48h deadline
    assert result.exit_code == 0 and "2 reminder(s) queued; 2 mail(s) delivered" in result.output
    assert "0 reminder(s) queued" in cli("remind", now="2026-11-23T05:00:00Z").output
