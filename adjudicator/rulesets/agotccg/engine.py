"""The step machine: setup, then rounds of six phases, until a house has 15 power.

The engine waits for one thing at a time (:func:`question`): all players at once for the mulligan,
the setup and the plot; then one player: the initiative winner's choice of the first player, each
player's marshalling in turn order, each player's challenges (a challenge at a time), the defender's
defenders, the defender's victims of a military claim. A decision sent ahead and usable at that
moment answers without waiting; :func:`advance` runs on until a decision is missing or a phase
ends (so that every version ends at a natural point, and rules cases can stop there). With
``force`` (the deadline) the decision owed when it is called takes its documented default:

* mulligan: keep; setup: nothing placed; plot: the first plot still in the plot deck (deck-list
  order); first player: the initiative winner; marshalling: nothing; challenges: no (more)
  challenges; defenders: nobody; military claim: the cheapest characters (printed cost, then STR,
  then the one that came into play last).

The draw, dominance and standing phases need nobody. Everything the engine says is a message
(``agotccg.*`` keys with card instances, player ids and numbers); private events carry the
player they are for, and no public event names a card in a hand or a face-down setup card.
"""

from __future__ import annotations

from ...messages import Msg
from ...ruleset import Event, Owed
from . import challenges, lines
from . import position as pos
from .gamedata import GameData
from .position import card_id


def question(state: dict, gd: GameData) -> dict | None:
    """The decision the game waits for now, or None (the next step needs nobody)."""
    phase, step = state["phase"], state["step"]
    if phase == "setup":
        return {"kind": step, "players": list(state["players"])}
    if phase == "plot":
        if step == "choose":
            return {"kind": "plot", "players": list(state["players"])}
        return {"kind": "first", "players": [state["initiative_winner"]]}
    if phase == "marshal":
        return {"kind": "marshal", "players": [pos.acting(state)]}
    if phase == "challenges":
        if step == "attack":
            player = pos.acting(state)
            if not challenges.may_challenge(state, gd, player):
                return None
            return {"kind": "attack", "players": [player]}
        return {"kind": step, "players": [state["challenge"]["defender"]]}
    return None


def decided(state: dict, gd: GameData, kind: str, player: str) -> bool:
    """Is a usable decision on file for ``player``?"""
    plan = pos.plan(state, player)
    if kind == "mulligan":
        return plan["mulligan"] is not None or plan["setup"] is not None
    if kind == "place":
        return plan["setup"] is not None
    if kind == "plot":
        return plan["plot"] is not None and plan["plot"] in state["plots"][player]["deck"]
    if kind == "first":
        return plan["first"] is not None
    if kind == "marshal":
        return plan["marshal"] is not None
    if kind == "attack":
        return bool(plan["attacks"]) or plan["pass"]
    if kind == "defend":
        return challenges.defend_line(state, player) is not None
    if kind == "kill":
        return plan["kill"] is not None
    raise AssertionError(kind)


def pending(state: dict, gd: GameData) -> list[Owed]:
    q = question(state, gd)
    if q is None or state["phase"] == "over":
        return []
    deadline = "planning" if q["kind"] in ("mulligan", "place", "plot") else "step"
    what = describe(state, gd, q)
    return [Owed(p, what, deadline, decided(state, gd, q["kind"], p)) for p in q["players"]]


def describe(state: dict, gd: GameData, q: dict) -> Msg:
    """The question as everyone may read it (the status of a game is public: no secret here)."""
    kind = q["kind"]
    if kind in ("attack", "marshal"):
        player = q["players"][0]
        if kind == "marshal":
            return Msg("agotccg.owed.marshal", round=state["round"], gold=state["gold"].get(player))
        left = [t for t in pos.TYPES if t not in state["challenges_done"][player]]
        return Msg("agotccg.owed.attack", round=state["round"], types=left)
    if kind in ("defend", "kill"):
        c = state["challenge"]
        return Msg(f"agotccg.owed.{kind}", type=c["type"], attacker=c["attacker"], kills=c.get("kills", 0))
    return Msg(f"agotccg.owed.{kind}", round=state["round"])


def note(player: str, key: str, **params) -> Event:
    return Event(f"agotccg.{key}", params, to=(player,))


# ---------------------------------------------------------------------------------------------------


def advance(state: dict, gd: GameData, force: bool) -> list[Event]:
    """Run the game on until a decision is missing or the phase ends."""
    events: list[Event] = []
    start = (state["round"], state["phase"])
    may_default = force
    while state["phase"] != "over":
        progressed = _step(state, gd, may_default, events)
        may_default = False
        if not progressed or (state["round"], state["phase"]) != start:
            break
    return events


def _step(state: dict, gd: GameData, may_default: bool, events: list[Event]) -> bool:
    phase, step = state["phase"], state["step"]
    if phase == "setup":
        return _mulligans(state, gd, may_default, events) if step == "mulligan" else _setup(state, gd, may_default,
                                                                                                events)
    if phase == "plot":
        return _plots(state, gd, may_default, events) if step == "choose" else _first(state, gd, may_default, events)
    if phase == "draw":
        _draw_phase(state, gd, events)
        return True
    if phase == "marshal":
        return _marshal(state, gd, may_default, events)
    if phase == "challenges":
        return challenges.step(state, gd, may_default, events)
    if phase == "dominance":
        challenges.dominance(state, gd, events)
        return True
    if phase == "standing":
        _standing(state, gd, events)
        return True
    return False


# -- setup -----------------------------------------------------------------------------------------


def draw(state: dict, player: str, count: int) -> list[str]:
    deck = state["deck"][player]
    drawn, state["deck"][player] = deck[:count], deck[count:]
    state["hand"][player].extend(drawn)
    return drawn


def _mulligans(state: dict, gd: GameData, may_default: bool, events: list[Event]) -> bool:
    missing = [p for p in state["players"] if not decided(state, gd, "mulligan", p)]
    if missing and not may_default:
        return False
    for p in missing:
        events.append(Event("agotccg.default_keep", {"player": p}))
    for p in state["players"]:
        plan = pos.plan(state, p)
        if plan["mulligan"] == "mulligan":
            hand = state["hand"][p]
            state["deck"][p] = state["deck"][p] + hand
            state["hand"][p] = []
            pos.rng(state).shuffle(state["deck"][p])
            drawn = draw(state, p, gd.game.hand)
            state["mulligans"][p] = True
            events.append(Event("agotccg.mulligan", {"player": p, "count": len(drawn)}))
            events.append(note(p, "new_hand", cards=pos.crefs(gd, drawn)))
        plan["mulligan"] = None
    state["step"] = "place"
    events.append(Event("agotccg.setup_begins", {"gold": gd.game.setup_gold}))
    return True


def setup_problem(state: dict, gd: GameData, player: str, cards: list[str]) -> Msg | None:
    """Why these setup cards cannot go into play (S004 příprava 05), or None."""
    houses = state["houses"][player]
    if len(set(cards)) != len(cards) or any(c not in state["hand"][player] for c in cards):
        return Msg("agotccg.why.not_in_hand")
    for c in cards:
        if gd.card(c).type not in ("character", "location"):
            return Msg("agotccg.why.setup_type", card=card_id(c))
    if sum(1 for c in cards if gd.card(c).has("limited")) > gd.game.setup_limited:
        return Msg("agotccg.why.setup_limited")
    characters = [gd.card(c).character for c in cards if gd.card(c).unique]
    if len(set(characters)) != len(characters):
        return Msg("agotccg.why.setup_unique")
    cost = sum(gd.cost(c, houses) for c in cards)
    if cost > gd.game.setup_gold:
        return Msg("agotccg.why.setup_gold", cost=cost, gold=gd.game.setup_gold)
    return None


def _setup(state: dict, gd: GameData, may_default: bool, events: list[Event]) -> bool:
    missing = [p for p in state["players"] if not decided(state, gd, "place", p)]
    if missing and not may_default:
        return False
    for p in missing:
        events.append(Event("agotccg.default_setup", {"player": p}))
    for p in state["players"]:
        plan = pos.plan(state, p)
        cards = list(plan["setup"] or [])
        problem = setup_problem(state, gd, p, cards)
        if problem is not None:
            events.append(note(p, "line_dropped", line=lines.setup([lines.ref(c) for c in cards]), why=problem))
            cards = []
        for c in cards:
            state["hand"][p].remove(c)
            put_into_play(state, gd, p, c)
        plan["setup"] = None
        cost = sum(gd.cost(c, state["houses"][p]) for c in cards)
        events.append(Event("agotccg.setup_revealed", {"player": p, "cards": pos.crefs(gd, cards), "cost": cost}))
    for p in state["players"]:
        drawn = draw(state, p, max(0, gd.game.hand - len(state["hand"][p])))
        events.append(Event("agotccg.draws", {"player": p, "count": len(drawn), "left": len(state["deck"][p])}))
        if drawn:
            events.append(note(p, "you_draw", cards=pos.crefs(gd, drawn)))
    _new_round(state, events)
    return True


def put_into_play(state: dict, gd: GameData, player: str, instance: str) -> None:
    if gd.card(instance).type == "character":
        state["characters"][player].append({"card": instance, "knelt": False, "power": 0, "attachments": [],
                                            "dupes": []})
    else:
        state["locations"][player].append({"card": instance, "dupes": []})


def _new_round(state: dict, events: list[Event]) -> None:
    state["round"] += 1
    state["phase"], state["step"] = "plot", "choose"
    state["first"], state["order"], state["active"] = None, [], 0
    state["initiative"], state["initiative_winner"] = {}, None
    state["limited"] = {p: 0 for p in state["players"]}
    state["challenges_done"] = {p: [] for p in state["players"]}
    state["participants"] = {p: [] for p in state["players"]}
    state["challenge"] = None
    events.append(Event("agotccg.round_begins", {"round": state["round"]}))


# -- plot ------------------------------------------------------------------------------------------


def _plots(state: dict, gd: GameData, may_default: bool, events: list[Event]) -> bool:
    missing = [p for p in state["players"] if not decided(state, gd, "plot", p)]
    if missing and not may_default:
        return False
    for p in missing:
        pos.plan(state, p)["plot"] = state["plots"][p]["deck"][0]
        events.append(Event("agotccg.default_plot", {"player": p}))
    for p in state["players"]:
        plots = state["plots"][p]
        chosen = pos.plan(state, p)["plot"]
        pos.plan(state, p)["plot"] = None
        if plots["current"]:
            plots["used"].append(plots["current"])
        plots["deck"].remove(chosen)
        plots["current"] = chosen
        card = gd.card(chosen)
        events.append(Event("agotccg.plot_revealed", {"player": p, "plot": chosen, "income": card.income,
                                                      "initiative": card.initiative, "claim": card.claim}))
        if not plots["deck"]:  # S004: the last plot used: the others return (the current one stays)
            order = gd.deck(state["decks"][p]).plots if state["decks"][p] in gd.deck_by_id else plots["used"]
            plots["deck"] = [c for c in order if c in plots["used"]] + [c for c in plots["used"] if c not in order]
            plots["used"] = []
            events.append(Event("agotccg.plots_return", {"player": p, "count": len(plots["deck"])}))
    totals = {p: pos.plot_card(state, gd, p).initiative + pos.bonus(state, gd, p, "initiative")
              for p in state["players"]}
    state["initiative"] = totals
    best = max(totals.values())
    tied = [p for p in state["players"] if totals[p] == best]
    how = "highest"
    if len(tied) > 1:
        fewest = min(pos.total_power(state, p) for p in tied)
        tied = [p for p in tied if pos.total_power(state, p) == fewest]
        how = "power"
        if len(tied) > 1:
            tied = [pos.rng(state).choice(tied)]
            how = "random"
    winner = tied[0]
    state["initiative_winner"] = winner
    events.append(Event("agotccg.initiative", {"player": winner, "how": how,
                                               "totals": [{"player": p, "initiative": totals[p],
                                                           "power": pos.total_power(state, p)}
                                                          for p in state["players"]]}))
    state["step"] = "first"
    return True


def _first(state: dict, gd: GameData, may_default: bool, events: list[Event]) -> bool:
    winner = state["initiative_winner"]
    chosen = pos.plan(state, winner)["first"]
    if chosen is None or chosen not in state["players"]:
        if not may_default:
            return False
        chosen = winner
        events.append(Event("agotccg.default_first", {"player": winner}))
    players = state["players"]
    i = players.index(chosen)
    state["first"] = chosen
    state["order"] = players[i:] + players[:i]
    events.append(Event("agotccg.first_player", {"player": winner, "first": chosen, "order": list(state["order"])}))
    state["phase"], state["step"] = "draw", None
    return True


# -- draw ------------------------------------------------------------------------------------------


def _draw_phase(state: dict, gd: GameData, events: list[Event]) -> None:
    for p in state["order"]:
        drawn = draw(state, p, gd.game.draw)
        events.append(Event("agotccg.draws", {"player": p, "count": len(drawn), "left": len(state["deck"][p])}))
        if drawn:
            events.append(note(p, "you_draw", cards=pos.crefs(gd, drawn)))
    state["phase"], state["active"] = "marshal", 0
    state["gold"] = {p: None for p in state["players"]}
    _start_marshalling(state, gd, events)


# -- marshalling -----------------------------------------------------------------------------------


def income(state: dict, gd: GameData, player: str) -> tuple[int, int]:
    """(the plot's income, the bonuses) of the player (S004 velení)."""
    return pos.plot_card(state, gd, player).income, pos.bonus(state, gd, player, "income")


def marshal_problem(state: dict, gd: GameData, player: str, item: dict) -> Msg | None:
    """Why this MARSHAL item cannot be played now (None: it can)."""
    inst = item["card"]
    if inst not in state["hand"][player]:
        return Msg("agotccg.why.not_in_hand")
    card = gd.card(inst)
    if card.unique and pos.unique_in_play(state, gd, player, card.character) is not None:
        return None  # a duplicate: free, whatever its text says
    if card.unique and card.character in pos.dead_characters(state, gd, player):
        return Msg("agotccg.why.dead_unique", card=card.id)
    if card.has("limited") and state["limited"][player] >= gd.game.round_limited:
        return Msg("agotccg.why.limited")
    cost = gd.cost(inst, state["houses"][player])
    if cost > state["gold"][player]:
        return Msg("agotccg.why.gold", cost=cost, gold=state["gold"][player])
    if card.type == "attachment":
        owner = item.get("owner") or player
        target = pos.character(state, owner, item["on"]) if item.get("on") else None
        if target is None:
            return Msg("agotccg.why.no_target")
        if gd.card(target["card"]).has("no-attachments"):
            return Msg("agotccg.why.no_attachments", card=card_id(target["card"]))
    return None


def marshal_card(state: dict, gd: GameData, player: str, item: dict, events: list[Event]) -> None:
    """Play a card whose :func:`marshal_problem` is None."""
    inst = item["card"]
    card = gd.card(inst)
    state["hand"][player].remove(inst)
    if card.unique:
        twin = pos.unique_in_play(state, gd, player, card.character)
        if twin is not None:
            twin["dupes"].append(inst)
            events.append(Event("agotccg.duplicate", {"player": player, "card": pos.cref(gd, inst),
                                                          "on": pos.cref(gd, twin["card"])}))
            return
    cost = gd.cost(inst, state["houses"][player])
    state["gold"][player] -= cost
    if card.has("limited"):
        state["limited"][player] += 1
    if card.type == "attachment":
        owner = item.get("owner") or player
        pos.character(state, owner, item["on"])["attachments"].append({"card": inst, "owner": player})
        events.append(Event("agotccg.marshals", {"player": player, "card": pos.cref(gd, inst), "cost": cost,
                                                 "on": pos.cref(gd, item["on"]), "owner": owner}))
        return
    put_into_play(state, gd, player, inst)
    events.append(Event("agotccg.marshals", {"player": player, "card": pos.cref(gd, inst), "cost": cost,
                                                 "on": None, "owner": None}))


def _start_marshalling(state: dict, gd: GameData, events: list[Event]) -> None:
    """The active player's marshalling begins: the income for this round (S004 velení)."""
    player = pos.acting(state)
    plot_income, bonus = income(state, gd, player)
    state["gold"][player] = plot_income + bonus
    events.append(Event("agotccg.income", {"player": player, "gold": plot_income + bonus, "plot": plot_income,
                                           "bonus": bonus}))


def _marshal(state: dict, gd: GameData, may_default: bool, events: list[Event]) -> bool:
    player = pos.acting(state)
    plan = pos.plan(state, player)
    items = plan["marshal"]
    if items is None:
        if not may_default:
            return False
        events.append(Event("agotccg.default_marshal", {"player": player}))
        items = []
    for item in items:
        problem = marshal_problem(state, gd, player, item)
        if problem is not None:
            line = lines.marshal([{"card": lines.ref(item["card"]),
                                   "on": lines.ref(item["on"], owner=item.get("owner")) if item.get("on") else None}])
            events.append(note(player, "line_dropped", line=line, why=problem))
            continue
        marshal_card(state, gd, player, item, events)
    plan["marshal"] = None
    events.append(Event("agotccg.marshal_done", {"player": player, "lost": state["gold"][player]}))
    state["gold"][player] = None
    state["active"] += 1
    if state["active"] >= len(state["order"]):
        state["phase"], state["step"], state["active"] = "challenges", "attack", 0
        events.append(Event("agotccg.challenges_begin", {"order": list(state["order"])}))
    else:
        _start_marshalling(state, gd, events)
    return True


# -- standing --------------------------------------------------------------------------------------


def _standing(state: dict, gd: GameData, events: list[Event]) -> None:
    for p in state["players"]:
        for entry in state["characters"][p]:
            entry["knelt"] = False
    events.append(Event("agotccg.stand", {"round": state["round"]}))
    _new_round(state, events)
