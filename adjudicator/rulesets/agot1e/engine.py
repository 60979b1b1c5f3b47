"""The step machine of a round: which step comes next and who owes what in it.

::

    planning: orders -> raven (only if the raven holder has orders on the board)
    action:   raid (repeated) -> march (repeated, each possibly a battle) -> consolidate
    end of round: orders and routed marks cleared, instructions sent ahead expire, next round

The Westeros phase (rounds 2-10) and the end of the game after round 10 belong to
``westeros.py`` (A Game of Thrones part 2); until it lands a round ends straight into the next
planning phase. After every step the immediate victory (7 castles; 8 with 3 houses) is checked.
"""

from __future__ import annotations

from ...ruleset import Event, Owed
from . import action, battle, planning
from . import position as pos
from .context import Ctx


def pending(state: dict, ctx: Ctx) -> list[Owed]:
    if state["winner"] is not None:
        return []
    step = state["step"]
    if step == "orders":
        return planning.pending_orders(state)
    if step == "raven":
        return planning.pending_raven(state)
    if step == "raid":
        return action.pending_turn(state, ctx, "raid")
    if step == "march":
        return action.pending_turn(state, ctx, "march")
    if step == "battle":
        return battle.pending(state, ctx)
    return []  # consolidate: nobody decides anything


def advance(state: dict, ctx: Ctx, force: bool) -> list[Event]:
    """Resolve the current step (``force``: defaults for missing decisions) and move on."""
    step = state["step"]
    if step == "orders":
        events = planning.reveal(state, ctx)
        if planning.raven_needed(state):
            state["step"] = "raven"
        else:
            events += begin_action(state, ctx)
    elif step == "raven":
        events = planning.resolve_raven(state, ctx) + begin_action(state, ctx)
    elif step == "raid":
        events = action.resolve_raid(state, ctx, force)
        if action.next_house(state, "raid", ctx) is None:
            events += action.drop_hopeless_raids(state, ctx)
            state.update(step="march", turn=0)
    elif step == "march":
        events = action.resolve_march(state, ctx, force)
    elif step == "battle":
        events = battle.advance(state, ctx, force)
    elif step == "consolidate":
        events = action.resolve_consolidate(state, ctx) + end_round(state, ctx)
    else:
        raise ValueError(f"unknown step {step!r}")
    if state["step"] == "march" and state["battle"] is None and action.next_house(state, "march") is None:
        state["step"] = "consolidate"
    return events + victory(state, ctx)


def begin_action(state: dict, ctx: Ctx) -> list[Event]:
    state.update(phase="action", step="raid", turn=0)
    return []


def end_round(state: dict, ctx: Ctx) -> list[Event]:
    """Clear the round's orders and marks; everything sent ahead expires (PBEM.md)."""
    state["orders"].clear()
    state["routed"].clear()
    state["blade_used"] = False
    state["plans"] = {h: pos.empty_plan() for h in state["houses"]}
    state.update(round=state["round"] + 1, phase="planning", step="orders", turn=0)
    return [Event(f"Round {state['round'] - 1} ends. Round {state['round']}: planning.")]


def victory(state: dict, ctx: Ctx) -> list[Event]:
    if state["winner"] is not None:
        return []
    winner = pos.check_victory(state, ctx.gd)
    if winner is None:
        return []
    state["winner"] = winner
    count = pos.castles_controlled(state, ctx.gd, winner)
    return [Event(f"{ctx.house(winner)} controls {count} cities and strongholds and wins the game!")]
