"""Rules-case positions (``shared/CASES.md``) to states, and states back for the expectations.

Position keys (all optional)::

    players: [red, blue, green]          # seat order (default: red, blue, green)
    seed: 0
    round: 3
    phase: resolve                        # place | resolve
    first: red                            # the round's first player (default: the first seat)
    placer: blue                          # phase place: whose placement is next (default: the first player)
    cursor: 1                             # phase resolve: the position that resolves next (default 1)
    influence: {red: 3}                   # others: 1
    queue:                                # resolution order; a stack is a list, bottom card first
      - red Lord                          # "<player> <card> [up|down] [<influence on it>]", default down, 0
      - blue Soldier down 1
      - [red Spy up, red Assassination]   # a Spy covered by a face-down Assassination
    hands: {red: [Archer, Heir]}          # given: the rest of the family's ten cards is set aside
    aside: {red: [Lord, Spy, Heir]}       # given (without hands): the rest is in hand
    discards: {red: [Conspiracy]}         # eliminated and discarded cards
                                          # neither hands nor aside: every card not elsewhere is in hand

An illegal position is refused with the reason: a card in two places, a stack of two families,
influence on a face-up card, a face-up Ambush or Conspiracy in the queue (they are discarded as
they are revealed), a face-up Assassination or Royal Decree anywhere but at the cursor.

Expectation keys: ``influence``, ``queue`` (the whole queue, same format), ``hands``, ``aside``,
``discards`` (per player, compared as sets), ``round``, ``phase``, ``first``, ``placer``,
``cursor``, ``winners`` (a list, any order), ``on_file`` (per player: the canonical lines the
judge holds, in order), plus the generic ``winner``, ``events`` and ``rejected``.

``until``: ``end of step`` (one adjudication), ``end of placement``, ``end of round`` (also
``end of resolution``), ``end of game``.
"""

from __future__ import annotations

import re

from ...mailbody import fold
from ...cases import check_shapes, diff_values
from ...ruleset import RulesetError
from . import position as pos
from .gamedata import UnknownName, load_gamedata
from .newgame import initial_state
from .submission import on_file

UNTIL = ("end of step", "end of placement", "end of round", "end of resolution", "end of game")


def _gd():
    return load_gamedata()


def _card_id(text, player: str | None = None) -> str:
    try:
        return _gd().resolve(str(text))
    except UnknownName as exc:
        raise RulesetError(str(exc) + (f" (for {player})" if player else "")) from None


def parse_card(text, players: list[str]) -> dict:
    """``"blue Soldier down 2"`` -> ``{owner: blue, card: soldier, up: False, tokens: 2}``."""
    words = fold(str(text)).split()
    if len(words) < 2 or words[0] not in players:
        raise RulesetError(f"queue card {text!r}: write <player> <card> [up|down] [influence], "
                           f"players {', '.join(players)}")
    owner, rest = words[0], words[1:]
    tokens = 0
    if rest and re.fullmatch(r"\d+", rest[-1]):
        tokens = int(rest.pop())
    up = False
    if rest and rest[-1] in ("up", "down"):
        up = rest.pop() == "up"
        if rest and rest[-1] == "face":
            rest.pop()
    card = _card_id(" ".join(rest), owner)
    if up and tokens:
        raise RulesetError(f"queue card {text!r}: a face-up card carries no influence (it was taken at the reveal)")
    return {"owner": owner, "card": card, "up": up, "tokens": tokens}


def card_text(card: dict) -> str:
    name = _gd().card(card["card"]).name
    state = "up" if card["up"] else "down"
    return f"{card['owner']} {name} {state}" + (f" {card['tokens']}" if card["tokens"] else "")


def _queue(entries, players: list[str]) -> list[list[dict]]:
    queue = []
    for entry in entries or []:
        stack = [parse_card(c, players) for c in (entry if isinstance(entry, list) else [entry])]
        if not stack:
            raise RulesetError("an empty stack in the queue")
        if len({c["owner"] for c in stack}) != 1:
            raise RulesetError(f"a stack of two families: {entry!r} (a card goes only onto its owner's cards)")
        queue.append(stack)
    return queue


def _cards(value, player: str) -> list[str]:
    return [_card_id(c, player) for c in value or []]


POSITION_SHAPES = {  # key -> (shape, example): cases.check_shapes, before the position is read
    "players": (list[str], "players: [red, blue, green]"),
    "seed": (int, "seed: 7"),
    "first": (str, "first: blue"),
    "round": (int, "round: 2"),
    "phase": (str, "phase: resolve"),
    "influence": (dict[str, int], "influence: {red: 3}"),
    "queue": (list[str | list[str]], "queue: [red Lord down, [blue Spy, blue Heir up]]"),
    "hands": (dict[str, list[str]], "hands: {red: [Spy, Heir]}"),
    "aside": (dict[str, list[str]], "aside: {red: [Lord]}"),
    "discards": (dict[str, list[str]], "discards: {red: [Assassination]}"),
    "placer": (str, "placer: blue"),
    "cursor": (int, "cursor: 1"),
}


def case_state(position: dict) -> dict:
    check_shapes(position, POSITION_SHAPES)
    gd = _gd()
    players = [str(p).lower() for p in position.get("players") or ["red", "blue", "green"]]
    state = initial_state(players, seed=int(position.get("seed", 0)),
                          options={"first": str(position["first"]).lower()} if "first" in position else None)
    state["round"] = int(position.get("round", 1))
    if not 1 <= state["round"] <= gd.game.rounds:
        raise RulesetError(f"round {state['round']} is not a round of the game (1-{gd.game.rounds})")
    phase = str(position.get("phase", "place"))
    if phase not in ("place", "resolve"):
        raise RulesetError(f"unknown phase {phase!r} (place or resolve)")
    state["phase"] = phase
    for p, n in (position.get("influence") or {}).items():
        if str(p) not in players:
            raise RulesetError(f"influence of {p}, who is not a player")
        if int(n) < 0:
            raise RulesetError(f"negative influence for {p}")
        state["influence"][str(p)] = int(n)
    state["queue"] = _queue(position.get("queue"), players)
    for key in ("hands", "aside", "discards"):
        for p in position.get(key) or {}:
            if str(p) not in players:
                raise RulesetError(f"{key} of {p}, who is not a player")
    for p in players:
        in_queue = [c["card"] for stack in state["queue"] for c in stack if c["owner"] == p]
        discards = _cards((position.get("discards") or {}).get(p), p)
        hands = (position.get("hands") or {}).get(p)
        aside = (position.get("aside") or {}).get(p)
        placed = in_queue + discards
        hand = _cards(hands, p) if hands is not None else None
        side = _cards(aside, p) if aside is not None else None
        rest = [c for c in gd.ids if c not in placed + (hand or []) + (side or [])]
        if hand is None:
            hand, rest = rest, []
        if side is None:
            side, rest = rest, []
        everything = placed + hand + side
        if sorted(everything) != sorted(gd.ids):
            dup = sorted({gd.card(c).name for c in everything if everything.count(c) > 1})
            raise RulesetError(f"{p}'s cards: " + (f"{', '.join(dup)} in two places" if dup else
                                                     f"{', '.join(gd.card(c).name for c in rest)} are nowhere"))
        state["discards"][p] = discards
        state["hands"][p] = sorted(hand, key=gd.ids.index)
        state["aside"][p] = sorted(side, key=gd.ids.index)
    if phase == "place":
        placer = str(position.get("placer", state["first"])).lower()
        if placer not in players:
            raise RulesetError(f"placer {placer!r} is not a player")
        state["placer"] = pos.turn_order(state).index(placer)
    else:
        cursor = int(position.get("cursor", 1))
        if not 1 <= cursor <= len(state["queue"]) + 1:
            raise RulesetError(f"cursor {cursor}: the queue has {len(state['queue'])} positions")
        state["cursor"] = cursor - 1
    for i, stack in enumerate(state["queue"]):
        for depth, c in enumerate(reversed(stack)):
            ability = gd.card(c["card"]).ability
            if c["up"] and ability in ("ambush", "conspiracy"):
                raise RulesetError(f"a face-up {gd.card(c['card']).name} in the queue (it is discarded as it is revealed)")
            if c["up"] and not gd.card(c["card"]).character and (phase != "resolve" or depth or i != state["cursor"]):
                raise RulesetError(f"a face-up {gd.card(c['card']).name} away from the cursor (an intrigue is discarded "
                                   "once it has resolved)")
    return state


_UNTIL = re.compile(r"end of (step|game|placement|round|resolution)(?: (?:of )?(?:round )?(\d+))?")


def case_done(start: dict, state: dict, until: str) -> bool:
    """``end of step``, ``end of game``, ``end of placement`` / ``end of round`` (of the case's
    round, or of round N: ``end of placement of round 3``, ``end of round 3``)."""
    m = _UNTIL.fullmatch(str(until).strip().lower())
    if m is None or (m.group(2) and m.group(1) in ("step", "game")):
        raise RulesetError(f"unknown until {until!r} (one of: {', '.join(UNTIL)}, end of round N, "
                           "end of placement of round N)")
    what, number = m.group(1), int(m.group(2) or start["round"])
    if what == "step" or state["phase"] == "over":
        return True
    if what == "game":
        return False
    if what == "placement":
        return state["round"] > number or (state["round"] == number and state["phase"] != "place")
    return state["round"] > number


def _normal_queue(queue: list[list[dict]]) -> list:
    return [card_text(s[0]) if len(s) == 1 else [card_text(c) for c in s] for s in queue]


def _public(state: dict, key: str):
    gd = _gd()
    if key == "queue":
        return _normal_queue(state["queue"])
    if key in ("hands", "aside", "discards"):
        return {p: sorted(gd.card(c).name for c in cards) for p, cards in state[key].items()}
    if key == "cursor":
        return state["cursor"] + 1
    if key == "placer":
        return pos.placer(state)
    if key == "winners":
        return sorted(state["winners"])
    if key == "on_file":
        return {p: on_file(state, gd, p) for p in state["players"]}
    if key not in state:
        raise RulesetError(f"unknown expectation key {key!r}")
    return state[key]


def _normal(state: dict, key: str, expected):
    gd = _gd()
    players = state["players"]
    if key == "queue":
        return _normal_queue(_queue(expected, players))
    if key in ("hands", "aside", "discards") and isinstance(expected, dict):
        return {str(p): sorted(gd.card(_card_id(c, str(p))).name for c in cards or []) for p, cards in expected.items()}
    if key == "winners":
        return sorted(str(p) for p in expected or [])
    if key == "on_file" and isinstance(expected, dict):
        return {str(p): [str(line) for line in lines or []] for p, lines in expected.items()}
    return expected


def case_compare(state: dict, key: str, expected) -> list[str]:
    try:
        want = _normal(state, key, expected)
        have = _public(state, key)
    except RulesetError as exc:
        return [f"{key}: {exc}"]
    return diff_values(key, want, have)
