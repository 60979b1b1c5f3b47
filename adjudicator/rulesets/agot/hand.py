"""The Hand of the King of the Russian fan variant (agot2e-ru option ``hand-of-the-king``; its RULES.md V21,
D33-D35): a variant step of the round (``variantsteps.py``), the first between the Westeros phase and
planning (the seed: "после завершения фазы Вестероса").

The house second on the Iron Throne track holds the Hand token (the seed gives it after each Iron
Throne bidding to the track's place 2; the engine's tokens follow their tracks, :func:`holder`). It
may look at the top card of one Westeros deck (``HAND LOOK <deck>``) and put it back on top: no bottom
option (unlike the raven's wildling card). The card is shown to the Hand's house alone, an event with
``to`` (as ``RAVEN LOOK`` shows the wildling card); everyone reads that it looked, and at which deck.
``HAND PASS``, or nothing at the deadline: no look.

``state["hand"]``: the holder asked while the step waits (public).
"""

from __future__ import annotations

import random

from ...messages import Msg
from ...ruleset import Event, Owed
from . import position as pos
from .commands import WESTEROS_DECKS, HandLook
from .context import Ctx

PLAN_KEY = "hand_looks"
"""The Hand's ``HAND`` line on file (a list of one line, the last sent; ``submission.py``)."""


def holder(state: dict) -> str:
    """The Hand of the King: second on the Iron Throne track."""
    return state["tracks"]["iron_throne"][1]


# -- the step (variantsteps.py) -------------------------------------------------------------------------------


def start(state: dict, ctx: Ctx) -> list[Event]:
    if ctx.on("hand-of-the-king"):
        state["hand"] = holder(state)
    return []


def pending(state: dict, ctx: Ctx) -> list[Owed]:
    house = state.get("hand")
    if not house:
        return []
    return [Owed(house, Msg("agot.owed.hand"), "step", bool(pos.plan(state, house).get(PLAN_KEY)))]


def advance(state: dict, ctx: Ctx, force: bool) -> list[Event]:
    house = state.pop("hand")
    line = pos.plan(state, house).pop(PLAN_KEY, None)
    if not line:
        return [Event("agot.default.hand", house=house)]
    deck = ctx.command(line[0]).deck
    if deck is None:
        return [Event("agot.hand.passes", house=house)]
    return [Event("agot.hand.looks", house=house, deck=deck),
            Event("agot.hand.seen", deck=deck, card=state["decks"][deck][0], to=(house,))]


# -- mail ---------------------------------------------------------------------------------------------------


def check(state: dict, ctx: Ctx, house: str, command: HandLook) -> Msg | None:
    """Why a ``HAND`` line cannot be taken now, or None."""
    if not ctx.on("hand-of-the-king"):
        return Msg("agot.error.no_hand")
    if house != holder(state):
        return Msg("agot.error.not_the_hand", house=holder(state))
    if state.get("hand") != house and state["phase"] != "westeros":  # sent ahead in the Westeros phase: kept
        return Msg("agot.error.hand_not_now")                       # for the Hand's house if it stays the Hand
    return None


def bot_mail(state: dict, ctx: Ctx, house: str, rng: random.Random) -> str | None:
    """A look at a random deck, a pass, or nothing (the default)."""
    if state.get("hand") != house:
        return None
    return rng.choice([HandLook(None).canonical(), None, *(HandLook(d).canonical() for d in WESTEROS_DECKS)])
