"""The agotccg game data: the game's numbers, the starter set's cards and decks, loaded and checked.

The data lives in ``games/agotccg/<version>/cards.yaml`` and ``decks.yaml``: a rules-compatible
starter set authored for this judge, not the publisher's cards. A game records the version it was
created with (:data:`DATA_VERSION` for new games) and keeps loading it. Every load checks ids,
numbers, cross references and the deck rules of S004 ("pravidla tvorby balíčku") and raises
:class:`~adjudicator.yamlio.YamlFileError` naming the file. Everything returned is immutable and
cached per version.

Card names are words of a language: they live in the message catalogues
``templates/<lang>/agotccg/messages.yaml`` (``names: card:``), as Oriflamme's do; the reports
print them from there and the grammar reads every language's names (:meth:`GameData.matching`).
``Card.name`` is the English name: the canonical lines' notation. Players write a name, a unique
start of 3+ letters of one, or the starts of its words in order ("Rickard Stone" for "Lord Rickard
Stonewood"); case and diacritics do not matter (:func:`fold`).
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from adjudicator import messages, yamlio
from adjudicator.mailbody import fold
from adjudicator.paths import GAMES_DIR
from adjudicator.yamlio import YamlFileError

DATA_VERSION = "v1"
DATA_DIR = GAMES_DIR / "agotccg"
FORMAT = 1

TYPES = ("character", "location", "attachment", "plot")
ICONS = ("military", "intrigue", "power")
KEYWORDS = ("limited", "renown", "stealth", "no-attachments")
GAME_KEYS = ("players", "win_power", "hand", "setup_gold", "setup_limited", "draw", "out_of_house", "round_limited",
             "deck_min", "max_copies", "plots")
RESERVED_NAME_WORDS = frozenset({"on", "na", "nothing", "nic", "stealth", "skryte", "against", "proti", "nobody",
                                 "nikdo", "me", "ja"})
"""Words a card name may not hold: they structure command lines (``MARSHAL <card> ON <card>``)."""
PREFIX_MIN = 3
_ID = re.compile(r"[a-z]+(?:-[a-z]+)*")

class UnknownName(ValueError):
    """A name no card has: ``message`` says why (a message), ``suggestion`` a card id or None."""

    def __init__(self, message: messages.Msg, suggestion: str | None = None):
        super().__init__(message)
        self.message, self.suggestion = message, suggestion


@dataclass(frozen=True)
class Card:
    id: str
    name: str  # English (the canonical lines' notation)
    type: str
    house: str  # a house or "neutral"
    only: str | None
    unique: bool
    character: str  # the unique character (versions share it); the card's id otherwise
    cost: int
    str: int  # a character's STR; an attachment's modifier
    icons: tuple[str, ...]  # a character's icons; the icons an attachment grants
    traits: tuple[str, ...]
    keywords: frozenset[str]
    income_bonus: int
    initiative_bonus: int
    income: int  # plots
    initiative: int
    claim: int

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords


@dataclass(frozen=True)
class Deck:
    id: str
    house: tuple[str, ...]  # one house, or the two of an alliance
    plots: tuple[str, ...]
    cards: Mapping[str, int]

    def instances(self) -> list[str]:
        """Every card of the house deck as ``<id>#<copy>`` (copies numbered from 1 per card)."""
        return [f"{card}#{n}" for card, count in self.cards.items() for n in range(1, count + 1)]


@dataclass(frozen=True)
class Game:
    min_players: int
    max_players: int
    win_power: int
    hand: int
    setup_gold: int
    setup_limited: int
    draw: int
    out_of_house: int
    round_limited: int
    deck_min: int
    max_copies: int
    plots: int


@dataclass(frozen=True)
class GameData:
    version: str
    game: Game
    houses: tuple[str, ...]
    cards: tuple[Card, ...]
    by_id: Mapping[str, Card]
    decks: tuple[Deck, ...]
    deck_by_id: Mapping[str, Deck]
    names: Mapping[str, frozenset[str]]  # folded name -> card ids

    def card(self, card_id: str) -> Card:
        return self.by_id[card_id.split("#", 1)[0]]

    def name(self, card_id: str, language: str = "en") -> str:
        return _names_of(language)[card_id.split("#", 1)[0]]

    def deck(self, deck_id: str) -> Deck:
        return self.deck_by_id[deck_id]

    def matching(self, text: str, among=None) -> set[str]:
        """Card ids whose name ``text`` names, best tier first: a whole name, else a unique-or-not
        start of 3+ letters, else the starts of the name's words in order. ``among``: only these ids."""
        key = fold(text).strip(" .,;:!'\"")
        pool = None if among is None else set(among)

        def keep(ids):
            return {i for i in ids if pool is None or i in pool}

        found = keep(self.names.get(key, ()))
        if found or len(key) < PREFIX_MIN:
            return found
        found = keep(i for name, ids in self.names.items() if name.startswith(key) for i in ids)
        if found:
            return found
        words = key.split()
        return keep(i for name, ids in self.names.items() if _words_match(words, name.split()) for i in ids)

    def unknown(self, text: str, among=None) -> UnknownName:
        """The error for a name that names none of ``among`` (or no card at all)."""
        key = fold(text).strip(" .,;:!'\"")
        if not key:
            return UnknownName(messages.Msg("agotccg.error.card_missing"))
        pool = list(self.names) if among is None else [n for n, ids in self.names.items() if ids & set(among)]
        close = difflib.get_close_matches(key, pool, 1, 0.6)
        suggestion = sorted(self.names[close[0]])[0] if close else None
        return UnknownName(messages.Msg("agotccg.error.card_unknown", text=text.strip(), suggestion=suggestion),
                           suggestion)

    def out_of_house(self, card_id: str, houses) -> bool:
        card = self.card(card_id)
        return card.house != "neutral" and card.house not in houses

    def cost(self, card_id: str, houses) -> int:
        """The gold a player of ``houses`` pays for the card (S004: +2 out of house)."""
        return self.card(card_id).cost + (self.game.out_of_house if self.out_of_house(card_id, houses) else 0)


def _words_match(words: list[str], name_words: list[str]) -> bool:
    """Each word of the query is the start of a word of the name, in order."""
    i = 0
    for word in words:
        while i < len(name_words) and not name_words[i].startswith(word):
            i += 1
        if i == len(name_words):
            return False
        i += 1
    return True


def deck_problems(gd: GameData, deck: Deck) -> list[str]:
    """What breaks S004's deck rules in ``deck`` (empty: a legal deck)."""
    problems = []
    for house in deck.house:
        if house not in gd.houses:
            problems.append(f"unknown house {house!r}")
    if len(deck.house) not in (1, 2):
        problems.append("a house card names one house, an alliance two")
    alliance = len(deck.house) == 2
    if len(deck.plots) != gd.game.plots or len(set(deck.plots)) != len(deck.plots):
        problems.append(f"the plot deck must hold exactly {gd.game.plots} different plots")
    total = 0
    per_character: dict[str, int] = {}
    for card_id, count in [*((p, 1) for p in deck.plots), *deck.cards.items()]:
        if card_id not in gd.by_id:
            problems.append(f"unknown card {card_id!r}")
            continue
        card = gd.by_id[card_id]
        if card.only and (alliance or card.only not in deck.house):
            problems.append(f"{card_id} is House {card.only} only")
        if card.type == "plot":
            continue
        total += count
        per_character[card.character] = per_character.get(card.character, 0) + count
    for card_id in deck.plots:
        if card_id in gd.by_id and gd.by_id[card_id].type != "plot":
            problems.append(f"{card_id} in the plot deck is no plot")
    for card_id in deck.cards:
        if card_id in gd.by_id and gd.by_id[card_id].type == "plot":
            problems.append(f"the plot {card_id} is in the house deck")
    for character, count in per_character.items():
        if count > gd.game.max_copies:
            problems.append(f"{count} copies of {character} (at most {gd.game.max_copies}, versions together)")
    if total < gd.game.deck_min:
        problems.append(f"{total} cards in the house deck (at least {gd.game.deck_min})")
    return problems


def _fail(path: Path, message: str):
    raise YamlFileError(path, message)


def _card(path: Path, n: int, raw, houses: tuple[str, ...], names_en: Mapping[str, str]) -> Card:
    where = f"cards[{n}]"
    if not isinstance(raw, dict):
        _fail(path, f"{where}: expected a mapping")
    card_id = raw.get("id")
    if not isinstance(card_id, str) or not _ID.fullmatch(card_id):
        _fail(path, f"{where}: bad id {card_id!r} (lower-case words joined by -)")
    where = f"{where} ({card_id})"
    kind = raw.get("type")
    if kind not in TYPES:
        _fail(path, f"{where}: type must be one of {', '.join(TYPES)}")
    house = raw.get("house")
    if house != "neutral" and house not in houses:
        _fail(path, f"{where}: house must be neutral or one of {', '.join(houses)}")
    only = raw.get("only")
    if only is not None and only not in houses:
        _fail(path, f"{where}: only must name a house")
    allowed = {"id", "type", "house", "only"} | ({"income", "initiative", "claim"} if kind == "plot" else
                                                 {"unique", "character", "cost", "traits", "keywords", "income_bonus",
                                                  "initiative_bonus"} | ({"str", "icons"} if kind in
                                                                         ("character", "attachment") else set()))
    extra = sorted(set(raw) - allowed)
    if extra:
        _fail(path, f"{where}: unknown field(s) {', '.join(extra)} for a {kind}")
    icons = raw.get("icons") or []
    if not isinstance(icons, list) or any(i not in ICONS for i in icons) or len(set(icons)) != len(icons):
        _fail(path, f"{where}: icons must be distinct ones of {', '.join(ICONS)}")
    keywords = raw.get("keywords") or []
    if not isinstance(keywords, list) or any(k not in KEYWORDS for k in keywords):
        _fail(path, f"{where}: keywords must be ones of {', '.join(KEYWORDS)}")
    traits = raw.get("traits") or []
    if not isinstance(traits, list) or not all(isinstance(t, str) and _ID.fullmatch(t) for t in traits):
        _fail(path, f"{where}: traits must be a list of lower-case words")
    if kind == "character":
        for key in ("cost", "str"):
            if key not in raw:
                _fail(path, f"{where}: a character needs {key}")
    if kind in ("location", "attachment") and "cost" not in raw:
        _fail(path, f"{where}: a {kind} needs cost")
    if kind == "plot":
        for key in ("income", "initiative", "claim"):
            if key not in raw:
                _fail(path, f"{where}: a plot needs {key}")
    if card_id not in names_en:
        _fail(path, f"{where}: no name in templates/en/agotccg/messages.yaml (names: card:)")
    unique = bool(raw.get("unique", False))
    character = raw.get("character", card_id)
    if "character" in raw and (not unique or not isinstance(character, str) or not _ID.fullmatch(character)):
        _fail(path, f"{where}: character (versions) is for unique cards, a lower-case id")
    return Card(
        id=card_id, name=names_en[card_id], type=kind, house=house, only=only, unique=unique, character=character,
        cost=yamlio.whole_number(path, f"{where}.cost", raw.get("cost", 0)),
        str=yamlio.whole_number(path, f"{where}.str", raw.get("str", 0), None if kind == "attachment" else 0),
        icons=tuple(icons), traits=tuple(traits), keywords=frozenset(keywords),
        income_bonus=yamlio.whole_number(path, f"{where}.income_bonus", raw.get("income_bonus", 0)),
        initiative_bonus=yamlio.whole_number(path, f"{where}.initiative_bonus", raw.get("initiative_bonus", 0)),
        income=yamlio.whole_number(path, f"{where}.income", raw.get("income", 0)),
        initiative=yamlio.whole_number(path, f"{where}.initiative", raw.get("initiative", 0)),
        claim=yamlio.whole_number(path, f"{where}.claim", raw.get("claim", 0)),
    )


def load_gamedata_from(folder: Path, version: str = DATA_VERSION) -> GameData:
    """Load and check ``folder/cards.yaml`` and ``folder/decks.yaml`` (tests point this at broken copies)."""
    path = Path(folder) / "cards.yaml"
    data = yamlio.load_mapping(path, format_version=FORMAT)
    raw_game = data.get("game")
    if not isinstance(raw_game, dict):
        _fail(path, "game: expected a mapping of the game's numbers")
    missing = [k for k in GAME_KEYS if k not in raw_game]
    if missing:
        _fail(path, f"game: missing {', '.join(missing)}")
    players = raw_game["players"]
    if not isinstance(players, dict) or set(players) != {"min", "max"}:
        _fail(path, "game.players: expected {min: N, max: N}")
    game = Game(yamlio.whole_number(path, "game.players.min", players["min"], 2), yamlio.whole_number(path, "game.players.max", players["max"], 2),
                *(yamlio.whole_number(path, f"game.{k}", raw_game[k], 1) for k in GAME_KEYS[1:]))
    houses = data.get("houses")
    if not isinstance(houses, list) or not houses or not all(isinstance(h, str) and _ID.fullmatch(h) for h in houses):
        _fail(path, "houses: expected a list of lower-case names")
    houses = tuple(houses)
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list):
        _fail(path, "cards: expected a list")
    names_en = _names_of("en")
    cards = tuple(_card(path, n, raw, houses, names_en) for n, raw in enumerate(raw_cards, 1))
    by_id = {c.id: c for c in cards}
    if len(by_id) != len(cards):
        _fail(path, "cards: duplicate id")
    for card in cards:
        versions = [c for c in cards if c.character == card.character]
        if any(c.unique != card.unique or c.type != card.type for c in versions):
            _fail(path, f"cards: the versions of {card.character} must all be unique cards of one type")
    for language in messages.LANGUAGES:
        unnamed = [c.id for c in cards if c.id not in _names_of(language)]
        if unnamed:
            _fail(path, f"cards {', '.join(unnamed)}: no name in templates/{language}/agotccg/messages.yaml")
    names: dict[str, set[str]] = {}
    for card in cards:
        for language in messages.LANGUAGES:
            written = _names_of(language)[card.id]
            if set(re.split(r"[\s,:#]+", fold(written))) & RESERVED_NAME_WORDS or re.search(r"[,:#]", written):
                _fail(path, f"{card.id}: the {language} name {written!r} holds a word or sign of the mail grammar")
            names.setdefault(fold(written), set()).add(card.id)
    for name, ids in names.items():
        if len(ids) > 1:
            _fail(path, f"cards: the name {name!r} is used by {', '.join(sorted(ids))}")
    gd_cards = MappingProxyType(by_id)

    deck_path = Path(folder) / "decks.yaml"
    deck_data = yamlio.load_mapping(deck_path, format_version=FORMAT)
    raw_decks = deck_data.get("decks")
    if not isinstance(raw_decks, list) or not raw_decks:
        _fail(deck_path, "decks: expected a list")
    decks = []
    for n, raw in enumerate(raw_decks, 1):
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not _ID.fullmatch(raw["id"]):
            _fail(deck_path, f"decks[{n}]: a mapping with a lower-case id")
        house = raw.get("house")
        house = tuple(house) if isinstance(house, list) else (house,)
        plots = raw.get("plots")
        content = raw.get("cards")
        if not isinstance(plots, list) or not isinstance(content, dict):
            _fail(deck_path, f"decks[{n}] ({raw['id']}): plots (a list) and cards (id: count) are needed")
        counts = {str(k): yamlio.whole_number(deck_path, f"decks[{n}].cards.{k}", v, 1) for k, v in content.items()}
        decks.append(Deck(raw["id"], house, tuple(str(p) for p in plots), MappingProxyType(counts)))
    gd = GameData(version, game, houses, cards, gd_cards, tuple(decks), MappingProxyType({d.id: d for d in decks}),
                  MappingProxyType({k: frozenset(v) for k, v in names.items()}))
    if len(gd.deck_by_id) != len(decks):
        _fail(deck_path, "decks: duplicate id")
    for deck in decks:
        problems = deck_problems(gd, deck)
        if problems:
            _fail(deck_path, f"deck {deck.id}: " + "; ".join(problems))
    return gd


def _names_of(language: str) -> dict[str, str]:
    """Card id -> its name in ``language`` (the catalogue's ``names: card:``)."""
    return _names_cached(language)


@functools.cache
def _names_cached(language: str) -> dict[str, str]:
    table = messages.catalogue(language, "agotccg").names.get("card") or {}
    return {str(k): str(v) for k, v in table.items()}


@functools.cache
def load_gamedata(version: str = DATA_VERSION) -> GameData:
    if not re.fullmatch(r"v[0-9]+", version):
        raise YamlFileError(DATA_DIR / version, "not a data version (v1, v2, ...)")
    return load_gamedata_from(DATA_DIR / version, version)
