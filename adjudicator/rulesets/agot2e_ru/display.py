"""The board section of an agot2e-ru report: the shared AGoT display (found here by ``reports.py``) and the
game's variant options, switched on and off (public: fixed at creation, ``state["options"]``)."""

from __future__ import annotations

from ..agot.context import ctx_of
from ..agot.display import board as agot_board
from .variant import OPTIONS


def board(view: dict, player: str | None) -> dict:
    out = agot_board(view, player)
    options = view.get("options") or {}
    out["variant"] = {"on": [o for o in OPTIONS if options.get(o) == "yes"],
                      "off": [o for o in OPTIONS if options.get(o) == "no"]}
    out["hostages"] = _hostages(view)
    return out


def _hostages(view: dict) -> dict | None:
    """The hostages held (card, its house, its holder, rounds held of the most) and those executed: public."""
    if "hostages" not in view:
        return None
    ctx = ctx_of(view)
    rounds = ctx.params.hostage_rounds
    held = [{"card": ctx.card(e["card"]), "house": ctx.house(e["house"]), "holder": ctx.house(e["holder"]),
             "rounds": view["round"] - e["since"], "most": rounds} for e in view["hostages"]["held"]]
    executed = [{"card": ctx.card(e["card"]), "house": ctx.house(e["house"])} for e in view["hostages"]["executed"]]
    return {"held": held, "executed": executed}
