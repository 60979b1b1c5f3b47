"""The Oriflamme mail grammar: mail body text -> typed commands, line by line.

In the spirit of ``shared/agot1e/PBEM.md``: case-insensitive, one command per line, ``#`` starts
a comment, blank lines are ignored, the sign-on line (``JUDGE <game> <player> <password>``) is
skipped. Card names in English or Czech (with or without diacritics, Czech accusative forms,
any unique start of 3+ letters); positions by number (1 = the first card to resolve) or by
FRONT/BACK (FIRST/LAST). Czech keywords are aliases of the English ones. Every rejected line
gets the reason (a message: ``oriflamme.error.*`` in the catalogues) and a valid example (a
canonical line, which the reply renders in the player's language: :mod:`.lines`).

The grammar is state-free: it knows words, card names and the players' names, never the queue.
Whether a card is in the sender's hand, whether a position holds the sender's card: that is
:mod:`.submission`'s business.

Commands (canonical form first)::

    PLACE <card> FRONT | BACK | ON <your card or its position>      VYLOŽ <karta> NA ZAČÁTEK | NA KONEC | NA <karta>
    REVEAL <your card or its position> [IN ROUND <n>]                ODHAL <karta> [V KOLE <n>]
    WAIT <your card or its position>                                 NECHEJ <karta>
    TARGET <your card>: <target>                                     CÍL <karta>: <cíl>
        Archer: FIRST | LAST            Soldier, Spy: BEFORE | AFTER
        Shapeshifter: BEFORE | AFTER [, <target of the copied ability>]
        Assassination: <position> | FIRST | LAST | [<player>] <card>
        Royal Decree: <card as for Assassination> -> FRONT | BACK | <new position>
    CLEAR                                                            ZRUŠ
    HELP [topic] | STATUS | ORDERS? | PRESS [ANON] <player>[, <player>] | ALL: <text>
"""

from __future__ import annotations

import re
from typing import Final

from ...mailbody import CommandLine, close_command, command_lines, fold, head_word, line_problem
from ...mailcommands import MAIL_WORDS
from ...messages import Msg
from ...ruleset import LineError
from .commands import (ALL, Clear, Command, Help, OrdersQuery, Place, Press, Ref, Reveal, Spec, Status, Target,
                       Wait)
from .gamedata import GameData, UnknownName
from .position import AFTER, BACK, BEFORE, FIRST, FRONT, LAST, ON

COMMAND_WORDS: Final[dict[str, str]] = {
    "judge": "JUDGE",
    "place": "PLACE", "play": "PLACE", "vyloz": "PLACE", "poloz": "PLACE", "zahraj": "PLACE",
    "reveal": "REVEAL", "odhal": "REVEAL", "otoc": "REVEAL",
    "wait": "WAIT", "nechej": "WAIT", "cekej": "WAIT", "pockej": "WAIT", "neodhaluj": "WAIT",
    "target": "TARGET", "cil": "TARGET",
    "clear": "CLEAR", "zrus": "CLEAR",
    **MAIL_WORDS,
}
"""First word of a line (folded) -> the command it starts."""

SIDE_WORDS: Final = {"before": BEFORE, "previous": BEFORE, "prev": BEFORE, "pred": BEFORE, "predchozi": BEFORE,
                     "after": AFTER, "next": AFTER, "za": AFTER, "po": AFTER, "nasledujici": AFTER, "dalsi": AFTER}
END_WORDS: Final = {"first": FIRST, "front": FIRST, "prvni": FIRST, "zacatek": FIRST,
                    "last": LAST, "back": LAST, "posledni": LAST, "konec": LAST}
DEST_WORDS: Final = {"front": FRONT, "first": FRONT, "start": FRONT, "beginning": FRONT, "zacatek": FRONT,
                     "prvni": FRONT, "back": BACK, "last": BACK, "end": BACK, "konec": BACK, "posledni": BACK}
PRESS_ALL: Final = {"all", "everyone", "vsem", "vsichni"}
RESERVED_WORDS: Final = frozenset(set(COMMAND_WORDS) | set(SIDE_WORDS) | set(END_WORDS) | set(DEST_WORDS) | PRESS_ALL
                                  | {"on", "onto", "na", "to", "of", "in", "round", "kolo", "kole", "position", "pos",
                                     "pozice", "anon", "anonymous", "my", "your", "then", "pak", "none", "and"})
"""Words a player may not be called (``blue`` is fine, ``next`` is not)."""

EXAMPLES: Final[dict[str, str]] = {
    "PLACE": "PLACE Archer FRONT",
    "REVEAL": "REVEAL Archer",
    "WAIT": "WAIT Archer",
    "TARGET": "TARGET Soldier: AFTER",
    "CLEAR": "CLEAR",
    "HELP": "HELP",
    "STATUS": "STATUS",
    "ORDERS?": "ORDERS?",
    "PRESS": "PRESS ALL: shall we talk?",
    "LONG": "PRESS ALL: split a long message over several PRESS lines",
}
"""A valid line for every command (a test parses each one)."""

MAX_LINE_CHARS: Final = 4000
MAX_NUMBER: Final = 99


def _error(which: str, /, **params) -> Msg:
    return Msg(f"oriflamme.error.{which}", params)


def parse_mail(text: str, gd: GameData, players: tuple[str, ...] | list[str]) -> list[CommandLine]:
    """Every non-blank, non-comment line of a mail body, parsed (the sign-on line is skipped)."""
    return command_lines(text, keywords=COMMAND_WORDS, parse=lambda body: parse_command(body, gd, tuple(players)), check=_check_text,
                         help_example=EXAMPLES["HELP"])


def parse_command(body: str, gd: GameData, players: tuple[str, ...]) -> Command:
    head, rest = head_word(body)
    keyword = COMMAND_WORDS.get(head)
    if keyword is None or keyword == "JUDGE":
        suggestion = close_command(head, COMMAND_WORDS)
        example = EXAMPLES[suggestion] if suggestion else EXAMPLES["PLACE"]
        word = None if keyword == "JUDGE" else body.split()[0]  # None: the sign-on line, not first
        raise LineError(_error("command", word=word, suggestion=suggestion), example)
    return _PARSERS[keyword](rest.strip(), gd, players)


def fold_words(text: str) -> str:
    """Folded, with the punctuation players put around words taken off (arrows kept)."""
    text = fold(text).replace("\u2192", "->").replace("=>", "->")
    return " ".join(re.sub(r"^[.,;!'\"()]+|[.,;!'\"()]+$", "", w) for w in text.split())


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


def _card(text: str, gd: GameData, example: str) -> str:
    """A card name -> its id; the example of the error puts the suggestion in (``{}`` in ``example``)."""
    try:
        return gd.resolve(text)
    except UnknownName as exc:
        raise LineError(exc.message, example.format(exc.suggestion or "Archer")) from None


def _number(text: str) -> int | None:
    m = re.fullmatch(r"(?:(?:position|pos|pozice|misto|no)\.?\s*)?(\d{1,3})", text)
    if m is None:
        return None
    n = int(m.group(1))
    if not 1 <= n <= MAX_NUMBER:
        raise LineError(_error("position_range", position=n), "REVEAL 1")
    return n


def own_ref(text: str, gd: GameData, example: str) -> Ref:
    """The sender's own card: its name, or its position in the queue."""
    text = re.sub(r"^(?:my|your|muj|moji|moje)\s+", "", fold_words(text))
    if not text:
        raise LineError(_error("card_or_position"), example.format("Archer"))
    n = _number(text)
    if n is not None:
        return Ref(pos=n)
    return Ref(card=_card(text, gd, example))


def card_ref(text: str, gd: GameData, players: tuple[str, ...], example: str) -> Ref:
    """Any card of the queue: a position, FIRST/LAST, ``<player> <card>``, ``<player>'s <card>``,
    ``<card> of <player>``, or a card name alone (the sender's own)."""
    text = fold_words(text)
    n = _number(text)
    if n is not None:
        return Ref(pos=n)
    if text in END_WORDS:
        return Ref(end=END_WORDS[text])
    words = text.split()
    m = re.fullmatch(r"(.+?)\s+of\s+(\S+)", text)
    if m and m.group(2) in players:
        return Ref(owner=m.group(2), card=_card(m.group(1), gd, example))
    owner = re.sub(r"'s$", "", words[0]) if words else ""
    if len(words) > 1 and owner in players:
        return Ref(owner=owner, card=_card(" ".join(words[1:]), gd, example))
    if words and (owner in players):
        raise LineError(_error("which_card", player=owner), example.format("Archer"))
    return Ref(card=_card(text, gd, example))


def split_round(text: str) -> tuple[str, int | None]:
    folded = fold_words(text)
    m = re.search(r"\s+(?:(?:in|from|at)\s+)?(?:round|r)\s*(\d{1,2})$|\s+(?:v|ve|od)?\s*(?:kole|kola|kolo)\s+(\d{1,2})$",
                  folded)
    if m is None:
        return folded, None
    return folded[:m.start()], int(m.group(1) or m.group(2))


# -- commands ---------------------------------------------------------------------------------------------

_FRONT_BACK = re.compile(
    r"^(?P<card>.+?)\s+(?:(?:at|to)\s+)?(?:the\s+)?(?P<where>front|back|start|beginning|end|na\s+zacatek|na\s+konec|"
    r"zacatek|konec|dopredu|dozadu)(?:\s+(?:of\s+)?(?:the\s+)?(?:queue|row|rady|rade))?$")
_ON = re.compile(r"^(?P<card>.+?)\s+(?:on|onto|na)\s+(?:top\s+of\s+)?(?P<on>.+)$")


def _p_place(rest: str, gd: GameData, players) -> Place:
    text = fold_words(rest)
    if not text:
        raise LineError(_error("place_empty"), EXAMPLES["PLACE"])
    m = _FRONT_BACK.match(text)
    if m:
        where = m.group("where").replace("na ", "")
        where = FRONT if where in ("front", "start", "beginning", "zacatek", "dopredu") else BACK
        card = _card(m.group("card"), gd, "PLACE {} " + where.upper())
        return Place(card, where)
    m = _ON.match(text)
    if m:
        card = _card(m.group("card"), gd, "PLACE {} FRONT")
        on = own_ref(m.group("on"), gd, "PLACE " + gd.card(card).name + " ON {}")
        if on.card == card:
            raise LineError(_error("onto_itself"), f"PLACE {gd.card(card).name} FRONT")
        return Place(card, ON, on)
    card = None
    words = text.split()
    for k in range(len(words), 0, -1):  # the card the player meant, for the example
        try:
            card = gd.resolve(" ".join(words[:k]))
            break
        except UnknownName:
            continue
    example = f"PLACE {gd.card(card).name} BACK" if card else EXAMPLES["PLACE"]
    raise LineError(_error("place_where"), example)


def _p_reveal(rest: str, gd: GameData, players) -> Reveal:
    text, round_ = split_round(rest)
    ref = own_ref(text, gd, "REVEAL {}")
    return Reveal(ref, round_)


def _p_wait(rest: str, gd: GameData, players) -> Wait:
    text, round_ = split_round(rest)
    if round_ is not None:
        raise LineError(_error("wait_round"), "REVEAL Archer IN ROUND 3")
    return Wait(own_ref(text, gd, "WAIT {}"))


def _p_target(rest: str, gd: GameData, players) -> Target:
    folded = fold_words(rest)
    if ":" in folded:
        head, spec_text = folded.split(":", 1)
        card = own_ref(head, gd, "TARGET {}: FIRST")
        return Target(card, parse_spec(spec_text, gd, players))
    words = folded.split()
    for k in range(len(words) - 1, 0, -1):  # no colon: the longest card name that leaves a valid target
        try:
            card = own_ref(" ".join(words[:k]), gd, "TARGET {}: FIRST")
            return Target(card, parse_spec(" ".join(words[k:]), gd, players))
        except LineError:
            continue
    raise LineError(_error("target_colon"), EXAMPLES["TARGET"])


def parse_spec(text: str, gd: GameData, players: tuple[str, ...]) -> Spec:
    text = fold_words(text)
    if not text:
        raise LineError(_error("target_missing"), EXAMPLES["TARGET"])
    parts = re.split(r"\s*->\s*|\s+(?:to|na)\s+", text, maxsplit=1)
    if len(parts) == 2:
        ref = card_ref(parts[0], gd, players, "TARGET Royal Decree: {} -> BACK")
        dest = parts[1].strip()
        n = _number(dest)
        if n is None and dest not in DEST_WORDS:
            raise LineError(_error("dest", dest=dest), "TARGET Royal Decree: 2 -> BACK")
        return Spec(ref=ref, to=n if n is not None else DEST_WORDS[dest])
    words = [w for w in re.split(r"[\s,;]+", text) if w and w not in ("then", "pak", "and", "a")]
    if words[0] in SIDE_WORDS:
        if len(words) == 1:
            return Spec(side=SIDE_WORDS[words[0]])
        if len(words) == 2 and (words[1] in SIDE_WORDS or words[1] in END_WORDS):
            then = Spec(side=SIDE_WORDS[words[1]]) if words[1] in SIDE_WORDS else Spec(end=END_WORDS[words[1]])
            return Spec(side=SIDE_WORDS[words[0]], then=then)
        raise LineError(_error("side_extra", card="shapeshifter"), "TARGET Shapeshifter: BEFORE, FIRST")
    if len(words) == 1 and words[0] in END_WORDS:
        return Spec(end=END_WORDS[words[0]])
    return Spec(ref=card_ref(text, gd, players, "TARGET Assassination: {}"))


def _p_clear(rest: str, gd: GameData, players) -> Clear:
    if rest.strip():
        raise LineError(_error("clear_extra"), EXAMPLES["CLEAR"])
    return Clear()


def _p_help(rest: str, gd: GameData, players) -> Help:
    return Help(" ".join(rest.split()) or None)


def _p_status(rest: str, gd: GameData, players) -> Status:
    return Status()


def _p_orders_query(rest: str, gd: GameData, players) -> OrdersQuery:
    return OrdersQuery()


def _p_press(rest: str, gd: GameData, players) -> Press:
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
        unknown = [n for n in names if n not in players]
        if unknown:
            raise LineError(_error("press_player", name=unknown[0], players=list(players)),
                            f"PRESS {players[0]}: shall we talk?")
        to = tuple(dict.fromkeys(names))
    if not text:
        raise LineError(_error("press_empty"), EXAMPLES["PRESS"])
    return Press(to, text, anon)


_PARSERS: Final = {
    "PLACE": _p_place, "REVEAL": _p_reveal, "WAIT": _p_wait, "TARGET": _p_target, "CLEAR": _p_clear,
    "HELP": _p_help, "STATUS": _p_status, "ORDERS?": _p_orders_query, "PRESS": _p_press,
}
