"""The step machine: one card (or one prize choice) per step, tricks, phases, the end.

A step is one decision: the card of the player whose turn it is (``step: play``) or the choice
of a prize after a phase-1 trick (``step: take``). ``advance`` consumes it (from the plans sent
ahead, else the default), and when it completes a trick resolves the trick, hands out the cards
and sets up the next trick, so that a step never waits on nobody.

Defaults when the deadline passes: the lowest legal card (equal values: the faction listed
first in the game data); the prize of higher value (equal values: the one revealed first),
which for a Seer means keeping the prize on the table rather than the card looked at.

Everything it tells players is a message (``claim.*`` keys, ``templates/<lang>/claim/messages.yaml``)
whose parameters are plain data: players, numbers, cards as ``{faction, value}`` (``terms.py``) and
command lines as ``claim.line.*`` messages, so that each language names the cards in the forms
its phrases need.
"""

from __future__ import annotations

from ...messages import Msg
from ...ruleset import Event, Owed
from . import position as pos
from . import rules, scoring, terms
from .gamedata import GameData


# ---------------------------------------------------------------------------------------------
# Who owes what
# ---------------------------------------------------------------------------------------------


def pending(state: dict, gd: GameData) -> list[Owed]:
    if state["winner"] is not None or state["step"] == "over":
        return []
    if state["step"] == "play":
        player = state["turn"]
        done = pos.planned_play(state, gd, player) is not None
        what = Msg("claim.owed.card", trick=state["trick"], phase=state["phase"], lead=not state["table"])
        # (public in every status block: nothing here may tell whether plays were sent ahead)
        return [Owed(player, what, "step", done)]
    choice = state["choice"]
    player = choice["player"]
    done = pos.planned_take(state, gd, player) is not None
    if choice["kind"] == "seer":
        what = Msg("claim.owed.seer", trick=state["trick"])
    else:
        what = Msg("claim.owed.pick", trick=state["trick"], **_options(state, gd))
    return [Owed(player, what, "step", done)]


# ---------------------------------------------------------------------------------------------
# One step
# ---------------------------------------------------------------------------------------------


def advance(state: dict, gd: GameData, force: bool) -> list[Event]:
    events: list[Event] = []
    if state["winner"] is not None or state["step"] == "over":
        return events
    if state["step"] == "play":
        _advance_play(state, gd, events)
    else:
        _advance_take(state, gd, events)
    if state["step"] == "play" and state["winner"] is None:
        player = state["turn"]
        lines = pos.plan(state, player)["play"]
        if lines and pos.play_for(state, gd, player, lines[0]) is None:
            events.append(Event("claim.plan.play_unfit", {"line": terms.line_msg("play", lines[0]),
                                                          "trick": state["trick"]}, to=(player,)))
    elif state["step"] == "take":
        player = state["choice"]["player"]
        lines = pos.plan(state, player)["take"]
        if lines and pos.take_for(state, gd, player, lines[0]) is None:
            events.append(Event("claim.plan.take_unfit", {"line": terms.line_msg("take", lines[0]),
                                                          "trick": state["trick"], **_options(state, gd)},
                                to=(player,)))
    return events


def _options(state: dict, gd: GameData) -> dict:
    """The chooser's options, as a TAKE line may name them: ``options`` (the prize cards) and
    ``deck`` (whether the card a Seer looked at is one)."""
    options = pos.take_options(state)
    return {"options": terms.in_order(gd, [o for o in options if o != "deck"]), "deck": "deck" in options}


def _advance_play(state: dict, gd: GameData, events: list[Event]) -> None:
    player = state["turn"]
    lines = pos.plan(state, player)["play"]
    card = pos.play_for(state, gd, player, lines[0]) if lines else None
    if card is not None:
        lines.pop(0)
    else:
        if lines:
            dropped = lines.pop(0)
            events.append(Event("claim.plan.play_dropped", {"line": terms.line_msg("play", dropped),
                                                            "trick": state["trick"]}, to=(player,)))
        card = rules.lowest(gd, pos.legal(state, gd, player))
        events.append(Event("claim.default.play", player=player, trick=state["trick"]))
    play(state, gd, player, card, events)


def play(state: dict, gd: GameData, player: str, card: str, events: list[Event]) -> None:
    """``player`` plays ``card`` (known legal) to the trick; the trick resolves when complete."""
    state["hands"][player].remove(card)
    first = not state["table"]
    state["table"].append({"player": player, "card": card})
    events.append(Event("claim.leads" if first else "claim.plays", player=player, card=terms.card(gd, card)))
    if len(state["table"]) == len(state["players"]):
        _resolve(state, gd, events)
    else:
        state["turn"] = pos.next_player(state, player)


def _advance_take(state: dict, gd: GameData, events: list[Event]) -> None:
    choice = state["choice"]
    player = choice["player"]
    lines = pos.plan(state, player)["take"]
    option = pos.take_for(state, gd, player, lines[0]) if lines else None
    if option is not None:
        lines.pop(0)
    else:
        if lines:
            dropped = lines.pop(0)
            events.append(Event("claim.plan.take_dropped", {"line": terms.line_msg("take", dropped),
                                                            "trick": state["trick"]}, to=(player,)))
        option = rules.best_prize(gd, state["prizes"])
        events.append(Event("claim.default.take", player=player, trick=state["trick"], card=terms.card(gd, option)))
    take(state, gd, option, events)


# ---------------------------------------------------------------------------------------------
# Tricks
# ---------------------------------------------------------------------------------------------


def _resolve(state: dict, gd: GameData, events: list[Event]) -> None:
    plays = state["table"]
    order = rules.ranking(gd, plays)
    ranked = [plays[i]["player"] for i in order]
    winner, winning = ranked[0], plays[order[0]]["card"]
    leader = rules.next_leader(gd, plays, winner)
    state["last"] = {"phase": state["phase"], "trick": state["trick"], "prizes": list(state["prizes"]),
                     "plays": [dict(p) for p in plays], "ranking": ranked, "winner": winner, "leader": leader}
    events.append(Event("claim.trick.won", winner=winner, trick=state["trick"], card=terms.card(gd, winning),
                        ranking=list(ranked) if len(plays) > 2 and state["phase"] == 1 else [],
                        leader=leader if leader != winner else None))  # the last Dragon's player leads
    state["table"] = []
    state["leader"] = leader
    if state["phase"] == 1:
        undead = [p["card"] for p in plays if gd.faction_of(p["card"]) == "undead"]
        if undead:
            state["score"][winner] += undead
            events.append(Event("claim.undead", player=winner, cards=terms.cards(gd, undead)))
        state["discard"] += [p["card"] for p in plays if p["card"] not in undead]
        _prizes(state, gd, ranked, winning, events)
    else:
        _claim(state, gd, plays, ranked, events)
        _finish_trick(state, gd, events)


def _distinct(gd: GameData, cards: list[str]) -> bool:
    return len({(gd.faction_of(c), gd.value_of(c)) for c in cards}) > 1


def _prizes(state: dict, gd: GameData, ranked: list[str], winning: str, events: list[Event]) -> None:
    """Phase 1: the prizes to the ranked players, asking the winner where there is a choice."""
    winner = ranked[0]
    if gd.faction_of(winning) == "seers":
        peek = state["deck"][0]
        state["choice"] = {"player": winner, "kind": "seer" if len(ranked) == 2 else "first", "peek": peek,
                           "ranking": ranked}
        state["step"] = "take"
        events.append(Event("claim.seer.looks", player=winner))
        events.append(Event("claim.seer.peek", {"card": terms.card(gd, peek)}, to=(winner,)))
        return
    if len(ranked) > 2 and _distinct(gd, state["prizes"]):
        state["choice"] = {"player": winner, "kind": "first", "peek": None, "ranking": ranked}
        state["step"] = "take"
        return
    prizes = list(state["prizes"])
    for player, prize in zip(ranked, prizes):
        _give(state, gd, player, prize, events)
    for player in ranked[len(prizes):]:
        _draw(state, gd, player, events)
    _finish_trick(state, gd, events)


def take(state: dict, gd: GameData, option: str, events: list[Event]) -> None:
    """The chooser takes ``option`` (a prize id, or ``deck``: the card the Seer looked at)."""
    choice = state["choice"]
    ranked, player = choice["ranking"], choice["player"]
    at = ranked.index(player)
    if option == "deck":
        card = state["deck"].pop(0)
        state["followers"][player].append(card)
        events.append(Event("claim.take.deck", player=player))
        events.append(Event("claim.take.deck_card", {"card": terms.card(gd, card)}, to=(player,)))
        rest = ranked[at + 1:]
        prizes = list(state["prizes"])
        if len(prizes) > 1 and _distinct(gd, prizes):
            state["choice"] = {"player": rest[0], "kind": "second", "peek": None, "ranking": ranked}
            return  # still step take: the next player picks
        for who, prize in zip(rest, prizes):
            _give(state, gd, who, prize, events)
        for who in rest[len(prizes):]:
            _draw(state, gd, who, events)
    else:
        _give(state, gd, player, option, events)
        rest = ranked[at + 1:]
        others = list(state["prizes"])
        for who, prize in zip(rest, others):
            _give(state, gd, who, prize, events)
        for who in rest[len(others):]:
            _draw(state, gd, who, events)
    _finish_trick(state, gd, events)


def _give(state: dict, gd: GameData, player: str, prize: str, events: list[Event]) -> None:
    state["prizes"].remove(prize)
    state["followers"][player].append(prize)
    events.append(Event("claim.take.prize", player=player, card=terms.card(gd, prize)))


def _draw(state: dict, gd: GameData, player: str, events: list[Event]) -> None:
    card = state["deck"].pop(0)
    state["followers"][player].append(card)
    events.append(Event("claim.draw", player=player))
    events.append(Event("claim.draw.card", {"card": terms.card(gd, card)}, to=(player,)))


def _claim(state: dict, gd: GameData, plays: list[dict], ranked: list[str], events: list[Event]) -> None:
    """Phase 2: the played cards to score piles, with the Dwarves, Trolls, Gnomes and Giants."""
    winner = ranked[0]
    cards = [p["card"] for p in plays]
    dwarves = [c for c in cards if gd.faction_of(c) == "dwarves"]
    if dwarves:
        # 2 players: the loser; 3-4 players: the lowest card, equal values the later player.
        to = ranked[1] if len(plays) == 2 else rules.lowest_player(gd, plays)
        state["score"][to] += dwarves
        events.append(Event("claim.dwarves", player=to, cards=terms.cards(gd, dwarves)))
    trolls = [c for c in cards if gd.faction_of(c) == "trolls"] + state["trolls_aside"]
    rest = [c for c in cards if c not in dwarves and gd.faction_of(c) != "trolls"]
    if trolls:
        best = rules.highest(gd, trolls)
        state["score"][winner].append(best)
        state["trolls_aside"] = [t for t in trolls if t != best]
        events.append(Event("claim.trolls.score", player=winner, card=terms.card(gd, best),
                            aside=terms.cards(gd, state["trolls_aside"])))
    kept = [c for c in rest if gd.faction_of(c) == "gnomes"]
    scored = [c for c in rest if c not in kept]
    state["gnomes"][winner] += kept
    state["score"][winner] += scored
    if scored:
        events.append(Event("claim.scores", player=winner, cards=terms.cards(gd, scored)))
    if kept:
        events.append(Event("claim.gnomes.kept", player=winner, cards=terms.cards(gd, kept)))
    for giant in (c for c in cards if gd.faction_of(c) == "giants"):
        value = gd.value_of(giant)
        for victim in pos.opponents(state, winner):
            gnome = rules.find(gd, state["gnomes"][victim], "gnomes", value)
            if gnome is not None:
                state["gnomes"][victim].remove(gnome)
                state["crushed"].append(gnome)
                events.append(Event("claim.giant.crushes", giant=terms.card(gd, giant), victim=victim,
                                    gnome=terms.card(gd, gnome)))
    if state["trolls_aside"] and not any(state["hands"].values()):
        events.append(Event("claim.trolls.last", player=winner, cards=terms.cards(gd, state["trolls_aside"])))
        state["score"][winner] += state["trolls_aside"]
        state["trolls_aside"] = []


def _finish_trick(state: dict, gd: GameData, events: list[Event]) -> None:
    state["choice"] = None
    state["step"] = "play"
    state["prizes"] = []
    for player in state["players"]:
        pos.plan(state, player)["take"] = []  # a TAKE line is for one trick's prizes
    if not any(state["hands"].values()):
        if state["phase"] == 2:
            _end(state, gd, events)
            return
        for player in state["players"]:
            state["hands"][player] = sorted(state["followers"][player], key=gd.sort_key)
            state["followers"][player] = []
            pos.plan(state, player)["play"] = []  # plays sent ahead expire with the phase
        state["phase"], state["trick"] = 2, 1
        events.append(Event("claim.phase_over", count=len(state["hands"][state["leader"]])))
    else:
        state["trick"] += 1
    start_trick(state, gd, events)


def start_trick(state: dict, gd: GameData, events: list[Event] | None) -> None:
    """Set up the trick ``state['trick']``: the leader's turn and, in phase 1, the prizes revealed."""
    state["turn"] = state["leader"]
    state["table"] = []
    if state["phase"] == 1:
        state["prizes"] = [state["deck"].pop(0) for _ in range(state["revealed"])]
    if events is not None:
        events.append(Event("claim.trick.start", phase=state["phase"], trick=state["trick"], leader=state["leader"],
                            prizes=terms.in_order(gd, state["prizes"]) if state["phase"] == 1 else []))


def _end(state: dict, gd: GameData, events: list[Event]) -> None:
    for player in state["players"]:
        state["score"][player] += state["gnomes"][player]  # kept Gnomes score at the end
        state["gnomes"][player] = []
    winner, result = scoring.outcome(gd, state)
    state["result"] = result
    state["winner"] = winner
    state["step"] = "over"
    state["turn"] = None
    piles = scoring.piles(state)
    for faction in state["factions"]:
        counts = [{"side": s, "count": scoring.faction_key(gd, cards, faction)[0]} for s, cards in piles.items()]
        events.append(Event("claim.faction.joins", faction=faction, side=result["factions"][faction], counts=counts))
    rows = [{"side": s, "factions": len(r["factions"]), "cards": r["cards"], "points": r["points"]}
            for s, r in result["sides"].items()]
    if winner == "draw":
        events.append(Event("claim.over.draw", tied=list(result["tied"]), rows=rows))
    else:
        events.append(Event("claim.over.win", winner=winner, by=scoring.decided_by(result, winner), rows=rows))
