"""agot2e's own names over the AGoT family's catalogue (templates/<lang>/agot2e/messages.yaml, read by
adjudicator/messages.py for the texts of a 2nd-edition game): where both editions share a card id and the
2nd edition prints another name (Ser Rodrick Cassel, Melisandre, Wildlings Attack), a 2nd-edition player
reads the 2nd edition's name, in English and in Czech, in the events of a report and on its board; a
1st-edition player still reads the 1st edition's."""

from __future__ import annotations

import pytest

from adjudicator import messages, reports, yamlio
from adjudicator.judge import Judge
from adjudicator.messages import Msg
from adjudicator.paths import TEMPLATES_DIR
from adjudicator.ruleset import Event
from adjudicator.rulesets.agot1e.edition import load_gamedata as first_edition
from adjudicator.rulesets.agot2e.edition import load_gamedata as second_edition
from adjudicator.store import Store
from conftest import FakeClock
from i18nhelp import untranslated


def test_every_house_card_and_westeros_card_reads_as_its_edition_prints_it():
    for gd, ruleset in ((first_edition(), "agot1e"), (second_edition(), "agot2e")):
        for cards in gd.house_cards.values():
            for card in cards:
                for language in ("en", "cs"):  # house cards keep their printed English names in Czech too
                    assert messages.name(card.id, "card", language, "agot", ruleset=ruleset) == card.name, ruleset
        for card_id, card in gd.westeros_cards.items():
            assert messages.name(card_id, "westeros_card", "en", "agot", ruleset=ruleset) == card.name, ruleset


def test_every_2nd_edition_ability_reads_in_both_languages_and_the_1st_editions_are_unchanged():
    second = [c for cards in second_edition().house_cards.values() for c in cards if c.ability]
    assert len(second) == 24
    for card in second:
        en, cs = (messages.name(card.id, "ability", lang, "agot", ruleset="agot2e") for lang in ("en", "cs"))
        assert en != card.id and cs != card.id and en != cs
        assert en.split(" (")[0].split(".")[0] == card.ability.split(" (")[0].split(".")[0], "our words of the data"
    for cards in first_edition().house_cards.values():
        for card in cards:
            for lang in ("en", "cs"):
                assert messages.name(card.id, "ability", lang, "agot", ruleset="agot1e") == \
                    messages.name(card.id, "ability", lang, "agot")


@pytest.mark.parametrize("language", ["en", "cs"])
def test_the_2nd_editions_names_lie_over_the_family_catalogue_and_change_nothing_else(language):
    own = yamlio.load_mapping(TEMPLATES_DIR / language / "agot2e" / "messages.yaml")["names"]
    other = yamlio.load_mapping(TEMPLATES_DIR / ("cs" if language == "en" else "en") / "agot2e" / "messages.yaml")["names"]
    assert {kind: set(table) for kind, table in own.items()} == {kind: set(table) for kind, table in other.items()}
    family = messages.catalogue(language, "agot")
    second = messages.catalogue(language, "agot", "agot2e")
    assert messages.catalogue(language, "agot", "agot1e") == family, "agot1e has no names of its own"
    assert second.messages == family.messages
    for kind, table in family.names.items():
        for ident, entry in table.items():
            assert second.names[kind][ident] == own.get(kind, {}).get(ident, entry)
    wildlings = Msg("agot.westeros.effect", card="wildling-attack")
    assert messages.render(wildlings, language, "agot2e") != messages.render(wildlings, language)
    assert messages.render(wildlings, language, "agot1e") == messages.render(wildlings, language)


def _game(tmp_path, ruleset: str):
    judge = Judge(Store(tmp_path / ruleset, fsync=False), now=FakeClock())
    houses = ("stark", "lannister", "baratheon")
    judge.new_game("g", ruleset, {h: {"address": f"{h}@example.org"} for h in houses}, seed=4,
                   options={"preview": "yes"} if ruleset == "agot2e" else {})
    return judge.present("g")


EVENTS = [Event("agot.westeros.drawn", deck="III", card="wildling-attack"),
          Event("agot.wildlings.reclaimed", house="stark", card="rodrik-cassel"),
          Event("agot.wildlings.discarded", house="baratheon", cards=["melisandre"])]


def test_a_report_of_a_2nd_edition_game_names_the_cards_as_the_2nd_edition_prints_them(tmp_path):
    second = _game(tmp_path, "agot2e")
    second.state["westeros"] = {"cards": {"III": "wildling-attack"}}  # the board section's Westeros cards
    en = reports.render_report(second, "stark", EVENTS, 1, "en")
    assert "III Wildlings Attack" in en and "Stark takes Ser Rodrick Cassel back" in en
    assert "Baratheon discards Melisandre." in en
    assert "Wildling Attack" not in en and "Rodrik" not in en and "Asshai" not in en
    assert en.count("Wildlings Attack") == 2, "in the events and on the board"
    assert "Roose Bolton (2): If you lose, your whole discard pile goes back to your hand" in en  # the hand
    assert "Robb Stark (3): If you win, you decide where the losing army retreats" in en
    cs = reports.render_report(second, "stark", EVENTS, 1, "cs")
    assert "Ser Rodrick Cassel" in cs and "Melisandre" in cs and "Asshai" not in cs
    assert "Roose Bolton (síla 2): Pokud prohrajete" in cs and "roose-bolton" not in cs
    assert untranslated(cs.split("\n", 1)[1], "cs", ("agot",)) == []  # below the machine-read X-Judge line
    first = _game(tmp_path, "agot1e")
    first.state["westeros"] = {"cards": {"III": "wildling-attack"}}
    en1 = reports.render_report(first, "stark", EVENTS, 1, "en")
    assert "III Wildling Attack" in en1 and "Ser Rodrik Cassel" in en1 and "Melisandre of Asshai" in en1
    assert "Wildlings Attack" not in en1 and "Rodrick" not in en1
    assert "Robb Stark (2): Attacking Knights in your army add +3" in en1
