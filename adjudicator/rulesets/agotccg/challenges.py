"""The challenges phase (S004 "výzvy" and "provádění výzev"), dominance, power and the win.

Each player in turn order makes up to one challenge of each type against any opponent, one at a
time: attackers kneel (at least one standing character with the icon), stealth picks a character
for each attacking Stealth character that may not defend, the defender kneels defenders, then the
strengths decide. The attacker wins a tie if its strength is at least 1; a side with no
participant or strength 0 never wins. A winning attacker gains 1 power for an unopposed challenge
(the defender's strength 0), then applies its plot's claim: military, the defender kills that many
different characters of its choice; intrigue, that many random cards of the defender's hand are
discarded; power, that much power moves from the defender's house card to the attacker's. Then
every participating Renown character of the winning side gains 1 power. A house with 15 power
wins at once (:func:`gain`).
"""

from __future__ import annotations

from ...messages import Msg
from ...ruleset import Event
from . import lines
from . import position as pos
from .gamedata import GameData


def note(player: str, key: str, **params) -> Event:
    return Event(f"agotccg.{key}", params, to=(player,))


# -- power -----------------------------------------------------------------------------------------


def gain(state: dict, gd: GameData, player: str, amount: int, events: list[Event], on: dict | None = None) -> None:
    """``amount`` power from the pool onto the house card (or the character ``on``); the win check."""
    if amount <= 0:
        return
    if on is None:
        state["house_power"][player] += amount
    else:
        on["power"] += amount
    state["power_gained"] += amount
    check_win(state, gd, player, events)


def check_win(state: dict, gd: GameData, player: str, events: list[Event]) -> None:
    if state["winner"] is None and pos.total_power(state, player) >= gd.game.win_power:
        state["winner"] = player
        state["phase"], state["step"] = "over", None
        state["challenge"] = None
        events.append(Event("agotccg.won", {"player": player, "power": pos.total_power(state, player),
                                            "round": state["round"]}))


# -- leaving play ----------------------------------------------------------------------------------


def saves(state: dict, gd: GameData, player: str, entry: dict) -> bool:
    card = gd.card(entry["card"])
    return card.unique and bool(entry["dupes"]) and card.character not in pos.plan(state, player)["nosave"]


def kill(state: dict, gd: GameData, player: str, entry: dict, events: list[Event], why: str) -> bool:
    """Kill a character (to its owner's dead pile), unless a duplicate saves it. True: it died."""
    if saves(state, gd, player, entry):
        dupe = entry["dupes"].pop()
        state["discard"][player].append(dupe)
        events.append(Event("agotccg.saved", {"player": player, "card": pos.cref(gd, entry["card"]),
                                              "dupe": pos.cref(gd, dupe), "why": why}))
        return False
    state["characters"][player].remove(entry)
    for a in entry["attachments"]:
        state["discard"][a["owner"]].append(a["card"])
    state["discard"][player].extend(entry["dupes"])
    state["power_returned"] += entry["power"]
    state["dead"][player].append(entry["card"])
    events.append(Event("agotccg.killed", {"player": player, "card": pos.cref(gd, entry["card"]),
                                           "power": entry["power"],
                                           "attachments": pos.crefs(gd, [a["card"] for a in entry["attachments"]]),
                                           "dupes": pos.crefs(gd, entry["dupes"]), "why": why}))
    return True


# -- who may still challenge ---------------------------------------------------------------------------


def may_challenge(state: dict, gd: GameData, player: str | None) -> bool:
    """Has ``player`` a challenge type left and a standing character with its icon?"""
    if player is None:
        return False
    left = [t for t in pos.TYPES if t not in state["challenges_done"][player]]
    return any(pos.can_act(gd, e, t) for e in state["characters"][player] for t in left)


def defend_line(state: dict, player: str) -> list[str] | None:
    """The DEFEND line on file for the challenge under way: against this attacker first, else any."""
    c = state["challenge"]
    defend = pos.plan(state, player)["defend"]
    if c is None:
        return None
    found = defend.get(f"{c['type']} {c['attacker']}")
    return found if found is not None else defend.get(c["type"])


def can_defend(state: dict, gd: GameData, entry: dict) -> bool:
    c = state["challenge"]
    return pos.can_act(gd, entry, c["type"]) and entry["card"] not in c["stealth"]


def default_stealth(state: dict, gd: GameData, defender: str, kind: str, chosen: list[str], count: int) -> list[str]:
    """The defender's characters that could defend and have no Stealth: the strongest first (then the
    most expensive, then the first in play)."""
    pool = [e for e in state["characters"][defender] if pos.can_act(gd, e, kind)
            and not gd.card(e["card"]).has("stealth") and e["card"] not in chosen]
    pool.sort(key=lambda e: (-pos.strength(gd, e), -gd.card(e["card"]).cost))
    return [e["card"] for e in pool[:max(0, count)]]


# -- the phase ---------------------------------------------------------------------------------------


def step(state: dict, gd: GameData, may_default: bool, events: list[Event]) -> bool:
    if state["step"] == "attack":
        return _attack(state, gd, may_default, events)
    if state["step"] == "defend":
        return _defend(state, gd, may_default, events)
    return _kill_step(state, gd, may_default, events)


def _end_turn(state: dict, player: str, events: list[Event]) -> None:
    plan = pos.plan(state, player)
    plan["attacks"], plan["pass"] = [], False
    events.append(Event("agotccg.challenges_done", {"player": player, "types": list(state["challenges_done"][player])}))
    state["active"] += 1
    if state["active"] >= len(state["order"]):
        state["phase"], state["step"] = "dominance", None


def attack_problem(state: dict, gd: GameData, player: str, line: dict) -> Msg | None:
    if line["type"] in state["challenges_done"][player]:
        return Msg("agotccg.why.type_done", type=line["type"])
    if line["opponent"] not in state["players"] or line["opponent"] == player:
        return Msg("agotccg.why.opponent")
    ready = [a for a in line["attackers"]
             if (e := pos.character(state, player, a)) and pos.can_act(gd, e, line["type"])]
    if not ready:
        return Msg("agotccg.why.no_attackers", type=line["type"])
    return None


def _attack(state: dict, gd: GameData, may_default: bool, events: list[Event]) -> bool:
    player = pos.acting(state)
    plan = pos.plan(state, player)
    progressed = False
    while plan["attacks"]:
        line = plan["attacks"].pop(0)
        progressed = True
        problem = attack_problem(state, gd, player, line)
        if problem is None:
            declare(state, gd, player, line, events)
            return True
        events.append(note(player, "line_dropped", line=attack_line(line), why=problem))
    if plan["pass"] or not may_challenge(state, gd, player):
        _end_turn(state, player, events)
        return True
    if not may_default:
        return progressed
    events.append(Event("agotccg.default_pass", {"player": player}))
    _end_turn(state, player, events)
    return True


def attack_line(line: dict) -> Msg:
    return lines.attack(line["type"], line["opponent"], [lines.ref(a) for a in line["attackers"]],
                        [lines.ref(s) for s in line["stealth"]])


def declare(state: dict, gd: GameData, player: str, line: dict, events: list[Event]) -> None:
    kind, defender = line["type"], line["opponent"]
    attackers = []
    for a in line["attackers"]:
        entry = pos.character(state, player, a)
        if entry is None or not pos.can_act(gd, entry, kind):
            events.append(note(player, "attacker_dropped", card=pos.cref(gd, a), type=kind))
            continue
        entry["knelt"] = True
        state["participants"][player].append(a)
        attackers.append(a)
    state["challenges_done"][player].append(kind)
    stealthy = sum(1 for a in attackers if gd.card(a).has("stealth"))
    chosen: list[str] = []
    for s in line["stealth"]:
        entry = pos.character(state, defender, s)
        if len(chosen) < stealthy and entry is not None and not gd.card(s).has("stealth") and s not in chosen:
            chosen.append(s)
        else:
            events.append(note(player, "stealth_dropped", card=pos.cref(gd, s), owner=defender))
    chosen += default_stealth(state, gd, defender, kind, chosen, stealthy - len(chosen))
    state["challenge"] = {"attacker": player, "defender": defender, "type": kind, "attackers": attackers,
                          "stealth": chosen, "defenders": None, "kills": 0}
    events.append(Event("agotccg.attack", {"player": player, "defender": defender, "type": kind,
                                           "number": len(state["challenges_done"][player]),
                                           "attackers": pos.crefs(gd, attackers),
                                           "strength": sum(pos.strength(gd, pos.character(state, player, a))
                                                           for a in attackers)}))
    if chosen:
        events.append(Event("agotccg.stealth", {"player": player, "defender": defender,
                                                "cards": pos.crefs(gd, chosen)}))
    state["step"] = "defend"


def _defend(state: dict, gd: GameData, may_default: bool, events: list[Event]) -> bool:
    c = state["challenge"]
    defender = c["defender"]
    wanted = defend_line(state, defender)
    if wanted is None:
        if not may_default:
            return False
        events.append(Event("agotccg.default_defend", {"player": defender}))
        wanted = []
    defenders = []
    for d in wanted:
        entry = pos.character(state, defender, d)
        if entry is None or not can_defend(state, gd, entry) or d in defenders:
            events.append(note(defender, "defender_dropped", card=pos.cref(gd, d), type=c["type"]))
            continue
        entry["knelt"] = True
        state["participants"][defender].append(d)
        defenders.append(d)
    c["defenders"] = defenders
    events.append(Event("agotccg.defend", {"player": defender, "attacker": c["attacker"], "type": c["type"],
                                           "defenders": pos.crefs(gd, defenders),
                                           "strength": sum(pos.strength(gd, pos.character(state, defender, d))
                                                           for d in defenders)}))
    resolve(state, gd, events)
    return True


def _side(state: dict, gd: GameData, player: str, cards: list[str]) -> tuple[list[dict], int]:
    entries = [e for e in (pos.character(state, player, c) for c in cards) if e is not None]
    return entries, sum(pos.strength(gd, e) for e in entries)


def resolve(state: dict, gd: GameData, events: list[Event]) -> None:
    """S004 krok 3: strengths, the winner, unopposed, claim, renown."""
    c = state["challenge"]
    attackers, att = _side(state, gd, c["attacker"], c["attackers"])
    defenders, dfn = _side(state, gd, c["defender"], c["defenders"])
    if attackers and att >= 1 and att >= dfn:
        winner = c["attacker"]
    elif defenders and dfn >= 1 and dfn > att:
        winner = c["defender"]
    else:
        winner = None
    c["winner"] = winner
    events.append(Event("agotccg.result", {"attacker": c["attacker"], "defender": c["defender"], "type": c["type"],
                                           "attack": att, "defence": dfn, "winner": winner}))
    if winner is None:
        _finish(state, events)
        return
    if winner == c["attacker"]:
        if dfn == 0:
            events.append(Event("agotccg.unopposed", {"player": winner}))
            gain(state, gd, winner, 1, events)
            if state["phase"] == "over":
                return
        if not _claim(state, gd, events):
            return  # the defender chooses the victims first (step kill), or the game is over
    _renown(state, gd, events)


def _claim(state: dict, gd: GameData, events: list[Event]) -> bool:
    """Apply the attacker's claim; False when it waits for the defender's choice or the game ended."""
    c = state["challenge"]
    attacker, defender = c["attacker"], c["defender"]
    claim = pos.claim_of(state, gd, attacker)
    if c["type"] == "military":
        victims = state["characters"][defender]
        count = min(claim, len(victims))
        events.append(Event("agotccg.claim_military", {"player": attacker, "defender": defender, "claim": claim,
                                                       "count": count}))
        if count == 0:
            return True
        if count < len(victims):
            c["kills"] = count
            state["step"] = "kill"
            return False
        for entry in list(victims):
            kill(state, gd, defender, entry, events, "claim")
        return True
    if c["type"] == "intrigue":
        hand = state["hand"][defender]
        count = min(claim, len(hand))
        chosen = pos.rng(state).sample(list(hand), count) if count else []
        for card in chosen:
            hand.remove(card)
            state["discard"][defender].append(card)
        events.append(Event("agotccg.claim_intrigue", {"player": attacker, "defender": defender, "claim": claim,
                                                       "cards": pos.crefs(gd, chosen)}))
        return True
    count = min(claim, state["house_power"][defender])
    state["house_power"][defender] -= count
    state["house_power"][attacker] += count
    events.append(Event("agotccg.claim_power", {"player": attacker, "defender": defender, "claim": claim,
                                                "moved": count}))
    check_win(state, gd, attacker, events)
    return state["phase"] != "over"


def kill_order(state: dict, gd: GameData, player: str, wanted: list[str] | None) -> list[dict]:
    """The defender's characters in the order they are chosen as claim victims: the KILL line's first,
    then the default order (the cheapest printed cost, then the lowest STR, then the latest in play)."""
    chars = state["characters"][player]
    chosen = []
    for w in wanted or []:
        entry = pos.character(state, player, w)
        if entry is not None and entry not in chosen:
            chosen.append(entry)
    rest = [(gd.card(e["card"]).cost, pos.strength(gd, e), -i, e) for i, e in enumerate(chars) if e not in chosen]
    rest.sort(key=lambda t: t[:3])
    return chosen + [t[3] for t in rest]


def _kill_step(state: dict, gd: GameData, may_default: bool, events: list[Event]) -> bool:
    c = state["challenge"]
    defender = c["defender"]
    wanted = pos.plan(state, defender)["kill"]
    if wanted is None:
        if not may_default:
            return False
        events.append(Event("agotccg.default_kill", {"player": defender, "count": c["kills"]}))
    victims = kill_order(state, gd, defender, wanted)[:c["kills"]]
    for entry in victims:
        kill(state, gd, defender, entry, events, "claim")
    state["step"] = "attack"
    _renown(state, gd, events)
    return True


def _renown(state: dict, gd: GameData, events: list[Event]) -> None:
    c = state["challenge"]
    winner = c["winner"]
    cards = c["attackers"] if winner == c["attacker"] else c["defenders"]
    for card in cards:
        entry = pos.character(state, winner, card)
        if entry is not None and gd.card(card).has("renown"):
            events.append(Event("agotccg.renown", {"player": winner, "card": pos.cref(gd, card)}))
            gain(state, gd, winner, 1, events, on=entry)
            if state["phase"] == "over":
                return
    _finish(state, events)


def _finish(state: dict, events: list[Event]) -> None:
    state["challenge"] = None
    state["step"] = "attack"


# -- dominance ---------------------------------------------------------------------------------------


def dominance(state: dict, gd: GameData, events: list[Event]) -> None:
    """S004 nadvláda: the highest total STR of standing characters gains 1 power; a tie, nobody."""
    totals = {p: sum(pos.strength(gd, e) for e in state["characters"][p] if not e["knelt"]) for p in state["players"]}
    best = max(totals.values())
    leaders = [p for p in state["players"] if totals[p] == best]
    winner = leaders[0] if len(leaders) == 1 else None
    events.append(Event("agotccg.dominance", {"winner": winner,
                                              "totals": [{"player": p, "strength": totals[p]}
                                                         for p in state["players"]]}))
    state["phase"], state["step"] = "standing", None
    if winner is not None:
        gain(state, gd, winner, 1, events)
