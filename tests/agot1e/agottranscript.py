"""Transcripts of everything the agot1e ruleset says to players, in one language: seeded games, a bank
of wrong mails and every rules case, written out line by line.

Why: issue 11 moved every text the agot1e engine builds into message keys (namespace ``agot``)
rendered from catalogues; the English rendering must stay exactly what the engine said before (rules
cases, also hidden ones, compare substrings of events and errors). ``expected/transcript-en.txt`` was
written by this module from the engine as it was before the conversion (English sentences built in
Python); ``test_agot_messages.py`` renders the same games now and compares.

What a transcript holds, step by step: the summary, every owed decision, the judge's reading of each
mail line (canonical echo, error, example, each through the ruleset's ``line`` hook for the language),
the notes, what is on file and every event with its audience; at the end of each round the board
section as the language's template renders it for one house. The games also probe the grammar and
the legality checks with a seeded bank of lines (:func:`_probes`), wrong ones above all, so that every
kind of error and every example search of ``examples.py`` is in the transcript.

Run ``python tests/agot1e/agottranscript.py > tests/agot1e/expected/transcript-en.txt`` to rewrite it
(only for a deliberate change of an English text).
"""

from __future__ import annotations

import copy
import random
import sys
from pathlib import Path

from adjudicator import reports, yamlio
from adjudicator import ruleset as rulesets

HERE = Path(__file__).resolve().parent
CASES = sorted((HERE.parent / "cases" / "agot1e").glob("*.yaml"))
GAMES = ((3, 31), (4, 41), (5, 51))  # (houses, seed)
EXPECTED = HERE / "expected" / "transcript-en.txt"

sys.path.insert(0, str(HERE.parent))  # tests/: also when run as a script
from transcribe import Recorder  # noqa: E402

_REC = Recorder()
_say, _line, _mail, _events, _owed = _REC.say, _REC.line, _REC.mail, _REC.events, _REC.owed









# -- the bank of probe lines ---------------------------------------------------------------------------------

UNITS = ["footman", "knight", "ship", "2 footmen", "footman, knight", "3 knights", "ALL", "pěšák, rytíř", "dragon"]
TOKENS = ["march -1", "march 0", "march +1*", "support", "support +1*", "raid", "raid*", "consolidate",
          "consolidate*", "defense +1", "defense +2*", "M+1", "S", "D+2", "march +2", "attack", "raid +1"]
FIXED = [
    "FROBNICATE", "mrach Winterfell -> Karhold: footman", "MARCH", "RAID", "SUPPORT", "CARD", "BLADE", "CASUALTIES",
    "RETREAT", "ABILITY", "RAVEN", "BID", "TIEBREAK", "MUSTER", "REMOVE", "RECLAIM", "CLEAR frobs", "CLEAR marhces",
    "ORDERS now", "Winterfell: march -1", "JUDGE g stark pw", "BID x", "BID 100", "BID THRONE 1 FIEFDOMS 2",
    "BID THRONE 1 THRONE 2 COURT 1 FIEFDOMS 0", "BID THRONE 1 SWORDS 2 COURT 1", "BID THRONE x FIEFDOMS 1 COURT 1",
    "BLADE SOMETIMES", "BLADE NEVER now", "TIEBREAK Stark", "TIEBREAK Stark, Stark", "TIEBREAK Stark, Nobody",
    "MUSTER Winterfell", "MUSTER Winterfell:", "MUSTER Winterfell: upgrade a knight to a footman",
    "MUSTER Winterfell: footman -> Bay of Ice", "MUSTER Winterfell: 30 footmen", "MUSTER Winterfell: dragon",
    "RAID Winterfell -> Karhold, White Harbor, Castle Black", "RAID Winterfell", "MARCH Winterfell -> Karhold",
    "MARCH Winterfell -> Karhold: 0 footmen", "ABILITY Eddard Stark:", "RAVEN Winterfell", "RAVEN Winterfell: attack",
    "PRESS", "PRESS Nobody: hi", "PRESS Stark:", "PRESS ALL: hi", "HELP", "STATUS", "ORDERS?", "ORDERS\nWinterfell: march -1\nWinterfell: support",
    "ORDERS\nWinterfel: march -1", "ORDERS\nWinterfell:", "ORDERS\nWinterfell march", "ORDERS\nblah blah",
    "ORDERS\nmrach Winterfell", "CASUALTIES 1 footman IN Nowhere", "RETREAT Nowhere", "CARD Eddard Stark IN Winterfell",
    "CARD Nobody", "RECLAIM Nobody", "MARCH Win -> Kar: footman", "SUPPORT Winterfell -> Nobody",
    "MARCH Winterfell -> Karhold: footman; Castle Black: knight LEAVE POWER", "MUSTER NONE", "MARCH Winterfell -> NONE",
    "RAID Winterfell -> NONE", "SUPPORT Winterfell -> NONE", "RAVEN PASS", "BLADE AUTO", "CLEAR", "CLEAR ORDERS",
    "CLEAR MARCHES, RAIDS", "ZRUŠ pochody", "POCHOD Winterfell -> Karhold: pěšák", "PODPORA Winterfell -> Stark",
    "line\x01with control", "MARCH " + "x" * 4100, "REMOVE Winterfell", "REMOVE Winterfell: footman",
    "ORDERS\nWinterfell: march -1\nCLEAR ORDERS", "CLEAR\nORDERS\nWinterfell: march -1",
]


def _probes(state: dict, ctx, house: str, rng: random.Random) -> list[str]:
    """A few lines, mostly wrong, built from the game's areas, cards and houses."""
    gd = ctx.gd
    areas = sorted(state["areas"]) + sorted(gd.board)[:: 7]
    own = sorted(a for a in state["areas"] if house in state["areas"][a]) or areas
    cards = [c.id for cs in gd.house_cards.values() for c in cs] if hasattr(gd, "house_cards") else []
    houses = list(state["houses"]) + ["nobody"]

    def area(pool=None) -> str:
        return ctx.area(rng.choice(pool or areas))

    def card() -> str:
        return ctx.card(rng.choice(cards)) if cards else "Eddard Stark"

    forms = [
        lambda: "ORDERS\n" + "\n".join(f"{area(own)}: {rng.choice(TOKENS)}" for _ in range(rng.randint(1, 4))),
        lambda: f"MARCH {area(own)} -> {area()}: {rng.choice(UNITS)}" + rng.choice(["", " LEAVE POWER"]),
        lambda: f"MARCH {area(own)} -> {area()}: {rng.choice(UNITS)}; {area()}: {rng.choice(UNITS)}",
        lambda: f"RAID {area(own)} -> {area()}" + rng.choice(["", f", {area()}"]),
        lambda: f"SUPPORT {area(own)} -> {rng.choice(houses)}" + rng.choice(["", f" IN {area()}"]),
        lambda: f"CARD {card()}" + rng.choice(["", f" IN {area()}"]),
        lambda: f"BLADE AT {area()}",
        lambda: f"CASUALTIES {rng.choice(UNITS)}" + rng.choice(["", f" IN {area()}"]),
        lambda: f"RETREAT {area()}" + rng.choice(["", f" FROM {area()}"]),
        lambda: f"ABILITY {card()}: {rng.choice([card(), area(), 'no', 'yes'])}",
        lambda: f"RAVEN {area(own)}: {rng.choice(TOKENS)}",
        lambda: f"BID {rng.randint(0, 12)}",
        lambda: f"BID THRONE {rng.randint(0, 5)} FIEFDOMS {rng.randint(0, 5)} COURT {rng.randint(0, 5)}",
        lambda: "TIEBREAK " + ", ".join(rng.sample(houses, min(len(houses), rng.randint(2, 4)))),
        lambda: f"MUSTER {area(own)}: {rng.choice(['footman', 'knight', 'upgrade', 'ship', 'footman, knight', 'ship -> ' + area()])}",
        lambda: f"REMOVE {area(own)}: {rng.choice(UNITS)}",
        lambda: f"RECLAIM {card()}",
        lambda: rng.choice(FIXED),
    ]
    return [rng.choice(forms)() for _ in range(3)]


# -- transcripts ---------------------------------------------------------------------------------------------











def board_text(ruleset, state: dict, player: str | None, language: str) -> list[str]:
    """The board section of a report, as ``player``'s language renders it (``agot1e/board.txt.j2``)."""
    from adjudicator.rulesets.agot1e import display

    view = ruleset.view(state, player)
    board = display.board(view, player)
    _REC.keep(board)
    text = reports.environment(language).get_template("agot1e/board.txt.j2").render(
        board=board, player=player, ruleset="agot1e", view=view)
    return [f"  | {line}".rstrip() for line in text.splitlines()]


def game_transcript(houses: int, seed: int, language: str = "en") -> list[str]:
    """A seeded bot game on the engine, with probes, as the lines a player of ``language`` reads."""
    from adjudicator.rulesets.agot.context import ctx_of

    ruleset = rulesets.get("agot1e")
    rng = random.Random(seed)
    probe_rng = random.Random(seed + 1000)
    players = ruleset.default_players(houses)
    state = ruleset.new_game(players, {}, seed)
    out = [f"== game {houses} houses seed {seed}"]
    last_round = state["round"]
    fixed_done: set = set()
    for step in range(3000):
        out.append(f"-- step {step}: {_say(ruleset.summary(state), language)}")
        if ruleset.result(state) is not None:
            break
        ctx = ctx_of(state)
        for owed in ruleset.pending(state):
            out.append(f"owed {owed.player}{' (done)' if owed.done else ''}: {_say(owed.what, language)}")
            for text in _probes(state, ctx, owed.player, probe_rng):
                _mail(ruleset, state, owed.player, text, language, out, "probe")
            if (state["phase"], state["step"]) not in fixed_done:  # the fixed bank once per kind of step
                fixed_done.add((state["phase"], state["step"]))
                for text in FIXED:
                    _mail(ruleset, state, owed.player, text, language, out, "fixed")
            if owed.done or rng.random() < 0.08:
                continue
            text = ruleset.bot_mail(state, owed.player, rng)
            if text is None:
                continue
            sub = _mail(ruleset, state, owed.player, text, language, out, "mail")
            if sub.applied:
                state = sub.state
        complete = all(o.done for o in ruleset.pending(state))
        state, events = ruleset.advance(state, force=not complete)
        _events(events, language, out)
        if state["round"] != last_round:
            last_round = state["round"]
            viewer = players[last_round % len(players)]
            out.append(f"board for {viewer}:")
            out += board_text(ruleset, state, viewer, language)
    return out


def case_transcript(path: Path, language: str = "en") -> list[str]:
    """A rules case played as ``adjudicator/cases.py`` plays it, every event and error written out."""
    case = yamlio.load_mapping(path)
    ruleset = rulesets.get("agot1e")
    out = [f"== case {path.stem}"]
    try:
        state = ruleset.case_state(case["position"] or {})
    except Exception as exc:  # a case about a refused position
        out.append(f"position refused: {exc}")
        return out
    start = copy.deepcopy(state)
    _owed(ruleset, state, language, out)
    for player, text in (case.get("decisions") or {}).items():
        sub = _mail(ruleset, state, str(player), str(text), language, out, "mail")
        if sub.applied:
            state = sub.state
    until = str(case.get("until", "end of step"))
    for _ in range(10_000):
        if ruleset.result(state) is not None:
            break
        _owed(ruleset, state, language, out)
        complete = all(o.done for o in ruleset.pending(state))
        state, events = ruleset.advance(state, force=not complete)
        _events(events, language, out)
        if ruleset.case_done(start, state, until):
            break
    out.append(f"summary: {_say(ruleset.summary(state), language)}")
    players = list(state["houses"])
    out.append(f"board for {players[0]}:")
    out += board_text(ruleset, state, players[0], language)
    return out


def transcript(language: str = "en") -> list[str]:
    out: list[str] = []
    for houses, seed in GAMES:
        out += game_transcript(houses, seed, language)
    for path in CASES:
        out += case_transcript(path, language)
    return out


def emitted() -> tuple[list, list[str]]:
    """Every message (event, owed decision, error, note, summary, board data) and every canonical line
    (echo, example, on file) the transcript's games, probes and rules cases make the ruleset say."""
    return _REC.emitted(lambda: transcript("en"))


if __name__ == "__main__":
    sys.stdout.write("\n".join(transcript(sys.argv[1] if len(sys.argv) > 1 else "en")) + "\n")
