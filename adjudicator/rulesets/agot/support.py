"""Supports and unit strength in a combat (CZ p.10-11): which support orders may join a battle, what
each adds (its units, its order's bonus, the cards that change it: Salladhor Saan, Kevan and Victarion,
Rains of Autumn, the variant's half support), and a unit's own strength where it fights. Used by the
battle (``battle.py``) and by a march into a neutral force (``action.py``), which is no battle."""

from __future__ import annotations

from ...messages import Msg
from . import position as pos
from .battlefield import ability_active, find_instruction
from .context import Ctx

RAINS_OF_AUTUMN = "rains-of-autumn"
"""In ``state['restrictions']`` for a round of Rains of Autumn: supporting footmen add nothing (CZ p.13)."""


def supporters(state: dict, ctx: Ctx, area: str) -> list[str]:
    """Adjacent areas with a support order that may join the battle at ``area`` (CZ p.10: adjacent only,
    never through ships; ships support land battles too; land units never support a sea battle), in the
    order of their names."""
    orders = state["orders"]
    return [n for n in ctx.support_sources(area)
            if n in orders and pos.order_kind(state, n) == "support" and pos.order_owner(state, n) is not None]


def support_problem(state: dict, ctx: Ctx, area: str, src: str) -> Msg:
    board = ctx.gd.board
    if not board.adjacent(src, area):
        return Msg("agot.support_no.not_adjacent", src=ctx.area(src), area=ctx.area(area))
    if not board.supports_into(src, area):
        if board.area(src).kind == "port":  # 2e (agot2e RULES.md R6.4)
            return Msg("agot.support_no.port", src=ctx.area(src), sea=ctx.area(board.area(src).sea))
        return Msg("agot.support_no.land_at_sea", area=ctx.area(area))
    return Msg("agot.support_no.no_order", src=ctx.area(src))


def support_line(state: dict, ctx: Ctx, b: dict, house: str, src: str):
    sides = (b["attacker"], b["defender"], None)
    return find_instruction(state, ctx, house, "supports", b["area"],
                 lambda c: c.src == src and c.house in sides)


def support_value(state: dict, ctx: Ctx, b: dict, src: str, helper: str | None = None) -> tuple[int, list[str]]:
    """The strength a declared support adds in this battle: :func:`support_strength`, with ships
    0 when they belong to and support the opponent of an active Salladhor Saan (CZ p.14
    "protivníkových podpůrných lodí": the opponent's own supporting ships). ``helper``: the order's
    owner (``position.order_owner``), when the caller has it already."""
    side = b["supports"][src]
    if helper is None:
        helper = pos.order_owner(state, src)  # (agot2e-ru orders-in-token-areas: the token's house)
    rules = ctx.rules.cards
    attacking = side == b["attacker"]
    no_ships = False
    if helper == side and rules.ZERO_OPPOSING_SUPPORT_SHIPS:  # (ability_active of the opponent, written out)
        other = b["defender"] if attacking else b["attacker"]
        no_ships = b["cards"].get(other) in rules.ZERO_OPPOSING_SUPPORT_SHIPS and other not in b["cancelled"]
    kind = rules.ATTACK_UNIT_BONUS.get(b["cards"].get(side)) if rules.ATTACK_BONUS_SUPPORTERS else None
    doubling = kind and attacking and helper == side and ability_active(b, side, {b["cards"][side]})
    if rules.FOREIGN_SHIPS_ZERO:
        no_ships = no_ships or ships_zero(state, ctx, b, helper, kind if doubling else None)
    value, notes = support_strength(state, ctx, src, b["area"], attacking, no_ships, b["origin"])
    if doubling:
        extra = pos.unrouted(state, src, side).count(kind)
        if extra and "rains" not in notes and (kind != "ship" or "salladhor" not in notes):
            # 2e Kevan, Victarion: supporting units of the kind count double too
            value += extra
            notes = [*notes, "doubled"]
    return (support_share(ctx, value) if ctx.options else value), notes  # (no option, no share to work out)


def support_share(ctx: Ctx, value: int) -> int:
    """What a support's whole strength (its units and the order's bonus) adds: all of it, or with the
    variant's ``half-support`` half of it, rounded down (agot2e-ru RULES.md V1: the starred +1 first)."""
    return value // ctx.params.support_divisor if "half-support" in ctx.options else value  # (ctx.on, without the call)


def ships_zero(state: dict, ctx: Ctx, b: dict, house: str, doubled: str | None) -> bool:
    """2e Salladhor Saan: do ``house``'s ships count 0 in this combat? Against Victarion Greyjoy's doubled
    ships (``doubled == "ship"``) the static effect resolved later in Iron Throne order prevails (B20):
    Victarion after Salladhor, the ships count 2."""
    sole = _only_own_ships(ctx, b)
    if sole in (None, house):
        return False
    track = state["tracks"]["iron_throne"]
    return not (doubled == "ship" and track.index(house) > track.index(sole))


def _only_own_ships(ctx: Ctx, b: dict) -> str | None:
    """2e Salladhor Saan: when any house supports his owner, every other house's ship in the combat
    counts 0, on either side (agot2e RULES.md R8.5); that owner, else None."""
    if not ctx.rules.cards.FOREIGN_SHIPS_ZERO:  # 1e: no such card (asked at every strength and support)
        return None
    for house in (b["attacker"], b["defender"]):
        if ability_active(b, house, ctx.rules.cards.FOREIGN_SHIPS_ZERO) and house in b["supports"].values():
            return house
    return None


def castle_in_combat(ctx: Ctx, area: str, origin: str | None) -> bool:
    """Whether a combat in ``area`` attacked from ``origin`` (the march's area; None: no attack known) is
    fought at a castle: the board's castle icon, except that with the variant's ``moat-cailin`` Moat
    Cailin attacked from the north is an ordinary area (agot2e-ru RULES.md V24; variant-params
    ``moat_cailin``: the area and the origins that are north of it)."""
    if ctx.gd.board.area(area).castle == "none":
        return False
    return not (ctx.on("moat-cailin") and area == ctx.params.moat_cailin and origin in ctx.params.moat_cailin_north)


def unit_value(ctx: Ctx, unit: str, area: str, attacking: bool, origin: str | None = None) -> int:
    """A unit's strength in a combat in ``area`` (attacked from ``origin``): the data's, except that a siege
    engine (2e, ``units.strength_only_against_castles``) counts only when attacking, or supporting an attack
    on, an area with a castle (agot2e RULES.md R2.2, R7.1). The variant's options (agot2e-ru RULES.md V2, V3,
    V24): ``siege-towers`` count 2 there, ``knights-in-castles`` count 1 less in an area with a castle,
    ``moat-cailin`` attacked from the north is none (:func:`castle_in_combat`)."""
    key = (unit, area, attacking, origin)
    try:
        return ctx.unit_values[key]  # worked out once per context (a combat asks it for every unit, every time)
    except KeyError:
        pass
    if unit == "sellsword":  # agot2e-ru mercenaries (RULES.md V19)
        value = ctx.params.mercenaries.strength
    elif unit in ctx.gd.setup.castle_only_units:
        if not (attacking and castle_in_combat(ctx, area, origin)):
            value = 0
        else:
            value = ctx.params.siege_tower_strength if ctx.on("siege-towers") else ctx.gd.setup.unit_strength[unit]
    elif unit == "knight" and ctx.on("knights-in-castles") and castle_in_combat(ctx, area, origin):
        value = ctx.gd.setup.unit_strength[unit] - ctx.params.knight_castle_penalty
    else:
        value = ctx.gd.setup.unit_strength[unit]
    ctx.unit_values[key] = value
    return value


def support_strength(state: dict, ctx: Ctx, src: str, area: str, attacking: bool,
                     no_ships: bool = False, origin: str | None = None) -> tuple[int, list[str]]:
    """What the support order in ``src`` adds to a combat in ``area`` (CZ p.10): its units + the
    order's bonus; ``attacking``: it supports the attacker. Routed units count 0 (CZ p.11); footmen 0
    under Rains of Autumn (CZ p.13). Also used for a march into a neutral force (action.py), which is
    no battle but takes supports all the same."""
    restrictions = state.get("restrictions")
    rains = bool(restrictions) and RAINS_OF_AUTUMN in restrictions
    notes = []
    total = pos.order_bonus(state, src)
    values = ctx.unit_values
    for unit in pos.unrouted(state, src):  # in the rulebook's order: each note once, footmen's first
        if unit == "footman" and rains:
            if "rains" not in notes:
                notes.append("rains")
        elif unit == "ship" and no_ships:
            if "salladhor" not in notes:
                notes.append("salladhor")
        else:
            try:
                total += values[(unit, area, attacking, origin)]
            except KeyError:
                total += unit_value(ctx, unit, area, attacking, origin)
    return total, notes  # why parts count 0: "rains" (Rains of Autumn), "salladhor" (Salladhor Saan)
