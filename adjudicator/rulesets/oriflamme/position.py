"""The Oriflamme state and the small helpers every module uses.

The state is a plain YAML-serialisable dict (it is stored as it is)::

    data_version: v1
    players: [red, blue, green]      # seat order; a player is one family
    seed: 42                         # the game's seed (secret)
    draws: 3                         # random draws made so far: draw n uses Random("oriflamme:<seed>:<n>")
    round: 1                         # 1..rounds (stays at the last round once the game is over)
    phase: place                     # place | resolve | over
    first: red                       # the first player this round (passes to the next seat each round)
    placer: 0                        # place: index in the round's turn order of the player placing now
    cursor: 0                        # resolve: index of the stack whose top card resolves next
    influence: {red: 1, ...}         # each player's stock (public)
    hands: {red: [archer, ...]}      # card ids (secret but to the owner)
    aside: {red: [lord, ...]}        # the 3 cards set aside at setup (secret but to the owner)
    discards: {red: [spy]}           # eliminated and discarded cards, face up before their owner (public)
    queue:                           # the queue in resolution order: a list of stacks, each bottom first
      - [{owner: red, card: spy, up: false, tokens: 2}, {owner: red, card: lord, up: true, tokens: 0}]
    plans:                           # decisions sent ahead (secret but to the owner)
      red:
        place: [{card: archer, where: front}, {card: spy, where: on, on: archer}]   # used in order
        decide: {heir: {do: reveal, round: 3}, lord: {do: wait}}    # per face-down card, used once
        target: {soldier: {side: after}}                             # per card, standing
    winner: null                     # a player, "draw" (a shared victory), or null while the game goes on
    winners: []                      # everyone sharing the victory

Only the top card of a stack is in play: covered cards are inert, untargetable and keep their
influence. All cards of a stack belong to one family (a card goes only onto its owner's stack;
a Royal Decree never moves a card onto another). Each family has one copy of each card, so
``(owner, card)`` names a card in play.
"""

from __future__ import annotations

import random

PHASES = ("place", "resolve", "over")
FRONT, BACK, ON = "front", "back", "on"
BEFORE, AFTER = "before", "after"
FIRST, LAST = "first", "last"


def rng(state: dict) -> random.Random:
    """The next seeded random generator of the game (and count the draw)."""
    draw = state["draws"]
    state["draws"] = draw + 1
    return random.Random(f"oriflamme:{state['seed']}:{draw}")


def display(player: str) -> str:
    """A player as the canonical lines and the board write it (``Red``); the catalogues write a
    player id the same way (``| capitalize``)."""
    return player[:1].upper() + player[1:]


def turn_order(state: dict) -> list[str]:
    """The players in placement order this round: the first player, then the next seats."""
    players = state["players"]
    start = players.index(state["first"])
    return players[start:] + players[:start]


def placer(state: dict) -> str | None:
    if state["phase"] != "place":
        return None
    order = turn_order(state)
    return order[state["placer"]] if state["placer"] < len(order) else None


def top(state: dict, i: int) -> dict:
    return state["queue"][i][-1]


def locate(state: dict, owner: str, card: str) -> tuple[int, int] | None:
    """(stack index, depth from the top: 0 = the top) of a card in the queue, or None."""
    for i, stack in enumerate(state["queue"]):
        for depth, c in enumerate(reversed(stack)):
            if c["owner"] == owner and c["card"] == card:
                return i, depth
    return None


def top_index(state: dict, owner: str, card: str) -> int | None:
    """The stack index where (owner, card) is the top card, else None."""
    found = locate(state, owner, card)
    return found[0] if found and found[1] == 0 else None


def where_is(state: dict, player: str, card: str) -> str:
    """hand | aside | discards | queue (the face-down top of a stack) | covered | up (face up in the queue)."""
    if card in state["hands"][player]:
        return "hand"
    if card in state["aside"][player]:
        return "aside"
    if card in state["discards"][player]:
        return "discards"
    found = locate(state, player, card)
    if found is None:
        return "missing"
    c = state["queue"][found[0]][-1 - found[1]]
    if c["up"]:
        return "up" if found[1] == 0 else "covered"
    return "covered" if found[1] else "queue"


def cards_in_queue(state: dict, player: str) -> int:
    """Every card of the player in the queue, covered ones included (the end-of-game tie-break)."""
    return sum(1 for stack in state["queue"] for c in stack if c["owner"] == player)


def plan(state: dict, player: str) -> dict:
    plans = state.setdefault("plans", {})
    if player not in plans:
        plans[player] = {"place": [], "decide": {}, "target": {}}
    return plans[player]


def forget(state: dict, owner: str, card: str) -> None:
    """A card was revealed or left the queue: its reveal decision goes; its target too when it left."""
    p = plan(state, owner)
    p["decide"].pop(card, None)
    if locate(state, owner, card) is None:
        p["target"].pop(card, None)


def gain(state: dict, player: str, amount: int) -> None:
    state["influence"][player] += amount


# -- moving cards: every change of the queue goes through these, which keep the cursor right ----------


def remove_top(state: dict, j: int) -> dict:
    """Take the top card of stack ``j`` out of the queue. An emptied stack closes its gap; the cursor
    keeps pointing at the same stack (or, if the cursor's own stack went, at the one after it)."""
    stack = state["queue"][j]
    card = stack.pop()
    if not stack:
        del state["queue"][j]
        if j < state["cursor"]:
            state["cursor"] -= 1
    return card


def insert_stack(state: dict, index: int, card: dict) -> None:
    """A one-card stack at ``index``; during resolution a stack inserted at or before the cursor's
    stack shifts the cursor with it."""
    state["queue"].insert(index, [card])
    if state["phase"] == "resolve" and index <= state["cursor"]:
        state["cursor"] += 1


def discard(state: dict, card: dict) -> None:
    """A card out of the queue lies face up before its owner, without influence."""
    card["up"], card["tokens"] = True, 0
    state["discards"][card["owner"]].append(card["card"])
    forget(state, card["owner"], card["card"])
