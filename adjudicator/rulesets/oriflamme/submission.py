"""A player's mail folded into the state: grammar first, then legality, then all-or-nothing.

What a mail may hold (each line also when nothing is asked: decisions sent ahead):

* ``PLACE`` lines: the cards to place, in order, one per placement from the player's next one on
  (round r, r+1, ...). A mail with PLACE lines replaces the PLACE lines on file.
* ``REVEAL`` / ``WAIT`` per face-down card (or a card still in hand): used the next time the
  card's turn comes face down, then gone; ``REVEAL <card> IN ROUND <n>`` waits before round n.
* ``TARGET`` per card: stands until replaced or the card leaves the queue.
* ``CLEAR`` empties everything on file first; lines after it in the same mail count.

A line is refused when it can never be right (a card set aside, a card of the wrong kind of
target, ON in round 1); a line that may fit later is kept and checked again when it is used
(then dropped with a private note if it does not fit). A line answering the question asked now
is checked against the queue as it stands. Mail-level commands (HELP, STATUS, ORDERS?, PRESS)
come back as ``Submission.requests``.
"""

from __future__ import annotations

from ... import mailcommands
from ...ruleset import LineResult, Parsed, Submission
from . import effects, engine
from . import position as pos
from .commands import ALL, Clear, Help, OrdersQuery, Place, Press, Ref, Reveal, Spec, Status, Target, Wait
from .gamedata import GameData
from .grammar import parse_mail
from .position import ON, display

TARGET_EXAMPLES = {"archer": "LAST", "soldier": "AFTER", "spy": "BEFORE", "shapeshifter": "BEFORE, FIRST",
                   "assassination": "2", "royal-decree": "2 -> BACK"}
TARGET_FORMS = {"archer": "FIRST or LAST", "soldier": "BEFORE or AFTER", "spy": "BEFORE or AFTER",
                "shapeshifter": "BEFORE or AFTER (the card it copies), then optionally the copied ability's target",
                "assassination": "a card: its position, FIRST, LAST or <player> <card>",
                "royal-decree": "a card and where it goes: <card> -> FRONT | BACK | <new position>"}


class Refused(Exception):
    def __init__(self, message: str, example: str):
        super().__init__(message)
        self.message, self.example = message, example


def submit(state: dict, gd: GameData, player: str, text: str) -> Submission:
    parsed_lines = parse_mail(text, gd, state["players"])
    results: list[LineResult] = []
    accepted = []
    checker = _Checker(state, gd, player)
    for line in parsed_lines:
        if line.error is not None:
            results.append(LineResult(line.lineno, line.raw, error=line.error, example=line.example))
            continue
        try:
            canonical, stored = checker.check(line.command)
        except Refused as exc:
            results.append(LineResult(line.lineno, line.raw, error=exc.message, example=exc.example))
            continue
        results.append(LineResult(line.lineno, line.raw, canonical=canonical))
        accepted.append((line.command, stored))
    commands = tuple(line.command for line in parsed_lines if line.command is not None)
    parsed = Parsed(tuple(results), commands)
    reqs = mailcommands.requests(commands)
    if not parsed.ok:
        return Submission(state, parsed, False, requests=reqs)
    _apply(state, player, accepted)
    return Submission(state, parsed, True, checker.notes, requests=reqs)


def _apply(state: dict, player: str, accepted: list) -> None:
    plan = pos.plan(state, player)
    mail_place: list[dict] | None = None
    for command, stored in accepted:
        if isinstance(command, Clear):
            plan.update(place=[], decide={}, target={})
            mail_place = None
        elif isinstance(command, Place):
            mail_place = (mail_place or []) + [stored]
            plan["place"] = list(mail_place)
        elif isinstance(command, (Reveal, Wait)):
            card, decision = stored
            plan["decide"][card] = decision
        elif isinstance(command, Target):
            card, spec = stored
            plan["target"][card] = spec


class _Checker:
    """Checks a mail's commands in order against the state (and the mail's own earlier lines)."""

    def __init__(self, state: dict, gd: GameData, player: str):
        self.state, self.gd, self.player = state, gd, player
        self.placed: list[str] = []  # cards placed by this mail's PLACE lines (since a CLEAR)
        self.notes: list[str] = []
        self.question = engine.question(state, gd)

    def name(self, card: str) -> str:
        return self.gd.card(card).name

    def check(self, command) -> tuple[str, object]:
        if isinstance(command, Place):
            return self.place(command)
        if isinstance(command, Reveal):
            card = self.own_face_down(command.card, "REVEAL")
            round_ = command.round
            if round_ is not None and not self.state["round"] <= round_ <= self.gd.game.rounds:
                raise Refused(f"round {round_} is not to come (this is round {self.state['round']} of "
                              f"{self.gd.game.rounds})", f"REVEAL {self.name(card)}")
            if round_ is not None and round_ <= self.state["round"]:
                round_ = None  # this round already: reveal at its next turn
            text = f"REVEAL {self.name(card)}" + (f" IN ROUND {round_}" if round_ else "")
            return text, (card, {"do": "reveal", "round": round_})
        if isinstance(command, Wait):
            card = self.own_face_down(command.card, "WAIT")
            return f"WAIT {self.name(card)}", (card, {"do": "wait"})
        if isinstance(command, Target):
            return self.target(command)
        if isinstance(command, Clear):
            self.placed = []
            return "CLEAR", None
        if isinstance(command, Help):
            return "HELP" + (f" {command.topic}" if command.topic else ""), None
        if isinstance(command, Status):
            return "STATUS", None
        if isinstance(command, OrdersQuery):
            return "ORDERS?", None
        if isinstance(command, Press):
            to = "ALL" if command.to == ALL else ", ".join(display(p) for p in command.to)
            return f"PRESS {'ANON ' if command.anonymous else ''}{to}: {command.text}", None
        raise AssertionError(command)

    # -- own cards --------------------------------------------------------------------------------------

    def own(self, ref: Ref, keyword: str, example_tail: str = "") -> str:
        """An own-card reference -> the card id (a position must hold the sender's card on top)."""
        state = self.state
        if ref.pos is not None:
            n = len(state["queue"])
            if not 1 <= ref.pos <= n:
                raise Refused(f"there is no position {ref.pos} (the queue has {n} card{'s' if n != 1 else ''})",
                              self.own_example(keyword, example_tail))
            card = pos.top(state, ref.pos - 1)
            if card["owner"] != self.player:
                raise Refused(f"the card at position {ref.pos} is {display(card['owner'])}'s, not yours",
                              self.own_example(keyword, example_tail))
            return card["card"]
        where = pos.where_is(state, self.player, ref.card)
        if where == "aside":
            raise Refused(f"your {self.name(ref.card)} was set aside at the start: it is out of this game",
                          self.own_example(keyword, example_tail))
        if where == "discards":
            raise Refused(f"your {self.name(ref.card)} has left the queue (it lies before you, face up)",
                          self.own_example(keyword, example_tail))
        return ref.card

    def own_example(self, keyword: str, tail: str = "") -> str:
        state = self.state
        cards = [c["card"] for stack in state["queue"] for c in stack[-1:] if c["owner"] == self.player]
        if keyword in ("REVEAL", "WAIT"):
            cards = [c["card"] for stack in state["queue"] for c in stack[-1:]
                     if c["owner"] == self.player and not c["up"]] + list(state["hands"][self.player])
        elif keyword == "PLACE":
            cards = list(state["hands"][self.player])
        cards = cards or list(state["hands"][self.player]) or ["archer"]
        return f"{keyword} {self.name(cards[0])}{tail}"

    def own_face_down(self, ref: Ref, keyword: str) -> str:
        card = self.own(ref, keyword)
        where = pos.where_is(self.state, self.player, card)
        if where == "up":
            raise Refused(f"your {self.name(card)} is already face up", self.own_example(keyword))
        if where == "covered":
            found = pos.locate(self.state, self.player, card)
            if self.state["queue"][found[0]][-1 - found[1]]["up"]:
                raise Refused(f"your {self.name(card)} is already face up (and covered)", self.own_example(keyword))
        return card

    # -- PLACE ------------------------------------------------------------------------------------------

    def next_round(self) -> int:
        """The round of the sender's next placement."""
        state = self.state
        if state["phase"] == "place" and pos.turn_order(state).index(self.player) >= state["placer"]:
            return state["round"]
        return state["round"] + 1

    def place(self, command: Place) -> tuple[str, dict]:
        state, gd = self.state, self.gd
        card = command.card
        round_ = self.next_round() + len(self.placed)
        example = self.own_example("PLACE", " BACK")
        if round_ > gd.game.rounds:
            left = max(0, gd.game.rounds - self.next_round() + 1)
            raise Refused(f"you have only {left} placement{'s' if left != 1 else ''} left in this game (one PLACE line each)",
                          "CLEAR")
        where = pos.where_is(state, self.player, card)
        if card in self.placed:
            raise Refused(f"your {self.name(card)} is already placed by an earlier PLACE line of this mail", example)
        if where != "hand":
            why = {"aside": "was set aside at the start", "discards": "has left the queue"}.get(where, "is in the queue")
            raise Refused(f"your {self.name(card)} is not in your hand (it {why})", example)
        stored: dict = {"card": card, "where": command.where}
        text = f"PLACE {self.name(card)} {command.where.upper()}"
        if command.where == ON:
            if round_ == 1:
                raise Refused("in round 1 a card goes to the FRONT or the BACK (stacks start in round 2)",
                              f"PLACE {self.name(card)} FRONT")
            if command.on.pos is not None:
                n = len(state["queue"])
                if not 1 <= command.on.pos <= n or pos.top(state, command.on.pos - 1)["owner"] != self.player:
                    owner = display(pos.top(state, command.on.pos - 1)["owner"]) + "'s" if 1 <= command.on.pos <= n else "no"
                    raise Refused(f"position {command.on.pos} holds {owner} card: a card goes only onto your own cards",
                                  f"PLACE {self.name(card)} BACK")
                on = pos.top(state, command.on.pos - 1)["card"]
            else:
                on = self.own(command.on, "PLACE", " BACK")
                if pos.top_index(state, self.player, on) is None and on not in self.placed:
                    raise Refused(f"your {self.name(on)} is not on top of a stack in the queue (nor placed by an earlier "
                                  "line of this mail)", f"PLACE {self.name(card)} BACK")
                if on == card:
                    raise Refused("a card cannot go onto itself", f"PLACE {self.name(card)} BACK")
            stored["on"] = on
            text = f"PLACE {self.name(card)} ON {self.name(on)}"
        self.placed.append(card)
        if round_ > self.next_round():
            self.notes.append(f"{text}: for your placement in round {round_}.")
        return text, stored

    # -- TARGET -----------------------------------------------------------------------------------------

    def target(self, command: Target) -> tuple[str, tuple[str, dict]]:
        gd = self.gd
        card = self.own(command.card, "TARGET", ": FIRST")
        ability = gd.card(card).ability
        name = self.name(card)
        if ability not in TARGET_FORMS:
            raise Refused(f"the {name} chooses nothing: it has no target", "TARGET Archer: LAST")
        spec = self.spec_for(ability, command.spec, name)
        text = f"TARGET {name}: {engine.spec_text(gd, spec)}"
        q = self.question
        if q and q["kind"] == "target" and q["player"] == self.player and q["card"] == card:
            found = effects.matching(self.state, gd, q["pos"], spec, q["options"])
            if len(found) != 1:
                options = " | ".join(effects.option_text(self.state, gd, q["pos"], o) for o in q["options"])
                why = "does not fit the queue now" if not found else "is not complete"
                raise Refused(f"this target {why}; choose one of: {options}",
                              f"TARGET {name}: {effects.answer_text(self.state, gd, q['pos'], q['options'][0])}")
        return text, (card, spec)

    def spec_for(self, ability: str, spec: Spec, name: str) -> dict:
        bad = Refused(f"the {name}'s target is {TARGET_FORMS[ability]}", f"TARGET {name}: {TARGET_EXAMPLES[ability]}")
        if ability == "archer":
            if spec.end is None or spec.side or spec.ref or spec.to is not None:
                raise bad
            return {"end": spec.end}
        if ability in ("soldier", "spy"):
            if spec.side is None or spec.then is not None:
                raise bad
            return {"side": spec.side}
        if ability == "shapeshifter":
            if spec.side is None:
                raise bad
            out: dict = {"side": spec.side}
            if spec.then is not None:
                out["then"] = {"side": spec.then.side} if spec.then.side else {"end": spec.then.end}
            return out
        if ability == "assassination":
            if spec.to is not None or spec.side:
                raise bad
            ref = spec.ref or Ref(end=spec.end)
            return {"ref": ref.as_dict(self.player)}
        if ability == "royal-decree":
            if spec.ref is None or spec.to is None:
                raise bad
            ref = spec.ref.as_dict(self.player)
            if ref.get("owner") == self.player and ref.get("card") == "royal-decree":
                raise Refused("the Royal Decree cannot move itself", f"TARGET {name}: {TARGET_EXAMPLES[ability]}")
            return {"ref": ref, "to": spec.to}
        raise bad


def on_file(state: dict, gd: GameData, player: str) -> list[str]:
    """What the judge holds for ``player``, as canonical lines."""
    plan = pos.plan(state, player)
    out = []
    for line in plan["place"]:
        where = f"ON {gd.card(line['on']).name}" if line["where"] == ON else line["where"].upper()
        out.append(f"PLACE {gd.card(line['card']).name} {where}")
    for card in sorted(plan["decide"], key=gd.ids.index):
        d = plan["decide"][card]
        if d["do"] == "wait":
            out.append(f"WAIT {gd.card(card).name}")
        else:
            out.append(f"REVEAL {gd.card(card).name}" + (f" IN ROUND {d['round']}" if d.get("round") else ""))
    for card in sorted(plan["target"], key=gd.ids.index):
        out.append(f"TARGET {gd.card(card).name}: {engine.spec_text(gd, plan['target'][card])}")
    return out

