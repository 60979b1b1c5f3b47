"""``agot2e-ru``: the Russian fan variant (seed 003) as a judge ruleset: the shared AGoT engine with the
2nd edition's data and rules (:mod:`.edition`) and the variant's rules as game options (:mod:`.variant`).

Every option is on unless the GM switches it off (``--option half-support=no``); the options are fixed
at creation and recorded in the game (``state["options"]``); RULES.md section 0 says what is played and
what the seed leaves out. A rules case's ``options`` switch options off (``options: {half-support: no}``).
"""

from __future__ import annotations

from ...cases import check_shapes
from ...ruleset import RulesetError, register
from ..agot import caseposition, hostages, ironbank, ledger, mercenaries
from ..agot.board import UnknownName
from ..agot import position as pos
from ..agot.context import ctx_of
from ..agot.newgame import initial_state
from ..agot.ruleset import AgotRuleset
from .edition import EDITION
from .variant import NEEDS, OPTIONS

YES_NO = ("yes", "no")


def read_options(given: dict[str, str]) -> dict[str, str]:
    """Every variant option -> yes or no (yes unless ``given`` says no). A wrong name or value is refused
    with the list and an example; so is an option on without the option it needs (``NEEDS``: the
    mercenaries are paid in gold). Switching the needed option off switches the option needing it off
    too, unless it is named. ``preview=yes``, which the variant needed while it was being built, is
    still accepted and changes nothing (older scripts and games keep working)."""
    given = {str(k): {True: "yes", False: "no"}.get(v, str(v).lower()) if isinstance(v, bool) else str(v).lower()
             for k, v in given.items()}  # a case's YAML reads yes/no as booleans
    unknown = sorted(set(given) - set(OPTIONS) - {"preview", "tides-of-battle"})
    wrong = sorted(k for k, v in given.items() if k not in ("preview",) and k not in unknown and v not in YES_NO)
    example = "--option half-support=no --option tides-of-battle=yes"
    if unknown or wrong:
        problem = f"unknown option {', '.join(unknown)}" if unknown else f"{', '.join(wrong)} takes yes or no"
        raise RulesetError(f"agot2e-ru: {problem}; its options (yes or no, every one yes unless set):"
                           f" {', '.join(OPTIONS)}, tides-of-battle (no unless set); example: {example}")
    chosen = {name: given.get(name, "yes") for name in OPTIONS}
    for option, needed in NEEDS.items():  # e.g. hostages are ransomed in gold: no hostages without gold-economy
        if option not in given and chosen[needed] == "no":
            chosen[option] = "no"  # (not asked for: it goes with what it needs)
        if chosen[option] == "yes" and chosen[needed] == "no":
            raise RulesetError(f"agot2e-ru: the option {option} needs {needed} (its payments are in gold dragons);"
                               f" switch both on, or {option} off too: --option {needed}=no --option {option}=no")
    return chosen


def apply_setup(state: dict, *, start_units: bool = True) -> dict:
    """What the options change in a new game's setup: the neutral garrisons (``neutral-garrisons``), on
    the castles no unit holds (no start units stand there; a rules case's may); the pieces of each house
    (``variant-units``), a house without knights (Greyjoy) starting with footmen where the 2nd edition's
    screen has knights (``start_units``; ours: RULES.md D13)."""
    ctx = ctx_of(state)
    if ctx.on("gold-economy"):  # every purse starts with the seed's 5 dragons (agot/gold.py)
        state["gold"] = {house: ctx.params.starting_gold for house in state["houses"]}
        ironbank.open_accounts(state)  # no loans (P16)
        ledger.start(state)  # the history of the transactions (P13-P16)
    if ctx.on("hostages"):  # the cards taken hostage and those executed (agot/hostages.py)
        state["hostages"] = {"held": [], "executed": []}
    if ctx.on("mercenaries"):  # every company for hire (agot/mercenaries.py)
        state["mercenaries"] = {company: None for company in ctx.params.mercenaries.companies}
    if ctx.on("neutral-garrisons"):
        state["neutral"].update({a: n for a, n in ctx.params.neutral_garrisons.items() if not state["areas"].get(a)})
    if ctx.on("variant-units"):
        state["unit_limits"] = {h: ctx.params.unit_limits(h) for h in state["houses"]}
        for holders in state["areas"].values() if start_units else ():
            for house, units in holders.items():
                if not state["unit_limits"][house]["knight"]:
                    holders[house] = pos.sort_units(["footman" if u == "knight" else u for u in units])
    return state


VARIANT_SHAPES = {  # the variant's own keys of a case position (the others: caseposition.POSITION_SHAPES)
    "options": (dict[str, str | bool], "options: {hostages: no}"),
    "gold": (dict[str, int], "gold: {stark: 5}"),
    "debts": (dict[str, int], "debts: {stark: 2}"),
    "loans": (dict[str, int], "loans: {stark: 1}"),
    "hostages": (list[dict[str, str | int | bool]], "hostages: [{card: Eddard Stark, holder: lannister, since: 2}]"),
    "mercenaries": (dict[str, str | None], "mercenaries: {golden-company: lannister}"),
}


class Agot2eRu(AgotRuleset):
    rules = EDITION
    case_keys = AgotRuleset.case_keys | frozenset(VARIANT_SHAPES)

    def new_game(self, players: list[str], options: dict[str, str], seed: int) -> dict:
        chosen = read_options(options)
        state = initial_state(self.rules, players, seed)
        state["options"] = chosen
        if options.get("tides-of-battle", "no") == "yes":  # agot2e's option, as agot2e reads it (B27)
            state["tides_of_battle"] = True
        return apply_setup(state)

    def case_state(self, position: dict) -> dict:
        """A rules case's position: every option on unless its ``options`` says no; the neutral garrisons
        placed unless the position names its ``neutral`` forces."""
        check_shapes(position, VARIANT_SHAPES)
        chosen = read_options(position.get("options") or {})
        hostage_step = position.get("step") == "hostages"  # a case that starts in the hostage phase
        state = caseposition.case_state(self.rules, {k: v for k, v in position.items()
                                                     if k not in ("options", "gold", "debts", "loans", "hostages", "step",
                                                                  "mercenaries")}
                                        | ({"step": position["step"]} if "step" in position and not hostage_step else {}),
                                        chosen)
        state["options"] = chosen
        neutral = state["neutral"]
        state = apply_setup(state, start_units="areas" not in position)
        if "neutral" in position:
            state["neutral"] = neutral
        for key in ("gold", "debts", "loans"):  # gold-economy: a case's purses (else 5 each) and Iron Bank accounts
            for house, n in (position.get(key) or {}).items():
                if key not in state or str(house).lower() not in state[key]:
                    raise RulesetError(f"{key} for {house}: only with gold-economy, for a house in play")
                state[key][str(house).lower()] = int(n)
        _case_hostages(state, position)
        for company, house in (position.get("mercenaries") or {}).items():  # mercenaries: who holds which company
            held = state.get("mercenaries")
            if held is None or company not in held or (house is not None and str(house).lower() not in
                                                       (*state["houses"], "gone")):
                raise RulesetError(f"mercenaries: {company}: {house}: only with the option mercenaries, a company of"
                                   f" variant-params and a house in play, gone or null")
            held[company] = None if house is None else str(house).lower()
        wrong = mercenaries.violations(state, ctx_of(state))  # sellswords only of a company's holder
        if wrong:
            raise RulesetError(f"mercenaries: {'; '.join(wrong)}")
        if hostage_step:
            state.update(phase="hostages", step="hostages")
            hostages.start(state, ctx_of(state))
        for house in state["houses"]:  # a case's own units within the variant's pieces (sellswords: the company's)
            over = {u: n for u, n in pos.house_units(state, house).items()
                    if u != "sellsword" and n > pos.unit_limit(state, ctx_of(state).gd, house, u)}
            if over:
                raise RulesetError(f"{house} has more units than it owns: {over}")
        return state


def _case_hostages(state: dict, position: dict) -> None:
    """A case's hostages: ``hostages: [{card: Eddard Stark, holder: lannister, since: 2}, ...]`` (held
    since that round, default the case's), each out of its owner's hand and discards; ``executed: [card]``."""
    given = position.get("hostages")
    if not given:
        return
    if "hostages" not in state:
        raise RulesetError("hostages: only with the option hostages")
    gd = ctx_of(state).gd
    for item in given:
        try:
            card = gd.resolve_card(str(item["card"]))
        except (KeyError, TypeError, UnknownName) as exc:
            raise RulesetError(f"hostages: {item!r}: name a house card ({exc})") from None
        holder = str(item.get("holder", "")).lower()
        if card.house not in state["houses"] or holder not in state["houses"] or holder == card.house:
            raise RulesetError(f"hostages: {card.name} held by {holder or '?'}: both houses in play, not the same")
        for key in ("hands", "discards"):
            if card.id in state[key][card.house]:
                state[key][card.house].remove(card.id)
        entry = {"card": card.id, "house": card.house, "holder": holder}
        if item.get("executed"):
            state["hostages"]["executed"].append(entry)
        else:
            since = item.get("since", state["round"])
            if type(since) is not int:
                raise RulesetError(f"hostages: {card.name}: since: expected a round number, found {since!r} "
                                   f"(example: {VARIANT_SHAPES['hostages'][1]})")
            state["hostages"]["held"].append({**entry, "since": since})


AGOT2E_RU = register(Agot2eRu())
