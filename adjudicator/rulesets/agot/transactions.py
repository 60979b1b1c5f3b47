"""What a house may do with its gold at any time (agot2e-ru, option ``gold-economy``; RULES.md P13-P16 and
decision D25): ``BUY TOKEN <area>``, ``BUY SUPPLY``, ``GIVE <house> <n>``, ``LOAN <n>``, ``REPAY <n>``.

Such a line is no plan for a later step: it is done when the mail is accepted (``submission.py``), in
the order of the mail's lines, each judged against the position the lines before it left (a LOAN may
pay for the BUY after it); a mail with any refused line does nothing at all, as ever. So the order of
the journal decides, nothing secret is read and nothing secret is told: every transaction is public.

Its public event goes to the sender at once (a note of the reply) and into the game's ledger
(:mod:`.ledger`), which publishes it at the next adjudication, so every other player's next report
shows it. Nothing happens by default: a house that sends nothing buys, gives and borrows nothing.
"""

from __future__ import annotations

import copy

from ...messages import Msg
from ...ruleset import Event
from . import gold, ironbank, ledger
from . import position as pos
from .commands import BuySupply, BuyToken, Give, Loan
from .context import Ctx

WHAT = {BuyToken: "BUY TOKEN", BuySupply: "BUY SUPPLY", Give: "GIVE"}


def _what(command) -> str:
    return ("REPAY" if command.repay else "LOAN") if isinstance(command, Loan) else WHAT[type(command)]


def check(state: dict, ctx: Ctx, house: str, commands: list) -> dict[int, Msg]:
    """Errors by position in ``commands`` (the mail's transactions, in mail order), each judged after
    the ones before it (on a copy: ``state`` is not changed)."""
    if not commands:
        return {}
    if not gold.in_play(state):
        return {i: Msg("agot.error.no_gold_economy", what=_what(c)) for i, c in enumerate(commands)}
    scratch = copy.deepcopy({k: state[k] for k in ("gold", "loans", "debts", "power", "control", "supply")})
    trial = {**state, **scratch}
    errors = {}
    for i, command in enumerate(commands):
        problem = problem_of(trial, ctx, house, command)
        if problem is not None:
            errors[i] = problem
        else:
            _do(trial, ctx, house, command)
    return errors


def problem_of(state: dict, ctx: Ctx, house: str, command) -> Msg | None:
    """Why ``house`` cannot make the transaction now, or None."""
    if isinstance(command, Loan) and command.repay:
        return ironbank.repay_problem(state, house, command.n)
    if isinstance(command, Loan):
        return ironbank.loan_problem(state, ctx, house, command.n)
    if isinstance(command, Give):
        if command.house == house:
            return Msg("agot.error.give_self", house=house)
        return _afford(state, house, command.n)
    if isinstance(command, BuyToken):
        return _token_problem(state, ctx, house, command.area) or _afford(state, house, _price(ctx, "house_token"))
    return _supply_problem(state, ctx, house) or _afford(state, house, _price(ctx, "free_city_supply"))


def _price(ctx: Ctx, what: str) -> int:
    return getattr(ctx.params.economy, f"{what}_price")


def _afford(state: dict, house: str, n: int) -> Msg | None:
    if gold.can_pay(state, house, n):
        return None
    return Msg("agot.error.not_enough_gold", house=house, gold=gold.held(state, house), n=n)


def _token_problem(state: dict, ctx: Ctx, house: str, area: str) -> Msg | None:
    board = ctx.gd.board
    if not board.is_land(area):
        return Msg("agot.error.token_on_land", area=ctx.area(area))
    if board.area(area).home_of == house:
        return Msg("agot.error.token_home", area=ctx.area(area))
    if area in state["control"]:
        return Msg("agot.error.token_already", area=ctx.area(area), owner=state["control"][area])
    if pos.controller(state, ctx.gd, area) != house:
        return Msg("agot.error.token_not_controlled", house=house, area=ctx.area(area))
    if state["power"][house] < 1:
        return Msg("agot.error.no_token_left", house=house)
    return None


def free_ports(state: dict, ctx: Ctx, house: str) -> list[str]:
    """The areas with a port that ``house`` controls whose port's sea holds no other house's ship (the
    seed's condition for Free-City supply)."""
    board = ctx.gd.board
    return [board.area(port).port_of for port in board.port_areas
            if pos.controller(state, ctx.gd, board.area(port).port_of) == house
            and pos.owner(state, board.area(port).sea) in (None, house)]


def _supply_problem(state: dict, ctx: Ctx, house: str) -> Msg | None:
    if house == "greyjoy":
        return Msg("agot.error.supply_greyjoy")
    top = max(ctx.gd.setup.supply_armies)
    if state["supply"][house] >= top:
        return Msg("agot.error.supply_at_top", house=house, level=state["supply"][house])
    if not free_ports(state, ctx, house):
        return Msg("agot.error.no_free_port", house=house)
    return None


def _do(state: dict, ctx: Ctx, house: str, command) -> Event:
    if isinstance(command, Loan):
        return ironbank.repay(state, house, command.n) if command.repay else ironbank.lend(state, house, command.n)
    if isinstance(command, Give):
        gold.pay(state, house, command.n)
        gold.receive(state, command.house, command.n)
        return Event("agot.purse.gift", house=house, receiver=command.house, n=command.n, gold=gold.held(state, house),
                     receiver_gold=gold.held(state, command.house))
    if isinstance(command, BuyToken):
        price = _price(ctx, "house_token")
        gold.pay(state, house, price)
        state["power"][house] -= 1
        state["control"][command.area] = house
        return Event("agot.purse.token", house=house, area=ctx.area(command.area), price=price,
                     gold=gold.held(state, house))
    price = _price(ctx, "free_city_supply")
    gold.pay(state, house, price)
    state["supply"][house] += 1
    return Event("agot.purse.supply", house=house, price=price, level=state["supply"][house],
                 gold=gold.held(state, house))


def apply(state: dict, ctx: Ctx, house: str, commands: list) -> list[Event]:
    """Make the accepted transactions, in mail order; their events go into the ledger (to be published)
    and are returned for the sender's reply."""
    events = []
    for command in commands:
        events.append(_do(state, ctx, house, command))
        ledger.record(state, events[-1], told=False)
        if isinstance(command, BuySupply):
            _spare_cut(state, ctx, house)
    return events


def _spare_cut(state: dict, ctx: Ctx, house: str) -> None:
    """Supply bought while a Supply card's recount left ``house`` over its limit (the seed's very occasion,
    "когда изменяется снабжение"): once its armies fit, it owes that step no cut any more."""
    over = (state.get("westeros") or {}).get("over")
    if state["step"] == "supply" and over and house in over and pos.within_supply(state, ctx.gd, house):
        over.remove(house)
