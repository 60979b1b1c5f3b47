"""The state of a Claim / Claim 2 game, and small helpers over it.

A state is a plain, YAML-serialisable dict (cards are ids, see ``gamedata.py``)::

    ruleset: claim2               # claim2 | claim (which defaults the game was made with)
    data_version: v1
    players: [alice, bob, ...]    # seat order, clockwise
    teams: [[alice, carol], [bob, dave]] | null     # 4 players: partners sit opposite
    factions: [gnomes, giants, dragons, trolls, seers]   # in play, data order
    deal: 13                      # cards dealt to each = tricks per phase (13 | 12 | 9)
    revealed: 1                   # prizes revealed per phase-1 trick (1 | 2)
    seed: 42                      # SECRET: with rng, every shuffle and draw is reproducible
    rng: 2                        # random draws made so far (shuffle, first leader)
    phase: 1                      # 1 (recruiting followers) | 2 (winning the factions)
    trick: 1                      # number of the trick in the phase
    step: play                    # play (``turn`` owes a card) | take (``choice`` owed) | over
    leader: alice                 # who led / leads this trick
    turn: alice                   # whose card is due (step play)
    deck: [ids]                   # SECRET order, top first (its size is public)
    prizes: [ids]                 # phase 1: the revealed card(s) played for, public
    table: [{player, card}]       # this trick's cards so far, in play order, public
    hands: {player: [ids]}        # SECRET (sizes public)
    followers: {player: [ids]}    # SECRET (sizes public): phase-1 winnings, the phase-2 hand
    score: {player: [ids]}        # face-up score piles, public
    gnomes: {player: [ids]}       # Gnomes won in phase 2, kept face up in front, public
    trolls_aside: [ids]           # Trolls set aside for the next trick's winner, public
    discard: [ids]                # cards played in phase 1 and discarded, public
    crushed: [ids]                # Gnomes destroyed by Giants (out of the game), public
    box: [ids]                    # rules cases only: cards of the factions not in the position
    plans: {player: {play: [[alt, ...], ...], take: [[alt, ...]]}}   # SECRET: sent ahead
    choice: null | {player, kind: seer|first|second, peek: id|null, ranking: [players]}
                                  # a prize choice owed; ``peek`` (the Seer's look at the top
                                  # of the deck) is SECRET but to ``player``
    last: null | {phase, trick, prizes, plays, ranking, winner, leader}   # the trick before, public
    result: null | {sides: {side: {factions: [...], cards: n, points: n}}, factions: {faction: side|null}}
    winner: null | player | "alice+carol" (a team) | "draw"

A plan alternative (``alt``) is ``"<faction> <value>"``, ``lowest``, ``highest`` (plays and
takes), ``deck`` or ``prize`` (takes). PLAY lines are used one per turn of the player, in
order; the TAKE line is for the current trick's prizes and expires at the end of the trick.
"""

from __future__ import annotations

from . import rules
from .gamedata import GameData

PLAY_WORDS = ("lowest", "highest")
TAKE_WORDS = ("deck", "prize", "highest", "lowest")


def other_players(state: dict, player: str) -> list[str]:
    return [p for p in state["players"] if p != player]


def partner(state: dict, player: str) -> str | None:
    for team in state.get("teams") or []:
        if player in team:
            return next((p for p in team if p != player), None)
    return None


def opponents(state: dict, player: str) -> list[str]:
    """Every other player but the partner (S002: Giants never crush the winner's or partner's Gnomes)."""
    mate = partner(state, player)
    return [p for p in state["players"] if p not in (player, mate)]


def next_player(state: dict, player: str) -> str:
    seats = state["players"]
    return seats[(seats.index(player) + 1) % len(seats)]


def played(state: dict) -> set[str]:
    return {p["player"] for p in state["table"]}


def plan(state: dict, player: str) -> dict:
    return state["plans"].setdefault(player, {"play": [], "take": []})


def legal(state: dict, gd: GameData, player: str) -> list[str]:
    """The cards ``player`` may play now (empty unless it is their turn)."""
    if state["step"] != "play" or state["turn"] != player:
        return []
    return rules.legal_plays(gd, state["hands"][player], state["table"])


def split_alt(alt: str) -> tuple[str, int] | None:
    parts = alt.split()
    if len(parts) == 2 and parts[1].isdigit():
        return parts[0], int(parts[1])
    return None


def play_for(state: dict, gd: GameData, player: str, alts) -> str | None:
    """The card the first usable alternative of a PLAY line names now, or None."""
    allowed = legal(state, gd, player)
    if not allowed:
        return None
    for alt in alts:
        if alt == "lowest":
            return rules.lowest(gd, allowed)
        if alt == "highest":
            return rules.highest(gd, allowed)
        named = split_alt(alt)
        if named:
            card = rules.find(gd, allowed, *named)
            if card is not None:
                return card
    return None


def take_options(state: dict) -> list[str]:
    """What the chooser may take now: the prize cards on the table, and ``deck`` after a Seer's look."""
    choice = state.get("choice")
    if not choice:
        return []
    return list(dict.fromkeys(state["prizes"])) + (["deck"] if choice.get("peek") else [])


def take_for(state: dict, gd: GameData, player: str, alts) -> str | None:
    """The option (a prize id or ``deck``) the first usable alternative of a TAKE line names now.

    PRIZE is the prize of higher value. For the player who looked at the top card with a Seer,
    HIGHEST / LOWEST compare the prize(s) with the card seen: the card seen when it is strictly
    higher / lower, else the prize (equal values: the prize, revealed first)."""
    choice = state.get("choice")
    if not choice or choice["player"] != player:
        return None
    prizes = list(state["prizes"])
    peek = choice.get("peek")
    for alt in alts:
        if alt == "deck":
            if peek:
                return "deck"
        elif alt == "prize":
            return rules.best_prize(gd, prizes)
        elif alt == "highest":
            best = rules.best_prize(gd, prizes)
            return "deck" if peek and gd.value_of(peek) > gd.value_of(best) else best
        elif alt == "lowest":
            worst = rules.worst_prize(gd, prizes)
            return "deck" if peek and gd.value_of(peek) < gd.value_of(worst) else worst
        else:
            named = split_alt(alt)
            if named:
                card = rules.find(gd, prizes, *named)
                if card is not None:
                    return card
                if peek and (gd.faction_of(peek), gd.value_of(peek)) == named:
                    return "deck"
    return None


def planned_play(state: dict, gd: GameData, player: str) -> str | None:
    lines = plan(state, player)["play"] if player in state["plans"] else []
    return play_for(state, gd, player, lines[0]) if lines else None


def planned_take(state: dict, gd: GameData, player: str) -> str | None:
    lines = plan(state, player)["take"] if player in state["plans"] else []
    return take_for(state, gd, player, lines[0]) if lines else None


def alt_text(gd: GameData, alt: str) -> str:
    """An alternative as the canonical echo writes it: ``Gnome 5``, ``LOWEST``, ``DECK`` (the
    grammar's own words; players read it through ``Ruleset.line``, see ``lines.py``)."""
    named = split_alt(alt)
    if named:
        return f"{gd.factions[named[0]].singular} {named[1]}"
    return alt.upper()


def line_text(gd: GameData, keyword: str, alts) -> str:
    return f"{keyword} " + " OR ".join(alt_text(gd, a) for a in alts)


def side_of(state: dict, player: str) -> str:
    """The scoring side: the player, or with teams ``alice+carol``."""
    for team in state.get("teams") or []:
        if player in team:
            return "+".join(team)
    return player


def sides(state: dict) -> dict[str, list[str]]:
    if state.get("teams"):
        return {"+".join(team): list(team) for team in state["teams"]}
    return {p: [p] for p in state["players"]}
