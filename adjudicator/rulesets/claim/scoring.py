"""The end of the game: which side each faction joins, and who wins.

Sides are the players, or with 4 players the two teams, whose score piles are pooled (S002:
"oba spoluhráči v každém týmu své karty za společné").

A faction joins the side with the most of its cards (S002, 2 players: "Kdo má víc karet dané
frakce, získává její hlas"; 3 players: "more cards than each opponent"). Equal counts: the
higher top card, then the second highest and so on (S002, 2 players: "V případě shody vítězí
hráč s nejvyšší kartou tohoto národa. Stále shoda? ... druhou nejvyšší kartu a tak dále"),
applied among the tied leaders with 3 players and between teams with 4 (decisions OG 2.7.10,
2.7.11). Still equal, or nobody holds the faction: it joins nobody (OG 2.7.9).

The winner: the most factions; then the most cards in the factions won (S002, 2 players and 3
players); then the highest sum of those cards' values (S002, 3 players; used with every player
count, decision); still equal: a draw between the tied sides (decision OG 2.7.9).
"""

from __future__ import annotations

from .gamedata import GameData
from .position import sides


def piles(state: dict, *, kept_gnomes: bool = True) -> dict[str, list[str]]:
    """Each side's scoring cards: score piles, plus the Gnomes kept in front (they move to the
    score pile at the end of the game)."""
    out = {}
    for side, members in sides(state).items():
        cards: list[str] = []
        for p in members:
            cards += state["score"][p]
            if kept_gnomes:
                cards += state["gnomes"][p]
        out[side] = cards
    return out


def faction_key(gd: GameData, cards: list[str], faction: str) -> tuple[int, tuple[int, ...]]:
    values = sorted((gd.value_of(c) for c in cards if gd.faction_of(c) == faction), reverse=True)
    return len(values), tuple(values)


def faction_side(gd: GameData, piles_: dict[str, list[str]], faction: str) -> str | None:
    """The side a faction joins, or None (nobody holds it, or a complete tie at the top)."""
    keys = {side: faction_key(gd, cards, faction) for side, cards in piles_.items()}
    best = max(keys.values())
    if best[0] == 0:
        return None
    top = [side for side, key in keys.items() if key == best]
    return top[0] if len(top) == 1 else None


def standings(gd: GameData, state: dict) -> dict[str, str | None]:
    """Faction -> the side it would join if the game ended now."""
    p = piles(state)
    return {f: faction_side(gd, p, f) for f in state["factions"]}


def outcome(gd: GameData, state: dict) -> tuple[str, dict]:
    """The winner (a side or ``draw``) and the result table stored in the state."""
    p = piles(state)
    joined = {f: faction_side(gd, p, f) for f in state["factions"]}
    table = {}
    for side, cards in p.items():
        won = [f for f in state["factions"] if joined[f] == side]
        counted = [c for c in cards if gd.faction_of(c) in won]
        table[side] = {"factions": won, "cards": len(counted), "points": sum(gd.value_of(c) for c in counted)}
    key = {side: (len(t["factions"]), t["cards"], t["points"]) for side, t in table.items()}
    best = max(key.values())
    top = [side for side, k in key.items() if k == best]
    winner = top[0] if len(top) == 1 else "draw"
    return winner, {"factions": joined, "sides": table, "tied": top if len(top) > 1 else []}


def decided_by(result: dict, winner: str) -> str:
    """Which tie-break decided the game, for the event log (``claim.over.win``): ``factions``,
    ``cards`` (in the factions won), ``points`` (the sum of those cards' values) or ``tie``."""
    if winner == "draw":
        return "tie"
    rows = result["sides"]
    mine = rows[winner]
    others = [r for s, r in rows.items() if s != winner]
    if all(len(r["factions"]) < len(mine["factions"]) for r in others):
        return "factions"
    if all((len(r["factions"]), r["cards"]) < (len(mine["factions"]), mine["cards"]) for r in others):
        return "cards"
    return "points"
