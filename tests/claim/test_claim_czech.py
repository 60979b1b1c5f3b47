"""Claim and Claim 2 wholly in Czech (issue 11): the catalogues, the forms, the command lines, the mails.

The rulesets speak in ``claim.*`` keys (``templates/{en,cs}/claim/messages.yaml``). Checked here:
both catalogues have the same keys, and every key the rulesets emit over seeded games with 2, 3
and 4 players of both rulesets, every rules case and a corpus of refused mails is in them (and
every entry is emitted somewhere); each of those messages renders in Czech with no key and no
English word left; every form of a faction name and every counted noun a Czech phrase asks for
exists; the Czech command words are words the grammar reads; ``Ruleset.line`` renders every
command form in Czech so that the grammar reads it back as the same command; and a Czech
player's mails over a seeded game played through the judge and the mail layer (replies with
echoes, errors and examples, HELP and STATUS answers, reports, reminders) carry no English of
the claim catalogues.
"""

from __future__ import annotations

import copy
import email
import email.policy
import random
import re
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import transcript
from adjudicator import messages, reports
from adjudicator import ruleset as rulesets
from adjudicator.judge import Judge
from adjudicator.mail.process import Postmaster
from adjudicator.mail.settings import MailSettings
from adjudicator.messages import Msg, render
from adjudicator.rulesets.claim import grammar
from adjudicator.rulesets.claim.gamedata import fold, load_gamedata
from adjudicator.rulesets.claim.grammar import Names, parse_line
from adjudicator.store import Store
from conftest import FakeClock
from i18nhelp import untranslated

sys.path.insert(0, str(Path(__file__).parent.parent / "mail"))  # the mail tests' helpers
from mailhelp import JUDGE, raw_mail, text_of  # noqa: E402

GD = load_gamedata()
EN = messages.catalogue("en", "claim")
CS = messages.catalogue("cs", "claim")
EVERYONE = Names(GD, tuple(GD.factions), ("alice", "bob", "carol"))
CLAIM2 = rulesets.get("claim2")


def _messages(value):
    """Every message in ``value``: messages, their parameters, board data, lists."""
    if isinstance(value, Msg):
        yield value
        yield from _messages(dict(value.params))
    elif isinstance(value, Mapping):
        if isinstance(value.get("key"), str):
            yield Msg.from_dict(value)
        for inner in value.values():
            yield from _messages(inner)
    elif isinstance(value, (list, tuple)):
        for inner in value:
            yield from _messages(inner)


@pytest.fixture(scope="module")
def seen() -> list:
    return transcript.collect()


# -- the catalogues -----------------------------------------------------------------------------


def test_the_two_catalogues_have_the_same_keys():
    assert messages.missing("claim") == []


def test_every_key_the_rulesets_emit_is_in_both_catalogues_and_every_entry_is_emitted(seen):
    keys = {m.key for m in _messages(seen)}
    assert sorted(k for k in keys if k not in EN.messages or k not in CS.messages) == []
    assert sorted(k for k in EN.messages if k.startswith("claim.") and k not in keys) == []


WRITTEN = ("text", "word", "item", "name", "topic")
"""Parameters that quote what the player wrote (English in the corpus): not the catalogue's to translate."""


def _neutral(message: Msg) -> Msg:
    return Msg(message.key, {k: ("xyz" if k in WRITTEN and isinstance(v, str) else v) for k, v in message.params.items()})


def test_every_message_the_rulesets_emit_reads_in_czech(seen):
    leaks = {}
    for message in set(_messages(seen)):
        text = render(_neutral(message), "cs")
        found = untranslated(text, "cs", ("claim",))
        if found:
            leaks[text] = found
    assert leaks == {}


def test_the_czech_board_and_help_have_no_english(seen):
    env = reports.environment("cs")
    boards = [b for b in seen if isinstance(b, dict) and "players" in b and "standings" in b]
    assert len(boards) > 20
    for board in boards:
        for viewer in (None, board["players"][0]["name"]):
            for template in ("board", "help"):
                text = env.get_template(f"{board['ruleset']}/{template}.txt.j2").render(
                    board=board, player=viewer, ruleset=board["ruleset"])
                assert untranslated(text, "cs", ("claim",)) == [], text


FORM = re.compile(r"name\('faction', '(\w+)'\)")
NOUN = re.compile(r"count\('noun', '(\w+)'\)")


@pytest.mark.parametrize("catalogue", [EN, CS], ids=["en", "cs"])
def test_every_form_a_phrase_asks_for_exists_for_every_faction(catalogue):
    texts = "\n".join(catalogue.messages[k] for k in catalogue.messages if k.startswith("claim."))
    forms = set(FORM.findall(texts))
    factions = catalogue.names["faction"]
    assert set(factions) == set(GD.factions)
    assert sorted((f, form) for f in factions for form in forms if form not in factions[f]) == []
    plural = {"cs": ("one", "few", "many"), "en": ("one", "other")}[catalogue.language]
    for f, entry in factions.items():
        assert all(entry.get(p) for p in plural), f
    for noun in set(NOUN.findall(texts)):
        assert all(catalogue.names["noun"][noun].get(p) for p in plural), noun


CAPS = re.compile(r"(?<![\w])([A-ZÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ]{2,}\??)(?![\w])")
CONNECTIVES = {"nebo", "anonymne"}  # NEBO joins alternatives; ANONYMNĚ marks anonymous press


def test_the_czech_command_words_are_words_the_grammar_reads():
    words = set()
    for key, text in CS.messages.items():
        if key.startswith("claim."):  # the judge's own messages (mail.*) have words of their own
            words |= set(CAPS.findall(text))
    words |= {str(v) for v in CS.names["keyword"].values()}
    readable = set(grammar.COMMAND_WORDS) | set(grammar.WORDS) | set(grammar.ALL_WORDS) | CONNECTIVES
    assert sorted(w for w in words if fold(w) not in readable) == []
    assert {"HRAJ", "VEZMI", "NEBO", "NEJNIŽŠÍ", "NEJVYŠŠÍ", "BALÍČEK", "ODMĚNU", "ZRUŠ"} <= words


def test_czech_plurals_and_cases():
    def cs(key, **params):
        return render(Msg(key, params), "cs")

    gnome5, dragon7 = {"faction": "gnomes", "value": 5}, {"faction": "dragons", "value": 7}
    assert cs("claim.card", faction="gnomes", value=5) == "gnóm 5"
    assert cs("claim.leads", player="alice", card=gnome5) == "alice vynáší gnóma 5."
    assert cs("claim.trick.won", winner="bob", trick=3, card=dragon7, ranking=[], leader="carol") == \
        "bob vyhrává štych 3 drakem 7. Hráč carol zahrál posledního draka a vynáší příští štych."
    assert cs("claim.giant.crushes", giant={"faction": "giants", "value": 3}, victim="bob",
              gnome={"faction": "gnomes", "value": 3}) == "Obr 3 rozšlapuje gnóma 3 hráče bob."
    assert cs("claim.undead", player="alice", cards=[{"faction": "undead", "value": 3}]) == \
        "Zahraní nemrtví (nemrtvý 3) jdou na bodovací balíček hráče alice."
    assert cs("claim.error.follow", faction="gnomes", held=[gnome5], legal=[gnome5]) == \
        "musíte ctít barvu a hrát gnómy: máte gnóma 5; dovolené tahy: gnóm 5"
    assert [cs("claim.summary.win", winner="alice", factions=n) for n in (1, 3, 5)] == [
        "konec hry: vítězí alice (1 národ)", "konec hry: vítězí alice (3 národy)", "konec hry: vítězí alice (5 národů)"]
    assert [cs("claim.error.too_many_plays", count=n).split(":")[0] for n in (1, 4, 13)] == [
        "v ruce máte 1 kartu", "v ruce máte 4 karty", "v ruce máte 13 karet"]
    assert "nejvýše 4 řádky HRAJ" in cs("claim.error.too_many_plays", count=4)
    assert cs("claim.faction.joins", faction="trolls", side=None, counts=[{"side": "alice", "count": 0}]) == \
        "Trolové se nepřidávají k nikomu (alice 0)."
    assert cs("claim.over.win", winner="alice", by="cards", rows=[
        {"side": "alice", "factions": 2, "cards": 1, "points": 5}]) == \
        "Hra skončila: vítězí alice díky většímu počtu karet v získaných národech (alice: 2 národy, 1 karta, 5 bodů)."
    assert cs("claim.faction", faction="doppelgangers") == "Měňavci"


# -- command lines in the player's language -----------------------------------------------------

LINES = ["PLAY Gnome 5", "PLAY Gnome 5 OR Giant 3 OR LOWEST", "PLAY HIGHEST", "PLAY LOWEST",
         "PLAY Troll 0 OR Dragon 9 OR HIGHEST", "TAKE PRIZE", "TAKE DECK", "TAKE HIGHEST", "TAKE LOWEST",
         "TAKE Dragon 7 OR DECK", "TAKE Giant 7 OR PRIZE", "TAKE Seer 9 OR Undead 0 OR LOWEST", "CANCEL", "HELP",
         "HELP seers", "STATUS", "ORDERS?", "PRESS bob: hello", "PRESS alice, bob: hi all", "PRESS ALL: good luck",
         "PRESS ANON ALL: boo", "PRESS ANON bob: psst"] + [
    f"PLAY {f.singular} {v}" for f in GD.factions.values() for v in dict.fromkeys(f.values)] + [
    f"TAKE {f.singular} {v}" for f in GD.factions.values() for v in dict.fromkeys(f.values)]


@pytest.mark.parametrize("language", ["en", "cs"])
def test_every_command_form_reads_back_as_the_same_command(language):
    for canonical in LINES:
        shown = CLAIM2.line(canonical, language)
        assert parse_line(shown, EVERYONE) == parse_line(canonical, EVERYONE), (canonical, shown)
        assert (shown == canonical) == (language == "en"), (canonical, shown)


def test_czech_lines_examples_and_what_is_left_alone():
    cs = lambda text: CLAIM2.line(text, "cs")  # noqa: E731
    assert cs("PLAY Gnome 5 OR LOWEST") == "HRAJ gnóm 5 NEBO NEJNIŽŠÍ"
    assert cs("TAKE PRIZE OR DECK") == "VEZMI ODMĚNU NEBO BALÍČEK"
    assert cs("PLAY Undead 4 OR Doppelganger 0") == "HRAJ nemrtvý 4 NEBO měňavec 0"
    assert [cs(x) for x in ("CANCEL", "HELP", "STATUS", "ORDERS?")] == ["ZRUŠ", "NÁPOVĚDA", "STAV", "ROZKAZY?"]
    assert cs("PRESS ANON alice, bob: hi") == "ZPRÁVA ANONYMNĚ alice, bob: hi"
    # the grammar's examples: their free text is the catalogue's
    assert cs(grammar.example("PRESS", EVERYONE)) == "ZPRÁVA alice: domluvíme se?"
    assert parse_line(cs(grammar.example("PRESS", EVERYONE)), EVERYONE).to == ("alice",)
    long_example = grammar.parse_mail("PRESS ALL: " + "x" * 1200, EVERYONE)[0].example
    assert cs(long_example) == "ZPRÁVA VŠEM: rozdělte dlouhou zprávu do několika řádků ZPRÁVA"
    judge_example = grammar.parse_mail("STATUS\nJUDGE g alice pw", EVERYONE)[1].example
    assert (judge_example, cs(judge_example)) == ("JUDGE game1 alice password", "JUDGE hra1 alice heslo")
    for text in ("SET LANGUAGE cs", "not a line", "PLAY", ""):
        assert cs(text) == text


ALTS = [f"{f} {v}" for f in GD.factions for v in dict.fromkeys(GD.factions[f].values)]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["play", "take"]),
       st.lists(st.one_of(st.sampled_from(ALTS), st.sampled_from(["lowest", "highest", "deck", "prize"])),
                min_size=1, max_size=6, unique=True))
def test_random_play_and_take_lines_round_trip_through_czech(command, alts):
    if command == "play":
        alts = [a for a in alts if a not in ("deck", "prize")] or ["lowest"]
    canonical = grammar.canonical((grammar.Play if command == "play" else grammar.Take)(tuple(alts)), EVERYONE)
    czech = CLAIM2.line(canonical, "cs")
    assert parse_line(czech, EVERYONE) == parse_line(canonical, EVERYONE), czech


# -- a Czech player's mails over a whole game through the judge and the mail layer --------------


def _czech_mail(state: dict, rng: random.Random, turn: int) -> str:
    """What bob writes, in Czech, for what he owes (several forms, some sent ahead)."""
    gd, line = GD, (lambda text: CLAIM2.line(text, "cs"))
    if state["step"] == "take":
        options = CLAIM2.view(state, "bob")["choice"]
        choice = rng.choice(["TAKE PRIZE", "TAKE HIGHEST", "TAKE LOWEST"] + (["TAKE DECK"] if options.get("peek") else []))
        return line(choice) + "\n"
    legal = sorted(CLAIM2.view(state, "bob")["legal"], key=gd.sort_key)
    card = rng.choice(legal)
    first = f"PLAY {gd.card_name(card)}" + (" OR LOWEST" if turn % 3 == 0 else "")
    out = [line(first)]
    if turn % 4 == 1:
        out.append(line("PLAY HIGHEST"))  # sent ahead for the next turn
    if turn % 5 == 2:
        out += [line("STATUS"), line("ORDERS?")]
    return "\n".join(out) + "\n"


def test_a_czech_players_mails_over_a_whole_game_read_in_czech(tmp_path):
    clock = FakeClock()
    judge = Judge(Store(tmp_path / "data", fsync=False), now=clock)
    seats = {p: {"address": f"{p}@example.org", "language": "cs" if p == "bob" else "en"} for p in ("alice", "bob", "carol")}
    passwords = judge.new_game("t", "claim2", seats, seed=5)
    postmaster = Postmaster(judge, MailSettings(JUDGE))
    sent = iter(range(1, 10_000))

    def mail(player: str, body: str) -> None:
        text = f"JUDGE t {player} {passwords[player]}\n{body}"
        raw = raw_mail(text, sender=f"{player}@example.org", message_id=f"<{player}-{next(sent)}@example.org>")
        postmaster.process(postmaster.receive(raw, mail_from=f"{player}@example.org"))

    # first, everything a Czech player may get wrong, and the mail-level requests
    mail("bob", "HRAJ elf 5\nHRAJ obr 4\nVEZMI\nfrobnikuj\nHRAJ\nzruš teď\ngnóm 5\nHRJA NEJNIŽŠÍ\n"
                "ZPRÁVA nikdo: ahoj\nVEZMI BALÍČEK NEBO trol 11\n")
    mail("bob", "NÁPOVĚDA\nSTAV\nROZKAZY?\nHRAJ NEJVYŠŠÍ\nHRAJ NEJNIŽŠÍ\n")
    mail("bob", "HRAJ NEJNIŽŠÍ\n")  # replaces the plays on file: a note
    rng, turn = random.Random(5), 0
    for _ in range(400):
        present = judge.present("t")
        if present.ruleset.result(present.state) is not None:
            break
        turn += 1
        for owed in present.missing():
            state = judge.present("t").state
            if turn % 7 == 3:
                continue  # silence: a reminder, then the deadline's default
            if owed.player == "bob":
                mail("bob", _czech_mail(state, rng, turn))
            else:
                text = CLAIM2.bot_mail(copy.deepcopy(state), owed.player, rng)
                if text:
                    mail(owed.player, text)
        if judge.present("t").missing():
            clock.advance(hours=20)
            postmaster.remind()
            clock.advance(hours=5)
            postmaster.tick()
    present = judge.present("t")
    assert present.ruleset.result(present.state) is not None

    mails = []
    for name in postmaster.outbox.pending():
        message = email.message_from_bytes((postmaster.outbox.root / f"{name}.eml").read_bytes(),
                                           policy=email.policy.default)
        if message["To"] == "bob@example.org":
            mails.append((name, text_of(message)))
    kinds = {name.split("-")[0] for name, _ in mails} | {name.rsplit("-", 1)[-1] for name, _ in mails}
    assert {"report", "remind", "reply"} <= kinds, kinds
    every = "\n".join(body for _, body in mails)
    for czech in ("ODMÍTNUTO", "příklad: HRAJ", "neznámý národ", "Vaše ruka", "Co se stalo", "vynáší",
                  "Hra skončila", "Příkazy hry Trůn 2", "Poznámka: Tyto řádky HRAJ"):
        assert czech in every, czech
    for name, body in mails:
        assert body.startswith("X-Judge: ")  # the machine-readable line (step=1/play) is no prose: not checked
        leaks = untranslated(body.split("\n", 1)[1], "cs", ("claim",))
        assert [w for w in leaks if w not in FRAME_ENGLISH] == [], (name, leaks, body)


FRAME_ENGLISH = {"HELP", "STATUS", "ORDERS", "PRESS"}
"""English the judge's own Czech frame still shows (templates/cs/help.txt.j2, reply.txt.j2,
reminder.txt.j2 name the mail-level commands HELP, STATUS, ORDERS?, PRESS): judge-level text,
converted by the lead's part of issue 11. The claim parts of every mail are checked without it
(the messages, board and help tests above); mail subjects (the summary in English, built by the
mail layer) are not checked here either."""
