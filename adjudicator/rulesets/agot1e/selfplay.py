"""Bots play agot1e against each other through the ruleset interface, checking invariants.

Every decision goes through ``submit`` as mail text, exactly as a player's would; a step whose
owed decisions the bots could not (or chose not to) give is forced, so defaults are exercised
too. Pure: the only randomness is ``random.Random(seed)``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from . import bot, invariants
from .context import ctx_of
from .ruleset import AGOT1E


class InvariantViolation(AssertionError):
    def __init__(self, seed: int, step: int, summary: str, problems: list[str]):
        self.seed, self.step, self.problems = seed, step, problems
        super().__init__(f"seed {seed}, step {step} ({summary}): " + "; ".join(problems))


@dataclass
class Played:
    seed: int
    state: dict
    steps: int = 0
    battles: int = 0
    rejected: list[str] = field(default_factory=list)  # bot mails the judge refused: a bot or engine bug


def play(houses: list[str], seed: int, *, max_steps: int = 2000, until_round: int | None = None,
         silence: float = 0.1) -> Played:
    """Play from the standard setup; ``silence`` is the chance a house sends nothing (defaults apply)."""
    rng = random.Random(seed)
    state = AGOT1E.new_game(houses, {}, seed)
    ctx = ctx_of(state)
    played = Played(seed, state)
    for step in range(max_steps):
        if state["winner"] is not None or (until_round is not None and state["round"] > until_round):
            break
        for owed in AGOT1E.pending(state):
            if owed.done or rng.random() < silence:
                continue
            text = bot.mail_for(state, ctx, owed.player, rng)
            if text is None:
                continue
            sub = AGOT1E.submit(state, owed.player, text)
            if sub.applied:
                state = sub.state
            else:
                played.rejected.append(f"{owed.player}: {text!r}: " + "; ".join(
                    f"{ln.text}: {ln.error}" for ln in sub.parsed.lines if not ln.ok))
        complete = all(o.done for o in AGOT1E.pending(state))
        was_battle = state["step"] == "battle"
        state, _ = AGOT1E.advance(state, force=not complete)
        played.battles += int(state["step"] == "battle" and not was_battle)
        played.steps = step + 1
        problems = invariants.violations(state, ctx)
        for house in state["houses"]:
            problems += [f"{house} sees {leak}" for leak in invariants.leaks(AGOT1E.view(state, house), state, house)]
        if problems:
            raise InvariantViolation(seed, step, AGOT1E.summary(state), problems)
    played.state = state
    return played
