"""``agot2e``: A Game of Thrones: The Board Game, 2nd edition, as a judge ruleset: the shared AGoT
engine (``rulesets/agot``) with the 2nd edition's data and rules (:mod:`.edition`).

One game option, fixed at creation: ``--option tides-of-battle=yes`` (B27). During issue 14 the
edition was a preview that ``new_game`` refused without ``--option preview=yes``; that option is
still accepted (and changes nothing), so scripts and games made then keep working.
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
        unknown = sorted(set(options) - {"tides-of-battle", "preview"})
        if unknown or tides not in ("yes", "no"):
            wrong = f"option {unknown[0]}" if unknown else f"tides-of-battle={tides}"
            raise RulesetError(f"agot2e has one option, tides-of-battle=yes|no, not {wrong}"
                               " (example: --option tides-of-battle=yes)")
        state = initial_state(self.rules, players, seed)
        if tides == "yes":  # B27: fixed at creation, for the game's life
            state["tides_of_battle"] = True
        return state


AGOT2E = register(Agot2e())
