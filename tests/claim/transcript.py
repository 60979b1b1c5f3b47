"""English transcripts of Claim games: every text the ruleset gives players, in English, in order.

Why: the claim rulesets speak in message keys rendered from catalogues (issue 11), and their
English rendering must stay exactly the text they produced before (rules cases, hidden ones too,
compare substrings of it). A transcript records, step by step, the summary, every owed decision,
each bot mail's line results (canonical echo, error, example), the notes, what is on file and
every event with its audience, plus the board and help as the English templates render them at a
few points. ``test_claim_english.py`` compares transcripts of seeded games and of a corpus of
refused mails with the ones stored in ``tests/claim/expected/``, which were written by the code
before the conversion (``python tests/claim/transcript.py --write``).

:func:`collect` runs the same games and corpus and returns every message they produced (events,
owed decisions, summaries, errors, notes, the board's data, echoes, examples and lines on file as
``claim.line.*`` messages): ``test_claim_czech.py`` checks each key against both catalogues and
renders each message in Czech.
"""

from __future__ import annotations

import copy
import random
import sys
from pathlib import Path

from adjudicator import messages, reports
from adjudicator import ruleset as rulesets

EXPECTED = Path(__file__).parent / "expected"
SEEN: list | None = None
"""While :func:`collect` runs: every message (or board data holding messages) written."""
GAMES = [("claim2", 2, 11), ("claim2", 3, 12), ("claim2", 4, 13), ("claim", 2, 21), ("claim", 3, 22), ("claim", 4, 23)]
"""(ruleset, players, seed) of the stored seeded games."""


def en(value) -> str:
    """In English, whatever it is: a message, a plain string (before the conversion) or None."""
    if SEEN is not None and value is not None:
        SEEN.append(value)
    return "" if value is None else messages.render(value, "en")


def _line_seen(text: str | None) -> None:
    """A canonical line (echo, example, on file) as the message a player's language renders."""
    if SEEN is not None and text:
        from adjudicator.rulesets.claim import lines
        from adjudicator.rulesets.claim.gamedata import load_gamedata

        found = lines.message(load_gamedata(), text)
        SEEN.append(found if found is not None else text)


def _event(event) -> str:
    return f"event: {en(event)}" + (f"  [to {', '.join(event.to)}]" if event.to is not None else "")


def _board(rs, state, viewer) -> list[str]:
    from adjudicator.rulesets.claim import display

    board = display.board(rs.view(state, viewer), viewer)
    if SEEN is not None:
        SEEN.append(board)
    text = reports.environment("en").get_template(f"{rs.name}/board.txt.j2").render(board=board, player=viewer,
                                                                                    ruleset=rs.name)
    return [f"  | {line}".rstrip() for line in text.splitlines()]


def _help(rs, state) -> list[str]:
    from adjudicator.rulesets.claim import display

    board = display.board(rs.view(state, None), None)
    text = reports.environment("en").get_template(f"{rs.name}/help.txt.j2").render(board=board, ruleset=rs.name)
    return [f"  | {line}".rstrip() for line in text.splitlines()]


def lines_of(sub) -> list[str]:
    out = []
    for ln in sub.parsed.lines:
        _line_seen(ln.canonical)
        _line_seen(ln.example)
        if ln.ok:
            out.append(f"  {ln.lineno:3d} ok  {ln.canonical}")
        else:
            out.append(f"  {ln.lineno:3d} ERR {en(ln.error)}  [example: {ln.example}]")
    out += [f"  note: {en(note)}" for note in sub.notes]
    out.append(f"  applied: {sub.applied}; requests: {sub.requests}")
    return out


def game(ruleset: str, players: int, seed: int, *, boards: int = 10, silence: float = 0.1) -> str:
    """A seeded bot game on the engine, as an English transcript (the board every ``boards`` steps)."""
    rs = rulesets.get(ruleset)
    names = rs.default_players(players)
    rng = random.Random(seed)
    state = rs.new_game(list(names), {}, seed)
    out = [f"# {ruleset}, {players} players, seed {seed}", *_help(rs, state)]
    for step in range(5000):
        if rs.result(state) is not None:
            break
        out.append(f"-- step {step}: {en(rs.summary(state))}")
        if boards and step % boards == 0:
            out += _board(rs, state, names[step % len(names)]) + _board(rs, state, None)
        for owed in rs.pending(state):
            out.append(f"owes {owed.player}: {en(owed.what)} ({owed.deadline_kind}{', done' if owed.done else ''})")
            if owed.done or rng.random() < silence:
                continue
            text = rs.bot_mail(state, owed.player, rng)
            if text is None:
                continue
            sub = rs.submit(copy.deepcopy(state), owed.player, text)
            out.append(f"mail {owed.player}: {text!r}")
            out += lines_of(sub)
            if sub.applied:
                state = sub.state
        for player in names:
            for line in rs.on_file(state, player):
                _line_seen(line)
                out.append(f"on file {player}: {line}")
        complete = all(o.done for o in rs.pending(state))
        state, events = rs.advance(state, force=not complete)
        out += [_event(event) for event in events]
    out.append(f"-- end: {en(rs.summary(state))}; result {rs.result(state)}")
    out += _board(rs, state, names[0]) + _board(rs, state, None)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# Refused mails and notes: every error path of the grammar and the submission
# ---------------------------------------------------------------------------------------------

LONG = "PRESS ALL: " + "x" * 1000
GRAMMAR_MAILS = [
    "FROBNICATE", "PLAU LOWEST", "tkae prize", "Gnome 5", "5 gnomes", "SEER 9", "věštec 3", "STATUS\nJUDGE g alice pw",
    "CANCEL now", "PLAY", "TAKE", "PLAY ,", "PLAY " + " OR ".join(["LOWEST"] * 13), "PLAY DECK", "PLAY prize",
    "PLAY gnome", "TAKE xyz", "PLAY Elf 5", "PLAY Gnoem 5", "PLAY Knight 3", "HRAJ rytíř 3", "PLAY Giant 4",
    "TAKE Giant 4", "PLAY Dragon 12", "PRESS hello", "PRESS : hi", "PRESS zed: hi", "PRESS alcie: hi",
    "PRESS alice:", "PRESS ANON bob: psst", LONG, "PLAY \x01 Gnome 5", "HELP\nSTATUS\nORDERS?\nplays?",
    "help topic words", "PRESS alice, bob: hi all", "PRESS ALL: hello", "zruš", "PLAY tro 3", "PLAY g 3",
    "PLAY gi 3", "PLAY dragons-3", "PLAY Dragon-3 or 4 dragon or LOWEST", "vezmi nejvyšší nebo balíček",
    "TAKE top / table | max , min", "PLAY Dwarf 3",
]


def _state(rs, position: dict) -> dict:
    return rs.case_state(position)


def _positions() -> list[tuple[str, str, dict]]:
    two = {"players": ["alice", "bob"], "hands": {"alice": ["Gnome 1", "Gnome 5", "Dragon 3", "Seer 2"],
                                                 "bob": ["Gnome 3", "Giant 7", "Troll 4", "Seer 9"]},
           "prizes": ["Dragon 7"]}
    led = dict(two, leader="bob", table=[{"bob": "Gnome 3"}],
               hands={"alice": two["hands"]["alice"], "bob": ["Giant 7", "Troll 4", "Seer 9"]})
    three = {"players": ["alice", "bob", "carol"],
             "hands": {"alice": ["Seer 2", "Gnome 1"], "bob": ["Seer 9", "Gnome 3"], "carol": ["Troll 9", "Gnome 5"]},
             "prizes": ["Dragon 1", "Giant 7"], "deck": ["Troll 0"]}
    phase2 = {"players": ["alice", "bob"], "phase": 2,
              "hands": {"alice": ["Seer 8", "Gnome 1"], "bob": ["Dragon 9", "Seer 3"]}}
    return [("claim2", "two", two), ("claim2", "led", led), ("claim2", "three", three), ("claim2", "phase2", phase2)]


def refusals() -> str:
    """Every grammar error for a list of bad lines, then the submission's errors and notes in
    crafted positions."""
    out = []
    for ruleset, label, position in _positions():
        rs = rulesets.get(ruleset)
        for player in position["players"]:
            for text in GRAMMAR_MAILS if label == "two" and player == "alice" else []:
                out.append(f"# {ruleset} {label} {player}: {text[:60]!r}")
                out += lines_of(rs.submit(_state(rs, position), player, text))
    rs = rulesets.get("claim2")
    scenarios = [
        ("two", "alice", "PLAY Gnome 9"), ("two", "alice", "PLAY Gnome 9 or Giant 7 or Gnome 1"),
        ("two", "alice", "PLAY LOWEST"), ("two", "alice", "PLAY HIGHEST\nPLAY LOWEST"),
        ("two", "alice", "\n".join(["PLAY LOWEST"] * 5)), ("two", "alice", "TAKE PRIZE"),
        ("two", "alice", "TAKE Dragon 7"), ("two", "alice", "TAKE Dragon 8 or Gnome 3"),
        ("two", "alice", "TAKE DECK\nTAKE PRIZE"), ("two", "alice", "TAKE DECK"), ("two", "alice", "CANCEL"),
        ("two", "bob", "PLAY Giant 7"), ("two", "bob", "PLAY Gnome 3 OR LOWEST"),
        ("led", "alice", "PLAY Dragon 3"), ("led", "alice", "PLAY Dragon 3 or Seer 2"),
        ("led", "alice", "PLAY Dragon 3 or Gnome 5"), ("led", "alice", "PLAY HIGHEST"),
        ("led", "alice", "PLAY Seer 2\nPLAY Gnome 1"), ("led", "bob", "PLAY LOWEST"), ("led", "bob", "TAKE DECK"),
        ("three", "alice", "PLAY Seer 2\nTAKE DECK"), ("three", "carol", "PLAY Troll 9\nTAKE DECK"),
        ("three", "carol", "TAKE Troll 0"), ("phase2", "alice", "TAKE PRIZE"), ("phase2", "bob", "PLAY Dragon 9"),
    ]
    positions = {label: position for _, label, position in _positions()}
    for label, player, text in scenarios:
        out.append(f"# claim2 {label} {player}: {text!r}")
        out += lines_of(rs.submit(_state(rs, positions[label]), player, text))
    # a choice owed: the Seer's, then the second pick (three players), then a game over
    state = _state(rs, positions["three"])
    for player, text in (("alice", "PLAY Seer 2"), ("bob", "PLAY Seer 9"), ("carol", "PLAY Troll 9")):
        state = rs.submit(state, player, text).state
    while all(o.done for o in rs.pending(state)) and rs.pending(state):
        state, _ = rs.advance(state, force=False)
    for text in ("TAKE Gnome 1", "TAKE Dragon 1 or Troll 0", "TAKE LOWEST", "TAKE DECK", "TAKE Giant 7 OR PRIZE",
                 "PLAY Gnome 3"):
        out.append(f"# claim2 seer-choice bob: {text!r}")
        out += lines_of(rs.submit(copy.deepcopy(state), "bob", text))
    out.append(f"owed: {[en(o.what) for o in rs.pending(state)]}; summary: {en(rs.summary(state))}")
    state = rs.submit(state, "bob", "TAKE DECK").state
    state, events = rs.advance(state, force=False)
    out += [_event(e) for e in events]
    out.append(f"owed: {[en(o.what) for o in rs.pending(state)]}; summary: {en(rs.summary(state))}")
    for text in ("TAKE Dragon 1", "TAKE DECK", "TAKE Troll 0", "TAKE Gnome 7"):
        out.append(f"# claim2 second-pick alice: {text!r}")
        out += lines_of(rs.submit(copy.deepcopy(state), "alice", text))
    end = _state(rs, {"players": ["alice", "bob"], "phase": 2, "hands": {"alice": ["Gnome 1"], "bob": ["Giant 1"]}})
    end, events = rs.advance(end, force=True)
    end, more = rs.advance(end, force=True)
    out += [f"event: {en(e)}" for e in events + more]
    out.append(f"summary: {en(rs.summary(end))}")
    for text in ("PLAY LOWEST", "TAKE PRIZE", "STATUS"):
        out.append(f"# claim2 over alice: {text!r}")
        out += lines_of(rs.submit(copy.deepcopy(end), "alice", text))
    return "\n".join(out) + "\n"


def cases() -> str:
    """Every rules case: the English errors, notes and events (with their audience) it produces."""
    from adjudicator.rulesets.claim import caseposition

    root = Path(__file__).parent.parent / "cases"
    out = []
    for path in sorted((root / "claim2").glob("*.yaml")) + sorted((root / "claim").glob("*.yaml")):
        from adjudicator import yamlio

        case = yamlio.load_mapping(path)
        rs = rulesets.get(case["ruleset"])
        out.append(f"# {path.parent.name}/{path.name}")
        state = caseposition.case_state(rs.name, case["position"] or {})
        start = copy.deepcopy(state)
        for player, text in (case.get("decisions") or {}).items():
            sub = rs.submit(state, str(player), str(text))
            out += lines_of(sub)
            if sub.applied:
                state = sub.state
        until = str(case.get("until", "end of step"))
        for _ in range(10_000):
            if rs.result(state) is not None:
                break
            out.append(f"summary: {en(rs.summary(state))}; owed: {[en(o.what) for o in rs.pending(state)]}")
            complete = all(o.done for o in rs.pending(state))
            state, events = rs.advance(state, force=not complete)
            out += [_event(e) for e in events]
            if rs.case_done(start, state, until):
                break
        out.append(f"end: {en(rs.summary(state))}")
    return "\n".join(out) + "\n"


def collect() -> list:
    """Every message the transcripts' games and corpus produce (see the module docstring)."""
    global SEEN
    SEEN = []
    try:
        all_transcripts()
        _dropped_take()
        return SEEN
    finally:
        SEEN = None


def _dropped_take() -> None:
    """A TAKE on file that fits no pick at the deadline (the one event no transcript shows)."""
    rs = rulesets.get("claim2")
    state = rs.case_state({"players": ["a", "b", "c"], "hands": {"a": ["Seer 2", "Gnome 1"], "b": ["Seer 9", "Gnome 3"],
                                                                "c": ["Troll 9", "Gnome 5"]},
                           "prizes": ["Dragon 1", "Giant 7"], "deck": ["Troll 0"]})
    for player, text in (("a", "PLAY Seer 2\nTAKE DECK"), ("b", "PLAY Seer 9\nTAKE DECK"), ("c", "PLAY Troll 9")):
        state = rs.submit(state, player, text).state
    while all(o.done for o in rs.pending(state)):
        state, events = rs.advance(state, force=False)
        [en(e) for e in events]
    state, events = rs.advance(state, force=True)
    [en(e) for e in events]


def all_transcripts() -> dict[str, str]:
    found = {f"{r}-{n}p-seed{s}.txt": game(r, n, s) for r, n, s in GAMES}
    found["refusals.txt"] = refusals()
    found["cases.txt"] = cases()
    return found


if __name__ == "__main__":  # python tests/claim/transcript.py --write | --check
    sys.path.insert(0, str(Path(__file__).parent.parent))
    produced = all_transcripts()
    if "--write" in sys.argv:
        EXPECTED.mkdir(exist_ok=True)
        for name, text in produced.items():
            (EXPECTED / name).write_text(text, encoding="utf-8")
    else:
        bad = [name for name, text in produced.items() if (EXPECTED / name).read_text(encoding="utf-8") != text]
        print("differ:", bad or "none")
        sys.exit(1 if bad else 0)
