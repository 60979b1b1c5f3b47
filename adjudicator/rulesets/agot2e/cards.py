"""The 2nd edition's house-card abilities, for the shared battle (``rulesets/agot/battle.py``, as
``ctx.rules.cards``).

The battle resolves abilities by kind and by printed timing (data ``ability_key`` and ``timing``,
RULES.md R8.5); this module says which 2e cards have which kind. Without a choice:

* ``double-defense-order`` (Catelyn Stark): her Defense order's bonus doubled;
* ``opponent-printed-strength-zero`` (Balon Greyjoy): the opponent's printed strength counts 0;
* ``destroy-opponent-footman`` (Mace Tyrell): one of the opponent's fighting footmen dies at once;
* ``gain-power-on-win`` (Tywin Lannister): +2 Power if he wins;
* the static bonuses to the card's own strength and icons (:func:`bonus`): Stannis Baratheon, Ser
  Davos Seaworth, Theon Greyjoy, Asha Greyjoy, Nymeria Sand;
* ``own-footmen-double-when-attacking``, ``own-ships-double-when-attacking`` (Ser Kevan Lannister,
  Victarion Greyjoy): those units count 2 when attacking, in the army and among its own supporters;
* ``no-casualties`` (The Blackfish): no casualties from swords or abilities (Mace Tyrell's included);
* ``reclaim-discards-on-loss`` (Roose Bolton): on a loss the whole discard pile returns to hand;
* ``foreign-ships-zero-if-supported`` (Salladhor Saan) and ``attackers-stay-out-on-loss`` (Arianne
  Martell);
* ``march-order-follows-on-win`` (Ser Loras Tyrell): after combat, his March order moves into the
  conquered area and may be resolved again this round.

With a choice (``ABILITY <card>: <choice> | NONE``, RULES.md 11.2; :data:`CHOICE_STAGE` says when it is
asked): Tyrion Lannister (cancel), Aeron Damphair, Queen of Thorns and Doran Martell (immediately), Robb
Stark (the loser's retreat), Cersei Lannister and Renly Baratheon (if he wins), Patchface (after combat).
Optional ones default to "not used"; Queen of Thorns and Doran Martell are mandatory (default B26).
``tests/agot2e`` checks these tables against the data's ability keys.
"""

from __future__ import annotations

import re
from collections import Counter

from ...messages import Msg
from ...ruleset import Event
from ..agot import aftermath, cardeffects, grammar
from ..agot import position as pos
from ..agot.battlefield import NO_WORDS, YES_WORDS, fighting_units, opponent, upgrade_footman
from ..agot.board import UnknownName
from ..agot.context import Ctx
from ..agot.support import castle_in_combat
from ..agot.grammar import fold

ATTACK_UNIT_BONUS = {"kevan-lannister": "footman", "victarion-greyjoy": "ship"}  # each counts 2 when attacking
ATTACK_BONUS_SUPPORTERS = True  # ... in the attacking army and among its own supporters (SR + RM)
NO_CASUALTIES = frozenset({"the-blackfish"})  # no casualties from swords or abilities (B24: other losses stay)
RECLAIM_ON_LOSS = frozenset({"roose-bolton"})  # on a loss the whole discard pile returns, Roose with it
FOREIGN_SHIPS_ZERO = frozenset({"salladhor-saan"})  # supported: every other house's ship in the combat counts 0
ATTACKERS_STAY_OUT = frozenset({"arianne-martell"})  # beaten defending: the attackers go back where they came from
DEFENSE_DOUBLED = frozenset({"catelyn-stark"})
KILL_FOOTMAN = frozenset({"mace-tyrell"})
DISCARD_DEFENSE: frozenset[str] = frozenset()
ZERO_OPPOSING_SUPPORT_SHIPS: frozenset[str] = frozenset()  # Salladhor differs in 2e (every foreign ship)
ZERO_OPPOSING_CARD = frozenset({"balon-greyjoy"})
CANCEL_OPPOSING_ABILITY: frozenset[str] = frozenset()  # Tyrion cancels the card itself in 2e
WIN_POWER = {"tywin-lannister": 2}

BONUS_KEYS = ("bonus-if-below-on-iron-throne", "bonus-if-card-discarded", "bonus-defending-castle",
              "bonus-if-unsupported", "fortification-defending-sword-attacking")
"""The ability keys :func:`bonus` resolves (their numbers are the data's ``params``)."""
BONUS_CARDS = frozenset({"stannis-baratheon", "davos-seaworth", "theon-greyjoy", "asha-greyjoy", "nymeria-sand"})



def bonus(state: dict, ctx: Ctx, b: dict, house: str) -> tuple[int, int, int]:
    """(strength, swords, fortifications) that ``house``'s card adds to itself now (static abilities, R8.5)."""
    card = ctx.gd.card(b["cards"][house])
    if card.ability_key not in BONUS_KEYS or house in b["cancelled"]:
        return 0, 0, 0
    params, other = card.params, b["defender"] if house == b["attacker"] else b["attacker"]
    own = (params.get("strength", 0), params.get("swords", 0), params.get("fortifications", 0))
    key = card.ability_key
    if key == "bonus-if-below-on-iron-throne":
        track = state["tracks"]["iron_throne"]
        return own if track.index(other) < track.index(house) else (0, 0, 0)
    if key == "bonus-if-card-discarded":
        return own if params["card"] in state["discards"][house] else (0, 0, 0)
    if key == "bonus-defending-castle":
        return own if house == b["defender"] and castle_in_combat(ctx, b["area"], b["origin"]) else (0, 0, 0)
    if key == "bonus-if-unsupported":
        return own if house not in (b.get("supports") or {}).values() else (0, 0, 0)
    return (0, 0, 1) if house == b["defender"] else (0, 1, 0)  # fortification-defending-sword-attacking
"""ability_key -> the cards of that kind (the test compares it with the data)."""


# -- the abilities with a choice (RULES.md R8.5, 11.2: ``ABILITY <card>: <choice> | NONE``) ----------------------

LAST_CARD_DISCARDED = True
"""R8.11 (REF RULES.md combat clean-up, SR [L]): a house that plays its last house card takes back all
its cards except the one just played, which goes to the discard pile (the 1st edition keeps it in hand)."""

BY_TIMING = True
"""2e abilities resolve by their printed timing (``timing`` in the data: cancel, immediately, static, on_win,
on_loss, after_combat), the two cards' abilities at one timing in Iron Throne order (B20): see
:func:`ability_order` and the stages of ``battle.py``."""

CHOICE_STAGE = {"tyrion-lannister": "cancel", "aeron-damphair": "immediately", "queen-of-thorns": "immediately",
                "doran-martell": "immediately", "robb-stark": "retreat", "cersei-lannister": "ability",
                "renly-baratheon": "ability", "patchface": "after"}
"""card -> the battle stage where its owner's choice is made (asked alone when no usable line is on file):
``cancel`` as the cards are revealed, ``immediately`` after the cancel step, ``retreat`` (Robb: the winner
picks the loser's retreat), ``ability`` once the winner is known and the loser gone, ``after`` at the end of
the combat clean-up."""
MANDATORY = frozenset({"queen-of-thorns", "doran-martell"})  # their default is B26's, not "not used"
WIN_CHOICE = ("cersei-lannister", "renly-baratheon")  # on_win choices asked at the stage ``ability``
RETREAT_CHOICE = frozenset({"robb-stark"})
MARCH_FOLLOWS = frozenset({"loras-tyrell"})  # after combat: the March order moves into the conquered area
DISCARD_FROM_HAND = frozenset({"patchface"})

TRACKS = {"throne": "iron_throne", "fiefdoms": "fiefdoms", "court": "kings_court"}
"""Doran Martell's choice: the mail's track word (``grammar.TRACK_WORDS``) -> the state's track."""
USE_WORDS = frozenset({"use", "yes", "ano", "pouzij", "pouzit"})
"""Tyrion Lannister: cancel the opponent's card whatever it is (English and Czech)."""
IF_WORDS = ("if", "pokud")
"""Tyrion Lannister: ``IF <card>[, <card>...]`` (Czech ``POKUD``), cancel only those cards."""

ALL_ABILITIES = frozenset(DEFENSE_DOUBLED | KILL_FOOTMAN | ZERO_OPPOSING_CARD | set(WIN_POWER) | BONUS_CARDS
                          | set(ATTACK_UNIT_BONUS) | NO_CASUALTIES | RECLAIM_ON_LOSS | FOREIGN_SHIPS_ZERO
                          | ATTACKERS_STAY_OUT | set(CHOICE_STAGE) | MARCH_FOLLOWS)
"""The cards whose abilities the battle resolves: all 24 with an ability."""

KEYS = {"double-defense-order": DEFENSE_DOUBLED, "destroy-opponent-footman": KILL_FOOTMAN,
        "opponent-printed-strength-zero": ZERO_OPPOSING_CARD, "gain-power-on-win": frozenset(WIN_POWER),
        "own-footmen-double-when-attacking": {"kevan-lannister"}, "own-ships-double-when-attacking": {"victarion-greyjoy"},
        "no-casualties": NO_CASUALTIES, "reclaim-discards-on-loss": RECLAIM_ON_LOSS,
        "opponent-to-bottom-of-track": {"doran-martell"}, "remove-adjacent-opponent-order": {"queen-of-thorns"},
        "foreign-ships-zero-if-supported": FOREIGN_SHIPS_ZERO, "attackers-stay-out-on-loss": ATTACKERS_STAY_OUT,
        "cancel-opponent-card": {"tyrion-lannister"}, "pay-power-replace-card": {"aeron-damphair"},
        "winner-chooses-retreat": RETREAT_CHOICE, "remove-loser-order-on-win": {"cersei-lannister"},
        "upgrade-footman-on-win": {"renly-baratheon"}, "discard-opponent-card": DISCARD_FROM_HAND,
        "march-order-follows-on-win": MARCH_FOLLOWS, **{key: None for key in BONUS_KEYS}}
"""ability_key -> the cards of that kind (None: every card with that key; the test compares it with the data)."""


def ability_order(state: dict, b: dict) -> list[str]:
    """The two sides in the order their abilities of one timing resolve: Iron Throne order (B20)."""
    track = state["tracks"]["iron_throne"]
    return sorted((b["attacker"], b["defender"]), key=track.index)


def _word(text: str) -> str:
    return re.sub(r"[^a-z]", "", fold(text))


def _declines(text: str) -> bool:
    return " ".join(fold(text).split()) in NO_WORDS


def renly_areas(state: dict, ctx: Ctx, b: dict) -> list[str]:
    """Renly Baratheon: the areas holding a footman of the winner that took part in the combat: the
    embattled area (its army, after the conquest or the defence) and the areas whose Support order the
    winner declared for itself; routed footmen did not fight (RULES.md R8.5)."""
    winner = b["winner"]
    if pos.house_units(state, winner)["knight"] >= ctx.gd.setup.unit_limits["knight"]:
        return []
    sources = [b["area"]] + [src for src in b["supporters"]
                             if b["supports"].get(src) == winner and pos.owner(state, src) == winner]
    return sorted((a for a in sources if (Counter(pos.units_in(state, a, winner))
                                          - Counter(pos.routed_in(state, a)))["footman"]), key=ctx.area)


def choice_options(state: dict, ctx: Ctx, b: dict, card_id: str) -> list[str]:
    """What ``card_id``'s owner may choose now ([] = nothing: the ability has no effect). Values: an
    area id, a card id, a track id, or ``use`` (Tyrion Lannister)."""
    house = ctx.gd.card(card_id).house
    other = opponent(b, house)
    if card_id == "tyrion-lannister":
        return ["use"] if b["cards"].get(other) else []
    if card_id == "aeron-damphair":
        power = ctx.gd.card(card_id).params["power"]
        return sorted(state["hands"][house], key=ctx.card) if state["power"][house] >= power else []
    if card_id == "queen-of-thorns":
        return sorted((n for n in ctx.gd.board.neighbours(b["area"])
                       if n in state["orders"] and pos.order_owner(state, n) == other), key=ctx.area)
    if card_id == "doran-martell":
        return list(TRACKS.values())
    if card_id == "robb-stark":
        if b["loser"] != b["defender"] or b["winner"] != house:
            return []
        survivors = fighting_units(state, b, b["defender"])
        legal = aftermath.retreat_options(state, ctx, b, survivors)[0] if survivors else []
        return legal if len(legal) > 1 else []
    if card_id == "cersei-lannister":
        return sorted(pos.orders_of(state, b["loser"]), key=ctx.area)
    if card_id == "renly-baratheon":
        return renly_areas(state, ctx, b)
    if card_id == "patchface":
        return sorted(state["hands"][other], key=ctx.card)
    raise ValueError(f"{card_id} has no ability with a choice")


def _tyrion_cards(text: str, ctx: Ctx) -> list[str] | None:
    """The cards of ``IF <card>[, <card>...]`` (None: the text is no IF list)."""
    head, _, rest = text.strip().partition(" ")
    if fold(head) not in IF_WORDS:
        return None
    return [ctx.gd.resolve_card(name).id for name in rest.split(",") if name.strip()]


def check_form(ctx: Ctx, house: str, card_id: str, text: str) -> Msg | None:
    """What is wrong with a choice for ``card_id`` whatever the battle (sent ahead: only its form)."""
    if _declines(text):
        return Msg("agot.error.ability_mandatory", card=card_id) if card_id in MANDATORY else None
    try:
        if card_id == "tyrion-lannister":
            if _word(text) not in USE_WORDS and not _tyrion_cards(text, ctx):
                return Msg("agot.error.tyrion_choice", text=text)
        elif card_id == "aeron-damphair":
            ctx.gd.resolve_card(text, house)
        elif card_id == "doran-martell":
            if grammar.TRACK_WORDS.get(_word(text)) is None:
                return Msg("agot.error.doran_track", text=text)
        elif card_id == "patchface":
            ctx.gd.resolve_card(text)
        elif not (card_id == "renly-baratheon" and _word(text) in YES_WORDS):
            ctx.gd.board.resolve(text)
    except UnknownName as exc:
        return exc.msg
    return None


def parse_choice(state: dict, ctx: Ctx, b: dict, card_id: str, text: str) -> tuple[str | None, Msg | None]:
    """(value, error) of a choice for ``card_id`` in this battle now: value None and no error means "not
    used" (NONE, or Tyrion's IF list without the opponent's card)."""
    house = ctx.gd.card(card_id).house
    other = opponent(b, house)
    problem = check_form(ctx, house, card_id, text)
    if problem or _declines(text):
        return None, problem
    options = choice_options(state, ctx, b, card_id)
    if card_id == "tyrion-lannister":
        listed = _tyrion_cards(text, ctx)
        return ("use" if listed is None or b["cards"].get(other) in listed else None), None
    if card_id == "aeron-damphair":
        value = ctx.gd.resolve_card(text, house).id
        if state["power"][house] < ctx.gd.card(card_id).params["power"]:
            return None, Msg("agot.error.aeron_power", n=ctx.gd.card(card_id).params["power"])
        return (value, None) if value in options else (None, Msg("agot.error.not_in_hand_of", card=value, house=house))
    if card_id == "doran-martell":
        return TRACKS[grammar.TRACK_WORDS[_word(text)]], None
    if card_id == "patchface":
        value = ctx.gd.resolve_card(text).id
        return (value, None) if value in options else (None, Msg("agot.error.not_in_hand_of", card=value, house=other))
    if card_id == "renly-baratheon" and _word(text) in YES_WORDS:
        value = options[0] if len(options) == 1 else None
        if value is None:
            return None, Msg("agot.error.renly_which", areas=[ctx.area(a) for a in options])
    else:
        value = ctx.gd.board.resolve(text)
    if value in options:
        return value, None
    if card_id == "queen-of-thorns":
        return None, Msg("agot.error.queen_of_thorns_order", house=other, area=ctx.area(value),
                         battle=ctx.area(b["area"]))
    if card_id == "robb-stark":
        survivors = fighting_units(state, b, b["defender"])
        return None, aftermath.retreat_error(state, ctx, b, value, options, survivors)
    if card_id == "cersei-lannister":
        return None, Msg("agot.error.cersei_no_order", house=b["loser"], area=ctx.area(value))
    if pos.house_units(state, house)["knight"] >= ctx.gd.setup.unit_limits["knight"]:  # Renly
        return None, Msg("agot.error.renly_no_knight")
    return None, Msg("agot.error.renly_footman", area=ctx.area(value), battle=ctx.area(b["area"]))


def default_choice(state: dict, ctx: Ctx, b: dict, card_id: str) -> str | None:
    """The deadline's choice: None (not used) for an optional ability; B26 for the mandatory ones."""
    house = ctx.gd.card(card_id).house
    if card_id == "doran-martell":
        return cardeffects.fall_most(state, opponent(b, house))
    if card_id == "queen-of-thorns":
        return cardeffects.order_to_remove(state, ctx, b, opponent(b, house), choice_options(state, ctx, b, card_id))
    return None


def apply_choice(state: dict, ctx: Ctx, b: dict, card_id: str, value: str, *, default: bool = False) -> list[Event]:
    """Carry out a legal choice (:func:`parse_choice`) or the default (:func:`default_choice`)."""
    house = ctx.gd.card(card_id).house
    other = opponent(b, house)
    if card_id == "tyrion-lannister":
        given_back = b["cards"][other]
        state["hands"][other].append(given_back)
        if other in b["seventh"]:
            b["seventh"].remove(other)
        b["cards"][other] = None
        b["repick"] = {"house": other, "card": given_back}
        return [Event("agot.ability.tyrion", card=card_id, house=house, other=other, returned=given_back)]
    if card_id == "aeron-damphair":
        power = ctx.gd.card(card_id).params["power"]
        state["power"][house] -= power
        state["discards"][house].append(card_id)
        state["hands"][house].remove(value)
        if not state["hands"][house]:
            b["seventh"].append(house)
        b["cards"][house] = value
        new = ctx.gd.card(value)
        return [Event("agot.ability.aeron", card=card_id, house=house, n=power, replacement=value,
                      strength=new.strength, swords=new.swords, fortifications=new.fortifications)]
    if card_id == "queen-of-thorns":
        events = [Event("agot.default.queen_of_thorns", card=card_id, house=house)] if default else []
        return events + cardeffects.remove_adjacent_order(state, ctx, b, house, card_id, value)
    if card_id == "doran-martell":
        return [cardeffects.to_bottom(state, b, other, card_id, value, default=default)]
    if card_id == "robb-stark":
        b["retreat_to"] = value  # aftermath.defender_retreats moves the loser there
        return [Event("agot.ability.robb", card=card_id, house=house, loser=other, area=ctx.area(value))]
    if card_id == "cersei-lannister":
        return [cardeffects.removes_order(state, ctx, card_id, house, value)]
    if card_id == "renly-baratheon":
        upgrade_footman(state, value, house)
        return [Event("agot.ability.renly", card=card_id, house=house, area=ctx.area(value))]
    if card_id == "patchface":
        state["hands"][other].remove(value)
        state["discards"][other].append(value)
        events = [Event("agot.ability.patchface", card=card_id, house=house, other=other, discarded=value)]
        return events + aftermath.refill_empty_hand(state, ctx, other)
    raise ValueError(f"{card_id} has no ability with a choice")
