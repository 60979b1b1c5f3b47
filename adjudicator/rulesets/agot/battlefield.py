"""The battle dict and a house's instructions for it: small readers shared by the battle's
sub-steps (``battle.py``: supports, cards, abilities; ``aftermath.py``: casualties, retreat,
conquest, discards). The battle dict's keys are listed in ``battle.py``'s docstring."""

from __future__ import annotations

from ...ruleset import Event
from . import position as pos
from .context import Ctx

STAGES = ("supports", "announce", "cards", "cancel", "repick", "immediately", "redraw", "casualties", "retreat", "ability",
          "after")
"""The battle's sub-steps in order. ``announce`` is the agot2e-ru option ``optional-house-card``'s
(``nocard.py``); ``cancel``, ``repick``, ``immediately`` and ``after`` are the 2nd
edition's questions of abilities by printed timing (agot2e RULES.md R8.5; ``battle.py``), ``redraw`` its
Tides of Battle's redraw (``tides.py``)."""

NO_WORDS = frozenset({"no", "none", "pass", "skip", "-", "nothing", "ne", "nic"})
"""An ``ABILITY <card>: <choice>`` that declines the ability (English and Czech)."""
YES_WORDS = frozenset({"yes", "upgrade", "ano"})
"""An ``ABILITY <card>: <choice>`` that uses an ability whose only choice is yes."""


def opponent(b: dict, house: str) -> str:
    return b["defender"] if house == b["attacker"] else b["attacker"]


def stage_at_or_before(b: dict, stage: str) -> bool:
    return STAGES.index(b["stage"]) <= STAGES.index(stage)


units_list = pos.sort_units
"""Units as a message parameter: a new list in the rulebook's order (rendered "1 footman, 1 knight", or "no
units" when empty, by the catalogues); ``position.sort_units`` itself, without a call around it (a battle
reports some ten lists of units)."""


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
    lines = pos.plan(state, house)[key]
    if not lines:  # (nearly always for some keys: no line to read)
        return None
    if len(lines) == 1:  # (the usual case: the two passes below, for one line)
        command = ctx.command(lines[0])
        where = getattr(command, "battle_area", None)
        return (0, command) if (where == area or where is None) and legal(command) else None
    parsed = [(i, ctx.command(line)) for i, line in enumerate(lines)]
    for want in (area, None):
        for i, command in parsed:
            if getattr(command, "battle_area", None) == want and legal(command):
                return i, command
    return None


def consume_instruction(state: dict, house: str, key: str, index: int) -> None:
    """An instruction that served this battle is gone (PBEM.md: for the house's next battle)."""
    del pos.plan(state, house)[key][index]


def default_card(state: dict, ctx: Ctx, house: str, among: list[str] | None = None) -> str:
    """PBEM.md: the lowest-strength card in hand (``among`` those, 2e Tyrion's opponent), ties by name."""
    return min(state["hands"][house] if among is None else among, key=lambda c: (ctx.gd.card(c).strength, ctx.card(c)))


def card_icons(state: dict, ctx: Ctx, b: dict, house: str) -> tuple[int, int]:
    """(swords, fortifications) of ``house``'s card in this battle: printed, plus its static bonus and its
    Tides of Battle card (2e)."""
    swords = forts = 0
    if b["cards"].get(house) is not None:  # 2e: none left after Tyrion's (agot2e RULES.md R8.5): no icons
        card = ctx.gd.card(b["cards"][house])
        swords, forts = card.swords, card.fortifications
        if card.ability_key is not None:  # (a static bonus is an ability the engine reads: 1e's cards have none)
            _, bonus_swords, bonus_forts = ctx.rules.cards.bonus(state, ctx, b, house)
            swords, forts = swords + bonus_swords, forts + bonus_forts
    tides = (b.get("tides") or {}).get(house)  # 2e option Tides of Battle: its icons add to the card's
    if tides is not None:
        swords += ctx.gd.tides_of_battle[tides].swords
        forts += ctx.gd.tides_of_battle[tides].fortifications
    return swords, forts


def upgrade_footman(state: dict, area: str, house: str) -> None:
    """Renly Baratheon: a fighting footman of ``house`` in ``area`` becomes a knight (the routed marks stay as
    they are: set_units keeps them)."""
    units = pos.units_in(state, area, house)
    units.remove("footman")
    pos.set_units(state, area, house, units + ["knight"])


# -- 2e: a card's choice by mail (agot2e RULES.md R8.5, 11.2) --------------------------------------------------

CHOICE_WORDS = {"use": "USE", "iron_throne": "THRONE", "fiefdoms": "FIEFDOMS", "kings_court": "COURT"}
"""A choice that is neither an area nor a card (Tyrion's, Doran's), as an ABILITY line writes it."""


def choice_text(ctx: Ctx, value: str) -> str:
    """A card's choice (an area, a card, or :data:`CHOICE_WORDS`' values) as an ABILITY line writes it."""
    return ctx.area(value) if value in ctx.gd.board else CHOICE_WORDS.get(value) or ctx.card(value)


def asked_choice(state: dict, ctx: Ctx, house: str) -> str | None:
    """2e: the card whose choice ``house`` is asked for now (Robb Stark's at the retreat stage), or None."""
    b = state.get("battle")
    if not b or not ctx.rules.cards.BY_TIMING:
        return None
    card = b["cards"].get(b["winner"]) if b["stage"] == "retreat" else b.get("asking")
    if card not in ctx.rules.cards.CHOICE_STAGE or ctx.gd.card(card).house != house:
        return None
    return card


def choice_line(state: dict, ctx: Ctx, b: dict, house: str, card: str):
    """2e: ``house``'s usable ``ABILITY <card>: <choice>`` line for this battle now, or None."""
    return find_instruction(state, ctx, house, "abilities", b["area"],
                            lambda c: c.card_id == card and ctx.rules.cards.parse_choice(state, ctx, b, card, c.choice)[1] is None)


def choose(state: dict, ctx: Ctx, b: dict, house: str, card: str, stage: str) -> tuple[list[Event], bool]:
    """2e: the choice of ``house``'s ``card`` at battle stage ``stage``: (events, asked). Nothing to choose:
    no effect. A usable line on file decides; else the question is asked alone (``b['asking']``) the
    first time, and the deadline default (optional: not used; mandatory: B26) applies the second. Each
    choice is made once per combat (FAQ1; ``b['resolved']``)."""
    rules = ctx.rules.cards
    key = f"{stage} {card}"
    resolved = b.setdefault("resolved", [])
    if key in resolved:
        return [], False
    if not rules.choice_options(state, ctx, b, card):
        resolved.append(key)
        return [Event("agot.battle.nothing_to_choose", card=card, house=house)], False
    found = choice_line(state, ctx, b, house, card)
    if found is None and b.get("asking") != card:
        b["stage"], b["asking"] = stage, card
        return [], True
    b.pop("asking", None)
    resolved.append(key)
    if found is not None:
        consume_instruction(state, house, "abilities", found[0])
        value = rules.parse_choice(state, ctx, b, card, found[1].choice)[0]
        if value is None:
            return [Event("agot.ability.unused", house=house, card=card)], False
        return rules.apply_choice(state, ctx, b, card, value), False
    value = rules.default_choice(state, ctx, b, card)
    if value is None:
        return [Event("agot.default.ability", house=house, card=card)], False
    return rules.apply_choice(state, ctx, b, card, value, default=True), False
