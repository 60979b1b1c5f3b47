"""The AGoT mail grammar (both editions): mail body text -> typed commands, line by line.

This module implements the grammar of ``shared/agot1e/PBEM.md`` as written (plus a few
forgiving extensions noted where they are made). It is *pure and state-free*: it knows words,
names and shapes, never the game state. Whether Lannisport holds Lannister units, whether two
areas touch, whether a house still has the card: the engine checks that later. Keeping it so
lets the judge echo a player's mail line by line before any game logic runs, and lets tests
exercise every spelling without building a game.

Why it looks the way it does:

* Players write by hand, in English or Czech, on phones that autocorrect. So keywords, units
  and order tokens come from alias tables at the top of this module (data, not code), matched
  after *folding* (lower case, no diacritics, typographic dashes and quotes made plain).
* Every rejected line gets a reason and a *valid* example. Where the fault is one misspelt name
  with a suggestion, the example is the player's own line with the suggestion put in and parsed
  again, so it is known to be valid; otherwise a fixed example of the command is given.
* Mail transport damages text: CRLF, Postfix breaking lines longer than 998 bytes with
  ``CRLF SPACE``, non-breaking spaces, byte order marks. The line reader undoes what it safely
  can (see :func:`logical_lines`).
"""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Final, Protocol, runtime_checkable

from .board import UnknownName
from ...mailbody import close_command, line_problem, logical_lines, strip_accents
from ...mailcommands import ALL as PRESS_ALL
from ...mailcommands import MAIL_WORDS
from ... import messages
from ...messages import Msg
from ...ruleset import LineError
from . import say
from .commands import (
    ALL,
    NEUTRAL,
    CLEAR_KINDS,
    ORDER_TOKENS,
    SHORT_FORMS,
    BASIC_UNITS,
    TIDES_LINE_NAMES,
    UPGRADE,
    Ability,
    Bid,
    BidAll,
    Blade,
    BuySupply,
    BuyToken,
    Card,
    Casualties,
    Clear,
    Command,
    Give,
    Help,
    Loan,
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
    Rebel,
    HandLook,
    WESTEROS_DECKS,
    Reclaim,
    Track,
    Discard,
    Consolidate,
    Port,
    Redraw,
    Ransom, Answer, ExecutionBid,  # agot2e-ru: hostages
    CHOOSE_WORDS,
    Choose,
    Penalty,
    Promote,
    Remove,
    Retreat,
    Status,
    Support,
    Tiebreak,
    house_name,
    sort_units,
)
from .commands import Hire, Wages  # agot2e-ru mercenaries

if TYPE_CHECKING:
    from .gamedata import GameData

__all__ = [
    "NameResolver", "GameDataNames", "LineResult", "ParsedMail", "LineError",
    "parse_mail", "parse_order_token", "logical_lines", "fold", "example",
    "COMMAND_WORDS", "ORDER_WORDS", "UNIT_WORDS", "EXAMPLES", "MAX_LINE_CHARS", "MAX_COUNT", "MAX_BID",
]

# =================================================================================================
# Tables (data). Keys are *folded*: lower case, no diacritics (see fold()).
# =================================================================================================

COMMAND_WORDS: Final[dict[str, str]] = {
    "judge": "JUDGE",
    "orders": "ORDERS",
    "orders?": "ORDERS?",
    "march": "MARCH",
    "pochod": "MARCH",
    "raid": "RAID",
    "najezd": "RAID",
    "support": "SUPPORT",
    "podpora": "SUPPORT",
    "card": "CARD",
    "karta": "CARD",  # extension
    "карта": "CARD",  # agot2e-ru (RULES.md section 4): КАРТА НЕТ
    "blade": "BLADE",
    "casualties": "CASUALTIES",
    "retreat": "RETREAT",
    "ustup": "RETREAT",  # extension (glossary: ústup = retreat)
    "ability": "ABILITY",
    "raven": "RAVEN",
    "havran": "RAVEN",  # extension (glossary: Poštovní havran = Messenger Raven)
    "bid": "BID",
    "tiebreak": "TIEBREAK",
    "muster": "MUSTER",
    "remove": "REMOVE",
    "reclaim": "RECLAIM",
    "track": "TRACK",  # 2nd edition
    "discard": "DISCARD",  # 2nd edition
    "choose": "CHOOSE",  # 2nd edition
    "promote": "PROMOTE",  # 2nd edition
    "demote": "DEMOTE",  # 2nd edition
    "penalty": "PENALTY",  # 2nd edition
    "rozkazy": "ORDERS",
    "clear": "CLEAR",
    "cancel": "CLEAR",
    "zrus": "CLEAR",  # Czech, as in the oriflamme ruleset
    "zrusit": "CLEAR",
    # Czech command words of the other commands (extensions, issue 11: a Czech reader's echoes and
    # examples are written in them, lines.py): the rulebook's nouns where it has one
    "mec": "BLADE",  # Valyrijský ocelový meč
    "ztraty": "CASUALTIES",
    "schopnost": "ABILITY",
    "sazka": "BID",
    "poradi": "TIEBREAK",
    "shromazdeni": "MUSTER",  # shromažďování = mustering
    "shromazdovani": "MUSTER",
    "odstran": "REMOVE",
    "vrat": "RECLAIM",
    "stupnice": "TRACK",  # stupnice vlivu = influence track
    "odhod": "DISCARD",  # odhoď
    # 2nd edition, the action phase's choices (RULES.md 11.2)
    "port": "PORT",
    "pristav": "PORT",  # přístav
    "consolidate": "CONSOLIDATE",
    "konsolidace": "CONSOLIDATE",
    "zvol": "CHOOSE",  # zvol = choose
    "povys": "PROMOTE",  # povyš = promote
    "degraduj": "DEMOTE",  # degraduj = demote
    "trest": "PENALTY",  # trest = penalty
    # agot2e-ru, gold-economy: the transactions at any time (RULES.md section 4: English, Czech, Russian)
    **{fold_word: command for command, words in (
        ("BUY", ("buy", "koupit", "kup", "купить", "закупить", "куплю")),
        ("GIVE", ("give", "dej", "darovat", "дать", "отдать")),
        ("LOAN", ("loan", "borrow", "pujcka", "pujcit", "заём", "займ", "заем")),
        ("REPAY", ("repay", "splatit", "splat", "погасить", "вернуть")),
    ) for fold_word in (strip_accents(w.lower()) for w in words)},
    # Russian words of the 2nd edition's own commands an agot2e-ru player answers (RULES.md section 4)
    "ставка": "BID", "сбор": "MUSTER", "убрать": "REMOVE",
    # agot2e-ru (issue 15): the rebellion and the Hand of the King, English, Czech and Russian (RULES.md V18, V21)
    "rebel": "REBEL", "vzpoura": "REBEL", "мятеж": "REBEL",
    "hand": "HAND", "pravice": "HAND", "десница": "HAND",
    # agot2e-ru (issue 15, P20): the hostage phase (RULES.md section 4), English, Czech, Russian
    "ransom": "RANSOM", "vykupne": "RANSOM", "выкуп": "RANSOM",
    "accept": "ACCEPT", "prijmi": "ACCEPT", "принять": "ACCEPT",
    "refuse": "REFUSE", "odmitni": "REFUSE", "отказать": "REFUSE",
    "execute": "EXECUTE", "poprava": "EXECUTE", "казнь": "EXECUTE",
    # agot2e-ru, option mercenaries (RULES.md V19): English, Czech and Russian words
    "hire": "HIRE", "najmout": "HIRE", "najmi": "HIRE", "нанять": "HIRE", "найм": "HIRE",
    "wages": "WAGES", "zold": "WAGES", "жалованье": "WAGES", "жалование": "WAGES",
    **MAIL_WORDS,
}
"""First word of a line -> the command it starts. A line starting with one of these also ends an
ORDERS block."""

ORDER_WORDS: Final[dict[str, str]] = {
    "march": "march", "m": "march", "pochod": "march",
    "support": "support", "s": "support", "podpora": "support",
    "raid": "raid", "r": "raid", "najezd": "raid",
    "consolidate": "consolidate", "consolidatepower": "consolidate", "c": "consolidate",
    "konsolidace": "consolidate", "konsolidacesily": "consolidate",
    "defense": "defense", "defence": "defense", "d": "defense", "obrana": "defense",
    # agot2e-ru, option gold-economy: the Consolidate Power tokens are Trade orders (its RULES.md V15)
    "trade": "consolidate", "obchod": "consolidate", "торговля": "consolidate",
}
"""Order token word (spaces removed, so "consolidate power" is "consolidatepower") -> kind."""

UNIT_WORDS: Final[dict[str, str]] = {
    "footman": "footman", "footmen": "footman", "footmans": "footman",
    "pesak": "footman", "pesaci": "footman", "pesaky": "footman", "pesaku": "footman",
    "knight": "knight", "knights": "knight", "rytir": "knight", "rytiri": "knight", "rytire": "knight",
    "rytiru": "knight",
    "ship": "ship", "ships": "ship", "lod": "ship", "lode": "ship", "lodi": "ship",
    # 2nd edition; two words joined by _counted: "siege engine", "obléhací stroj"
    "siege": "siege_engine", "siegeengine": "siege_engine", "siegeengines": "siege_engine",
    "oblehacistroj": "siege_engine", "oblehacistroje": "siege_engine", "oblehacichstroju": "siege_engine",
    # agot2e-ru mercenaries: a hired company's units
    "sellsword": "sellsword", "sellswords": "sellsword", "zoldner": "sellsword", "zoldneri": "sellsword",
    "zoldnere": "sellsword", "zoldneru": "sellsword", "наемник": "sellsword", "наемники": "sellsword",
    "наемника": "sellsword", "наемников": "sellsword",
    # Russian (agot2e-ru's players; folded as fold() folds them: й -> и, ё -> е)
    **{strip_accents(w): unit for unit, words in (
        ("footman", ("пехотинец", "пехотинца", "пехотинцы", "пехотинцев", "пехота")),
        ("knight", ("рыцарь", "рыцаря", "рыцари", "рыцарей")),
        ("ship", ("корабль", "корабля", "корабли", "кораблей")),
        ("siege_engine", ("осаднаябашня", "осадныебашни", "осадныхбашен", "осадноеорудие", "осадныеорудия")),
    ) for w in words},
}
"""Unit word, English, Czech or Russian, singular or plural -> unit type."""

COUNT_WORDS: Final[dict[str, int]] = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}

ALL_WORDS: Final = frozenset({"all", "allunits", "vse", "vsechny"})

TRACK_WORDS: Final[dict[str, str]] = {
    "throne": "throne", "ironthrone": "throne", "trun": "throne", "zeleznytrun": "throne",
    "fiefdoms": "fiefdoms", "fiefdom": "fiefdoms", "poddani": "fiefdoms",
    "court": "court", "kingscourt": "court", "dvur": "court", "kralovskydvur": "court",
}
"""``BID THRONE <n> FIEFDOMS <n> COURT <n>``: track word (letters only) -> BidAll field."""

CHOOSE_CARD_WORDS: Final[dict[str, str]] = {
    "athroneofblades": "a-throne-of-blades", "throneofblades": "a-throne-of-blades", "trunzcepeli": "a-throne-of-blades",
    "darkwingsdarkwords": "dark-wings-dark-words", "temnakridlatemnaslova": "dark-wings-dark-words",
    "puttothesword": "put-to-the-sword", "podostrimmece": "put-to-the-sword",
}
"""``CHOOSE <card>``: a 2nd-edition holder-chooses Westeros card, English or Czech (the cs catalogue's
``westeros_card`` names), folded to letters; any unique start of 4+ letters names it too."""

CHOOSE_OPTION_WORDS: Final[dict[str, str]] = {
    "supply": "supply", "zasobovani": "supply",
    "mustering": "mustering", "muster": "mustering", "shromazdovani": "mustering",
    "clash": "clash-of-kings", "clashofkings": "clash-of-kings", "stret": "clash-of-kings", "stretkralu": "clash-of-kings",
    "power": "game-of-thrones", "gameofthrones": "game-of-thrones", "moc": "game-of-thrones",
    "hraotruny": "game-of-thrones",
    "nodefense": "storm-of-swords", "nodefence": "storm-of-swords", "zadnaobrana": "storm-of-swords",
    "nomarch1": "rains-of-autumn", "nomarchplus1": "rains-of-autumn", "zadnypochod1": "rains-of-autumn",
    "nothing": "nothing", "none": "nothing", "nic": "nothing",
}
"""``CHOOSE <card>: <option>``: the option word (folded, letters and digits only; "no march+1" is
"nomarch1") -> the card id it resolves as (data ``params.options``) or ``nothing``."""

RAVEN_LOOK_WORDS: Final[dict[str, str]] = {
    "look": "look", "nahledni": "look", "top": "top", "nahore": "top", "bottom": "bottom", "dospod": "bottom"}
"""``RAVEN LOOK | TOP | BOTTOM`` (2nd edition), English or Czech (folded) -> :data:`.commands.RAVEN_LOOKS`."""

HAND_WORDS: Final[dict[str, str]] = {"look": "look", "nahledni": "look", "смотреть": "look", "посмотреть": "look",
                                     "pass": "pass", "pas": "pass", "nic": "pass", "пас": "pass", "нет": "pass"}
"""agot2e-ru ``HAND LOOK <deck> | HAND PASS``: the word after HAND, English, Czech or Russian (folded)."""
DECK_WORDS: Final[dict[str, str]] = {"i": "I", "1": "I", "ii": "II", "2": "II", "iii": "III", "3": "III"}
"""A Westeros deck as written (Roman or Arabic, "deck" / "balíček" / "колода" before it optional)."""

PENALTY_WORDS: Final[dict[str, str]] = {"units": "units", "unit": "units", "jednotky": "units",
                                        "track": "track", "stupnice": "track"}
"""``PENALTY UNITS | TRACK`` (2nd edition), English or Czech (folded)."""

CLEAR_WORDS: Final[dict[str, str]] = {
    **{k: k for k in CLEAR_KINDS},
    "order": "orders", "rozkaz": "orders", "rozkazy": "orders",
    "havran": "raven", "ravens": "raven",
    "march": "marches", "pochod": "marches", "pochody": "marches",
    "raid": "raids", "najezd": "raids", "najezdy": "raids",
    "support": "supports", "podpora": "supports", "podpory": "supports", "podporu": "supports",
    "card": "cards", "karta": "cards", "karty": "cards", "karet": "cards",
    "casualty": "casualties", "ztraty": "casualties", "ztrata": "casualties",
    "retreat": "retreats", "ustup": "retreats", "ustupy": "retreats",
    "ability": "abilities", "schopnost": "abilities", "schopnosti": "abilities",
    "mec": "blade",
    "bid": "bids", "sazka": "bids", "sazky": "bids", "sazku": "bids",
    "muster": "musters", "mustering": "musters", "shromazdeni": "musters", "shromazdovani": "musters",
    "remove": "removes", "removals": "removes", "odstraneni": "removes",
    "tiebreak": "tiebreaks", "ties": "tiebreaks", "poradi": "tiebreaks",
    "reclaim": "reclaims", "vraceni": "reclaims",
}
"""``CLEAR <kind>``: a word (folded, English or Czech, singular or plural) -> the kind of plan lines."""

REDRAW_WORDS: Final[dict[str, bool]] = {"redraw": True, "vymen": True, "keep": False, "ponech": False}
"""2e ``BLADE REDRAW`` (Czech ``MEČ VYMĚŇ``) and ``BLADE KEEP`` (``MEČ PONECH``): the redraw or not."""

IF_WORDS: Final = frozenset({"if", "pokud", "kdyz"})

TIDES_WORDS: Final[dict[str, str]] = {
    "0": "blank", "blank": "blank", "nula": "blank",
    "+1sword": "sword", "1sword": "sword", "sword": "sword", "+1andasword": "sword", "+1mec": "sword", "+1amec": "sword",
    "mec": "sword",
    "+1fortification": "tower", "1fortification": "tower", "fortification": "tower", "+1andafortification": "tower",
    "tower": "tower", "+1opevneni": "tower", "+1aopevneni": "tower", "opevneni": "tower",
    "+2": "plus-two", "2": "plus-two", "+3": "plus-three", "3": "plus-three",
    "skull": "skull", "askull": "skull", "lebka": "skull", "lebku": "skull",
}
"""A Tides of Battle card in a ``BLADE REDRAW IF`` list (folded, only letters, digits and "+") -> its id."""

TAKE_WORDS: Final = frozenset({"take", "vezmi"})
POWER_WORDS: Final = frozenset({"power", "moc"})

CLEAR_ALL_WORDS: Final = frozenset({"all", "everything", "vse", "vsechno", "vsechny"})

HOUSE_PREFIXES: Final = ("house ", "rod ")

IN_WORDS: Final = ("in", "v")
"""``IN <battle area>`` (Czech ``V``): the battle a SUPPORT, CARD or CASUALTIES line is for."""

BLADE_MODES: Final[dict[str, str]] = {"auto": "auto", "never": "never", "no": "never", "at": "at", "in": "at",
                                      "nikdy": "never", "v": "at"}

EXAMPLES: Final[dict[str, str]] = {
    "JUDGE": "JUDGE game1 stark password",
    "ORDERS": "ORDERS",
    "ORDER": "Lannisport: march -1",
    "ORDERS?": "ORDERS?",
    "MARCH": "MARCH Winterfell -> Castle Black: 1 footman",
    "RAID": "RAID The Golden Sound -> Lannisport",
    "SUPPORT": "SUPPORT Stoney Sept -> Lannister",
    "CARD": "CARD Tywin Lannister",
    "BLADE": "BLADE AT Riverrun",
    "CASUALTIES": "CASUALTIES 1 footman IN Riverrun",
    "RETREAT": "RETREAT Seagard FROM Riverrun",
    "ABILITY": "ABILITY Maester Luwin: Eddard Stark",
    "RAVEN": "RAVEN Lannisport: support +1*",
    "BID": "BID 3",
    "BIDALL": "BID THRONE 3 FIEFDOMS 1 COURT 0",
    "TIEBREAK": "TIEBREAK Stark, Lannister",
    "MUSTER": "MUSTER Winterfell: footman, ship -> Bay of Ice",
    "REMOVE": "REMOVE Winterfell: 1 footman",
    "RECLAIM": "RECLAIM Eddard Stark",
    "TRACK": "TRACK FIEFDOMS",
    "DISCARD": "DISCARD Eddard Stark",
    "PORT": "PORT Port of Lannisport: TAKE ALL",
    "CONSOLIDATE": "CONSOLIDATE Lannisport: POWER",
    "CHOOSE": "CHOOSE A Throne of Blades: supply",
    "PROMOTE": "PROMOTE Winterfell: 2",
    "DEMOTE": "DEMOTE Winterfell: 1, White Harbor: 1",
    "PENALTY": "PENALTY UNITS",
    "BUY": "BUY SUPPLY",
    "GIVE": "GIVE Lannister 1",
    "LOAN": "LOAN 2",
    "REPAY": "REPAY 1",
    "REBEL": "REBEL Winterfell",  # agot2e-ru
    "HAND": "HAND LOOK II",  # agot2e-ru
    "HIRE": "HIRE golden-company 6",  # agot2e-ru mercenaries
    "WAGES": "WAGES PAY",
    "CLEAR": "CLEAR MARCHES",
    "RANSOM": "RANSOM Eddard Stark 4",  # agot2e-ru: hostages
    "ACCEPT": "ACCEPT Eddard Stark FROM Stark",
    "REFUSE": "REFUSE Eddard Stark",
    "EXECUTE": "EXECUTE Eddard Stark: AGAINST 2",
    "HELP": "HELP",
    "STATUS": "STATUS",
    "PRESS": "PRESS Lannister: shall we talk?",
    "LONG": "PRESS ALL: split a long message over several PRESS lines",
}
"""A valid line for every command: the fallback example of an error. (A test checks that each
one parses against the real game data.)"""

EXAMPLE_ALTERNATIVES: Final[dict[str, tuple[str, ...]]] = {
    "CARD": ("CARD Eddard Stark", "CARD Stannis Baratheon", "CARD Balon Greyjoy", "CARD Mace Tyrell"),
    "RECLAIM": ("RECLAIM Tywin Lannister", "RECLAIM Stannis Baratheon", "RECLAIM Balon Greyjoy",
                "RECLAIM Mace Tyrell"),
    "DISCARD": ("DISCARD Tywin Lannister", "DISCARD Stannis Baratheon", "DISCARD Balon Greyjoy",
                "DISCARD Mace Tyrell", "DISCARD Doran Martell"),
    "GIVE": ("GIVE Stark 1", "GIVE Baratheon 1", "GIVE Greyjoy 1"),
    "ABILITY": ("ABILITY Cersei Lannister: Riverrun", "ABILITY Renly Baratheon: Storm's End",
                "ABILITY Asha Greyjoy: Riverrun", "ABILITY Ser Loras Tyrell: The Reach"),
}
"""Where a resolver accepts only the sender's own cards, the first of these it accepts is used."""

MAX_LINE_CHARS: Final = 4000
"""Longer logical lines are refused: no command needs a tenth of that, and a cap keeps a
runaway or binary attachment from being echoed back at length."""

"""A physical line at least this long (UTF-8 bytes) was probably broken by the MTA: sendmail
breaks at 990, Postfix (``smtp_line_length_limit``) at 998 with ``CRLF SPACE``."""

MAX_COUNT: Final = 20
"""Largest unit count in one item ("20 footmen"): more than any house owns, small enough that a
typo like "1000000 footmen" is refused instead of expanded."""

MAX_BID: Final = 99

_TRANSLATE: Final = str.maketrans(
    {
        "\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-",  # dashes, minus
        "\u2018": "'", "\u2019": "'", "\u02bc": "'", "\u00b4": "'", "`": "'",  # quotes
        "\u201c": '"', "\u201d": '"',
        "\u00d7": "x",
        "\ufeff": None, "\u200b": None, "\u200c": None, "\u200d": None, "\u2060": None,  # invisibles
    }
)
"""Autocorrect and mail-client damage undone before parsing (not applied to PRESS text)."""

_ARROW_RE: Final = re.compile(r"\s*(?:-+>|=+>|[\u2192\u21d2\u27f6\u2794\u279c])\s*")


# =================================================================================================
# Public API
# =================================================================================================


@runtime_checkable
class NameResolver(Protocol):
    """Names of the game data, as the grammar needs them.

    ``resolve_area``/``resolve_card`` accept what players write (full names, unique prefixes,
    aliases; case-insensitive) and raise :class:`~.board.UnknownName` otherwise.
    """

    houses: tuple[str, ...]

    def resolve_area(self, text: str) -> str: ...

    def area_name(self, area_id: str) -> str: ...

    def resolve_card(self, text: str) -> str: ...

    def card_name(self, card_id: str) -> str: ...


@dataclass(frozen=True, slots=True)
class LineResult:
    """What became of one logical line of the mail.

    Exactly one of ``command``/``error`` is set. ``canonical`` is the accepted line in canonical
    English (for an ORDERS header just ``ORDERS``; its order lines have their own results);
    ``example`` is a valid line shown with an error.
    """

    lineno: int
    raw: str
    command: Command | OrderLine | None = None
    canonical: str | None = None
    error: Msg | None = None
    example: str | None = None


@dataclass(slots=True)
class ParsedMail:
    """All line results (ignored lines omitted) and the accepted commands in mail order.

    ``broken_orders``: an ORDERS block refused for a bad order line, by its header's index in
    ``lines``, with the order lines that did parse (their legality is still worth telling in the
    same reply)."""

    lines: list[LineResult] = field(default_factory=list)
    commands: list[Command] = field(default_factory=list)
    broken_orders: dict[int, Orders] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return all(r.error is None for r in self.lines)

    @property
    def errors(self) -> list[LineResult]:
        return [r for r in self.lines if r.error is not None]


def parse_mail(text: str, names: NameResolver) -> ParsedMail:
    """Parse a mail body (the sign-on line may be included) into line results and commands.

    An ORDERS block becomes one :class:`Orders` command; if any of its lines is rejected the
    whole block is (orders are all-or-nothing), and its header line says so.
    """
    mail = ParsedMail()
    block: _Block | None = None
    first = True
    for lineno, raw in logical_lines(text):
        body = raw.split("#", 1)[0].strip()
        if not body:
            continue
        keyword = command_word(body, _commands_of(names))
        if first and keyword == "JUDGE":  # the sign-on: checked by the mail layer
            first = False
            continue
        first = False
        if keyword is not None and block is not None:
            block.close(mail, names)
            block = None
        if block is not None:
            mail.lines.append(block.add(lineno, raw, body, names))
            continue
        result = _parse_line(lineno, raw, body, names)
        mail.lines.append(result)
        if isinstance(result.command, Orders):
            block = _Block(len(mail.lines) - 1)
        elif result.command is not None:
            mail.commands.append(result.command)  # type: ignore[arg-type]
    if block is not None:
        block.close(mail, names)
    return mail


_SPACES = re.compile(r"\s+")
_ORDER_TOKEN = re.compile(r"([a-zа-яё]+)([+-]?\d+)?(\*)?")


def parse_order_token(text: str) -> OrderToken:
    """``"M+1"``, ``"march +1*"``, ``"Podpora"``, ``"consolidate power"`` -> the order token.

    A missing bonus or star is filled in when only one token fits (``march +1`` is the starred
    march, ``defense*`` is ``defense +2*``, ``raid`` is the plain raid); otherwise it is an error
    listing the valid tokens.
    """
    folded = _SPACES.sub("", fold(text))
    m = _ORDER_TOKEN.fullmatch(folded)
    kind = ORDER_WORDS.get(m.group(1)) if m else None
    if m is None or kind is None:
        word = re.match(r"[a-zа-яё]*", folded)
        close = difflib.get_close_matches(word.group(0) if word else "", ORDER_WORDS, 1, 0.7)
        raise LineError(Msg("agot.error.unknown_order", text=text.strip(), hint=ORDER_WORDS[close[0]] if close else None,
                            valid=_valid_orders()))
    bonus = int(m.group(2)) if m.group(2) else None
    star = bool(m.group(3))
    fits = [t for t in ORDER_TOKENS if t.kind == kind and (bonus is None or t.bonus == bonus)]
    if star:
        fits = [t for t in fits if t.star]
    elif len(fits) > 1:
        fits = [t for t in fits if not t.star]
    if len(fits) != 1:
        raise LineError(Msg("agot.error.unknown_order", text=text.strip(), hint=None, valid=_valid_orders()))
    return fits[0]


def fold(text: str) -> str:
    """Comparison form of a word: typographic damage undone, no diacritics, lower case."""
    return strip_accents(text.translate(_TRANSLATE))


# =================================================================================================
# Errors and line-level driver
# =================================================================================================


def example(keyword: str, names: NameResolver) -> str:
    """A valid example line of ``keyword`` for this resolver (see :data:`EXAMPLE_ALTERNATIVES`)."""
    first = EXAMPLES[keyword]
    for line in (first, *EXAMPLE_ALTERNATIVES.get(keyword, ())):
        try:
            _parse_command(line, names, with_example=False)
        except LineError:
            continue
        return line
    return first


def _valid_orders() -> Msg:
    return Msg("agot.error.valid_orders", tokens=[say.token(t.canonical()) for t in ORDER_TOKENS], short=SHORT_FORMS)


def _what(ident: str) -> str:
    """What an error says is missing or wrong ("the destination", "battle area"): an id of the
    catalogues' ``names.what`` (Czech needs it in two cases: "chybí cíl", "mezi oblastí a cílem")."""
    return ident


_HEAD = re.compile(r"\s*([^\s:?]*)(\??)\s*:?\s*")


def _head(body: str) -> tuple[str, str]:
    """First word (folded; ``ORDERS?`` and ``ORDERS ?`` both give ``orders?``) and the rest."""
    m = _HEAD.match(body)
    assert m is not None  # the pattern can match the empty string
    head, rest = fold(m.group(1)) + m.group(2), body[m.end():]
    if head == "orders" and rest.startswith("?"):
        head, rest = "orders?", rest[1:].lstrip()
    return head, rest


def _check_text(raw: str) -> None:
    """Refuse what is not a line of text: too long, or control/undecodable characters."""
    problem = line_problem(raw, MAX_LINE_CHARS)
    if problem is None:
        return
    which, params = problem
    if which == "too_long":
        raise LineError(Msg("agot.error.too_long", params), EXAMPLES["LONG"])
    raise LineError(Msg("agot.error.unreadable", params), EXAMPLES["HELP"])


def _parse_line(lineno: int, raw: str, body: str, names: NameResolver) -> LineResult:
    """One line outside an ORDERS block -> its result (a command or an error with example)."""
    try:
        _check_text(raw)
        command = _parse_command(body, names)
    except LineError as exc:
        fixed = _fixed_example(body, exc, lambda b: _parse_any(b, names, False), names)
        return LineResult(lineno, raw, error=exc.message, example=fixed or exc.example or EXAMPLES["HELP"])
    canonical = "ORDERS" if isinstance(command, Orders) else command.canonical(names)
    return LineResult(lineno, raw, command=command, canonical=canonical)


def _fixed_example(body: str, exc: LineError, parse: Callable[[str], object], names: NameResolver) -> str | None:
    """The player's line with the error's suggested fix (and up to two more) applied, in
    canonical form; None when there is no fix or the fixed line still does not parse."""
    for _ in range(3):
        if exc.fix is None:
            return None
        bad, good = exc.fix
        at = body.casefold().find(bad.casefold())
        if not bad or at < 0:
            return None
        body = body[:at] + good + body[at + len(bad):]
        try:
            command = parse(body)
        except LineError as again:
            exc = again
            continue
        if isinstance(command, Orders):
            return "ORDERS"
        return command.canonical(names)  # type: ignore[attr-defined]
    return None


def _parse_any(body: str, names: NameResolver, in_block: bool) -> Command | OrderLine:
    """A command line, or an order line inside an ORDERS block (used to check fixed lines)."""
    if in_block and command_word(body, _commands_of(names)) is None:
        return _parse_order_line(body, names, in_block=True)
    return _parse_command(body, names)


SECOND_EDITION_COMMANDS: Final = frozenset({"TRACK", "DISCARD", "CHOOSE", "PROMOTE", "DEMOTE", "PENALTY", "PORT",
                                             "CONSOLIDATE"})
"""Commands only the 2nd edition has (its Westeros, wildling and action-phase choices; the
variant's own are :data:`VARIANT_COMMANDS`): unknown to an agot1e mail, whose errors and hints stay as they were. (``BLADE REDRAW | KEEP`` and ``upgrade -> siege
engine`` are 2nd-edition forms of shared commands: :func:`_second_edition`.)"""


VARIANT_COMMANDS: Final = frozenset({"BUY", "GIVE", "LOAN", "REPAY", "REBEL", "HAND",
                                      "RANSOM", "ACCEPT", "REFUSE", "EXECUTE",  # hostages
                                      "HIRE", "WAGES"})  # mercenaries
"""Commands only a fan variant's game has (agot2e-ru: the transactions at any time, the rebellion, the Hand, the
hostages, the mercenaries): unknown words elsewhere, so that a line of prose starting "Give ..." or "Hand ..."
in an agot2e mail stays
prose (``mailbody.not_orders``) instead of becoming a refused command."""


def _variant(names: NameResolver) -> bool:
    """Does ``names`` resolve for a fan variant's game (:class:`GameDataNames` ``variant``)?"""
    return bool(getattr(names, "variant", False))


def _second_edition(names: NameResolver) -> bool:
    """Does ``names`` resolve for the 2nd edition (its data has wildling cards)?"""
    return bool(getattr(getattr(names, "data", None), "wildling_cards", None))


def command_words(second_edition: bool, variant: bool = False) -> dict[str, str]:
    """:data:`COMMAND_WORDS` of one edition (the 1st has none of :data:`SECOND_EDITION_COMMANDS`), with a
    fan variant's (:data:`VARIANT_COMMANDS`) only for a variant's game."""
    return _command_words(second_edition, variant and second_edition)


@functools.cache
def _command_words(second_edition: bool, variant: bool) -> dict[str, str]:
    if second_edition and variant:
        return COMMAND_WORDS
    return {k: v for k, v in COMMAND_WORDS.items()
            if (second_edition or v not in SECOND_EDITION_COMMANDS | VARIANT_COMMANDS)
            and (variant or v not in VARIANT_COMMANDS)}


def _commands_of(names: NameResolver) -> dict[str, str]:
    """:data:`COMMAND_WORDS` of the edition ``names`` resolves for."""
    return command_words(_second_edition(names), _variant(names))


def command_word(body: str, words: dict[str, str] = COMMAND_WORDS) -> str | None:
    """The command ``body`` starts with among ``words`` (first word -> command), or None: a 2nd-edition
    port's order line ("Port of Pyke: raid", every port's name starts so) is no ``PORT`` command."""
    head, rest = _head(body)
    found = words.get(head)
    if found == "PORT" and fold(rest).split(None, 1)[:1] == ["of"]:
        return None
    return found


def _close_command(word: str, names: NameResolver) -> str | None:
    """The command keyword ``word`` is probably a misspelling of, if any."""
    return close_command(fold(word), _commands_of(names))


def _parse_command(body: str, names: NameResolver, with_example: bool = True) -> Command:
    head, rest = _head(body)
    keyword = command_word(body, _commands_of(names))
    if keyword is None or keyword == "JUDGE":
        raise _unknown_command(body, head, names)
    parser = _PARSERS[keyword]
    if keyword != "PRESS":
        rest = _ARROW_RE.sub(" -> ", rest.translate(_TRANSLATE)).strip()
    else:
        rest = re.sub(r"^\s*\S+\s*", "", body, count=1)  # the raw text after PRESS
    try:
        return parser(rest, names)
    except LineError as exc:
        if exc.example is None and with_example:
            exc.example = example(keyword, names)
        raise


def _unknown_command(body: str, head: str, names: NameResolver) -> LineError:
    if head == "judge":
        return LineError(Msg("agot.error.judge_not_first"), EXAMPLES["JUDGE"])
    if ":" in body:
        try:
            names.resolve_area(body.split(":", 1)[0].strip())
        except (ValueError, LookupError):
            pass
        else:
            return LineError(Msg("agot.error.order_outside_block"), EXAMPLES["ORDERS"])
    word = body.split(None, 1)[0].rstrip(":") if body.split() else body
    good = _close_command(word, names)
    if good:
        return LineError(Msg("agot.error.unknown_command", word=word, hint=good, in_block=False), example(good, names),
                         fix=(word, good))
    commands = sorted({v for v in _commands_of(names).values() if v != "JUDGE"})
    return LineError(Msg("agot.error.unknown_command_list", word=word[:40], commands=commands), EXAMPLES["HELP"])


@dataclass(slots=True)
class _Block:
    """An ORDERS block being read: its header's index in ``mail.lines`` and its order lines."""

    header: int
    orders: list[OrderLine] = field(default_factory=list)
    where: dict[str, int] = field(default_factory=dict)
    bad: list[int] = field(default_factory=list)

    def add(self, lineno: int, raw: str, body: str, names: NameResolver) -> LineResult:
        try:
            _check_text(raw)
            line = _parse_order_line(body, names, in_block=True)
            if line.area in self.where:
                raise LineError(Msg("agot.error.second_order_line", area=names.area_name(line.area),
                                    line=self.where[line.area]), EXAMPLES["ORDER"])
        except LineError as exc:
            self.bad.append(lineno)
            fixed = _fixed_example(body, exc, lambda b: _parse_any(b, names, True), names)
            return LineResult(lineno, raw, error=exc.message, example=fixed or exc.example or EXAMPLES["ORDER"])
        self.where[line.area] = lineno
        self.orders.append(line)
        return LineResult(lineno, raw, command=line, canonical=line.canonical(names))

    def close(self, mail: ParsedMail, names: NameResolver) -> None:
        header = mail.lines[self.header]
        if self.bad:
            mail.lines[self.header] = LineResult(
                header.lineno, header.raw,
                error=Msg("agot.error.orders_not_accepted", lines=list(self.bad)),
                example=EXAMPLES["ORDERS"],
            )
            mail.broken_orders[self.header] = Orders(tuple(self.orders))
            return
        orders = Orders(tuple(self.orders))
        mail.lines[self.header] = LineResult(header.lineno, header.raw, command=orders, canonical="ORDERS")
        mail.commands.append(orders)


# =================================================================================================
# Pieces: names, units, counts
# =================================================================================================


def _area(text: str, names: NameResolver, what: str | None = None) -> str:
    text = text.strip()
    if not text:
        raise LineError(Msg("agot.error.missing", what=what or _what("area")))
    try:
        return names.resolve_area(text)
    except UnknownName as exc:
        raise _name_error(exc, text, "area", names) from None


def _card(text: str, names: NameResolver) -> str:
    text = text.strip()
    if not text:
        raise LineError(Msg("agot.error.missing", what=_what("house_card")))
    try:
        return names.resolve_card(text)
    except UnknownName as exc:
        raise _name_error(exc, text, "house card", names) from None


def _name_error(exc: UnknownName, text: str, kind: str, names: NameResolver) -> LineError:
    """Turn the resolver's UnknownName into a line error whose fix is its first suggestion."""
    suggestions = [_display(s, kind, names) for s in getattr(exc, "suggestions", ()) or ()]
    bad = getattr(exc, "text", None) or text
    return LineError(exc.msg, fix=(bad, suggestions[0]) if suggestions else None)


def _display(suggestion: str, kind: str, names: NameResolver) -> str:
    """A suggestion as a display name (the resolver may give ids or names)."""
    try:
        if kind == "area":
            return names.area_name(names.resolve_area(suggestion))
        return names.card_name(names.resolve_card(suggestion))
    except (ValueError, LookupError):
        return suggestion


def _house(text: str, names: NameResolver) -> str:
    """A house id from "Stark", "house stark", "STA" (unique prefix of 3+ letters)."""
    raw = text.strip()
    word = fold(raw)
    for prefix in HOUSE_PREFIXES:
        if word.startswith(prefix):
            word = word[len(prefix):]
    word = re.sub(r"[^a-z]", "", word)
    if word in names.houses:
        return word
    fits = [h for h in names.houses if len(word) >= 3 and h.startswith(word)]
    if len(fits) == 1:
        return fits[0]
    close = difflib.get_close_matches(word, names.houses, 1, 0.6)
    houses = list(names.houses)
    if not raw:
        raise LineError(Msg("agot.error.missing_house", houses=houses))
    if close:
        raise LineError(Msg("agot.error.unknown_house", text=raw, hint=close[0], houses=houses),
                        fix=(raw, house_name(close[0])))
    raise LineError(Msg("agot.error.unknown_house", text=raw, hint=None, houses=houses))


def _units(text: str, *, allow_all: bool = False) -> tuple[str, ...] | str:
    """``"2 footman, knight"`` / ``"2x pěšák a rytíř"``... -> sorted unit tuple (or :data:`ALL`)."""
    if allow_all and re.sub(r"\s+", "", fold(text)) in ALL_WORDS:
        return ALL
    items = re.split(_LIST_SEP, text.strip(), flags=re.I)
    if not text.strip():
        raise LineError(Msg("agot.error.no_units_given"))
    units: list[str] = []
    for item in items:
        if not item:
            raise LineError(Msg("agot.error.empty_unit_item", text=text.strip()))
        n, unit = _counted(item)
        units.extend([unit] * n)
    return sort_units(units)


_LIST_SEP: Final = r"\s*(?:,|&|\+)\s*|\s+(?:and|a)\s+"
"""Between items of a list: comma, "&", "+", "and", Czech "a" ("2 pěšáci a rytíř"; an English
article "a knight" starts an item, so it never has whitespace before it)."""


def _counted(item: str) -> tuple[int, str]:
    """``"2 footmen"``, ``"2x knight"``, ``"a ship"``, ``"loď"`` -> (count, unit type)."""
    f = re.sub(r"^([+-]?\d+)\s*x\s*", r"\1 ", fold(item).strip())
    f = re.sub(r"\b(siege|oblehac\w*|осадн\w*)\s+(engines?|stroj\w*|башн\w*|башен|оруди\w*)$", r"\1\2", f)  # 2e
    m = re.fullmatch(r"([+-]?\d+)\s*([^\W\d_]+)", f) or re.fullmatch(r"(\S+)\s+(\S+)", f)
    if m:
        count_text, unit_text = m.groups()
    elif re.fullmatch(r"\S+", f):
        count_text, unit_text = "1", f
    else:
        raise LineError(Msg("agot.error.cannot_read_units", text=item.strip()))
    unit = UNIT_WORDS.get(unit_text)
    if unit is None:
        close = difflib.get_close_matches(unit_text, UNIT_WORDS, 1, 0.7)
        raise LineError(Msg("agot.error.unknown_unit", text=unit_text, hint=UNIT_WORDS[close[0]] if close else None,
                            units=list(BASIC_UNITS)))
    if re.fullmatch(r"[+-]?\d+", count_text):
        n = int(count_text)
    elif count_text in COUNT_WORDS:
        n = COUNT_WORDS[count_text]
    else:
        raise LineError(Msg("agot.error.bad_count", text=count_text, unit=unit, most=MAX_COUNT))
    if not 1 <= n <= MAX_COUNT:
        raise LineError(Msg("agot.error.bad_count", text=count_text, unit=unit, most=MAX_COUNT))
    return n, unit


def _number(text: str, track: str | None = None) -> int:
    """A bid: ``track`` names the track of a bid in ``BID THRONE 3 FIEFDOMS 1 COURT 0``."""
    t = text.strip().translate(_TRANSLATE)
    if not re.fullmatch(r"[+-]?\d+", t):
        raise LineError(Msg("agot.error.bid_not_number", track=track, text=text.strip(), most=MAX_BID))
    n = int(t)
    if n < 0:
        raise LineError(Msg("agot.error.bid_negative", track=track, n=n, most=MAX_BID))
    if n > MAX_BID:
        raise LineError(Msg("agot.error.bid_too_big", track=track, n=n, most=MAX_BID))
    return n


def _split_arrow(rest: str, what: str) -> tuple[str, str]:
    if " -> " not in f" {rest} ":
        raise LineError(Msg("agot.error.missing_arrow", what=what))
    left, right = (p.strip() for p in f" {rest} ".split(" -> ", 1))
    if not right:
        raise LineError(Msg("agot.error.missing_after_arrow", what=what))
    return left, right


def _split_word(text: str, *words: str) -> tuple[str, str | None]:
    """Split at the last ``IN``/``FROM`` word: ``"x IN Riverrun"`` -> ``("x", "Riverrun")``."""
    pattern = r"(?:^|\s+)(?:" + "|".join(words) + r")(?:\s+|$)"
    matches = list(re.finditer(pattern, text, flags=re.I))
    if not matches:
        return text.strip(), None
    m = matches[-1]
    return text[: m.start()].strip(), text[m.end():].strip()


def _split_colon(rest: str, what: str) -> tuple[str, str]:
    if ":" not in rest:
        raise LineError(Msg("agot.error.missing_colon", what=what))
    left, right = rest.split(":", 1)
    return left.strip(), right.strip()


def _is_none(text: str) -> bool:
    return fold(text).strip() in ("none", "nic", "nikoho", "nobody", "нет", "ничего", "никого")


# =================================================================================================
# Command parsers: (text after the keyword, names) -> command. One per keyword.
# =================================================================================================


def _parse_order_line(body: str, names: NameResolver, in_block: bool = False) -> OrderLine:
    """``<area>: <order>``; without the colon the shortest trailing words that form an order
    token are taken ("Lannisport march -1")."""
    text = _ARROW_RE.sub(" -> ", body.translate(_TRANSLATE)).strip()
    if ":" in text:
        area_text, token_text = (p.strip() for p in text.split(":", 1))
    else:
        words = text.split()
        for k in range(1, len(words)):
            try:
                parse_order_token(" ".join(words[-k:]))
            except LineError:
                continue
            area_text, token_text = " ".join(words[:-k]), " ".join(words[-k:])
            break
        else:
            _misspelt_command(words[0] if words else "", names)
            raise LineError(Msg("agot.error.expected_order_line"), EXAMPLES["ORDER"])
    try:
        area = _area(area_text, names)
    except LineError:
        _misspelt_command(area_text.split()[0] if area_text.split() else "", names)
        raise
    if not token_text:
        raise LineError(Msg("agot.error.missing_order", area=area_text, valid=_valid_orders()),
                        f"{names.area_name(area)}: march -1")
    try:
        token = parse_order_token(token_text)
    except LineError as exc:
        exc.example = f"{names.area_name(area)}: march -1"
        raise
    return OrderLine(area, token.kind, token.bonus, token.star)  # type: ignore[arg-type]


def _misspelt_command(word: str, names: NameResolver) -> None:
    """Inside an ORDERS block a misspelt command keyword ("MRACH ...") is not a command, so it
    does not end the block; say so rather than "unknown area"."""
    good = _close_command(word, names)
    if good and good != "PORT":  # (2e: a misspelt "Port of ..." is an order line's port)
        raise LineError(Msg("agot.error.unknown_command", word=word, hint=good, in_block=True),
                        example(good, names), fix=(word, good))


def _p_orders(rest: str, names: NameResolver) -> Orders:
    if rest.strip():
        raise LineError(Msg("agot.error.orders_alone"), EXAMPLES["ORDERS"])
    return Orders(())


def _p_orders_query(rest: str, names: NameResolver) -> OrdersQuery:
    return OrdersQuery()


def _p_raid(rest: str, names: NameResolver) -> Raid:
    left, right = _split_arrow(rest, _what("raid_target_or_none"))
    src = _area(left, names, _what("raiding_area"))
    if _is_none(right):
        return Raid(src, (), True)
    targets = tuple(_area(t, names, _what("raid_target")) for t in right.split(","))
    if len(targets) > 2:
        raise LineError(Msg("agot.error.raid_two_targets", n=len(targets)))
    return Raid(src, targets, False)


def _p_march(rest: str, names: NameResolver) -> March:
    body = rest.strip()
    leave = re.search(r"\s+(leave\s+power(\s+tokens?)?|nechej\s+[žz]eton\s+moci)\s*$", body, flags=re.I)
    if leave:
        body = body[: leave.start()]
    left, right = _split_arrow(body, _what("the_destination"))
    src = _area(left, names, _what("march_from"))
    if _is_none(right) and not leave:
        return March(src, (), False)
    moves = []
    for part in right.split(";"):
        dest_text, units_text = _split_colon(part, _what("the_units_march"))
        moves.append(Move(_area(dest_text, names, _what("destination")), _units(units_text, allow_all=True)))
    return March(src, tuple(moves), bool(leave))


NEUTRAL_WORDS: Final = frozenset(fold(w) for w in ("neutral", "neutral force", "the neutral force", "neutrální",
                                                   "neutrální síla", "нейтрал", "нейтральный", "нейтральные силы"))
"""``SUPPORT <area> -> NEUTRAL``: a support for a neutral force (2nd-edition data only: the agot2e-ru option
``neutral-support``; refused in a game without it, ``submission.py``)."""


def _p_support(rest: str, names: NameResolver) -> Support:
    main, battle = _split_word(rest, *IN_WORDS)
    left, right = _split_arrow(main, _what("supported_house"))
    src = _area(left, names, _what("supporting_area"))
    second = bool(getattr(getattr(names, "data", None), "wildling_cards", None))  # as _commands_of: agot1e never
    house = None if _is_none(right) else NEUTRAL if second and " ".join(fold(right).split()) in NEUTRAL_WORDS \
        else _house(right, names)
    return Support(src, house, _area(battle, names, _what("battle_area")) if battle is not None else None)


NO_CARD_WORDS: Final = frozenset(fold(w) for w in ("none", "no card", "žádná", "žádnou", "žádná karta", "нет",
                                                   "никакой"))
"""``CARD NONE``: no house card in this battle (2nd-edition data only: the agot2e-ru option
``optional-house-card``; refused in a game without it, ``submission.py``)."""


def _p_card(rest: str, names: NameResolver) -> Card:
    main, battle = _split_word(rest, *IN_WORDS)
    battle_area = _area(battle, names, _what("battle_area")) if battle is not None else None
    if _second_edition(names) and " ".join(fold(main).split()) in NO_CARD_WORDS:
        return Card(None, battle_area)
    return Card(_card(main, names), battle_area)


def _p_blade(rest: str, names: NameResolver) -> Blade | Redraw:
    word, _, area_text = rest.strip().partition(" ")
    if _second_edition(names) and fold(word) in REDRAW_WORDS:
        return _p_redraw(REDRAW_WORDS[fold(word)], area_text, names)
    mode = BLADE_MODES.get(fold(word))
    if mode is None:
        raise LineError(Msg("agot.error.blade_mode", text=rest.strip()))
    if mode == "at":
        return Blade("at", _area(area_text, names, _what("battle_area")))
    if area_text.strip():
        raise LineError(Msg("agot.error.blade_trailing", mode=mode.upper()))
    return Blade(mode)  # type: ignore[arg-type]


def _p_redraw(redraw: bool, rest: str, names: NameResolver) -> Redraw:
    """``BLADE REDRAW [IF <tides card>[, ...]] [AT <battle area>]`` or ``BLADE KEEP`` (2e, Tides of Battle)."""
    if not redraw:
        if rest.strip():
            raise LineError(Msg("agot.error.keep_trailing"))
        return Redraw(False)
    main, battle = _split_word(rest, "at", "in", "v")
    cards: list[str] = []
    if main:
        word, _, listed = main.partition(" ")
        if fold(word) not in IF_WORDS or not listed.strip():
            raise LineError(Msg("agot.error.redraw_form", text=main.strip()))
        for item in re.split(r"\s*,\s*|\s+(?:or|nebo)\s+", listed.strip()):
            card = TIDES_WORDS.get(re.sub(r"[^a-z0-9+]", "", fold(item)))
            if card is None:
                raise LineError(Msg("agot.error.tides_card_word", text=item.strip()))
            if card not in cards:
                cards.append(card)
    return Redraw(True, tuple(sorted(cards, key=list(TIDES_LINE_NAMES).index)),
                  _area(battle, names, _what("battle_area")) if battle is not None else None)


def _p_casualties(rest: str, names: NameResolver) -> Casualties:
    main, battle = _split_word(rest, *IN_WORDS)
    units = _units(main)
    assert isinstance(units, tuple)
    return Casualties(units, _area(battle, names, _what("battle_area")) if battle is not None else None)


def _p_retreat(rest: str, names: NameResolver) -> Retreat:
    main, battle = _split_word(rest, "from", "z", *IN_WORDS)
    return Retreat(_area(main, names, _what("retreat_to")),
                   _area(battle, names, _what("battle_area")) if battle is not None else None)


def _p_ability(rest: str, names: NameResolver) -> Ability:
    card_text, choice = _split_colon(rest, _what("the_choice"))
    card = _card(card_text, names)
    choice = " ".join(choice.split())
    if not choice:
        raise LineError(Msg("agot.error.missing_choice"))
    return Ability(card, choice)


def _p_raven(rest: str, names: NameResolver) -> Raven:
    if fold(rest).strip() in ("pass", "pas"):
        return Raven()
    look = RAVEN_LOOK_WORDS.get(fold(rest).strip())
    if look is not None and _second_edition(names):  # 2nd edition: the top wildling card
        return Raven(look=look)
    if ":" not in rest:
        raise LineError(Msg("agot.error.raven_form"))
    line = _parse_order_line(rest, names)
    return Raven(line.area, line.token)


def _p_bid(rest: str, names: NameResolver) -> Bid | BidAll:
    """``BID 3`` or ``BID THRONE 3 FIEFDOMS 1 COURT 0`` (tracks in any order, multi-word track
    names like "Iron Throne" and "King's Court", separators ``,;:=`` allowed)."""
    words = [w for w in re.split(r"[\s,;:=]+", rest.strip()) if w]
    if len(words) <= 1:
        return Bid(_number(words[0] if words else ""))
    found: dict[str, int] = {}
    i = 0
    while i < len(words):
        name, best = "", None
        for j in range(i, len(words)):
            if re.search(r"\d", words[j]):
                break
            name += re.sub(r"[^a-z]", "", fold(words[j]))
            if name in TRACK_WORDS:
                best = (j + 1, TRACK_WORDS[name])
            if not name or not any(k.startswith(name) for k in TRACK_WORDS):
                break
        if best is None:
            raise LineError(Msg("agot.error.unknown_track", text=words[i]), EXAMPLES["BIDALL"])
        i, track = best
        if track in found:
            raise LineError(Msg("agot.error.two_bids", track=track.upper()), EXAMPLES["BIDALL"])
        try:
            found[track] = _number(words[i] if i < len(words) else "", track.upper())
        except LineError as exc:
            exc.example = EXAMPLES["BIDALL"]
            raise
        i += 1
    if len(found) != 3:
        missing = [t.upper() for t in ("throne", "fiefdoms", "court") if t not in found]
        raise LineError(Msg("agot.error.bid_tracks_missing", missing=missing), EXAMPLES["BIDALL"])
    return BidAll(found["throne"], found["fiefdoms"], found["court"])


def _p_tiebreak(rest: str, names: NameResolver) -> Tiebreak:
    words = [w for w in re.split(r"[,;\s>]+", rest.strip()) if w and fold(w) != "house"]
    houses = tuple(_house(w, names) for w in words)
    if len(houses) < 2:
        raise LineError(Msg("agot.error.tiebreak_two"))
    if len(set(houses)) != len(houses):
        raise LineError(Msg("agot.error.tiebreak_twice"))
    return Tiebreak(houses)


def _p_muster(rest: str, names: NameResolver) -> Muster:
    if _is_none(rest):
        return Muster(None, ())
    area_text, items_text = _split_colon(rest, _what("what_to_muster"))
    area = _area(area_text, names, _what("castle_area"))
    return Muster(area, _muster_items(items_text, names))


def _muster_items(items_text: str, names: NameResolver) -> tuple[MusterItem, ...]:
    """``footman, ship -> Bay of Ice, upgrade`` (and in 2e ``siege engine``, ``upgrade -> siege engine``)."""
    if not items_text:
        raise LineError(Msg("agot.error.nothing_to_muster"))
    items: list[MusterItem] = []
    # "upgrade a footman to a knight": those articles are not the Czech list word "a"
    items_text = re.sub(r"\b(upgrade|footman|to)\s+an?\s+", r"\1 ", items_text, flags=re.I)
    for part in re.split(_LIST_SEP, items_text, flags=re.I):
        if re.match(r"(upgrade|povyseni)\b", fold(part)):
            if _second_edition(names) and _SIEGE_UPGRADE_RE.fullmatch(fold(part)):
                items.append(SIEGE_UPGRADE)
                continue
            if not _UPGRADE_RE.fullmatch(fold(part)):
                raise LineError(Msg("agot.error.upgrade_form", text=part.strip()))
            items.append(UPGRADE)
            continue
        unit_text, _, sea_text = part.partition("->")
        n, unit = _counted(unit_text)
        if unit == "sellsword":  # agot2e-ru: sellswords are hired (HIRE), never mustered
            raise LineError(Msg("agot.error.muster_sellsword"), EXAMPLES["MUSTER"])
        sea = None
        if sea_text.strip():
            if unit != "ship":
                raise LineError(Msg("agot.error.only_ship_to_sea", unit=unit))
            sea = _area(sea_text, names, _what("sea_area"))
        items.extend([MusterItem(unit, sea)] * n)
    return tuple(items)


_UPGRADE_RE: Final = re.compile(
    r"(upgrade|povyseni)(\s+(footman|pesak|pesaka))?(\s*(to|->|na)\s*(knight|rytir|rytire|rytiri|rytire))?"
)
"""``upgrade``, ``upgrade footman``, ``upgrade footman to knight``, ``upgrade -> knight``."""

_SIEGE_UPGRADE_RE: Final = re.compile(
    r"(upgrade|povyseni)(\s+(footman|pesak|pesaka))?\s*(to|->|na)\s*(siege(\s*engine)?|oblehac\w*(\s+stroj\w*)?)"
)
"""2e: ``upgrade -> siege engine``, ``upgrade footman to siege engine``, ``povýšení na obléhací stroj``."""

SIEGE_UPGRADE: Final = MusterItem("siege_engine", None, True)


def _p_port(rest: str, names: NameResolver) -> Port:
    """``PORT <port>: TAKE <n> | TAKE ALL | TAKE NONE`` (2e; the castle area's name names its port too)."""
    area_text, take_text = _split_colon(rest, _what("ships_to_take"))
    area = _area(area_text, names, _what("port"))
    board = getattr(getattr(names, "data", None), "board", None)
    if board is not None and board.area(area).kind != "port":
        if board.port(area) is None:
            raise LineError(Msg("agot.error.not_a_port", area=names.area_name(area)))
        area = board.port(area)
    word, _, n_text = take_text.strip().partition(" ")
    if fold(word) not in TAKE_WORDS:
        raise LineError(Msg("agot.error.port_take_form", text=take_text.strip()))
    n_text = fold(n_text).strip()
    if n_text in ALL_WORDS:
        return Port(area, None)
    if _is_none(n_text):
        return Port(area, 0)
    if not re.fullmatch(r"\d{1,2}", n_text):
        raise LineError(Msg("agot.error.port_take_form", text=take_text.strip()))
    return Port(area, int(n_text))


def _p_consolidate(rest: str, names: NameResolver) -> Consolidate:
    """``CONSOLIDATE <area>: POWER | MUSTER <items>`` (2e, a starred Consolidate Power order)."""
    area_text, what = _split_colon(rest, _what("power_or_muster"))
    area = _area(area_text, names)
    word, _, items_text = what.strip().partition(" ")
    if fold(word) in POWER_WORDS and not items_text.strip():
        return Consolidate(area)
    if COMMAND_WORDS.get(fold(word)) == "MUSTER":
        return Consolidate(area, _muster_items(items_text.strip(), names))
    raise LineError(Msg("agot.error.consolidate_form", text=what.strip()))


def _p_remove(rest: str, names: NameResolver) -> Remove:
    area_text, units_text = _split_colon(rest, _what("units_to_remove"))
    area = _area(area_text, names)
    units = _units(units_text)
    assert isinstance(units, tuple)
    return Remove(area, units)


def _p_reclaim(rest: str, names: NameResolver) -> Reclaim:
    return Reclaim(_card(rest, names))


def _p_track(rest: str, names: NameResolver) -> Track:
    word = TRACK_WORDS.get(re.sub(r"[^a-z]", "", fold(rest)))
    if word is None:
        raise LineError(Msg("agot.error.track_word", text=rest.strip()), EXAMPLES["TRACK"])
    return Track(word)


def _p_discard(rest: str, names: NameResolver) -> Discard:
    return Discard(_card(rest, names))


def _letters(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", fold(text))


def _p_choose(rest: str, names: NameResolver) -> Choose:
    """``CHOOSE <Westeros card>: <option>`` (2nd edition; the options the card offers, RULES.md 11.2)."""
    card_text, option_text = _split_colon(rest, _what("the_option"))
    key = _letters(card_text)
    cards = {c for word, c in CHOOSE_CARD_WORDS.items() if word == key or (len(key) >= 4 and word.startswith(key))}
    if len(cards) != 1:
        raise LineError(Msg("agot.error.choose_card", text=card_text.strip()), EXAMPLES["CHOOSE"])
    card = cards.pop()
    option = CHOOSE_OPTION_WORDS.get(_letters(option_text))
    offered = list(names.data.westeros_cards[card].params["options"])
    if option not in offered:
        words = [CHOOSE_WORDS[o] for o in offered]
        raise LineError(Msg("agot.error.choose_option", card=card, text=option_text.strip(), options=words),
                        f"CHOOSE {names.data.westeros_cards[card].name}: {words[0]}")
    return Choose(card, option)


def _p_promote(rest: str, names: NameResolver, demote: bool = False) -> Promote:
    """``PROMOTE <area>[: <n>], ...`` or ``PROMOTE NONE``; ``DEMOTE <area>[: <n>], ...`` (2nd edition,
    Crow Killers). An area named twice counts once with the two numbers added."""
    word = "DEMOTE" if demote else "PROMOTE"
    if _is_none(rest) and not demote:
        return Promote(())
    counts: dict[str, int] = {}
    for part in (p for p in re.split(r"[,;]", rest) if p.strip()):
        area_text, _, n_text = part.partition(":")
        area = _area(area_text, names)
        n_text = n_text.strip()
        if n_text and not (n_text.isdigit() and 1 <= int(n_text) <= MAX_COUNT):
            raise LineError(Msg("agot.error.promote_count", word=word, text=n_text), EXAMPLES[word])
        counts[area] = counts.get(area, 0) + (int(n_text) if n_text else 1)
    if not counts:
        raise LineError(Msg("agot.error.missing", what=_what("area")), EXAMPLES[word])
    return Promote(tuple(counts.items()), demote)


def _p_demote(rest: str, names: NameResolver) -> Promote:
    return _p_promote(rest, names, demote=True)


def _p_penalty(rest: str, names: NameResolver) -> Penalty:
    choice = PENALTY_WORDS.get(fold(rest).strip())
    if choice is None:
        raise LineError(Msg("agot.error.penalty_word", text=rest.strip()), EXAMPLES["PENALTY"])
    return Penalty(choice)


TOKEN_WORDS: Final = frozenset({"token", "housetoken", "powertoken", "power", "zeton", "zetonrodu", "zetonmoci",
                                 "жетон", "жетондома"})
SUPPLY_WORDS: Final = frozenset({"supply", "zasoby", "zasobovani", "снабжение", "снабжения"})
"""``BUY TOKEN <area>`` / ``BUY SUPPLY`` (Czech ``KOUPIT ŽETON`` / ``KOUPIT ZÁSOBY``, Russian ``КУПИТЬ ЖЕТОН`` /
``КУПИТЬ СНАБЖЕНИЕ``): what is bought, folded, spaces removed."""

MAX_GOLD: Final = 99
"""The largest sum one transaction names: more than the game's gold, small enough to catch a typo."""


def _gold(text: str) -> int:
    """A sum of gold dragons, 1..:data:`MAX_GOLD`."""
    t = text.strip().translate(_TRANSLATE)
    if not re.fullmatch(r"\d+", t) or not 1 <= int(t) <= MAX_GOLD:
        raise LineError(Msg("agot.error.gold_not_number", text=text.strip(), most=MAX_GOLD))
    return int(t)


def _p_buy(rest: str, names: NameResolver) -> BuyToken | BuySupply:
    """``BUY TOKEN <area>`` | ``BUY SUPPLY`` (agot2e-ru, RULES.md P13, P14)."""
    words = rest.replace(":", " ").split()
    for size in (2, 1):  # "house token <area>" or "token <area>"
        if len(words) > size and fold("".join(words[:size])) in TOKEN_WORDS:
            return BuyToken(_area(" ".join(words[size:]), names))
    if words and fold("".join(words)) in SUPPLY_WORDS:
        return BuySupply()
    raise LineError(Msg("agot.error.buy_what", text=rest.strip()[:40]))


def _p_give(rest: str, names: NameResolver) -> Give:
    """``GIVE <house> <n>`` (agot2e-ru, RULES.md P15): the last word is the sum."""
    house_text, _, n_text = rest.strip().rpartition(" ")
    if not house_text:
        raise LineError(Msg("agot.error.give_form", text=rest.strip()[:40]))
    return Give(_house(house_text.rstrip(":"), names), _gold(n_text))


def _p_loan(rest: str, names: NameResolver) -> Loan:
    return Loan(_gold(rest))


def _p_repay(rest: str, names: NameResolver) -> Loan:
    return Loan(_gold(rest), repay=True)


def _p_rebel(rest: str, names: NameResolver) -> Rebel:
    """agot2e-ru ``REBEL <area>`` (Czech ``VZPOURA``, Russian ``МЯТЕЖ``); refused without the option in
    ``submission.py``."""
    return Rebel(_area(rest, names, "area"))


def _p_hand(rest: str, names: NameResolver) -> HandLook:
    """agot2e-ru ``HAND LOOK <deck>`` or ``HAND PASS`` (Czech ``PRAVICE NAHLÉDNI II``, ``PRAVICE NIC``; Russian
    ``ДЕСНИЦА СМОТРЕТЬ II``, ``ДЕСНИЦА ПАС``)."""
    words = fold(rest).replace("-", " ").split()
    word = HAND_WORDS.get(words[0]) if words else None
    deck_words = [w for w in words[1:] if w not in ("deck", "balicek", "колода")]
    if word == "pass" and not deck_words:
        return HandLook(None)
    if word == "look" and len(deck_words) == 1 and deck_words[0] in DECK_WORDS:
        return HandLook(DECK_WORDS[deck_words[0]])
    raise LineError(Msg("agot.error.hand_form", text=rest.strip(), decks=list(WESTEROS_DECKS)), EXAMPLES["HAND"])


WAGES_WORDS: Final[dict[str, str]] = {
    "pay": "pay", "zaplat": "pay", "platit": "pay", "plat": "pay", "платить": "pay", "заплатить": "pay",
    "stop": "stop", "neplatit": "stop", "nezaplat": "stop", "стоп": "stop", "прекратить": "stop",
    "dismiss": "dismiss", "propustit": "dismiss", "propust": "dismiss", "распустить": "dismiss",
}
"""``WAGES`` choices (agot2e-ru mercenaries), English, Czech and Russian, folded."""

NONE_WORDS_RU: Final = frozenset({"нет", "никого", "ничего"})


def _p_hire(rest: str, names: NameResolver) -> Hire:
    """``HIRE <company> <n>`` or ``HIRE NONE``: the company as written, folded to an id (``The Golden
    Company`` -> ``golden-company``); which companies exist is the game's (checked on submission)."""
    text = rest.strip()
    if _is_none(text) or fold(text) in NONE_WORDS_RU:
        return Hire(None)
    m = re.fullmatch(r"(.*\S)\s+(\S+)", text, flags=re.S)
    if m is None:
        raise LineError(Msg("agot.error.hire_form", text=text), EXAMPLES["HIRE"])
    key = _company_key(m.group(1))
    names = _company_names()
    starts = {c for name, c in names.items() if len(key) >= 4 and name.startswith(key)}
    return Hire(names.get(key) or (starts.pop() if len(starts) == 1 else key), _number(m.group(2)))


def _company_key(text: str) -> str:
    """A company's name folded for comparison: ``The Golden Company`` -> ``golden-company``."""
    return "-".join(w for w in re.split(r"[\s\-_]+", fold(text)) if w and w != "the")


@functools.cache
def _company_names() -> dict[str, str]:
    """Folded company name (its id, its English and Czech names) -> id: the catalogues name the companies
    (``names.company``) as they name areas; which exist in a game is the game's (checked on submission)."""
    out = {}
    for language in ("en", "cs"):
        for company, shown in messages.catalogue(language, "agot").names.get("company", {}).items():
            out[_company_key(shown)] = out[company] = company
    return out


def _p_wages(rest: str, names: NameResolver) -> Wages:
    choice = WAGES_WORDS.get(re.sub(r"[\s.!]", "", fold(rest)))
    if choice is None:
        raise LineError(Msg("agot.error.wages_word", text=rest.strip()), EXAMPLES["WAGES"])
    return Wages(choice)


def _p_clear(rest: str, names: NameResolver) -> Clear:
    """``CLEAR``, ``CLEAR ALL``, ``CLEAR MARCHES, RAIDS``, ``ZRUŠ pochody a nájezdy``."""
    words = [fold(w) for w in re.split(r"[,;\s]+|\s+(?:and|a)\s+", rest.strip()) if w and fold(w) not in ("and", "a")]
    if not words or all(w in CLEAR_ALL_WORDS for w in words):
        return Clear()
    kinds: list[str] = []
    for word in (w for w in words if w not in CLEAR_ALL_WORDS):  # "CLEAR ALL MARCHES" is CLEAR MARCHES
        kind = CLEAR_WORDS.get(word)
        if kind is None:
            close = difflib.get_close_matches(word, list(CLEAR_WORDS) + sorted(CLEAR_ALL_WORDS), 1, 0.7)
            hint = (CLEAR_WORDS.get(close[0]) or "all").upper() if close else None
            raise LineError(Msg("agot.error.clear_what", word=word, hint=hint, kinds=[k.upper() for k in CLEAR_KINDS]),
                            EXAMPLES["CLEAR"])
        if kind not in kinds:
            kinds.append(kind)
    return Clear(tuple(k for k in CLEAR_KINDS if k in kinds))


# -- agot2e-ru (issue 15, P20): the hostage phase's lines (agot/hostages.py judges them) --------------------------

SIDE_WORDS: Final[dict[str, str]] = {"for": "for", "pro": "for", "за": "for",
                                     "against": "against", "proti": "against", "против": "against"}
"""``EXECUTE <hostage>: FOR | AGAINST <n>``: the side's word, English, Czech or Russian (folded)."""

FROM_WORDS: Final = ("from", "od", "от")
"""``ACCEPT <hostage> FROM <house>`` (Czech ``OD``, Russian ``ОТ``)."""


def _hostage_none(text: str) -> bool:
    return _is_none(text) or fold(text).strip() in ("нет", "ничего")


def _any_card(text: str, names: NameResolver) -> str:
    """A house card of any house (a hostage is another house's card): the sender's own come first."""
    data = getattr(names, "data", None)
    if data is None:
        return _card(text, names)
    try:
        return data.resolve_card(text.strip()).id
    except UnknownName as exc:
        raise _name_error(exc, text.strip(), "house card", names) from None


def _hostage_gold(text: str, example: str) -> int:
    if not re.fullmatch(r"\d{1,2}", text.strip()):
        raise LineError(Msg("agot.error.hostage_gold", text=text.strip()), example)
    return int(text)


def _p_ransom(rest: str, names: NameResolver) -> Ransom:
    """``RANSOM <hostage> <gold> [+ <hostage> ...]`` or ``RANSOM NONE``."""
    if _hostage_none(rest):
        return Ransom(None)
    first, *more = rest.split("+")
    m = re.fullmatch(r"\s*(.*?)\s+(\S+)\s*", first)
    if m is None:
        raise LineError(Msg("agot.error.hostage_gold", text=first.strip()), EXAMPLES["RANSOM"])
    return Ransom(_any_card(m.group(1), names), _hostage_gold(m.group(2), EXAMPLES["RANSOM"]),
                  tuple(_any_card(c, names) for c in more))


def _p_accept(rest: str, names: NameResolver) -> Answer:
    card_text, house_text = _split_word(rest, *FROM_WORDS)
    if house_text is None:
        raise LineError(Msg("agot.error.accept_from"), EXAMPLES["ACCEPT"])
    return Answer(_any_card(card_text, names), "accept", _house(house_text, names))


def _p_refuse(rest: str, names: NameResolver) -> Answer:
    return Answer(_any_card(rest, names), "refuse")


def _p_execute(rest: str, names: NameResolver) -> Answer | ExecutionBid:
    """``EXECUTE <hostage>`` (its holder attempts the execution) or ``EXECUTE <hostage>: FOR | AGAINST <n>``
    / ``NONE`` (a house's bid in the vote)."""
    if ":" not in rest:
        return Answer(_any_card(rest, names), "execute")
    card_text, bid = rest.split(":", 1)
    card = _any_card(card_text, names)
    if _hostage_none(bid):
        return ExecutionBid(card, None)
    word, _, n = bid.strip().partition(" ")
    side = SIDE_WORDS.get(fold(word))
    if side is None:
        raise LineError(Msg("agot.error.execution_side", text=bid.strip()), EXAMPLES["EXECUTE"])
    return ExecutionBid(card, side, _hostage_gold(n, EXAMPLES["EXECUTE"]))


def _p_help(rest: str, names: NameResolver) -> Help:
    topic = " ".join(rest.split())
    return Help(topic or None)


def _p_status(rest: str, names: NameResolver) -> Status:
    return Status()


def _p_press(rest: str, names: NameResolver) -> Press:
    m = re.match(r"\s*(anon(?:ymous|ymně|ymne)?\s+)?([^:]*):(.*)$", rest, flags=re.I | re.S)
    if m is None:
        raise LineError(Msg("agot.error.press_form"))
    anon, to_text, text = bool(m.group(1)), m.group(2).strip(), m.group(3).strip()
    if fold(to_text) in ("all", "everyone", "vsem", "vsichni"):
        to: tuple[str, ...] | str = PRESS_ALL
    else:
        words = [w for w in re.split(r"[,;\s]+", to_text) if w and fold(w) not in ("house", "and")]
        if not words:
            raise LineError(Msg("agot.error.press_to"))
        to = tuple(dict.fromkeys(_house(w, names) for w in words))
    if not text:
        raise LineError(Msg("agot.error.press_empty"))
    return Press(to, text, anon)


_PARSERS: Final[dict[str, Callable[[str, NameResolver], Command]]] = {
    "ORDERS": _p_orders,
    "ORDERS?": _p_orders_query,
    "RAID": _p_raid,
    "MARCH": _p_march,
    "SUPPORT": _p_support,
    "CARD": _p_card,
    "BLADE": _p_blade,
    "CASUALTIES": _p_casualties,
    "RETREAT": _p_retreat,
    "ABILITY": _p_ability,
    "RAVEN": _p_raven,
    "BID": _p_bid,
    "TIEBREAK": _p_tiebreak,
    "MUSTER": _p_muster,
    "REMOVE": _p_remove,
    "RECLAIM": _p_reclaim,
    "TRACK": _p_track,
    "CHOOSE": _p_choose,
    "PROMOTE": _p_promote,
    "DEMOTE": _p_demote,
    "PENALTY": _p_penalty,
    "REBEL": _p_rebel,  # agot2e-ru
    "HAND": _p_hand,  # agot2e-ru
    "HIRE": _p_hire,
    "WAGES": _p_wages,
    "DISCARD": _p_discard,
    "PORT": _p_port,
    "CONSOLIDATE": _p_consolidate,
    "BUY": _p_buy,
    "GIVE": _p_give,
    "LOAN": _p_loan,
    "REPAY": _p_repay,
    "RANSOM": _p_ransom,
    "ACCEPT": _p_accept,
    "REFUSE": _p_refuse,
    "EXECUTE": _p_execute,
    "CLEAR": _p_clear,
    "HELP": _p_help,
    "STATUS": _p_status,
    "PRESS": _p_press,
}


# =================================================================================================
# The resolver over the real game data
# =================================================================================================

class GameDataNames:
    """:class:`NameResolver` over the game data of :mod:`.gamedata` (board names, house cards).

    ``houses`` defaults to every house of the data; a game with fewer players passes its own, so
    that ``SUPPORT ... -> Tyrell`` is refused in a game without Tyrell. With ``house`` (the
    sender, known from the sign-on) card names resolve among that house's cards only, so that
    "CARD Tywin" from Stark is refused with the reason instead of being accepted and failing later.
    """

    def __init__(self, data: GameData, houses: tuple[str, ...] | None = None, house: str | None = None,
                 variant: bool = False):
        self._data = data
        self.variant = variant  # a fan variant's game (agot2e-ru): its own commands are known (VARIANT_COMMANDS)
        self.houses: tuple[str, ...] = tuple(houses) if houses is not None else tuple(self._data.setup.houses)
        self._house = house

    @property
    def data(self) -> GameData:
        return self._data

    def resolve_area(self, text: str) -> str:
        return self._data.board.resolve(text)

    def area_name(self, area_id: str) -> str:
        return self._data.board.name(area_id)

    def resolve_card(self, text: str) -> str:
        return self._data.resolve_card(text, self._house).id

    def card_name(self, card_id: str) -> str:
        return self._data.card(card_id).name

    def westeros_card_name(self, card_id: str) -> str:
        return self._data.westeros_cards[card_id].name

    def player_name(self, house: str) -> str:
        """A house as the PRESS echo writes it (``Stark``)."""
        return house_name(house)
