"""The AGoT board (either edition) as an immutable graph, and lenient resolution of the names players write.

Why a graph: adjacency, ship transport and retreats are graph questions, so the board is a graph
whose nodes are area ids carrying the printed facts (kind, castle, barrels, crowns, home shield,
island, neutral force). Its shape comes from the data (``games/agot1e/vN/map.yaml``, read by
:mod:`.gamedata`), never from code; this module only checks that the shape is sane and answers
questions about it. One Board per data version is shared by all games.

Why plain adjacency sets rather than networkx on the engine's path: the engine asks only
"which areas border this one" and walks chains of seas, and the load-time checks need only
"is it connected" (a breadth-first search of a few lines). Importing networkx costs about a tenth
of a second, a third of the start of a process that adjudicates (``judge tick`` from cron,
``judge ingest``). ``Board.graph`` still gives the frozen ``networkx.Graph`` (networkx imported
then) to whoever wants graph algorithms on the map.

Why a name index: players type area and card names by hand in mail. :class:`NameIndex` is lenient but
never guesses: an exact name, alias or id wins; otherwise a *unique* prefix of 3+ letters; otherwise
:class:`UnknownName` with close matches, so the reply can say "did you mean ...?".
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Literal

from ...messages import Msg, render

if TYPE_CHECKING:
    import networkx as nx

AreaKind = Literal["land", "sea", "port"]
Castle = Literal["none", "city", "stronghold"]
KINDS: tuple[str, ...] = ("land", "sea", "port")  # ports: 2nd edition only (a port of a castle area on one sea)
CASTLES: tuple[str, ...] = ("none", "city", "stronghold")
MIN_PREFIX = 3  # letters a prefix needs before it may name something (PBEM.md)


class UnknownName(ValueError):
    """A name that resolves to nothing, or to several things (``ambiguous``).

    ``suggestions`` are display names, best first: close matches for an unknown name, the
    candidates for an ambiguous one. ``msg`` is what the player reads (an ``agot.*`` message); the
    exception's own text is its English, for the GM's tools.
    """

    def __init__(
        self,
        text: str,
        kind: str,
        suggestions: Sequence[str] = (),
        *,
        ambiguous: bool = False,
        msg: Msg | None = None,
    ):
        self.text = text
        self.kind = kind
        self.suggestions = list(suggestions)
        self.ambiguous = ambiguous
        self.msg = msg if msg is not None else Msg("agot.error.unknown_name", kind=kind, text=text,
                                                   suggestions=self.suggestions, ambiguous=ambiguous)
        super().__init__(text)

    def __str__(self) -> str:  # rendered only when asked: most unknown names are tried and dropped
        return render(self.msg, "en")


_APOSTROPHES = re.compile(r"['\u2019\u2018`\u00b4]")
_NON_WORD = re.compile(r"[\W_]+")


def normalize(text: str) -> str:
    """Fold a name to the form names are compared in.

    Case, diacritics and apostrophes vanish ("King's" = "kings"), other punctuation separates words
    ("kings-landing" = "kings landing"), and a leading "the" is dropped ("The Eyrie" = "eyrie").
    """
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()
    words = _NON_WORD.sub(" ", _APOSTROPHES.sub("", text)).split()
    if len(words) > 1 and words[0] == "the":
        words = words[1:]
    return " ".join(words)


@dataclass(frozen=True)
class NameEntry:
    """One nameable thing for a :class:`NameIndex`.

    ``exact``: strings that name it outright (name, aliases, id). ``prefix_tiers``: strings a prefix
    may match, in tiers tried in order; the first tier with any match decides (one match wins,
    several are ambiguous).
    """

    key: str
    display: str
    exact: tuple[str, ...]
    prefix_tiers: tuple[tuple[str, ...], ...] = ()


class NameIndex:
    """Resolves what a player wrote to a key: exact name beats prefix; prefixes must be unique."""

    def __init__(self, kind: str, entries: Iterable[NameEntry]):
        self.kind = kind
        self._display: dict[str, str] = {}
        self._exact: dict[str, str] = {}
        self._tiers: list[list[tuple[str, str]]] = []
        self._owners: dict[str, list[str]] = {}
        for entry in entries:
            if entry.key in self._display:
                raise ValueError(f"{kind} {entry.key!r} is listed twice")
            self._display[entry.key] = entry.display
            for name in entry.exact:
                folded = normalize(name)
                if not folded:
                    raise ValueError(f"{kind} {entry.key}: the name {name!r} is empty once punctuation is ignored")
                owner = self._exact.setdefault(folded, entry.key)
                if owner != entry.key:
                    raise ValueError(f'{kind} {entry.key}: the name "{name}" already names {owner}')
                self._own(folded, entry.key)
            for level, strings in enumerate(entry.prefix_tiers):
                while len(self._tiers) <= level:
                    self._tiers.append([])
                for string in strings:
                    folded = normalize(string)
                    self._tiers[level].append((folded, entry.key))
                    self._own(folded, entry.key)

    def _own(self, folded: str, key: str) -> None:
        owners = self._owners.setdefault(folded, [])
        if key not in owners:
            owners.append(key)

    def display(self, key: str) -> str:
        return self._display[key]

    def resolve(self, text: str) -> str:
        """The key ``text`` names; raises :class:`UnknownName` (unknown or ambiguous)."""
        folded = normalize(text)
        if folded in self._exact:
            return self._exact[folded]
        if sum(ch.isalnum() for ch in folded) >= MIN_PREFIX:
            for tier in self._tiers:
                keys = {key for string, key in tier if string.startswith(folded)}
                if len(keys) == 1:
                    return keys.pop()
                if keys:
                    names = sorted(self._display[key] for key in keys)
                    raise UnknownName(text, self.kind, names, ambiguous=True)
        raise UnknownName(text, self.kind, self.suggest(text))

    def suggest(self, text: str, limit: int = 3) -> list[str]:
        """Display names close to ``text`` (difflib), best first; else names it is a (too short) prefix of."""
        folded_text = normalize(text)
        close = difflib.get_close_matches(folded_text, self._owners, n=10, cutoff=0.6)
        if not close and folded_text:
            close = sorted(f for f in self._owners if f.startswith(folded_text))
        found: list[str] = []
        for folded in close:
            for key in self._owners[folded]:
                name = self._display[key]
                if name not in found:
                    found.append(name)
        return found[:limit]


@dataclass(frozen=True)
class Area:
    """The printed facts of one area (also stored as its node attributes, without ``id``)."""

    id: str
    name: str
    kind: AreaKind
    castle: Castle = "none"
    muster_points: int = 0
    supply: int = 0  # barrels
    power: int = 0  # crowns
    home_of: str | None = None
    island: bool = False
    neutral_force: int | None = None
    aliases: tuple[str, ...] = ()
    garrison: int | None = None  # 2e: the home area's garrison token
    port_of: str | None = None  # 2e, ports: the castle area that owns it
    sea: str | None = None  # 2e, ports: the one sea it opens on


class Board:
    """The map: a frozen graph of areas plus name resolution. Unknown ids raise KeyError.

    The constructor checks the shape and raises ValueError naming the problem: unknown ids, self
    loops or duplicate borders, sea areas with land features, islands with land neighbours (or land
    areas without any that are not marked island), a disconnected map or sea.
    """

    def __init__(self, areas: Iterable[Area], borders: Iterable[tuple[str, str]]):
        areas = tuple(areas)
        adj: dict[str, dict[str, None]] = {}  # area -> its neighbours, in the order the borders list them
        for area in areas:
            _check_area(area)
            if area.id in adj:
                raise ValueError(f"area {area.id} is listed twice")
            adj[area.id] = {}
        self._borders: list[tuple[str, str]] = []  # as listed: what ``graph`` is built from
        for a, b in borders:
            for end in (a, b):
                if end not in adj:
                    raise ValueError(f"border [{a}, {b}]: unknown area {end!r}")
            if a == b:
                raise ValueError(f"border [{a}, {b}]: an area cannot border itself")
            if b in adj[a]:
                raise ValueError(f"border [{a}, {b}] is listed twice")
            adj[a][b] = adj[b][a] = None
            self._borders.append((a, b))
        self._areas = {area.id: area for area in areas}
        _check_shape(self._areas, adj)
        # The questions the engine asks in its inner loops, answered once per board (one Board per
        # data version): plain dicts and tuples are several times faster than walking the graph.
        self._display = {area.id: area.name for area in areas}
        self._kinds = {area.id: area.kind for area in areas}
        self._neighbours = {a: tuple(sorted(ns)) for a, ns in adj.items()}
        self._adjacent = {a: frozenset(ns) for a, ns in adj.items()}
        self._ports = {area.port_of: area.id for area in reversed(areas) if area.port_of is not None}
        self._homes = {area.home_of: area.id for area in reversed(areas) if area.home_of is not None}
        self._names = NameIndex(
            "area", (NameEntry(a.id, a.name, (a.name, a.id, *a.aliases), ((a.name, *a.aliases),)) for a in areas)
        )

    # --- lookups -------------------------------------------------------------------------------

    @cached_property
    def graph(self) -> nx.Graph:
        """The frozen ``networkx.Graph`` (nodes: area ids with the :class:`Area` fields as
        attributes), built when first asked for: the engine itself never needs it."""
        import networkx as nx

        graph = nx.Graph()
        for area in self._areas.values():
            graph.add_node(area.id, **{k: v for k, v in asdict(area).items() if k != "id"})
        graph.add_edges_from(self._borders)
        return nx.freeze(graph)

    def __contains__(self, area_id: object) -> bool:
        return area_id in self._areas

    def __iter__(self) -> Iterator[str]:
        return iter(self._areas)

    def __len__(self) -> int:
        return len(self._areas)

    def area(self, area_id: str) -> Area:
        try:
            return self._areas[area_id]
        except KeyError:
            raise KeyError(f"unknown area id {area_id!r}") from None

    def name(self, area_id: str) -> str:
        try:
            return self._display[area_id]
        except KeyError:
            raise KeyError(f"unknown area id {area_id!r}") from None

    @property
    def display_names(self) -> Mapping[str, str]:
        """area id -> its display name (:meth:`name` without the check, for a reader that asks it often)."""
        return self._display

    def is_land(self, area_id: str) -> bool:
        try:
            return self._kinds[area_id] == "land"
        except KeyError:
            raise KeyError(f"unknown area id {area_id!r}") from None

    def is_sea(self, area_id: str) -> bool:
        try:
            return self._kinds[area_id] == "sea"
        except KeyError:
            raise KeyError(f"unknown area id {area_id!r}") from None

    @cached_property
    def land_areas(self) -> tuple[str, ...]:
        return tuple(a for a, area in self._areas.items() if area.kind == "land")

    @cached_property
    def sea_areas(self) -> tuple[str, ...]:
        return tuple(a for a, area in self._areas.items() if area.kind == "sea")

    @cached_property
    def castle_areas(self) -> tuple[str, ...]:
        """The land areas with a city or a stronghold (what victory counts)."""
        return tuple(a for a in self.land_areas if self._areas[a].castle != "none")

    @cached_property
    def castle_set(self) -> frozenset[str]:
        return frozenset(self.castle_areas)

    @cached_property
    def sea_set(self) -> frozenset[str]:
        return frozenset(self.sea_areas)

    @cached_property
    def home_castles(self) -> tuple[tuple[str, str], ...]:
        """(castle area, the house whose home it is) for every home with a castle: what the victory count reads."""
        return tuple((a, self._areas[a].home_of) for a in self.castle_areas if self._areas[a].home_of)

    @cached_property
    def port_areas(self) -> tuple[str, ...]:
        return tuple(a for a, area in self._areas.items() if area.kind == "port")

    def port(self, area_id: str) -> str | None:
        """The port of castle area ``area_id``, if it has one."""
        return self._ports.get(area_id)

    def neighbours(self, area_id: str) -> tuple[str, ...]:
        """Bordering areas, sorted (deterministic reports and adjudication)."""
        try:
            return self._neighbours[area_id]
        except KeyError:
            raise KeyError(f"unknown area id {area_id!r}") from None

    def adjacent(self, a: str, b: str) -> bool:
        self.area(a), self.area(b)
        return b in self._adjacent[a]

    def home_area(self, house: str) -> str | None:
        return self._homes.get(house)

    def raid_reaches(self, src: str, n: str) -> bool:
        """Whether a raid from ``src`` may ever reach the adjacent ``n``: a raid from land never reaches
        the sea (CZ p.7) nor a port; a port's raid reaches only its sea (2e, agot2e RULES.md R8.1)."""
        if self.is_land(src):
            return self.is_land(n)
        port = self.area(src)
        return port.kind != "port" or n == port.sea

    def supports_into(self, src: str, area: str) -> bool:
        """Whether an order in ``src`` may ever support a battle in the adjacent ``area``: land units
        never support at sea (CZ p.10); ships in a port (2e) support only battles in its sea (R6.4)."""
        try:  # (is_land's lookups without its calls: asked for every neighbour of every battle)
            if self._kinds[src] == "land":
                return self._kinds[area] == "land"
        except KeyError as exc:
            raise KeyError(f"unknown area id {exc.args[0]!r}") from None
        port = self.area(src)
        return port.kind != "port" or area == port.sea

    # --- names ---------------------------------------------------------------------------------

    def resolve(self, text: str) -> str:
        """The area id ``text`` names: full name, alias or id (any case, no apostrophes needed, "The"
        optional) beats a unique prefix of 3+ letters of a name or alias ("Dor" is ambiguous: Dornish
        Marches, Sea of Dorne); otherwise :class:`UnknownName`."""
        return self._names.resolve(text)

    def suggest(self, text: str) -> list[str]:
        return self._names.suggest(text)

    # --- movement ------------------------------------------------------------------------------

    def reach_by_march(self, area_id: str, house_ship_seas: Iterable[str]) -> set[str]:
        """Land areas one March from land area ``area_id`` can reach: bordering land areas, plus every
        land area bordering a chain of connected sea areas that each hold a ship of the marching house
        (``house_ship_seas``) and starts next to ``area_id`` (ship transport, CZ p.9; also used by
        retreats, never by support or raids). Only the graph question: no units, orders or supply."""
        if not self.is_land(area_id):
            raise ValueError(f"{area_id} is a sea area: ship transport starts from land")
        seas = frozenset(house_ship_seas)
        for sea in seas:
            if not self.is_sea(sea):
                raise ValueError(f"{sea} is not a sea area")
        return set(_march_reach(self, area_id, seas))


@lru_cache(maxsize=8192)
def _march_reach(board: Board, area_id: str, seas: frozenset[str]) -> frozenset[str]:
    """The graph walk of :meth:`Board.reach_by_march`, kept per (board, area, ship seas): a board never
    changes (one per data version), and marches, retreats and bots ask the same questions again and again."""
    adj = board._adjacent
    reach = {n for n in adj[area_id] if board._areas[n].kind == "land"}
    stack = [n for n in adj[area_id] if n in seas]
    seen = set(stack)
    while stack:
        for n in adj[stack.pop()]:
            if n in seas and n not in seen:
                seen.add(n)
                stack.append(n)
            elif board._areas[n].kind == "land" and n != area_id:
                reach.add(n)
    return frozenset(reach)


def _check_area(area: Area) -> None:
    if area.kind not in KINDS:
        raise ValueError(f"area {area.id}: kind must be land, sea or port, not {area.kind!r}")
    if (area.kind == "port") != (area.port_of is not None and area.sea is not None):
        raise ValueError(f"area {area.id}: a port, and only a port, names its port_of and its sea")
    if area.castle not in CASTLES:
        raise ValueError(f"area {area.id}: castle must be none, city or stronghold, not {area.castle!r}")
    if area.kind != "land":
        printed = (area.castle != "none", area.muster_points, area.supply, area.power, area.home_of,
                   area.island, area.neutral_force, area.garrison)
        if any(printed):
            raise ValueError(f"{area.kind} area {area.id} cannot have a castle, barrels, crowns, home, island,"
                             f" neutral force or garrison")


def _check_shape(areas: dict[str, Area], adj: dict[str, dict[str, None]]) -> None:
    for node, area in areas.items():
        if area.kind == "port":
            if set(adj[node]) != {area.port_of, area.sea} or _kind(areas, area.sea) != "sea" \
                    or _kind(areas, area.port_of) != "land":
                raise ValueError(f"port {node} must border exactly its land area port_of and its sea")
        if area.kind != "land":
            continue
        land_neighbours = sorted(n for n in adj[node] if areas[n].kind == "land")
        if area.island and land_neighbours:
            raise ValueError(f"island {node} borders the land area {land_neighbours[0]}; islands border only seas")
        if not area.island and not land_neighbours:
            raise ValueError(f"land area {node} has no land neighbour: mark it island: true or add its land borders")
    if areas and not _connected(set(areas), adj):
        raise ValueError("the map falls apart into pieces that share no border")
    seas = {n for n, area in areas.items() if area.kind == "sea"}
    if seas and not _connected(seas, adj):
        raise ValueError("the sea areas do not form one connected sea")


def _kind(areas: dict[str, Area], area_id: str | None) -> str | None:
    area = areas.get(area_id)
    return area.kind if area is not None else None


def _connected(nodes: set[str], adj: dict[str, dict[str, None]]) -> bool:
    """Whether ``nodes`` (not empty) form one piece through the borders between them (a graph search)."""
    start = next(iter(nodes))
    seen, stack = {start}, [start]
    while stack:
        for n in adj[stack.pop()]:
            if n in nodes and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(nodes)
