"""What an agot2e-ru player reads: the board section names the game's variant options (on and off) and
HELP adds the variant's part, in English and wholly in Czech (tests/i18nhelp.py)."""

from __future__ import annotations

from adjudicator import reports
from adjudicator.messages import render
from i18nhelp import untranslated

HOUSES = ("stark", "lannister", "baratheon")


def _game(judge, options):
    judge.new_game("ru", "agot2e-ru", {h: {"address": f"{h}@example.org"} for h in HOUSES}, seed=3,
                   options={"preview": "yes", **options})
    return judge.present("ru")


def test_the_board_names_the_options_on_and_off(judge):
    present = _game(judge, {"half-support": "no"})
    english = reports.render_view(present, "stark", present.ruleset.view(present.state, "stark"))
    assert "Variant rules in this game (agot2e-ru): knights -1 in castle areas; siege towers 2;" in english
    assert "Switched off: half support." in english
    czech = reports.render_view(present, "stark", present.ruleset.view(present.state, "stark"), "cs")
    assert "Pravidla varianty v této hře (agot2e-ru): rytíři −1 v oblastech s městem či pevností;" in czech
    assert "Vypnuto: poloviční podpora." in czech
    assert untranslated(czech, "cs", ("agot", "agot2e")) == []


def test_help_adds_the_variant_in_english_and_czech(judge):
    present = _game(judge, {})
    english = reports.render_help(present, "stark")
    assert "The Russian fan variant (agot2e-ru)" in english and "SUPPORT <from> -> NEUTRAL [IN <area>]" in english
    czech = reports.render_help(present, "stark", "cs")
    assert "Ruská fanouškovská varianta (agot2e-ru)" in czech and "PODPORA <odkud> -> NEUTRÁLNÍ" in czech
    variant = czech[czech.index("Ruská fanouškovská varianta"):]  # the judge's frame names English commands too
    assert untranslated(variant, "cs", ("agot", "agot2e")) == []


def test_a_shared_win_names_the_equals_in_the_board_and_the_summary(judge):
    present = _game(judge, {})
    present.state.update(winner="draw", shared_win=["stark", "baratheon"], phase="over", step="over")
    english = reports.render_view(present, "stark", present.ruleset.view(present.state, "stark"))
    assert "Game over: Stark, Baratheon share the win" in english and "Game over: a draw" not in english
    czech = reports.render_view(present, "stark", present.ruleset.view(present.state, "stark"), "cs")
    assert "Konec hry: o vítězství se dělí Stark, Baratheon" in czech and "Konec hry: remíza" not in czech
    summary = present.ruleset.summary(present.state)
    assert render(summary, "en", "agot2e-ru") == "game over after round 1: Stark, Baratheon share the win"
    assert render(summary, "cs", "agot2e-ru") == "hra skončila po 1. kole: o vítězství se dělí rody Stark, Baratheon"
