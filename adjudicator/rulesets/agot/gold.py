"""Gold dragons: the currency of the Russian fan variant's economy (agot2e-ru, option ``gold-economy``;
its RULES.md, P8-P17).

A game with the economy keeps every house's purse in ``state["gold"]`` (house -> dragons, public: the
seed's coins lie in front of the screens, and a sealed bid, which is secret, lives in the house's plan
until it is revealed). A game without it has no ``"gold"`` key at all, so agot1e and agot2e states
are unchanged. Every source and sink of gold (taxes, Trade, raids, bids, mustering, the Iron Bank,
mercenaries, ransoms, bribes) goes through :func:`pay` and :func:`receive`, which keep the one rule that
holds for all of them: a purse never goes below zero (``invariants.violations`` checks it). The caller
says what the gold was for in its own event (message keys per use), so this module emits nothing.
"""

from __future__ import annotations


class NotEnoughGold(ValueError):
    """A payment larger than the purse: the caller should have checked :func:`can_pay` (a mail's
    legality check refuses it with the purse in the message)."""


def in_play(state: dict) -> bool:
    """Whether the game plays with gold (agot2e-ru with ``gold-economy`` switched on)."""
    return "gold" in state


def held(state: dict, house: str) -> int:
    """The dragons ``house`` holds now."""
    return state["gold"][house]


def can_pay(state: dict, house: str, n: int) -> bool:
    return 0 <= n <= state["gold"][house]


def pay(state: dict, house: str, n: int) -> int:
    """Take ``n`` dragons from ``house`` (to the bank, to a player through :func:`receive`, or into a
    pot); returns what is left. Refuses a payment the purse cannot cover."""
    if not can_pay(state, house, n):
        raise NotEnoughGold(f"{house} holds {state['gold'][house]} gold, cannot pay {n}")
    state["gold"][house] -= n
    return state["gold"][house]


def receive(state: dict, house: str, n: int) -> int:
    """Give ``house`` ``n`` dragons; returns its purse."""
    if n < 0:
        raise ValueError(f"{house} cannot receive {n} gold")
    state["gold"][house] += n
    return state["gold"][house]


def violations(state: dict) -> list[str]:
    """What must hold of the purses (the shared invariants call it)."""
    if not in_play(state):
        return []
    out = [f"{house}: {n} gold" for house, n in state["gold"].items() if not isinstance(n, int) or n < 0]
    if sorted(state["gold"]) != sorted(state["houses"]):
        out.append(f"purses {sorted(state['gold'])} are not the houses {sorted(state['houses'])}")
    return out
