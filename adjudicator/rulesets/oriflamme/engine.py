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
"""

from __future__ import annotations

from ...ruleset import Event, Owed
from . import effects
from . import position as pos
from .gamedata import GameData
from .position import BACK, FRONT, ON, display


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


def placement_problem(state: dict, gd: GameData, player: str, line: dict) -> str | None:
    """Why a PLACE line cannot be used for the placement now (None: it can)."""
    if line["card"] not in state["hands"][player]:
        return f"your {gd.card(line['card']).name} is not in your hand"
    if line["where"] == ON:
        if state["round"] == 1:
            return "in round 1 a card goes to the FRONT or the BACK (stacks start in round 2)"
        if pos.top_index(state, player, line["on"]) is None:
            return f"your {gd.card(line['on']).name} is not on top of a stack in the queue"
    return None


def answer(state: dict, gd: GameData, q: dict) -> tuple[object | None, str | None]:
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
    return (None, None) if found else (None, "it does not fit the queue now")


def pending(state: dict, gd: GameData) -> list[Owed]:
    q = question(state, gd)
    if q is None:
        return []
    kind = "planning" if q["kind"] == "place" else "step"
    return [Owed(q["player"], describe(state, gd, q), kind, answer(state, gd, q)[0] is not None)]


def describe(state: dict, gd: GameData, q: dict) -> str:
    """The question as everyone may read it (the status of a game is public: no secret here)."""
    if q["kind"] == "place":
        where = "FRONT | BACK" + (" | ON <your card>" if state["round"] > 1 else "")
        return f"place a card (round {state['round']}): PLACE <card> {where}"
    if q["kind"] == "reveal":
        return f"your face-down card at position {q['pos'] + 1}: REVEAL or WAIT"
    name = gd.card(q["card"]).name
    if q["card"] == "royal-decree":
        return (f"the target of your Royal Decree at position {q['pos'] + 1}: TARGET Royal Decree: "
                f"<position of a card> -> FRONT | BACK | <its new position>")
    if q["card"] == "assassination":
        return (f"the target of your Assassination at position {q['pos'] + 1}: TARGET Assassination: "
                f"<position 1-{len(state['queue'])}>")
    options = " | ".join(effects.option_text(state, gd, q["pos"], o) for o in q["options"])
    return f"the target of your {name} at position {q['pos'] + 1}: TARGET {name}: {options}"


def _private(player: str, text: str) -> Event:
    return Event(text, (player,))


def _canonical_place(gd: GameData, line: dict) -> str:
    where = f"ON {gd.card(line['on']).name}" if line["where"] == ON else line["where"].upper()
    return f"PLACE {gd.card(line['card']).name} {where}"


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
        events.append(_private(player, f"Your line {_canonical_place(gd, dropped)} cannot be used now ({problem}); "
                                       "it is dropped."))
    at_random = line is None
    if at_random:
        if not may_default:
            return False
        card = pos.rng(state).choice(sorted(state["hands"][player], key=gd.ids.index))
        line = {"card": card, "where": BACK}
        events.append(Event(f"{display(player)} sent no placement; by default a random card of its hand goes to the back."))
    else:
        plan["place"].pop(0)
    place(state, gd, player, line, events, at_random)
    state["placer"] += 1
    if state["placer"] >= len(state["players"]):
        state["phase"], state["cursor"] = "resolve", 0
        events.append(Event(f"Round {state['round']}: every card is placed; the resolution begins at position 1."))
    return True


def place(state: dict, gd: GameData, player: str, line: dict, events: list[Event], at_random: bool = False) -> None:
    state["hands"][player].remove(line["card"])
    card = {"owner": player, "card": line["card"], "up": False, "tokens": 0}
    who = display(player)
    if line["where"] == FRONT:
        state["queue"].insert(0, [card])
        text = f"{who} places a card face down at the front of the queue (position 1)."
    elif line["where"] == BACK:
        state["queue"].append([card])
        text = f"{who} places a card face down at the back of the queue (position {len(state['queue'])})."
    else:
        j = pos.top_index(state, player, line["on"])
        state["queue"][j].append(card)
        text = f"{who} places a card face down onto its stack at position {j + 1}, covering its card there."
    events.append(Event(text))
    where = {FRONT: "at the front", BACK: "at the back"}.get(line["where"]) or f"on your {gd.card(line.get('on', '')).name}"
    how = " (chosen at random)" if at_random else ""
    events.append(_private(player, f"You placed your {gd.card(line['card']).name}{how} {where}."))


def _resolve_next(state: dict, gd: GameData, may_default: bool, events: list[Event]) -> bool:
    i = state["cursor"]
    card = pos.top(state, i)
    player, who = card["owner"], display(card["owner"])
    plan = pos.plan(state, player)
    if not card["up"]:
        decision, _ = answer(state, gd, {"kind": "reveal", "player": player, "card": card["card"]})
        if decision is None:
            if not may_default:
                return False
            decision = "wait"
            events.append(Event(f"{who} sent no decision for its face-down card at position {i + 1}; "
                                "by default it stays face down."))
        if decision == "reveal":
            effects.reveal(state, gd, i, events)
            return True
        if decision == "wait":
            plan["decide"].pop(card["card"], None)
        card["tokens"] += gd.game.wait_influence
        events.append(Event(f"{who} leaves its card at position {i + 1} face down and puts "
                            f"{gd.game.wait_influence} influence on it ({card['tokens']} now)."))
        state["cursor"] = i + 1
        return True
    options = effects.choices(state, gd, i)
    q = {"kind": "target", "player": player, "pos": i, "card": card["card"], "options": options}
    choice, problem = answer(state, gd, q)
    if problem:  # also when the rules leave one outcome or none and the line names another
        spec = plan["target"].pop(card["card"])
        events.append(_private(player, f"Your line TARGET {gd.card(card['card']).name}: {spec_text(gd, spec)} cannot be "
                                       f"used now ({problem}); it is dropped."))
    if len(options) <= 1:
        effects.resolve(state, gd, i, options[0] if options else None, events)
        return True
    if choice is None:
        if not may_default:
            return False
        choice = effects.default(state, gd, i, options)
        events.append(Event(f"{who} sent no target for its {gd.card(card['card']).name} at position {i + 1}; by default: "
                            f"{effects.answer_text(state, gd, i, choice)}."))
    effects.resolve(state, gd, i, choice, events)
    return True


def spec_text(gd: GameData, spec: dict) -> str:
    """A stored target spec in the mail grammar (the part after ``TARGET <card>:``)."""
    if "ref" in spec and "to" in spec:
        return f"{ref_text(gd, spec['ref'])} -> {str(spec['to']).upper()}"
    if "ref" in spec:
        return ref_text(gd, spec["ref"])
    if "side" in spec:
        then = spec.get("then")
        return spec["side"].upper() + (f", {(then.get('side') or then.get('end')).upper()}" if then else "")
    return str(spec.get("end", "")).upper()


def ref_text(gd: GameData, ref: dict) -> str:
    if "pos" in ref:
        return str(ref["pos"])
    if "end" in ref:
        return ref["end"].upper()
    return f"{display(ref['owner'])} {gd.card(ref['card']).name}"


def end_round(state: dict, gd: GameData, events: list[Event]) -> None:
    scores = ", ".join(f"{display(p)} {state['influence'][p]}" for p in state["players"])
    events.append(Event(f"Round {state['round']} ends. Influence: {scores}."))
    if state["round"] >= gd.game.rounds:
        finish(state, gd, events)
        return
    players = state["players"]
    state["round"] += 1
    state["first"] = players[(players.index(state["first"]) + 1) % len(players)]
    state["phase"], state["placer"], state["cursor"] = "place", 0, 0
    events.append(Event(f"Round {state['round']}: {display(state['first'])} is the first player and places first."))


def finish(state: dict, gd: GameData, events: list[Event]) -> None:
    """After the last round: most influence in stock (influence on cards does not count); a tie goes to
    more cards in the queue (covered cards count); still tied: a shared victory (result "draw")."""
    best = max(state["influence"].values())
    leaders = [p for p in state["players"] if state["influence"][p] == best]
    if len(leaders) > 1:
        counts = {p: pos.cards_in_queue(state, p) for p in leaders}
        most = max(counts.values())
        events.append(Event(f"{pos.listing(leaders)} are tied at {best} influence; cards in the "
                            "queue: " + ", ".join(f"{display(p)} {n}" for p, n in counts.items()) + "."))
        leaders = [p for p in leaders if counts[p] == most]
    state["phase"] = "over"
    state["winners"] = leaders
    state["winner"] = leaders[0] if len(leaders) == 1 else "draw"
    if len(leaders) == 1:
        events.append(Event(f"The game is over: {display(leaders[0])} wins with {best} influence."))
    else:
        events.append(Event(f"The game is over: {pos.listing(leaders)} share the victory."))
