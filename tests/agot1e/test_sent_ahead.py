"""Instructions sent ahead (issue 10): used in the order written, skipped when illegal at their
turn, checked at mail time for what can never be legal, cleared by CLEAR, and never revealed."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.ruleset import Event
from adjudicator.rulesets.agot import bot, invariants
from adjudicator.rulesets.agot import position as pos
from adjudicator.rulesets.agot.context import ctx_of
from adjudicator.rulesets.agot.newgame import initial_state
from adjudicator.rulesets.agot1e.edition import EDITION
from adjudicator.rulesets.agot1e.ruleset import AGOT1E

from test_properties import HOUSES, random_position  # tests/agot1e is on sys.path (rootdir-less test modules)

case_state = AGOT1E.case_state

THREE = {h: {"address": f"{h}@example.org"} for h in ("stark", "lannister", "baratheon")}


def errors(sub) -> dict[int, tuple[str, str | None]]:
    return {ln.lineno: (str(ln.error), ln.example) for ln in sub.parsed.lines if not ln.ok}  # errors in English


def run(state: dict, until, steps: int = 50) -> list:
    events = []
    for _ in range(steps):
        if until(state):
            return events
        state, new = AGOT1E.advance(state, force=not all(o.done for o in AGOT1E.pending(state)))
        events += new
    raise AssertionError("did not get there")


# -- item 1: an illegal line sent ahead before a legal one -----------------------------------------------


def test_an_illegal_march_sent_ahead_before_a_legal_one_is_skipped_and_the_legal_one_used(judge):
    """The issue's reproduction: the first line (a footman against King's Landing's 5) is illegal at
    its turn, the second is used. This raised IndexError and jammed the game for everyone."""
    judge.new_game("w", "agot1e", THREE, seed=1)
    sub = judge.submit("w", "baratheon", "ORDERS\nKingswood: march 0\nMARCH Kingswood -> Kings Landing: footman\n"
                                         "MARCH Kingswood -> Storms End: footman\n")
    assert sub.applied, errors(sub)
    raven = pos.holder(judge.present("w").state, "messenger_raven")
    for house in ("stark", "lannister"):
        assert judge.submit("w", house, "ORDERS\n" + ("RAVEN PASS\n" if house == raven else "")).applied
    judge.adjudicate("w", force=True)
    present = judge.present("w")
    assert present.state["round"] == 2
    assert present.state["areas"]["storms-end"] == {"baratheon": ["footman"]}
    events = [Event.from_dict(e) for n in present.files.version_numbers() for e in present.files.read_version(n)["events"]]
    skipped = [e for e in events if e.text.startswith("Skipped your instruction")]
    assert skipped and all(e.to == ("baratheon",) for e in skipped)
    assert judge.replay("w") == []


def test_an_illegal_raid_sent_ahead_before_a_legal_one_is_skipped_and_the_legal_one_used():
    state = case_state({
        "step": "action", "players": ["stark", "lannister", "baratheon"], "neutral": {},
        "tracks": {"iron_throne": ["baratheon", "stark", "lannister"]},
        "areas": {"Harrenhal": {"stark": ["footman"]}, "Riverrun": {"lannister": ["footman"]},
                  "Stoney Sept": {"lannister": ["footman"]}, "Seagard": {"baratheon": ["footman"]}},
        "orders": {"Harrenhal": "raid", "Riverrun": "support", "Stoney Sept": "consolidate", "Seagard": "raid"}})
    stark = AGOT1E.submit(state, "stark", "RAID Harrenhal -> Riverrun\nRAID Harrenhal -> Stoney Sept")
    assert stark.applied, errors(stark)
    assert AGOT1E.submit(state, "baratheon", "RAID Seagard -> Riverrun").applied
    events = run(state, lambda s: s["step"] != "raid")
    texts = [e.text for e in events]
    assert "Stark raids from Harrenhal into Stoney Sept: Lannister's consolidate order is removed; Stark plunders 1 power." \
        in texts
    assert [e.to for e in events if e.text.startswith("Skipped your instruction")] == [("stark",)]
    assert pos.plan(state, "stark")["raids"] == []


def ahead_mail(state: dict, ctx, house: str, rng: random.Random) -> str:
    """Random orders and, sent ahead with them in a random order, several random MARCH and RAID
    lines per march and raid order: many become illegal before their turn (units moved or killed,
    targets raided away, ships gone) and some are illegal from the start."""
    orders = bot.orders_mail(state, ctx, house, rng)
    lines = []
    board = ctx.gd.board
    for line in orders.splitlines()[1:]:
        area_text, token = line.split(": ")
        area = ctx.names.resolve_area(area_text)
        if token.startswith("march"):
            units = pos.units_in(state, area, house)
            seas = pos.ship_seas(state, ctx.gd, house)
            dests = sorted(board.reach_by_march(area, seas) if board.is_land(area) else board.neighbours(area))
            for _ in range(rng.randint(1, 4) if dests else 0):
                dest = rng.choice(dests)
                moved = "ALL" if rng.random() < 0.3 else ", ".join(rng.sample(units, rng.randint(1, len(units))))
                leave = " LEAVE POWER" if rng.random() < 0.2 else ""
                lines.append(f"MARCH {area_text} -> {ctx.area(dest)}: {moved}{leave}")
        elif token.startswith("raid"):
            near = sorted(board.neighbours(area))
            for _ in range(rng.randint(1, 3)):
                lines.append(f"RAID {area_text} -> {ctx.area(rng.choice(near)) if rng.random() < 0.9 else 'NONE'}")
    rng.shuffle(lines)
    return "\n".join([orders, *lines])


def submit_what_is_accepted(state: dict, house: str, text: str) -> None:
    """Submit ``text``, dropping the lines the judge refuses until the rest is accepted."""
    for _ in range(30):
        sub = AGOT1E.submit(state, house, text)
        if sub.applied:
            return
        bad = {ln.lineno for ln in sub.parsed.lines if not ln.ok and not ln.text.strip().upper().startswith("ORDERS")}
        assert bad, [(ln.text, ln.error) for ln in sub.parsed.lines if not ln.ok]
        text = "\n".join(line for n, line in enumerate(text.splitlines(), 1) if n not in bad)
    raise AssertionError("the mail was never accepted")


def play_with_lines_sent_ahead(state: dict, rng: random.Random, rounds: int = 2) -> list:
    ctx = ctx_of(state)
    events = []
    end = state["round"] + rounds
    for _ in range(1500):
        if state["round"] >= end or state["winner"]:
            return events
        for owed in AGOT1E.pending(state):
            if owed.done:
                continue
            if state["step"] == "orders":
                submit_what_is_accepted(state, owed.player, ahead_mail(state, ctx, owed.player, rng))
            elif rng.random() < 0.8 and (text := bot.mail_for(state, ctx, owed.player, rng)):
                assert AGOT1E.submit(state, owed.player, text).applied
        state, new = AGOT1E.advance(state, force=not all(o.done for o in AGOT1E.pending(state)))
        events += new
        problems = invariants.violations(state, ctx)
        for house in state["houses"]:
            problems += invariants.leaks(AGOT1E.view(state, house), state, house)
        assert not problems, problems
    raise AssertionError("too many steps")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([3, 4, 5]))
def test_several_lines_sent_ahead_of_which_earlier_ones_become_illegal_never_jam_a_game(seed, players):
    rng = random.Random(seed)
    play_with_lines_sent_ahead(random_position(rng, players), rng)


def test_the_lines_sent_ahead_do_get_skipped_and_used():
    """The property above is not vacuous: skipped lines and marches from lines sent ahead happen."""
    skipped = marches = 0
    for seed in range(6):
        rng = random.Random(seed)
        events = play_with_lines_sent_ahead(initial_state(EDITION, HOUSES[5], seed), rng)
        skipped += sum(1 for e in events if e.text.startswith("Skipped your instruction"))
        marches += sum(1 for e in events if " marches " in e.text)
    assert skipped >= 5 and marches >= 10


# -- item 3: CLEAR what is on file; used lines leave the file -------------------------------------------------


def fresh(players=("stark", "lannister", "baratheon", "greyjoy", "tyrell"), seed=3) -> dict:
    return initial_state(EDITION, list(players), seed)


def test_clear_forgets_everything_on_file_and_the_house_owes_its_orders_again():
    state = fresh()
    assert AGOT1E.submit(state, "stark", "ORDERS\nWinterfell: march 0\nMARCH Winterfell -> Castle Black: 1 footman\n"
                                         "CARD Eddard Stark\nBLADE NEVER\n").applied
    assert len(AGOT1E.on_file(state, "stark")) == 5
    assert [o.done for o in AGOT1E.pending(state) if o.player == "stark"] == [True]
    sub = AGOT1E.submit(state, "stark", "CLEAR")
    assert sub.applied and [ln.canonical for ln in sub.parsed.lines] == ["CLEAR"]
    assert AGOT1E.on_file(state, "stark") == []
    assert pos.plan(state, "stark") == pos.empty_plan()
    assert [o.done for o in AGOT1E.pending(state) if o.player == "stark"] == [False]


@pytest.mark.parametrize("line, left", [
    ("CLEAR MARCHES", ["ORDERS", "Winterfell: march 0", "White Harbor: support", "SUPPORT White Harbor -> Stark",
                       "CARD Eddard Stark"]),
    ("ZRUŠ pochody", ["ORDERS", "Winterfell: march 0", "White Harbor: support", "SUPPORT White Harbor -> Stark",
                      "CARD Eddard Stark"]),
    ("cancel cards, supports", ["ORDERS", "Winterfell: march 0", "White Harbor: support",
                                "MARCH Winterfell -> Castle Black: 1 footman"]),
    ("CLEAR ORDERS", ["MARCH Winterfell -> Castle Black: 1 footman", "SUPPORT White Harbor -> Stark", "CARD Eddard Stark"]),
])
def test_clear_one_kind_keeps_the_rest(line, left):
    state = fresh()
    assert AGOT1E.submit(state, "stark", "ORDERS\nWinterfell: march 0\nWhite Harbor: support\n"
                                         "MARCH Winterfell -> Castle Black: 1 footman\n"
                                         "SUPPORT White Harbor -> Stark\nCARD Eddard Stark\n").applied
    assert AGOT1E.submit(state, "stark", line).applied
    assert AGOT1E.on_file(state, "stark") == left


def test_a_clear_line_applies_before_the_lines_after_it_in_the_same_mail():
    state = fresh()
    sub = AGOT1E.submit(state, "stark", "ORDERS\nWinterfell: march 0\nWhite Harbor: march -1\n"
                                        "MARCH Winterfell -> Castle Black: 1 footman\nCLEAR MARCHES\n"
                                        "MARCH White Harbor -> Widow's Watch: 1 footman\n")
    assert sub.applied, errors(sub)
    assert pos.plan(state, "stark")["marches"] == ["MARCH White Harbor -> Widow's Watch: 1 footman"]
    sub = AGOT1E.submit(state, "stark", "CLEAR\nORDERS\nWinterfell: defense +1\n")
    assert sub.applied and AGOT1E.on_file(state, "stark") == ["ORDERS", "Winterfell: defense +1"]


def test_lines_after_a_clear_are_judged_against_the_file_it_left():
    """A march fed by a march on file is judged at its turn; once CLEAR MARCHES took the feeding
    line away, it is judged against the board at once."""
    state = case_state({"step": "action", "neutral": {},
                        "areas": {"Lannisport": {"lannister": ["knight"]}, "Stoney Sept": {"lannister": ["footman"]}},
                        "orders": {"Lannisport": "march 0", "Stoney Sept": "march -1"}})
    assert AGOT1E.submit(state, "lannister", "MARCH Lannisport -> Stoney Sept: knight").applied
    relay = "MARCH Stoney Sept -> Blackwater: 1 footman, 1 knight"
    assert AGOT1E.submit(copy.deepcopy(state), "lannister", relay).applied
    sub = AGOT1E.submit(state, "lannister", f"CLEAR MARCHES\n{relay}")
    assert not sub.applied and "Stoney Sept holds only footman" in errors(sub)[2][0]


def test_clear_orders_after_the_reveal_is_refused_with_a_valid_example():
    state = case_state({"step": "action", "neutral": {}, "areas": {"Lannisport": {"lannister": ["knight"]}},
                        "orders": {"Lannisport": "march 0"}})
    sub = AGOT1E.submit(state, "lannister", "CLEAR ORDERS")
    [(error, example)] = errors(sub).values()
    assert "revealed" in error
    assert AGOT1E.submit(copy.deepcopy(state), "lannister", example).applied


def test_a_used_raven_line_leaves_the_file():
    state = fresh()
    raven = pos.holder(state, "messenger_raven")
    for house in state["houses"]:
        home = ctx_of(state).area(ctx_of(state).gd.board.home_area(house))
        text = f"ORDERS\n{home}: defense +1\n" + ("RAVEN PASS\n" if house == raven else "")
        assert AGOT1E.submit(state, house, text).applied
    assert "RAVEN PASS" in AGOT1E.on_file(state, raven)
    run(state, lambda s: s["phase"] == "action")
    assert "RAVEN PASS" not in AGOT1E.on_file(state, raven) and pos.plan(state, raven)["raven"] is None


def test_a_used_tiebreak_line_leaves_the_file_and_unused_westeros_lines_expire_with_the_phase():
    state = case_state({"step": "westeros", "round": 4,
                        "westeros_cards": {"I": "Last Days of Summer", "II": "Clash of Kings", "III": "Last Days of Summer"},
                        "power": {"stark": 2, "tyrell": 2, "lannister": 3, "baratheon": 4, "greyjoy": 0}})
    decider = pos.holder(state, "iron_throne")
    for house, bid in {"stark": 1, "tyrell": 1, "lannister": 3, "baratheon": 4}.items():
        assert AGOT1E.submit(state, house, f"BID THRONE {bid} FIEFDOMS 0 COURT 0").applied
    assert AGOT1E.submit(state, decider, "TIEBREAK Tyrell, Stark\nTIEBREAK Greyjoy, Lannister, Baratheon, Stark, Tyrell"
                                          ).applied
    run(state, lambda s: s["step"] == "bid" and s["westeros"]["track"] == "fiefdoms")
    assert state["tracks"]["iron_throne"][2:4] == ["tyrell", "stark"]
    assert [ln for ln in AGOT1E.on_file(state, decider) if ln.startswith("TIEBREAK")] == [
        "TIEBREAK Greyjoy, Lannister, Baratheon, Stark, Tyrell"]
    run(state, lambda s: s["phase"] == "planning")
    assert [ln for ln in AGOT1E.on_file(state, decider) if ln.startswith(("TIEBREAK", "BID"))] == []


# -- item 4: one round of errors --------------------------------------------------------------------------------


def test_legality_errors_come_with_grammar_errors_in_the_same_reply():
    state = fresh()
    sub = AGOT1E.submit(state, "stark", "MARCH White Harbor -> Karhold: knight\nFROBNICATE\nCARD Tywin Lannister\n"
                                        "ORDERS\nWinterfell: mrach 0\nKarhold: raid\nWhite Harbor: support\n")
    found = errors(sub)
    assert "you have no march order in White Harbor" in found[1][0]
    assert "unknown command" in found[2][0]
    assert "Lannister card" in found[3][0]
    assert "ORDERS not accepted" in found[4][0]
    assert "unknown order" in found[5][0]
    assert "you have no units in Karhold" in found[6][0]
    assert 7 not in found


def test_a_line_about_an_area_of_a_broken_orders_block_is_not_refused_for_the_broken_line():
    """The bad order line may be the march order a MARCH line needs: it is judged once the block is fixed."""
    sub = AGOT1E.submit(fresh(), "stark", "ORDERS\nWinterfell: marhc 0\nMARCH Winterfell -> Castle Black: 1 footman\n")
    assert set(errors(sub)) == {1, 2}


# -- item 2: lines sent ahead are checked at mail time for what can never become legal ------------------------


STARK_NORTH = {"Winterfell": {"stark": ["footman", "knight"]}, "White Harbor": {"stark": ["footman"]},
               "The Shivering Sea": {"stark": ["ship", "ship"]}, "Lannisport": {"lannister": ["footman", "knight"]},
               "Riverrun": {"lannister": ["footman"]}}


def planning(**position) -> dict:
    return case_state({"step": "planning", "neutral": {}, "areas": STARK_NORTH, **position})


def test_a_march_sent_ahead_to_an_area_it_can_never_reach_is_refused_with_the_reachable_areas():
    sub = AGOT1E.submit(planning(), "stark", "ORDERS\nWinterfell: march 0\nMARCH Winterfell -> Riverrun: 1 footman\n")
    [(error, example)] = errors(sub).values()
    assert error.startswith("Riverrun cannot be reached from Winterfell (from Winterfell a march reaches Castle Black, "
                            "Karhold, Moat Cailin, The Stony Shore, White Harbor, Widow's Watch"), error
    assert example.startswith("MARCH Winterfell -> ") and "NONE" not in example
    assert AGOT1E.submit(planning(), "stark", f"ORDERS\nWinterfell: march 0\n{example}\n").applied


@pytest.mark.parametrize("line, wanted", [
    ("MARCH Winterfell -> The Shivering Sea: 1 footman", "ships stay at sea and footmen and knights on land"),
    ("MARCH Winterfell -> Karhold: 1 ship", "ships stay at sea"),
    ("MARCH Winterfell -> Karhold: 2 knights", "Winterfell holds only footman, knight"),
    ("MARCH Winterfell -> Karhold: 1 footman; Karhold: 1 knight", "the same destination twice"),
    ("RAID White Harbor -> The Shivering Sea", "a raid from land never reaches the sea"),
    ("RAID White Harbor -> Riverrun", "is not adjacent (a raid never goes through ships)"),
    ("RAID White Harbor -> Winterfell", "holds your own units"),
    ("RAID White Harbor -> Widow's Watch", "holds no units"),
    ("RAID White Harbor -> Widow's Watch, Moat Cailin", "removes at most 1 order"),
    ("SUPPORT White Harbor -> Stark IN Riverrun", "is not adjacent to Riverrun"),
])
def test_what_can_never_become_legal_is_refused_when_sent_ahead(line, wanted):
    sub = AGOT1E.submit(planning(), "stark", f"ORDERS\nWinterfell: march 0\nWhite Harbor: raid\n{line}\n"
                        .replace("White Harbor: raid", "White Harbor: support" if line.startswith("SUPPORT") else "White Harbor: raid"))
    found = errors(sub)
    assert list(found) == [4] and wanted in found[4][0], found


def test_a_march_may_count_on_ships_its_house_may_move_there_before_it():
    """Transport through The Narrow Sea: only if a ship of Stark can get there this round (a march
    order on the Shivering Sea, where Stark has two ships)."""
    line = "MARCH Winterfell -> The Twins: 1 knight"
    sub = AGOT1E.submit(planning(), "stark", f"ORDERS\nWinterfell: march 0\nThe Shivering Sea: march -1\n{line}\n")
    assert sub.applied, errors(sub)
    sub = AGOT1E.submit(planning(), "stark", f"ORDERS\nWinterfell: march 0\nThe Shivering Sea: support\n{line}\n")
    assert "The Twins cannot be reached from Winterfell" in errors(sub)[4][0]


def test_a_march_fed_by_an_earlier_march_of_the_house_is_judged_at_its_turn():
    relay = "MARCH White Harbor -> Widow's Watch: 1 footman, 1 knight"
    feed = "MARCH Winterfell -> White Harbor: 1 knight"
    orders = "ORDERS\nWinterfell: march 0\nWhite Harbor: march -1\n"
    assert AGOT1E.submit(planning(), "stark", f"{orders}{feed}\n{relay}\n").applied
    assert "White Harbor holds only footman" in errors(AGOT1E.submit(planning(), "stark", f"{orders}{relay}\n"))[4][0]
    # a relay written before its feeder can only be used if it is legal without it: judged now
    assert not AGOT1E.submit(planning(), "stark", f"{orders}{relay}\n{feed}\n").applied


def test_renly_may_make_a_knight_of_a_footman_before_the_march():
    state = case_state({"step": "planning", "neutral": {}, "areas": {"Kingswood": {"baratheon": ["footman"]}}})
    assert AGOT1E.submit(state, "baratheon", "ORDERS\nKingswood: march 0\nMARCH Kingswood -> The Reach: knight\n").applied
    assert "Kingswood holds only footman" in errors(AGOT1E.submit(
        state, "baratheon", "ORDERS\nKingswood: march 0\nMARCH Kingswood -> The Reach: 2 knights\n"))[3][0]


def test_a_march_into_a_neutral_force_never_tells_the_marching_house_of_another_house_s_support():
    """Lannister's SUPPORT line is secret: Baratheon's reply is the same with or without it, and
    the march is judged when its turn comes."""
    position = {"step": "action", "neutral": {"King's Landing": 5},
                "areas": {"Kingswood": {"baratheon": ["knight", "knight"]}, "Blackwater": {"lannister": ["knight"]}},
                "orders": {"Kingswood": "march 0", "Blackwater": "support"}}
    march = "MARCH Kingswood -> King's Landing: 2 knights"
    replies, outcomes = [], []
    for support in ("SUPPORT Blackwater -> Baratheon", "SUPPORT Blackwater -> NONE"):
        state = case_state(position)
        assert AGOT1E.submit(state, "lannister", support).applied
        sub = AGOT1E.submit(state, "baratheon", march)
        replies.append([(ln.canonical, ln.error) for ln in sub.parsed.lines])
        run(state, lambda s: s["step"] == "consolidate")
        outcomes.append(state["areas"].get("kings-landing"))
    assert replies[0] == replies[1] == [("MARCH Kingswood -> King's Landing: 2 knights", None)]
    assert outcomes == [{"baratheon": ["knight", "knight"]}, None]
    # without any other house's support order next to it, the shortfall is certain: refused now
    state = case_state({**position, "orders": {"Kingswood": "march 0"}})
    assert "this march brings only 4" in errors(AGOT1E.submit(state, "baratheon", march))[1][0]


def test_action_lines_mailed_during_the_raven_step_are_judged_against_the_revealed_orders():
    """The orders are on the board from the reveal; a MARCH line mailed while the raven holder decides
    was refused with "you have no march order"."""
    state = fresh()
    for house in state["houses"]:
        text = {"stark": "ORDERS\nWinterfell: march 0", "lannister": "ORDERS\nLannisport: defense +1"}.get(house, "ORDERS")
        assert AGOT1E.submit(state, house, text).applied
    state, _ = AGOT1E.advance(state, force=False)
    assert state["step"] == "raven"
    sub = AGOT1E.submit(state, "stark", "MARCH Winterfell -> Castle Black: 1 footman")
    assert sub.applied, errors(sub)
    assert "Riverrun cannot be reached" in errors(AGOT1E.submit(state, "stark", "MARCH Winterfell -> Riverrun: 1 footman"))[1][0]


def test_lines_for_the_order_the_raven_will_put_there_are_judged_against_that_order():
    state = case_state({"step": "planning", "neutral": {},
                        "areas": {"Stoney Sept": {"lannister": ["footman"]}, "Harrenhal": {"stark": ["footman"]}}})
    assert pos.holder(state, "messenger_raven") == "lannister"
    sub = AGOT1E.submit(state, "lannister", "ORDERS\nStoney Sept: support\nRAVEN Stoney Sept: raid\n"
                                            "RAID Stoney Sept -> Harrenhal\n")
    assert sub.applied, errors(sub)
    assert "no raid order in Stoney Sept" in errors(AGOT1E.submit(
        case_state({"step": "planning", "neutral": {}, "areas": {"Stoney Sept": {"lannister": ["footman"]}}}),
        "lannister", "ORDERS\nStoney Sept: support\nRAID Stoney Sept -> Harrenhal\n"))[3][0]
