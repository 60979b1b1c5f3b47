"""A seeded random player: for whatever a house owes, a random legal decision as mail text.

Bots write the mail grammar (so every game they play exercises the parser) and pick among
candidates the engine itself accepts; they are for property tests and self-play, not for
strength. ``rng`` is a ``random.Random`` owned by the caller: same seed, same game.
"""

from __future__ import annotations

import random

from . import action, bidding, consolidate, gold, ironbank, transactions, variantsteps, westeros
from . import position as pos
from .battlefield import asked_choice, choice_text
from .commands import UNIT_SINGULARS, BuySupply, BuyToken, Consolidate, Give, Loan, Muster, MusterItem, Port
from .context import Ctx

WESTEROS_STEPS = ("supply", "muster", "bid", "tiebreak", "wildlings", "losses", "reclaim", "outcome", "choose")


def mail_for(state: dict, ctx: Ctx, house: str, rng: random.Random) -> str | None:
    """A mail answering what ``house`` owes now, or None if it has nothing to say; with gold (agot2e-ru)
    now and then a transaction first."""
    mail = _answer(state, ctx, house, rng)
    if mail is None or not gold.in_play(state) or state["step"] not in ("orders", "march") or rng.random() > 0.3:
        return mail
    deal = transaction_line(state, ctx, house, rng)
    return mail if deal is None else f"{deal}\n{mail}"


def transaction_line(state: dict, ctx: Ctx, house: str, rng: random.Random) -> str | None:
    """agot2e-ru: one legal transaction at random (a loan, a repayment, a small gift, a house token, supply),
    keeping 5 gold in the purse for what the economy's steps ask; None when none fits."""
    purse = gold.held(state, house)
    board = ctx.gd.board
    options = [Loan(rng.randint(1, ironbank.loan_limit(state, ctx, house)))]
    if state["debts"][house] and purse > 5:
        options.append(Loan(min(state["debts"][house], purse - 5), repay=True))
    if purse > 5:
        options.append(Give(rng.choice([h for h in state["houses"] if h != house]), 1))
        options += [BuyToken(a) for a in board.land_areas if pos.owner(state, a) == house and a not in state["control"]
                    and board.area(a).home_of != house][:3]
    if purse > 8:
        options.append(BuySupply())
    legal = [c for c in options if transactions.problem_of(state, ctx, house, c) is None]
    return rng.choice(legal).canonical(ctx.names) if legal else None


def _answer(state: dict, ctx: Ctx, house: str, rng: random.Random) -> str | None:
    step = state["step"]
    if state.get("port_takeover"):  # 2e (takeover.py)
        return port_mail(state, ctx, house, rng)
    if state["phase"] == "westeros" and step in WESTEROS_STEPS:
        return westeros_mail(state, ctx, house, rng)
    if (extra := variantsteps.module(ctx, step)) is not None:  # agot2e-ru: a variant step's own bot
        answer = getattr(extra, "bot_mail", None)  # (a step that never owes anything has none)
        return answer(state, ctx, house, rng) if answer else None
    if step == "orders":
        return orders_mail(state, ctx, house, rng)
    if step == "raven":  # 2e: sometimes the raven looks at the top wildling card, and buries it or not
        return rng.choice(["RAVEN PASS", "RAVEN LOOK", "RAVEN LOOK\nRAVEN BOTTOM"]) if ctx.gd.wildling_cards \
            else "RAVEN PASS"
    if step == "raven_card":
        return rng.choice(["RAVEN TOP", "RAVEN BOTTOM"])
    if step == "raid":
        return _pick(rng, raid_candidates(state, ctx, house))
    if step == "march":
        return _pick(rng, march_candidates(state, ctx, house, rng))
    if step == "battle":
        return battle_mail(state, ctx, house, rng)
    if step == "consolidate":  # 2e (consolidate.py)
        return consolidate_mail(state, ctx, house, rng)
    return None


def port_mail(state: dict, ctx: Ctx, house: str, rng: random.Random) -> str | None:
    """2e: how many of a taken port's ships to replace, at random."""
    t = state["port_takeover"][0]
    if t["house"] != house:
        return None
    most = pos.port_to_take(state, ctx.gd, house, t["castle"])[2]
    return Port(ctx.gd.board.port(t["castle"]), rng.choice([None, rng.randint(0, most)])).canonical(ctx.names)


def consolidate_mail(state: dict, ctx: Ctx, house: str, rng: random.Random) -> str | None:
    """2e: a starred Consolidate Power's Power, or one random legal muster item there."""
    area = consolidate.asked(state, ctx, house)
    if area is None:
        return None
    options = [m for m in westeros.muster_options(state, ctx, house) if m.area == area]
    pick = rng.choice([None, *options])
    return Consolidate(area, pick.items if pick else None).canonical(ctx.names)


def _pick(rng: random.Random, options: list[str]) -> str | None:
    return rng.choice(options) if options else None


def orders_mail(state: dict, ctx: Ctx, house: str, rng: random.Random) -> str:
    """Random orders on a random subset of the house's areas, within tokens and stars."""
    tokens = [t for t in ctx.gd.setup.order_tokens for _ in range(t.count)
              if t.kind not in state["restrictions"] and t.text not in state["restrictions"]]
    stars = pos.star_limit(state, ctx.gd, house)
    lines = ["ORDERS"]
    areas = sorted(a for a in state["areas"] if pos.owner(state, a) == house)
    if ctx.on("orders-in-token-areas"):  # agot2e-ru: now and then an order on a power token alone (no raid)
        areas += sorted(a for a, h in state["control"].items() if h == house and not pos.owner(state, a) and rng.random() < 0.5)
    rng.shuffle(areas)
    for area in areas:
        if rng.random() < 0.15 and not ctx.rules.orders.orders_everywhere:
            continue  # not every area must get an order (1e A2; 2e: every area, B8)
        bare = not pos.owner(state, area)
        usable = [t for t in tokens if (t.kind != "consolidate" or ctx.gd.board.is_land(area)
                                        or ctx.rules.orders.consolidate_on_water) and (not t.star or stars > 0)
                  and not (bare and t.kind == "raid")]
        if not usable:
            continue
        marches = [t for t in usable if t.kind == "march"]
        token = rng.choice(marches if marches and rng.random() < 0.5 else usable)  # bots that fight find more bugs
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
        free = pos.unrouted(state, src, house)
        dests = sorted(action.reachable(state, ctx, house, src))
        out.append(f"MARCH {ctx.area(src)} -> NONE")
        for _ in range(6):
            if not free or not dests:
                break
            units = rng.sample(free, rng.randint(1, len(free)))
            dest = rng.choice(dests)
            leave = " LEAVE POWER" if rng.random() < 0.3 else ""
            line = f"MARCH {ctx.area(src)} -> {ctx.area(dest)}: {', '.join(UNIT_SINGULARS[u] for u in units)}{leave}"
            command = ctx.command(line)
            if action.check_march(state, ctx, house, command) is None:
                attack = pos.owner(state, dest) not in (None, house) or dest in state["neutral"]
                out += [line] * (4 if attack else 1)  # attacks weigh more: battles are where the rules are
        if ctx.on("multi-battle-march") and len(free) >= 2 and len(dests) >= 2:  # agot2e-ru: two moves, maybe two battles
            enemies = [d for d in dests if pos.owner(state, d) not in (None, house)]
            first, second = rng.sample(enemies if len(enemies) >= 2 else dests, 2)
            units = rng.sample(free, len(free))
            cut = rng.randint(1, len(units) - 1)
            line = f"MARCH {ctx.area(src)} -> {ctx.area(first)}: {', '.join(UNIT_SINGULARS[u] for u in units[:cut])}; " \
                   f"{ctx.area(second)}: {', '.join(UNIT_SINGULARS[u] for u in units[cut:])}"
            if action.check_march(state, ctx, house, ctx.command(line)) is None:
                out += [line] * 4
    return out


def battle_mail(state: dict, ctx: Ctx, house: str, rng: random.Random) -> str | None:
    """Every battle instruction this house could give, one random legal choice per kind."""
    from . import battle

    fight = state["battle"]
    area = fight["area"]
    if fight["stage"] == "redraw":  # 2e Tides of Battle: only the Blade's holder is asked (tides.py)
        return rng.choice(["BLADE REDRAW", "BLADE KEEP"])
    lines = []
    for src in pos.orders_of(state, house, "support"):
        if ctx.gd.board.adjacent(src, area):
            side = rng.choice([fight["attacker"], fight["defender"], None])
            lines.append(f"SUPPORT {ctx.area(src)} -> {ctx.house(side) if side else 'NONE'} IN {ctx.area(area)}")
    if house in (fight["attacker"], fight["defender"]):
        hand = state["hands"][house]
        if ctx.on("optional-house-card") and rng.random() < 0.2:  # agot2e-ru: now and then no card (nocard.py)
            lines.append(f"CARD NONE IN {ctx.area(area)}")
        elif hand:
            lines.append(f"CARD {ctx.card(rng.choice(hand))} IN {ctx.area(area)}")
        near = sorted(set(ctx.gd.board.neighbours(area)) | action.reachable(state, ctx, house, area)) if ctx.gd.board.is_land(area) \
            else list(ctx.gd.board.neighbours(area))
        rng.shuffle(near)
        for dest in near[:4]:
            lines.append(f"RETREAT {ctx.area(dest)} FROM {ctx.area(area)}")
    lines += _ability_lines(state, ctx, house, rng)
    legal = [line for line in lines if battle.check_instruction(state, ctx, house, ctx.command(line)) is None]
    return "\n".join(legal) or None


def _ability_lines(state: dict, ctx: Ctx, house: str, rng: random.Random) -> list[str]:
    """2e: a random answer (an option or NONE) to the ABILITY question this house owes, if any."""
    fight = state["battle"]
    card = asked_choice(state, ctx, house)
    if card is None:
        return []
    shown = [choice_text(ctx, o) for o in ctx.rules.cards.choice_options(state, ctx, fight, card)]
    return [f"ABILITY {ctx.card(card)}: {rng.choice(shown + ['NONE'])}"]


# -- the Westeros phase ------------------------------------------------------------------------------


def westeros_mail(state: dict, ctx: Ctx, house: str, rng: random.Random) -> str | None:
    """A random legal answer to the Westeros question ``house`` owes."""
    step, w = state["step"], state["westeros"]
    if step == "supply":
        return _removes(ctx, bidding.default_supply_cut(state, ctx, house, rng))
    if step == "losses":
        return _removes(ctx, bidding.default_losses(state, ctx, house, w["losses"][house], rng))
    if step in ("bid", "wildlings"):
        power = bidding.purse(state)[house]
        if step == "bid" and w["track"] == bidding.TRACKS[0] and rng.random() < 0.3:
            bids = []
            for _ in range(3):  # each bid is paid before the next: together at most the power
                bids.append(_bid(rng, power - sum(bids)))
            return "BID THRONE {} FIEFDOMS {} COURT {}".format(*bids)
        return f"BID {_bid(rng, power)}"
    if step == "tiebreak":
        lines = []
        for group in w["tie"]["groups"]:
            group = list(group)
            rng.shuffle(group)
            lines.append("TIEBREAK " + ", ".join(ctx.house(h) for h in group))
        return "\n".join(lines)
    if step == "reclaim":
        return f"RECLAIM {ctx.card(rng.choice(state['discards'][house]))}" if state["discards"][house] else None
    if step == "muster":
        return muster_mail(state, ctx, house, rng)
    if step == "outcome":  # 2e: what the wildling card asks (agot2e/wildlings.py)
        wildlings = ctx.rules.wildlings
        return "\n".join(line for kind in wildlings.ASKED if (line := wildlings.bot_line(state, ctx, house, kind, rng))) \
            or None
    if step == "choose":  # 2e: the token holder's choice
        return rng.choice(westeros.choose_lines(state, ctx))
    return None


def _bid(rng: random.Random, power: int) -> int:
    return rng.choice([0, power, rng.randint(0, power), rng.randint(0, min(power, 3))])


def _removes(ctx: Ctx, cut: list[tuple[str, str]]) -> str | None:
    return "\n".join(r.canonical(ctx.names) for r in bidding.as_removes(cut)) or None


def muster_mail(state: dict, ctx: Ctx, house: str, rng: random.Random) -> str | None:
    """Random musters, castle by castle, each checked on a scratch position as the judge will."""
    scratch = westeros.muster_scratch(state)
    castles = westeros.muster_castles(state, ctx, house)
    rng.shuffle(castles)
    lines = []
    for castle in castles:
        if rng.random() < 0.2:
            continue
        items: list[MusterItem] = []
        for _ in range(4):
            options = [MusterItem("footman"), MusterItem("knight"), MusterItem("knight", None, True)]
            options += [MusterItem("ship", sea) for sea in westeros.ship_seas(scratch, ctx, house, castle)]
            options += [MusterItem(u, None, up) for u in ctx.gd.setup.castle_only_units for up in (False, True)
                        if not up or u in ctx.gd.setup.upgrade_to]  # 2e: siege engines
            legal = [i for i in options if westeros.muster_problem(scratch, ctx, house, Muster(castle, (*items, i))) is None]
            if not legal or (items and rng.random() < 0.3):
                break
            items.append(rng.choice(legal))
        if items:
            muster = Muster(castle, tuple(items))
            westeros._apply_muster(scratch, ctx, house, muster)
            lines.append(muster.canonical(ctx.names))
    return "\n".join(lines) or None
