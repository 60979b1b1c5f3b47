"""``HISTORY [round]`` (``HISTORIE [kolo]``): the game's past by mail, as the player saw it.

Re-rendered from the stored versions (``states/NNNNNN.yaml``) for the asking player: each
version's events the player may see (``Event.visible_to``) and, at the end, the board from
``ruleset.view(state, player)`` of the last version shown, so nothing hidden from the player
then is in it. With a round, the versions of that round (the state's or view's ``round``);
without one, every version so far (the last ``reports.MAX_EVENTS`` events). Sent as a separate
mail to the sender (``templates/<lang>/history.txt.j2``), named after the inbox message and the
round (one mail per round asked).

What each version holds for the history (its round, summary and events) is kept in
``<data>/cache/history-<game>.json``, each entry checked by the stamp of its version file
(:mod:`adjudicator.gameindex`): a version file is written once and never changed, so a HISTORY
reads only the YAML of the versions it has not seen and of the last one shown (for the board),
not every version of a long game under the inbox lock (about 1 s for 10 rounds). The cache is
derived data, rebuilt when missing or torn.
"""

from __future__ import annotations

import json

from .. import gameindex, messages, reports, yamlio
from ..judge import Present
from ..messages import Msg
from ..ruleset import Event
from ..yamlio import YamlFileError

CACHE_FORMAT = 1


def _round(present: Present, state: dict, player: str):
    found = state.get("round") if isinstance(state, dict) else None
    return found if found is not None else present.ruleset.view(state, player).get("round")


def _digests(present: Present, player: str) -> dict[int, dict]:
    """Every readable version's ``{"round", "summary", "events"}`` (plain data), from the cache
    where the version file is the one it was made from."""
    files = present.files
    path = files.path.parent / gameindex.CACHE_DIR / f"history-{present.game_id}.json"
    created = str(present.config.get("created"))
    try:
        cached = json.loads(path.read_bytes())
        entries = cached["versions"] if cached.get("format") == CACHE_FORMAT and cached.get("created") == created else {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        entries = {}
    out, changed = {}, False
    for number in files.version_numbers():
        name = f"states/{number:06d}.yaml"
        current = gameindex.stamp(str(files.path), [name])
        hit = entries.get(str(number))
        if current is not None and isinstance(hit, list) and len(hit) == 2 and hit[0] == current:
            out[number] = hit[1]
            continue
        try:
            data = files.read_version(number)
        except YamlFileError:
            continue
        summary = present.ruleset.summary(data["state"])
        out[number] = {"round": _round(present, data["state"], player),
                       "summary": summary if isinstance(summary, str) else summary.as_dict(),
                       "events": list(data.get("events") or [])}
        entries[str(number)] = [current, out[number]]
        changed = True
    if changed:
        try:
            path.parent.mkdir(exist_ok=True)
            yamlio.atomic_write(path, json.dumps({"format": CACHE_FORMAT, "created": created, "versions": entries},
                                                 separators=(",", ":"), default=str).encode(), fsync=False)
        except OSError:
            pass  # a read-only data directory: the next HISTORY reads the versions again
    return out


def past(present: Present, player: str, round_: int | None) -> tuple[list[dict], Present | None]:
    """The versions to show (``{"number", "summary", "events"}``, events the player may see) and
    the game as it stood after the last of them; ([], None) if no version is of that round."""
    shown = []
    for number, digest in _digests(present, player).items():
        if round_ is not None and digest["round"] != round_:
            continue
        events = [e for e in (Event.from_dict(x) for x in digest["events"]) if e.visible_to(player)]
        shown.append({"number": number, "events": events,
                      "summary": digest["summary"] if isinstance(digest["summary"], str) else Msg.from_dict(digest["summary"])})
    if not shown:
        return [], None
    number = shown[-1]["number"]
    try:
        data = present.files.read_version(number)
    except YamlFileError:  # broken since it was cached: the history stops where it can be read
        return [], None
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
