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
        if options != {"preview": "yes"}:
            raise RulesetError("agot2e is not complete yet: its mail commands for the 2nd-edition choices, most"
                               " house-card abilities and Tides of Battle are still to come (adjudicator/rulesets/"
                               "agot2e/RULES.md, section 0); to play the preview by the rules done so far:"
                               " --option preview=yes")
        return initial_state(self.rules, players, seed)


AGOT2E = register(Agot2e())
