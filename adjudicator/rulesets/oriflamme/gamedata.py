"""The Oriflamme game data: the game's numbers and its ten family cards, loaded and checked.

The data lives in ``games/oriflamme/<version>/cards.yaml``; a game records the version it was
created with (:data:`DATA_VERSION` for new games) and keeps loading it, so a data correction (a
new version directory) never changes a running game under its players. Every load checks ids,
counts and cross references and raises :class:`~adjudicator.yamlio.YamlFileError` naming the
file. Everything returned is immutable and cached per version.

Card names live in one place, the message catalogues ``templates/<lang>/oriflamme/messages.yaml``
(``names: card:``), because a name is a word of a language: the reports print it from there in
each language and the case a sentence needs, and the grammar reads every language's names from
there too (the nominative and the accusative a command puts them in), so that what a mail prints
can always be written back, and a new language's names are read as soon as its catalogue has
them. ``cards.yaml`` keeps the rules (kind, ability, numbers) and, as ``alt_names``, spellings
players may write that no catalogue prints ("Murder", "Decree"). ``Card.name`` is the English
name: the canonical lines' notation (:mod:`.lines`).

Players write any of those names, or a unique start of 3+ letters of one; case and diacritics do
not matter (:func:`fold`).
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

DATA_VERSION = "v1"  # the version new games are created with
DATA_DIR = GAMES_DIR / "oriflamme"
FORMAT = 1

ABILITIES = ("archer", "soldier", "spy", "heir", "shapeshifter", "lord", "assassination", "royal-decree", "ambush",
             "conspiracy")
KINDS = ("character", "intrigue")
NUMBERS = {"spy": {"steal"}, "heir": {"gain"}, "lord": {"gain", "per_own_neighbour"}, "ambush": {"gain", "trap_gain"},
           "conspiracy": {"multiplier"}}
GAME_KEYS = ("players", "families", "set_aside", "hand", "rounds", "start_influence", "wait_influence",
             "elimination_reward")
PREFIX_MIN = 3
_ID = re.compile(r"[a-z]+(?:-[a-z]+)*")

class UnknownName(ValueError):
    """A card name the data does not know: ``message`` says why (a message), ``suggestion`` is the
    closest real name in the canonical notation (English), if any."""

    def __init__(self, message: messages.Msg, suggestion: str | None = None):
        super().__init__(message)
        self.message, self.suggestion = message, suggestion


@dataclass(frozen=True)
class Card:
    id: str
    name: str  # English (the English catalogue's): the canonical lines' notation
    kind: str  # character | intrigue
    ability: str
    numbers: Mapping[str, int]
    alt_names: tuple[str, ...] = ()

    @property
    def character(self) -> bool:
        return self.kind == "character"


@dataclass(frozen=True)
class Game:
    min_players: int
    max_players: int
    families: tuple[str, ...]
    set_aside: int
    hand: int
    rounds: int
    start_influence: int
    wait_influence: int
    elimination_reward: int


@dataclass(frozen=True)
class GameData:
    version: str
    game: Game
    cards: tuple[Card, ...]
    by_id: Mapping[str, Card]
    names: Mapping[str, str]  # folded name -> card id

    def card(self, card_id: str) -> Card:
        return self.by_id[card_id]

    def name(self, card_id: str, language: str) -> str:
        """The card's name in ``language`` (nominative), from its catalogue."""
        return _names_of(language)[card_id][0]

    def number(self, card_id: str, key: str) -> int:
        return int(self.by_id[card_id].numbers[key])

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.cards)

    def resolve(self, text: str) -> str:
        """What a player wrote -> a card id; :class:`UnknownName` (with a suggestion) otherwise."""
        key = fold(text).strip(" .,;:!'\"")
        if not key:
            raise UnknownName(messages.Msg("oriflamme.error.card_missing"))
        if key in self.names:
            return self.names[key]
        if len(key) >= PREFIX_MIN:
            found = {card for name, card in self.names.items() if name.startswith(key)}
            if len(found) == 1:
                return found.pop()
            if len(found) > 1:
                raise UnknownName(messages.Msg("oriflamme.error.card_ambiguous", text=text.strip(),
                                               cards=sorted(found, key=lambda c: self.by_id[c].name)))
        close = difflib.get_close_matches(key, list(self.names), 1, 0.6)
        suggestion = self.names[close[0]] if close else None
        raise UnknownName(messages.Msg("oriflamme.error.card_unknown", text=text.strip(), suggestion=suggestion),
                          self.by_id[suggestion].name if suggestion else None)


def _fail(path: Path, message: str):
    raise YamlFileError(path, message)


def load_gamedata_from(folder: Path, version: str = DATA_VERSION) -> GameData:
    """Load and check ``folder/cards.yaml`` (tests point this at broken copies)."""
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
    low, high = yamlio.whole_number(path, "game.players.min", players["min"], 2), yamlio.whole_number(path, "game.players.max", players["max"], 2)
    families = raw_game["families"]
    if (not isinstance(families, list) or len(families) < high or len(set(families)) != len(families)
            or not all(isinstance(f, str) and _ID.fullmatch(f) for f in families)):
        _fail(path, f"game.families: expected at least {high} distinct lower-case names")
    game = Game(low, high, tuple(families), *(yamlio.whole_number(path, f"game.{k}", raw_game[k]) for k in GAME_KEYS[2:]))
    if low > high:
        _fail(path, "game.players: min is above max")

    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list):
        _fail(path, "cards: expected a list")
    cards: list[Card] = []
    for n, raw in enumerate(raw_cards, 1):
        where = f"cards[{n}]"
        if not isinstance(raw, dict):
            _fail(path, f"{where}: expected a mapping")
        for key in ("id", "kind", "ability"):
            if not isinstance(raw.get(key), str) or not raw[key].strip():
                _fail(path, f"{where}: {key} missing or empty")
        if not _ID.fullmatch(raw["id"]):
            _fail(path, f"{where}: bad id {raw['id']!r} (lower-case words joined by -)")
        if raw["kind"] not in KINDS:
            _fail(path, f"{where} ({raw['id']}): kind must be one of {', '.join(KINDS)}")
        if raw["ability"] not in ABILITIES:
            _fail(path, f"{where} ({raw['id']}): unknown ability {raw['ability']!r}")
        numbers = raw.get("numbers") or {}
        if not isinstance(numbers, dict) or set(numbers) != NUMBERS.get(raw["ability"], set()):
            wanted = sorted(NUMBERS.get(raw["ability"], set())) or "none"
            _fail(path, f"{where} ({raw['id']}): numbers must be exactly {wanted}")
        for key, value in numbers.items():
            yamlio.whole_number(path, f"{where}.numbers.{key}", value)
        alt = raw.get("alt_names") or []
        if not isinstance(alt, list) or not all(isinstance(a, str) and a.strip() for a in alt):
            _fail(path, f"{where} ({raw['id']}): alt_names must be a list of names")
        if raw["id"] not in _names_of("en"):
            _fail(path, f"{where} ({raw['id']}): no name in templates/en/oriflamme/messages.yaml")
        cards.append(Card(raw["id"], _names_of("en")[raw["id"]][0], raw["kind"], raw["ability"],
                          MappingProxyType(dict(numbers)), tuple(alt)))
    if sorted(c.ability for c in cards) != sorted(ABILITIES):
        _fail(path, f"cards: expected one card for each ability ({', '.join(ABILITIES)})")
    if len({c.id for c in cards}) != len(cards):
        _fail(path, "cards: duplicate id")
    if game.set_aside + game.hand != len(cards) or not 1 <= game.rounds <= game.hand:
        _fail(path, f"game: set_aside + hand must be the {len(cards)} cards and rounds at most the hand")

    for language in messages.LANGUAGES:
        unnamed = [c.id for c in cards if c.id not in _names_of(language)]
        if unnamed:
            _fail(path, f"cards {', '.join(unnamed)}: no name in templates/{language}/oriflamme/messages.yaml")
    names: dict[str, str] = {}
    for card in cards:
        written = [n for language in messages.LANGUAGES for n in _names_of(language)[card.id]]
        for name in (card.id.replace("-", " "), *written, *card.alt_names):
            key = fold(name)
            if names.get(key, card.id) != card.id:
                _fail(path, f"cards: the name {name!r} is used by {names[key]} and {card.id}")
            names[key] = card.id
    reserved = {fold(f) for f in families} & set(names)
    if reserved:
        _fail(path, f"game.families: {', '.join(sorted(reserved))} is also a card name")
    return GameData(version, game, tuple(cards), MappingProxyType({c.id: c for c in cards}), MappingProxyType(names))


def _names_of(language: str) -> dict[str, tuple[str, ...]]:
    """Card id -> the names players write in ``language``: the nominative first, then the accusative
    (``VYLOŽ Lučištnici``), from the language's catalogue."""
    table = messages.catalogue(language, "oriflamme").names.get("card") or {}
    out = {}
    for card_id, entry in table.items():
        forms = [entry.get("nom"), entry.get("acc")] if isinstance(entry, Mapping) else [entry]
        out[str(card_id)] = tuple(dict.fromkeys(str(f) for f in forms if f))
    return out


@functools.cache
def load_gamedata(version: str = DATA_VERSION) -> GameData:
    if not re.fullmatch(r"v[0-9]+", version):
        raise YamlFileError(DATA_DIR / version, "not a data version (v1, v2, ...)")
    return load_gamedata_from(DATA_DIR / version, version)
