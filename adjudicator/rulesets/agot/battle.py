"""The battle of the action phase (CZ p.9-12 and the house cards of p.14): a pure step module.

The march step calls :func:`start` when a march enters an area held by another house; the
engine then alternates :func:`pending` (who owes what in the current sub-step) and
:func:`advance` (resolve that sub-step) until the battle is over, when ``state['battle']`` is
None again and ``state['step']`` is back to ``march``. Mails answering the battle's question
are checked by :func:`check_instruction`.

Sub-steps (``state['battle']['stage']``), in the rulebook's order (CZ p.9 "Bitvy se řeší
následujícími kroky"):

``supports``    CZ p.10 step 1: every adjacent support order declares for a side or none (all
                at once); then both strengths are announced (step 2).
``announce``    agot2e-ru option ``optional-house-card``: the defender, then the attacker, says whether it
                fights without a house card (``nocard.py``).
``cards``       step 3: both cards at once. Then, in the same sub-step, what needs nobody: the
                abilities that act at once (CZ p.11 "first resolve any special ability, then add
                the card's strength"; RULES.md A17 order), the Valyrian Steel Blade (step 4: sent
                ahead only, BLADE AUTO/NEVER/AT) and the result (step 5).
``redraw``      2e Tides of Battle: the Valyrian Steel Blade's holder, asked whether to redraw its card
                (``tides.py``); then the rest of the ``cards`` sub-step.
``cancel``, ``repick``, ``immediately``  2e only (agot2e RULES.md R8.5): a card's choice at the
                reveal asked alone (Tyrion; his opponent's other card; Aeron, Queen of Thorns,
                Doran), in the printed timing's order (:func:`_by_timing`).
``casualties``  the loser's casualties (winner's swords - loser's fortifications, CZ p.11).
``retreat``     the loser's retreat (CZ p.11), then the conquest (CZ p.12), then Ser Jaime's power.
``ability``     the winner's "if you win" ability that gives a choice (Luwin, Melisandre, Renly,
                Cersei, Asha; RULES.md R8.10/A17: after casualties and retreat); skipped when the
                winner has none or nothing to choose (2e: Cersei, Renly; Robb's choice of the
                loser's retreat is asked at ``retreat``).
``after``       2e: Patchface's discard, asked after the played cards are discarded.
Then the played cards are discarded (CZ p.12) and the battle is over. A side left without units
(Ser Loras, or casualties that wipe the defender out) ends the battle at once: nothing is left to
decide and no area is left empty in between.

The battle dict (YAML-serialisable, ``state['battle']``):

``area``, ``attacker``, ``defender``, ``origin``  ids;  ``units``: the attacker's units, off the
board until the end;  ``march_bonus``: the march order's modifier;  ``stage``: see above;
``supporters``: adjacent areas whose support order may join;  ``supports``: area -> house
supported or None (after ``supports``);  ``cards``: house -> card played (after ``cards``; held
out of hand and discards until the end);  ``seventh``: houses that played their last card;
``cancelled``: houses whose card's ability the Queen of Thorns cancelled;  ``strength``: house
-> final combat strength;  ``blade``: the house that used the Valyrian Steel Blade, or None;
``winner``, ``loser``;  ``casualties``: how many units the loser loses (before capping at what
it has);  ``order``: the March order's token (2e Ser Loras);  2e: ``resolved``: the choices made
(``"<stage> <card>"``), ``asking``: the card whose choice is asked, ``repick``: Tyrion's opponent and the
card handed back, ``retreat_to``: Robb Stark's choice; a card None: the house fights without one.
"""

from __future__ import annotations

from collections import Counter

from ...messages import Msg, fast_msg
from ...ruleset import Event, Owed, fast_event
from . import aftermath, hostages, nocard, say, tides
from . import position as pos
from .board import UnknownName
from .commands import Ability, Blade, Card, Casualties, Retreat, Support
from .battlefield import NO_WORDS, YES_WORDS, ability_active, card_icons, choice_line, choose, default_card, consume_instruction, fighting_units, find_instruction, has_units, opponent, stage_at_or_before, units_list
from .context import Ctx
from .support import castle_in_combat, ships_zero, support_line, support_problem, support_value, supporters, unit_value

# -- strength and result --------------------------------------------------------------------------------------


def strength(state: dict, ctx: Ctx, b: dict, house: str, *, with_cards: bool = True,
             supports: dict | None = None) -> tuple[int, list[Msg]]:
    """Combat strength of ``house``'s side and its parts, for the reports (CZ p.10-11 step 5 list).
    ``supports``: src -> :func:`support_value` already worked out in this sub-step (the declarations),
    so that each support is valued once. (Four times a battle: the readers it needs are written out here.)"""
    area, origin, rules, cards = b["area"], b["origin"], ctx.rules.cards, b["cards"]
    card = cards.get(house) if with_cards else None
    values = ctx.unit_values
    attacking = house == b["attacker"]
    if attacking:
        other = b["defender"]
        extra = rules.ATTACK_UNIT_BONUS.get(card) if card is not None and house not in b["cancelled"] else None
        units = b["units"]
        zero = with_cards and bool(rules.FOREIGN_SHIPS_ZERO) and ships_zero(state, ctx, b, house, extra)
    else:
        other = b["attacker"]
        extra = None
        units = pos.unrouted(state, area, house)  # (fighting_units of the defender)
        zero = with_cards and bool(rules.FOREIGN_SHIPS_ZERO) and ships_zero(state, ctx, b, house, None)
    total = 0
    for u in units:
        if not (zero and u == "ship"):
            try:
                total += values[(u, area, attacking, origin)]
            except KeyError:
                total += unit_value(ctx, u, area, attacking, origin)
            if u == extra:
                total += 1
    parts = [fast_msg("agot.part.army", units=pos.sort_units(units), n=total)]
    if attacking:
        if b["march_bonus"]:
            parts.append(fast_msg("agot.part.march", n=b["march_bonus"]))
            total += b["march_bonus"]
    else:
        garrison = garrison_of(state, ctx, area, house, origin)
        if garrison:
            parts.append(fast_msg("agot.part.garrison", n=garrison))
            total += garrison
        routed = state["routed"].get(area)
        if routed:
            parts.append(fast_msg("agot.part.routed", units=pos.sort_units(routed)))
        order = state["orders"].get(area)
        if order and pos.order_kind(state, area) == "defense":
            bonus = pos.order_bonus(state, area)
            if card is not None and card in rules.DEFENSE_DOUBLED and house not in b["cancelled"]:
                bonus *= 2
            parts.append(fast_msg("agot.part.defense", n=bonus))
            total += bonus
    declared = b["supports"]
    if declared:
        for src in b["supporters"]:
            if declared.get(src) == house:
                value, note = supports[src] if supports is not None else support_value(state, ctx, b, src)
                parts.append(fast_msg("agot.part.support", area=ctx.area(src), n=value, notes=note))
                total += value
    if card is not None:  # (2e: none after Tyrion's, if the hand held no other)
        played = ctx.gd.card(card)
        value = played.strength
        if cards.get(other) in rules.ZERO_OPPOSING_CARD and other not in b["cancelled"]:
            value = 0
        parts.append(fast_msg("agot.part.card", card=card, n=value))
        total += value
        # (a card without an ability the engine reads has no static bonus: 1e's cards, most of 2e's)
        extra = rules.bonus(state, ctx, b, house)[0] if played.ability_key is not None else 0
        if extra:  # 2e: a static ability of the card (agot2e RULES.md R8.5)
            parts.append(fast_msg("agot.part.ability", card=card, n=extra))
            total += extra
    tides = b.get("tides")
    if with_cards and tides and tides.get(house) is not None:  # 2e option Tides of Battle (agot2e RULES.md section 10)
        value = ctx.gd.tides_of_battle[tides[house]].strength
        parts.append(fast_msg("agot.part.tides", n=value))
        total += value
    if b["blade"] == house:
        parts.append(fast_msg("agot.part.blade"))
        total += 1
    return total, parts


def garrison_of(state: dict, ctx: Ctx, area: str, house: str, origin: str | None = None) -> int:
    """2e: the garrison that defends ``house``'s home ``area`` with it (RULES.md R7.2), else 0; with the
    variant's ``printed-garrisons`` every castle area's printed garrison defends whoever holds it
    (agot2e-ru RULES.md V6), except Moat Cailin attacked from the north (``origin``, V24)."""
    garrisons = state.get("garrisons")
    if not garrisons and "printed-garrisons" not in ctx.options:  # (1e; 2e once they are gone; ctx.on without a call)
        return 0
    place = ctx.gd.board.area(area)
    token = (garrisons or {}).get(area, 0) if place.home_of == house else 0
    if token or not ctx.on("printed-garrisons") or not castle_in_combat(ctx, area, origin):
        return token
    return ctx.params.printed_garrison(place.castle)


def _decide(state: dict, b: dict, totals: dict) -> str:
    a, d = b["attacker"], b["defender"]
    if totals[a] != totals[d]:
        return a if totals[a] > totals[d] else d
    return a if pos.fiefdoms_rank(state, a) <= pos.fiefdoms_rank(state, d) else d  # CZ p.11: higher on Fiefdoms


def _strength_text(ctx: Ctx, house: str, total: int, parts: list[Msg]) -> Msg:
    return fast_msg("agot.strength", house=house, total=total, parts=parts)


def _blade(state: dict, ctx: Ctx, b: dict, totals: dict) -> list[Event]:
    """CZ p.11 step 4: the holder (position 1 on Fiefdoms) may add +1, once per round. Decided only by
    the BLADE line sent ahead (PBEM.md): AUTO uses it when the +1 turns a loss into a win (``totals``:
    both strengths without it)."""
    holder = pos.holder(state, "valyrian_steel_blade")
    if holder not in (b["attacker"], b["defender"]) or state["blade_used"]:
        return []
    mode, _, where = str(pos.plan(state, holder).get("blade") or "auto").strip().partition(" ")
    mode = mode.lower()
    if mode == "at":
        where = where.strip()
        if where not in ctx.gd.board:
            try:
                where = ctx.gd.board.resolve(where)
            except UnknownName:
                where = None
        use = where == b["area"]
    elif mode == "auto":
        totals = dict(totals)
        without = _decide(state, b, totals)
        totals[holder] += 1
        use = without != holder and _decide(state, b, totals) == holder
    else:
        use = False
    if not use:
        return []
    b["blade"] = holder
    state["blade_used"] = True
    return [fast_event("agot.battle.blade", house=holder)]


# -- the API ------------------------------------------------------------------------------------------------------


def start(state: dict, ctx: Ctx, *, area: str, attacker: str, origin: str, units: list[str],
          march_bonus: int = 0, order: str | None = None) -> list[Event]:
    """Open the battle of ``attacker``'s march of ``units`` (already off the board) from ``origin``
    into ``area``, held by another house; the march order is already removed (its modifier is
    ``march_bonus``; the token, ``order``, is kept for 2e Ser Loras Tyrell)."""
    defender = pos.occupier(state, ctx.gd, area)
    if defender is None or defender == attacker:
        raise ValueError(f"no battle at {area}: it holds no units of a house other than {attacker}")
    if not units:
        raise ValueError("a battle needs attacking units")
    b = {
        "area": area, "attacker": attacker, "defender": defender, "origin": origin,
        "units": pos.sort_units(units), "march_bonus": int(march_bonus), "stage": "supports",
        "supporters": supporters(state, ctx, area), "supports": {}, "cards": {}, "seventh": [],
        "cancelled": [], "strength": {}, "blade": None, "winner": None, "loser": None, "casualties": 0,
        "order": order,
    }
    state["battle"] = b
    state["step"] = "battle"
    where = ctx.area(area)
    events = [fast_event("agot.battle.begins", area=where, attacker=attacker, defender=defender,
                    units=list(b["units"]), origin=ctx.area(origin), bonus=int(march_bonus),  # (sorted above)
                    defending=units_list(fighting_units(state, b, defender)),
                    routed=units_list(state["routed"].get(area, ())))]
    if b["supporters"]:
        listed = [fast_msg("agot.area_of", area=ctx.area(s), house=pos.order_owner(state, s)) for s in b["supporters"]]
        events.append(fast_event("agot.battle.supporters", area=where, supporters=listed))
    return events


def pending(state: dict, ctx: Ctx) -> list[Owed]:
    b = state.get("battle")
    if not b:
        return []
    where = ctx.area(b["area"])
    stage = b["stage"]
    if stage == "supports":
        return [Owed(helper, fast_msg("agot.owed.support", src=ctx.area(src), area=where, attacker=b["attacker"],
                                 defender=b["defender"]), "step",
                     support_line(state, ctx, b, helper, src) is not None)
                for src in b["supporters"] for helper in [pos.order_owner(state, src)]]
    if stage == nocard.STAGE:  # agot2e-ru: CARD NONE, the defender first
        return nocard.pending(state, ctx, b)
    if stage == "cards":
        return [Owed(h, fast_msg("agot.owed.card", area=where, opponent=opponent(b, h),
                            cards=_public_hand(state, ctx, opponent(b, h))), "step",
                     _card_line(state, ctx, b, h) is not None)
                for h in (b["attacker"], b["defender"]) if h not in b.get("no_card", ())]
    if stage == "redraw":  # 2e Tides of Battle: the Blade holder (tides.py)
        return tides.pending(state, ctx, b)
    if stage in ("cancel", "immediately", "after") or stage == "ability" and ctx.rules.cards.BY_TIMING:
        return [_choice_owed(state, ctx, b, b["asking"])]
    if stage == "repick":
        house, returned = b["repick"]["house"], b["repick"]["card"]
        return [Owed(house, fast_msg("agot.owed.repick", area=where, returned=returned,
                                cards=[c for c in _public_hand(state, ctx, house) if c != returned]), "step",
                     _card_line(state, ctx, b, house, not_this=returned) is not None)]
    if stage == "ability":
        card = b["cards"][b["winner"]]
        return [Owed(b["winner"], fast_msg("agot.owed.ability", card=card, area=where), "step",
                     _ability_line(state, ctx, b) is not None)]
    if stage == "casualties":
        owed = []
        n, available = aftermath.casualty_count(state, b, ctx)
        if aftermath.casualty_choice(n, available):
            owed.append(Owed(b["loser"], fast_msg("agot.owed.casualties", n=n, available=units_list(available), area=where),
                             "step", aftermath.casualty_line(state, ctx, b, n, available) is not None))
        n, available = aftermath.skull_losses(state, b, ctx)  # 2e Tides of Battle: the winner's too
        if aftermath.casualty_choice(n, available):
            owed.append(Owed(b["winner"], fast_msg("agot.owed.skull_losses", n=n, available=units_list(available),
                                              area=where), "step",
                             aftermath.skull_line(state, ctx, b, n, available) is not None))
        return owed
    if stage == "retreat":
        if b["loser"] != b["defender"]:
            return []
        survivors = fighting_units(state, b, b["defender"])
        legal, _ = aftermath.retreat_options(state, ctx, b, survivors)
        if not survivors or len(legal) < 2:
            return []
        robb = b["cards"][b["winner"]]
        if robb in ctx.rules.cards.RETREAT_CHOICE:  # 2e Robb Stark: the winner's choice first, if he makes one
            owed = _choice_owed(state, ctx, b, robb)
            return [owed] if owed.done else [owed, _retreat_owed(state, ctx, b, legal)]
        return [_retreat_owed(state, ctx, b, legal)]
    return []


def _retreat_owed(state: dict, ctx: Ctx, b: dict, legal: list[str]) -> Owed:
    return Owed(b["loser"], fast_msg("agot.owed.retreat", area=ctx.area(b["area"]), legal=[ctx.area(a) for a in legal]),
                "step", aftermath.retreat_line(state, ctx, b, legal) is not None)


def _choice_owed(state: dict, ctx: Ctx, b: dict, card: str) -> Owed:
    """2e: the question of ``card``'s choice, with what may be chosen (areas, cards or tracks)."""
    house = ctx.gd.card(card).house
    options = ctx.rules.cards.choice_options(state, ctx, b, card)
    kind = ctx.gd.card(card).choice  # data: use, area, card or track (the text says which tracks)
    areas = [ctx.area(o) for o in options] if kind == "area" else []
    cards = options if kind == "card" else []
    return Owed(house, fast_msg("agot.owed.choice", card=card, area=ctx.area(b["area"]), areas=areas, cards=cards,
                           opponent=opponent(b, house)),
                "step", choice_line(state, ctx, b, house, card) is not None)


def advance(state: dict, ctx: Ctx, force: bool) -> list[Event]:
    """Resolve the current sub-step with the instructions on file and the PBEM.md defaults for
    what is missing; the last one ends the battle (``battle`` None, ``step`` back to ``march``)."""
    b = state["battle"]
    stage = b["stage"]
    if stage == "supports":
        return _resolve_supports(state, ctx, b)
    if stage == nocard.STAGE:
        return nocard.resolve(state, ctx, b)
    if stage == "cards":
        return _resolve_cards(state, ctx, b)
    if stage == "redraw":
        return tides.resolve(state, ctx, b, force) + _fight(state, ctx, b)
    if stage in ("cancel", "repick", "immediately"):
        return _by_timing(state, ctx, b)
    if stage == "ability":
        if ctx.rules.cards.BY_TIMING:
            return aftermath.win_choice(state, ctx, b)
        return _resolve_ability(state, ctx, b)
    if stage == "after":
        return aftermath.after_combat(state, ctx, b)
    if stage == "casualties":
        return aftermath.resolve_casualties(state, ctx, b)
    if stage == "retreat":
        return aftermath.resolve_retreat(state, ctx, b)
    raise ValueError(f"unknown battle stage {stage!r}")


def check_instruction(state: dict, ctx: Ctx, house: str, command) -> Msg | None:
    """What is wrong with ``command`` as an answer to the current battle, or None (also None for an
    instruction that is for another battle: those are checked when their battle comes)."""
    b = state.get("battle")
    if not b:
        return None
    area = b["area"]
    here = getattr(command, "battle_area", None) == area  # explicitly for this battle
    if getattr(command, "battle_area", None) not in (None, area):
        return None
    fights = house in (b["attacker"], b["defender"])
    if isinstance(command, Support):
        return _check_support(state, ctx, b, house, command, here)
    if isinstance(command, Blade):
        return None
    if isinstance(command, Card) and command.card_id is None:  # agot2e-ru: CARD NONE
        return nocard.check(ctx, b, house, here)
    if isinstance(command, Card):
        card = ctx.gd.card(command.card_id)
        if card.house != house:
            return fast_msg("agot.error.not_your_house_card", card=card.id)
        if not fights:
            return fast_msg("agot.error.not_fighting", area=ctx.area(area)) if here else None
        if here and house in b.get("no_card", ()):  # agot2e-ru: it announced CARD NONE for this battle
            return fast_msg("agot.error.announced_no_card", area=ctx.area(area))
        if (b.get("repick") or {}).get("house") == house:  # 2e: Tyrion Lannister handed a card back
            if command.card_id == b["repick"]["card"]:
                return fast_msg("agot.error.card_handed_back", card=command.card_id)
        elif b["stage"] == "cancel" and house != ctx.gd.card(b["asking"]).house:
            pass  # 2e: a second CARD line for Tyrion Lannister's question, used if he hands the card back
        elif not stage_at_or_before(b, "cards"):
            return fast_msg("agot.error.cards_played", area=ctx.area(area)) if here else None
        if command.card_id not in state["hands"][house]:
            return fast_msg("agot.error.card_not_in_hand", card=card.id)
        return None
    if isinstance(command, Ability):
        return _check_ability(state, ctx, b, house, command)
    if isinstance(command, Casualties):
        if not fights:
            return fast_msg("agot.error.not_fighting", area=ctx.area(area)) if here else None
        if house == b["loser"] and stage_at_or_before(b, "casualties"):
            n, available = aftermath.casualty_count(state, b, ctx)
            return aftermath.casualty_problem(n, available, command.units)
        if house == b["winner"] and b["stage"] == "casualties" and aftermath.skull_losses(state, b, ctx)[0]:
            return aftermath.casualty_problem(*aftermath.skull_losses(state, b, ctx), command.units)  # 2e Tides
        if here and house == b["winner"]:
            return fast_msg("agot.error.won_no_casualties", area=ctx.area(area))
        if here and b["winner"] is not None:
            return fast_msg("agot.error.casualties_taken", area=ctx.area(area))
        if here and Counter(command.units) - Counter(fighting_units(state, b, house)):
            return fast_msg("agot.error.fighting_units", area=ctx.area(area), units=units_list(fighting_units(state, b, house)))
        return None
    if isinstance(command, Retreat):
        if not fights:
            return fast_msg("agot.error.not_fighting", area=ctx.area(area)) if here else None
        if here and house == b["winner"]:
            return fast_msg("agot.error.won_no_retreat", area=ctx.area(area))
        if house == b["attacker"]:
            return fast_msg("agot.error.attacker_retreats_home", origin=ctx.area(b["origin"])) if here else None
        if here and not stage_at_or_before(b, "retreat"):
            return fast_msg("agot.error.retreat_made", area=ctx.area(area))
        if b["stage"] == "retreat" and house == b["loser"]:
            survivors = fighting_units(state, b, house)
            legal, _ = aftermath.retreat_options(state, ctx, b, survivors)
            if command.area in legal:
                return None
            return aftermath.retreat_error(state, ctx, b, command.area, legal, survivors)
        if here:
            problem = aftermath.retreat_problem(state, ctx, b, command.area)
            if problem:
                return fast_msg("agot.error.not_legal_retreat", dest=ctx.area(command.area), problem=problem)
        return None
    return None


# -- sub-step: supports --------------------------------------------------------------------------------------------


def _check_support(state: dict, ctx: Ctx, b: dict, house: str, command: Support, here: bool) -> Msg | None:
    area, src = b["area"], command.src
    if src not in b["supporters"]:
        return fast_msg("agot.error.cannot_support", src=ctx.area(src), area=ctx.area(area),
                   why=support_problem(state, ctx, area, src)) if here else None
    if pos.order_owner(state, src) != house:
        return fast_msg("agot.error.no_order_in", kind="support", area=ctx.area(src))
    if command.house is not None and command.house not in (b["attacker"], b["defender"]):
        return fast_msg("agot.error.house_not_fighting", house=command.house, area=ctx.area(area), attacker=b["attacker"],
                   defender=b["defender"]) if here else None
    if b["stage"] != "supports" and here:
        return fast_msg("agot.error.supports_declared", area=ctx.area(area))
    return None


def _resolve_supports(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    events = []
    values = {}  # no card is down yet: what each support adds now is what both strengths count
    for src in b["supporters"]:
        helper = pos.order_owner(state, src)
        found = support_line(state, ctx, b, helper, src)
        side = found[1].house if found else None
        b["supports"][src] = side
        if found is None:
            events.append(fast_event("agot.default.support", house=helper, area=ctx.area(src)))
        elif side is None:
            events.append(fast_event("agot.battle.no_support", house=helper, area=ctx.area(src)))
        else:
            value, note = values[src] = support_value(state, ctx, b, src, helper)
            events.append(fast_event("agot.battle.supports", house=helper, side=side, area=ctx.area(src), n=value,
                                notes=note))
    a, d = b["attacker"], b["defender"]
    texts = [_strength_text(ctx, a, *strength(state, ctx, b, a, with_cards=False, supports=values)),
             _strength_text(ctx, d, *strength(state, ctx, b, d, with_cards=False, supports=values))]
    events.append(fast_event("agot.battle.strength_before_cards", area=ctx.area(b["area"]), sides=texts))
    nocard.begin(ctx, b)
    return events


# -- sub-step: house cards, the abilities that act at once, the blade, the result --------------------------------------


def _public_hand(state: dict, ctx: Ctx, house: str) -> list[str]:
    """The house cards ``house`` still holds, by id in the printed order: public knowledge (a house's
    discards are face up and every house has the same seven cards), so the question for a battle's
    house card names the opponent's (issue 11)."""
    hand = set(state["hands"][house])
    return [c.id for c in ctx.gd.house_cards[house] if c.id in hand]


def _card_line(state: dict, ctx: Ctx, b: dict, house: str, *, not_this: str | None = None):
    """The house's CARD line for this battle (``not_this``: the card Tyrion Lannister handed back, 2e)."""
    hand = state["hands"][house]
    return find_instruction(state, ctx, house, "cards", b["area"], lambda c: c.card_id in hand and c.card_id != not_this)


def _resolve_cards(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    events = []
    a, d = b["attacker"], b["defender"]
    for house in (a, d):
        if house in b.get("no_card", ()):  # agot2e-ru: announced CARD NONE (nocard.py)
            b["cards"][house] = None
            continue
        hand = state["hands"][house]
        if not hand:  # cannot happen with the seventh-card rule; never leave a house without a card
            state["hands"][house] = hand = hostages.own_cards(state, ctx, house)
            state["discards"][house] = []
        if not hand:  # agot2e-ru hostages: all seven held or executed: it fights without a card (RULES.md D36)
            b["cards"][house] = None
            continue
        found = _card_line(state, ctx, b, house)
        if found:
            card = found[1].card_id
            consume_instruction(state, house, "cards", found[0])
        else:
            card = default_card(state, ctx, house)
            events.append(fast_event("agot.default.card", house=house, card=card))
        hand.remove(card)
        if not hand:
            b["seventh"].append(house)
        b["cards"][house] = card
    for house in (a, d):
        if b["cards"][house] is None:
            events.append(fast_event("agot.battle.plays_no_card", house=house))
            continue
        card = ctx.gd.card(b["cards"][house])
        events.append(fast_event("agot.battle.plays", house=house, card=card.id, strength=card.strength, swords=card.swords,
                            fortifications=card.fortifications))
    if ctx.rules.cards.BY_TIMING:
        return events + _by_timing(state, ctx, b)
    events += _immediate_abilities(state, ctx, b)
    return events + _result(state, ctx, b)


def _result(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """The cards' abilities done: Tides of Battle's cards drawn (2e option; the Blade holder may be asked
    to redraw, stage ``redraw``, ``tides.py``), then the fight."""
    events = tides.draw(state, ctx, b)
    if b["stage"] == "redraw":
        return events
    return events + _fight(state, ctx, b)


def _fight(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """The cards are down (and their Tides of Battle cards): a side left without units, the Blade, the result."""
    events = []
    a, d = b["attacker"], b["defender"]
    # Ser Loras may kill the last unit of a side: that side loses at once (see the report; not in CZ).
    emptied = a if not has_units(state, b, a) else d if not has_units(state, b, d) else None
    if emptied:
        loser = emptied
        winner = opponent(b, loser)
        b["strength"] = {}
        events.append(fast_event("agot.battle.emptied", loser=loser, winner=winner, area=ctx.area(b["area"])))
    else:
        sides = {a: strength(state, ctx, b, a), d: strength(state, ctx, b, d)}
        events += _blade(state, ctx, b, {a: sides[a][0], d: sides[d][0]})
        if b["blade"]:  # its +1 among the parts
            sides[b["blade"]] = strength(state, ctx, b, b["blade"])
        totals = {}
        texts = []
        for house in (a, d):
            totals[house], parts = sides[house]
            texts.append(_strength_text(ctx, house, totals[house], parts))
        b["strength"] = totals
        events.append(fast_event("agot.battle.strength", area=ctx.area(b["area"]), sides=texts))
        winner = _decide(state, b, totals)
        loser = opponent(b, winner)
        if totals[a] == totals[d]:
            events.append(fast_event("agot.battle.tie", attacker=a, defender=d, total=totals[a], winner=winner))
        events.append(fast_event("agot.battle.wins", house=winner, area=ctx.area(b["area"])))
    b["winner"], b["loser"] = winner, loser
    b["casualties"] = max(0, card_icons(state, ctx, b, winner)[0] - card_icons(state, ctx, b, loser)[1])
    events += _skulls(state, ctx, b, winner, loser)
    if b["casualties"] and ability_active(b, loser, ctx.rules.cards.NO_CASUALTIES):  # 2e The Blackfish
        b["casualties"] = 0
        events.append(fast_event("agot.ability.no_casualties", card=b["cards"][loser], house=loser))
    b["stage"] = "casualties"
    if emptied:  # nothing is left to decide: no casualties, nobody to retreat (and no area left empty mid-battle)
        return events + aftermath.resolve_retreat(state, ctx, b)
    return events


def _immediate_abilities(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """1e: the abilities that act as soon as the cards are shown (CZ p.11, p.14; RULES.md A17's order)."""
    events = []
    for house in (b["attacker"], b["defender"]):
        other = opponent(b, house)
        if b["cards"][house] in ctx.rules.cards.CANCEL_OPPOSING_ABILITY and b["cards"][other] in ctx.rules.cards.ALL_ABILITIES:
            b["cancelled"].append(other)
            events.append(fast_event("agot.ability.cancels", card=b["cards"][house], other=b["cards"][other]))
    for house in (b["attacker"], b["defender"]):
        events += _immediate_of(state, ctx, b, house)
    return events


def _immediate_of(state: dict, ctx: Ctx, b: dict, house: str) -> list[Event]:
    """What ``house``'s card does as the cards are shown, without a choice: its immediate effect on the
    board (Brienne 1e, Loras 1e, Mace 2e) and the notes of its strength changes."""
    card = b["cards"][house]
    rules = ctx.rules.cards
    if card not in rules.ALL_ABILITIES or house in b["cancelled"]:  # (most cards: nothing to do or say)
        return []
    # Below, the card is active (ability_active: played, not cancelled, and nothing here cancels it).
    events = []
    area = b["area"]
    other = opponent(b, house)
    if card in rules.DISCARD_DEFENSE:
        if other == b["defender"] and pos.order_kind(state, area) == "defense":
            kind = state["orders"][area]
            pos.remove_order(state, area)
            events.append(fast_event("agot.ability.defense_discarded", card=card, house=other, order=say.token(kind),
                                area=ctx.area(area)))
        else:
            events.append(fast_event("agot.ability.no_defense", card=card, house=other, area=ctx.area(area)))
    if card in rules.KILL_FOOTMAN:
        if ability_active(b, other, ctx.rules.cards.NO_CASUALTIES):  # 2e: The Blackfish prevents it (R8.5)
            events.append(fast_event("agot.ability.no_casualties", card=b["cards"][other], house=other))
        else:
            events.append(_kill_footman(state, ctx, b, other, card))
    if card in rules.ZERO_OPPOSING_CARD:
        if b["cards"][other] is None:  # no card to count 0 (agot2e-ru CARD NONE; 2e: none left after Tyrion's)
            events.append(fast_event("agot.ability.no_opposing_card", card=card, house=other))
        else:
            events.append(fast_event("agot.ability.card_counts_0", card=card, other=b["cards"][other]))
    if card in rules.ZERO_OPPOSING_SUPPORT_SHIPS:
        events.append(fast_event("agot.ability.ships_count_0", card=card, house=other))
    if card in rules.DEFENSE_DOUBLED:
        if house == b["defender"] and pos.order_kind(state, area) == "defense":
            events.append(fast_event("agot.ability.defense_doubled", card=card, house=house))
        else:
            events.append(fast_event("agot.ability.no_defense", card=card, house=house, area=ctx.area(area)))
    if card in rules.ATTACK_UNIT_BONUS:
        kind = ctx.rules.cards.ATTACK_UNIT_BONUS[card]
        if house == b["attacker"]:
            events.append(fast_event("agot.ability.attack_bonus", card=card, unit=kind))
        else:
            events.append(fast_event("agot.ability.not_attacking", card=card, house=house))
    return events


def _by_timing(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """2e: the cards' abilities by printed timing (agot2e RULES.md R8.5): ``cancel`` (Tyrion Lannister; his
    opponent then picks another card), then ``immediately`` (Aeron Damphair, Mace Tyrell, Queen of Thorns,
    Doran Martell; a replacement card from its own immediately step on, B21, B22), the two sides at one
    timing in Iron Throne order, each fully (B20); then the result. A choice with no usable line on file
    is asked alone (stages ``cancel``, ``repick``, ``immediately``); called again when it is answered or
    its deadline passed, it goes on where it stopped (``b['resolved']``)."""
    events = []
    b.setdefault("resolved", [])
    order = ctx.rules.cards.ability_order(state, b)
    for house in order:
        card = b["cards"][house]
        if card is not None and ctx.rules.cards.CHOICE_STAGE.get(card) == "cancel":
            more, asked = choose(state, ctx, b, house, card, "cancel")
            events += more
            if asked:
                return events
    if b.get("repick"):
        more, asked = _repick(state, ctx, b)
        events += more
        if asked:
            return events
    for house in order:
        while b["cards"][house] is not None and f"immediately {b['cards'][house]}" not in b["resolved"]:
            card = b["cards"][house]
            if ctx.rules.cards.CHOICE_STAGE.get(card) == "immediately":
                more, asked = choose(state, ctx, b, house, card, "immediately")
                events += more
                if asked:
                    return events
            else:
                b["resolved"].append(f"immediately {card}")
            if b["cards"][house] == card:  # (Aeron's replacement resolves in its own turn of the loop)
                events += _immediate_of(state, ctx, b, house)
    return events + _result(state, ctx, b)


def _repick(state: dict, ctx: Ctx, b: dict) -> tuple[list[Event], bool]:
    """2e Tyrion Lannister: his opponent plays another card than the one handed back: a CARD line on file
    for another card in hand (a second CARD line sent ahead), else asked alone (stage ``repick``), at the
    deadline the PBEM default among the others; with no other card it fights without one (RULES.md R8.5)."""
    house, returned = b["repick"]["house"], b["repick"]["card"]
    others = [c for c in state["hands"][house] if c != returned]
    found = _card_line(state, ctx, b, house, not_this=returned) if others else None
    if others and found is None and b["stage"] != "repick":
        b["stage"] = "repick"
        return [], True
    del b["repick"]
    if not others:
        return [fast_event("agot.ability.no_other_card", house=house)], False
    events = []
    if found is not None:
        card = found[1].card_id
        consume_instruction(state, house, "cards", found[0])
    else:
        card = default_card(state, ctx, house, others)
        events.append(fast_event("agot.default.card", house=house, card=card))
    state["hands"][house].remove(card)
    if not state["hands"][house]:
        b["seventh"].append(house)
    b["cards"][house] = card
    played = ctx.gd.card(card)
    return events + [fast_event("agot.battle.plays", house=house, card=card, strength=played.strength,
                           swords=played.swords, fortifications=played.fortifications)], False


def _skulls(state: dict, ctx: Ctx, b: dict, winner: str, loser: str) -> list[Event]:
    """Each skull on a Tides of Battle card costs its owner's opponent one more unit, whoever won,
    fortifications or not (RB p.29; R8.6): the loser's casualties grow, the winner's loss is taken in
    the casualties step (``b['winner_losses']``)."""
    events = []
    for house in (winner, loser):
        card = (b.get("tides") or {}).get(house)
        skulls = ctx.gd.tides_of_battle[card].skulls if card else 0
        if not skulls:
            continue
        victim = opponent(b, house)
        events.append(fast_event("agot.tides.skull", house=house, victim=victim, n=skulls))
        if victim == loser:
            b["casualties"] += skulls
        else:
            b["winner_losses"] = b.get("winner_losses", 0) + skulls
    return events


def _kill_footman(state: dict, ctx: Ctx, b: dict, victim: str, card: str) -> Event:
    """Ser Loras: one of the victim's attacking or defending footmen dies (CZ p.14 "útočícího nebo
    bránícího se pěšáka"). A routed footman neither attacks nor defends (it adds no strength and
    is never a casualty), so it is spared."""
    area = b["area"]
    if victim == b["attacker"]:
        if "footman" not in b["units"]:
            return fast_event("agot.ability.no_footman", card=card, house=victim, attacking=True)
        units = list(b["units"])
        units.remove("footman")
        b["units"] = units
    else:
        present = pos.units_in(state, area, victim)
        if "footman" not in fighting_units(state, b, victim):
            return fast_event("agot.ability.no_footman", card=card, house=victim, attacking=False)
        present.remove("footman")  # a fighting footman: the routed marks stay as they are
        pos.set_units(state, area, victim, present)
        if not present and area in state["orders"] and (state.get("garrisons") or {}).get(area):
            pos.remove_order(state, area)  # 2e: the garrison fights on alone (B15); no order stays where no unit is
    return fast_event("agot.ability.kills_footman", card=card, house=victim, area=ctx.area(area))


# -- sub-step: the winner's ability with a choice --------------------------------------------------------------------


def _ability_line(state: dict, ctx: Ctx, b: dict):
    card = b["cards"][b["winner"]]
    return find_instruction(state, ctx, b["winner"], "abilities", b["area"],
                 lambda c: c.card_id == card and ctx.rules.cards.parse_choice(state, ctx, b, card, c.choice)[1] is None)


def _resolve_ability(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    winner = b["winner"]
    card = b["cards"][winner]
    found = _ability_line(state, ctx, b)
    if found is None:
        events = [fast_event("agot.default.ability", house=winner, card=card)]
    else:
        consume_instruction(state, winner, "abilities", found[0])
        value, _ = ctx.rules.cards.parse_choice(state, ctx, b, card, found[1].choice)
        if value is None:
            events = [fast_event("agot.ability.unused", house=winner, card=card)]
        else:
            events = ctx.rules.cards.apply_choice(state, ctx, b, card, value)
    return events + aftermath.end_battle(state, ctx, b)


def ability_form(ctx: Ctx, house: str, command: Ability) -> Msg | None:
    """2e: what is wrong with an ABILITY line whatever the battle (sent ahead, or for a later battle)."""
    card = ctx.gd.card(command.card_id)
    if card.house != house:
        return fast_msg("agot.error.not_your_house_card", card=card.id)
    if card.id not in ctx.rules.cards.CHOICE_STAGE:
        return fast_msg("agot.error.no_choice_ability", card=card.id, some=card.id in ctx.rules.cards.ALL_ABILITIES)
    return ctx.rules.cards.check_form(ctx, house, card.id, command.choice)


def _check_ability(state: dict, ctx: Ctx, b: dict, house: str, command: Ability) -> Msg | None:
    card = ctx.gd.card(command.card_id)
    if ctx.rules.cards.BY_TIMING:
        asked = b.get("asking") == card.id or (
            b["stage"] == "retreat" and card.id in ctx.rules.cards.RETREAT_CHOICE and b["winner"] == house
            and b["cards"].get(house) == card.id)
        if asked:
            return ability_form(ctx, house, command) or \
                ctx.rules.cards.parse_choice(state, ctx, b, card.id, command.choice)[1]
        return ability_form(ctx, house, command)
    if card.house != house:
        return fast_msg("agot.error.not_your_house_card", card=card.id)
    if card.id not in ctx.rules.cards.WIN_CHOICE:
        return fast_msg("agot.error.no_choice_ability", card=card.id, some=card.id in ctx.rules.cards.ALL_ABILITIES)
    if b["stage"] == "ability" and house == b["winner"] and b["cards"][house] == card.id:
        return ctx.rules.cards.parse_choice(state, ctx, b, card.id, command.choice)[1]
    text = command.choice
    if " ".join(text.split()).casefold() in NO_WORDS:
        return None
    try:  # only the form can be checked before the battle's result
        if card.id == "maester-luwin":
            ctx.gd.resolve_card(text, house)
        elif card.id == "melisandre":
            ctx.gd.resolve_card(text)
        elif card.id == "renly-baratheon":
            if " ".join(text.split()).casefold() not in YES_WORDS:
                ctx.gd.board.resolve(text)
        else:
            ctx.gd.board.resolve(text)
    except UnknownName as exc:
        return exc.msg
    return None
