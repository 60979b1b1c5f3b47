"""The agotccg mail grammar: mail body text -> typed commands, line by line.

In the spirit of the other rulesets: case-insensitive, one command per line, ``#`` starts a
comment (``#2`` right after a card name is its copy number), blank lines are ignored, the
sign-on line (``JUDGE <game> <player> <password>``) is skipped. Czech keywords are aliases of the
English ones; card names in English or Czech, with or without diacritics, or a unique start.
Every rejected line gets the reason (a message, ``agotccg.error.*``) and a valid example (a
canonical line, which the reply renders in the player's language: :mod:`.lines`).

Commands (canonical form first)::

    KEEP | MULLIGAN                                         PONECH | MULIGAN
    SETUP <card>[, <card>...] | NOTHING                     VYLOŽ <karta>[, ...] | NIC
    PLOT <plot>                                             ZÁPLETKA <zápletka>
    FIRST <player> | ME                                     PRVNÍ <hráč> | JÁ
    MARSHAL <card> [ON [<player>] <character>][, ...] | NOTHING     ZAHRAJ <karta> [NA [<hráč>] <postava>][, ...] | NIC
    ATTACK <type> [<opponent>]: <character>[, ...] [STEALTH <character>[, ...]]
                                                            VÝZVA <typ> [<soupeř>]: ... [SKRYTĚ ...]
    PASS                                                    PAS
    DEFEND <type> [AGAINST <player>]: <character>[, ...] | NOBODY   OBRANA <typ> [PROTI <hráč>]: ... | NIKDO
    KILL <character>[, ...]                                 ZABIJ <postava>[, ...]
    SAVE <card> | NOSAVE <card>                             ZACHRAŇ <karta> | NEZACHRAŇUJ <karta>
    CLEAR                                                   ZRUŠ
    HELP [topic] | STATUS | ORDERS? | PRESS [ANON] <player>[, <player>] | ALL: <text>

``<type>``: MILITARY | INTRIGUE | POWER (VOJENSKÁ | INTRIKOVÁ | MOCENSKÁ), or a unique start.
``players`` None (reading the judge's own canonical lines back, :mod:`.lines`): a capitalised
word where a player may stand is a player.
"""

from __future__ import annotations

import re
from typing import Final

from ...mailbody import CommandLine, close_command, command_lines, fold, head_word, line_problem
from ...mailcommands import MAIL_WORDS
from ...messages import Msg
from ...ruleset import LineError
from .commands import (ALL, Attack, Clear, Command, Defend, First, Help, Item, Keep, Kill, Marshal, Mulligan,
                       OrdersQuery, Pass, Plot, Press, Ref, Save, Setup, Status)

COMMAND_WORDS: Final[dict[str, str]] = {
    "judge": "JUDGE",
    "keep": "KEEP", "ponech": "KEEP", "ponechat": "KEEP", "ponechavam": "KEEP",
    "mulligan": "MULLIGAN", "muligan": "MULLIGAN",
    "setup": "SETUP", "vyloz": "SETUP", "vylozit": "SETUP",
    "plot": "PLOT", "zapletka": "PLOT", "zapletku": "PLOT",
    "first": "FIRST", "prvni": "FIRST",
    "marshal": "MARSHAL", "play": "MARSHAL", "zahraj": "MARSHAL", "zahrat": "MARSHAL",
    "attack": "ATTACK", "challenge": "ATTACK", "vyzva": "ATTACK", "utok": "ATTACK", "utoc": "ATTACK",
    "pass": "PASS", "pas": "PASS",
    "defend": "DEFEND", "obrana": "DEFEND", "bran": "DEFEND",
    "kill": "KILL", "zabij": "KILL",
    "save": "SAVE", "zachran": "SAVE",
    "nosave": "NOSAVE", "nezachranuj": "NOSAVE",
    "clear": "CLEAR", "zrus": "CLEAR",
    **MAIL_WORDS,
}
"""First word of a line (folded) -> the command it starts."""

TYPE_WORDS: Final[dict[str, str]] = {
    "military": "military", "mil": "military", "m": "military", "vojenska": "military", "vojenskou": "military",
    "vojensky": "military", "voj": "military", "v": "military",
    "intrigue": "intrigue", "int": "intrigue", "i": "intrigue", "intrikova": "intrigue", "intrikovou": "intrigue",
    "intriky": "intrigue",
    "power": "power", "pow": "power", "p": "power", "mocenska": "power", "mocenskou": "power", "moc": "power",
}
NOTHING: Final = {"nothing", "none", "nic", "nikdo", "nobody", "zadna", "zadne", "-"}
ME: Final = {"me", "myself", "ja", "mne"}
ON: Final = {"on", "na"}
STEALTH: Final = {"stealth", "skryte"}
AGAINST: Final = {"against", "vs", "proti"}
PRESS_ALL: Final = {"all", "everyone", "vsem", "vsichni"}
RESERVED_WORDS: Final = frozenset(set(COMMAND_WORDS) | set(TYPE_WORDS) | NOTHING | ME | ON | STEALTH | AGAINST
                                  | PRESS_ALL | {"anon", "anonymous", "neutral", "and", "or"})
"""Words a player may not be called."""

EXAMPLES: Final[dict[str, str]] = {
    "KEEP": "KEEP",
    "MULLIGAN": "MULLIGAN",
    "SETUP": "SETUP NOTHING",
    "PLOT": "PLOT Quiet Harvest",
    "FIRST": "FIRST ME",
    "MARSHAL": "MARSHAL NOTHING",
    "ATTACK": "ATTACK MILITARY: Hedge Knight",
    "PASS": "PASS",
    "DEFEND": "DEFEND MILITARY: NOBODY",
    "KILL": "KILL Hedge Knight",
    "SAVE": "SAVE The Grey Captain",
    "NOSAVE": "NOSAVE The Grey Captain",
    "CLEAR": "CLEAR",
    "HELP": "HELP",
    "STATUS": "STATUS",
    "ORDERS?": "ORDERS?",
    "PRESS": "PRESS ALL: shall we talk?",
    "LONG": "PRESS ALL: split a long message over several PRESS lines",
}
"""A valid line for every command (a test parses each one)."""

MAX_LINE_CHARS: Final = 4000
MAX_COPY: Final = 3


def _error(which: str, /, **params) -> Msg:
    return Msg(f"agotccg.error.{which}", params)


def parse_mail(text: str, players) -> list[CommandLine]:
    """Every non-blank, non-comment line of a mail body, parsed (the sign-on line is skipped)."""
    return command_lines(text, keywords=COMMAND_WORDS, parse=lambda body: parse_command(body, players), check=_check_text,
                         help_example=EXAMPLES["HELP"], strip_comment=strip_comment)


def strip_comment(raw: str) -> str:
    """The line without its comment: ``#`` starts one, except ``#<digit>`` (a copy number)."""
    m = re.search(r"#(?!\d)", raw)
    return raw[:m.start()] if m else raw


def parse_command(body: str, players) -> Command:
    head, rest = head_word(body)
    keyword = COMMAND_WORDS.get(head)
    if keyword is None or keyword == "JUDGE":
        suggestion = close_command(head, COMMAND_WORDS)
        word = None if keyword == "JUDGE" else body.split()[0]
        raise LineError(_error("command", word=word, suggestion=suggestion),
                        EXAMPLES[suggestion] if suggestion else EXAMPLES["HELP"])
    if keyword == "PRESS":
        return _p_press(rest.strip(), players)
    return _PARSERS[keyword](fold(rest).strip(), players)


def _check_text(raw: str) -> None:
    """The judge's test of a line of text (mailbody.line_problem), said in this ruleset's messages."""
    problem = line_problem(raw, MAX_LINE_CHARS)
    if problem is None:
        return
    which, params = problem
    if which == "too_long":
        raise LineError(_error("too_long", **params), EXAMPLES["LONG"])
    raise LineError(_error("unreadable", **params), EXAMPLES["HELP"])


# -- pieces ----------------------------------------------------------------------------------------------


def _words(text: str) -> list[str]:
    return [re.sub(r"^[.,;!'\"()]+|[.,;!'\"()]+$", "", w) for w in text.split()]


def _is_player(word: str, players) -> bool:
    if players is None:
        return bool(re.fullmatch(r"[a-z][a-z0-9_]*", word)) and word not in RESERVED_WORDS
    return word in players


def ref(text: str, players, example: str, owned: bool = False) -> Ref:
    """A card as written: ``<name> [#<copy>]``, with ``owned``: ``[<player>] <name> [#<copy>]``."""
    text = text.strip(" .;")
    copy = None
    m = re.fullmatch(r"(.*?)\s*#\s*(\d+)", text)
    if m:
        text, copy = m.group(1).strip(), int(m.group(2))
        if not 1 <= copy <= MAX_COPY:
            raise LineError(_error("copy_range", copy=copy), example)
    if not text:
        raise LineError(_error("card_missing"), example)
    owner = None
    if owned:
        words = text.split()
        first = re.sub(r"'s$", "", words[0]) if players is not None else words[0]  # "Bob's Guard"
        if len(words) > 1 and _is_player(first, players):
            owner, text = first, " ".join(words[1:])
    return Ref(text, copy, owner)


def refs(text: str, players, example: str) -> tuple[Ref, ...]:
    items = [t for t in re.split(r"\s*[,;]\s*", text.strip()) if t.strip()]
    if not items:
        raise LineError(_error("cards_missing"), example)
    return tuple(ref(t, players, example) for t in items)


def kind(word: str, example: str) -> str:
    found = TYPE_WORDS.get(word)
    if found is None:
        raise LineError(_error("type", word=word), example)
    return found


def player_word(word: str, players, example: str) -> str:
    word = re.sub(r"'s$", "", word)
    if not _is_player(word, players):
        raise LineError(_error("player", name=word, players=list(players or [])), example)
    return word


# -- commands ---------------------------------------------------------------------------------------------


def _no_rest(keyword: str):
    def parse(rest: str, players):
        if rest:
            raise LineError(_error("extra", command=keyword), EXAMPLES[keyword])
        return {"KEEP": Keep, "MULLIGAN": Mulligan, "PASS": Pass, "CLEAR": Clear}[keyword]()
    return parse


def _p_setup(rest: str, players) -> Setup:
    if rest in NOTHING:
        return Setup(())
    if not rest:
        raise LineError(_error("setup_empty"), EXAMPLES["SETUP"])
    return Setup(refs(rest, players, EXAMPLES["SETUP"]))


def _p_plot(rest: str, players) -> Plot:
    if not rest:
        raise LineError(_error("plot_empty"), EXAMPLES["PLOT"])
    return Plot(ref(rest, players, EXAMPLES["PLOT"]))


def _p_first(rest: str, players) -> First:
    words = _words(rest)
    if len(words) != 1:
        raise LineError(_error("first_form"), EXAMPLES["FIRST"])
    if words[0] in ME:
        return First(None)
    return First(player_word(words[0], players, EXAMPLES["FIRST"]))


def _p_marshal(rest: str, players) -> Marshal:
    if rest in NOTHING:
        return Marshal(())
    if not rest:
        raise LineError(_error("marshal_empty"), EXAMPLES["MARSHAL"])
    items = []
    for part in [t for t in re.split(r"\s*[,;]\s*", rest) if t.strip()]:
        m = re.fullmatch(r"(.+?)\s+(?:on|na)\s+(.+)", part)
        if m:
            items.append(Item(ref(m.group(1), players, EXAMPLES["MARSHAL"]),
                              ref(m.group(2), players, EXAMPLES["MARSHAL"], owned=True)))
        else:
            items.append(Item(ref(part, players, EXAMPLES["MARSHAL"])))
    return Marshal(tuple(items))


def _p_attack(rest: str, players) -> Attack:
    if ":" not in rest:
        raise LineError(_error("attack_form"), EXAMPLES["ATTACK"])
    head, body = rest.split(":", 1)
    words = _words(head)
    if not words:
        raise LineError(_error("attack_form"), EXAMPLES["ATTACK"])
    challenge = kind(words[0], EXAMPLES["ATTACK"])
    opponent = None
    if len(words) == 2:
        opponent = player_word(words[1], players, EXAMPLES["ATTACK"])
    elif len(words) > 2:
        raise LineError(_error("attack_form"), EXAMPLES["ATTACK"])
    parts = re.split(r"\s+(?:stealth|skryte)\s+|\s*[,;]\s*(?:stealth|skryte)\s+", " " + body.strip() + " ", maxsplit=1)
    attackers = refs(parts[0], players, EXAMPLES["ATTACK"])
    stealth = refs(parts[1], players, EXAMPLES["ATTACK"]) if len(parts) > 1 else ()
    return Attack(challenge, opponent, attackers, stealth)


def _p_defend(rest: str, players) -> Defend:
    if ":" not in rest:
        raise LineError(_error("defend_form"), EXAMPLES["DEFEND"])
    head, body = rest.split(":", 1)
    words = _words(head)
    if not words:
        raise LineError(_error("defend_form"), EXAMPLES["DEFEND"])
    challenge = kind(words[0], EXAMPLES["DEFEND"])
    against = None
    if len(words) == 3 and words[1] in AGAINST:
        against = player_word(words[2], players, EXAMPLES["DEFEND"])
    elif len(words) != 1:
        raise LineError(_error("defend_form"), EXAMPLES["DEFEND"])
    body = body.strip()
    if body in NOTHING:
        return Defend(challenge, against, ())
    return Defend(challenge, against, refs(body, players, EXAMPLES["DEFEND"]))


def _p_kill(rest: str, players) -> Kill:
    if not rest:
        raise LineError(_error("cards_missing"), EXAMPLES["KILL"])
    return Kill(refs(rest, players, EXAMPLES["KILL"]))


def _p_save(save: bool):
    def parse(rest: str, players) -> Save:
        if not rest:
            raise LineError(_error("card_missing"), EXAMPLES["SAVE" if save else "NOSAVE"])
        return Save(ref(rest, players, EXAMPLES["SAVE" if save else "NOSAVE"]), save)
    return parse


def _p_help(rest: str, players) -> Help:
    return Help(" ".join(rest.split()) or None)


def _p_press(rest: str, players) -> Press:
    m = re.match(r"\s*(anon(?:ymous|ymne|ymně)?\s+)?([^:]*):(.*)$", rest, flags=re.I | re.S)
    if m is None:
        raise LineError(_error("press_form"), EXAMPLES["PRESS"])
    anon, to_text, text = bool(m.group(1)), m.group(2).strip(), m.group(3).strip()
    if fold(to_text) in PRESS_ALL:
        to: tuple[str, ...] | str = ALL
    else:
        names = [fold(w) for w in re.split(r"[,;\s]+", to_text) if w and fold(w) not in ("and", "a")]
        if not names:
            raise LineError(_error("press_to"), EXAMPLES["PRESS"])
        unknown = [n for n in names if not _is_player(n, players)]
        if unknown:
            raise LineError(_error("press_player", name=unknown[0], players=list(players or [])),
                            f"PRESS {(list(players or []) or ['ALL'])[0]}: shall we talk?")
        to = tuple(dict.fromkeys(names))
    if not text:
        raise LineError(_error("press_empty"), EXAMPLES["PRESS"])
    return Press(to, text, anon)


_PARSERS: Final = {
    "KEEP": _no_rest("KEEP"), "MULLIGAN": _no_rest("MULLIGAN"), "PASS": _no_rest("PASS"), "CLEAR": _no_rest("CLEAR"),
    "SETUP": _p_setup, "PLOT": _p_plot, "FIRST": _p_first, "MARSHAL": _p_marshal, "ATTACK": _p_attack,
    "DEFEND": _p_defend, "KILL": _p_kill, "SAVE": _p_save(True), "NOSAVE": _p_save(False), "HELP": _p_help,
    "STATUS": lambda rest, players: Status(), "ORDERS?": lambda rest, players: OrdersQuery(),
}
