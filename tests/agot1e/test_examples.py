"""Every error's example is valid in the present position and for that player (issue 10, item 5).

Positions come from seeded self-play (every step of the round: orders, raven, raids, marches,
battles, the Westeros phase); the lines are random and mostly wrong: illegal areas, units, cards,
bids, order tokens forbidden by the round's Westeros card, misspelt commands. Each refused line's
example must be accepted from that house in that position, in the refused line's place (a MARCH
line may rely on the ORDERS block of its mail) or alone, and must never throw a march away.
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.rulesets.agot import position as pos
from adjudicator.rulesets.agot.commands import ORDER_TOKENS
from adjudicator.rulesets.agot.context import ctx_of
from adjudicator.rulesets.agot1e.ruleset import AGOT1E
from adjudicator.selfplay import play

case_state = AGOT1E.case_state

HOUSES = {3: ["stark", "lannister", "baratheon"], 5: ["stark", "lannister", "baratheon", "greyjoy", "tyrell"]}


def positions(seed: int, players: int, wanted: int = 6) -> list[dict]:
    """Snapshots of a seeded bot game at random steps."""
    rng = random.Random(seed)
    shots: list[dict] = []

    def stop(state: dict) -> bool:
        if rng.random() < 0.08:
            shots.append(copy.deepcopy(state))
        return len(shots) >= wanted

    play(AGOT1E, HOUSES[players], seed, stop=stop)
    return shots


def random_line(state: dict, house: str, rng: random.Random) -> str:
    """A line that is often wrong, built from the house's own and other houses' areas and cards."""
    ctx = ctx_of(state)
    board = ctx.gd.board
    mine = [a for a in state["areas"] if pos.owner(state, a) == house] or list(board)
    anywhere = list(board)
    area = lambda: ctx.area(rng.choice(mine if rng.random() < 0.6 else anywhere))  # noqa: E731
    unit = lambda: rng.choice(["footman", "knight", "ship", "2 footmen", "ALL"])  # noqa: E731
    house_name = lambda: ctx.house(rng.choice(state["houses"]))  # noqa: E731
    card = lambda: rng.choice([c.name for cards in ctx.gd.house_cards.values() for c in cards  # noqa: E731
                               if c.house == house or rng.random() < 0.2])
    token = lambda: rng.choice(ORDER_TOKENS).canonical()  # noqa: E731
    battle = state.get("battle")
    where = (lambda: ctx.area(battle["area"])) if battle and rng.random() < 0.5 else area
    lines = [
        lambda: f"MARCH {area()} -> {area()}: {unit()}",
        lambda: f"MARCH {area()} -> {area()}: {unit()}; {area()}: {unit()}",
        lambda: f"RAID {area()} -> {area()}",
        lambda: f"RAID {area()} -> {area()}, {area()}",
        lambda: f"SUPPORT {area()} -> {house_name()}" + (f" IN {where()}" if rng.random() < 0.5 else ""),
        lambda: f"CARD {card()}" + (f" IN {where()}" if rng.random() < 0.5 else ""),
        lambda: f"CASUALTIES 1 {rng.choice(['footman', 'knight', 'ship'])} IN {where()}",
        lambda: f"RETREAT {area()} FROM {where()}",
        lambda: f"ABILITY {card()}: {rng.choice(['no', area(), card()])}",
        lambda: f"RAVEN {area()}: {token()}",
        lambda: "RAVEN PASS",
        lambda: f"BID {rng.randint(0, 25)}",
        lambda: f"BID THRONE {rng.randint(0, 9)} FIEFDOMS {rng.randint(0, 9)} COURT {rng.randint(0, 9)}",
        lambda: f"TIEBREAK {house_name()}, {house_name()}",
        lambda: f"MUSTER {area()}: {rng.choice(['footman', 'knight', 'upgrade', 'ship', 'footman, knight'])}",
        lambda: f"REMOVE {area()}: 1 {rng.choice(['footman', 'knight', 'ship'])}",
        lambda: f"RECLAIM {card()}",
        lambda: f"BLADE AT {area()}",
        lambda: rng.choice(["CLEAR ORDERS", "CLEAR MARCHES", "CLEAR frobs"]),
        lambda: f"ORDERS\n{area()}: {token()}\n{area()}: {token()}",
        lambda: f"MRACH {area()} -> {area()}: {unit()}",
        lambda: f"FROBNICATE {area()}",
        lambda: f"MARCH {area()} -> {area()}: 3 dragons",
    ]
    return rng.choice(lines)()


def accepted_in_place(state: dict, house: str, mail: list[str], at: int, example: str) -> bool:
    new = example.split("\n")
    lines = mail[:at] + new + mail[at + 1:]
    sub = AGOT1E.submit(copy.deepcopy(state), house, "\n".join(lines))
    return all(ln.ok for ln in sub.parsed.lines if at < ln.lineno <= at + len(new))


def accepted_alone(state: dict, house: str, example: str, order_line: bool) -> bool:
    text = f"ORDERS\n{example}" if order_line else example
    return AGOT1E.submit(copy.deepcopy(state), house, text).applied


def check_examples(state: dict, house: str, rng: random.Random) -> int:
    """Submit a random mail; every refused line's example must be valid. Returns how many were checked."""
    mail = "\n".join(random_line(state, house, rng) for _ in range(rng.randint(1, 3))).split("\n")
    sub = AGOT1E.submit(copy.deepcopy(state), house, "\n".join(mail))
    in_block, checked = False, 0
    for ln in sub.parsed.lines:
        words = ln.text.split()
        head = words[0].upper() if words else ""
        was_in_block = in_block
        order_line = in_block and head not in ("MARCH", "RAID", "SUPPORT", "CARD", "CASUALTIES", "RETREAT", "ABILITY",
                                               "RAVEN", "BID", "TIEBREAK", "MUSTER", "REMOVE", "RECLAIM", "BLADE",
                                               "CLEAR", "MRACH", "FROBNICATE")
        in_block = head == "ORDERS" or order_line
        if ln.ok:
            continue
        if was_in_block and ln.error.key == "agot.error.unknown_command" and ln.error.params.get("in_block"):
            order_line = True  # a misspelt command inside ORDERS is read as an order line: so is its example
        example = ln.example
        assert example, (ln.text, ln.error)
        assert not (example.startswith("MARCH") and example.endswith("-> NONE")), (ln.text, example)
        at = ln.lineno - 1
        assert accepted_in_place(state, house, mail, at, example) or \
            accepted_alone(state, house, example, order_line), (AGOT1E.summary(state), house, ln.text, ln.error, example)
        checked += 1
    return checked


@settings(max_examples=12, deadline=None, derandomize=True)  # the suite's slice is the same every run
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 5]))
def test_every_error_s_example_is_valid_for_that_house_in_that_position(seed, players):
    rng = random.Random(seed)
    for state in positions(seed, players):
        for house in state["houses"]:
            for _ in range(3):
                check_examples(state, house, rng)


def test_the_examples_are_checked_at_every_kind_of_step():
    """The property above is not vacuous: many examples over positions of every phase."""
    rng = random.Random(1)
    steps, checked = set(), 0
    for seed in range(4):
        for state in positions(seed, 5, wanted=10):
            steps.add(state["step"])
            for house in state["houses"]:
                checked += check_examples(state, house, rng)
    assert checked >= 200 and {"orders", "march"} <= steps, (checked, steps)


def test_an_order_example_obeys_the_round_s_restriction():
    """Under Storm of Swords no defense order is suggested (it was "Winterfell: defense +1")."""
    state = case_state({"step": "planning", "restrictions": ["defense"]})
    sub = AGOT1E.submit(state, "stark", "ORDERS\nWinterfell: defense +1\n")
    [line] = [ln for ln in sub.parsed.lines if not ln.ok and ln.lineno == 2]
    assert "Storm of Swords" in str(line.error) or "may not be placed" in str(line.error)
    assert "defense" not in line.example
    assert AGOT1E.submit(copy.deepcopy(state), "stark", f"ORDERS\n{line.example}").applied


def test_a_march_error_never_suggests_throwing_the_march_away():
    state = case_state({"step": "action", "neutral": {}, "areas": {"Winterfell": {"stark": ["footman", "knight"]}},
                        "orders": {"Winterfell": "march 0"}})
    sub = AGOT1E.submit(state, "stark", "MARCH Winterfell -> Riverrun: 1 knight")
    [line] = sub.parsed.lines
    assert "a march reaches Castle Black, Karhold" in str(line.error)
    assert line.example == "MARCH Winterfell -> Castle Black: 1 footman"


def test_a_raven_line_from_a_house_without_the_raven_gets_an_example_it_may_send():
    state = case_state({"step": "planning"})
    holder = pos.holder(state, "messenger_raven")
    other = next(h for h in state["houses"] if h != holder)
    [line] = AGOT1E.submit(state, other, "RAVEN PASS").parsed.lines
    assert "do not hold the Messenger Raven" in str(line.error)
    assert AGOT1E.submit(copy.deepcopy(state), other, line.example).applied


@pytest.mark.parametrize("card, text", [("Supply", "REMOVE Winterfell: 1 footman"),
                                         ("Supply", "REMOVE Karhold: 2 footmen"),
                                         ("Mustering", "MUSTER Winterfell: knight, knight")])
def test_westeros_examples_are_valid(card, text):
    state = case_state({"step": "westeros", "round": 4, "supply": {"stark": 0},
                        "westeros_cards": {"I": card, "II": "Last Days of Summer", "III": "Last Days of Summer"},
                        "areas": {"Winterfell": {"stark": ["footman", "knight", "knight"]},
                                  "White Harbor": {"stark": ["footman", "footman", "footman"]},
                                  "Karhold": {"stark": ["footman", "footman"]}}})
    sub = AGOT1E.submit(state, "stark", text)
    for line in sub.parsed.lines:
        if not line.ok:
            assert AGOT1E.submit(copy.deepcopy(state), "stark", line.example).applied, (line.error, line.example)


def test_a_mail_of_many_wrong_lines_gets_help_once_the_example_budget_is_spent(monkeypatch):
    """Choosing an example judges the mail again: bounded per mail (no time is measured)."""
    from adjudicator.rulesets.agot import submission

    state = case_state({"step": "action", "neutral": {}, "areas": {"Winterfell": {"stark": ["footman", "knight"]}},
                        "orders": {"Winterfell": "march 0"}})
    mail = "\n".join(["MARCH Winterfell -> Riverrun: 1 knight"] * 30)
    monkeypatch.setattr(submission, "EXAMPLE_BUDGET", 200)
    shown = [ln.example for ln in AGOT1E.submit(copy.deepcopy(state), "stark", mail).parsed.lines]
    assert shown[0] == "MARCH Winterfell -> Castle Black: 1 footman" and shown[-1] == "HELP"
    monkeypatch.setattr(submission, "EXAMPLE_BUDGET", 10_000_000)
    shown = [ln.example for ln in AGOT1E.submit(copy.deepcopy(state), "stark", mail).parsed.lines]
    assert set(shown) == {"MARCH Winterfell -> Castle Black: 1 footman"}
