"""oriflamme speaks in message keys (issue 11): the catalogues are complete and agree, every key
the engine can emit is in both, the English is exactly the engine's English before the
conversion, the Czech has no English and no key left, and every command line reads in Czech
and back as the same command."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import jinja2
import jinja2.meta
import pytest

from adjudicator import messages
from adjudicator.rulesets.oriflamme import grammar, lines
from adjudicator.rulesets.oriflamme.commands import Press
from adjudicator.rulesets.oriflamme.gamedata import load_gamedata
from adjudicator.rulesets.oriflamme.ruleset import ORIFLAMME
from i18nhelp import untranslated
from oriflammetranscript import EXPECTED, emitted, transcript

GD = load_gamedata()
PLAYERS = ("red", "blue", "green", "yellow", "black")
PACKAGE = Path(__file__).resolve().parents[2] / "adjudicator" / "rulesets" / "oriflamme"


@cache
def _english() -> tuple[str, ...]:
    return tuple(transcript("en"))


@cache
def _czech() -> tuple[str, ...]:
    return tuple(transcript("cs"))


# -- the catalogues --------------------------------------------------------------------------------------


def test_english_and_czech_catalogues_have_the_same_keys():
    assert messages.missing("oriflamme") == []


_PARSER = jinja2.Environment()
_PARSER.filters.update({f: (lambda *a, **k: "") for f in ("name", "house", "unit", "units", "plural", "count", "join_and",
                                                          "say")})


def _variables(text: str) -> set[str]:
    """The parameters a catalogue entry uses (the filters of adjudicator/messages.py only parsed)."""
    return jinja2.meta.find_undeclared_variables(_PARSER.parse(text))


def test_each_message_uses_the_same_parameters_in_both_languages():
    en, cs = messages.catalogue("en", "oriflamme"), messages.catalogue("cs", "oriflamme")
    differ = {key: (_variables(en.messages[key]), _variables(cs.messages[key]))
              for key in en.messages if key.startswith("oriflamme.")
              and _variables(en.messages[key]) != _variables(cs.messages[key])}
    assert differ == {}


def test_every_card_has_a_name_in_every_language_and_czech_has_the_cases_the_sentences_use():
    cs = messages.catalogue("cs", "oriflamme").names
    for card in GD.ids:
        assert messages.catalogue("en", "oriflamme").names["card"][card] == GD.card(card).name
        assert set(cs["card"][card]) == {"nom", "gen", "acc"}, card
        assert cs["gender"][card] in ("f", "m", "n")
    # the Czech rulebook's names (S001), as the grammar reads them
    assert [GD.name(c, "cs") for c in GD.ids] == ["Lučištnice", "Zbrojnoš", "Špeh", "Následník", "Imitátorka", "Lord",
                                                   "Vražda", "Královský výnos", "Léčka", "Spiknutí"]
    for card in GD.ids:
        assert GD.resolve(cs["card"][card]["acc"]) == card and GD.resolve(cs["card"][card]["nom"]) == card


def _keys_in_source() -> set[str]:
    """The message keys the package's code names: literal keys, ``_error("...")`` and the effects."""
    found: set[str] = set()
    for path in PACKAGE.glob("*.py"):
        text = path.read_text()
        found |= set(re.findall(r"[\"'](oriflamme\.[a-z_]+(?:\.[a-z_]+)*)[\"']", text))
        found |= {f"oriflamme.error.{name}" for name in re.findall(r"_error\(\s*\"([a-z_]+)\"", text)}
    found |= {f"oriflamme.effect.{card}" for card in GD.ids}
    return found


def _keys(value) -> set[str]:
    """Keys of a message and of the messages among its parameters (at any depth)."""
    if isinstance(value, messages.Msg):
        return {value.key} | _keys(dict(value.params))
    if isinstance(value, dict):
        own = {value["key"]} if isinstance(value.get("key"), str) else set()
        return own | set().union(*(_keys(v) for v in value.values()), set())
    if isinstance(value, list):
        return set().union(*(_keys(v) for v in value), set())
    return set()


DEFENSIVE = {
    "oriflamme.copy_idle": ({"actor": {"owner": "red", "card": "shapeshifter", "copy": "soldier"}},
                            "Red's Shapeshifter (as Soldier) has nothing it can act on."),
    "oriflamme.error.card_ambiguous": ({"text": "Lu", "cards": ["lord", "archer"]},
                                       '"Lu" could be Archer, Lord: write more of the name'),
    "oriflamme.error.card_missing": ({}, "a card name is missing"),
    "oriflamme.why.not_in_hand": ({"card": "spy"}, "your Spy is not in your hand"),
}
"""What the ruleset can say that no game reaches with today's data and rules (kept for other data,
other positions): rendered here, in English as the engine said it before."""
SEEN_ELSEWHERE = {"oriflamme.name", *(f"oriflamme.effect.{card}" for card in GD.ids)}
"""The board's words (display.py): rendered in every report (test_oriflamme_czech_mail.py)."""


def test_every_key_the_code_names_and_the_games_emit_is_in_both_catalogues():
    in_code = _keys_in_source()
    said = set().union(*(_keys(m) for m in emitted()))
    assert said <= in_code | {"oriflamme.sample.talk", "oriflamme.sample.long"}, said - in_code
    for language in messages.LANGUAGES:
        catalogue = messages.catalogue(language, "oriflamme").messages
        assert sorted((in_code | said) - set(catalogue)) == [], language
        nested = set(re.findall(r"'(oriflamme\.[a-z_.]+)'", " ".join(catalogue.values())))  # seen.*, actor.*
        ours = {k for k in catalogue if k.startswith("oriflamme.")}
        assert sorted(ours - in_code - said - nested) == [], f"{language}: keys nothing says"
    lines_ = {k for k in in_code if k.startswith(("oriflamme.line.", "oriflamme.spec.", "oriflamme.sample."))}
    assert in_code - said - lines_ - SEEN_ELSEWHERE == set(DEFENSIVE)  # lines: every form below


@pytest.mark.parametrize("key", sorted(DEFENSIVE))
def test_what_no_game_reaches_still_reads_in_both_languages(key):
    params, english = DEFENSIVE[key]
    assert messages.render(messages.Msg(key, params), "en") == english
    czech = messages.render(messages.Msg(key, params), "cs")
    assert messages.keys_in(czech, ("oriflamme",)) == [] and untranslated(czech, "cs", ("oriflamme",)) == [], czech


# -- English exactly as before, Czech wholly Czech ------------------------------------------------------


def test_the_english_of_every_event_error_note_and_question_is_the_engine_s_english_before_the_conversion():
    expected = EXPECTED.read_text(encoding="utf-8").splitlines()
    now = list(_english())
    assert len(now) == len(expected)
    first = next((i for i, (a, b) in enumerate(zip(now, expected)) if a != b), None)
    assert first is None, f"line {first + 1}:\n  now:    {now[first]}\n  before: {expected[first]}"


def _quoted_removed(text: str) -> str:
    """Without what players wrote, which errors quote as written („sideways“)."""
    return re.sub(r"„[^“]*“", "„…“", text)


_SAID = re.compile(r"(?:owed \w+(?: \(done\))?|event [\w,]+|\s+\d+ (?:ok|error)|\s+example|\s+note|\s+on file|"
                   r"-- step \d+|summary): (?P<said>.*)$")
"""A transcript row and what the ruleset says in it (the rest is the transcript's own English)."""


def test_the_czech_transcript_has_no_key_and_no_english_word():
    assert len(_czech()) == len(_english())
    said = [m.group("said") for m in map(_SAID.match, _czech()) if m]
    assert len(said) > 1500
    text = "\n".join(t for t in said if not t.startswith("ZPRÁVA"))  # press texts are the players' own words
    assert messages.keys_in(text, ("oriflamme",)) == []
    assert untranslated(_quoted_removed(text), "cs", ("oriflamme",)) == []


# -- canonical lines in Czech, read back --------------------------------------------------------------------


FORMS = [
    "PLACE Archer FRONT", "PLACE Archer BACK", "PLACE Spy ON Archer", "PLACE Spy ON 3", "PLACE Royal Decree ON Lord",
    "REVEAL Heir", "REVEAL 2", "REVEAL Heir IN ROUND 4", "REVEAL 2 IN ROUND 5", "WAIT Lord", "WAIT 4",
    "TARGET Archer: FIRST", "TARGET Archer: LAST", "TARGET Soldier: BEFORE", "TARGET Spy: AFTER",
    "TARGET Shapeshifter: BEFORE", "TARGET Shapeshifter: AFTER, LAST", "TARGET Shapeshifter: BEFORE, AFTER",
    "TARGET Shapeshifter: AFTER, FIRST", "TARGET Shapeshifter: BEFORE, BEFORE",
    "TARGET Assassination: 3", "TARGET Assassination: FIRST", "TARGET Assassination: LAST",
    "TARGET Assassination: Blue Heir", "TARGET Assassination: Red Royal Decree", "TARGET Assassination: Heir",
    "TARGET Royal Decree: 2 -> FRONT", "TARGET Royal Decree: 2 -> BACK", "TARGET Royal Decree: 2 -> 4",
    "TARGET Royal Decree: Blue Spy -> 1", "TARGET Royal Decree: LAST -> 2", "TARGET Royal Decree: FIRST -> BACK",
    "TARGET Royal Decree: Green Royal Decree -> FRONT", "TARGET Royal Decree: Lord -> 3",
    "CLEAR", "HELP", "HELP targets", "STATUS", "ORDERS?", "PRESS ALL: ahoj", "PRESS Blue, Green: ahoj",
    "PRESS ANON ALL: psst", "PRESS ANON Blue: psst", "PRESS ALL: shall we talk?",
    *(f"PLACE {c.name} FRONT" for c in GD.cards), *(f"PLACE {c.name} ON {d.name}" for c in GD.cards for d in GD.cards
                                                     if c != d),
    *(f"REVEAL {c.name}" for c in GD.cards), *(f"WAIT {c.name}" for c in GD.cards),
    *(f"TARGET {c.name}: BEFORE" for c in GD.cards), *(f"TARGET Assassination: Yellow {c.name}" for c in GD.cards),
]
"""Every command form of the grammar, every card in every place of a line."""


def _command(line: str):
    [result] = grammar.parse_mail(line, GD, PLAYERS)
    assert result.error is None, (line, str(result.error))
    command = result.command
    samples = {messages.render(messages.Msg(key), language): key for key in ("oriflamme.sample.talk", "oriflamme.sample.long")
               for language in messages.LANGUAGES}
    if isinstance(command, Press) and command.text in samples:
        command = Press(command.to, samples[command.text], command.anonymous)  # an example's text, in the reader's words
    return command


@pytest.mark.parametrize("line", FORMS)
def test_a_canonical_line_reads_in_czech_and_back_as_the_same_command(line):
    czech = ORIFLAMME.line(line, "cs")
    assert ORIFLAMME.line(line, "en") == line
    assert czech != line and _command(czech) == _command(line), czech
    message = lines.read(line, GD)
    assert lines.canonical(message, GD) == line and messages.render(message, "en") == line
    assert untranslated(czech, "cs", ("oriflamme",)) == [], czech


def test_czech_lines_use_the_czech_command_words_and_the_accusative_where_a_command_takes_one():
    assert ORIFLAMME.line("PLACE Archer BACK", "cs") == "VYLOŽ Lučištnici NA KONEC"
    assert ORIFLAMME.line("PLACE Spy ON Archer", "cs") == "VYLOŽ Špeha NA Lučištnici"
    assert ORIFLAMME.line("REVEAL Assassination IN ROUND 3", "cs") == "ODHAL Vraždu V KOLE 3"
    assert ORIFLAMME.line("WAIT Royal Decree", "cs") == "NECHEJ Královský výnos"
    assert ORIFLAMME.line("TARGET Soldier: AFTER", "cs") == "CÍL Zbrojnoš: ZA"
    assert ORIFLAMME.line("TARGET Royal Decree: Blue Spy -> FRONT", "cs") == "CÍL Královský výnos: Blue Špeh NA ZAČÁTEK"
    assert ORIFLAMME.line("PRESS ANON ALL: shall we talk?", "cs") == "ZPRÁVA ANONYMNĚ VŠEM: domluvíme se?"
    assert ORIFLAMME.line("SET LANGUAGE cs", "cs") == "SET LANGUAGE cs"  # not the ruleset's: shown as it stands


def test_every_line_the_judge_echoed_held_or_gave_as_an_example_reads_back_in_czech():
    found = set()
    for row in _english():
        m = re.match(r"\s+(?:\d+ ok|on file|example) (.*)$", row)
        if m:
            found.add(m.group(1))
    assert len(found) > 150
    for line in sorted(found):
        czech = ORIFLAMME.line(line, "cs")
        assert czech != line, line
        assert _command(czech) == _command(line), (line, czech)
