"""Command lines as messages: the canonical notation both ways, and a line in a player's language.

A canonical line (``PLACE Archer BACK``, ``TARGET Royal Decree: 2 -> FRONT``) is the grammar's own
notation, in its English words: what the judge echoes, holds on file (rules cases compare it) and
gives as an example. Here a line is first a message, ``oriflamme.line.*`` with card ids and
direction words as parameters (the target after ``TARGET <card>:`` a nested ``oriflamme.spec.*``),
so that it can also stand inside an event ("Your line ... cannot be used now") and each language's
catalogue writes it in its own command words and the case its grammar wants (``VYLOŽ Lučištnici NA
KONEC``). The grammar reads every language's words, so each rendering reads back as the same
command (``tests/oriflamme/test_oriflamme_messages.py`` proves it for every form).

* :func:`place`, :func:`reveal`, ... build the messages; :func:`spec` a stored target, :func:`ref`
  a stored card reference;
* :func:`canonical` writes the notation (the English catalogue must render the same text: tested);
* :func:`read` reads a canonical line back into its message, and :func:`in_language` renders a
  canonical line for a language (``Ruleset.line``): the judge hands the ruleset strings.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, Mapping

from ...messages import Msg, render
from .commands import ALL
from .gamedata import GameData
from .position import display

_SAMPLES = {"shall we talk?": "oriflamme.sample.talk",
            "split a long message over several PRESS lines": "oriflamme.sample.long"}
"""The free texts of the grammar's PRESS examples: a language's catalogue says them in its words."""


def _msg(value: Any) -> Msg | None:
    if value is None or isinstance(value, Msg):
        return value
    return Msg.from_dict(value)


# -- lines as messages -----------------------------------------------------------------------------


def place(card: str, where: str, on: str | int | None = None) -> Msg:
    return Msg("oriflamme.line.place", card=card, where=where, on=on)


def reveal(card: str | int, round_: int | None = None) -> Msg:
    return Msg("oriflamme.line.reveal", card=card, round=round_)


def wait(card: str | int) -> Msg:
    return Msg("oriflamme.line.wait", card=card)


def target(card: str | int, spec_: Msg) -> Msg:
    return Msg("oriflamme.line.target", card=card, spec=spec_)


def clear() -> Msg:
    return Msg("oriflamme.line.clear")


def help_(topic: str | None = None) -> Msg:
    return Msg("oriflamme.line.help", topic=topic)


def status() -> Msg:
    return Msg("oriflamme.line.status")


def orders() -> Msg:
    return Msg("oriflamme.line.orders")


def press(to: str | list[str], text: str, anonymous: bool = False) -> Msg:
    """``to``: :data:`ALL` or the recipients as written in the line."""
    sample = _SAMPLES.get(text)
    return Msg("oriflamme.line.press", to=to if to == ALL else list(to), anonymous=anonymous,
               text=Msg(sample) if sample else text)


def end(word: str) -> Msg:
    """FIRST | LAST (an Archer's target, an Assassination's card at an end of the queue)."""
    return Msg("oriflamme.spec.end", end=word)


def side(word: str, then: str | None = None) -> Msg:
    """BEFORE | AFTER [, the copied ability's FIRST | LAST | BEFORE | AFTER] (Soldier, Spy, Shapeshifter)."""
    return Msg("oriflamme.spec.side", side=word, then=then)


def position(n: int) -> Msg:
    return Msg("oriflamme.spec.pos", position=n)


def card_of(card: str, owner: str | None = None) -> Msg:
    return Msg("oriflamme.spec.card", card=card, owner=owner)


def move(ref_: Msg, to: str | int) -> Msg:
    """A Royal Decree's target: the card and FRONT | BACK | its new position."""
    return Msg("oriflamme.spec.move", ref=ref_, to=to)


def ref(stored: Mapping) -> Msg:
    """A stored card reference (``{pos}``, ``{end}``, ``{owner, card}``) as written."""
    if "pos" in stored:
        return position(stored["pos"])
    if "end" in stored:
        return end(stored["end"])
    return card_of(stored["card"], stored.get("owner"))


def spec(stored: Mapping) -> Msg:
    """A stored target spec (a plan's ``target`` entry) as written after ``TARGET <card>:``."""
    if "ref" in stored and "to" in stored:
        return move(ref(stored["ref"]), stored["to"])
    if "ref" in stored:
        return ref(stored["ref"])
    if "side" in stored:
        then = stored.get("then")
        return side(stored["side"], (then.get("side") or then.get("end")) if then else None)
    return end(str(stored.get("end", "")))


# -- the canonical notation ------------------------------------------------------------------------


def canonical(message: Msg | Mapping | None, gd: GameData) -> str:
    """The canonical line (or target) of a line message: the grammar's English words and names."""
    m = _msg(message)
    if m is None:
        return ""
    p = m.params

    def name(card: Any) -> str:
        return str(card) if isinstance(card, int) else gd.card(card).name

    kind = m.key.removeprefix("oriflamme.")
    if kind == "spec.end":
        return str(p["end"]).upper()
    if kind == "spec.side":
        return str(p["side"]).upper() + (f", {str(p['then']).upper()}" if p.get("then") else "")
    if kind == "spec.pos":
        return str(p["position"])
    if kind == "spec.card":
        return (f"{display(p['owner'])} " if p.get("owner") else "") + name(p["card"])
    if kind == "spec.move":
        return f"{canonical(p['ref'], gd)} -> {str(p['to']).upper()}"
    if kind == "line.place":
        return f"PLACE {name(p['card'])} " + (f"ON {name(p['on'])}" if p["where"] == "on" else str(p["where"]).upper())
    if kind == "line.reveal":
        return f"REVEAL {name(p['card'])}" + (f" IN ROUND {p['round']}" if p.get("round") else "")
    if kind == "line.wait":
        return f"WAIT {name(p['card'])}"
    if kind == "line.target":
        return f"TARGET {name(p['card'])}: {canonical(p['spec'], gd)}"
    if kind == "line.help":
        return "HELP" + (f" {p['topic']}" if p.get("topic") else "")
    if kind == "line.press":
        to = ALL if p["to"] == ALL else ", ".join(p["to"])
        text = p["text"] if isinstance(p["text"], str) else render(p["text"], "en")
        return f"PRESS {'ANON ' if p.get('anonymous') else ''}{to}: {text}"
    return {"line.clear": "CLEAR", "line.status": "STATUS", "line.orders": "ORDERS?"}[kind]


def _patterns(gd: GameData) -> dict[str, re.Pattern]:
    return _patterns_for(tuple(c.name for c in gd.cards))


@cache
def _patterns_for(card_names: tuple[str, ...]) -> dict[str, re.Pattern]:
    names = "|".join(re.escape(n) for n in sorted(card_names, key=len, reverse=True))
    card = rf"(?P<card>{names}|\d+)"
    return {
        "place": re.compile(rf"PLACE {card} (?:(?P<where>FRONT|BACK)|ON (?P<on>{names}|\d+))"),
        "reveal": re.compile(rf"REVEAL {card}(?: IN ROUND (?P<round>\d+))?"),
        "wait": re.compile(rf"WAIT {card}"),
        "target": re.compile(rf"TARGET {card}: (?P<spec>.+)"),
        "help": re.compile(r"HELP(?: (?P<topic>.+))?"),
        "press": re.compile(r"PRESS (?P<anon>ANON )?(?P<to>[^:]+): (?P<text>.*)", re.S),
        "side": re.compile(r"(?P<side>BEFORE|AFTER)(?:, (?P<then>FIRST|LAST|BEFORE|AFTER))?"),
        "move": re.compile(r"(?P<ref>.+) -> (?P<to>FRONT|BACK|\d+)"),
        "ref": re.compile(rf"(?:(?P<owner>[A-Za-z][A-Za-z0-9_]*) )?(?P<card>{names})"),
    }


def _card_value(gd: GameData, text: str) -> str | int:
    if text.isdigit():
        return int(text)
    return next(c.id for c in gd.cards if c.name == text)


def _read_ref(gd: GameData, text: str) -> Msg | None:
    if text.isdigit():
        return position(int(text))
    if text in ("FIRST", "LAST"):
        return end(text.lower())
    m = _patterns(gd)["ref"].fullmatch(text)
    if m is None:
        return None
    owner = m.group("owner")
    return card_of(_card_value(gd, m.group("card")), owner[:1].lower() + owner[1:] if owner else None)


def _read_spec(gd: GameData, text: str) -> Msg | None:
    pats = _patterns(gd)
    m = pats["side"].fullmatch(text)
    if m:
        return side(m.group("side").lower(), m.group("then").lower() if m.group("then") else None)
    m = pats["move"].fullmatch(text)
    if m:
        to = m.group("to")
        found = _read_ref(gd, m.group("ref"))
        return move(found, int(to) if to.isdigit() else to.lower()) if found else None
    return _read_ref(gd, text)


def read(text: str, gd: GameData) -> Msg | None:
    """A canonical line back into its message (None: not a canonical line)."""
    pats = _patterns(gd)
    simple = {"CLEAR": clear, "STATUS": status, "ORDERS?": orders}
    if text in simple:
        return simple[text]()
    if m := pats["place"].fullmatch(text):
        card = _card_value(gd, m.group("card"))
        if m.group("where"):
            return place(card, m.group("where").lower())
        return place(card, "on", _card_value(gd, m.group("on")))
    if m := pats["reveal"].fullmatch(text):
        return reveal(_card_value(gd, m.group("card")), int(m.group("round")) if m.group("round") else None)
    if m := pats["wait"].fullmatch(text):
        return wait(_card_value(gd, m.group("card")))
    if m := pats["target"].fullmatch(text):
        found = _read_spec(gd, m.group("spec"))
        return target(_card_value(gd, m.group("card")), found) if found else None
    if m := pats["help"].fullmatch(text):
        return help_(m.group("topic"))
    if m := pats["press"].fullmatch(text):
        to = m.group("to").strip()
        return press(ALL if to == ALL else [t.strip() for t in to.split(",")], m.group("text"), bool(m.group("anon")))
    return None


def in_language(text: str, language: str, gd: GameData) -> str:
    """A canonical line in ``language``'s command words and names; the canonical line itself in
    English, or when it is no canonical line (then it is shown as it stands)."""
    if language == "en":
        return text
    message = read(text, gd)
    return text if message is None else render(message, language)
