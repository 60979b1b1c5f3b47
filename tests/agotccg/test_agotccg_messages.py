"""agotccg speaks in message keys: the English and Czech catalogues are complete and agree, every key
the code names or a game emits is in both, and what the engine says over seeded games, rendered in
Czech, has no message key and no English word of the catalogues."""

from __future__ import annotations

import copy
import random
import re
from functools import cache
from pathlib import Path

import jinja2
import jinja2.meta

from adjudicator import messages, reports
from adjudicator.rulesets.agotccg.ruleset import AGOTCCG
from i18nhelp import untranslated

PACKAGE = Path(__file__).resolve().parents[2] / "adjudicator" / "rulesets" / "agotccg"


def test_english_and_czech_catalogues_have_the_same_keys():
    assert messages.missing("agotccg") == []


_PARSER = jinja2.Environment()
_PARSER.filters.update({f: (lambda *a, **k: "") for f in ("name", "house", "unit", "units", "plural", "count",
                                                          "join_and", "say")})


def _variables(text: str) -> set[str]:
    return jinja2.meta.find_undeclared_variables(_PARSER.parse(text))


def test_each_message_uses_the_same_parameters_in_both_languages():
    en, cs = messages.catalogue("en", "agotccg"), messages.catalogue("cs", "agotccg")
    differ = {key: (_variables(en.messages[key]), _variables(cs.messages[key]))
              for key in en.messages if key.startswith("agotccg.")
              and _variables(en.messages[key]) != _variables(cs.messages[key])}
    assert differ == {}


def _keys_in_source() -> set[str]:
    found: set[str] = set()
    for path in PACKAGE.glob("*.py"):
        text = path.read_text()
        found |= set(re.findall(r"[\"'](agotccg\.[a-z_]+(?:\.[a-z_]+)*)[\"']", text))
        found |= {f"agotccg.error.{n}" for n in re.findall(r"_error\(\s*\"([a-z_]+)\"", text)}
        found |= {f"agotccg.{n}" for n in re.findall(r"note\(\w+, \"([a-z_]+)\"", text)}
    found |= {f"agotccg.owed.{k}" for k in ("mulligan", "place", "plot", "first", "marshal", "attack", "defend",
                                            "kill")}
    return found


def _keys(value) -> set[str]:
    if isinstance(value, messages.Msg):
        return {value.key} | _keys(dict(value.params))
    if isinstance(value, dict):
        own = {value["key"]} if isinstance(value.get("key"), str) else set()
        return own | set().union(*(_keys(v) for v in value.values()), set())
    if isinstance(value, list):
        return set().union(*(_keys(v) for v in value), set())
    return set()


@cache
def _said() -> tuple:
    """Everything the ruleset says over seeded games of 2-4 players: events, owed decisions, notes,
    errors of refused lines, summaries, the boards of every player and the canonical lines on file."""
    out = []
    for seed in range(9):
        rng = random.Random(seed)
        players = AGOTCCG.default_players(2 + seed % 3)
        state = AGOTCCG.new_game(players, {}, seed)
        for _ in range(400):
            if AGOTCCG.result(state):
                break
            for owed in AGOTCCG.pending(state):
                out.append(owed.what)
                if owed.done or rng.random() < 0.15:
                    continue
                text = AGOTCCG.bot_mail(state, owed.player, rng)
                wrong = AGOTCCG.submit(copy.deepcopy(state), owed.player, "ATTACK POWER: Xyzzy Qwrt\nPLOT Frost")
                out += [ln.error for ln in wrong.parsed.lines if ln.error]
                sub = AGOTCCG.submit(copy.deepcopy(state), owed.player, text)
                out += list(sub.notes)
                state = sub.state
            state, events = AGOTCCG.advance(state, force=not all(o.done for o in AGOTCCG.pending(state)))
            out += events
            out.append(AGOTCCG.summary(state))
            for p in players:
                out += list(reports.board_of(AGOTCCG, AGOTCCG.view(state, p), p)["players"][0]["characters"])
                out += [("line", line) for line in AGOTCCG.on_file(state, p)]
    return tuple(out)


def test_every_key_the_code_names_and_the_games_emit_is_in_both_catalogues():
    in_code = _keys_in_source()
    said = set().union(*(_keys(m) for m in _said() if isinstance(m, messages.Msg)))
    assert said - {"agotccg.sample.talk", "agotccg.sample.long"} <= in_code | {"agotccg.card", "agotccg.cards"}, \
        said - in_code
    for language in messages.LANGUAGES:
        catalogue = messages.catalogue(language, "agotccg").messages
        assert sorted((in_code | said) - set(catalogue)) == [], language
    wanted = {"agotccg.attack", "agotccg.defend", "agotccg.result", "agotccg.unopposed", "agotccg.claim_military",
              "agotccg.claim_intrigue", "agotccg.claim_power", "agotccg.killed", "agotccg.saved", "agotccg.renown",
              "agotccg.dominance", "agotccg.won", "agotccg.duplicate", "agotccg.marshals", "agotccg.stealth",
              "agotccg.mulligan", "agotccg.line_dropped"}
    assert wanted <= said, wanted - said


def test_what_the_engine_says_reads_wholly_in_czech():
    texts = []
    for item in _said():
        if isinstance(item, tuple):
            texts.append(AGOTCCG.line(item[1], "cs"))
        else:
            texts.append(messages.render(item, "cs"))
    text = "\n".join(texts)
    assert messages.keys_in(text, ("agotccg",)) == []
    assert untranslated(text, "cs", ("agotccg",)) == []
    english = "\n".join(messages.render(m, "en") for m in _said() if not isinstance(m, tuple))
    assert messages.keys_in(english, ("agotccg",)) == []


def test_the_help_and_board_templates_render_in_both_languages():
    state = AGOTCCG.new_game(["alice", "bob"], {}, 1)
    for language in ("en", "cs"):
        env = reports.environment(language)
        help_text = env.get_template("agotccg/help.txt.j2").render()
        board = reports.board_of(AGOTCCG, AGOTCCG.view(state, "alice"), "alice")
        board_text = env.get_template("agotccg/board.txt.j2").render(board=board, player="alice")
        gm = env.get_template("agotccg/board.txt.j2").render(board=reports.board_of(AGOTCCG, AGOTCCG.view(state, None),
                                                                                   None), player=None)
        for text in (help_text, board_text, gm):
            assert messages.keys_in(text, ("agotccg",)) == []
        if language == "cs":
            assert untranslated(help_text + board_text + gm, "cs", ("agotccg",)) == []
            assert "Vaše ruka" in board_text and "zápletk" in help_text
