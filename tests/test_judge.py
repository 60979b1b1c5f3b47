"""The game-agnostic core on the toy ruleset: decisions, steps, deadlines, tick, rollback, replay."""

from __future__ import annotations

from datetime import timedelta

import pytest

from adjudicator import clock
from adjudicator.judge import Judge, JudgeError
from adjudicator.store import Store

from conftest import START


def bids(judge, game="g"):
    return judge.present(game).state["bids"]


def test_a_later_submission_replaces_the_earlier_one(judge, toy_game):
    judge.submit("g", "alice", "BID 3")
    judge.submit("g", "alice", "BID 5")
    assert bids(judge) == {"alice": 5}
    assert judge.store.open("g").version_numbers() == [1]  # submissions are journal entries, not versions


def test_step_adjudicates_when_all_are_in_and_runs_through_steps_needing_nobody(judge, toy_game):
    judge.submit("g", "alice", "BID 3")
    outcome = judge.submit("g", "bob", "BID 1")
    # bid step, then the score step that nobody owes anything for: two versions at once
    assert outcome.versions == [2, 3]
    assert [e.text for e in outcome.events] == ["Bids: alice 3, bob 1", "alice wins round 1"]
    present = judge.present("g")
    assert present.state["round"] == 2 and present.state["scores"] == {"alice": 1, "bob": 0}


def test_a_mail_with_an_error_changes_nothing_but_is_journaled(judge, toy_game):
    judge.submit("g", "alice", "BID 3")
    outcome = judge.submit("g", "alice", "BID 4\nFROB 2")
    assert not outcome.applied
    assert [ln.ok for ln in outcome.parsed.lines] == [True, False]
    assert outcome.parsed.lines[1].example == "BID 3"
    assert bids(judge) == {"alice": 3}
    assert judge.store.open("g").journal_numbers() == [1, 2]


def test_deadlines_follow_the_kind_of_step(judge, toy_game, fake_clock):
    present = judge.present("g")
    assert present.deadline() == START + timedelta(hours=48)  # bids are planning-type
    fake_clock.advance(hours=5)
    judge.submit("g", "alice", "BID 2")
    judge.submit("g", "bob", "BID 2")  # a tie: alice owes a pick, a step-type decision
    present = judge.present("g")
    assert present.state["step"] == "tiebreak"
    assert present.deadline() == START + timedelta(hours=5 + 24)
    assert [(o.player, o.done) for o in present.owed()] == [("alice", False)]


def test_deadline_then_grace_then_defaults(judge, toy_game, fake_clock):
    judge.submit("g", "alice", "BID 2")
    fake_clock.advance(hours=48)  # at the deadline, within the grace hour
    assert judge.tick().done == []
    fake_clock.advance(minutes=59)
    assert judge.tick().done == []
    fake_clock.advance(minutes=1)
    [(game, outcome)] = judge.tick().done
    assert game == "g"
    assert outcome.events[0].text == "bob sent no bid; default: 0"
    assert judge.present("g").state["scores"] == {"alice": 1, "bob": 0}


def test_tick_adjudicates_exactly_the_due_games(judge, fake_clock):
    seats = {"alice": {"address": "a@example.org"}, "bob": {"address": "b@example.org"}}
    judge.new_game("early", "toy", seats, deadlines={"planning": "10h", "grace": "0s"})
    judge.new_game("late", "toy", seats, deadlines={"planning": "30h", "grace": "0s"})
    judge.new_game("done", "toy", seats, deadlines={"planning": "10h", "grace": "0s"}, options={"rounds": "0"})
    fake_clock.advance(hours=11)
    assert [g for g, _ in judge.tick().done] == ["early"]
    assert judge.tick().done == []  # a tie at 0-0: the pick step has a fresh 24h deadline (hour 35)
    fake_clock.advance(hours=20)
    assert [g for g, _ in judge.tick().done] == ["late"]  # hour 31
    fake_clock.advance(hours=5)
    assert [g for g, _ in judge.tick().done] == ["early"]


def test_pause_stops_the_clock_and_resume_restores_the_time_left(judge, toy_game, fake_clock):
    fake_clock.advance(hours=40)
    judge.pause("g")
    fake_clock.advance(days=30)
    assert judge.tick().done == []
    judge.resume("g")
    assert judge.present("g").deadline() == fake_clock() + timedelta(hours=8)
    with pytest.raises(JudgeError, match="not paused"):
        judge.resume("g")


def test_extend_moves_the_deadline_also_while_paused(judge, toy_game, fake_clock):
    judge.extend("g", "1d")
    assert judge.present("g").deadline() == START + timedelta(hours=72)
    judge.pause("g")
    judge.extend("g", "2h")
    judge.resume("g")
    assert judge.present("g").deadline() == START + timedelta(hours=74)


def test_a_forced_adjudication_applies_defaults_and_says_so(judge, toy_game):
    with pytest.raises(JudgeError, match="still waits for alice: bid; bob: bid"):
        judge.adjudicate("g")
    outcome = judge.adjudicate("g", force=True)
    assert [e.text for e in outcome.events][:2] == ["alice sent no bid; default: 0", "bob sent no bid; default: 0"]


def test_rollback_makes_a_new_version_equal_to_the_old_one(judge, toy_game):
    judge.submit("g", "alice", "BID 3")
    judge.submit("g", "bob", "BID 1")  # v2, v3
    outcome = judge.rollback("g", to=1)
    assert outcome.versions == [4]
    files = judge.store.open("g")
    assert files.read_version(4)["state"] == files.read_version(1)["state"]
    assert files.version_numbers() == [1, 2, 3, 4]  # nothing deleted
    judge.submit("g", "bob", "BID 9")
    assert bids(judge) == {"bob": 9}
    with pytest.raises(JudgeError, match="no version 17"):
        judge.rollback("g", to=17)


def test_replay_reproduces_a_game_played_with_every_kind_of_input(judge, toy_game, fake_clock):
    judge.submit("g", "alice", "BID 3")
    judge.submit("g", "alice", "nonsense")
    fake_clock.advance(hours=3)
    judge.pause("g")
    fake_clock.advance(hours=3)
    judge.resume("g")
    judge.extend("g", "5h")
    fake_clock.advance(days=3)
    judge.tick()
    judge.submit("g", "alice", "BID 2")
    judge.submit("g", "bob", "BID 2")
    judge.submit("g", "alice", "PICK bob")
    judge.rollback("g", to=2)
    judge.replace("g", "bob", "robert@example.org")
    judge.adjudicate("g", force=True)
    assert judge.replay("g") == []


def test_replay_finds_a_tampered_version(judge, toy_game):
    judge.submit("g", "alice", "BID 3")
    judge.submit("g", "bob", "BID 1")
    files = judge.store.open("g")
    path = files.version_path(3)
    path.write_text(path.read_text().replace("alice: 1", "alice: 7"))
    assert judge.replay("g") == ["version 3: state differs from the replayed game"]


def test_a_restarted_judge_sees_submissions_made_before_the_restart(store, fake_clock, toy_game, judge):
    judge.submit("g", "alice", "BID 4")
    again = Judge(Store(store.root), now=fake_clock)  # a new process: nothing cached
    assert again.present("g").state["bids"] == {"alice": 4}
    again.submit("g", "bob", "BID 5")
    assert again.present("g").state["scores"]["bob"] == 1


def test_the_game_ends_and_refuses_further_decisions(judge, fake_clock):
    judge.new_game("short", "toy", {"ann": {"address": "a@x.org"}, "ben": {"address": "b@x.org"}},
                   options={"rounds": "1"})
    judge.submit("short", "ann", "BID 1")
    judge.submit("short", "ben", "BID 0")
    present = judge.present("short")
    assert present.ruleset.result(present.state) == "ann"
    assert present.deadline() is None and present.owed() == []
    assert [str(n) for n in judge.submit("short", "ann", "BID 3").notes] == ["the game is over; nothing more can be sent"]
    with pytest.raises(JudgeError, match="is over"):
        judge.adjudicate("short", force=True)


def test_replace_gives_a_new_password_and_address(judge, toy_game):
    from adjudicator import passwords
    secret = judge.replace("g", "bob", "robert@example.org")
    seat = judge.store.open("g").config()["players"]["bob"]
    key = judge.store.secret()
    assert seat["address"] == "robert@example.org" and passwords.verify(secret, seat["password"], key)
    assert not passwords.verify(toy_game["bob"], seat["password"], key)
    with pytest.raises(JudgeError, match="not a mail address"):
        judge.replace("g", "bob", "robert")


def test_unknown_players_rulesets_and_durations_are_refused(judge, toy_game):
    with pytest.raises(JudgeError, match="no player 'carol'"):
        judge.submit("g", "carol", "BID 1")
    with pytest.raises(Exception, match="unknown ruleset 'chess'"):
        judge.new_game("x", "chess", {"a": {"address": "a@x.org"}})
    with pytest.raises(ValueError, match="not a duration"):
        judge.extend("g", "soon")


def test_durations():
    assert clock.parse_duration("48h") == timedelta(hours=48)
    assert clock.parse_duration("1d12h") == timedelta(hours=36)
    assert clock.parse_duration("90m") == timedelta(minutes=90)
    assert clock.parse_duration("6") == timedelta(hours=6)
    assert clock.format_duration(timedelta(hours=36)) == "1d12h"
    for bad in ("", "h", "3 weeks", "-4h"):
        with pytest.raises(ValueError):
            clock.parse_duration(bad)


def test_an_input_that_crashes_the_engine_is_refused_and_never_journaled(judge, toy_game, monkeypatch):
    from toyrules import TOY

    judge.submit("g", "alice", "BID 1")

    def broken(state, *, force):
        raise RuntimeError("engine bug")

    monkeypatch.setattr(TOY, "advance", broken)
    with pytest.raises(RuntimeError, match="engine bug"):
        judge.submit("g", "bob", "BID 2")  # completes the step: the engine is called and fails
    monkeypatch.undo()
    assert judge.store.open("g").journal_numbers() == [1]
    judge.submit("g", "bob", "BID 2")  # the game goes on once the engine is fixed
    assert judge.present("g").state["scores"] == {"alice": 0, "bob": 1}
    assert judge.replay("g") == []


def test_the_mail_service_folders_are_not_game_ids(judge):
    from adjudicator.store import StoreError

    for name in ("inbox", "outbox", "maildir"):
        with pytest.raises(StoreError, match="reserved"):
            judge.new_game(name, "toy", {"a": {"address": "a@x.org"}, "b": {"address": "b@x.org"}})


def test_tick_isolates_a_failing_game_flags_it_for_the_gm_and_adjudicates_the_others(judge, fake_clock, monkeypatch,
                                                                                    cli):
    from toyrules import TOY

    for game_id, seed in (("a", 1), ("b", 13), ("c", 3)):
        judge.new_game(game_id, "toy", {"ann": {"address": "ann@x.org"}, "ben": {"address": "ben@x.org"}}, seed=seed)
    real = TOY.advance

    def advance(state, *, force):
        if state["seed"] == 13:
            raise RuntimeError("engine bug")
        return real(state, force=force)

    monkeypatch.setattr(TOY, "advance", advance)
    fake_clock.advance(hours=49)
    ticked = judge.tick()
    assert [g for g, _ in ticked.done] == ["a", "c"] and ticked.failed == [("b", "RuntimeError: engine bug")]
    flag = judge.store.open("b").flag()
    assert flag["problem"] == "RuntimeError: engine bug" and flag["what"] == "deadline" and flag["mailed"] is False
    assert judge.tick().failed == [("b", "RuntimeError: engine bug")]  # tried again at each tick, the same flag
    listing = cli("list", now="2026-11-23T13:00:00Z").output
    assert "b " in listing and "FLAGGED: RuntimeError: engine bug" in listing
    assert cli("status", "b", now="2026-11-23T13:00:00Z").output.startswith("FLAGGED for the GM since")
    failed = cli("tick", now="2026-11-23T13:00:00Z")
    assert failed.exit_code == 1 and "b: FAILED, flagged for the GM: RuntimeError: engine bug" in failed.output
    monkeypatch.setattr(TOY, "advance", real)  # the fix is deployed
    assert [g for g, _ in judge.tick().done] == ["b"] and judge.store.open("b").flag() is None
