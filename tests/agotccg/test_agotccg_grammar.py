"""The agotccg mail grammar: every example parses, Czech and English keywords and names, errors with
a reason and a valid example, and every canonical line reads in Czech and back as the same command."""

from __future__ import annotations

import copy
import random

import pytest

from adjudicator.rulesets.agotccg import grammar, lines
from adjudicator.rulesets.agotccg.caseposition import case_state
from adjudicator.rulesets.agotccg.commands import Attack, Defend, First, Item, Marshal, Ref, Save, Setup
from adjudicator.rulesets.agotccg.gamedata import load_gamedata
from adjudicator.rulesets.agotccg.ruleset import AGOTCCG

GD = load_gamedata()
PLAYERS = ("alice", "bob", "carol")


def parse(text: str):
    [line] = grammar.parse_mail(text, PLAYERS)
    return line


@pytest.mark.parametrize("keyword", sorted(grammar.EXAMPLES))
def test_every_example_parses(keyword):
    line = parse(grammar.EXAMPLES[keyword])
    assert line.error is None, (keyword, line.error)


@pytest.mark.parametrize("text, command", [
    ("ATTACK MILITARY Bob: Frostfang, Hedge Knight #2 STEALTH Red Cloak Guard",
     Attack("military", "bob", (Ref("frostfang"), Ref("hedge knight", 2)), (Ref("red cloak guard"),))),
    ("výzva mocenská carol: Lord Rickard", Attack("power", "carol", (Ref("lord rickard"),))),
    ("VÝZVA V: Frostfang SKRYTĚ Strážný v rudém plášti",
     Attack("military", None, (Ref("frostfang"),), (Ref("strazny v rudem plasti"),))),
    ("utok intrikova: Zvěd", Attack("intrigue", None, (Ref("zved"),))),
    ("DEFEND POWER AGAINST Carol: NOBODY", Defend("power", "carol", ())),
    ("obrana vojenská: Frostfang; Lovec", Defend("military", None, (Ref("frostfang"), Ref("lovec")))),
    ("MARSHAL Heavy Shackles ON Bob Red Cloak Guard, Hedge Knight",
     Marshal((Item(Ref("heavy shackles"), Ref("red cloak guard", owner="bob")), Item(Ref("hedge knight"))))),
    ("ZAHRAJ Severní ocel NA Frostfang", Marshal((Item(Ref("severni ocel"), Ref("frostfang")),))),
    ("zahraj nic", Marshal(())),
    ("VYLOŽ Strážný ze Zimohradu #2, Tvrz ve Vlčím lese",
     Setup((Ref("strazny ze zimohradu", 2), Ref("tvrz ve vlcim lese")))),
    ("PRVNÍ JÁ", First(None)),
    ("first Bob", First("bob")),
    ("NEZACHRAŇUJ Frostfang", Save(Ref("frostfang"), False)),
])
def test_commands_in_either_language(text, command):
    line = parse(text)
    assert line.error is None, line.error
    assert line.command == command


@pytest.mark.parametrize("text, key", [
    ("FROBNICATE", "agotccg.error.command"),
    ("ATTACK MILITARY Frostfang", "agotccg.error.attack_form"),
    ("ATTACK SNEAKY: Frostfang", "agotccg.error.type"),
    ("ATTACK MILITARY Zed: Frostfang", "agotccg.error.player"),
    ("DEFEND MILITARY Bob: Frostfang", "agotccg.error.defend_form"),
    ("KEEP now", "agotccg.error.extra"),
    ("SETUP", "agotccg.error.setup_empty"),
    ("MARSHAL Hedge Knight #7", "agotccg.error.copy_range"),
    ("FIRST alice bob", "agotccg.error.first_form"),
    ("PRESS zed: hi", "agotccg.error.press_player"),
])
def test_grammar_errors_say_why_and_give_a_valid_example(text, key):
    line = parse(text)
    assert line.error is not None and line.error.key == key
    assert parse(line.example).error is None, line.example


def test_a_hash_after_a_name_is_a_copy_but_elsewhere_a_comment():
    assert parse("KILL Hedge Knight #3 # the weakest").command.cards == (Ref("hedge knight", 3),)
    assert grammar.parse_mail("# nothing here\n", PLAYERS) == []


def test_card_names_resolve_by_start_of_a_name_or_of_its_words_in_either_language():
    assert GD.matching("Frost") == {"stark-frostfang"}
    assert GD.matching("rickard stone") == {"stark-lord"}
    assert GD.matching("Old Wolf") == {"stark-old-wolf"}
    assert GD.matching("STRAZNY ZE ZIMOHRADU") == {"stark-guardsman"}
    assert GD.matching("Storm’s End Sentry") == {"baratheon-sentry"}
    assert GD.matching("Lord", among={"stark-lord", "baratheon-lord"}) == {"stark-lord", "baratheon-lord"}


def _state():
    return case_state({
        "players": ["alice", "bob"], "phase": "challenges",
        "characters": {"alice": ["Frostfang", "Winterfell Guardsman", "Winterfell Guardsman", "Hedge Knight"],
                       "bob": ["Red Cloak Guard", "Lady Sarella Westhall dupes 1"]},
        "hands": {"alice": ["Northern Steel", "Barrowton Veteran"]},
    })


def test_the_submission_refuses_with_a_reason_and_a_valid_example():
    state = _state()
    sub = AGOTCCG.submit(copy.deepcopy(state), "alice", "ATTACK POWER: Frostfang\nATTACK MILITARY: Barrowton Veteran")
    assert not sub.applied
    errors = [(ln.lineno, ln.error.key, ln.example) for ln in sub.parsed.lines if not ln.ok]
    assert errors[0][:2] == (1, "agotccg.error.attacker")
    assert errors[1][:2] == (2, "agotccg.error.attacker")  # the answer now: the Veteran is in hand, not in play
    check = AGOTCCG.submit(copy.deepcopy(state), "alice", errors[0][2])
    assert check.applied, errors[0][2]


def test_copies_show_only_where_there_is_more_than_one():
    state = _state()
    sub = AGOTCCG.submit(copy.deepcopy(state), "alice", "ATTACK MILITARY: Guardsman, Guardsman, Frostfang\nPASS")
    assert sub.applied
    assert [ln.canonical for ln in sub.parsed.lines] == [
        "ATTACK MILITARY Bob: Winterfell Guardsman #1, Winterfell Guardsman #2, Frostfang", "PASS"]


def _canonical_lines() -> set[str]:
    """Every line the bots write over a few seeded games, echoed canonically."""
    found: set[str] = set()
    for seed in range(6):
        rng = random.Random(seed)
        players = AGOTCCG.default_players(2 + seed % 3)
        state = AGOTCCG.new_game(players, {}, seed)
        for _ in range(300):
            if AGOTCCG.result(state):
                break
            for owed in AGOTCCG.pending(state):
                if owed.done:
                    continue
                sub = AGOTCCG.submit(copy.deepcopy(state), owed.player, AGOTCCG.bot_mail(state, owed.player, rng))
                assert sub.applied
                found |= {ln.canonical for ln in sub.parsed.lines}
                state = sub.state
            state, _ = AGOTCCG.advance(state, force=not all(o.done for o in AGOTCCG.pending(state)))
    return found


def test_every_canonical_line_reads_back_in_czech_as_the_same_line():
    seen = _canonical_lines()
    assert {line.split()[0] for line in seen} >= {"KEEP", "SETUP", "PLOT", "FIRST", "MARSHAL", "ATTACK", "PASS",
                                                  "DEFEND", "KILL"}
    for line in seen:
        message = lines.read(line, GD)
        assert message is not None, line
        assert lines.canonical(message, GD) == line
        assert lines.in_language(line, "en", GD) == line
        czech = AGOTCCG.line(line, "cs")
        back = grammar.parse_mail(czech, PLAYERS + ("dave",))
        assert [b.error for b in back] == [None], (line, czech)
        assert lines.canonical(lines.read(czech, GD), GD) == line, (line, czech)


def test_the_english_catalogue_writes_the_canonical_notation():
    samples = [
        lines.setup([lines.ref("stark-guardsman", 2), lines.ref("stark-holdfast")]), lines.setup([]),
        lines.plot("quiet-harvest"), lines.first("bob"), lines.marshal([]),
        lines.marshal([{"card": lines.ref("heavy-shackles"), "on": lines.ref("lannister-guard", None, "bob")},
                       {"card": lines.ref("hedge-knight", 3), "on": None}]),
        lines.attack("military", "bob", [lines.ref("stark-frostfang")], [lines.ref("lannister-guard", 1)]),
        lines.defend("power", "carol", []), lines.defend("intrigue", None, [lines.ref("stark-scout")]),
        lines.kill([lines.ref("stark-lady")]), lines.save(lines.ref("stark-lady"), False),
        lines.keep(), lines.mulligan(), lines.pass_(), lines.clear(), lines.help_("rules"), lines.status(),
        lines.orders(), lines.press(["Bob"], "shall we talk?"), lines.press("ALL", "hi", True),
    ]
    for message in samples:
        assert message.render("en") == lines.canonical(message, GD)
        czech = message.render("cs")
        assert lines.canonical(lines.read(czech, GD), GD) == lines.canonical(message, GD) or message.key in (
            "agotccg.line.press", "agotccg.line.help"), czech
