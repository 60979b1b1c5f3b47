"""A seeded random player: for whatever a player owes, a random legal decision as mail text.

Bots write the mail grammar in English or Czech (card names too), answer the question asked and
now and then send decisions ahead (DEFEND and KILL lines that stand, SAVE/NOSAVE, FIRST, MARSHAL
and ATTACK lines for a later turn) and mail-level commands, so that every self-play game exercises
the parser and the plans. They attack eagerly, so that games end. ``rng`` is owned by the caller.
"""

from __future__ import annotations

import random

from . import challenges, engine
from . import position as pos
from .gamedata import GameData
from .position import card_id, display

EN = {"KEEP": "KEEP", "MULLIGAN": "MULLIGAN", "SETUP": "SETUP", "PLOT": "PLOT", "FIRST": "FIRST", "ME": "ME",
      "MARSHAL": "MARSHAL", "ON": "ON", "NOTHING": "NOTHING", "ATTACK": "ATTACK", "STEALTH": "STEALTH",
      "PASS": "PASS", "DEFEND": "DEFEND", "AGAINST": "AGAINST", "NOBODY": "NOBODY", "KILL": "KILL", "SAVE": "SAVE",
      "NOSAVE": "NOSAVE", "military": "MILITARY", "intrigue": "INTRIGUE", "power": "POWER"}
CS = {"KEEP": "PONECH", "MULLIGAN": "MULIGAN", "SETUP": "VYLOŽ", "PLOT": "ZÁPLETKA", "FIRST": "PRVNÍ", "ME": "JÁ",
      "MARSHAL": "ZAHRAJ", "ON": "NA", "NOTHING": "NIC", "ATTACK": "VÝZVA", "STEALTH": "SKRYTĚ", "PASS": "PAS",
      "DEFEND": "OBRANA", "AGAINST": "PROTI", "NOBODY": "NIKDO", "KILL": "ZABIJ", "SAVE": "ZACHRAŇ",
      "NOSAVE": "NEZACHRAŇUJ", "military": "VOJENSKÁ", "intrigue": "INTRIKOVÁ", "power": "MOCENSKÁ"}


class Writer:
    def __init__(self, state: dict, gd: GameData, player: str, rng: random.Random):
        self.state, self.gd, self.player, self.rng = state, gd, player, rng
        self.czech = rng.random() < 0.3
        self.w = CS if self.czech else EN

    def name(self, instance: str, zone: list[str]) -> str:
        """A card as a player writes it: the name, and the copy when the zone holds another copy."""
        cid = card_id(instance)
        text = self.gd.name(cid, "cs" if self.czech else "en")
        if sum(1 for i in zone if card_id(i) == cid) > 1 or (self.rng.random() < 0.1 and "#" in instance):
            text += f" #{pos.copy_of(instance)}"
        return text

    def names(self, instances: list[str], zone: list[str]) -> str:
        return ", ".join(self.name(i, zone) for i in instances)

    def player_name(self, player: str) -> str:
        return display(player) if self.rng.random() < 0.5 else player


def mail_for(state: dict, gd: GameData, player: str, rng: random.Random) -> str | None:
    q = engine.question(state, gd)
    if q is None or player not in q["players"]:
        return None
    b = Writer(state, gd, player, rng)
    w = b.w
    out: list[str] = []
    if rng.random() < 0.05:
        out.append(rng.choice(["HELP", "STATUS", "ORDERS?", f"PRESS ALL: greetings from {player}",
                               f"PRESS {rng.choice(state['players'])}: a word"]))
    kind = q["kind"]
    hand = state["hand"][player]
    if kind == "mulligan":
        if not state["mulligans"][player] and rng.random() < 0.2:
            out.append(w["MULLIGAN"])
        else:
            out.append(w["KEEP"])
            if rng.random() < 0.7:
                out.append(_setup(b))
    elif kind == "place":
        out.append(_setup(b))
    elif kind == "plot":
        out.append(f"{w['PLOT']} {gd.name(rng.choice(state['plots'][player]['deck']), 'cs' if b.czech else 'en')}")
        if rng.random() < 0.3:
            out.append(_first(b))
        if rng.random() < 0.2 and hand:
            cheap = [c for c in hand if gd.card(c).type in ("character", "location") and gd.card(c).cost <= 2]
            if cheap:
                out.append(f"{w['MARSHAL']} {b.name(rng.choice(cheap), hand)}")
    elif kind == "first":
        out.append(_first(b))
    elif kind == "marshal":
        out.append(_marshal(b))
    elif kind == "attack":
        out += _attacks(b)
    elif kind == "defend":
        out.append(_defend(b, state["challenge"]["type"], state["challenge"]))
    elif kind == "kill":
        chars = [e["card"] for e in state["characters"][player]]
        rng.shuffle(chars)
        out.append(f"{w['KILL']} {b.names(chars[:rng.randint(1, len(chars))], chars)}")
    if rng.random() < 0.1 and kind not in ("mulligan", "place", "defend"):
        other = rng.choice(pos.TYPES)
        out.append(_defend(b, other, None))
    if rng.random() < 0.05:
        uniques = [e["card"] for e in pos.in_play(state, player) if gd.card(e["card"]).unique]
        if uniques:
            out.append(f"{rng.choice([w['SAVE'], w['NOSAVE']])} {b.name(rng.choice(uniques), [])}")
    return "\n".join(out)


def _first(b: Writer) -> str:
    choice = b.rng.choice([None, *b.state["players"]])
    return f"{b.w['FIRST']} {b.w['ME'] if choice is None else b.player_name(choice)}"


def _setup(b: Writer) -> str:
    state, gd, me = b.state, b.gd, b.player
    hand = list(state["hand"][me])
    b.rng.shuffle(hand)
    chosen: list[str] = []
    for card in hand:
        if gd.card(card).type not in ("character", "location"):
            continue
        if engine.setup_problem(state, gd, me, chosen + [card]) is None:
            chosen.append(card)
    if not chosen or b.rng.random() < 0.05:
        return f"{b.w['SETUP']} {b.w['NOTHING']}"
    return f"{b.w['SETUP']} {b.names(chosen, state['hand'][me])}"


def _marshal(b: Writer) -> str:
    state, gd, me, rng = b.state, b.gd, b.player, b.rng
    gold = state["gold"][me] or 0
    hand = list(state["hand"][me])
    rng.shuffle(hand)
    present = {gd.card(e["card"]).character for e in pos.in_play(state, me) if gd.card(e["card"]).unique}
    dead = pos.dead_characters(state, gd, me)
    limited = state["limited"][me]
    planned_chars: list[str] = []
    items: list[str] = []
    for card in hand:
        data = gd.card(card)
        duplicate = data.unique and data.character in present
        if not duplicate:
            if data.unique and data.character in dead:
                continue
            cost = gd.cost(card, state["houses"][me])
            if cost > gold or (data.has("limited") and limited >= gd.game.round_limited):
                continue
        text = b.name(card, state["hand"][me])
        if data.type == "attachment":
            targets = [(p, e["card"]) for p in state["players"] for e in state["characters"][p]
                       if not gd.card(e["card"]).has("no-attachments")]
            targets += [(me, c) for c in planned_chars if not gd.card(c).has("no-attachments")]
            if not targets:
                continue
            owner, target = rng.choice(targets)
            zone = [e["card"] for e in state["characters"][owner]] + (planned_chars if owner == me else [])
            where = b.name(target, zone)
            if owner != me:
                where = f"{b.player_name(owner)} {where}"
            text += f" {b.w['ON']} {where}"
        if not duplicate:
            gold -= gd.cost(card, state["houses"][me])
            limited += data.has("limited")
        if data.unique:
            present.add(data.character)
        if data.type == "character":
            planned_chars.append(card)
        items.append(text)
        if rng.random() < 0.1:
            break
    if not items:
        return f"{b.w['MARSHAL']} {b.w['NOTHING']}"
    return f"{b.w['MARSHAL']} " + ", ".join(items)


def _attacks(b: Writer) -> list[str]:
    state, gd, me, rng = b.state, b.gd, b.player, b.rng
    left = [t for t in pos.TYPES if t not in state["challenges_done"][me]]
    rng.shuffle(left)
    used: set[str] = set()
    out = []
    chars = [e["card"] for e in state["characters"][me]]
    for kind in left:
        ready = [e["card"] for e in state["characters"][me] if pos.can_act(gd, e, kind) and e["card"] not in used]
        if not ready:
            continue
        if out and rng.random() < 0.3:
            break
        rng.shuffle(ready)
        attackers = ready[:rng.randint(max(1, len(ready) // 2), len(ready))]
        used |= set(attackers)
        opponent = rng.choice(pos.opponents(state, me))
        line = f"{b.w['ATTACK']} {b.w[kind]} {b.player_name(opponent)}: {b.names(attackers, chars)}"
        stealthy = sum(1 for a in attackers if gd.card(a).has("stealth"))
        if stealthy and rng.random() < 0.5:
            pool = [e["card"] for e in state["characters"][opponent] if not gd.card(e["card"]).has("stealth")]
            rng.shuffle(pool)
            if pool:
                theirs = [e["card"] for e in state["characters"][opponent]]
                line += f" {b.w['STEALTH']} " + b.names(pool[:stealthy], theirs)
        out.append(line)
    if not out or rng.random() < 0.5:
        out.append(b.w["PASS"])
    return out


def _defend(b: Writer, kind: str, challenge: dict | None) -> str:
    state, gd, me, rng = b.state, b.gd, b.player, b.rng
    chars = [e["card"] for e in state["characters"][me]]
    if challenge is not None:
        pool = [e["card"] for e in state["characters"][me] if challenges.can_defend(state, gd, e)]
    else:
        pool = [e["card"] for e in state["characters"][me] if kind in pos.icons(gd, e)]
    rng.shuffle(pool)
    against = ""
    if challenge is None and len(state["players"]) > 2 and rng.random() < 0.3:
        against = f" {b.w['AGAINST']} {b.player_name(rng.choice(pos.opponents(state, me)))}"
    if not pool or rng.random() < 0.15:
        return f"{b.w['DEFEND']} {b.w[kind]}{against}: {b.w['NOBODY']}"
    return f"{b.w['DEFEND']} {b.w[kind]}{against}: {b.names(pool[:rng.randint(1, len(pool))], chars)}"
