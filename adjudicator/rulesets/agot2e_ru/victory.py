"""The variant's victory (agot2e-ru RULES.md V8, V9): 7 castles held to the end of the round, and the
ranking after the last round by castles, then muster points (castles and docks), else a shared win.

The shared engine calls :func:`held_castles` at the end of every round when ``hold-seven-castles`` is
on (and then wins nobody at once: ``position.check_victory``), and :func:`end_game` instead of the
2nd edition's final tie-breaks when ``final-tiebreaks`` is on.
"""

from __future__ import annotations

from ...messages import Msg
from ...ruleset import Event
from ..agot import position as pos
from ..agot.context import Ctx


def muster_points(state: dict, ctx: Ctx, house: str) -> int:
    """The muster points of ``house``'s castle areas (variant-params ``muster_points``) and docks (1 each)."""
    board, params = ctx.gd.board, ctx.params
    none = params.moat_cailin if ctx.on("moat-cailin") else None  # V24: Moat Cailin gives none
    total = sum(params.muster_value(a, board.area(a).castle) for a in board.castle_areas
                if a != none and pos.controller(state, ctx.gd, a) == house)
    return total + sum(1 for a in params.docks if pos.controller(state, ctx.gd, a) == house)


def ranking(state: dict, ctx: Ctx, houses) -> list[tuple[str, dict[str, int]]]:
    """``houses`` with their metrics (variant-params ``victory.final_tiebreak``), best first (turn order
    among equals, for the listing only: equals share the win)."""
    counts = pos.castle_counts(state, ctx.gd)
    metric = {"castles": lambda h: counts.get(h, 0), "muster_points": lambda h: muster_points(state, ctx, h)}
    rows = [(h, {m: metric[m](h) for m in ctx.params.final_tiebreak}) for h in houses]
    return sorted(rows, key=lambda row: tuple(row[1].values()), reverse=True)


def _best(rows) -> list[str]:
    return [h for h, key in rows if key == rows[0][1]]


def held_castles(state: dict, ctx: Ctx) -> list[Event]:
    """At the end of a round: a house holding the variant's castles (7) wins; several: the ranking decides,
    equals share the win."""
    counts = pos.castle_counts(state, ctx.gd)
    holders = [h for h in pos.turn_order(state) if counts.get(h, 0) >= ctx.params.castles_to_win]
    if not holders:
        return []
    best = _best(ranking(state, ctx, holders))
    return _won(state, best, [Event("agot.victory_held", houses=best, castles=counts[best[0]], round=state["round"])])


def end_game(state: dict, ctx: Ctx) -> list[Event]:
    """After the last round: most castles, then most muster points; equals share the win (the seed)."""
    rows = ranking(state, ctx, pos.turn_order(state))
    table = [Msg("agot.end.standing_variant", house=h, **key) for h, key in rows]
    events = [Event("agot.end.standings", rounds=ctx.gd.setup.rounds, table=table)]
    best = _best(rows)
    return _won(state, best, events + [Event("agot.end.winner", house=best[0]) if len(best) == 1
                                       else Event("agot.end.shared", houses=best)])


def _won(state: dict, best: list[str], events: list[Event]) -> list[Event]:
    """The game is over: one winner, or ``draw`` when several share the win."""
    state["winner"] = best[0] if len(best) == 1 else "draw"
    if len(best) > 1:  # who shares it, for the summaries (the judge's "draw" is any result without one winner)
        state["shared_win"] = best
    state.update(phase="over", step="over", turn=0)
    return events
