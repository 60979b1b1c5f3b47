"""The Russian fan variant's game options and numbers (``agot2e-ru``; seed 003, RULES.md next to this module).

Each rule of the variant that the 2nd-edition board can express is one game option, switched on or off
when the game is created (``judge new --ruleset agot2e-ru --option half-support=no``) and recorded in
``state["options"]`` for the game's life; the shared engine asks ``ctx.on(name)`` where the rule
differs. Every option is on by default: a game created without options is the variant as the seed
writes it, and a game with every option off plays as agot2e.

The numbers the rules need live in ``games/agot2e-ru/<version>/variant-params.yaml`` (each marked
``seed`` or ``ours``), read here once per version and checked against the 2nd-edition board.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

from ...paths import GAMES_DIR
from ..agot import hand, hostages, ironbank, mercenaries, rebellion
from ..agot.gamedata import _Reader
from ..agot2e.edition import SHAPE, load_gamedata
from . import economy, mustering, recount, taxes
from .victory import end_game, held_castles  # the shared engine's hooks: ctx.rules.variant.held_castles ...

__all__ = ["OPTIONS", "NEEDS", "STEPS", "Params", "load_params", "economy", "end_game", "held_castles"]

OPTIONS: dict[str, str] = {
    "half-support": "a support adds half its strength, rounded down (the starred +1 before rounding)",
    "knights-in-castles": "knights count 1 less in an area with a castle, supporting too",
    "siege-towers": "siege engines count 2 (not 4) attacking or supporting an attack on a castle area",
    "retreat-own-areas": "a beaten defender retreats only into an area it controls (ships: empty seas, own ports)",
    "neutral-garrisons": "neutral garrisons: King's Landing 7, Riverrun 6, The Twins 6, Seagard 3",
    "printed-garrisons": "every castle area defends its holder with its printed garrison",
    "ports-safe-from-raids": "no raid reaches a port from its sea (a port still raids its sea)",
    "neutral-support": "any other house may support a neutral force against a march into it",
    "hold-seven-castles": "7 castles win when still held at the end of the round",
    "final-tiebreaks": "after round 10: most castles, then most muster points (castles + docks), else a shared win",
    "multi-battle-march": "one march may start several battles, one per destination, in the order written",
    "variant-units": "10 footmen, 6 knights, 2 siege engines, 6 ships; Greyjoy 14 footmen, no knights, 8 ships",
    "knight-double-move": "knights march two areas through an area their house controlled before the march",
    "optional-house-card": "a house may fight without a house card if it says so before the cards (CARD NONE),"
                           " the defender first",
    "moat-cailin": "Moat Cailin counts for no victory and no muster, and is a castle only when attacked from the south",
    "orders-in-token-areas": "orders in areas holding only the house's token (no raid): Consolidate Power, Defense,"
                             " Support, March",
    "gold-economy": "gold dragons (5 at the start): taxes, Trade orders for Consolidate Power, bids and musters in gold,"
                    " house tokens and Free-City supply bought, gold given, the Iron Bank's loans",
    "rebellion": "Last Days of Summer brings a rebellion after the action phase: each house names an area of strength"
                 " 5 or less, a die above it takes the area for a neutral force",
    "hand-of-the-king": "the house second on the Iron Throne track may look at the top card of one Westeros deck"
                        " after each Westeros phase",
    "hostages": "a card whose army is wiped out is taken hostage: ransoms and execution votes in gold (needs"
                " gold-economy)",
    "mercenaries": "sellsword companies hired by sealed bids of gold from round 4, paid wages, else they revolt"
                   " (needs gold-economy)",
}
"""Every option this judge plays, by name -> what it does (RULES.md section 2 quotes the seed for each)."""

NEEDS: dict[str, str] = {
    "hostages": "gold-economy",  # ransoms and execution votes are paid in gold dragons (RULES.md V20)
    "mercenaries": "gold-economy",  # the companies are hired and paid in gold dragons (RULES.md V19)
}
"""An option -> the option it cannot be played without (``judge new`` refuses the one without the other)."""

STEPS: dict[str, tuple] = {
    # the seed's round (II): 1 Westeros, 2 hostages, 3 planning, 4 action, 5 taxes, 6 mercenaries,
    # 7 supply recount, 8 mustering, 9 debts grow. The variant's own steps, in that order, each
    # (name, module) as agot/variantsteps.py describes; a step whose option is off is passed over.
    # the Hand looks "after the Westeros phase": first, before the hostages; the rebellion ends the action phase
    # (RULES.md D30): first, before the taxes.
    "before_planning": (("hand", hand), ("hostages", hostages)),   # the Hand's look, then 2 hostages
    "after_action": (        # rebellion, 5 taxes, 6 mercenaries, 7 supply, 8 muster, 9 debts
        ("rebellion", rebellion),
        ("taxes", taxes),
        ("mercenaries", mercenaries),  # 6 (agot/mercenaries.py)
        ("supply_recount", recount),
        ("mustering", mustering),
        ("debts", ironbank),
    ),
}


@dataclass(frozen=True)
class Economy:
    """The economy's numbers (option ``gold-economy``; RULES.md V14-V17): taxes, Trade, raids on Trade,
    the gold a muster costs, the prices of the transactions at any time; anything else of the section in
    ``rest``."""

    gold_icons: str  # where a gold icon is printed: "crowns" (ours: a 2nd-edition crown is a gold icon)
    trade_multiplier: int
    star_trade_multiplier: int
    raid_on_trade_share: int
    raid_on_trade_minimum: int
    muster_prices: Mapping[str, int]  # unit (or "upgrade") -> gold
    house_token_price: int  # BUY TOKEN (P13, agot/transactions.py)
    free_city_supply_price: int  # BUY SUPPLY (P14)
    rest: Mapping[str, Any]


@dataclass(frozen=True)
class Params:
    """``variant-params.yaml`` as the engine reads it (the modules' sections are checked and kept in
    ``later`` until their rules are played; the economy's keys not played yet wait in ``economy.rest``)."""

    version: str
    support_divisor: int
    knight_castle_penalty: int
    siege_tower_strength: int
    neutral_garrisons: Mapping[str, int]
    printed_garrisons: Mapping[str, int]  # castle level (city, stronghold) -> garrison
    castles_to_win: int
    final_tiebreak: tuple[str, ...]
    muster_points: Mapping[str, int]  # castle level or area id -> muster points
    moat_cailin: str  # V24: the area that is a castle only against attacks from the south
    moat_cailin_north: frozenset[str]  # V24: the areas whose marches attack it from the north
    docks: tuple[str, ...]
    units: Mapping[str, Mapping[str, int]]  # house -> unit -> pieces ("default": every other house)
    starting_gold: int
    economy: Economy
    iron_bank: Mapping[str, Any]  # loans_at_once, lannister_extra, debt_growth, loan_by_round, collects (agot/ironbank.py)
    rebellion_cards: tuple[str, ...]  # the Westeros cards that bring a rebellion (ours)
    rebellion_strength_at_most: int
    rebellion_die: int
    hostage_rounds: int  # hostages: the rounds a hostage is held at most (summed over its holders)
    iron_throne_bid_factor: int  # hostages: the Iron Throne holder's gold counts this many times in a vote
    mercenaries: "Mercenaries"
    later: Mapping[str, Any]

    def unit_limits(self, house: str) -> dict[str, int]:
        return dict(self.units.get(house, self.units["default"]))

    def printed_garrison(self, castle: str) -> int:
        return self.printed_garrisons.get(castle, 0)

    def muster_value(self, area: str, castle: str) -> int:
        """The muster points printed on ``area``'s shield (castle level ``castle``), without its dock."""
        return self.muster_points.get(area, self.muster_points.get(castle, 0))


TIEBREAKS = ("castles", "muster_points")
LATER: tuple[str, ...] = ()  # every section is played now




@dataclass(frozen=True)
class Company:
    """A sellsword company (ours: the seed's company cards are missing): its sellswords, the auction's
    minimum bid and the wages each mercenary phase."""

    id: str
    sellswords: int
    minimum: int
    wages: int


@dataclass(frozen=True)
class Mercenaries:
    """The ``mercenaries`` section: when the phase starts, the revolt's die and cap, the sellswords'
    strength, the ambush penalty and the companies in auction order."""

    from_round: int
    revolt_at_most: int
    die: int
    strength: int
    ambush_penalty: int
    companies: Mapping[str, Company]


def load_params(version: str) -> Params:
    """The variant's numbers of data ``version`` (loaded once)."""
    return _load(version)


@functools.cache
def _load(version: str) -> Params:
    gd = load_gamedata(version)
    board = gd.board
    r = _Reader(SHAPE, GAMES_DIR / "agot2e-ru" / version / "variant-params.yaml")
    top = r.keys(r.data, "variant-params.yaml", {"format", "battle", "neutral_garrisons", "printed_garrisons",
                                                 "victory", "muster_points", "docks", "units", "economy",
                                                 "iron_bank", "rebellion", "moat_cailin", "hostages", "mercenaries",
                                                 *LATER})
    battle = r.keys(top["battle"], "battle", {"support_divisor", "star_support_before_rounding",
                                              "knight_castle_penalty", "siege_tower_strength"})
    r.need(r.flag(battle["star_support_before_rounding"], "battle.star_support_before_rounding"),
           "battle.star_support_before_rounding: the seed adds the +1 before rounding (true)")

    def area(text: Any, where: str) -> str:
        r.need(text in board and board.is_land(text), f"{where}: {text!r} is no land area of the 2nd-edition map")
        return text

    neutral = {area(a, "neutral_garrisons"): r.integer(n, f"neutral_garrisons.{a}", 1)
               for a, n in r.mapping(top["neutral_garrisons"], "neutral_garrisons").items()}
    economy = r.mapping(top["economy"], "economy")
    r.need("starting_gold" in economy, "economy: starting_gold missing (the seed's 5)")
    mine = {"house_token_price", "free_city_supply_price", "gold_icons", "trade_multiplier", "star_trade_multiplier", "raid_on_trade_share",
            "raid_on_trade_minimum", "muster_prices"}
    r.need(mine <= economy.keys(), f"economy: {', '.join(sorted(mine - economy.keys()))} missing")
    prices = r.numbers(economy["muster_prices"], "economy.muster_prices",
                       {"footman", "knight", "ship", "siege_engine", "upgrade"})
    victory = r.keys(top["victory"], "victory", {"castles", "final_tiebreak"})
    tiebreak = tuple(r.choice(t, "victory.final_tiebreak", TIEBREAKS)
                     for t in r.texts(victory["final_tiebreak"], "victory.final_tiebreak"))
    points = {}
    for key, n in r.mapping(top["muster_points"], "muster_points").items():
        points[key if key in ("city", "stronghold") else area(key, "muster_points")] = \
            r.integer(n, f"muster_points.{key}", 1, 3)
    docks = tuple(area(a, "docks") for a in r.seq(top["docks"], "docks"))
    moat = r.keys(top["moat_cailin"], "moat_cailin", {"area", "north"})
    moat_area = area(moat["area"], "moat_cailin.area")
    r.need(board.area(moat_area).castle != "none", f"moat_cailin.area: {moat_area} has no castle on the 2nd-edition map")
    north = frozenset(area(a, "moat_cailin.north") for a in r.seq(moat["north"], "moat_cailin.north"))
    units = {house: MappingProxyType(r.numbers(limits, f"units.{house}", set(gd.setup.unit_limits)))
             for house, limits in r.keys(top["units"], "units", {"default"}, set(gd.setup.houses)).items()}
    rebel = r.keys(top["rebellion"], "rebellion", {"cards", "strength_at_most", "die"})
    rebel_cards = tuple(r.texts(rebel["cards"], "rebellion.cards"))
    for card in rebel_cards:
        r.need(card in gd.westeros_cards, f"rebellion.cards: {card!r} is no Westeros card of the 2nd edition")
    hostage = r.keys(top["hostages"], "hostages", {"rounds_at_most", "iron_throne_bid_factor"})
    m = r.keys(top["mercenaries"], "mercenaries", {"from_round", "revolt_strength_at_most", "die",
                                                   "sellsword_strength", "ambush_penalty", "companies"})
    companies = {}
    for cid, c in r.mapping(m["companies"], "mercenaries.companies").items():
        c = r.keys(c, f"mercenaries.companies.{cid}", {"sellswords", "minimum", "wages"})
        companies[str(cid)] = Company(str(cid), r.integer(c["sellswords"], f"mercenaries.companies.{cid}.sellswords", 1),
                                      r.integer(c["minimum"], f"mercenaries.companies.{cid}.minimum", 0),
                                      r.integer(c["wages"], f"mercenaries.companies.{cid}.wages", 0))
    mercs = Mercenaries(
        from_round=r.integer(m["from_round"], "mercenaries.from_round", 1),
        revolt_at_most=r.integer(m["revolt_strength_at_most"], "mercenaries.revolt_strength_at_most", 1),
        die=r.integer(m["die"], "mercenaries.die", 1),
        strength=r.integer(m["sellsword_strength"], "mercenaries.sellsword_strength", 0),
        ambush_penalty=r.integer(m["ambush_penalty"], "mercenaries.ambush_penalty", 0),
        companies=MappingProxyType(companies))
    return Params(
        version=version,
        support_divisor=r.integer(battle["support_divisor"], "battle.support_divisor", 1),
        knight_castle_penalty=r.integer(battle["knight_castle_penalty"], "battle.knight_castle_penalty"),
        siege_tower_strength=r.integer(battle["siege_tower_strength"], "battle.siege_tower_strength"),
        neutral_garrisons=MappingProxyType(neutral),
        printed_garrisons=MappingProxyType(r.numbers(top["printed_garrisons"], "printed_garrisons",
                                                     {"city", "stronghold"})),
        castles_to_win=r.integer(victory["castles"], "victory.castles", 1),
        final_tiebreak=tiebreak,
        muster_points=MappingProxyType(points),
        moat_cailin=moat_area,
        moat_cailin_north=north,
        docks=docks,
        units=MappingProxyType(units),
        starting_gold=r.integer(economy["starting_gold"], "economy.starting_gold"),
        economy=Economy(
            gold_icons=r.choice(economy["gold_icons"], "economy.gold_icons", ("crowns",)),
            trade_multiplier=r.integer(economy["trade_multiplier"], "economy.trade_multiplier", 1),
            star_trade_multiplier=r.integer(economy["star_trade_multiplier"], "economy.star_trade_multiplier", 1),
            raid_on_trade_share=r.integer(economy["raid_on_trade_share"], "economy.raid_on_trade_share", 1),
            raid_on_trade_minimum=r.integer(economy["raid_on_trade_minimum"], "economy.raid_on_trade_minimum"),
            muster_prices=MappingProxyType(prices),
            house_token_price=r.integer(economy["house_token_price"], "economy.house_token_price", 0),
            free_city_supply_price=r.integer(economy["free_city_supply_price"], "economy.free_city_supply_price", 0),
            rest=MappingProxyType({k: v for k, v in economy.items() if k not in mine | {"starting_gold"}})),
        iron_bank=_iron_bank(r, top["iron_bank"], gd.setup.rounds),
        rebellion_cards=rebel_cards,
        rebellion_strength_at_most=r.integer(rebel["strength_at_most"], "rebellion.strength_at_most", 0),
        rebellion_die=r.integer(rebel["die"], "rebellion.die", 2),
        hostage_rounds=r.integer(hostage["rounds_at_most"], "hostages.rounds_at_most", 1),
        iron_throne_bid_factor=r.integer(hostage["iron_throne_bid_factor"], "hostages.iron_throne_bid_factor", 1),
        mercenaries=mercs,
        later=MappingProxyType({key: r.mapping(top[key], key) for key in LATER}),
    )


def _iron_bank(r: _Reader, data: Any, rounds: int) -> Mapping[str, Any]:
    """``iron_bank``: the loans (seed: 2 at once, Lannister 2 more, debts +2 a round; ours: a loan's
    size by round, one per round of the game) and the collection (ours: after which rounds, the tokens lost)."""
    bank = r.keys(data, "iron_bank", {"loans_at_once", "lannister_extra", "debt_growth", "loan_by_round", "collects"})
    by_round = tuple(r.integer(n, "iron_bank.loan_by_round", 1) for n in r.seq(bank["loan_by_round"],
                                                                              "iron_bank.loan_by_round"))
    r.need(len(by_round) == rounds, f"iron_bank.loan_by_round: one sum per round ({rounds})")
    collects = r.keys(bank["collects"], "iron_bank.collects", {"after_rounds", "house_tokens_lost"})
    after = tuple(r.integer(n, "iron_bank.collects.after_rounds", 1, rounds)
                  for n in r.seq(collects["after_rounds"], "iron_bank.collects.after_rounds"))
    return MappingProxyType({
        "loans_at_once": r.integer(bank["loans_at_once"], "iron_bank.loans_at_once", 1),
        "lannister_extra": r.integer(bank["lannister_extra"], "iron_bank.lannister_extra"),
        "debt_growth": r.integer(bank["debt_growth"], "iron_bank.debt_growth"),
        "loan_by_round": by_round,
        "collects": MappingProxyType({"after_rounds": after, "house_tokens_lost": r.integer(
            collects["house_tokens_lost"], "iron_bank.collects.house_tokens_lost")}),
    })
