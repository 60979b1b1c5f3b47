"""Command lines as messages: the canonical notation both ways, and a line in a player's language.

A canonical line (``MARSHAL Northern Steel ON Frostfang``, ``ATTACK MILITARY Bob: Frostfang STEALTH
Hedge Knight #2``) is the grammar's own notation, in its English words and the cards' English names:
what the judge echoes, holds on file (rules cases compare it) and gives as an example. Here a line
is first a message, ``agotccg.line.*`` with card references as parameters (``{card, copy, owner}``),
so that each language's catalogue writes it in its own command words and card names (``VÝZVA
VOJENSKÁ Bob: Frostfang``); the grammar reads every language's words, so each rendering reads back
as the same command (``tests/agotccg/test_agotccg_grammar.py`` proves it).
"""

from __future__ import annotations

from typing import Any, Mapping

from ...mailbody import fold
from ...messages import Msg, render
from . import grammar
from .commands import (ALL, Attack, Clear, Defend, First, Help, Keep, Kill, Marshal, Mulligan, OrdersQuery, Pass,
                       Plot, Press, Save, Setup, Status)
from .gamedata import GameData
from .position import display

_SAMPLES = {"shall we talk?": "agotccg.sample.talk",
            "split a long message over several PRESS lines": "agotccg.sample.long"}


def ref(card: str, copy: int | None = None, owner: str | None = None) -> dict:
    """A card as a line writes it: its id, the copy number when it matters, the owner when not the sender."""
    return {"card": card.split("#", 1)[0], "copy": copy, "owner": owner}


def keep() -> Msg:
    return Msg("agotccg.line.keep")


def mulligan() -> Msg:
    return Msg("agotccg.line.mulligan")


def setup(cards: list[dict]) -> Msg:
    return Msg("agotccg.line.setup", cards=cards)


def plot(card: str) -> Msg:
    return Msg("agotccg.line.plot", card=card)


def first(player: str | None) -> Msg:
    """None: ME (the sender)."""
    return Msg("agotccg.line.first", player=player)


def marshal(items: list[dict]) -> Msg:
    """``items``: ``{card: ref, on: ref | None}``."""
    return Msg("agotccg.line.marshal", items=items)


def attack(kind: str, opponent: str | None, attackers: list[dict], stealth: list[dict]) -> Msg:
    """``opponent`` None: the line names none (the next player clockwise; only in examples)."""
    return Msg("agotccg.line.attack", type=kind, opponent=opponent, attackers=attackers, stealth=stealth)


def pass_() -> Msg:
    return Msg("agotccg.line.pass")


def defend(kind: str, against: str | None, cards: list[dict]) -> Msg:
    return Msg("agotccg.line.defend", type=kind, against=against, cards=cards)


def kill(cards: list[dict]) -> Msg:
    return Msg("agotccg.line.kill", cards=cards)


def save(card: dict, yes: bool = True) -> Msg:
    return Msg("agotccg.line.save" if yes else "agotccg.line.nosave", card=card)


def clear() -> Msg:
    return Msg("agotccg.line.clear")


def help_(topic: str | None = None) -> Msg:
    return Msg("agotccg.line.help", topic=topic)


def status() -> Msg:
    return Msg("agotccg.line.status")


def orders() -> Msg:
    return Msg("agotccg.line.orders")


def press(to, text: str, anonymous: bool = False) -> Msg:
    sample = _SAMPLES.get(text)
    return Msg("agotccg.line.press", to=to if to == ALL else list(to), anonymous=anonymous,
               text=Msg(sample) if sample else text)


# -- the canonical notation ------------------------------------------------------------------------


def ref_text(r: Mapping, gd: GameData) -> str:
    owner = f"{display(r['owner'])} " if r.get("owner") else ""
    return owner + gd.card(r["card"]).name + (f" #{r['copy']}" if r.get("copy") else "")


def _refs(cards, gd: GameData) -> str:
    return ", ".join(ref_text(r, gd) for r in cards)


def canonical(message: Msg | Mapping | None, gd: GameData) -> str:
    """The canonical line of a line message: the grammar's English words and names."""
    if message is None:
        return ""
    m = message if isinstance(message, Msg) else Msg.from_dict(message)
    p = m.params
    kind = m.key.removeprefix("agotccg.line.")
    if kind == "setup":
        return "SETUP " + (_refs(p["cards"], gd) if p["cards"] else "NOTHING")
    if kind == "plot":
        return f"PLOT {gd.card(p['card']).name}"
    if kind == "first":
        return f"FIRST {display(p['player'])}" if p.get("player") else "FIRST ME"
    if kind == "marshal":
        if not p["items"]:
            return "MARSHAL NOTHING"
        return "MARSHAL " + ", ".join(ref_text(i["card"], gd) + (f" ON {ref_text(i['on'], gd)}" if i.get("on") else "")
                                      for i in p["items"])
    if kind == "attack":
        stealth = f" STEALTH {_refs(p['stealth'], gd)}" if p.get("stealth") else ""
        opponent = f" {display(p['opponent'])}" if p.get("opponent") else ""
        return f"ATTACK {p['type'].upper()}{opponent}: {_refs(p['attackers'], gd)}{stealth}"
    if kind == "defend":
        against = f" AGAINST {display(p['against'])}" if p.get("against") else ""
        return f"DEFEND {p['type'].upper()}{against}: " + (_refs(p["cards"], gd) if p["cards"] else "NOBODY")
    if kind == "kill":
        return "KILL " + _refs(p["cards"], gd)
    if kind in ("save", "nosave"):
        return f"{kind.upper()} {ref_text(p['card'], gd)}"
    if kind == "help":
        return "HELP" + (f" {p['topic']}" if p.get("topic") else "")
    if kind == "press":
        to = ALL if p["to"] == ALL else ", ".join(p["to"])
        text = p["text"] if isinstance(p["text"], str) else render(p["text"], "en")
        return f"PRESS {'ANON ' if p.get('anonymous') else ''}{to}: {text}"
    return {"keep": "KEEP", "mulligan": "MULLIGAN", "pass": "PASS", "clear": "CLEAR", "status": "STATUS",
            "orders": "ORDERS?"}[kind]


# -- reading the judge's own lines back ------------------------------------------------------------


def _exact(gd: GameData, text: str) -> str | None:
    ids = gd.names.get(fold(text))
    return next(iter(ids)) if ids and len(ids) == 1 else None


def _ref_back(gd: GameData, r) -> dict | None:
    card = _exact(gd, r.text)
    owner = r.owner
    if owner is not None:
        whole = _exact(gd, f"{owner} {r.text}")
        if whole is not None or card is None:  # the "owner" was the card name's first word
            card, owner = whole, None
    return None if card is None else ref(card, r.copy, owner)


def read(text: str, gd: GameData) -> Msg | None:
    """A canonical line back into its message (None: not a line the judge writes)."""
    try:
        command = grammar.parse_command(text, None)
    except grammar.LineError:
        return None

    def refs(items) -> list[dict] | None:
        out = [_ref_back(gd, r) for r in items]
        return None if any(r is None for r in out) else out

    simple = {Keep: keep, Mulligan: mulligan, Pass: pass_, Clear: clear, Status: status, OrdersQuery: orders}
    if type(command) in simple:
        return simple[type(command)]()
    if isinstance(command, Setup):
        cards = refs(command.cards)
        return None if cards is None else setup(cards)
    if isinstance(command, Plot):
        card = _exact(gd, command.card.text)
        return None if card is None else plot(card)
    if isinstance(command, First):
        return first(command.player)
    if isinstance(command, Marshal):
        items = []
        for item in command.items:
            card = _ref_back(gd, item.card)
            on = _ref_back(gd, item.on) if item.on else None
            if card is None or (item.on and on is None):
                return None
            items.append({"card": card, "on": on})
        return marshal(items)
    if isinstance(command, Attack):
        attackers, stealth = refs(command.attackers), refs(command.stealth)
        if attackers is None or stealth is None:
            return None
        return attack(command.type, command.opponent, attackers, stealth)
    if isinstance(command, Defend):
        cards = refs(command.cards)
        return None if cards is None else defend(command.type, command.against, cards)
    if isinstance(command, Kill):
        cards = refs(command.cards)
        return None if cards is None else kill(cards)
    if isinstance(command, Save):
        card = _ref_back(gd, command.card)
        return None if card is None else save(card, command.save)
    if isinstance(command, Help):
        return help_(command.topic)
    if isinstance(command, Press):
        return press(command.to if command.to == ALL else [display(t) for t in command.to], command.text,
                     command.anonymous)
    return None


def in_language(text: str, language: str, gd: GameData) -> str:
    """A canonical line in ``language``'s command words and card names; the line itself in English,
    or when it is no line the judge writes."""
    if language == "en":
        return text
    message = read(text, gd)
    return text if message is None else render(message, language)


def as_text(message: Any, gd: GameData) -> str:
    return canonical(message, gd)
