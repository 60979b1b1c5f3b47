"""Rendering what players and the GM read, from Jinja templates in ``templates/<language>/``.

Templates are rendered with StrictUndefined so that a missing value is an error in the tests,
never a blank in a player's mail. Everything a template sees about a game comes from
``ruleset.view(state, player)``, the events that player may see, the player's own ``on_file``
lines and the public status (who owes what, the deadline): a template cannot show what the
view does not hold. The GM's view (player None) is for ``judge show`` only.

Layout of ``templates/<language>/`` (``en`` and ``cs``; Czech uses the Czech game terms, area
and card names stay as on the board; events, owed decisions and errors are messages rendered from
the catalogues in the reader's language, :mod:`adjudicator.messages`)::

    reply.txt.j2       the answer to a mail: line by line, on file, requests, what is missing
    report.txt.j2      after an adjudication: events, the board, what the player owes next
    reminder.txt.j2    before a deadline, to a player who still owes a decision
    press.txt.j2       a PRESS message relayed to another player
    history.txt.j2     HISTORY: past versions' events and the board as it then stood (mail/history.py)
    help.txt.j2        HELP: the sign-on, the mail-level commands, then the game's own help
    view.txt.j2        ``judge show``
    status.txt.j2      the public status block (every mail about a game ends with it)
    board.txt.j2, help-game.txt.j2   generic fallbacks for rulesets without their own
    <ruleset>/board.txt.j2, <ruleset>/help.txt.j2, <ruleset>/terms.j2   per ruleset

A ruleset may ship a module ``display`` next to its ruleset module with ``board(view, player)
-> dict``: display-ready data for its ``board.txt.j2`` (``rulesets/agot1e/display.py``), and a
module ``picture`` with ``svg(view, player, language, caption=...) -> str``: the board drawn from
the same view (:func:`picture_of`; ``rulesets/agot/picture.py``, PNG in ``adjudicator/picture.py``),
and optionally ``png(...) -> bytes``, the same picture drawn fast for mail (:func:`picture_png_of`).

Every mail about a game starts with one machine-readable line (:func:`header`)::

    X-Judge: game=w1 version=7 round=3 step=action/march deadline=2026-11-23T12:00:00Z player=stark kind=report
"""

from __future__ import annotations

import importlib
import re
from datetime import datetime
from functools import cache
from typing import Any, Iterable

import jinja2
from zoneinfo import ZoneInfo

from . import clock, localtime, messages, picture, seats, yamlio
from . import ruleset as rulesets
from .judge import Outcome, Present
from .mail import preferences, servicelines
from .mail.settings import OBSERVE_CODE_HOURS
from .paths import TEMPLATES_DIR
from .messages import Msg
from .ruleset import OBSERVER, Event, LineResult, Ruleset

LANGUAGES = messages.LANGUAGES
DEFAULT_LANGUAGE = "en"
MAX_EVENTS = 300  # a report after a long silence shows the last ones
_SPACE = re.compile(r"\s")


@cache
def environment(language: str = DEFAULT_LANGUAGE, *, html: bool = False) -> jinja2.Environment:
    """The templates of ``language``; ``html``: autoescaped, for the web pages (``web.py``)."""
    if language not in LANGUAGES:
        raise ValueError(f"no templates for language {language!r} (have: {', '.join(LANGUAGES)})")
    env = jinja2.Environment(
        # the web pages also find what every language shares (the style sheet) in templates/web/
        loader=jinja2.FileSystemLoader([TEMPLATES_DIR / language] + [TEMPLATES_DIR / "web"] * html),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=html,
        auto_reload=False,  # compiled once per process, as the code is: no stat of each template at each mail
    )
    env.filters["yaml"] = yamlio.dumps
    env.globals["observe_code_hours"] = OBSERVE_CODE_HOURS  # HELP says how long an OBSERVE code holds
    # a game's texts with its ruleset's own names where it prints some differently (messages.py)
    env.filters["say"] = jinja2.pass_context(lambda context, value: _say(value, language, context.get("ruleset")))
    env.filters["line"] = jinja2.pass_context(lambda context, text: _said_line(context.get("ruleset"), text, language))
    # a ruleset's word for an id of its view, from its catalogue: {{ b.phase | term("phase", "agot") }}
    env.filters["term"] = jinja2.pass_context(
        lambda context, ident, kind, namespace, n=None, form=None: messages.name(ident, kind, language, namespace,
                                                                                 form, n, context.get("ruleset")))
    return env


_SAID: dict[tuple, str] = {}
SAID_KEPT = 4096


def _say(value, language: str, ruleset: str | None) -> str:
    """``value`` rendered (:func:`messages.render`); a message the same as one rendered before in
    this language and ruleset is not rendered again. Every mail says the same few (the step's
    summary, who owes what), and a rendering is a Jinja call of its own. The same: the key and the
    ``repr`` of the parameters, which tells apart what equality does not (``1`` and ``True``)."""
    if value is None:
        return ""
    if type(value) is not Msg:
        return messages.render(value, language, ruleset)
    key = (language, ruleset, value.key, repr(value.params))
    text = _SAID.get(key)
    if text is None:
        if len(_SAID) >= SAID_KEPT:
            _SAID.clear()
        text = _SAID[key] = messages.render(value, language, ruleset)
    return text


def _said_line(ruleset_name: str | None, text: str | None, language: str) -> str:
    """:func:`_line`, kept as :func:`_say` keeps messages (a reply echoes the same lines on file)."""
    key = (ruleset_name, language, text)
    said = _SAID.get(key)
    if said is None:
        if len(_SAID) >= SAID_KEPT:
            _SAID.clear()
        said = _SAID[key] = _line(ruleset_name, text, language)
    return said


def _line(ruleset_name: str | None, text: str | None, language: str) -> str:
    """A canonical command line (an echo, an example, a line on file) in ``language``'s words,
    by the ruleset's ``line`` hook (the grammar's own canonical form when it has none)."""
    if text is None:
        return ""
    if servicelines.owns(text):  # the mail service's own lines (servicelines.py, preferences.py)
        return servicelines.line(text, language)
    if text.startswith("SET "):
        return preferences.line(text, language)
    if ruleset_name is None:
        return text
    line = getattr(rulesets.get(ruleset_name), "line", None)
    return line(text, language) if line is not None else text


def language_of(present: Present, player: str | None) -> str:
    """The player's language from game.yaml (``en`` when unset or unknown)."""
    seat = (present.config.get("players") or {}).get(player) or {}
    language = str(seat.get("language") or DEFAULT_LANGUAGE).lower()
    return language if language in LANGUAGES else DEFAULT_LANGUAGE


def _display_module(ruleset: Ruleset):
    """The ruleset's ``display`` module, if its package has one (see the module docstring)."""
    return _display_for(type(ruleset).__module__)


@cache
def _display_for(module: str):
    package = module.rpartition(".")[0]
    if not package:
        return None
    try:
        return importlib.import_module(package + ".display")
    except ModuleNotFoundError as exc:
        if exc.name != package + ".display":
            raise
        return None


def board_of(ruleset: Ruleset, view: dict, player: str | None) -> dict | None:
    display = _display_module(ruleset)
    return display.board(view, player) if display is not None and hasattr(display, "board") else None


@cache
def _picture_for(module: str):
    package = module.rpartition(".")[0]
    if not package:
        return None
    try:
        return importlib.import_module(package + ".picture")
    except ModuleNotFoundError as exc:
        if exc.name != package + ".picture":
            raise
        return None


def draws_picture(present: Present) -> bool:
    """Does the game's ruleset draw a picture (:func:`picture_of` gives one)?"""
    module = _picture_for(type(present.ruleset).__module__)
    return module is not None and hasattr(module, "svg")


def picture_of(present: Present, player: str | None, language: str = DEFAULT_LANGUAGE, *,
               view: dict | None = None, version: int | None = None) -> str | None:
    """The ruleset's picture (SVG) of what ``player`` may see, or None if the ruleset draws none.

    Drawn from ``ruleset.view(state, player)`` only (``view``: an earlier version's view)."""
    module = _picture_for(type(present.ruleset).__module__)
    if module is None or not hasattr(module, "svg"):
        return None
    view = present.ruleset.view(present.state, player) if view is None else view
    return module.svg(view, player, language, caption=_caption(present, version))


def picture_png_of(present: Present, player: str | None, language: str = DEFAULT_LANGUAGE, *,
                   view: dict | None = None, version: int | None = None) -> bytes | None:
    """The same picture as a PNG (what a report mail carries), or None if the ruleset draws none.

    A ruleset's ``picture.png`` draws it fast (in layers, :mod:`adjudicator.layered`); without
    one, the SVG is rendered whole."""
    module = _picture_for(type(present.ruleset).__module__)
    if module is None or not hasattr(module, "svg"):
        return None
    view = present.ruleset.view(present.state, player) if view is None else view
    caption = _caption(present, version)
    if hasattr(module, "png"):
        return module.png(view, player, language, caption=caption)
    return picture.png_from_svg(module.svg(view, player, language, caption=caption))


def _caption(present: Present, version: int | None) -> str:
    return f"{present.game_id} v{present.version if version is None else version}"


# ---------------------------------------------------------------------------------------
# The public status and the machine-readable header line
# ---------------------------------------------------------------------------------------


def _status(present: Present, player: str | None, owed: list | None = None) -> dict:
    return {
        "game": present.game_id,
        "ruleset": present.ruleset.name,
        "version": present.version,
        "summary": present.ruleset.summary(present.state),
        "result": present.ruleset.result(present.state),
        "deadline": clock.to_text(present.deadline()),
        "paused": present.paused(),
        "owed": present.owed() if owed is None else owed,  # who has sent what is public; the content is not
        "problems": present.problems if player is None else [],
        "press": present.config.get("press", "signed"),
    }


def header_fields(present: Present, player: str | None, kind: str, view: dict | None = None) -> dict[str, str]:
    """The fields of the ``X-Judge`` line: ``game version round step deadline status player kind``."""
    view = present.ruleset.view(present.state, player) if view is None else view
    round_ = view.get("round") if isinstance(view, dict) else None
    step = "/".join(str(view[k]) for k in ("phase", "step") if isinstance(view, dict) and view.get(k) is not None)
    if present.ruleset.result(present.state) is not None:
        status = "over"
    elif present.paused():
        status = "paused"
    else:
        status = "running"
    fields = {
        "game": present.game_id,
        "version": str(present.version),
        "round": "-" if round_ is None else str(round_),
        "step": step or "-",
        "deadline": clock.to_text(present.deadline()) or "-",
        "status": status,
        "player": player or "-",
        "kind": kind,
    }
    return {k: _header_word(v) for k, v in fields.items()}


def _header_word(value: str) -> str:
    """``value`` as one word of the ``X-Judge`` line: space and unprintable characters become ``_``
    (the search a fast path for the usual word that has none: ``\\s`` is ``str.isspace``)."""
    if value and value.isprintable() and not _SPACE.search(value):
        return value
    return "".join(c if c.isprintable() and not c.isspace() else "_" for c in value) or "-"


def header(present: Present, player: str | None, kind: str, view: dict | None = None) -> str:
    """``X-Judge: game=w1 version=7 round=3 step=action/march deadline=... status=running player=stark kind=report``."""
    return "X-Judge: " + header_value(present, player, kind, view)


def header_value(present: Present, player: str | None, kind: str, view: dict | None = None) -> str:
    return " ".join(f"{k}={v}" for k, v in header_fields(present, player, kind, view).items())


def parse_header(text: str) -> dict[str, str] | None:
    """The fields of the ``X-Judge`` line at the top of a mail body (None if there is none)."""
    first = text.lstrip("\ufeff").splitlines()[0] if text.strip() else ""
    if not first.startswith("X-Judge: "):
        return None
    return dict(part.split("=", 1) for part in first[len("X-Judge: "):].split() if "=" in part)


# ---------------------------------------------------------------------------------------
# What the templates see
# ---------------------------------------------------------------------------------------


def context(present: Present, player: str | None, kind: str, language: str, events: Iterable[Event] = (),
            now: datetime | None = None, *, board: bool = True) -> dict[str, Any]:
    """What every template about a game sees, for ``player`` (None: the GM) in ``language``;
    ``board=False`` when the template shows no board (a reply without STATUS: the board is the
    dearest part to make)."""
    ruleset, state = present.ruleset, present.state
    view = ruleset.view(state, player)
    owed = present.owed()
    deadline = present.deadline()
    players = list(present.config.get("players") or {})
    return {
        "header": header(present, player, kind, view),
        "status": _status(present, player, owed),
        "player": player,
        "ruleset": ruleset.name,
        "view": view,
        "board": board_of(ruleset, view, player) if board else None,
        "owes": [o for o in owed if o.player == player],
        "missing": [o for o in owed if o.player == player and not o.done],
        "on_file": ruleset.on_file(state, player) if player in players else [],
        "observer": player == OBSERVER,  # OBSERVE by mail: the public view
        "events": [e for e in events if e.visible_to(player)][-MAX_EVENTS:],
        # the deadline in the reader's zone and language, with the time left ("in 1 day 3 hours")
        "deadline": localtime.deadline_text(deadline, now, zone_of(present, player, language), language),
        "grace": present.config.get("deadlines", {}).get("grace"),
        "players": players,
        "absence_cap": seats.absence_cap(present.config),  # HELP: SET ABSENCE (adjudicator/absences.py)
        "draws": getattr(ruleset, "agreed_draw", None) is not None,  # HELP: DRAW (mail/draw.py)
    }


def zone_of(present: Present, player: str | None, language: str | None = None) -> ZoneInfo:
    """The player's time zone (``SET TIMEZONE``), else their language's (``localtime.DEFAULT_ZONES``);
    for a reader without a seat (an observer), ``language``'s."""
    players = present.config.get("players") or {}
    seat = players.get(player) or {}
    seatless = language if player is not None and player not in players and language in LANGUAGES else None
    return localtime.zone(seat.get("timezone"), seatless or language_of(present, player))


def render_reply(outcome: Outcome, present: Present, player: str, language: str = DEFAULT_LANGUAGE, *,
                 mail_lines: Iterable[LineResult] = (), press: Iterable[dict] = (), language_set: str | None = None,
                 via_mail: bool = False, now: datetime | None = None) -> str:
    """The answer to one submission: each line's result, what is on file, what is still missing,
    and the answers to the mail-level requests (HELP, STATUS, ORDERS?, PRESS, SET LANGUAGE).

    ``mail_lines``: results of lines the mail service handled itself (SET LANGUAGE), merged in
    line order; ``press``: what became of each PRESS line (``{"to", "anonymous", "relayed",
    "problem"}``); ``via_mail``: False for ``judge submit``, where PRESS is not relayed.
    """
    kinds = [r[0] for r in outcome.requests]
    values = context(present, player, "reply", language, outcome.events, now, board="status" in kinds)
    lines = sorted([*(outcome.parsed.lines if outcome.parsed else ()), *mail_lines], key=lambda ln: ln.lineno)
    topics = [r[1] for r in outcome.requests if r[0] == "help"]
    return environment(language).get_template("reply.txt.j2").render(
        values,
        outcome=outcome,
        lines=lines,
        help=("help" in kinds),
        help_topic=(topics[0] if topics else None),
        show_status=("status" in kinds),
        orders_query=("orders?" in kinds),
        press=list(press),
        press_requested=("press" in kinds),
        via_mail=via_mail,
        language_set=language_set,
        language_name=preferences.LANGUAGE_NAMES.get(language_set or "", ""),
    )


def render_report(present: Present, player: str, events: list[Event], first_version: int,
                  language: str = DEFAULT_LANGUAGE, *, now: datetime | None = None) -> str:
    """The report to ``player`` after versions ``first_version``..``present.version``."""
    return environment(language).get_template("report.txt.j2").render(
        context(present, player, "report", language, events, now), first_version=first_version)


def render_reminder(present: Present, player: str, language: str = DEFAULT_LANGUAGE, *,
                    now: datetime | None = None) -> str:
    """A reminder to ``player``, who still owes a decision before the deadline."""
    return environment(language).get_template("reminder.txt.j2").render(
        context(present, player, "reminder", language, (), now))


def render_press(present: Present, recipient: str, sender: str | None, blocks: list[dict],
                 language: str = DEFAULT_LANGUAGE, *, now: datetime | None = None) -> str:
    """Press relayed to ``recipient``: ``blocks`` of ``{"anonymous", "text", "to"}``; ``sender`` is
    the player (never shown for an anonymous block)."""
    values = context(present, recipient, "press", language, (), now)
    return environment(language).get_template("press.txt.j2").render(values, sender=sender, blocks=blocks)


def render_help(present: Present, player: str, language: str = DEFAULT_LANGUAGE, topic: str | None = None) -> str:
    """HELP: the sign-on, the mail-level commands and the game's own commands."""
    return environment(language).get_template("help.txt.j2").render(context(present, player, "help", language),
                                                                    help_topic=topic)


def render_view(present: Present, player: str | None, view: dict, language: str = DEFAULT_LANGUAGE, *,
                now: datetime | None = None) -> str:
    """A game as ``player`` (None: the GM) may see it, as text (``judge show``)."""
    values = context(present, player, "view", language, present.events, now)
    values["view"] = view  # an earlier version (judge show --version)
    values["board"] = board_of(present.ruleset, view, player)
    if player is None:  # the GM sees what each player has on file
        values["plans"] = {p: present.ruleset.on_file(present.state, p) for p in values["players"]}
    return environment(language).get_template("view.txt.j2").render(values)


def render_status(present: Present, player: str | None, language: str = DEFAULT_LANGUAGE, *,
                  now: datetime | None = None) -> str:
    """The public status block (``judge status``): who owes what, and by when."""
    return environment(language).get_template("status.txt.j2").render(
        context(present, player, "status", language, (), now))
