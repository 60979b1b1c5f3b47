"""The Claim mail grammar: mail body text -> typed commands, line by line.

In the spirit of ``shared/agot1e/PBEM.md``: one command per line, case-insensitive, ``#`` starts
a comment, blank lines are ignored, the sign-on line ``JUDGE <game> <player> <password>`` comes
first. Keywords and faction names are accepted in English and Czech, with or without diacritics,
singular or plural, or by a unique start of 3+ letters::

    PLAY <faction> <value> [OR <faction> <value>]... [OR LOWEST | OR HIGHEST]
        e.g. PLAY Gnome 5 OR Giant 3 OR LOWEST          (HRAJ gnóm 5 NEBO obr 3 NEBO NEJNIŽŠÍ)
        several PLAY lines: one for each of your next turns, in order
    TAKE <faction> <value> | PRIZE | DECK | HIGHEST | LOWEST [OR ...]
        the prize you pick (3-4 players), or the Seer's choice: TAKE PRIZE / TAKE DECK
        (SEER DECK is the same, but SEER 9 is a card missing its PLAY; VEZMI ... in Czech)
    CANCEL                       forget your plays and choice on file
    HELP [topic] | STATUS | ORDERS? | PRESS <player>[, <player>]|ALL: <text> | PRESS ANON ...

The grammar is state-free: it knows the game's factions and players, not the hands. Whether a
player holds the card, whether it follows faction, whether a prize is on the table: the
submission (``submission.py``) checks that against the position.

Errors are messages (``claim.error.*``) in the player's language; the example of a refused line
and the canonical echo of an accepted one are canonical lines in the grammar's own words
(English), which ``Ruleset.line`` (``lines.py``) renders in the player's command words.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from ...mailbody import close_command, line_problem, logical_lines
from ...messages import Msg, render
from ...ruleset import LineError
from .gamedata import GameData, UnknownName, fold
from .position import line_text
from ...mailcommands import MAIL_WORDS, Help, OrdersQuery, Press, Status  # noqa: F401  (one set for every ruleset)

MAX_LINE_CHARS = 1000
MAX_ALTERNATIVES = 12

COMMAND_WORDS = {
    "play": "PLAY", "hraj": "PLAY", "zahraj": "PLAY", "hrat": "PLAY", "zahrat": "PLAY", "vynes": "PLAY",
    "take": "TAKE", "vezmi": "TAKE", "vzit": "TAKE", "ber": "TAKE", "seer": "TAKE", "vestec": "TAKE",
    "pick": "TAKE",
    "cancel": "CANCEL", "zrus": "CANCEL", "zrusit": "CANCEL",
    "plays?": "ORDERS?",
    **MAIL_WORDS,
    "judge": "JUDGE",
}
"""First word of a line (folded) -> the command it starts."""

SEER_WORDS = ("seer", "vestec")
"""Command words that are also a faction's name: ``Seer 9`` is a card, not a TAKE."""

WORDS = {
    "lowest": "lowest", "low": "lowest", "min": "lowest", "nejnizsi": "lowest", "nejmensi": "lowest",
    "highest": "highest", "high": "highest", "max": "highest", "nejvyssi": "highest", "nejvetsi": "highest",
    "deck": "deck", "top": "deck", "balicek": "deck", "balik": "deck",
    "prize": "prize", "table": "prize", "stul": "prize", "odmena": "prize", "odmenu": "prize", "cena": "prize",
}
"""Alternatives that are not a card (folded) -> the plan word."""

ALL_WORDS = ("all", "everyone", "vsem", "vsichni")
_SEPARATOR = re.compile(r"(?:^|\s+)(?:or|nebo)(?:\s+|$)|\s*[,;|/]\s*", re.I)
_TRANSLATE = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u00a0": " ", "\ufeff": None,
                            "\u200b": None, "\u2019": "'", "\u2018": "'"})


@dataclass(frozen=True)
class Play:
    alts: tuple[str, ...]


@dataclass(frozen=True)
class Take:
    alts: tuple[str, ...]


@dataclass(frozen=True)
class Cancel:
    pass


@dataclass
class Line:
    """One line of a mail: a command with its canonical echo, or an error with a valid example."""

    lineno: int
    raw: str
    command: object = None
    canonical: str | None = None
    error: Msg | None = None
    example: str | None = None




def example_text(key: str) -> str:
    """The English text of an example's free part (a PRESS message, a password), from the
    catalogue: ``lines.py`` shows the same example's text in the player's language."""
    return render(Msg(key), "en")


def _text_problem(raw: str) -> Msg | None:
    """Why ``raw`` is no line of text a player wrote (``mailbody.line_problem``), as a message."""
    problem = line_problem(raw, MAX_LINE_CHARS)
    if problem is None:
        return None
    which, params = problem
    if which == "too_long":
        return Msg("claim.error.line_too_long", length=params["length"], max=params["limit"])
    return Msg("claim.error.unreadable", char=params["code"])


@dataclass
class Names:
    """What the grammar knows of a game: its data, the factions in play, the players."""

    gd: GameData
    factions: tuple[str, ...]
    players: tuple[str, ...] = field(default_factory=tuple)

    def example_card(self) -> str:
        f = self.gd.factions[self.factions[0]]
        return f"{f.singular} {f.values[-1]}"


def parse_mail(text: str, names: Names) -> list[Line]:
    out: list[Line] = []
    first = True
    for lineno, raw in logical_lines(text):
        body = raw.translate(_TRANSLATE).split("#", 1)[0].strip()
        if not body:
            continue
        head = fold(body.split(None, 1)[0])
        if first and head == "judge":
            first = False
            continue  # the sign-on, checked by the mail layer
        first = False
        try:
            problem = _text_problem(raw)
            if problem:
                raise LineError(problem, f"PRESS ALL: {example_text('claim.example.press_long')}"
                                if problem.key == "claim.error.line_too_long" else "HELP")
            command = parse_line(body, names)
        except LineError as exc:
            example = _fixed_example(body, exc, names) or exc.example or "HELP"
            out.append(Line(lineno, raw, error=exc.message, example=example))
            continue
        out.append(Line(lineno, raw, command=command, canonical=canonical(command, names)))
    return out


def _fixed_example(body: str, exc: LineError, names: Names) -> str | None:
    """The player's line with the error's suggested fix applied, in canonical form, if it parses."""
    for _ in range(3):
        if exc.fix is None:
            return None
        bad, good = exc.fix
        at = fold(body).find(fold(bad))
        if not bad or at < 0:
            return None
        body = body[:at] + good + body[at + len(bad):]
        try:
            return canonical(parse_line(body, names), names)
        except LineError as again:
            exc = again
    return None


def parse_line(body: str, names: Names) -> object:
    parts = body.split(None, 1)
    word, rest = parts[0], (parts[1] if len(parts) > 1 else "")
    head = fold(word)
    if head == "orders" and rest.startswith("?"):
        head, rest = "orders?", rest[1:].strip()
    keyword = COMMAND_WORDS.get(head)
    # SEER / VĚŠTEC start a TAKE line (SEER DECK), but followed by a value they name a card
    seer_card = head in SEER_WORDS and re.match(r"\d", rest) is not None
    if keyword is None or seer_card:
        if seer_card or _looks_like_card(body, names):
            raise LineError(Msg("claim.error.needs_play", text=body.strip()[:40]),
                            example("PLAY", names), fix=(body.strip(), "PLAY " + body.strip()))
        good = close_command(head, COMMAND_WORDS)
        if good:
            raise LineError(Msg("claim.error.did_you_mean", word=word[:40], command=good.rstrip("?").lower()),
                            example(good, names), fix=(word, good))
        raise LineError(Msg("claim.error.unknown_command", word=word[:40]), example("PLAY", names))
    if keyword == "JUDGE":
        raise LineError(Msg("claim.error.judge_not_first"),
                        f"JUDGE {example_text('claim.example.game')} alice {example_text('claim.example.password')}")
    if keyword == "PLAY":
        return Play(_alternatives(rest, names, "PLAY"))
    if keyword == "TAKE":
        return Take(_alternatives(rest, names, "TAKE"))
    if keyword == "CANCEL":
        if rest.strip():
            raise LineError(Msg("claim.error.cancel_extra"), "CANCEL")
        return Cancel()
    if keyword == "HELP":
        return Help(" ".join(rest.split()) or None)
    if keyword == "STATUS":
        return Status()
    if keyword == "ORDERS?":
        return OrdersQuery()
    return _press(rest, names)


def example(keyword: str, names: Names) -> str:
    """A valid canonical line for ``keyword``."""
    if keyword == "PRESS":
        return f"PRESS {names.players[0] if names.players else 'ALL'}: {example_text('claim.example.press')}"
    return {"PLAY": f"PLAY {names.example_card()}", "TAKE": "TAKE PRIZE", "CANCEL": "CANCEL", "HELP": "HELP",
            "STATUS": "STATUS", "ORDERS?": "ORDERS?"}.get(keyword, "HELP")


def _looks_like_card(body: str, names: Names) -> bool:
    try:
        return _card(body, names, "PLAY") is not None
    except LineError:
        return False


def _alternatives(rest: str, names: Names, keyword: str) -> tuple[str, ...]:
    items = [i.strip() for i in _SEPARATOR.split(rest.strip())] if rest.strip() else []
    if not items or not all(items):
        raise LineError(Msg("claim.error.needs_alternatives", command=keyword.lower()), example(keyword, names))
    if len(items) > MAX_ALTERNATIVES:
        raise LineError(Msg("claim.error.too_many_alternatives", max=MAX_ALTERNATIVES), example(keyword, names))
    alts = []
    for item in items:
        word = WORDS.get(fold(item).replace(" ", ""))
        if word is not None:
            if keyword == "PLAY" and word not in ("lowest", "highest"):
                raise LineError(Msg("claim.error.take_word_in_play", item=item), example("PLAY", names))
            alts.append(word)
        else:
            alts.append(_card(item, names, keyword))
    return tuple(dict.fromkeys(alts))


_CARD = re.compile(r"([^\W\d_]+(?:\s+[^\W\d_]+)?)\s*-?\s*(\d+)$")
_CARD_REVERSED = re.compile(r"(\d+)\s*-?\s*([^\W\d_]+)$")


def _card(item: str, names: Names, keyword: str) -> str:
    """``Gnome 5``, ``gnóm-5``, ``5 gnomes`` -> ``gnomes 5``."""
    text = item.strip()
    m = _CARD.match(text)
    if m:
        word, value = m.group(1), m.group(2)
    else:
        m = _CARD_REVERSED.match(text)
        if not m:
            raise LineError(Msg("claim.error.not_a_card", text=text[:40], command=keyword.lower()),
                            example(keyword, names))
        value, word = m.group(1), m.group(2)
    try:
        faction = names.gd.resolve_faction(word, names.factions)
    except UnknownName as exc:
        fix = (word, names.gd.factions[exc.suggestion].singular) if exc.suggestion else None
        raise LineError(exc.message, example(keyword, names), fix=fix) from None
    values = names.gd.factions[faction].values
    if int(value) not in values:
        f = names.gd.factions[faction]
        raise LineError(Msg("claim.error.values", faction=faction, values=list(dict.fromkeys(values))),
                        f"{keyword} {f.singular} {values[-1]}", fix=(text, f"{f.singular} {values[-1]}"))
    return f"{faction} {int(value)}"


def _press(rest: str, names: Names) -> Press:
    m = re.match(r"\s*(anon(?:ymous|ymne|ymně)?\s+)?([^:]*):(.*)$", rest, flags=re.I | re.S)
    if m is None:
        raise LineError(Msg("claim.error.press_format"), example("PRESS", names))
    anonymous, to_text, text = bool(m.group(1)), m.group(2).strip(), m.group(3).strip()
    if fold(to_text) in ALL_WORDS:
        to: tuple[str, ...] | str = "ALL"
    else:
        words = [w for w in re.split(r"[,;\s]+", to_text) if w and fold(w) not in ("and", "a")]
        if not words:
            raise LineError(Msg("claim.error.press_nobody"), example("PRESS", names))
        found = []
        for w in words:
            if fold(w) not in names.players:
                close = difflib.get_close_matches(fold(w), list(names.players), 1, 0.6)
                raise LineError(Msg("claim.error.press_player", name=w[:40], suggestion=close[0] if close else None,
                                    players=list(names.players)),
                                example("PRESS", names), fix=(w, close[0]) if close else None)
            found.append(fold(w))
        to = tuple(dict.fromkeys(found))
    if not text:
        raise LineError(Msg("claim.error.press_empty"), example("PRESS", names))
    return Press(to, text, anonymous)


def canonical(command: object, names: Names) -> str:
    if isinstance(command, Play):
        return line_text(names.gd, "PLAY", command.alts)
    if isinstance(command, Take):
        return line_text(names.gd, "TAKE", command.alts)
    if isinstance(command, Cancel):
        return "CANCEL"
    if isinstance(command, Help):
        return "HELP" + (f" {command.topic}" if command.topic else "")
    if isinstance(command, Status):
        return "STATUS"
    if isinstance(command, OrdersQuery):
        return "ORDERS?"
    if isinstance(command, Press):
        to = "ALL" if command.to == "ALL" else ", ".join(command.to)
        return f"PRESS {'ANON ' if command.anonymous else ''}{to}: {command.text}"
    raise TypeError(command)
