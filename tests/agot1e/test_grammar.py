"""The agot1e mail grammar (shared/agot1e/PBEM.md): accepted forms, canonical echo, every kind
of rejection (with its line number, reason and a valid example), transport damage, and the
round-trip property canonical -> parse -> same command."""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.rulesets.agot import grammar
from adjudicator.rulesets.agot1e.edition import load_gamedata
from adjudicator.mailcommands import ALL as PRESS_ALL
from adjudicator.rulesets.agot.commands import (
    ALL,
    ORDER_TOKENS,
    UPGRADE,
    Ability,
    Bid,
    BidAll,
    Blade,
    Card,
    Casualties,
    Clear,
    Help,
    March,
    Move,
    Muster,
    MusterItem,
    OrderLine,
    Orders,
    OrdersQuery,
    OrderToken,
    Press,
    Raid,
    Raven,
    Reclaim,
    Remove,
    Retreat,
    Status,
    Support,
    Tiebreak,
    sort_units,
)
from adjudicator.rulesets.agot.grammar import (
    EXAMPLES,
    SECOND_EDITION_COMMANDS,
    VARIANT_COMMANDS,
    MAX_LINE_CHARS,
    GameDataNames,
    LineResult,
    NameResolver,
    ParsedMail,
    parse_mail,
    parse_order_token,
)


@pytest.fixture(scope="module")
def names() -> GameDataNames:
    return GameDataNames(load_gamedata())


_NAMES: GameDataNames | None = None


def real_names() -> GameDataNames:
    """The resolver for hypothesis tests (function-scoped fixtures do not mix with @given)."""
    global _NAMES
    if _NAMES is None:
        _NAMES = GameDataNames(load_gamedata())
    return _NAMES


# --- helpers ----------------------------------------------------------------------------------


def accepted(text: str, names: NameResolver) -> ParsedMail:
    mail = parse_mail(text, names)
    assert mail.ok, [(r.lineno, r.error) for r in mail.errors]
    return mail


def one(line: str, names: NameResolver):
    """The single command of a one-line mail (which must be accepted)."""
    mail = accepted(line, names)
    assert len(mail.commands) == 1, mail.commands
    return mail.commands[0]


def assert_valid_example(result: LineResult, names: NameResolver) -> None:
    """An error's example must itself be accepted (an order line inside an ORDERS block)."""
    assert result.example, result
    as_line, as_order = parse_mail(result.example, names), parse_mail("ORDERS\n" + result.example, names)
    assert as_line.ok or as_order.ok, (result, as_line.errors, as_order.errors)


def rejected(text: str, names: NameResolver, lineno: int, *reason: str) -> LineResult:
    """The error on ``lineno``: the reason contains each of ``reason``; the example is valid."""
    mail = parse_mail(text, names)
    assert not mail.ok
    found = [r for r in mail.lines if r.lineno == lineno]
    assert found, f"no result for line {lineno}: {mail.lines}"
    result = found[0]
    assert result.error is not None, result
    assert result.command is None and result.canonical is None
    for part in reason:
        assert part.lower() in str(str(result.error)).lower(), (part, result.error)
    assert_valid_example(result, names)
    return result


# --- ORDERS ---------------------------------------------------------------------------------------


def test_orders_block_as_in_pbem(names: GameDataNames) -> None:
    mail = accepted(
        """JUDGE game1 lannister secret
ORDERS
Lannisport: march -1          # march -1 | march 0 | march +1*
Stoney Sept: support          # support | support +1*
The Golden Sound: raid        # raid | raid*
Harrenhal: consolidate        # consolidate | consolidate*
Searoad Marches: defense +1   # defense +1 | defense +2*
""",
        names,
    )
    assert mail.commands == [
        Orders(
            (
                OrderLine("lannisport", "march", -1),
                OrderLine("stoney-sept", "support"),
                OrderLine("the-golden-sound", "raid"),
                OrderLine("harrenhal", "consolidate"),
                OrderLine("searoad-marches", "defense", 1),
            )
        )
    ]
    assert [(r.lineno, r.canonical) for r in mail.lines] == [
        (2, "ORDERS"),
        (3, "Lannisport: march -1"),
        (4, "Stoney Sept: support"),
        (5, "The Golden Sound: raid"),
        (6, "Harrenhal: consolidate"),
        (7, "Searoad Marches: defense +1"),
    ]
    assert isinstance(mail.lines[1].command, OrderLine)
    assert mail.lines[0].command is mail.commands[0]


@pytest.mark.parametrize(
    "written, canonical",
    [
        ("march -1", "march -1"), ("march 0", "march 0"), ("march +1*", "march +1*"),
        ("support", "support"), ("support +1*", "support +1*"), ("raid", "raid"), ("raid*", "raid*"),
        ("consolidate", "consolidate"), ("consolidate*", "consolidate*"),
        ("defense +1", "defense +1"), ("defense +2*", "defense +2*"),
        # short forms
        ("M-1", "march -1"), ("M0", "march 0"), ("M+1", "march +1*"), ("S", "support"),
        ("S+1", "support +1*"), ("R", "raid"), ("R*", "raid*"), ("C", "consolidate"),
        ("C*", "consolidate*"), ("D+1", "defense +1"), ("D+2", "defense +2*"),
        # forgiving spellings
        ("march+1", "march +1*"), ("March +1*", "march +1*"), ("m +1", "march +1*"),
        ("MARCH -1", "march -1"), ("march 1", "march +1*"), ("march*", "march +1*"),
        ("defence +1", "defense +1"), ("Defence+2*", "defense +2*"), ("defense*", "defense +2*"),
        ("consolidate power", "consolidate"), ("Consolidate Power*", "consolidate*"),
        ("support +1", "support +1*"), ("support*", "support +1*"), ("raid *", "raid*"),
        ("march \u20131", "march -1"),  # an en dash from autocorrect
        # Czech
        ("pochod -1", "march -1"), ("Pochod +1", "march +1*"), ("podpora", "support"),
        ("podpora +1*", "support +1*"), ("nájezd", "raid"), ("najezd*", "raid*"),
        ("konsolidace", "consolidate"), ("konsolidace síly*", "consolidate*"),
        ("obrana +1", "defense +1"), ("obrana +2*", "defense +2*"),
    ],
)
def test_order_tokens(written: str, canonical: str, names: GameDataNames) -> None:
    assert parse_order_token(written).canonical() == canonical
    mail = accepted(f"ORDERS\nLannisport: {written}", names)
    assert mail.lines[1].canonical == f"Lannisport: {canonical}"


def test_every_order_token_is_reachable() -> None:
    assert {parse_order_token(t.canonical()) for t in ORDER_TOKENS} == set(ORDER_TOKENS)
    assert len(set(ORDER_TOKENS)) == 11


@pytest.mark.parametrize("token", ["march +2", "march", "march -1*", "raid +1", "defense +3", "jump", "S+2"])
def test_bad_order_token(token: str, names: GameDataNames) -> None:
    text = f"ORDERS\nLannisport: march 0\nRiverrun: {token}\n"
    result = rejected(text, names, 3, f'unknown order "{token}"', "valid orders: march -1, march 0, march +1*",
                      "M-1 M0 M+1")
    assert result.example == "Riverrun: march -1"
    header = parse_mail(text, names).lines[0]
    assert header.lineno == 1 and "line(s) 3" in str(header.error)
    assert parse_mail(text, names).commands == []  # all or nothing


def test_misspelt_order_word_suggests() -> None:
    with pytest.raises(grammar.LineError, match="did you mean march"):
        parse_order_token("marhc -1")


def test_order_lines_forgiving_layout(names: GameDataNames) -> None:
    mail = accepted(
        "orders\n"
        "   Lannisport march -1\n"  # indented, no colon
        "KL: C*\n"  # alias
        "castle black: d+1\n"
        "the twins:S\n",
        names,
    )
    assert mail.commands == [
        Orders(
            (
                OrderLine("lannisport", "march", -1),
                OrderLine("kings-landing", "consolidate", 0, True),
                OrderLine("castle-black", "defense", 1),
                OrderLine("the-twins", "support"),
            )
        )
    ]


def test_orders_block_ends_at_a_command_and_at_the_end(names: GameDataNames) -> None:
    mail = accepted(
        "ORDERS\nLannisport: M0\nMARCH Lannisport -> Stoney Sept: ALL\nORDERS\nRiverrun: R\n", names
    )
    assert mail.commands == [
        Orders((OrderLine("lannisport", "march", 0),)),
        March("lannisport", (Move("stoney-sept", ALL),)),
        Orders((OrderLine("riverrun", "raid"),)),
    ]


def test_empty_orders_block_means_no_orders(names: GameDataNames) -> None:
    assert one("ORDERS", names) == Orders(())
    assert one("ORDERS:", names) == Orders(())


def test_order_errors_in_the_block(names: GameDataNames) -> None:
    text = "ORDERS\nLannisport: march -1\nlannisport: raid\n"
    rejected(text, names, 3, "Lannisport already has an order (line 2)")
    rejected("ORDERS\nLannisport\n", names, 2, 'expected "<area>: <order>"')
    rejected("ORDERS\nLannisport:\n", names, 2, "missing order")
    rejected("ORDERS now\n", names, 1, "ORDERS stands alone")
    result = rejected("ORDERS\nLanisport: march -1\n", names, 2, 'unknown area "Lanisport"', "did you mean Lannisport")
    assert result.example == "Lannisport: march -1"


def test_misspelt_command_in_orders_block(names: GameDataNames) -> None:
    text = "ORDERS\nLannisport: march -1\nMRACH Lannisport -> Stoney Sept: 2 footman, knight\n"
    result = rejected(text, names, 3, 'unknown command "MRACH"', "did you mean MARCH")
    assert result.example == "MARCH Lannisport -> Stoney Sept: 2 footmen, 1 knight"


def test_order_line_outside_a_block(names: GameDataNames) -> None:
    result = rejected("Lannisport: march -1", names, 1, "must follow a line ORDERS")
    assert result.example == "ORDERS"


# --- action and Westeros commands: accepted forms and the canonical echo ---------------------------

ACCEPTED = [
    # RAID
    ("RAID The Golden Sound -> Lannisport", "RAID The Golden Sound -> Lannisport",
     Raid("the-golden-sound", ("lannisport",))),
    ("raid golden -> lannisport, riverrun", "RAID The Golden Sound -> Lannisport, Riverrun",
     Raid("the-golden-sound", ("lannisport", "riverrun"))),
    ("RAID Golden Sound -> NONE", "RAID The Golden Sound -> NONE", Raid("the-golden-sound", (), True)),
    ("NÁJEZD Golden => Lannisport", "RAID The Golden Sound -> Lannisport", Raid("the-golden-sound", ("lannisport",))),
    ("najezd Golden \u2192 none", "RAID The Golden Sound -> NONE", Raid("the-golden-sound", (), True)),
    # MARCH
    ("MARCH Lannisport -> Stoney Sept: 1 footman, 1 knight", "MARCH Lannisport -> Stoney Sept: 1 footman, 1 knight",
     March("lannisport", (Move("stoney-sept", ("footman", "knight")),))),
    ("march lannisport->stoney sept: knight, 2 footman", "MARCH Lannisport -> Stoney Sept: 2 footmen, 1 knight",
     March("lannisport", (Move("stoney-sept", ("footman", "footman", "knight")),))),
    ("MARCH Lannisport -> Stoney Sept: 2 footmen; Searoad: knight LEAVE POWER",
     "MARCH Lannisport -> Stoney Sept: 2 footmen; Searoad Marches: 1 knight LEAVE POWER",
     March("lannisport", (Move("stoney-sept", ("footman", "footman")), Move("searoad-marches", ("knight",))), True)),
    ("MARCH Lannisport -> Riverrun: all", "MARCH Lannisport -> Riverrun: ALL", March("lannisport", (Move("riverrun", ALL),))),
    ("POCHOD Lannisport → Stoney Sept: 2 pěšáci a rytíř", "MARCH Lannisport -> Stoney Sept: 2 footmen, 1 knight",
     March("lannisport", (Move("stoney-sept", ("footman", "footman", "knight")),))),
    ("pochod Golden Sound => Ironman's Bay: 2 lodě", "MARCH The Golden Sound -> Ironman's Bay: 2 ships",
     March("the-golden-sound", (Move("ironmans-bay", ("ship", "ship")),))),
    ("MARCH Lannisport -> Stoney Sept: 2x knight, a footman, loď", "MARCH Lannisport -> Stoney Sept: 1 footman, 2 knights, 1 ship",
     March("lannisport", (Move("stoney-sept", ("footman", "knight", "knight", "ship")),))),
    ("MARCH Lannisport -> NONE", "MARCH Lannisport -> NONE", March("lannisport", ())),
    # SUPPORT
    ("SUPPORT Stoney Sept -> Lannister", "SUPPORT Stoney Sept -> Lannister", Support("stoney-sept", "lannister")),
    ("support kings landing -> tyrell", "SUPPORT King's Landing -> Tyrell", Support("kings-landing", "tyrell")),
    ("SUPPORT Stoney Sept -> NONE IN Harrenhal", "SUPPORT Stoney Sept -> NONE IN Harrenhal",
     Support("stoney-sept", None, "harrenhal")),
    ("PODPORA Stoney Sept -> house Bar in Harrenhal", "SUPPORT Stoney Sept -> Baratheon IN Harrenhal",
     Support("stoney-sept", "baratheon", "harrenhal")),
    # CARD
    ("CARD Tywin Lannister", "CARD Tywin Lannister", Card("tywin-lannister")),
    ("card tywin in riverrun", "CARD Tywin Lannister IN Riverrun", Card("tywin-lannister", "riverrun")),
    ("CARD Euron Crow's Eye", "CARD Euron Crow's Eye", Card("euron-crows-eye")),
    # BLADE
    ("BLADE AUTO", "BLADE AUTO", Blade("auto")),
    ("blade never", "BLADE NEVER", Blade("never")),
    ("BLADE AT Riverrun", "BLADE AT Riverrun", Blade("at", "riverrun")),
    # CASUALTIES
    ("CASUALTIES 2 footman, knight", "CASUALTIES 2 footmen, 1 knight", Casualties(("footman", "footman", "knight"))),
    ("casualties footman IN KL", "CASUALTIES 1 footman IN King's Landing", Casualties(("footman",), "kings-landing")),
    # RETREAT
    ("RETREAT Seagard", "RETREAT Seagard", Retreat("seagard")),
    ("retreat seagard from riverrun", "RETREAT Seagard FROM Riverrun", Retreat("seagard", "riverrun")),
    # ABILITY
    ("ABILITY Maester Luwin: Eddard Stark", "ABILITY Maester Luwin: Eddard Stark", Ability("maester-luwin", "Eddard Stark")),
    ("ability luwin:   Eddard   Stark ", "ABILITY Maester Luwin: Eddard Stark", Ability("maester-luwin", "Eddard Stark")),
    # RAVEN
    ("RAVEN Lannisport: support +1*", "RAVEN Lannisport: support +1*",
     Raven("lannisport", OrderToken("support", 1, True))),
    ("raven lannisport: M+1", "RAVEN Lannisport: march +1*", Raven("lannisport", OrderToken("march", 1, True))),
    ("RAVEN PASS", "RAVEN PASS", Raven()),
    # BID
    ("BID 3", "BID 3", Bid(3)),
    ("bid 0", "BID 0", Bid(0)),
    ("BID THRONE 3 FIEFDOMS 1 COURT 0", "BID THRONE 3 FIEFDOMS 1 COURT 0", BidAll(3, 1, 0)),
    ("bid court 2, iron throne 5, fiefdoms 0", "BID THRONE 5 FIEFDOMS 0 COURT 2", BidAll(5, 0, 2)),
    ("BID Iron Throne: 1; Fiefdoms: 2; King's Court: 3", "BID THRONE 1 FIEFDOMS 2 COURT 3", BidAll(1, 2, 3)),
    # TIEBREAK
    ("TIEBREAK Stark, Lannister", "TIEBREAK Stark, Lannister", Tiebreak(("stark", "lannister"))),
    ("tiebreak greyjoy tyrell baratheon", "TIEBREAK Greyjoy, Tyrell, Baratheon", Tiebreak(("greyjoy", "tyrell", "baratheon"))),
    # MUSTER
    ("MUSTER Winterfell: footman, ship -> Bay of Ice", "MUSTER Winterfell: footman, ship -> Bay of Ice",
     Muster("winterfell", (MusterItem("footman"), MusterItem("ship", "bay-of-ice")))),
    ("muster winterfell: upgrade", "MUSTER Winterfell: upgrade", Muster("winterfell", (UPGRADE,))),
    ("MUSTER Winterfell: upgrade footman to knight", "MUSTER Winterfell: upgrade", Muster("winterfell", (UPGRADE,))),
    ("MUSTER Lannisport: 2 footmen", "MUSTER Lannisport: footman, footman",
     Muster("lannisport", (MusterItem("footman"), MusterItem("footman")))),
    ("MUSTER Lannisport: knight", "MUSTER Lannisport: knight", Muster("lannisport", (MusterItem("knight"),))),
    ("MUSTER Winterfell: upgrade a footman to a knight", "MUSTER Winterfell: upgrade", Muster("winterfell", (UPGRADE,))),
    ("muster winterfell: pěšák a loď -> Bay of Ice", "MUSTER Winterfell: footman, ship -> Bay of Ice",
     Muster("winterfell", (MusterItem("footman"), MusterItem("ship", "bay-of-ice")))),
    ("MUSTER Lannisport: ship", "MUSTER Lannisport: ship", Muster("lannisport", (MusterItem("ship"),))),
    # REMOVE, RECLAIM
    ("REMOVE Winterfell: 1 footman", "REMOVE Winterfell: 1 footman", Remove("winterfell", ("footman",))),
    ("remove winterfell: knight, footman", "REMOVE Winterfell: 1 footman, 1 knight", Remove("winterfell", ("footman", "knight"))),
    ("RECLAIM Eddard Stark", "RECLAIM Eddard Stark", Reclaim("eddard-stark")),
    ("reclaim ned", "RECLAIM Eddard Stark", Reclaim("eddard-stark")),
    # CLEAR (issue 10)
    ("CLEAR", "CLEAR", Clear()),
    ("clear all", "CLEAR", Clear()),
    ("CANCEL MARCHES", "CLEAR MARCHES", Clear(("marches",))),
    ("clear raids, supports and cards", "CLEAR RAIDS, SUPPORTS, CARDS", Clear(("raids", "supports", "cards"))),
    ("CLEAR support raid", "CLEAR RAIDS, SUPPORTS", Clear(("raids", "supports"))),
    ("ZRUŠ", "CLEAR", Clear()),
    ("zrus pochody a nájezdy", "CLEAR MARCHES, RAIDS", Clear(("marches", "raids"))),
    ("ZRUŠIT sázky", "CLEAR BIDS", Clear(("bids",))),
    ("CLEAR ORDERS", "CLEAR ORDERS", Clear(("orders",))),
    ("CLEAR BLADE, RAVEN", "CLEAR RAVEN, BLADE", Clear(("raven", "blade"))),
    # mail-level
    ("HELP", "HELP", Help()),
    ("help muster", "HELP muster", Help("muster")),
    ("STATUS", "STATUS", Status()),
    ("ORDERS?", "ORDERS?", OrdersQuery()),
    ("orders ?", "ORDERS?", OrdersQuery()),
    ("PRESS Lannister: Shall we talk?", "PRESS Lannister: Shall we talk?", Press(("lannister",), "Shall we talk?")),
    ("press all: Winter is coming: beware!", "PRESS ALL: Winter is coming: beware!", Press(PRESS_ALL, "Winter is coming: beware!")),
    ("PRESS ANON stark, Tyrell: Psst -> KL", "PRESS ANON Stark, Tyrell: Psst -> KL", Press(("stark", "tyrell"), "Psst -> KL", True)),
]


@pytest.mark.parametrize("line, canonical, command", ACCEPTED, ids=[a[0] for a in ACCEPTED])
def test_accepted_commands(line: str, canonical: str, command: object, names: GameDataNames) -> None:
    mail = accepted(f"JUDGE game1 stark pw\n\n{line}\n", names)
    assert mail.commands == [command]
    [result] = mail.lines
    assert (result.lineno, result.raw, result.canonical, result.command) == (3, line, canonical, command)
    assert one(canonical, names) == command  # the echo is accepted as it stands


def test_canonical_without_names_prints_ids() -> None:
    assert March("lannisport", (Move("stoney-sept", ("footman", "knight")),)).canonical() == (
        "MARCH lannisport -> stoney-sept: 1 footman, 1 knight"
    )
    assert Orders((OrderLine("lannisport", "march", -1),)).canonical() == "ORDERS\nlannisport: march -1"


def test_fixed_examples_are_valid(names: GameDataNames) -> None:
    for key, line in EXAMPLES.items():
        if key == "JUDGE":
            continue
        text = f"ORDERS\n{line}" if key == "ORDER" else line
        assert parse_mail(text, names).ok != (key in SECOND_EDITION_COMMANDS | VARIANT_COMMANDS), (key, line)


def test_second_edition_commands_are_unknown_to_an_agot1e_mail(names: GameDataNames) -> None:
    error = parse_mail("TRACK COURT", names).lines[0].error
    assert error is not None and error.key == "agot.error.unknown_command_list"
    assert "TRACK" not in error.params["commands"]


# --- rejections ----------------------------------------------------------------------------------


def test_unknown_command_did_you_mean(names: GameDataNames) -> None:
    result = rejected("STATUS\nMRACH Lannisport -> Stoney Sept: footman\n", names, 2,
                      'unknown command "MRACH"', "did you mean MARCH?")
    assert result.example == "MARCH Lannisport -> Stoney Sept: 1 footman"
    result = rejected("SUPORT Stoney Sept -> Lannister", names, 1, "did you mean SUPPORT?")
    assert result.example == "SUPPORT Stoney Sept -> Lannister"


def test_unknown_command_lists_commands(names: GameDataNames) -> None:
    result = rejected("HELP\n\nxyzzy plugh\n", names, 3, 'unknown command "xyzzy"', "commands are", "MARCH")
    assert result.example == "HELP"


def test_unknown_area_with_suggestion(names: GameDataNames) -> None:
    result = rejected("MARCH Wintrefell -> Castle Black: 1 footman", names, 1,
                      'unknown area "Wintrefell"; did you mean Winterfell?')
    assert result.example == "MARCH Winterfell -> Castle Black: 1 footman"


def test_unknown_area_without_suggestion(names: GameDataNames) -> None:
    result = rejected("RETREAT Qarth", names, 1, 'unknown area "Qarth"')
    assert result.example == EXAMPLES["RETREAT"]


def test_ambiguous_area(names: GameDataNames) -> None:
    result = rejected("RAID Golden -> Sea", names, 1, '"Sea" is ambiguous', "Seagard", "Sea of Dorne")
    assert result.example.startswith("RAID The Golden Sound -> ")


@pytest.mark.parametrize("units, reason", [
    ("2 horses", 'unknown unit "horses"'),
    ("2 knigths", "did you mean knight"),
    ("0 footman", 'bad count "0"'),
    ("-1 footman", 'bad count "-1"'),
    ("many footmen", 'bad count "many"'),
    ("1000000 footmen", 'bad count "1000000"'),
    ("", "no units given"),
    ("footman,, knight", "empty item"),
    ("2 big knights", 'cannot read units "2 big knights"'),
])
def test_bad_units(units: str, reason: str, names: GameDataNames) -> None:
    result = rejected(f"HELP\nMARCH Lannisport -> Stoney Sept: {units}", names, 2, reason)
    assert result.example == EXAMPLES["MARCH"]
    rejected(f"CASUALTIES {units}", names, 1, reason)


def test_missing_arrow(names: GameDataNames) -> None:
    rejected("MARCH Lannisport Stoney Sept: 1 footman", names, 1, 'missing "->"')
    rejected("RAID The Golden Sound Lannisport", names, 1, 'missing "->"')
    rejected("SUPPORT Stoney Sept Lannister", names, 1, 'missing "->"')
    rejected("RAID The Golden Sound ->", names, 1, 'missing the raid target (or NONE) after "->"')


def test_other_shape_errors(names: GameDataNames) -> None:
    rejected("MARCH Lannisport -> Stoney Sept", names, 1, 'missing ":"')
    rejected("RAID Golden -> Lannisport, Riverrun, Seagard", names, 1, "at most two targets")
    rejected("BLADE sometimes", names, 1, "AUTO, NEVER or AT")
    rejected("BLADE AUTO Riverrun", names, 1, "nothing may follow")
    rejected("ABILITY Maester Luwin", names, 1, 'missing ":"')
    rejected("ABILITY Maester Luwin:  ", names, 1, "missing the choice")
    rejected("RAVEN Lannisport", names, 1, "PASS")
    rejected("RAVEN Lannisport: march +3", names, 1, 'unknown order "march +3"')
    rejected("TIEBREAK Stark", names, 1, "at least two")
    rejected("TIEBREAK Stark, stark", names, 1, "twice")
    rejected("MUSTER Winterfell", names, 1, 'missing ":"')
    rejected("MUSTER Winterfell: footman -> Bay of Ice", names, 1, "only a ship")
    rejected("MUSTER Winterfell: upgrade ship", names, 1, "an upgrade turns a footman into a knight")
    rejected("MUSTER Winterfell: ", names, 1, "nothing to muster")
    rejected("PRESS Lannister", names, 1, "PRESS needs")
    rejected("PRESS Lannister:   ", names, 1, "empty PRESS message")
    rejected("MARCH Lannisport -> NONE LEAVE POWER", names, 1, 'missing ":"')
    assert rejected("CLEAR marhces", names, 1, "did you mean MARCHES?").example == "CLEAR MARCHES"
    rejected("CLEAR Winterfell", names, 1, "CLEAR alone clears everything")


@pytest.mark.parametrize("line, reason", [
    ("BID -1", "bid -1 is negative"),
    ("BID lots", 'bid "lots" is not a number'),
    ("BID 3.5", 'bid "3.5" is not a number'),
    ("BID", 'bid "" is not a number'),
    ("BID 100", "too high"),
    ("BID THRONE 3 FIEFDOMS -1 COURT 0", "FIEFDOMS bid -1 is negative"),
    ("BID THRONE x FIEFDOMS 1 COURT 0", 'THRONE bid "x" is not a number'),
    ("BID THRONE 3 FIEFDOMS 1", "missing: COURT"),
    ("BID THRONE 3 THRONE 1 COURT 0", "two bids for THRONE"),
    ("BID CROWN 3 FIEFDOMS 1 COURT 0", 'unknown track "CROWN"'),
])
def test_bad_bids(line: str, reason: str, names: GameDataNames) -> None:
    result = rejected(f"# bids\n{line}", names, 2, reason)
    assert result.example in (EXAMPLES["BID"], EXAMPLES["BIDALL"])


def test_unknown_house(names: GameDataNames) -> None:
    result = rejected("SUPPORT Stoney Sept -> Lanister", names, 1, 'unknown house "Lanister"; did you mean Lannister?')
    assert result.example == "SUPPORT Stoney Sept -> Lannister"
    rejected("SUPPORT Stoney Sept -> Martell", names, 1, 'unknown house "Martell"', "houses: Stark, Lannister")
    rejected("TIEBREAK Stark, Targaryen", names, 1, 'unknown house "Targaryen"')
    rejected("PRESS Dorne: hi", names, 1, 'unknown house "Dorne"')


def test_house_not_in_a_smaller_game() -> None:
    three = GameDataNames(load_gamedata(), houses=("stark", "lannister", "baratheon"))
    rejected("SUPPORT Stoney Sept -> Tyrell", three, 1, 'unknown house "Tyrell"')


def test_unknown_card(names: GameDataNames) -> None:
    result = rejected("CARD Tywn Lannister", names, 1, 'unknown card "Tywn Lannister"', "did you mean Tywin Lannister")
    assert result.example == "CARD Tywin Lannister"
    result = rejected("RECLAIM Daenerys", names, 1, 'unknown card "Daenerys"')
    assert result.example == EXAMPLES["RECLAIM"]


def test_garbage_and_binary(names: GameDataNames) -> None:
    result = rejected("HELP\n\x00\x01\x02PK\x03\x04\n", names, 2, "unreadable character U+0000", "binary")
    assert result.example == "HELP"
    rejected("MARCH Lannisport \ufffd\ufffd -> Riverrun: footman", names, 1, "unreadable character U+FFFD")
    rejected("%$@!*&^ ~~~", names, 1, "unknown command")


def test_overlong_line(names: GameDataNames) -> None:
    line = "PRESS ALL: " + "blah " * (MAX_LINE_CHARS // 5)
    result = rejected(f"STATUS\n{line}\nHELP\n", names, 2, "line too long", f"at most {MAX_LINE_CHARS}")
    assert result.example == EXAMPLES["LONG"]
    assert [r.lineno for r in parse_mail(f"STATUS\n{line}\nHELP\n", names).lines] == [1, 2, 3]


def test_every_error_line_is_numbered_and_others_still_parse(names: GameDataNames) -> None:
    mail = parse_mail("JUDGE g s p\nBID 3\nBID x\n\nRAVEN PASS\nfoo\n", names)
    assert [(r.lineno, r.error is None) for r in mail.lines] == [(2, True), (3, False), (5, True), (6, False)]
    assert mail.commands == [Bid(3), Raven()]
    assert not mail.ok and [r.lineno for r in mail.errors] == [3, 6]


# --- mail layout ---------------------------------------------------------------------------------


def test_comments_blank_lines_quotes_signature(names: GameDataNames) -> None:
    mail = accepted(
        "JUDGE game1 stark pw\n"
        "# my plan for this round\n"
        "\n"
        "   \n"
        "BID 2   # not too much\n"
        "> MARCH Nowhere -> Somewhere: 99 dragons\n"
        ">> quoted twice\n"
        "STATUS\n"
        "-- \n"
        "Ned Stark\n"
        "Winterfell, the North\n",
        names,
    )
    assert mail.commands == [Bid(2), Status()]
    assert [r.lineno for r in mail.lines] == [5, 8]


def test_signature_without_trailing_space(names: GameDataNames) -> None:
    assert accepted("HELP\n--\nwhatever\n", names).commands == [Help()]


def test_sign_on_only_first(names: GameDataNames) -> None:
    assert accepted("\n# hi\nJUDGE game1 stark pw\nHELP", names).commands == [Help()]
    rejected("HELP\nJUDGE game1 stark pw\n", names, 2, "must be the first line")


def test_case_insensitive(names: GameDataNames) -> None:
    assert one("mArCh LANNISPORT -> stoney SEPT: 1 FootMan", names) == one(
        "MARCH Lannisport -> Stoney Sept: 1 footman", names
    )


def test_crlf_and_cr(names: GameDataNames) -> None:
    mail = accepted("JUDGE g stark pw\r\nORDERS\r\nLannisport: march -1\r\nBID 3\r\n", names)
    assert mail.commands == [Orders((OrderLine("lannisport", "march", -1),)), Bid(3)]
    assert [r.lineno for r in mail.lines] == [2, 3, 4]
    assert accepted("HELP\rSTATUS\r", names).commands == [Help(), Status()]


def _postfix_split(line: str, limit: int = 998) -> str:
    """What Postfix does to a long line: CRLF SPACE every ``limit`` bytes (ASCII here)."""
    parts = [line[:limit]]
    rest = line[limit:]
    while rest:
        parts.append(" " + rest[: limit - 1])
        rest = rest[limit - 1:]
    return "\r\n".join(parts)


def test_postfix_continuation_lines_are_joined(names: GameDataNames) -> None:
    words = " ".join(f"word{i}" for i in range(400))  # about 3000 characters
    press = f"PRESS Lannister: {words}"
    mail = accepted("JUDGE g stark pw\r\n" + _postfix_split(press) + "\r\nBID 1\r\n", names)
    assert mail.commands == [Press(("lannister",), words), Bid(1)]
    assert [r.lineno for r in mail.lines] == [2, 3]  # the player wrote 3 lines; the MTA made 6
    assert mail.lines[0].raw == press


def test_split_mid_word_is_rejoined(names: GameDataNames) -> None:
    head = "PRESS ALL: "
    text = "x" * (998 - len(head) - 3) + "kazdy den"
    split = _postfix_split(head + text)
    assert split.split("\r\n") == [head + text[:-6], " dy den"]  # "...kaz" CRLF " dy den"
    assert accepted(split, names).commands == [Press(PRESS_ALL, text)]


def test_long_quoted_line_and_its_continuation_are_both_dropped(names: GameDataNames) -> None:
    quoted = "> " + "y" * 1200
    assert accepted(_postfix_split(quoted) + "\nHELP", names).commands == [Help()]


def test_indented_lines_after_short_lines_are_not_joined(names: GameDataNames) -> None:
    mail = accepted("ORDERS\n   Lannisport: march -1\n\tRiverrun: raid\n  BID 3\n", names)
    assert mail.commands == [
        Orders((OrderLine("lannisport", "march", -1), OrderLine("riverrun", "raid"))),
        Bid(3),
    ]


def test_invisible_and_typographic_characters(names: GameDataNames) -> None:
    assert one("\ufeffMARCH King\u2019s Landing \u2013> Blackwater:\u00a01 footman", names) == March(
        "kings-landing", (Move("blackwater", ("footman",)),)
    )


def test_units_compare_as_multisets(names: GameDataNames) -> None:
    a = one("CASUALTIES knight, 2 footman, ship", names)
    b = one("CASUALTIES ship, 2x footman, knight", names)
    assert a == b == Casualties(("footman", "footman", "knight", "ship"))


# --- properties ----------------------------------------------------------------------------------


def _strategies(names: GameDataNames):
    board = names.data.board
    areas = st.sampled_from(sorted(board))
    seas = st.sampled_from(sorted(board.sea_areas))
    cards = st.sampled_from(sorted(c.id for cs in names.data.house_cards.values() for c in cs))
    houses = st.sampled_from(names.houses)
    opt_area = st.none() | areas
    unit_list = st.lists(st.sampled_from(("footman", "knight", "ship")), min_size=1, max_size=6).map(sort_units)
    token = st.sampled_from(ORDER_TOKENS)
    word = st.text(string.ascii_letters + "'", min_size=1, max_size=8)
    phrase = st.lists(word, min_size=1, max_size=4).map(" ".join)
    press_text = st.text(
        st.characters(blacklist_categories=("Cc", "Cs", "Co", "Cn", "Zl", "Zp"), blacklist_characters="#\ufffd\ufeff"),
        min_size=1, max_size=60,
    ).map(str.strip).filter(bool)
    order_lines = st.lists(st.tuples(areas, token), max_size=8, unique_by=lambda t: t[0]).map(
        lambda xs: Orders(tuple(OrderLine(a, t.kind, t.bonus, t.star) for a, t in xs))
    )
    moves = st.lists(st.builds(Move, areas, unit_list | st.just(ALL)), min_size=1, max_size=3)
    muster_item = st.just(UPGRADE) | st.builds(MusterItem, st.sampled_from(("footman", "knight"))) | st.builds(
        MusterItem, st.just("ship"), st.none() | seas
    )
    return st.one_of(
        order_lines,
        st.builds(Raid, areas, st.lists(areas, min_size=1, max_size=2).map(tuple), st.just(False)),
        st.builds(Raid, areas, st.just(()), st.just(True)),
        st.builds(March, areas, moves.map(tuple), st.booleans()),
        st.builds(March, areas, st.just(()), st.just(False)),
        st.builds(Support, areas, st.none() | houses, opt_area),
        st.builds(Card, cards, opt_area),
        st.builds(Blade, st.sampled_from(("auto", "never"))),
        st.builds(Blade, st.just("at"), areas),
        st.builds(Casualties, unit_list, opt_area),
        st.builds(Retreat, areas, opt_area),
        st.builds(Ability, cards, phrase),
        st.builds(Raven, areas, token),
        st.just(Raven()),
        st.builds(Bid, st.integers(0, grammar.MAX_BID)),
        st.builds(BidAll, *(st.integers(0, grammar.MAX_BID),) * 3),
        st.permutations(names.houses).flatmap(lambda p: st.integers(2, len(p)).map(lambda k: Tiebreak(tuple(p[:k])))),
        st.builds(Muster, areas, st.lists(muster_item, min_size=1, max_size=4).map(tuple)),
        st.builds(Remove, areas, unit_list),
        st.builds(Reclaim, cards),
        st.builds(Help, st.none() | phrase),
        st.just(Status()),
        st.just(OrdersQuery()),
        st.builds(Press, st.just(PRESS_ALL) | st.lists(houses, min_size=1, max_size=3, unique=True).map(tuple),
                  press_text, st.booleans()),
    )




@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_canonical_round_trip(data: st.DataObject) -> None:
    names = real_names()
    command = data.draw(_strategies(names))
    text = command.canonical(names)
    mail = parse_mail(text, names)
    assert mail.ok, (text, mail.errors)
    assert mail.commands == [command], text
    # and once more through the echo of each line
    echoed = "\n".join(r.canonical for r in mail.lines)
    assert parse_mail(echoed, names).commands == [command]


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_keywords_and_names_are_case_insensitive(data: st.DataObject) -> None:
    names = real_names()
    command = data.draw(_strategies(names).filter(lambda c: not isinstance(c, (Press, Ability, Help))))
    text = command.canonical(names)
    flips = data.draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    mangled = "".join(c.swapcase() if f else c for c, f in zip(text, flips))
    assert parse_mail(mangled, names).commands == [command], mangled


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300) | st.lists(st.sampled_from([
    "ORDERS", "MARCH", "RAID", "->", ":", "Lannisport", "Stoney Sept", "footman", "2", "-1", ",", ";",
    "#", "\n", "\r\n", " ", "BID", "THRONE", "M+1", "S", "NONE", "IN", "PRESS", "ALL", "> ", "-- ", "\x00",
    "upgrade", "ship", "Bay of Ice", "Tywin", "Stark", "CARD", "MUSTER", "RAVEN", "PASS", "Sea",
]), max_size=40).map("".join))
def test_any_text_gives_a_result_per_line(text: str) -> None:
    """Total: never raises; each line is a command or an error with a valid example."""
    names = real_names()
    mail = parse_mail(text, names)
    for result in mail.lines:
        assert (result.command is None) != (result.error is None), result
        if result.error is not None:
            assert_valid_example(result, names)
        else:
            assert result.canonical


# --- agreement with the game data --------------------------------------------------------------


def test_order_tokens_agree_with_the_setup_data(names: GameDataNames) -> None:
    setup_tokens = names.data.setup.order_tokens
    assert {(t.kind, t.bonus, t.star) for t in setup_tokens} == {(t.kind, t.bonus, t.star) for t in ORDER_TOKENS}
    for t in setup_tokens:
        assert parse_order_token(t.text).canonical() == t.text
        assert parse_order_token(t.short) == parse_order_token(t.text)


def test_no_area_name_starts_with_a_command_word(names: GameDataNames) -> None:
    """Otherwise an order line for that area would end the ORDERS block."""
    board = names.data.board
    for area_id in board:
        area = board.area(area_id)
        for name in (area.name, *area.aliases):
            assert grammar.fold(name.split()[0]) not in grammar.COMMAND_WORDS, name


def test_cards_of_the_senders_house_only(names: GameDataNames) -> None:
    stark = GameDataNames(load_gamedata(), house="stark")
    assert one("CARD Eddard", stark) == Card("eddard-stark")
    rejected("CARD Tywin", stark, 1, "Tywin Lannister, a Lannister card, not a Stark card")
    assert rejected("CARD", stark, 1, "missing house card").example == "CARD Eddard Stark"
    assert rejected("RECLAIM", stark, 1, "missing house card").example == "RECLAIM Eddard Stark"


@pytest.mark.parametrize("house", ["stark", "lannister", "baratheon", "greyjoy", "tyrell"])
def test_examples_are_valid_for_every_sender(house: str) -> None:
    sender = GameDataNames(load_gamedata(), house=house)
    for key in EXAMPLES:
        if key in grammar.COMMAND_WORDS.values() and key not in ("JUDGE", "ORDERS?", *SECOND_EDITION_COMMANDS, *VARIANT_COMMANDS):
            assert parse_mail(grammar.example(key, sender), sender).ok, (house, key)


def test_every_area_and_card_resolves_by_its_display_name(names: GameDataNames) -> None:
    data = names.data
    for area_id in data.board:
        assert names.resolve_area(names.area_name(area_id)) == area_id
    for cards in data.house_cards.values():
        for card in cards:
            assert one(f"RECLAIM {card.name}", names) == Reclaim(card.id)
