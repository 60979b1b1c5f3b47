"""Red team, files and the GM's command line: a broken or hostile YAML file (a game's
``game.yaml`` edited by hand with a wrong type, a rules case written to hurt, an alias bomb)
gets one line naming the file and the problem with a valid example, never a traceback, never
code run, and the game's files are left as they were."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from adjudicator import yamlio
from adjudicator.cases import run_case
from adjudicator.rulesets.agot import mapshapes
from conftest import subprocess_env

NEW = ["new", "w", "--ruleset", "agot1e", "--player", "stark=ned@example.org", "--player",
       "lannister=tywin@example.org", "--player", "baratheon=stannis@example.org", "--seed", "1", "--no-mail"]

# "billion laughs": ten levels of nine aliases each, a few hundred bytes that stand for 9**10 strings
LAUGHS = "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 10))


def test_an_alias_bomb_is_refused_naming_the_source_and_honest_aliases_still_read():
    with pytest.raises(yamlio.YamlFileError) as caught:
        yamlio.loads(LAUGHS + "players: *l9\n", "hostile.yaml")
    assert "hostile.yaml" in str(caught.value) and "alias" in str(caught.value)
    assert yamlio.loads("a: &a [1, 2]\nb: *a\nc: *a\n") == {"a": [1, 2], "b": [1, 2], "c": [1, 2]}


def test_a_rules_case_carrying_an_alias_bomb_fails_naming_the_file(cli, tmp_path):
    case = Path(__file__).parent / "cases" / "agot1e" / "card-asha-greyjoy.yaml"
    hostile = tmp_path / "laughs.yaml"
    hostile.write_text(LAUGHS + case.read_text(encoding="utf-8") + "notes: *l9\n", encoding="utf-8")
    done = cli("case", str(hostile))
    assert done.exit_code == 1 and f"{hostile}" in done.output and "alias" in done.output


@pytest.mark.parametrize("edit,named", [
    (lambda text: text.split("players:")[0] + "players: [stark, lannister]\n", "players"),
    (lambda text: re.sub(r"  stark:\n(    .*\n)+", "  stark: ned@example.org\n", text), "stark"),
    (lambda text: text.replace("  planning: 48h\n  step: 24h\n  grace: 1h\n", "").replace("deadlines:\n", "deadlines: 48h\n"),
     "deadlines"),
    (lambda text: text.replace("ruleset: agot1e", "ruleset: [agot1e]"), "ruleset"),
])
def test_a_game_yaml_with_a_wrong_type_is_named_with_an_example_and_left_alone(cli, tmp_path, edit, named):
    assert cli(*NEW).exit_code == 0
    path = tmp_path / "data" / "w" / "game.yaml"
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    broken = path.read_bytes()
    for command in (["status", "w"], ["show", "w", "--as", "stark"], ["web", "--links", "w"],
                    ["adjudicate", "w", "--force"], ["submit", "w", "--as", "stark", "-"]):
        done = cli(*command, input="ORDERS\n")
        assert done.exit_code == 1, (command, done.output)
        assert f"{path}" in done.output and f"'{named}'" in done.output and "example" in done.output, (command, done.output)
        assert "Traceback" not in done.output
    assert path.read_bytes() == broken and sorted(p.name for p in (path.parent / "states").iterdir()) == ["000001.yaml"]


@pytest.mark.parametrize("edit,named", [
    (lambda text: text.replace("ruleset: agot1e", "ruleset: [agot1e]"), "ruleset"),
    (lambda text: text + "expect: hello\n", "expect"),
    (lambda text: text.replace("decisions:\n", "decisions: [stark]\nold_decisions:\n"), "decisions"),
])
def test_a_rules_case_with_a_wrong_type_is_named_with_an_example(cli, tmp_path, edit, named):
    case = Path(__file__).parent / "cases" / "agot1e" / "card-asha-greyjoy.yaml"
    hostile = tmp_path / "case.yaml"
    hostile.write_text(edit(case.read_text(encoding="utf-8")), encoding="utf-8")
    done = cli("case", str(hostile))
    assert done.exit_code == 1 and f"{hostile}" in done.output, done.output
    assert f"'{named}'" in done.output and "example" in done.output and "crashed" not in done.output, done.output


@pytest.mark.parametrize("edit", [lambda text: re.sub(r"(?m)^cell: \d+", "cell: many", text),
                                  lambda text: text[:len(text) // 2]])
def test_a_broken_board_yaml_is_a_file_error_naming_it(tmp_path, monkeypatch, edit):
    """The drawn board (``games/<edition>/vN/board.yaml``): ``judge map`` printed a traceback."""
    board = tmp_path / "agot1e" / "v9" / "board.yaml"
    board.parent.mkdir(parents=True)
    board.write_text(edit(mapshapes.board_path("agot1e", "v1").read_text(encoding="utf-8")), encoding="utf-8")
    monkeypatch.setattr(mapshapes, "GAMES_DIR", tmp_path)
    with pytest.raises(yamlio.YamlFileError) as caught:
        mapshapes.shapes_for("agot1e", "v9")
    assert str(caught.value).startswith(f"{board}: ") and str(caught.value).count(str(board)) == 1


def test_claims_factions_of_the_wrong_type_are_named_with_an_example(tmp_path):
    from adjudicator.rulesets.claim import gamedata

    shutil.copytree(gamedata.DATA_DIR / "v1", tmp_path / "v1")
    factions = tmp_path / "v1" / "factions.yaml"
    factions.write_text(re.sub(r"(?ms)^factions:\n.*\Z", "factions: oops\n", factions.read_text(encoding="utf-8")),
                        encoding="utf-8")
    with pytest.raises(yamlio.YamlFileError) as caught:
        gamedata.load_gamedata_from(tmp_path / "v1", "v1")
    assert str(caught.value).startswith(f"{factions}: 'factions' must be a mapping") and "example" in str(caught.value)


def test_a_game_id_with_a_trailing_line_break_is_refused_and_makes_no_folder(cli, tmp_path):
    """``$`` matches before a final line break: ``judge new 'w<newline>'`` made the folder ``w\\n``."""
    done = cli("new", "w\n", *NEW[2:])
    assert done.exit_code == 1 and "bad game id 'w\\n'" in done.output and "example: westeros1" in done.output
    assert not (tmp_path / "data" / "w\n").exists()


def test_a_version_file_whose_events_or_state_have_the_wrong_type_is_named(cli, tmp_path):
    assert cli(*NEW).exit_code == 0
    path = tmp_path / "data" / "w" / "states" / "000001.yaml"
    good = path.read_text(encoding="utf-8")
    for broken, named in ((good.replace("events:", "events: hello\nold_events:", 1), "events"),
                          (re.sub(r"(?ms)^state:\n.*?(?=^\S|\Z)", "state: hello\n", good), "state")):
        path.write_text(broken, encoding="utf-8")
        for command in (["status", "w"], ["history", "w"], ["replay", "w"]):
            done = cli(*command)
            assert f"{path}" in done.output and f"'{named}' must be a" in done.output, (command, done.output)
        assert path.read_text(encoding="utf-8") == broken


@pytest.mark.parametrize("expectation,difference", [
    ("  events: Lannister\n", "events: no 'Lannister'"),
    ("  rejected: {stark: Lannister}\n", "rejected.stark: no error mentions 'Lannister'"),
    ("  rejected: {stark: 3}\n", "'rejected.stark' must be a list of substrings, found int (example: stark: [unknown area])"),
])
def test_a_case_expecting_one_text_instead_of_a_list_checks_that_text_not_each_letter(cli, tmp_path, expectation, difference):
    """No Lannister is in this case's events or errors: a word where a list belongs was checked one
    letter at a time (L, a, n, ... each found somewhere in order), so the case passed and could not fail."""
    case = Path(__file__).parent / "cases" / "agot1e" / "card-asha-greyjoy.yaml"
    written = tmp_path / "case.yaml"
    written.write_text(case.read_text(encoding="utf-8") + expectation, encoding="utf-8")
    done = cli("case", str(written))
    assert done.exit_code == 1 and difference in done.output and "'L'" not in done.output, done.output


def test_a_journal_entry_without_its_time_is_named_not_a_key_error(cli, tmp_path):
    assert cli(*NEW).exit_code == 0
    entry = tmp_path / "data" / "w" / "journal" / "000001.yaml"
    entry.write_text("format: 1\nseq: 1\nkind: adjudicate\nforce: true\nreason: gm\n", encoding="utf-8")
    for command in (["status", "w"], ["replay", "w"], ["web", "--links", "w"]):
        done = cli(*command)
        assert done.exit_code == 1 and f"{entry}: not a journal entry (needs seq, kind and at" in done.output, (command, done.output)


def test_tick_names_a_broken_game_file_in_one_line_without_a_traceback(cli, tmp_path):
    """The GM's cron mail shows what tick wrote: a file the GM can mend is one line, as elsewhere."""
    assert cli(*NEW).exit_code == 0
    path = tmp_path / "data" / "w" / "game.yaml"
    path.write_text("- not a game\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "adjudicator", "tick"], capture_output=True, text=True,
                          env=subprocess_env(tmp_path / "data", now=datetime(2026, 11, 25, 12, tzinfo=timezone.utc)))
    output = done.stdout + done.stderr
    assert done.returncode == 1 and f"w: FAILED, flagged for the GM: YamlFileError: {path}: expected a mapping" in output
    assert "Traceback" not in output, output


def test_a_deadline_that_is_no_duration_is_named_before_the_step_that_needs_it(cli, tmp_path):
    """``planning: forever`` was read only when a planning step began: a ValueError traceback then."""
    assert cli(*NEW).exit_code == 0
    path = tmp_path / "data" / "w" / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("planning: 48h", "planning: forever"), encoding="utf-8")
    for command in (["status", "w"], ["adjudicate", "w", "--force"]):
        done = cli(*command)
        assert done.exit_code == 1 and f"{path}: deadlines: 'planning' is not a duration: 'forever'" in done.output, done.output
        assert "examples: 48h" in done.output


@pytest.mark.parametrize("edit,named", [
    (lambda text: text.replace("round: 4", "round: four"), "round: expected a number, found 'four'"),
    (lambda text: text.replace("supply: {stark: 1,", "supply: {stark: one,"), "supply.stark: expected a number, found 'one'"),
    (lambda text: text.replace("King's Landing: 5", "King's Landing: five"),
     "neutral.King's Landing: expected a number, found 'five'"),
])
def test_a_word_for_a_number_in_an_agot_case_position_is_named_not_an_engine_crash(cli, tmp_path, edit, named):
    case = Path(__file__).parent / "cases" / "agot1e" / "card-asha-greyjoy.yaml"
    written = tmp_path / "case.yaml"
    written.write_text(edit(case.read_text(encoding="utf-8")), encoding="utf-8")
    done = cli("case", str(written))
    assert done.exit_code == 1 and named in done.output and "crashed" not in done.output, done.output


@pytest.mark.parametrize("case,houses", [
    ("agot1e/card-asha-greyjoy.yaml", "stark, lannister, baratheon, greyjoy, tyrell"),
    ("agot2e-ru/gold-economy-bid-over-the-purse.yaml", None),
    ("oriflamme/ahead-clear.yaml", "red, blue, green"),
    ("agotccg/ahead-a-whole-round-from-one-mail-each.yaml", "alice, bob"),
])
def test_decisions_of_a_house_not_in_the_case_name_it_and_the_houses_the_case_has(cli, tmp_path, case, houses):
    """agot1e's engine met the unknown house first: 'the engine crashed: KeyError: 'martell''."""
    source = (Path(__file__).parent / "cases" / case).read_text(encoding="utf-8")
    written = tmp_path / "case.yaml"
    written.write_text(source.replace("\ndecisions:\n", "\ndecisions:\n  martell: |\n    CLEAR\n", 1), encoding="utf-8")
    done = cli("case", str(written))
    assert done.exit_code == 1 and "crashed" not in done.output, done.output
    assert f"{written}: decisions: no player 'martell' in this case (players: " in done.output, done.output
    if houses:
        assert f"(players: {houses})" in done.output, done.output


def test_a_huge_title_is_cut_on_its_pass_line(cli, tmp_path):
    """A title of a million characters was printed whole on the PASS/FAIL line (and a title of line
    breaks took as many lines)."""
    source = (Path(__file__).parent / "cases" / "agot1e" / "card-asha-greyjoy.yaml").read_text(encoding="utf-8")
    written = tmp_path / "case.yaml"
    written.write_text(re.sub(r"(?m)^title: .*$", "title: \"" + "Asha\\n" * 200_000 + "\"", source), encoding="utf-8")
    done = cli("case", str(written))
    assert done.exit_code == 0, done.output[:500]
    head, rest = done.output.split("\n", 1)
    assert head.startswith("PASS Asha Asha ") and head.endswith("... (1000000 characters)") and len(head) <= 400, head[:500]
    assert rest == "1 passed, 0 failed\n"


def test_a_duplicate_key_is_refused_naming_the_key_and_both_lines():
    """YAML says a mapping's keys are unique; PyYAML kept the last one silently."""
    with pytest.raises(yamlio.YamlFileError) as caught:
        yamlio.loads("round: 3\nsupply:\n  stark: 1\nround: 4\n", "dup.yaml")
    assert str(caught.value) == "dup.yaml line 4: duplicate key 'round' (first on line 1): write each key once (example: round: 4)"
    with pytest.raises(yamlio.YamlFileError, match=r"line 2: duplicate key 'stark' \(first on line 1\)"):
        yamlio.loads("supply: {stark: 1,\n  lannister: 2, stark: 3}\n")
    # what is not a duplicate still reads: a merge key's values overridden, equal keys in different mappings
    assert yamlio.loads("base: &b {x: 1, y: 2}\nd: {<<: *b, x: 3}\ne: {x: 1}\n")["d"] == {"x": 3, "y": 2}


def test_a_rules_case_with_a_duplicate_key_fails_naming_it(cli, tmp_path):
    source = (Path(__file__).parent / "cases" / "agot1e" / "card-asha-greyjoy.yaml").read_text(encoding="utf-8")
    written = tmp_path / "case.yaml"
    written.write_text(source.replace("  round: 4\n", "  round: 4\n  round: 5\n"), encoding="utf-8")
    line = written.read_text(encoding="utf-8").splitlines().index("  round: 5") + 1
    done = cli("case", str(written))
    assert done.exit_code == 1 and f"{written} line {line}: duplicate key 'round' (first on line {line - 1})" in done.output, done.output


def test_a_game_yaml_with_a_duplicate_key_is_named_and_left_alone(cli, tmp_path):
    """game.yaml is read by the same loader: the GM who pastes a second ``ruleset:`` is told, not overruled."""
    assert cli(*NEW).exit_code == 0
    path = tmp_path / "data" / "w" / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "ruleset: agot2e\n", encoding="utf-8")
    broken = path.read_bytes()
    done = cli("status", "w")
    assert done.exit_code == 1 and f"{path} line " in done.output and "duplicate key 'ruleset' (first on line" in done.output
    assert path.read_bytes() == broken


def _position_error(tmp_path: Path, case: str, change: dict) -> str:
    """Why the rules case ``tests/cases/<case>`` with ``change`` made to its position cannot be run."""
    data = yamlio.load_mapping(Path(__file__).parent / "cases" / case)
    data["position"].update(change)
    written = tmp_path / "case.yaml"
    written.write_text(yamlio.dumps(data), encoding="utf-8")
    error = run_case(written).error
    assert error is not None, f"{change} was taken"
    return error


# every key of an AGoT case position (CASES.md, README "Rules cases") with a value of the wrong shape,
# and the start of what the runner must say: the key, what belongs there (then an example)
AGOT_POSITION_SLIPS = [
    ({"players": "stark"}, "players: expected a list, found 'stark'"),
    ({"players": ["stark", 5, "lannister"]}, "players, item 2: expected a text, found 5"),
    ({"seed": [1]}, "seed: expected a number, found a list [1]"),
    ({"round": 2.5}, "round: expected a number, found 2.5"),
    ({"step": ["action"]}, "step: expected a text, found a list ['action']"),
    ({"tracks": ["stark"]}, "tracks: expected a mapping, found a list ['stark']"),
    ({"tracks": {"iron_throne": 5}}, "tracks.iron_throne: expected a list, found 5"),
    ({"supply": [1]}, "supply: expected a mapping, found a list [1]"),
    ({"supply": {"stark": True}}, "supply.stark: expected a number, found True"),
    ({"power": 5}, "power: expected a mapping, found 5"),
    ({"wildlings": {"x": 1}}, "wildlings: expected a number, found a mapping {'x': 1}"),
    ({"areas": ["Winterfell"]}, "areas: expected a mapping, found a list ['Winterfell']"),
    ({"areas": {"Winterfell": ["footman"]}}, "areas.Winterfell: expected a mapping, found a list ['footman']"),
    ({"areas": {"Winterfell": {"stark": "footman"}}}, "areas.Winterfell.stark: expected a list, found 'footman'"),
    ({"areas": {"Winterfell": {"stark": [["footman"]]}}}, "areas.Winterfell.stark, item 1: expected a text, found a list"),
    ({"control": {"Lannisport": 5}}, "control.Lannisport: expected a text, found 5"),
    ({"control": ["Lannisport"]}, "control: expected a mapping, found a list"),
    ({"neutral": ["The Eyrie"]}, "neutral: expected a mapping, found a list"),
    ({"garrisons": 2}, "garrisons: expected a mapping, found 2"),
    ({"routed": {"Seagard": "footman"}}, "routed.Seagard: expected a list, found 'footman'"),
    ({"routed": {"Seagard": [{"footman": 1}]}}, "routed.Seagard, item 1: expected a text, found a mapping"),
    ({"orders": ["x"]}, "orders: expected a mapping, found a list ['x']"),
    ({"orders": {"Greywater Watch": ["march 0"]}}, "orders.Greywater Watch: expected a text, found a list"),
    ({"hands": ["Eddard Stark"]}, "hands: expected a mapping, found a list"),
    ({"hands": {"stark": "Eddard Stark"}}, "hands.stark: expected a list, found 'Eddard Stark'"),
    ({"discards": {"stark": 3}}, "discards.stark: expected a list, found 3"),
    ({"blade_used": "hello"}, "blade_used: expected true or false, found 'hello'"),
    ({"decks": ["Supply"]}, "decks: expected a mapping, found a list"),
    ({"decks": {"I": "Supply"}}, "decks.I: expected a list, found 'Supply'"),
    ({"tides_of_battle": [1]}, "tides_of_battle: expected true or false, found a list [1]"),
    ({"tides_next": "skull"}, "tides_next: expected a list, found 'skull'"),
    ({"wildling_deck": 3}, "wildling_deck: expected a list, found 3"),
    ({"restrictions": "Rains of Autumn"}, "restrictions: expected a list, found 'Rains of Autumn'"),
    ({"westeros_cards": {"I": ["Supply"]}}, "westeros_cards.I: expected a text, found a list"),
    ({"neutral": {5: 3}}, "neutral: the key 5 must be a text"),
    # the right shape, a house not in play where one belongs
    ({"supply": {"martell": 1}}, "supply.martell: 'martell' is not in play (houses: stark, lannister, baratheon, greyjoy, tyrell)"),
    ({"hands": {"x": ["Eddard Stark"]}}, "hands.x: 'x' is not in play (houses: "),
    ({"control": {"Lannisport": "martell"}}, "control.Lannisport: 'martell' is not in play (houses: "),
]


@pytest.mark.parametrize("change,said", AGOT_POSITION_SLIPS, ids=[s.split(":")[0] for _, s in AGOT_POSITION_SLIPS])
def test_a_value_of_the_wrong_shape_in_an_agot_case_position_is_named_with_an_example(tmp_path, change, said):
    """A list where a mapping belongs (``orders: [x]``), a mapping where a list belongs, a number where a
    text belongs: 'the engine crashed: AttributeError' (or a text read letter by letter, or a value kept
    that broke the game later), not the key named."""
    error = _position_error(tmp_path, "agot1e/card-asha-greyjoy.yaml", change)
    assert error.startswith(f"{tmp_path / 'case.yaml'}: {said}") and ("(example: " in error or "(houses: " in error), error


def test_a_number_of_houses_the_edition_has_no_game_for_is_named_not_a_traceback(cli, tmp_path):
    """``judge new`` with two agot1e players, or a case of one player: 'ValueError: no 2-player game'."""
    done = cli("new", "w", "--ruleset", "agot1e", "--player", "stark=ned@example.org", "--player",
               "lannister=tywin@example.org", "--no-mail")
    assert done.exit_code == 1 and "agot1e has no 2-player game (players: 3, 4 or 5; example: " in done.output, done.output
    case = yamlio.load_mapping(Path(__file__).parent / "cases" / "agot1e" / "card-asha-greyjoy.yaml")
    case["position"]["players"] = ["stark"]
    written = tmp_path / "case.yaml"
    written.write_text(yamlio.dumps(case), encoding="utf-8")
    done = cli("case", str(written))
    assert done.exit_code == 1 and "agot1e has no 1-player game" in done.output and "crashed" not in done.output, done.output


@pytest.mark.parametrize("change,said", [
    ({"options": "hostages"}, "options: expected a mapping, found 'hostages' (example: options: {hostages: no})"),
    ({"gold": {"stark": "five"}}, "gold.stark: expected a number, found 'five' (example: gold: {stark: 5})"),
    ({"debts": [1]}, "debts: expected a mapping, found a list [1]"),
    ({"loans": 2}, "loans: expected a mapping, found 2"),
    ({"hostages": 3}, "hostages: expected a list, found 3"),
    ({"hostages": ["Eddard Stark"]}, "hostages, item 1: expected a mapping, found 'Eddard Stark'"),
    ({"mercenaries": ["golden-company"]}, "mercenaries: expected a mapping, found a list"),
    ({"hostages": [{"card": "Eddard Stark", "holder": "lannister", "since": "two"}]},
     "hostages: Eddard Stark: since: expected a round number, found 'two' (example: "),
])
def test_a_value_of_the_wrong_shape_in_an_agot2e_ru_case_position_is_named_with_an_example(tmp_path, change, said):
    error = _position_error(tmp_path, "agot2e-ru/gold-economy-bid-over-the-purse.yaml", change)
    assert error.startswith(f"{tmp_path / 'case.yaml'}: {said}"), error


def _damage_round(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert re.search(r"(?m)^  round: \d+$", text)
    path.write_text(re.sub(r"(?m)^  round: \d+$", "  round: one", text), encoding="utf-8")


def test_a_version_whose_state_has_a_wrong_type_is_named_by_every_command_without_a_traceback(cli, tmp_path):
    """``round: one`` in the state of a version: 'TypeError: '<' not supported between instances of
    'int' and 'str'' with its traceback from status, show, map and adjudicate, and from replay when
    the first version is the damaged one; ``restrictions: 5`` from submit."""
    assert cli(*NEW).exit_code == 0
    first = tmp_path / "data" / "w" / "states" / "000001.yaml"
    good = first.read_text(encoding="utf-8")
    _damage_round(first)
    damaged = f"{first}: this version file is damaged: state.round: expected a number, found 'one' (a new game has round: 1)"
    for command in (["status", "w"], ["show", "w"], ["show", "w", "--as", "stark"], ["map", "w", "-o", str(tmp_path / "b.png")],
                    ["adjudicate", "w", "--force"]):
        done = cli(*command)
        assert done.exit_code == 1 and damaged in done.output, (command, done.output)
        assert "Traceback" not in done.output, (command, done.output)
    assert not list((tmp_path / "data" / "w" / "journal").iterdir())  # the adjudication the engine failed on is not journaled
    first.write_text(good.replace("  restrictions: []\n", "  restrictions: 5\n"), encoding="utf-8")
    done = cli("submit", "w", "--as", "stark", "-", input="ORDERS\nWinterfell: march -1\n")
    assert done.exit_code == 1 and "Traceback" not in done.output, done.output
    assert f"{first}: this version file is damaged: state.restrictions: expected a list, found 5 (a new game has restrictions: [])" \
        in done.output, done.output
    first.write_text(good, encoding="utf-8")
    assert cli("adjudicate", "w", "--force").exit_code == 0  # entries after version 1: the replay has steps to redo
    _damage_round(first)
    done = cli("replay", "w")
    assert done.exit_code == 1 and damaged in done.output and "Traceback" not in done.output, done.output


def test_a_version_the_judge_fails_on_without_a_wrong_type_is_still_named_without_a_traceback(cli, tmp_path):
    """A damage of the right type (an area the board does not have) is not found by comparing kinds: the
    command still names the version it failed on and the error, and how to look or roll back."""
    assert cli(*NEW).exit_code == 0
    path = tmp_path / "data" / "w" / "states" / "000001.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("\n    winterfell:\n", "\n    winterfel:\n", 1), encoding="utf-8")
    done = cli("show", "w", "--as", "stark")
    assert done.exit_code == 1 and "Traceback" not in done.output, done.output
    assert done.output.startswith(f"Error: {path}: the judge fails on this version (KeyError: ") and "winterfel" in done.output
    assert "judge rollback w --to N" in done.output, done.output


def test_tick_flags_a_game_whose_version_has_a_wrong_type_naming_the_file(cli, tmp_path):
    assert cli(*NEW).exit_code == 0
    first = tmp_path / "data" / "w" / "states" / "000001.yaml"
    _damage_round(first)
    done = subprocess.run([sys.executable, "-m", "adjudicator", "tick"], capture_output=True, text=True,
                          env=subprocess_env(tmp_path / "data", now=datetime(2026, 11, 25, 12, tzinfo=timezone.utc)))
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"w: FAILED, flagged for the GM: {first}: this version file is damaged: state.round: expected a number" in done.stderr
    assert "state.round" in yamlio.load_mapping(tmp_path / "data" / "w" / "flag.yaml")["problem"]
    assert "Traceback" not in done.stderr  # a file to mend, not a bug: one line, as for a YAML error


def test_judge_list_names_the_version_file_of_a_game_it_cannot_glance_at(cli, tmp_path):
    assert cli(*NEW).exit_code == 0
    first = tmp_path / "data" / "w" / "states" / "000001.yaml"
    first.write_text(first.read_text(encoding="utf-8").replace("\n  winner: null\n", "\n"), encoding="utf-8")
    done = cli("list")
    assert f"w                BROKEN: {first}: this version file is damaged: state: the key 'winner' is missing" in done.output, done.output


@pytest.mark.parametrize("case,change,said", [
    ("oriflamme/ahead-clear.yaml", {"round": "two"}, "round: expected a number, found 'two' (example: round: 2)"),
    ("oriflamme/ahead-clear.yaml", {"queue": {"red": "Lord"}}, "queue: expected a list, found a mapping"),
    ("oriflamme/ahead-clear.yaml", {"hands": {"red": "Spy"}}, "hands.red: expected a list, found 'Spy'"),
    ("claim/custom-deck-two-players.yaml", {"phase": "two"}, "phase: expected a number, found 'two'"),
    ("claim/custom-deck-two-players.yaml", {"hands": ["Giant 5"]}, "hands: expected a mapping, found a list"),
    ("claim/custom-deck-two-players.yaml", {"players": "alice"}, "players: expected a list, found 'alice'"),
    ("agotccg/ahead-a-whole-round-from-one-mail-each.yaml", {"round": [2]}, "round: expected a number, found a list [2]"),
    ("agotccg/ahead-a-whole-round-from-one-mail-each.yaml", {"characters": ["x"]}, "characters: expected a mapping"),
    ("agotccg/ahead-a-whole-round-from-one-mail-each.yaml", {"power": {"bob": "lots"}}, "power.bob: expected a number, found 'lots'"),
    ("agotccg/challenges-defaults-nobody-defends-and-pass.yaml", {"challenge": {"attacker": "alice", "type": "military"}},
     "challenge: defender missing (example: challenge: {attacker: alice, defender: bob,"),
])
def test_a_value_of_the_wrong_shape_in_another_rulesets_case_position_is_named(tmp_path, case, change, said):
    """The same slips in the positions of Oriflamme, Claim and the AGoT CCG: 'the engine crashed: ValueError'
    (or TypeError, AttributeError, KeyError) before."""
    error = _position_error(tmp_path, case, change)
    assert error.startswith(f"{tmp_path / 'case.yaml'}: {said}"), error
