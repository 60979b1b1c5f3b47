"""Reports to a game's observers (``OBSERVE <game>`` by mail, ``opencommands.py``).

An observer is an address in game.yaml's ``observers`` (with its language and ``since``, the
version it started at). It gets a report when a phase ends or the game is over (the digest rule
of ``process.report_due`` for someone who never owes anything), rendered like a player's report
but for :data:`adjudicator.ruleset.OBSERVER`: the ruleset's view of a non-player (no hand, plan,
bid or unrevealed order of any house) and only the events every player sees, with the board
picture drawn from that view. What each observer was last reported is kept in the game's
``mail.yaml`` (``observers``: address -> version), next to the players' marks.
"""

from __future__ import annotations

import hashlib
import logging

from .. import messages, reports, seats
from ..messages import Msg
from ..ruleset import OBSERVER
from .envelope import canonical_address

log = logging.getLogger("adjudicator.mail")


def report(postmaster, present, marks: dict[str, int], created: str) -> list[str]:
    """Queue the observers' reports due; ``marks`` (address -> last version reported) is updated."""
    from .process import _attach_picture, report_due  # the players' rules, shared

    watching = seats.observers(present.config)
    for gone in [a for a in marks if a not in watching]:
        del marks[gone]
    if not watching:
        return []
    lasts = {a: int(marks.get(a, o.get("since") or present.version)) for a, o in watching.items()}
    oldest = min(lasts.values())
    if present.version <= oldest:
        marks.update(lasts)
        return []
    versions = postmaster._versions(present.files, created, oldest, present.version)
    stamp = created.replace(":", "").replace("-", "")
    queued = []
    for address, observer in watching.items():
        last = lasts[address]
        marks[address] = last
        if present.version <= last or not report_due(present, OBSERVER, {}, versions, last):
            continue
        marks[address] = present.version
        to = canonical_address(address)
        if to is None:
            continue
        tag = hashlib.sha256(address.encode()).hexdigest()[:12]
        name = f"observe-{present.game_id}-{stamp}-v{present.version:06d}-{tag}"
        if postmaster.outbox.has(name):
            continue
        language = observer.get("language") if observer.get("language") in reports.LANGUAGES else "en"
        visible = [e for n in range(last + 1, present.version + 1) for e in versions.get(n, {}).get("events", [])
                   if e.visible_to(OBSERVER)]
        try:
            body = reports.render_report(present, OBSERVER, visible, last + 1, language, now=postmaster.now)
        except Exception:  # noqa: BLE001  a template bug must not stop the mail service
            log.exception("game %s: observer report could not be rendered", present.game_id)
            continue
        subject = messages.render(Msg("mail.subject.report", game=present.game_id,
                                      summary=present.ruleset.summary(present.state), version=present.version), language)
        message = postmaster.outbox.compose(to, subject, body, auto="auto-generated")
        message["X-Judge-State"] = reports.header_value(present, OBSERVER, "report")
        _attach_picture(message, present, OBSERVER, language)
        if postmaster.outbox.queue(name, message):
            queued.append(name)
    return queued
