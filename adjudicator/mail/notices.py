"""Mails the GM's commands cause: a welcome to each player, a notice to all when the GM acts.

``judge new`` and ``judge replace`` mail each new player a welcome (the game, their house and
password, how to send orders, where HELP is): queued by the command itself, since the password
exists only then. ``judge extend``, ``pause``, ``resume`` and ``rollback`` are told to every
player by the mail layer's sweep (``process.py``), from the game's journal: a command killed
before its notices went out is told all the same, and never twice. A rollback's notice also says
what was undone. Mails are rendered in the player's language from
``templates/<lang>/welcome.txt.j2`` and ``notice.txt.j2``, and their names come from the game
and the journal entry that caused them.
"""

from __future__ import annotations

from .. import messages, reports
from ..judge import Present
from ..messages import Msg
from ..yamlio import YamlFileError
from .text import canonical_address
from .outbox import Outbox
from .settings import resolve

GM_ACTIONS = ("extend", "pause", "resume", "rollback", "replace")
"""Journal entry kinds every player is told of (``replace``: a seat changed hands, by the GM's
``judge replace`` or a mail's ``TAKEOVER``; the new player gets a welcome instead, and no one
is told an address)."""


def _stamp(present: Present) -> str:
    return str(present.config.get("created", "")).replace(":", "").replace("-", "")


def welcome(present: Present, player: str, password: str, *, seq: int, now, outbox: Outbox | None = None) -> str | None:
    """Queue ``player``'s welcome (after ``judge new``: ``seq`` 0; after ``replace`` or a mail's
    ``TAKEOVER``: its journal entry) in ``outbox`` (default: the data directory's); the name of
    the mail queued, or None if the seat has no usable address."""
    seat = present.config["players"][player]
    address = canonical_address(seat.get("address"))
    if address is None:
        return None
    if outbox is None:
        data = present.files.path.parent
        outbox = Outbox(data, resolve(data), now=now, fsync=present.files.fsync)
    language = reports.language_of(present, player)
    body = reports.environment(language).get_template("welcome.txt.j2").render(
        reports.context(present, player, "welcome", language, now=now()), password=password,
        judge_address=outbox.settings.address, replaced=seq > 0)
    subject = messages.render(Msg("mail.subject.welcome", game=present.game_id, house=player), language)
    message = outbox.compose(address, subject, body, auto="auto-generated")
    message["X-Judge-State"] = reports.header_value(present, player, "welcome")
    name = f"welcome-{present.game_id}-{_stamp(present)}-j{seq:06d}-{player}"
    return name if outbox.queue(name, message) else None


def gm_action(present: Present, action: str, *, seq: int, outbox: Outbox, now, undone: list[dict] | None = None,
              by: str | None = None, to: int | None = None, absent: str | None = None,
              house: str | None = None) -> list[str]:
    """Tell every player what the GM did in journal entry ``seq`` (``extend`` ``by`` a duration,
    for the absence of player ``absent`` when the judge extended it itself, ``pause``, ``resume``,
    ``rollback`` ``to`` a version, with the versions ``undone``, ``replace``: ``house`` has a
    new player, who is not told)."""
    queued = []
    for player, seat in present.config["players"].items():
        if player == house:
            continue
        address = canonical_address((seat or {}).get("address"))
        if address is None:
            continue
        name = f"notice-{present.game_id}-{_stamp(present)}-j{seq:06d}-{player}"
        if outbox.has(name):
            continue
        language = reports.language_of(present, player)
        body = reports.environment(language).get_template("notice.txt.j2").render(
            reports.context(present, player, "notice", language, now=now), action=action, undone=undone or [],
            by=by, to=to, absent=absent,
            replaced=Msg("mail.notice.replace", house=house, game=present.game_id) if house else None)
        subject = messages.render(Msg(f"mail.subject.{action}", game=present.game_id), language)
        message = outbox.compose(address, subject, body, auto="auto-generated")
        message["X-Judge-State"] = reports.header_value(present, player, "notice")
        if outbox.queue(name, message):
            queued.append(name)
    return queued


def undone_versions(present: Present, to: int, seq: int) -> list[dict]:
    """The versions the rollback of journal entry ``seq`` to version ``to`` undid: those after
    ``to`` and before the version it made (``{"version", "summary"}``)."""
    files = present.files
    made = None
    for number in reversed(files.version_numbers()):
        try:
            data = files.read_version(number)
        except YamlFileError:
            continue
        if data["journal_seq"] < seq:
            break
        if data["journal_seq"] == seq:
            made = number
    out = []
    for number in range(to + 1, made or to + 1):
        try:
            out.append({"version": number, "summary": present.ruleset.summary(files.read_version(number)["state"])})
        except YamlFileError:
            out.append({"version": number, "summary": None})
    return out
