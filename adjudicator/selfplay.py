"""Self-play: seeded bots play whole games, and every step is checked against the invariants.

Game-agnostic. A ruleset that supports it adds three hooks to its interface:

* ``bot_mail(state, player, rng) -> str | None``: a random legal decision for what ``player``
  owes, written in the game's mail grammar (so every bot game exercises the parser too);
* ``violations(state) -> list[str]``: broken invariants, including secrets visible in views;
* ``selfplay_summary(state, events) -> str``: the one-line summary of a finished game.

:func:`play` drives the pure engine (fast: the campaigns); :func:`play_stored` drives the same
bots through a :class:`~adjudicator.judge.Judge`, so that the game has a journal and
``judge replay`` can rebuild it. Both raise :class:`InvariantViolation` at the first problem.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import timedelta

from .judge import Judge
from .ruleset import Event, Ruleset
from .plaindata import clone


class InvariantViolation(AssertionError):
    """An engine bug: the seed and step reproduce it."""

    def __init__(self, seed: int, step: int, summary: str, problems: list[str]):
        self.seed, self.step, self.problems = seed, step, problems
        super().__init__(f"seed {seed}, step {step} ({summary}): " + "; ".join(problems))


@dataclass
class Played:
    seed: int
    state: dict
    steps: int = 0
    events: list[Event] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)  # bot mails the judge refused: a bot or engine bug

    def summary(self, ruleset: Ruleset) -> str:
        return ruleset.selfplay_summary(self.state, self.events)


def supports_selfplay(ruleset: Ruleset) -> bool:
    return all(hasattr(ruleset, hook) for hook in ("bot_mail", "violations", "selfplay_summary"))


def _rejections(player: str, text: str, parsed) -> str:
    return f"{player}: {text!r}: " + "; ".join(f"{ln.text}: {ln.error}" for ln in parsed.lines if not ln.ok)


def play(ruleset: Ruleset, players: list[str], seed: int, *, options: dict | None = None, max_steps: int = 5000,
         silence: float = 0.1, stop=None) -> Played:
    """Play one game on the engine alone. ``silence``: the chance a player sends nothing when
    asked (the step then takes the defaults); ``stop(state)``: end early when true."""
    rng = random.Random(seed)
    state = ruleset.new_game(list(players), dict(options or {}), seed)
    played = Played(seed, state)
    for step in range(max_steps):
        if ruleset.result(state) is not None or (stop and stop(state)):
            break
        for owed in ruleset.pending(state):
            if owed.done or rng.random() < silence:
                continue
            text = ruleset.bot_mail(state, owed.player, rng)
            if text is None:
                continue
            sub = ruleset.submit(clone(state), owed.player, text)
            if sub.applied:
                state = sub.state
            else:
                played.rejected.append(_rejections(owed.player, text, sub.parsed))
        complete = all(o.done for o in ruleset.pending(state))
        state, events = ruleset.advance(state, force=not complete)
        played.events.extend(events)
        played.steps = step + 1
        problems = ruleset.violations(state)
        if problems:
            raise InvariantViolation(seed, step, ruleset.summary(state), problems)
    played.state = state
    return played


def play_stored(judge: Judge, game_id: str, ruleset_name: str, players: list[str], seed: int, *,
                options: dict | None = None, tick=None, max_steps: int = 5000, silence: float = 0.1) -> Played:
    """Play one game through ``judge``: every bot mail is a journaled submission, every missing
    decision a forced adjudication; ``tick(delta)`` moves the judge's clock (a fake clock)."""
    rng = random.Random(seed)
    judge.new_game(game_id, ruleset_name, {p: {"address": f"{p}@selfplay.invalid"} for p in players}, seed=seed,
                   options=dict(options or {}))
    present = judge.present(game_id)
    ruleset = present.ruleset
    played = Played(seed, present.state)
    for step in range(max_steps):
        present = judge.present(game_id)
        if ruleset.result(present.state) is not None:
            break
        for owed in present.owed():
            if owed.done or rng.random() < silence:
                continue
            text = ruleset.bot_mail(judge.present(game_id).state, owed.player, rng)
            if text is None:
                continue
            outcome = judge.submit(game_id, owed.player, text, source="bot")
            played.events.extend(outcome.events)
            if not outcome.applied:
                played.rejected.append(_rejections(owed.player, text, outcome.parsed))
        if tick:
            tick(timedelta(hours=1))
        present = judge.present(game_id)
        if ruleset.result(present.state) is None and present.owed() and present.missing():
            played.events.extend(judge.adjudicate(game_id, force=True, reason="deadline").events)
        played.steps = step + 1
        problems = ruleset.violations(judge.present(game_id).state)
        if problems:
            raise InvariantViolation(seed, step, ruleset.summary(present.state), problems)
    played.state = judge.present(game_id).state
    return played
