"""The 2nd edition's house-card abilities, for the shared battle (``rulesets/agot/battle.py``, as
``ctx.rules.cards``).

The battle resolves abilities by kind; this module says which 2e cards have which kind. So far the
kinds the shared battle already resolves as the 2e cards say (data ``ability_key``, RULES.md R8.5):

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
* ``opponent-to-bottom-of-track`` (Doran Martell) and ``remove-adjacent-opponent-order`` (Queen of
  Thorns), mandatory, by their deadline defaults (B26) until the ABILITY choices exist.

* ``foreign-ships-zero-if-supported`` (Salladhor Saan) and ``attackers-stay-out-on-loss`` (Arianne
  Martell).

Of the other 8, the optional ones (Tyrion, Aeron, Robb, Renly, Cersei, Patchface) resolve as their
deadline default, not used, until their ABILITY choices exist; Ser Loras Tyrell is not resolved yet:
he fights with his strength and icons only (RULES.md section 0). ``tests/agot2e`` checks these tables against the
data's ability keys.
"""

from __future__ import annotations

from ...messages import Msg
from ...ruleset import Event
from ..agot.context import Ctx

ATTACK_UNIT_BONUS = {"kevan-lannister": "footman", "victarion-greyjoy": "ship"}  # each counts 2 when attacking
ATTACK_BONUS_SUPPORTERS = True  # ... in the attacking army and among its own supporters (SR + RM)
NO_CASUALTIES = frozenset({"the-blackfish"})  # no casualties from swords or abilities (B24: other losses stay)
RECLAIM_ON_LOSS = frozenset({"roose-bolton"})  # on a loss the whole discard pile returns, Roose with it
FOREIGN_SHIPS_ZERO = frozenset({"salladhor-saan"})  # supported: every other house's ship in the combat counts 0
ATTACKERS_STAY_OUT = frozenset({"arianne-martell"})  # beaten defending: the attackers go back where they came from
OPPONENT_TO_BOTTOM = frozenset({"doran-martell"})  # mandatory; default track: B26 (battle._to_bottom)
REMOVE_ADJACENT_ORDER = frozenset({"queen-of-thorns"})  # mandatory; default order: B26 (battle._remove_adjacent_order)
DEFENSE_DOUBLED = frozenset({"catelyn-stark"})
KILL_FOOTMAN = frozenset({"mace-tyrell"})
DISCARD_DEFENSE: frozenset[str] = frozenset()
ZERO_OPPOSING_SUPPORT_SHIPS: frozenset[str] = frozenset()  # Salladhor differs in 2e (every foreign ship)
ZERO_OPPOSING_CARD = frozenset({"balon-greyjoy"})
CANCEL_OPPOSING_ABILITY: frozenset[str] = frozenset()  # Tyrion cancels the card itself in 2e
WIN_POWER = {"tywin-lannister": 2}
WIN_CHOICE: tuple[str, ...] = ()

BONUS_KEYS = ("bonus-if-below-on-iron-throne", "bonus-if-card-discarded", "bonus-defending-castle",
              "bonus-if-unsupported", "fortification-defending-sword-attacking")
"""The ability keys :func:`bonus` resolves (their numbers are the data's ``params``)."""
BONUS_CARDS = frozenset({"stannis-baratheon", "davos-seaworth", "theon-greyjoy", "asha-greyjoy", "nymeria-sand"})

ALL_ABILITIES = frozenset(DEFENSE_DOUBLED | KILL_FOOTMAN | ZERO_OPPOSING_CARD | set(WIN_POWER) | BONUS_CARDS
                          | set(ATTACK_UNIT_BONUS) | NO_CASUALTIES | RECLAIM_ON_LOSS | OPPONENT_TO_BOTTOM
                          | REMOVE_ADJACENT_ORDER | FOREIGN_SHIPS_ZERO | ATTACKERS_STAY_OUT)
"""The cards whose abilities the battle resolves."""

KEYS = {"double-defense-order": DEFENSE_DOUBLED, "destroy-opponent-footman": KILL_FOOTMAN,
        "opponent-printed-strength-zero": ZERO_OPPOSING_CARD, "gain-power-on-win": frozenset(WIN_POWER),
        "own-footmen-double-when-attacking": {"kevan-lannister"}, "own-ships-double-when-attacking": {"victarion-greyjoy"},
        "no-casualties": NO_CASUALTIES, "reclaim-discards-on-loss": RECLAIM_ON_LOSS,
        "opponent-to-bottom-of-track": OPPONENT_TO_BOTTOM, "remove-adjacent-opponent-order": REMOVE_ADJACENT_ORDER,
        "foreign-ships-zero-if-supported": FOREIGN_SHIPS_ZERO, "attackers-stay-out-on-loss": ATTACKERS_STAY_OUT,
        **{key: None for key in BONUS_KEYS}}
"""ability_key -> the cards of that kind (None: every card with that key; the test compares it with the data)."""


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
        return own if house == b["defender"] and ctx.gd.board.area(b["area"]).castle != "none" else (0, 0, 0)
    if key == "bonus-if-unsupported":
        return own if house not in (b.get("supports") or {}).values() else (0, 0, 0)
    return (0, 0, 1) if house == b["defender"] else (0, 1, 0)  # fortification-defending-sword-attacking
"""ability_key -> the cards of that kind (the test compares it with the data)."""


def choice_options(state: dict, ctx: Ctx, b: dict, card_id: str) -> list[str]:
    """No 2e ability with a choice is resolved yet: nothing to choose."""
    return []


def parse_choice(state: dict, ctx: Ctx, b: dict, card_id: str, text: str) -> tuple[str | None, Msg | None]:
    raise ValueError(f"{card_id} has no ability with a choice")


def apply_choice(state: dict, ctx: Ctx, b: dict, card_id: str, value: str) -> list[Event]:
    raise ValueError(f"{card_id} has no ability with a choice")
