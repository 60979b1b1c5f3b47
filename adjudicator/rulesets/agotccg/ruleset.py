"""``agotccg``: the A Game of Thrones collectible card game (basic rules v3.7) by mail, 2-4 players.

This module is the glue between the judge's interface (``adjudicator/ruleset.py``) and the pure
modules: ``engine`` (setup and the six phases) and ``challenges`` (challenges, claims, dominance,
power); mails through ``submission`` and ``grammar``; rules-case positions through
``caseposition``; self-play through ``bot`` and ``invariants``; reports through ``display`` and the
templates ``templates/<lang>/agotccg/``. The rules decisions are in ``RULES.md`` next to this file
and in the README section "A Game of Thrones CCG".

The cards are the judge's own rules-compatible starter set (``games/agotccg/v1``), not the
publisher's. The ruleset speaks in messages (``agotccg.*`` keys, catalogues
``templates/<lang>/agotccg/messages.yaml``); canonical lines are rendered in a player's language by
:meth:`AgotCcg.line`.
"""

from __future__ import annotations

from ...messages import Msg
from ...plaindata import clone
from ...ruleset import Event, Owed, RulesetError, Submission, register, require_player
from . import bot, caseposition, engine, grammar, invariants, lines, submission
from . import position as pos
from .gamedata import DATA_VERSION, load_gamedata
from .newgame import initial_state

SECRET_KEYS = ("seed", "draws", "deck", "hand", "plans", "plots")
PLAYER_NAMES = ("alice", "bob", "carol", "dave")


def gamedata_of(state: dict):
    return load_gamedata(state.get("data_version", DATA_VERSION))


class AgotCcg:
    name = "agotccg"
    data_version = DATA_VERSION
    keywords = frozenset(grammar.COMMAND_WORDS)

    def new_game(self, players: list[str], options: dict[str, str], seed: int) -> dict:
        return initial_state(players, seed, options)

    def pending(self, state: dict) -> list[Owed]:
        if state["winner"] is not None:
            return []
        return engine.pending(state, gamedata_of(state))

    def submit(self, state: dict, player: str, text: str) -> Submission:
        require_player(player, state["players"])
        return submission.submit(state, gamedata_of(state), player, text)

    def advance(self, state: dict, *, force: bool) -> tuple[dict, list[Event]]:
        return state, engine.advance(state, gamedata_of(state), force)

    def result(self, state: dict) -> str | None:
        return state["winner"]

    def phase(self, state: dict) -> str:
        """The round and phase (``3 challenges``): reports come as a digest per phase."""
        return f"{state['round']} {state['phase']}"

    def summary(self, state: dict) -> Msg:
        if state["winner"] is not None:
            return Msg("agotccg.summary.won", round=state["round"], player=state["winner"],
                       power=pos.total_power(state, state["winner"]))
        gd = gamedata_of(state)
        q = engine.question(state, gd)
        who = q["players"][0] if q and len(q["players"]) == 1 else None
        challenge = state.get("challenge") or {}
        return Msg("agotccg.summary.running", round=state["round"], phase=state["phase"], step=state["step"],
                   player=who, type=challenge.get("type"), attacker=challenge.get("attacker"),
                   defender=challenge.get("defender"))

    def on_file(self, state: dict, player: str) -> list[str]:
        if player not in state["players"]:
            return []
        return submission.on_file(state, gamedata_of(state), player)

    def line(self, text: str, language: str) -> str:
        """A canonical line in ``language``'s command words and card names (``ATTACK MILITARY Bob:
        Frostfang`` -> ``VÝZVA VOJENSKÁ Bob: Frostfang``), which the grammar reads back as the same command."""
        return lines.in_language(text, language, load_gamedata(DATA_VERSION))

    def view(self, state: dict, player: str | None) -> dict:
        """What ``player`` may see (None: the GM sees everything).

        Secret to everyone but the owner: the hand, the plots left in the plot deck, the plot
        chosen before the reveal and the setup cards before theirs (both in the plan), every
        decision sent ahead. Secret to everyone: the order of the decks, the seed. Public: houses,
        the cards in play (with power, attachments, duplicates, kneeling), revealed and used plots,
        power, discard and dead piles, the sizes of hands, decks and plot decks, the challenge under
        way, and who owes what.
        """
        gd = gamedata_of(state)
        if player is None:
            view = clone(state)
        else:
            view = {k: clone(v) for k, v in state.items() if k not in SECRET_KEYS}
            view["hand"] = {p: (list(h) if p == player else len(h)) for p, h in state["hand"].items()}
            view["plots"] = {p: {"deck": list(x["deck"]) if p == player else len(x["deck"]), "used": list(x["used"]),
                                 "current": x["current"]} for p, x in state["plots"].items()}
            view["plan"] = clone(pos.plan(state, player)) if player in state["players"] else None
            view["deck"] = {p: len(d) for p, d in state["deck"].items()}
        q = engine.question(state, gd)
        view["question"] = None if q is None or state["winner"] is not None else {
            "kind": q["kind"], "players": list(q["players"]), "what": engine.describe(state, gd, q).as_dict()}
        view["power"] = {p: pos.total_power(state, p) for p in state["players"]}
        return view

    # self-play (adjudicator/selfplay.py)
    def default_players(self, count: int) -> list[str]:
        gd = load_gamedata(DATA_VERSION)
        if not gd.game.min_players <= count <= gd.game.max_players:
            raise RulesetError(f"agotccg is played by {gd.game.min_players} to {gd.game.max_players} players, "
                               f"not {count}")
        return list(PLAYER_NAMES[:count])

    def bot_mail(self, state: dict, player: str, rng) -> str | None:
        return bot.mail_for(state, gamedata_of(state), player, rng)

    def violations(self, state: dict) -> list[str]:
        problems = invariants.violations(state, gamedata_of(state))
        for player in state["players"]:
            problems += [f"{player} sees {leak}" for leak in invariants.leaks(self.view(state, player), state, player)]
        return problems

    def selfplay_summary(self, state: dict, events: list[Event]) -> str:
        challenges = sum(1 for e in events if e.to is None and e.key == "agotccg.attack")
        killed = sum(1 for e in events if e.to is None and e.key == "agotccg.killed")
        power = ", ".join(f"{p} {pos.total_power(state, p)}" for p in state["players"])
        return (f"winner {state['winner'] or 'none'}, round {state['round']}, power {power}, "
                f"{challenges} challenges, {killed} killed")

    # rules cases (adjudicator/cases.py)
    case_state = staticmethod(caseposition.case_state)
    case_done = staticmethod(caseposition.case_done)
    case_compare = staticmethod(caseposition.case_compare)


AGOTCCG = register(AgotCcg())
