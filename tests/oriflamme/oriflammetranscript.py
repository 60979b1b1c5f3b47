"""Transcripts of everything the oriflamme ruleset says to players, in one language, for seeded games
and for every rules case: owed decisions, summaries, the judge's reading of each mail line (echo,
error, example), notes, what is on file, and every event with its audience.

Why: issue 11 moved every text the ruleset builds into message keys rendered from catalogues; the
English rendering must stay exactly what the engine said before (rules cases, also ones we cannot
see, compare substrings of events and errors). ``expected/transcript-en.txt`` was written by this
module from the engine as it was before the conversion (English sentences built in Python);
``test_oriflamme_messages.py`` renders the same games now and compares. The games also probe the
grammar and the legality checks with a seeded bank of lines, wrong ones above all, so that every
kind of error is in the transcript.

Run ``python tests/oriflamme/oriflammetranscript.py > tests/oriflamme/expected/transcript-en.txt``
to rewrite it (only for a deliberate change of an English text).
"""

from __future__ import annotations

import copy
import random
import sys
from pathlib import Path

from adjudicator import yamlio
from adjudicator import ruleset as rulesets

HERE = Path(__file__).resolve().parent
CASES = sorted((HERE.parent / "cases" / "oriflamme").glob("*.yaml"))
GAMES = ((3, 11), (4, 12), (5, 13), (5, 14))  # (players, seed)
EXPECTED = HERE / "expected" / "transcript-en.txt"

sys.path.insert(0, str(HERE.parent))  # tests/: also when run as a script
from transcribe import Recorder  # noqa: E402

_REC = Recorder()
_say, _line, _mail, _events = _REC.say, _REC.line, _REC.mail, _REC.events
NAMES = {"archer": ("Archer", "Lučištnice"), "soldier": ("Soldier", "Zbrojnoš"), "spy": ("Spy", "Špeh"),
         "heir": ("Heir", "Následník"), "shapeshifter": ("Shapeshifter", "Imitátorka"), "lord": ("Lord", "Lord"),
         "assassination": ("Assassination", "Vražda"), "royal-decree": ("Royal Decree", "Královský výnos"),
         "ambush": ("Ambush", "Léčka"), "conspiracy": ("Conspiracy", "Spiknutí")}
"""What players write, fixed here so that the probes stay the same lines whatever the ruleset's data."""










def _probes(state: dict, player: str, rng: random.Random) -> list[str]:
    """A few lines, mostly wrong, built from the cards, positions and players of the game."""
    cards = list(NAMES)
    n = len(state["queue"])

    def name(card: str) -> str:
        return rng.choice([NAMES[card][0], NAMES[card][1], NAMES[card][0].lower()])

    def card() -> str:
        return name(rng.choice(cards))

    def ref() -> str:
        return rng.choice([str(rng.randint(0, n + 2)), card(), "FIRST", "LAST",
                           f"{rng.choice(state['players'] + ['purple'])} {card()}", rng.choice(state["players"])])

    spec = lambda: rng.choice([  # noqa: E731
        "FIRST", "LAST", "BEFORE", "AFTER", "BEFORE, FIRST", "AFTER, LAST", "AFTER, BEFORE", "BEFORE, 3", ref(),
        f"{ref()} -> {rng.choice(['FRONT', 'BACK', str(rng.randint(1, n + 2)), 'sideways'])}", "", "sideways"])
    forms = [
        lambda: f"PLACE {card()} {rng.choice(['FRONT', 'BACK', 'ON ' + card(), 'ON ' + str(rng.randint(1, n + 2)), ''])}",
        lambda: f"PLACE {card()} {rng.randint(1, 3)}",
        lambda: f"REVEAL {ref()}" + rng.choice(["", f" IN ROUND {rng.randint(0, 8)}"]),
        lambda: f"WAIT {ref()}" + rng.choice(["", " IN ROUND 4"]),
        lambda: f"TARGET {card()}: {spec()}",
        lambda: f"TARGET {card()} {spec()}",
        lambda: rng.choice(["CLEAR", "CLEAR all", "HELP", "STATUS", "ORDERS?", "PRESS ALL: hi", "PRESS purple: hi",
                            "PRESS blue:", "PRESS hello", "FROBNICATE", "plce Archer FRONT", "JUDGE g red pw",
                            "PLACE", "REVEAL", "TARGET", "PLACE S FRONT", "PLACE Archr BACK", "REVEAL x\x01",
                            "PRESS ALL: " + "x" * 4100, "VYLOŽ Špeha NA KONEC", "CÍL Zbrojnoš: PŘED"]),
    ]
    q = state.get("_question")
    out = [rng.choice(forms)() for _ in range(3)]
    if q and q["kind"] == "target" and q["player"] == player:
        out.append(f"TARGET {NAMES[q['card']][0]}: {spec()}")
    return out








def game_transcript(players: int, seed: int, language: str = "en") -> list[str]:
    """A seeded bot game on the engine, with probes, as the lines a player of ``language`` reads."""
    from adjudicator.rulesets.oriflamme import engine
    from adjudicator.rulesets.oriflamme.gamedata import load_gamedata
    ruleset = rulesets.get("oriflamme")
    gd = load_gamedata()
    rng = random.Random(seed)
    probe_rng = random.Random(seed + 1000)
    state = ruleset.new_game(["red", "blue", "green", "yellow", "black"][:players], {}, seed)
    out = [f"== game {players} players seed {seed}"]
    for step in range(2000):
        out.append(f"-- step {step}: {_say(ruleset.summary(state), language)}")
        if ruleset.result(state) is not None:
            break
        for owed in ruleset.pending(state):
            out.append(f"owed {owed.player}{' (done)' if owed.done else ''}: {_say(owed.what, language)}")
            probe_state = dict(state, _question=engine.question(state, gd))
            for text in _probes(probe_state, owed.player, probe_rng):
                _mail(ruleset, state, owed.player, text, language, out, "probe")
            if owed.done or rng.random() < 0.1:
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
    return out


def case_transcript(path: Path, language: str = "en") -> list[str]:
    """A rules case played as ``adjudicator/cases.py`` plays it, every event and error written out."""
    case = yamlio.load_mapping(path)
    ruleset = rulesets.get("oriflamme")
    state = ruleset.case_state(case["position"] or {})
    start = copy.deepcopy(state)
    out = [f"== case {path.stem}"]
    for player, text in (case.get("decisions") or {}).items():
        sub = _mail(ruleset, state, str(player), str(text), language, out, "mail")
        if sub.applied:
            state = sub.state
    until = str(case.get("until", "end of step"))
    for _ in range(10_000):
        if ruleset.result(state) is not None:
            break
        for owed in ruleset.pending(state):
            out.append(f"owed {owed.player}{' (done)' if owed.done else ''}: {_say(owed.what, language)}")
        complete = all(o.done for o in ruleset.pending(state))
        state, events = ruleset.advance(state, force=not complete)
        _events(events, language, out)
        if ruleset.case_done(start, state, until):
            break
    out.append(f"summary: {_say(ruleset.summary(state), language)}")
    return out


ROUND3 = {"round": 3, "phase": "place", "placer": "blue", "queue": ["red Lord up", "blue Heir down", "red Spy down 2"],
          "hands": {"red": ["Archer", "Soldier", "Conspiracy", "Assassination", "Royal Decree"]}}
SHAPESHIFTER = {"round": 3, "phase": "resolve", "cursor": 2,
                "queue": ["green Lord down", "red Shapeshifter up", "blue Soldier up"]}
COVERED = {"round": 4, "phase": "place", "queue": [["red Lord up", "red Spy down"], "blue Heir up"]}
RESOLVED = {"round": 2, "phase": "resolve", "cursor": 4, "queue": ["red Lord up", "blue Heir down 1", "green Spy up"]}
PROBES = [
    ({"round": 1, "phase": "place"}, [
        "FROBNICATE", "plce Archer FRONT", "PLACE Archr FRONT", "PLACE Spy", "PLACE Spy 2", "PLACE",
        "PLACE Spy ON Spy", "PLACE S FRONT", "PLACE Spi FRONT", "PLACE Lor FRONT", "REVEAL", "REVEAL 0",
        "WAIT Lord IN ROUND 3", "TARGET Archer", "TARGET Archer:", "TARGET Shapeshifter: BEFORE, 3",
        "TARGET Royal Decree: 2 -> sideways", "TARGET Assassination: blue", "TARGET Assassination: purple Lord",
        "CLEAR everything", "PRESS purple: hi", "PRESS blue:", "PRESS hello", "PLACE Spy FRONT \x00",
        "PRESS ALL: " + "x" * 5000, "JUDGE g red pw\nPLACE Lord FRONT\nJUDGE g red pw", "PLACE Spy ON 1",
        "PLACE Lord FRONT\nPLACE Spy ON Lord\nREVEAL Heir\nCLEAR\nPLACE Heir BACK", "PLACE \"\" FRONT",
        "PRESS o'neil: hi", "TARGET Assassination: 120", "PLACE Lord BACK\nPLACE Spy BACK\nPLACE Heir BACK"]),
    (ROUND3, [
        "vyloz lucistnici na konec\nPLACE zbroj ON 3\nODHAL 3 V KOLE 5\nnechej spiknuti\n"
        "cíl výnos: 2 na začátek\ntarget vrazdu: blue's heir\nHELP\nPRESS blue: hi",
        "PLACE Lord FRONT", "PLACE Heir FRONT", "PLACE Archer FRONT\nPLACE Archer BACK", "PLACE Archer ON 2",
        "PLACE Archer ON 9", "PLACE Archer ON Heir", "PLACE Archer ON Soldier",
        "PLACE Archer FRONT\nPLACE Soldier BACK\nPLACE Conspiracy BACK\nPLACE Assassination BACK\n"
        "PLACE Royal Decree BACK", "REVEAL Lord", "REVEAL 2", "REVEAL 7", "REVEAL Spy IN ROUND 2",
        "REVEAL Spy IN ROUND 7", "WAIT Heir", "TARGET Lord: FIRST", "TARGET Conspiracy: FIRST",
        "TARGET Archer: AFTER", "TARGET Spy: AFTER, FIRST", "TARGET Soldier: FIRST", "TARGET Shapeshifter: BEFORE",
        "TARGET Assassination: 2 -> BACK", "TARGET Royal Decree: 2", "TARGET Royal Decree: Royal Decree -> 1",
        "TARGET Royal Decree: blue Heir -> FRONT", "TARGET Royal Decree: LAST -> 2", "TARGET Assassination: LAST",
        "PRESS ANON blue, green: psst", "ORDERS?\nSTATUS\nHELP targets", "REVEAL Archer IN ROUND 4\nWAIT Soldier"]),
    (SHAPESHIFTER, ["TARGET Shapeshifter: AFTER", "TARGET Shapeshifter: BEFORE, AFTER", "TARGET Shapeshifter: AFTER, AFTER"]),
    (COVERED, ["REVEAL Spy", "PLACE Archer ON Spy", "WAIT Lord", "PLACE Archer ON 1\nPLACE Soldier ON Archer"]),
    (RESOLVED, ["PRESS and: hi", "WAIT 2"]),
]
"""Positions and mails that reach the errors a bot game seldom does."""


def probe_transcript(language: str = "en") -> list[str]:
    ruleset = rulesets.get("oriflamme")
    out = ["== probes"]
    for position, mails in PROBES:
        for text in mails:
            state = ruleset.case_state(position)
            out.append(f"summary: {_say(ruleset.summary(state), language)}")
            for owed in ruleset.pending(state):
                out.append(f"owed {owed.player}{' (done)' if owed.done else ''}: {_say(owed.what, language)}")
            sub = _mail(ruleset, state, "red", text, language, out, "mail")
            if sub.applied:
                state, events = ruleset.advance(sub.state, force=True)
                _events(events, language, out)
    return out


def transcript(language: str = "en") -> list[str]:
    out: list[str] = probe_transcript(language)
    for players, seed in GAMES:
        out += game_transcript(players, seed, language)
    for path in CASES:
        out += case_transcript(path, language)
    return out


def emitted() -> list:
    """Every message (event, owed decision, error, note, summary) the transcript's games, probes and
    rules cases make the ruleset say."""
    return _REC.emitted(lambda: transcript("en"))[0]


if __name__ == "__main__":
    sys.stdout.write("\n".join(transcript(sys.argv[1] if len(sys.argv) > 1 else "en")) + "\n")
