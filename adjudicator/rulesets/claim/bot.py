"""A seeded random player: for whatever a player owes, a random legal decision as mail text.

Bots write the mail grammar in its many forms (English and Czech keywords and faction names,
alternatives joined by OR, LOWEST and HIGHEST, plays sent ahead for later turns, a TAKE sent
with the play) so that every self-play game exercises the parser and the plans. They are for
self-play and property tests, not for strength. ``rng`` is owned by the caller.
"""

from __future__ import annotations

import random

from ...messages import catalogue
from . import position as pos
from .gamedata import GameData

CZ_PLAY = ("HRAJ", "zahraj")


def _names(language: str, faction: str) -> tuple[str, str]:
    """The faction's names players read in ``language`` (the catalogue's): singular, plural."""
    entry = catalogue(language, "claim").names["faction"][faction]
    return entry["one"], entry["few" if language == "cs" else "other"]


def _name(gd: GameData, card: str, rng: random.Random, czech: bool) -> str:
    f = gd.factions[gd.faction_of(card)]
    value = gd.value_of(card)
    if czech:
        one, many = _names("cs", f.id)
        return rng.choice([f"{one} {value}", f"{many.lower()} {value}", f"{value} {one}"])
    return rng.choice([f"{f.singular} {value}", f"{_names('en', f.id)[1].lower()} {value}", f"{f.singular.upper()}-{value}"])


def mail_for(state: dict, gd: GameData, player: str, rng: random.Random) -> str | None:
    if state["winner"] is not None:
        return None
    czech = rng.random() < 0.25
    if state["step"] == "take" and state["choice"]["player"] == player:
        options = pos.take_options(state)
        pick = rng.choice(options)
        if pick == "deck":
            return rng.choice(["TAKE DECK", "SEER DECK", "VEZMI BALÍČEK"])
        if rng.random() < 0.2:
            return rng.choice(["TAKE PRIZE", "TAKE HIGHEST", "TAKE LOWEST", "vezmi nejvyšší"])
        return f"{'VEZMI' if czech else 'TAKE'} {_name(gd, pick, rng, czech)}"
    if state["step"] != "play" or state["turn"] != player:
        return None
    legal = pos.legal(state, gd, player)
    hand = state["hands"][player]
    keyword = rng.choice(CZ_PLAY) if czech else rng.choice(["PLAY", "play", "Play"])
    joiner = " NEBO " if czech else rng.choice([" OR ", " or ", ", "])
    roll = rng.random()
    if roll < 0.55:
        lines = [f"{keyword} {_name(gd, rng.choice(legal), rng, czech)}"]
    elif roll < 0.7:
        lines = [f"{keyword} " + rng.choice(["LOWEST", "HIGHEST", "nejnižší", "nejvyšší"] if czech else
                                            ["LOWEST", "HIGHEST", "lowest", "highest"])]
    elif roll < 0.85:
        first = rng.choice(hand)  # maybe not legal: the next alternative is used then
        alts = [_name(gd, first, rng, czech), _name(gd, rng.choice(legal), rng, czech)]
        if rng.random() < 0.5:
            alts.append("NEJNIŽŠÍ" if czech else "LOWEST")
        lines = [f"{keyword} " + joiner.join(alts)]
    else:
        now = rng.choice(legal)
        later = [c for c in hand if c != now]
        rng.shuffle(later)
        lines = [f"{keyword} {_name(gd, now, rng, czech)}"]
        for card in later[:rng.randint(1, 3)]:
            lines.append(f"{keyword} {_name(gd, card, rng, czech)}" + (joiner + "LOWEST" if rng.random() < 0.5 else ""))
    if state["phase"] == 1 and len(state["players"]) > 2 and rng.random() < 0.3:
        lines.append("TAKE " + rng.choice(["HIGHEST", "LOWEST", _name(gd, rng.choice(state["prizes"]), rng, False)]))
    elif state["phase"] == 1 and rng.random() < 0.2 and any(gd.faction_of(c) == "seers" for c in legal):
        lines.append(rng.choice(["TAKE DECK", "TAKE PRIZE"]))
    if rng.random() < 0.05:
        lines.insert(0, "# sent by a bot")
    return "\n".join(lines) + "\n"

