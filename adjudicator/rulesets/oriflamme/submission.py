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

Errors and notes are messages (``oriflamme.error.*``, ``oriflamme.note.*``); accepted lines are
echoed, and examples given, as canonical lines (:mod:`.lines`), which the reply renders in the
player's language.
"""

from __future__ import annotations

from ... import mailcommands
from ...messages import Msg
from ...ruleset import LineResult, Parsed, Submission
from . import effects, engine, lines
from . import position as pos
from .commands import ALL, Clear, Help, OrdersQuery, Place, Press, Ref, Reveal, Spec, Status, Target, Wait
from .gamedata import GameData
from .grammar import parse_mail
from .position import ON, display

TARGET_EXAMPLES = {"archer": "LAST", "soldier": "AFTER", "spy": "BEFORE", "shapeshifter": "BEFORE, FIRST",
                   "assassination": "2", "royal-decree": "2 -> BACK"}
"""A valid target per ability, in the canonical notation (the example of a refused TARGET line)."""


class Refused(Exception):
    def __init__(self, message: Msg, example: str):
        super().__init__(message)
        self.message, self.example = message, example


def _error(which: str, /, **params) -> Msg:
    return Msg(f"oriflamme.error.{which}", params)


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
        self.notes: list[Msg] = []
        self.question = engine.question(state, gd)

    def name(self, card: str) -> str:
        return self.gd.card(card).name

    def check(self, command) -> tuple[str, object]:
        """The command's canonical line and what it stores, or :class:`Refused`."""
        line, stored = self.read(command)
        return lines.canonical(line, self.gd), stored

    def read(self, command) -> tuple[Msg, object]:
        if isinstance(command, Place):
            return self.place(command)
        if isinstance(command, Reveal):
            card = self.own_face_down(command.card, "REVEAL")
            round_ = command.round
            if round_ is not None and not self.state["round"] <= round_ <= self.gd.game.rounds:
                raise Refused(_error("round_past", round=round_, current=self.state["round"], rounds=self.gd.game.rounds),
                              f"REVEAL {self.name(card)}")
            if round_ is not None and round_ <= self.state["round"]:
                round_ = None  # this round already: reveal at its next turn
            return lines.reveal(card, round_), (card, {"do": "reveal", "round": round_})
        if isinstance(command, Wait):
            card = self.own_face_down(command.card, "WAIT")
            return lines.wait(card), (card, {"do": "wait"})
        if isinstance(command, Target):
            return self.target(command)
        if isinstance(command, Clear):
            self.placed = []
            return lines.clear(), None
        if isinstance(command, Help):
            return lines.help_(command.topic), None
        if isinstance(command, Status):
            return lines.status(), None
        if isinstance(command, OrdersQuery):
            return lines.orders(), None
        if isinstance(command, Press):
            to = ALL if command.to == ALL else [display(p) for p in command.to]
            return lines.press(to, command.text, command.anonymous), None
        raise AssertionError(command)

    # -- own cards --------------------------------------------------------------------------------------

    def own(self, ref: Ref, keyword: str, example_tail: str = "") -> str:
        """An own-card reference -> the card id (a position must hold the sender's card on top)."""
        state = self.state
        if ref.pos is not None:
            n = len(state["queue"])
            if not 1 <= ref.pos <= n:
                raise Refused(_error("no_position", position=ref.pos, size=n), self.own_example(keyword, example_tail))
            card = pos.top(state, ref.pos - 1)
            if card["owner"] != self.player:
                raise Refused(_error("not_yours", position=ref.pos, owner=card["owner"]),
                              self.own_example(keyword, example_tail))
            return card["card"]
        where = pos.where_is(state, self.player, ref.card)
        if where == "aside":
            raise Refused(_error("set_aside", card=ref.card), self.own_example(keyword, example_tail))
        if where == "discards":
            raise Refused(_error("left_queue", card=ref.card), self.own_example(keyword, example_tail))
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
            raise Refused(_error("face_up", card=card, covered=False), self.own_example(keyword))
        if where == "covered":
            found = pos.locate(self.state, self.player, card)
            if self.state["queue"][found[0]][-1 - found[1]]["up"]:
                raise Refused(_error("face_up", card=card, covered=True), self.own_example(keyword))
        return card

    # -- PLACE ------------------------------------------------------------------------------------------

    def next_round(self) -> int:
        """The round of the sender's next placement."""
        state = self.state
        if state["phase"] == "place" and pos.turn_order(state).index(self.player) >= state["placer"]:
            return state["round"]
        return state["round"] + 1

    def place(self, command: Place) -> tuple[Msg, dict]:
        state, gd = self.state, self.gd
        card = command.card
        round_ = self.next_round() + len(self.placed)
        example = self.own_example("PLACE", " BACK")
        if round_ > gd.game.rounds:
            left = max(0, gd.game.rounds - self.next_round() + 1)
            raise Refused(_error("placements_left", left=left), "CLEAR")
        where = pos.where_is(state, self.player, card)
        if card in self.placed:
            raise Refused(_error("placed_twice", card=card), example)
        if where != "hand":
            raise Refused(_error("not_in_hand", card=card, where=where), example)
        stored: dict = {"card": card, "where": command.where}
        line = lines.place(card, command.where)
        if command.where == ON:
            if round_ == 1:
                raise Refused(Msg("oriflamme.why.round_one"), f"PLACE {self.name(card)} FRONT")
            if command.on.pos is not None:
                n = len(state["queue"])
                if not 1 <= command.on.pos <= n or pos.top(state, command.on.pos - 1)["owner"] != self.player:
                    owner = pos.top(state, command.on.pos - 1)["owner"] if 1 <= command.on.pos <= n else None
                    raise Refused(_error("not_your_stack", position=command.on.pos, owner=owner),
                                  f"PLACE {self.name(card)} BACK")
                on = pos.top(state, command.on.pos - 1)["card"]
            else:
                on = self.own(command.on, "PLACE", " BACK")
                if pos.top_index(state, self.player, on) is None and on not in self.placed:
                    raise Refused(_error("not_on_top", card=on), f"PLACE {self.name(card)} BACK")
                if on == card:
                    raise Refused(_error("onto_itself"), f"PLACE {self.name(card)} BACK")
            stored["on"] = on
            line = lines.place(card, ON, on)
        self.placed.append(card)
        if round_ > self.next_round():
            self.notes.append(Msg("oriflamme.note.later_placement", line=line, round=round_))
        return line, stored

    # -- TARGET -----------------------------------------------------------------------------------------

    def target(self, command: Target) -> tuple[Msg, tuple[str, dict]]:
        gd = self.gd
        card = self.own(command.card, "TARGET", ": FIRST")
        ability = gd.card(card).ability
        name = self.name(card)
        if ability not in TARGET_EXAMPLES:
            raise Refused(_error("no_target", card=card), "TARGET Archer: LAST")
        spec = self.spec_for(ability, command.spec, card)
        q = self.question
        if q and q["kind"] == "target" and q["player"] == self.player and q["card"] == card:
            found = effects.matching(self.state, gd, q["pos"], spec, q["options"])
            if len(found) != 1:
                raise Refused(_error("target_now", found=bool(found),
                                     options=[effects.option(self.state, o) for o in q["options"]]),
                              f"TARGET {name}: {effects.answer_text(gd, q['options'][0])}")
        return lines.target(card, lines.spec(spec)), (card, spec)

    def spec_for(self, ability: str, spec: Spec, card: str) -> dict:
        name = self.name(card)
        bad = Refused(_error("target_form", card=card, ability=ability), f"TARGET {name}: {TARGET_EXAMPLES[ability]}")
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
                raise Refused(_error("decree_itself", card=card), f"TARGET {name}: {TARGET_EXAMPLES[ability]}")
            return {"ref": ref, "to": spec.to}
        raise bad


def on_file(state: dict, gd: GameData, player: str) -> list[str]:
    """What the judge holds for ``player``, as canonical lines."""
    plan = pos.plan(state, player)
    out = [lines.place(line["card"], line["where"], line.get("on") if line["where"] == ON else None)
           for line in plan["place"]]
    for card in sorted(plan["decide"], key=gd.ids.index):
        d = plan["decide"][card]
        out.append(lines.wait(card) if d["do"] == "wait" else lines.reveal(card, d.get("round")))
    for card in sorted(plan["target"], key=gd.ids.index):
        out.append(lines.target(card, lines.spec(plan["target"][card])))
    return [lines.canonical(line, gd) for line in out]

