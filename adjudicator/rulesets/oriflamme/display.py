"""The Oriflamme table as the report templates show it: display-ready data from a player's view.

:func:`board` is called by ``adjudicator/reports.py`` (found by its name in the ruleset's
package) with ``ruleset.view(state, player)`` and nothing else, so a report can only show what
the view holds: another family's face-down cards appear as "face down" with their owner and
influence, their hands and cards set aside as counts. The GM's view (player None) holds
everything.

The board is data, not sentences: a card's name and effect are messages (``oriflamme.name``,
``oriflamme.effect.<id>``) and the question waited for is the engine's message, which the
templates render in the reader's language with the ``say`` filter; player names are the same in
every language.
"""

from __future__ import annotations

from ...messages import Msg
from .gamedata import load_gamedata
from .position import display


def board(view: dict, player: str | None) -> dict:
    gd = load_gamedata(view["data_version"])

    def info(card_id: str | None) -> dict | None:
        if card_id is None:
            return None
        card = gd.card(card_id)
        return {"id": card.id, "kind": card.kind, "name": Msg("oriflamme.name", card=card.id),
                "effect": Msg(f"oriflamme.effect.{card.id}")}

    def cards(ids) -> list[dict]:
        return [info(c) for c in ids] if isinstance(ids, list) else []

    def one(c: dict) -> dict:
        return {"owner": display(c["owner"]), "mine": c["owner"] == player, "up": c["up"], "tokens": c["tokens"],
                "card": info(c.get("card"))}

    resolving = view["phase"] == "resolve"
    queue = []
    for i, stack in enumerate(view["queue"]):
        entry = one(stack[-1])
        entry.update(pos=i + 1, next=resolving and i == view["cursor"],
                     covered=[one(c) for c in reversed(stack[:-1])])
        queue.append(entry)

    order = view["players"][view["players"].index(view["first"]):] + view["players"][:view["players"].index(view["first"])]
    players = []
    for p in view["players"]:
        hand, aside = view["hands"][p], view["aside"][p]
        players.append({
            "id": p, "name": display(p), "me": p == player, "first": p == view["first"],
            "influence": view["influence"][p],
            "hand": len(hand) if isinstance(hand, list) else hand,
            "aside": len(aside) if isinstance(aside, list) else aside,
            "in_queue": sum(1 for stack in view["queue"] for c in stack if c["owner"] == p),
            "discards": cards(view["discards"][p]),
        })
    question = view.get("question")
    winner = view.get("winner")
    return {
        "round": view["round"],
        "rounds": view["rounds"],
        "phase": view["phase"],
        "over": view["phase"] == "over",
        "winner": None if winner is None else ("draw" if winner == "draw" else display(winner)),
        "winners": [display(p) for p in view.get("winners") or []],
        "first": display(view["first"]),
        "order": [display(p) for p in order],
        "placing": display(view["placing"]) if view.get("placing") else None,
        "next_position": view["cursor"] + 1 if resolving and view["cursor"] < len(view["queue"]) else None,
        "question": None if not question else {"player": display(question["player"]), "me": question["player"] == player,
                                               "what": question["what"]},
        "queue": queue,
        "players": players,
        "my_hand": cards(view["hands"].get(player)) if player is not None else [],
        "my_aside": cards(view["aside"].get(player)) if player is not None else [],
        "hands": {display(p): cards(h) for p, h in view["hands"].items()} if player is None else {},
        "asides": {display(p): cards(a) for p, a in view["aside"].items()} if player is None else {},
    }
