"""``agot2e``: A Game of Thrones: The Board Game, 2nd edition, as a judge ruleset: the shared AGoT
engine (``rulesets/agot``) with the 2nd edition's data and rules (:mod:`.edition`).

Not complete yet (RULES.md section 0 lists what the engine does not do yet): ``new_game`` refuses
unless the GM asks for the preview (``--option preview=yes``), so that no game is adjudicated by
rules the edition does not have without its players knowing. The preview plays whole games by the
rules done so far (self-play: ``judge selfplay --ruleset agot2e --houses 6 --option preview=yes``).
Rules cases (``judge case tests/cases/agot2e``) need no option.
"""

from __future__ import annotations

from ...ruleset import RulesetError, register
from ..agot.newgame import initial_state
from ..agot.ruleset import AgotRuleset
from .edition import EDITION


class Agot2e(AgotRuleset):
    rules = EDITION

    def new_game(self, players: list[str], options: dict[str, str], seed: int) -> dict:
        tides = options.get("tides-of-battle", "no")
        if options.get("preview") != "yes" or set(options) - {"preview", "tides-of-battle"} or tides not in ("yes", "no"):
            raise RulesetError("agot2e is not complete yet: its mail commands for the 2nd-edition choices and three"
                               " house-card abilities are still to come (adjudicator/rulesets/agot2e/RULES.md,"
                               " section 0); to play the preview by the rules done so far: --option preview=yes"
                               " (and --option tides-of-battle=yes for the Tides of Battle cards)")
        state = initial_state(self.rules, players, seed)
        if tides == "yes":  # B27: fixed at creation, for the game's life
            state["tides_of_battle"] = True
        return state


AGOT2E = register(Agot2e())
