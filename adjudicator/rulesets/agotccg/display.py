"""The agotccg table as the report templates show it: display-ready data from a player's view.

:func:`board` is called by ``adjudicator/reports.py`` with ``ruleset.view(state, player)`` and
nothing else, so a report can only show what the view holds: other players' hands, decks and plot
decks appear as counts. The GM's view (player None) holds everything.

The board is data, not sentences: every card, plot, player line and the question waited for is a
message (``agotccg.board.*``, ``agotccg.owed.*``), which the templates render in the reader's
language with the ``say`` filter; player names are the same in every language.
"""

from __future__ import annotations

from ...messages import Msg
from . import position as pos
from .gamedata import load_gamedata
from .position import display


def board(view: dict, player: str | None) -> dict:
    gd = load_gamedata(view["data_version"])

    def ref(instance: str) -> dict:
        return pos.cref(gd, instance)

    def card_in_hand(instance: str) -> Msg:
        card = gd.card(instance)
        return Msg("agotccg.board.card", ref(instance), type=card.type, house=card.house, cost=card.cost,
                   str=card.str, icons=list(card.icons), keywords=sorted(card.keywords), traits=list(card.traits),
                   income=card.income_bonus, initiative=card.initiative_bonus, unique=card.unique,
                   out_of_house=gd.out_of_house(instance, view["houses"].get(player) or []) if player else False)

    def plot(plot_id: str) -> Msg:
        card = gd.card(plot_id)
        return Msg("agotccg.board.plot", card=plot_id, income=card.income, initiative=card.initiative,
                   claim=card.claim)

    def character(owner: str, entry: dict) -> Msg:
        card = gd.card(entry["card"])
        return Msg("agotccg.board.character", ref(entry["card"]), str=pos.strength(gd, entry),
                   icons=[i for i in pos.TYPES if i in pos.icons(gd, entry)], knelt=entry["knelt"],
                   power=entry["power"], keywords=sorted(card.keywords), unique=card.unique,
                   income=card.income_bonus, initiative=card.initiative_bonus,
                   attachments=[dict(ref(a["card"]), owner=a["owner"] if a["owner"] != owner else None,
                                     str=gd.card(a["card"]).str, icons=list(gd.card(a["card"]).icons))
                                for a in entry["attachments"]],
                   dupes=len(entry["dupes"]))

    def location(entry: dict) -> Msg:
        card = gd.card(entry["card"])
        return Msg("agotccg.board.location", ref(entry["card"]), income=card.income_bonus,
                   initiative=card.initiative_bonus, keywords=sorted(card.keywords), unique=card.unique,
                   dupes=len(entry["dupes"]))

    challenge = view.get("challenge")
    players = []
    for p in view["players"]:
        plots = view["plots"][p]
        hand = view["hand"][p]
        deck = view["deck"][p]
        players.append({
            "id": p, "name": display(p), "me": p == player, "first": p == view.get("first"),
            "house": Msg("agotccg.board.house", houses=list(view["houses"][p])),
            "power": view["power"][p], "house_power": view["house_power"][p],
            "hand": len(hand) if isinstance(hand, list) else hand,
            "deck": len(deck) if isinstance(deck, list) else deck,
            "plots_left": len(plots["deck"]) if isinstance(plots["deck"], list) else plots["deck"],
            "plot": plot(plots["current"]) if plots["current"] else None,
            "used": [plot(u) for u in plots["used"]],
            "gold": (view.get("gold") or {}).get(p),
            "characters": [character(p, e) for e in view["characters"][p]],
            "locations": [location(e) for e in view["locations"][p]],
            "discard": Msg("agotccg.cards", cards=pos.crefs(gd, view["discard"][p])),
            "dead": Msg("agotccg.cards", cards=pos.crefs(gd, view["dead"][p])),
            "challenges": list(view.get("challenges_done", {}).get(p) or []),
        })
    question = view.get("question")
    mine = player is not None and isinstance(view["hand"].get(player), list)
    return {
        "round": view["round"],
        "summary": Msg("agotccg.board.phase", phase=view["phase"], step=view["step"], round=view["round"]),
        "over": view["phase"] == "over",
        "winner": display(view["winner"]) if view.get("winner") else None,
        "order": [display(p) for p in view.get("order") or []],
        "first": display(view["first"]) if view.get("first") else None,
        "challenge": None if not challenge else Msg(
            "agotccg.board.challenge", attacker=challenge["attacker"], defender=challenge["defender"],
            type=challenge["type"], attackers=pos.crefs(gd, challenge["attackers"]),
            stealth=pos.crefs(gd, challenge["stealth"]),
            defenders=None if challenge["defenders"] is None else pos.crefs(gd, challenge["defenders"])),
        "question": None if not question else {"players": [display(p) for p in question["players"]],
                                                "me": player in question["players"], "what": question["what"]},
        "players": players,
        "my_hand": [card_in_hand(c) for c in view["hand"][player]] if mine else [],
        "my_plots": [plot(c) for c in view["plots"][player]["deck"]] if mine else [],
        "hands": {display(p): [card_in_hand(c) for c in h] for p, h in view["hand"].items()} if player is None else {},
    }
