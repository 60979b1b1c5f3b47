"""Typed commands of the agot1e mail grammar (``shared/agot1e/PBEM.md``).

The grammar (:mod:`.grammar`) turns mail text into these values; the engine checks them against
the game state later. They are plain frozen data so that they can be compared, hashed, stored in
the journal and replayed: two spellings of the same instruction ("2 footman, knight",
"Knight, 2 footmen") give *equal* commands, which is why unit lists are kept sorted.

Areas and house cards are held as ids ("kings-landing"); houses as lower-case ids ("stark").
:meth:`canonical` renders the English line the judge echoes back. It takes the display names
from a :class:`Labels` object (the grammar's name resolver is one); without it the ids are
printed, which keeps the commands usable in logs and tests with no game data at hand.
Parsing a command's canonical form gives the same command again (a tested property).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Final, Literal, Protocol, TypeAlias

from ...mailcommands import Help, OrdersQuery, Press, Status  # noqa: F401  (re-exported: the grammar's commands)

# --- vocabulary shared by the grammar and the commands ------------------------------------------

UNIT_TYPES: Final = ("footman", "knight", "ship", "siege_engine", "sellsword")  # sellsword: agot2e-ru mercenaries
"""Unit types in their canonical order (weakest land unit first, as the rulebook lists them; siege
engines: the 2nd edition's only)."""

BASIC_UNITS: Final = ("footman", "knight", "ship")
"""The units of both editions: what an error about an unknown unit word lists (the grammar reads
mail without knowing the game's edition)."""

UNIT_SINGULARS: Final = {"footman": "footman", "knight": "knight", "ship": "ship", "siege_engine": "siege engine",
                         "sellsword": "sellsword"}
UNIT_PLURALS: Final = {"footman": "footmen", "knight": "knights", "ship": "ships", "siege_engine": "siege engines",
                       "sellsword": "sellswords"}

ALL: Final = "all"
"""``MARCH ...: ALL`` (every unit in the source area) and ``PRESS ALL:`` (every player)."""
NEUTRAL: Final = "neutral"
"""``SUPPORT <area> -> NEUTRAL``: the side a support takes for a neutral force (agot2e-ru ``neutral-support``)."""

OrderKind: TypeAlias = Literal["march", "defense", "support", "raid", "consolidate"]


class Labels(Protocol):
    """What :meth:`canonical` needs to print names: display names for ids."""

    def area_name(self, area_id: str) -> str: ...

    def card_name(self, card_id: str) -> str: ...


def _area(names: Labels | None, area_id: str) -> str:
    return names.area_name(area_id) if names is not None else area_id


def _card(names: Labels | None, card_id: str) -> str:
    return names.card_name(card_id) if names is not None else card_id


def house_name(house: str) -> str:
    """Display name of a house id ("stark" -> "Stark")."""
    return house[:1].upper() + house[1:]


def sort_units(units: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """A unit multiset in canonical order, so that equal armies compare equal."""
    return tuple(sorted(units, key=UNIT_TYPES.index))


def units_text(units: tuple[str, ...] | str) -> str:
    """``('footman', 'footman', 'knight')`` -> ``2 footmen, 1 knight``; ``ALL`` -> ``ALL``."""
    if units == ALL:
        return "ALL"
    counts = Counter(units)
    return ", ".join(
        f"{counts[u]} {UNIT_SINGULARS[u] if counts[u] == 1 else UNIT_PLURALS[u]}" for u in UNIT_TYPES if counts[u]
    )


# --- order tokens --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OrderToken:
    """One order token of the 1st edition set, e.g. ``march +1*`` or ``raid``.

    The star is part of the token's identity (``raid`` and ``raid*`` are different tokens and
    special orders are limited by the King's Court track), so it is kept even where the bonus
    alone would tell (``march +1`` is always starred).
    """

    kind: OrderKind
    bonus: int = 0
    star: bool = False

    def canonical(self) -> str:
        # march and defense always show their bonus (march 0 is a token of its own); the
        # others show it only when it is not zero ("support", "support +1*").
        text = self.kind
        if self.kind == "march" and self.bonus == 0:
            text += " 0"
        elif self.bonus or self.kind == "defense":
            text += f" {self.bonus:+d}"
        return text + ("*" if self.star else "")


ORDER_TOKENS: Final = (
    OrderToken("march", -1),
    OrderToken("march", 0),
    OrderToken("march", 1, True),
    OrderToken("support", 0),
    OrderToken("support", 1, True),
    OrderToken("raid", 0),
    OrderToken("raid", 0, True),
    OrderToken("consolidate", 0),
    OrderToken("consolidate", 0, True),
    OrderToken("defense", 1),
    OrderToken("defense", 2, True),
)
"""The distinct order tokens of PBEM.md (1st edition), in the order the help lists them."""

SHORT_FORMS: Final = "M-1 M0 M+1 S S+1 R R* C C* D+1 D+2"


@dataclass(frozen=True, slots=True)
class OrderLine:
    """One line of an ORDERS block: the order token placed on an area."""

    area: str
    kind: OrderKind
    bonus: int = 0
    star: bool = False

    @property
    def token(self) -> OrderToken:
        return OrderToken(self.kind, self.bonus, self.star)

    def canonical(self, names: Labels | None = None) -> str:
        return f"{_area(names, self.area)}: {self.token.canonical()}"


@dataclass(frozen=True, slots=True)
class Orders:
    """A complete ORDERS block: the house's whole set of orders for the planning step."""

    lines: tuple[OrderLine, ...]

    def canonical(self, names: Labels | None = None) -> str:
        return "\n".join(["ORDERS", *(line.canonical(names) for line in self.lines)])


# --- action and Westeros decisions ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Raid:
    """``RAID <from> -> <target>[, <target>]`` or ``RAID <from> -> NONE`` (remove the raid)."""

    src: str
    targets: tuple[str, ...] = ()
    none: bool = False

    def canonical(self, names: Labels | None = None) -> str:
        to = "NONE" if self.none else ", ".join(_area(names, t) for t in self.targets)
        return f"RAID {_area(names, self.src)} -> {to}"


@dataclass(frozen=True, slots=True)
class Move:
    """One destination of a march: where to and which units (a sorted tuple, or :data:`ALL`)."""

    dest: str
    units: tuple[str, ...] | str

    def canonical(self, names: Labels | None = None) -> str:
        return f"{_area(names, self.dest)}: {units_text(self.units)}"


@dataclass(frozen=True, slots=True)
class March:
    """``MARCH <from> -> <to>: <units> [; <to>: <units>] [LEAVE POWER]``.

    ``moves == ()`` is ``MARCH <from> -> NONE``: the march order is removed and nobody moves
    (an extension, the march twin of ``RAID ... -> NONE``).
    """

    src: str
    moves: tuple[Move, ...]
    leave_power: bool = False

    def canonical(self, names: Labels | None = None) -> str:
        to = "; ".join(m.canonical(names) for m in self.moves) if self.moves else "NONE"
        tail = " LEAVE POWER" if self.leave_power else ""
        return f"MARCH {_area(names, self.src)} -> {to}{tail}"


def _in(names: Labels | None, battle_area: str | None, word: str = "IN") -> str:
    return f" {word} {_area(names, battle_area)}" if battle_area is not None else ""


@dataclass(frozen=True, slots=True)
class Support:
    """``SUPPORT <from> -> <house> | NEUTRAL | NONE [IN <battle area>]`` (``house is None`` means NONE)."""

    src: str
    house: str | None
    battle_area: str | None = None

    def canonical(self, names: Labels | None = None) -> str:
        to = house_name(self.house) if self.house is not None else "NONE"
        return f"SUPPORT {_area(names, self.src)} -> {to}{_in(names, self.battle_area)}"


@dataclass(frozen=True, slots=True)
class Card:
    """``CARD <house card> [IN <battle area>]``; ``CARD NONE`` (``card_id`` None): no house card in the
    battle, announced before the cards (agot2e-ru option ``optional-house-card``, ``nocard.py``)."""

    card_id: str | None
    battle_area: str | None = None

    def canonical(self, names: Labels | None = None) -> str:
        card = "NONE" if self.card_id is None else _card(names, self.card_id)
        return f"CARD {card}{_in(names, self.battle_area)}"


@dataclass(frozen=True, slots=True)
class Blade:
    """``BLADE AUTO | NEVER | AT <battle area>`` (Valyrian Steel Blade policy)."""

    mode: Literal["auto", "never", "at"]
    area: str | None = None

    def canonical(self, names: Labels | None = None) -> str:
        if self.mode == "at" and self.area is not None:
            return f"BLADE AT {_area(names, self.area)}"
        return f"BLADE {self.mode.upper()}"


@dataclass(frozen=True, slots=True)
class Casualties:
    """``CASUALTIES <units> [IN <battle area>]``: which units to lose."""

    units: tuple[str, ...]
    battle_area: str | None = None

    def canonical(self, names: Labels | None = None) -> str:
        return f"CASUALTIES {units_text(self.units)}{_in(names, self.battle_area)}"


@dataclass(frozen=True, slots=True)
class Retreat:
    """``RETREAT <area> [FROM <battle area>]``."""

    area: str
    battle_area: str | None = None

    def canonical(self, names: Labels | None = None) -> str:
        return f"RETREAT {_area(names, self.area)}{_in(names, self.battle_area, 'FROM')}"


@dataclass(frozen=True, slots=True)
class Ability:
    """``ABILITY <card>: <choice>``. The choice is kept as written (whitespace collapsed):
    what it names (a card, an area, a footman's area, "no") depends on the card and the state,
    so the engine interprets it."""

    card_id: str
    choice: str

    def canonical(self, names: Labels | None = None) -> str:
        return f"ABILITY {_card(names, self.card_id)}: {self.choice}"


RAVEN_LOOKS: Final = ("look", "top", "bottom")
"""2nd edition: ``RAVEN LOOK`` (look at the top wildling card instead of changing an order), then
``RAVEN TOP`` or ``RAVEN BOTTOM`` (leave it on top or put it at the bottom)."""


@dataclass(frozen=True, slots=True)
class Raven:
    """``RAVEN <area>: <order>`` (swap the order there), ``RAVEN PASS`` (every field None), or (2nd
    edition) ``RAVEN LOOK | TOP | BOTTOM`` (``look``, one of :data:`RAVEN_LOOKS`)."""

    area: str | None = None
    order: OrderToken | None = None
    look: str | None = None

    @property
    def is_pass(self) -> bool:
        return self.area is None and self.look is None

    def canonical(self, names: Labels | None = None) -> str:
        if self.look is not None:
            return f"RAVEN {self.look.upper()}"
        if self.area is None or self.order is None:
            return "RAVEN PASS"
        return f"RAVEN {_area(names, self.area)}: {self.order.canonical()}"


@dataclass(frozen=True, slots=True)
class Bid:
    """``BID <n>``: the bid now asked for (wildlings or the current Clash of Kings track)."""

    n: int

    def canonical(self, names: Labels | None = None) -> str:
        return f"BID {self.n}"


@dataclass(frozen=True, slots=True)
class BidAll:
    """``BID THRONE <n> FIEFDOMS <n> COURT <n>``: all three Clash of Kings bids at once."""

    throne: int
    fiefdoms: int
    court: int

    def canonical(self, names: Labels | None = None) -> str:
        return f"BID THRONE {self.throne} FIEFDOMS {self.fiefdoms} COURT {self.court}"


@dataclass(frozen=True, slots=True)
class Tiebreak:
    """``TIEBREAK <house>, <house>, ...``: the Iron Throne holder's order for tied bidders."""

    houses: tuple[str, ...]

    def canonical(self, names: Labels | None = None) -> str:
        return "TIEBREAK " + ", ".join(house_name(h) for h in self.houses)


@dataclass(frozen=True, slots=True)
class MusterItem:
    """One thing mustered: a unit (a ship optionally ``-> <sea area>``) or an upgrade.

    ``upgrade=True`` is a footman upgraded to ``unit``: a knight (``upgrade``, the only upgrade of the
    1st edition), or in the 2nd edition a siege engine (``upgrade -> siege engine``).
    """

    unit: str
    sea: str | None = None
    upgrade: bool = False

    def canonical(self, names: Labels | None = None) -> str:
        if self.upgrade:
            return "upgrade" if self.unit == "knight" else f"upgrade -> {UNIT_SINGULARS[self.unit]}"
        return UNIT_SINGULARS[self.unit] + (f" -> {_area(names, self.sea)}" if self.sea is not None else "")


UPGRADE: Final = MusterItem("knight", None, True)


@dataclass(frozen=True, slots=True)
class Muster:
    """``MUSTER <castle area>: <item>[, <item>...]``; items in the order written.

    ``MUSTER NONE`` (``area is None``, no items) declines mustering this round, an extension:
    mustering is a "may", and without it a house that wants nothing waits out the deadline."""

    area: str | None
    items: tuple[MusterItem, ...]

    def canonical(self, names: Labels | None = None) -> str:
        if self.area is None:
            return "MUSTER NONE"
        return f"MUSTER {_area(names, self.area)}: " + ", ".join(i.canonical(names) for i in self.items)


@dataclass(frozen=True, slots=True)
class Remove:
    """``REMOVE <area>: <units>`` (supply reduction, wildling losses)."""

    area: str
    units: tuple[str, ...]

    def canonical(self, names: Labels | None = None) -> str:
        return f"REMOVE {_area(names, self.area)}: {units_text(self.units)}"


@dataclass(frozen=True, slots=True)
class Reclaim:
    """``RECLAIM <house card>`` (take a discarded house card back after a wildling attack)."""

    card_id: str

    def canonical(self, names: Labels | None = None) -> str:
        return f"RECLAIM {_card(names, self.card_id)}"


TRACK_SLOTS: Final[dict[str, str]] = {"throne": "iron_throne", "fiefdoms": "fiefdoms", "court": "kings_court"}
"""``TRACK`` word -> the influence track it names (state ``tracks``)."""


@dataclass(frozen=True, slots=True)
class Track:
    """``TRACK THRONE | FIEFDOMS | COURT`` (2nd edition, A King Beyond the Wall: the track the house
    moves to the top of as the highest bidder, or to the bottom of as another house)."""

    track: str

    def canonical(self, names: Labels | None = None) -> str:
        return f"TRACK {self.track.upper()}"


@dataclass(frozen=True, slots=True)
class Discard:
    """``DISCARD <house card>`` (2nd edition, Massing on the Milkwater: the card a house other than the
    lowest bidder discards from a hand of two or more)."""

    card_id: str

    def canonical(self, names: Labels | None = None) -> str:
        return f"DISCARD {_card(names, self.card_id)}"


# --- the 2nd edition's action-phase choices (agot2e RULES.md 11.2: PORT, CONSOLIDATE, BLADE REDRAW) ---


@dataclass(frozen=True, slots=True)
class Port:
    """``PORT <port>: TAKE <n> | TAKE ALL | TAKE NONE`` (2nd edition, R6.5 and B10: how many of the
    ships in a taken castle area's port its new owner replaces with its own; ``take`` None is ALL)."""

    port: str
    take: int | None

    def canonical(self, names: Labels | None = None) -> str:
        n = "ALL" if self.take is None else "NONE" if self.take == 0 else str(self.take)
        return f"PORT {_area(names, self.port)}: TAKE {n}"


@dataclass(frozen=True, slots=True)
class Consolidate:
    """``CONSOLIDATE <area>: POWER | MUSTER <items>`` (2nd edition, R8.4: a starred Consolidate Power
    order in a castle area takes its Power, or musters there with the area's points; ``muster`` None
    is POWER)."""

    area: str
    muster: tuple[MusterItem, ...] | None = None

    def canonical(self, names: Labels | None = None) -> str:
        what = "POWER" if self.muster is None else "MUSTER " + ", ".join(i.canonical(names) for i in self.muster)
        return f"CONSOLIDATE {_area(names, self.area)}: {what}"


TIDES_LINE_NAMES: Final[dict[str, str]] = {"blank": "0", "sword": "+1 sword", "tower": "+1 fortification",
                                           "plus-two": "+2", "plus-three": "+3", "skull": "skull"}
"""A Tides of Battle card (id of ``tides_of_battle.yaml``) as a ``BLADE REDRAW IF`` line names it (RULES.md 11.2)."""


@dataclass(frozen=True, slots=True)
class Redraw:
    """``BLADE REDRAW [IF <tides card>[, ...]] [AT <battle area>]`` or ``BLADE KEEP`` (2nd edition, Tides
    of Battle, R10.2 and B29: whether the Valyrian Steel Blade's holder discards its drawn card for
    another; ``cards`` empty: whatever it drew)."""

    redraw: bool
    cards: tuple[str, ...] = ()
    battle_area: str | None = None

    def canonical(self, names: Labels | None = None) -> str:
        if not self.redraw:
            return "BLADE KEEP"
        when = " IF " + ", ".join(TIDES_LINE_NAMES[c] for c in self.cards) if self.cards else ""
        return f"BLADE REDRAW{when}{_in(names, self.battle_area, 'AT')}"


# --- agot2e-ru (issue 15, P20): the hostage phase's lines (agot/hostages.py) ---------------------------


@dataclass(frozen=True, slots=True)
class Ransom:
    """``RANSOM <hostage> <gold> [+ <hostage> ...]`` (Czech ``VÝKUPNÉ``, Russian ``ВЫКУП``): an offer for a
    hostage held by another house, in gold dragons and/or hostages the sender holds (each worth its
    strength); ``RANSOM NONE`` (``card_id`` None): no offer this phase."""

    card_id: str | None
    gold: int = 0
    cards: tuple[str, ...] = ()

    def canonical(self, names: Labels | None = None) -> str:
        if self.card_id is None:
            return "RANSOM NONE"
        return f"RANSOM {_card(names, self.card_id)} {self.gold}" + "".join(f" + {_card(names, c)}" for c in self.cards)


@dataclass(frozen=True, slots=True)
class Answer:
    """The holder's answer for one hostage: ``ACCEPT <hostage> FROM <house>`` (the offer of that house),
    ``REFUSE <hostage>`` (every offer; the hostage stays), or ``EXECUTE <hostage>`` (every offer refused,
    the execution attempted). ``choice`` is ``accept``, ``refuse`` or ``execute``."""

    card_id: str
    choice: str
    house: str | None = None

    def canonical(self, names: Labels | None = None) -> str:
        if self.choice == "accept":
            return f"ACCEPT {_card(names, self.card_id)} FROM {house_name(self.house or '')}"
        return f"{self.choice.upper()} {_card(names, self.card_id)}"


@dataclass(frozen=True, slots=True)
class ExecutionBid:
    """``EXECUTE <hostage>: FOR <n> | AGAINST <n> | NONE`` (Czech ``POPRAVA … PRO | PROTI``, Russian
    ``КАЗНЬ … ЗА | ПРОТИВ``): a house's secret side and gold in an execution's vote (``side`` ``for``,
    ``against`` or None: no side)."""

    card_id: str
    side: str | None
    gold: int = 0

    def canonical(self, names: Labels | None = None) -> str:
        what = f"{self.side.upper()} {self.gold}" if self.side else "NONE"
        return f"EXECUTE {_card(names, self.card_id)}: {what}"


CHOOSE_WORDS: Final[dict[str, str]] = {
    "supply": "SUPPLY", "mustering": "MUSTERING", "clash-of-kings": "CLASH", "game-of-thrones": "POWER",
    "storm-of-swords": "NO DEFENSE", "rains-of-autumn": "NO MARCH+1", "nothing": "NOTHING"}
"""A holder-chooses card's option (the data's ``params.options``: the card it resolves as, or
``nothing``) -> its word in a canonical ``CHOOSE`` line (agot2e RULES.md 11.2)."""


class WesterosLabels(Labels, Protocol):
    def westeros_card_name(self, card_id: str) -> str: ...


@dataclass(frozen=True, slots=True)
class Choose:
    """``CHOOSE <Westeros card>: <option>`` (2nd edition: A Throne of Blades, Dark Wings Dark Words, Put
    to the Sword): what the token holder chooses, a key of :data:`CHOOSE_WORDS` the card offers."""

    card_id: str
    option: str

    def canonical(self, names: WesterosLabels | None = None) -> str:
        card = names.westeros_card_name(self.card_id) if names is not None else self.card_id
        return f"CHOOSE {card}: {CHOOSE_WORDS[self.option]}"


@dataclass(frozen=True, slots=True)
class Promote:
    """``PROMOTE <area>[: <n>], ...`` (2nd edition, Crow Killers' reward: footmen there become knights;
    ``PROMOTE NONE``, no area, declines) or, with ``demote``, ``DEMOTE <area>[: <n>], ...`` (its penalty:
    knights there become footmen). Areas in the order written, each once."""

    areas: tuple[tuple[str, int], ...]
    demote: bool = False

    def canonical(self, names: Labels | None = None) -> str:
        word = "DEMOTE" if self.demote else "PROMOTE"
        if not self.areas:
            return f"{word} NONE"
        return f"{word} " + ", ".join(f"{_area(names, a)}: {n}" for a, n in self.areas)


PENALTIES: Final = ("units", "track")


@dataclass(frozen=True, slots=True)
class Penalty:
    """``PENALTY UNITS | TRACK`` (2nd edition, Preemptive Raid's lowest bidder: lose two units, with
    ``REMOVE`` lines, or drop two places on its best influence track)."""

    choice: str

    def canonical(self, names: Labels | None = None) -> str:
        return f"PENALTY {self.choice.upper()}"


# agot2e-ru (issue 15): the rebellion and the Hand of the King (its RULES.md V18, V21) ----------------------

WESTEROS_DECKS: Final = ("I", "II", "III")
"""The Westeros decks a ``HAND LOOK`` may name."""


@dataclass(frozen=True, slots=True)
class Rebel:
    """``REBEL <area>`` (agot2e-ru option ``rebellion``): the area of its own where the house's bannermen
    rise when a rebellion comes (``agot/rebellion.py``)."""

    area: str

    def canonical(self, names: Labels | None = None) -> str:
        return f"REBEL {_area(names, self.area)}"


@dataclass(frozen=True, slots=True)
class HandLook:
    """``HAND LOOK <deck>`` or ``HAND PASS`` (``deck`` None; agot2e-ru option ``hand-of-the-king``): the
    Westeros deck whose top card the Hand of the King looks at after the Westeros phase
    (``agot/hand.py``)."""

    deck: str | None

    def canonical(self, names: Labels | None = None) -> str:
        return f"HAND LOOK {self.deck}" if self.deck else "HAND PASS"


# -- agot2e-ru, option mercenaries (its RULES.md V19; agot/mercenaries.py) ---------------------------------


@dataclass(frozen=True, slots=True)
class Hire:
    """``HIRE <company> <n>``: a sealed bid of ``n`` gold for a sellsword company in the mercenary phase;
    ``HIRE NONE`` (``company is None``): no bid. The company is the text as written, folded to an id
    (``golden-company``); the submission checks it against the game's companies."""

    company: str | None
    bid: int = 0

    def canonical(self, names: Labels | None = None) -> str:
        return "HIRE NONE" if self.company is None else f"HIRE {self.company} {self.bid}"


@dataclass(frozen=True, slots=True)
class Wages:
    """``WAGES PAY | STOP | DISMISS``: the holder of a company pays its wages (keeps it), stops paying (it
    is auctioned again, else it revolts), or pays a last wage and sends it home."""

    choice: str

    def canonical(self, names: Labels | None = None) -> str:
        return f"WAGES {self.choice.upper()}"


CLEAR_KINDS: Final = ("orders", "raven", "marches", "raids", "supports", "cards", "casualties", "retreats",
                      "abilities", "blade", "bids", "musters", "removes", "tiebreaks", "reclaims")
"""What ``CLEAR <kind>`` may name: each a part of a house's plan (``position.empty_plan``)."""


@dataclass(frozen=True, slots=True)
class Clear:
    """``CLEAR [<kind>[, <kind>...]]`` (also ``CANCEL``, Czech ``ZRUŠ``): forget what is on file for
    this house, everything (``kinds == ()``) or those kinds of :data:`CLEAR_KINDS`. It applies before
    the lines after it in the same mail (an extension, as in the other rulesets)."""

    kinds: tuple[str, ...] = ()

    def canonical(self, names: Labels | None = None) -> str:
        return "CLEAR" + (" " + ", ".join(k.upper() for k in self.kinds) if self.kinds else "")


# --- agot2e-ru, option gold-economy: transactions at any time (RULES.md P13-P16, agot/transactions.py) -----


@dataclass(frozen=True, slots=True)
class BuyToken:
    """``BUY TOKEN <area>``: one gold for an available house (power) token laid in an area the house controls."""

    area: str

    def canonical(self, names: Labels | None = None) -> str:
        return f"BUY TOKEN {_area(names, self.area)}"


@dataclass(frozen=True, slots=True)
class BuySupply:
    """``BUY SUPPLY``: supply from the Free Cities, +1 on the supply track until the next recount."""

    def canonical(self, names: Labels | None = None) -> str:
        return "BUY SUPPLY"


@dataclass(frozen=True, slots=True)
class Give:
    """``GIVE <house> <n>``: ``n`` gold dragons to another house (a bribe, a deal)."""

    house: str
    n: int

    def canonical(self, names: Labels | None = None) -> str:
        return f"GIVE {house_name(self.house)} {self.n}"


@dataclass(frozen=True, slots=True)
class Loan:
    """``LOAN <n>`` (a loan of the Iron Bank) or, with ``repay``, ``REPAY <n>`` (gold back against the debt)."""

    n: int
    repay: bool = False

    def canonical(self, names: Labels | None = None) -> str:
        return f"{'REPAY' if self.repay else 'LOAN'} {self.n}"


TRANSACTIONS: Final = (BuyToken, BuySupply, Give, Loan)
"""The commands a house may send at any time: applied when the mail is accepted (RULES.md D14)."""


# --- mail-level commands: one set for every ruleset (adjudicator/mailcommands.py) -------------------


Command: TypeAlias = (
    Orders | Raid | March | Support | Card | Blade | Casualties | Retreat | Ability | Raven | Bid
    | BidAll | Tiebreak | Muster | Remove | Reclaim | Track | Discard | Choose | Promote | Penalty | Port | Consolidate
    | Redraw | BuyToken | BuySupply | Give | Loan | Clear | Help | Status | OrdersQuery | Press
    | Rebel | HandLook | Hire | Wages  # agot2e-ru
    | Ransom | Answer | ExecutionBid  # agot2e-ru: hostages
)
"""Everything :func:`.grammar.parse_mail` puts in ``ParsedMail.commands``."""
