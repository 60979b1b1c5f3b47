"""``claim2`` and ``claim``: Claim 2 (Trůn 2) and Claim (Trůn) by mail, 2-4 players.

One engine, two registered instances that differ only in their name and so in the defaults of
``games/claim/v1/setup.yaml``: the pair and the factions a new game is dealt from. Both accept
the same options, so either can play the other box's game or any combined deck
(``newgame.py``).

This module is the glue between the judge's interface (``adjudicator/ruleset.py``) and the pure
modules: ``engine`` (steps, tricks, phases), ``rules`` (follow, ranking, lead), ``scoring``,
``submission`` and ``grammar`` (mail), ``caseposition`` (rules cases), ``bot`` and
``invariants`` (self-play), ``display`` (reports), ``terms`` and ``lines`` (what players read).

Both speak in message keys (``claim.*``, one catalogue per language for the two rulesets:
``templates/<lang>/claim/messages.yaml``): events, owed decisions, errors, notes and summaries are
rendered in each player's language; ``line`` turns a canonical command line into a language's
command words and card names.
"""

from __future__ import annotations

from ...messages import Msg
from ...ruleset import Event, Owed, RulesetError, Submission, register
from . import bot, caseposition, engine, grammar, invariants, lines, submission, terms
from . import position as pos
from .gamedata import DATA_VERSION, load_gamedata
from .newgame import initial_state
from ...plaindata import clone

SECRET = ("seed", "deck", "hands", "followers", "plans", "choice")
PLAYER_NAMES = ("alice", "bob", "carol", "dave")



def gamedata_of(state: dict):
    return load_gamedata(state.get("data_version", DATA_VERSION))


class Claim:
    data_version = DATA_VERSION
    keywords = frozenset(grammar.COMMAND_WORDS)  # first words of a command line (mailbody.not_orders)

    def __init__(self, name: str):
        self.name = name

    def new_game(self, players: list[str], options: dict[str, str], seed: int) -> dict:
        return initial_state(self.name, list(players), dict(options or {}), seed)

    def pending(self, state: dict) -> list[Owed]:
        return engine.pending(state, gamedata_of(state))

    def submit(self, state: dict, player: str, text: str) -> Submission:
        return submission.submit(state, gamedata_of(state), player, text)

    def advance(self, state: dict, *, force: bool) -> tuple[dict, list[Event]]:
        return state, engine.advance(state, gamedata_of(state), force)

    def result(self, state: dict) -> str | None:
        return state["winner"]

    def agreed_draw(self, state: dict, players: list[str]) -> dict:
        """A draw both players voted for (DRAW by mail): the draw the rules know for a tie."""
        state.update(winner="draw", step="over", result={"tied": list(players), "sides": {}})
        return state

    def phase(self, state: dict) -> str:
        """One trick: the player whose turn it is hears at once, the others when the trick is over."""
        return f"{state['phase']} {state['trick']}"

    def summary(self, state: dict) -> Msg:
        gd = gamedata_of(state)
        if state["winner"] is not None:
            if state["winner"] == "draw":
                return Msg("claim.summary.draw", tied=list((state.get("result") or {}).get("tied") or []))
            row = ((state.get("result") or {}).get("sides") or {}).get(state["winner"]) or {}
            return Msg("claim.summary.win", winner=state["winner"], factions=len(row.get("factions", [])))
        where = {"phase": state["phase"], "trick": state["trick"], "tricks": state["deal"]}
        if state["step"] == "take":
            return Msg("claim.summary.choose", where, player=state["choice"]["player"])
        return Msg("claim.summary.play", where, player=state["turn"], prizes=terms.in_order(gd, state["prizes"]))

    def on_file(self, state: dict, player: str) -> list[str]:
        return submission.on_file(state, gamedata_of(state), player)

    def line(self, text: str, language: str) -> str:
        """A canonical line (echo, example, on file) in ``language``'s command words and names."""
        return lines.line(load_gamedata(DATA_VERSION), text, language)

    def view(self, state: dict, player: str | None) -> dict:
        """What ``player`` may see (None: the GM sees everything).

        Secret: the seed and the deck's order (its size is public), other players' hands and
        follower piles (their sizes are public), their plays and choices sent ahead, the card a
        Seer looked at (to all but the Seer). Public: prizes, the table, score piles, kept
        Gnomes, set-aside Trolls, discards, crushed Gnomes, the previous trick.
        """
        gd = gamedata_of(state)
        if player is None:
            view = clone(state)
        else:
            view = {k: clone(v) for k, v in state.items() if k not in SECRET}
            view["deck"] = len(state["deck"])
            view["hands"] = {p: (list(h) if p == player else len(h)) for p, h in state["hands"].items()}
            view["followers"] = {p: (list(f) if p == player else len(f)) for p, f in state["followers"].items()}
            view["plan"] = clone(state["plans"].get(player) or {"play": [], "take": []})
            choice = state.get("choice")
            if choice is not None:
                choice = dict(choice, ranking=list(choice["ranking"]))
                choice["looked"] = bool(choice.get("peek"))
                if choice["player"] != player:
                    choice["peek"] = None
            view["choice"] = choice
        view["round"] = state["trick"]
        view["legal"] = pos.legal(state, gd, player) if player is not None else (
            pos.legal(state, gd, state["turn"]) if state["step"] == "play" and state["turn"] else [])
        return view

    # self-play (adjudicator/selfplay.py)
    def default_players(self, count: int) -> list[str]:
        gd = load_gamedata(DATA_VERSION)
        if not gd.min_players <= count <= gd.max_players:
            raise RulesetError(f"{self.name} is played by {gd.min_players} to {gd.max_players} players, not {count}")
        return list(PLAYER_NAMES[:count])

    def bot_mail(self, state: dict, player: str, rng) -> str | None:
        return bot.mail_for(state, gamedata_of(state), player, rng)

    def violations(self, state: dict) -> list[str]:
        gd = gamedata_of(state)
        problems = invariants.violations(state, gd)
        for player in state["players"]:
            problems += [f"{player} sees {leak}" for leak in invariants.leaks(self.view(state, player), state, player)]
        return problems

    def selfplay_summary(self, state: dict, events: list[Event]) -> str:
        result = state.get("result") or {}
        rows = ", ".join(f"{side} {len(r['factions'])}" for side, r in (result.get("sides") or {}).items())
        dragons = sum(1 for e in events if e.key == "claim.trick.won" and e.params.get("leader"))
        return f"winner {state['winner'] or 'none'}, factions {rows or '-'}, {dragons} dragon leads"

    # rules cases (adjudicator/cases.py)
    def case_state(self, position: dict) -> dict:
        return caseposition.case_state(self.name, position)

    case_keys = frozenset(caseposition.POSITION_SHAPES)
    case_done = staticmethod(caseposition.case_done)
    case_compare = staticmethod(caseposition.case_compare)


CLAIM2 = register(Claim("claim2"))
CLAIM = register(Claim("claim"))
