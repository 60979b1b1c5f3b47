"""The AGoT board as the report templates show it: display-ready data from a player's view.

:func:`board` is called by ``adjudicator/reports.py`` (found by its name in the ruleset's
package) with ``ruleset.view(state, player)`` and nothing else, so a report can only show what
the view holds: other houses' hands are counts there, their plans are absent, bids appear once
resolved, house cards in a battle once both are revealed. The GM's view (player None) holds
everything and is shown whole.

Names are the board's display names (areas and house cards as printed, the same in every
language); every word the templates translate (unit kinds, order kinds, castle kinds, track and
token names, phases and steps, Westeros cards, the house cards' abilities) stays an id, which the
templates look up in the family's catalogue (``templates/<lang>/agot/messages.yaml``, names; the
``term`` filter of ``adjudicator/reports.py``): display.py builds no sentence in any language.
"""

from __future__ import annotations

from collections import Counter

from . import hostages
from . import position as pos
from . import say
from .context import ctx_of

TRACKS = ("iron_throne", "fiefdoms", "kings_court")
TOKENS = {"iron_throne": "iron_throne", "fiefdoms": "valyrian_steel_blade", "kings_court": "messenger_raven"}


def board(view: dict, player: str | None) -> dict:
    """Everything the AGoT board section of a report needs, from ``view`` only."""
    ctx = ctx_of(view)
    gd = ctx.gd
    name = ctx.house

    def units(items) -> list[dict]:
        counts = Counter(items)
        return [{"kind": kind, "count": counts[kind]} for kind in pos.UNIT_ORDER if counts[kind]]

    areas = []
    garrisons = view.get("garrisons") or {}
    homes = {a for a in gd.board.land_areas if gd.board.area(a).home_of in view["houses"]}
    for area in sorted(set(view["areas"]) | set(view["control"]) | set(view["neutral"]) | set(view["orders"]) | homes,
                       key=ctx.area):
        info = gd.board.area(area)
        found = pos.occupant(view, area)
        held = pos.controller(view, gd, area) if not found and area not in view["control"] else None
        areas.append({
            "id": area,
            "name": ctx.area(area),
            "kind": info.kind,
            "castle": info.castle,
            "house": name(found[0]) if found else None,
            "units": units(found[1]) if found else [],
            "routed": units(view["routed"].get(area, [])),
            "order": say.trade_word(view["orders"].get(area), "gold" in view),  # (agot2e-ru: Trade orders)
            "control": name(view["control"][area]) if area in view["control"] else None,
            "neutral": view["neutral"].get(area),
            "held": name(held) if held else None,  # a home area its house still holds without units or token
            "garrison": garrisons.get(area),  # 2e: the home area's garrison token while it stands
        })
    # 2e, 3 houses: the areas closed for the game, and their ports (RULES.md R3.3)
    closed = sorted((ctx.area(a) for a in gd.board.land_areas + gd.board.port_areas if pos.closed(view, gd, a)),
                    key=str.casefold)

    castles = {h: pos.castles_controlled(view, gd, h) for h in view["houses"]}
    houses = []
    for house in view["houses"]:
        hand = view["hands"].get(house, [])
        houses.append({
            "id": house,
            "name": name(house),
            "me": house == player,
            "power": view["power"][house],
            "gold": view["gold"][house] if "gold" in view else None,  # agot2e-ru's gold-economy (agot/gold.py)
            "debt": view["debts"][house] if "debts" in view else None,  # ... and its Iron Bank (agot/ironbank.py)
            "loans": view["loans"][house] if "loans" in view else None,
            "power_on_board": pos.power_on_board(view, house),
            "supply": view["supply"][house],
            "armies": list(gd.setup.supply_armies[min(view["supply"][house], max(gd.setup.supply_armies))]),
            "castles": castles[house],
            "hand": len(hand) if isinstance(hand, list) else hand,
            "discards": [ctx.card(c) for c in view["discards"].get(house, [])],
            "units": units(u for holders in view["areas"].values() for u in holders.get(house, [])),
        })

    tracks = [{"id": t, "houses": [name(h) for h in view["tracks"][t]], "token": TOKENS[t],
               "holder": name(view["tracks"][t][0]) if view["tracks"][t] else None} for t in TRACKS]

    def cards(ids) -> list[dict]:
        out = []
        for card_id in ids:
            card = gd.card(card_id)
            out.append({"id": card.id, "name": card.name, "strength": card.strength, "swords": card.swords,
                        "fortifications": card.fortifications, "ability": bool(card.ability)})
        return out

    hands = {}
    for house, hand in view["hands"].items():
        if isinstance(hand, list) and (player is None or house == player):
            hands[name(house)] = cards(hand)

    return {
        "round": min(view["round"], gd.setup.rounds),  # after the last round the state counts one more
        "rounds": gd.setup.rounds,
        "phase": view["phase"],
        "step": view["step"],
        "winner": (view["winner"] if view["winner"] in (None, "draw") else name(view["winner"])),
        "shared_win": [name(h) for h in view.get("shared_win") or ()],  # agot2e-ru: equals sharing the win
        "victory_target": gd.setup.victory_target(len(view["houses"])),
        "houses": houses,
        "tracks": tracks,
        "blade_used": bool(view.get("blade_used")),
        "restrictions": list(view.get("restrictions") or []),
        "wildlings": view["wildlings"],
        "wildlings_max": max(gd.setup.wildlings.track),
        "areas": areas,
        "closed": closed,
        "hands": hands,  # display name -> cards: the player's own (the GM: every house's)
        "my_hand": cards(view["hands"][player]) if player is not None and isinstance(view["hands"].get(player), list) else [],
        "my_discards": cards(view["discards"].get(player, [])) if player is not None else [],
        "battle": _battle(view, ctx),
        "westeros": _westeros(view, ctx),
        "decks": dict(view.get("decks") or {}),
    }


def _battle(view: dict, ctx) -> dict | None:
    fight = view.get("battle")
    if not fight:
        return None
    hands = {}
    if fight["stage"] == "cards":  # the house-card question: both sides' hands are public knowledge (issue 11)
        for house in (fight["attacker"], fight["defender"]):
            gone = set(view["discards"].get(house, []) + hostages.out_of_hand(view, house))  # a hand is the house's
            # seven cards less its discards (agot2e-ru: and its cards held hostage or executed)
            hands[ctx.house(house)] = [c.name for c in ctx.gd.house_cards[house] if c.id not in gone]
    return {
        "area": ctx.area(fight["area"]),
        "attacker": ctx.house(fight["attacker"]),
        "defender": ctx.house(fight["defender"]),
        "origin": ctx.area(fight["origin"]) if fight.get("origin") else None,
        "units": [{"kind": k, "count": n} for k, n in sorted(Counter(fight.get("units") or []).items(),
                                                             key=lambda x: pos.UNIT_ORDER.index(x[0]))],
        "stage": fight["stage"],
        "supports": [{"area": ctx.area(a), "for": ctx.house(h) if h else None}
                     for a, h in sorted((fight.get("supports") or {}).items(), key=lambda x: ctx.area(x[0]))],
        "cards": {ctx.house(h): ctx.card(c) for h, c in (fight.get("cards") or {}).items()
                  if c is not None},  # (2e: None while Tyrion's opponent picks another, or with none left)
        "strength": {ctx.house(h): s for h, s in (fight.get("strength") or {}).items()},
        "winner": ctx.house(fight["winner"]) if fight.get("winner") else None,
        "loser": ctx.house(fight["loser"]) if fight.get("loser") else None,
        "hands": hands,  # display name -> the cards still in hand, while the house cards are asked for
    }


def _westeros(view: dict, ctx) -> dict | None:
    w = view.get("westeros")
    if not w:
        return None
    known = ctx.gd.westeros_cards
    drawn = [{"deck": deck, "card": c} for deck, c in (w.get("cards") or {}).items() if c in known]
    bids = {slot: [{"house": ctx.house(h), "bid": n} for h, n in sorted(b.items(), key=lambda x: -x[1])]
            for slot, b in (w.get("bids") or {}).items()}
    return {"cards": drawn, "bids": bids, "track": w.get("track")}
