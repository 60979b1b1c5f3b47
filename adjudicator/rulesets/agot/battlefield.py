"""The battle dict and a house's instructions for it: small readers shared by the battle's
sub-steps (``battle.py``: supports, cards, abilities; ``aftermath.py``: casualties, retreat,
conquest, discards). The battle dict's keys are listed in ``battle.py``'s docstring."""

from __future__ import annotations

from . import position as pos
from .context import Ctx

STAGES = ("supports", "cards", "casualties", "retreat", "ability")

NO_WORDS = frozenset({"no", "none", "pass", "skip", "-", "nothing", "ne", "nic"})
"""An ``ABILITY <card>: <choice>`` that declines the ability (English and Czech)."""
YES_WORDS = frozenset({"yes", "upgrade", "ano"})
"""An ``ABILITY <card>: <choice>`` that uses an ability whose only choice is yes."""


def opponent(b: dict, house: str) -> str:
    return b["defender"] if house == b["attacker"] else b["attacker"]


def stage_at_or_before(b: dict, stage: str) -> bool:
    return STAGES.index(b["stage"]) <= STAGES.index(stage)


def units_list(units) -> list[str]:
    """Units as a message parameter: a list in the rulebook's order (rendered "1 footman, 1 knight",
    or "no units" when empty, by the catalogues)."""
    return list(pos.sort_units(units))


def fighting_units(state: dict, b: dict, house: str) -> list[str]:
    """The units of ``house`` that fight (attacking; defending and not routed)."""
    if house == b["attacker"]:
        return list(b["units"])
    return pos.unrouted(state, b["area"], house)


def has_units(state: dict, b: dict, house: str) -> bool:
    """Whether ``house``'s side still fights: its units, or the defender's garrison (2e, B14)."""
    if house == b["attacker"]:
        return bool(b["units"])
    return bool(pos.units_in(state, b["area"], house)) or bool((state.get("garrisons") or {}).get(b["area"]))


def ability_active(b: dict, house: str, ids) -> bool:
    """``house`` played a card of ``ids`` whose ability is not cancelled."""
    return b["cards"].get(house) in ids and house not in b["cancelled"]




def find_instruction(state: dict, ctx: Ctx, house: str, key: str, area: str, legal) -> tuple[int, object] | None:
    """The instruction of ``plan[key]`` to use: a legal line for this battle area (``IN``) beats a
    general one; within each, the first legal line in the order written."""
    parsed = [(i, ctx.command(line)) for i, line in enumerate(pos.plan(state, house)[key])]
    for want in (area, None):
        for i, command in parsed:
            if getattr(command, "battle_area", None) == want and legal(command):
                return i, command
    return None


def consume_instruction(state: dict, house: str, key: str, index: int) -> None:
    """An instruction that served this battle is gone (PBEM.md: for the house's next battle)."""
    del pos.plan(state, house)[key][index]


def default_card(state: dict, ctx: Ctx, house: str) -> str:
    """PBEM.md: the lowest-strength card in hand, ties by name."""
    return min(state["hands"][house], key=lambda c: (ctx.gd.card(c).strength, ctx.card(c)))


def card_icons(state: dict, ctx: Ctx, b: dict, house: str) -> tuple[int, int]:
    """(swords, fortifications) of ``house``'s card in this battle: printed, plus its static bonus and its
    Tides of Battle card (2e)."""
    card = ctx.gd.card(b["cards"][house])
    _, swords, forts = ctx.rules.cards.bonus(state, ctx, b, house)
    tides = (b.get("tides") or {}).get(house)  # 2e option Tides of Battle: its icons add to the card's
    if tides is not None:
        swords += ctx.gd.tides_of_battle[tides].swords
        forts += ctx.gd.tides_of_battle[tides].fortifications
    return card.swords + swords, card.fortifications + forts
