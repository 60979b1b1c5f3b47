"""The Claim table as the report templates show it: display-ready data from a player's view.

:func:`board` is called by ``adjudicator/reports.py`` (found as ``display`` in the ruleset's
package, the same for ``claim2`` and ``claim``) with ``ruleset.view(state, player)`` and nothing
else, so a report can only show what the view holds: other players' hands and follower piles
are counts there, their plans are absent, the card a Seer looked at is only in the Seer's view.
The GM's view (player None) holds everything.

Cards are dicts ``{id, faction, value, name, name_cs}``; the templates choose the language.
"""

from __future__ import annotations

from . import position as pos
from . import scoring
from .gamedata import DATA_VERSION, GameData, load_gamedata


def _card(gd: GameData, card_id: str) -> dict:
    card = gd.card(card_id)
    f = gd.factions[card.faction]
    return {"id": card_id, "faction": card.faction, "value": card.value, "name": f"{f.singular} {card.value}",
            "name_cs": f"{f.singular_cs} {card.value}"}


def _cards(gd: GameData, ids) -> list[dict]:
    return [_card(gd, c) for c in sorted(ids, key=gd.sort_key)]


def _by_faction(gd: GameData, ids) -> list[dict]:
    """A pile grouped by faction: ``[{faction, name, name_cs, values: [...]}]`` in data order."""
    out = []
    for f in gd.factions.values():
        values = sorted(gd.value_of(c) for c in ids if gd.faction_of(c) == f.id)
        if values:
            out.append({"faction": f.id, "name": f.name, "name_cs": f.name_cs, "values": values})
    return out


def board(view: dict, player: str | None) -> dict:
    gd = load_gamedata(view.get("data_version", DATA_VERSION))
    defaults = gd.rulesets.get(view["ruleset"])
    players = []
    for p in view["players"]:
        hand, followers = view["hands"][p], view["followers"][p]
        players.append({
            "name": p,
            "me": p == player,
            "partner": pos.partner(view, p),
            "hand": len(hand) if isinstance(hand, list) else hand,
            "followers": len(followers) if isinstance(followers, list) else followers,
            "score": _by_faction(gd, view["score"][p]),
            "score_count": len(view["score"][p]),
            "gnomes": sorted(gd.value_of(c) for c in view["gnomes"][p]),
        })
    piles = scoring.piles(view)
    joined = (view.get("result") or {}).get("factions") or scoring.standings(gd, view)
    standings = []
    for fid in view["factions"]:
        f = gd.factions[fid]
        standings.append({"faction": fid, "name": f.name, "name_cs": f.name_cs, "side": joined.get(fid),
                          "counts": [{"side": s, "count": scoring.faction_key(gd, cards, fid)[0],
                                      "values": list(scoring.faction_key(gd, cards, fid)[1])}
                                     for s, cards in piles.items()]})
    choice = view.get("choice")
    shown_choice = None
    if choice:
        options = [_card(gd, c) for c in dict.fromkeys(view["prizes"])]
        shown_choice = {"player": choice["player"], "kind": choice["kind"], "mine": choice["player"] == player,
                        "options": options, "deck": bool(choice.get("peek") or choice.get("looked")),
                        "peek": _card(gd, choice["peek"]) if choice.get("peek") else None}
    last = view.get("last")
    shown_last = None
    if last:
        shown_last = {"phase": last["phase"], "trick": last["trick"], "winner": last["winner"],
                      "current": view["step"] == "take" and (last["phase"], last["trick"]) == (view["phase"], view["trick"]),
                      "leader": last["leader"], "ranking": list(last["ranking"]),
                      "prizes": [_card(gd, c) for c in last["prizes"]],
                      "plays": [{"player": p["player"], "card": _card(gd, p["card"])} for p in last["plays"]]}
    mine = view["hands"].get(player) if player is not None else None
    my_followers = view["followers"].get(player) if player is not None else None
    plan = view.get("plan") or {"play": [], "take": []}
    result = view.get("result")
    return {
        "ruleset": view["ruleset"],
        "title": defaults.title if defaults else view["ruleset"],
        "title_cs": defaults.title_cs if defaults else view["ruleset"],
        "phase": view["phase"],
        "trick": view["trick"],
        "tricks": view["deal"],
        "step": view["step"],
        "leader": view["leader"],
        "turn": view.get("turn"),
        "over": view["winner"] is not None,
        "winner": view["winner"],
        "tied": list((result or {}).get("tied") or []),
        "teams": ["+".join(t) for t in view.get("teams") or []],
        "factions": [{"id": f, "name": gd.factions[f].name, "name_cs": gd.factions[f].name_cs}
                     for f in view["factions"]],
        "players": players,
        "prizes": [_card(gd, c) for c in view["prizes"]],
        "table": [{"player": p["player"], "card": _card(gd, p["card"])} for p in view["table"]],
        "trolls_aside": _cards(gd, view["trolls_aside"]),
        "discard": _cards(gd, view["discard"]),
        "crushed": _cards(gd, view["crushed"]),
        "deck": view["deck"] if isinstance(view["deck"], int) else len(view["deck"]),
        "standings": [s for s in standings if any(c["count"] for c in s["counts"]) or view["winner"] is not None],
        "empty_factions": [s for s in standings if not any(c["count"] for c in s["counts"]) and view["winner"] is None],
        "result": [{"side": s, **r} for s, r in (result or {}).get("sides", {}).items()],
        "last": shown_last,
        "choice": shown_choice,
        "my_hand": _cards(gd, mine) if isinstance(mine, list) else [],
        "my_followers": _cards(gd, my_followers) if isinstance(my_followers, list) else [],
        "legal": _cards(gd, view.get("legal") or []),
        "my_turn": player is not None and view["step"] == "play" and view.get("turn") == player,
        "plan": [pos.line_text(gd, "PLAY", a) for a in plan["play"]] + [pos.line_text(gd, "TAKE", a) for a in plan["take"]],
        "hands": {p: _cards(gd, h) for p, h in view["hands"].items() if isinstance(h, list) and player is None},
        "all_followers": {p: _cards(gd, f) for p, f in view["followers"].items()
                          if isinstance(f, list) and player is None},
    }
