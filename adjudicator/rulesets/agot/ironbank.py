"""The Iron Bank of Braavos: loans, the debts' growth and "the Iron Bank collects" (agot2e-ru, option
``gold-economy``; its RULES.md P16, decisions D25-D28).

A game with the economy keeps every house's account at the bank in ``state["loans"]`` (house -> loans
taken and not yet repaid in full) and ``state["debts"]`` (house -> dragons owed, the loans summed as one
debt, as the seed says). Both public: the seed's loans are taken in front of everyone. ``LOAN`` and
``REPAY`` come by mail at any time (:mod:`.transactions`); this module holds their rules and the
variant step ``debts``, the seed's phase 9, last of the round: every debt grows, and in the rounds the
variant's parameters name the Iron Bank collects (ours, in place of the seed's missing Iron Bank card).
"""

from __future__ import annotations

from ...messages import Msg
from ...ruleset import Event, Owed
from . import gold, ledger
from .context import Ctx


def in_play(state: dict) -> bool:
    return "debts" in state


def open_accounts(state: dict) -> None:
    """Every house without a loan (a new game with gold-economy)."""
    state["loans"] = {house: 0 for house in state["houses"]}
    state["debts"] = {house: 0 for house in state["houses"]}


def terms(ctx: Ctx) -> dict:
    """The bank's numbers of ``variant-params.yaml`` (checked by ``variant.load_params``)."""
    return ctx.params.iron_bank


def loan_limit(state: dict, ctx: Ctx, house: str) -> int:
    """The largest loan ``house`` may take this round: the round's sum, 2 more for Lannister (seed)."""
    bank = terms(ctx)
    by_round = bank["loan_by_round"]
    most = by_round[min(state["round"], len(by_round)) - 1]
    return most + (bank["lannister_extra"] if house == "lannister" else 0)


def loan_problem(state: dict, ctx: Ctx, house: str, n: int) -> Msg | None:
    most_at_once = terms(ctx)["loans_at_once"]
    if state["loans"][house] >= most_at_once:
        return Msg("agot.error.loans_at_once", house=house, loans=state["loans"][house], most=most_at_once,
                   debt=state["debts"][house])
    most = loan_limit(state, ctx, house)
    if n > most:
        return Msg("agot.error.loan_too_big", n=n, most=most, round=state["round"],
                   lannister=house == "lannister" and terms(ctx)["lannister_extra"])
    return None


def repay_problem(state: dict, house: str, n: int) -> Msg | None:
    debt = state["debts"][house]
    if not debt:
        return Msg("agot.error.no_debt", house=house)
    if n > debt:
        return Msg("agot.error.repay_too_much", house=house, n=n, debt=debt)
    if not gold.can_pay(state, house, n):
        return Msg("agot.error.not_enough_gold", house=house, gold=gold.held(state, house), n=n)
    return None


def lend(state: dict, house: str, n: int) -> Event:
    state["loans"][house] += 1
    state["debts"][house] += n
    gold.receive(state, house, n)
    return Event("agot.bank.loan", house=house, n=n, loans=state["loans"][house], debt=state["debts"][house],
                 gold=gold.held(state, house))


def repay(state: dict, house: str, n: int) -> Event:
    """Gold back to the bank; a debt paid in full closes the house's loans (it may borrow twice again)."""
    gold.pay(state, house, n)
    state["debts"][house] -= n
    if not state["debts"][house]:
        state["loans"][house] = 0
    return Event("agot.bank.repaid", house=house, n=n, debt=state["debts"][house], gold=gold.held(state, house))


# -- the variant step "debts" (agot/variantsteps.py) ---------------------------------------------------------


def start(state: dict, ctx: Ctx) -> list[Event]:
    """The seed's phase 9: every debt grows; then, in the rounds named, the Iron Bank collects."""
    if not ctx.on("gold-economy"):
        return []
    growth = terms(ctx)["debt_growth"]
    debtors = [h for h in state["houses"] if state["debts"][h]]
    for house in debtors:
        state["debts"][house] += growth
    events = [Event("agot.bank.growth", n=growth, debts=[[h, state["debts"][h]] for h in debtors])] if debtors else []
    if state["round"] in terms(ctx)["collects"]["after_rounds"]:
        events += collect(state, ctx)
    for event in events:
        ledger.record(state, event, told=True)
    return events


def collect(state: dict, ctx: Ctx) -> list[Event]:
    """"Железный банк получает свое" (ours, the seed's card is missing): every debtor pays its debt from
    its purse as far as the purse goes; one still owing loses house tokens it has available (the card
    strikes every debtor at once; the debt is not forgiven)."""
    lost = terms(ctx)["collects"]["house_tokens_lost"]
    events = [Event("agot.bank.collects", round=state["round"], debtors=[h for h in state["houses"] if state["debts"][h]])]
    for house in state["houses"]:
        debt = state["debts"][house]
        if not debt:
            continue
        taken = min(debt, gold.held(state, house))
        if taken:
            repay(state, house, taken)
        tokens = min(lost, state["power"][house]) if state["debts"][house] else 0
        state["power"][house] -= tokens
        events.append(Event("agot.bank.collected", house=house, taken=taken, debt=state["debts"][house],
                            tokens=tokens, gold=gold.held(state, house)))
    return events


def pending(state: dict, ctx: Ctx) -> list[Owed]:
    return []  # nobody decides anything in this step: repaying is done by mail at any time


def advance(state: dict, ctx: Ctx, force: bool) -> list[Event]:
    return []


def violations(state: dict, ctx: Ctx) -> list[str]:
    """What must hold of the bank's accounts (the shared invariants call it)."""
    if not in_play(state):
        return []
    most = terms(ctx)["loans_at_once"]
    out = []
    for house in state["houses"]:
        loans, debt = state["loans"].get(house), state["debts"].get(house)
        if not isinstance(debt, int) or debt < 0 or not isinstance(loans, int) or not 0 <= loans <= most:
            out.append(f"{house}: {loans} loans, debt {debt}")
        elif (loans == 0) != (debt == 0):
            out.append(f"{house}: {loans} loans but debt {debt}")
    if not 0 <= state["ledger_told"] <= len(state["ledger"]):
        out.append(f"ledger: {state['ledger_told']} of {len(state['ledger'])} entries told")
    return out
