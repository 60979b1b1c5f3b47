"""The board section of an agot2e-ru report: the shared AGoT display (found here by ``reports.py``) and the
game's variant options, switched on and off (public: fixed at creation, ``state["options"]``)."""

from __future__ import annotations

from ..agot import mercenaries
from ..agot.context import ctx_of
from ..agot.display import board as agot_board
from .variant import OPTIONS


def board(view: dict, player: str | None) -> dict:
    out = agot_board(view, player)
    options = view.get("options") or {}
    out["variant"] = {"on": [o for o in OPTIONS if options.get(o) == "yes"],
                      "off": [o for o in OPTIONS if options.get(o) == "no"]}
    out["hostages"] = _hostages(view)
    out["mercenaries"] = _companies(view)
    return out


def _companies(view: dict) -> list[dict] | None:
    """The sellsword companies (option mercenaries, public): who holds each, its sellswords on the board, its
    minimum bid and wages (agot/mercenaries.py)."""
    if "mercenaries" not in view:
        return None
    ctx = ctx_of(view)
    out = []
    for cid, company in ctx.params.mercenaries.companies.items():
        holder = view["mercenaries"][cid]
        held = holder not in (None, "gone")
        out.append({"id": cid, "house": ctx.house(holder) if held else None, "gone": holder == "gone",
                    "sellswords": sum(mercenaries.sellswords(view, holder).values()) if held else company.sellswords,
                    "minimum": company.minimum, "wages": company.wages})
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
