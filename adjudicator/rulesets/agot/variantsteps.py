"""A fan variant's own steps of the round, which the shared step machine (``engine.py``) runs at two
points: after the action phase (agot2e-ru: the seed's phases 5-9, taxes, mercenaries, the supply
recount, mustering, the debts' growth) and between the Westeros phase and planning (agot2e-ru: the
hostages, phase 2). agot1e and agot2e have none.

The variant's module lists them in the order they are played (``variant.STEPS``: when -> ((name,
module), ...), ``when`` one of :data:`WHEN`). A step's state is ``phase == step == name``. Each step
module offers::

    start(state, ctx) -> list[Event]     what the step does by itself; when it needs decisions it
                                         leaves them owed (its ``pending`` non-empty)
    pending(state, ctx) -> list[Owed]    who owes what now
    advance(state, ctx, force) -> list[Event]
                                         resolve what was sent (``force``: the deadline's defaults);
                                         the step is over when ``pending`` is empty afterwards
    bot_mail(state, ctx, house, rng) -> str | None
                                         self-play's answer (``bot.py``); a step that never owes
                                         anything needs none

A step whose option is switched off does nothing in ``start`` and owes nothing: it is passed over.
"""

from __future__ import annotations

from types import ModuleType
from typing import Callable

from ...ruleset import Event
from .context import Ctx

WHEN = ("after_action", "before_planning")


def _steps(ctx: Ctx, when: str) -> tuple[tuple[str, ModuleType], ...]:
    variant = ctx.rules.variant
    return tuple((getattr(variant, "STEPS", None) or {}).get(when, ())) if variant else ()


def module(ctx: Ctx, step: str) -> ModuleType | None:
    """The module of the variant step ``step``, None when ``step`` is no variant step (asked at every step)."""
    if ctx.rules.variant is None:
        return None
    for when in WHEN:
        for name, mod in _steps(ctx, when):
            if name == step:
                return mod
    return None


def _where(ctx: Ctx, step: str) -> tuple[str, int]:
    for when in WHEN:
        for i, (name, _) in enumerate(_steps(ctx, when)):
            if name == step:
                return when, i
    raise ValueError(f"{step!r} is no variant step")


def run(state: dict, ctx: Ctx, when: str, then: Callable[[dict, Ctx], list[Event]], start: int = 0) -> list[Event]:
    """Play the variant's steps of ``when`` from the ``start``-th, stopping at the first that owes
    decisions; with none left, ``then`` (what the shared machine does next) is played."""
    events: list[Event] = []
    steps = _steps(ctx, when)
    for name, mod in steps[start:]:
        state.update(phase=name, step=name, turn=0)
        events += mod.start(state, ctx)
        if state["winner"] is not None or mod.pending(state, ctx):
            return events
    return events + then(state, ctx)


def advance(state: dict, ctx: Ctx, force: bool, then: dict[str, Callable[[dict, Ctx], list[Event]]]) -> list[Event]:
    """Resolve the current variant step; once it owes nothing more, the next step of its point (or
    ``then[when]``) is played."""
    step = state["step"]
    mod = module(ctx, step)
    events = mod.advance(state, ctx, force)
    if state["winner"] is not None or mod.pending(state, ctx):
        return events
    when, i = _where(ctx, step)
    return events + run(state, ctx, when, then[when], i + 1)
