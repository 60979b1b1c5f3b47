"""``toy``: a tiny sealed-bid game that exercises the judge's core and nothing else.

Each round every player bids secretly (``BID n``, a planning-type decision); the highest bid
scores a point. On a tie the first player in seat order picks the round's winner among the
tied (``PICK name``, a step-type decision owed by one player). Scoring is a step that needs
nobody. After ``rounds`` rounds (option, default 2) the highest score wins, else a draw.
Defaults: no bid = 0; no pick = the first tied player in seat order.
"""

from __future__ import annotations

import re

from adjudicator.cases import diff_values
from adjudicator.ruleset import Event, LineResult, Owed, Parsed, RulesetError, Submission, register


class Toy:
    name = "toy"
    data_version = "toy-1"
    keywords = frozenset({"bid", "pick"})

    # -- the game -------------------------------------------------------------------------
    def new_game(self, players, options, seed):
        if len(players) < 2:
            raise RulesetError("toy needs at least two players")
        for p in players:
            if not re.fullmatch(r"[a-z]+", p):
                raise RulesetError(f"bad player name {p!r}: lower-case letters only (example: alice)")
        try:
            rounds = int(options.get("rounds", 2))
        except ValueError:
            raise RulesetError(f"option rounds must be a number, not {options['rounds']!r}") from None
        return {"players": list(players), "round": 1, "rounds": rounds, "step": "bid", "bids": {},
                "tied": [], "pick": None, "round_winner": None, "scores": {p: 0 for p in players}, "seed": seed,
                "bug": options.get("bug") == "1"}

    def phase(self, state):
        return f"round {state['round']}"

    def pending(self, state):
        if state["step"] == "bid":
            return [Owed(p, "bid", "planning", p in state["bids"]) for p in state["players"]]
        if state["step"] == "tiebreak":
            return [Owed(state["players"][0], "pick among " + ", ".join(state["tied"]), "step", state["pick"] is not None)]
        return []  # score: nobody owes anything

    def submit(self, state, player, text):
        lines, commands = [], []
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.split("#")[0].strip()
            if not line:
                continue
            if m := re.fullmatch(r"bid\s+(\d{1,3})", line, re.I):
                commands.append(("bid", int(m.group(1))))
                lines.append(LineResult(n, raw, canonical=f"BID {int(m.group(1))}"))
            elif m := re.fullmatch(r"pick\s+([a-z]+)", line, re.I):
                who = m.group(1).lower()
                if state["step"] != "tiebreak" or player != state["players"][0] or who not in state["tied"]:
                    lines.append(LineResult(n, raw, error="no pick is asked of you now", example="BID 3"))
                else:
                    commands.append(("pick", who))
                    lines.append(LineResult(n, raw, canonical=f"PICK {who}"))
            else:
                lines.append(LineResult(n, raw, error=f"unknown command {line.split()[0]!r}", example="BID 3"))
        parsed = Parsed(tuple(lines), tuple(commands))
        if not parsed.ok:
            return Submission(state, parsed, False)
        for kind, value in commands:
            if kind == "bid" and state["step"] == "bid":
                state["bids"][player] = value
            elif kind == "pick":
                state["pick"] = value
        return Submission(state, parsed, True)

    def advance(self, state, *, force):
        events = []
        if state["step"] == "bid":
            for p in state["players"]:
                if p not in state["bids"]:
                    events.append(Event(f"{p} sent no bid; default: 0"))
                    state["bids"][p] = 0
            events.append(Event("Bids: " + ", ".join(f"{p} {state['bids'][p]}" for p in state["players"])))
            top = max(state["bids"].values())
            tied = [p for p in state["players"] if state["bids"][p] == top]
            if len(tied) == 1:
                state["round_winner"], state["step"] = tied[0], "score"
            else:
                state["tied"], state["step"] = tied, "tiebreak"
        elif state["step"] == "tiebreak":
            if state["pick"] is None:
                state["pick"] = state["tied"][0]
                events.append(Event(f"{state['players'][0]} sent no pick; default: {state['pick']}"))
            state["round_winner"], state["step"] = state["pick"], "score"
        else:
            winner = state["round_winner"]
            state["scores"][winner] += 2 if state.get("bug") and state["round"] == 2 else 1
            events.append(Event(f"{winner} wins round {state['round']}"))
            state.update(round=state["round"] + 1, step="bid", bids={}, tied=[], pick=None, round_winner=None)
        return state, events

    def result(self, state):
        if state.get("drawn"):
            return "draw"
        if state["round"] <= state["rounds"]:
            return None
        best = max(state["scores"].values())
        leaders = [p for p, s in state["scores"].items() if s == best]
        return leaders[0] if len(leaders) == 1 else "draw"

    def agreed_draw(self, state, players):
        state["drawn"] = list(players)
        return state

    def view(self, state, player):
        view = {k: v for k, v in state.items() if k != "seed"}
        if state["step"] == "bid" and player is not None:
            view["bids"] = {p: b for p, b in state["bids"].items() if p == player}
        return view

    def summary(self, state):
        return f"round {state['round']}, {state['step']}"

    def on_file(self, state, player):
        return [f"BID {state['bids'][player]}"] if player in state["bids"] and state["step"] == "bid" else []

    # -- self-play -------------------------------------------------------------------------------
    def default_players(self, count):
        return ["ann", "ben", "cat", "dan", "eve"][:count]

    def bot_mail(self, state, player, rng):
        if state["step"] == "tiebreak":
            return f"PICK {rng.choice(state['tied'])}"
        return f"BID {rng.randint(0, 5)}"

    def violations(self, state):
        """Points scored equal rounds played; the option ``bug`` (tests only) breaks that in round 2."""
        problems = [] if sum(state["scores"].values()) == state["round"] - 1 else ["scores do not add up"]
        return problems + ["a bid is visible to another player"] * any(
            p in self.view(state, q)["bids"] for p in state["bids"] for q in state["players"] if q != p and state["step"] == "bid")

    def selfplay_summary(self, state, events):
        return f"winner {self.result(state)}, {state['round'] - 1} rounds"

    # -- rules cases ------------------------------------------------------------------------
    def case_state(self, position):
        state = self.new_game(position.get("players", []), {"rounds": position.get("rounds", 2)}, 0)
        for key in ("round", "scores", "step", "tied"):
            if key in position:
                state[key] = position[key]
        return state

    def case_done(self, start, state, until):
        if until == "end of step":
            return True
        if until == "end of round":
            return state["round"] > start["round"]
        return False  # end of game: the runner stops when the game is over

    def case_compare(self, state, key, expected):
        if key not in state:
            return [f"unknown key {key!r}"]
        return diff_values(key, expected, state[key])


TOY = register(Toy())
