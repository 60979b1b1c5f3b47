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
``cards``       step 3: both cards at once. Then, in the same sub-step, what needs nobody: the
                abilities that act at once (CZ p.11 "first resolve any special ability, then add
                the card's strength"; RULES.md A17 order), the Valyrian Steel Blade (step 4: sent
                ahead only, BLADE AUTO/NEVER/AT) and the result (step 5).
``casualties``  the loser's casualties (winner's swords - loser's fortifications, CZ p.11).
``retreat``     the loser's retreat (CZ p.11), then the conquest (CZ p.12), then Ser Jaime's power.
``ability``     the winner's "if you win" ability that gives a choice (Luwin, Melisandre, Renly,
                Cersei, Asha; RULES.md R8.10/A17: after casualties and retreat); skipped when the
                winner has none or nothing to choose.
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
it has).
"""

from __future__ import annotations

from collections import Counter

from ...ruleset import Event, Owed
from . import cards as hc
from . import position as pos
from .board import UnknownName
from .commands import Ability, Blade, Card, Casualties, Retreat, Support, units_text
from .context import Ctx

STAGES = ("supports", "cards", "casualties", "retreat", "ability")
RAINS_OF_AUTUMN = "rains-of-autumn"
"""In ``state['restrictions']`` for a round of Rains of Autumn: supporting footmen add nothing (CZ p.13)."""
CASUALTY_ORDER = ("footman", "ship", "knight")  # PBEM.md default casualties: weakest first
KEEP_ORDER = ("knight", "ship", "footman")  # units kept first when supply forces some out


# -- small helpers -------------------------------------------------------------------------------------


def _other(b: dict, house: str) -> str:
    return b["defender"] if house == b["attacker"] else b["attacker"]


def _stage_at_or_before(b: dict, stage: str) -> bool:
    return STAGES.index(b["stage"]) <= STAGES.index(stage)


def _units(units) -> str:
    return units_text(tuple(pos.sort_units(units))) if units else "no units"


def _fighting(state: dict, b: dict, house: str) -> list[str]:
    """The units of ``house`` that fight (attacking; defending and not routed)."""
    if house == b["attacker"]:
        return list(b["units"])
    present = Counter(pos.units_in(state, b["area"], house))
    return pos.sort_units((present - Counter(pos.routed_in(state, b["area"]))).elements())


def _has_units(state: dict, b: dict, house: str) -> bool:
    return bool(b["units"]) if house == b["attacker"] else bool(pos.units_in(state, b["area"], house))


def _active(b: dict, house: str, ids) -> bool:
    """``house`` played a card of ``ids`` whose ability is not cancelled."""
    return b["cards"].get(house) in ids and house not in b["cancelled"]


def _army(units) -> str:
    """Units inside a strength breakdown, where commas separate the parts: "1 footman and 1 knight"."""
    return _units(units).replace(", ", " and ")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _find(state: dict, ctx: Ctx, house: str, key: str, area: str, legal) -> tuple[int, object] | None:
    """The instruction of ``plan[key]`` to use: a legal line for this battle area (``IN``) beats a
    general one; within each, the first legal line in the order written."""
    parsed = [(i, ctx.command(line)) for i, line in enumerate(pos.plan(state, house)[key])]
    for want in (area, None):
        for i, command in parsed:
            if getattr(command, "battle_area", None) == want and legal(command):
                return i, command
    return None


def _use(state: dict, house: str, key: str, index: int) -> None:
    """An instruction that served this battle is gone (PBEM.md: for the house's next battle)."""
    del pos.plan(state, house)[key][index]


# -- supports ---------------------------------------------------------------------------------------------


def supporters(state: dict, ctx: Ctx, area: str) -> list[str]:
    """Adjacent areas with a support order that may join the battle at ``area`` (CZ p.10: adjacent only,
    never through ships; ships support land battles too; land units never support a sea battle)."""
    board = ctx.gd.board
    out = []
    for n in board.neighbours(area):
        if pos.order_kind(state, n) != "support" or pos.owner(state, n) is None:
            continue
        if board.is_sea(area) and board.is_land(n):
            continue
        out.append(n)
    return sorted(out, key=ctx.area)


def _support_problem(state: dict, ctx: Ctx, area: str, src: str) -> str:
    board = ctx.gd.board
    if not board.adjacent(src, area):
        return f"{ctx.area(src)} is not adjacent to {ctx.area(area)} (support never goes through ships)"
    if board.is_sea(area) and board.is_land(src):
        return f"land units cannot support the battle at sea in {ctx.area(area)}"
    return f"there is no support order in {ctx.area(src)}"


def _support_line(state: dict, ctx: Ctx, b: dict, house: str, src: str):
    sides = (b["attacker"], b["defender"], None)
    return _find(state, ctx, house, "supports", b["area"],
                 lambda c: c.src == src and c.house in sides)


def support_value(state: dict, ctx: Ctx, b: dict, src: str) -> tuple[int, str]:
    """The strength a declared support adds in this battle: :func:`support_strength`, with ships
    0 when they belong to and support the opponent of an active Salladhor Saan (CZ p.14
    "protivníkových podpůrných lodí": the opponent's own supporting ships)."""
    side = b["supports"][src]
    no_ships = pos.owner(state, src) == side and _active(b, _other(b, side), hc.ZERO_OPPOSING_SUPPORT_SHIPS)
    return support_strength(state, ctx, src, no_ships=no_ships)


def support_strength(state: dict, ctx: Ctx, src: str, *, no_ships: bool = False) -> tuple[int, str]:
    """What the support order in ``src`` adds (CZ p.10): its units + the order's bonus. Routed
    units count 0 (CZ p.11); footmen 0 under Rains of Autumn (CZ p.13). Also used for a march
    into a neutral force (action.py), which is no battle but takes supports all the same."""
    strength = ctx.gd.setup.unit_strength
    units = Counter(pos.units_in(state, src, pos.owner(state, src))) - Counter(pos.routed_in(state, src))
    notes = []
    total = 0
    for unit, n in units.items():
        if unit == "footman" and RAINS_OF_AUTUMN in (state.get("restrictions") or []):
            notes.append("footmen 0: Rains of Autumn")
            continue
        if unit == "ship" and no_ships:
            notes.append("ships 0: Salladhor Saan")
            continue
        total += strength[unit] * n
    total += pos.order_bonus(state, src)
    return total, "; ".join(notes)


# -- strength and result --------------------------------------------------------------------------------------


def strength(state: dict, ctx: Ctx, b: dict, house: str, *, with_cards: bool = True) -> tuple[int, list[str]]:
    """Combat strength of ``house``'s side and its parts, for the reports (CZ p.10-11 step 5 list)."""
    unit_strength = ctx.gd.setup.unit_strength
    parts: list[str] = []
    if house == b["attacker"]:
        extra = next((kind for card, kind in hc.ATTACK_UNIT_BONUS.items() if _active(b, house, {card})), None) \
            if with_cards else None
        units = b["units"]
        total = sum(unit_strength[u] + (u == extra) for u in units)
        parts.append(f"{_army(units)} {total}")
        if b["march_bonus"]:
            parts.append(f"march {b['march_bonus']:+d}")
            total += b["march_bonus"]
    else:
        units = _fighting(state, b, house)
        total = sum(unit_strength[u] for u in units)
        parts.append(f"{_army(units)} {total}")
        routed = pos.routed_in(state, b["area"])
        if routed:
            parts.append(f"routed {_army(routed)} 0")
        if pos.order_kind(state, b["area"]) == "defense":
            bonus = pos.order_bonus(state, b["area"])
            if with_cards and _active(b, house, hc.DEFENSE_DOUBLED):
                bonus *= 2
            parts.append(f"defense {bonus:+d}")
            total += bonus
    for src in b["supporters"]:
        if b["supports"].get(src) == house:
            value, note = support_value(state, ctx, b, src)
            parts.append(f"support from {ctx.area(src)} {value}" + (f" ({note})" if note else ""))
            total += value
    if with_cards and house in b["cards"]:
        card = b["cards"][house]
        value = ctx.gd.card(card).strength
        if _active(b, _other(b, house), hc.ZERO_OPPOSING_CARD):
            value = 0
        parts.append(f"{ctx.card(card)} {value}")
        total += value
    if b["blade"] == house:
        parts.append("Valyrian Steel Blade +1")
        total += 1
    return total, parts


def _decide(state: dict, b: dict, totals: dict) -> str:
    a, d = b["attacker"], b["defender"]
    if totals[a] != totals[d]:
        return a if totals[a] > totals[d] else d
    return min((a, d), key=lambda h: pos.fiefdoms_rank(state, h))  # CZ p.11: higher on Fiefdoms


def _strength_text(ctx: Ctx, house: str, total: int, parts: list[str]) -> str:
    return f"{ctx.house(house)} {total} ({', '.join(parts)})"


def _blade(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """CZ p.11 step 4: the holder (position 1 on Fiefdoms) may add +1, once per round. Decided only by
    the BLADE line sent ahead (PBEM.md): AUTO uses it when the +1 turns a loss into a win."""
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
        totals = {h: strength(state, ctx, b, h)[0] for h in (b["attacker"], b["defender"])}
        without = _decide(state, b, totals)
        totals[holder] += 1
        use = without != holder and _decide(state, b, totals) == holder
    else:
        use = False
    if not use:
        return []
    b["blade"] = holder
    state["blade_used"] = True
    return [Event(f"{ctx.house(holder)} uses the Valyrian Steel Blade: +1.")]


# -- the API ------------------------------------------------------------------------------------------------------


def start(state: dict, ctx: Ctx, *, area: str, attacker: str, origin: str, units: list[str],
          march_bonus: int = 0) -> list[Event]:
    """Open the battle of ``attacker``'s march of ``units`` (already off the board) from ``origin``
    into ``area``, held by another house; the march order is already removed (its modifier is
    ``march_bonus``)."""
    defender = pos.owner(state, area)
    if defender is None or defender == attacker:
        raise ValueError(f"no battle at {area}: it holds no units of a house other than {attacker}")
    if not units:
        raise ValueError("a battle needs attacking units")
    b = {
        "area": area, "attacker": attacker, "defender": defender, "origin": origin,
        "units": pos.sort_units(units), "march_bonus": int(march_bonus), "stage": "supports",
        "supporters": supporters(state, ctx, area), "supports": {}, "cards": {}, "seventh": [],
        "cancelled": [], "strength": {}, "blade": None, "winner": None, "loser": None, "casualties": 0,
    }
    state["battle"] = b
    state["step"] = "battle"
    bonus = f" (march {march_bonus:+d})" if march_bonus else ""
    routed = pos.routed_in(state, area)
    defending = _units(_fighting(state, b, defender)) + (f" and routed {_units(routed)}" if routed else "")
    events = [Event(f"Battle at {ctx.area(area)}: {ctx.house(attacker)} attacks {ctx.house(defender)} with "
                    f"{_units(b['units'])} from {ctx.area(origin)}{bonus}; {ctx.house(defender)} defends with {defending}.")]
    if b["supporters"]:
        listed = ", ".join(f"{ctx.area(s)} ({ctx.house(pos.owner(state, s))})" for s in b["supporters"])
        events.append(Event(f"Support orders that may join the battle at {ctx.area(area)}: {listed}."))
    return events


def pending(state: dict, ctx: Ctx) -> list[Owed]:
    b = state.get("battle")
    if not b:
        return []
    where = ctx.area(b["area"])
    stage = b["stage"]
    if stage == "supports":
        sides = f"{ctx.house(b['attacker'])} attacks {ctx.house(b['defender'])}"
        return [Owed(helper, f"support from {ctx.area(src)} in the battle at {where} ({sides})", "step",
                     _support_line(state, ctx, b, helper, src) is not None)
                for src in b["supporters"] for helper in [pos.owner(state, src)]]
    if stage == "cards":
        return [Owed(h, f"house card for the battle at {where}", "step", _card_line(state, ctx, b, h) is not None)
                for h in (b["attacker"], b["defender"])]
    if stage == "ability":
        card = b["cards"][b["winner"]]
        return [Owed(b["winner"], f"{ctx.card(card)}: {hc.WHAT[card]} (battle at {where})", "step",
                     _ability_line(state, ctx, b) is not None)]
    if stage == "casualties":
        n, available = _casualty_count(state, b)
        if not _casualty_choice(n, available):
            return []
        return [Owed(b["loser"], f"casualties: {_plural(n, 'unit')} of {_units(available)} in the battle at {where}",
                     "step", _casualty_line(state, ctx, b, n, available) is not None)]
    if stage == "retreat":
        if b["loser"] != b["defender"]:
            return []
        survivors = _fighting(state, b, b["defender"])
        legal, _ = retreat_options(state, ctx, b, survivors)
        if not survivors or len(legal) < 2:
            return []
        return [Owed(b["loser"], f"retreat from {where} (to {', '.join(ctx.area(a) for a in legal)})", "step",
                     _retreat_line(state, ctx, b, legal) is not None)]
    return []


def advance(state: dict, ctx: Ctx, force: bool) -> list[Event]:
    """Resolve the current sub-step with the instructions on file and the PBEM.md defaults for
    what is missing; the last one ends the battle (``battle`` None, ``step`` back to ``march``)."""
    b = state["battle"]
    stage = b["stage"]
    if stage == "supports":
        return _resolve_supports(state, ctx, b)
    if stage == "cards":
        return _resolve_cards(state, ctx, b)
    if stage == "ability":
        return _resolve_ability(state, ctx, b)
    if stage == "casualties":
        return _resolve_casualties(state, ctx, b)
    if stage == "retreat":
        return _resolve_retreat(state, ctx, b)
    raise ValueError(f"unknown battle stage {stage!r}")


def check_instruction(state: dict, ctx: Ctx, house: str, command) -> str | None:
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
    if isinstance(command, Card):
        card = ctx.gd.card(command.card_id)
        if card.house != house:
            return f"{card.name} is not one of your house cards"
        if not fights:
            return f"you do not fight in the battle at {ctx.area(area)}" if here else None
        if not _stage_at_or_before(b, "cards"):
            return f"the house cards of the battle at {ctx.area(area)} are already played" if here else None
        if command.card_id not in state["hands"][house]:
            return f"{card.name} is not in your hand (played already)"
        return None
    if isinstance(command, Ability):
        return _check_ability(state, ctx, b, house, command)
    if isinstance(command, Casualties):
        if not fights:
            return f"you do not fight in the battle at {ctx.area(area)}" if here else None
        if house == b["loser"] and _stage_at_or_before(b, "casualties"):
            n, available = _casualty_count(state, b)
            return _casualty_problem(n, available, command.units)
        if here and house == b["winner"]:
            return f"you won the battle at {ctx.area(area)}: the loser takes the casualties"
        if here and b["winner"] is not None:
            return f"the casualties of the battle at {ctx.area(area)} are already taken"
        if here and Counter(command.units) - Counter(_fighting(state, b, house)):
            return f"your fighting units in {ctx.area(area)} are {_units(_fighting(state, b, house))}"
        return None
    if isinstance(command, Retreat):
        if not fights:
            return f"you do not fight in the battle at {ctx.area(area)}" if here else None
        if here and house == b["winner"]:
            return f"you won the battle at {ctx.area(area)}: there is no retreat"
        if house == b["attacker"]:
            return (f"a losing attacker always retreats to the area it came from ({ctx.area(b['origin'])})"
                    if here else None)
        if here and not _stage_at_or_before(b, "retreat"):
            return f"the retreat from {ctx.area(area)} is already made"
        if b["stage"] == "retreat" and house == b["loser"]:
            survivors = _fighting(state, b, house)
            legal, _ = retreat_options(state, ctx, b, survivors)
            if command.area in legal:
                return None
            return _retreat_error(state, ctx, b, command.area, legal, survivors)
        if here:
            problem = _retreat_problem(state, ctx, b, command.area)
            if problem:
                return f"{ctx.area(command.area)} is not a legal retreat: {problem}"
        return None
    return None


# -- sub-step: supports --------------------------------------------------------------------------------------------


def _check_support(state: dict, ctx: Ctx, b: dict, house: str, command: Support, here: bool) -> str | None:
    area, src = b["area"], command.src
    if src not in b["supporters"]:
        return f"{ctx.area(src)} cannot support the battle at {ctx.area(area)}: " \
               f"{_support_problem(state, ctx, area, src)}" if here else None
    if pos.owner(state, src) != house:
        return f"you have no support order in {ctx.area(src)}"
    if command.house is not None and command.house not in (b["attacker"], b["defender"]):
        return (f"{ctx.house(command.house)} does not fight in the battle at {ctx.area(area)} "
                f"({ctx.house(b['attacker'])} attacks {ctx.house(b['defender'])})") if here else None
    if b["stage"] != "supports" and here:
        return f"the supports of the battle at {ctx.area(area)} are already declared"
    return None


def _resolve_supports(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    events = []
    for src in b["supporters"]:
        helper = pos.owner(state, src)
        found = _support_line(state, ctx, b, helper, src)
        side = found[1].house if found else None
        b["supports"][src] = side
        if found is None:
            events.append(Event(f"{ctx.house(helper)} sent no support decision for {ctx.area(src)}; default: no support."))
        elif side is None:
            events.append(Event(f"{ctx.house(helper)} does not support from {ctx.area(src)}."))
        else:
            value, note = support_value(state, ctx, b, src)
            events.append(Event(f"{ctx.house(helper)} supports {ctx.house(side)} from {ctx.area(src)}: +{value}"
                                + (f" ({note})" if note else "") + "."))
    texts = [_strength_text(ctx, h, *strength(state, ctx, b, h, with_cards=False)) for h in (b["attacker"], b["defender"])]
    events.append(Event(f"Strength at {ctx.area(b['area'])} before the house cards: {'; '.join(texts)}."))
    b["stage"] = "cards"
    return events


# -- sub-step: house cards, the abilities that act at once, the blade, the result --------------------------------------


def _card_line(state: dict, ctx: Ctx, b: dict, house: str):
    hand = state["hands"][house]
    return _find(state, ctx, house, "cards", b["area"], lambda c: c.card_id in hand)


def _resolve_cards(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    events = []
    a, d = b["attacker"], b["defender"]
    for house in (a, d):
        hand = state["hands"][house]
        if not hand:  # cannot happen with the seventh-card rule; never leave a house without a card
            state["hands"][house] = hand = [c.id for c in ctx.gd.house_cards[house]]
            state["discards"][house] = []
        found = _card_line(state, ctx, b, house)
        if found:
            card = found[1].card_id
            _use(state, house, "cards", found[0])
        else:
            card = hc.default_card(state, ctx, house)
            events.append(Event(f"{ctx.house(house)} sent no house card; default: {ctx.card(card)}."))
        hand.remove(card)
        if not hand:
            b["seventh"].append(house)
        b["cards"][house] = card
    for house in (a, d):
        card = ctx.gd.card(b["cards"][house])
        icons = []
        if card.swords:
            icons.append(_plural(card.swords, "sword"))
        if card.fortifications:
            icons.append(_plural(card.fortifications, "fortification"))
        events.append(Event(f"{ctx.house(house)} plays {card.name} (strength {card.strength}"
                            + "".join(f", {i}" for i in icons) + ")."))
    events += _immediate_abilities(state, ctx, b)
    # Ser Loras may kill the last unit of a side: that side loses at once (see the report; not in CZ).
    emptied = [h for h in (a, d) if not _has_units(state, b, h)]
    if emptied:
        loser = emptied[0]
        winner = _other(b, loser)
        b["strength"] = {}
        events.append(Event(f"{ctx.house(loser)} has no units left in the battle at {ctx.area(b['area'])}: "
                            f"{ctx.house(winner)} wins the battle at {ctx.area(b['area'])}."))
    else:
        events += _blade(state, ctx, b)
        totals = {}
        texts = []
        for house in (a, d):
            totals[house], parts = strength(state, ctx, b, house)
            texts.append(_strength_text(ctx, house, totals[house], parts))
        b["strength"] = totals
        events.append(Event(f"Strength at {ctx.area(b['area'])}: {'; '.join(texts)}."))
        winner = _decide(state, b, totals)
        loser = _other(b, winner)
        if totals[a] == totals[d]:
            events.append(Event(f"{ctx.house(a)} and {ctx.house(d)} tie at {totals[a]}: {ctx.house(winner)} is higher "
                                f"on the Fiefdoms track."))
        events.append(Event(f"{ctx.house(winner)} wins the battle at {ctx.area(b['area'])}."))
    b["winner"], b["loser"] = winner, loser
    win_card, lose_card = ctx.gd.card(b["cards"][winner]), ctx.gd.card(b["cards"][loser])
    b["casualties"] = max(0, win_card.swords - lose_card.fortifications)
    b["stage"] = "casualties"
    if emptied:  # nothing is left to decide: no casualties, nobody to retreat (and no area left empty mid-battle)
        return events + _resolve_retreat(state, ctx, b)
    return events


def _immediate_abilities(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """The abilities that act as soon as the cards are shown (CZ p.11, p.14)."""
    events = []
    area = b["area"]
    for house in (b["attacker"], b["defender"]):
        other = _other(b, house)
        if b["cards"][house] in hc.CANCEL_OPPOSING_ABILITY and b["cards"][other] in hc.ALL_ABILITIES:
            b["cancelled"].append(other)
            events.append(Event(f"{ctx.card(b['cards'][house])} cancels the ability of {ctx.card(b['cards'][other])}."))
    for house in (b["attacker"], b["defender"]):
        other = _other(b, house)
        card = b["cards"][house]
        name = ctx.card(card)
        if _active(b, house, hc.DISCARD_DEFENSE):
            if other == b["defender"] and pos.order_kind(state, area) == "defense":
                kind = state["orders"][area]
                pos.remove_order(state, area)
                events.append(Event(f"{name}: {ctx.house(other)}'s {kind} order in {ctx.area(area)} is discarded."))
            else:
                events.append(Event(f"{name}: {ctx.house(other)} has no defense order in {ctx.area(area)}; no effect."))
        if _active(b, house, hc.KILL_FOOTMAN):
            events.append(_kill_footman(state, ctx, b, other, name))
        if _active(b, house, hc.ZERO_OPPOSING_CARD):
            events.append(Event(f"{name}: the strength of {ctx.card(b['cards'][other])} counts 0."))
        if _active(b, house, hc.ZERO_OPPOSING_SUPPORT_SHIPS):
            events.append(Event(f"{name}: {ctx.house(other)}'s own supporting ships count 0."))
        if _active(b, house, hc.DEFENSE_DOUBLED):
            if house == b["defender"] and pos.order_kind(state, area) == "defense":
                events.append(Event(f"{name}: {ctx.house(house)}'s defense order counts double."))
            else:
                events.append(Event(f"{name}: {ctx.house(house)} has no defense order in {ctx.area(area)}; no effect."))
        if card in hc.ATTACK_UNIT_BONUS and _active(b, house, {card}):
            kind = hc.ATTACK_UNIT_BONUS[card]
            if house == b["attacker"]:
                events.append(Event(f"{name}: attacking {kind}s add 1 more each."))
            else:
                events.append(Event(f"{name}: {ctx.house(house)} is not attacking; no effect."))
    return events


def _kill_footman(state: dict, ctx: Ctx, b: dict, victim: str, name: str) -> Event:
    """Ser Loras: one of the victim's attacking or defending footmen dies (CZ p.14 "útočícího nebo
    bránícího se pěšáka"). A routed footman neither attacks nor defends (it adds no strength and
    is never a casualty), so it is spared."""
    area = b["area"]
    if victim == b["attacker"]:
        if "footman" not in b["units"]:
            return Event(f"{name}: {ctx.house(victim)} has no attacking footman; no effect.")
        units = list(b["units"])
        units.remove("footman")
        b["units"] = units
    else:
        present = pos.units_in(state, area, victim)
        if "footman" not in _fighting(state, b, victim):
            return Event(f"{name}: {ctx.house(victim)} has no defending footman; no effect.")
        present.remove("footman")  # a fighting footman: the routed marks stay as they are
        pos.set_units(state, area, victim, present)
    return Event(f"{name} kills one of {ctx.house(victim)}'s footmen in {ctx.area(area)}.")


# -- sub-step: the winner's ability with a choice --------------------------------------------------------------------


def _ability_line(state: dict, ctx: Ctx, b: dict):
    card = b["cards"][b["winner"]]
    return _find(state, ctx, b["winner"], "abilities", b["area"],
                 lambda c: c.card_id == card and hc.parse_choice(state, ctx, b, card, c.choice)[1] is None)


def _resolve_ability(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    winner = b["winner"]
    card = b["cards"][winner]
    found = _ability_line(state, ctx, b)
    if found is None:
        events = [Event(f"{ctx.house(winner)} sent no choice for {ctx.card(card)}; default: the ability is not used.")]
    else:
        _use(state, winner, "abilities", found[0])
        value, _ = hc.parse_choice(state, ctx, b, card, found[1].choice)
        if value is None:
            events = [Event(f"{ctx.house(winner)} does not use the ability of {ctx.card(card)}.")]
        else:
            events = hc.apply_choice(state, ctx, b, card, value)
    return events + _end(state, ctx, b)


def _check_ability(state: dict, ctx: Ctx, b: dict, house: str, command: Ability) -> str | None:
    card = ctx.gd.card(command.card_id)
    if card.house != house:
        return f"{card.name} is not one of your house cards"
    if card.id not in hc.WIN_CHOICE:
        return f"{card.name} has no ability with a choice" if card.id in hc.ALL_ABILITIES else f"{card.name} has no ability"
    if b["stage"] == "ability" and house == b["winner"] and b["cards"][house] == card.id:
        return hc.parse_choice(state, ctx, b, card.id, command.choice)[1]
    text = command.choice
    if " ".join(text.split()).casefold() in hc.NO_WORDS:
        return None
    try:  # only the form can be checked before the battle's result
        if card.id == "maester-luwin":
            ctx.gd.resolve_card(text, house)
        elif card.id == "melisandre":
            ctx.gd.resolve_card(text)
        elif card.id == "renly-baratheon":
            if " ".join(text.split()).casefold() not in hc.YES_WORDS:
                ctx.gd.board.resolve(text)
        else:
            ctx.gd.board.resolve(text)
    except UnknownName as exc:
        return str(exc)
    return None


# -- sub-step: casualties ----------------------------------------------------------------------------------------------


def _casualty_count(state: dict, b: dict) -> tuple[int, list[str]]:
    """(how many units the loser loses, the units it may lose): routed units never (CZ p.11)."""
    available = _fighting(state, b, b["loser"])
    return min(b["casualties"], len(available)), available


def _casualty_choice(n: int, available: list[str]) -> bool:
    """Does the loser have a choice to make?"""
    return 0 < n < len(available) and len(set(available)) > 1


def _casualty_problem(n: int, available: list[str], units) -> str | None:
    if len(units) != n:
        return f"you lose exactly {_plural(n, 'unit')} (of {_units(available)})"
    if Counter(units) - Counter(available):
        return f"you have only {_units(available)} fighting in this battle (routed units are never casualties)"
    return None


def _casualty_line(state: dict, ctx: Ctx, b: dict, n: int, available: list[str]):
    return _find(state, ctx, b["loser"], "casualties", b["area"],
                 lambda c: _casualty_problem(n, available, c.units) is None)


def _resolve_casualties(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    winner, loser, area = b["winner"], b["loser"], b["area"]
    b["stage"] = "retreat"
    n, available = _casualty_count(state, b)
    win_card, lose_card = ctx.gd.card(b["cards"][winner]), ctx.gd.card(b["cards"][loser])
    why = (f"{_plural(win_card.swords, 'sword')} on {win_card.name} against "
           f"{_plural(lose_card.fortifications, 'fortification')} on {lose_card.name}")
    if n == 0:
        if b["casualties"] and not available:
            return [Event(f"{ctx.house(loser)} has no fighting units left to lose ({why}).")]
        return [Event(f"{ctx.house(loser)} takes no casualties ({why}).")]
    events = []
    found = _casualty_line(state, ctx, b, n, available)
    if found:
        units = list(found[1].units)
        _use(state, loser, "casualties", found[0])
    else:
        units = sorted(available, key=CASUALTY_ORDER.index)[:n]
        if _casualty_choice(n, available):
            events.append(Event(f"{ctx.house(loser)} sent no casualties; default: the weakest units, {_units(units)}."))
    if loser == b["attacker"]:
        left = Counter(b["units"]) - Counter(units)
        b["units"] = pos.sort_units(left.elements())
    else:
        left = Counter(pos.units_in(state, area, loser)) - Counter(units)
        pos.set_units(state, area, loser, left.elements())  # only fighting units die: the routed marks stay
    events.append(Event(f"{ctx.house(loser)} loses {_units(units)} in {ctx.area(area)} ({why})."))
    if loser == b["defender"] and not pos.occupant(state, area):  # wiped out: the attacker moves in at once
        events += _resolve_retreat(state, ctx, b)
    return events


# -- sub-step: retreat, conquest, discards ---------------------------------------------------------------------------------


def _retreat_problem(state: dict, ctx: Ctx, b: dict, dest: str) -> str | None:
    """Why the defender may not retreat to ``dest`` at all (supply aside), or None (CZ p.11)."""
    board, area, loser = ctx.gd.board, b["area"], b["defender"]
    if dest == area:
        return "it is the battle area"
    if dest == b["origin"]:
        return "the attacker came from there"
    if board.is_sea(area):
        if not board.is_sea(dest) or not board.adjacent(dest, area):
            return f"ships retreat only to a sea area adjacent to {ctx.area(area)}"
    elif board.is_sea(dest):
        return "footmen and knights stay on land"
    elif dest not in board.reach_by_march(area, pos.ship_seas(state, ctx.gd, loser)):
        return f"it is not adjacent to {ctx.area(area)} nor reachable through your ships"
    other = pos.owner(state, dest)
    if other and other != loser:
        return f"it holds {ctx.house(other)}'s units"
    if dest in state["neutral"]:
        return "a neutral force holds it"
    token = state["control"].get(dest)
    if token and token != loser:
        return f"it holds {ctx.house(token)}'s power token"
    return None  # an unoccupied enemy home area counts as empty (CZ p.11's definition; RULES.md A12)


def _fit(state: dict, ctx: Ctx, b: dict, dest: str, units: list[str], loser: str | None = None) -> int:
    """How many of ``units`` may retreat to ``dest`` within the loser's supply (CZ p.11 rule 3)."""
    loser = loser or b["defender"]
    there = pos.units_in(state, dest, loser)
    keep = sorted(units, key=KEEP_ORDER.index)
    for k in range(len(keep), 0, -1):
        if pos.supply_after(state, ctx.gd, loser, {b["area"]: [], dest: there + keep[:k]}):
            return k
    return 0


def retreat_options(state: dict, ctx: Ctx, b: dict, units: list[str]) -> tuple[list[str], int]:
    """(the legal retreat areas, how many units may retreat there). Legal: reachable (adjacent, or
    through the loser's own ships for land units), empty or the loser's, not where the attacker came
    from, and within supply; when no area takes every unit, the areas that take the most (the rest
    are destroyed). Nothing legal: ([], 0), the units are destroyed."""
    board, area = ctx.gd.board, b["area"]
    if board.is_sea(area):
        candidates = [n for n in board.neighbours(area) if board.is_sea(n)]
    else:
        candidates = sorted(board.reach_by_march(area, pos.ship_seas(state, ctx.gd, b["defender"])))
    fits = {n: _fit(state, ctx, b, n, units) for n in candidates if _retreat_problem(state, ctx, b, n) is None}
    best = max(fits.values(), default=0)
    if best == 0:
        return [], 0
    return sorted((n for n, k in fits.items() if k == best), key=ctx.area), best


def _retreat_error(state: dict, ctx: Ctx, b: dict, dest: str, legal: list[str], units: list[str]) -> str:
    problem = _retreat_problem(state, ctx, b, dest)
    if problem is None:
        k = _fit(state, ctx, b, dest, units)
        problem = ("your supply limit leaves no room there" if k == 0 else
                   f"only {k} of your {len(units)} units would stay within supply there; other areas take more")
    named = ", ".join(ctx.area(a) for a in legal) if legal else "none: your units will be destroyed"
    return f"{ctx.area(dest)} is not a legal retreat: {problem} (legal: {named})"


def _retreat_line(state: dict, ctx: Ctx, b: dict, legal: list[str]):
    return _find(state, ctx, b["defender"], "retreats", b["area"], lambda c: c.area in legal)


def _resolve_retreat(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    events = []
    area, attacker, defender = b["area"], b["attacker"], b["defender"]
    if b["loser"] == attacker:
        if b["units"]:  # back where they came from, within supply (CZ p.11 rule 3: the rest are destroyed)
            keep = sorted(b["units"], key=KEEP_ORDER.index)
            fit = _fit(state, ctx, b, b["origin"], keep, attacker)
            kept, lost = keep[:fit], keep[fit:]
            text = f"{ctx.house(attacker)} retreats "
            if kept:
                pos.add_units(state, b["origin"], attacker, kept, routed=True)
                text += f"{_units(kept)} from {ctx.area(area)} to {ctx.area(b['origin'])}, where they are routed"
            if lost:
                text += ("; " if kept else f"from {ctx.area(area)}: ") + f"{_units(lost)} destroyed: supply limit"
            events.append(Event(text + "."))
            b["units"] = []
    else:
        events += _defender_retreats(state, ctx, b)
        events += _conquer(state, ctx, b)
    return events + _after_retreat(state, ctx, b)


def _after_retreat(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """The winner's "if you win" abilities (RULES.md R8.10): Ser Jaime at once, the others may ask."""
    events = []
    winner = b["winner"]
    card = ctx.gd.card(b["cards"][winner])
    if _active(b, winner, hc.WIN_POWER):
        want = hc.WIN_POWER[card.id]
        got = pos.gain_power(state, winner, want, ctx.gd.setup.power_limit)
        capped = "" if got == want else f" (of {want}: a house holds at most {ctx.gd.setup.power_limit})"
        events.append(Event(f"{card.name}: {ctx.house(winner)} gains {got} power{capped}."))
    if _active(b, winner, hc.WIN_CHOICE):
        if hc.choice_options(state, ctx, b, card.id):
            b["stage"] = "ability"
            return events
        events.append(Event(f"{card.name}: {ctx.house(winner)} has nothing to choose; the ability has no effect."))
    return events + _end(state, ctx, b)


def _end(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    events = _discard_cards(state, ctx, b)
    state["battle"] = None
    state["step"] = "march"
    return events


def _defender_retreats(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    events = []
    area, loser = b["area"], b["defender"]
    routed = pos.routed_in(state, area)
    survivors = _fighting(state, b, loser)
    legal, fit = retreat_options(state, ctx, b, survivors) if survivors else ([], 0)
    pos.set_units(state, area, loser, [])
    if routed:
        events.append(Event(f"{ctx.house(loser)}'s routed {_units(routed)} in {ctx.area(area)} must retreat again "
                            f"and {'are' if len(routed) > 1 else 'is'} destroyed."))
    if not survivors:
        return events
    if not legal:
        events.append(Event(f"{ctx.house(loser)} has no legal retreat from {ctx.area(area)}: "
                            f"{_units(survivors)} destroyed."))
        return events
    found = _retreat_line(state, ctx, b, legal)
    if found:
        dest = found[1].area
        _use(state, loser, "retreats", found[0])
    elif len(legal) == 1:
        dest = legal[0]
    else:
        dest = min(legal, key=lambda a: (-len(pos.units_in(state, a, loser)), ctx.area(a)))
        events.append(Event(f"{ctx.house(loser)} sent no retreat; default: {ctx.area(dest)}."))
    keep = sorted(survivors, key=KEEP_ORDER.index)
    kept, lost = keep[:fit], keep[fit:]
    pos.add_units(state, dest, loser, kept, routed=True)
    text = (f"{ctx.house(loser)} retreats {_units(kept)} from {ctx.area(area)} to {ctx.area(dest)}, "
            f"where they are routed")
    if lost:
        text += f"; {_units(lost)} destroyed: supply limit"
    events.append(Event(text + "."))
    return events


def _conquer(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """The attacker takes the area (CZ p.12): the defender's orders there and its power token go."""
    area, attacker, defender = b["area"], b["attacker"], b["defender"]
    events = []
    state["routed"].pop(area, None)
    pos.set_units(state, area, attacker, b["units"])
    text = f"{ctx.house(attacker)} takes {ctx.area(area)} with {_units(b['units'])}"
    if area in state["orders"]:
        text += f"; {ctx.house(defender)}'s {state['orders'][area]} order there is removed"
        pos.remove_order(state, area)
    token = state["control"].get(area)
    if token and token != attacker:
        del state["control"][area]
        text += f"; {ctx.house(token)}'s power token there is removed"
    events.append(Event(text + "."))
    b["units"] = []
    return events


def _discard_cards(state: dict, ctx: Ctx, b: dict) -> list[Event]:
    """CZ p.12: played cards are discarded; a house that played its seventh card takes all seven back
    (also when Melisandre emptied its hand: no house is ever left without a card)."""
    events = []
    for house in (b["attacker"], b["defender"]):
        card = b["cards"][house]
        if house in b["seventh"] or not state["hands"][house]:
            state["hands"][house] = [c.id for c in ctx.gd.house_cards[house]]
            state["discards"][house] = []
            events.append(Event(f"{ctx.house(house)} has played its last house card: all seven return to its hand."))
        else:
            state["discards"][house].append(card)
    return events
