"""A player's mail folded into the state: grammar first, then legality, then all-or-nothing.

What a mail may hold (each line also when nothing is asked: decisions sent ahead):

* ``KEEP``/``MULLIGAN`` and ``SETUP`` before the game; ``SETUP`` implies KEEP, and is refused after
  a MULLIGAN (the new hand is not known yet).
* ``PLOT``: the next plot phase's plot, used once. ``FIRST``: the first player when the sender
  wins initiative; it stands.
* ``MARSHAL`` lines: the sender's next marshalling, all of it, in order; used once. A mail with
  MARSHAL lines replaces those on file. A unique card whose copy is in play goes on it as a
  duplicate (free).
* ``ATTACK`` lines and ``PASS``: the sender's next challenges, in order; used once. Without PASS the
  judge asks for more when the lines are used up and a challenge is still possible. A mail with
  ATTACK or PASS lines replaces those on file.
* ``DEFEND <type> [AGAINST <player>]``: the defenders against that type of challenge; stands until
  replaced. ``KILL``: military claim victims in order; stands. ``SAVE``/``NOSAVE``: whether a
  duplicate saves a unique character (the default: it does); stands.
* ``CLEAR`` forgets everything on file first; lines after it in the same mail count.

A line is refused when it can never be right (a card not in hand, a setup over 5 gold, two Limited
cards, an attachment onto a No attachments character, an illegal answer to the question asked
now); a line that may fit later is kept and checked again when it is used (and dropped with a
private note if it does not fit then). Mail-level commands come back as ``Submission.requests``.
Errors and notes are messages; lines are echoed and examples given as canonical lines.
"""

from __future__ import annotations

from ... import mailcommands
from ...messages import Msg
from ...ruleset import LineResult, Parsed, Submission
from . import engine, lines
from . import position as pos
from .commands import (ALL, Attack, Clear, Defend, First, Help, Keep, Kill, Marshal, Mulligan, OrdersQuery, Pass,
                       Plot, Press, Ref, Save, Setup, Status)
from .gamedata import GameData
from .grammar import EXAMPLES, parse_mail
from .position import card_id, copy_of, display


class Refused(Exception):
    def __init__(self, message: Msg, example: str):
        super().__init__(message)
        self.message, self.example = message, example


def _error(which: str, /, **params) -> Msg:
    return Msg(f"agotccg.error.{which}", params)


def show_copy(state: dict, player: str, instance: str) -> int | None:
    """The copy number a line shows: only when the player holds or controls another copy of the card."""
    cid = card_id(instance)
    mine = state["hand"][player] + [e["card"] for e in pos.in_play(state, player)]
    return copy_of(instance) if sum(1 for i in mine if card_id(i) == cid) > 1 else None


def visible(state: dict, player: str, instance: str, owner: str | None = None, holder: str | None = None) -> dict:
    """A card as a line shows it; ``owner``: written before it (an attachment's target of another
    player); ``holder``: whose cards decide whether the copy number shows (default: owner or player)."""
    holder = holder or owner or player
    return lines.ref(instance, show_copy(state, holder, instance), owner)


def submit(state: dict, gd: GameData, player: str, text: str) -> Submission:
    parsed_lines = parse_mail(text, state["players"])
    checker = _Checker(state, gd, player)
    results: list[LineResult] = []
    for line in parsed_lines:
        if line.error is not None:
            results.append(LineResult(line.lineno, line.raw, error=line.error, example=line.example))
            continue
        try:
            message = checker.check(line.command)
        except Refused as exc:
            results.append(LineResult(line.lineno, line.raw, error=exc.message, example=exc.example))
            continue
        results.append(LineResult(line.lineno, line.raw, canonical=lines.canonical(message, gd)))
    commands = tuple(line.command for line in parsed_lines if line.command is not None)
    parsed = Parsed(tuple(results), commands)
    reqs = mailcommands.requests(commands)
    if not parsed.ok:
        return Submission(state, parsed, False, requests=reqs)
    checker.apply()
    return Submission(state, parsed, True, checker.notes, requests=reqs)


class _Checker:
    """Checks a mail's commands in order against the state and the mail's own earlier lines."""

    def __init__(self, state: dict, gd: GameData, player: str):
        self.state, self.gd, self.player = state, gd, player
        self.q = engine.question(state, gd)
        self.asked = self.q["kind"] if self.q and player in self.q["players"] else None
        self.changes: dict = {}
        self.cleared = False
        self.setup_cards: list[str] = []
        self.marshal_items: list[dict] = []
        self.attack_lines: list[dict] = []
        self.notes: list[Msg] = []

    # -- helpers -----------------------------------------------------------------------------------

    def chars(self, player: str | None = None) -> list[str]:
        return [e["card"] for e in self.state["characters"][player or self.player]]

    def planned_chars(self, more=()) -> list[str]:
        return [i["card"] for i in [*self.marshal_items, *more] if self.gd.card(i["card"]).type == "character"]

    def pick(self, ref: Ref, zone: list[str], used, where: str, example: str, prefer=None) -> str:
        gd = self.gd
        ids = {card_id(i) for i in zone}
        found = gd.matching(ref.text, ids)
        if not found:
            anywhere = gd.matching(ref.text)
            if anywhere:
                raise Refused(_error("not_in", card=sorted(anywhere)[0], where=where, text=ref.text), example)
            raise Refused(gd.unknown(ref.text).message, example)
        if len(found) > 1:
            raise Refused(_error("card_ambiguous", text=ref.text, cards=sorted(found)), example)
        cid = found.pop()
        copies = [i for i in zone if card_id(i) == cid]
        if ref.copy is not None:
            instance = f"{cid}#{ref.copy}"
            if instance not in copies:
                raise Refused(_error("no_copy", card=cid, copy=ref.copy, where=where,
                                     copies=sorted(copy_of(i) for i in copies)), example)
            if instance in used:
                raise Refused(_error("twice", card=cid), example)
            return instance
        free = [i for i in copies if i not in used]
        if not free:
            raise Refused(_error("twice", card=cid), example)
        if prefer is not None:
            free.sort(key=prefer)
        return free[0]

    def example_attack(self) -> str:
        state, gd, me = self.state, self.gd, self.player
        done = state["challenges_done"][me] if state["phase"] == "challenges" else []
        opponent = pos.opponents(state, me)[0]
        for entry in state["characters"][me]:
            for kind in pos.TYPES:
                if kind not in done and pos.can_act(gd, entry, kind):
                    return lines.canonical(lines.attack(kind, opponent, [visible(state, me, entry["card"])], []), gd)
        return "PASS"

    def example_card(self, keyword: str, zone: list[str]) -> str:
        if not zone:
            return "STATUS"
        return f"{keyword} {lines.ref_text(visible(self.state, self.player, zone[0]), self.gd)}"

    def plan_value(self, key: str):
        if key in self.changes:
            return self.changes[key]
        return None if self.cleared else pos.plan(self.state, self.player)[key]

    def round_of(self, phase: str) -> int:
        """The round whose ``phase`` (marshal | challenges) the sender's lines are for."""
        state, me = self.state, self.player
        order = ("setup", "plot", "draw", "marshal", "challenges")
        now = state["phase"]
        if now == "setup":
            return 1
        if now not in order or order.index(now) > order.index(phase):
            return state["round"] + 1
        if now == phase and state["order"].index(me) < state["active"]:
            return state["round"] + 1
        return state["round"]

    # -- commands ----------------------------------------------------------------------------------

    def check(self, command) -> Msg:
        state, gd, me = self.state, self.gd, self.player
        if isinstance(command, (Keep, Mulligan)):
            if state["phase"] != "setup" or state["step"] != "mulligan":
                raise Refused(_error("mulligan_over"), "STATUS")
            if isinstance(command, Mulligan) and self.setup_cards:
                raise Refused(_error("mulligan_after_setup"), "KEEP")
            if isinstance(command, Mulligan) and state["mulligans"][me]:
                raise Refused(_error("mulligan_once"), "KEEP")
            self.changes["mulligan"] = "keep" if isinstance(command, Keep) else "mulligan"
            return lines.keep() if isinstance(command, Keep) else lines.mulligan()
        if isinstance(command, Setup):
            return self.setup(command)
        if isinstance(command, Plot):
            plots = state["plots"][me]
            example = f"PLOT {gd.card(plots['deck'][0]).name}"
            if not gd.matching(command.card.text, set(plots["deck"])) and gd.matching(
                    command.card.text, set(plots["used"]) | {plots["current"]}):
                card = sorted(gd.matching(command.card.text, set(plots["used"]) | {plots["current"]}))[0]
                raise Refused(_error("plot_used", card=card), example)
            card = self.pick(command.card, plots["deck"], (), "plots", example)
            self.changes["plot"] = card
            return lines.plot(card)
        if isinstance(command, First):
            chosen = command.player or me
            self.changes["first"] = chosen
            return lines.first(chosen)
        if isinstance(command, Marshal):
            return self.marshal(command)
        if isinstance(command, Attack):
            return self.attack(command)
        if isinstance(command, Pass):
            self.changes["pass"] = True
            self.changes.setdefault("attacks", [])
            return lines.pass_()
        if isinstance(command, Defend):
            return self.defend(command)
        if isinstance(command, Kill):
            zone = self.chars() + state["hand"][me] + self.planned_chars()
            example = self.example_card("KILL", self.chars())
            used: list[str] = []
            for r in command.cards:
                used.append(self.pick(r, zone, used, "characters", example,
                                      prefer=lambda i: i not in self.chars()))
            if any(gd.card(c).type != "character" for c in used):
                bad = next(c for c in used if gd.card(c).type != "character")
                raise Refused(_error("not_character", card=card_id(bad)), example)
            self.changes["kill"] = used
            return lines.kill([visible(state, me, c) for c in used])
        if isinstance(command, Save):
            zone = ([e["card"] for e in pos.in_play(state, me)] + state["hand"][me] + state["deck"][me]
                    + state["discard"][me] + state["dead"][me])
            uniques = [c for c in zone if gd.card(c).unique]
            example = self.example_card("SAVE" if command.save else "NOSAVE", uniques)
            card = self.pick(command.card, zone, (), "cards", example)
            if not gd.card(card).unique:
                raise Refused(_error("save_unique", card=card_id(card)), example)
            saves = dict(self.changes.get("save", {}))
            saves[gd.card(card).character] = command.save
            self.changes["save"] = saves
            return lines.save(lines.ref(card), command.save)
        if isinstance(command, Clear):
            self.changes, self.cleared = {}, True
            self.setup_cards, self.marshal_items, self.attack_lines = [], [], []
            return lines.clear()
        if isinstance(command, Help):
            return lines.help_(command.topic)
        if isinstance(command, Status):
            return lines.status()
        if isinstance(command, OrdersQuery):
            return lines.orders()
        if isinstance(command, Press):
            to = ALL if command.to == ALL else [display(p) for p in command.to]
            return lines.press(to, command.text, command.anonymous)
        raise AssertionError(command)

    def setup(self, command: Setup) -> Msg:
        state, gd, me = self.state, self.gd, self.player
        if state["phase"] != "setup":
            raise Refused(_error("setup_over"), "STATUS")
        if state["step"] == "mulligan" and self.plan_value("mulligan") == "mulligan":
            raise Refused(_error("setup_after_mulligan"), "KEEP")
        cards = []
        for r in command.cards:
            cards.append(self.pick(r, state["hand"][me], self.setup_cards + cards, "hand", EXAMPLES["SETUP"]))
        problem = engine.setup_problem(state, gd, me, self.setup_cards + cards)
        if problem is not None:
            raise Refused(_error("setup", why=problem), EXAMPLES["SETUP"])
        self.setup_cards += cards
        self.changes["setup"] = list(self.setup_cards)
        return lines.setup([visible(state, me, c) for c in cards])

    def target(self, ref: Ref, more: list[dict]) -> tuple[str, str]:
        """An attachment's character: (owner, instance); the sender's own first, else another player's."""
        state, gd, me = self.state, self.gd, self.player
        example = EXAMPLES["MARSHAL"]
        if ref.owner is not None:
            zone = self.chars(ref.owner) + (self.planned_chars(more) if ref.owner == me else [])
            return ref.owner, self.pick(ref, zone, (), "characters", example)
        own = self.chars() + self.planned_chars(more)
        if gd.matching(ref.text, {card_id(i) for i in own}):
            return me, self.pick(ref, own, (), "characters", example)
        found = [p for p in pos.opponents(state, me) if gd.matching(ref.text, {card_id(i) for i in self.chars(p)})]
        if len(found) > 1:
            raise Refused(_error("which_player", players=found), example)
        if not found:
            return me, self.pick(ref, own, (), "characters", example)
        return found[0], self.pick(ref, self.chars(found[0]), (), "characters", example)

    def marshal(self, command: Marshal) -> Msg:
        state, gd, me = self.state, self.gd, self.player
        asked = self.asked == "marshal"
        items, shown = [], []
        for item in command.items:
            used = [i["card"] for i in self.marshal_items + items]
            card = self.pick(item.card, state["hand"][me], used, "hand", EXAMPLES["MARSHAL"])
            data = gd.card(card)
            entry = {"card": card, "on": None, "owner": None}
            on_shown = None
            if data.type == "attachment":
                if item.on is None:
                    raise Refused(_error("attach_where", card=card_id(card)), EXAMPLES["MARSHAL"])
                owner, target = self.target(item.on, items)
                if gd.card(target).type != "character":
                    raise Refused(_error("not_character", card=card_id(target)), EXAMPLES["MARSHAL"])
                if gd.card(target).has("no-attachments"):
                    raise Refused(_error("no_attachments", card=card_id(target)), EXAMPLES["MARSHAL"])
                entry.update(on=target, owner=owner if owner != me else None)
                on_shown = visible(state, me, target, owner if owner != me else None)
            elif item.on is not None:
                raise Refused(_error("not_attachment", card=card_id(card)), EXAMPLES["MARSHAL"])
            items.append(entry)
            shown.append({"card": visible(state, me, card), "on": on_shown})
        every = self.marshal_items + items
        duplicates = self.duplicates(every)
        for entry in every:
            data = gd.card(entry["card"])
            if entry["card"] in duplicates:
                continue
            if data.unique and data.character in pos.dead_characters(state, gd, me):
                raise Refused(_error("dead_unique", card=data.id), EXAMPLES["MARSHAL"])
        limited = sum(1 for e in every if e["card"] not in duplicates and gd.card(e["card"]).has("limited"))
        if limited + (state["limited"][me] if asked else 0) > gd.game.round_limited:
            raise Refused(_error("limited_twice"), EXAMPLES["MARSHAL"])
        if asked:
            cost = sum(gd.cost(e["card"], state["houses"][me]) for e in every if e["card"] not in duplicates)
            if cost > state["gold"][me]:
                raise Refused(_error("gold", cost=cost, gold=state["gold"][me]), EXAMPLES["MARSHAL"])
        self.marshal_items = every
        self.changes["marshal"] = list(every)
        if not asked and self.round_of("marshal") != state["round"]:
            self.notes.append(Msg("agotccg.note.ahead", what="marshal", round=self.round_of("marshal")))
        return lines.marshal(shown)

    def duplicates(self, items: list[dict]) -> set[str]:
        """The items that go onto a copy in play (or marshalled before them) as duplicates."""
        gd, me = self.gd, self.player
        present = {gd.card(e["card"]).character for e in pos.in_play(self.state, me) if gd.card(e["card"]).unique}
        out = set()
        for entry in items:
            data = gd.card(entry["card"])
            if data.unique:
                if data.character in present:
                    out.add(entry["card"])
                present.add(data.character)
        return out

    def attack(self, command: Attack) -> Msg:
        state, gd, me = self.state, self.gd, self.player
        example = self.example_attack()
        now = self.asked == "attack" and not self.attack_lines
        mine_now = state["phase"] == "challenges" and pos.acting(state) == me
        if mine_now and command.type in state["challenges_done"][me]:
            raise Refused(_error("type_done", type=command.type), example)
        if any(line["type"] == command.type for line in self.attack_lines):
            raise Refused(_error("type_twice", type=command.type), example)
        opponent = command.opponent or pos.opponents(state, me)[0]
        if opponent == me:
            raise Refused(_error("opponent_self"), example)
        chars = self.chars()
        zone = chars + state["hand"][me] + self.planned_chars()

        def prefer(i):
            entry = pos.character(state, me, i)
            return (entry is None, entry is not None and not pos.can_act(gd, entry, command.type))

        attackers: list[str] = []
        for r in command.attackers:
            card = self.pick(r, zone, attackers, "characters", example, prefer=prefer)
            if gd.card(card).type != "character":
                raise Refused(_error("not_character", card=card_id(card)), example)
            if now:
                entry = pos.character(state, me, card)
                why = ("not_in_play" if entry is None else "knelt" if entry["knelt"] else
                       "icon" if command.type not in pos.icons(gd, entry) else None)
                if why:
                    raise Refused(_error("attacker", card=card_id(card), why=why, type=command.type), example)
            attackers.append(card)
        stealthy = sum(1 for a in attackers if gd.card(a).has("stealth"))
        targets: list[str] = []
        for r in command.stealth:
            card = self.pick(r, self.chars(opponent), targets, "opponent", example)
            if gd.card(card).has("stealth"):
                raise Refused(_error("stealth_target", card=card_id(card)), example)
            targets.append(card)
        if len(targets) > stealthy:
            raise Refused(_error("stealth_count", count=stealthy), example)
        line = {"type": command.type, "opponent": opponent, "attackers": attackers, "stealth": targets}
        self.attack_lines.append(line)
        self.changes["attacks"] = list(self.attack_lines)
        self.changes.setdefault("pass", False)
        if self.asked != "attack" and self.round_of("challenges") != state["round"] and len(self.attack_lines) == 1:
            self.notes.append(Msg("agotccg.note.ahead", what="challenges", round=self.round_of("challenges")))
        return lines.attack(command.type, opponent, [visible(state, me, a) for a in attackers],
                            [visible(state, me, t, holder=opponent) for t in targets])

    def defend(self, command: Defend) -> Msg:
        state, gd, me = self.state, self.gd, self.player
        example = f"DEFEND {command.type.upper()}: NOBODY"
        if command.against == me:
            raise Refused(_error("opponent_self"), example)
        challenge = state["challenge"]
        now = (self.asked == "defend" and challenge["type"] == command.type
               and command.against in (None, challenge["attacker"]))
        zone = self.chars() + state["hand"][me] + self.planned_chars()
        cards: list[str] = []
        for r in command.cards:
            card = self.pick(r, zone, cards, "characters", example,
                             prefer=lambda i: pos.character(state, me, i) is None)
            if gd.card(card).type != "character":
                raise Refused(_error("not_character", card=card_id(card)), example)
            if now:
                entry = pos.character(state, me, card)
                why = ("not_in_play" if entry is None else "knelt" if entry["knelt"] else
                       "icon" if command.type not in pos.icons(gd, entry) else
                       "stealth" if card in challenge["stealth"] else None)
                if why:
                    raise Refused(_error("defender", card=card_id(card), why=why, type=command.type), example)
            cards.append(card)
        key = command.type if command.against is None else f"{command.type} {command.against}"
        defend = dict(self.changes.get("defend", {}))
        defend[key] = cards
        self.changes["defend"] = defend
        return lines.defend(command.type, command.against, [visible(state, me, c) for c in cards])

    # -- applying ----------------------------------------------------------------------------------

    def apply(self) -> None:
        plan = pos.plan(self.state, self.player)
        if self.cleared:
            nosave = []
            plan.clear()
            plan.update(pos.empty_plan())
            plan["nosave"] = nosave
        c = self.changes
        for key in ("mulligan", "setup", "plot", "first", "marshal", "kill"):
            if key in c:
                plan[key] = c[key]
        if c.get("mulligan") == "mulligan" and plan["setup"] is not None and "setup" not in c:
            plan["setup"] = None
            self.notes.append(Msg("agotccg.note.setup_cleared"))
        if "attacks" in c:
            plan["attacks"], plan["pass"] = c["attacks"], c.get("pass", False)
        for key, cards in c.get("defend", {}).items():
            plan["defend"][key] = cards
        for character, yes in c.get("save", {}).items():
            if yes and character in plan["nosave"]:
                plan["nosave"].remove(character)
            elif not yes and character not in plan["nosave"]:
                plan["nosave"].append(character)


def on_file(state: dict, gd: GameData, player: str) -> list[str]:
    """What the judge holds for ``player``, as canonical lines."""
    plan = pos.plan(state, player)
    out: list[Msg] = []
    if plan["mulligan"] is not None:
        out.append(lines.keep() if plan["mulligan"] == "keep" else lines.mulligan())
    if plan["setup"] is not None:
        out.append(lines.setup([visible(state, player, c) for c in plan["setup"]]))
    if plan["plot"] is not None:
        out.append(lines.plot(plan["plot"]))
    if plan["first"] is not None:
        out.append(lines.first(plan["first"]))
    if plan["marshal"] is not None:
        out.append(lines.marshal([{"card": visible(state, player, i["card"]),
                                   "on": visible(state, player, i["on"], i.get("owner")) if i.get("on") else None}
                                  for i in plan["marshal"]]))
    for line in plan["attacks"]:
        out.append(lines.attack(line["type"], line["opponent"], [visible(state, player, a) for a in line["attackers"]],
                                [visible(state, player, s, holder=line["opponent"]) for s in line["stealth"]]))
    if plan["pass"]:
        out.append(lines.pass_())
    for key in sorted(plan["defend"], key=lambda k: (pos.TYPES.index(k.split()[0]), k)):
        kind, _, against = key.partition(" ")
        out.append(lines.defend(kind, against or None, [visible(state, player, c) for c in plan["defend"][key]]))
    if plan["kill"] is not None:
        out.append(lines.kill([visible(state, player, c) for c in plan["kill"]]))
    for character in plan["nosave"]:
        card = next(c.id for c in gd.cards if c.character == character)
        out.append(lines.save(lines.ref(card), False))
    return [lines.canonical(m, gd) for m in out]

