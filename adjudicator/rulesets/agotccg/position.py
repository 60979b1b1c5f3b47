"""The agotccg state and the small helpers every module uses.

The state is a plain YAML-serialisable dict (it is stored as it is). A physical card is an
*instance*: ``<card id>#<copy>`` (``winterfell-guardsman#2``), numbered per card from 1 in its
owner's deck list, so that every card of a player's deck is named exactly once; cards in play
are entries with their state::

    data_version: v1
    players: [alice, bob]            # seat order, clockwise
    houses: {alice: [stark], bob: [stark, baratheon]}   # the house card (one house) or an alliance (two)
    decks: {alice: stark-a}          # the deck list played (decks.yaml), "case" in rules cases
    seed: 42                         # SECRET
    draws: 3                         # random draws so far: draw n uses Random("agotccg:<seed>:<n>")
    round: 1                         # 0 during setup
    phase: plot                      # setup | plot | draw | marshal | challenges | dominance | standing | over
    step: choose                     # setup: mulligan | place; plot: choose | first; challenges: attack |
                                     # defend | kill; null in the other phases
    initiative: {alice: 5, bob: 3}   # this round's totals, public once the plots are revealed
    initiative_winner: alice         # who chooses the first player this round
    first: alice                     # this round's first player (null until chosen)
    order: [alice, bob]              # this round's turn order: the first player, then clockwise
    active: 0                        # marshal and challenges: index in ``order`` of the player acting
    deck: {alice: [instances]}       # SECRET, top first (sizes are public)
    hand: {alice: [instances]}       # SECRET but to the owner (sizes are public)
    plots: {alice: {deck: [ids], used: [ids], current: id}}   # ``deck`` SECRET but to the owner
    house_power: {alice: 0}          # power on the house card
    characters: {alice: [{card, knelt, power, attachments: [{card, owner}], dupes: [instances]}]}
    locations: {alice: [{card, dupes: [instances]}]}
    discard: {alice: [instances]}    # public, in order (the last is the newest)
    dead: {alice: [instances]}       # public, in order
    gold: {alice: 0}                 # the gold of the player marshalling now (lost at the end of it)
    limited: {alice: 0}              # Limited cards marshalled this round
    challenges_done: {alice: [military]}   # this round
    participants: {alice: [instances]}     # characters that attacked or defended this round (they kneel)
    challenge: null | {attacker, defender, type, attackers: [instances], stealth: [instances],
                       defenders: [instances] | null, claim: n, kills: n}   # the challenge under way
    mulligans: {alice: false}        # a mulligan was taken
    power_gained: 12                 # power tokens taken from the pool so far
    power_returned: 2                # power tokens back in the pool (characters that left play)
    plans: {alice: {...}}            # SECRET: decisions sent ahead (see :func:`plan`)
    winner: null | player

A plan (``plans[player]``)::

    mulligan: null | keep | mulligan        # setup: used once
    setup: null | [instances]               # setup: used once
    plot: null | plot id                    # the next plot phase: used once
    first: null | player                    # the first player when this player wins initiative: stands
    marshal: null | [{card, on: instance | null, owner: player | null}]   # the next marshalling: used once
    attacks: [{type, opponent, attackers: [instances], stealth: [instances]}]   # the next challenges, in order
    pass: false                             # no challenges after the ATTACK lines: used with them
    defend: {"military": [instances], "military bob": [...]}   # per type (and attacker): stand
    kill: null | [instances]                # military claim victims, in order: stands
    nosave: [characters]                    # unique characters not to save with a duplicate: stands
"""

from __future__ import annotations

import random

PHASES = ("setup", "plot", "draw", "marshal", "challenges", "dominance", "standing", "over")
STEPS = {"setup": ("mulligan", "place"), "plot": ("choose", "first"), "challenges": ("attack", "defend", "kill")}
TYPES = ("military", "intrigue", "power")


def rng(state: dict) -> random.Random:
    """The next seeded random generator of the game (and count the draw)."""
    n = state["draws"]
    state["draws"] = n + 1
    return random.Random(f"agotccg:{state['seed']}:{n}")


def card_id(instance: str) -> str:
    return instance.split("#", 1)[0]


def copy_of(instance: str) -> int:
    return int(instance.split("#", 1)[1]) if "#" in instance else 1


def display(player: str) -> str:
    """A player as canonical lines and the board write it (``Alice``)."""
    return player[:1].upper() + player[1:]


def empty_plan() -> dict:
    return {"mulligan": None, "setup": None, "plot": None, "first": None, "marshal": None, "attacks": [],
            "pass": False, "defend": {}, "kill": None, "nosave": []}


def plan(state: dict, player: str) -> dict:
    plans = state.setdefault("plans", {})
    if player not in plans:
        plans[player] = empty_plan()
    return plans[player]


def opponents(state: dict, player: str) -> list[str]:
    """The other players, clockwise from ``player``'s left."""
    players = state["players"]
    i = players.index(player)
    return players[i + 1:] + players[:i]


def acting(state: dict) -> str | None:
    """The active player in marshalling and challenges."""
    if state["phase"] in ("marshal", "challenges") and state["active"] < len(state["order"]):
        return state["order"][state["active"]]
    return None


# -- cards in play -----------------------------------------------------------------------------------


def character(state: dict, player: str, instance: str) -> dict | None:
    for entry in state["characters"][player]:
        if entry["card"] == instance:
            return entry
    return None


def in_play(state: dict, player: str) -> list[dict]:
    return state["characters"][player] + state["locations"][player]


def entry_of(state: dict, player: str, instance: str) -> dict | None:
    for entry in in_play(state, player):
        if entry["card"] == instance:
            return entry
    return None


def strength(gd, entry: dict) -> int:
    """A character's STR: printed, plus its attachments' modifiers, never below 0 (S004 trvalé efekty)."""
    total = gd.card(entry["card"]).str + sum(gd.card(a["card"]).str for a in entry["attachments"])
    return max(0, total)


def icons(gd, entry: dict) -> set[str]:
    found = set(gd.card(entry["card"]).icons)
    for a in entry["attachments"]:
        found |= set(gd.card(a["card"]).icons)
    return found


def can_act(gd, entry: dict, kind: str) -> bool:
    """Standing, with the challenge's icon: may attack or defend in a ``kind`` challenge."""
    return not entry["knelt"] and kind in icons(gd, entry)


def total_power(state: dict, player: str) -> int:
    """The house card's power and every character's (S004 vítězství)."""
    return state["house_power"][player] + sum(c["power"] for c in state["characters"][player])


def bonus(state: dict, gd, player: str, kind: str) -> int:
    """The income or initiative bonuses of everything the player controls, kneeling or not (S004)."""
    field = f"{kind}_bonus"
    total = 0
    for entry in in_play(state, player):
        total += getattr(gd.card(entry["card"]), field)
    for p in state["players"]:
        for entry in state["characters"][p]:
            total += sum(getattr(gd.card(a["card"]), field) for a in entry["attachments"] if a["owner"] == player)
    return total


def plot_card(state: dict, gd, player: str):
    current = state["plots"][player]["current"]
    return gd.card(current) if current else None


def claim_of(state: dict, gd, player: str) -> int:
    plot = plot_card(state, gd, player)
    return plot.claim if plot else 0


def unique_in_play(state: dict, gd, player: str, character: str) -> dict | None:
    """The player's card in play that is the unique ``character`` (any version), or None."""
    for entry in in_play(state, player):
        card = gd.card(entry["card"])
        if card.unique and card.character == character:
            return entry
    return None


def dead_characters(state: dict, gd, player: str) -> set[str]:
    """Unique characters in the player's dead pile: no copy may come into play (S004)."""
    return {gd.card(c).character for c in state["dead"][player] if gd.card(c).unique}


def cref(gd, instance: str) -> dict:
    """A card as events and the board name it: its id and, unless it is unique, its copy number."""
    cid = instance.split("#", 1)[0]
    return {"card": cid, "copy": None if gd.card(cid).unique else copy_of(instance)}


def crefs(gd, instances) -> list[dict]:
    return [cref(gd, i) for i in instances]
