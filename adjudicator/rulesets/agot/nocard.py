"""The agot2e-ru option ``optional-house-card`` (RULES.md V23): a house may fight without a house card,
but says so before the cards are chosen, the defender first ("первым о решении сообщает обороняющийся
игрок"), so that the attacker knows the defender's word before giving its own.

A battle sub-step of ``battle.py``, stage ``announce``, between the supports and the cards: asked of
the defender, then of the attacker (``b['announcing']``). A ``CARD NONE`` line for the battle (sent
ahead or as the answer) announces no card; a CARD line naming a card in hand announces that a card is
played (which one stays secret until the cards are revealed); the first usable line of either kind
decides, as for the cards (``battlefield.find_instruction``). Nothing on file at the deadline: a card
is played. Houses that announced no card are ``b['no_card']``; their ``b['cards']`` entry is None, the
engine's "fights without a card" (also 2e Tyrion's, R8.5): strength, swords and fortifications 0, no
ability, hand and discards untouched.
"""

from __future__ import annotations

from ...messages import Msg
from ...ruleset import Event, Owed
from .battlefield import consume_instruction, find_instruction, opponent
from .context import Ctx

OPTION = "optional-house-card"
STAGE = "announce"


def begin(ctx: Ctx, b: dict) -> None:
    """After the supports: the announcements when the option is on, else straight to the cards."""
    if ctx.on(OPTION):
        b.update(stage=STAGE, announcing=b["defender"], no_card=[])
    else:
        b["stage"] = "cards"


def announcement_line(state: dict, ctx: Ctx, b: dict, house: str):
    """``house``'s first CARD line usable for this battle (``CARD NONE`` or a card in hand), or None."""
    hand = state["hands"][house]
    return find_instruction(state, ctx, house, "cards", b["area"], lambda c: c.card_id is None or c.card_id in hand)


def pending(state: dict, ctx: Ctx, b: dict) -> list[Owed]:
    house = b["announcing"]
    said = None if house == b["defender"] else ("none" if b["defender"] in b["no_card"] else "card")
    return [Owed(house, Msg("agot.owed.no_card", area=ctx.area(b["area"]), opponent=opponent(b, house), said=said),
                 "step", announcement_line(state, ctx, b, house) is not None)]


def resolve(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """The announcing house's word (its line on file, else the default: a card is played), public; then
    the attacker's turn, or the cards."""
    house = b["announcing"]
    found = announcement_line(state, ctx, b, house)
    if found is None:
        events = [Event("agot.default.plays_card", house=house)]
    elif found[1].card_id is None:
        consume_instruction(state, house, "cards", found[0])
        b["no_card"].append(house)
        events = [Event("agot.battle.no_card", house=house, area=ctx.area(b["area"]))]
    else:
        events = [Event("agot.battle.card_coming", house=house)]
    if house == b["defender"]:
        b["announcing"] = b["attacker"]
    else:
        del b["announcing"]
        b["stage"] = "cards"
    return events


def check(ctx: Ctx, b: dict, house: str, here: bool) -> Msg | None:
    """What is wrong with a ``CARD NONE`` line for the current battle (None: fine, or for a later battle)."""
    if house not in (b["attacker"], b["defender"]):
        return Msg("agot.error.not_fighting", area=ctx.area(b["area"])) if here else None
    stages = ("supports", STAGE)
    if b["stage"] not in stages or b["stage"] == STAGE and b["announcing"] != house and house == b["defender"]:
        return Msg("agot.error.no_card_too_late", area=ctx.area(b["area"])) if here else None
    return None
