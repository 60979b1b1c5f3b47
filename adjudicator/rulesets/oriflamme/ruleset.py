"""``oriflamme``: Krvavý trůn (Oriflamme, Adrien & Axel Hesling) by mail, 3-5 players, as a judge ruleset.

This module is the glue between the judge's interface (``adjudicator/ruleset.py``) and the pure
modules: ``engine`` (the step machine) and ``effects`` (the ten abilities); mails through
``submission`` and ``grammar``; rules-case positions through ``caseposition``; self-play
through ``bot`` and ``invariants``; reports through ``display`` and the templates
``templates/<lang>/oriflamme/``. The rules decisions are in the README section
"Oriflamme (Krvavý trůn)" and in the game's HELP.

The ruleset speaks in messages (``oriflamme.*`` keys, catalogues
``templates/<lang>/oriflamme/messages.yaml``): events, owed decisions, errors, notes and the
summary; canonical lines are rendered in a player's language by :meth:`Oriflamme.line`.
"""

from __future__ import annotations


from ...messages import Msg
from ...ruleset import Event, Owed, RulesetError, Submission, register, require_player
from . import bot, caseposition, engine, grammar, invariants, lines, submission
from . import position as pos
from .gamedata import DATA_VERSION, load_gamedata
from .newgame import initial_state
from ...plaindata import clone

SECRET_KEYS = ("seed", "draws", "hands", "aside", "plans", "queue")


def gamedata_of(state: dict):
    return load_gamedata(state["data_version"])


class Oriflamme:
    name = "oriflamme"
    data_version = DATA_VERSION
    keywords = frozenset(grammar.COMMAND_WORDS)  # first words of a command line (mailbody.not_orders)

    def new_game(self, players: list[str], options: dict[str, str], seed: int) -> dict:
        return initial_state(players, seed, options)

    def pending(self, state: dict) -> list[Owed]:
        return engine.pending(state, gamedata_of(state))

    def submit(self, state: dict, player: str, text: str) -> Submission:
        require_player(player, state["players"])
        return submission.submit(state, gamedata_of(state), player, text)

    def advance(self, state: dict, *, force: bool) -> tuple[dict, list[Event]]:
        return state, engine.advance(state, gamedata_of(state), force)

    def result(self, state: dict) -> str | None:
        return state["winner"]

    def agreed_draw(self, state: dict, players: list[str]) -> dict:
        """A draw every player voted for (DRAW by mail): the shared victory the rules know for a tie."""
        state.update(agreed_in=state["phase"], phase="over", winners=list(players), winner="draw")
        return state

    def phase(self, state: dict) -> str:
        """A round's placement, then its resolution: reports come as one digest per phase."""
        return f"{state['round']} {state['phase']}"

    def summary(self, state: dict) -> Msg:
        gd = gamedata_of(state)
        if state["phase"] == "over":
            if state["winner"] == "draw":
                return Msg("oriflamme.summary.shared", round=state["round"], players=list(state["winners"]))
            return Msg("oriflamme.summary.won", round=state["round"], player=state["winner"])
        at = {"round": state["round"], "rounds": gd.game.rounds}
        if state["phase"] == "place":
            return Msg("oriflamme.summary.placement", at, player=pos.placer(state))
        n = len(state["queue"])
        if state["cursor"] >= n:
            return Msg("oriflamme.summary.resolved", at)
        return Msg("oriflamme.summary.resolution", at, position=state["cursor"] + 1, size=n)

    def on_file(self, state: dict, player: str) -> list[str]:
        if player not in state["players"]:
            return []
        return submission.on_file(state, gamedata_of(state), player)

    def line(self, text: str, language: str) -> str:
        """A canonical line in ``language``'s command words and card names (``PLACE Archer BACK`` ->
        ``VYLOŽ Lučištnici NA KONEC``), which the grammar reads back as the same command."""
        return lines.in_language(text, language, load_gamedata(DATA_VERSION))

    def view(self, state: dict, player: str | None) -> dict:
        """What ``player`` may see (None: the GM sees everything).

        Secret to everyone but the owner: hands, the cards set aside, the identity of face-down
        cards in the queue (covered ones included), decisions sent ahead; to everyone: the seed.
        Public: the queue's shape (owners, face up or down, influence on cards), face-up cards,
        discards, influence, hand sizes.
        """
        gd = gamedata_of(state)
        if player is None:
            view = clone(state)
        else:
            view = {k: clone(v) for k, v in state.items() if k not in SECRET_KEYS}
            view["hands"] = {p: (list(c) if p == player else len(c)) for p, c in state["hands"].items()}
            view["aside"] = {p: (list(c) if p == player else len(c)) for p, c in state["aside"].items()}
            view["queue"] = [[{k: v for k, v in c.items() if k != "card" or c["up"] or c["owner"] == player}
                              for c in stack] for stack in state["queue"]]
            view["plan"] = clone(pos.plan(state, player)) if player in state["players"] else None
        q = engine.question(state, gd)
        view["step"] = q["kind"] if q else None
        view["question"] = None if q is None else {
            "kind": q["kind"], "player": q["player"], "what": engine.describe(state, gd, q).as_dict(),
            "position": (q["pos"] + 1) if "pos" in q else None}
        view["placing"] = pos.placer(state)
        view["rounds"] = gd.game.rounds
        return view

    # self-play (adjudicator/selfplay.py)
    def default_players(self, count: int) -> list[str]:
        gd = load_gamedata(DATA_VERSION)
        if not gd.game.min_players <= count <= gd.game.max_players:
            raise RulesetError(f"oriflamme is played by {gd.game.min_players} to {gd.game.max_players} players, not {count}")
        return list(gd.game.families[:count])

    def bot_mail(self, state: dict, player: str, rng) -> str | None:
        return bot.mail_for(state, gamedata_of(state), player, rng)

    def violations(self, state: dict) -> list[str]:
        problems = invariants.violations(state, gamedata_of(state))
        for player in state["players"]:
            problems += [f"{player} sees {leak}" for leak in invariants.leaks(self.view(state, player), state, player)]
        return problems

    def selfplay_summary(self, state: dict, events: list[Event]) -> str:
        eliminations = sum(1 for e in events if e.to is None and e.key == "oriflamme.eliminates")
        winner = state["winner"] or "none"
        if winner == "draw":
            winner = "shared by " + "+".join(state["winners"])
        return f"winner {winner}, round {state['round']}, {eliminations} eliminations"

    # rules cases (adjudicator/cases.py)
    case_state = staticmethod(caseposition.case_state)
    case_keys = frozenset(caseposition.POSITION_SHAPES)
    case_done = staticmethod(caseposition.case_done)
    case_compare = staticmethod(caseposition.case_compare)


ORIFLAMME = register(Oriflamme())
