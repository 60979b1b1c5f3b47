"""The ten abilities: what a resolving card may choose (:func:`choices`) and what happens (:func:`resolve`).

A *choice* is a small dict naming one legal outcome, listed in queue order (the first is the
default, except where :func:`default` says otherwise):

* Archer ``{end: first|last, target: j}``; Soldier ``{side: before|after, target: j}``;
* Spy ``{side, victim: player}``; Heir and Lord ``{}`` (nothing to choose);
* Shapeshifter ``{model: before|after, model_pos: j, copy: ability, sub: <choice of the copied ability> | None}``;
* Assassination ``{target: j}``; Royal Decree ``{target: j, to: k}`` (k: the card's position, 1-based,
  once moved).

Rules decided here (README "Oriflamme (Krvavý trůn)", HELP):

* Archer, Soldier (and a Shapeshifter using them) eliminate an opponent's card when one of their
  possible targets is an opponent's; their owner's own card only when every possible target is
  their own (S001: "Pokud nemáte žádnou jinou možnost, musíte odstranit kartu svého rodu"). An Archer
  at an end of the queue is itself one of its possible targets. The Spy likewise steals from an
  opponent's neighbour when it has one (S001: "Pokud musíte krást sami od sebe, nic nezískáte").
* A Soldier or Spy without a neighbour does nothing; a Spy's victim with 0 influence loses nothing.
* A Shapeshifter's models are adjacent face-up uncovered characters other than Shapeshifters; it
  acts from its own position with its own name (Heir check) and is "the attacking card" of an Ambush.
* The Assassination may target any uncovered card, its owner's and itself included (S001).
* The Royal Decree moves any uncovered card but itself, never onto another card (S001); a card
  that is alone may be "moved" to its own place.

What happens is told in events (``oriflamme.*`` messages). Cards in them are plain data the
catalogues describe in the form each sentence needs: :func:`seen` (a card of the queue as everyone
sees it: a face-down card without its name) and :func:`actor` (a card by its owner and name).
"""

from __future__ import annotations

from ...messages import Msg
from ...ruleset import Event
from . import lines
from . import position as pos
from .gamedata import GameData
from .position import AFTER, BEFORE, FIRST, LAST

ELIMINATING = ("archer", "soldier")


def _own_rule(owner: str, cands: list[dict], state: dict) -> list[dict]:
    """Opponents' cards if any candidate is one, else every candidate (own cards, forced)."""
    opponents = [c for c in cands if pos.top(state, c["target"])["owner"] != owner]
    return opponents or cands


def ability_choices(state: dict, gd: GameData, ability: str, i: int, owner: str, distinct: bool = True) -> list[dict]:
    """Every legal outcome of ``ability`` used from stack ``i`` by ``owner``; ``distinct``: one per
    different result (what the judge asks about), else every way of writing each (what a
    player's TARGET line may name)."""
    one = _dedupe if distinct else list
    queue = state["queue"]
    n = len(queue)
    neighbours = [(side, j) for side, j in ((BEFORE, i - 1), (AFTER, i + 1)) if 0 <= j < n]
    if ability == "archer":  # alone, the Archer is the first and the last card: one outcome, both spellings
        ends = [(FIRST, 0)] + ([(LAST, n - 1)] if n > 1 or not distinct else [])
        return _own_rule(owner, [{"end": e, "target": j} for e, j in ends], state)
    if ability == "soldier":
        return _own_rule(owner, [{"side": s, "target": j} for s, j in neighbours], state)
    if ability == "spy":
        cands = [{"side": s, "victim": queue[j][-1]["owner"]} for s, j in neighbours]
        cands = [c for c in cands if c["victim"] != owner] or cands
        return one(cands)
    if ability in ("heir", "lord"):
        return [{}]
    if ability == "shapeshifter":
        out = []
        for side, j in neighbours:
            model = queue[j][-1]
            card = gd.card(model["card"])
            if not (model["up"] and card.character and card.ability != "shapeshifter"):
                continue
            subs = ability_choices(state, gd, card.ability, i, owner, distinct)
            out += [{"model": side, "model_pos": j, "copy": card.ability, "sub": sub} for sub in subs or [None]]
        return one(out)
    if ability == "assassination":
        return [{"target": j} for j in range(n)]
    if ability == "royal-decree":
        out = []
        for j in range(n):
            if j != i:
                count = n if len(queue[j]) == 1 else n + 1  # stacks once moved
                out += [{"target": j, "to": k} for k in range(1, count + 1)]
        return out
    return []  # ambush, conspiracy: everything happens when they are revealed


def choices(state: dict, gd: GameData, i: int) -> list[dict]:
    card = pos.top(state, i)
    return ability_choices(state, gd, gd.card(card["card"]).ability, i, card["owner"])


def _key(choice: dict | None):
    """What makes two outcomes different (so that equal ones are not asked about)."""
    if choice is None:
        return None
    if "model" in choice:
        return ("copy", choice["copy"], _key(choice["sub"]))
    if "victim" in choice:
        return ("victim", choice["victim"])
    return tuple(sorted((k, v) for k, v in choice.items() if k not in ("end", "side")))


def _dedupe(items: list[dict]) -> list[dict]:
    seen, out = set(), []
    for item in items:
        if _key(item) not in seen:
            seen.add(_key(item))
            out.append(item)
    return out


def default(state: dict, gd: GameData, i: int, options: list[dict]) -> dict:
    """The documented default: the first legal outcome in queue order, except
    Assassination: the first opponent's card, else the Assassination itself (nothing of one's own lost);
    Royal Decree: the first other card stays where it is (if it covers a card: just behind its stack)."""
    card = pos.top(state, i)
    ability = gd.card(card["card"]).ability
    if ability == "assassination":
        return next((o for o in options if pos.top(state, o["target"])["owner"] != card["owner"]), {"target": i})
    if ability == "royal-decree":
        j = 0 if i != 0 else 1
        return {"target": j, "to": j + 1 if len(state["queue"][j]) == 1 else j + 2}
    return options[0]


# -- what a player's target line selects --------------------------------------------------------------


def resolve_ref(state: dict, player: str, ref: dict) -> int | None:
    """A card reference of a TARGET line -> the stack index it names now, or None.
    Another family's card can be named only when it is face up (its name is public then)."""
    n = len(state["queue"])
    if "pos" in ref:
        return ref["pos"] - 1 if 1 <= ref["pos"] <= n else None
    if "end" in ref:
        return (0 if ref["end"] == FIRST else n - 1) if n else None
    j = pos.top_index(state, ref["owner"], ref["card"])
    if j is None or (ref["owner"] != player and not pos.top(state, j)["up"]):
        return None
    return j


def matching(state: dict, gd: GameData, i: int, spec: dict, options: list[dict]) -> list[dict]:
    """The ``options`` a TARGET spec selects (one = usable, none = does not fit).

    The spec is matched against every way of writing each outcome, so that of two choices with
    the same result (a Shapeshifter copying either of two equal Soldiers) the one ``options``
    dropped as a duplicate is still understood; it stands for its representative in ``options``."""
    card = pos.top(state, i)
    ability = gd.card(card["card"]).ability
    every = ability_choices(state, gd, ability, i, card["owner"], distinct=False)
    picked = _dedupe(_select(state, ability, card["owner"], spec, every))
    return [next((o for o in options if _key(o) == _key(p)), p) for p in picked]


def _select(state: dict, ability: str, owner: str, spec: dict, options: list[dict]) -> list[dict]:
    if ability == "archer":
        return [o for o in options if o["end"] == spec.get("end")]
    if ability in ("soldier", "spy"):
        return [o for o in options if o["side"] == spec.get("side")]
    if ability == "shapeshifter":
        sel = [o for o in options if o["model"] == spec.get("side")]
        then = spec.get("then")
        if then:  # the copied ability's part; a copied Heir or Lord chooses nothing and ignores it
            sel = [o for o in sel if not (o["sub"] and ("side" in o["sub"] or "end" in o["sub"]))
                   or (o["sub"].get("side") == then.get("side") if "side" in then else o["sub"].get("end") == then.get("end"))]
        return sel
    if ability == "assassination":
        ref = spec.get("ref") or ({"end": spec["end"]} if "end" in spec else None)
        j = resolve_ref(state, owner, ref) if ref else None
        return [o for o in options if o["target"] == j]
    if ability == "royal-decree":
        j = resolve_ref(state, owner, spec["ref"]) if spec.get("ref") else None
        if j is None:
            return []
        count = len(state["queue"]) + (0 if len(state["queue"][j]) == 1 else 1)
        to = {"front": 1, "back": count}.get(spec.get("to"), spec.get("to"))
        return [o for o in options if o["target"] == j and o["to"] == to]
    return []


def answer(option: dict) -> Msg | None:
    """The option as the player writes it after ``TARGET <card>:`` (a message: :mod:`.lines`)."""
    if "model" in option:
        sub = option["sub"]
        return lines.side(option["model"], (sub.get("end") or sub.get("side")) if sub else None)
    if "end" in option:
        return lines.end(option["end"])
    if "side" in option:
        return lines.side(option["side"])
    if "to" in option:
        return lines.move(lines.position(option["target"] + 1), option["to"])
    if "target" in option:
        return lines.position(option["target"] + 1)
    return None


def answer_text(gd: GameData, option: dict) -> str:
    """The option in the canonical notation (an example, a bot's line)."""
    return lines.canonical(answer(option), gd)


def seen(state: dict, j: int) -> dict:
    """The top card of stack ``j`` as everyone may see it: its owner, its name only when it is face up,
    the influence on it ("Blue's face-down card (2 influence)", "Red's Lord")."""
    card = pos.top(state, j)
    return {"owner": card["owner"], "card": card["card"] if card["up"] else None, "tokens": card["tokens"]}


def option(state: dict, choice: dict) -> Msg:
    """An option with what it does, for the question: "AFTER (Blue's face-down card)"."""
    text = answer(choice)
    if "model" in choice:
        sub = choice["sub"] or {}
        return Msg("oriflamme.option.copy", answer=text, model=seen(state, choice["model_pos"]),
                   target=seen(state, sub["target"]) if "target" in sub else None, victim=sub.get("victim"))
    if "victim" in choice:
        return Msg("oriflamme.option.steal", answer=text, victim=choice["victim"])
    if "target" in choice and "to" not in choice:
        return Msg("oriflamme.option.target", answer=text, card=seen(state, choice["target"]))
    return Msg("oriflamme.option.plain", answer=text)


# -- what happens ------------------------------------------------------------------------------------


def actor(card: dict, copy: str | None = None) -> dict:
    """A card named by its owner and name ("Red's Shapeshifter (as Soldier)"): a card that acts, or one
    whose name is known because it leaves the queue."""
    return {"owner": card["owner"], "card": card["card"], "copy": copy}


def reveal(state: dict, gd: GameData, i: int, events: list[Event]) -> None:
    """The owner turns the top card of stack ``i`` face up: its influence, then (for the two intrigues
    that need no choice) its whole effect. Other cards' effects follow in :func:`resolve`."""
    card = pos.top(state, i)
    info = gd.card(card["card"])
    owner, tokens = card["owner"], card["tokens"]
    card["up"], card["tokens"] = True, 0
    pos.forget(state, owner, card["card"])
    told = {"player": owner, "card": card["card"], "position": i + 1, "tokens": tokens}
    if info.ability == "ambush":
        pos.gain(state, owner, gd.number(card["card"], "gain"))
        events.append(Event("oriflamme.reveal_ambush", {**told, "gain": gd.number(card["card"], "gain")}))
        _leave(state, gd, i, events)
    elif info.ability == "conspiracy":
        won = tokens * gd.number(card["card"], "multiplier")
        pos.gain(state, owner, won)
        events.append(Event("oriflamme.reveal_conspiracy", {**told, "gain": won}))
        _leave(state, gd, i, events)
    else:
        pos.gain(state, owner, tokens)
        events.append(Event("oriflamme.reveals", told))


def _leave(state: dict, gd: GameData, i: int, events: list[Event]) -> None:
    """The top card of stack ``i`` (the resolving one) is discarded; a card it covered resolves at once."""
    below = len(state["queue"][i]) > 1
    pos.discard(state, pos.remove_top(state, i))
    if below:
        cursor = state["cursor"]
        events.append(Event("oriflamme.uncovered_now", {"card": seen(state, cursor), "position": cursor + 1}))


def resolve(state: dict, gd: GameData, i: int, choice: dict | None, events: list[Event]) -> None:
    """Apply the face-up top card of stack ``i`` with ``choice`` (None: it has no legal outcome),
    discard it if it is an intrigue, and move the cursor on.

    The cursor: if the card is still in the queue, the stack after it resolves next. If it left
    the queue (an intrigue; an Assassination or Archer on itself; the attacker of an Ambush), the
    cursor stays where its stack is: a card it covered is uncovered and resolves at once; if the
    stack is gone, the stack that closed the gap resolves next.
    """
    card = pos.top(state, i)
    info = gd.card(card["card"])
    below = len(state["queue"][i]) > 1
    if choice is None:
        events.append(Event("oriflamme.no_effect", {"actor": actor(card), "position": i + 1}))
    else:
        _apply(state, gd, info.ability, i, card, choice, events, label=actor(card))
    where = pos.top_index(state, card["owner"], card["card"])
    if where is not None and not info.character:
        pos.discard(state, pos.remove_top(state, where))
        events.append(Event("oriflamme.discarded", {"actor": actor(card)}))
        where = None
    if where is not None:
        state["cursor"] = where + 1
    elif below:  # the actor's stack is still there, at the cursor, with a new top
        cursor = state["cursor"]
        events.append(Event("oriflamme.uncovered_now", {"card": seen(state, cursor), "position": cursor + 1}))


def _apply(state: dict, gd: GameData, ability: str, i: int, card: dict, choice: dict, events: list[Event],
           label: dict) -> None:
    """Apply ``ability`` for ``card`` (the resolving card); ``label``: how events name it (:func:`actor`)."""
    owner = card["owner"]
    if ability in ELIMINATING or ability == "assassination":
        eliminate(state, gd, choice["target"], card, events, label)
    elif ability == "spy":
        victim = choice["victim"]
        if victim == owner:
            events.append(Event("oriflamme.steal_own", {"actor": label, "player": owner}))
        else:
            amount = min(gd.number("spy", "steal"), state["influence"][victim])
            state["influence"][victim] -= amount
            pos.gain(state, owner, amount)
            events.append(Event("oriflamme.steals", {"actor": label, "victim": victim, "amount": amount}))
    elif ability == "heir":
        rivals = [j for j, stack in enumerate(state["queue"]) if stack[-1]["up"] and stack[-1]["card"] == card["card"]
                  and stack[-1] is not card]
        if rivals:
            events.append(Event("oriflamme.heir_blocked", {"actor": label, "card": card["card"],
                                                           "position": rivals[0] + 1}))
        else:
            pos.gain(state, owner, gd.number("heir", "gain"))
            events.append(Event("oriflamme.gains", {"actor": label, "amount": gd.number("heir", "gain")}))
    elif ability == "lord":
        own = sum(1 for j in (i - 1, i + 1) if 0 <= j < len(state["queue"]) and pos.top(state, j)["owner"] == owner)
        won = gd.number("lord", "gain") + own * gd.number("lord", "per_own_neighbour")
        pos.gain(state, owner, won)
        events.append(Event("oriflamme.lord_gains", {"actor": label, "amount": won, "base": gd.number("lord", "gain"),
                                                     "own": own}))
    elif ability == "shapeshifter":
        model = pos.top(state, choice["model_pos"])
        events.append(Event("oriflamme.copies", {"actor": label, "model": actor(model), "copy": model["card"]}))
        as_copy = {**label, "copy": model["card"]}
        if choice["sub"] is None:
            events.append(Event("oriflamme.copy_idle", {"actor": as_copy}))
        else:
            _apply(state, gd, choice["copy"], i, card, choice["sub"], events, label=as_copy)
    elif ability == "royal-decree":
        j, to = choice["target"], choice["to"]
        moved = seen(state, j)
        below = len(state["queue"][j]) > 1
        pos.insert_stack(state, to - 1, pos.remove_top(state, j))
        events.append(Event("oriflamme.moves", {"actor": label, "card": moved, "origin": j + 1, "to": to,
                                                "own_place": not below and to == j + 1}))
        if below:  # the stack it left stays, shifted by one if the card went in front of it
            _uncovered(state, gd, j + 1 if to - 1 <= j else j, events)


def _uncovered(state: dict, gd: GameData, k: int, events: list[Event]) -> None:
    """Stack ``k`` lost its top card to another card's effect: its new top resolves this round only if
    the stack is still ahead of the resolution (README, decision 5)."""
    events.append(Event("oriflamme.uncovered", {"card": seen(state, k), "position": k + 1, "ahead": k > state["cursor"]}))


def eliminate(state: dict, gd: GameData, j: int, card: dict, events: list[Event], label: dict) -> None:
    """``card`` (the resolving card) eliminates the top card of stack ``j``: +1 to its owner; a
    face-down victim is turned face up (so its name is told) and its influence returns to the
    supply; an opponent's Ambush discards the attacking card and gives its owner 4."""
    victim = pos.top(state, j)
    below = len(state["queue"][j]) > 1
    was_down, tokens = not victim["up"], victim["tokens"]
    pos.remove_top(state, j)
    pos.discard(state, victim)
    reward = gd.game.elimination_reward
    pos.gain(state, card["owner"], reward)
    itself = victim is card
    events.append(Event("oriflamme.eliminates", {"actor": label, "victim": None if itself else actor(victim),
                                                 "down": was_down, "tokens": tokens, "reward": reward}))
    if below and not itself:  # (the actor's own stack: see resolve)
        _uncovered(state, gd, j, events)
    if gd.card(victim["card"]).ability == "ambush" and victim["owner"] != card["owner"]:
        trap = gd.number(victim["card"], "trap_gain")
        pos.gain(state, victim["owner"], trap)
        where = pos.top_index(state, card["owner"], card["card"])
        if where is not None:
            pos.discard(state, pos.remove_top(state, where))
        events.append(Event("oriflamme.ambush_springs", {"owner": victim["owner"], "card": victim["card"],
                                                         "actor": actor(card), "gain": trap}))
