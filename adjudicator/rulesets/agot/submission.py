"""A house's mail folded into the state: grammar first, then legality, then all-or-nothing.

The grammar (``grammar.py``) knows names and syntax; this module knows the position: whose
units stand where, which orders were placed, what the current step asks. A mail with any
rejected line changes nothing (PBEM.md). Accepted instructions are stored in the house's
secret plan as canonical lines, to be used when their moment comes.
"""

from __future__ import annotations

from dataclasses import replace

from ... import mailcommands
from ...messages import Msg
from ...plaindata import clone
from ...ruleset import LineResult, Parsed, Submission
from . import action, battle, consolidate, examples, gold, hostages, mercenaries, planning, say, takeover, tides, transactions, westeros
from . import position as pos
from .commands import (CLEAR_KINDS, Ability, Bid, BidAll, Blade, Card, Casualties, Choose, Clear, Consolidate,
                       Discard, March, Muster, OrderLine, Orders, Penalty, Port, Promote, Raid, Raven, Reclaim, Redraw, Remove,
                       Retreat, Support, Tiebreak, Track)
from .commands import NEUTRAL  # agot2e-ru: SUPPORT ... -> NEUTRAL
from .commands import TRANSACTIONS  # agot2e-ru: BUY, GIVE, LOAN, REPAY at any time
from .commands import HandLook, Rebel  # agot2e-ru: the rebellion and the Hand of the King
from . import hand, rebellion  # agot2e-ru
from .commands import Answer, ExecutionBid, Ransom  # agot2e-ru: the hostage phase (hostages.py)
from .commands import Hire, Wages  # agot2e-ru: mercenaries
from .context import Ctx
from . import grammar
from .grammar import parse_mail

WESTEROS_ONLY = (Bid, BidAll, Tiebreak, Muster, Remove, Reclaim, Track, Discard, Choose, Promote, Penalty)
PLAN_KEY = {Raid: "raids", March: "marches", Support: "supports", Card: "cards", Casualties: "casualties",
            Retreat: "retreats", Ability: "abilities"}


def submit(state: dict, ctx: Ctx, house: str, text: str) -> Submission:
    mail = parse_mail(text, ctx.names)
    errors, notes = _legality(state, ctx, house, mail)  # index into mail.lines -> (error, example)
    shown = _valid_examples(state, ctx, house, mail, errors)
    lines = tuple(
        LineResult(r.lineno, r.raw, canonical=r.canonical if i not in errors and r.error is None else None,
                   error=errors[i][0] if i in errors else r.error, example=shown.get(i))
        for i, r in enumerate(mail.lines)
    )
    if gold.in_play(state):  # agot2e-ru: the echo names a Consolidate Power token as the game does, Trade
        lines = tuple(replace(line, canonical=f"{line.canonical.split(':', 1)[0]}: {say.trade_word(r.command.token.canonical(), True)}")
                      if isinstance(r.command, OrderLine) and line.canonical else line for line, r in zip(lines, mail.lines))
    parsed = Parsed(lines, tuple(mail.commands))
    if not parsed.ok:
        return Submission(state, parsed, False, requests=mailcommands.requests(mail.commands))
    notes += westeros.choose_notes(state, ctx, house, mail.commands)
    _apply(state, ctx, house, mail.commands)
    notes += transactions.apply(state, ctx, house, [c for c in mail.commands if isinstance(c, TRANSACTIONS)])
    return Submission(state, parsed, True, notes, requests=mailcommands.requests(mail.commands))


def _legality(state: dict, ctx: Ctx, house: str, mail) -> tuple[dict[int, tuple[str, str | None]], list[str]]:
    """The legality errors of every line that parsed, whatever the grammar said of the others (one
    round of errors per mail). A ``CLEAR`` line applies before the lines after it, so the mail is
    judged in stretches between CLEAR lines, each against the plan as the stretches before left it;
    within a stretch the lines are judged together (a MARCH line may come before its ORDERS block)."""
    index = {id(r.command): i for i, r in enumerate(mail.lines) if r.command is not None}
    items = sorted([(index[id(c)], c) for c in mail.commands] + list(mail.broken_orders.items()),
                   key=lambda item: item[0])
    broken = {id(orders) for orders in mail.broken_orders.values()}
    errors: dict[int, tuple[str, str | None]] = {}
    notes: list[str] = []
    # agot2e-ru: the transactions at any time, judged in mail order whatever the CLEAR lines (transactions.py)
    made = [(at, c) for at, c in items if isinstance(c, TRANSACTIONS)]
    for i, problem in transactions.check(state, ctx, house, [c for _, c in made]).items():
        errors[made[i][0]] = (problem, None)
    scratch = {**state, "plans": {**state["plans"], house: clone(pos.plan(state, house))}}  # only its plan changes
    stretch: list[tuple[int, object]] = []
    for at, command in [*(item for item in items if item not in made), (None, None)]:
        if command is not None and not isinstance(command, Clear):
            stretch.append((at, command))
            continue
        _check(scratch, ctx, house, stretch, index, broken, errors)
        # what the next stretch is judged against: this one's lines that hold (orders as far as they parsed)
        _apply(scratch, ctx, house, [c for i, c in stretch if i not in errors or isinstance(c, Orders)])
        stretch = []
        if command is not None:
            problem = _clear_problem(scratch, ctx, house, command)
            if problem:
                errors[at] = problem
            else:
                _apply(scratch, ctx, house, [command])
    return errors, notes


# -- examples ------------------------------------------------------------------------------------------------


def _valid_examples(state: dict, ctx: Ctx, house: str, mail, errors: dict) -> dict[int, str]:
    """A valid example for every refused line (issue 10): the one the error came with if the judge
    accepts it in the line's place (or alone), else the first such candidate of ``examples.py`` for
    the line's command, else ``HELP``. A line is judged in its place because a MARCH line may rely
    on the ORDERS block of the same mail. Trying an example in its place judges the whole mail again,
    so a mail gets :data:`EXAMPLE_BUDGET` lines of such judging; past that, ``HELP``."""
    out = {}
    if not errors and all(r.error is None for r in mail.lines):
        return out  # nothing refused (most mails): no examples to look for
    budget = [EXAMPLE_BUDGET]
    orders = _final_orders(state, ctx, house, mail)
    kinds = _line_keywords(mail)
    for i, r in enumerate(mail.lines):
        if r.error is None and i not in errors:
            continue
        given = errors[i][1] if i in errors else r.example
        if i in mail.broken_orders and i not in errors:  # "fix the order lines": the header itself is fine
            out[i] = given
            continue
        keyword = kinds[i] or _keyword_of(given)
        command = r.command if r.error is None else None
        tries = [given] if given else []
        tries += examples.candidates(state, ctx, house, keyword, orders, command) if keyword else []
        order_line = keyword == "ORDER"
        out[i] = next((t for t in tries if _accepted(state, ctx, house, mail, i, t, budget, order_line=order_line)),
                      None) or \
            next((t for t in tries if _accepted(state, ctx, house, mail, i, t, budget, alone=True,
                                                 order_line=order_line)), "HELP")
    return out


EXAMPLE_BUDGET = 20_000
"""Lines judged again while choosing a mail's examples (about a second): a mail of thousands of wrong
lines must not take minutes. HELP, always valid, is the example past it."""


def _accepted(state: dict, ctx: Ctx, house: str, mail, at: int, example: str, budget: list[int], *,
              alone: bool = False, order_line: bool = False) -> bool:
    """Does the judge accept ``example`` (one or more lines) in the place of line ``at`` of ``mail``
    (``alone``: as a mail of its own; an order line in an ORDERS block of its own)? An order line
    counts only if its block may be sent now."""
    new = example.split("\n")
    order_line = order_line and _keyword_of(example) is None
    if alone:
        lines = ["ORDERS", *new] if order_line else new
        first = len(lines) - len(new)
    else:
        lines = [r.raw.strip() for r in mail.lines]
        lines[at:at + 1] = new
        first = at
    if budget[0] < len(lines):
        return False
    budget[0] -= len(lines)
    trial = parse_mail("\n".join(lines), ctx.names)
    if len(trial.lines) != len(lines):
        return False  # a line that read differently: no judgement
    errors, _ = _legality(state, ctx, house, trial)
    header = max((j for j in range(first) if _keyword_of(lines[j]) == "ORDERS"), default=None) if order_line else None
    return (header is None or header not in errors) and \
        all(trial.lines[j].error is None and j not in errors for j in range(first, first + len(new)))


def _keyword_of(line: str | None) -> str | None:
    """The command a line starts with (``BIDALL`` for a bid on every track), or None."""
    if not line:
        return None
    first = line.split("\n", 1)[0]
    _, rest = grammar._head(first)
    keyword = grammar.command_word(first)
    if keyword == "BID" and len(rest.split()) > 1:
        return "BIDALL"
    return keyword


def _line_keywords(mail) -> list[str | None]:
    """Per line of the mail: the command it starts with, ``ORDER`` inside an ORDERS block, else None."""
    out, in_block = [], False
    for r in mail.lines:
        keyword = _keyword_of(r.raw.split("#", 1)[0].strip())
        if keyword is not None:
            in_block = keyword == "ORDERS"
            out.append(keyword)
        else:
            out.append("ORDER" if in_block else None)
    return out


def _final_orders(state: dict, ctx: Ctx, house: str, mail) -> dict:
    """The house's orders as the mail leaves them (for the examples of its action lines)."""
    blocks = [c for c in mail.commands if isinstance(c, Orders)] + list(mail.broken_orders.values())
    if blocks and state["phase"] in ("planning", "westeros") and state["step"] not in planning.RAVEN_STEPS:
        return {line.area: line.token.canonical() for line in blocks[-1].lines}
    return _orders_for(state, house, None)


# -- legality --------------------------------------------------------------------------------------------------


def _orders_for(state: dict, house: str, mail_orders: dict | None) -> dict:
    """The house's orders as they stand for checking instructions: on the board once revealed (from the
    raven step on), else this mail, else on file (orders and action lines may be sent during the
    Westeros phase, for the coming planning phase)."""
    if state["phase"] not in ("planning", "westeros") or state["step"] in planning.RAVEN_STEPS:
        return {a: t for a, t in state["orders"].items() if pos.order_owner(state, a) == house}
    return mail_orders if mail_orders is not None else (pos.plan(state, house)["orders"] or {})


def _check(state: dict, ctx: Ctx, house: str, stretch: list, index: dict, broken: set, errors: dict) -> None:
    """Check one stretch of the mail (no CLEAR inside) against ``state``; errors by line index."""
    commands = [c for _, c in stretch]
    mail_orders = None
    unsure = False  # the mail's ORDERS block did not parse whole: an area missing from it may be in a bad line
    for command in commands:
        if isinstance(command, Orders):
            mail_orders = {line.area: line.token.canonical() for line in command.lines}
            unsure = id(command) in broken
    orders = _orders_for(state, house, mail_orders)
    if state["phase"] in ("planning", "westeros"):
        # the order the house's RAVEN line (this mail's, else the one on file) will put there counts
        filed_raven = pos.plan(state, house)["raven"]
        raven = next((c for c in reversed(commands) if isinstance(c, Raven)), None) or (
            ctx.command(filed_raven) if filed_raven else None)
        if raven is not None and not raven.is_pass and raven.area in orders:
            orders = {**orders, raven.area: raven.order.canonical()}
    filed = [ctx.command(line) for line in pos.plan(state, house)["marches"]]
    relayed = {m.dest for march in filed for m in march.moves}  # areas an earlier march line of the house feeds
    ships_move = any(ctx.gd.board.is_sea(march.src) and march.moves for march in filed)
    # A march into a neutral force counts the supports declared for it, those of this very mail too.
    supports = [c.canonical(ctx.names) for c in commands if isinstance(c, Support)]
    seen = {**state, "plans": {**state["plans"], house: {**pos.plan(state, house),
                                                         "supports": pos.plan(state, house)["supports"] + supports}}}
    westeros_lines = [c for c in commands if isinstance(c, WESTEROS_ONLY)]
    westeros_errors = {id(westeros_lines[i]): e for i, e in
                       westeros.check_commands(state, ctx, house, westeros_lines).items()} if westeros_lines else {}
    for at, command in stretch:
        problem = example = None
        if isinstance(command, Orders):
            if (state["phase"], state["step"]) != ("planning", "orders") and state["phase"] != "westeros":
                problem, example = Msg("agot.error.not_planning"), "ORDERS?"
            else:
                for i, message in planning.check_orders(state, ctx, house, list(command.lines)).items():
                    message = westeros.restriction_text(state, ctx, command.lines[i], message)
                    errors[index[id(command.lines[i])]] = (message, None)
        elif isinstance(command, (Raid, March)):
            kind = "raid" if isinstance(command, Raid) else "march"
            if unsure and command.src not in orders:
                pass  # judged once the ORDERS block is fixed
            elif not str(orders.get(command.src, "")).startswith(kind):
                problem = Msg("agot.error.no_order_in", kind=kind, area=ctx.area(command.src))
            else:
                problem = _check_ahead(state, seen, ctx, house, command, orders, relayed, ships_move)
            if isinstance(command, March):
                relayed.update(m.dest for m in command.moves)
                ships_move = ships_move or (ctx.gd.board.is_sea(command.src) and bool(command.moves))
        elif isinstance(command, Support):
            board, battle_area = ctx.gd.board, command.battle_area
            if not str(orders.get(command.src, "")).startswith("support") and not (unsure and command.src not in orders):
                problem = Msg("agot.error.no_order_in", kind="support", area=ctx.area(command.src))
            elif command.house == NEUTRAL and not ctx.on("neutral-support"):
                problem = Msg("agot.error.no_neutral_support")  # agot2e-ru's option only (RULES.md V7)
            elif command.house == NEUTRAL and battle_area is not None and battle_area not in state["neutral"]:
                problem = Msg("agot.error.no_neutral_force", area=ctx.area(battle_area))
            elif battle_area is not None and not board.adjacent(command.src, battle_area):
                problem = Msg("agot.error.support_not_adjacent", src=ctx.area(command.src), area=ctx.area(battle_area))
            elif battle_area is not None and board.is_sea(battle_area) and board.is_land(command.src):
                problem = Msg("agot.error.support_land_at_sea", area=ctx.area(battle_area))
        elif isinstance(command, Card) and command.card_id is None:  # agot2e-ru: CARD NONE (RULES.md V23)
            if not ctx.on("optional-house-card"):
                problem = Msg("agot.error.no_optional_card")
        elif isinstance(command, Card):
            owner_ = ctx.gd.card(command.card_id).house
            if owner_ != house:
                problem = Msg("agot.error.not_your_card", card=command.card_id, owner=owner_, house=house)
        elif isinstance(command, Raven):
            problem = planning.check_raven(state, ctx, house, command) if (
                state["step"] in planning.RAVEN_STEPS or command.is_pass or command.look is not None
                or house != pos.holder(state, "messenger_raven")) else None
            if problem and command.order is not None:
                problem = westeros.restriction_text(state, ctx, command.order, problem)
        elif isinstance(command, WESTEROS_ONLY):
            problem, example = westeros_errors.get(id(command), (None, None))
        elif isinstance(command, Port):  # 2e (takeover.py)
            problem, example = takeover.check(state, ctx, house, command)
        elif isinstance(command, Consolidate) and not (unsure and command.area not in orders):  # 2e (consolidate.py)
            problem, example = consolidate.check(state, ctx, house, command, orders)
        elif isinstance(command, Redraw):  # 2e (tides.py)
            problem = tides.check(state, ctx, house, command)
        elif isinstance(command, Rebel):  # agot2e-ru (rebellion.py)
            problem = rebellion.check(state, ctx, house, command)
        elif isinstance(command, HandLook):  # agot2e-ru (hand.py)
            problem = hand.check(state, ctx, house, command)
        elif isinstance(command, (Ransom, Answer, ExecutionBid)):  # agot2e-ru (hostages.py)
            problem, example = hostages.check(state, ctx, house, command)
        elif isinstance(command, (Hire, Wages)):  # agot2e-ru (mercenaries.py)
            problem, example = mercenaries.check(state, ctx, house, command)
        elif isinstance(command, Ability) and ctx.rules.cards.BY_TIMING and state["step"] != "battle":
            problem = battle.ability_form(ctx, house, command)  # 2e: checked when sent ahead, not only in battle
        elif isinstance(command, Ability) and state["step"] != "battle" and ctx.gd.card(command.card_id).house != house:
            problem = Msg("agot.error.not_your_house_card", card=command.card_id)  # 1e, sent ahead: as in battle
        if problem is None and state["step"] == "battle" and isinstance(command, (Support, Card, Ability, Casualties, Retreat)):
            problem = battle.check_instruction(state, ctx, house, command)
        if problem:  # (on a broken ORDERS block's header this replaces the grammar's word: it says more)
            errors[at] = (problem, example)  # the example: see _valid_examples


def _check_ahead(state: dict, seen: dict, ctx: Ctx, house: str, command, orders: dict, relayed: set[str],
                 ships_move: bool) -> str | None:
    """A RAID or MARCH line for an order the house has (RULES.md section 12, "Sent ahead").

    In the action phase a raid, and a march that no earlier march line of the house may change (none
    feeds its area, none moves ships when it marches from land), is judged against the board as it
    stands: raid targets only ever disappear, and a march that cannot be made now is better refused
    now than skipped later. Any other line (sent in the planning or Westeros phase, or fed by an
    earlier march) is refused now only for what can never become legal this round, and judged for the
    rest when its turn comes."""
    board = ctx.gd.board
    src = command.src
    if isinstance(command, Raid):
        if state["phase"] == "action":
            return action.check_raid(seen, ctx, house, command)
        return action.raid_never_legal(state, ctx, house, command, star=str(orders[src]).endswith("*"),
                                       occupants_known=state["phase"] == "planning")
    fed = src in relayed
    if state["phase"] == "action" and not fed and not (board.is_land(src) and ships_move):
        return action.check_march(seen, ctx, house, command, mail_time=True)
    seas = action.possible_ship_seas(state, ctx, house, orders, westeros.muster_seas(state, ctx, house))
    return action.march_never_legal(state, ctx, house, command, seas=seas,
                                    units_known=not fed and not westeros.mustering_to_come(state))


def _clear_problem(state: dict, ctx: Ctx, house: str, clear: Clear) -> tuple[Msg, str] | None:
    """``CLEAR ORDERS`` takes back orders not yet revealed; on the board they stay."""
    if "orders" in clear.kinds and state["phase"] not in ("planning", "westeros") or \
            "orders" in clear.kinds and state["step"] in planning.RAVEN_STEPS:
        return Msg("agot.error.clear_revealed"), "CLEAR MARCHES"
    return None




def _apply(state: dict, ctx: Ctx, house: str, commands) -> None:
    """Fold accepted commands into the house's plan, in mail order (a CLEAR empties what it names
    before the lines after it)."""
    plan = pos.plan(state, house)
    westeros_lines: list = []
    for command in [*commands, None]:
        if command is None or isinstance(command, Clear):
            westeros.store(state, ctx, house, westeros_lines)
            westeros_lines = []
            if command is not None:
                clear(state, house, command.kinds)
        elif isinstance(command, WESTEROS_ONLY):
            westeros_lines.append(command)
        elif isinstance(command, Orders):
            planning.store_orders(state, house, list(command.lines))
        elif isinstance(command, Raven):  # 2e: RAVEN TOP | BOTTOM beside the RAVEN LOOK it answers
            plan["raven_card" if command.look in ("top", "bottom") else "raven"] = command.canonical(ctx.names)
        elif isinstance(command, Blade):
            plan["blade"] = "at " + command.area if command.mode == "at" else command.mode
        elif isinstance(command, Port):
            takeover.store(state, ctx, house, command)
        elif isinstance(command, Consolidate):
            consolidate.store(state, ctx, house, command)
        elif isinstance(command, Redraw):
            tides.store(state, ctx, house, command)
        elif isinstance(command, (Rebel, HandLook)):  # agot2e-ru: one line on file, the last sent
            plan[rebellion.PLAN_KEY if isinstance(command, Rebel) else hand.PLAN_KEY] = [command.canonical(ctx.names)]
        elif isinstance(command, (Ransom, Answer, ExecutionBid)):
            hostages.store(state, ctx, house, command)
        elif isinstance(command, (Hire, Wages)):
            mercenaries.store(state, ctx, house, command)
        elif type(command) in PLAN_KEY:
            plan[PLAN_KEY[type(command)]].append(command.canonical(ctx.names))


SECOND_EDITION_LINES = ("ports", "consolidations", "redraws") + (rebellion.PLAN_KEY, hand.PLAN_KEY, "hostages", "hire",
                                                                    "wages")  # agot2e-ru
"""The plan's keys of the 2nd edition's action-phase lines (PORT, CONSOLIDATE, BLADE REDRAW/KEEP) and of
agot2e-ru's rebellion, Hand, hostage phase and mercenaries (HIRE, WAGES), in the order ``on_file`` lists them; a
plan has them only once such a line was sent."""


def clear(state: dict, house: str, kinds: tuple[str, ...] = ()) -> None:
    """Forget what ``house`` has on file: everything, or the kinds named (``commands.CLEAR_KINDS``).
    Orders already on the board are not on file: they stay."""
    plan = pos.plan(state, house)
    fresh = pos.empty_plan()
    for kind in kinds or CLEAR_KINDS:
        plan[kind] = fresh[kind]
    if "raven" in (kinds or CLEAR_KINDS):  # 2e: the RAVEN TOP | BOTTOM beside a RAVEN LOOK
        plan.pop("raven_card", None)
    if not kinds:  # 2e: CLEAR forgets the lines of the 2nd-edition choices too
        for key in westeros.SECOND_EDITION_KEYS.values():
            plan.pop(key, None)
    for key in SECOND_EDITION_LINES:  # 2e: made when first sent; CLEAR (everything) takes them, CLEAR BLADE the redraws
        if not kinds or (key == "redraws" and "blade" in kinds):
            plan.pop(key, None)


def on_file(state: dict, ctx: Ctx, house: str) -> list[str]:
    """What the judge holds for ``house``, as canonical lines."""
    plan = pos.plan(state, house)
    out = []
    if plan["orders"] is not None:
        out.append("ORDERS")
        trade = gold.in_play(state)  # agot2e-ru: Consolidate Power is Trade
        out += [f"{ctx.area(a)}: {say.trade_word(t, trade)}" for a, t in plan["orders"].items()]
    if plan["raven"]:
        out.append(plan["raven"])
    if plan.get("raven_card"):
        out.append(plan["raven_card"])
    out += westeros.on_file(state, ctx, house)
    for key in pos.PLAN_KEYS + SECOND_EDITION_LINES:
        out += plan.get(key, [])
    if plan["blade"] != "auto":
        mode = plan["blade"]
        out.append("BLADE " + (f"AT {ctx.area(mode[3:])}" if mode.startswith("at ") else mode.upper()))
    return out
