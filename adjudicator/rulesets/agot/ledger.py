"""The ledger of a game with gold (agot2e-ru, ``gold-economy``): every transaction sent by mail and every
Iron Bank step, in order, in ``state["ledger"]`` (public: the GM's history of the money; each entry the
round, the step and the public event).

A transaction is made when its mail is accepted (:mod:`.transactions`), between adjudications, and the
judge publishes events only when it adjudicates. So its entry waits, ``told`` false, and
:func:`publish` turns the waiting entries into public events at the start of the next adjudication,
before the step's own events: every player's next report shows them, in the order the mails came.
``state["ledger_told"]`` is how far the ledger has been published (entries before it are told).
"""

from __future__ import annotations

from ...ruleset import Event


def start(state: dict) -> None:
    state["ledger"] = []
    state["ledger_told"] = 0


def record(state: dict, event: Event, *, told: bool) -> None:
    """Write ``event`` into the ledger; ``told``: it is an event of the step being adjudicated."""
    if "ledger" in state:
        state["ledger"].append({"round": state["round"], "step": state["step"], "event": event.as_dict(),
                                "told": told})


def publish(state: dict) -> list[Event]:
    """The entries not yet told, as public events, now told (called at the start of every adjudication)."""
    if "ledger" not in state:
        return []
    out = []
    for entry in state["ledger"][state["ledger_told"]:]:
        if not entry["told"]:
            entry["told"] = True
            out.append(Event.from_dict(entry["event"]))
    state["ledger_told"] = len(state["ledger"])
    return out
