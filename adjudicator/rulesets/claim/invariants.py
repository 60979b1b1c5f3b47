"""What must hold in every Claim state after every step, whatever the players did.

Checked by self-play after each step; a violation is an engine bug:

* cards are conserved: every card of the game's factions is in exactly one place;
* follow faction is never broken: no card on the table (nor in the trick just finished, while
  the phase lasts) is off the led faction while its player still holds the led faction, unless
  it is a Doppelganger (hands only shrink within a phase, so a card held now was held then);
* the counts add up: hands, follower piles and the deck shrink in step with the tricks;
* the piles hold what they may: kept Gnomes are Gnomes, set-aside Trolls are Trolls;
* no secret is in another player's view (:func:`leaks`).
"""

from __future__ import annotations

from collections import Counter

from . import position as pos
from . import rules
from .gamedata import GameData


def places(state: dict) -> Counter:
    found: Counter = Counter()
    for key in ("deck", "prizes", "trolls_aside", "discard", "crushed", "box"):
        found.update(state[key])
    found.update(p["card"] for p in state["table"])
    for key in ("hands", "followers", "score", "gnomes"):
        for cards in state[key].values():
            found.update(cards)
    return found


def violations(state: dict, gd: GameData) -> list[str]:
    out: list[str] = []
    players = state["players"]
    found = places(state)
    expected = Counter(gd.deck(state["factions"]))
    if found != expected:
        extra, missing = found - expected, expected - found
        out.append(f"cards not conserved: extra {sorted(extra.elements())}, missing {sorted(missing.elements())}")
    for plays in (state["table"], (state.get("last") or {}).get("plays") if (state.get("last") or {}).get(
            "phase") == state["phase"] else None):
        if not plays:
            continue
        led = gd.faction_of(plays[0]["card"])
        for p in plays[1:]:
            card = p["card"]
            if gd.faction_of(card) not in (led, rules.DOPPELGANGERS) and any(
                    gd.faction_of(c) == led for c in state["hands"][p["player"]]):
                out.append(f"{p['player']} played {gd.card_name(card)} while holding {led}")
    over = state["step"] == "over"
    if over != (state["winner"] is not None):
        out.append(f"step {state['step']} with winner {state['winner']}")
    if not over:
        done = pos.played(state)
        sizes = {len(state["hands"][p]) + (p in done) for p in players}
        if len(sizes) != 1:
            out.append(f"hands out of step: {[len(state['hands'][p]) for p in players]} with {sorted(done)} played")
        left = sizes.pop() if len(sizes) == 1 else None
        if left is not None and left != state["deal"] - state["trick"] + (state["step"] == "play"):
            out.append(f"trick {state['trick']} of {state['deal']} with {left} cards to play it")
        if state["phase"] == 1:
            taken = state["trick"] - 1
            for p in players:
                if len(state["followers"][p]) != taken + _taken_this_trick(state, p):
                    out.append(f"{p} has {len(state['followers'][p])} followers after {taken} tricks")
            n, per = len(players), len(players)
            want = (state["deal"] - state["trick"]) * per + n - state["revealed"] - sum(
                _drawn_this_trick(state, p) for p in players)
            if len(state["deck"]) != want:
                out.append(f"deck of {len(state['deck'])} cards at trick {state['trick']}, expected {want}")
        else:
            if any(state["followers"].values()) or state["deck"] or state["prizes"]:
                out.append("phase 2 with followers, deck or prizes left")
        if state["step"] == "play" and state["turn"] in done:
            out.append(f"{state['turn']} is to play twice in trick {state['trick']}")
        if state["step"] == "play" and state["table"]:
            seats = players[players.index(state["leader"]):] + players[:players.index(state["leader"])]
            if [p["player"] for p in state["table"]] != seats[:len(state["table"])]:
                out.append(f"table {state['table']} is not in seat order from the leader {state['leader']}")
        if state["step"] == "take" and not state.get("choice"):
            out.append("step take with no choice")
    for p in players:
        if any(gd.faction_of(c) != "gnomes" for c in state["gnomes"][p]):
            out.append(f"{p} keeps non-Gnomes in front: {state['gnomes'][p]}")
    if any(gd.faction_of(c) != "trolls" for c in state["trolls_aside"]):
        out.append(f"non-Trolls set aside: {state['trolls_aside']}")
    if any(gd.faction_of(c) != "gnomes" for c in state["crushed"]):
        out.append(f"non-Gnomes crushed: {state['crushed']}")
    return out


def _taken_this_trick(state: dict, player: str) -> int:
    """Prize cards already handed out in a trick whose choice is still open (3-4 players)."""
    choice = state.get("choice")
    if not choice or state["step"] != "take":
        return 0
    ranked = choice["ranking"]
    return 1 if choice["kind"] == "second" and player == ranked[0] else 0


def _drawn_this_trick(state: dict, player: str) -> int:
    return _taken_this_trick(state, player)  # the first player took the deck's top card


def leaks(view: dict, state: dict, viewer: str) -> list[str]:
    """Another player's secrets found in ``viewer``'s view."""
    out = []
    if "seed" in view:
        out.append("the seed")
    if isinstance(view.get("deck"), list):
        out.append("the order of the deck")
    if "plans" in view:
        out.append("the plans")
    for player in state["players"]:
        if player == viewer:
            continue
        if isinstance(view["hands"].get(player), list):
            out.append(f"{player}'s hand")
        if isinstance(view["followers"].get(player), list):
            out.append(f"{player}'s followers")
    if view.get("plan") != state["plans"].get(viewer, view.get("plan")):
        out.append("a plan that is not the viewer's own")
    choice = view.get("choice")
    if choice and choice.get("peek") and state["choice"]["player"] != viewer:
        out.append("the card the Seer looked at")
    return out
