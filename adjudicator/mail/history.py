"""``HISTORY [round]`` (``HISTORIE [kolo]``): the game's past by mail, as the player saw it.

Re-rendered from the stored versions (``states/NNNNNN.yaml``) for the asking player: each
version's events the player may see (``Event.visible_to``) and, at the end, the board from
``ruleset.view(state, player)`` of the last version shown, so nothing hidden from the player
then is in it. With a round, the versions of that round (the state's or view's ``round``);
without one, every version so far (the last ``reports.MAX_EVENTS`` events). Sent as a separate
mail to the sender (``templates/<lang>/history.txt.j2``), named after the inbox message and the
round (one mail per round asked).
"""

from __future__ import annotations

from .. import messages, reports
from ..judge import Present
from ..messages import Msg
from ..ruleset import Event
from ..yamlio import YamlFileError


def _round(present: Present, state: dict, player: str):
    found = state.get("round") if isinstance(state, dict) else None
    return found if found is not None else present.ruleset.view(state, player).get("round")


def past(present: Present, player: str, round_: int | None) -> tuple[list[dict], Present | None]:
    """The versions to show (``{"number", "summary", "events"}``, events the player may see) and
    the game as it stood after the last of them; ([], None) if no version is of that round."""
    shown, last = [], None
    for number in present.files.version_numbers():
        try:
            data = present.files.read_version(number)
        except YamlFileError:
            continue
        if round_ is not None and _round(present, data["state"], player) != round_:
            continue
        events = [e for e in (Event.from_dict(x) for x in data.get("events") or []) if e.visible_to(player)]
        shown.append({"number": number, "summary": present.ruleset.summary(data["state"]), "events": events})
        last = (number, data)
    if last is None:
        return [], None
    number, data = last
    then = Present(present.files, present.config, present.ruleset, number, data["journal_seq"], data["state"],
                   dict(data.get("clock") or {}), [])
    while sum(len(v["events"]) for v in shown) > reports.MAX_EVENTS and len(shown) > 1:
        shown.pop(0)
    return shown, then


def render(present: Present, player: str, language: str, round_: int | None, now=None) -> str | None:
    shown, then = past(present, player, round_)
    if then is None:
        return None
    return reports.environment(language).get_template("history.txt.j2").render(
        reports.context(then, player, "history", language, (), now), versions=shown, round=round_,
        first=shown[0]["number"], last=shown[-1]["number"])


def send(postmaster, handled, inbound, round_: int | None) -> Msg:
    """Queue the history for ``handled.player``; the note for the reply."""
    present = postmaster.judge.present(handled.game, shared=True)
    language = reports.language_of(present, handled.player)
    body = render(present, handled.player, language, round_, now=postmaster.now)
    if body is None:
        return Msg("mail.history.no_round", round=round_)
    subject = messages.render(Msg("mail.subject.history", game=handled.game, round=round_), language)
    message = postmaster.outbox.compose(inbound.sender, subject, body, auto="auto-replied",
                                        in_reply_to=inbound.message_id, references=inbound.references)
    message["X-Judge-State"] = reports.header_value(present, handled.player, "history")
    name = postmaster._name(handled, f"history-{'all' if round_ is None else round_}")
    if postmaster.outbox.queue(name, message):
        handled.mails.append(name)
    return Msg("mail.history.sent", round=round_)
