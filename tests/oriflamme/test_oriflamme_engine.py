"""The oriflamme engine beyond the rules cases: game data checks, determinism, the invariants
catching a broken state, and hidden information over whole self-played games."""

from __future__ import annotations

import copy
import random
import re
import shutil

import pytest

from adjudicator import messages, selfplay
from adjudicator.rulesets.oriflamme import engine, invariants
from adjudicator.rulesets.oriflamme.caseposition import case_state
from adjudicator.rulesets.oriflamme.gamedata import DATA_DIR, load_gamedata, load_gamedata_from
from adjudicator.rulesets.oriflamme.ruleset import ORIFLAMME
from adjudicator.yamlio import YamlFileError

GD = load_gamedata()
CARD_NAMES = sorted({str(form) for language in messages.LANGUAGES
                     for entry in messages.catalogue(language, "oriflamme").names["card"].values()
                     for form in (entry.values() if isinstance(entry, dict) else [entry])}, key=len, reverse=True)
"""Every name of every card in every language and case (Lučištnice, Lučištnici, Archer, ...)."""


def test_the_data_has_ten_cards_with_both_names_and_the_game_s_numbers():
    assert len(GD.cards) == 10
    assert {c.kind for c in GD.cards if c.id in ("assassination", "royal-decree", "ambush", "conspiracy")} == {"intrigue"}
    assert all(c.character for c in GD.cards if c.id in ("archer", "soldier", "spy", "heir", "shapeshifter", "lord"))
    assert (GD.game.set_aside, GD.game.hand, GD.game.rounds, GD.game.start_influence) == (3, 7, 6, 1)
    assert GD.number("heir", "gain") == 2 and GD.number("ambush", "trap_gain") == 4
    assert GD.number("conspiracy", "multiplier") == 2
    assert GD.resolve("Lučištnici") == GD.resolve("lucistnice") == GD.resolve("arch") == "archer"


@pytest.mark.parametrize("edit, problem", [
    (("trap_gain: 4", "trap_gain: four"), "expected a whole number"),
    (("ability: spy", "ability: thief"), "unknown ability 'thief'"),
    (("  hand: 7", "  hand: 8"), "set_aside + hand must be the 10 cards"),
    (("kind: intrigue\n    ability: ambush", "kind: trap\n    ability: ambush"), "kind must be one of"),
    (("alt_names: [Murder]", "alt_names: [Murder, Archer]"), "the name 'Archer' is used by archer and assassination"),
    (("format: 1", "format: 2"), "unsupported format 2"),
])
def test_broken_data_is_refused_naming_the_file(tmp_path, edit, problem):
    folder = tmp_path / "v9"
    shutil.copytree(DATA_DIR / "v1", folder)
    path = folder / "cards.yaml"
    text = path.read_text()
    assert edit[0] in text
    path.write_text(text.replace(edit[0], edit[1], 1))
    with pytest.raises(YamlFileError, match=re.escape(problem)) as info:
        load_gamedata_from(folder)
    assert "cards.yaml" in str(info.value)


def test_same_seed_same_game_and_the_random_defaults_come_from_the_seed_and_a_counter():
    a = selfplay.play(ORIFLAMME, ["red", "blue", "green", "yellow"], 77)
    b = selfplay.play(ORIFLAMME, ["red", "blue", "green", "yellow"], 77)
    assert a.state == b.state and [e.text for e in a.events] == [e.text for e in b.events]
    state = ORIFLAMME.new_game(["red", "blue", "green"], {}, 5)
    assert state["draws"] == 3  # one shuffle per family
    first, _ = ORIFLAMME.advance(copy.deepcopy(state), force=True)
    again, _ = ORIFLAMME.advance(copy.deepcopy(state), force=True)
    assert first == again and first["draws"] == 4


def test_the_invariants_catch_a_broken_state():
    state = selfplay.play(ORIFLAMME, ["red", "blue", "green"], 5, stop=lambda s: s["round"] == 3).state
    assert ORIFLAMME.violations(state) == []
    broken = copy.deepcopy(state)
    broken["hands"]["red"].append(broken["aside"]["red"][0])
    assert any("is not the family's ten cards" in p for p in ORIFLAMME.violations(broken))
    broken = copy.deepcopy(state)
    broken["influence"]["blue"] = -1
    assert "blue: negative influence -1" in ORIFLAMME.violations(broken)
    broken = copy.deepcopy(state)
    broken["queue"][0][-1]["up"], broken["queue"][0][-1]["tokens"] = True, 2
    assert any("carries 2 influence face up" in p for p in ORIFLAMME.violations(broken))
    broken = copy.deepcopy(state)
    broken["queue"][0].append({"owner": "green" if broken["queue"][0][0]["owner"] != "green" else "red",
                               "card": "lord", "up": False, "tokens": 0})
    assert any("mixes families" in p for p in ORIFLAMME.violations(broken))


def test_a_view_that_leaks_is_reported(monkeypatch):
    state = selfplay.play(ORIFLAMME, ["red", "blue", "green"], 9, stop=lambda s: s["round"] == 2).state
    original = ORIFLAMME.view
    monkeypatch.setattr(type(ORIFLAMME), "view", lambda self, s, p: {**original(s, p), "hands": s["hands"]})
    problems = ORIFLAMME.violations(state)
    assert any("red sees blue's hand" == p for p in problems), problems


def _names_a_card(text: str) -> bool:
    return any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text) for n in CARD_NAMES)


HIDDEN_KEYS = {"oriflamme.placed", "oriflamme.waits", "oriflamme.placement_default", "oriflamme.reveal_default",
               "oriflamme.owed.place", "oriflamme.owed.reveal"}
"""Messages about cards whose identity is secret: they name no card in any language."""


@pytest.mark.parametrize("seed", range(6))
def test_public_texts_never_name_a_hidden_card(seed):
    """Whole games: the owed questions (public in every status) and the public events about
    placing and leaving cards face down name no card, in English or Czech, and carry no card id;
    private events go to one player."""
    rng = random.Random(seed)
    state = ORIFLAMME.new_game(["red", "blue", "green", "yellow", "black"], {}, seed)
    hidden_kinds = re.compile(r"places a card|leaves its card|sent no placement|sent no decision|face-down card")
    for _ in range(400):
        if ORIFLAMME.result(state) is not None:
            break
        for owed in ORIFLAMME.pending(state):
            if engine.question(state, GD)["kind"] != "target":  # a target question names face-up cards only
                assert owed.what.key in HIDDEN_KEYS and "card" not in owed.what.params, owed.what
                for language in messages.LANGUAGES:
                    assert not _names_a_card(owed.what.render(language)), owed.what.render(language)
            if rng.random() < 0.8:
                text = ORIFLAMME.bot_mail(state, owed.player, rng)
                sub = ORIFLAMME.submit(copy.deepcopy(state), owed.player, text)
                assert sub.applied, [ln.error for ln in sub.parsed.lines]
                state = sub.state
        complete = all(o.done for o in ORIFLAMME.pending(state))
        state, events = ORIFLAMME.advance(state, force=not complete)
        for event in events:
            if event.to is not None:
                assert len(event.to) == 1
                continue
            if event.key in HIDDEN_KEYS:
                assert "card" not in event.params, event
                for language in messages.LANGUAGES:
                    assert not _names_a_card(event.render(language)), event.render(language)
            if hidden_kinds.search(event.text) and "eliminates" not in event.text and "moves" not in event.text:
                assert not _names_a_card(event.text), event.text
    assert ORIFLAMME.result(state) is not None


def test_the_target_question_names_only_face_up_cards():
    state = case_state({"round": 3, "phase": "resolve", "cursor": 2,
                        "queue": ["blue Ambush down 2", "red Soldier up", "green Lord up"]})
    [owed] = ORIFLAMME.pending(state)
    assert str(owed.what) == ("the target of your Soldier at position 2: TARGET Soldier: BEFORE (Blue's face-down card "
                              "(2 influence)) | AFTER (Green's Lord)")
    assert owed.what.render("cs") == ("cíl vaší karty Zbrojnoše na pozici 2: CÍL Zbrojnoš: PŘED (karta hráče Blue lícem "
                                      "dolů (2 body vlivu)) | ZA (karta Lorda hráče Green)")
    view = ORIFLAMME.view(state, "green")
    assert view["question"] == {"kind": "target", "player": "red", "what": owed.what.as_dict(), "position": 2}
    assert view["queue"][0] == [{"owner": "blue", "up": False, "tokens": 2}]
    assert "ambush" not in repr(owed.what.as_dict())  # Blue's face-down card travels without its id
    assert "Ambush" not in str(owed.what) and invariants.leaks(view, state, "green") == []


def _resolve_with(position: dict, mail: str) -> tuple[dict, list[str], list[str]]:
    """Red sends ``mail`` in ``position`` and the round runs on: (state, red's private notes, public texts)."""
    state = case_state(position)
    sub = ORIFLAMME.submit(state, "red", mail)
    assert sub.applied, [ln.error for ln in sub.parsed.lines]
    state, events = ORIFLAMME.advance(sub.state, force=False)
    assert all(e.to is None or e.to == ("red",) for e in events)
    return state, [e.text for e in events if e.to == ("red",)], [e.text for e in events if e.to is None]


@pytest.mark.parametrize("queue, cursor, mail, happens", [
    # the owner rule forces the Soldier onto the opponent's Ambush (the Soldier then leaves the queue)
    (["red Heir down", "red Soldier up", "blue Ambush down"], 2, "TARGET Soldier: BEFORE",
     "Red's Soldier eliminates Blue's Ambush"),
    # FIRST is Red's own Lord: the opponent's card at the other end is taken instead (the Archer stays)
    (["red Lord down", "red Archer up", "blue Spy down 1"], 2, "TARGET Archer: FIRST",
     "Red's Archer eliminates Blue's Spy"),
    # the Spy steals from the opponent's neighbour, not from its owner's
    (["red Lord down", "red Spy up", "blue Heir down"], 2, "TARGET Spy: BEFORE", "Red's Spy steals 1 influence"),
    # nothing to act on at all
    (["red Soldier up"], 1, "TARGET Soldier: AFTER", "has no effect"),
    (["red Shapeshifter up", "blue Lord down"], 1, "TARGET Shapeshifter: AFTER", "has no effect"),
])
def test_a_standing_target_the_rules_overrule_is_dropped_with_a_note_to_its_owner(queue, cursor, mail, happens):
    state, private, public = _resolve_with({"round": 3, "phase": "resolve", "cursor": cursor, "queue": queue}, mail)
    assert private[0] == f"Your line {mail} cannot be used now (it does not fit the queue now); it is dropped."
    assert any(happens in t for t in public), public
    assert mail not in ORIFLAMME.on_file(state, "red")


@pytest.mark.parametrize("queue, cursor, mail, keeps", [
    (["red Lord down", "red Archer up", "blue Spy down 1"], 2, "TARGET Archer: LAST", True),
    (["red Heir down", "red Soldier up", "blue Ambush down"], 2, "TARGET Soldier: AFTER", False),  # it left the queue
    (["red Archer up"], 1, "TARGET Archer: LAST", False),  # alone: it is the last card too, and eliminates itself
    (["red Assassination up"], 1, "TARGET Assassination: FIRST", False),  # alone: it can take only itself
])
def test_a_standing_target_naming_the_only_outcome_gets_no_note(queue, cursor, mail, keeps):
    state, private, _ = _resolve_with({"round": 3, "phase": "resolve", "cursor": cursor, "queue": queue}, mail)
    assert not any("cannot be used now" in t for t in private), private
    assert (mail in ORIFLAMME.on_file(state, "red")) == keeps
