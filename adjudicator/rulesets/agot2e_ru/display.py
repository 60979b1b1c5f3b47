"""The board section of an agot2e-ru report: the shared AGoT display (found here by ``reports.py``) and the
game's variant options, switched on and off (public: fixed at creation, ``state["options"]``)."""

from __future__ import annotations

from ..agot.display import board as agot_board
from .variant import OPTIONS


def board(view: dict, player: str | None) -> dict:
    out = agot_board(view, player)
    options = view.get("options") or {}
    out["variant"] = {"on": [o for o in OPTIONS if options.get(o) == "yes"],
                      "off": [o for o in OPTIONS if options.get(o) == "no"]}
    return out
