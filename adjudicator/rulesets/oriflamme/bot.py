"""A seeded random player: for whatever a player owes, a random legal decision as mail text.

Bots write the mail grammar, in English or Czech, answering the question and now and then
sending decisions ahead (more PLACE lines, REVEAL ... IN ROUND, standing TARGET lines) and
mail-level commands, so that every self-play game exercises the parser and the plan. They are
for self-play, not for strength. ``rng`` is owned by the caller: same seed, same game.
"""

from __future__ import annotations

import random

from . import effects, engine
from . import position as pos
from .gamedata import GameData

AHEAD = {"archer": ["FIRST", "LAST"], "soldier": ["BEFORE", "AFTER"], "spy": ["BEFORE", "AFTER"],
         "shapeshifter": ["BEFORE", "AFTER, LAST", "BEFORE, AFTER"], "assassination": ["FIRST", "LAST", "2"],
         "royal-decree": ["1 -> BACK", "FIRST -> 2"]}


def mail_for(state: dict, gd: GameData, player: str, rng: random.Random) -> str | None:
    q = engine.question(state, gd)
    if q is None or q["player"] != player:
        return None
    czech = rng.random() < 0.3

    def name(card: str) -> str:
        return gd.name(card, "cs") if czech else gd.card(card).name

    lines = []
    if rng.random() < 0.05:
        lines.append(rng.choice(["HELP", "STATUS", "ORDERS?", f"PRESS ALL: greetings from {player}",
                                 f"PRESS {rng.choice(state['players'])}: a word"]))
    if q["kind"] == "place":
        lines += _placements(state, gd, player, rng, name, czech)
    elif q["kind"] == "reveal":
        card = q["card"]
        ref = str(q["pos"] + 1) if rng.random() < 0.3 else name(card)
        if rng.random() < 0.5:
            lines.append(("ODHAL " if czech else "REVEAL ") + ref)
            if gd.card(card).ability in AHEAD and rng.random() < 0.5:
                lines.append(f"{'CÍL' if czech else 'TARGET'} {name(card)}: {rng.choice(AHEAD[gd.card(card).ability])}")
        else:
            lines.append(("NECHEJ " if czech else "WAIT ") + ref)
    else:
        option = rng.choice(q["options"])
        lines.append(f"{'CÍL' if czech else 'TARGET'} {name(q['card'])}: {effects.answer_text(gd, option)}")
    return "\n".join(lines)


def _placements(state: dict, gd: GameData, player: str, rng: random.Random, name, czech: bool) -> list[str]:
    hand = sorted(state["hands"][player], key=gd.ids.index)
    rng.shuffle(hand)
    left = gd.game.rounds - state["round"] + 1
    count = 1 if rng.random() < 0.7 else rng.randint(1, min(left, len(hand)))
    own_tops = [pos.top(state, i)["card"] for i in range(len(state["queue"])) if pos.top(state, i)["owner"] == player]
    lines = []
    for k, card in enumerate(hand[:count]):
        choices = ["front", "back"]
        if k == 0 and state["round"] > 1 and own_tops:
            choices.append("on")
        if k > 0:
            choices.append("on-previous")
        where = rng.choice(choices)
        verb = "VYLOŽ" if czech else "PLACE"
        if where == "front":
            lines.append(f"{verb} {name(card)} {'NA ZAČÁTEK' if czech else 'FRONT'}")
        elif where == "back":
            lines.append(f"{verb} {name(card)} {'NA KONEC' if czech else 'BACK'}")
        else:
            on = rng.choice(own_tops) if where == "on" else hand[k - 1]
            lines.append(f"{verb} {name(card)} {'NA' if czech else 'ON'} {name(on)}")
    for card in hand[count:]:
        if rng.random() < 0.15:
            lines.append(f"{'ODHAL' if czech else 'REVEAL'} {name(card)} {'V KOLE' if czech else 'IN ROUND'} "
                         f"{rng.randint(state['round'], gd.game.rounds)}")
        ability = gd.card(card).ability
        if ability in AHEAD and rng.random() < 0.15:
            lines.append(f"{'CÍL' if czech else 'TARGET'} {name(card)}: {rng.choice(AHEAD[ability])}")
    return lines
