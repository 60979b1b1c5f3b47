"""The battle step (adjudicator/rulesets/agot/battle.py): the rulebook's examples (CZ p.10-11),
supports, the 15 house-card abilities (CZ p.14), the Valyrian Steel Blade, ties, casualties,
retreats, routed units, the seventh card, instructions sent ahead and the PBEM.md defaults."""

from __future__ import annotations

import pytest

from adjudicator.rulesets.agot import battle, invariants, support
from adjudicator.rulesets.agot1e import cards
from adjudicator.rulesets.agot import position as pos
from adjudicator.rulesets.agot.commands import Blade
from adjudicator.rulesets.agot.context import ctx_for

HOUSES = ("stark", "lannister", "baratheon", "greyjoy", "tyrell")
CTX = ctx_for("agot1e", "v1", HOUSES)
PLAN_KEY = {"SUPPORT": "supports", "CARD": "cards", "ABILITY": "abilities", "CASUALTIES": "casualties",
            "RETREAT": "retreats"}


def make_state(areas: dict, orders: dict | None = None, **extra) -> dict:
    """A 5-house action-phase state with only the given units ({area: {house: [units]}})."""
    gd = CTX.gd
    state = {
        "houses": list(HOUSES), "round": 3, "phase": "action", "step": "march",
        "tracks": {t: list(v) for t, v in gd.setup.start_tracks(5).items()},
        "power": {h: 5 for h in HOUSES}, "supply": {h: 6 for h in HOUSES}, "wildlings": 0,
        "areas": {}, "routed": {}, "control": {}, "neutral": {},
        "orders": dict(orders or {}),
        "hands": {h: [c.id for c in gd.house_cards[h]] for h in HOUSES},
        "discards": {h: [] for h in HOUSES},
        "blade_used": False, "plans": {}, "turn": 0, "battle": None, "restrictions": [],
        "winner": None, "data_version": "v1", "seed": 0,
    }
    for area, held in areas.items():
        for house, units in held.items():
            pos.set_units(state, area, house, units)
    state.update(extra)
    return state


def send(state: dict, house: str, *lines: str) -> None:
    """Store instructions as the judge does: canonical text in the house's plan."""
    plan = pos.plan(state, house)
    for line in lines:
        command = CTX.command(line)
        if isinstance(command, Blade):
            plan["blade"] = "at " + command.area if command.mode == "at" else command.mode
        else:
            plan[PLAN_KEY[line.split()[0].upper()]].append(command.canonical(CTX.names))


def attack(state, attacker, origin, area, units, bonus=0) -> list[str]:
    """What the march step does: take the units out of ``origin`` and start the battle."""
    pos.remove_units(state, origin, units)
    return texts(battle.start(state, CTX, area=area, attacker=attacker, origin=origin, units=units, march_bonus=bonus))


def texts(events) -> list[str]:
    return [e.text for e in events]


def step(state, force=True) -> list[str]:
    """One sub-step; every state in between keeps the engine's invariants."""
    events = texts(battle.advance(state, CTX, force))
    assert invariants.violations(state, CTX) == []
    return events


def until(state, stage, force=True) -> list[str]:
    out = []
    while state["battle"] is not None and state["battle"]["stage"] != stage:
        out += step(state, force)
    return out


def fight(state, force=True) -> list[str]:
    out = []
    while state["battle"] is not None:
        out += step(state, force)
    return out


def owed(state):
    return [(o.player, o.done) for o in battle.pending(state, CTX)]


def check(state, house, line):
    """The problem of ``line`` now, in English (None if legal)."""
    problem = battle.check_instruction(state, CTX, house, CTX.command(line))
    return None if problem is None else str(problem)


# -- the rulebook's examples -----------------------------------------------------------------------------


def blackwater_example():
    """CZ p.10 support example: Tyrell marches 2 knights from The Reach (march +1) into Blackwater
    (1 Lannister footman with a march -1 order); supports in King's Landing (Tyrell knight), Stoney
    Sept (Lannister footman and knight), Harrenhal (Baratheon knight)."""
    state = make_state(
        {"the-reach": {"tyrell": ["knight", "knight"]}, "blackwater": {"lannister": ["footman"]},
         "kings-landing": {"tyrell": ["knight"]}, "stoney-sept": {"lannister": ["footman", "knight"]},
         "harrenhal": {"baratheon": ["knight"]}},
        {"blackwater": "march -1", "kings-landing": "support", "stoney-sept": "support", "harrenhal": "support"})
    events = attack(state, "tyrell", "the-reach", "blackwater", ["knight", "knight"], bonus=1)
    return state, events


def test_start_sets_the_battle_and_lists_the_supports():
    state, events = blackwater_example()
    assert state["step"] == "battle"
    b = state["battle"]
    assert (b["area"], b["attacker"], b["defender"], b["origin"], b["units"], b["march_bonus"]) == \
        ("blackwater", "tyrell", "lannister", "the-reach", ["knight", "knight"], 1)
    assert events[0].startswith("Battle at Blackwater: Tyrell attacks Lannister with 2 knights from The Reach")
    assert events[1] == ("Support orders that may join the battle at Blackwater: Harrenhal (Baratheon), "
                         "King's Landing (Tyrell), Stoney Sept (Lannister).")
    assert owed(state) == [("baratheon", False), ("tyrell", False), ("lannister", False)]


def test_rulebook_support_example_tyrell_7_lannister_6():
    state, _ = blackwater_example()
    send(state, "lannister", "SUPPORT Stoney Sept -> Lannister")
    send(state, "baratheon", "SUPPORT Harrenhal -> Lannister IN Blackwater")
    send(state, "tyrell", "SUPPORT King's Landing -> Tyrell")
    assert owed(state) == [("baratheon", True), ("tyrell", True), ("lannister", True)]
    events = step(state, force=False)
    assert "Lannister supports Lannister from Stoney Sept: +3." in events
    assert "Baratheon supports Lannister from Harrenhal: +2." in events
    assert "Tyrell supports Tyrell from King's Landing: +2." in events
    assert events[-1] == ("Strength at Blackwater before the house cards: "
                          "Tyrell 7 (2 knights 4, march +1, support from King's Landing 2); "
                          "Lannister 6 (1 footman 1, support from Harrenhal 2, support from Stoney Sept 3).")
    assert state["battle"]["stage"] == "cards"
    # general SUPPORT lines serve every battle of the round: they stay on file
    assert pos.plan(state, "lannister")["supports"] == ["SUPPORT Stoney Sept -> Lannister"]


def test_rulebook_example_played_out_with_cards_conquest_and_discards():
    state, _ = blackwater_example()
    send(state, "lannister", "SUPPORT Stoney Sept -> Lannister", "CARD Tywin Lannister")
    send(state, "baratheon", "SUPPORT Harrenhal -> Lannister")
    send(state, "tyrell", "SUPPORT King's Landing -> Tyrell", "CARD Mace Tyrell IN Blackwater")
    step(state)
    assert owed(state) == [("tyrell", True), ("lannister", True)]
    events = fight(state)
    assert "Tyrell plays Mace Tyrell (strength 3, 2 swords)." in events
    assert "Lannister plays Tywin Lannister (strength 3, 2 swords)." in events
    assert ("Strength at Blackwater: Tyrell 10 (2 knights 4, march +1, support from King's Landing 2, Mace Tyrell 3); "
            "Lannister 9 (1 footman 1, support from Harrenhal 2, support from Stoney Sept 3, Tywin Lannister 3).") in events
    assert "Tyrell wins the battle at Blackwater." in events
    assert "Lannister loses 1 footman in Blackwater (2 swords on Mace Tyrell against 0 fortifications on Tywin Lannister)." in events
    assert "Tyrell takes Blackwater with 2 knights; Lannister's march -1 order there is removed." in events
    assert state["battle"] is None and state["step"] == "march"
    assert state["areas"]["blackwater"] == {"tyrell": ["knight", "knight"]}
    assert "blackwater" not in state["orders"] and "the-reach" not in state["areas"]
    assert state["discards"] == {**{h: [] for h in HOUSES}, "tyrell": ["mace-tyrell"], "lannister": ["tywin-lannister"]}
    assert "mace-tyrell" not in state["hands"]["tyrell"] and len(state["hands"]["tyrell"]) == 6
    assert pos.plan(state, "tyrell")["cards"] == [] and pos.plan(state, "lannister")["cards"] == []


def casualty_example(tyrell_units):
    """CZ p.11: Lannister plays Tywin Lannister (2 swords), Tyrell Margaery Tyrell (1 fortification)."""
    state = make_state({"lannisport": {"lannister": ["footman", "knight"]},
                        "searoad-marches": {"tyrell": tyrell_units}, "highgarden": {"tyrell": ["footman"]}})
    attack(state, "lannister", "lannisport", "searoad-marches", ["footman", "knight"])
    send(state, "lannister", "CARD Tywin Lannister")
    send(state, "tyrell", "CARD Margaery Tyrell")
    return state


def test_rulebook_casualty_example_lannister_wins_tyrell_loses_one():
    state = casualty_example(["footman", "footman"])
    events = fight(state)
    assert "Strength at Searoad Marches: Lannister 6 (1 footman and 1 knight 3, Tywin Lannister 3); " \
           "Tyrell 3 (2 footmen 2, Margaery Tyrell 1)." in events
    assert ("Tyrell loses 1 footman in Searoad Marches (2 swords on Tywin Lannister against 1 fortification "
            "on Margaery Tyrell).") in events
    # retreat default (PBEM.md): the legal area holding most of the loser's units
    assert "Tyrell sent no retreat; default: Highgarden." in events
    assert state["areas"]["highgarden"] == {"tyrell": ["footman", "footman"]}
    assert state["routed"]["highgarden"] == ["footman"]
    assert state["areas"]["searoad-marches"] == {"lannister": ["footman", "knight"]}


def test_rulebook_casualty_example_tyrell_wins_lannister_loses_nothing_and_retreats_home():
    state = casualty_example(["footman", "knight", "knight"])
    events = fight(state)
    assert "Lannister and Tyrell tie at 6: Tyrell is higher on the Fiefdoms track." in events
    assert "Tyrell wins the battle at Searoad Marches." in events
    assert "Lannister takes no casualties (0 swords on Margaery Tyrell against 0 fortifications on Tywin Lannister)." in events
    assert "Lannister retreats 1 footman, 1 knight from Searoad Marches to Lannisport, where they are routed." in events
    assert state["areas"]["lannisport"] == {"lannister": ["footman", "knight"]}
    assert state["routed"]["lannisport"] == ["footman", "knight"]
    assert state["areas"]["searoad-marches"] == {"tyrell": ["footman", "knight", "knight"]}


def test_rulebook_routed_example_kingswood_then_storms_end():
    """CZ p.11: Tyrell loses at Kingswood, its knight retreats to Storm's End (a Tyrell footman) and is
    routed; Baratheon then attacks Storm's End by sea: Tyrell defends with 1, and the routed knight,
    unable to retreat twice, is destroyed."""
    state = make_state({"kings-landing": {"baratheon": ["knight", "knight"]},
                        "kingswood": {"tyrell": ["footman", "knight"]}, "storms-end": {"tyrell": ["footman"]},
                        "dragonstone": {"baratheon": ["knight", "knight"]}, "shipbreaker-bay": {"baratheon": ["ship"]},
                        "the-reach": {"lannister": ["footman"]}, "dornish-marches": {"lannister": ["footman"]}})
    attack(state, "baratheon", "kings-landing", "kingswood", ["knight", "knight"])
    send(state, "baratheon", "CARD Stannis Baratheon")
    send(state, "tyrell", "CARD Tyrell Captain", "RETREAT Storm's End")
    until(state, "casualties")
    assert owed(state) == [("tyrell", False)]  # a footman or the knight: Tyrell chooses
    events = until(state, "retreat")
    assert "Tyrell sent no casualties; default: the weakest units, 1 footman." in events
    assert owed(state) == []  # Storm's End is the only legal retreat (the seas hold no Tyrell ship)
    events = fight(state)
    assert "Tyrell retreats 1 knight from Kingswood to Storm's End, where they are routed." in events
    assert state["routed"]["storms-end"] == ["knight"]
    assert pos.plan(state, "tyrell")["retreats"] == []

    events = attack(state, "baratheon", "dragonstone", "storms-end", ["knight", "knight"])
    assert events[0].endswith("Tyrell defends with 1 footman and routed 1 knight.")
    send(state, "baratheon", "CARD Renly Baratheon")
    send(state, "tyrell", "CARD Margaery Tyrell")
    events = step(state)
    assert events[-1] == ("Strength at Storm's End before the house cards: Baratheon 4 (2 knights 4); "
                          "Tyrell 1 (1 footman 1, routed 1 knight 0).")
    events = fight(state)
    assert "Tyrell's routed 1 knight in Storm's End must retreat again and is destroyed." in events
    assert "Renly Baratheon: Baratheon has nothing to choose; the ability has no effect." in events
    assert "Tyrell has no legal retreat from Storm's End: 1 footman destroyed." in events
    assert pos.house_units(state, "tyrell") == {}
    assert state["areas"]["storms-end"] == {"baratheon": ["knight", "knight"]}
    assert "storms-end" not in state["routed"]


# -- supports ---------------------------------------------------------------------------------------------


def test_support_defaults_to_none_and_routed_units_add_nothing():
    state = make_state({"the-reach": {"tyrell": ["knight"]}, "blackwater": {"lannister": ["footman"]},
                        "stoney-sept": {"lannister": ["footman", "knight"]}, "harrenhal": {"baratheon": ["knight", "footman"]}},
                       {"stoney-sept": "support +1*", "harrenhal": "support"}, routed={"harrenhal": ["knight"]})
    attack(state, "tyrell", "the-reach", "blackwater", ["knight"])
    send(state, "baratheon", "SUPPORT Harrenhal -> Tyrell")
    events = step(state)
    assert "Lannister sent no support decision for Stoney Sept; default: no support." in events
    assert "Baratheon supports Tyrell from Harrenhal: +1." in events  # the routed knight adds 0
    assert state["battle"]["supports"] == {"harrenhal": "tyrell", "stoney-sept": None}


def test_support_order_bonus_and_in_line_beats_general_line():
    state = make_state({"the-reach": {"tyrell": ["knight"]}, "blackwater": {"lannister": ["footman"]},
                        "stoney-sept": {"lannister": ["footman", "knight"]}}, {"stoney-sept": "support +1*"})
    attack(state, "tyrell", "the-reach", "blackwater", ["knight"])
    send(state, "lannister", "SUPPORT Stoney Sept -> NONE", "SUPPORT Stoney Sept -> Lannister IN Blackwater")
    events = step(state)
    assert "Lannister supports Lannister from Stoney Sept: +4." in events


def test_general_support_for_a_house_not_in_the_battle_does_not_answer():
    state = make_state({"the-reach": {"tyrell": ["knight"]}, "blackwater": {"lannister": ["footman"]},
                        "harrenhal": {"baratheon": ["knight"]}}, {"harrenhal": "support"})
    attack(state, "tyrell", "the-reach", "blackwater", ["knight"])
    send(state, "baratheon", "SUPPORT Harrenhal -> Stark")
    assert owed(state) == [("baratheon", False)]
    assert check(state, "baratheon", "SUPPORT Harrenhal -> Stark") is None  # for a later battle
    assert check(state, "baratheon", "SUPPORT Harrenhal -> Stark IN Blackwater") == \
        "Stark does not fight in the battle at Blackwater (Tyrell attacks Lannister)"
    assert check(state, "stark", "SUPPORT Harrenhal -> Tyrell") == "you have no support order in Harrenhal"
    assert check(state, "lannister", "SUPPORT Lannisport -> Lannister IN Blackwater") == \
        "Lannisport cannot support the battle at Blackwater: Lannisport is not adjacent to Blackwater " \
        "(support never goes through ships)"


def test_ships_support_land_battles_but_land_never_supports_a_sea_battle():
    state = make_state({"the-golden-sound": {"lannister": ["ship"]}, "sunset-sea": {"tyrell": ["ship", "ship"]},
                        "lannisport": {"lannister": ["knight"]}, "ironmans-bay": {"greyjoy": ["ship"]},
                        "searoad-marches": {"lannister": ["footman"]}},
                       {"lannisport": "support", "ironmans-bay": "support", "searoad-marches": "support"})
    attack(state, "tyrell", "sunset-sea", "the-golden-sound", ["ship", "ship"])
    assert state["battle"]["supporters"] == ["ironmans-bay"]
    assert check(state, "lannister", "SUPPORT Lannisport -> Lannister IN The Golden Sound") == \
        "Lannisport cannot support the battle at The Golden Sound: land units cannot support the battle at sea " \
        "in The Golden Sound"
    fight(state)

    state = make_state({"the-reach": {"tyrell": ["knight"]}, "searoad-marches": {"lannister": ["footman"]},
                        "the-golden-sound": {"lannister": ["ship", "ship"]}}, {"the-golden-sound": "support"})
    attack(state, "tyrell", "the-reach", "searoad-marches", ["knight"])
    send(state, "lannister", "SUPPORT The Golden Sound -> Lannister")
    assert "Lannister supports Lannister from The Golden Sound: +2." in step(state)


def test_rains_of_autumn_supporting_footmen_add_nothing():
    state = make_state({"the-reach": {"tyrell": ["knight"]}, "blackwater": {"lannister": ["footman"]},
                        "stoney-sept": {"lannister": ["footman", "knight"]}}, {"stoney-sept": "support"},
                       restrictions=[support.RAINS_OF_AUTUMN])
    attack(state, "tyrell", "the-reach", "blackwater", ["knight"])
    send(state, "lannister", "SUPPORT Stoney Sept -> Lannister")
    assert "Lannister supports Lannister from Stoney Sept: +2 (footmen 0: Rains of Autumn)." in step(state)


# -- house cards, defaults, the seventh card ------------------------------------------------------------------------


def simple_battle(attacker="stark", a_units=("knight", "knight"), defender="lannister", d_units=("footman",),
                  origin="winterfell", area="moat-cailin", orders=None, bonus=0, **extra):
    areas = {origin: {attacker: list(a_units)}, area: {defender: list(d_units)}}
    areas.update(extra.pop("areas", {}))
    state = make_state(areas, orders, **extra)
    attack(state, attacker, origin, area, list(a_units), bonus)
    return state


def test_default_card_is_the_weakest_then_alphabetical():
    state = simple_battle()
    step(state)
    assert owed(state) == [("stark", False), ("lannister", False)]
    events = step(state)
    assert events[:2] == ["Stark sent no house card; default: Catelyn Stark.",
                          "Lannister sent no house card; default: Cersei Lannister."]


def test_card_preference_list_first_card_in_hand_and_used_line_removed():
    state = simple_battle()
    state["hands"]["lannister"].remove("tywin-lannister")
    state["discards"]["lannister"].append("tywin-lannister")
    send(state, "lannister", "CARD Tywin Lannister", "CARD Ser Kevan Lannister", "CARD Tyrion Lannister")
    send(state, "stark", "CARD Eddard Stark", "CARD Robb Stark IN Moat Cailin")
    events = until(state, "casualties")
    assert "Lannister plays Ser Kevan Lannister (strength 1, 1 sword)." in events
    assert "Stark plays Robb Stark (strength 2)." in events
    assert pos.plan(state, "lannister")["cards"] == ["CARD Tywin Lannister", "CARD Tyrion Lannister"]
    assert pos.plan(state, "stark")["cards"] == ["CARD Eddard Stark"]


def test_check_card_instructions():
    state = simple_battle()
    state["hands"]["lannister"].remove("tywin-lannister")
    assert check(state, "lannister", "CARD Tywin Lannister") == "Tywin Lannister is not in your hand (played already)"
    assert check(state, "lannister", "CARD Eddard Stark") == "Eddard Stark is not one of your house cards"
    assert check(state, "lannister", "CARD Tywin Lannister IN Riverrun") is None  # a later battle
    assert check(state, "tyrell", "CARD Mace Tyrell") is None  # Tyrell's next battle
    assert check(state, "tyrell", "CARD Mace Tyrell IN Moat Cailin") == "you do not fight in the battle at Moat Cailin"
    assert check(state, "stark", "CARD Robb Stark") is None


def test_seventh_card_brings_all_seven_back():
    state = simple_battle()
    state["hands"]["stark"] = ["eddard-stark"]
    state["discards"]["stark"] = [c.id for c in CTX.gd.house_cards["stark"] if c.id != "eddard-stark"]
    events = fight(state)
    assert "Stark plays Eddard Stark (strength 3, 2 fortifications)." in events
    assert "Stark has played its last house card: all seven return to its hand." in events
    assert sorted(state["hands"]["stark"]) == sorted(c.id for c in CTX.gd.house_cards["stark"])
    assert state["discards"]["stark"] == []
    assert state["discards"]["lannister"] == ["cersei-lannister"]


# -- the result: ties, the blade ------------------------------------------------------------------------------------------


def test_tie_goes_to_the_higher_house_on_fiefdoms_attacker_or_defender():
    # Fiefdoms: Greyjoy, Tyrell, Stark, Baratheon, Lannister
    state = simple_battle(a_units=("footman",), d_units=("footman",))
    send(state, "stark", "CARD Greatjon Umber")
    send(state, "lannister", "CARD Tyrion Lannister")
    events = fight(state)
    assert "Stark and Lannister tie at 3: Stark is higher on the Fiefdoms track." in events
    assert "Stark wins the battle at Moat Cailin." in events

    state = simple_battle(attacker="lannister", defender="stark", origin="riverrun", area="seagard",
                          a_units=("footman",), d_units=("footman",))
    send(state, "stark", "CARD Greatjon Umber")
    send(state, "lannister", "CARD Tyrion Lannister")
    events = fight(state)
    assert "Stark wins the battle at Seagard." in events


def blade_battle(policy=None, greyjoy_card="Theon Greyjoy", used=False):
    """Greyjoy (the blade's holder) attacks: 2 footmen + Theon 2 = 4 against Stark 3 + Robb 2 = 5."""
    state = simple_battle(attacker="greyjoy", a_units=("footman", "footman"), defender="stark",
                          d_units=("footman", "footman", "footman"), origin="greywater-watch", area="moat-cailin",
                          blade_used=used)
    if policy:
        send(state, "greyjoy", policy)
    send(state, "greyjoy", f"CARD {greyjoy_card}")
    send(state, "stark", "CARD Robb Stark")
    return state


def test_blade_auto_turns_a_loss_into_a_win():
    state = blade_battle()
    events = fight(state)
    assert "Greyjoy uses the Valyrian Steel Blade: +1." in events
    assert "Strength at Moat Cailin: Greyjoy 5 (2 footmen 2, Theon Greyjoy 2, Valyrian Steel Blade +1); " \
           "Stark 5 (3 footmen 3, Robb Stark 2)." in events
    assert "Greyjoy wins the battle at Moat Cailin." in events
    assert state["blade_used"] is True


def test_blade_auto_not_used_when_it_changes_nothing_never_and_once_per_round():
    state = blade_battle(greyjoy_card="Euron Crow's Eye")  # 5 against 5: Greyjoy wins the tie anyway
    events = fight(state)
    assert not any("Valyrian" in e for e in events) and state["blade_used"] is False
    assert "Greyjoy wins the battle at Moat Cailin." in events

    state = blade_battle(greyjoy_card="Victarion Greyjoy")  # 2 against 5: +1 is not enough
    assert not any("Valyrian" in e for e in fight(state))

    state = blade_battle("BLADE NEVER")
    events = fight(state)
    assert "Stark wins the battle at Moat Cailin." in events and state["blade_used"] is False

    state = blade_battle(used=True)
    assert "Stark wins the battle at Moat Cailin." in fight(state)


def test_blade_at_an_area_is_used_there_even_when_winning():
    state = blade_battle("BLADE AT Moat Cailin", greyjoy_card="Euron Crow's Eye")
    events = fight(state)
    assert "Greyjoy uses the Valyrian Steel Blade: +1." in events and state["blade_used"] is True
    state = blade_battle("BLADE AT Riverrun")
    assert "Stark wins the battle at Moat Cailin." in fight(state)


# -- casualties -------------------------------------------------------------------------------------------------------------


def test_casualties_chosen_by_the_loser_and_routed_units_never_casualties():
    state = simple_battle(d_units=("footman", "footman", "knight"), a_units=("knight", "knight", "footman"),
                          routed={"moat-cailin": ["footman"]}, areas={"the-twins": {"lannister": ["footman"]}})
    send(state, "stark", "CARD Greatjon Umber")
    send(state, "lannister", "CARD Cersei Lannister")
    until(state, "casualties")
    assert state["battle"]["casualties"] == 1
    assert owed(state) == [("lannister", False)]
    assert check(state, "lannister", "CASUALTIES 2 footmen") == "you lose exactly 1 unit (of 1 footman, 1 knight)"
    assert check(state, "lannister", "CASUALTIES 1 ship") == \
        "you have only 1 footman, 1 knight fighting in this battle (routed units are never casualties)"
    send(state, "lannister", "CASUALTIES 1 knight IN Moat Cailin")
    assert check(state, "lannister", "CASUALTIES 1 knight IN Moat Cailin") is None
    assert owed(state) == [("lannister", True)]
    events = step(state, force=False)
    assert "Lannister loses 1 knight in Moat Cailin (1 sword on Greatjon Umber against 0 fortifications on Cersei Lannister)." in events
    assert state["areas"]["moat-cailin"] == {"lannister": ["footman", "footman"]}
    assert state["routed"]["moat-cailin"] == ["footman"]
    events = fight(state)
    assert "Lannister's routed 1 footman in Moat Cailin must retreat again and is destroyed." in events
    assert "Lannister retreats 1 footman from Moat Cailin to The Twins, where they are routed." in events
    assert state["routed"]["the-twins"] == ["footman"]


def test_casualties_more_than_the_loser_has():
    state = simple_battle(d_units=("footman",), a_units=("knight", "knight"))
    send(state, "stark", "CARD Greatjon Umber")
    send(state, "lannister", "CARD Cersei Lannister")
    events = fight(state)
    assert "Lannister loses 1 footman in Moat Cailin (1 sword on Greatjon Umber against 0 fortifications on Cersei Lannister)." in events
    assert state["areas"]["moat-cailin"] == {"stark": ["knight", "knight"]}


# -- retreats ----------------------------------------------------------------------------------------------------------------


def seagard_battle(**extra):
    """Lannister attacks Seagard (2 Greyjoy footmen) from Riverrun and wins (Tywin against Aeron: 1 casualty)."""
    areas = {"riverrun": {"lannister": ["knight", "knight"]}, "seagard": {"greyjoy": ["footman", "footman"]},
             "ironmans-bay": {"greyjoy": ["ship"]}, "the-twins": {"stark": ["footman"]}}
    areas.update(extra.pop("areas", {}))
    state = make_state(areas, extra.pop("orders", None), **extra)
    attack(state, "lannister", "riverrun", "seagard", ["knight", "knight"])
    send(state, "lannister", "CARD Ser Jaime Lannister")
    send(state, "greyjoy", "CARD Aeron Damphair", "BLADE NEVER")
    return state


def test_retreat_through_own_ships_and_check_instruction():
    state = seagard_battle()
    until(state, "retreat")
    legal = ["Flint's Finger", "Greywater Watch", "Moat Cailin", "Pyke"]
    assert [str(o.what) for o in battle.pending(state, CTX)] == [f"retreat from Seagard (to {', '.join(legal)})"]
    assert check(state, "greyjoy", "RETREAT Riverrun") == \
        f"Riverrun is not a legal retreat: the attacker came from there (legal: {', '.join(legal)})"
    assert check(state, "greyjoy", "RETREAT The Twins") == \
        f"The Twins is not a legal retreat: it holds Stark's units (legal: {', '.join(legal)})"
    assert check(state, "greyjoy", "RETREAT Lannisport FROM Seagard").startswith(
        "Lannisport is not a legal retreat: it is not adjacent to Seagard nor reachable through your ships")
    assert check(state, "lannister", "RETREAT Pyke FROM Seagard") == "you won the battle at Seagard: there is no retreat"
    assert check(state, "lannister", "CASUALTIES 1 knight IN Seagard") == \
        "you won the battle at Seagard: the loser takes the casualties"
    send(state, "greyjoy", "RETREAT Pyke")
    assert check(state, "greyjoy", "RETREAT Pyke") is None
    assert owed(state) == [("greyjoy", True)]
    events = step(state, force=False)
    assert "Greyjoy retreats 2 footmen from Seagard to Pyke, where they are routed." in events
    assert state["areas"]["pyke"] == {"greyjoy": ["footman", "footman"]} and state["routed"]["pyke"] == ["footman", "footman"]
    assert state["battle"] is None and state["step"] == "march"


def test_retreat_default_most_units_then_alphabetical():
    state = seagard_battle(areas={"greywater-watch": {"greyjoy": ["footman"]}})
    assert "Greyjoy sent no retreat; default: Greywater Watch." in fight(state)
    state = seagard_battle()
    assert "Greyjoy sent no retreat; default: Flint's Finger." in fight(state)


def test_retreat_never_into_an_enemy_power_token_or_a_neutral_force():
    state = seagard_battle(areas={"ironmans-bay": {}}, control={"greywater-watch": "stark"},
                           neutral={"moat-cailin": 3})
    until(state, "retreat")
    assert check(state, "greyjoy", "RETREAT Greywater Watch") == \
        "Greywater Watch is not a legal retreat: it holds Stark's power token (legal: none: your units will be destroyed)"
    assert check(state, "greyjoy", "RETREAT Moat Cailin").startswith(
        "Moat Cailin is not a legal retreat: a neutral force holds it")
    events = fight(state)
    assert "Greyjoy has no legal retreat from Seagard: 2 footmen destroyed." in events
    assert state["areas"]["seagard"] == {"lannister": ["knight", "knight"]}


def test_retreat_within_supply_keeps_the_strongest():
    # Stark, supply 0 (armies of 2 and 2): an army of 2 in Karhold; 1 footman in Winterfell; White Harbor lost
    state = make_state({"moat-cailin": {"lannister": ["knight", "knight", "knight"]},
                        "white-harbor": {"stark": ["footman", "knight"]}, "winterfell": {"stark": ["footman"]},
                        "karhold": {"stark": ["footman", "footman"]}, "widows-watch": {"lannister": ["footman"]}},
                       supply={**{h: 6 for h in HOUSES}, "stark": 0})
    attack(state, "lannister", "moat-cailin", "white-harbor", ["knight", "knight", "knight"])
    send(state, "lannister", "CARD Tyrion Lannister")
    send(state, "stark", "CARD Ser Rodrik Cassel")
    events = fight(state)
    assert "Stark retreats 1 knight from White Harbor to Winterfell, where they are routed; 1 footman destroyed: supply limit." in events
    assert state["areas"]["winterfell"] == {"stark": ["footman", "knight"]}
    assert pos.controller(state, CTX.gd, "white-harbor") == "lannister"


def test_retreat_into_an_empty_enemy_home_area():
    """RULES.md A12: an unoccupied enemy home area is empty (CZ p.11: no units, no power tokens)."""
    state = make_state({"searoad-marches": {"tyrell": ["knight", "knight"]}, "stoney-sept": {"stark": ["footman"]},
                        "riverrun": {"lannister": ["footman"]}, "harrenhal": {"lannister": ["footman"]},
                        "blackwater": {"lannister": ["footman"]}})
    attack(state, "tyrell", "searoad-marches", "stoney-sept", ["knight", "knight"])
    until(state, "retreat")
    assert check(state, "stark", "RETREAT Lannisport") is None
    assert "Stark retreats 1 footman from Stoney Sept to Lannisport, where they are routed." in fight(state)
    assert state["areas"]["lannisport"] == {"stark": ["footman"]}
    assert pos.controller(state, CTX.gd, "lannisport") == "stark"

    state = make_state({"riverrun": {"lannister": ["knight", "knight"]}, "seagard": {"greyjoy": ["footman"]},
                        "ironmans-bay": {"greyjoy": ["ship"]}, "the-twins": {"stark": ["footman"]},
                        "greywater-watch": {"stark": ["footman"]}, "moat-cailin": {"stark": ["footman"]},
                        "flints-finger": {"stark": ["footman"]}, "lannisport": {"stark": ["footman"]}})
    attack(state, "lannister", "riverrun", "seagard", ["knight", "knight"])
    until(state, "retreat")
    assert [o.what for o in battle.pending(state, CTX)] == []  # Pyke (Greyjoy's own home) is the only way out
    fight(state)
    assert state["areas"]["pyke"] == {"greyjoy": ["footman"]}


def test_sea_battle_ships_retreat_to_an_adjacent_sea():
    state = make_state({"sunset-sea": {"tyrell": ["ship", "ship", "ship"]}, "the-golden-sound": {"lannister": ["ship", "ship"]},
                        "ironmans-bay": {"greyjoy": ["ship"]}})
    attack(state, "tyrell", "sunset-sea", "the-golden-sound", ["ship", "ship", "ship"])
    send(state, "tyrell", "CARD Ser Garlan Tyrell")
    send(state, "lannister", "CARD Cersei Lannister")
    events = fight(state)
    assert "Lannister loses 1 ship in The Golden Sound (1 sword on Ser Garlan Tyrell against 0 fortifications on Cersei Lannister)." in events
    # Sunset Sea: the attacker came from there; Ironman's Bay: Greyjoy ships; land areas: not for ships
    assert "Lannister has no legal retreat from The Golden Sound: 1 ship destroyed." in events


def test_losing_attacker_may_lose_every_unit():
    state = simple_battle(a_units=("footman",), d_units=("knight", "knight"))
    send(state, "stark", "CARD Maester Luwin")
    send(state, "lannister", "CARD Tywin Lannister")
    events = fight(state)
    assert "Stark loses 1 footman in Moat Cailin (2 swords on Tywin Lannister against 0 fortifications on Maester Luwin)." in events
    assert "winterfell" not in state["areas"]
    assert check_free_of_battle(state)


def check_free_of_battle(state):
    return state["battle"] is None and state["step"] == "march"


def test_conquest_removes_the_defenders_order_and_power_token_and_takes_control():
    state = simple_battle(attacker="lannister", a_units=("knight", "knight"), defender="stark", d_units=("footman",),
                          origin="moat-cailin", area="winterfell", orders={"winterfell": "defense +1"})
    send(state, "lannister", "CARD Tywin Lannister")
    events = fight(state)
    assert "Lannister takes Winterfell with 2 knights; Stark's defense +1 order there is removed." in events
    assert pos.controller(state, CTX.gd, "winterfell") == "lannister"
    assert "winterfell" not in state["orders"]

    state = simple_battle(orders={"moat-cailin": "consolidate"}, control={"moat-cailin": "lannister"})
    send(state, "stark", "CARD Eddard Stark")
    events = fight(state)
    assert ("Stark takes Moat Cailin with 2 knights; Lannister's consolidate order there is removed; "
            "Lannister's power token there is removed.") in events
    assert state["control"] == {}


# -- the 15 abilities ------------------------------------------------------------------------------------------------------


def test_every_card_with_an_ability_is_in_the_table():
    with_ability = {c.id for cs in CTX.gd.house_cards.values() for c in cs if c.ability}
    assert with_ability == cards.ALL_ABILITIES and len(with_ability) == 15


def test_catelyn_stark_doubles_the_defense_order():
    state = simple_battle(attacker="lannister", defender="stark", origin="moat-cailin", area="winterfell",
                          a_units=("knight",), d_units=("footman",), orders={"winterfell": "defense +1"})
    send(state, "stark", "CARD Catelyn Stark")
    send(state, "lannister", "CARD Ser Kevan Lannister")
    events = fight(state)
    assert "Catelyn Stark: Stark's defense order counts double." in events
    assert "Strength at Winterfell: Lannister 3 (1 knight 2, Ser Kevan Lannister 1); " \
           "Stark 3 (1 footman 1, defense +2, Catelyn Stark 0)." in events


def test_catelyn_as_attacker_does_nothing():
    state = simple_battle()
    send(state, "stark", "CARD Catelyn Stark")
    assert "Catelyn Stark: Stark has no defense order in Moat Cailin; no effect." in fight(state)


def test_maester_luwin_takes_a_discarded_card_back():
    state = simple_battle()
    state["hands"]["stark"].remove("eddard-stark")
    state["discards"]["stark"].append("eddard-stark")
    send(state, "stark", "CARD Maester Luwin")
    until(state, "ability")
    assert [(o.player, str(o.what), o.done) for o in battle.pending(state, CTX)] == [
        ("stark", "Maester Luwin: which discarded house card to take back (or no) (battle at Moat Cailin)", False)]
    assert check(state, "stark", "ABILITY Maester Luwin: Robb Stark") == "Robb Stark is not among your discarded house cards"
    assert check(state, "stark", "ABILITY Maester Luwin: Tywin") is not None
    send(state, "stark", "ABILITY Maester Luwin: Eddard Stark")
    assert owed(state) == [("stark", True)]
    events = fight(state)
    assert "Maester Luwin: Stark takes Eddard Stark back into its hand." in events
    assert "eddard-stark" in state["hands"]["stark"] and state["discards"]["stark"] == ["maester-luwin"]
    assert pos.plan(state, "stark")["abilities"] == []


def test_ability_with_a_choice_defaults_to_not_used():
    state = simple_battle()
    state["hands"]["stark"].remove("eddard-stark")
    state["discards"]["stark"].append("eddard-stark")
    send(state, "stark", "CARD Maester Luwin")
    events = fight(state)
    assert "Stark sent no choice for Maester Luwin; default: the ability is not used." in events
    assert state["discards"]["stark"] == ["eddard-stark", "maester-luwin"]


def test_maester_luwin_with_nothing_discarded_asks_nothing():
    state = simple_battle()
    send(state, "stark", "CARD Maester Luwin")
    events = fight(state)
    assert "Maester Luwin: Stark has nothing to choose; the ability has no effect." in events


def test_robb_stark_attacking_knights_add_three():
    state = simple_battle()
    send(state, "stark", "CARD Robb Stark")
    events = fight(state)
    assert "Robb Stark: attacking knights add 1 more each." in events
    assert state["discards"]["stark"] == ["robb-stark"]
    assert any(e.startswith("Strength at Moat Cailin: Stark 8 (2 knights 6, Robb Stark 2)") for e in events)


def test_robb_stark_defending_does_nothing():
    state = simple_battle(attacker="lannister", defender="stark", origin="moat-cailin", area="winterfell",
                          a_units=("footman",), d_units=("knight",))
    send(state, "stark", "CARD Robb Stark")
    events = fight(state)
    assert "Robb Stark: Stark is not attacking; no effect." in events
    assert any("Stark 4 (1 knight 2, Robb Stark 2)" in e for e in events)


def test_ser_jaime_gains_two_power_on_a_win_only():
    state = seagard_battle()
    events = fight(state)
    assert "Ser Jaime Lannister: Lannister gains 2 power." in events and state["power"]["lannister"] == 7
    state = seagard_battle(power={**{h: 5 for h in HOUSES}, "lannister": 19})
    assert "Ser Jaime Lannister: Lannister gains 1 power (of 2: a house holds at most 20)." in fight(state)


def test_cersei_removes_one_of_the_losers_orders():
    state = simple_battle(attacker="lannister", defender="stark", origin="riverrun", area="seagard",
                          a_units=("knight", "knight"), d_units=("footman",),
                          orders={"winterfell": "consolidate", "seagard": "defense +1"},
                          areas={"winterfell": {"stark": ["footman"]}})
    send(state, "lannister", "CARD Cersei Lannister")
    events = until(state, "ability")  # RULES.md A17: after casualties, retreat and conquest
    assert events[-1] == "Lannister takes Seagard with 2 knights; Stark's defense +1 order there is removed."
    assert check(state, "lannister", "ABILITY Cersei Lannister: Seagard") == "Stark has no order in Seagard"
    assert check(state, "lannister", "ABILITY Cersei Lannister: Riverrun") == "Stark has no order in Riverrun"
    send(state, "lannister", "ABILITY Cersei: Winterfell")
    events = fight(state)
    assert events[0] == "Cersei Lannister: Lannister removes Stark's consolidate order in Winterfell."
    assert state["orders"] == {}


def test_vargo_hoat_attacking_footmen_add_two():
    state = simple_battle(attacker="lannister", defender="stark", origin="riverrun", area="seagard",
                          a_units=("footman", "footman", "knight"), d_units=("footman",))
    send(state, "lannister", "CARD Vargo Hoat")
    events = fight(state)
    assert any("Lannister 6 (2 footmen and 1 knight 6, Vargo Hoat 0)" in e for e in events)


def test_melisandre_spends_power_to_discard_from_the_losers_hand():
    state = simple_battle(attacker="baratheon", defender="stark", origin="kings-landing", area="blackwater",
                          a_units=("knight", "knight"), d_units=("footman",))
    send(state, "baratheon", "CARD Melisandre of Asshai", "ABILITY Melisandre of Asshai: Eddard Stark")
    events = fight(state)
    assert "Melisandre of Asshai: Baratheon spends 1 power; Stark discards Eddard Stark from its hand." in events
    assert state["power"]["baratheon"] == 4
    assert state["discards"]["stark"] == ["eddard-stark", "catelyn-stark"]
    assert "eddard-stark" not in state["hands"]["stark"]


def test_melisandre_needs_a_power_token():
    state = simple_battle(attacker="baratheon", defender="stark", origin="kings-landing", area="blackwater",
                          a_units=("knight", "knight"), d_units=("footman",),
                          power={**{h: 5 for h in HOUSES}, "baratheon": 0})
    send(state, "baratheon", "CARD Melisandre of Asshai")
    assert "Melisandre of Asshai: Baratheon has nothing to choose; the ability has no effect." in fight(state)


def test_renly_upgrades_a_footman_that_fought():
    state = simple_battle(attacker="baratheon", defender="stark", origin="kings-landing", area="blackwater",
                          a_units=("footman", "knight"), d_units=("footman",))
    send(state, "baratheon", "CARD Renly Baratheon", "ABILITY Renly Baratheon: Blackwater")
    events = fight(state)
    assert "Renly Baratheon: Baratheon upgrades a footman in Blackwater to a knight." in events
    assert state["areas"]["blackwater"] == {"baratheon": ["knight", "knight"]}


def test_renly_as_defender_and_the_knight_limit():
    state = simple_battle(attacker="stark", defender="baratheon", origin="the-reach", area="blackwater",
                          a_units=("footman",), d_units=("footman", "footman"), routed={"blackwater": ["footman"]})
    send(state, "baratheon", "CARD Renly Baratheon", "ABILITY Renly: yes")
    fight(state)
    assert state["areas"]["blackwater"] == {"baratheon": ["footman", "knight"]}
    assert state["routed"]["blackwater"] == ["footman"]

    state = simple_battle(attacker="baratheon", defender="stark", origin="kings-landing", area="blackwater",
                          a_units=("footman", "knight"), d_units=("footman",),
                          areas={"dragonstone": {"baratheon": ["knight", "knight", "knight"]}})
    send(state, "baratheon", "CARD Renly Baratheon")
    assert "Renly Baratheon: Baratheon has nothing to choose; the ability has no effect." in fight(state)


def test_salladhor_saan_zeroes_the_opponents_own_supporting_ships():
    """CZ p.14 "protivníkových podpůrných lodí": the opponent's own ships; a third house's count."""
    state = make_state({"kings-landing": {"baratheon": ["knight"]}, "crackclaw-point": {"lannister": ["footman"]},
                        "shipbreaker-bay": {"baratheon": ["ship", "ship"]}, "the-narrow-sea": {"lannister": ["ship", "ship"]},
                        "blackwater-bay": {"stark": ["ship"]}},
                       {"shipbreaker-bay": "support", "the-narrow-sea": "support +1*", "blackwater-bay": "support"})
    attack(state, "baratheon", "kings-landing", "crackclaw-point", ["knight"])
    send(state, "baratheon", "SUPPORT Shipbreaker Bay -> Baratheon", "CARD Salladhor Saan")
    send(state, "lannister", "SUPPORT The Narrow Sea -> Lannister", "CARD Lannister Captain")
    send(state, "stark", "SUPPORT Blackwater Bay -> Lannister")
    events = fight(state)
    assert "Salladhor Saan: Lannister's own supporting ships count 0." in events
    assert ("Strength at Crackclaw Point: Baratheon 4 (1 knight 2, support from Shipbreaker Bay 2, Salladhor Saan 0); "
            "Lannister 4 (1 footman 1, support from Blackwater Bay 1, support from The Narrow Sea 1 "
            "(ships 0: Salladhor Saan), Lannister Captain 1).") in events


def test_asha_removes_an_adjacent_support_or_consolidate_order():
    state = simple_battle(attacker="greyjoy", defender="stark", origin="greywater-watch", area="moat-cailin",
                          a_units=("knight", "knight"), d_units=("footman",),
                          orders={"the-twins": "support", "white-harbor": "consolidate", "winterfell": "raid"},
                          areas={"the-twins": {"lannister": ["footman"]}, "white-harbor": {"stark": ["footman"]},
                                 "winterfell": {"stark": ["footman"]}})
    send(state, "lannister", "SUPPORT The Twins -> NONE")
    send(state, "greyjoy", "CARD Asha Greyjoy")
    until(state, "ability")
    assert check(state, "greyjoy", "ABILITY Asha Greyjoy: Winterfell") == \
        "Winterfell has no support or consolidate power order adjacent to Moat Cailin"
    send(state, "greyjoy", "ABILITY Asha: The Twins")
    events = fight(state)
    assert "Asha Greyjoy: Greyjoy removes Lannister's support order in The Twins." in events
    assert state["orders"] == {"white-harbor": "consolidate", "winterfell": "raid"}


def test_balon_greyjoy_opposing_card_counts_zero_but_keeps_its_swords():
    state = simple_battle(attacker="lannister", defender="greyjoy", origin="riverrun", area="seagard",
                          a_units=("knight", "knight"), d_units=("footman", "footman", "footman"))
    send(state, "lannister", "CARD Tywin Lannister")
    send(state, "greyjoy", "CARD Balon Greyjoy", "BLADE NEVER")
    events = fight(state)
    assert "Balon Greyjoy: the strength of Tywin Lannister counts 0." in events
    assert any("Lannister 4 (2 knights 4, Tywin Lannister 0); Greyjoy 3 (3 footmen 3, Balon Greyjoy 0)" in e for e in events)
    assert "Greyjoy loses 2 footmen in Seagard (2 swords on Tywin Lannister against 0 fortifications on Balon Greyjoy)." in events


def test_victarion_greyjoy_attacking_ships_add_two():
    state = make_state({"ironmans-bay": {"greyjoy": ["ship", "ship"]}, "the-golden-sound": {"lannister": ["ship"]}})
    attack(state, "greyjoy", "ironmans-bay", "the-golden-sound", ["ship", "ship"])
    send(state, "greyjoy", "CARD Victarion Greyjoy")
    events = fight(state)
    assert any("Greyjoy 4 (2 ships 4, Victarion Greyjoy 0)" in e for e in events)


def test_loras_kills_a_fighting_defending_footman():
    state = simple_battle(attacker="tyrell", defender="lannister", origin="the-reach", area="blackwater",
                          a_units=("knight",), d_units=("footman", "footman", "knight"),
                          routed={"blackwater": ["footman"]})
    send(state, "tyrell", "CARD Ser Loras Tyrell")
    send(state, "lannister", "CARD Cersei Lannister")
    events = until(state, "casualties")
    assert "Ser Loras Tyrell kills one of Lannister's footmen in Blackwater." in events
    assert state["areas"]["blackwater"] == {"lannister": ["footman", "knight"]}
    assert state["routed"]["blackwater"] == ["footman"]
    assert any("Lannister 2 (1 knight 2, routed 1 footman 0, Cersei Lannister 0)" in e for e in events)
    assert "Tyrell wins the battle at Blackwater." in events


def test_loras_killing_the_last_attacking_unit_ends_the_battle():
    state = simple_battle(attacker="stark", defender="tyrell", origin="winterfell", area="moat-cailin",
                          a_units=("footman",), d_units=("footman",))
    send(state, "stark", "CARD Eddard Stark")
    send(state, "tyrell", "CARD Ser Loras Tyrell")
    events = fight(state)
    assert "Ser Loras Tyrell kills one of Stark's footmen in Moat Cailin." in events
    assert "Stark has no units left in the battle at Moat Cailin: Tyrell wins the battle at Moat Cailin." in events
    assert state["areas"]["moat-cailin"] == {"tyrell": ["footman"]} and "winterfell" not in state["areas"]


def test_loras_killing_the_last_defender_gives_the_area():
    state = simple_battle(attacker="tyrell", defender="stark", origin="the-reach", area="blackwater",
                          a_units=("footman",), d_units=("footman",))
    send(state, "tyrell", "CARD Loras")
    send(state, "stark", "CARD Eddard Stark")
    events = fight(state)
    assert "Stark has no units left in the battle at Blackwater: Tyrell wins the battle at Blackwater." in events
    assert state["areas"]["blackwater"] == {"tyrell": ["footman"]}


def test_brienne_discards_the_opposing_defense_order():
    state = simple_battle(attacker="tyrell", defender="stark", origin="the-reach", area="blackwater",
                          a_units=("knight",), d_units=("footman",), orders={"blackwater": "defense +2*"})
    send(state, "tyrell", "CARD Brienne of Tarth")
    send(state, "stark", "CARD Catelyn Stark")
    events = fight(state)
    assert "Brienne of Tarth: Stark's defense +2* order in Blackwater is discarded." in events
    assert any("Stark 1 (1 footman 1, Catelyn Stark 0)" in e for e in events)
    assert "Tyrell wins the battle at Blackwater." in events


def test_queen_of_thorns_cancels_the_opposing_ability():
    state = simple_battle(attacker="stark", defender="tyrell", origin="winterfell", area="moat-cailin",
                          a_units=("knight", "knight"), d_units=("footman", "footman", "footman"))
    send(state, "stark", "CARD Robb Stark")
    send(state, "tyrell", "CARD Queen of Thorns")
    events = fight(state)
    assert "Queen of Thorns cancels the ability of Robb Stark." in events
    assert not any(e.startswith("Robb Stark:") for e in events)
    assert any("Stark 6 (2 knights 4, Robb Stark 2)" in e for e in events)

    state = simple_battle(attacker="stark", defender="tyrell", origin="winterfell", area="moat-cailin")
    state["hands"]["stark"].remove("eddard-stark")
    state["discards"]["stark"].append("eddard-stark")
    send(state, "stark", "CARD Maester Luwin")
    send(state, "tyrell", "CARD Queen of Thorns")
    events = fight(state)
    assert "Stark wins the battle at Moat Cailin." in events
    assert not any("Maester Luwin:" in e or "choice" in e for e in events)


# -- the whole battle under force and without it ---------------------------------------------------------------------------


def test_defaults_under_force_for_every_question():
    state, _ = blackwater_example()
    events = fight(state)
    assert events[:3] == ["Baratheon sent no support decision for Harrenhal; default: no support.",
                          "Tyrell sent no support decision for King's Landing; default: no support.",
                          "Lannister sent no support decision for Stoney Sept; default: no support."]
    assert "Tyrell sent no house card; default: Brienne of Tarth." in events
    assert "Lannister sent no house card; default: Cersei Lannister." in events
    assert "Tyrell wins the battle at Blackwater." in events
    assert check_free_of_battle(state)


def test_pending_is_empty_when_nothing_is_to_decide_and_the_battle_state_is_yaml_plain():
    import yaml

    state = simple_battle()
    assert owed(state) == []  # no support order nearby
    step(state)
    send(state, "stark", "CARD Eddard Stark")
    send(state, "lannister", "CARD Tywin Lannister")
    assert owed(state) == [("stark", True), ("lannister", True)]
    step(state, force=False)
    assert yaml.safe_load(yaml.safe_dump(state["battle"])) == state["battle"]
    assert owed(state) == []  # 0 casualties of a single footman: nothing to choose
    fight(state, force=False)
    assert check_free_of_battle(state)


def test_instructions_for_other_battles_are_not_checked_here():
    state = simple_battle()
    assert check(state, "stark", "RETREAT Karhold FROM Winterfell") is None
    assert check(state, "stark", "CASUALTIES 3 ships IN Winterfell") is None
    assert check(state, "stark", "SUPPORT Harrenhal -> Stark IN Blackwater") is None
    assert check(state, "stark", "RETREAT Karhold FROM Moat Cailin") == \
        "a losing attacker always retreats to the area it came from (Winterfell)"
    assert check(state, "lannister", "RETREAT Riverrun FROM Moat Cailin") == \
        "Riverrun is not a legal retreat: it is not adjacent to Moat Cailin nor reachable through your ships"
    assert check(state, "lannister", "RETREAT Winterfell FROM Moat Cailin") == \
        "Winterfell is not a legal retreat: the attacker came from there"


@pytest.mark.parametrize("line, error", [
    ("ABILITY Eddard Stark: no", "Eddard Stark has no ability"),
    ("ABILITY Robb Stark: no", "Robb Stark has no ability with a choice"),
    ("ABILITY Tywin Lannister: no", "Tywin Lannister is not one of your house cards"),
    ("ABILITY Maester Luwin: no", None),
    ("ABILITY Maester Luwin: Eddard", None),
])
def test_check_ability_before_the_result(line, error):
    state = simple_battle()
    assert check(state, "stark", line) == error
