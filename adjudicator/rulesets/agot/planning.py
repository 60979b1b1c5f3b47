"""The planning phase: secret orders, their reveal, and the Messenger Raven (CZ p.6-7).

Orders are checked when they are mailed (an illegal set is refused line by line and changes
nothing), kept secret in the house's plan, and placed on the board for everyone at once when
the step adjudicates. A house that sends nothing places no orders (PBEM.md).
"""

from __future__ import annotations

from collections import Counter

from ...messages import Msg
from ...ruleset import Event, Owed
from . import position as pos
from . import gold, say
from .commands import OrderLine, OrderToken, Raven
from .context import Ctx


def token_text(token: OrderToken) -> str:
    return token.canonical()


def _token_id(ctx: Ctx, kind: str, bonus: int, star: bool):
    for token in ctx.gd.setup.order_tokens:
        if token.kind == kind and token.bonus == bonus and token.star == star:
            return token
    return None


def check_order(state: dict, ctx: Ctx, house: str, line: OrderLine) -> str | None:
    """What is wrong with placing this one order (ignoring the other orders), or None."""
    where = ctx.area(line.area)
    held = pos.order_owner(state, line.area)
    if held is None:
        return Msg("agot.error.order_no_units_or_token" if ctx.on("orders-in-token-areas") else "agot.error.order_no_units",
                   area=where)
    if held != house:
        return Msg("agot.error.held_by", area=where, house=held)
    if line.kind == "raid" and pos.owner(state, line.area) is None:  # agot2e-ru: a token area (RULES.md V25)
        return Msg("agot.error.token_area_no_raid", area=where)
    if line.kind == "consolidate" and not ctx.gd.board.is_land(line.area) and not ctx.rules.orders.consolidate_on_water:
        return Msg("agot.error.consolidate_at_sea", area=where)
    if _token_id(ctx, line.kind, line.bonus, line.star) is None:
        return Msg("agot.error.no_such_token", token=say.token(line.token.canonical()))
    if line.kind in state["restrictions"] or line.token.canonical() in state["restrictions"]:
        return Msg("agot.error.token_forbidden", token=say.token(line.token.canonical()))
    return None


def check_orders(state: dict, ctx: Ctx, house: str, lines: list[OrderLine]) -> dict[int, str]:
    """Errors by index into ``lines`` for a house's whole set of orders."""
    errors: dict[int, str] = {}
    seen: dict[str, int] = {}
    used: Counter = Counter()
    stars = 0
    limit = pos.star_limit(state, ctx.gd, house)
    for i, line in enumerate(lines):
        problem = check_order(state, ctx, house, line)
        if problem is None and line.area in seen:
            problem = Msg("agot.error.second_order", area=ctx.area(line.area), line=seen[line.area] + 1)
        if problem is None:
            token = _token_id(ctx, line.kind, line.bonus, line.star)
            used[token.id] += 1
            if used[token.id] > token.count:
                problem = Msg("agot.error.tokens_only", n=token.count, token=say.token(token.text))
            elif line.star:
                stars += 1
                if stars > limit:
                    problem = Msg("agot.error.stars", limit=limit, number=stars)
        if problem:
            errors[i] = problem
        seen.setdefault(line.area, i)
    if not errors and lines and ctx.rules.orders.orders_everywhere:
        missing = _uncovered(state, ctx, house, set(seen), used, limit - stars)
        if missing:
            errors[len(lines) - 1] = Msg("agot.error.order_missing", area=ctx.area(missing))
    return errors


def _uncovered(state: dict, ctx: Ctx, house: str, placed: set[str], used: Counter, stars_left: int) -> str | None:
    """2e (R5.1, B8): the first area, by name, holding ``house``'s units without an order while one of its
    unused tokens could legally go there; None when every such area has one."""
    free = [t for t in ctx.gd.setup.order_tokens if used[t.id] < t.count and (not t.star or stars_left > 0)]
    empty = sorted((a for a in state["areas"] if pos.owner(state, a) == house and a not in placed), key=ctx.area)
    for area in empty:
        for token in free:
            line = OrderLine(area, token.kind, token.bonus, token.star)
            if check_order(state, ctx, house, line) is None:
                return area
    return None


def store_orders(state: dict, house: str, lines: list[OrderLine]) -> None:
    pos.plan(state, house)["orders"] = {line.area: line.token.canonical() for line in lines}


RAVEN_STEPS = ("raven", "raven_card")
"""The planning phase's steps after the reveal: the Messenger Raven's choice, and (2e) the wildling card
its holder looked at (step ``raven_card``, RAVEN TOP | BOTTOM)."""


def check_raven(state: dict, ctx: Ctx, house: str, raven: Raven) -> str | None:
    if house != pos.holder(state, "messenger_raven"):
        return Msg("agot.error.no_raven")
    if raven.is_pass:
        return None
    if raven.look is not None:  # 2e: LOOK during the planning phase (or sent ahead); TOP | BOTTOM after it
        if state["phase"] == "action" or (raven.look == "look" and state["step"] == "raven_card"):
            return Msg("agot.error.raven_look_not_now")
        return None
    if state["step"] == "raven_card":
        return Msg("agot.error.raven_looked")
    orders = state["orders"] if state["phase"] == "action" or state["step"] in RAVEN_STEPS else (pos.plan(state, house)["orders"] or {})
    where = ctx.area(raven.area)
    if raven.area not in orders or pos.order_owner(state, raven.area) != house:
        return Msg("agot.error.raven_no_order", area=where)
    line = OrderLine(raven.area, raven.order.kind, raven.order.bonus, raven.order.star)
    problem = check_order(state, ctx, house, line)
    if problem:
        return problem
    mine = [text for area, text in orders.items() if pos.order_owner(state, area) == house and area != raven.area]
    token = _token_id(ctx, line.kind, line.bonus, line.star)
    if sum(1 for t in mine if t == token.text) + 1 > token.count:
        return Msg("agot.error.tokens_all_placed", token=say.token(token.text))
    # CZ p.7: a starred order "only if stars were left unused in step 1" - the replaced order
    # was placed in step 1, so a starred order it held used its star there.
    placed_stars = sum(1 for area, t in orders.items() if pos.order_owner(state, area) == house and t.endswith("*"))
    if line.star and placed_stars + 1 > pos.star_limit(state, ctx.gd, house):
        return Msg("agot.error.raven_no_star")
    return None


# -- steps ---------------------------------------------------------------------------------------------


def pending_orders(state: dict) -> list[Owed]:
    return [Owed(h, Msg("agot.owed.orders"), "planning", pos.plan(state, h)["orders"] is not None) for h in state["houses"]
            if pos.house_units(state, h)]


def reveal(state: dict, ctx: Ctx) -> list[Event]:
    """Place every house's orders on the board at once (missing orders: none)."""
    events = []
    for house in pos.turn_order(state):
        orders = pos.plan(state, house)["orders"]
        if orders is None:
            if pos.house_units(state, house):
                events.append(Event("agot.default.orders", house=house))
            continue
        # Units may have changed since the orders were sent only by a GM repair: keep what still applies.
        for area, text in orders.items():
            if pos.order_owner(state, area) == house:
                state["orders"][area] = text
        pos.plan(state, house)["orders"] = None
    trade = gold.in_play(state)  # agot2e-ru: the Consolidate Power tokens are Trade orders
    shown = [Msg("agot.placed", area=ctx.area(a), token=say.token(t, trade))
             for a, t in sorted(state["orders"].items(), key=lambda x: ctx.area(x[0]))]
    events.append(Event("agot.orders_revealed", orders=shown))
    return events


def raven_needed(state: dict) -> bool:
    """The raven holder has a choice only when it has an order on the board (2e: or sent RAVEN LOOK ahead,
    which needs no order)."""
    holder = pos.holder(state, "messenger_raven")
    return bool(pos.orders_of(state, holder)) or pos.plan(state, holder)["raven"] == "RAVEN LOOK"


def pending_raven(state: dict, ctx: Ctx) -> list[Owed]:
    house = pos.holder(state, "messenger_raven")
    what = Msg("agot.owed.raven_or_look") if ctx.gd.wildling_cards else Msg("agot.owed.raven")  # 2e: LOOK too
    return [Owed(house, what, "step", pos.plan(state, house)["raven"] is not None)]


def resolve_raven(state: dict, ctx: Ctx) -> list[Event]:
    """The holder's RAVEN line is used, and so leaves the file (issue 10: a used line is not on file)."""
    house = pos.holder(state, "messenger_raven")
    line = pos.plan(state, house)["raven"]
    pos.plan(state, house)["raven"] = None
    if line is None:
        return [Event("agot.default.raven", house=house)]
    raven = ctx.command(line)
    if raven.look == "look":
        return _look(state, ctx, house)
    if raven.is_pass or raven.look is not None or check_raven(state, ctx, house, raven):
        return [Event("agot.raven.unused", house=house)]
    old = state["orders"][raven.area]
    state["orders"][raven.area] = raven.order.canonical()
    return [Event("agot.raven.used", house=house, area=ctx.area(raven.area), old=say.token(old),
                  new=say.token(raven.order.canonical()))]


# -- 2e: the Messenger Raven looks at the top wildling card (agot2e RULES.md R5.3, 11.2) ------------------


def _look(state: dict, ctx: Ctx, house: str) -> list[Event]:
    """``RAVEN LOOK``: the holder alone sees the top wildling card (an event only it may see); its
    ``RAVEN TOP | BOTTOM`` on file applies at once, else it is asked (step ``raven_card``)."""
    events = [Event("agot.raven.looks", house=house),
              Event("agot.raven.seen", card=state["wildling_deck"][0], to=(house,))]
    if pos.plan(state, house).get("raven_card"):
        return events + resolve_raven_card(state, ctx)
    state["step"] = "raven_card"
    return events


def pending_raven_card(state: dict) -> list[Owed]:
    house = pos.holder(state, "messenger_raven")
    return [Owed(house, Msg("agot.owed.raven_card"), "step", bool(pos.plan(state, house).get("raven_card")))]


def resolve_raven_card(state: dict, ctx: Ctx) -> list[Event]:
    """``RAVEN BOTTOM`` puts the card at the bottom of the wildling deck; ``RAVEN TOP`` or the deadline
    (the default) leaves it on top. Whether it moved is public, as at the table; the card is not."""
    house = pos.holder(state, "messenger_raven")
    line = pos.plan(state, house).pop("raven_card", None)
    if line is None:
        return [Event("agot.default.raven_card", house=house)]
    if ctx.command(line).look == "bottom":
        state["wildling_deck"].append(state["wildling_deck"].pop(0))
        return [Event("agot.raven.bottom", house=house)]
    return [Event("agot.raven.top", house=house)]
