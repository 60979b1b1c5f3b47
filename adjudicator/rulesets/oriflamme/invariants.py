"""What must hold in every Oriflamme state after every step, whatever the players did.

Checked by self-play after each step (``judge selfplay --ruleset oriflamme``); a violation is an
engine bug.
"""

from __future__ import annotations

from . import position as pos
from .gamedata import GameData


def violations(state: dict, gd: GameData) -> list[str]:
    out: list[str] = []
    players = state["players"]
    rounds = gd.game.rounds
    if state["phase"] not in pos.PHASES:
        out.append(f"unknown phase {state['phase']!r}")
    if not 1 <= state["round"] <= rounds:
        out.append(f"round {state['round']} out of 1..{rounds}")
    if state["first"] not in players:
        out.append(f"first player {state['first']!r} is not a player")
    for p in players:
        cards = state["hands"][p] + state["aside"][p] + state["discards"][p] + [
            c["card"] for stack in state["queue"] for c in stack if c["owner"] == p]
        if sorted(cards) != sorted(gd.ids):
            out.append(f"{p}: hand + aside + discards + queue {sorted(cards)} is not the family's ten cards")
        if len(state["aside"][p]) != gd.game.set_aside:
            out.append(f"{p}: {len(state['aside'][p])} cards set aside")
        if state["influence"][p] < 0:
            out.append(f"{p}: negative influence {state['influence'][p]}")
        placed = _placed(state, p, rounds)
        if len(state["hands"][p]) != gd.game.hand - placed:
            out.append(f"{p}: {len(state['hands'][p])} cards in hand after {placed} placements")
        plan = state["plans"][p]
        for card in plan["decide"]:
            if pos.where_is(state, p, card) not in ("hand", "queue", "covered"):
                out.append(f"{p}: a reveal decision for its {card}, which is {pos.where_is(state, p, card)}")
        for card in plan["target"]:
            if pos.where_is(state, p, card) in ("aside", "discards"):
                out.append(f"{p}: a target for its {card}, which is out of the queue")
    for i, stack in enumerate(state["queue"]):
        if not stack:
            out.append(f"stack {i + 1} is empty")
            continue
        if len({c["owner"] for c in stack}) != 1:
            out.append(f"stack {i + 1} mixes families")
        for depth, c in enumerate(reversed(stack)):
            if c["tokens"] < 0 or (c["up"] and c["tokens"]):
                out.append(f"stack {i + 1}: {c['owner']}'s {c['card']} carries {c['tokens']} influence face "
                           f"{'up' if c['up'] else 'down'}")
            card = gd.card(c["card"])
            if c["up"] and card.ability in ("ambush", "conspiracy"):
                out.append(f"stack {i + 1}: a face-up {card.name} stays in the queue")
            if c["up"] and not card.character and (state["phase"] != "resolve" or depth or i != state["cursor"]):
                out.append(f"stack {i + 1}: a face-up {card.name} that is not resolving")
    if state["phase"] == "resolve" and not 0 <= state["cursor"] <= len(state["queue"]):
        out.append(f"cursor {state['cursor']} outside the queue of {len(state['queue'])}")
    if state["phase"] == "place" and not 0 <= state["placer"] < len(players):
        out.append(f"placer {state['placer']} outside the turn order")
    if state["phase"] == "over":
        if state["winner"] is None or not state["winners"]:
            out.append("the game is over without a winner")
    elif state["winner"] is not None:
        out.append(f"a winner ({state['winner']}) while the game goes on")
    return out


def _placed(state: dict, player: str, rounds: int) -> int:
    """Placements the player has made so far (a draw agreed by vote ends the game in the phase
    it was agreed in: ``agreed_in``)."""
    phase = state.get("agreed_in") or state["phase"]
    if phase == "over":
        return rounds
    if phase == "resolve":
        return state["round"]
    done = pos.turn_order(state).index(player) < state["placer"]
    return state["round"] - 1 + done


def leaks(view: dict, state: dict, viewer: str) -> list[str]:
    """Another player's secrets found in ``viewer``'s view."""
    out = []
    for key in ("seed", "draws", "plans"):
        if key in view:
            out.append(f"the {key}")
    for p in state["players"]:
        if p == viewer:
            continue
        if isinstance(view["hands"].get(p), list):
            out.append(f"{p}'s hand")
        if isinstance(view["aside"].get(p), list):
            out.append(f"{p}'s cards set aside")
    for i, stack in enumerate(view["queue"]):
        for c in stack:
            if c["owner"] != viewer and not c["up"] and "card" in c:
                out.append(f"{c['owner']}'s face-down card at position {i + 1}")
    if view.get("plan") != state["plans"].get(viewer):
        out.append("a plan that is not the viewer's own")
    question = view.get("question") or {}
    if "card" in question:
        out.append("the card of the question")
    return out
