"""A seeded random player: for whatever a house owes, a random legal decision as mail text.

Bots write the mail grammar (so every game they play exercises the parser) and pick among
candidates the engine itself accepts; they are for property tests and self-play, not for
strength. ``rng`` is a ``random.Random`` owned by the caller: same seed, same game.
"""

from __future__ import annotations

import random
from collections import Counter

from . import action
from . import position as pos
from .context import Ctx


def mail_for(state: dict, ctx: Ctx, house: str, rng: random.Random) -> str | None:
    """A mail answering what ``house`` owes now, or None if it has nothing to say."""
    step = state["step"]
    if step == "orders":
        return orders_mail(state, ctx, house, rng)
    if step == "raven":
        return "RAVEN PASS"
    if step == "raid":
        return _pick(rng, raid_candidates(state, ctx, house))
    if step == "march":
        return _pick(rng, march_candidates(state, ctx, house, rng))
    if step == "battle":
        return battle_mail(state, ctx, house, rng)
    return None


def _pick(rng: random.Random, options: list[str]) -> str | None:
    return rng.choice(options) if options else None


def orders_mail(state: dict, ctx: Ctx, house: str, rng: random.Random) -> str:
    """Random orders on a random subset of the house's areas, within tokens and stars."""
    tokens = [t for t in ctx.gd.setup.order_tokens for _ in range(t.count)
              if t.kind not in state["restrictions"] and t.text not in state["restrictions"]]
    stars = pos.star_limit(state, ctx.gd, house)
    lines = ["ORDERS"]
    areas = sorted(a for a in state["areas"] if pos.owner(state, a) == house)
    rng.shuffle(areas)
    for area in areas:
        if rng.random() < 0.15:
            continue  # not every area must get an order
        usable = [t for t in tokens if (t.kind != "consolidate" or ctx.gd.board.is_land(area)) and (not t.star or stars > 0)]
        if not usable:
            continue
        token = rng.choice(usable)
        tokens.remove(token)
        stars -= token.star
        lines.append(f"{ctx.area(area)}: {token.text}")
    return "\n".join(lines)


def raid_candidates(state: dict, ctx: Ctx, house: str) -> list[str]:
    out = []
    for src in pos.orders_of(state, house, "raid"):
        targets = action.raid_targets(state, ctx, src)
        out.append(f"RAID {ctx.area(src)} -> NONE")
        out += [f"RAID {ctx.area(src)} -> {ctx.area(t)}" for t in targets]
    return out


def march_candidates(state: dict, ctx: Ctx, house: str, rng: random.Random) -> list[str]:
    """A handful of random marches per march order, kept only if the engine finds them legal."""
    out = []
    for src in pos.orders_of(state, house, "march"):
        free = list((Counter(pos.units_in(state, src, house)) - Counter(pos.routed_in(state, src))).elements())
        dests = sorted(action.reachable(state, ctx, house, src))
        out.append(f"MARCH {ctx.area(src)} -> NONE")
        for _ in range(6):
            if not free or not dests:
                break
            units = rng.sample(free, rng.randint(1, len(free)))
            dest = rng.choice(dests)
            leave = " LEAVE POWER" if rng.random() < 0.3 else ""
            line = f"MARCH {ctx.area(src)} -> {ctx.area(dest)}: {', '.join(units)}{leave}"
            command = ctx.command(line)
            if action.check_march(state, ctx, house, command) is None:
                out.append(line)
    return out


def battle_mail(state: dict, ctx: Ctx, house: str, rng: random.Random) -> str | None:
    """Every battle instruction this house could give, one random legal choice per kind."""
    from . import battle

    fight = state["battle"]
    area = fight["area"]
    lines = []
    for src in pos.orders_of(state, house, "support"):
        if ctx.gd.board.adjacent(src, area):
            side = rng.choice([fight["attacker"], fight["defender"], None])
            lines.append(f"SUPPORT {ctx.area(src)} -> {ctx.house(side) if side else 'NONE'} IN {ctx.area(area)}")
    if house in (fight["attacker"], fight["defender"]):
        hand = state["hands"][house]
        if hand:
            lines.append(f"CARD {ctx.card(rng.choice(hand))} IN {ctx.area(area)}")
        near = sorted(set(ctx.gd.board.neighbours(area)) | action.reachable(state, ctx, house, area)) if ctx.gd.board.is_land(area) \
            else list(ctx.gd.board.neighbours(area))
        rng.shuffle(near)
        for dest in near[:4]:
            lines.append(f"RETREAT {ctx.area(dest)} FROM {ctx.area(area)}")
    legal = [line for line in lines if battle.check_instruction(state, ctx, house, ctx.command(line)) is None]
    return "\n".join(legal) or None
