"""A player's mail folded into the state: grammar first, then the position, all-or-nothing.

The grammar (``grammar.py``) knows words; this module knows the hands, the table and the prizes.
A mail with any rejected line changes nothing. Accepted PLAY lines replace the plays the player
had on file (one line for each of their next turns, in order); an accepted TAKE line replaces
the choice on file (for this trick's prizes); CANCEL forgets both. All of it is secret.

Errors and notes are messages (``claim.error.*``, ``claim.note.*``) rendered in the player's
language; an example stays a canonical line (``PLAY Gnome 1``), shown in the player's command
words by ``Ruleset.line``.
"""

from __future__ import annotations

from ... import mailcommands
from ...messages import Msg
from ...ruleset import LineResult, Parsed, Submission, require_player
from . import position as pos
from . import rules, terms
from .gamedata import GameData
from .grammar import Cancel, Line, Names, Play, Take, example, parse_mail


def names_for(state: dict, gd: GameData) -> Names:
    return Names(gd, tuple(state["factions"]), tuple(state["players"]))


def submit(state: dict, gd: GameData, player: str, text: str) -> Submission:
    require_player(player, state["players"])
    names = names_for(state, gd)
    lines = parse_mail(text, names)
    generic = example("PLAY", names)
    for line in lines:  # a generic example becomes a card the player may play (or holds)
        if line.error is not None and line.example == generic:
            line.example = play_example(state, gd, player)
    notes: list[Msg] = []
    _check(state, gd, player, [line for line in lines if line.error is None], notes)
    commands = tuple(line.command for line in lines if line.error is None)
    parsed = Parsed(tuple(LineResult(line.lineno, line.raw, canonical=line.canonical if line.error is None else None,
                                     error=line.error, example=line.example) for line in lines), commands)
    if not parsed.ok:
        return Submission(state, parsed, False, requests=mailcommands.requests(commands))
    _apply(state, player, commands, notes)
    return Submission(state, parsed, True, notes, requests=mailcommands.requests(commands))


def _fail(line: Line, error: Msg, example: str) -> None:
    line.error, line.example, line.canonical = error, example, None


def play_example(state: dict, gd: GameData, player: str) -> str:
    cards = pos.legal(state, gd, player) or state["hands"].get(player) or []
    if not cards:
        return "STATUS"
    return f"PLAY {gd.card_name(rules.lowest(gd, cards))}"


def follow_error(state: dict, gd: GameData, player: str) -> Msg:
    hand = state["hands"][player]
    led = rules.led_faction(gd, state["table"])
    held = [c for c in hand if gd.faction_of(c) == led]
    allowed = pos.legal(state, gd, player)
    return Msg("claim.error.follow", faction=led, held=terms.cards(gd, held), legal=terms.cards(gd, allowed))


def _missing(gd: GameData, alts) -> list[dict]:
    """Card alternatives (``gnomes 5``) as message data."""
    return [{"faction": f, "value": v} for f, v in (pos.split_alt(a) for a in alts)]


def _check(state: dict, gd: GameData, player: str, lines: list[Line], notes: list[Msg]) -> None:
    over = state["winner"] is not None
    hand = state["hands"][player]
    my_turn = state["step"] == "play" and state["turn"] == player
    plays = [line for line in lines if isinstance(line.command, Play)]
    takes = [line for line in lines if isinstance(line.command, Take)]
    for i, line in enumerate(plays):
        alts = line.command.alts
        if over:
            _fail(line, Msg("claim.error.over_play"), "STATUS")
            continue
        if i >= len(hand):
            _fail(line, Msg("claim.error.too_many_plays", count=len(hand)), play_example(state, gd, player))
            continue
        missing = [a for a in alts if pos.split_alt(a) and rules.find(gd, hand, *pos.split_alt(a)) is None]
        if missing:
            _fail(line, Msg("claim.error.not_held", cards=_missing(gd, missing), hand=terms.cards(gd, hand)),
                  play_example(state, gd, player))
            continue
        if i == 0 and my_turn:
            card = pos.play_for(state, gd, player, alts)
            if card is None:
                _fail(line, follow_error(state, gd, player), play_example(state, gd, player))
            elif pos.split_alt(alts[0]) is None or rules.find(gd, [card], *pos.split_alt(alts[0])) is None:
                notes.append(Msg("claim.note.first_legal", trick=state["trick"], card=terms.card(gd, card)))
    for i, line in enumerate(takes):
        alts = line.command.alts
        choice = state.get("choice")
        peek = choice.get("peek") if choice and choice["player"] == player else None
        if over:
            _fail(line, Msg("claim.error.over_take"), "STATUS")
        elif i > 0:
            _fail(line, Msg("claim.error.one_take"), "TAKE PRIZE")
        elif state["phase"] != 1:
            _fail(line, Msg("claim.error.no_prizes_phase2"), play_example(state, gd, player))
        else:
            prizes = state["prizes"]
            absent = [a for a in alts if pos.split_alt(a) and rules.find(gd, prizes, *pos.split_alt(a)) is None
                      and not (peek and (gd.faction_of(peek), gd.value_of(peek)) == pos.split_alt(a))]
            mine = next((t["card"] for t in state["table"] if t["player"] == player), None)
            if mine is None and state["step"] == "take" and state["last"]:
                mine = next((t["card"] for t in state["last"]["plays"] if t["player"] == player), None)
            if absent:
                _fail(line, Msg("claim.error.not_a_prize", cards=_missing(gd, absent), prizes=terms.cards(gd, prizes)),
                      "TAKE PRIZE")
            elif "deck" in alts and mine is not None and gd.faction_of(mine) != "seers":
                _fail(line, Msg("claim.error.deck_not_seer", card=terms.card(gd, mine)), "TAKE PRIZE")
            elif choice and choice["player"] == player and pos.take_for(state, gd, player, alts) is None:
                options = list(dict.fromkeys(prizes))
                _fail(line, Msg("claim.error.may_take", options=terms.in_order(gd, options), deck=bool(peek)),
                      f"TAKE {gd.card_name(options[0])}" if options else "TAKE DECK")


def _apply(state: dict, player: str, commands, notes: list[Msg]) -> None:
    plan = pos.plan(state, player)
    replaced = False
    for command in commands:
        if isinstance(command, Cancel):
            plan["play"], plan["take"] = [], []
            replaced = True
        elif isinstance(command, Play):
            if not replaced:
                if plan["play"]:
                    notes.append(Msg("claim.note.replaced"))
                plan["play"] = []
                replaced = True
            plan["play"].append(list(command.alts))
        elif isinstance(command, Take):
            plan["take"] = [list(command.alts)]


def on_file(state: dict, gd: GameData, player: str) -> list[str]:
    plan = state["plans"].get(player) or {"play": [], "take": []}
    return [pos.line_text(gd, "PLAY", alts) for alts in plan["play"]] + \
        [pos.line_text(gd, "TAKE", alts) for alts in plan["take"]]
