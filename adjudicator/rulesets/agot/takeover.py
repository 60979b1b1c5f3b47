"""2nd edition: a taken castle area's port and its new owner's choice (agot2e RULES.md R6.5, B10).

When a house takes a castle area whose port holds another house's ships (a won battle, after the
retreat; or a march into the empty area), those ships are destroyed and the new owner may replace
any of them with its own unused ships, within its supply: ``PORT <port>: TAKE <n> | ALL | NONE``.
A line sent ahead decides at once (a number above what is allowed takes the most); with none on
file and a choice to make (one ship or more may be replaced) the new owner is asked alone, before
anything else happens (``state['port_takeover']``, a list, :func:`pending`); the deadline's default is B10's,
as many as allowed. A line once used leaves the file.
"""

from __future__ import annotations

from ...messages import Msg
from ...ruleset import Event, Owed
from . import position as pos
from .commands import Port
from .context import Ctx


def _line(state: dict, ctx: Ctx, house: str, port: str) -> tuple[int, Port] | None:
    """The house's PORT line on file for ``port`` (the last one written), with its index."""
    lines = pos.plan(state, house).get("ports") or []
    found = [(i, c) for i, line in enumerate(lines) if (c := ctx.command(line)).port == port]
    return found[-1] if found else None


def taken(state: dict, ctx: Ctx, house: str, castle: str) -> list[Event]:
    """``house`` has just taken ``castle``: its port's enemy ships go now, by the house's PORT line on file,
    or (a choice to make, no line) once it has answered (``state['port_takeover']``)."""
    found = pos.port_to_take(state, ctx.gd, house, castle)
    if found is None:
        return []
    port = ctx.gd.board.port(castle)
    line = _line(state, ctx, house, port)
    if found[2] and line is None:  # (a march split into two such castle areas asks of each in turn)
        state.setdefault("port_takeover", []).append({"house": house, "castle": castle})
        return [Event("agot.port.asked", house=house, port=ctx.area(port), castle=ctx.area(castle), old=found[0],
                      ships=found[1])]
    want = None
    if line is not None:
        del pos.plan(state, house)["ports"][line[0]]
        want = line[1].take
    return _take(state, ctx, house, castle, want)


def _take(state: dict, ctx: Ctx, house: str, castle: str, want: int | None) -> list[Event]:
    old, ships, replaced = pos.take_port(state, ctx.gd, house, castle, want)
    port = ctx.gd.board.port(castle)
    if port in state["orders"]:
        pos.remove_order(state, port)
    return [Event("agot.port.taken", house=house, port=ctx.area(port), old=old, ships=ships, replaced=replaced)]


def pending(state: dict, ctx: Ctx) -> list[Owed]:
    t = state["port_takeover"][0]
    port = ctx.gd.board.port(t["castle"])
    old, ships, most = pos.port_to_take(state, ctx.gd, t["house"], t["castle"])
    return [Owed(t["house"], Msg("agot.owed.port", port=ctx.area(port), old=old, ships=ships, most=most), "step",
                 _line(state, ctx, t["house"], port) is not None)]


def resolve(state: dict, ctx: Ctx, force: bool) -> list[Event]:
    """The asked house's answer, or at the deadline B10's default: as many as allowed."""
    t = state["port_takeover"].pop(0)
    if not state["port_takeover"]:
        del state["port_takeover"]
    house, castle = t["house"], t["castle"]
    line = _line(state, ctx, house, ctx.gd.board.port(castle))
    if line is None:
        return [Event("agot.default.port", house=house)] + _take(state, ctx, house, castle, None)
    del pos.plan(state, house)["ports"][line[0]]
    return _take(state, ctx, house, castle, line[1].take)


def check(state: dict, ctx: Ctx, house: str, command: Port) -> tuple[Msg | None, str | None]:
    """A PORT line: sent ahead, any port and number (the number allowed is known only when the port is
    taken); answering the question, at most the ships the house may replace there."""
    t = (state.get("port_takeover") or [None])[0]
    if command.take is not None and command.take > ctx.gd.setup.port_max_ships:
        return Msg("agot.error.port_take_most", n=command.take, most=ctx.gd.setup.port_max_ships), None
    if not t or t["house"] != house or ctx.gd.board.port(t["castle"]) != command.port:
        return None, None
    most = pos.port_to_take(state, ctx.gd, house, t["castle"])[2]
    if command.take is not None and command.take > most:
        return (Msg("agot.error.port_take_allowed", n=command.take, most=most),
                Port(command.port, most).canonical(ctx.names))
    return None, None


def store(state: dict, ctx: Ctx, house: str, command: Port) -> None:
    """A PORT line replaces the one on file for its port (2e: the plan's ``ports``, made when first sent)."""
    plan = pos.plan(state, house)
    lines = [line for line in plan.get("ports") or [] if ctx.command(line).port != command.port]
    plan["ports"] = lines + [command.canonical(ctx.names)]
