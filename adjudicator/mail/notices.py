"""Mails the GM's commands cause: a welcome to each player, a notice to all when the GM acts.

``judge new`` and ``judge replace`` mail each new player a welcome (the game, their house and
password, how to send orders, where HELP is); ``judge extend``, ``pause``, ``resume`` and
``rollback`` tell every player what the GM did (a rollback also what was undone). The mails are
queued in the outbox like any other, rendered in the player's language from
``templates/<lang>/welcome.txt.j2`` and ``notice.txt.j2``, and sent by the running ``judge
serve`` or the next ``judge deliver``. Their names come from the game and the journal entry
that caused them, so running a command's notices twice queues nothing twice.
"""

from __future__ import annotations

from .. import reports
from ..judge import Present
from ..messages import Msg
from .envelope import canonical_address
from .outbox import Outbox
from .process import say
from .settings import resolve


def _outbox(present: Present, now) -> Outbox:
    data = present.files.path.parent
    return Outbox(data, resolve(data), now=now, fsync=present.files.fsync)


def _stamp(present: Present) -> str:
    return str(present.config.get("created", "")).replace(":", "").replace("-", "")


def welcome(present: Present, player: str, password: str, *, seq: int, now) -> str | None:
    """Queue ``player``'s welcome (after ``judge new``: ``seq`` 0; after ``replace``: its journal
    entry); the name of the mail queued, or None if the seat has no usable address."""
    seat = present.config["players"][player]
    address = canonical_address(seat.get("address"))
    if address is None:
        return None
    language = reports.language_of(present, player)
    outbox = _outbox(present, now)
    body = reports.environment(language).get_template("welcome.txt.j2").render(
        reports.context(present, player, "welcome", language, now=now()), password=password,
        judge_address=outbox.settings.address, replaced=seq > 0)
    subject = say(Msg("mail.subject.welcome", game=present.game_id, house=player), language)
    message = outbox.compose(address, subject, body, auto="auto-generated")
    message["X-Judge-State"] = reports.header_value(present, player, "welcome")
    name = f"welcome-{present.game_id}-{_stamp(present)}-j{seq:06d}-{player}"
    return name if outbox.queue(name, message) else None


def gm_action(present: Present, action: str, *, seq: int, now, undone: list[dict] | None = None,
              by: str | None = None, to: int | None = None) -> list[str]:
    """Tell every player what the GM did (``extend`` ``by`` a duration, ``pause``, ``resume``,
    ``rollback`` ``to`` a version, with the versions ``undone``: ``{"version", "summary"}``)."""
    outbox = _outbox(present, now)
    queued = []
    for player, seat in present.config["players"].items():
        address = canonical_address((seat or {}).get("address"))
        if address is None:
            continue
        language = reports.language_of(present, player)
        body = reports.environment(language).get_template("notice.txt.j2").render(
            reports.context(present, player, "notice", language, now=now()), action=action, undone=undone or [],
            by=by, to=to)
        subject = say(Msg(f"mail.subject.{action}", game=present.game_id), language)
        message = outbox.compose(address, subject, body, auto="auto-generated")
        message["X-Judge-State"] = reports.header_value(present, player, "notice")
        name = f"notice-{present.game_id}-{_stamp(present)}-j{seq:06d}-{player}"
        if outbox.queue(name, message):
            queued.append(name)
    return queued


def undone_versions(present: Present, to: int, upto: int, read_version) -> list[dict]:
    """The versions a rollback to ``to`` undid (``to + 1`` .. ``upto``): number and summary."""
    out = []
    for number in range(to + 1, upto + 1):
        try:
            state = read_version(number)["state"]
        except Exception:  # noqa: BLE001  an unreadable version is still one that was undone
            out.append({"version": number, "summary": None})
            continue
        out.append({"version": number, "summary": present.ruleset.summary(state)})
    return out

