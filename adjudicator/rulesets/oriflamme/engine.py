"""The step machine: placement in seat order, resolution in queue order, six rounds, the end.

The engine waits for one decision at a time (:func:`question`): the placer's card, or for the
card at the cursor its owner's reveal-or-wait (face down) or target (face up with more than one
legal outcome). A decision sent ahead and legal at that moment answers without waiting
(:func:`answer`); :func:`advance` then runs on until a decision is missing, and stops at the
end of a placement phase and at the end of a round (so that every version of a game ends at a
natural point and rules cases can stop there). With ``force`` (the deadline) the decision owed
when it is called takes its documented default:

* placement: a random card of the hand (seeded) at the back of the queue;
* a face-down card: it stays face down (and takes 1 influence);
* a target: the first legal one in queue order (Assassination: the first opponent's card, else
  itself; Royal Decree: the first other card stays where it is).

A TARGET line on file that does not select the outcome that happens is dropped with a private
note to its owner, whether the card had a choice or the rules left it one outcome or none.

Everything the engine says is a message (``oriflamme.*`` keys with card ids, player ids and
numbers; the catalogues ``templates/<lang>/oriflamme/messages.yaml`` make the sentences), so that
each player reads it in their own language; a public message never carries a face-down card's id.
"""

from __future__ import annotations

from ...messages import Msg
from ...ruleset import Event, Owed
from . import effects, lines
from . import position as pos
from .gamedata import GameData
from .position import BACK, FRONT, ON


def question(state: dict, gd: GameData) -> dict | None:
    """The decision the game waits for now, or None (the next step needs nobody)."""
    if state["phase"] == "place":
        return {"kind": "place", "player": pos.placer(state)}
    if state["phase"] != "resolve" or state["cursor"] >= len(state["queue"]):
        return None
    i = state["cursor"]
    card = pos.top(state, i)
    if not card["up"]:
        return {"kind": "reveal", "player": card["owner"], "pos": i, "card": card["card"]}
    options = effects.choices(state, gd, i)
    if len(options) > 1:
        return {"kind": "target", "player": card["owner"], "pos": i, "card": card["card"], "options": options}
    return None


def placement_problem(state: dict, gd: GameData, player: str, line: dict) -> Msg | None:
    """Why a PLACE line cannot be used for the placement now (None: it can)."""
    if line["card"] not in state["hands"][player]:
        return Msg("oriflamme.why.not_in_hand", card=line["card"])
    if line["where"] == ON:
        if state["round"] == 1:
            return Msg("oriflamme.why.round_one")
        if pos.top_index(state, player, line["on"]) is None:
            return Msg("oriflamme.why.not_on_top", card=line["on"])
    return None


def answer(state: dict, gd: GameData, q: dict) -> tuple[object | None, Msg | None]:
    """The decision on file for question ``q``: (the answer, None), (None, None) when there is none
    or it is incomplete, (None, why) when the line on file cannot be used now."""
    plan = pos.plan(state, q["player"])
    if q["kind"] == "place":
        if not plan["place"]:
            return None, None
        problem = placement_problem(state, gd, q["player"], plan["place"][0])
        return (None, problem) if problem else (plan["place"][0], None)
    if q["kind"] == "reveal":
        decision = plan["decide"].get(q["card"])
        if decision is None:
            return None, None
        if decision["do"] == "wait":
            return "wait", None
        if decision.get("round") and state["round"] < decision["round"]:
            return "wait-keep", None
        return "reveal", None
    spec = plan["target"].get(q["card"])
    if spec is None:
        return None, None
    found = effects.matching(state, gd, q["pos"], spec, q["options"])
    if len(found) == 1:
        return found[0], None
    return (None, None) if found else (None, Msg("oriflamme.why.does_not_fit"))


def pending(state: dict, gd: GameData) -> list[Owed]:
    q = question(state, gd)
    if q is None:
        return []
    kind = "planning" if q["kind"] == "place" else "step"
    return [Owed(q["player"], describe(state, gd, q), kind, answer(state, gd, q)[0] is not None)]


def describe(state: dict, gd: GameData, q: dict) -> Msg:
    """The question as everyone may read it (the status of a game is public: no secret here)."""
    if q["kind"] == "place":
        return Msg("oriflamme.owed.place", round=state["round"], on=state["round"] > 1)
    if q["kind"] == "reveal":
        return Msg("oriflamme.owed.reveal", position=q["pos"] + 1)
    ability = gd.card(q["card"]).ability
    if ability == "royal-decree":
        return Msg("oriflamme.owed.target_decree", card=q["card"], position=q["pos"] + 1)
    if ability == "assassination":
        return Msg("oriflamme.owed.target_assassination", card=q["card"], position=q["pos"] + 1,
                   size=len(state["queue"]))
    return Msg("oriflamme.owed.target", card=q["card"], position=q["pos"] + 1,
               options=[effects.option(state, o) for o in q["options"]])


def _dropped(player: str, line: Msg, why: Msg) -> Event:
    """A line on file that no longer fits, dropped: a private note to its owner."""
    return Event("oriflamme.line_dropped", {"line": line, "why": why}, to=(player,))


def _place_line(line: dict) -> Msg:
    return lines.place(line["card"], line["where"], line.get("on") if line["where"] == ON else None)


def advance(state: dict, gd: GameData, force: bool) -> list[Event]:
    """Run the game on until a decision is missing, the placement phase ends or the round ends."""
    events: list[Event] = []
    first = True
    while state["phase"] != "over":
        may_default, first = force and first, False
        if state["phase"] == "place":
            if not _place_next(state, gd, may_default, events):
                break
            if state["phase"] == "resolve":
                break
            continue
        if state["cursor"] >= len(state["queue"]):
            end_round(state, gd, events)
            break
        if not _resolve_next(state, gd, may_default, events):
            break
    return events


def _place_next(state: dict, gd: GameData, may_default: bool, events: list[Event]) -> bool:
    player = pos.placer(state)
    plan = pos.plan(state, player)
    line, problem = answer(state, gd, {"kind": "place", "player": player})
    if problem:
        dropped = plan["place"].pop(0)
        events.append(_dropped(player, _place_line(dropped), problem))
    at_random = line is None
    if at_random:
        if not may_default:
            return False
        card = pos.rng(state).choice(sorted(state["hands"][player], key=gd.ids.index))
        line = {"card": card, "where": BACK}
        events.append(Event("oriflamme.placement_default", {"player": player}))
    else:
        plan["place"].pop(0)
    place(state, gd, player, line, events, at_random)
    state["placer"] += 1
    if state["placer"] >= len(state["players"]):
        state["phase"], state["cursor"] = "resolve", 0
        events.append(Event("oriflamme.placement_done", {"round": state["round"]}))
    return True


def place(state: dict, gd: GameData, player: str, line: dict, events: list[Event], at_random: bool = False) -> None:
    state["hands"][player].remove(line["card"])
    card = {"owner": player, "card": line["card"], "up": False, "tokens": 0}
    if line["where"] == FRONT:
        state["queue"].insert(0, [card])
        at = 1
    elif line["where"] == BACK:
        state["queue"].append([card])
        at = len(state["queue"])
    else:
        j = pos.top_index(state, player, line["on"])
        state["queue"][j].append(card)
        at = j + 1
    events.append(Event("oriflamme.placed", {"player": player, "where": line["where"], "position": at}))
    events.append(Event("oriflamme.you_placed", {"card": line["card"], "where": line["where"],
                                                 "on": line.get("on") if line["where"] == ON else None,
                                                 "random": at_random}, to=(player,)))


def _resolve_next(state: dict, gd: GameData, may_default: bool, events: list[Event]) -> bool:
    i = state["cursor"]
    card = pos.top(state, i)
    player = card["owner"]
    plan = pos.plan(state, player)
    if not card["up"]:
        decision, _ = answer(state, gd, {"kind": "reveal", "player": player, "card": card["card"]})
        if decision is None:
            if not may_default:
                return False
            decision = "wait"
            events.append(Event("oriflamme.reveal_default", {"player": player, "position": i + 1}))
        if decision == "reveal":
            effects.reveal(state, gd, i, events)
            return True
        if decision == "wait":
            plan["decide"].pop(card["card"], None)
        card["tokens"] += gd.game.wait_influence
        events.append(Event("oriflamme.waits", {"player": player, "position": i + 1, "added": gd.game.wait_influence,
                                                "total": card["tokens"]}))
        state["cursor"] = i + 1
        return True
    options = effects.choices(state, gd, i)
    q = {"kind": "target", "player": player, "pos": i, "card": card["card"], "options": options}
    choice, problem = answer(state, gd, q)
    if problem:  # also when the rules leave one outcome or none and the line names another
        spec = plan["target"].pop(card["card"])
        events.append(_dropped(player, lines.target(card["card"], lines.spec(spec)), problem))
    if len(options) <= 1:
        effects.resolve(state, gd, i, options[0] if options else None, events)
        return True
    if choice is None:
        if not may_default:
            return False
        choice = effects.default(state, gd, i, options)
        events.append(Event("oriflamme.target_default", {"player": player, "card": card["card"], "position": i + 1,
                                                         "answer": effects.answer(choice)}))
    effects.resolve(state, gd, i, choice, events)
    return True


def end_round(state: dict, gd: GameData, events: list[Event]) -> None:
    scores = [{"player": p, "influence": state["influence"][p]} for p in state["players"]]
    events.append(Event("oriflamme.round_ends", {"round": state["round"], "scores": scores}))
    if state["round"] >= gd.game.rounds:
        finish(state, gd, events)
        return
    players = state["players"]
    state["round"] += 1
    state["first"] = players[(players.index(state["first"]) + 1) % len(players)]
    state["phase"], state["placer"], state["cursor"] = "place", 0, 0
    events.append(Event("oriflamme.round_begins", {"round": state["round"], "player": state["first"]}))


def finish(state: dict, gd: GameData, events: list[Event]) -> None:
    """After the last round: most influence in stock (influence on cards does not count); a tie goes to
    more cards in the queue (covered cards count); still tied: a shared victory (result "draw")."""
    best = max(state["influence"].values())
    leaders = [p for p in state["players"] if state["influence"][p] == best]
    if len(leaders) > 1:
        counts = {p: pos.cards_in_queue(state, p) for p in leaders}
        most = max(counts.values())
        events.append(Event("oriflamme.tied", {"players": leaders, "influence": best,
                                               "cards": [{"player": p, "cards": n} for p, n in counts.items()]}))
        leaders = [p for p in leaders if counts[p] == most]
    state["phase"] = "over"
    state["winners"] = leaders
    state["winner"] = leaders[0] if len(leaders) == 1 else "draw"
    if len(leaders) == 1:
        events.append(Event("oriflamme.won", {"player": leaders[0], "influence": best}))
    else:
        events.append(Event("oriflamme.shared", {"players": leaders}))
