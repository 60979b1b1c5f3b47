"""A house's mail folded into the state: grammar first, then legality, then all-or-nothing.

The grammar (``grammar.py``) knows names and syntax; this module knows the position: whose
units stand where, which orders were placed, what the current step asks. A mail with any
rejected line changes nothing (PBEM.md). Accepted instructions are stored in the house's
secret plan as canonical lines, to be used when their moment comes.
"""

from __future__ import annotations

from ... import mailcommands
from ...ruleset import LineResult, Parsed, Submission
from . import action, battle, planning, westeros
from . import position as pos
from .commands import (Ability, Bid, BidAll, Blade, Card, Casualties, March, Muster, Orders, Raid, Raven, Reclaim,
                       Remove, Retreat, Support, Tiebreak)
from .context import Ctx
from . import grammar
from .grammar import parse_mail

HELP = """Orders (planning): a block
  ORDERS
  Lannisport: march -1      (march -1 | march 0 | march +1* | support | support +1* | raid | raid*
  Stoney Sept: support       consolidate | consolidate* | defense +1 | defense +2*; short: M-1 M0 M+1 S S+1 R R* C C* D+1 D+2)
Then, sent ahead or when asked:
  RAID <from> -> <target>[, <target>] | NONE        MARCH <from> -> <to>: <units> [; <to>: <units>] [LEAVE POWER]
  SUPPORT <from> -> <house> | NONE [IN <area>]      CARD <house card> [IN <area>]
  BLADE AUTO | NEVER | AT <area>                    CASUALTIES <units> [IN <area>]
  RETREAT <area> [FROM <area>]                      ABILITY <card>: <choice>
  RAVEN <area>: <order> | RAVEN PASS                ORDERS? (what the judge holds for you)
Westeros phase (rounds 2-10), sent ahead or when asked:
  BID <n>  (the bid now asked for)                  BID THRONE <n> FIEFDOMS <n> COURT <n>
  TIEBREAK <house>, <house>, ... (first place first) MUSTER <castle>: footman, knight, ship -> <sea>, upgrade
  REMOVE <area>: <units>                            RECLAIM <house card>"""

WESTEROS_ONLY = (Bid, BidAll, Tiebreak, Muster, Remove, Reclaim)
PLAN_KEY = {Raid: "raids", March: "marches", Support: "supports", Card: "cards", Casualties: "casualties",
            Retreat: "retreats", Ability: "abilities"}


def submit(state: dict, ctx: Ctx, house: str, text: str) -> Submission:
    mail = parse_mail(text, ctx.names)
    errors: dict[int, tuple[str, str | None]] = {}  # index into mail.lines -> (error, example)
    notes: list[str] = []
    if mail.ok:
        _check(state, ctx, house, mail, errors, notes)
    lines = tuple(
        LineResult(r.lineno, r.raw, canonical=r.canonical if i not in errors else None,
                   error=errors[i][0] if i in errors else r.error,
                   example=errors[i][1] if i in errors else r.example)
        for i, r in enumerate(mail.lines)
    )
    parsed = Parsed(lines, tuple(mail.commands))
    if not parsed.ok:
        return Submission(state, parsed, False, requests=mailcommands.requests(mail.commands))
    _apply(state, ctx, house, mail.commands, notes)
    return Submission(state, parsed, True, notes, requests=mailcommands.requests(mail.commands))


def _orders_for(state: dict, house: str, mail_orders: dict | None) -> dict:
    """The house's orders as they stand for checking instructions: on the board, else this mail, else on file
    (orders and action lines may be sent during the Westeros phase, for the coming planning phase)."""
    if state["phase"] not in ("planning", "westeros"):
        return {a: t for a, t in state["orders"].items() if pos.owner(state, a) == house}
    return mail_orders if mail_orders is not None else (pos.plan(state, house)["orders"] or {})


def _check(state: dict, ctx: Ctx, house: str, mail, errors: dict, notes: list[str]) -> None:
    index = {id(r.command): i for i, r in enumerate(mail.lines) if r.command is not None}
    mail_orders = None
    for command in mail.commands:
        if isinstance(command, Orders):
            mail_orders = {line.area: line.token.canonical() for line in command.lines}
    relayed = {m.dest for line in pos.plan(state, house)["marches"] for m in ctx.command(line).moves}
    # A march into a neutral force counts the supports declared for it, those of this very mail too.
    supports = [c.canonical(ctx.names) for c in mail.commands if isinstance(c, Support)]
    seen = {**state, "plans": {**state["plans"], house: {**pos.plan(state, house),
                                                         "supports": pos.plan(state, house)["supports"] + supports}}}
    westeros_lines = [c for c in mail.commands if isinstance(c, WESTEROS_ONLY)]
    westeros_errors = {id(westeros_lines[i]): e for i, e in
                       westeros.check_commands(state, ctx, house, westeros_lines).items()} if westeros_lines else {}
    for command in mail.commands:
        at = index.get(id(command))
        problem = example = None
        if isinstance(command, Orders):
            if (state["phase"], state["step"]) != ("planning", "orders") and state["phase"] != "westeros":
                problem, example = "orders are placed in the planning phase; this is not it", "RAID Blackwater -> The Reach"
            else:
                for i, message in planning.check_orders(state, ctx, house, list(command.lines)).items():
                    message = westeros.restriction_text(state, ctx, command.lines[i].kind, message)
                    errors[index[id(command.lines[i])]] = (message, _order_example(state, ctx, house))
        elif isinstance(command, (Raid, March)):
            kind = "raid" if isinstance(command, Raid) else "march"
            orders = _orders_for(state, house, mail_orders)
            if not str(orders.get(command.src, "")).startswith(kind):
                problem = f"you have no {kind} order in {ctx.area(command.src)}"
            elif state["phase"] == "action" and command.src not in relayed:
                # Judged against the board as it stands: raid targets only ever disappear, and a
                # march that cannot be made now is better refused now than skipped later. A march
                # from an area an earlier march of this house feeds is judged when its turn comes.
                check = action.check_raid if kind == "raid" else action.check_march
                problem = check(seen, ctx, house, command)
            if isinstance(command, March):
                relayed.update(m.dest for m in command.moves)
            example = _example(state, ctx, house, kind)
        elif isinstance(command, Support):
            orders = _orders_for(state, house, mail_orders)
            if not str(orders.get(command.src, "")).startswith("support"):
                problem = f"you have no support order in {ctx.area(command.src)}"
                example = _example(state, ctx, house, "support")
        elif isinstance(command, Card):
            owner_ = ctx.gd.card(command.card_id).house
            if owner_ != house:
                problem = f"{ctx.card(command.card_id)} is a {ctx.house(owner_)} card, not a {ctx.house(house)} card"
                example = f"CARD {ctx.gd.house_cards[house][0].name}"
        elif isinstance(command, Raven):
            problem = planning.check_raven(state, ctx, house, command) if (
                state["step"] == "raven" or command.is_pass or house != pos.holder(state, "messenger_raven")) else None
            if problem and command.order is not None:
                problem = westeros.restriction_text(state, ctx, command.order.kind, problem)
            example = "RAVEN PASS"
        elif isinstance(command, WESTEROS_ONLY):
            problem, example = westeros_errors.get(id(command), (None, None))
        if problem is None and state["step"] == "battle" and isinstance(command, (Support, Card, Ability, Casualties, Retreat)):
            problem = battle.check_instruction(state, ctx, house, command)
            if isinstance(command, Card) and state["hands"][house]:
                example = f"CARD {ctx.card(state['hands'][house][0])} IN {ctx.area(state['battle']['area'])}"
        if problem and at is not None:
            errors[at] = (problem, example or grammar.example(_keyword(command), ctx.names))


def _keyword(command) -> str:
    name = type(command).__name__.upper()
    return name if name in grammar.EXAMPLES else "HELP"


def _example(state: dict, ctx: Ctx, house: str, kind: str) -> str:
    areas = [a for a, t in _orders_for(state, house, None).items() if t.startswith(kind)]
    if kind == "support":
        return f"SUPPORT {ctx.area(areas[0])} -> {ctx.house(house)}" if areas else f"SUPPORT <area of your support order> -> {ctx.house(house)}"
    if not areas:
        return f"{kind.upper()} <area of your {kind} order> -> NONE"
    return f"{kind.upper()} {ctx.area(areas[0])} -> NONE"


def _order_example(state: dict, ctx: Ctx, house: str) -> str:
    mine = [a for a in state["areas"] if pos.owner(state, a) == house]
    return f"{ctx.area(mine[0])}: defense +1" if mine else "Lannisport: march -1"


def _apply(state: dict, ctx: Ctx, house: str, commands, notes: list[str]) -> None:
    plan = pos.plan(state, house)
    westeros.store(state, ctx, house, [c for c in commands if isinstance(c, WESTEROS_ONLY)])
    for command in commands:
        if isinstance(command, Orders):
            planning.store_orders(state, house, list(command.lines))
        elif isinstance(command, Raven):
            plan["raven"] = command.canonical(ctx.names)
        elif isinstance(command, Blade):
            plan["blade"] = "at " + command.area if command.mode == "at" else command.mode
        elif type(command) in PLAN_KEY:
            plan[PLAN_KEY[type(command)]].append(command.canonical(ctx.names))


def on_file(state: dict, ctx: Ctx, house: str) -> list[str]:
    """What the judge holds for ``house``, as canonical lines."""
    plan = pos.plan(state, house)
    out = []
    if plan["orders"] is not None:
        out.append("ORDERS")
        out += [f"{ctx.area(a)}: {t}" for a, t in plan["orders"].items()]
    if plan["raven"]:
        out.append(plan["raven"])
    out += westeros.on_file(state, ctx, house)
    for key in pos.PLAN_KEYS:
        out += plan.get(key, [])
    if plan["blade"] != "auto":
        mode = plan["blade"]
        out.append("BLADE " + (f"AT {ctx.area(mode[3:])}" if mode.startswith("at ") else mode.upper()))
    return out
