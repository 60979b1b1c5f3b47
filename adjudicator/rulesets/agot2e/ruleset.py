"""``agot2e``: A Game of Thrones: The Board Game, 2nd edition, as a judge ruleset: the shared AGoT
engine (``rulesets/agot``) with the 2nd edition's data and rules (:mod:`.edition`).

Not playable yet: ``new_game`` refuses, naming why (RULES.md section 0 lists what the engine does not
do yet), so that no game is adjudicated by rules the edition does not have. Rules cases
(``judge case tests/cases/agot2e``) run on positions of what is done: ports, impassable areas, siege
engines, garrisons, the setups, the abilities resolved so far.
"""

from __future__ import annotations

from ...ruleset import RulesetError, register
from ..agot.ruleset import AgotRuleset
from .edition import EDITION


class Agot2e(AgotRuleset):
    rules = EDITION

    def new_game(self, players: list[str], options: dict[str, str], seed: int) -> dict:
        raise RulesetError("agot2e cannot be played yet: its Westeros phase, wildling cards, most house-card"
                           " abilities and its mail commands are still to come (adjudicator/rulesets/agot2e/"
                           "RULES.md, section 0); rules cases run: judge case tests/cases/agot2e")


AGOT2E = register(Agot2e())
