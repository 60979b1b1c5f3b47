"""Rules-case positions (``shared/CASES.md``) to states, and states back for the expectations.

Position keys (all optional; cards by name in English or Czech, ``#n`` picks a copy, else copies
are numbered in order of appearance)::

    players: [alice, bob]                 # seat order (default alice, bob)
    houses: {alice: stark, bob: [stark, baratheon]}   # default: stark, lannister, baratheon, targaryen
    seed: 0
    round: 2                              # default 1 (0 with phase setup)
    phase: challenges                     # setup | plot | draw | marshal | challenges | dominance | standing
    step: attack                          # setup: mulligan | place; plot: choose | first;
                                          # challenges: attack | defend | kill (default: the first)
    first: alice                          # the first player (the order runs clockwise from it; default the first seat)
    active: bob                           # marshal / challenges: whose turn it is (default: the first player)
    initiative_winner: alice              # plot/first: who chooses the first player
    plots: {alice: Council of Lords}      # the revealed plot (default: Quiet Harvest, from round 1 on)
    plot_deck: {alice: [...]}             # default: the other plots of the house's deck A
    used_plots: {alice: [...]}
    hands: {alice: [Frostfang, Hedge Knight]}
    decks: {alice: [Hedge Knight, ...]}   # the top of the deck, in order (default: empty)
    characters: {alice: ["Frostfang knelt power 2 dupes 1 with Northern Steel, bob Heavy Shackles"]}
    locations: {alice: ["Stonewood Tower dupes 1"]}
    power: {alice: 5}                     # on the house card
    discard: {alice: [...]}
    dead: {alice: [...]}
    gold: 5                               # marshal: the active player's gold (default: the income)
    limited: {alice: 1}                   # Limited cards marshalled this round
    challenges_done: {alice: [military]}
    challenge: {attacker: alice, defender: bob, type: military, attackers: [...], stealth: [...],
                defenders: [...], kills: 2}   # the challenge under way (steps defend and kill)
    mulligans: {alice: true}              # a mulligan already taken

A character is ``"<name> [#n] [knelt] [power <n>] [dupes <n>] [with <attachment>, [<owner>] <attachment>]"``
(attachments belong to the character's controller unless an owner is written). Cards that are not
listed are nowhere: a case's decks are not deck lists (its ``decks`` are only what it lists).
An illegal position is refused with the reason: two copies of a unique card in play, a unique card
in play and in the dead pile, an attachment on a No attachments character, a card in two places.

Expectation keys: the position keys (``characters`` and ``locations`` as the same text, compared as
multisets; ``hands``, ``decks``, ``discard``, ``dead``, ``plot_deck``, ``used_plots`` as multisets of
names), and ``total_power`` (house card and characters), ``order``, ``initiative`` (per player),
``counts`` (per player: ``hand``, ``deck``, ``discard``, ``dead``, ``characters``, ``locations``,
``plot_deck``: how many cards),
``owes`` (the players owed a decision), ``on_file`` (per player: the canonical lines held, in
order), plus the generic ``winner``, ``events`` and ``rejected``.

``until``: ``end of step`` (one adjudication), ``end of <phase>`` (``end of setup``, ``end of plot``,
``end of marshal``, ``end of challenges``, ...), ``end of round``, ``end of round N``,
``end of <phase> of round N``, ``end of game``.
"""

from __future__ import annotations

import re
from collections import Counter

from ...mailbody import fold
from ...cases import check_shape, check_shapes, diff_values
from ...ruleset import RulesetError
from . import engine
from . import position as pos
from .gamedata import load_gamedata
from .newgame import blank_state, check_players
from .submission import on_file

ORDER = ("setup", "plot", "draw", "marshal", "challenges", "dominance", "standing")
DEFAULT_HOUSES = ("stark", "lannister", "baratheon", "targaryen")
DEFAULT_PLOT = "quiet-harvest"


def _gd():
    return load_gamedata()


def card_of(text, player: str | None = None) -> str:
    gd = _gd()
    key = fold(str(text))
    found = gd.matching(key)
    if len(found) != 1:
        where = f" (for {player})" if player else ""
        raise RulesetError(f"card {text!r}{where}: " + ("no such card" if not found else
                                                       f"could be {', '.join(sorted(found))}"))
    return found.pop()


class Copies:
    """Instances for a player's cards: explicit ``#n`` kept, the others numbered from 1 in order."""

    def __init__(self):
        self.used: dict[str, set] = {}

    def reserve(self, player: str, text: str) -> None:
        m = re.search(r"#\s*(\d+)", str(text))
        if m:
            name = re.split(r"\s*#", str(text))[0]
            self.used.setdefault(player, set()).add(f"{card_of(name, player)}#{int(m.group(1))}")

    def take(self, player: str, text: str) -> str:
        text = str(text).strip()
        m = re.fullmatch(r"(.+?)\s*#\s*(\d+)", text)
        if m:
            return f"{card_of(m.group(1), player)}#{int(m.group(2))}"
        cid = card_of(text, player)
        used = self.used.setdefault(player, set())
        n = 1
        while f"{cid}#{n}" in used:
            n += 1
        instance = f"{cid}#{n}"
        used.add(instance)
        return instance


_ENTRY = re.compile(r"^(?P<name>.+?)(?P<copy>\s*#\s*\d+)?"
                    r"(?P<rest>(?:\s+(?:knelt|kneels|standing|power\s+\d+|dupes\s+\d+))*)"
                    r"(?:\s+with\s+(?P<with>.+))?$", re.I)


def _entry(text: str, player: str, players: list[str], copies: Copies, kind: str) -> tuple[dict, list[tuple[str, str]]]:
    gd = _gd()
    m = _ENTRY.match(str(text).strip())
    if m is None:
        raise RulesetError(f"{kind} {text!r}: write <name> [#n] [knelt] [power N] [dupes N] [with <attachments>]")
    instance = copies.take(player, m.group("name") + (m.group("copy") or ""))
    card = gd.card(instance)
    if card.type != kind:
        raise RulesetError(f"{text!r} is a {card.type}, not a {kind}")
    rest = m.group("rest") or ""
    power = re.search(r"power\s+(\d+)", rest)
    dupes = re.search(r"dupes\s+(\d+)", rest)
    entry: dict = {"card": instance, "dupes": []}
    if kind == "character":
        entry.update(knelt=bool(re.search(r"knelt|kneels", rest)), power=int(power.group(1)) if power else 0,
                     attachments=[])
    elif power:
        raise RulesetError(f"{text!r}: only characters carry power")
    for _ in range(int(dupes.group(1)) if dupes else 0):
        if not card.unique:
            raise RulesetError(f"{text!r}: only a unique card has duplicates")
        entry["dupes"].append(copies.take(player, gd.card(instance).name))
    attached = []
    for part in [p.strip() for p in re.split(r"\s*,\s*", m.group("with") or "") if p.strip()]:
        words = part.split()
        owner = player
        if len(words) > 1 and words[0].lower() in players:
            owner, part = words[0].lower(), " ".join(words[1:])
        attached.append((owner, part))
    return entry, attached


def _names(value, player: str) -> list:
    if value is None:
        return []
    if not isinstance(value, list):
        raise RulesetError(f"{player}: expected a list of cards, got {value!r}")
    return value


POSITION_SHAPES = {  # every key of a position -> (shape, example): cases.check_shapes, before it is read
    "players": (list[str], "players: [alice, bob]"),
    "houses": (dict[str, str | list[str]], "houses: {alice: stark, bob: [lannister, baratheon]}"),
    "seed": (int, "seed: 7"),
    "round": (int, "round: 2"),
    "phase": (str, "phase: challenges"),
    "step": (str, "step: attack"),
    "first": (str, "first: bob"),
    "active": (str, "active: alice"),
    "initiative_winner": (str, "initiative_winner: bob"),
    "plots": (dict[str, str], "plots: {alice: Muster at Dawn}"),
    "plot_deck": (dict[str, list[str]], "plot_deck: {alice: [Call the Banners]}"),
    "used_plots": (dict[str, list[str]], "used_plots: {alice: [Quiet Harvest]}"),
    "hands": (dict[str, list[str]], "hands: {alice: [Barrowton Veteran]}"),
    "decks": (dict[str, list[str]], "decks: {alice: [Northern Bannerman]}"),
    "characters": (dict[str, list[str]], "characters: {alice: [Northern Bannerman knelt power 1]}"),
    "locations": (dict[str, list[str]], "locations: {alice: [Winterfell]}"),
    "power": (dict[str, int], "power: {alice: 3}"),
    "discard": (dict[str, list[str]], "discard: {alice: [Wolfswood Hunter]}"),
    "dead": (dict[str, list[str]], "dead: {alice: [Wolfswood Hunter]}"),
    "gold": (int, "gold: 5"),
    "limited": (dict[str, int], "limited: {alice: 1}"),
    "challenges_done": (dict[str, list[str]], "challenges_done: {alice: [military]}"),
    "challenge": (dict[str, str | int | list[str]], "challenge: {attacker: alice, defender: bob, type: military, "
                                                     "attackers: [Northern Bannerman]}"),
    "mulligans": (dict[str, bool], "mulligans: {alice: true}"),
}


def case_state(position: dict) -> dict:
    check_shapes(position, POSITION_SHAPES)
    gd = _gd()
    players = check_players(gd, [str(p).lower() for p in position.get("players") or ["alice", "bob"]])
    state = blank_state(players, int(position.get("seed", 0)))
    state["decks"] = {p: "case" for p in players}
    for key in position:
        if key not in POSITION_SHAPES:
            raise RulesetError(f"unknown position key {key!r}")
    for key in ("houses", "plots", "plot_deck", "used_plots", "hands", "decks", "characters", "locations", "power",
                "discard", "dead", "limited", "challenges_done", "mulligans"):
        for p in position.get(key) or {}:
            if str(p).lower() not in players:
                raise RulesetError(f"{key} of {p}, who is not a player")
    houses = position.get("houses") or {}
    for i, p in enumerate(players):
        house = houses.get(p, DEFAULT_HOUSES[i])
        state["houses"][p] = [str(h) for h in (house if isinstance(house, list) else [house])]
        if any(h not in gd.houses for h in state["houses"][p]) or len(state["houses"][p]) not in (1, 2):
            raise RulesetError(f"houses of {p}: one or two of {', '.join(gd.houses)}")
    phase = str(position.get("phase", "plot"))
    if phase not in ORDER:
        raise RulesetError(f"unknown phase {phase!r} ({', '.join(ORDER)})")
    state["phase"] = phase
    steps = pos.STEPS.get(phase, (None,))
    state["step"] = position.get("step", steps[0])
    if state["step"] not in steps:
        raise RulesetError(f"phase {phase} has the steps {', '.join(map(str, steps))}")
    state["round"] = int(position.get("round", 0 if phase == "setup" else 1))
    if (phase == "setup") != (state["round"] == 0):
        raise RulesetError("round 0 is the setup, and the setup is round 0")

    copies = Copies()
    for key in ("hands", "decks", "discard", "dead"):
        for p, cards in (position.get(key) or {}).items():
            for c in _names(cards, p):
                copies.reserve(str(p).lower(), c)
    for key in ("characters", "locations"):
        for p, entries in (position.get(key) or {}).items():
            for e in _names(entries, p):
                copies.reserve(str(p).lower(), str(e).split(" with ")[0])
    state["hand"] = {p: [copies.take(p, c) for c in _names((position.get("hands") or {}).get(p), p)] for p in players}
    state["deck"] = {p: [copies.take(p, c) for c in _names((position.get("decks") or {}).get(p), p)] for p in players}
    state["discard"] = {p: [copies.take(p, c) for c in _names((position.get("discard") or {}).get(p), p)]
                        for p in players}
    state["dead"] = {p: [copies.take(p, c) for c in _names((position.get("dead") or {}).get(p), p)] for p in players}
    attachments = []
    for key, kind in (("characters", "character"), ("locations", "location")):
        for p in players:
            for text in _names((position.get(key) or {}).get(p), p):
                entry, attached = _entry(text, p, players, copies, kind)
                state["characters" if kind == "character" else "locations"][p].append(entry)
                attachments += [(p, entry, owner, a) for owner, a in attached]
    for holder, entry, owner, text in attachments:
        if "attachments" not in entry:
            raise RulesetError("attachments go on characters")
        instance = copies.take(owner, text)
        if gd.card(instance).type != "attachment":
            raise RulesetError(f"{text!r} is no attachment")
        if gd.card(entry["card"]).has("no-attachments"):
            raise RulesetError(f"{gd.card(entry['card']).name} has No attachments")
        entry["attachments"].append({"card": instance, "owner": owner})

    for p in players:
        power = int((position.get("power") or {}).get(p, 0))
        state["house_power"][p] = power
        state["limited"][p] = int((position.get("limited") or {}).get(p, 0))
        state["challenges_done"][p] = [str(t) for t in (position.get("challenges_done") or {}).get(p) or []]
        state["mulligans"][p] = bool((position.get("mulligans") or {}).get(p, False))
        deck_a = gd.deck(f"{state['houses'][p][0]}-a").plots
        current = (position.get("plots") or {}).get(p)
        revealed = state["round"] >= 1 and phase != "plot"
        current = card_of(current, p) if current else (DEFAULT_PLOT if revealed else None)
        used = [card_of(c, p) for c in _names((position.get("used_plots") or {}).get(p), p)]
        deck = (position.get("plot_deck") or {}).get(p)
        deck = [card_of(c, p) for c in deck] if deck is not None else [c for c in deck_a if c != current
                                                                         and c not in used]
        for c in [*deck, *used, *([current] if current else [])]:
            if gd.card(c).type != "plot":
                raise RulesetError(f"{gd.card(c).name} is no plot")
        if not deck:
            raise RulesetError(f"{p}: an empty plot deck")
        state["plots"][p] = {"deck": deck, "used": used, "current": current}
    state["power_gained"] = sum(pos.total_power(state, p) for p in players)

    first = str(position.get("first", players[0])).lower()
    if first not in players:
        raise RulesetError(f"first player {first!r} is not a player")
    if phase not in ("setup", "plot") or state["step"] == "first" or "first" in position:
        i = players.index(first)
        state["first"], state["order"] = first, players[i:] + players[:i]
    if phase == "plot" and state["step"] == "first":
        winner = str(position.get("initiative_winner", first)).lower()
        if winner not in players:
            raise RulesetError(f"initiative winner {winner!r} is not a player")
        state["initiative_winner"], state["first"], state["order"] = winner, None, []
    if phase in ("marshal", "challenges"):
        active = str(position.get("active", state["order"][0])).lower()
        if active not in players:
            raise RulesetError(f"active player {active!r} is not a player")
        state["active"] = state["order"].index(active)
    if phase == "marshal":
        player = pos.acting(state)
        state["gold"] = {p: None for p in players}
        state["gold"][player] = int(position["gold"]) if "gold" in position else sum(engine.income(state, gd, player))
    challenge = position.get("challenge")
    if (challenge is not None) != (phase == "challenges" and state["step"] in ("defend", "kill")):
        raise RulesetError("a challenge goes with phase challenges, step defend or kill")
    if challenge is not None:
        state["challenge"] = _challenge(state, challenge, players)
    _check(state, gd)
    return state


def _challenge(state: dict, raw: dict, players: list[str]) -> dict:
    example = POSITION_SHAPES["challenge"][1]
    missing = [key for key in ("attacker", "defender", "type") if key not in raw]
    if missing:
        raise RulesetError(f"challenge: {', '.join(missing)} missing (example: {example})")
    for key, shape in (("attackers", list[str]), ("stealth", list[str]), ("defenders", list[str]), ("kills", int)):
        if key in raw:
            check_shape(raw[key], shape, f"challenge.{key}", example)
    attacker, defender = str(raw["attacker"]).lower(), str(raw["defender"]).lower()
    if attacker not in players or defender not in players or attacker == defender:
        raise RulesetError("challenge: an attacker and a defender, two players")

    def find(player: str, text) -> str:
        cid = card_of(re.split(r"\s*#", str(text))[0], player)
        m = re.search(r"#\s*(\d+)", str(text))
        for entry in state["characters"][player]:
            if pos.card_id(entry["card"]) == cid and (m is None or pos.copy_of(entry["card"]) == int(m.group(1))):
                return entry["card"]
        raise RulesetError(f"challenge: {player} has no {text} in play")

    c = {"attacker": attacker, "defender": defender, "type": str(raw["type"]),
         "attackers": [find(attacker, a) for a in raw.get("attackers") or []],
         "stealth": [find(defender, s) for s in raw.get("stealth") or []],
         "defenders": None if state["step"] == "defend" else [find(defender, d) for d in raw.get("defenders") or []],
         "kills": int(raw.get("kills", 0))}
    if c["type"] not in pos.TYPES:
        raise RulesetError(f"challenge type {c['type']!r}")
    if state["step"] == "kill":
        c["winner"] = attacker
        if not 0 < c["kills"] < len(state["characters"][defender]):
            raise RulesetError("challenge: kills must be fewer than the defender's characters (else nobody chooses)")
    for side, cards in ((attacker, c["attackers"]), (defender, c["defenders"] or [])):
        for card in cards:
            entry = pos.character(state, side, card)
            entry["knelt"] = True
            state["participants"][side].append(card)
    if c["type"] not in state["challenges_done"][attacker]:
        state["challenges_done"][attacker].append(c["type"])
    return c


def _check(state: dict, gd) -> None:
    for p in state["players"]:
        every = (state["hand"][p] + state["deck"][p] + state["discard"][p] + state["dead"][p]
                 + [e["card"] for e in pos.in_play(state, p)] + [d for e in pos.in_play(state, p) for d in e["dupes"]]
                 + [a["card"] for q in state["players"] for e in state["characters"][q] for a in e["attachments"]
                    if a["owner"] == p])
        twice = [c for c, n in Counter(every).items() if n > 1]
        if twice:
            raise RulesetError(f"{p}'s {gd.card(twice[0]).name} #{pos.copy_of(twice[0])} is in two places")
        uniques = Counter(gd.card(e["card"]).character for e in pos.in_play(state, p) if gd.card(e["card"]).unique)
        if any(n > 1 for n in uniques.values()):
            raise RulesetError(f"{p} has two copies of a unique card in play")
        if set(uniques) & pos.dead_characters(state, gd, p):
            raise RulesetError(f"{p} has a unique card in play and in the dead pile")


_UNTIL = re.compile(r"end of (step|game|round|setup|plot|draw|marshal|marshalling|challenges|dominance|standing)"
                    r"(?: (?:of )?(?:round )?(\d+))?")


def case_done(start: dict, state: dict, until: str) -> bool:
    m = _UNTIL.fullmatch(str(until).strip().lower())
    if m is None:
        raise RulesetError(f"unknown until {until!r} (end of step | end of <phase> [of round N] | end of round [N] | "
                           "end of game)")
    what, number = m.group(1), int(m.group(2) or start["round"])
    if what == "step" or state["phase"] == "over":
        return True
    if what == "game":
        return False
    if what == "round":
        return state["round"] > number
    what = "marshal" if what == "marshalling" else what
    if state["round"] != number:
        return state["round"] > number
    return ORDER.index(state["phase"]) > ORDER.index(what)


# -- expectations ------------------------------------------------------------------------------------------


def entry_text(state: dict, player: str, entry: dict) -> str:
    gd = _gd()
    text = gd.card(entry["card"]).name
    if not gd.card(entry["card"]).unique:
        text += f" #{pos.copy_of(entry['card'])}"
    if entry.get("knelt"):
        text += " knelt"
    if entry.get("power"):
        text += f" power {entry['power']}"
    if entry["dupes"]:
        text += f" dupes {len(entry['dupes'])}"
    attached = [(f"{a['owner']} " if a["owner"] != player else "") + gd.card(a["card"]).name
                for a in entry.get("attachments", [])]
    if attached:
        text += " with " + ", ".join(sorted(attached))
    return text


def _normal_entry(text: str, player: str) -> str:
    """An expected entry in the form :func:`entry_text` writes (copies only when written)."""
    gd = _gd()
    m = _ENTRY.match(str(text).strip())
    if m is None:
        raise RulesetError(f"entry {text!r}")
    name = gd.card(card_of(m.group("name"), player)).name
    rest = m.group("rest") or ""
    out = name + (f" #{int(m.group('copy').strip(' #'))}" if m.group("copy") else "")
    if re.search(r"knelt|kneels", rest):
        out += " knelt"
    power = re.search(r"power\s+(\d+)", rest)
    if power and int(power.group(1)):
        out += f" power {int(power.group(1))}"
    dupes = re.search(r"dupes\s+(\d+)", rest)
    if dupes and int(dupes.group(1)):
        out += f" dupes {int(dupes.group(1))}"
    if m.group("with"):
        parts = []
        for part in [p.strip() for p in m.group("with").split(",") if p.strip()]:
            words = part.split()
            owner = ""
            first = words[0].lower()
            if len(words) > 1 and first != player and not gd.matching(part) and re.fullmatch(r"[a-z]\w*", first):
                owner, part = words[0].lower() + " ", " ".join(words[1:])
            parts.append(owner + gd.card(card_of(part, player)).name)
        out += " with " + ", ".join(sorted(parts))
    return out


def _strip_copies(texts: list[str], expected: list[str]) -> list[str]:
    """Actual entries without the copy numbers the expectation does not write."""
    if any("#" in e.split(" with ")[0] for e in expected):
        return texts
    return [re.sub(r" #\d+", "", t, count=1) if "#" in t.split(" with ")[0] else t for t in texts]


def _cards(cards: list[str]) -> list[str]:
    return sorted(_gd().card(c).name for c in cards)


def case_compare(state: dict, key: str, expected) -> list[str]:
    try:
        return _compare(state, key, expected)
    except RulesetError as exc:
        return [f"{key}: {exc}"]


def _compare(state: dict, key: str, expected) -> list[str]:
    gd = _gd()
    players = state["players"]
    if key in ("characters", "locations"):
        out = []
        for p, wanted in (expected or {}).items():
            want = sorted(_normal_entry(t, str(p)) for t in wanted or [])
            have = sorted(_strip_copies([entry_text(state, str(p), e) for e in state[key][str(p)]], want))
            out += diff_values(f"{key}.{p}", want, have)
        return out
    zone = {"hands": "hand", "decks": "deck", "discard": "discard", "dead": "dead"}
    if key in zone:
        return diff_values(key, {str(p): sorted(gd.card(card_of(c, str(p))).name for c in cards or [])
                                 for p, cards in (expected or {}).items()},
                           {p: _cards(state[zone[key]][p]) for p in players})
    if key in ("plot_deck", "used_plots"):
        field = "deck" if key == "plot_deck" else "used"
        return diff_values(key, {str(p): sorted(gd.card(card_of(c)).name for c in cards or [])
                                 for p, cards in (expected or {}).items()},
                           {p: _cards(state["plots"][p][field]) for p in players})
    if key == "plots":
        return diff_values(key, {str(p): gd.card(card_of(c)).name if c else None for p, c in (expected or {}).items()},
                           {p: gd.card(state["plots"][p]["current"]).name if state["plots"][p]["current"] else None
                            for p in players})
    if key == "power":
        return diff_values(key, expected, dict(state["house_power"]))
    if key == "total_power":
        return diff_values(key, expected, {p: pos.total_power(state, p) for p in players})
    if key == "counts":
        counts = {p: {"hand": len(state["hand"][p]), "deck": len(state["deck"][p]), "discard": len(state["discard"][p]),
                      "dead": len(state["dead"][p]), "characters": len(state["characters"][p]),
                      "locations": len(state["locations"][p]), "plot_deck": len(state["plots"][p]["deck"])}
                  for p in players}
        return diff_values(key, expected, counts)
    if key == "active":
        return diff_values(key, expected, pos.acting(state))
    if key == "owes":
        return diff_values(key, sorted(expected or []), sorted({o.player for o in engine.pending(state, gd)
                                                                if not o.done}))
    if key == "on_file":
        return diff_values(key, {str(p): [str(x) for x in lines or []] for p, lines in (expected or {}).items()},
                           {p: on_file(state, gd, p) for p in players})
    if key == "challenge":
        c = state["challenge"]
        if expected is None or c is None:
            return diff_values(key, expected, c)
        shown = dict(c, attackers=_cards(c["attackers"]), stealth=_cards(c["stealth"]),
                     defenders=None if c["defenders"] is None else _cards(c["defenders"]))
        want = dict(expected)
        for k in ("attackers", "stealth", "defenders"):
            if want.get(k) is not None:
                want[k] = sorted(gd.card(card_of(x)).name for x in want[k])
        return diff_values(key, want, shown)
    if key in ("round", "phase", "step", "first", "order", "initiative", "initiative_winner", "gold", "limited",
               "challenges_done", "mulligans"):
        value = state[key]
        if key == "gold":
            value = state["gold"].get(pos.acting(state)) if isinstance(expected, int) else value
        return diff_values(key, expected, value)
    raise RulesetError(f"unknown expectation key {key!r}")
