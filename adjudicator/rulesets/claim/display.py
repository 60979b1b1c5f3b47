"""The Claim table as the report templates show it: display-ready data from a player's view.

:func:`board` is called by ``adjudicator/reports.py`` (found as ``display`` in the ruleset's
package, the same for ``claim2`` and ``claim``) with ``ruleset.view(state, player)`` and nothing
else, so a report can only show what the view holds: other players' hands and follower piles
are counts there, their plans are absent, the card a Seer looked at is only in the Seer's view.
The GM's view (player None) holds everything.

This module builds data, never sentences: cards are dicts ``{id, faction, value, name}`` whose
``name`` is a message (``claim.card``), faction names are messages (``claim.faction``), plans
and the commands a player may send are command-line messages (``claim.line.*``); the templates
render them in the reader's language with the ``say`` filter.
"""

from __future__ import annotations

from . import position as pos
from . import scoring, terms
from .gamedata import DATA_VERSION, GameData, load_gamedata


def _card(gd: GameData, card_id: str) -> dict:
    card = gd.card(card_id)
    return {"id": card_id, "faction": card.faction, "value": card.value, "name": terms.card_msg(card.faction, card.value)}


def _cards(gd: GameData, ids) -> list[dict]:
    return [_card(gd, c) for c in sorted(ids, key=gd.sort_key)]


def _by_faction(gd: GameData, ids) -> list[dict]:
    """A pile grouped by faction: ``[{faction, name, values: [...]}]`` in data order."""
    out = []
    for f in gd.factions.values():
        values = sorted(gd.value_of(c) for c in ids if gd.faction_of(c) == f.id)
        if values:
            out.append({"faction": f.id, "name": terms.faction_msg(f.id), "values": values})
    return out


def _play_example(gd: GameData, legal) -> object:
    """``PLAY <the first legal card>`` as a command-line message (None when nothing is legal)."""
    if not legal:
        return None
    first = min(legal, key=gd.sort_key)
    return terms.line_msg("play", [f"{gd.faction_of(first)} {gd.value_of(first)}"])


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
        standings.append({"faction": fid, "name": terms.faction_msg(fid), "side": joined.get(fid),
                          "counts": [{"side": s, "count": scoring.faction_key(gd, cards, fid)[0],
                                      "values": list(scoring.faction_key(gd, cards, fid)[1])}
                                     for s, cards in piles.items()]})
    choice = view.get("choice")
    shown_choice = None
    if choice:
        prizes = list(dict.fromkeys(view["prizes"]))
        shown_choice = {"player": choice["player"], "kind": choice["kind"], "mine": choice["player"] == player,
                        "options": [_card(gd, c) for c in prizes],
                        "take": [terms.line_msg("take", [f"{gd.faction_of(c)} {gd.value_of(c)}"]) for c in prizes],
                        "take_deck": terms.line_msg("take", ["deck"]),
                        "deck": bool(choice.get("peek") or choice.get("looked")),
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
        "title": defaults.title if defaults else view["ruleset"],  # the edition's names (game data)
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
        "factions": [{"id": f, "name": terms.faction_msg(f)} for f in view["factions"]],
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
        "example": _play_example(gd, view.get("legal") or []),
        "my_turn": player is not None and view["step"] == "play" and view.get("turn") == player,
        "plan": [terms.line_msg("play", a) for a in plan["play"]] + [terms.line_msg("take", a) for a in plan["take"]],
        "hands": {p: _cards(gd, h) for p, h in view["hands"].items() if isinstance(h, list) and player is None},
        "all_followers": {p: _cards(gd, f) for p, f in view["followers"].items()
                          if isinstance(f, list) and player is None},
    }
