"""``agot1e``: A Game of Thrones: The Board Game, 1st edition, as a judge ruleset.

This module is the glue between the judge's interface (``adjudicator/ruleset.py``) and the
pure step modules: ``planning``, ``action``, ``battle`` through ``engine``; mails through
``submission``; rules-case positions through ``caseposition``.
"""

from __future__ import annotations

import copy

from ...ruleset import Event, Owed, RulesetError, Submission, register
from . import caseposition, engine, submission
from . import position as pos
from .context import ctx_of
from .gamedata import DATA_VERSION
from .newgame import initial_state


class Agot1e:
    name = "agot1e"
    data_version = DATA_VERSION

    def new_game(self, players: list[str], options: dict[str, str], seed: int) -> dict:
        if options:
            raise RulesetError(f"agot1e has no options (got {', '.join(options)})")
        return initial_state(players, seed)

    def pending(self, state: dict) -> list[Owed]:
        return engine.pending(state, ctx_of(state))

    def submit(self, state: dict, player: str, text: str) -> Submission:
        return submission.submit(state, ctx_of(state), player, text)

    def advance(self, state: dict, *, force: bool) -> tuple[dict, list[Event]]:
        events = engine.advance(state, ctx_of(state), force)
        return state, events

    def result(self, state: dict) -> str | None:
        return state["winner"]

    def summary(self, state: dict) -> str:
        return f"round {state['round']}, {state['phase']}: {state['step']}"

    def on_file(self, state: dict, player: str) -> list[str]:
        return submission.on_file(state, ctx_of(state), player)

    def view(self, state: dict, player: str | None) -> dict:
        """What ``player`` may see (None: the GM sees everything).

        Secret: other houses' plans (orders before the reveal, instructions sent ahead, card
        choices), other houses' hands (their size is public), the seed.
        """
        if player is None:
            return copy.deepcopy(state)
        # The battle dict holds only what is public (cards are set there when both are revealed).
        view = {k: copy.deepcopy(v) for k, v in state.items() if k not in ("plans", "hands", "seed")}
        view["hands"] = {h: (list(cards) if h == player else len(cards)) for h, cards in state["hands"].items()}
        view["plan"] = copy.deepcopy(state["plans"].get(player))
        return view

    # rules cases (adjudicator/cases.py)
    case_state = staticmethod(caseposition.case_state)
    case_done = staticmethod(caseposition.case_done)
    case_compare = staticmethod(caseposition.case_compare)


AGOT1E = register(Agot1e())
