"""Rendering what players and the GM read, from Jinja templates in ``templates/<language>/``.

Templates are rendered with StrictUndefined so that a missing value is an error in the tests,
never a blank in a player's mail. Everything a template sees about a game comes from
``ruleset.view(state, player)``: a template cannot show what the view does not hold.
"""

from __future__ import annotations

from functools import cache

import jinja2

from . import clock, yamlio
from .judge import Outcome, Present
from .paths import TEMPLATES_DIR

LANGUAGES = ("en",)


@cache
def environment(language: str = "en") -> jinja2.Environment:
    if language not in LANGUAGES:
        raise ValueError(f"no templates for language {language!r} (have: {', '.join(LANGUAGES)})")
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR / language),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters["yaml"] = yamlio.dumps
    return env


def _status(present: Present, player: str | None) -> dict:
    return {
        "game": present.game_id,
        "ruleset": present.ruleset.name,
        "version": present.version,
        "summary": present.ruleset.summary(present.state),
        "result": present.ruleset.result(present.state),
        "deadline": clock.to_text(present.deadline()),
        "paused": present.paused(),
        "owed": present.owed(),  # who has sent what is public, as in every mail judge; the content is not
        "problems": present.problems if player is None else [],
    }


def render_reply(outcome: Outcome, present: Present, player: str, language: str = "en") -> str:
    """The answer to one submission: each line's result, what is on file, what is still missing."""
    return environment(language).get_template("reply.txt.j2").render(
        outcome=outcome,
        lines=outcome.parsed.lines if outcome.parsed else (),
        on_file=present.ruleset.on_file(present.state, player),
        status=_status(present, player),
        events=[e for e in outcome.events if e.visible_to(player)],
        player=player,
    )


def render_view(present: Present, player: str | None, view: dict, language: str = "en") -> str:
    """A game as ``player`` (None: the GM) may see it, as text."""
    return environment(language).get_template("view.txt.j2").render(
        status=_status(present, player), view=view, player=player,
        events=[e for e in present.events if e.visible_to(player)],
    )
