"""The AGoT 2nd-edition game data (``games/agot2e/v1/``) is consistent, says what the reference says, and
keeps agot1e's schema where the editions share a concept.

There is no agot2e engine yet, so these tests read the YAML with plain PyYAML and ask networkx the graph
questions. The consistency checks are functions returning the problems they find (the checks of the
shared reference's ``check_map.py``, rewritten), run once on the shipped data, which must have none, and
on broken copies, which must be caught. The expected values (icons, cards, decks, setups) are written out
here from ``shared/reference/agot2e/``, so that a wrong value in the data fails a test.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "games" / "agot2e" / "v1"
AGOT1E = ROOT / "games" / "agot1e" / "v1"
FILES = ("map.yaml", "setup.yaml", "house_cards.yaml", "westeros_decks.yaml", "wildling_cards.yaml",
         "tides_of_battle.yaml", "board.yaml")  # board.yaml: the drawn board (tests/agot2e/test_agot2e_picture.py)

HOUSES = ("stark", "lannister", "baratheon", "greyjoy", "tyrell", "martell")
HOMES = {"stark": "winterfell", "lannister": "lannisport", "baratheon": "dragonstone", "greyjoy": "pyke",
         "tyrell": "highgarden", "martell": "sunspear"}
TRACKS = ("iron_throne", "fiefdoms", "kings_court")
UNITS = ("footman", "knight", "ship", "siege_engine")
LAND_UNITS = ("footman", "knight", "siege_engine")
COUNTS = (3, 4, 5, 6)
TIMINGS = ("cancel", "immediately", "static", "on_win", "on_loss", "after_combat")
CARD_CHOICES = ("use", "area", "card", "track")
WILDLING_CHOICES = ("units", "card", "track", "muster", "option")


def load(name: str, directory: Path = DATA) -> Any:
    return yaml.safe_load((directory / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def m() -> dict:
    return load("map.yaml")


@pytest.fixture(scope="module")
def s() -> dict:
    return load("setup.yaml")


@pytest.fixture(scope="module")
def hc() -> dict:
    return load("house_cards.yaml")


@pytest.fixture(scope="module")
def wd() -> dict:
    return load("westeros_decks.yaml")


@pytest.fixture(scope="module")
def wc() -> dict:
    return load("wildling_cards.yaml")


@pytest.fixture(scope="module")
def tob() -> dict:
    return load("tides_of_battle.yaml")


@pytest.fixture(scope="module")
def g(m: dict) -> nx.Graph:
    return graph(m)


# --- helpers: the board as a graph -----------------------------------------------------------------


def graph(m: dict) -> nx.Graph:
    """Nodes: area ids with their mapping as attributes; edges: the borders."""
    G = nx.Graph()
    for area, spec in m["areas"].items():
        G.add_node(area, **spec)
    G.add_edges_from(tuple(pair) for pair in m["borders"])
    return G


def kind(m: dict, area: str) -> str:
    return m["areas"][area]["kind"]


def of_kind(m: dict, wanted: str) -> list[str]:
    return [a for a, spec in m["areas"].items() if spec["kind"] == wanted]


def transport_reach(G: nx.Graph, start: str, ship_seas: set[str]) -> set[str]:
    """Land areas a march from land area ``start`` reaches: bordering land, plus land bordering a chain
    of connected seas that each hold a ship of the marching house and starts next to ``start``."""
    reach = {n for n in G.adj[start] if G.nodes[n]["kind"] == "land"}
    stack = [n for n in G.adj[start] if n in ship_seas]
    seen = set(stack)
    while stack:
        for n in G.adj[stack.pop()]:
            if n in ship_seas and n not in seen:
                seen.add(n)
                stack.append(n)
            elif G.nodes[n]["kind"] == "land" and n != start:
                reach.add(n)
    return reach


def normalize(text: str) -> str:
    """Names as the judge compares them (agot1e board.normalize): case, diacritics, apostrophes and a
    leading "the" ignored, other punctuation separates words."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()
    words = re.sub(r"[\W_]+", " ", re.sub(r"['\u2019\u2018`\u00b4]", "", text)).split()
    if len(words) > 1 and words[0] == "the":
        words = words[1:]
    return " ".join(words)


# --- the consistency checks (reference check_map.py, rewritten as functions) ------------------------

_LAND_KEYS = {"name", "kind", "castle", "supply", "power"}
_LAND_OPTIONAL = {"home_of", "island", "neutral_force", "aliases", "garrison"}
_PORT_KEYS = {"name", "kind", "port_of", "sea"}
_SEA_KEYS = {"name", "kind"}


def map_problems(m: dict) -> list[str]:
    """Everything wrong with a map.yaml (empty when it is sound)."""
    problems: list[str] = []
    areas = m["areas"]
    points = m["muster_points"]
    if points != {"none": 0, "city": 1, "stronghold": 2}:
        problems.append(f"muster points {points}")
    seen: set[frozenset] = set()
    for pair in m["borders"]:
        if not (isinstance(pair, list) and len(pair) == 2):
            problems.append(f"border {pair!r} is not a pair")
            continue
        a, b = pair
        if a not in areas or b not in areas:
            problems.append(f"border {a}-{b}: unknown area")
        elif a == b:
            problems.append(f"border {a}-{b}: an area cannot border itself")
        elif frozenset(pair) in seen:
            problems.append(f"border {a}-{b} listed twice")
        seen.add(frozenset(pair))
    if any(p.startswith("border") for p in problems):
        return problems
    G = graph(m)
    for area, spec in areas.items():
        k = spec.get("kind")
        keys = set(spec)
        if k == "land":
            if not (_LAND_KEYS <= keys <= _LAND_KEYS | _LAND_OPTIONAL):
                problems.append(f"{area}: land keys {sorted(keys)}")
            if spec.get("castle") not in points:
                problems.append(f"{area}: castle {spec.get('castle')!r}")
            for key in ("supply", "power"):
                if not (isinstance(spec.get(key), int) and spec[key] >= 0):
                    problems.append(f"{area}: {key} {spec.get(key)!r}")
            land_neighbours = [n for n in G.adj[area] if kind(m, n) == "land"]
            if spec.get("island", False) != (not land_neighbours):
                problems.append(f"{area}: island flag {spec.get('island', False)} but land neighbours {land_neighbours}")
            if ("garrison" in spec) != ("home_of" in spec):
                problems.append(f"{area}: a garrison belongs on a home area, and every home area has one")
            if "neutral_force" in spec and "home_of" in spec:
                problems.append(f"{area}: a home area with a neutral force")
        elif k == "port":
            if keys != _PORT_KEYS:
                problems.append(f"{area}: port keys {sorted(keys)}")
                continue
            land, sea = spec["port_of"], spec["sea"]
            if set(G.adj[area]) != {land, sea}:
                problems.append(f"port {area} borders {sorted(G.adj[area])}, not exactly {land} and {sea}")
            if land not in areas or kind(m, land) != "land" or areas[land]["castle"] == "none":
                problems.append(f"port {area}: {land} is not a land area with a castle or stronghold")
            elif sea not in areas or kind(m, sea) != "sea":
                problems.append(f"port {area}: {sea} is not a sea")
            elif not G.has_edge(land, sea):
                problems.append(f"port {area}: its sea {sea} does not border its castle area {land}")
        elif k == "sea":
            if not (_SEA_KEYS <= keys <= _SEA_KEYS | {"aliases"}):
                problems.append(f"{area}: sea keys {sorted(keys)}")
        else:
            problems.append(f"{area}: kind {k!r}")
    ports_of = Counter(spec["port_of"] for spec in areas.values() if spec.get("kind") == "port")
    problems += [f"{land} has {n} ports" for land, n in ports_of.items() if n > 1]
    homes = Counter(spec["home_of"] for spec in areas.values() if "home_of" in spec)
    if homes != Counter(HOUSES):
        problems.append(f"home areas {dict(homes)}")
    if not nx.is_connected(G):
        problems.append("the board falls apart")
    if not nx.is_connected(G.subgraph(of_kind(m, "sea"))):
        problems.append("the seas are not one connected sea")
    for a, b in m["not_adjacent"]:
        if a not in areas or b not in areas:
            problems.append(f"not_adjacent {a}-{b}: unknown area")
        elif G.has_edge(a, b):
            problems.append(f"{a}-{b} is listed not_adjacent but borders")
    for key in ("neutral_forces", "impassable"):
        if sorted(m[key]) != list(COUNTS):
            problems.append(f"{key}: rows {sorted(m[key])}")
    for count in set(m["neutral_forces"]) & set(m["impassable"]):
        tokens = {**m["neutral_forces"][count], **dict.fromkeys(m["impassable"][count])}
        for area in tokens:
            if area not in areas or kind(m, area) != "land":
                problems.append(f"{count} players: a token on {area}, not a land area")
            elif "neutral_force" in areas[area]:
                problems.append(f"{count} players: {area} has its own neutral force already")
        both = set(m["neutral_forces"][count]) & set(m["impassable"][count])
        if both:
            problems.append(f"{count} players: {sorted(both)} both neutral and impassable")
    return problems


def start_armies(units_by_area: dict) -> list[int]:
    """The sizes of a house's armies (2+ units in one area), largest first."""
    return sorted((len(units) for units in units_by_area.values() if len(units) >= 2), reverse=True)


def fits(armies: list[int], allowed: list[int]) -> bool:
    return len(armies) <= len(allowed) and all(a <= b for a, b in zip(armies, allowed))


def playing_units(s: dict, count: int) -> dict[str, dict[str, list[str]]]:
    """house -> area -> units at the start of a ``count``-player game."""
    result = {}
    for house in s["players"][count]["houses"]:
        placed = copy.deepcopy(s["starting_units"][house])
        for area, units in s["players"][count].get("removed_units", {}).get(house, {}).items():
            for unit in units:
                placed[area].remove(unit)
            if not placed[area]:
                del placed[area]
        result[house] = placed
    return result


def setup_problems(m: dict, s: dict) -> list[str]:
    """Everything wrong with a setup.yaml against its map (empty when it is sound)."""
    problems: list[str] = []
    areas = m["areas"]
    limits = s["units"]["limit"]
    if tuple(s["houses"]) != HOUSES:
        problems.append(f"houses {list(s['houses'])}")
    for track, order in s["tracks"].items():
        if sorted(order) != sorted(HOUSES):
            problems.append(f"track {track} is not each house once")
    armies_table = s["supply"]["armies"]
    if sorted(armies_table) != list(range(7)):
        problems.append("supply levels are not 0..6")
    for count in COUNTS:
        spec = s["players"][count]
        houses = spec["houses"]
        if len(houses) != count or len(set(houses)) != count or not set(houses) <= set(HOUSES):
            problems.append(f"{count} players: houses {houses}")
            continue
        if len(s["kings_court_stars"][count]) != count:
            problems.append(f"{count} players: King's Court stars {s['kings_court_stars'][count]}")
        closed = set(m["neutral_forces"][count]) | set(m["impassable"][count])
        closed |= {a for a, spec_ in areas.items() if spec_.get("neutral_force")}
        closed_ports = {a for a, spec_ in areas.items() if spec_["kind"] == "port" and spec_["port_of"] in closed}
        taken: dict[str, str] = {}
        for house, placed in playing_units(s, count).items():
            used: Counter = Counter()
            for area, units in placed.items():
                where = f"{count} players: {house} in {area}"
                if area not in areas:
                    problems.append(f"{where}: unknown area")
                    continue
                if area in taken:
                    problems.append(f"{where}: {taken[area]} starts there too")
                taken[area] = house
                if area in closed | closed_ports:
                    problems.append(f"{where}: a neutral or impassable area")
                owner = areas[area].get("home_of") or areas.get(areas[area].get("port_of", ""), {}).get("home_of")
                if owner and owner != house:
                    problems.append(f"{where}: the home of {owner}")
                for unit in units:
                    used[unit] += 1
                    k = kind(m, area)
                    if unit == "ship" and not (k == "sea" or (k == "port" and areas[areas[area]["port_of"]].get("home_of") == house)):
                        problems.append(f"{where}: a ship neither at sea nor in its own port")
                    if unit in LAND_UNITS and k != "land":
                        problems.append(f"{where}: a {unit} off land")
                    if unit not in limits:
                        problems.append(f"{where}: unknown unit {unit}")
                if kind(m, area) == "port" and len(units) > s["ports"]["max_ships"]:
                    problems.append(f"{where}: more ships than a port holds")
            for unit, n in used.items():
                if n > limits.get(unit, 0):
                    problems.append(f"{count} players: {house} has {n} {unit}s, over the limit")
            level = s["supply"]["start"][house]
            barrels = sum(areas[a].get("supply", 0) for a in placed if kind(m, a) == "land")
            if level != min(barrels, max(armies_table)):
                problems.append(f"{house}: start supply {level}, barrels {barrels}")
            if not fits(start_armies(placed), armies_table[level]):
                problems.append(f"{count} players: {house}'s armies {start_armies(placed)} break supply {level}")
    return problems


# --- the shipped data: sound ---------------------------------------------------------------------


def test_every_file_is_format_1_with_its_keys() -> None:
    tops = {
        "map.yaml": {"format", "muster_points", "areas", "borders", "not_adjacent", "neutral_forces", "impassable"},
        "setup.yaml": {"format", "houses", "starting_units", "tracks", "special_tokens", "power_tokens", "supply",
                       "units", "ports", "order_tokens", "kings_court_stars", "wildlings", "victory", "players"},
        "house_cards.yaml": {"format", "cards"},
        "westeros_decks.yaml": {"format", "deck_size", "cards", "decks"},
        "wildling_cards.yaml": {"format", "deck_size", "cards"},
        "tides_of_battle.yaml": {"format", "deck_size", "cards"},
        "board.yaml": {"format", "cell", "smoothing", "warp", "jitter", "codes", "rivers", "layout", "places", "colours"},
    }
    assert set(tops) == set(FILES) == {p.name for p in DATA.iterdir()}
    for name, keys in tops.items():
        data = load(name)
        assert set(data) == keys, name
        assert data["format"] == 1, name


def test_map_is_sound(m: dict) -> None:
    assert map_problems(m) == []


def test_setup_is_sound(m: dict, s: dict) -> None:
    assert setup_problems(m, s) == []


# --- map -----------------------------------------------------------------------------------------

ICONS = {  # land area: (castle C/S/-, barrels, crowns) -- reference map.yaml (SR = GC = RM)
    "castle-black": ("-", 0, 1), "karhold": ("-", 0, 1), "winterfell": ("S", 1, 1),
    "the-stony-shore": ("-", 1, 0), "white-harbor": ("C", 0, 0), "widows-watch": ("-", 1, 0),
    "moat-cailin": ("C", 0, 0), "greywater-watch": ("-", 1, 0), "flints-finger": ("C", 0, 0),
    "seagard": ("S", 1, 1), "the-twins": ("-", 0, 1), "the-fingers": ("-", 1, 0),
    "the-mountains-of-the-moon": ("-", 1, 0), "the-eyrie": ("C", 1, 1), "pyke": ("S", 1, 1),
    "riverrun": ("S", 1, 1), "lannisport": ("S", 2, 0), "harrenhal": ("C", 0, 1),
    "stoney-sept": ("-", 0, 1), "crackclaw-point": ("C", 0, 0), "dragonstone": ("S", 1, 1),
    "searoad-marches": ("-", 1, 0), "blackwater": ("-", 2, 0), "kings-landing": ("S", 0, 2),
    "kingswood": ("-", 1, 1), "the-reach": ("C", 0, 0), "highgarden": ("S", 2, 0),
    "the-arbor": ("-", 0, 1), "oldtown": ("S", 0, 0), "dornish-marches": ("-", 0, 1),
    "the-boneway": ("-", 0, 1), "storms-end": ("C", 0, 0), "three-towers": ("-", 1, 0),
    "princes-pass": ("-", 1, 1), "starfall": ("C", 1, 0), "yronwood": ("C", 0, 0),
    "salt-shore": ("-", 1, 0), "sunspear": ("S", 1, 1),
}

DEGREES = {  # borders per area -- reference map.yaml
    "castle-black": 4, "karhold": 3, "winterfell": 8, "port-of-winterfell": 2, "the-stony-shore": 2,
    "white-harbor": 6, "port-of-white-harbor": 2, "widows-watch": 3, "moat-cailin": 6, "greywater-watch": 5,
    "flints-finger": 4, "seagard": 5, "the-twins": 5, "the-fingers": 3, "the-mountains-of-the-moon": 5,
    "the-eyrie": 2, "pyke": 2, "port-of-pyke": 2, "riverrun": 6, "lannisport": 5,
    "port-of-lannisport": 2, "harrenhal": 4, "stoney-sept": 5, "crackclaw-point": 7, "dragonstone": 2,
    "port-of-dragonstone": 2, "searoad-marches": 8, "blackwater": 6, "kings-landing": 5, "kingswood": 6,
    "the-reach": 7, "highgarden": 6, "the-arbor": 2, "oldtown": 5, "port-of-oldtown": 2,
    "dornish-marches": 6, "the-boneway": 7, "storms-end": 6, "port-of-storms-end": 2, "three-towers": 5,
    "princes-pass": 5, "starfall": 5, "yronwood": 6, "salt-shore": 4, "sunspear": 5,
    "port-of-sunspear": 2, "bay-of-ice": 7, "the-shivering-sea": 6, "the-narrow-sea": 11, "ironmans-bay": 8,
    "sunset-sea": 6, "the-golden-sound": 6, "blackwater-bay": 4, "shipbreaker-bay": 9, "redwyne-straights": 6,
    "west-summer-sea": 8, "east-summer-sea": 8, "sea-of-dorne": 5,
}

PORTS = {  # port -> (castle area, sea); the four marked seas rest on SR alone (guess)
    "port-of-winterfell": ("winterfell", "bay-of-ice"),  # guess
    "port-of-white-harbor": ("white-harbor", "the-narrow-sea"),  # guess
    "port-of-pyke": ("pyke", "ironmans-bay"),
    "port-of-lannisport": ("lannisport", "the-golden-sound"),
    "port-of-dragonstone": ("dragonstone", "shipbreaker-bay"),
    "port-of-oldtown": ("oldtown", "redwyne-straights"),
    "port-of-storms-end": ("storms-end", "shipbreaker-bay"),  # guess
    "port-of-sunspear": ("sunspear", "east-summer-sea"),  # guess
}


def test_counts(m: dict, g: nx.Graph) -> None:
    assert Counter(spec["kind"] for spec in m["areas"].values()) == {"land": 38, "sea": 12, "port": 8}
    assert g.number_of_edges() == len(m["borders"]) == 143
    by_type = Counter("-".join(sorted({kind(m, a), kind(m, b)})) for a, b in m["borders"])
    assert by_type == {"land": 63, "land-sea": 52, "sea": 12, "land-port": 8, "port-sea": 8}


def test_icons(m: dict) -> None:
    letter = {"none": "-", "city": "C", "stronghold": "S"}
    found = {a: (letter[spec["castle"]], spec["supply"], spec["power"])
             for a, spec in m["areas"].items() if spec["kind"] == "land"}
    assert found == ICONS
    land = [spec for spec in m["areas"].values() if spec["kind"] == "land"]
    assert Counter(spec["castle"] for spec in land) == {"none": 18, "city": 10, "stronghold": 10}
    assert sum(spec["supply"] for spec in land) == 24 and sum(spec["power"] for spec in land) == 19


def test_borders_per_area(g: nx.Graph) -> None:
    assert dict(g.degree) == DEGREES


def test_adjacency_symmetric_and_connected(m: dict, g: nx.Graph) -> None:
    listed = {frozenset(pair) for pair in m["borders"]}
    assert len(listed) == len(m["borders"])  # no pair twice, in either direction
    for a in g:
        assert a not in g.adj[a]
        for b in g.adj[a]:
            assert a in g.adj[b] and frozenset((a, b)) in listed
    assert nx.is_connected(g)
    assert nx.is_connected(g.subgraph(of_kind(m, "sea")))
    assert nx.is_connected(g.subgraph(of_kind(m, "land") + of_kind(m, "sea")))  # ports join nothing new


def test_ports(m: dict, g: nx.Graph) -> None:
    ports = {a: (spec["port_of"], spec["sea"]) for a, spec in m["areas"].items() if spec["kind"] == "port"}
    assert ports == PORTS
    for port, (land, sea) in ports.items():
        assert set(g.adj[port]) == {land, sea}
        assert g.has_edge(land, sea)  # every port's sea borders its land area
        assert m["areas"][land]["castle"] != "none"
    # every home area but Highgarden has a port (reference check)
    assert {land for land, _ in ports.values()} & set(HOMES.values()) == set(HOMES.values()) - {"highgarden"}
    # a sea that touches a port is that port's sea
    for sea in of_kind(m, "sea"):
        assert all(m["areas"][n]["sea"] == sea for n in g.adj[sea] if kind(m, n) == "port")


def test_islands(m: dict, g: nx.Graph) -> None:
    islands = {a for a, spec in m["areas"].items() if spec.get("island")}
    assert islands == {"pyke", "dragonstone", "the-arbor"}
    for island in islands:
        assert all(kind(m, n) != "land" for n in g.adj[island])


def test_river_and_other_non_borders_are_absent(m: dict, g: nx.Graph) -> None:
    pairs = {frozenset(p) for p in m["not_adjacent"]}
    assert pairs == {frozenset(p) for p in [
        ("winterfell", "greywater-watch"), ("the-twins", "riverrun"), ("the-twins", "harrenhal"),
        ("the-mountains-of-the-moon", "harrenhal"), ("oldtown", "starfall"), ("oldtown", "princes-pass")]}
    for a, b in m["not_adjacent"]:
        assert kind(m, a) == kind(m, b) == "land"
        assert not g.has_edge(a, b)


def test_homes_garrisons_neutral_forces(m: dict) -> None:
    areas = m["areas"]
    assert {spec["home_of"]: a for a, spec in areas.items() if "home_of" in spec} == HOMES
    assert {a: spec["garrison"] for a, spec in areas.items() if "garrison" in spec} == dict.fromkeys(HOMES.values(), 2)
    assert {a: spec["neutral_force"] for a, spec in areas.items() if "neutral_force" in spec} == {
        "kings-landing": 5, "the-eyrie": 6}
    assert m["neutral_forces"] == {
        6: {},
        5: {"sunspear": 5, "salt-shore": 3, "yronwood": 3, "starfall": 3, "princes-pass": 3, "the-boneway": 3,
            "three-towers": 3},
        4: {"sunspear": 5, "storms-end": 4, "oldtown": 3, "dornish-marches": 3, "three-towers": 3,
            "princes-pass": 3, "starfall": 3, "yronwood": 3, "the-boneway": 3, "salt-shore": 3},
        3: {},
    }
    assert m["impassable"] == {6: [], 5: [], 4: [], 3: [
        "pyke", "highgarden", "oldtown", "sunspear", "storms-end", "dornish-marches", "the-boneway",
        "three-towers", "princes-pass", "starfall", "yronwood", "salt-shore"]}


def test_neutral_tokens_fit_the_box(m: dict) -> None:
    """RB p.2: 14 neutral force tokens = King's Landing + The Eyrie + the 12 of the 3-player game."""
    always = [a for a, spec in m["areas"].items() if "neutral_force" in spec]
    for count in COUNTS:
        used = len(always) + len(m["neutral_forces"][count]) + len(m["impassable"][count])
        assert used <= 14
    assert len(always) + len(m["impassable"][3]) == 14


def test_names_are_unique_for_players(m: dict) -> None:
    """Exact names (name, id, aliases) must name one area each, or mail could not resolve them."""
    owner: dict[str, str] = {}
    for area, spec in m["areas"].items():
        for name in (spec["name"], area, *spec.get("aliases", [])):
            folded = normalize(name)
            assert owner.setdefault(folded, area) == area, f"{name!r} names {owner[folded]} and {area}"
    assert normalize("King's Landing") == normalize("kings-landing") == "kings landing"


# --- the rulebook's examples and statements, as the reference checks them --------------------------


def test_rb_p26_neutral_force_example(m: dict, s: dict, g: nx.Graph) -> None:
    """Tyrell marches from Yronwood into Sunspear (neutral 5) with a knight and a footman on March +1:
    strength 4, so at least 1 more from support is needed; Sunspear's own neighbours can give it."""
    assert g.has_edge("yronwood", "sunspear")
    assert m["neutral_forces"][5]["sunspear"] == 5
    march = next(t for t in s["order_tokens"] if t["id"] == "march-plus-1")
    strength = s["units"]["strength"]["knight"] + s["units"]["strength"]["footman"] + march["bonus"]
    assert strength == 4 < m["neutral_forces"][5]["sunspear"]
    supporters = {n for n in g.adj["sunspear"] if kind(m, n) != "port"} - {"yronwood"}
    assert supporters == {"salt-shore", "sea-of-dorne", "east-summer-sea"}


def test_rb_p26_siege_engines_against_neutral_forces(m: dict, s: dict) -> None:
    """Siege engines count only against a castle or stronghold: King's Landing and The Eyrie yes, the
    3-strength tokens of the 4- and 5-player games mostly not."""
    assert s["units"]["strength_only_against_castles"] == ["siege_engine"]
    castles = {a for a in (*m["neutral_forces"][4], "kings-landing", "the-eyrie") if m["areas"][a]["castle"] != "none"}
    assert castles == {"kings-landing", "the-eyrie", "sunspear", "storms-end", "oldtown", "starfall", "yronwood"}


def test_rb_p25_ports(m: dict, s: dict, g: nx.Graph) -> None:
    """A port holds at most three ships and opens only on its sea: ships there may raid and support only
    that sea, and land units never stand in it."""
    assert s["ports"]["max_ships"] == 3
    for port in of_kind(m, "port"):
        assert [n for n in g.adj[port] if kind(m, n) == "sea"] == [m["areas"][port]["sea"]]
    # Lannister's errata ship and Greyjoy's second ship start in their own ports (FAQ2 / SR)
    assert s["starting_units"]["lannister"]["port-of-lannisport"] == ["ship"]
    assert s["starting_units"]["greyjoy"]["port-of-pyke"] == ["ship"]


def test_rb_p9_muster_points(m: dict, s: dict) -> None:
    assert m["muster_points"] == {"none": 0, "city": 1, "stronghold": 2}
    assert s["units"]["muster_cost"] == {"footman": 1, "knight": 2, "ship": 1, "siege_engine": 2, "upgrade": 1}
    assert s["units"]["upgrade_to"] == ["knight", "siege_engine"]


def test_ship_transport_to_and_from_the_islands(m: dict, g: nx.Graph) -> None:
    """Board checks in the manner of the 1st-ed rulebook's transport examples: islands are reached only
    by ship, and a port is never a stepping stone for land units."""
    assert transport_reach(g, "pyke", set()) == set()
    assert transport_reach(g, "pyke", {"ironmans-bay"}) == {"flints-finger", "greywater-watch", "seagard", "riverrun"}
    assert transport_reach(g, "dragonstone", {"shipbreaker-bay"}) == {"crackclaw-point", "kingswood", "storms-end"}
    assert "dragonstone" in transport_reach(g, "kings-landing", {"blackwater-bay", "shipbreaker-bay"})
    assert "the-arbor" in transport_reach(g, "oldtown", {"redwyne-straights"})
    seas = {"sunset-sea", "west-summer-sea", "east-summer-sea"}
    assert "sunspear" in transport_reach(g, "searoad-marches", seas)
    assert "sunspear" not in transport_reach(g, "searoad-marches", seas - {"west-summer-sea"})


# --- setup ---------------------------------------------------------------------------------------


def test_setup_tables(s: dict) -> None:
    assert s["units"]["limit"] == {"footman": 10, "knight": 5, "ship": 6, "siege_engine": 2}
    assert s["units"]["strength"] == {"footman": 1, "knight": 2, "ship": 1, "siege_engine": 4}
    assert s["power_tokens"] == {"start": 5, "limit": 20}
    assert s["supply"]["start"] == {"stark": 1, "lannister": 2, "baratheon": 2, "greyjoy": 2, "tyrell": 2, "martell": 2}
    assert s["supply"]["armies"] == {0: [2, 2], 1: [3, 2], 2: [3, 2, 2], 3: [3, 2, 2, 2], 4: [3, 3, 2, 2],
                                     5: [4, 3, 2, 2], 6: [4, 3, 2, 2, 2]}
    assert s["wildlings"] == {"track": [0, 2, 4, 6, 8, 10, 12], "start": 2, "attack_at": 12,
                              "after_nights_watch_win": 0, "after_wildlings_win": -4}
    assert s["victory"] == {"rounds": 10, "westeros_from_round": 2,
                            "final_tiebreak": ["castles", "land_areas", "supply", "iron_throne"]}
    assert s["special_tokens"] == {"iron_throne": "iron_throne", "valyrian_steel_blade": "fiefdoms",
                                   "messenger_raven": "kings_court"}
    assert s["kings_court_stars"] == {6: [3, 3, 2, 1, 0, 0], 5: [3, 3, 2, 1, 0], 4: [3, 2, 1, 0], 3: [3, 2, 1]}


def test_starting_units(s: dict) -> None:
    assert s["starting_units"] == {
        "stark": {"winterfell": ["knight", "footman"], "white-harbor": ["footman"], "the-shivering-sea": ["ship"]},
        "lannister": {"lannisport": ["knight", "footman"], "stoney-sept": ["footman"],
                      "the-golden-sound": ["ship"], "port-of-lannisport": ["ship"]},
        "baratheon": {"dragonstone": ["knight", "footman"], "kingswood": ["footman"],
                      "shipbreaker-bay": ["ship", "ship"]},
        "greyjoy": {"pyke": ["knight", "footman"], "greywater-watch": ["footman"], "ironmans-bay": ["ship"],
                    "port-of-pyke": ["ship"]},
        "tyrell": {"highgarden": ["knight", "footman"], "dornish-marches": ["footman"],
                   "redwyne-straights": ["ship"]},
        "martell": {"sunspear": ["knight", "footman"], "salt-shore": ["footman"], "sea-of-dorne": ["ship"]},
    }


def test_start_victory_points_are_the_castles_held(m: dict, s: dict) -> None:
    """The reference's starting victory track: Stark 2 (Winterfell, White Harbor), everyone else 1."""
    held = {house: sum(m["areas"][a].get("castle", "none") != "none" for a in placed)
            for house, placed in s["starting_units"].items()}
    assert held == {"stark": 2, "lannister": 1, "baratheon": 1, "greyjoy": 1, "tyrell": 1, "martell": 1}


def test_order_tokens_are_agot1e_s(s: dict) -> None:
    assert s["order_tokens"] == load("setup.yaml", AGOT1E)["order_tokens"]
    assert sum(t["count"] for t in s["order_tokens"]) == 15
    assert sum(t["count"] for t in s["order_tokens"] if t.get("star")) == 5


def test_player_counts(m: dict, s: dict) -> None:
    assert {n: spec["houses"] for n, spec in s["players"].items()} == {
        6: list(HOUSES), 5: list(HOUSES[:5]), 4: list(HOUSES[:4]), 3: list(HOUSES[:3])}
    assert {spec["instant_win"] for spec in s["players"].values()} == {7}
    assert s["players"][3]["removed_units"] == {"lannister": {"port-of-lannisport": ["ship"]}}
    assert all("removed_units" not in s["players"][n] for n in (4, 5, 6))
    assert "port-of-lannisport" not in playing_units(s, 3)["lannister"]
    assert playing_units(s, 4)["lannister"]["port-of-lannisport"] == ["ship"]
    # the absent houses' home areas are closed or neutral (Sunspear 5, Highgarden open with 4 players)
    assert m["neutral_forces"][5]["sunspear"] == 5 and "highgarden" not in m["neutral_forces"][4]


def test_start_tracks_and_tokens_per_player_count(s: dict) -> None:
    """The absent houses leave the tracks and the others move up (reference fewer_players, guess)."""
    def tracks(count: int) -> dict[str, list[str]]:
        playing = s["players"][count]["houses"]
        return {t: [h for h in s["tracks"][t] if h in playing] for t in TRACKS}

    assert tracks(6) == {"iron_throne": ["baratheon", "lannister", "stark", "martell", "greyjoy", "tyrell"],
                         "fiefdoms": ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"],
                         "kings_court": ["lannister", "stark", "martell", "baratheon", "tyrell", "greyjoy"]}
    assert tracks(5) == {"iron_throne": ["baratheon", "lannister", "stark", "greyjoy", "tyrell"],
                         "fiefdoms": ["greyjoy", "tyrell", "stark", "baratheon", "lannister"],
                         "kings_court": ["lannister", "stark", "baratheon", "tyrell", "greyjoy"]}
    assert tracks(4) == {"iron_throne": ["baratheon", "lannister", "stark", "greyjoy"],
                         "fiefdoms": ["greyjoy", "stark", "baratheon", "lannister"],
                         "kings_court": ["lannister", "stark", "baratheon", "greyjoy"]}
    assert tracks(3) == {"iron_throne": ["baratheon", "lannister", "stark"],
                         "fiefdoms": ["stark", "baratheon", "lannister"],
                         "kings_court": ["lannister", "stark", "baratheon"]}
    holders = {n: {token: tracks(n)[track][0] for token, track in s["special_tokens"].items()} for n in COUNTS}
    assert holders[6] == holders[5] == holders[4] == {
        "iron_throne": "baratheon", "valyrian_steel_blade": "greyjoy", "messenger_raven": "lannister"}
    assert holders[3] == {"iron_throne": "baratheon", "valyrian_steel_blade": "stark", "messenger_raven": "lannister"}


def test_start_armies_fit_their_supply(m: dict, s: dict) -> None:
    for count in COUNTS:
        for house, placed in playing_units(s, count).items():
            level = s["supply"]["start"][house]
            assert fits(start_armies(placed), s["supply"]["armies"][level]), (count, house)
    assert start_armies(s["starting_units"]["baratheon"]) == [2, 2]  # Dragonstone and Shipbreaker Bay


# --- house cards ---------------------------------------------------------------------------------

CARDS = {  # house -> (name, strength, swords, fortifications), reference house_cards.yaml (SR = GC = RM)
    "baratheon": [("Stannis Baratheon", 4, 0, 0), ("Renly Baratheon", 3, 0, 0), ("Ser Davos Seaworth", 2, 0, 0),
                  ("Brienne of Tarth", 2, 1, 1), ("Salladhor Saan", 1, 0, 0), ("Melisandre", 1, 1, 0),
                  ("Patchface", 0, 0, 0)],
    "lannister": [("Tywin Lannister", 4, 0, 0), ("Ser Gregor Clegane", 3, 3, 0), ("Ser Jaime Lannister", 2, 1, 0),
                  ("The Hound", 2, 0, 2), ("Ser Kevan Lannister", 1, 0, 0), ("Tyrion Lannister", 1, 0, 0),
                  ("Cersei Lannister", 0, 0, 0)],
    "stark": [("Eddard Stark", 4, 2, 0), ("Robb Stark", 3, 0, 0), ("Roose Bolton", 2, 0, 0),
              ("Greatjon Umber", 2, 1, 0), ("Ser Rodrick Cassel", 1, 0, 2), ("The Blackfish", 1, 0, 0),
              ("Catelyn Stark", 0, 0, 0)],
    "greyjoy": [("Euron Crow's Eye", 4, 1, 0), ("Victarion Greyjoy", 3, 0, 0), ("Balon Greyjoy", 2, 0, 0),
                ("Theon Greyjoy", 2, 0, 0), ("Dagmar Cleftjaw", 1, 1, 1), ("Asha Greyjoy", 1, 0, 0),
                ("Aeron Damphair", 0, 0, 0)],
    "tyrell": [("Mace Tyrell", 4, 0, 0), ("Ser Loras Tyrell", 3, 0, 0), ("Randyll Tarly", 2, 1, 0),
               ("Ser Garlan Tyrell", 2, 2, 0), ("Margaery Tyrell", 1, 0, 1), ("Alester Florent", 1, 0, 1),
               ("Queen of Thorns", 0, 0, 0)],
    "martell": [("The Red Viper", 4, 2, 1), ("Areo Hotah", 3, 0, 1), ("Obara Sand", 2, 1, 0), ("Darkstar", 2, 1, 0),
                ("Nymeria Sand", 1, 0, 0), ("Arianne Martell", 1, 0, 0), ("Doran Martell", 0, 0, 0)],
}

ABILITIES = {  # card id -> (ability_key, timing, choice or None, optional)
    "robb-stark": ("winner-chooses-retreat", "on_win", "area", True),
    "roose-bolton": ("reclaim-discards-on-loss", "on_loss", None, False),
    "the-blackfish": ("no-casualties", "static", None, False),
    "catelyn-stark": ("double-defense-order", "static", None, False),
    "tywin-lannister": ("gain-power-on-win", "on_win", None, False),
    "kevan-lannister": ("own-footmen-double-when-attacking", "static", None, False),
    "tyrion-lannister": ("cancel-opponent-card", "cancel", "use", True),
    "cersei-lannister": ("remove-loser-order-on-win", "on_win", "area", True),
    "stannis-baratheon": ("bonus-if-below-on-iron-throne", "static", None, False),
    "renly-baratheon": ("upgrade-footman-on-win", "on_win", "area", True),
    "davos-seaworth": ("bonus-if-card-discarded", "static", None, False),
    "salladhor-saan": ("foreign-ships-zero-if-supported", "static", None, False),
    "patchface": ("discard-opponent-card", "after_combat", "card", True),
    "victarion-greyjoy": ("own-ships-double-when-attacking", "static", None, False),
    "balon-greyjoy": ("opponent-printed-strength-zero", "static", None, False),
    "theon-greyjoy": ("bonus-defending-castle", "static", None, False),
    "asha-greyjoy": ("bonus-if-unsupported", "static", None, False),
    "aeron-damphair": ("pay-power-replace-card", "immediately", "card", True),
    "mace-tyrell": ("destroy-opponent-footman", "immediately", None, False),
    "loras-tyrell": ("march-order-follows-on-win", "after_combat", None, False),
    "queen-of-thorns": ("remove-adjacent-opponent-order", "immediately", "area", False),
    "nymeria-sand": ("fortification-defending-sword-attacking", "static", None, False),
    "arianne-martell": ("attackers-stay-out-on-loss", "on_loss", None, False),
    "doran-martell": ("opponent-to-bottom-of-track", "immediately", "track", False),
}

_CARD_KEYS = {"id", "name", "strength", "swords", "fortifications"}
_ABILITY_KEYS = {"ability", "ability_key", "timing"}
_ABILITY_OPTIONAL = {"choice", "optional", "params"}


def test_42_house_cards_as_the_reference_says(hc: dict) -> None:
    cards = hc["cards"]
    assert tuple(cards) == HOUSES
    assert sum(len(c) for c in cards.values()) == 42
    for house, expected in CARDS.items():
        found = [(c["name"], c["strength"], c["swords"], c["fortifications"]) for c in cards[house]]
        assert sorted(found) == sorted(expected), house
        assert sorted((c["strength"] for c in cards[house]), reverse=True) == [4, 3, 2, 2, 1, 1, 0]


def test_card_ids_and_names_are_unique(hc: dict) -> None:
    every = [c for cards in hc["cards"].values() for c in cards]
    assert len({c["id"] for c in every}) == 42
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", c["id"]) for c in every)
    owner: dict[str, str] = {}
    for card in every:
        for name in (card["name"], card["id"], *card.get("alt_names", [])):
            folded = normalize(name)
            assert owner.setdefault(folded, card["id"]) == card["id"], f"{name!r} names {owner[folded]} too"


def test_abilities_are_dispatchable(hc: dict) -> None:
    every = {c["id"]: c for cards in hc["cards"].values() for c in cards}
    found = {}
    for card_id, card in every.items():
        keys = set(card) - _CARD_KEYS - {"alt_names"}
        if "ability" not in card:
            assert not keys, card_id  # no ability: no ability fields
            continue
        assert _ABILITY_KEYS <= keys <= _ABILITY_KEYS | _ABILITY_OPTIONAL, card_id
        assert card["timing"] in TIMINGS and card.get("choice", None) in (None, *CARD_CHOICES)
        assert isinstance(card.get("optional", False), bool) and isinstance(card.get("params", {}), dict)
        assert ("optional" in card) == ("choice" in card), card_id  # every choice says whether it may be declined
        assert len(card["ability"]) > 30
        found[card_id] = (card["ability_key"], card["timing"], card.get("choice"), card.get("optional", False))
    assert found == ABILITIES
    assert every["davos-seaworth"]["params"] == {"card": "stannis-baratheon", "strength": 1, "swords": 1}
    assert every[every["davos-seaworth"]["params"]["card"]]["name"] == "Stannis Baratheon"
    assert every["tywin-lannister"]["params"] == {"power": 2}
    assert every["aeron-damphair"]["params"] == {"power": 2}
    assert every["stannis-baratheon"]["params"] == {"strength": 1}
    assert every["theon-greyjoy"]["params"] == {"strength": 1, "swords": 1}
    assert every["asha-greyjoy"]["params"] == {"swords": 2, "fortifications": 1}


# --- Westeros decks, wildling cards, Tides of Battle ---------------------------------------------

DECKS = {  # deck -> (card, count, wildling icon), reference decks.yaml (SR = GC)
    "I": [("supply", 3, False), ("mustering", 3, False), ("a-throne-of-blades", 2, True),
          ("winter-is-coming", 1, False), ("last-days-of-summer", 1, True)],
    "II": [("clash-of-kings", 3, False), ("game-of-thrones", 3, False), ("dark-wings-dark-words", 2, True),
           ("winter-is-coming", 1, False), ("last-days-of-summer", 1, True)],
    "III": [("wildling-attack", 3, False), ("put-to-the-sword", 2, False), ("sea-of-storms", 1, True),
            ("rains-of-autumn", 1, True), ("feast-for-crows", 1, True), ("web-of-lies", 1, True),
            ("storm-of-swords", 1, True)],
}
EFFECT_KEYS = ("supply", "mustering", "clash-of-kings", "game-of-thrones", "wildling-attack", "reshuffle-deck",
               "nothing", "forbid-orders", "holder-chooses")


def test_westeros_decks(wd: dict) -> None:
    assert wd["deck_size"] == 10
    found = {d: [(e["card"], e["count"], e["mammoth"]) for e in entries] for d, entries in wd["decks"].items()}
    assert found == DECKS
    for deck in found.values():
        assert sum(count for _, count, _ in deck) == 10
    icons = {d: sum(count for _, count, icon in deck if icon) for d, deck in found.items()}
    assert icons == {"I": 3, "II": 3, "III": 5}
    assert {card for deck in found.values() for card, _, _ in deck} == set(wd["cards"])


def test_westeros_effects_are_dispatchable(wd: dict, s: dict) -> None:
    order_ids = {t["id"] for t in s["order_tokens"]}
    for card_id, card in wd["cards"].items():
        assert set(card) <= {"name", "effect", "effect_key", "params"}, card_id
        assert card["effect_key"] in EFFECT_KEYS
        params = card.get("params", {})
        if card["effect_key"] == "forbid-orders":
            assert set(params["orders"]) <= order_ids
        if card["effect_key"] == "holder-chooses":
            assert params["token"] in s["special_tokens"]
            assert params["options"][-1] == "nothing" and set(params["options"][:-1]) <= set(wd["cards"])
    forbidden = {c: set(card["params"]["orders"]) for c, card in wd["cards"].items()
                 if card["effect_key"] == "forbid-orders"}
    assert forbidden == {"sea-of-storms": {"raid", "raid-star"}, "rains-of-autumn": {"march-plus-1"},
                         "feast-for-crows": {"consolidate", "consolidate-star"},
                         "web-of-lies": {"support", "support-plus-1"},
                         "storm-of-swords": {"defense-plus-1", "defense-plus-2"}}
    chooses = {c: (card["params"]["token"], card["params"]["options"]) for c, card in wd["cards"].items()
               if card["effect_key"] == "holder-chooses"}
    assert chooses == {
        "a-throne-of-blades": ("iron_throne", ["supply", "mustering", "nothing"]),
        "dark-wings-dark-words": ("messenger_raven", ["clash-of-kings", "game-of-thrones", "nothing"]),
        "put-to-the-sword": ("valyrian_steel_blade", ["storm-of-swords", "rains-of-autumn", "nothing"]),
    }
    assert wd["cards"]["game-of-thrones"]["params"] == {"port_power": True}
    assert wd["cards"]["dark-wings-dark-words"]["params"]["port_power"] is False


WILDLING_CARDS = {
    "a-king-beyond-the-wall": "A King Beyond the Wall", "crow-killers": "Crow Killers",
    "mammoth-riders": "Mammoth Riders", "massing-on-the-milkwater": "Massing on the Milkwater",
    "preemptive-raid": "Preemptive Raid", "rattleshirts-raiders": "Rattleshirt's Raiders",
    "silence-at-the-wall": "Silence at the Wall", "skinchanger-scout": "Skinchanger Scout",
    "the-horde-descends": "The Horde Descends",
}
OUTCOMES = ("highest_bidder", "lowest_bidder", "everyone_else")


def test_nine_wildling_cards(wc: dict) -> None:
    assert wc["deck_size"] == 9 == len(wc["cards"])
    assert {c: card["name"] for c, card in wc["cards"].items()} == WILDLING_CARDS
    for card_id, card in wc["cards"].items():
        assert set(card) == {"name", "effect_key", *OUTCOMES}, card_id
        assert re.fullmatch(r"[a-z]+(-[a-z0-9]+)*", card["effect_key"])
        for outcome in OUTCOMES:
            spec = card[outcome]
            assert set(spec) <= {"effect", "params", "choice"} and spec["effect"].strip(), (card_id, outcome)
            assert isinstance(spec["params"], dict)
            assert spec.get("choice", "units") in WILDLING_CHOICES


def test_wildling_numbers(wc: dict) -> None:
    def p(card: str, outcome: str) -> dict:
        return wc["cards"][card][outcome]["params"]

    assert [p("mammoth-riders", o) for o in OUTCOMES] == [{"reclaim_cards": 1}, {"destroy_units": 3}, {"destroy_units": 2}]
    assert [p("rattleshirts-raiders", o)["supply"] for o in OUTCOMES] == [1, -2, -1]
    assert [p("crow-killers", o) for o in OUTCOMES] == [{"promote_footmen": 2}, {"demote_knights": "all"},
                                                        {"demote_knights": 2}]
    assert [p("skinchanger-scout", o) for o in OUTCOMES] == [{"return_bid": True}, {"discard_power": "all"},
                                                             {"discard_power": 2}]
    assert p("preemptive-raid", "highest_bidder") == {"new_attack_strength": 6}
    assert p("preemptive-raid", "lowest_bidder")["destroy_units"] == 2 == p("preemptive-raid", "lowest_bidder")["drop_positions"]
    assert p("the-horde-descends", "lowest_bidder")["destroy_units"] == 2
    assert p("the-horde-descends", "everyone_else") == {"destroy_units": 1}
    assert all(p("silence-at-the-wall", o) == {} for o in OUTCOMES)


def test_tides_of_battle(tob: dict) -> None:
    cards = tob["cards"]
    assert tob["deck_size"] == 24 == sum(c["count"] for c in cards.values())
    split = sorted((c["strength"], c["swords"], c["fortifications"], c["skulls"], c["count"]) for c in cards.values())
    assert split == [(0, 0, 0, 0, 8), (0, 0, 0, 1, 2), (1, 0, 1, 0, 4), (1, 1, 0, 0, 4), (2, 0, 0, 0, 4), (3, 0, 0, 0, 2)]
    assert all(set(c) == {"name", "strength", "swords", "fortifications", "skulls", "count"} for c in cards.values())


# --- agot1e's schema, mirrored -------------------------------------------------------------------

# Keys the 2nd edition adds; every other key must be agot1e's, with agot1e's shape.
NEW_KEYS = {
    "map.yaml": {"not_adjacent", "neutral_forces", "impassable"},
    "setup.yaml": {"ports"},
    "westeros_decks.yaml": set(),
    "house_cards.yaml": set(),
}


def _shape(value: Any) -> str:
    return "mapping" if isinstance(value, dict) else "list" if isinstance(value, list) else type(value).__name__


@pytest.mark.parametrize("name", sorted(NEW_KEYS))
def test_top_level_keys_mirror_agot1e(name: str) -> None:
    first, second = load(name, AGOT1E), load(name)
    assert set(second) - set(first) == NEW_KEYS[name]
    for key in set(first) & set(second):
        assert _shape(first[key]) == _shape(second[key]), (name, key)


def test_map_areas_mirror_agot1e(m: dict) -> None:
    first = load("map.yaml", AGOT1E)
    for area, spec in m["areas"].items():
        if area in first["areas"]:
            old = first["areas"][area]
            assert spec["name"] == old["name"] and spec["kind"] == old["kind"], area
            for key in set(spec) & set(old):
                assert _shape(spec[key]) == _shape(old[key]), (area, key)
    assert set(m["muster_points"]) == set(first["muster_points"])
    # the 1st-ed areas missing here are the Summer Sea (split in two), nothing else
    assert set(first["areas"]) - set(m["areas"]) == {"summer-sea"}


def test_setup_mirrors_agot1e(s: dict) -> None:
    first = load("setup.yaml", AGOT1E)
    assert set(s["units"]) - set(first["units"]) == {"strength_only_against_castles", "upgrade_to"}
    for key in ("limit", "strength", "muster_cost"):
        assert set(first["units"][key]) <= set(s["units"][key])
    assert set(s["units"]["limit"]) - set(first["units"]["limit"]) == {"siege_engine"}
    assert set(first["wildlings"]) - set(s["wildlings"]) == {"losses"}  # replaced by the wildling cards
    assert set(s["wildlings"]) - set(first["wildlings"]) == {"attack_at", "after_nights_watch_win", "after_wildlings_win"}
    for key in ("power_tokens", "supply", "victory", "special_tokens", "tracks"):
        assert set(s[key]) == set(first[key]), key
    for count, spec in s["players"].items():
        assert set(spec) - {"houses", "instant_win"} <= {"removed_units"}, count
    assert set(first["houses"]) < set(s["houses"])


def test_cards_mirror_agot1e(hc: dict, wd: dict) -> None:
    first_cards = [c for cards in load("house_cards.yaml", AGOT1E)["cards"].values() for c in cards]
    first_keys = set().union(*map(set, first_cards)) - {"ability_cz"}
    second_keys = set().union(*(set(c) for cards in hc["cards"].values() for c in cards))
    assert second_keys - first_keys == {"ability_key", "timing", "choice", "optional", "params"}
    assert first_keys <= second_keys
    first_deck = load("westeros_decks.yaml", AGOT1E)
    assert {k for e in first_deck["decks"]["I"] for k in e} == {k for e in wd["decks"]["I"] for k in e}
    shared = set(first_deck["cards"]) & set(wd["cards"])
    assert shared == {"supply", "mustering", "clash-of-kings", "game-of-thrones", "wildling-attack", "sea-of-storms",
                      "storm-of-swords", "feast-for-crows", "rains-of-autumn", "winter-is-coming", "last-days-of-summer"}


# --- the doubts stay visible -----------------------------------------------------------------------

DOUBTS = [  # (file, text on the line) -> that line must still say "guess"
    ("map.yaml", "port-of-winterfell:"), ("map.yaml", "port-of-white-harbor:"), ("map.yaml", "port-of-storms-end:"),
    ("map.yaml", "port-of-sunspear:"), ("map.yaml", "[port-of-winterfell, bay-of-ice]"),
    ("map.yaml", "[port-of-white-harbor, the-narrow-sea]"), ("map.yaml", "[port-of-storms-end, shipbreaker-bay]"),
    ("map.yaml", "[port-of-sunspear, east-summer-sea]"),
    ("setup.yaml", "4: [3, 2, 1, 0]"), ("setup.yaml", "3: [3, 2, 1]"), ("setup.yaml", "removed_units:"),
    ("setup.yaml", "after_wildlings_win:"), ("setup.yaml", "# Fewer players"),
    ("westeros_decks.yaml", "{card: feast-for-crows"), ("westeros_decks.yaml", "# guess: port_power false"),
    ("house_cards.yaml", "name: Dagmar Cleftjaw"), ("tides_of_battle.yaml", "cards:"),
]


@pytest.mark.parametrize("name, text", DOUBTS)
def test_doubts_stay_visible(name: str, text: str) -> None:
    lines = [line for line in (DATA / name).read_text(encoding="utf-8").splitlines() if text in line]
    assert len(lines) == 1, lines
    assert "guess" in lines[0]


# --- broken copies are caught ----------------------------------------------------------------------


def _broken_map(m: dict, change) -> list[str]:
    broken = copy.deepcopy(m)
    change(broken)
    return map_problems(broken)


@pytest.mark.parametrize("change, problem", [
    (lambda m: m["borders"].append(["karhold", "castle-black"]), "listed twice"),
    (lambda m: m["borders"].append(["karhold", "karhol"]), "unknown area"),
    (lambda m: m["borders"].append(["karhold", "karhold"]), "cannot border itself"),
    (lambda m: m["borders"].append(["port-of-pyke", "sunset-sea"]), "port port-of-pyke borders"),
    (lambda m: m["borders"].append(["pyke", "seagard"]), "island flag"),
    (lambda m: m["borders"].append(["winterfell", "greywater-watch"]), "listed not_adjacent"),
    (lambda m: m["borders"].remove(["port-of-sunspear", "east-summer-sea"]), "port port-of-sunspear borders"),
    (lambda m: m["areas"]["port-of-winterfell"].update(sea="the-narrow-sea"), "port port-of-winterfell borders"),
    (lambda m: m["areas"]["port-of-oldtown"].update(port_of="three-towers"), "not a land area with a castle"),
    (lambda m: m["areas"]["white-harbor"].update(castle="castle"), "castle 'castle'"),
    (lambda m: m["areas"]["karhold"].update(garrison=2), "garrison belongs on a home area"),
    (lambda m: m["areas"]["pyke"].pop("garrison"), "garrison belongs on a home area"),
    (lambda m: m["areas"]["sunspear"].pop("home_of"), "home areas"),
    (lambda m: m["areas"]["bay-of-ice"].update(supply=1), "sea keys"),
    (lambda m: m["impassable"][3].append("kings-landing"), "own neutral force"),
    (lambda m: m["neutral_forces"][4].update({"the-golden-sound": 3}), "not a land area"),
    (lambda m: m["neutral_forces"].pop(6), "neutral_forces: rows"),
])
def test_broken_map_is_caught(m: dict, change, problem: str) -> None:
    problems = _broken_map(m, change)
    assert any(problem in p for p in problems), problems


def _broken_setup(m: dict, s: dict, change) -> list[str]:
    broken = copy.deepcopy(s)
    change(broken)
    return setup_problems(m, broken)


@pytest.mark.parametrize("change, problem", [
    (lambda s: s["starting_units"]["stark"].update({"white-harbor": ["ship"]}), "neither at sea nor in its own port"),
    (lambda s: s["starting_units"]["stark"].update({"bay-of-ice": ["knight"]}), "a knight off land"),
    (lambda s: s["starting_units"]["stark"].update({"port-of-pyke": ["ship"]}), "the home of greyjoy"),
    (lambda s: s["starting_units"]["stark"].update({"the-eyrie": ["footman"]}), "a neutral or impassable area"),
    (lambda s: s["starting_units"]["stark"].update({"pyke": ["footman"]}), "stark starts there too"),
    (lambda s: s["starting_units"]["baratheon"].update({"sunspear": ["footman"]}), "the home of martell"),
    (lambda s: s["starting_units"]["tyrell"].update({"highgarden": ["knight"] * 3 + ["footman"] * 3}), "break supply"),
    (lambda s: s["starting_units"]["greyjoy"].update({"port-of-pyke": ["ship"] * 4}), "more ships than a port holds"),
    (lambda s: s["starting_units"]["baratheon"].update({"shipbreaker-bay": ["ship"] * 7}), "over the limit"),
    (lambda s: s["supply"]["start"].update(stark=2), "start supply 2, barrels 1"),
    (lambda s: s["tracks"]["fiefdoms"].append("stark"), "track fiefdoms"),
    (lambda s: s["kings_court_stars"].update({4: [3, 2, 1]}), "King's Court stars"),
    (lambda s: s["players"][4].update(houses=["stark", "lannister", "baratheon"]), "4 players: houses"),
])
def test_broken_setup_is_caught(m: dict, s: dict, change, problem: str) -> None:
    problems = _broken_setup(m, s, change)
    assert any(problem in p for p in problems), problems
