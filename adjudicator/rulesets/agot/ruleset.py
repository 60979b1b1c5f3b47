"""An AGoT edition as a judge ruleset: the class each edition package subclasses with its :class:`Edition`.

This module is the glue between the judge's interface (``adjudicator/ruleset.py``) and the
pure step modules: ``planning``, ``action``, ``battle`` through ``engine``; mails through
``submission``; rules-case positions through ``caseposition``. Each edition's ruleset class lives in
its own package (``rulesets/agot1e/ruleset.py``) so that ``reports.py`` finds that package's
``display`` and ``picture`` modules next to it.
"""

from __future__ import annotations


from ...messages import Msg
from ...plaindata import clone
from ...ruleset import Event, Owed, RulesetError, Submission, require_player
from . import bot, caseposition, engine, grammar, invariants, ledger, lines, submission
from .context import ctx_of
from .edition import Edition
from .newgame import initial_state


class AgotRuleset:
    rules: Edition  # set by each edition's subclass

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def keywords(self) -> frozenset[str]:
        """The first words of the edition's command lines (mailbody.not_orders: never prose)."""
        return frozenset(grammar.command_words(bool(self.rules.shape.wildling_cards), self.rules.variant is not None))

    @property
    def data_version(self) -> str:
        return self.rules.data_version

    def new_game(self, players: list[str], options: dict[str, str], seed: int) -> dict:
        if options:
            raise RulesetError(f"{self.name} has no options (got {', '.join(options)})")
        return initial_state(self.rules, players, seed)

    def pending(self, state: dict) -> list[Owed]:
        return engine.pending(state, ctx_of(state))

    def submit(self, state: dict, player: str, text: str) -> Submission:
        require_player(player, state["houses"])
        return submission.submit(state, ctx_of(state), player, text)

    def advance(self, state: dict, *, force: bool) -> tuple[dict, list[Event]]:
        published = ledger.publish(state)  # agot2e-ru: mails' transactions first
        events = engine.advance(state, ctx_of(state), force)
        return state, published + events if published else events

    def result(self, state: dict) -> str | None:
        return state["winner"]

    def phase(self, state: dict) -> str:
        """A round's Westeros, planning or action phase: reports come as one digest per phase."""
        return f"{state['round']} {state['phase']}"

    def summary(self, state: dict) -> Msg:
        if state["winner"] is not None:
            return Msg("agot.summary.over", round=min(state["round"], 10), winner=state["winner"],
                       shared=state.get("shared_win"))  # agot2e-ru: the equals who share the win
        cards = (state.get("westeros") or {}).get("cards")
        drawn = [Msg("agot.westeros.drawn", deck=d, card=c) for d, c in cards.items()] \
            if cards and state["phase"] == "westeros" else []
        return Msg("agot.summary", round=state["round"], phase=state["phase"], step=state["step"], cards=drawn)

    def line(self, text: str, language: str) -> str:
        """A canonical line in ``language``'s command words (``MARCH Winterfell -> Karhold: 1 footman`` ->
        ``POCHOD Winterfell -> Karhold: 1 pěšák``), which the grammar reads back as the same command."""
        return lines.in_language(text, language)

    def on_file(self, state: dict, player: str) -> list[str]:
        return submission.on_file(state, ctx_of(state), player)

    def view(self, state: dict, player: str | None) -> dict:
        """What ``player`` may see (None: the GM sees everything).

        Secret: other houses' plans (orders before the reveal, instructions sent ahead, card
        choices, bids until they are resolved), other houses' hands (their size is public), the
        seed and the order of the Westeros decks and (2e) of the wildling deck (only their sizes are public),
        (2e) the Tides of Battle cards drawn while the Blade's holder decides its redraw.
        """
        if player is None:
            return clone(state)
        # The battle dict holds only what is public (cards are set there when both are revealed);
        # so does state['westeros'] (bids are copied there once resolved).
        public = {k: v for k, v in state.items()
                  if k not in ("plans", "hands", "seed", "decks", "wildling_deck", "tides_secret")}
        view, own_plan = clone((public, state["plans"].get(player)))  # one copy of everything the view holds
        if "decks" in state:
            view["decks"] = {deck: len(cards) for deck, cards in state["decks"].items()}
        if "wildling_deck" in state:  # 2e: its order is secret, its size public
            view["wildling_deck"] = len(state["wildling_deck"])
        view["hands"] = {h: (list(cards) if h == player else len(cards)) for h, cards in state["hands"].items()}
        view["plan"] = own_plan
        return view

    # self-play (adjudicator/selfplay.py)
    def default_players(self, count: int) -> list[str]:
        try:
            return list(self.rules.gamedata().setup.game(count).houses)
        except (KeyError, ValueError):
            counts = sorted(self.rules.gamedata().setup.player_counts)
            raise RulesetError(f"{self.name} is played by {', '.join(map(str, counts[:-1]))} or {counts[-1]} houses,"
                               f" not {count}") from None

    def bot_mail(self, state: dict, player: str, rng) -> str | None:
        return bot.mail_for(state, ctx_of(state), player, rng)

    def violations(self, state: dict) -> list[str]:
        ctx = ctx_of(state)
        problems = invariants.violations(state, ctx) + invariants.missed_victory(state, ctx)
        for house in state["houses"]:
            problems += [f"{house} sees {leak}" for leak in invariants.leaks(self.view(state, house), state, house)]
        return problems

    def selfplay_summary(self, state: dict, events: list[Event]) -> str:
        battles = sum(1 for e in events if e.text.startswith("Battle at "))
        return f"winner {state['winner'] or 'none'}, round {min(state['round'], 10)}, {battles} battles"

    # rules cases (adjudicator/cases.py)
    def case_state(self, position: dict) -> dict:
        return caseposition.case_state(self.rules, position)

    case_keys = frozenset(caseposition.POSITION_SHAPES)
    case_done = staticmethod(caseposition.case_done)
    case_compare = staticmethod(caseposition.case_compare)
