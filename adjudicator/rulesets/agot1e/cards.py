"""The special abilities of the 15 House cards that have one (CZ p.14), for the shared battle (``rulesets/agot/battle.py``, as ``ctx.rules.cards``).

The abilities fall into a few kinds, kept here as data so that the battle reads them by kind:

* strength changes, resolved as soon as both cards are revealed (CZ p.11: "after both cards are
  shown, first resolve any special ability, then each player adds his card's strength"): Robb
  Stark, Vargo Hoat, Victarion Greyjoy (attacking units of one kind +1 each), Catelyn Stark
  (defense order doubled), Balon Greyjoy (the opposing card counts 0), Salladhor Saan (the
  opponent's own supporting ships count 0: CZ p.14 "protivníkových podpůrných lodí");
* immediate effects on the board, at the same moment: Ser Loras Tyrell (kills an opposing
  attacking or defending footman), Brienne of Tarth (discards the opposing defense order in the
  battle area), Queen of Thorns (cancels the opposing card's ability);
* "if you win" effects, after the casualties and the retreat (RULES.md R8.10, A17): Ser Jaime
  Lannister (2 power, no choice) and the five that ask the winner a choice (:data:`WIN_CHOICE`):
  Maester Luwin, Melisandre of Asshai, Renly Baratheon, Cersei Lannister, Asha Greyjoy.

The choice of an ``ABILITY <card>: <choice>`` line is free text (see commands.Ability); it is
read here: a card (Luwin: one of the winner's discards; Melisandre: one in the loser's hand), an
area (Cersei: one holding a loser's order; Asha: an adjacent area with a support or consolidate
order; Renly: the battle area, or "yes"), or "no" (the ability is not used).
"""

from __future__ import annotations

from collections import Counter

from ...messages import Msg
from ...ruleset import Event
from ..agot import cardeffects
from ..agot import position as pos
from ..agot.battlefield import NO_WORDS, YES_WORDS, upgrade_footman
from ..agot.board import UnknownName
from ..agot.context import Ctx

# -- the ability table ------------------------------------------------------------------------------

ATTACK_UNIT_BONUS = {"robb-stark": "knight", "vargo-hoat": "footman", "victarion-greyjoy": "ship"}
"""card -> the kind of unit that adds +1 more when attacking (CZ p.14: +3 / +2 / +2 instead of +2 / +1 / +1)."""

DEFENSE_DOUBLED = frozenset({"catelyn-stark"})
KILL_FOOTMAN = frozenset({"loras-tyrell"})
DISCARD_DEFENSE = frozenset({"brienne-of-tarth"})
ZERO_OPPOSING_SUPPORT_SHIPS = frozenset({"salladhor-saan"})
ZERO_OPPOSING_CARD = frozenset({"balon-greyjoy"})
CANCEL_OPPOSING_ABILITY = frozenset({"queen-of-thorns"})
WIN_POWER = {"jaime-lannister": 2}
WIN_CHOICE = ("maester-luwin", "melisandre", "renly-baratheon", "cersei-lannister", "asha-greyjoy")

ATTACK_BONUS_SUPPORTERS = False  # the bonus counts the attacking units in the battle area only
NO_CASUALTIES: frozenset[str] = frozenset()  # no 1st-edition card prevents casualties
RECLAIM_ON_LOSS: frozenset[str] = frozenset()  # nor takes the discards back on a loss
FOREIGN_SHIPS_ZERO: frozenset[str] = frozenset()  # (Salladhor's 1e ability is ZERO_OPPOSING_SUPPORT_SHIPS)
ATTACKERS_STAY_OUT: frozenset[str] = frozenset()  # no card keeps a winning attacker out
RETREAT_CHOICE: frozenset[str] = frozenset()  # nor lets the winner choose the loser's retreat
BY_TIMING = False  # abilities resolve in RULES.md A17's fixed order, not by a printed timing (2e)
LAST_CARD_DISCARDED = False  # R8.11: the seventh card stays in hand and the six discards come back

ALL_ABILITIES = frozenset(
    set(ATTACK_UNIT_BONUS) | DEFENSE_DOUBLED | KILL_FOOTMAN | DISCARD_DEFENSE | ZERO_OPPOSING_SUPPORT_SHIPS
    | ZERO_OPPOSING_CARD | CANCEL_OPPOSING_ABILITY | set(WIN_POWER) | set(WIN_CHOICE))
"""Every card with an ability (the game data's cards with ``ability`` must be exactly these)."""

# What the winner chooses with each of WIN_CHOICE: the catalogues' names.card_choice (templates/*/agot/).


def _word(text: str) -> str:
    return " ".join(text.split()).casefold()


# -- the win choices ---------------------------------------------------------------------------------


def renly_footmen(state: dict, b: dict, house: str) -> int:
    """Surviving footmen of the winner that fought in this battle: after the retreat and the conquest
    they stand in the battle area, attacker or defender (routed ones did not fight)."""
    fighting = Counter(pos.units_in(state, b["area"], house)) - Counter(pos.routed_in(state, b["area"]))
    return fighting["footman"]


def knights_in_play(state: dict, b: dict, house: str) -> int:
    return pos.house_units(state, house)["knight"]


def choice_options(state: dict, ctx: Ctx, b: dict, card_id: str) -> list[str]:
    """What the winner may choose with ``card_id`` now (card ids or area ids); [] = nothing to choose."""
    winner, loser, area = b["winner"], b["loser"], b["area"]
    if card_id == "maester-luwin":
        return sorted(state["discards"][winner], key=ctx.card)
    if card_id == "melisandre":
        return sorted(state["hands"][loser], key=ctx.card) if state["power"][winner] >= 1 else []
    if card_id == "renly-baratheon":
        ok = renly_footmen(state, b, winner) and knights_in_play(state, b, winner) < ctx.gd.setup.unit_limits["knight"]
        return [area] if ok else []
    if card_id == "cersei-lannister":
        return sorted(pos.orders_of(state, loser), key=ctx.area)
    if card_id == "asha-greyjoy":
        return sorted((n for n in ctx.gd.board.neighbours(area)
                       if pos.order_kind(state, n) in ("support", "consolidate")), key=ctx.area)
    raise ValueError(f"{card_id} has no ability with a choice")


def parse_choice(state: dict, ctx: Ctx, b: dict, card_id: str, text: str) -> tuple[str | None, Msg | None]:
    """(value, error) for the winner's choice: value None and no error means "not used"."""
    if _word(text) in NO_WORDS:
        return None, None
    winner, loser = b["winner"], b["loser"]
    options = choice_options(state, ctx, b, card_id)
    try:
        if card_id == "maester-luwin":
            value = ctx.gd.resolve_card(text, winner).id
            if value not in options:
                return None, Msg("agot.error.not_discarded", card=value)
        elif card_id == "melisandre":
            if state["power"][winner] < 1:
                return None, Msg("agot.error.melisandre_power")
            value = ctx.gd.resolve_card(text, loser).id
            if value not in options:
                return None, Msg("agot.error.not_in_hand_of", card=value, house=loser)
        elif card_id == "renly-baratheon":
            value = b["area"] if _word(text) in YES_WORDS else ctx.gd.board.resolve(text)
            if value != b["area"]:
                return None, Msg("agot.error.renly_area", area=ctx.area(b["area"]), other=ctx.area(value))
            if not options:
                if not renly_footmen(state, b, winner):
                    return None, Msg("agot.error.renly_no_footman", area=ctx.area(b["area"]))
                return None, Msg("agot.error.renly_no_knight")
        else:
            value = ctx.gd.board.resolve(text)
            if value not in options:
                if card_id == "cersei-lannister":
                    return None, Msg("agot.error.cersei_no_order", house=loser, area=ctx.area(value))
                return None, Msg("agot.error.asha_no_order", area=ctx.area(value), battle=ctx.area(b["area"]))
    except UnknownName as exc:
        return None, exc.msg
    return value, None


def apply_choice(state: dict, ctx: Ctx, b: dict, card_id: str, value: str) -> list[Event]:
    """Carry out a legal choice (see :func:`parse_choice`)."""
    winner, loser = b["winner"], b["loser"]
    if card_id == "maester-luwin":
        state["discards"][winner].remove(value)
        state["hands"][winner].append(value)
        return [Event("agot.ability.luwin", card=card_id, house=winner, taken=value)]
    if card_id == "melisandre":
        state["power"][winner] -= 1
        state["hands"][loser].remove(value)
        state["discards"][loser].append(value)
        return [Event("agot.ability.melisandre", card=card_id, house=winner, loser=loser, discarded=value)]
    if card_id == "renly-baratheon":
        upgrade_footman(state, b["area"], winner)
        return [Event("agot.ability.renly", card=card_id, house=winner, area=ctx.area(b["area"]))]
    if card_id in ("cersei-lannister", "asha-greyjoy"):
        return [cardeffects.removes_order(state, ctx, card_id, winner, value)]
    raise ValueError(f"{card_id} has no ability with a choice")


def bonus(state: dict, ctx: Ctx, b: dict, house: str) -> tuple[int, int, int]:
    """(strength, swords, fortifications) a card adds to itself: no 1st-edition card does (its strength
    changes are the tables above)."""
    return 0, 0, 0
