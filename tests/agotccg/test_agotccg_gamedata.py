"""The starter set (games/agotccg/v1): labelled as ours, every deck legal under S004's deck rules,
every card named in both languages, every basic rule exercised by some card, and broken data
refused naming the file."""

from __future__ import annotations

import shutil
from collections import Counter

import pytest

from adjudicator.paths import GAMES_DIR
from adjudicator.rulesets.agotccg.gamedata import Deck, deck_problems, load_gamedata, load_gamedata_from
from adjudicator.yamlio import YamlFileError

GD = load_gamedata()


def test_the_data_says_it_is_our_own_set_not_the_publishers():
    for name in ("cards.yaml", "decks.yaml"):
        text = (GAMES_DIR / "agotccg" / "v1" / name).read_text(encoding="utf-8")
        assert "rules-compatible starter set" in text and "not the publisher's cards" in text, name


def test_five_houses_two_decks_each_of_sixty_cards_and_seven_plots():
    assert GD.houses == ("stark", "lannister", "baratheon", "targaryen", "greyjoy")
    for house in GD.houses:
        decks = [d for d in GD.decks if d.house == (house,)]
        assert len(decks) == 2, house
        for deck in decks:
            assert deck_problems(GD, deck) == []
            assert sum(deck.cards.values()) >= 60
            assert len(deck.plots) == len(set(deck.plots)) == 7
            per_character = Counter()
            for card, n in deck.cards.items():
                per_character[GD.card(card).character] += n
            assert max(per_character.values()) <= 3


def test_the_set_exercises_every_basic_rule():
    cards = [c for c in GD.cards if c.type != "plot"]
    assert {k for c in cards for k in c.keywords} == {"limited", "renown", "stealth", "no-attachments"}
    assert {c.type for c in GD.cards} == {"character", "location", "attachment", "plot"}
    assert any(c.unique and c.has("no-attachments") for c in cards)  # duplicates on No attachments
    assert any(c.unique and c.type == "location" for c in cards)
    versions = Counter(c.character for c in cards if c.unique)
    assert any(n > 1 for n in versions.values())  # versions of one character
    assert any(c.type == "character" and c.str == 0 for c in cards)  # 0 STR never wins
    assert any(c.type == "attachment" and c.str < 0 for c in cards)  # STR floored at 0
    assert any(c.type == "attachment" and c.icons for c in cards)
    assert any(c.income_bonus for c in cards) and any(c.initiative_bonus for c in cards)
    assert any(c.only for c in cards) and any(c.only for c in GD.cards if c.type == "plot")
    plots = [c for c in GD.cards if c.type == "plot"]
    assert {p.claim for p in plots} >= {0, 1, 2, 3}
    out_of_house = [d for d in GD.decks if any(GD.card(c).house not in (*d.house, "neutral") for c in d.cards)]
    assert out_of_house  # the +2 gold penalty is played


def test_every_card_has_a_name_in_english_and_czech():
    for card in GD.cards:
        assert GD.name(card.id, "en") == card.name
        assert GD.name(card.id, "cs")


@pytest.mark.parametrize("change, problem", [
    (lambda d: Deck(d.id, d.house, d.plots[:6], d.cards), "exactly 7 different plots"),
    (lambda d: Deck(d.id, d.house, d.plots[:6] + d.plots[:1], d.cards), "exactly 7 different plots"),
    (lambda d: Deck(d.id, d.house, d.plots, dict(list(d.cards.items())[:10])), "cards in the house deck"),
    (lambda d: Deck(d.id, d.house, d.plots, {**d.cards, "stark-old-wolf": 2}), "copies of rickard-stonewood"),
    (lambda d: Deck(d.id, ("lannister",), d.plots, d.cards), "is House stark only"),
    (lambda d: Deck(d.id, ("stark", "baratheon"), d.plots, d.cards), "is House stark only"),
])
def test_the_deck_rules(change, problem):
    deck = change(GD.deck("stark-a"))
    assert any(problem in p for p in deck_problems(GD, deck)), deck_problems(GD, deck)


def test_broken_data_is_refused_naming_the_file(tmp_path):
    folder = tmp_path / "v1"
    shutil.copytree(GAMES_DIR / "agotccg" / "v1", folder)
    decks = folder / "decks.yaml"
    decks.write_text(decks.read_text(encoding="utf-8").replace("stark-guardsman: 3", "stark-guardsman: 1", 1),
                     encoding="utf-8")
    with pytest.raises(YamlFileError, match=r"decks.yaml.*deck stark-a: 58 cards"):
        load_gamedata_from(folder)
    cards = folder / "cards.yaml"
    shutil.copy(GAMES_DIR / "agotccg" / "v1" / "decks.yaml", decks)
    cards.write_text(cards.read_text(encoding="utf-8").replace("keywords: [renown]", "keywords: [glory]", 1),
                     encoding="utf-8")
    with pytest.raises(YamlFileError, match=r"cards.yaml.*keywords must be ones of"):
        load_gamedata_from(folder)
