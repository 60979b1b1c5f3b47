"""The step machine of a round: which step comes next and who owes what in it.

::

    westeros: (from round 2) the three cards, their decisions (``westeros.py``)
    planning: orders -> raven (only if the raven holder has orders on the board) -> (2e, after RAVEN LOOK)
              raven_card
    action:   raid (repeated) -> march (repeated, each possibly a battle) -> consolidate
    a variant's own steps (agot2e-ru), after the action phase and between Westeros and planning
              (``variantsteps.py``)
    end of round: orders, routed marks and the round's restrictions cleared, instructions sent
              ahead expire, next round; after the last round the final ranking (``westeros.end_game``)

After every step the immediate victory (7 castles; 8 with 3 houses) is checked. Sea of Storms and
Feast for Crows need no skipping here: their order kinds cannot be placed (``planning.check_order``
reads ``state['restrictions']``), so the raid or consolidate step finds nothing to do.
"""

from __future__ import annotations

from ...ruleset import Event, Owed
from . import action, battle, consolidate, planning, takeover, variantsteps, westeros
from . import position as pos
from .context import Ctx


def pending(state: dict, ctx: Ctx) -> list[Owed]:
    if state["winner"] is not None:
        return []
    if state.get("port_takeover"):  # 2e: a taken port's ships, before anything else (takeover.py)
        return takeover.pending(state, ctx)
    if state["phase"] == "westeros":
        return westeros.pending(state, ctx)
    step = state["step"]
    if (extra := variantsteps.module(ctx, step)) is not None:  # agot2e-ru: taxes, muster, hostages ...
        return extra.pending(state, ctx)
    if step == "orders":
        return planning.pending_orders(state)
    if step == "raven":
        return planning.pending_raven(state, ctx)
    if step == "raven_card":  # 2e: after RAVEN LOOK
        return planning.pending_raven_card(state)
    if step == "raid":
        return action.pending_turn(state, ctx, "raid")
    if step == "march":
        return action.pending_turn(state, ctx, "march")
    if step == "battle":
        return battle.pending(state, ctx)
    if step == "consolidate":  # 2e: a starred order's owner (consolidate.py)
        return consolidate.pending(state, ctx)
    return []


def advance(state: dict, ctx: Ctx, force: bool) -> list[Event]:
    """Resolve the current step (``force``: defaults for missing decisions) and move on."""
    if state["winner"] is not None:
        return []
    if state.get("port_takeover"):
        return takeover.resolve(state, ctx, force) + victory(state, ctx)
    step = state["step"]
    if state["phase"] == "westeros":
        events = westeros.advance(state, ctx, force)
        if state["phase"] == "planning":  # agot2e-ru: the hostages come between Westeros and planning
            events += variantsteps.run(state, ctx, "before_planning", _to_planning)
    elif ctx.rules.variant is not None and variantsteps.module(ctx, step) is not None:
        events = variantsteps.advance(state, ctx, force, {"after_action": end_round, "before_planning": _to_planning})
    elif step == "orders":
        events = planning.reveal(state, ctx)
        if planning.raven_needed(state):
            state["step"] = "raven"
        else:
            events += begin_action(state, ctx)
    elif step == "raven":
        events = planning.resolve_raven(state, ctx)
        if state["step"] == "raven":  # (2e: not waiting for the card the raven looked at)
            events += begin_action(state, ctx)
    elif step == "raven_card":
        events = planning.resolve_raven_card(state, ctx) + begin_action(state, ctx)
    elif step == "raid":
        events, over = action.resolve_raid(state, ctx, force)
        if not over and action.next_house(state, "raid", ctx) is None:
            events += action.drop_hopeless_raids(state, ctx)
            over = True
        if over:
            state.update(step="march", turn=0)
    elif step == "march":
        events = action.resolve_march(state, ctx, force)
    elif step == "battle":
        events = battle.advance(state, ctx, force)
        if state["battle"] is None and state.get("march_battles"):  # agot2e-ru: the march's next battle
            events += action.next_march_battle(state, ctx)
    elif step == "consolidate":
        events = action.resolve_consolidate(state, ctx, force)
        if not action.consolidating(state):  # agot2e-ru: the variant's steps after the action phase first
            events += variantsteps.run(state, ctx, "after_action", end_round)
    else:
        raise ValueError(f"unknown step {step!r}")
    if state["step"] == "march" and state["battle"] is None and action.next_house(state, "march") is None:
        events += action.drop_idle_marches(state, ctx)  # agot2e-ru: on a power token alone, nothing moved
        state["step"] = "consolidate"
    return events + victory(state, ctx)


def begin_action(state: dict, ctx: Ctx) -> list[Event]:
    """The planning phase is over: RAVEN lines can be used no more (with no raven step, or sent by a
    house that lost the raven in the Westeros phase), so they leave the file."""
    for house in state["houses"]:
        pos.plan(state, house)["raven"] = None
        pos.plan(state, house).pop("raven_card", None)
    state.update(phase="action", step="raid", turn=0)
    return []


def _to_planning(state: dict, ctx: Ctx) -> list[Event]:
    """Back to the planning phase after a variant's steps between Westeros and planning."""
    state.update(phase="planning", step="orders", turn=0)
    return []


def end_round(state: dict, ctx: Ctx) -> list[Event]:
    """Clear the round's orders and marks; everything sent ahead expires (PBEM.md)."""
    state["orders"].clear()
    state["routed"].clear()
    state["blade_used"] = False
    state["restrictions"] = []  # a Westeros card restricts its own round only
    state["westeros"] = None
    state["plans"] = {h: {**pos.empty_plan(), **_kept(pos.plan(state, h))} for h in state["houses"]}
    if ctx.on("hold-seven-castles"):  # agot2e-ru: castles held at the end of the round win (RULES.md V8)
        events = ctx.rules.variant.held_castles(state, ctx)
        if state["winner"] is not None:
            return events
    state.update(round=state["round"] + 1, turn=0)
    events = [Event("agot.round_ends", round=state["round"] - 1)]
    if state["round"] > ctx.gd.setup.rounds:
        if ctx.on("final-tiebreaks"):  # agot2e-ru: castles, muster points, else a shared win (V9)
            return events + ctx.rules.variant.end_game(state, ctx)
        return events + westeros.end_game(state, ctx)
    if state["round"] >= ctx.gd.setup.westeros_from_round:
        return events + westeros.begin(state, ctx)
    state.update(phase="planning", step="orders")
    return events + [Event("agot.round_planning", round=state["round"])]


def _kept(plan: dict) -> dict:
    """2e: CHOOSE lines wait for the next Westeros phase (agot2e RULES.md 11.2: sent before the reveal)."""
    return {"chooses": plan["chooses"]} if plan.get("chooses") else {}


_UNWON: list[tuple] = []
"""What the last few victory checks that found no winner read (``_victory_inputs``), copied, newest first: a
step that moved no unit, power token or neutral force (the raid step, a battle's supports and most of its
cards) leaves them equal, and the check's answer with them (comparing costs a fraction of counting the
castles). A few, not one: a march out of a castle and its battle's end go back and forth between positions
(and a server's games between theirs)."""
_UNWON_KEPT = 4


def _victory_inputs(state: dict, ctx: Ctx) -> tuple:
    """What ``position.check_victory`` reads: the game data, the houses and options, and one level of the
    areas, power tokens and neutral forces (their writers, ``position.set_units`` and the token and neutral
    force writers, replace an area's ``{house: units}``, never change it in place, so a copy one level deep
    stays what was checked; self-play's invariants, ``AgotRuleset.violations``, would see a victory missed)."""
    return (state["areas"].copy(), ctx.gd, state["control"].copy(), state["neutral"].copy(), list(state["houses"]),
            dict(state.get("options") or {}))


def victory(state: dict, ctx: Ctx) -> list[Event]:
    if state["winner"] is not None:
        return []
    now = (state["areas"], ctx.gd, state["control"], state["neutral"], state["houses"], state.get("options") or {})
    if now in _UNWON:  # (compared in C, the areas first: they tell positions apart)
        return []  # the same castles as at a recent check that found no winner
    winner = pos.check_victory(state, ctx.gd)
    if winner is None:
        _UNWON.insert(0, _victory_inputs(state, ctx))
        del _UNWON[_UNWON_KEPT:]
        return []
    state["winner"] = winner
    count = pos.castles_controlled(state, ctx.gd, winner)
    return [Event("agot.victory", house=winner, castles=count)]
