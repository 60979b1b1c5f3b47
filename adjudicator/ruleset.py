"""The interface every game implements, and the registry of rulesets by name.

A ruleset is pure: functions of a plain, YAML-serialisable state (a dict) and of the
decisions players send. It never reads a file it was not given, never looks at a clock and
never draws an unseeded random number; the judge (``judge.py``) does all of that around it.

The judge drives a game through a queue of *pending decisions*: ``pending(state)`` says who
owes what in the current step; players' commands are folded in with ``submit``; when every
owed decision is in (or the deadline passed, ``force=True``) the judge calls ``advance``,
which resolves one step, fills in the documented defaults for what is missing and says so in
its events.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

State = dict[str, Any]
DeadlineKind = Literal["planning", "step"]


@dataclass(frozen=True)
class Owed:
    """One decision the current step waits for."""

    player: str
    what: str  # short, human: "orders", "house card for the battle at Blackwater"
    deadline_kind: DeadlineKind = "step"
    done: bool = False  # already sent (or sent ahead and legal now)


@dataclass(frozen=True)
class LineResult:
    """What the judge understood of one line of a player's mail."""

    lineno: int
    text: str
    canonical: str | None = None  # accepted, in canonical form
    error: str | None = None  # rejected: what was wrong
    example: str | None = None  # a valid example for the rejected line
    ignored: str | None = None  # not read, not an order: why (a key of mailbody.IGNORED)

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class Parsed:
    """A mail body parsed by a ruleset: per-line results and the typed commands."""

    lines: tuple[LineResult, ...]
    commands: tuple[Any, ...] = ()

    @property
    def ok(self) -> bool:
        return all(line.ok for line in self.lines)


@dataclass(frozen=True)
class Event:
    """Something that happened, for the reports. ``to`` None means everyone may see it."""

    text: str
    to: tuple[str, ...] | None = None

    def visible_to(self, player: str | None) -> bool:
        return self.to is None or player is None or player in self.to

    def as_dict(self) -> dict:
        return {"text": self.text} if self.to is None else {"text": self.text, "to": list(self.to)}

    @classmethod
    def from_dict(cls, data: dict) -> "Event":
        to = data.get("to")
        return cls(str(data["text"]), tuple(to) if to is not None else None)


@dataclass
class Submission:
    """Outcome of folding a mail into a state: the new state and what to tell the sender."""

    state: State
    parsed: Parsed
    applied: bool  # False when the mail had errors: all-or-nothing, nothing changed
    notes: list[str] = field(default_factory=list)
    # Mail-level requests the mail service answers (they change nothing in the state), in mail
    # order: ("help", topic | None), ("status",), ("orders?",), and
    # ("press", "ALL" | (player, ...), text, anonymous). Filled even when ``applied`` is False;
    # the mail layer relays press only from an applied mail (adjudicator/mail/process.py).
    requests: list[tuple] = field(default_factory=list)


class RulesetError(ValueError):
    """A configuration or position a ruleset refuses (bad player names, illegal case position)."""


@runtime_checkable
class Ruleset(Protocol):
    """What the judge needs from a game. See the module docstring for the contract."""

    name: str
    data_version: str  # the version of the game data a new game is created with
    keywords: frozenset[str]  # folded first words that start a command line (so never a greeting or a name)

    def new_game(self, players: list[str], options: dict[str, str], seed: int) -> State: ...

    def pending(self, state: State) -> list[Owed]: ...

    def submit(self, state: State, player: str, text: str) -> Submission: ...

    def advance(self, state: State, *, force: bool) -> tuple[State, list[Event]]: ...

    def view(self, state: State, player: str | None) -> dict: ...

    def summary(self, state: State) -> str: ...

    def result(self, state: State) -> str | None:
        """The winner (a player name or "draw") once the game is over, else None."""
        ...

    def on_file(self, state: State, player: str) -> list[str]:
        """What the judge holds for ``player`` in the current step, as canonical lines."""
        ...


_REGISTRY: dict[str, Ruleset] = {}
_BUILTIN = {"agot1e": "adjudicator.rulesets.agot1e.ruleset",
            "claim2": "adjudicator.rulesets.claim.ruleset",
            "claim": "adjudicator.rulesets.claim.ruleset",
            "oriflamme": "adjudicator.rulesets.oriflamme.ruleset"}
PLUGINS_ENV = "JUDGE_RULESETS"


def register(ruleset: Ruleset) -> Ruleset:
    """Make ``ruleset`` available under its name (called by each ruleset module on import)."""
    _REGISTRY[ruleset.name] = ruleset
    return ruleset


def _load_plugins() -> None:
    for module in filter(None, (m.strip() for m in os.environ.get(PLUGINS_ENV, "").split(","))):
        importlib.import_module(module)


def get(name: str) -> Ruleset:
    """The ruleset registered under ``name``; built-ins and ``$JUDGE_RULESETS`` modules load lazily."""
    if name not in _REGISTRY:
        if name in _BUILTIN:
            _import_builtin(_BUILTIN[name])
        _load_plugins()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise RulesetError(f"unknown ruleset {name!r}; known: {', '.join(sorted(names())) or 'none'}") from None


def names() -> list[str]:
    """Every ruleset that can be loaded."""
    _load_plugins()
    found = set(_REGISTRY)
    for name, module in _BUILTIN.items():
        if _import_builtin(module):
            found.add(name)
    return sorted(found)


def _import_builtin(module: str) -> bool:
    """Import a built-in ruleset module; False if it is not part of this checkout."""
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name is None or not module.startswith(exc.name):
            raise
        return False
    return True
