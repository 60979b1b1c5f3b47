"""The interface every game implements, and the registry of rulesets by name.

A ruleset is pure: functions of a plain, YAML-serialisable state (a dict) and of the
decisions players send. It never reads a file it was not given, never looks at a clock and
never draws an unseeded random number; the judge (``judge.py``) does all of that around it.

The judge drives a game through a queue of *pending decisions*: ``pending(state)`` says who
owes what in the current step; players' commands are folded in with ``submit``; when every
owed decision is in (or the deadline passed, ``force=True``) the judge calls ``advance``,
which resolves one step, fills in the documented defaults for what is missing and says so in
its events.

A ruleset speaks in messages (:mod:`adjudicator.messages`), never in sentences: events, owed
decisions, errors, notes and summaries are keys with parameters in the ruleset's namespace,
rendered per language from ``templates/<lang>/<ruleset>/messages.yaml``; canonical command
lines are turned into a language's words by ``line``.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field
from typing import Any, Iterable, Literal, Mapping, Protocol, runtime_checkable

from .messages import Msg, render

State = dict[str, Any]
DeadlineKind = Literal["planning", "step"]
OBSERVER = "#observer"
"""The viewer of a game's public page (``judge web``) and of an observer's reports (``OBSERVE`` by
mail, ``mail/observers.py``): a name no seat can have, so that
``view(state, OBSERVER)`` is what every player may see and nothing any one of them holds alone
(a ruleset's ``view`` treats every name that is not a seat so); pictures label it "Public view"."""


@dataclass(frozen=True)
class Owed:
    """One decision the current step waits for."""

    player: str
    what: Msg | str  # short: "orders", "the house card for the battle at Blackwater" (a message)
    deadline_kind: DeadlineKind = "step"
    done: bool = False  # already sent (or sent ahead and legal now)


class LineError(ValueError):
    """A refused line, raised inside a ruleset's grammar and turned into a :class:`LineResult`:
    ``message`` says why, ``example`` is a valid line, ``fix`` a (wrong, right) pair of words a
    valid example may be made from (a grammar that guesses a misspelt name)."""

    def __init__(self, message: Msg, example: str | None = None, fix: tuple[str, str] | None = None):
        super().__init__(message.key)
        self.message, self.example, self.fix = message, example, fix

    def __str__(self) -> str:  # the English, for logs and tracebacks; rendered only when asked
        return str(self.message)


@dataclass(frozen=True)
class LineResult:
    """What the judge understood of one line of a player's mail."""

    lineno: int
    text: str
    canonical: str | None = None  # accepted, in canonical form (the grammar's own words; see Ruleset.line)
    error: Msg | str | None = None  # rejected: what was wrong (a message)
    example: str | None = None  # a valid example for the rejected line (a canonical line)
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


class Event(Msg):
    """Something that happened, for the reports: a message (:class:`~adjudicator.messages.Msg`)
    with its audience. ``to`` None means everyone may see it."""

    def __init__(self, key: str, params: Mapping[str, Any] | None = None, to: Iterable[str] | None = None,
                 **more: Any):
        fields = self.__dict__  # (as Msg.__init__, with the audience)
        fields["key"] = key if type(key) is str else str(key)
        fields["params"] = {**params, **more} if params else more
        fields["to"] = tuple(to) if to is not None else None

    def __setattr__(self, name, value):
        raise AttributeError("an Event does not change")

    def __eq__(self, other) -> bool:
        return isinstance(other, Event) and (self.key, dict(self.params), self.to) == (other.key, dict(other.params),
                                                                                       other.to)

    def __hash__(self):
        return hash((Msg.__hash__(self), self.to))

    def __repr__(self) -> str:
        return f"Event({self.key!r}, {dict(self.params)!r}, to={self.to!r})"

    @property
    def text(self) -> str:
        """In English (the GM's output, logs, rules cases)."""
        return render(self, "en")

    def visible_to(self, player: str | None) -> bool:
        return self.to is None or player is None or player in self.to

    def as_dict(self) -> dict:
        data = Msg.as_dict(self)
        return data if self.to is None else {**data, "to": list(self.to)}

    @classmethod
    def from_dict(cls, data: dict) -> "Event":
        message = Msg.from_dict(data)
        to = data.get("to")
        return cls(message.key, message.params, tuple(to) if to is not None else None)


_new = object.__new__


def fast_event(key: str, /, to: Iterable[str] | None = None, **params: Any) -> Event:
    """``Event(key, to=to, **params)``, made in about half the time (as :func:`~adjudicator.messages.fast_msg`):
    for an engine's inner loops."""
    made = _new(Event)
    fields = made.__dict__
    fields["key"] = key
    fields["params"] = params
    fields["to"] = tuple(to) if to is not None else None
    return made


@dataclass
class Submission:
    """Outcome of folding a mail into a state: the new state and what to tell the sender."""

    state: State
    parsed: Parsed
    applied: bool  # False when the mail had errors: all-or-nothing, nothing changed
    notes: list[Msg | str] = field(default_factory=list)  # private notes to the sender (messages)
    # Mail-level requests the mail service answers (they change nothing in the state), in mail
    # order: ("help", topic | None), ("status",), ("orders?",), and
    # ("press", "ALL" | (player, ...), text, anonymous). Filled even when ``applied`` is False;
    # the mail layer relays press only from an applied mail (adjudicator/mail/process.py).
    requests: list[tuple] = field(default_factory=list)


class RulesetError(ValueError):
    """A configuration or position a ruleset refuses (bad player names, illegal case position)."""


class UnknownPlayer(RulesetError):
    """A decision of a player the state does not have: the judge checks seats before it submits,
    a rules case's ``decisions`` do not (``cases.py`` names the case's players)."""

    def __init__(self, player: str, players: Iterable[str]):
        self.player, self.players = player, list(players)
        super().__init__(f"no player {player!r} in this game (players: {', '.join(self.players)})")


def require_player(player: str, players: Iterable[str]) -> None:
    """``submit``'s first check, the same in every ruleset."""
    if player not in players:
        raise UnknownPlayer(player, players)


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

    def summary(self, state: State) -> Msg | str:
        """Where the game stands, as a message ("round 3, action: marches"): subjects, status lines."""
        ...

    def result(self, state: State) -> str | None:
        """The winner (a player name or "draw") once the game is over, else None."""
        ...

    def on_file(self, state: State, player: str) -> list[str]:
        """What the judge holds for ``player`` in the current step, as canonical lines."""
        ...

    def phase(self, state: State) -> str:
        """Optional: which phase of the game ``state`` is in (``"3 action"``). A player's report
        waits, unless they must act, until the phase changes (mail/process.py ``report_due``);
        without this hook every step is a phase of its own."""
        ...

    def agreed_draw(self, state: State, players: list[str]) -> State:
        """Optional: the game ended in a draw shared by ``players``, every surviving player having
        voted for it (``DRAW`` by mail, ``adjudicator/mail/draw.py``); afterwards ``result`` is
        ``"draw"``. Only a ruleset whose rules know a shared result has it: Oriflamme (a tie is a
        shared victory) and Claim (a tie is a draw); not agot1e, whose rules break every tie
        (castles, supply, power, the Iron Throne), nor the AGoT CCG. Without it, DRAW is refused."""
        ...

    def survivors(self, state: State) -> list[str]:
        """Optional: the players still in the game, whose votes a draw needs (default: every player)."""
        ...

    def line(self, text: str, language: str) -> str:
        """A canonical line (an echo, an example, a line on file) in ``language``'s command words
        and names, such that the grammar reads it back as the same command."""
        ...


_REGISTRY: dict[str, Ruleset] = {}
_BUILTIN = {"agot1e": "adjudicator.rulesets.agot1e.ruleset",
            "agot2e": "adjudicator.rulesets.agot2e.ruleset",
            "agot2e-ru": "adjudicator.rulesets.agot2e_ru.ruleset",
            "claim2": "adjudicator.rulesets.claim.ruleset",
            "claim": "adjudicator.rulesets.claim.ruleset",
            "oriflamme": "adjudicator.rulesets.oriflamme.ruleset",
            "agotccg": "adjudicator.rulesets.agotccg.ruleset"}
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
