"""Commands anyone may mail, without a sign-on: they need no seat (Czech words in brackets).

* ``LIST`` (``SEZNAM``): the games on this judge: ruleset, where each stands (public summary),
  houses open for takeover, whether it takes observers; from the games' glances
  (``Judge.overview``), so a quiet game costs a few ``stat`` calls, not a read of its present.
* ``OBSERVE <game>`` (``SLEDUJ <hra>``): a double opt-in, since a From is free to forge: the
  answer, to the sender only, is a confirmation code and nothing of the game; ``OBSERVE <game>
  <code>`` from that address within :data:`settings.OBSERVE_CODE_HOURS` hours (on the judge's clock) makes it follow
  the game: a report rendered from the public view (``ruleset.view`` for ``ruleset.OBSERVER``: no
  hand, plan or order of any house; only events everyone sees) whenever a phase ends
  (``observers.py``). The code is an HMAC of the game, the address and the minute it was issued
  (with the data's secret key), so nothing is stored for an unconfirmed request. A game takes at
  most ``MailSettings.max_observers`` observers (each one's reports are rendered and sent).
  ``UNOBSERVE <game>`` (``NESLEDUJ <hra>``) stops it. The GM may close a game to observers
  (``judge set --no-observers``) and list or remove them (``judge observers``).
* ``TAKEOVER <game> <house>`` (``PŘEVEZMI <hra> <rod>``): the house the GM marked abandoned
  (``judge abandon GAME HOUSE``) passes to the sender, with a new password in a welcome mail; the
  GM is told. Only an abandoned house can be taken: a seat in play never changes hands by mail.

The command is the mail's first line (up to three short greeting lines may come before it). The
answer is in Czech when the command's word was Czech, else in the language of a seat the sender
holds, else in English. None of them is a signed-on mail: each counts against the sender's rate
limit (``ratelimit.py``), like any mail that plays no game, so LIST or OBSERVE cannot be used to
flood anyone (and the answer goes to the sender only).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from datetime import datetime

from .. import mailbody, messages, reports, seats
from ..judge import JudgeError
from ..ruleset import OBSERVER
from ..messages import Msg
from ..store import GameLocked, StoreError, check_game_id
from . import notices
from .envelope import GREETING_LINES
from .settings import OBSERVE_CODE_HOURS
from .text import canonical_address

log = logging.getLogger("adjudicator.mail")

COMMANDS = {"list": ("list", "en"), "seznam": ("list", "cs"), "observe": ("observe", "en"),
            "sleduj": ("observe", "cs"), "unobserve": ("unobserve", "en"), "nesleduj": ("unobserve", "cs"),
            "takeover": ("takeover", "en"), "prevezmi": ("takeover", "cs")}
"""Folded first words -> (command, the language they are in)."""
ARGUMENTS = {"list": (0,), "observe": (1, 2), "unobserve": (1,), "takeover": (2,)}
"""How many words each command takes after its own (OBSERVE: the game, then the code)."""
EXAMPLES = {"list": "LIST", "observe": "OBSERVE westeros1", "unobserve": "UNOBSERVE westeros1",
            "takeover": "TAKEOVER westeros1 greyjoy"}


def find(body: str) -> tuple[str, list[str], str] | None:
    """The open command of a mail without a sign-on: (command, its words after the first, the
    language of its word), or None."""
    before = 0
    for _, raw in mailbody.logical_lines(body):
        words = mailbody.strip_accents(raw.split("#", 1)[0]).lower().split()
        if not words:
            continue
        if words[0] in COMMANDS:
            command, language = COMMANDS[words[0]]
            return command, raw.split("#", 1)[0].split()[1:], language
        before += 1
        if before > GREETING_LINES or len(raw.strip()) > 80:
            return None
    return None


def answer(postmaster, handled, inbound, found: tuple[str, list[str], str]):
    """Do the command ``found`` and reply; ``handled`` gets its status."""
    command, args, word_language = found
    language = "cs" if word_language == "cs" else (postmaster._language_for(inbound) or "en")
    handled.status = command
    if len(args) not in ARGUMENTS[command]:
        handled.status = "open-refused"
        text = "\n\n".join(messages.render(m, language) for m in (
            Msg("mail.open.arguments", command=_example(command, language).split()[0]),
            Msg("mail.open.example", example=_example(command, language)), Msg("mail.nothing_changed")))
        postmaster._reply(handled, inbound, text + "\n")
        return handled
    try:
        if command == "list":
            body = _list(postmaster, language)
        else:
            body = _game_command(postmaster, handled, inbound, command, args, language)
    except GameLocked:
        raise
    except (JudgeError, StoreError) as exc:
        log.error("%s from %s failed: %s", command, inbound.sender, exc)
        handled.status, body = "open-refused", messages.render(Msg("mail.service_failed"), language)
    postmaster._reply(handled, inbound, body.rstrip("\n") + "\n")
    return handled


def _example(command: str, language: str) -> str:
    if language != "cs":
        return EXAMPLES[command]
    word = {"list": "SEZNAM", "observe": "SLEDUJ", "unobserve": "NESLEDUJ", "takeover": "PŘEVEZMI"}[command]
    return " ".join([word, *EXAMPLES[command].split()[1:]])


def _list(postmaster, language: str) -> str:
    def say(key: str, **params) -> str:
        return messages.render(Msg(key, **params), language)

    lines = [say("mail.list.head", judge=postmaster.settings.address), ""]
    for game_id, glance in postmaster.judge.overview().items():  # a few stats per quiet game, as `judge list`
        if "broken" in glance:
            continue
        lines.append(say("mail.list.game", game=game_id, ruleset=glance["ruleset"], summary=glance["said"],
                         players=len(glance["seats"]),
                         state="over" if glance["result"] is not None else "paused" if glance["paused"] else "running",
                         open=seats.abandoned({"players": glance["seats"]}), observing=glance["observing"]))
    if len(lines) == 2:
        lines.append(say("mail.list.none"))
    lines += ["", say("mail.list.foot", observe=_example("observe", language), takeover=_example("takeover", language))]
    return "\n".join(lines)


def _game_command(postmaster, handled, inbound, command: str, args: list[str], language: str) -> str:
    def say(key: str, **params) -> str:
        return messages.render(Msg(key, **params), language)

    game = args[0].lower()
    handled.game = game
    try:
        check_game_id(game)
        known = postmaster.judge.store.exists(game)
    except StoreError:
        known = False
    if not known:
        handled.status = "open-refused"
        return say("mail.unknown_game", game=game) + "\n\n" + say("mail.open.list")
    sender = inbound.sender
    if command == "observe":
        return _observe(postmaster, handled, game, sender, args[1:], language)
    if command == "unobserve":
        stopped = seats.observe(postmaster.judge, game, sender, None, stop=True)
        return say("mail.observe.stopped" if stopped else "mail.observe.not_observing", game=game)
    return _takeover(postmaster, handled, game, args[1].lower(), sender, language)


def _observe(postmaster, handled, game: str, sender: str, code: list[str], language: str) -> str:
    """OBSERVE without a code: mail one (the answer goes to the sender only); with a good one:
    follow the game."""
    def say(key: str, **params) -> str:
        return messages.render(Msg(key, **params), language)

    judge = postmaster.judge
    present = judge.present(game, shared=True)
    cap = postmaster.settings.max_observers
    again = f"{_example('observe', language).split()[0]} {game}"
    if present.config.get("observing", True) is False:
        handled.status = "open-refused"
        return say("mail.observe.closed", game=game)
    watching = seats.observers(present.config)
    if sender not in watching and len(watching) >= cap:
        handled.status = "open-refused"
        return say("mail.observe.full", game=game, cap=cap)
    secret, now = judge.store.secret(), postmaster.now
    if not code:
        handled.status = "observe-asked"
        return say("mail.observe.confirm", game=game, hours=OBSERVE_CODE_HOURS,
                   confirm=f"{again} {observe_code(secret, game, sender, now)}")
    if not observe_code_ok(secret, game, sender, code[0], now):
        handled.status = "open-refused"
        return say("mail.observe.bad_code", game=game, code=code[0], hours=OBSERVE_CODE_HOURS, again=again)
    try:
        seats.observe(judge, game, sender, language, since=present.version, cap=cap)
    except seats.ObserversFull:
        handled.status = "open-refused"
        return say("mail.observe.full", game=game, cap=cap)
    except JudgeError:
        handled.status = "open-refused"
        return say("mail.observe.closed", game=game)
    present = judge.present(game, shared=True)
    stop = _example("unobserve", language).replace("westeros1", game)
    return say("mail.observe.done", game=game, stop=stop) + "\n\n" + reports.render_status(
        present, OBSERVER, language, now=postmaster.now)


def observe_code(secret: bytes, game: str, address: str, now: datetime) -> str:
    """The code that confirms ``address``'s OBSERVE of ``game``: the minute it was issued (hex) and an
    HMAC of game, address and that minute."""
    issued = int(now.timestamp()) // 60
    return f"{issued:x}-{_code_mac(secret, game, address, issued)}"


def observe_code_ok(secret: bytes, game: str, address: str, code: str, now: datetime) -> bool:
    """Is ``code`` one the judge gave ``address`` for ``game`` less than :data:`settings.OBSERVE_CODE_HOURS` ago?"""
    issued_text, _, mac = code.lower().partition("-")
    try:
        issued = int(issued_text, 16)
    except ValueError:
        return False
    age = int(now.timestamp()) // 60 - issued
    return 0 <= age <= OBSERVE_CODE_HOURS * 60 and hmac.compare_digest(mac, _code_mac(secret, game, address, issued))


def _code_mac(secret: bytes, game: str, address: str, issued: int) -> str:
    return hmac.new(secret, f"observe\n{game}\n{address}\n{issued}".encode(), hashlib.sha256).hexdigest()[:12]


def _takeover(postmaster, handled, game: str, house: str, sender: str, language: str) -> str:
    def say(key: str, **params) -> str:
        return messages.render(Msg(key, **params), language)

    judge = postmaster.judge
    present = judge.present(game, shared=True)
    handled.player = house
    if house not in present.config["players"]:
        handled.status = "open-refused"
        return say("mail.unknown_house", game=game, house=house, houses=list(present.config["players"]))
    if any(canonical_address((seat or {}).get("address")) == sender for other, seat in present.config["players"].items()
           if other != house):  # one player, two houses of one game
        handled.status = "open-refused"
        return say("mail.takeover.seated", game=game, house=house)
    password = seats.take_over(judge, game, house, sender, language)
    if password is None:
        handled.status = "open-refused"
        return say("mail.takeover.not_open", game=game, house=house, open=seats.abandoned(present.config))
    present = judge.present(game, shared=True)
    seq = present.journal_seq
    name = notices.welcome(present, house, password, seq=seq, now=judge.now, outbox=postmaster.outbox)
    if name:
        handled.mails.append(name)
    postmaster.notify_gm(f"takeover-{game}-j{seq:06d}", f"{sender} took over {house} in {game}",
                         f"{sender} took over the abandoned house {house} in game {game} by mail (journal entry "
                         f"{seq}); a new password was mailed to them. `judge replace {game} {house} ADDRESS` gives the "
                         "seat to someone else.")
    return say("mail.takeover.done", game=game, house=house)
