"""The game-agnostic judge: pending decisions, deadlines, adjudication, replay.

Every change to a game is an *input* recorded in its journal before it is applied: a player's
submission, a GM's forced adjudication, a deadline that passed, pause, resume, extend,
replace, rollback. The same function, :func:`apply_entry`, applies an input both live and when
replaying, so a game rebuilt from its first version and its journal is the game as it stands.

A game's present is its latest readable state version plus the journal entries after it. New
versions are written only when a step adjudicates (or on rollback); submissions stay in the
journal until then. Each version carries the deadline bookkeeping (``clock``) next to the
ruleset's ``state``:

* ``deadline``: when the current step's decisions are due (None: nobody owes anything);
* ``paused``: seconds that were left when the GM paused (None: running);
* ``step_kind``: ``planning`` or ``step``, which of the game's two deadlines applies.

A step is due when ``now >= deadline + grace``; players are told the deadline, the grace period
is the judge's quiet slack for mail in flight.

One input may owe several versions (a deadline with nobody's orders in runs planning -> raid ->
consolidate -> Westeros -> planning). Each version records which entry made it and which of that
entry's versions it is (``journal_seq``, ``part`` of ``parts``), so that a process killed between
two of them leaves a present that knows it is unfinished: the fold goes back to the version
before the entry, applies the entry again (engines are deterministic) and owes the versions that
were not written. Whoever touches the game next writes them (:meth:`Judge.present` included).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Callable

from . import absences, clock, deadlineindex, durability, gameindex, messages, passwords, statecheck, yamlio
from .crashpoints import crashpoint
from .messages import Msg
from .plaindata import clone
from . import ruleset as rulesets
from .ruleset import Event, Owed, Parsed, Ruleset, RulesetError
from .store import GameFiles, GameLocked, Store, StoreError
from .yamlio import YamlFileError

log = logging.getLogger("adjudicator.judge")

MAX_STEPS_PER_INPUT = 10_000
CACHE_GAMES = 256  # presents a process keeps in memory (the games most recently used)  # a ruleset that never stops asking nobody is a bug, not a game
DEFAULT_DEADLINES = {"planning": "48h", "step": "24h", "grace": "1h"}
PRESS_POLICIES = ("signed", "anonymous", "none")
REMIND_FRACTION = 0.2  # players who owe are reminded when at most this share of the step's time is left ...
REMIND_AT_MOST = timedelta(hours=12)  # ... or this much, whichever is less
STATE_ERRORS = (LookupError, TypeError, ValueError, AttributeError, ArithmeticError)  # what a damaged state raises
DIAGNOSED_VERSIONS = 8  # the versions last read that Judge.diagnose looks into (a server reads many over its life)
OVERVIEW_FILES = ("game.yaml", "states", "journal", "flag.yaml")
"""What a game's glance (:meth:`Judge.overview`) is derived from: a change to any renews it."""


class JudgeError(Exception):
    """A request the judge refuses, with a message for the GM or player."""


class DamagedVersion(JudgeError):
    """The judge failed on a state it loaded from a version file (:meth:`Judge.diagnose`); ``slip``:
    the value of the wrong type found in it, if one was."""

    def __init__(self, message: str, slip: str | None = None):
        super().__init__(message)
        self.slip = slip


@dataclass
class Present:
    """A game as it stands: config, current state, deadline bookkeeping."""

    files: GameFiles
    config: dict
    ruleset: Ruleset
    version: int  # the version the present derives from (the latest readable)
    journal_seq: int  # the last journal entry folded in
    state: dict
    clock: dict
    events: list[Event]  # events of the latest version
    problems: list[str] = field(default_factory=list)  # unreadable newer files that were skipped
    synced_seq: int = 0  # journal entries up to this one are durable for sure (a version on disk follows them)
    _owed: tuple | None = field(default=None, repr=False, compare=False)  # (the state asked about, its owed decisions)

    @property
    def game_id(self) -> str:
        return self.files.id

    def copy(self) -> "Present":
        """An independent copy of the data (the ruleset and the files are shared, not copied)."""
        return Present(self.files, clone(self.config), self.ruleset, self.version, self.journal_seq,
                       clone(self.state), dict(self.clock), list(self.events), list(self.problems), self.synced_seq)

    def sharing(self) -> "Present":
        """A new present sharing this one's config, state and clock (an input replaces them, never
        changes them in place) with lists of its own (``dataclasses.replace`` without its cost)."""
        return Present(self.files, self.config, self.ruleset, self.version, self.journal_seq, self.state, self.clock,
                       list(self.events), list(self.problems), self.synced_seq, self._owed)

    def owed(self) -> list[Owed]:
        """(Asked several times of one state per mail or tick: kept until the state is replaced;
        states are never changed in place, an input makes a new one.)"""
        if self._owed is None or self._owed[0] is not self.state:
            self._owed = (self.state, [] if self.ruleset.result(self.state) is not None else self.ruleset.pending(self.state))
        return list(self._owed[1])

    def missing(self) -> list[Owed]:
        return [o for o in self.owed() if not o.done]

    def deadline(self) -> datetime | None:
        return clock.from_text(self.clock.get("deadline"))

    def paused(self) -> bool:
        return self.clock.get("paused") is not None

    def remind_from(self) -> datetime | None:
        """When the reminder window of the present step opens (the mail service reminds who still
        owes from then until the deadline): when at most :data:`REMIND_FRACTION` of the step's
        time or :data:`REMIND_AT_MOST` is left, whichever is less. None while no deadline runs."""
        deadline = self.deadline()
        if deadline is None or self.paused() or self.ruleset.result(self.state) is not None:
            return None
        try:
            length = clock.parse_duration(self.config["deadlines"][self.clock.get("step_kind") or "step"])
        except (KeyError, TypeError, ValueError):
            return None
        return deadline - min(length * REMIND_FRACTION, REMIND_AT_MOST)

    def grace(self) -> timedelta:
        return clock.parse_duration(self.config["deadlines"]["grace"])

    def due_at(self) -> datetime | None:
        """When the game falls due: the deadline plus grace while a decision is owed and the game
        is not paused; None when nothing will fall due."""
        deadline = self.deadline()
        if deadline is None or self.paused() or not self.owed():
            return None
        return deadline + self.grace()

    def due(self, now: datetime) -> bool:
        due_at = self.due_at()
        return due_at is not None and now >= due_at

    def index_due(self) -> str:
        """:meth:`due_at` as the deadline index writes it; ``*`` (look at every tick) when the
        game's settings cannot say."""
        try:
            return clock.to_text(self.due_at()) or deadlineindex.NONE
        except (KeyError, TypeError, ValueError):
            return deadlineindex.ALWAYS


FIXABLE_GAME = (JudgeError, StoreError, YamlFileError, RulesetError)
"""Problems a GM can mend by hand, shown as their message alone."""


def glance_due(glance: dict, now: datetime) -> bool:
    """Should ``tick`` open this game? Its deadline has passed, or it is broken (and is tried and
    flagged again at every tick, as it was before the overview)."""
    if "broken" in glance:
        return True
    due_at = clock.from_text(glance.get("due_at"))
    return due_at is not None and now >= due_at


def _earlier(due: str, than: str) -> bool:
    """Does the deadline index entry ``due`` come before ``than`` (``-``: never)?"""
    return due != deadlineindex.NONE and (than == deadlineindex.NONE or due < than)


def _public_glance(config: dict, summary: Msg | str) -> dict:
    """What the mail service answers outsiders from a game's glance, so that it need not open
    every game: the summary as a message (rendered in the reader's language), the seats'
    addresses and languages (the language of a mail that reached no game), which seats are
    abandoned, whether the game takes observers (``LIST``)."""
    keep = ("address", "language", "abandoned")
    return {"said": summary.as_dict() if isinstance(summary, Msg) else str(summary),
            "seats": {house: {k: seat[k] for k in keep if isinstance(seat, dict) and seat.get(k) is not None}
                      for house, seat in (config.get("players") or {}).items()},
            "observing": config.get("observing", True) is not False}


def _failure_text(exc: Exception, damaged: "DamagedVersion | None") -> str:
    """A game's failure as its flag and its glance say it: the value of the wrong type a damaged
    version holds (``Judge.diagnose``) where one was found, else the exception (at most 1,000 characters)."""
    return (str(damaged) if damaged is not None and damaged.slip else f"{exc.__class__.__name__}: {exc}")[:1000]


def _plain_flag(flag: dict | None) -> dict | None:
    return None if not flag else {k: (v if isinstance(v, (str, int, float, bool)) or v is None else str(v))
                                  for k, v in flag.items() if k != "format"}


@dataclass
class Tick:
    """What one :meth:`Judge.tick` did."""

    done: list[tuple[str, "Outcome"]] = field(default_factory=list)  # games adjudicated at their deadline
    failed: list[tuple[str, str]] = field(default_factory=list)  # (game, problem): flagged for the GM
    busy: list[str] = field(default_factory=list)  # locked by another process: the next tick tries again


@dataclass
class Outcome:
    """What applying one input did."""

    entry: dict
    parsed: Parsed | None = None  # for a submission: per-line results
    applied: bool = True
    versions: list[int] = field(default_factory=list)  # versions written
    events: list[Event] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    requests: list[tuple] = field(default_factory=list)  # mail-level requests (Submission.requests)


# ---------------------------------------------------------------------------------------
# Pure part: folding inputs into a present. No files, no clock (times come in the entries).
# ---------------------------------------------------------------------------------------


def _step_clock(ruleset: Ruleset, state: dict, deadlines: dict, at: datetime, paused_before: bool) -> dict:
    """Deadline bookkeeping for a step that starts at ``at``."""
    owed = [] if ruleset.result(state) is not None else ruleset.pending(state)
    if not owed:
        return {"step_kind": None, "deadline": None, "paused": None}
    kind = "planning" if any(o.deadline_kind == "planning" for o in owed) else "step"
    length = clock.parse_duration(deadlines[kind])
    if paused_before:
        return {"step_kind": kind, "deadline": None, "paused": int(length.total_seconds())}
    return {"step_kind": kind, "deadline": clock.to_text(at + length), "paused": None}


def _run_steps(present: Present, at: datetime, force: bool, outcome: Outcome, versions: list[dict]) -> None:
    """Adjudicate while every owed decision is in; ``force`` fills in the first step's missing ones."""
    for _ in range(MAX_STEPS_PER_INPUT):
        if present.ruleset.result(present.state) is not None:
            return
        owed = present.ruleset.pending(present.state)
        complete = all(o.done for o in owed)
        if not complete and not force:
            present._owed = (present.state, owed)  # what present.owed() asks next (the reply, the index)
            return
        force = False
        paused = present.paused()
        state, events = present.ruleset.advance(clone(present.state), force=not complete)
        present.state = state
        present.events = events
        present.clock = _step_clock(present.ruleset, state, present.config["deadlines"], at, paused)
        outcome.events.extend(events)
        versions.append(_version_body(present, at))
    raise JudgeError(f"ruleset {present.ruleset.name} advanced {MAX_STEPS_PER_INPUT} steps without asking anyone")


def _version_body(present: Present, at: datetime) -> dict:
    return _body(present.ruleset, present.state, present.journal_seq, present.clock, present.events, at)


def _body(ruleset: Ruleset, state: dict, journal_seq: int, clock_: dict, events: list[Event], at: datetime) -> dict:
    phase = getattr(ruleset, "phase", None)
    return {
        "journal_seq": journal_seq,
        "at": clock.to_text(at),
        "clock": dict(clock_),
        "summary": messages.render(ruleset.summary(state), "en"),  # for the GM reading the file
        "phase": phase(state) if phase is not None else None,  # reports come per phase (mail/process.py)
        "events": [e.as_dict() for e in events],
        "state": state,
    }


def apply_entry(present: Present, entry: dict, read_version: Callable[[int], dict]) -> tuple[Outcome, list[dict]]:
    """Apply one journal entry to ``present`` in place; return the outcome and the version bodies to write.

    ``read_version`` gives an earlier version's data, for rollback.
    """
    at = clock.from_text(entry["at"])
    kind = entry["kind"]
    outcome = Outcome(entry)
    versions: list[dict] = []
    present.journal_seq = entry["seq"]
    if kind == "submit":
        if present.ruleset.result(present.state) is not None:
            outcome.applied = False
            outcome.notes.append(Msg("judge.game_over"))
            return outcome, versions
        sub = present.ruleset.submit(clone(present.state), entry["player"], entry["text"])
        outcome.parsed, outcome.applied = sub.parsed, sub.applied
        outcome.notes.extend(sub.notes)
        outcome.requests.extend(getattr(sub, "requests", ()))
        if sub.applied:
            present.state = sub.state
            _run_steps(present, at, False, outcome, versions)
    elif kind == "adjudicate":
        if present.owed():
            _run_steps(present, at, bool(entry.get("force")), outcome, versions)
    elif kind == "pause":
        if not present.paused() and present.deadline() is not None:
            remaining = max(0, int((present.deadline() - at).total_seconds()))
            present.clock = {**present.clock, "deadline": None, "paused": remaining}
    elif kind == "resume":
        if present.paused():
            present.clock = {**present.clock, "deadline": clock.to_text(at + timedelta(seconds=present.clock["paused"])), "paused": None}
    elif kind == "extend":
        by = clock.parse_duration(entry["by"])
        if present.paused():
            present.clock = {**present.clock, "paused": present.clock["paused"] + int(by.total_seconds())}
        elif present.deadline() is not None:
            present.clock = {**present.clock, "deadline": clock.to_text(present.deadline() + by)}
    elif kind == "rollback":
        target = read_version(entry["to"])
        present.state = clone(target["state"])
        present.events = [Event("judge.rolled_back", {"to": entry["to"]})]
        present.clock = _step_clock(present.ruleset, present.state, present.config["deadlines"], at, False)
        outcome.events.extend(present.events)
        versions.append(_version_body(present, at))
    elif kind == "draw":
        agreed = getattr(present.ruleset, "agreed_draw", None)
        if agreed is None or present.ruleset.result(present.state) is not None:
            outcome.applied = False
        else:  # every surviving player voted for it (adjudicator/mail/draw.py)
            present.state = agreed(clone(present.state), list(entry["players"]))
            present.events = [Event("judge.draw_agreed", {"players": list(entry["players"])})]
            present.clock = _step_clock(present.ruleset, present.state, present.config["deadlines"], at, False)
            outcome.events.extend(present.events)
            versions.append(_version_body(present, at))
    elif kind in ("replace", "note"):
        pass  # recorded for the audit trail; replace changes game.yaml, not the state
    else:
        raise JudgeError(f"journal entry {entry['seq']} has unknown kind {kind!r}")
    for part, body in enumerate(versions, 1):
        body["part"], body["parts"] = part, len(versions)
    return outcome, versions


def _present_at(files: GameFiles, config: dict, ruleset: Ruleset, data: dict) -> Present:
    """The present as of one stored version, before any journal entry after it."""
    return Present(files, config, ruleset, data["version"], data["journal_seq"], data["state"],
                   dict(data.get("clock") or {}), [Event.from_dict(e) for e in data.get("events") or []],
                   synced_seq=data["journal_seq"])


def _complete(data: dict) -> bool:
    """Is this version the last of those its journal entry owes? (Versions written before
    ``part``/``parts`` existed were always written whole with their entry's last one.)"""
    return int(data.get("part") or 1) >= int(data.get("parts") or 1)


# ---------------------------------------------------------------------------------------
# The service: files, locks, the clock.
# ---------------------------------------------------------------------------------------


class Judge:
    """Runs games in a :class:`Store`; ``now`` is the injected clock."""

    def __init__(self, store: Store, now: Callable[[], datetime] = clock.utcnow, *, lock_timeout: float = 30.0):
        self.store = store
        self.now = now
        self.lock_timeout = lock_timeout  # the mail path uses a short one and answers "try later"
        # game id -> (files stamp, present), the most recently used CACHE_GAMES games: a
        # long-running process (the mail server, self-play) does not re-read a whole state for
        # every mail, and holds no more than that many states. The stamp changes whenever any
        # process adds a version or journal entry or rewrites game.yaml, so a stale entry never serves.
        self._cache: OrderedDict[str, tuple[tuple, Present]] = OrderedDict()
        self._overview = gameindex.StampedCache(store.root, "gameindex.json", OVERVIEW_FILES)
        self.deadlines = deadlineindex.DeadlineIndex(store.root, fsync=store.fsync)
        self._swept: set[str] = set()  # games whose killed writers' temp files this process removed
        self._later_due: list[tuple[GameFiles, int, str]] = []  # index entries made later, to write once durable
        self._grouped = False  # inside grouped(): journal entries are not synced one by one
        self._later: list[tuple] | None = None  # inside tick: versions to write after the group's sync
        self._unsynced = False  # a grouped entry was written since the tick's last sync
        self._trusted: dict[str, int] | None = None  # inside trusting(): game id -> Store.writes when checked

    # -- reading --------------------------------------------------------------------------
    def present(self, game_id: str, *, shared: bool = False) -> Present:
        """The game as it stands: the latest version with the journal folded in.

        Writes nothing, except the versions a killed process owed (see :meth:`_fold`): those are
        written here, under the game's lock, so that every command that looks at a game also
        finishes it. If they cannot be written now (the lock is busy, the disk is read-only),
        the present is still returned, folded in memory.

        ``shared``: the cached present itself rather than a copy, for a caller that only reads
        it (the mail layer renders a game several times per mail); it must not be changed.
        Inside :meth:`trusting`, a present already checked there is served without a new check.
        """
        if self._trusted is not None and game_id in self._cache and \
                self._trusted.get(game_id) == self.store.writes(game_id):
            present = self._cache[game_id][1]
            return present if shared else present.copy()
        files = self.store.open(game_id)
        present, owed = self._fold(files, shared=shared)
        if not owed:
            return present
        try:
            with files.lock(self.lock_timeout):
                return self._settle(files)
        except (StoreError, OSError):
            return present

    def _settle(self, files: GameFiles, *, shared: bool = False) -> Present:
        """Under the lock: fold, write the owed versions, and clear what a killed writer left.
        ``shared``: as for :meth:`present` (the cached present itself when it is current)."""
        if files.id not in self._swept:  # once per game and process: a killed writer's leftovers
            for directory in (files.path, files.path / "states", files.path / "journal"):
                yamlio.remove_stale_temp(directory)
            self._swept.add(files.id)
        present, owed = self._fold(files, shared=shared)
        if files.follows(present.version, present.journal_seq):  # files past what the fold read: an unwritten tail?
            files.drop_unwritten_tail()
            present, owed = self._fold(files, shared=shared)
        if owed:
            present.version = self._write_versions(files, present, owed)[-1]
        if owed and present.problems:  # say once that the versions above were made again
            present.problems.append(f"the journal was folded again from the last good version: versions "
                                    f"{present.version - len(owed) + 1}..{present.version} written")
        return present

    def _fold(self, files: GameFiles, *, shared: bool = False) -> tuple[Present, list[dict]]:
        """Latest readable version + the journal after it; also the versions those entries owe.

        Owed versions exist only after a crash between journaling an input and writing the
        versions it produced (all of them, or the last few of several): the fold starts from
        the last version that completed its entry, applies every entry after it, and owes
        what was not written yet. :meth:`record` and :meth:`present` write them.
        """
        hit = self._cache.get(files.id)
        if hit and hit[0] == files.stamp(hit[1].version, hit[1].journal_seq):
            self._cache.move_to_end(files.id)
            self._trust(files.id)
            return (hit[1] if shared else hit[1].copy()), []
        config = files.config()
        ruleset = rulesets.get(config["ruleset"])
        latest, problems = files.latest_good_version()
        data = latest
        while not _complete(data):  # the entry that made it was cut short: fold from before it
            data = files.read_version(data["version"] - int(data["part"]))
        present = _present_at(files, config, ruleset, data)
        present.problems = [str(p) for p in problems]
        made: list[dict] = []
        for entry in files.journal_after(present.journal_seq):
            made.extend(apply_entry(present, entry, files.read_version)[1])
        written = latest["version"] - data["version"]  # versions of these entries already on disk
        owed = made[written:]
        present.version = latest["version"]
        if not owed and not present.problems:
            self._remember(files, present)
        return present, owed

    def _remember(self, files: GameFiles, present: Present, *, owned: bool = False) -> None:
        """Keep ``present`` in the cache: a copy, unless the caller hands it over (``owned``: it
        holds no other reference, as :meth:`record` does with the present it folded and changed)."""
        stamp = files.stamp(present.version, present.journal_seq)
        if stamp[4] is not None or stamp[5] is not None:  # (GameFiles.stamp: version v+1, entry seq+1)
            return  # another process added a version or an entry while this one read: already stale
        self._cache[files.id] = (stamp, present if owned else present.copy())
        self._cache.move_to_end(files.id)
        self._trust(files.id)
        while len(self._cache) > CACHE_GAMES:
            self._cache.popitem(last=False)

    def _trust(self, game_id: str) -> None:
        """Inside :meth:`trusting`: the cached present of ``game_id`` was just checked against
        its files' stamp (or made from them); served again until this process changes them."""
        if self._trusted is not None:
            self._trusted[game_id] = self.store.writes(game_id)

    @contextmanager
    def trusting(self):
        """Within (the postmaster: one mail): a game's cached present, once checked against the
        stamp of its files (:meth:`_fold`), is served by :meth:`present` again without taking the
        stamp anew, until this process changes the game's files (``Store.writes``: a journal
        entry, a version, game.yaml), whoever does it. What another process writes meanwhile is
        seen by the next check: :meth:`record` and every change fold under the game's lock with
        the stamp taken there, so a trusted present only ever answers reads (a mail's sign-on,
        duplicate check, reply and reports), never decides what is written."""
        before, self._trusted = self._trusted, {}
        try:
            yield
        finally:
            self._trusted = before

    def outcome_of(self, game_id: str, seq: int) -> Outcome:
        """What journal entry ``seq`` did, worked out again from the version before it (engines
        are deterministic): the answer to a mail whose reply a crash prevented is then the
        very answer it would have had."""
        files = self.store.open(game_id)
        config = files.config()
        ruleset = rulesets.get(config["ruleset"])
        for number in reversed(files.version_numbers()):
            try:
                data = files.read_version(number)
            except YamlFileError:
                continue
            if data["journal_seq"] < seq and _complete(data):
                break
        else:
            raise JudgeError(f"game {game_id}: no version before journal entry {seq}")
        present = _present_at(files, config, ruleset, data)
        for entry in files.journal_after(present.journal_seq):
            outcome, _ = apply_entry(present, entry, files.read_version)
            if entry["seq"] == seq:
                return outcome
        raise JudgeError(f"game {game_id} has no journal entry {seq}")

    def version(self, game_id: str, number: int) -> dict:
        files = self.store.open(game_id)
        if number not in files.version_numbers():
            raise JudgeError(f"game {game_id} has no version {number} (versions 1..{(files.version_numbers() or [0])[-1]})")
        return files.read_version(number)

    # -- creating -------------------------------------------------------------------------
    def new_game(
        self,
        game_id: str,
        ruleset_name: str,
        players: dict[str, dict],
        *,
        deadlines: dict[str, str] | None = None,
        seed: int = 0,
        options: dict[str, str] | None = None,
        press: str = "signed",
    ) -> dict[str, str]:
        """Create a game; returns each player's generated password (shown once, stored hashed).

        ``press``: what ``PRESS`` mail the mail service relays: ``signed`` (default), ``anonymous``
        (signed, and anonymous on request) or ``none``.
        """
        if press not in PRESS_POLICIES:
            raise JudgeError(f"press must be one of {', '.join(PRESS_POLICIES)}, not {press!r} (example: signed)")
        ruleset = rulesets.get(ruleset_name)
        deadlines = {**DEFAULT_DEADLINES, **(deadlines or {})}
        for key, value in deadlines.items():
            clock.parse_duration(value)
        state = ruleset.new_game(list(players), dict(options or {}), seed)
        secrets_ = {name: passwords.generate() for name in players}
        config = {
            "game": game_id,
            "ruleset": ruleset.name,
            "data_version": ruleset.data_version,
            "created": clock.to_text(self.now()),
            "seed": seed,
            "options": dict(options or {}),
            "deadlines": deadlines,
            "press": press,
            "notices": True,  # the mail layer tells the players of this game's GM actions (mail/notices.py)
            "players": {
                name: {**info, "password": passwords.hash_password(secrets_[name], self.store.secret())}
                for name, info in players.items()
            },
        }
        at = self.now()
        clock_ = _step_clock(ruleset, state, deadlines, at, False)
        self.deadlines.set(game_id, deadlineindex.ALWAYS, sync=True)  # looked at until its entry below is in
        files = self.store.create(game_id, config, _body(ruleset, state, 0, clock_, [Event("judge.begins", {"game": game_id})], at))
        self.deadlines.renew_stamp()
        with files.lock(self.lock_timeout):
            if not files.journal_after(0):  # nobody changed the game yet (else their line is newer)
                self.deadlines.set(game_id, self.present(game_id, shared=True).index_due())
        return secrets_

    # -- changing ---------------------------------------------------------------------------
    def record(self, game_id: str, entry: dict) -> Outcome:
        """Apply ``entry`` under the game's lock: journal it (synced, or unsynced in a group:
        :meth:`grouped`), then write the new versions (in a tick after the group's sync:
        :meth:`_write_later`).

        The entry is applied in memory first: an input that makes the engine fail is refused
        whole (the error propagates) and never enters the journal, where it would break every
        later fold of the game. Nothing reaches the disk before the journal entry.
        """
        files = self.store.open(game_id)
        with files.lock(self.lock_timeout):
            # a new Present sharing the cached one's config and state (apply_entry replaces the
            # state, the clock and the events, never changes them in place): the cache stays as
            # it was if the entry fails, and no copy of the whole state is made for every mail
            present = self._settle(files, shared=True)
            present = present.sharing()
            entry = {**entry, "seq": present.journal_seq + 1, "at": clock.to_text(self.now())}
            state_before, clock_before = present.state, present.clock  # (apply_entry replaces them, never changes them)
            outcome, versions = apply_entry(present, entry, files.read_version)
            due = due_before = None  # no new version and the same clock: the same due moment, or a later one
            if versions or present.clock != clock_before:
                due_before = replace(present, state=state_before, clock=clock_before).index_due()
                due = present.index_due()
            if due is not None and _earlier(due, due_before):  # the index must never be late: earlier first, durably
                self.deadlines.set(game_id, due, sync=True)
            if not self._grouped and present.synced_seq < entry["seq"] - 1:
                files.sync_journal(present.synced_seq + 1, entry["seq"] - 1)  # a group's, before a synced one
            outcome.entry = files.append_journal(entry, sync=not self._grouped)
            self._unsynced = self._unsynced or self._grouped
            if not self._grouped:
                present.synced_seq = entry["seq"]
            if versions and self._later is not None:  # written after the group's sync (tick)
                self._later.append((files, files.stamp(present.version, present.journal_seq), present, versions,
                                    outcome))
                self._cache.pop(files.id, None)
            else:
                if versions:
                    outcome.versions = self._write_versions(files, present, versions)
                    present.version = outcome.versions[-1]
                if not present.problems:
                    self._remember(files, present, owned=True)
            if due is not None and due != due_before and not _earlier(due, due_before):  # later: once durable
                # (a submission that ends the game without a step would make it later too; left early)
                if self._grouped:
                    self._later_due.append((files, entry["seq"], due))
                else:
                    self.deadlines.set(game_id, due)
            if entry["kind"] != "submit" and entry.get("reason") != "deadline":
                files.clear_flag()  # the GM acted on the game (adjudicate, rollback, pause, ...)
        return outcome

    def index_later_deadlines(self) -> None:
        """Write the deadline index entries that a group's entries made later, once the group is
        durable (the caller has synced it). Each under its game's lock, and only while the entry
        is still the game's latest (else the newer one's line is the truth); a game whose lock is
        busy keeps its earlier entry, and a tick opens it once needlessly."""
        later, self._later_due = self._later_due, []
        for files, seq, due in later:
            try:
                with files.lock(0):
                    if not (files.path / "journal" / f"{seq + 1:06d}.yaml").exists():
                        self.deadlines.set(files.id, due)
            except (StoreError, OSError):
                continue

    def _write_versions(self, files: GameFiles, present: Present, bodies: list[dict], *, sync: bool = True) -> list[int]:
        """Write ``bodies`` as the next versions, after making durable every journal entry they
        follow from: a version on disk whose entry a power loss took would let that entry's mail,
        still pending in the inbox, be applied twice. Entries up to ``present.synced_seq`` already
        are (a version followed them); the others may have been written in a group
        (:meth:`grouped`, by this process or another) and are synced here, each file once more."""
        upto = bodies[-1]["journal_seq"]
        if present.synced_seq < upto:
            files.sync_journal(present.synced_seq + 1, upto)
        numbers = [files.write_version(body, sync=sync) for body in bodies]
        present.synced_seq = upto
        return numbers

    @contextmanager
    def grouped(self):
        """Within: journal entries are written without syncing each (the caller makes them durable
        together, ``durability.sync``, before anything that follows from them leaves the judge:
        the postmaster's batch holds the outbox's delivery back until its sync). A version is
        still written only after the entries it follows from are synced (:meth:`_write_versions`).
        A power loss before the group's sync may leave the last entries missing or empty: their
        mails are still pending in the inbox and are applied again (``GameFiles.drop_unwritten_tail``)."""
        before, self._grouped = self._grouped, True
        try:
            yield
        finally:
            self._grouped = before

    def submit(self, game_id: str, player: str, text: str, *, source: str = "gm") -> Outcome:
        present = self.present(game_id)
        if player not in present.config["players"]:
            raise JudgeError(f"game {game_id} has no player {player!r} (players: {', '.join(present.config['players'])})")
        return self.record(game_id, {"kind": "submit", "player": player, "source": source, "text": text})

    def adjudicate(self, game_id: str, *, force: bool = False, reason: str = "gm") -> Outcome:
        present = self.present(game_id)
        if present.ruleset.result(present.state) is not None:
            raise JudgeError(f"game {game_id} is over ({present.ruleset.result(present.state)}); nothing to adjudicate")
        missing = present.missing()
        if missing and not force:
            owed = "; ".join(f"{o.player}: {o.what}" for o in missing)
            raise JudgeError(f"game {game_id} still waits for {owed}. Use --force to apply the defaults.")
        return self.record(game_id, {"kind": "adjudicate", "force": bool(missing), "reason": reason})

    def tick(self) -> Tick:
        """Adjudicate, with defaults, every game whose deadline (plus grace) has passed.

        A deadline that falls inside the absence of a player who still owes is first moved past
        it (``absences.extend``: an ``extend`` entry the players are told of).

        A game that fails (an unreadable file, an engine error) is isolated: logged, flagged for
        the GM (``GameFiles.flag``: shown by ``judge list`` and ``status``, mailed by the mail
        service) and passed over; every other due game is still adjudicated. A game that is
        locked by another process is left for the next tick. The flag is cleared when the
        game's deadline next adjudicates, or when the GM acts on the game.
        """
        result = Tick()
        now = self.now()
        self._later, self._unsynced = [], False  # (a mail batch syncs its own entries)
        later = self._later
        try:
            with self.grouped():
                self._tick(now, result)
        finally:
            self._later = None
        self._write_later(later)
        self.index_later_deadlines()
        return result

    def due_games(self, now: datetime) -> list[str]:
        """The games a tick opens: those whose deadline index entry has come. An index that cannot
        be trusted (``deadlineindex``: missing, torn, older than a day, or a game folder added or
        removed by hand) is first checked against every game (:meth:`overview`); should it then
        not be writable, the games' own glances say which are due."""
        now_text = clock.to_text(now)
        due = self.deadlines.due(now_text)
        if due is not None:
            return due
        glances = self.overview()
        return sorted(set(self.deadlines.due(now_text, check=False))
                      | {game_id for game_id, glance in glances.items() if glance_due(glance, now)})

    def _tick(self, now: datetime, result: Tick) -> None:
        """The due games' entries, journaled in a group; their versions are left in ``self._later``."""
        for game_id in self.due_games(now):
            try:
                if absences.extend(self, game_id) is not None:  # the deadline fell in an owing player's absence
                    continue
                if not self.present(game_id).due(now):
                    self._index_anew(game_id)  # the index was early: say when the game is due
                    continue
                result.done.append((game_id, self.record(game_id, {"kind": "adjudicate", "force": True,
                                                                   "reason": "deadline"})))
            except GameLocked:
                result.busy.append(game_id)
                continue
            except Exception as exc:  # noqa: BLE001  one broken game must not stop the others
                # a file the GM can mend is named in one line; anything else may be a bug: its traceback too, and
                # the flag names the version the engine failed on (a value of the wrong type in it if one is found)
                damaged = None if isinstance(exc, FIXABLE_GAME) else self.diagnose(game_id, exc)
                log.error("game %s: the deadline could not be adjudicated", game_id,
                          exc_info=not isinstance(exc, FIXABLE_GAME) and (damaged is None or damaged.slip is None))
                problem = _failure_text(exc, damaged)
                result.failed.append((game_id, problem))
                self._flag(game_id, "deadline", problem)
                continue
            self._unflag(game_id)

    def _write_later(self, later: list[tuple]) -> None:
        """The second half of a tick's group commit: one sync makes every due game's journal entry
        durable, then each game's versions are written (unsynced) under its lock, and one more
        sync makes them durable. Two syncs for the whole tick instead of ten per game.

        A game that another process changed meanwhile is folded again (the versions its entry
        owes are written like those a killed process owed); one whose lock is busy is left
        owing them, for whoever touches it next (:meth:`present` writes them)."""
        if not self._unsynced:
            return  # nothing was due
        crashpoint("before the tick's sync")
        if self.store.fsync:
            durability.sync(self.store.root)  # the entries (and the absences' extensions) of the group
        self._unsynced = False
        for files, stamp, present, bodies, outcome in later:
            try:
                with files.lock(self.lock_timeout):
                    if files.stamp(present.version, present.journal_seq) == stamp:
                        present.synced_seq = present.journal_seq  # by the sync above
                        outcome.versions = self._write_versions(files, present, bodies, sync=False)
                        present.version = outcome.versions[-1]
                        if not present.problems:
                            self._remember(files, present, owned=True)
                    else:
                        before = (files.version_numbers() or [0])[-1]
                        outcome.versions = list(range(before + 1, self._settle(files).version + 1))
            except (StoreError, OSError) as exc:
                log.warning("game %s: the versions of its deadline are left owed (%s); the next that "
                            "touches the game writes them", files.id, exc)
        crashpoint("before the tick's second sync")
        if self.store.fsync:
            durability.sync(self.store.root)

    def overview(self) -> dict[str, dict]:
        """Every game at a glance (:meth:`_glance`), for ``judge list``, the mail service's report
        sweep and a tick whose deadline index needs checking: a quiet game costs four ``stat``
        calls, not a read of its state (see ``gameindex``). Checks the deadline index against
        the glances as it goes (``DeadlineIndex.merge``)."""
        stamp = deadlineindex.data_stamp(self.store.root)  # before the listing: a game added after it renews the stamp
        glances = self._overview.refresh(self.store.game_ids(), self._glance, lambda glance: "broken" not in glance)
        self.deadlines.merge({game_id: deadlineindex.ALWAYS if "broken" in glance else glance.get("due_at")
                              for game_id, glance in glances.items()}, stamp)
        return glances

    def _index_anew(self, game_id: str) -> None:
        """Write the deadline index entry of ``game_id`` from the game itself (under its lock: no
        other line about it can come between the reading and the writing)."""
        try:
            files = self.store.open(game_id)
        except StoreError:
            if not self.store.root.joinpath(game_id).exists():
                self.deadlines.set(game_id, None)  # gone
            return
        try:
            with files.lock(0):
                self.deadlines.set(game_id, self.present(game_id, shared=True).index_due())
        except (StoreError, OSError):
            pass  # busy: its holder writes the line, or the next tick looks again

    def _glance(self, game_id: str) -> dict:
        """What ``judge list`` shows of a game and when its deadline falls due (``due_at``: the
        deadline plus grace while a decision is owed and the game is not paused, else None)."""
        flag = None
        try:
            files = self.store.open(game_id)
            flag = files.flag()
            p = self.present(game_id, shared=True)
            result = p.ruleset.result(p.state)
            deadline = p.deadline()
            due_at = p.due_at()
            summary = p.ruleset.summary(p.state)
            return {"ruleset": p.ruleset.name, "version": p.version, "summary": str(summary),
                    "result": None if result is None else str(result), "paused": p.paused(),
                    "deadline": clock.to_text(deadline), "due_at": clock.to_text(due_at),
                    "remind_from": clock.to_text(p.remind_from()), "flag": _plain_flag(flag),
                    **_public_glance(p.config, summary)}
        except Exception as exc:  # noqa: BLE001  a broken game is shown broken and tried by every tick
            damaged = None if isinstance(exc, FIXABLE_GAME) else self.diagnose(game_id, exc)
            return {"broken": str(exc) if isinstance(exc, FIXABLE_GAME) else _failure_text(exc, damaged),
                    "flag": _plain_flag(flag)}

    def _flag(self, game_id: str, what: str, problem: str) -> None:
        try:
            files = self.store.open(game_id)
            old = files.flag() or {}
            if old.get("problem") != problem:  # a new problem is mailed to the GM again
                files.write_flag({"what": what, "problem": problem, "at": clock.to_text(self.now()), "mailed": False})
        except (StoreError, OSError):
            log.exception("game %s: could not even write its flag", game_id)

    def _unflag(self, game_id: str) -> None:
        try:
            files = self.store.open(game_id)
            if files.flag() is not None:
                files.clear_flag()
                log.info("game %s: flag cleared", game_id)
        except (StoreError, OSError):
            pass

    def pause(self, game_id: str) -> Outcome:
        present = self.present(game_id)
        if present.paused():
            raise JudgeError(f"game {game_id} is already paused")
        if present.deadline() is None:
            raise JudgeError(f"game {game_id} has no running deadline to pause")
        return self.record(game_id, {"kind": "pause"})

    def resume(self, game_id: str) -> Outcome:
        if not self.present(game_id).paused():
            raise JudgeError(f"game {game_id} is not paused")
        return self.record(game_id, {"kind": "resume"})

    def extend(self, game_id: str, duration: str) -> Outcome:
        clock.parse_duration(duration)
        present = self.present(game_id)
        if present.deadline() is None and not present.paused():
            raise JudgeError(f"game {game_id} has no deadline to extend")
        return self.record(game_id, {"kind": "extend", "by": duration})

    def replace(self, game_id: str, player: str, address: str) -> str:
        """Give ``player``'s seat to ``address`` with a new password (returned, shown once)."""
        files = self.store.open(game_id)
        if "@" not in address:
            raise JudgeError(f"not a mail address: {address!r} (example: jon@example.org)")
        with files.lock(self.lock_timeout):
            config = files.config()
            if player not in config["players"]:
                raise JudgeError(f"game {game_id} has no player {player!r} (players: {', '.join(config['players'])})")
            secret = passwords.generate()
            config["players"][player] = {**config["players"][player], "address": address, "password": passwords.hash_password(secret, self.store.secret())}
            files.append_journal({"kind": "replace", "player": player, "address": address, "at": clock.to_text(self.now())})
            files.write_config(config)
        return secret

    def rollback(self, game_id: str, to: int) -> Outcome:
        self.version(game_id, to)  # exists and reads
        return self.record(game_id, {"kind": "rollback", "to": to})

    # -- checking -------------------------------------------------------------------------
    def diagnose(self, game_id: str, exc: Exception) -> DamagedVersion | None:
        """``exc``, an unexpected error of a command on ``game_id``, told as a problem of the version
        files the command read (None when it read none): the first of them, last read first, whose
        state holds a value of another kind than a new game's (``statecheck``: ``round: one``), else
        the last read with the error, and how to look at an earlier version or roll back. A version
        edited by hand is the usual cause; a GM's command answers with it in one line, and the
        caller logs the traceback where there is a log. Only errors a state of the wrong shape raises
        (:data:`STATE_ERRORS`): a full disk is not a damaged version."""
        if not isinstance(exc, STATE_ERRORS):
            return None
        try:
            files = self.store.open(game_id)
            numbers = files.versions_read()[:DIAGNOSED_VERSIONS]
            if not numbers:
                return None
            config = files.config()
            ruleset = rulesets.get(config["ruleset"])
        except Exception:  # noqa: BLE001  nothing to diagnose with
            return None
        try:
            example = ruleset.new_game(list(config["players"]), dict(config.get("options") or {}), 0)
        except Exception:  # noqa: BLE001  (a game.yaml the engine refuses: no example to compare with)
            example = None
        for number in numbers:
            try:
                slip = statecheck.first_slip(files.read_version(number)["state"], example)
            except YamlFileError:
                continue
            if slip:
                return DamagedVersion(f"{files.version_path(number)}: this version file is damaged: {slip}", slip)
        number = numbers[0]
        return DamagedVersion(f"{files.version_path(number)}: the judge fails on this version ({type(exc).__name__}: {exc}); "
                              f"if it was edited by hand, compare it with an earlier version (judge show {game_id} "
                              f"--version N --format yaml) or roll back to one (judge rollback {game_id} --to N)")

    def replay(self, game_id: str) -> list[str]:
        """Rebuild the game from version 1 and its whole journal; list every difference found."""
        files = self.store.open(game_id)
        first = files.read_version(1)
        config = files.config()
        present = _present_at(files, config, rulesets.get(config["ruleset"]), first)
        rebuilt: list[dict] = []
        for entry in files.journal_after(first["journal_seq"]):
            _, versions = apply_entry(present, entry, lambda n: ({"state": rebuilt[n - 2]["state"]} if n >= 2 else first))
            rebuilt.extend(versions)
        stored = [n for n in files.version_numbers() if n > 1]
        differences = []
        for number, body in zip(stored, rebuilt):
            data = files.read_version(number)
            for key in ("journal_seq", "clock", "events", "state"):
                if data.get(key) != body[key]:
                    differences.append(f"version {number}: {key} differs from the replayed game")
        if len(stored) != len(rebuilt):
            differences.append(f"{len(stored) + 1} versions stored, replay produced {len(rebuilt) + 1}")
        return differences
