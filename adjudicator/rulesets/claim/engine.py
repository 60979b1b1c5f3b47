"""The step machine: one card (or one prize choice) per step, tricks, phases, the end.

A step is one decision: the card of the player whose turn it is (``step: play``) or the choice
of a prize after a phase-1 trick (``step: take``). ``advance`` consumes it (from the plans sent
ahead, else the default), and when it completes a trick resolves the trick, hands out the cards
and sets up the next trick, so that a step never waits on nobody.

Defaults when the deadline passes: the lowest legal card (equal values: the faction listed
first in the game data); the prize of higher value (equal values: the one revealed first),
which for a Seer means keeping the prize on the table rather than the card looked at.
"""

from __future__ import annotations

from ...ruleset import Event, Owed
from . import position as pos
from . import rules, scoring
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
        what = f"a card for trick {state['trick']} of phase {state['phase']}"
        if not state["table"]:
            what += " (to lead)"
        # (public in every status block: nothing here may tell whether plays were sent ahead)
        return [Owed(player, what, "step", done)]
    choice = state["choice"]
    player = choice["player"]
    done = pos.planned_take(state, gd, player) is not None
    if choice["kind"] == "seer":
        what = f"the Seer's choice for trick {state['trick']}: TAKE PRIZE or TAKE DECK"
    else:
        what = f"a pick of the prizes of trick {state['trick']}: TAKE {_options_text(state, gd)}"
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
            events.append(Event(f"Your play on file ({pos.line_text(gd, 'PLAY', lines[0])}) fits no legal card for "
                                f"trick {state['trick']}: the judge asks you for a card.", to=(player,)))
    elif state["step"] == "take":
        player = state["choice"]["player"]
        lines = pos.plan(state, player)["take"]
        if lines and pos.take_for(state, gd, player, lines[0]) is None:
            events.append(Event(f"Your choice on file ({pos.line_text(gd, 'TAKE', lines[0])}) fits none of your "
                                f"options for trick {state['trick']} ({_options_text(state, gd)}): the judge asks "
                                "you for a pick.", to=(player,)))
    return events


def _options_text(state: dict, gd: GameData) -> str:
    """The chooser's options, as a TAKE line may name them: ``Dragon 1 or Giant 7 or DECK``."""
    return " or ".join("DECK" if o == "deck" else gd.card_name(o) for o in pos.take_options(state))


def _advance_play(state: dict, gd: GameData, events: list[Event]) -> None:
    player = state["turn"]
    lines = pos.plan(state, player)["play"]
    card = pos.play_for(state, gd, player, lines[0]) if lines else None
    if card is not None:
        lines.pop(0)
    else:
        if lines:
            dropped = lines.pop(0)
            events.append(Event(f"Your play on file ({pos.line_text(gd, 'PLAY', dropped)}) fits no legal card for "
                                f"trick {state['trick']}; it is dropped.", to=(player,)))
        card = rules.lowest(gd, pos.legal(state, gd, player))
        events.append(Event(f"{player} sent no card for trick {state['trick']}: the judge plays "
                            f"{player}'s lowest legal card (default)."))
    play(state, gd, player, card, events)


def play(state: dict, gd: GameData, player: str, card: str, events: list[Event]) -> None:
    """``player`` plays ``card`` (known legal) to the trick; the trick resolves when complete."""
    state["hands"][player].remove(card)
    first = not state["table"]
    state["table"].append({"player": player, "card": card})
    events.append(Event(f"{player} {'leads' if first else 'plays'} {gd.card_name(card)}."))
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
            events.append(Event(f"Your choice on file ({pos.line_text(gd, 'TAKE', dropped)}) fits none of your "
                                f"options for trick {state['trick']}; it is dropped.", to=(player,)))
        option = rules.best_prize(gd, state["prizes"])
        events.append(Event(f"{player} sent no choice for trick {state['trick']}: the judge takes the prize "
                            f"{gd.card_name(option)} for {player} (default)."))
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
    text = f"{winner} wins trick {state['trick']} with {gd.card_name(winning)}."
    if len(plays) > 2 and state["phase"] == 1:
        text += " Ranking: " + ", ".join(ranked) + "."
    if leader != winner:
        text += f" {leader} played the last Dragon and leads the next trick."
    events.append(Event(text))
    state["table"] = []
    state["leader"] = leader
    if state["phase"] == 1:
        undead = [p["card"] for p in plays if gd.faction_of(p["card"]) == "undead"]
        if undead:
            state["score"][winner] += undead
            events.append(Event(f"The Undead played ({pos.cards_text(gd, undead)}) go to {winner}'s score pile."))
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
        events.append(Event(f"{winner} won with a Seer and looks at the top card of the deck."))
        events.append(Event(f"The top card of the deck is {gd.card_name(peek)}.", to=(winner,)))
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
        events.append(Event(f"{player} takes the top card of the deck instead of a prize."))
        events.append(Event(f"You take {gd.card_name(card)}.", to=(player,)))
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
    events.append(Event(f"{player} takes the prize {gd.card_name(prize)}."))


def _draw(state: dict, gd: GameData, player: str, events: list[Event]) -> None:
    card = state["deck"].pop(0)
    state["followers"][player].append(card)
    events.append(Event(f"{player} draws a card blind."))
    events.append(Event(f"You draw {gd.card_name(card)} blind.", to=(player,)))


def _claim(state: dict, gd: GameData, plays: list[dict], ranked: list[str], events: list[Event]) -> None:
    """Phase 2: the played cards to score piles, with the Dwarves, Trolls, Gnomes and Giants."""
    winner = ranked[0]
    cards = [p["card"] for p in plays]
    dwarves = [c for c in cards if gd.faction_of(c) == "dwarves"]
    if dwarves:
        # 2 players: the loser; 3-4 players: the lowest card, equal values the later player.
        to = ranked[1] if len(plays) == 2 else rules.lowest_player(gd, plays)
        state["score"][to] += dwarves
        events.append(Event(f"{to} takes the Dwarves ({pos.cards_text(gd, dwarves)}) to the score pile."))
    trolls = [c for c in cards if gd.faction_of(c) == "trolls"] + state["trolls_aside"]
    rest = [c for c in cards if c not in dwarves and gd.faction_of(c) != "trolls"]
    if trolls:
        best = rules.highest(gd, trolls)
        state["score"][winner].append(best)
        state["trolls_aside"] = [t for t in trolls if t != best]
        text = f"{winner} scores {gd.card_name(best)} (one Troll a trick)"
        if state["trolls_aside"]:
            text += f"; set aside for the next trick: {pos.cards_text(gd, state['trolls_aside'])}"
        events.append(Event(text + "."))
    kept = [c for c in rest if gd.faction_of(c) == "gnomes"]
    scored = [c for c in rest if c not in kept]
    state["gnomes"][winner] += kept
    state["score"][winner] += scored
    if scored:
        events.append(Event(f"{winner} scores {pos.cards_text(gd, scored)}."))
    if kept:
        events.append(Event(f"{winner} keeps {pos.cards_text(gd, kept)} face up in front."))
    for giant in (c for c in cards if gd.faction_of(c) == "giants"):
        value = gd.value_of(giant)
        for victim in pos.opponents(state, winner):
            gnome = rules.find(gd, state["gnomes"][victim], "gnomes", value)
            if gnome is not None:
                state["gnomes"][victim].remove(gnome)
                state["crushed"].append(gnome)
                events.append(Event(f"{gd.card_name(giant)} crushes {victim}'s {gd.card_name(gnome)}."))
    if state["trolls_aside"] and not any(state["hands"].values()):
        events.append(Event(f"{winner} won the last trick and scores the Trolls set aside: "
                            f"{pos.cards_text(gd, state['trolls_aside'])}."))
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
        events.append(Event(f"Phase 1 is over: every player takes their {len(state['hands'][state['leader']])} "
                            "followers into hand."))
    else:
        state["trick"] += 1
    start_trick(state, gd, events)


def start_trick(state: dict, gd: GameData, events: list[Event] | None) -> None:
    """Set up the trick ``state['trick']``: the leader's turn and, in phase 1, the prizes revealed."""
    state["turn"] = state["leader"]
    state["table"] = []
    text = f"Phase {state['phase']}, trick {state['trick']}: {state['leader']} leads."
    if state["phase"] == 1:
        state["prizes"] = [state["deck"].pop(0) for _ in range(state["revealed"])]
        text += (" The prize is " if len(state["prizes"]) == 1 else " The prizes are ") + \
            " and ".join(gd.card_name(c) for c in state["prizes"]) + "."
    if events is not None:
        events.append(Event(text))


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
        side = result["factions"][faction]
        counts = ", ".join(f"{s} {scoring.faction_key(gd, cards, faction)[0]}" for s, cards in piles.items())
        name = gd.factions[faction].name
        events.append(Event(f"The {name} join {side} ({counts})." if side else f"The {name} join nobody ({counts})."))
    rows = "; ".join(f"{s}: {len(r['factions'])} factions, {r['cards']} cards, {r['points']} points"
                     for s, r in result["sides"].items())
    if winner == "draw":
        events.append(Event(f"The game is over: a draw between {' and '.join(result['tied'])} ({rows})."))
    else:
        events.append(Event(f"The game is over: {winner} wins on {scoring.decided_by(result, winner)} ({rows})."))
