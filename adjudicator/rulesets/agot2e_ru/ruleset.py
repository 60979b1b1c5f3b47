"""``agot2e-ru``: the Russian fan variant (seed 003) as a judge ruleset: the shared AGoT engine with the
2nd edition's data and rules (:mod:`.edition`) and the variant's rules as game options (:mod:`.variant`).

Every option is on unless the GM switches it off (``--option half-support=no``); the options are fixed
at creation and recorded in the game (``state["options"]``). Not complete yet (RULES.md section 0): the
economy, the Iron Bank and the modules are not played, so ``new_game`` refuses unless the GM asks for the
preview (``--option preview=yes``), like agot2e's. Rules cases (``judge case tests/cases/agot2e-ru``)
need no preview; a case's ``options`` switch options off (``options: {half-support: no}``).
"""

from __future__ import annotations

from ...ruleset import RulesetError, register
from ..agot import caseposition, ironbank, ledger, mercenaries
from ..agot import position as pos
from ..agot.context import ctx_of
from ..agot.newgame import initial_state
from ..agot.ruleset import AgotRuleset
from .edition import EDITION
from .variant import NEEDS, OPTIONS

YES_NO = ("yes", "no")


def read_options(given: dict[str, str], *, preview: bool) -> dict[str, str]:
    """Every variant option -> yes or no (yes unless ``given`` says no); ``preview`` is the GM's
    ``preview=yes``, which the variant needs until it is complete. A wrong name or value is refused
    with the list and an example; so is an option on without the option it needs (``NEEDS``: the
    mercenaries are paid in gold). A rules case (``preview``) that switches the needed option off switches
    the option needing it off too, unless it names it."""
    given = {str(k): {True: "yes", False: "no"}.get(v, str(v).lower()) if isinstance(v, bool) else str(v).lower()
             for k, v in given.items()}  # a case's YAML reads yes/no as booleans
    unknown = sorted(set(given) - set(OPTIONS) - {"preview", "tides-of-battle"})
    wrong = sorted(k for k, v in given.items() if k not in ("preview",) and k not in unknown and v not in YES_NO)
    example = "--option preview=yes --option half-support=no"
    if unknown or wrong:
        problem = f"unknown option {', '.join(unknown)}" if unknown else f"{', '.join(wrong)} takes yes or no"
        raise RulesetError(f"agot2e-ru: {problem}; its options (yes or no, every one yes unless set):"
                           f" {', '.join(OPTIONS)}, tides-of-battle (no unless set); example: {example}")
    if not preview and given.get("preview") != "yes":
        raise RulesetError("agot2e-ru is not complete yet: the variant's economy (gold, TRADE, the Iron Bank) and"
                           " its modules are still to come (adjudicator/rulesets/agot2e_ru/RULES.md, section 0);"
                           f" to play the preview by the rules done so far: {example}")
    chosen = {name: given.get(name, "yes") for name in OPTIONS}
    for option, needed in NEEDS.items():
        if chosen[option] == "yes" and chosen[needed] == "no":
            if preview and option not in given:
                chosen[option] = "no"
                continue
            raise RulesetError(f"agot2e-ru: the option {option} needs {needed} (switched off here): switch both off"
                               f" (--option {needed}=no --option {option}=no) or keep {needed}")
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


class Agot2eRu(AgotRuleset):
    rules = EDITION

    def new_game(self, players: list[str], options: dict[str, str], seed: int) -> dict:
        chosen = read_options(options, preview=False)
        state = initial_state(self.rules, players, seed)
        state["options"] = chosen
        if options.get("tides-of-battle", "no") == "yes":  # agot2e's option, as agot2e reads it (B27)
            state["tides_of_battle"] = True
        return apply_setup(state)

    def case_state(self, position: dict) -> dict:
        """A rules case's position: every option on unless its ``options`` says no; the neutral garrisons
        placed unless the position names its ``neutral`` forces."""
        chosen = read_options(position.get("options") or {}, preview=True)
        state = caseposition.case_state(self.rules, {k: v for k, v in position.items()
                                                     if k not in ("options", "gold", "debts", "loans", "mercenaries")},
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
        for house in state["houses"]:  # a case's own units within the variant's pieces (sellswords: the company's)
            over = {u: n for u, n in pos.house_units(state, house).items()
                    if u != "sellsword" and n > pos.unit_limit(state, ctx_of(state).gd, house, u)}
            if over:
                raise RulesetError(f"{house} has more units than it owns: {over}")
        return state


AGOT2E_RU = register(Agot2eRu())
