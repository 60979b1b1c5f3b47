"""The Claim / Claim 2 game data: factions, cards, decks, deals; loaded, checked and cached.

The data lives in ``games/claim/<version>/`` (``factions.yaml``, ``setup.yaml``). A game records
the version it was created with (:data:`DATA_VERSION` for new games) and keeps loading it, so a
data correction (a new version directory) never changes a running game under its players.

Cards are ids ``<faction>-<value>`` with a letter for each copy where a faction has several
cards of one value (``gnomes-5a``, ``gnomes-5b``, ``gnomes-5c``, ``dragons-7``). Copies are
identical for the rules; a player names a card by faction and value only.

The data holds what the rules and the grammar need: factions, values, the words players may
write for a faction (``aliases``, English and Czech) and the canonical word command lines use
(``singular``: ``PLAY Gnome 5``). What players *read* -- faction names in every language, with
the plural and case forms a phrase asks for -- lives in the message catalogues
(``templates/<lang>/claim/messages.yaml``), next to the phrases that choose the forms.
"""

from __future__ import annotations

import difflib
import functools
from dataclasses import dataclass
from pathlib import Path

from adjudicator import yamlio
from adjudicator.mailbody import strip_accents
from adjudicator.messages import Msg, render
from adjudicator.paths import GAMES_DIR
from adjudicator.yamlio import YamlFileError

DATA_VERSION = "v1"
DATA_DIR = GAMES_DIR / "claim"
FORMAT = 1

# The faction ids the engine gives powers to; a data file naming others is broken.
KNOWN = ("gnomes", "giants", "dragons", "trolls", "seers", "goblins", "knights", "undead", "dwarves", "doppelgangers")


class UnknownName(ValueError):
    """A faction name nobody knows: ``message`` says why (a ``claim.error.*`` message, which the
    grammar shows the player in their language); ``suggestion`` is the closest known faction id,
    if any. As a string (the GM's errors: options, rules cases) it is the English message."""

    def __init__(self, message: Msg, suggestion: str | None = None):
        super().__init__(message.key)
        self.message, self.suggestion = message, suggestion

    def __str__(self) -> str:
        return render(self.message, "en")


@dataclass(frozen=True)
class Faction:
    id: str
    game: str  # claim | claim2
    singular: str  # "Gnome": the canonical word of command lines and rules cases (PLAY Gnome 5)
    aliases: tuple[str, ...]  # folded words players may write for it (English and Czech)
    values: tuple[int, ...]  # one entry per card, ascending (gnomes: 1, 1, 1, 3, ...)


@dataclass(frozen=True)
class Card:
    id: str
    faction: str
    value: int


@dataclass(frozen=True)
class Count:
    deal: int
    revealed: int
    extra_factions: int
    deck: int


@dataclass(frozen=True)
class Defaults:
    title: str
    title_cs: str
    pair: str
    factions: dict  # player count -> tuple of faction ids besides the pair


@dataclass(frozen=True)
class GameData:
    version: str
    factions: dict  # id -> Faction, in file order
    cards: dict  # id -> Card
    pairs: dict  # "gnomes-giants" -> (gnomes, giants)
    counts: dict  # player count -> Count
    teams: dict  # player count -> ((seat, seat), ...)
    rulesets: dict  # ruleset name -> Defaults
    min_players: int
    max_players: int

    # -- cards -------------------------------------------------------------------------------
    def card(self, card_id: str) -> Card:
        return self.cards[card_id]

    def faction_of(self, card_id: str) -> str:
        return self.cards[card_id].faction

    def value_of(self, card_id: str) -> int:
        return self.cards[card_id].value

    def card_name(self, card_id: str) -> str:
        """The canonical label (``Gnome 5``): command lines and rules cases, not players' prose."""
        card = self.cards[card_id]
        return f"{self.factions[card.faction].singular} {card.value}"

    def deck(self, factions) -> list[str]:
        """Every card of ``factions``, in data order (faction order, then value, then copy)."""
        wanted = set(factions)
        return [c for c, card in self.cards.items() if card.faction in wanted]

    def sort_key(self, card_id: str) -> tuple:
        """Faction order of the data, then value, then copy: how hands and piles are listed."""
        card = self.cards[card_id]
        return (self._order[card.faction], card.value, card_id)

    @functools.cached_property
    def _order(self) -> dict:
        return {f: i for i, f in enumerate(self.factions)}

    def faction_order(self, faction: str) -> int:
        return self._order[faction]

    # -- names ------------------------------------------------------------------------------
    @functools.cached_property
    def _aliases(self) -> dict:
        out = {}
        for f in self.factions.values():
            for word in (f.id, fold(f.singular), *f.aliases):
                out[word.replace(" ", "")] = f.id
        return out

    def resolve_faction(self, text: str, in_play=None) -> str:
        """The faction ``text`` names (any alias, English or Czech, singular or plural, or a unique
        start of 3+ letters). With ``in_play``, a faction not in this game is refused."""
        word = fold(text).replace(" ", "").replace("-", "")
        found = self._aliases.get(word)
        if found is None and len(word) >= 3:
            starts = {f for alias, f in self._aliases.items() if alias.startswith(word)}
            if in_play is not None and len(starts) > 1:
                starts &= set(in_play)
            if len(starts) == 1:
                found = starts.pop()
        if found is None:
            close = difflib.get_close_matches(word, list(self._aliases), 1, 0.6)
            suggestion = self._aliases[close[0]] if close else None
            if suggestion is not None and in_play is not None and suggestion not in in_play:
                suggestion = None
            factions = list(in_play or self.factions)
            raise UnknownName(Msg("claim.error.unknown_faction", text=text.strip()[:40], suggestion=suggestion,
                                  factions=factions), suggestion)
        if in_play is not None and found not in in_play:
            factions = list(in_play)
            raise UnknownName(Msg("claim.error.faction_not_in_game", faction=found, factions=factions))
        return found


def fold(text: str) -> str:
    """Comparison form: no diacritics, lower case."""
    return strip_accents(text)


def _fail(path: Path, problem: str):
    raise YamlFileError(path, problem)


@functools.cache
def load_gamedata(version: str = DATA_VERSION) -> GameData:
    return load_gamedata_from(DATA_DIR / version, version)


def load_gamedata_from(folder: Path, version: str = DATA_VERSION) -> GameData:
    """Read and check ``factions.yaml`` and ``setup.yaml`` in ``folder``."""
    fpath, spath = folder / "factions.yaml", folder / "setup.yaml"
    raw = yamlio.load_mapping(fpath, format_version=FORMAT)
    yamlio.check_keys(fpath, raw, {"factions": (dict, "factions: {gnomes: {game: claim2, singular: Gnome, cards: {1: 3}}}")})
    factions: dict[str, Faction] = {}
    cards: dict[str, Card] = {}
    for fid, entry in (raw.get("factions") or {}).items():
        if not isinstance(fid, str) or fid not in KNOWN:
            _fail(fpath, f"unknown faction id {fid!r} (the engine knows {', '.join(KNOWN)})")
        if not isinstance(entry, dict):
            _fail(fpath, f"faction {fid}: expected a mapping")
        try:
            copies = {int(v): int(n) for v, n in (entry["cards"] or {}).items()}
            faction = Faction(fid, str(entry["game"]), str(entry["singular"]),
                              tuple(fold(str(a)).replace(" ", "") for a in entry.get("aliases") or ()),
                              tuple(v for v in sorted(copies) for _ in range(copies[v])))
        except (KeyError, TypeError, ValueError) as exc:
            _fail(fpath, f"faction {fid}: missing or bad field ({exc})")
        if faction.game not in ("claim", "claim2"):
            _fail(fpath, f"faction {fid}: game must be claim or claim2, not {faction.game!r}")
        if any(not 0 <= v <= 9 for v in faction.values) or any(n < 1 for n in copies.values()):
            _fail(fpath, f"faction {fid}: card values are 0-9, at least one copy each")
        factions[fid] = faction
        for value in sorted(copies):
            for i in range(copies[value]):
                cid = f"{fid}-{value}" + ("abcdefghij"[i] if copies[value] > 1 else "")
                cards[cid] = Card(cid, fid, value)
    missing = [f for f in KNOWN if f not in factions]
    if missing:
        _fail(fpath, f"factions missing: {', '.join(missing)}")

    setup = yamlio.load_mapping(spath, format_version=FORMAT)
    try:
        pairs = {str(k): tuple(v) for k, v in setup["pairs"].items()}
        counts = {int(n): Count(int(c["deal"]), int(c["revealed"]), int(c["extra_factions"]), int(c["deck"]))
                  for n, c in setup["counts"].items()}
        teams = {int(n): tuple(tuple(int(s) for s in t) for t in v) for n, v in (setup.get("teams") or {}).items()}
        rulesets = {str(name): Defaults(str(d["title"]), str(d["title_cs"]), str(d["pair"]),
                                        {int(n): tuple(fs) for n, fs in d["factions"].items()})
                    for name, d in setup["rulesets"].items()}
        low, high = int(setup["players"]["min"]), int(setup["players"]["max"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        _fail(spath, f"missing or bad field ({exc})")
    gd = GameData(version, factions, cards, pairs, counts, teams, rulesets, low, high)
    for pair, members in pairs.items():
        if len(members) != 2 or any(m not in factions for m in members):
            _fail(spath, f"pair {pair}: two known factions")
    pair_sizes = {sum(len(factions[m].values) for m in ms) for ms in pairs.values()}
    for n in range(low, high + 1):
        if n not in counts:
            _fail(spath, f"counts: no entry for {n} players")
    for name, d in rulesets.items():
        if d.pair not in pairs:
            _fail(spath, f"ruleset {name}: unknown pair {d.pair!r}")
        for n in range(low, high + 1):
            chosen = d.factions.get(n)
            if chosen is None:
                _fail(spath, f"ruleset {name}: no default factions for {n} players")
            problem = deck_problem(gd, pairs[d.pair], chosen, n)
            if problem:
                _fail(spath, f"ruleset {name}, {n} players: {problem}")
    if len(pair_sizes) != 1:
        _fail(spath, "the two pairs must have as many cards as each other")
    return gd


def deck_problem(gd: GameData, pair, chosen, players: int) -> str | None:
    """Why ``pair`` + ``chosen`` is not a legal deck for ``players`` (None if it is)."""
    count = gd.counts[players]
    chosen = list(chosen)
    if len(set(chosen)) != len(chosen):
        return "a faction is chosen twice"
    paired = {m for ms in gd.pairs.values() for m in ms}
    bad = [f for f in chosen if f not in gd.factions or f in paired]
    if bad:
        others = ", ".join(f for f in gd.factions if f not in paired)
        return f"{', '.join(bad)} cannot be chosen besides the pair (choose from {others})"
    if len(chosen) != count.extra_factions:
        return f"{players} players play one pair and {count.extra_factions} more factions, not {len(chosen)}"
    size = len(gd.deck([*pair, *chosen]))
    if size != count.deck:
        return f"the deck would have {size} cards, not {count.deck}"
    return None
