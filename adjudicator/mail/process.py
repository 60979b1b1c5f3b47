"""One inbound message -> at most one game action, and the replies and reports it causes.

:class:`Postmaster` is the heart of the mail layer. For each pending inbox message, under the
inbox processing lock (one message at a time across processes):

1. parse it (``envelope.parse``); bounces, auto-replies and our own mail are never answered;
2. a per-sender rate limit (on disk) stops a looping peer: over it, one notice, nothing else;
3. unparseable mail, an oversize body, a missing or wrong sign-on get a reply saying what was
   wrong and change nothing;
4. a good sign-on becomes ``Judge.record(game, {"kind": "submit", ..., "inbox": N,
   "inbox_id": ..., "message_id": ...})``; the reply is rendered by
   ``reports.render_reply`` in the player's language; a sign-on from an address other than the
   player's registered one is processed, and a copy of the reply goes to the registered address;
5. every adjudicated version not yet reported is reported to every player (see
   :meth:`Postmaster.report_new_versions`);
6. only then is the message marked done in the inbox.

Exactly once: a crash before step 6 leaves the message pending. When it is processed again,
the game journal is searched for an entry with this inbox's id and number (or, for a mail an
MTA delivered twice, the same Message-ID from the same sender): found, nothing is applied
again. Mail names in the outbox are derived from the inbox number and game version, so a reply
or report is never queued twice either.

Reports are queued per game from per-player watermarks (``<game>/mail.yaml``: the last version
reported to each player; ``report_due`` says when a player's digest is due), not from one outcome: versions written by ``judge tick``, a GM's ``judge
adjudicate`` or a crash-interrupted run are reported by the next sweep, exactly once.

Replies, reports, reminders and relayed press are rendered by ``reports.py`` (Jinja templates
in the player's language) only from ``ruleset.view(state, player)``, the player's own
``on_file`` lines, events visible to the player and the public status, so they cannot carry
another house's secrets. Every one starts with the ``X-Judge:`` line (also sent as the
``X-Judge-State`` header). The short answers to mail that never reached a game (no sign-on,
wrong password, ...) are in the language of the sender's known address, else in both languages.

Mail-level commands, answered here for every ruleset:

* ``SET LANGUAGE en|cs`` (or ``NASTAV JAZYK``) is taken out of the text *before* the ruleset
  parses it (the line is blanked, so line numbers stay): the player's language in game.yaml is
  changed under the game lock with a ``note`` journal entry, and the reply is already in the
  new language. A bad language name is answered on its line and changes nothing else.
* ``HELP``, ``STATUS``, ``ORDERS?`` and ``PRESS`` are parsed by the ruleset's grammar and come
  back as ``Outcome.requests`` (``Submission.requests``): the first three are answered in the
  reply; press is relayed as separate mails, one per recipient (signed and anonymous apart, no
  In-Reply-To that could name the sender), only from an applied mail and only as the game's
  ``press`` setting allows (``signed`` default, ``anonymous``, ``none``; ``judge new --press``).

The commands of issue 17 live in modules of their own, with one hook each here: the player's
``SET PASSWORD``, ``SET ABSENCE``, ``HISTORY``, ``PRESS GM`` and ``DRAW`` lines are taken out by
:func:`mail_text` (``servicelines.py``) and done once the mail is recorded (:meth:`_answer`);
a mail without a sign-on whose first line is ``LIST``, ``OBSERVE`` or ``TAKEOVER`` is answered by
``opencommands.py`` instead of the sign-on help; observers' reports go out with the players'
(``observers.py``, marks in the game's ``mail.yaml``).

Reminders (:meth:`Postmaster.remind`, from the server loop, ``judge deliver`` and ``judge
remind``): once per step (game version) per player who still owes a decision, when the time
left before the deadline is at most 20 % of the step's length or 12 hours, whichever is less;
sent reminders are remembered in ``outbox/reminded.yaml``.
"""

from __future__ import annotations

import errno
import logging
import os
from collections import OrderedDict
from contextlib import ExitStack
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta

from .. import absences, clock, durability, mailbody, messages, passwords, reports, yamlio
from ..messages import Msg
from .. import ruleset as rulesets
from ..crashpoints import crashpoint
from ..gameindex import StampedCache
from ..judge import Judge, JudgeError, Outcome, Present, Tick
from ..ruleset import Event, LineResult, RulesetError
from ..store import GameLocked, StoreError, check_game_id
from ..yamlio import YamlFileError
from . import envelope
from .envelope import Inbound
from .text import canonical_address
from .inbox import Inbox, InboxBusy
from .outbox import Outbox
from . import notices, observers, opencommands, preferences, servicelines
from .ratelimit import RateLimiter
from .settings import MailSettings

SWEPT_FILES = ("game.yaml", "states", "journal", "mail.yaml")  # mail.yaml last (sweep_reports)
"""A change to any of these files of a game makes the report sweep look at it again. mail.yaml is
the mail service's own bookkeeping, written only under the inbox's processing lock, and news for
the players always changes states/ or journal/: a young mail.yaml does not make a stamp doubtful."""

log = logging.getLogger("adjudicator.mail")

GAME_PROBLEMS = (StoreError, YamlFileError, RulesetError, JudgeError)
TRANSIENT = (GameLocked, InboxBusy, OSError)  # the mail is not at fault: retried, no attempt counted
TRANSIENT_ERRNOS = frozenset({errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOSPC, errno.EDQUOT, errno.EIO,
                              errno.EAGAIN, errno.EBUSY, errno.EMFILE, errno.ENFILE, errno.ENOMEM, None})
TRANSIENT_FIRST, TRANSIENT_MAX = timedelta(seconds=15), timedelta(minutes=10)
RETRY_FIRST, RETRY_MAX = timedelta(minutes=1), timedelta(hours=1)  # after an unexpected error
STUCK_AFTER = 3  # unexpected errors on one message before its sender and the GM are told
VERSIONS_KEPT = 4096  # versions' events and phases a process keeps (they never change)
BATCH = 64  # mails processed under one hold of the processing lock and made durable by one sync
LANGUAGE_MAP_SECONDS = 60
"""How long the address -> language map of the mail that reaches no game may serve (judge's clock):
a seat another process made meanwhile gets answers in its language at most this late."""
SIGNED_ON = frozenset({"submitted", "rejected", "recovered", "duplicate"})  # mail with a valid sign-on
EXAMPLE_SIGNON = "JUDGE westeros1 stark raven-oak-417"


@dataclass
class Handled:
    """What processing one inbox message did (recorded in ``inbox/done/NNNNNN.yaml``)."""

    number: int
    status: str  # submitted, rejected, ignored, dropped, rate-limited, unparseable, too-large,
    #              no-sign-on, bad-sign-on, unknown-game, unknown-house, wrong-password,
    #              game-broken, duplicate, recovered, deferred, failed, already-done
    detail: str = ""
    sender: str | None = None
    game: str | None = None
    player: str | None = None
    seq: int | None = None  # the game journal entry
    mails: list[str] = field(default_factory=list)  # outbox names queued

    def as_dict(self) -> dict:
        """The fields that say something (plain values and a list of names: no deep copy needed)."""
        return {f.name: list(v) if isinstance(v, list) else v for f in fields(self)
                if (v := getattr(self, f.name)) not in (None, "", [])}


# ---------------------------------------------------------------------------------------
# Texts: mail.* messages of templates/<lang>/messages.yaml, in the reader's language
# ---------------------------------------------------------------------------------------


def say(message: Msg, language: str | None) -> str:
    """``message`` in ``language``; None (a sender whose language the judge does not know): in
    every language the judge writes, English first."""
    if language is not None:
        return messages.render(message, language)
    return "\n\n- - -\n\n".join(messages.render(message, lang) for lang in preferences.LANGUAGES)


def _text_reply(problem: Msg, language: str | None) -> str:
    """A short answer to mail that changed nothing, with how to sign on."""
    def one(lang: str) -> str:
        return "\n\n".join(messages.render(m, lang) for m in (
            problem, Msg("mail.nothing_changed"), Msg("mail.signon_help", example=EXAMPLE_SIGNON)))
    if language is not None:
        return one(language) + "\n"
    return "\n\n- - -\n\n".join(one(lang) for lang in preferences.LANGUAGES) + "\n"


def _fallback_reply(outcome: Outcome, language: str) -> str:
    """The answer when the reply template fails: still line by line, never nothing."""
    lines = [say(Msg("mail.recorded_unformatted"), language), ""]
    for line in outcome.parsed.lines if outcome.parsed else ():
        lines.append(f"  {line.lineno:3d}  " + (f"ok       {line.canonical}" if line.ok else
                                                f"REJECTED {line.text.strip()}: {say(line.error, language)}"))
    lines.append("")
    lines.append(say(Msg("mail.applied" if outcome.applied else "mail.fix_and_resend"), language))
    return "\n".join(lines) + "\n"


def _fallback_report(present: Present, player: str, events: list[Event], language: str) -> str:
    """The report when its template fails: the events the player may see and the status line."""
    lines = [reports.header(present, player, "report"),
             say(Msg("mail.game_version", game=present.game_id, version=present.version,
                     summary=present.ruleset.summary(present.state)), language), "",
             say(Msg("mail.what_happened"), language)]
    lines += [f"  {say(e, language)}" for e in events if e.visible_to(player)] or [
        f"  {say(Msg('mail.nothing_visible'), language)}"]
    lines += ["", say(Msg("mail.report_unformatted"), language)]
    return "\n".join(lines) + "\n"


def mail_text(text: str, keywords) -> tuple[str, list[LineResult], dict[str, str], list[tuple]]:
    """What of a mail's text the game reads: SET lines (``preferences.py``), the service's own
    lines (``servicelines.py``: SET PASSWORD, SET ABSENCE, HISTORY, PRESS GM, DRAW) and mail
    habits (greetings, sign-offs, quoted mail, END) taken out and blanked. Returns (the text for
    the game, the results of the lines taken out, the preferences the mail changes, the
    service's requests)."""
    text, set_lines, changes = preferences.preference_lines(text)
    text, own_lines, asks = servicelines.service_lines(text)
    text, habits = mailbody.not_orders(text, keywords)
    return text, sorted([*set_lines, *own_lines, *habits], key=lambda line: line.lineno), changes, asks


# ---------------------------------------------------------------------------------------
# The postmaster
# ---------------------------------------------------------------------------------------


class Postmaster:
    """Processes the inbox of ``judge.store``'s data directory into games and the outbox."""

    def __init__(self, judge: Judge, settings: MailSettings):
        self.judge = judge
        self.settings = settings
        data, fsync = judge.store.root, judge.store.fsync
        self.inbox = Inbox(data, fsync=fsync)
        self.outbox = Outbox(data, settings, now=judge.now, fsync=fsync)
        self.limiter = RateLimiter(self.inbox.root / "ratelimit.log", limit=settings.rate_limit,
                                   window_seconds=settings.rate_window_seconds)
        # wrong passwords per house ("game/house"), whoever sends them: a sender address is free to forge
        self.house_limiter = RateLimiter(self.inbox.root / "houselimit.log", limit=settings.rate_limit,
                                         window_seconds=settings.rate_window_seconds)
        self._done: list[tuple[int, Handled]] = []  # processed, to be marked done after the next sync
        self._version_cache: OrderedDict[tuple, dict] = OrderedDict()
        self._legacy: dict | None = None
        self._seen_cache: StampedCache | None = None
        self._records: dict[str, tuple[tuple, dict]] = {}  # mail.yaml path -> (its stat, its record): _record
        self._languages: tuple | None = None  # (store writes, made at, address -> language): _address_languages

    @property
    def now(self) -> datetime:
        return self.judge.now()

    def remove_leftovers(self) -> list[str]:
        """Remove the temp files a killed process left in the inbox and outbox (one may hold a
        raw mail with its sign-on password); called when ``serve``, ``ingest`` or ``deliver`` start."""
        removed = []
        for directory in (self.judge.store.root, self.inbox.root, self.inbox.retry_dir, self.outbox.root,
                          self.outbox.sent_dir):
            removed += [f"{directory.name}/{name}" for name in yamlio.remove_stale_temp(directory)]
        if removed:
            log.warning("removed temp files left by a killed process: %s", ", ".join(removed))
        return removed

    # -- receiving ------------------------------------------------------------------------
    def receive(self, raw: bytes, *, mail_from: str | None, rcpt_tos=(), via: str = "smtp",
                peer: str | None = None, sync: bool = True, inbox: Inbox | None = None) -> int:
        """Journal one raw message in the inbox (durable when this returns, unless ``sync`` is
        False and the caller syncs: the server's group commit). ``inbox``: the :class:`Inbox` to
        journal through, for a thread other than the one processing (``judge serve``'s SMTP
        thread): an Inbox is one thread's, as it keeps what it read of the log unguarded."""
        return (inbox or self.inbox).journal(raw, mail_from=mail_from, rcpt_tos=list(rcpt_tos), received=self.now,
                                             via=via, peer=peer, sync=sync)

    # -- processing -----------------------------------------------------------------------
    def process_pending(self, *, lock_timeout: float = 60.0, on_handled=None) -> list[Handled]:
        """Process every pending message that is due, oldest first; a message that cannot be done
        now stays, with the time of its next attempt. ``on_handled(handled)`` is called for each
        once its batch is durable (the server wakes its postman, so that replies go out then).

        Mails are done in batches of :data:`BATCH` under one hold of the processing lock; what a
        batch wrote is made durable by one sync before its mails are marked done (see
        :meth:`_finish`). Their game journal entries too are synced by it (a group commit,
        ``Judge.grouped``), while the batch holds the outbox's delivery back: no reply leaves
        before the entry it answers is durable. When a delivery is running (it holds the
        outbox), the batch syncs each journal entry as it is written instead of waiting."""
        out = []
        numbers = [n for n in self.inbox.pending() if self._due(n)]
        for start in range(0, len(numbers), BATCH):
            batch: list[Handled] = []
            try:
                with self.inbox.processing_lock(lock_timeout), ExitStack() as held:
                    if self.judge.store.fsync and self.outbox.hold_delivery(held):
                        held.enter_context(self.judge.grouped())
                    for number in numbers[start:start + BATCH]:
                        batch.append(self._process_locked(number))
                    self._finish()
            except InboxBusy as exc:
                batch += [Handled(n, "deferred", str(exc)) for n in numbers[start:start + BATCH]
                          if n not in {h.number for h in batch}]
            out += batch
            if on_handled is not None:
                for handled in batch:
                    on_handled(handled)
        return out

    def _finish(self) -> None:
        """Make durable what the mails processed so far wrote (their game journal entries,
        replies, reports, bookkeeping: one ``syncfs`` of the data directory), then mark them
        done. A crash before this leaves them pending: processed again, each is recognised by its
        journal entry and answered from it, and nothing already queued is queued twice; an entry
        that a power loss emptied counts as never written (``GameFiles.unwritten_tail``) and its
        mail is applied again."""
        if not self._done:
            return
        crashpoint("before the batch's sync")
        if self.judge.store.fsync:
            durability.sync(self.judge.store.root)
        self.judge.index_later_deadlines()  # the deadlines the batch's entries made later
        self.inbox.mark_all_done([(number, handled.as_dict()) for number, handled in self._done])
        for number, handled in self._done:
            log.info("inbox %06d: %s %s", number, handled.status, handled.detail)
        self._done.clear()

    def _due(self, number: int) -> bool:
        nxt = self.inbox.retry(number).get("next_attempt")
        try:
            return nxt is None or clock.from_text(nxt) <= self.now
        except (TypeError, ValueError):
            return True

    def process(self, number: int, *, lock_timeout: float = 60.0) -> Handled:
        try:
            with self.inbox.processing_lock(lock_timeout):
                handled = self._process_locked(number)
                self._finish()
                return handled
        except InboxBusy as exc:
            return Handled(number, "deferred", str(exc))

    def _process_locked(self, number: int) -> Handled:
        if not self.inbox.is_pending(number):
            return Handled(number, "already-done")
        try:
            with self.judge.trusting():  # a game's present checked once a mail, not at each look
                handled = self._process(number)
        except TRANSIENT as exc:
            if isinstance(exc, OSError) and exc.errno not in TRANSIENT_ERRNOS:
                return self._failed(number, exc)
            # the disk, permissions, a lock: the mail is not at fault and loses no attempt
            meta = self.inbox.retry(number)
            waits = int(meta.get("waits") or 0) + 1
            wait = min(TRANSIENT_FIRST * 2 ** (waits - 1), TRANSIENT_MAX)
            log.warning("inbox %06d: %s; it stays pending, next try in %s", number, exc, clock.format_duration(wait))
            self._note(number, waits=waits, next_attempt=clock.to_text(self.now + wait),
                       last_error=f"{exc.__class__.__name__}: {exc}"[:500])
            return Handled(number, "deferred", str(exc))
        except Exception as exc:  # noqa: BLE001  a bug must not lose the mail or stop the others
            return self._failed(number, exc)
        self._done.append((number, handled))  # marked done by _finish, once what it caused is durable
        return handled

    def _failed(self, number: int, exc: Exception) -> Handled:
        """An unexpected error processing a mail: retried with time-based backoff, never given up
        by the judge itself (nothing that got a 250 ends unapplied); after a few attempts its
        sender and the GM are told, once, and ``judge inbox --drop`` is the GM's to use."""
        meta = self.inbox.retry(number)
        attempts = int(meta.get("attempts") or 0) + 1
        wait = min(RETRY_FIRST * 2 ** (attempts - 1), RETRY_MAX)
        log.exception("inbox %06d: processing failed (attempt %d); next try in %s", number, attempts,
                      clock.format_duration(wait))
        problem = f"{exc.__class__.__name__}: {exc}"[:500]
        self._note(number, attempts=attempts, next_attempt=clock.to_text(self.now + wait), last_error=problem)
        if attempts == STUCK_AFTER:
            self._tell_stuck(number, problem, exc)
        return Handled(number, "deferred", f"internal error ({exc.__class__.__name__}); will retry")

    def _note(self, number: int, **changes) -> None:
        try:
            self.inbox.note_retry(number, **changes)
        except OSError as exc:  # the disk that failed may fail this too; the next scan retries anyway
            log.warning("inbox %06d: could not record the retry: %s", number, exc)

    def _tell_stuck(self, number: int, problem: str, exc: Exception) -> None:
        """The sender and the GM told that a mail keeps failing; the GM also what the judge makes of the
        error when it comes from a version file of the mail's game (``Judge.diagnose``: a state edited by
        hand, named with its file and value, as the GM's own commands name it)."""
        try:
            raw, meta = self.inbox.read(number)
            inbound = envelope.parse(raw, own_address=self.settings.address, envelope_from=meta.get("mail_from"))
            handled = Handled(number, "deferred", sender=inbound.sender)
            if inbound.answerable:
                self._reply(handled, inbound, say(Msg("mail.stuck"), self._language_for(inbound)), name="stuck")
            damaged = self.judge.diagnose(inbound.signon.game, exc) if inbound.signon is not None else None
            self.notify_gm(f"stuck-{self.inbox.id}-{number:06d}", f"Mail {number:06d} is stuck", (
                f"Inbox message {number:06d} from {inbound.sender or 'an unknown sender'} "
                f"(subject {inbound.subject!r}) failed {STUCK_AFTER} times: {problem}\n\n"
                + (f"{damaged}\n\n" if damaged is not None else "") +
                "The judge keeps trying it (at most every hour). See `judge inbox`; "
                f"`judge inbox --drop {number}` gives up on it and tells its sender."))
        except Exception:  # noqa: BLE001
            log.exception("inbox %06d: could not tell anyone that it is stuck", number)

    def drop(self, number: int) -> Handled:
        """The GM gives up on a pending message: done as ``dropped-by-gm``, its sender told."""
        with self.inbox.processing_lock():
            if not self.inbox.is_pending(number):
                raise ValueError(f"no pending message {number} in the inbox (see `judge inbox`)")
            raw, meta = self.inbox.read(number)
            inbound = envelope.parse(raw, own_address=self.settings.address, envelope_from=meta.get("mail_from"))
            handled = Handled(number, "dropped-by-gm", meta.get("last_error", ""), sender=inbound.sender)
            if inbound.answerable:
                self._reply(handled, inbound, say(Msg("mail.dropped"), self._language_for(inbound)), name="dropped")
            self.inbox.mark_done(number, handled.as_dict())
            return handled

    def waiting(self) -> list[str]:
        """One line per pending message, stuck ones first: number, state, sender, subject, why it waits."""
        lines = []
        for number in self.inbox.pending():
            meta = self.inbox.meta(number)
            try:
                raw, _ = self.inbox.read(number)
                inbound = envelope.parse(raw, own_address=self.settings.address, envelope_from=meta.get("mail_from"))
                who, subject = inbound.sender or "?", inbound.subject
            except OSError:
                who, subject = "?", "?"
            attempts = int(meta.get("attempts") or 0)
            state = ("STUCK" if attempts >= STUCK_AFTER else "retrying") if attempts else (
                "waiting" if meta.get("waits") else "new")
            when = f", next try {meta['next_attempt']}" if meta.get("next_attempt") else ""
            why = f": {meta['last_error']}" if meta.get("last_error") else ""
            lines.append((state != "STUCK", f"{number:06d} {state:<8} from {who} ({subject!r}), received "
                                            f"{meta.get('received')}{when}{why}"))
        return [line for _, line in sorted(lines, key=lambda item: item[0])]

    def _language_for(self, inbound: Inbound) -> str | None:
        """The language to answer a mail that reached no game in: that of a seat the sender's address
        holds (in the game the sign-on names first, then in any game), else that of the seat the
        sign-on names, else None (every language the judge writes). Costs one game's config and,
        now and then, the games' glances (:meth:`_address_languages`), not a read of every game
        per mail: an outsider's mail must not cost O(games)."""
        signon = inbound.signon
        named = signon.game if signon and self.judge.store.exists(signon.game) else None
        signed_seat = None
        if named:
            try:
                players = self.judge.store.open(named).config().get("players") or {}
            except GAME_PROBLEMS:
                players = {}
            if signon.house in players:
                signed_seat = players[signon.house] or {}
            language = _seat_language(players.values(), inbound.sender)
            if language is not None:
                return language
        language = self._address_languages().get(inbound.sender)
        if language is not None:
            return language
        language = (signed_seat or {}).get("language")
        return language if language in preferences.LANGUAGES else None

    def _address_languages(self) -> dict[str, str]:
        """Address -> the language of its first seat (in the order of the games), from the games'
        glances (``Judge.overview``: a few ``stat`` calls per quiet game). Made again only when this
        process changed a game or :data:`LANGUAGE_MAP_SECONDS` have passed (another process's new
        seat is seen by then), so a flood of outsiders' mails costs O(1) in games per mail, in
        batches of one mail too (``judge serve`` processes mail as it comes)."""
        writes, now = self.judge.store.all_writes(), self.now
        if self._languages is None or self._languages[0] != writes or \
                now - self._languages[1] >= timedelta(seconds=LANGUAGE_MAP_SECONDS):
            languages: dict[str, str] = {}
            for glance in self.judge.overview().values():
                for seat in (glance.get("seats") or {}).values():
                    address, language = canonical_address(seat.get("address")), _language_of_seat(seat)
                    if address is not None and language is not None:
                        languages.setdefault(address, language)
            self._languages = (writes, now, languages)
        return self._languages[2]

    def notify_gm(self, name: str, subject: str, body: str) -> bool:
        """Mail the GM (once per ``name``); False if no GM address is known (it is logged instead)."""
        if not self.settings.gm:
            log.error("for the GM (no --gm address known): %s: %s", subject, body.splitlines()[0] if body else "")
            return False
        message = self.outbox.compose(self.settings.gm, f"[judge] {subject}", body, auto="auto-generated")
        return self.outbox.queue(f"gm-{name}", message)

    def _process(self, number: int) -> Handled:
        raw, meta = self.inbox.read(number)
        inbound = envelope.parse(raw, own_address=self.settings.address, envelope_from=meta.get("mail_from"))
        handled = Handled(number, "", sender=inbound.sender)
        if inbound.loop:
            handled.status, handled.detail = "ignored", inbound.loop
            return handled
        if not inbound.sender:
            handled.status = "dropped"
            handled.detail = inbound.error or "no usable sender address"
            return handled
        verdict = self.limiter.check(inbound.sender, self.now)
        if not verdict.allowed and not self._right_password(inbound):  # forged junk must not lock a player out
            handled.status = "rate-limited"
            handled.detail = f"{verdict.count} mails that changed nothing within {self.settings.rate_window_seconds} s"
            if verdict.notify:
                language = self._language_for(inbound)
                hours = max(1, int(self.limiter.window.total_seconds() // 3600))
                self._reply(handled, inbound, say(Msg("mail.rate_limited", limit=self.settings.rate_limit,
                                                      sender=inbound.sender, hours=hours), language), name="notice")
            return handled
        handled = self._read(handled, inbound)
        if handled.status not in SIGNED_ON:  # mail that changes nothing counts against the sender
            self.limiter.hit(inbound.sender, self.now)
        return handled

    def _read(self, handled: Handled, inbound: Inbound) -> Handled:
        """A mail from a sender within the rate limit: its sign-on, then the game."""
        if inbound.error:
            handled.status, handled.detail = "unparseable", inbound.error
            self._reply(handled, inbound, _text_reply(Msg("mail.unparseable"), self._language_for(inbound)))
            return handled
        if inbound.body_bytes > self.settings.max_body_bytes:
            handled.status, handled.detail = "too-large", f"{inbound.body_bytes} bytes of text"
            self._reply(handled, inbound, _text_reply(Msg("mail.too_large", size=inbound.body_bytes,
                                                          limit=self.settings.max_body_bytes),
                                                      self._language_for(inbound)))
            return handled
        if inbound.signon is None:
            found = None if inbound.signon_problem else opencommands.find(inbound.body)
            if found is not None:  # LIST, OBSERVE, TAKEOVER: no seat needed
                return opencommands.answer(self, handled, inbound, found)
            if inbound.signon_problem:
                handled.status, handled.detail = "bad-sign-on", str(inbound.signon_problem)
                problem = Msg("mail.signon_incomplete", problem=inbound.signon_problem)
            else:
                handled.status = "no-sign-on"
                problem = Msg("mail.signon_missing", attachments=_attachment_names(inbound))
            self._reply(handled, inbound, _text_reply(problem, self._language_for(inbound)))
            return handled
        return self._submit(handled, inbound)

    @staticmethod
    def _guesses(game: str, house: str, seat: dict, sender: str | None) -> str:
        """Which count of wrong passwords (``house_limiter``) a mail signed on as ``house`` goes to: the
        house's registered address has a count of its own, so that guesses from other addresses (new
        or forged ones, free to send) cannot lock its player out before a deadline; a guesser who also
        forges that address gains only its count more."""
        own = sender is not None and canonical_address(seat.get("address")) == sender
        return f"{game}/{house}/own" if own else f"{game}/{house}"

    def _house_open(self, key: str) -> bool:
        """Is the count ``key`` (:meth:`_guesses`) under the limit of wrong passwords? The first refusal
        in a window is told to the GM: someone is guessing, or a player forgot their password."""
        verdict = self.house_limiter.check(key, self.now)
        if verdict.notify:
            game, house, *own = key.split("/")
            where = "from the house's registered address" if own else "from addresses other than the house's registered one"
            self.notify_gm(f"locked-{key.replace('/', '-')}-{clock.to_text(self.now).replace(':', '')}",
                           f"{house} in {game}: too many wrong passwords", (
                               f"More than {self.settings.rate_limit} mails signed on as {house} in game {game} with a "
                               f"wrong password came within the hour {where} (see `judge inbox` and the inbox log). "
                               "Until the hour is over the judge tries no password of that house sent from there."))
        return verdict.allowed

    def _try_password(self, game: str, house: str, seat: dict, inbound: Inbound) -> str:
        """``right``, ``wrong`` (counted against its count of wrong passwords, :meth:`_guesses`) or
        ``locked`` (that count is over the limit: the password is not tried)."""
        key = self._guesses(game, house, seat, inbound.sender)
        if not self._house_open(key):
            return "locked"
        if _password_ok(inbound.signon.password, str(seat.get("password", "")), self.judge.store.secret()):
            return "right"
        self.house_limiter.hit(key, self.now)
        return "wrong"

    def _right_password(self, inbound: Inbound) -> bool:
        """Does the mail of a sender over the rate limit sign on with its house's right password?
        A wrong one counts against the house, and a locked house's is not tried: a flood from one
        address learns nothing by it."""
        signon = inbound.signon
        try:
            check_game_id(signon.game)  # (AttributeError: no sign-on)
            seat = self.judge.present(signon.game, shared=True).config["players"][signon.house] or {}
        except (*GAME_PROBLEMS, AttributeError, KeyError, TypeError):
            return False
        return self._try_password(signon.game, signon.house, seat, inbound) == "right"

    def _submit(self, handled: Handled, inbound: Inbound) -> Handled:
        signon = inbound.signon
        assert signon is not None and inbound.sender is not None
        game, house = signon.game, signon.house
        handled.game, handled.player = game, house
        try:
            check_game_id(game)
            known = self.judge.store.exists(game)
        except StoreError:
            known = False
        if not known:
            handled.status, handled.detail = "unknown-game", game
            self._reply(handled, inbound, _text_reply(Msg("mail.unknown_game", game=game), self._language_for(inbound)))
            return handled
        try:
            config = self.judge.present(game, shared=True).config
            players = config["players"]
        except (*GAME_PROBLEMS, KeyError, TypeError) as exc:
            return self._game_broken(handled, inbound, exc)
        if house not in players:
            handled.status, handled.detail = "unknown-house", house
            self._reply(handled, inbound, _text_reply(Msg("mail.unknown_house", game=game, house=house,
                                                          houses=list(players)), self._language_for(inbound)))
            return handled
        seat = players[house] or {}
        password = self._try_password(game, house, seat, inbound)
        if password == "locked":
            handled.status, handled.detail = "house-locked", house
            self._reply(handled, inbound, _text_reply(Msg("mail.house_locked", game=game, house=house,
                                                          limit=self.settings.rate_limit), self._language_for(inbound)))
            return handled
        if password == "wrong":
            handled.status, handled.detail = "wrong-password", house
            self._reply(handled, inbound, _text_reply(Msg("mail.wrong_password", game=game, house=house),
                                                      self._language_for(inbound)))
            return handled

        earlier = self._find_earlier(game, handled.number, inbound)
        if earlier is not None:
            return self._duplicate(handled, inbound, earlier)

        try:
            keywords = rulesets.get(config["ruleset"]).keywords
        except (*GAME_PROBLEMS, KeyError) as exc:
            return self._game_broken(handled, inbound, exc)
        text, mail_lines, changes, asks = mail_text(inbound.text, keywords)
        if changes:
            try:
                self.set_preferences(game, house, changes)
            except GameLocked:
                raise
            except GAME_PROBLEMS as exc:
                return self._game_broken(handled, inbound, exc)
        entry = {"kind": "submit", "player": house, "source": "mail", "text": text,
                 "inbox": handled.number, "inbox_id": self.inbox.id, "message_id": inbound.message_id,
                 "from": inbound.sender}
        try:
            outcome = self.judge.record(game, entry)
        except GameLocked:
            raise
        except GAME_PROBLEMS as exc:
            return self._game_broken(handled, inbound, exc)
        return self._answer(handled, inbound, outcome, read=(text, mail_lines, changes, asks))

    def _answer(self, handled: Handled, inbound: Inbound, outcome: Outcome, *, read: tuple | None = None) -> Handled:
        """Everything a recorded mail causes: the reply (and its copy to the registered address),
        the press it relays, the reports of the versions it made. Mail names are derived from
        the inbox number, so this is done again after a crash without anything going twice."""
        game, house = handled.game, handled.player
        _, mail_lines, changes, asks = read or mail_text(inbound.text, self.judge.present(game, shared=True).ruleset.keywords)
        service_notes = servicelines.carry_out(self, handled, inbound, asks)  # may end the game in a draw
        present = self.judge.present(game, shared=True)
        outcome.notes.extend(preferences.notes(changes))
        outcome.notes.extend(service_notes)
        handled.seq = outcome.entry["seq"]
        if inbound.attachments:
            outcome.notes.append(Msg("mail.attachments", names=_attachment_names(inbound)))
        handled.status = "submitted" if outcome.applied else "rejected"
        handled.detail = f"versions {outcome.versions}" if outcome.versions else ""
        body = state_header = None
        language = reports.language_of(present, house)
        try:
            press = self._relay_press(handled, present, house, outcome)
            body = reports.render_reply(outcome, present, house, language, mail_lines=mail_lines, press=press,
                                        language_set=changes.get("language"), via_mail=True, now=self.now)
            state_header = body.split("\n", 1)[0][len("X-Judge: "):]  # the reply's own first line
        except GameLocked:
            raise
        except Exception:  # noqa: BLE001  recorded already: the player must still get an answer
            log.exception("game %s: reply to inbox %06d could not be rendered", game, handled.number)
            body = _fallback_reply(outcome, language)
        self._reply(handled, inbound, body, state=state_header)
        seat = present.config["players"].get(house) or {}
        registered = canonical_address(seat.get("address"))
        if registered and registered != inbound.sender:
            head, _, rest = body.partition("\n") if body.startswith("X-Judge: ") else ("", "", body)
            intro = say(Msg("mail.copy_intro", house=house, game=game, sender=inbound.sender, registered=registered),
                        language)
            self._reply(handled, inbound, (head + "\n" if head else "") + intro + "\n\n" + rest, name="copy",
                        to=registered, subject_key="mail.subject.copy", language=language, state=state_header)
        handled.mails += self.report_new_versions(game)
        return handled

    # -- mail-level commands ----------------------------------------------------------------
    def set_preferences(self, game: str, player: str, changes: dict[str, str]) -> bool:
        """Store ``changes`` (``language``, ``timezone``, ``reports``) on ``player``'s seat in
        game.yaml, under the game lock, with a ``note`` journal entry; False if nothing changed."""
        files = self.judge.store.open(game)
        with files.lock(getattr(self.judge, "lock_timeout", 30.0)):
            config = files.config()
            seat = config["players"][player]
            new = {k: v for k, v in changes.items() if seat.get(k) != v}
            if not new:
                return False
            seat.update(new)
            files.append_journal({"kind": "note", "note": "preferences", "player": player, **new,
                                  "source": "mail", "at": clock.to_text(self.now)})
            files.write_config(config)
        log.info("game %s: %s now has %s", game, player, new)
        return True

    def _relay_press(self, handled: Handled, present: Present, sender: str, outcome: Outcome) -> list[dict]:
        """Relay the mail's PRESS lines as the game allows; what became of each, for the reply.

        One mail per recipient for the signed lines and one for the anonymous ones, so that an
        anonymous message never travels with a signed one from the same sender.
        """
        wanted = [r for r in outcome.requests if r and r[0] == "press"]
        if not wanted:
            return []
        players = list(present.config["players"])
        policy = present.config.get("press", "signed")
        results, mails = [], {}
        for _, to, text, anonymous in wanted:
            named = [p for p in players if p != sender] if to == "ALL" else [p for p in to if p in players and p != sender]
            shown_to = "ALL" if to == "ALL" else ", ".join(p.capitalize() for p in to)
            result = {"to": shown_to, "anonymous": bool(anonymous), "relayed": [], "problem": None}
            if not outcome.applied:
                result["problem"] = "not-applied"
            elif policy == "none":
                result["problem"] = "no-press"
            elif anonymous and policy != "anonymous":
                result["problem"] = "no-anonymous"
            elif not named:
                result["problem"] = "no-recipient"
            else:
                result["relayed"] = [p.capitalize() for p in named]
                for player in named:
                    mails.setdefault((player, bool(anonymous)), []).append(
                        {"anonymous": bool(anonymous), "text": text, "to": shown_to})
            results.append(result)
        for (player, anonymous), blocks in mails.items():
            self._queue_press(handled, present, sender, player, anonymous, blocks)
        return results

    def _queue_press(self, handled: Handled, present: Present, sender: str, player: str, anonymous: bool,
                     blocks: list[dict]) -> None:
        address = canonical_address((present.config["players"].get(player) or {}).get("address"))
        if address is None:
            log.error("game %s: player %s has no usable address; press not relayed", present.game_id, player)
            return
        language = reports.language_of(present, player)
        body = reports.render_press(present, player, None if anonymous else sender, blocks, language, now=self.now)
        subject = say(Msg("mail.subject.anonymous" if anonymous else "mail.subject.press", game=present.game_id,
                          sender=sender), language)
        message = self.outbox.compose(address, subject, body, auto="auto-generated")
        message["X-Judge-State"] = reports.header_value(present, player, "press")
        name = self._name(handled, f"press-{'anon-' if anonymous else ''}{player}")
        if self.outbox.queue(name, message):
            handled.mails.append(name)

    def _game_broken(self, handled: Handled, inbound: Inbound, exc: Exception) -> Handled:
        log.error("game %s: cannot process inbox %06d: %s", handled.game, handled.number, exc)
        handled.status, handled.detail = "game-broken", str(exc)[:300]
        self._reply(handled, inbound, say(Msg("mail.game_broken", game=handled.game), self._language_for(inbound)))
        return handled

    def _find_earlier(self, game: str, number: int, inbound: Inbound) -> tuple[int, bool] | None:
        """An earlier journal entry of this mail: (seq, same inbox message?) or None."""
        present = self.judge.present(game, shared=True)
        return present.files.find_mail(present.journal_seq, inbox_id=self.inbox.id, number=number,
                                       message_id=inbound.message_id, sender=inbound.sender)

    def _duplicate(self, handled: Handled, inbound: Inbound, earlier: tuple[int, bool]) -> Handled:
        seq, same_message = earlier
        if same_message:
            # Recorded before a crash that came before this message was marked done: the journal
            # entry stands; what it caused (reply, press, reports) is done again from the entry's
            # outcome, worked out anew, and whatever was already queued is not queued twice.
            handled = self._answer(handled, inbound, self.judge.outcome_of(handled.game, seq))
            handled.status = "recovered"
            handled.detail = f"recorded as journal entry {seq} before a restart; answered now"
            return handled
        handled.status, handled.seq = "duplicate", seq
        handled.detail = f"the same mail (Message-ID) was recorded as journal entry {seq}"
        return handled

    # -- outgoing -------------------------------------------------------------------------
    def _name(self, handled: Handled, kind: str) -> str:
        return f"{self.inbox.id}-{handled.number:06d}-{kind}"

    def _reply(self, handled: Handled, inbound: Inbound, body: str, *, name: str = "reply", to: str | None = None,
               subject_key: str | None = None, language: str | None = None, state: str | None = None) -> None:
        """Answer ``inbound`` (``Re: <its subject>``; ``subject_key`` a message of the subject, with
        ``subject``, in ``language``, e.g. the copy to a registered address)."""
        subject = inbound.subject or say(Msg("mail.subject.no_subject"), language or "en")
        if not subject.lower().startswith("re:"):
            subject = "Re: " + subject
        if subject_key:
            subject = say(Msg(subject_key, subject=subject), language or "en")
        message = self.outbox.compose(to or inbound.sender, subject, body, auto="auto-replied",
                                      in_reply_to=inbound.message_id, references=inbound.references)
        if state:
            message["X-Judge-State"] = state
        full_name = self._name(handled, name)
        if self.outbox.queue(full_name, message):
            handled.mails.append(full_name)

    # -- reports and notices --------------------------------------------------------------
    # What each game's players have been told is kept in the game's folder (``mail.yaml``: per
    # player the last version reported, ``told``: the last journal entry whose GM action was
    # told, ``swept``: the last version looked at, ``created``: a game made again under the same
    # id, a new demo, starts afresh), written only when it changes. The sweep over every game
    # keeps, in ``cache/seen.json``, the stamps of each game's files when it was last looked at
    # (``gameindex``): a game with nothing new costs four ``stat`` calls. None of it is synced one by one: a
    # report or notice queued again after a crash has the name of the one queued before, and the
    # outbox never queues a name twice.

    def _record(self, files) -> dict:
        """The game's ``mail.yaml`` (a copy). Kept in memory while the file is unchanged (its
        inode, size and time), with ``told`` advanced past entries that were no GM action:
        a mail that makes no version then neither reads nor writes the file."""
        path = f"{files.path}/mail.yaml"
        try:
            st = os.stat(path)
            key = (st.st_ino, st.st_size, st.st_mtime_ns)
        except OSError:
            key = None
        hit = self._records.get(path)
        if key is not None and hit is not None and hit[0] == key:
            return dict(hit[1])
        try:
            record = yamlio.load_mapping(path)
        except YamlFileError:
            legacy = self._legacy_reported().get(files.id)  # kept in outbox/reported.yaml before
            return dict(legacy) if isinstance(legacy, dict) else {}
        if key is not None:
            self._records[path] = (key, record)
        return dict(record)

    def _legacy_reported(self) -> dict:
        if self._legacy is None:
            try:
                games = yamlio.load_mapping(self.outbox.root / "reported.yaml").get("games")
            except YamlFileError:
                games = None
            self._legacy = games if isinstance(games, dict) else {}
        return self._legacy

    def report_new_versions(self, game_id: str) -> list[str]:
        """Queue what ``game_id``'s players have not had yet: each player's report of the versions
        they have not seen, when it is time for one (:func:`report_due`; otherwise the versions
        wait for their next one), and a notice of every GM action (pause, resume, extend,
        rollback) since the last. Callers hold the inbox processing lock."""
        return self._tell_game(self.judge.store.open(game_id))

    def _tell_game(self, files) -> list[str]:
        record = self._record(files)
        present = self.judge.present(files.id, shared=True)
        created = str(present.config.get("created", ""))
        if record.get("created", created) != created:
            record = {}
        if record.get("swept") == present.version and record.get("told") == present.journal_seq:
            return []
        if present.version != record.get("swept") and absences.extend(self.judge, files.id) is not None:
            present = self.judge.present(files.id, shared=True)  # a new step waits for an absent player
        floor = int(record.get("version", 1))  # a watermark kept before reports were per player
        marks = {p: int((record.get("players") or {}).get(p, floor)) for p in present.config["players"]}
        told = int(record.get("told", 0 if present.config.get("notices") else present.journal_seq))
        watched = {str(a): int(v) for a, v in (record.get("observers") or {}).items()}
        queued = self._reports(present, marks, created)
        queued += observers.report(self, present, watched, created)
        queued += self._notices(present, told)
        new = {"format": 1, "created": created, "swept": present.version, "told": present.journal_seq,
               "players": marks, **({"observers": watched} if watched else {})}
        path = f"{files.path}/mail.yaml"
        hit = self._records.get(path)
        if not queued and hit is not None and {**hit[1], "told": new["told"]} == new:
            hit[1]["told"] = new["told"]  # only entries that were no GM action: remembered, not written
            return queued
        yamlio.remove_stale_temp(files.path)  # a mail.yaml half written by a killed process
        yamlio.dump(path, new, fsync=False)
        try:
            st = os.stat(path)
            self._records[path] = ((st.st_ino, st.st_size, st.st_mtime_ns), new)
        except OSError:
            self._records.pop(path, None)
        return queued

    def _reports(self, present: Present, marks: dict[str, int], created: str) -> list[str]:
        """The reports due (``marks``, per player the last version reported, is updated)."""
        oldest = min(marks.values(), default=present.version)
        if present.version <= oldest:
            return []
        versions = self._versions(present.files, created, oldest, present.version)
        stamp = created.replace(":", "").replace("-", "")
        queued = []
        for player, seat in present.config["players"].items():
            last = marks[player]
            if present.version <= last or not report_due(present, player, seat or {}, versions, last):
                continue
            marks[player] = present.version
            address = canonical_address((seat or {}).get("address"))
            if address is None:
                log.error("game %s: player %s has no usable address; no report sent", present.game_id, player)
                continue
            name = f"report-{present.game_id}-{stamp}-v{present.version:06d}-{player}"
            if self.outbox.has(name):
                continue  # queued before a crash: neither drawn nor queued again
            language = reports.language_of(present, player)
            visible = [e for n in range(last + 1, present.version + 1) for e in versions.get(n, {}).get("events", [])
                       if e.visible_to(player)]
            try:
                body = reports.render_report(present, player, visible, last + 1, language, now=self.now)
            except Exception:  # noqa: BLE001  a template bug must not stop the mail service
                log.exception("game %s: report to %s could not be rendered", present.game_id, player)
                body = _fallback_report(present, player, visible, language)
            subject = say(Msg("mail.subject.report", game=present.game_id,
                              summary=present.ruleset.summary(present.state), version=present.version), language)
            message = self.outbox.compose(address, subject, body, auto="auto-generated")
            message["X-Judge-State"] = reports.header_value(present, player, "report")
            _attach_picture(message, present, player, language)
            if self.outbox.queue(name, message):
                queued.append(name)
        return queued

    def _notices(self, present: Present, told: int) -> list[str]:
        """Tell every player of the GM actions journaled after entry ``told`` (``mail/notices.py``):
        from the journal, so that a GM command killed before its notices went out is told all the same."""
        if told >= present.journal_seq:
            return []
        queued = []
        for seq, kind, *_ in present.files.journal_index(present.journal_seq)[told:]:
            if kind not in notices.GM_ACTIONS:
                continue
            entry = present.files.read_journal(seq)
            details = {}
            if kind == "extend":
                details["by"] = entry.get("by")
                if entry.get("reason") == "absence":  # adjudicator/absences.py
                    details["absent"] = entry.get("player")
            elif kind == "replace":
                details["house"] = entry["player"]
            elif kind == "rollback":
                details["to"] = entry["to"]
                details["undone"] = notices.undone_versions(present, entry["to"], seq)
            queued += notices.gm_action(present, kind, seq=seq, outbox=self.outbox, now=self.now, **details)
        return queued

    def _versions(self, files, created: str, first: int, last: int) -> dict[int, dict]:
        """Versions ``first``..``last``: their events and phase (unreadable ones are skipped).
        A version never changes once written: each is read once per process (the newest
        ``VERSIONS_KEPT`` of them are kept), so a player whose digest waits costs nothing per mail."""
        out = {}
        for number in range(first, last + 1):
            key = (str(files.path), created, number)
            if key not in self._version_cache:
                try:
                    data = files.read_version(number)
                except YamlFileError:
                    continue
                self._version_cache[key] = {"events": [Event.from_dict(e) for e in data.get("events") or []],
                                            "phase": data.get("phase")}
                while len(self._version_cache) > VERSIONS_KEPT:
                    self._version_cache.popitem(last=False)
            out[number] = self._version_cache[key]
        return out

    def sweep_reports(self) -> list[str]:
        """Report every game's news (after ``tick`` or a GM's command). Linear in the games, and
        cheap when they are quiet: a game whose files have not changed since it was last looked
        at is not opened (``cache/seen.json``, a ``gameindex.StampedCache``: four ``stat``
        calls per quiet game)."""
        seen = self._seen()
        queued = []
        game_ids = self.judge.store.game_ids()
        for game_id in game_ids:
            before = seen.stamp(game_id)  # taken before the game is read: a change meanwhile shows next time
            if seen.unchanged(game_id, before):
                continue
            try:
                queued += self._tell_game(self.judge.store.open(game_id))
            except GAME_PROBLEMS as exc:
                log.error("game %s: no reports: %s", game_id, exc)
                seen.forget(game_id)  # not told: look at it again next time
            else:
                # Telling rewrote mail.yaml when there was news. If nothing else changed meanwhile,
                # the stamp with our own mail.yaml holds; else the next sweep looks again.
                after = seen.stamp(game_id)
                same = before is not None and after is not None and before[:-1] == after[:-1]
                seen.mark(game_id, after if same else before)
        seen.keep_only(game_ids)
        seen.save()
        return queued

    def _seen(self) -> StampedCache:
        if self._seen_cache is None:
            self._seen_cache = StampedCache(self.judge.store.root, "seen.json", SWEPT_FILES,
                                            own=("mail.yaml",))
        return self._seen_cache

    def tick(self, *, lock_timeout: float = 60.0) -> Tick:
        """Adjudicate every due game (``Judge.tick``), report what changed, mail the GM's flags."""
        with self.inbox.processing_lock(lock_timeout):
            ticked = self.judge.tick()
            self.sweep_reports()
            self.mail_flags()
        return ticked

    def sweep(self, *, lock_timeout: float = 60.0) -> list[str]:
        """Report new versions and mail the GM's flags (``judge deliver``)."""
        with self.inbox.processing_lock(lock_timeout):
            queued = self.sweep_reports()
            self.mail_flags()
            return queued

    def mail_flags(self) -> list[str]:
        """Mail the GM each game flag not mailed yet (``Judge.tick`` writes them); once per flag."""
        queued = []
        for game_id, glance in self.judge.overview().items():
            if not (glance.get("flag") or {}).get("problem") or glance["flag"].get("mailed"):
                continue
            files = self.judge.store.open(game_id)
            flag = files.flag()
            if not flag or flag.get("mailed"):
                continue
            name = f"flag-{game_id}-{str(flag.get('at', '')).replace(':', '')}"
            if self.notify_gm(name, f"Game {game_id} needs you", (
                    f"Game {game_id} could not be run on its own ({flag.get('what', 'deadline')}, "
                    f"{flag.get('at')}):\n\n  {flag.get('problem')}\n\nEvery other game goes on; this one is "
                    "tried again at each tick. `judge status " + game_id + "` shows it; after a fix, the next tick "
                    "or any GM command on the game (adjudicate, rollback, extend, ...) clears the flag.")):
                queued.append(name)
                try:
                    files.write_flag({**flag, "mailed": True})
                except OSError as exc:
                    log.warning("game %s: could not mark its flag as mailed: %s", game_id, exc)
        return queued

    # -- reminders ------------------------------------------------------------------------
    @property
    def reminded_path(self):
        return self.outbox.root / "reminded.yaml"

    def _reminded(self) -> dict:
        try:
            data = yamlio.load_mapping(self.reminded_path)
        except YamlFileError:
            return {}
        games = data.get("games")
        return games if isinstance(games, dict) else {}

    @staticmethod
    def reminder_due(present: Present, now: datetime) -> bool:
        """Is ``now`` in the reminder window of the present step (``Present.remind_from``), before
        its deadline?"""
        start = present.remind_from()
        return start is not None and start <= now < present.deadline()

    def remind(self, *, lock_timeout: float = 60.0) -> list[str]:
        """Queue one reminder per step and player who still owes a decision near the deadline."""
        with self.inbox.processing_lock(lock_timeout):
            return self._remind()

    def _remind(self) -> list[str]:
        now = self.now
        reminded = self._reminded()
        changed = False
        queued: list[str] = []
        for game_id, glance in self.judge.overview().items():
            start, deadline = clock.from_text(glance.get("remind_from")), clock.from_text(glance.get("deadline"))
            if start is None or not start <= now < deadline:  # (a broken game has neither: tick flags it)
                continue
            try:
                present = self.judge.present(game_id, shared=True)
                if not self.reminder_due(present, now):
                    continue
                owing = list(dict.fromkeys(o.player for o in present.missing()))
            except GAME_PROBLEMS as exc:
                log.error("game %s: no reminders: %s", game_id, exc)
                continue
            record = reminded.get(game_id) if isinstance(reminded.get(game_id), dict) else {}
            if record.get("version") != present.version:
                record = {"version": present.version, "players": []}
            created = str(present.config.get("created", "")).replace(":", "").replace("-", "")
            for player in owing:
                if player in record["players"]:
                    continue
                address = canonical_address((present.config["players"].get(player) or {}).get("address"))
                if address is None:
                    continue
                language = reports.language_of(present, player)
                body = reports.render_reminder(present, player, language, now=now)
                subject = say(Msg("mail.subject.reminder", game=game_id, summary=present.ruleset.summary(present.state)),
                              language)
                message = self.outbox.compose(address, subject, body, auto="auto-generated")
                message["X-Judge-State"] = reports.header_value(present, player, "reminder")
                name = f"remind-{game_id}-{created}-v{present.version:06d}-{player}"
                if self.outbox.queue(name, message):
                    queued.append(name)
                record["players"].append(player)
                changed = True
            reminded[game_id] = record
        if changed:
            self.outbox.ensure()
            yamlio.dump(self.reminded_path, {"format": 1, "games": reminded}, fsync=self.judge.store.fsync)
        return queued






def report_due(present: Present, player: str, seat: dict, versions: dict[int, dict], last: int) -> bool:
    """Is it time for ``player``'s report, ``last`` being the last version they had?

    With ``SET REPORTS EVERY STEP``, after every adjudicated step. Otherwise (``DIGEST``, the
    default) when the player must act now, when a phase ended since their last report (the
    versions' ``phase``, from ``Ruleset.phase``; a version without one counts as a new phase), or
    when the game is over: so a player who sent everything ahead reads one report per phase,
    not one per step.
    """
    if (seat.get("reports") or "digest") == "every-step":
        return True
    if present.ruleset.result(present.state) is not None:
        return True
    if any(o.player == player and not o.done for o in present.owed()):
        return True
    phases = [versions[n]["phase"] for n in sorted(versions) if n >= last]
    return any(p is None for p in phases) or len(set(phases)) > 1


ATTACHMENTS_NAMED = 10
"""Attachments a reply names; the rest are counted ("and 14990 more")."""


def _attachment_names(inbound: Inbound) -> Msg | list:
    """The names of a mail's attachments for its reply, at most :data:`ATTACHMENTS_NAMED` and a count
    of the rest (parts not even parsed included, ``Inbound.parts_unread``): a mail of 15,000 tiny
    attachments got a reply of 250 KB naming them all. An empty list when there are none."""
    names = list(inbound.attachments[:ATTACHMENTS_NAMED])
    more = len(inbound.attachments) - len(names) + inbound.parts_unread
    return Msg("mail.attachment_names", names=names, more=more) if names or more else []


def _seat_language(seats, sender: str | None) -> str | None:
    """The language of the first of ``seats`` held by ``sender`` that has a language the judge writes."""
    return next((language for seat in seats if canonical_address((seat or {}).get("address")) == sender
                 and (language := _language_of_seat(seat)) is not None), None)


def _language_of_seat(seat: dict | None) -> str | None:
    """A seat's language (English when it names none), None when the judge does not write it."""
    language = (seat or {}).get("language") or preferences.LANGUAGES[0]
    return language if language in preferences.LANGUAGES else None


def _password_ok(given: str, stored: str, secret: bytes) -> bool:
    """Generated passwords are lower case; a phone's capital first letter is forgiven."""
    if passwords.verify(given, stored, secret):
        return True
    return given != given.lower() and passwords.verify(given.lower(), stored, secret)


def _attach_picture(message, present, player: str, language: str) -> None:
    """The board as ``player`` sees it, drawn from their view, as ``board-v<version>.png``.

    A ruleset without a picture adds nothing; if drawing fails the report still goes out, without
    the picture, and the failure is logged."""
    try:
        png = reports.picture_png_of(present, player, language)
        if png is None:
            return
    except Exception:  # noqa: BLE001  a drawing bug must not stop the report
        log.exception("game %s: the board picture for %s could not be drawn; report sent without it",
                      present.game_id, player)
        return
    message.add_attachment(png, maintype="image", subtype="png", filename=f"board-v{present.version}.png")
