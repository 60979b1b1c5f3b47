"""What must hold in every agotccg state after every step, whatever the players did.

Checked by self-play after each step (``judge selfplay --ruleset agotccg``); a violation is an
engine bug. :func:`violations` checks the state, :func:`leaks` a player's view.
"""

from __future__ import annotations

from collections import Counter

from . import position as pos
from .gamedata import GameData

STANDING_PHASES = ("setup", "plot", "draw", "marshal")


def violations(state: dict, gd: GameData) -> list[str]:
    out: list[str] = []
    players = state["players"]
    if state["phase"] not in pos.PHASES:
        out.append(f"unknown phase {state['phase']!r}")
    if state["step"] not in pos.STEPS.get(state["phase"], (None,)):
        out.append(f"step {state['step']!r} in phase {state['phase']}")
    total = 0
    for p in players:
        out += _cards(state, gd, p)
        out += _plots(state, gd, p)
        if state["house_power"][p] < 0:
            out.append(f"{p}: negative power on the house card")
        total += pos.total_power(state, p)
        out += _in_play(state, gd, p)
    if total != state["power_gained"] - state["power_returned"]:
        out.append(f"power in play {total} != gained {state['power_gained']} - returned {state['power_returned']}")
    leaders = [p for p in players if pos.total_power(state, p) >= gd.game.win_power]
    if state["winner"] is None:
        if leaders:
            out.append(f"{leaders[0]} has {gd.game.win_power}+ power and the game goes on")
        if state["phase"] == "over":
            out.append("the game is over without a winner")
    else:
        if state["phase"] != "over" or state["winner"] not in leaders:
            out.append(f"winner {state['winner']} without {gd.game.win_power} power or while the game goes on")
    out += _kneeling(state, gd)
    if state["phase"] == "marshal":
        actor = pos.acting(state)
        for p in players:
            gold = state["gold"][p]
            if gold is not None and (p != actor or gold < 0):
                out.append(f"{p}: gold {gold} outside its marshalling")
    for p in players:
        if state["limited"][p] > gd.game.round_limited:
            out.append(f"{p}: {state['limited'][p]} Limited cards this round")
        if len(set(state["challenges_done"][p])) != len(state["challenges_done"][p]):
            out.append(f"{p}: a challenge type twice this round")
    c = state["challenge"]
    if (c is not None) != (state["phase"] == "challenges" and state["step"] in ("defend", "kill")):
        out.append(f"a challenge record in phase {state['phase']}/{state['step']}")
    return out


def _cards(state: dict, gd: GameData, p: str) -> list[str]:
    """Card conservation: every card of the deck list is in exactly one place."""
    where: list[str] = list(state["deck"][p]) + list(state["hand"][p]) + list(state["discard"][p]) + list(
        state["dead"][p])
    for q in state["players"]:
        for entry in pos.in_play(state, q):
            if q == p:
                where.append(entry["card"])
                where += entry["dupes"]
            for a in entry.get("attachments", []):
                if a["owner"] == p:
                    where.append(a["card"])
    deck_id = state["decks"][p]
    if deck_id in gd.deck_by_id:
        expected = Counter(gd.deck(deck_id).instances())
        if Counter(where) != expected:
            missing = sorted((expected - Counter(where)).elements())[:5]
            extra = sorted((Counter(where) - expected).elements())[:5]
            return [f"{p}: cards not conserved (missing {missing}, extra {extra})"]
    elif len(set(where)) != len(where):
        return [f"{p}: a card in two places"]
    return []


def _plots(state: dict, gd: GameData, p: str) -> list[str]:
    plots = state["plots"][p]
    every = plots["deck"] + plots["used"] + ([plots["current"]] if plots["current"] else [])
    out = []
    if len(set(every)) != len(every):
        out.append(f"{p}: a plot in two places")
    deck_id = state["decks"][p]
    if deck_id in gd.deck_by_id and sorted(every) != sorted(gd.deck(deck_id).plots):
        out.append(f"{p}: plots not conserved")
    if not plots["deck"] and state["phase"] != "over":
        out.append(f"{p}: an empty plot deck")
    if state["round"] >= 1 and state["phase"] != "plot" and plots["current"] is None:
        out.append(f"{p}: no plot revealed in round {state['round']}")
    return out


def _in_play(state: dict, gd: GameData, p: str) -> list[str]:
    out = []
    seen: Counter = Counter()
    for entry in state["characters"][p]:
        card = gd.card(entry["card"])
        if card.type != "character":
            out.append(f"{p}: a {card.type} among the characters")
        if entry["power"] < 0:
            out.append(f"{p}: negative power on {entry['card']}")
        if entry["attachments"] and card.has("no-attachments"):
            out.append(f"{p}: attachments on No attachments {entry['card']}")
        for a in entry["attachments"]:
            if gd.card(a["card"]).type != "attachment":
                out.append(f"{p}: a {gd.card(a['card']).type} attached to {entry['card']}")
    for entry in state["locations"][p]:
        if gd.card(entry["card"]).type != "location":
            out.append(f"{p}: a {gd.card(entry['card']).type} among the locations")
    for entry in pos.in_play(state, p):
        card = gd.card(entry["card"])
        if card.unique:
            seen[card.character] += 1
        for d in entry["dupes"]:
            if not card.unique or gd.card(d).character != card.character:
                out.append(f"{p}: duplicate {d} on {entry['card']}")
    twice = [c for c, n in seen.items() if n > 1]
    if twice:
        out.append(f"{p}: two copies of unique {twice[0]} in play")
    dead = pos.dead_characters(state, gd, p)
    if set(seen) & dead:
        out.append(f"{p}: unique {sorted(set(seen) & dead)[0]} in play and in the dead pile")
    return out


def _kneeling(state: dict, gd: GameData) -> list[str]:
    """Characters kneel only by taking part in a challenge this round; everything stands before."""
    out = []
    knelt = {(p, e["card"]) for p in state["players"] for e in state["characters"][p] if e["knelt"]}
    if state["phase"] in STANDING_PHASES and knelt:
        out.append(f"a knelt character in phase {state['phase']}: {sorted(knelt)[0]}")
    elif state["phase"] in ("challenges", "dominance"):
        took_part = {(p, c) for p in state["players"] for c in state["participants"][p]
                     if pos.character(state, p, c) is not None}
        if knelt != took_part:
            out.append(f"knelt characters {sorted(knelt)[:3]} are not those that took part {sorted(took_part)[:3]}")
    return out


def leaks(view: dict, state: dict, viewer: str) -> list[str]:
    """Another player's secrets found in ``viewer``'s view."""
    out = []
    for key in ("seed", "draws", "plans"):
        if key in view:
            out.append(f"the {key}")
    for p in state["players"]:
        if not isinstance(view["deck"][p], int):
            out.append(f"{p}'s deck")
        if p == viewer:
            continue
        if isinstance(view["hand"].get(p), list):
            out.append(f"{p}'s hand")
        if isinstance(view["plots"][p]["deck"], list):
            out.append(f"{p}'s plot deck")
    if view.get("plan") != state["plans"].get(viewer):
        out.append("a plan that is not the viewer's own")
    return out
