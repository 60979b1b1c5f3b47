"""The shipped AGoT 1st-edition data loads and passes its checks; the board answers the rulebook's
own worked examples (ported from the reference's check_map.py); names resolve as players write
them; and a broken data file fails loudly, naming the file."""

from __future__ import annotations

import shutil
from pathlib import Path

import networkx as nx
import pytest

from adjudicator.rulesets.agot.board import Area, Board, UnknownName
from adjudicator.rulesets.agot.gamedata import GameData
from adjudicator.rulesets.agot.gamedata import load_gamedata_from as load_with_shape
from adjudicator.rulesets.agot1e.edition import DATA_VERSION, SHAPE, load_gamedata
from adjudicator.yamlio import YamlFileError


@pytest.fixture(scope="module")
def data() -> GameData:
    return load_gamedata()


@pytest.fixture(scope="module")
def board(data: GameData) -> Board:
    return data.board


# --- the shipped data ----------------------------------------------------------------------------


def test_shipped_data_loads_and_is_cached(data: GameData) -> None:
    assert DATA_VERSION == "v1" and data.version == "v1"
    assert load_gamedata() is data and load_gamedata("v1") is data
    assert len(data.board.land_areas) == 34 and len(data.board.sea_areas) == 11
    assert data.board.graph.number_of_edges() == 112
    assert sum(len(cards) for cards in data.house_cards.values()) == 35
    assert sum(t.count for t in data.setup.order_tokens) == 15


def test_bad_version_is_refused() -> None:
    with pytest.raises(ValueError):
        load_gamedata("../v1")


def test_node_attributes(board: Board) -> None:
    node = board.graph.nodes["kings-landing"]
    assert node["kind"] == "land" and node["castle"] == "stronghold" and node["muster_points"] == 2
    assert node["power"] == 2 and node["supply"] == 0 and node["neutral_force"] == 5
    assert node["home_of"] is None and node["island"] is False and node["name"] == "King's Landing"
    assert board.graph.nodes["ironmans-bay"]["kind"] == "sea"
    with pytest.raises(nx.NetworkXError):
        board.graph.add_edge("pyke", "seagard")  # frozen


def test_adjacency_is_symmetric_and_sane(board: Board) -> None:
    for a in board:
        assert a not in board.neighbours(a)
        for b in board.neighbours(a):
            assert a in board.neighbours(b) and board.adjacent(a, b) and board.adjacent(b, a)
    assert nx.is_connected(board.graph)
    assert nx.is_connected(board.graph.subgraph(board.sea_areas))


def test_the_graph_is_the_board(board: Board) -> None:
    """The networkx graph (built on demand) and the engine's own adjacency agree, edge for edge."""
    assert {frozenset(e) for e in board.graph.edges} == {frozenset((a, b)) for a in board for b in board.neighbours(a)}
    assert list(board.graph.nodes) == list(board)


def _areas(*specs: str) -> list[Area]:
    """Areas from ``id:kind`` (an island when the id says so)."""
    return [Area(id, id.title(), kind, island="island" in id) for id, kind in (spec.split(":") for spec in specs)]


@pytest.mark.parametrize("areas, borders, problem", [
    (_areas("a:land", "b:land", "c:land", "d:land"), [("a", "b"), ("c", "d")],
     "the map falls apart into pieces that share no border"),
    (_areas("a:land", "b:land", "s:sea", "t:sea"), [("a", "b"), ("a", "s"), ("b", "t")],
     "the sea areas do not form one connected sea"),
    (_areas("a:land", "b:land", "island:land", "s:sea"), [("a", "b"), ("a", "s")], "the map falls apart"),
    (_areas("a:land", "b:land", "a:sea"), [("a", "b")], "area a is listed twice"),
    (_areas("a:land", "b:land"), [("a", "b"), ("b", "a")], "border [b, a] is listed twice"),
])
def test_board_shape_is_checked(areas: list[Area], borders: list[tuple[str, str]], problem: str) -> None:
    with pytest.raises(ValueError) as caught:
        Board(areas, borders)
    assert problem in str(caught.value)


def test_a_small_sound_board() -> None:
    board = Board(_areas("a:land", "b:land", "s:sea", "t:sea", "island:land"),
                  [("a", "b"), ("a", "s"), ("s", "t"), ("t", "b"), ("t", "island")])
    assert board.neighbours("t") == ("b", "island", "s") and board.reach_by_march("a", ["s", "t"]) == {"b", "island"}


def test_structure(board: Board) -> None:
    for island in ("dragonstone", "pyke", "the-arbor"):
        assert board.area(island).island
        assert all(board.is_sea(n) for n in board.neighbours(island))
    assert "summer-sea" in board and "west-summer-sea" not in board
    assert not any(a.startswith("port-") for a in board)
    homes = {board.area(a).home_of: a for a in board if board.area(a).home_of}
    assert homes == {"stark": "winterfell", "greyjoy": "pyke", "lannister": "lannisport",
                     "baratheon": "dragonstone", "tyrell": "highgarden"}
    assert board.home_area("stark") == "winterfell"
    neutral = {a: board.area(a).neutral_force for a in board if board.area(a).neutral_force}
    assert neutral == {"kings-landing": 5, "the-eyrie": 6, "sunspear": 5}
    for a in board.land_areas:
        assert board.area(a).muster_points == {"none": 0, "city": 1, "stronghold": 2}[board.area(a).castle]


# --- the rulebook's worked examples (CZ), as check_map.py checks them ---------------------------


def test_transport_pyke_via_ironmans_bay(board: Board) -> None:  # CZ p.9
    assert board.reach_by_march("pyke", {"ironmans-bay"}) == {
        "flints-finger", "greywater-watch", "seagard", "riverrun"}


def test_transport_with_a_ship_in_sunset_sea_adds_exactly_three(board: Board) -> None:  # CZ p.9
    extra = board.reach_by_march("pyke", {"ironmans-bay", "sunset-sea"}) - board.reach_by_march(
        "pyke", {"ironmans-bay"})
    assert extra == {"highgarden", "searoad-marches", "oldtown"}


def test_transport_highgarden_to_sunspear(board: Board) -> None:  # CZ p.9, Tyrell chain
    seas = {"sunset-sea", "redwyne-straights", "summer-sea"}
    assert "sunspear" in board.reach_by_march("highgarden", seas)
    assert nx.is_connected(board.graph.subgraph(seas))


def test_transport_flints_finger_to_widows_watch_needs_five_seas(board: Board) -> None:  # CZ p.9
    seas = board.graph.subgraph(board.sea_areas)
    chains = [nx.shortest_path(seas, s, t)
              for s in board.neighbours("flints-finger") if board.is_sea(s)
              for t in board.neighbours("widows-watch") if board.is_sea(t)]
    best = min(chains, key=len)
    assert len(best) == 5
    assert "widows-watch" in board.reach_by_march("flints-finger", set(best))
    for i in range(len(best)):  # any gap in the chain breaks it
        assert "widows-watch" not in board.reach_by_march("flints-finger", set(best) - {best[i]})


def test_transport_dragonstone_to_storms_end(board: Board) -> None:  # CZ p.11 retreat example
    assert "storms-end" in board.reach_by_march("dragonstone", {"shipbreaker-bay"})


def test_march_without_ships_is_plain_land_adjacency(board: Board) -> None:
    assert board.reach_by_march("lannisport", set()) == {"riverrun", "searoad-marches", "stoney-sept"}
    assert board.reach_by_march("pyke", set()) == set()
    assert board.reach_by_march("pyke", {"sunset-sea"}) == set()  # the chain must start next to Pyke
    with pytest.raises(ValueError):
        board.reach_by_march("ironmans-bay", set())
    with pytest.raises(ValueError):
        board.reach_by_march("pyke", {"seagard"})


@pytest.mark.parametrize("a, b", [
    ("blackwater", "kings-landing"), ("blackwater", "stoney-sept"), ("blackwater", "harrenhal"),
    ("blackwater", "the-reach"),  # CZ p.10 support example
    ("sunset-sea", "highgarden"), ("the-reach", "searoad-marches"), ("harrenhal", "riverrun"),  # p.8 raids
    ("the-golden-sound", "riverrun"), ("the-golden-sound", "lannisport"),  # p.5 muster example
    ("lannisport", "stoney-sept"), ("lannisport", "searoad-marches"),  # p.9 march example
    ("kingswood", "storms-end"),  # p.11 retreat example
    ("yronwood", "sunspear"), ("summer-sea", "sunspear"),  # p.12 neutral force example
])
def test_rulebook_borders(board: Board, a: str, b: str) -> None:
    assert board.adjacent(a, b)


def test_rulebook_icons(board: Board) -> None:
    assert board.area("blackwater").supply == 2
    assert board.area("riverrun").supply == 1 and board.area("seagard").supply == 1
    assert board.area("dragonstone").power == 1
    assert board.area("lannisport").muster_points == 2 and board.area("riverrun").muster_points == 2
    assert board.area("harrenhal").muster_points == 1
    assert board.area("stoney-sept").castle == "none"
    assert board.area("sunspear").neutral_force == 5


# --- setup ---------------------------------------------------------------------------------------


def test_setup_tables(data: GameData) -> None:
    s = data.setup
    assert list(s.houses) == ["stark", "lannister", "baratheon", "greyjoy", "tyrell"]
    assert s.starting_power == 5 and s.power_limit == 20
    assert dict(s.unit_limits) == {"footman": 10, "knight": 4, "ship": 6}  # CZ p.4
    assert s.starting_units["lannister"] == {
        "lannisport": ("knight", "footman"), "stoney-sept": ("footman",), "the-golden-sound": ("ship",)}
    assert s.supply_armies[3] == (3, 2, 2, 2) and s.supply_armies[5] == (4, 3, 2, 2)
    assert s.tracks["iron_throne"][1] == "lannister" and s.tracks["fiefdoms"][4] == "lannister"
    assert s.tracks["kings_court"][0] == "lannister"
    assert s.start_holders(5) == {"iron_throne": "baratheon", "valyrian_steel_blade": "greyjoy",
                                  "messenger_raven": "lannister"}
    assert s.wildlings.track == (0, 2, 4, 6, 8, 10, 12) and s.wildlings.start == 0
    assert s.rounds == 10


def test_order_tokens(data: GameData) -> None:
    tokens = {t.id: t for t in data.setup.order_tokens}
    assert sum(t.count for t in tokens.values()) == 15
    assert sorted(t.id for t in tokens.values() if t.star) == [
        "consolidate-star", "defense-plus-2", "march-plus-1", "raid-star", "support-plus-1"]
    assert tokens["defense-plus-1"].count == 2 and tokens["march-minus-1"].bonus == -1
    assert {t.short for t in tokens.values()} == {"M-1", "M0", "M+1", "S", "S+1", "R", "R*", "C", "C*", "D+1", "D+2"}


def test_player_counts(data: GameData) -> None:
    s = data.setup
    assert [s.victory_target(n) for n in (3, 4, 5)] == [8, 7, 7]
    assert s.game(4).absent == ("greyjoy",) and s.game(3).absent == ("greyjoy", "tyrell")
    assert s.game(5).kings_court_stars == (3, 3, 2, 1, 0)
    assert len(s.game(3).kings_court_stars) == 3
    assert "greyjoy" not in s.start_tracks(4)["fiefdoms"]
    assert s.start_holders(4)["valyrian_steel_blade"] == "tyrell"  # the Blade moves on (CZ p.13)
    with pytest.raises(ValueError):
        s.game(2)


# --- house cards and Westeros decks --------------------------------------------------------------


def test_house_cards(data: GameData) -> None:
    for house, cards in data.house_cards.items():
        assert len(cards) == 7 and all(c.house == house for c in cards)
        assert sorted((c.strength for c in cards), reverse=True) == [3, 2, 2, 1, 1, 0, 0]
        assert sum(1 for c in cards if c.ability) == 3
    assert data.card("tywin-lannister").swords == 2  # CZ p.11
    margaery = data.card("margaery-tyrell")
    assert (margaery.swords, margaery.fortifications) == (0, 1)
    assert data.card("renly-baratheon").ability and not data.card("davos-seaworth").ability
    assert data.card("brienne-of-tarth").house == "tyrell"


def test_westeros_decks(data: GameData) -> None:
    decks = data.westeros_decks
    assert list(decks) == ["I", "II", "III"]
    for deck in decks.values():
        ids = {card_id for card_id, _ in deck.copies()}
        assert {"winter-is-coming", "last-days-of-summer"} <= ids
        assert len(deck.copies()) <= deck.size == 10
    assert "wildling-attack" in {e.card.id for e in decks["III"].entries}
    assert data.westeros_cards["rains-of-autumn"].name_cz == "Podzimní deště"


# --- area names ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text, area", [
    ("Winterfell", "winterfell"), ("WINTERFELL", "winterfell"), ("King's Landing", "kings-landing"),
    ("kings-landing", "kings-landing"), ("The Eyrie", "the-eyrie"),
    # aliases
    ("KL", "kings-landing"), ("kl", "kings-landing"), ("Searoad", "searoad-marches"),
    ("Golden Sound", "the-golden-sound"), ("Ironman", "ironmans-bay"), ("Shipbreaker", "shipbreaker-bay"),
    ("Narrow Sea", "the-narrow-sea"), ("Shivering Sea", "the-shivering-sea"), ("Redwyne", "redwyne-straights"),
    ("Redwyne Straits", "redwyne-straights"), ("Sunset", "sunset-sea"), ("Summer", "summer-sea"),
    ("Dorne", "sea-of-dorne"), ("Eyrie", "the-eyrie"), ("Arbor", "the-arbor"), ("Twins", "the-twins"),
    ("Fingers", "the-fingers"), ("Riverrun", "riverrun"),
    # without apostrophes
    ("Kings Landing", "kings-landing"), ("Ironmans Bay", "ironmans-bay"), ("Storms End", "storms-end"),
    ("Flints Finger", "flints-finger"), ("Widows Watch", "widows-watch"), ("Sea of Dorne", "sea-of-dorne"),
    ("Storm’s End", "storms-end"),
    # "The" ignored either way
    ("Reach", "the-reach"), ("the reach", "the-reach"), ("The Golden Sound", "the-golden-sound"),
    ("the Blackwater Bay", "blackwater-bay"),
    # unique prefixes of 3+ letters
    ("kings l", "kings-landing"), ("storm", "storms-end"), ("golden", "the-golden-sound"),
    ("Winterf", "winterfell"), ("harr", "harrenhal"), ("mountains of", "the-mountains-of-the-moon"),
    ("Ironm", "ironmans-bay"), ("dorni", "dornish-marches"), ("Redw", "redwyne-straights"),
    # an exact name beats a prefix
    ("Blackwater", "blackwater"), ("Blackwater Bay", "blackwater-bay"),
])
def test_resolve_area(board: Board, text: str, area: str) -> None:
    assert board.resolve(text) == area


@pytest.mark.parametrize("text, candidates", [
    ("Sea", {"Sea of Dorne", "Seagard", "Searoad Marches"}),
    ("Kings", {"King's Landing", "Kingswood"}),
    ("Blackw", {"Blackwater", "Blackwater Bay"}),
    ("Dor", {"Dornish Marches", "Sea of Dorne"}),  # "Dorne" is an alias of the sea
    ("Stony", {"The Stony Shore", "Stoney Sept"}),  # "Stony Sept" is an alias
])
def test_ambiguous_area(board: Board, text: str, candidates: set[str]) -> None:
    with pytest.raises(UnknownName) as caught:
        board.resolve(text)
    exc = caught.value
    assert exc.ambiguous and exc.kind == "area" and exc.text == text
    assert set(exc.suggestions) == candidates
    assert str(exc).startswith(f'"{text}" is ambiguous: ')


@pytest.mark.parametrize("text, best", [
    ("Wintrefell", "Winterfell"), ("Winterfall", "Winterfell"), ("Harenhal", "Harrenhal"),
    ("Lanisport", "Lannisport"), ("Hihgarden", "Highgarden"),
])
def test_misspelt_area_suggests(board: Board, text: str, best: str) -> None:
    with pytest.raises(UnknownName) as caught:
        board.resolve(text)
    exc = caught.value
    assert not exc.ambiguous and exc.kind == "area" and exc.suggestions[0] == best
    assert str(exc).startswith(f'unknown area "{text}"; did you mean {best}')


def test_short_or_empty_names_are_unknown(board: Board) -> None:
    for text in ("Wi", "", "the", "Narnia"):
        with pytest.raises(UnknownName) as caught:
            board.resolve(text)
        assert not caught.value.ambiguous
    with pytest.raises(UnknownName) as caught:
        board.resolve("Wi")
    assert caught.value.suggestions == ["Widow's Watch", "Winterfell"]


def test_unknown_area_id_is_a_key_error(board: Board) -> None:
    with pytest.raises(KeyError):
        board.name("narnia")
    with pytest.raises(KeyError):
        board.adjacent("pyke", "narnia")


# --- card names ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text, card", [
    ("Tywin Lannister", "tywin-lannister"), ("tywin", "tywin-lannister"), ("Loras", "loras-tyrell"),
    ("Ser Loras Tyrell", "loras-tyrell"), ("ser lo", "loras-tyrell"), ("Jaime", "jaime-lannister"),
    ("jaime-lannister", "jaime-lannister"), ("Sir Rodrik Cassel", "rodrik-cassel"),
    ("House Florent Lord", "robert-baratheon"), ("Queen of Thrones", "queen-of-thorns"),
    ("Euron Crows Eye", "euron-crows-eye"), ("Melisandre", "melisandre"), ("Luwin", "maester-luwin"),
    ("Ned", "eddard-stark"), ("Robb", "robb-stark"), ("Robert", "robert-baratheon"),
])
def test_resolve_card(data: GameData, text: str, card: str) -> None:
    assert data.resolve_card(text).id == card


def test_resolve_card_within_a_house(data: GameData) -> None:
    assert data.resolve_card("Captain", house="lannister").id == "lannister-captain"
    assert data.resolve_card("Cat", house="stark").id == "catelyn-stark"
    with pytest.raises(UnknownName) as caught:
        data.resolve_card("Tywin", house="stark")
    assert "Tywin Lannister" in str(caught.value) and "Lannister card" in str(caught.value)
    with pytest.raises(ValueError):
        data.resolve_card("Tywin", house="targaryen")


@pytest.mark.parametrize("text", ["Rob", "Lannister", "Captain", "Stark"])
def test_ambiguous_card(data: GameData, text: str) -> None:
    with pytest.raises(UnknownName) as caught:
        data.resolve_card(text)
    assert caught.value.ambiguous and caught.value.kind == "card" and len(caught.value.suggestions) > 1


def test_misspelt_card_suggests(data: GameData) -> None:
    with pytest.raises(UnknownName) as caught:
        data.resolve_card("Tywinn Lanister")
    assert caught.value.suggestions[0] == "Tywin Lannister"
    assert "did you mean Tywin Lannister" in str(caught.value)


# --- broken data files ---------------------------------------------------------------------------


def _broken(tmp_path: Path, filename: str, old: str, new: str, *more: tuple[str, str]) -> YamlFileError:
    """Load a copy of v1 with text edits in ``filename``; return the error it must raise."""
    directory = tmp_path / "v1"
    shutil.copytree(SHAPE.directory / DATA_VERSION, directory)
    path = directory / filename
    text = path.read_text(encoding="utf-8")
    for before, after in ((old, new), *more):
        assert before in text, before
        text = text.replace(before, after, 1)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(YamlFileError) as caught:
        load_with_shape(SHAPE, directory)
    assert caught.value.path == path and filename in str(caught.value)
    return caught.value


def test_unbroken_copy_loads(tmp_path: Path) -> None:
    shutil.copytree(SHAPE.directory / DATA_VERSION, tmp_path / "v1")
    assert load_with_shape(SHAPE, tmp_path / "v1").version == "v1"


@pytest.mark.parametrize("old, new, problem", [
    ("  - [castle-black, karhold]\n", "  - [castle-black, karhol]\n", "unknown area 'karhol'"),
    ("  - [castle-black, karhold]\n", "  - [castle-black, karhold]\n  - [karhold, castle-black]\n", "listed twice"),
    ("  - [castle-black, karhold]\n", "  - [castle-black, castle-black]\n", "cannot border itself"),
    ("  - [castle-black, karhold]\n", "  - [castle-black, karhold]\n  - [pyke, seagard]\n", "island pyke"),
    ("  - [castle-black, karhold]\n", "  - [castle-black]\n", "expected [area, area]"),
    ("format: 1\n", "", "unsupported format None"),
    ("format: 1\n", "format: 2\n", "unsupported format 2"),
    ("{name: Karhold, kind: land, castle: none, supply: 0,", "{name: Karhold, kind: land, castle: none, suply: 0,",
     "unknown key suply"),
    ("castle: city, supply: 1, power: 1, neutral_force: 6", "castle: keep, supply: 1, power: 1, neutral_force: 6",
     "'keep' is not one of"),
    ("home_of: greyjoy", "home_of: martell", "unknown house 'martell'"),
])
def test_broken_map(tmp_path: Path, old: str, new: str, problem: str) -> None:
    assert problem in _broken(tmp_path, "map.yaml", old, new).problem


def test_area_count_is_checked(tmp_path: Path) -> None:
    exc = _broken(tmp_path, "map.yaml", "  bay-of-ice:", "  old-bay: {name: Old Bay, kind: sea}\n  bay-of-ice:",
                  ("  - [bay-of-ice, sunset-sea]", "  - [bay-of-ice, sunset-sea]\n  - [old-bay, bay-of-ice]"))
    assert exc.problem == "expected 34 land and 11 sea areas, found 34 and 12"


def test_bad_yaml_syntax_names_file_and_line(tmp_path: Path) -> None:
    exc = _broken(tmp_path, "map.yaml", "  karhold:", "  karhold: [unclosed\n  oops:")
    assert exc.line is not None


@pytest.mark.parametrize("filename, old, new, problem", [
    ("setup.yaml", "    stoney-sept: [footman]", "    stony-sept: [footman]", "unknown area 'stony-sept'"),
    ("setup.yaml", "    white-harbor: [footman]", "    white-harbor: [ship]", "cannot start in the land area"),
    ("setup.yaml", "    the-golden-sound: [ship]", "    the-golden-sound: [knight]", "sea area"),
    ("setup.yaml", "id: raid, kind: raid, bonus: 0, count: 2", "id: raid, kind: raid, bonus: 0, count: 1",
     "expected 15 per house"),
    ("setup.yaml", "  fiefdoms: [greyjoy, tyrell,", "  fiefdoms: [greyjoy, greyjoy,", "each house once"),
    ("setup.yaml", "  3: [3, 3, 2]  ", "  3: [3, 3]  ", "expected 3 positions"),
    ("house_cards.yaml", "    - id: vargo-hoat\n", "    - id: vargo-hoat\n      unknown: 1\n", "unknown key"),
    ("house_cards.yaml", "      name: Greatjon Umber\n", "      name: Robb Stark\n", "already names"),
    ("house_cards.yaml", "    - id: tyrion-lannister", "    - id: tywin-lannister", "used twice"),
    ("house_cards.yaml", "      strength: 3\n      swords: 2                  # certain",
     "      strength: 4\n      swords: 2                  # certain", "above 3"),
    ("westeros_decks.yaml", "{card: supply, count: 4", "{card: suply, count: 4", "unknown card 'suply'"),
    ("westeros_decks.yaml", "{card: supply, count: 4", "{card: supply, count: 5", "more than deck_size"),
])
def test_broken_other_files(tmp_path: Path, filename: str, old: str, new: str, problem: str) -> None:
    assert problem in _broken(tmp_path, filename, old, new).problem


def test_missing_file_is_named(tmp_path: Path) -> None:
    directory = tmp_path / "v1"
    shutil.copytree(SHAPE.directory / DATA_VERSION, directory)
    (directory / "westeros_decks.yaml").unlink()
    with pytest.raises(YamlFileError) as caught:
        load_with_shape(SHAPE, directory)
    assert caught.value.path == directory / "westeros_decks.yaml"
