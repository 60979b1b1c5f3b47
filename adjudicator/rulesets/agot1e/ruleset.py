"""``agot1e``: A Game of Thrones: The Board Game, 1st edition, as a judge ruleset: the shared AGoT
engine (``rulesets/agot``) with the 1st edition's data and rules (:mod:`.edition`)."""

from __future__ import annotations

from ...ruleset import register
from ..agot.ruleset import AgotRuleset
from .edition import EDITION


class Agot1e(AgotRuleset):
    rules = EDITION


AGOT1E = register(Agot1e())
