"""agot2e-ru's game options and data: what ``judge new`` accepts and records, the old preview option, the
variant-params file's checks, and that a game with every option off plays as agot2e."""

from __future__ import annotations

import random
import shutil

import pytest

from adjudicator import yamlio
from adjudicator.paths import GAMES_DIR
from adjudicator.ruleset import RulesetError, get
from adjudicator.rulesets.agot.context import ctx_of
from adjudicator.rulesets.agot2e_ru import variant
from adjudicator.rulesets.agot2e_ru.variant import OPTIONS
from adjudicator.yamlio import YamlFileError

THREE = ["stark", "lannister", "baratheon"]


def test_a_game_without_options_is_the_variant_as_written_and_the_old_preview_option_changes_nothing():
    ru = get("agot2e-ru")
    state = ru.new_game(THREE, {}, 1)
    assert state["edition"] == "agot2e-ru" and state["options"] == {name: "yes" for name in OPTIONS}
    assert "tides_of_battle" not in state
    assert ru.new_game(THREE, {"preview": "yes"}, 1) == state  # (the gate of the variant's preview, gone)


def test_options_are_switched_off_one_by_one_and_recorded():
    state = get("agot2e-ru").new_game(THREE, {"preview": "yes", "half-support": "no", "tides-of-battle": "yes"}, 1)
    assert state["options"]["half-support"] == "no" and state["options"]["siege-towers"] == "yes"
    assert state["tides_of_battle"] is True
    ctx = ctx_of(state)
    assert not ctx.on("half-support") and ctx.on("siege-towers")


@pytest.mark.parametrize("options, problem", [
    ({"preview": "yes", "half-suport": "no"}, "unknown option half-suport"),
    ({"preview": "yes", "half-support": "maybe"}, "half-support takes yes or no"),
    ({"preview": "yes", "tides-of-battle": "often"}, "tides-of-battle takes yes or no"),
])
def test_a_wrong_option_is_refused_with_the_list_and_an_example(options, problem):
    with pytest.raises(RulesetError) as err:
        get("agot2e-ru").new_game(THREE, options, 1)
    assert problem in str(err.value)
    assert "half-support, knights-in-castles" in str(err.value) and "example: --option" in str(err.value)


def test_the_neutral_garrisons_follow_their_option():
    ru = get("agot2e-ru")
    on = ru.new_game(THREE, {"preview": "yes"}, 1)["neutral"]
    off = ru.new_game(THREE, {"preview": "yes", "neutral-garrisons": "no"}, 1)["neutral"]
    assert {a: on[a] for a in ("kings-landing", "riverrun", "the-twins", "seagard")} == \
        {"kings-landing": 7, "riverrun": 6, "the-twins": 6, "seagard": 3}
    assert off == get("agot2e").new_game(THREE, {"preview": "yes"}, 1)["neutral"]


def test_agot1e_and_agot2e_games_have_no_options_on():
    for name, options in (("agot1e", {}), ("agot2e", {"preview": "yes"})):
        ctx = ctx_of(get(name).new_game(THREE, options, 1))
        assert ctx.options == frozenset() and ctx.params is None


def test_every_option_off_plays_as_the_second_edition():
    """The options are the variant's only differences: with all of them off, the same seeded bots play
    the same game as agot2e, event for event."""
    off = {name: "no" for name in OPTIONS}
    games = []
    for name, options in (("agot2e", {"preview": "yes"}), ("agot2e-ru", {"preview": "yes", **off})):
        ruleset = get(name)
        state = ruleset.new_game(["stark", "lannister", "baratheon", "greyjoy"], options, 11)
        rng, texts = random.Random(11), []
        for _ in range(400):
            if ruleset.result(state) is not None:
                break
            for owed in ruleset.pending(state):
                mail = None if owed.done else ruleset.bot_mail(state, owed.player, rng)
                if mail:
                    ruleset.submit(state, owed.player, mail)
            state, events = ruleset.advance(state, force=True)
            texts += [e.text for e in events]
        games.append((texts, ruleset.result(state)))
    assert games[0] == games[1] and games[0][1] is not None and len(games[0][0]) > 200


def _riverrun_castle(data):
    data["neutral_garrisons"]["riverrun-castle"] = 6


def _nine_loans(data):  # the Iron Bank's loan by round: one per round of the game
    data["iron_bank"]["loan_by_round"] = data["iron_bank"]["loan_by_round"][:9]


@pytest.mark.parametrize("change, problem", [(_riverrun_castle, "'riverrun-castle' is no land area"),
                                             (_nine_loans, r"loan_by_round: one sum per round \(10\)")])
def test_the_params_file_is_checked(tmp_path, monkeypatch, change, problem):
    """A wrong area or value in variant-params.yaml names the file and the problem."""
    root = tmp_path / "games"
    shutil.copytree(GAMES_DIR / "agot2e", root / "agot2e")
    shutil.copytree(GAMES_DIR / "agot2e-ru", root / "agot2e-ru")
    path = root / "agot2e-ru" / "v1" / "variant-params.yaml"
    data = yamlio.load_mapping(path)
    change(data)
    path.write_text(yamlio.dumps(data), encoding="utf-8")
    monkeypatch.setattr(variant, "GAMES_DIR", root)
    variant._load.cache_clear()
    try:
        with pytest.raises(YamlFileError, match=f"variant-params.yaml.*{problem}"):
            variant.load_params("v1")
    finally:
        variant._load.cache_clear()


def test_the_params_mark_every_value_seed_or_ours():
    """Every value line of variant-params.yaml says where it comes from (issue 15: ours are marked)."""
    lines = (GAMES_DIR / "agot2e-ru" / "v1" / "variant-params.yaml").read_text(encoding="utf-8").splitlines()
    values = [line for line in lines if ":" in line and not line.lstrip().startswith("#")
              and not line.partition("#")[0].rstrip().endswith(":") and not line.startswith("format")]
    unmarked = [line for line in values if "# seed" not in line and "# ours" not in line]
    assert unmarked == []


def test_support_for_a_neutral_force_is_read_in_english_czech_and_russian_and_only_with_the_option():
    """``SUPPORT <area> -> NEUTRAL`` (Czech NEUTRÁLNÍ, Russian НЕЙТРАЛ): refused in a game without the
    option, with the reason; unknown to agot1e's grammar (its errors stay as they were)."""
    from adjudicator.rulesets.agot.grammar import GameDataNames, parse_mail
    from adjudicator.rulesets.agot1e.edition import load_gamedata as first_edition
    from adjudicator.rulesets.agot2e.edition import load_gamedata as second_edition

    names = GameDataNames(second_edition())
    for text in ("SUPPORT Harrenhal -> neutral", "PODPORA Harrenhal -> neutrální síla", "SUPPORT Harrenhal -> НЕЙТРАЛ"):
        [command] = parse_mail(text, names).commands
        assert (command.src, command.house) == ("harrenhal", "neutral"), text
    assert not parse_mail("SUPPORT Harrenhal -> neutral", GameDataNames(first_edition())).ok
    assert get("agot2e-ru").line("SUPPORT Harrenhal -> Neutral", "cs") == "PODPORA Harrenhal -> neutrální"

    houses = ["stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell"]
    for options, refused in (({"preview": "yes"}, False), ({"preview": "yes", "neutral-support": "no"}, True)):
        ruleset = get("agot2e-ru")
        state = ruleset.new_game(houses, options, 1)
        state["orders"]["ironmans-bay"] = "support"
        state["areas"]["ironmans-bay"] = {"greyjoy": ["ship"]}
        state.update(phase="action", step="raid")
        reply = ruleset.submit(state, "greyjoy", "SUPPORT Ironman's Bay -> NEUTRAL IN Seagard")
        errors = [line.error.render("en") for line in reply.parsed.lines if line.error]
        assert reply.applied != refused
        assert errors == (["no house supports a neutral force in this game (SUPPORT ... -> NEUTRAL is the agot2e-ru"
                           " option neutral-support)"] if refused else [])


def test_hostages_need_the_gold_economy():
    """Ransoms and execution votes are paid in gold: ``judge new`` refuses hostages asked for without
    gold-economy, saying how to fix it; gold-economy off alone takes the hostages off with it."""
    ru = get("agot2e-ru")
    with pytest.raises(RulesetError) as err:
        ru.new_game(THREE, {"preview": "yes", "gold-economy": "no", "hostages": "yes"}, 1)
    assert "the option hostages needs gold-economy" in str(err.value)
    assert "--option gold-economy=no --option hostages=no" in str(err.value)
    alone = ru.new_game(THREE, {"preview": "yes", "gold-economy": "no"}, 1)
    assert alone["options"]["hostages"] == "no" and "hostages" not in alone
    assert ru.new_game(THREE, {"preview": "yes"}, 1)["hostages"] == {"held": [], "executed": []}
