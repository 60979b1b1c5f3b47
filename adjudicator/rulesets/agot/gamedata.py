"""The AGoT game data of an edition: board, setup tables, House cards and Westeros decks, loaded and checked.

Why a shape: each edition's base game has its own counts (areas, houses, cards, units); the edition
passes them as a :class:`Shape` and a file that disagrees is broken.

Why versions: the data lives in ``games/<edition>/<version>/`` (``map.yaml``, ``setup.yaml``,
``house_cards.yaml``, ``westeros_decks.yaml``). A game records the version it was created with
(its edition's ``data_version`` for new games) and keeps loading it, so a data correction (a new version
directory) never changes a running game under its players.

Why so many checks: the data is hand-transcribed and partly guessed (doubts are YAML comments in the
files). Every load checks ids, counts and cross references, and any problem raises
:class:`~adjudicator.yamlio.YamlFileError` naming the file, so a GM sees ``setup.yaml: ...`` instead
of a wrong adjudication much later. Everything returned is immutable and cached per version.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, NoReturn

from adjudicator import yamlio
from adjudicator.paths import GAMES_DIR
from adjudicator.messages import Msg
from adjudicator.yamlio import YamlFileError

from .board import CASTLES, Area, Board, NameEntry, NameIndex, UnknownName

__all__ = [
    "Shape", "GameData", "Setup", "PlayerCount", "OrderToken", "Wildlings",
    "HouseCard", "WesterosCard", "DeckEntry", "WesterosDeck", "WildlingCard", "WildlingOutcome", "TidesCard",
    "UnknownName",
    "load_gamedata", "load_gamedata_from",
]

FORMAT = 1

# What every edition has; the rest is the edition's Shape.
ORDER_TOKENS = 15
ORDER_KINDS = ("march", "defense", "support", "raid", "consolidate")
TRACKS = ("iron_throne", "fiefdoms", "kings_court")
SPECIAL_TOKENS = ("iron_throne", "valyrian_steel_blade", "messenger_raven")
DECKS = ("I", "II", "III")

_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_VERSION = re.compile(r"v[0-9]+")


@dataclass(frozen=True)
class Shape:
    """What an edition's base game has (its components); the loader refuses data that disagrees."""

    edition: str  # the directory under games/: games/<edition>/<version>/
    land_areas: int
    sea_areas: int
    houses: int
    cards_per_house: int
    units: tuple[str, ...]
    tiebreaks: tuple[str, ...]  # the final tie-breaks the data may name, in victory.final_tiebreak
    max_card_strength: int
    port_areas: int = 0  # 2e: ports, a third kind of area
    wildling_cards: int = 0  # 2e: the wildling deck (wildling_cards.yaml); 1e has none
    tides_of_battle: int = 0  # 2e: the Tides of Battle deck (tides_of_battle.yaml); 1e has none

    @property
    def directory(self) -> Path:
        return GAMES_DIR / self.edition


# --- the data ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HouseCard:
    id: str  # short and stable: game states and reports use it
    name: str
    house: str
    strength: int
    swords: int
    fortifications: int
    ability: str | None = None
    ability_cz: str | None = None
    alt_names: tuple[str, ...] = ()
    # 2e: the ability as the engine reads it (house_cards.yaml header): its kind, when it resolves,
    # what its owner chooses (None: nothing), whether it may be declined, and its numbers
    ability_key: str | None = None
    timing: str | None = None
    choice: str | None = None
    optional: bool = False
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


TIMINGS = ("cancel", "immediately", "static", "on_win", "on_loss", "after_combat")
"""When a 2e card's ability resolves, in this order within a combat (FAQ1)."""


@dataclass(frozen=True)
class OrderToken:
    """One kind of order token; ``count`` copies per house. ``text``/``short``: the mail grammar."""

    id: str
    kind: str  # march | defense | support | raid | consolidate
    bonus: int  # march/defense/support modifier
    star: bool
    count: int
    text: str
    short: str


@dataclass(frozen=True)
class PlayerCount:
    """The rules that depend on the number of players (CZ p.13)."""

    players: int
    houses: tuple[str, ...]  # houses played
    absent: tuple[str, ...]  # their start units stay as neutral forces; not on the tracks
    instant_win: int  # cities + strongholds that win at once
    kings_court_stars: tuple[int, ...]  # starred orders per King's Court position
    removed_units: Mapping[str, Mapping[str, tuple[str, ...]]] = field(
        default_factory=lambda: MappingProxyType({}))  # 2e: start units not placed in this count
    neutral_forces: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))  # 2e, map.yaml
    impassable: tuple[str, ...] = ()  # 2e, map.yaml: areas closed for the whole game


@dataclass(frozen=True)
class Wildlings:
    track: tuple[int, ...]  # threat values
    start: int
    every_house_loss: int | None = None  # 1e: muster points' worth of units each house removes when the wildlings win
    lowest_bidder_extra: int | None = None
    attack_at: int | None = None  # 2e: the threat that makes the wildlings attack at once
    after_nights_watch_win: int | None = None  # 2e: the threat after a Night's Watch win
    after_wildlings_win: int | None = None  # 2e: the threat moves by this after a wildling win


@dataclass(frozen=True)
class Setup:
    """``setup.yaml``: starting position and rule tables. Track lists are position 1 first."""

    houses: Mapping[str, str]  # id -> display name
    starting_units: Mapping[str, Mapping[str, tuple[str, ...]]]  # house -> area -> units
    tracks: Mapping[str, tuple[str, ...]]  # 5-player start
    special_tokens: Mapping[str, str]  # token -> track whose position 1 holds it
    starting_power: int
    power_limit: int
    starting_supply: Mapping[str, int]
    supply_armies: Mapping[int, tuple[int, ...]]  # supply level -> max size of each allowed army
    unit_limits: Mapping[str, int]
    unit_strength: Mapping[str, int]
    muster_costs: Mapping[str, int]  # footman, knight, ship, upgrade
    upgrade_to: tuple[str, ...]  # what an upgraded footman may become
    castle_only_units: tuple[str, ...]  # 2e siege engines: strength only against castle areas
    port_max_ships: int  # 2e: ships one port holds (0: no ports)
    order_tokens: tuple[OrderToken, ...]
    wildlings: Wildlings
    rounds: int
    westeros_from_round: int
    final_tiebreak: tuple[str, ...]
    player_counts: Mapping[int, PlayerCount]

    def game(self, players: int) -> PlayerCount:
        try:
            return self.player_counts[players]
        except KeyError:
            raise ValueError(f"no {players}-player game; possible: {sorted(self.player_counts)}") from None

    @functools.cached_property
    def _armies_allowed(self) -> tuple[dict[int, tuple[int, ...]], int]:
        return {level: tuple(sorted(sizes, reverse=True)) for level, sizes in self.supply_armies.items()}, \
            max(self.supply_armies)

    def armies_allowed(self, level: int) -> tuple[int, ...]:
        """The sizes of the armies a house at supply ``level`` may have, largest first (a level above the
        table's counts as its top); worked out once (every march, retreat and muster asks it)."""
        table, top = self._armies_allowed
        return table[min(level, top)]

    def victory_target(self, players: int) -> int:
        return self.game(players).instant_win

    def start_tracks(self, players: int) -> dict[str, tuple[str, ...]]:
        """Start tracks without the absent houses: the others move up (CZ p.13)."""
        absent = set(self.game(players).absent)
        return {track: tuple(h for h in order if h not in absent) for track, order in self.tracks.items()}

    def start_holders(self, players: int) -> dict[str, str]:
        """Special token -> the house holding it at the start."""
        tracks = self.start_tracks(players)
        return {token: tracks[track][0] for token, track in self.special_tokens.items()}


@dataclass(frozen=True)
class WesterosCard:
    id: str
    name: str
    effect: str
    name_cz: str | None = None  # 1e: the Czech rulebook's words
    effect_cz: str | None = None
    effect_key: str | None = None  # 2e: the kind of effect, with its params
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class WildlingOutcome:
    """What one bidder group (highest, lowest, everyone else) of a 2e wildling card gets."""

    effect: str
    params: Mapping[str, Any]
    choice: str | None = None


@dataclass(frozen=True)
class WildlingCard:
    id: str
    name: str
    effect_key: str
    highest_bidder: WildlingOutcome
    lowest_bidder: WildlingOutcome
    everyone_else: WildlingOutcome


@dataclass(frozen=True)
class TidesCard:
    id: str
    name: str
    strength: int
    swords: int
    fortifications: int
    skulls: int
    count: int


@dataclass(frozen=True)
class DeckEntry:
    card: WesterosCard
    count: int
    mammoth: bool


@dataclass(frozen=True)
class WesterosDeck:
    id: str  # I, II, III
    entries: tuple[DeckEntry, ...]
    size: int  # printed deck size; the known entries may add up to less

    def copies(self) -> tuple[tuple[str, bool], ...]:
        """(card id, mammoth) for every known physical card, in file order (the engine shuffles)."""
        return tuple((e.card.id, e.mammoth) for e in self.entries for _ in range(e.count))


@dataclass(frozen=True)
class GameData:
    version: str
    board: Board
    setup: Setup
    house_cards: Mapping[str, tuple[HouseCard, ...]]  # house -> its 7 cards
    westeros_cards: Mapping[str, WesterosCard]
    westeros_decks: Mapping[str, WesterosDeck]  # I, II, III
    wildling_cards: Mapping[str, WildlingCard]  # 2e
    tides_of_battle: Mapping[str, TidesCard]  # 2e
    _cards_by_id: Mapping[str, HouseCard] = field(repr=False, compare=False)
    _card_names: NameIndex = field(repr=False, compare=False)
    _house_card_names: Mapping[str, NameIndex] = field(repr=False, compare=False)

    def card(self, card_id: str) -> HouseCard:
        try:
            return self._cards_by_id[card_id]
        except KeyError:
            raise KeyError(f"unknown house card id {card_id!r}") from None

    def resolve_card(self, text: str, house: str | None = None) -> HouseCard:
        """The House card ``text`` names, among ``house``'s cards if given.

        Full name, alt name or id (any case, punctuation ignored) beats a unique 3+ letter prefix of
        the name taken from any of its words on ("Tywin", "Loras", "Ser Lo"); otherwise
        :class:`UnknownName`. A card of another house is reported as such.
        """
        if house is None:
            return self.card(self._card_names.resolve(text))
        if house not in self._house_card_names:
            raise ValueError(f"unknown house {house!r}")
        try:
            return self.card(self._house_card_names[house].resolve(text))
        except UnknownName as exc:
            if exc.ambiguous:
                raise
            try:
                other = self.card(self._card_names.resolve(text))
            except UnknownName:
                raise exc from None
            raise UnknownName(text, "card", exc.suggestions, msg=Msg(
                "agot.error.card_of_other_house", text=text, card=other.id, owner=other.house, house=house)) from None


def _card_entry(card: HouseCard) -> NameEntry:
    """Exact: name, alt names, id. Prefix (one tier, so it must be unique): the name from any word
    on, so "Tywin", "Loras" and "Ser Lo" work while "Lannister" or "Rob" stay ambiguous."""
    names = (card.name, *card.alt_names)
    starts = tuple(" ".join(words[i:]) for n in names for words in [n.split()] for i in range(len(words)))
    return NameEntry(card.id, card.name, (*names, card.id), (starts,))


# --- loading -------------------------------------------------------------------------------------


def load_gamedata(shape: Shape, version: str) -> GameData:
    """The game data of ``version`` (a directory under ``games/<edition>``), loaded once and shared."""
    if not isinstance(version, str) or not _VERSION.fullmatch(version):
        raise ValueError(f"bad data version {version!r} (expected v1, v2, ...)")
    return _load_cached(shape, version)


@functools.cache
def _load_cached(shape: Shape, version: str) -> GameData:  # one cache key per version, however it was passed
    return load_gamedata_from(shape, shape.directory / version)


def load_gamedata_from(shape: Shape, directory: Path | str) -> GameData:
    """Load and check the four files in ``directory`` (not cached: tests and data tools)."""
    directory = Path(directory)
    board = _read_map(shape, directory / "map.yaml")
    setup = _read_setup(shape, directory / "setup.yaml", board)
    forces, closed = _read_count_areas(_Reader(shape, directory / "map.yaml"), board)
    setup = dataclasses.replace(setup, player_counts=MappingProxyType({
        n: dataclasses.replace(count, neutral_forces=MappingProxyType(forces.get(n, {})),
                               impassable=closed.get(n, ())) for n, count in setup.player_counts.items()}))
    _check_homes(directory / "map.yaml", board, setup.houses)
    cards = _read_house_cards(shape, directory / "house_cards.yaml", setup)
    westeros_cards, decks = _read_westeros(shape, directory / "westeros_decks.yaml")
    wildling_cards = _read_wildlings(shape, directory / "wildling_cards.yaml") if shape.wildling_cards else {}
    tides = _read_tides(shape, directory / "tides_of_battle.yaml") if shape.tides_of_battle else {}
    every_card = [card for house_cards in cards.values() for card in house_cards]
    return GameData(
        version=directory.name,
        board=board,
        setup=setup,
        house_cards=MappingProxyType(cards),
        westeros_cards=MappingProxyType(westeros_cards),
        westeros_decks=MappingProxyType(decks),
        wildling_cards=MappingProxyType(wildling_cards),
        tides_of_battle=MappingProxyType(tides),
        _cards_by_id=MappingProxyType({card.id: card for card in every_card}),
        _card_names=NameIndex("card", map(_card_entry, every_card)),
        _house_card_names=MappingProxyType(
            {house: NameIndex("card", map(_card_entry, hc)) for house, hc in cards.items()}),
    )


class _Reader:
    """Typed access to one parsed file; every failure is a YamlFileError naming the file."""

    def __init__(self, shape: Shape, path: Path):
        self.shape = shape
        self.path = path
        self.data = yamlio.load_mapping(path, format_version=FORMAT)

    def fail(self, problem: str) -> NoReturn:
        raise YamlFileError(self.path, problem)

    def need(self, ok: Any, problem: str) -> None:
        if not ok:
            self.fail(problem)

    def keys(self, value: Any, where: str, required: set[str], optional: set[str] = frozenset()) -> dict:
        value = self.mapping(value, where)
        missing = sorted(required - value.keys())
        unknown = sorted(map(str, value.keys() - required - optional))
        problems = ([f"unknown key {', '.join(unknown)}"] if unknown else []) + (
            [f"missing {', '.join(missing)}"] if missing else [])
        self.need(not problems, f"{where}: {'; '.join(problems)}")
        return value

    def mapping(self, value: Any, where: str) -> dict:
        self.need(isinstance(value, dict), f"{where}: expected a mapping, found {_what(value)}")
        return value

    def seq(self, value: Any, where: str) -> list:
        self.need(isinstance(value, list), f"{where}: expected a list, found {_what(value)}")
        return value

    def integer(self, value: Any, where: str, low: int | None = 0, high: int | None = None) -> int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        self.need(ok, f"{where}: expected a whole number, found {_what(value)}")
        self.need(low is None or value >= low, f"{where}: {value} is below {low}")
        self.need(high is None or value <= high, f"{where}: {value} is above {high}")
        return value

    def flag(self, value: Any, where: str) -> bool:
        self.need(isinstance(value, bool), f"{where}: expected true or false, found {_what(value)}")
        return value

    def text(self, value: Any, where: str) -> str:
        self.need(isinstance(value, str) and value.strip(), f"{where}: expected text, found {_what(value)}")
        return value

    def ident(self, value: Any, where: str) -> str:
        self.need(isinstance(value, str) and _ID.fullmatch(value), f"{where}: {value!r} is not a kebab-case id")
        return value

    def choice(self, value: Any, where: str, allowed: tuple) -> Any:
        self.need(value in allowed, f"{where}: {value!r} is not one of {', '.join(map(str, allowed))}")
        return value

    def texts(self, value: Any, where: str) -> tuple[str, ...]:
        return tuple(self.text(v, where) for v in self.seq(value, where))

    def numbers(self, value: Any, where: str, keys: set[str], low: int = 0, high: int | None = None) -> dict:
        """A mapping with exactly ``keys``, each a whole number in [low, high]."""
        return {k: self.integer(v, f"{where}.{k}", low, high) for k, v in self.keys(value, where, keys).items()}


def _what(value: Any) -> str:
    return "nothing" if value is None else f"{type(value).__name__} {value!r}"[:60]


# --- map.yaml ------------------------------------------------------------------------------------

_LAND_KEYS = {"name", "kind", "castle", "supply", "power"}
_LAND_OPTIONAL = {"home_of", "island", "neutral_force", "aliases", "garrison"}


def _read_map(shape: Shape, path: Path) -> Board:
    r = _Reader(shape, path)
    top = r.keys(r.data, "map.yaml", {"format", "muster_points", "areas", "borders"},
                 {"not_adjacent", "neutral_forces", "impassable"} if shape.port_areas else set())
    points = r.keys(top["muster_points"], "muster_points", set(CASTLES))
    muster = {c: r.integer(points[c], f"muster_points.{c}") for c in CASTLES}
    areas = []
    for area_id, spec in r.mapping(top["areas"], "areas").items():
        where = f"area {area_id}"
        r.ident(area_id, where)
        kind = r.choice(r.mapping(spec, where).get("kind"), f"{where}: kind",
                        ("land", "sea", "port") if shape.port_areas else ("land", "sea"))
        if kind == "land":
            r.keys(spec, where, _LAND_KEYS, _LAND_OPTIONAL)
        elif kind == "port":
            r.keys(spec, where, {"name", "kind", "port_of", "sea"}, {"aliases"})
        else:
            r.keys(spec, where, {"name", "kind"}, {"aliases"})
        castle = r.choice(spec.get("castle", "none"), f"{where}: castle", CASTLES)
        neutral = spec.get("neutral_force")
        areas.append(Area(
            id=area_id,
            name=r.text(spec["name"], f"{where}: name"),
            kind=kind,
            castle=castle,
            muster_points=muster[castle],
            supply=r.integer(spec.get("supply", 0), f"{where}: supply"),
            power=r.integer(spec.get("power", 0), f"{where}: power"),
            home_of=None if spec.get("home_of") is None else r.ident(spec["home_of"], f"{where}: home_of"),
            island=r.flag(spec.get("island", False), f"{where}: island"),
            neutral_force=None if neutral is None else r.integer(neutral, f"{where}: neutral_force", low=1),
            aliases=r.texts(spec.get("aliases", []), f"{where}: aliases"),
            garrison=None if spec.get("garrison") is None else r.integer(spec["garrison"], f"{where}: garrison", low=1),
            port_of=spec.get("port_of"),
            sea=spec.get("sea"),
        ))
    borders = []
    for i, pair in enumerate(r.seq(top["borders"], "borders"), 1):
        ok = isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)
        r.need(ok, f"borders entry {i}: expected [area, area], found {_what(pair)}")
        borders.append((pair[0], pair[1]))
    try:
        board = Board(areas, borders)
    except ValueError as exc:
        r.fail(str(exc))
    land, sea = len(board.land_areas), len(board.sea_areas)
    r.need((land, sea) == (shape.land_areas, shape.sea_areas),
           f"expected {shape.land_areas} land and {shape.sea_areas} sea areas, found {land} and {sea}")
    r.need(len(board.port_areas) == shape.port_areas,
           f"expected {shape.port_areas} ports, found {len(board.port_areas)}")
    for port in board.port_areas:
        r.need(board.area(board.area(port).port_of).castle != "none", f"area {port}: port_of is no castle area")
    for i, pair in enumerate(r.seq(top.get("not_adjacent", []), "not_adjacent"), 1):
        ok = isinstance(pair, list) and len(pair) == 2 and all(a in board for a in pair)
        r.need(ok, f"not_adjacent entry {i}: expected [area, area], found {_what(pair)}")
        r.need(not board.adjacent(*pair), f"not_adjacent entry {i}: {pair[0]} and {pair[1]} are listed as a border")
    return board


def _read_count_areas(r: "_Reader", board: Board) -> tuple[dict[int, dict[str, int]], dict[int, tuple[str, ...]]]:
    """2e, map.yaml: the neutral force tokens and the impassable areas of each player count."""
    forces, closed = {}, {}
    for players, placed in r.mapping(r.data.get("neutral_forces", {}), "neutral_forces").items():
        placed = r.mapping(placed or {}, f"neutral_forces.{players}")
        for area in placed:
            r.need(area in board and board.is_land(area), f"neutral_forces.{players}: {area!r} is no land area")
        forces[players] = {a: r.integer(n, f"neutral_forces.{players}.{a}", 1) for a, n in placed.items()}
    for players, areas in r.mapping(r.data.get("impassable", {}), "impassable").items():
        areas = r.texts(areas or [], f"impassable.{players}")
        for area in areas:
            r.need(area in board and board.is_land(area), f"impassable.{players}: {area!r} is no land area")
        closed[players] = areas
    return forces, closed


# --- setup.yaml ----------------------------------------------------------------------------------


def _read_setup(shape: Shape, path: Path, board: Board) -> Setup:
    r = _Reader(shape, path)
    top = r.keys(r.data, "setup.yaml", {
        "format", "houses", "starting_units", "tracks", "special_tokens", "power_tokens", "supply", "units",
        "order_tokens", "kings_court_stars", "wildlings", "victory", "players"}, {"ports"} if shape.port_areas else set())
    houses = {r.ident(h, "houses"): r.text(name, f"houses.{h}")
              for h, name in r.mapping(top["houses"], "houses").items()}
    r.need(len(houses) == shape.houses, f"houses: expected {shape.houses}, found {len(houses)}")

    units = r.keys(top["units"], "units", {"limit", "strength", "muster_cost"},
                   {"strength_only_against_castles", "upgrade_to"})
    limits = r.numbers(units["limit"], "units.limit", set(shape.units), low=1)
    strength = r.numbers(units["strength"], "units.strength", set(shape.units))
    costs = r.numbers(units["muster_cost"], "units.muster_cost", {*shape.units, "upgrade"}, low=1)

    start_units = _read_start_units(r, top["starting_units"], houses, board, limits)
    tracks = {}
    for name, order in r.keys(top["tracks"], "tracks", set(TRACKS)).items():
        order = r.texts(order, f"tracks.{name}")
        r.need(sorted(order) == sorted(houses), f"tracks.{name}: expected each house once, found {list(order)}")
        tracks[name] = order
    special = r.keys(top["special_tokens"], "special_tokens", set(SPECIAL_TOKENS))
    for token, holder_track in special.items():
        r.choice(holder_track, f"special_tokens.{token}", TRACKS)

    power = r.keys(top["power_tokens"], "power_tokens", {"start", "limit"})
    supply = r.keys(top["supply"], "supply", {"start", "armies"})
    armies = {}
    for level, sizes in r.mapping(supply["armies"], "supply.armies").items():
        sizes = tuple(r.integer(s, f"supply.armies.{level}", 2) for s in r.seq(sizes, f"supply.armies.{level}"))
        r.need(list(sizes) == sorted(sizes, reverse=True), f"supply.armies.{level}: list the largest army first")
        armies[r.integer(level, "supply.armies level")] = sizes
    r.need(armies and sorted(armies) == list(range(len(armies))),
           "supply.armies: levels must run 0, 1, 2, ... without gaps")
    start_supply = r.numbers(supply["start"], "supply.start", set(houses), high=max(armies))

    tokens = _read_order_tokens(r, top["order_tokens"])
    wild = r.keys(top["wildlings"], "wildlings", {"track", "start"},
                  {"losses", "attack_at", "after_nights_watch_win", "after_wildlings_win"})
    track = tuple(r.integer(v, "wildlings.track") for v in r.seq(wild["track"], "wildlings.track"))
    r.need(track and list(track) == sorted(set(track)), "wildlings.track: expected rising threat values")
    r.need(r.integer(wild["start"], "wildlings.start") in track,
           f"wildlings.start: {wild['start']} is not on the track")
    losses = r.keys(wild.get("losses", {}), "wildlings.losses", set(), {"every_house", "lowest_bidder_extra"})

    def optional_number(mapping: dict, key: str, where: str) -> int | None:
        return None if mapping.get(key) is None else r.integer(mapping[key], f"{where}.{key}", low=None)

    victory = r.keys(top["victory"], "victory", {"rounds", "westeros_from_round", "final_tiebreak"})
    tiebreak = r.texts(victory["final_tiebreak"], "victory.final_tiebreak")
    for rule in tiebreak:
        r.choice(rule, "victory.final_tiebreak", shape.tiebreaks)

    counts = _read_player_counts(r, top["players"], top["kings_court_stars"], houses)
    return Setup(
        houses=MappingProxyType(houses),
        starting_units=MappingProxyType(start_units),
        tracks=MappingProxyType(tracks),
        special_tokens=MappingProxyType(dict(special)),
        starting_power=r.integer(power["start"], "power_tokens.start"),
        power_limit=r.integer(power["limit"], "power_tokens.limit", 1),
        starting_supply=MappingProxyType(start_supply),
        supply_armies=MappingProxyType(armies),
        unit_limits=MappingProxyType(limits),
        unit_strength=MappingProxyType(strength),
        muster_costs=MappingProxyType(costs),
        upgrade_to=tuple(r.choice(u, "units.upgrade_to", tuple(shape.units)) for u in
                         r.seq(units.get("upgrade_to", ["knight"]), "units.upgrade_to")),
        castle_only_units=tuple(r.choice(u, "units.strength_only_against_castles", tuple(shape.units)) for u in
                                r.seq(units.get("strength_only_against_castles", []), "units")),
        port_max_ships=r.integer(r.keys(top.get("ports", {"max_ships": 0}), "ports", {"max_ships"})["max_ships"],
                                 "ports.max_ships"),
        order_tokens=tokens,
        wildlings=Wildlings(track, wild["start"], optional_number(losses, "every_house", "wildlings.losses"),
                            optional_number(losses, "lowest_bidder_extra", "wildlings.losses"),
                            *(optional_number(wild, k, "wildlings") for k in
                              ("attack_at", "after_nights_watch_win", "after_wildlings_win"))),
        rounds=r.integer(victory["rounds"], "victory.rounds", 1),
        westeros_from_round=r.integer(victory["westeros_from_round"], "victory.westeros_from_round", 1),
        final_tiebreak=tiebreak,
        player_counts=MappingProxyType(counts),
    )


def _check_homes(map_path: Path, board: Board, houses: Mapping[str, str]) -> None:
    """Every house has exactly one home area and every home belongs to a house (a map.yaml problem)."""
    homes = Counter(board.area(a).home_of for a in board if board.area(a).home_of)
    for house, n in homes.items():
        if house not in houses:
            raise YamlFileError(map_path, f"home_of: unknown house {house!r} (houses: {', '.join(houses)})")
        if n > 1:
            raise YamlFileError(map_path, f"home_of: {house} has {n} home areas")
    for house in houses:
        if house not in homes:
            raise YamlFileError(map_path, f"home_of: no area is the home of {house}")


def _read_start_units(r: _Reader, value: Any, houses: dict, board: Board, limits: dict) -> dict:
    result, taken = {}, {}
    for house, placement in r.keys(value, "starting_units", set(houses)).items():
        per_house: dict[str, tuple[str, ...]] = {}
        for area, units in r.mapping(placement, f"starting_units.{house}").items():
            where = f"starting_units.{house}.{area}"
            r.need(area in board, f"{where}: unknown area {area!r}")
            r.need(area not in taken, f"{where}: {taken.get(area)} also starts there")
            taken[area] = house
            units = r.texts(units, where)
            r.need(units, f"{where}: no units")
            for unit in units:
                r.choice(unit, where, r.shape.units)
                at_sea = not board.is_land(area)  # a sea, or a port (2e)
                r.need((unit == "ship") == at_sea,
                       f"{where}: a {unit} cannot start in the {'sea' if at_sea else 'land'} area {board.name(area)}")
            per_house[area] = units
        for unit, n in Counter(u for us in per_house.values() for u in us).items():
            r.need(n <= limits[unit], f"starting_units.{house}: {n} {unit}s exceed the limit of {limits[unit]}")
        result[house] = MappingProxyType(per_house)
    return result


def _read_order_tokens(r: _Reader, value: Any) -> tuple[OrderToken, ...]:
    tokens = []
    for i, spec in enumerate(r.seq(value, "order_tokens"), 1):
        where = f"order_tokens entry {i}"
        spec = r.keys(spec, where, {"id", "kind", "bonus", "count", "text", "short"}, {"star"})
        tokens.append(OrderToken(
            id=r.ident(spec["id"], where), kind=r.choice(spec["kind"], f"{where}: kind", ORDER_KINDS),
            bonus=r.integer(spec["bonus"], f"{where}: bonus", low=None), star=r.flag(spec.get("star", False), where),
            count=r.integer(spec["count"], f"{where}: count", 1), text=r.text(spec["text"], where),
            short=r.text(spec["short"], where)))
    r.need(len({t.id for t in tokens}) == len(tokens), "order_tokens: ids must be unique")
    total = sum(t.count for t in tokens)
    r.need(total == ORDER_TOKENS, f"order_tokens: expected {ORDER_TOKENS} per house, found {total}")
    for kind in ORDER_KINDS:
        of_kind = [t for t in tokens if t.kind == kind]
        r.need(sum(t.count for t in of_kind) == 3, f"order_tokens: expected 3 {kind} tokens")
        r.need([t.count for t in of_kind if t.star] == [1], f"order_tokens: expected one starred {kind} token")
    return tuple(tokens)


def _read_player_counts(r: _Reader, value: Any, stars_value: Any, houses: dict) -> dict[int, PlayerCount]:
    stars = r.mapping(stars_value, "kings_court_stars")
    counts = {}
    for players, spec in r.mapping(value, "players").items():
        where = f"players.{players}"
        r.integer(players, where, 3, r.shape.houses)
        spec = r.keys(spec, where, {"houses", "instant_win"}, {"removed_units"})
        playing = r.texts(spec["houses"], f"{where}.houses")
        r.need(len(playing) == players and len(set(playing)) == players,
               f"{where}.houses: expected {players} different houses")
        for house in playing:
            r.choice(house, f"{where}.houses", tuple(houses))
        r.need(players in stars, f"kings_court_stars: missing the {players}-player row")
        row = tuple(r.integer(s, f"kings_court_stars.{players}") for s in r.seq(stars[players], "kings_court_stars"))
        r.need(len(row) == players, f"kings_court_stars.{players}: expected {players} positions, found {len(row)}")
        removed = {h: MappingProxyType({a: r.texts(us, f"{where}.removed_units.{h}.{a}")
                                        for a, us in r.mapping(placed, f"{where}.removed_units.{h}").items()})
                   for h, placed in r.mapping(spec.get("removed_units", {}), f"{where}.removed_units").items()}
        counts[players] = PlayerCount(players, playing, tuple(h for h in houses if h not in playing),
                                      r.integer(spec["instant_win"], f"{where}.instant_win", 1), row,
                                      MappingProxyType(removed))
    r.need(sorted(counts) == list(range(3, r.shape.houses + 1)), f"players: expected rows 3 to {r.shape.houses}")
    r.need(set(stars) == set(counts), "kings_court_stars: expected the same player counts as players")
    return counts


# --- house_cards.yaml ----------------------------------------------------------------------------


def _read_house_cards(shape: Shape, path: Path, setup: Setup) -> dict[str, tuple[HouseCard, ...]]:
    r = _Reader(shape, path)
    top = r.keys(r.data, "house_cards.yaml", {"format", "cards"})
    result, ids = {}, set()
    for house, specs in r.keys(top["cards"], "cards", set(setup.houses)).items():
        cards = []
        for i, spec in enumerate(r.seq(specs, f"cards.{house}"), 1):
            where = f"cards.{house} entry {i}"
            spec = r.keys(spec, where, {"id", "name", "strength", "swords", "fortifications"},
                          {"alt_names", "ability", "ability_cz", "ability_key", "timing", "choice", "optional",
                           "params"})
            card = HouseCard(
                id=r.ident(spec["id"], where), name=r.text(spec["name"], where), house=house,
                strength=r.integer(spec["strength"], f"{where}: strength", 0, shape.max_card_strength),
                swords=r.integer(spec["swords"], f"{where}: swords"),
                fortifications=r.integer(spec["fortifications"], f"{where}: fortifications"),
                ability=None if spec.get("ability") is None else r.text(spec["ability"], f"{where}: ability"),
                ability_cz=None if spec.get("ability_cz") is None else r.text(spec["ability_cz"], where),
                alt_names=r.texts(spec.get("alt_names", []), f"{where}: alt_names"),
                ability_key=None if spec.get("ability_key") is None else r.ident(spec["ability_key"], where),
                timing=None if spec.get("timing") is None else r.choice(spec["timing"], f"{where}: timing", TIMINGS),
                choice=None if spec.get("choice") is None else r.text(spec["choice"], f"{where}: choice"),
                optional=r.flag(spec.get("optional", False), f"{where}: optional"),
                params=MappingProxyType(dict(r.mapping(spec.get("params", {}), f"{where}: params"))))
            r.need((card.ability_key is None) == (card.timing is None),
                   f"{where}: an ability_key needs its timing, and a timing its ability_key")
            r.need(card.id not in ids, f"{where}: card id {card.id} is used twice")
            ids.add(card.id)
            cards.append(card)
        r.need(len(cards) == shape.cards_per_house,
               f"cards.{house}: expected {shape.cards_per_house} cards, found {len(cards)}")
        result[house] = tuple(cards)
    try:  # names must not collide, or resolution could not be exact
        NameIndex("card", (_card_entry(c) for cs in result.values() for c in cs))
    except ValueError as exc:
        r.fail(str(exc))
    return result


# --- westeros_decks.yaml -------------------------------------------------------------------------


def _read_westeros(shape: Shape, path: Path) -> tuple[dict[str, WesterosCard], dict[str, WesterosDeck]]:
    r = _Reader(shape, path)
    top = r.keys(r.data, "westeros_decks.yaml", {"format", "deck_size", "cards", "decks"})
    size = r.integer(top["deck_size"], "deck_size", 1)
    cards = {}
    for card_id, spec in r.mapping(top["cards"], "cards").items():
        where = f"cards.{card_id}"
        spec = r.keys(spec, where, {"name", "effect"}, {"name_cz", "effect_cz", "effect_key", "params"})
        cards[r.ident(card_id, where)] = WesterosCard(
            card_id, *(r.text(spec[k], f"{where}: {k}") for k in ("name", "effect")),
            *(None if spec.get(k) is None else r.text(spec[k], f"{where}: {k}") for k in ("name_cz", "effect_cz")),
            effect_key=None if spec.get("effect_key") is None else r.ident(spec["effect_key"], where),
            params=MappingProxyType(dict(r.mapping(spec.get("params", {}), f"{where}: params"))))
    decks, used = {}, set()
    for deck_id, entries in r.keys(top["decks"], "decks", set(DECKS)).items():
        parsed = []
        for i, spec in enumerate(r.seq(entries, f"decks.{deck_id}"), 1):
            where = f"decks.{deck_id} entry {i}"
            spec = r.keys(spec, where, {"card", "count", "mammoth"})
            r.need(spec["card"] in cards, f"{where}: unknown card {spec['card']!r}")
            used.add(spec["card"])
            parsed.append(DeckEntry(cards[spec["card"]], r.integer(spec["count"], f"{where}: count", 1),
                                    r.flag(spec["mammoth"], f"{where}: mammoth")))
        total = sum(e.count for e in parsed)
        r.need(total <= size, f"decks.{deck_id}: {total} cards, more than deck_size {size}")
        decks[deck_id] = WesterosDeck(deck_id, tuple(parsed), size)
    unused = sorted(cards.keys() - used)
    r.need(not unused, f"cards: {', '.join(unused)} in no deck")
    return cards, {d: decks[d] for d in DECKS}


# --- wildling_cards.yaml, tides_of_battle.yaml (2e) ---------------------------------------------------

_OUTCOMES = ("highest_bidder", "lowest_bidder", "everyone_else")


def _read_wildlings(shape: Shape, path: Path) -> dict[str, WildlingCard]:
    r = _Reader(shape, path)
    top = r.keys(r.data, "wildling_cards.yaml", {"format", "deck_size", "cards"})
    r.need(r.integer(top["deck_size"], "deck_size") == shape.wildling_cards,
           f"deck_size: expected {shape.wildling_cards}")
    cards = {}
    for card_id, spec in r.mapping(top["cards"], "cards").items():
        where = f"cards.{card_id}"
        spec = r.keys(spec, where, {"name", "effect_key", *_OUTCOMES})
        outcomes = []
        for group in _OUTCOMES:
            out = r.keys(spec[group], f"{where}.{group}", {"effect"}, {"params", "choice"})
            outcomes.append(WildlingOutcome(r.text(out["effect"], f"{where}.{group}: effect"),
                                            MappingProxyType(dict(r.mapping(out.get("params") or {}, where))),
                                            out.get("choice")))
        cards[r.ident(card_id, where)] = WildlingCard(card_id, r.text(spec["name"], where),
                                                      r.ident(spec["effect_key"], where), *outcomes)
    r.need(len(cards) == shape.wildling_cards, f"cards: expected {shape.wildling_cards}, found {len(cards)}")
    return cards


def _read_tides(shape: Shape, path: Path) -> dict[str, TidesCard]:
    r = _Reader(shape, path)
    top = r.keys(r.data, "tides_of_battle.yaml", {"format", "deck_size", "cards"})
    cards = {}
    for card_id, spec in r.mapping(top["cards"], "cards").items():
        where = f"cards.{card_id}"
        spec = r.keys(spec, where, {"name", "strength", "swords", "fortifications", "skulls", "count"})
        cards[r.ident(card_id, where)] = TidesCard(
            card_id, r.text(str(spec["name"]), where),
            *(r.integer(spec[k], f"{where}: {k}") for k in ("strength", "swords", "fortifications", "skulls")),
            r.integer(spec["count"], f"{where}: count", 1))
    total = sum(c.count for c in cards.values())
    r.need(total == r.integer(top["deck_size"], "deck_size") == shape.tides_of_battle,
           f"cards: {total} in all, expected deck_size {shape.tides_of_battle}")
    return cards
