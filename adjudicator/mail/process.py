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

Reports are queued per game from a watermark (``outbox/reported.yaml``: the last version
reported), not from one outcome: versions written by ``judge tick``, a GM's ``judge
adjudicate`` or a crash-interrupted run are reported by the next sweep, exactly once.

The plain-text report (:func:`render_report`) and the short error replies here are a minimal
stand-in until the report templates exist; they are rendered only from
``ruleset.view(state, player)``, the player's own ``on_file`` lines, and events visible to the
player, so they cannot carry another house's secrets.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field
from datetime import datetime

from .. import clock, passwords, reports, yamlio
from ..judge import Judge, JudgeError, Outcome, Present
from ..ruleset import Event, RulesetError
from ..store import GameLocked, StoreError, check_game_id
from ..yamlio import YamlFileError
from . import envelope
from .envelope import Inbound, canonical_address
from .inbox import Inbox, InboxBusy
from .outbox import Outbox
from .ratelimit import RateLimiter, Verdict
from .settings import MailSettings

log = logging.getLogger("adjudicator.mail")

GAME_PROBLEMS = (StoreError, YamlFileError, RulesetError, JudgeError)
MAX_ATTEMPTS = 3  # unexpected errors on one message before it is given up (with an apology)
DEDUP_WINDOW = 200  # journal entries searched for an earlier processing of the same mail
MAX_REPORT_EVENTS = 300
EXAMPLE_SIGNON = "JUDGE westeros1 stark raven-oak-417"


@dataclass
class Handled:
    """What processing one inbox message did (recorded in ``inbox/done/NNNNNN.yaml``)."""

    number: int
    status: str  # submitted, rejected, ignored, dropped, rate-limited, unparseable, too-large,
    #              no-sign-on, bad-sign-on, unknown-game, unknown-house, wrong-password,
    #              game-broken, duplicate, deferred, failed, already-done
    detail: str = ""
    sender: str | None = None
    game: str | None = None
    player: str | None = None
    seq: int | None = None  # the game journal entry
    mails: list[str] = field(default_factory=list)  # outbox names queued

    def as_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v not in (None, "", [])}


# ---------------------------------------------------------------------------------------
# Texts (plain English for now; the reports engineer moves them to templates)
# ---------------------------------------------------------------------------------------

SIGNON_HELP = f"""\
The first line of every mail to the judge is the sign-on:

    JUDGE <game> <house> <password>

for example

    {EXAMPLE_SIGNON}

followed by your orders, one per line. The game master sent you the game's name, your house
and your password when the game was created.
"""


def _text_reply(problem: str) -> str:
    return f"{problem}\n\nNothing was changed.\n\n{SIGNON_HELP}"


def render_report(present: Present, player: str, events: list[Event], first_version: int) -> str:
    """A short plain-text report for ``player`` after versions ``first_version``..present.

    Only from ``ruleset.view(state, player)``, events ``player`` may see and the public status
    (who owes what, the deadline), as ``reports.render_reply`` does.
    """
    ruleset, state = present.ruleset, present.state
    versions = (f"version {present.version}" if first_version >= present.version
                else f"versions {first_version}-{present.version}")
    lines = [f"Game {present.game_id} ({ruleset.name}), {versions}: {ruleset.summary(state)}", ""]
    lines.append("What happened:")
    lines.extend(f"  {e.text}" for e in events[-MAX_REPORT_EVENTS:])
    if not events:
        lines.append("  (nothing you may see)")
    lines.append("")
    result = ruleset.result(state)
    if result is not None:
        lines.append(f"The game is over: {result}.")
    else:
        if present.paused():
            lines.append("The game is paused.")
        elif present.deadline() is not None:
            lines.append(f"Next deadline: {clock.to_text(present.deadline())}")
        owed = present.owed()
        if owed:
            lines.append("Waiting for:")
            lines.extend(f"  {o.player}: {o.what}{' (in)' if o.done else ''}" for o in owed)
    lines += ["", f"What {player} sees:", ""]
    lines.extend("  " + line for line in yamlio.dumps(ruleset.view(state, player)).splitlines())
    return "\n".join(lines) + "\n"


def _fallback_reply(outcome: Outcome) -> str:
    """The answer when the reply template fails: still line by line, never nothing."""
    lines = ["The judge recorded your mail, but could not format its full answer (the GM has been told).", ""]
    for line in outcome.parsed.lines if outcome.parsed else ():
        lines.append(f"  {line.lineno:3d}  " + (f"ok       {line.canonical}" if line.ok else f"REJECTED {line.text.strip()}: {line.error}"))
    lines.append("")
    lines.append("Applied." if outcome.applied else "Nothing was changed: fix the rejected lines and send the whole mail again.")
    return "\n".join(lines) + "\n"


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
        self.limiter = RateLimiter(self.inbox.root / "ratelimit.yaml", limit=settings.rate_limit,
                                   window_seconds=settings.rate_window_seconds, fsync=fsync)
        self.reported_path = self.outbox.root / "reported.yaml"

    @property
    def now(self) -> datetime:
        return self.judge.now()

    # -- receiving ------------------------------------------------------------------------
    def receive(self, raw: bytes, *, mail_from: str | None, rcpt_tos=(), via: str = "smtp",
                peer: str | None = None) -> int:
        """Journal one raw message in the inbox (durable when this returns)."""
        return self.inbox.journal(raw, mail_from=mail_from, rcpt_tos=list(rcpt_tos), received=self.now,
                                  via=via, peer=peer)

    # -- processing -----------------------------------------------------------------------
    def process_pending(self, *, lock_timeout: float = 60.0) -> list[Handled]:
        """Process every pending message, oldest first; a message that cannot be done now stays."""
        return [self.process(number, lock_timeout=lock_timeout) for number in self.inbox.pending()]

    def process(self, number: int, *, lock_timeout: float = 60.0) -> Handled:
        try:
            with self.inbox.processing_lock(lock_timeout):
                return self._process_locked(number)
        except InboxBusy as exc:
            return Handled(number, "deferred", str(exc))

    def _process_locked(self, number: int) -> Handled:
        if not self.inbox.is_pending(number):
            return Handled(number, "already-done")
        try:
            handled = self._process(number)
        except GameLocked as exc:
            log.warning("inbox %06d: %s; it stays pending", number, exc)
            return Handled(number, "deferred", str(exc))
        except Exception as exc:  # noqa: BLE001  a bug must not lose the mail or stop the others
            meta = self.inbox.meta(number)
            attempts = int(meta.get("attempts") or 0) + 1
            log.exception("inbox %06d: processing failed (attempt %d of %d)", number, attempts, MAX_ATTEMPTS)
            if attempts < MAX_ATTEMPTS:
                self.inbox.update_meta(number, attempts=attempts, last_error=f"{exc.__class__.__name__}: {exc}"[:500])
                return Handled(number, "deferred", f"internal error ({exc.__class__.__name__}); will retry")
            handled = self._give_up(number, exc)
        self.inbox.mark_done(number, handled.as_dict())
        log.info("inbox %06d: %s %s", number, handled.status, handled.detail)
        return handled

    def _give_up(self, number: int, exc: Exception) -> Handled:
        handled = Handled(number, "failed", f"internal error ({exc.__class__.__name__}) after {MAX_ATTEMPTS} attempts")
        try:
            raw, meta = self.inbox.read(number)
            inbound = envelope.parse(raw, own_address=self.settings.address, envelope_from=meta.get("mail_from"))
            if inbound.answerable:
                handled.sender = inbound.sender
                self._reply(handled, inbound, "The judge hit an internal problem with your mail and gave up on it; "
                            "the game master has been told. Please send it again later.")
        except Exception:  # noqa: BLE001
            log.exception("inbox %06d: could not even send the apology", number)
        return handled

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
        if "rate" in meta:  # counted at an earlier attempt (deferred): a retry must not count again
            verdict = Verdict(bool(meta["rate"].get("allowed")), False, int(meta["rate"].get("count", 0)))
        else:
            verdict = self.limiter.hit(inbound.sender, self.now)
            self.inbox.update_meta(handled.number, rate={"allowed": verdict.allowed, "count": verdict.count})
        if not verdict.allowed:
            handled.status = "rate-limited"
            handled.detail = f"{verdict.count} mails within {self.settings.rate_window_seconds} s"
            if verdict.notify:
                self._reply(handled, inbound, (
                    f"The judge received more than {self.settings.rate_limit} mails from {inbound.sender} within "
                    f"{clock.format_duration(self.limiter.window)}. It keeps them but does not process them, and "
                    "sends this notice only once. If you are a person, please wait an hour and send your orders "
                    "once more; if you are an automatic responder, please stop."), name="notice")
            return handled
        if inbound.error:
            handled.status, handled.detail = "unparseable", inbound.error
            self._reply(handled, inbound, _text_reply(
                "The judge could not parse your mail (its headers or MIME structure are damaged). "
                "Please send it again as plain text."))
            return handled
        if inbound.body_bytes > self.settings.max_body_bytes:
            handled.status, handled.detail = "too-large", f"{inbound.body_bytes} bytes of text"
            self._reply(handled, inbound, _text_reply(
                f"Your mail holds {inbound.body_bytes:,} bytes of text; the judge reads at most "
                f"{self.settings.max_body_bytes:,}. Send only the sign-on and your orders, as plain text."))
            return handled
        if inbound.signon is None:
            if inbound.signon_problem:
                handled.status, handled.detail = "bad-sign-on", inbound.signon_problem
                problem = f"The sign-on line of your mail is incomplete: {inbound.signon_problem}."
            else:
                handled.status = "no-sign-on"
                problem = "Your mail has no sign-on line, so the judge does not know which game it is for."
                if inbound.attachments:
                    problem += (" The judge reads the text of a mail, not attachments "
                                f"({', '.join(inbound.attachments)}).")
            self._reply(handled, inbound, _text_reply(problem))
            return handled
        return self._submit(handled, inbound)

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
            self._reply(handled, inbound, _text_reply(
                f"There is no game {game!r} on this judge. Check the game's name in your sign-on line."))
            return handled
        try:
            config = self.judge.store.open(game).config()
            players = config["players"]
        except (*GAME_PROBLEMS, KeyError, TypeError) as exc:
            return self._game_broken(handled, inbound, exc)
        if house not in players:
            handled.status, handled.detail = "unknown-house", house
            self._reply(handled, inbound, _text_reply(
                f"Game {game} has no house {house!r}. Its houses are: {', '.join(players)}."))
            return handled
        seat = players[house] or {}
        if not _password_ok(signon.password, str(seat.get("password", ""))):
            handled.status, handled.detail = "wrong-password", house
            self._reply(handled, inbound, _text_reply(
                f"Wrong password for {house} in game {game}."))
            return handled

        earlier = self._find_earlier(game, handled.number, inbound)
        if earlier is not None:
            return self._duplicate(handled, inbound, earlier)

        entry = {"kind": "submit", "player": house, "source": "mail", "text": inbound.text,
                 "inbox": handled.number, "inbox_id": self.inbox.id, "message_id": inbound.message_id,
                 "from": inbound.sender}
        try:
            outcome = self.judge.record(game, entry)
        except GameLocked:
            raise
        except GAME_PROBLEMS as exc:
            return self._game_broken(handled, inbound, exc)
        handled.seq = outcome.entry["seq"]
        handled.status = "submitted" if outcome.applied else "rejected"
        handled.detail = f"versions {outcome.versions}" if outcome.versions else ""
        try:
            present = self.judge.present(game)
            language = seat.get("language") or "en"
            body = reports.render_reply(outcome, present, house, language if language in reports.LANGUAGES else "en")
        except Exception:  # noqa: BLE001  recorded already: the player must still get an answer
            log.exception("game %s: reply to inbox %06d could not be rendered", game, handled.number)
            body = _fallback_reply(outcome)
        self._reply(handled, inbound, body)
        registered = canonical_address(seat.get("address"))
        if registered and registered != inbound.sender:
            self._reply(handled, inbound, (
                f"The judge received a mail signed on as {house} in game {game} from {inbound.sender}, which is not "
                f"your registered address ({registered}). It was processed; this is a copy of the judge's answer. "
                "If you did not send it, tell the game master: your password may be known to someone else.\n\n"
                + body), name="copy", to=registered, subject_prefix="Copy: ")
        handled.mails += self.report_new_versions(game)
        return handled

    def _game_broken(self, handled: Handled, inbound: Inbound, exc: Exception) -> Handled:
        log.error("game %s: cannot process inbox %06d: %s", handled.game, handled.number, exc)
        handled.status, handled.detail = "game-broken", str(exc)[:300]
        self._reply(handled, inbound, f"The judge could not process your mail for game {handled.game} because of a "
                                      "problem on the judge's side; the game master has been told. Nothing was changed.")
        return handled

    def _find_earlier(self, game: str, number: int, inbound: Inbound) -> tuple[int, bool] | None:
        """An earlier journal entry of this mail: (seq, same inbox message?) or None."""
        files = self.judge.store.open(game)
        inbox_id = self.inbox.id
        for seq in reversed(files.journal_numbers()[-DEDUP_WINDOW:]):
            try:
                entry = files.read_journal(seq)
            except YamlFileError:
                continue
            if entry.get("inbox_id") == inbox_id and entry.get("inbox") == number:
                return seq, True
            if inbound.message_id and entry.get("message_id") == inbound.message_id and entry.get("from") == inbound.sender:
                return seq, False
        return None

    def _duplicate(self, handled: Handled, inbound: Inbound, earlier: tuple[int, bool]) -> Handled:
        seq, same_message = earlier
        handled.status, handled.seq = "duplicate", seq
        if same_message:
            # Processed before a crash that came before this message was marked done: the
            # journal entry stands; answer if the reply was never queued, and report.
            handled.detail = f"already recorded as journal entry {seq} (recovered after a restart)"
            if not self.outbox.has(self._name(handled, "reply")):
                present = self.judge.present(handled.game)
                held = present.ruleset.on_file(present.state, handled.player) or ["(nothing)"]
                self._reply(handled, inbound, (
                    f"Your mail was recorded (game {handled.game}, journal entry {seq}), but the judge stopped "
                    "before it could answer. On file for you now:\n\n" + "\n".join(f"  {line}" for line in held)))
            handled.mails += self.report_new_versions(handled.game)
        else:
            handled.detail = f"the same mail (Message-ID) was recorded as journal entry {seq}"
        return handled

    # -- outgoing -------------------------------------------------------------------------
    def _name(self, handled: Handled, kind: str) -> str:
        return f"{self.inbox.id}-{handled.number:06d}-{kind}"

    def _reply(self, handled: Handled, inbound: Inbound, body: str, *, name: str = "reply", to: str | None = None,
               subject_prefix: str = "Re: ") -> None:
        subject = inbound.subject or "your mail to the judge"
        if not subject.lower().startswith("re:"):
            subject = "Re: " + subject
        if subject_prefix != "Re: ":
            subject = subject_prefix + subject
        message = self.outbox.compose(to or inbound.sender, subject, body, auto="auto-replied",
                                      in_reply_to=inbound.message_id, references=inbound.references)
        full_name = self._name(handled, name)
        if self.outbox.queue(full_name, message):
            handled.mails.append(full_name)

    # -- reports --------------------------------------------------------------------------
    def _reported(self) -> dict:
        try:
            data = yamlio.load_mapping(self.reported_path)
        except YamlFileError:
            return {}
        games = data.get("games")
        return games if isinstance(games, dict) else {}

    def report_new_versions(self, game_id: str) -> list[str]:
        """Queue a report to every player for the versions of ``game_id`` not yet reported.

        Callers hold the inbox processing lock. The watermark starts at version 1 (the game's
        creation), so adjudications made while no mail layer ran are reported at its next sweep.
        """
        reported = self._reported()
        last = int(reported.get(game_id, {}).get("version", 1)) if isinstance(reported.get(game_id), dict) else 1
        files = self.judge.store.open(game_id)
        if (files.version_numbers() or [0])[-1] <= last:
            return []
        present = self.judge.present(game_id)
        if present.version <= last:
            return []
        events: list[Event] = []
        for number in range(last + 1, present.version + 1):
            try:
                events += [Event.from_dict(e) for e in files.read_version(number).get("events") or []]
            except YamlFileError:
                continue
        created = str(present.config.get("created", "")).replace(":", "").replace("-", "")
        queued = []
        for player, seat in present.config["players"].items():
            address = canonical_address((seat or {}).get("address"))
            if address is None:
                log.error("game %s: player %s has no usable address; no report sent", game_id, player)
                continue
            body = render_report(present, player, [e for e in events if e.visible_to(player)], last + 1)
            message = self.outbox.compose(address, f"[{game_id}] {present.ruleset.summary(present.state)} "
                                                   f"(version {present.version})", body, auto="auto-generated")
            name = f"report-{game_id}-{created}-v{present.version:06d}-{player}"
            if self.outbox.queue(name, message):
                queued.append(name)
        reported[game_id] = {"version": present.version, "at": clock.to_text(self.now)}
        self.outbox.ensure()
        yamlio.dump(self.reported_path, {"format": 1, "games": reported}, fsync=self.judge.store.fsync)
        return queued

    def sweep_reports(self) -> list[str]:
        """Report every game's unreported versions (after ``tick`` or a GM's adjudication)."""
        queued = []
        for game_id in self.judge.store.game_ids():
            try:
                queued += self.report_new_versions(game_id)
            except GAME_PROBLEMS as exc:
                log.error("game %s: no reports: %s", game_id, exc)
        return queued

    def tick(self, *, lock_timeout: float = 60.0) -> list[tuple[str, Outcome]]:
        """Adjudicate every due game (``Judge.tick``) and report what changed."""
        with self.inbox.processing_lock(lock_timeout):
            done = self.judge.tick()
            self.sweep_reports()
        return done

    def sweep(self, *, lock_timeout: float = 60.0) -> list[str]:
        with self.inbox.processing_lock(lock_timeout):
            return self.sweep_reports()


def _password_ok(given: str, stored: str) -> bool:
    """Generated passwords are lower case; a phone's capital first letter is forgiven."""
    if passwords.verify(given, stored):
        return True
    return given != given.lower() and passwords.verify(given.lower(), stored)
