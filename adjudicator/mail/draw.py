"""Draw votes by mail: ``DRAW`` / ``DRAW NO`` (``REMÍZA`` / ``REMÍZA NE``), as njudge's.

A vote is stored on the voter's seat in game.yaml (``draw: true``, ``adjudicator/seats.py``) and
stays until withdrawn; nobody is told who voted (the GM can read game.yaml). When every surviving
player (``Ruleset.survivors``, default: every player) votes for it, the game ends in a draw
shared by them: a ``draw`` journal entry, applied by ``Judge`` through the ruleset's
``agreed_draw`` into a new version, which every player is then reported. A ruleset without
``agreed_draw`` knows no shared result (agot1e, the AGoT CCG): DRAW is refused with a note.
"""

from __future__ import annotations

from .. import seats
from ..messages import Msg


def survivors(present) -> list[str]:
    """The players whose votes a draw needs."""
    hook = getattr(present.ruleset, "survivors", None)
    return list(hook(present.state)) if hook is not None else list(present.config["players"])


def vote(judge, game: str, house: str, yes: bool) -> Msg:
    """Record ``house``'s vote (``yes`` False: withdraw it); end the game in a draw when it was
    the last one missing. The note for the reply."""
    present = judge.present(game, shared=True)
    if getattr(present.ruleset, "agreed_draw", None) is None:
        return Msg("mail.draw.not_allowed", ruleset=present.ruleset.name)
    if present.ruleset.result(present.state) is not None:
        return Msg("mail.draw.over")
    if house not in survivors(present):
        return Msg("mail.draw.not_surviving")
    seats.vote_draw(judge, game, house, yes)
    if not yes:
        return Msg("mail.draw.withdrawn")
    present = judge.present(game, shared=True)
    needed = survivors(present)
    if all((present.config["players"].get(p) or {}).get("draw") for p in needed):
        judge.record(game, {"kind": "draw", "players": needed})
        return Msg("mail.draw.agreed")
    return Msg("mail.draw.recorded")
