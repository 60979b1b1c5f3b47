"""2nd edition option Tides of Battle: the cards a combat draws and the Valyrian Steel Blade's redraw
(agot2e RULES.md section 10, R10.2; B29; mail 11.1-11.2).

After the house cards (and their abilities that act at once) the whole deck of 24 is shuffled for this
combat from the game's seed and the count of combats so far, and attacker and defender each draw one,
seen by its owner only. If the Blade's holder fights and the Blade is unused this round, it may use the
Blade to discard its card and draw the next one: ``BLADE REDRAW [IF <tides card>[, ...]] [AT <battle
area>]`` (with IF only when the card drawn is one of those) or ``BLADE KEEP``. Such a line is the
holder's standing choice for the round (for the battle it names, else for every one), so IF lists
decide without a second mail; with none that applies, the holder is asked alone (battle stage
``redraw``: its card is told to it alone, both cards stay secret in ``state['tides_secret']`` until
the reveal), and the deadline's default is to keep the card (B29). A redraw uses the Blade: no +1
this round. Then both cards are revealed. Skulls: ``battle._skulls``.
"""

from __future__ import annotations

import random

from ...messages import Msg
from ...ruleset import Event, Owed
from . import position as pos
from .commands import Redraw
from .context import Ctx

BLADE = "valyrian_steel_blade"


def draw(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """Each side's card; the holder's redraw by its line on file, or the holder asked (stage ``redraw``)."""
    if not state.get("tides_of_battle"):
        return []
    state["tides_drawn"] = state.get("tides_drawn", 0) + 1
    deck = [card for card, spec in ctx.gd.tides_of_battle.items() for _ in range(spec.count)]
    random.Random(f"{state['seed']}-tides-{state['tides_drawn']}").shuffle(deck)
    deck = state.pop("tides_next", []) + deck  # a rules case's cards, attacker's first (caseposition.py)
    drawn = {b["attacker"]: deck[0], b["defender"]: deck[1]}
    holder = pos.holder(state, BLADE)
    if holder not in drawn or state["blade_used"]:
        return _reveal(b, drawn)
    line = _line(state, ctx, holder, b["area"])
    if line is None:
        state["tides_secret"] = {"drawn": drawn, "spare": deck[2]}
        b["stage"] = "redraw"
        return [Event("agot.tides.your_card", card=drawn[holder], area=ctx.area(b["area"]), to=(holder,))]
    return _decide(state, b, drawn, deck[2], holder, line)


def _reveal(b: dict, drawn: dict[str, str]) -> list[Event]:
    b["tides"] = drawn
    return [Event("agot.tides.drawn", cards=[Msg("agot.tides.card", house=h, card=c) for h, c in drawn.items()])]


def _decide(state: dict, b: dict, drawn: dict[str, str], spare: str, holder: str, line: Redraw) -> list[Event]:
    events = []
    if line.redraw and (not line.cards or drawn[holder] in line.cards):
        drawn = {**drawn, holder: spare}
        state["blade_used"] = True
        events.append(Event("agot.tides.redrawn", house=holder))
    return events + _reveal(b, drawn)


def _line(state: dict, ctx: Ctx, house: str, area: str) -> Redraw | None:
    """The house's REDRAW/KEEP line for a battle at ``area``: the last one naming it, else the last general one."""
    commands = [ctx.command(line) for line in pos.plan(state, house).get("redraws") or []]
    for want in (area, None):
        found = [c for c in commands if c.battle_area == want]
        if found:
            return found[-1]
    return None


def pending(state: dict, ctx: Ctx, b: dict) -> list[Owed]:
    holder = pos.holder(state, BLADE)
    return [Owed(holder, Msg("agot.owed.redraw", area=ctx.area(b["area"])), "step",
                 _line(state, ctx, holder, b["area"]) is not None)]


def resolve(state: dict, ctx: Ctx, b: dict, force: bool) -> list[Event]:
    """The asked holder's answer, or at the deadline B29's default: keep the card; then the reveal."""
    secret = state.pop("tides_secret")
    holder = pos.holder(state, BLADE)
    b["stage"] = "cards"
    line = _line(state, ctx, holder, b["area"])
    if line is None:
        return [Event("agot.default.redraw", house=holder)] + _reveal(b, secret["drawn"])
    return _decide(state, b, secret["drawn"], secret["spare"], holder, line)


def check(state: dict, ctx: Ctx, house: str, command: Redraw) -> Msg | None:
    """BLADE REDRAW/KEEP: only in a game with Tides of Battle (any house may send it: the Blade may change hands)."""
    return None if state.get("tides_of_battle") else Msg("agot.error.no_tides")


def store(state: dict, ctx: Ctx, house: str, command: Redraw) -> None:
    """A REDRAW/KEEP line replaces the one on file for the same battle area (or the general one)."""
    plan = pos.plan(state, house)
    lines = [line for line in plan.get("redraws") or [] if ctx.command(line).battle_area != command.battle_area]
    plan["redraws"] = lines + [command.canonical(ctx.names)]
