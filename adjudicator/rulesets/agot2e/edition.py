"""The 2nd edition as the shared AGoT engine sees it: its data's shape, its setup rule and its house-card abilities.

The data is ``games/agot2e/vN`` (58 areas with 8 ports, 6 houses, siege engines, 42 house cards,
the 2nd-edition Westeros decks, 9 wildling cards, 24 Tides of Battle cards); RULES.md next to this
module is the rules digest the engine implements (R…, decisions B1-B37).
"""

from __future__ import annotations

from ..agot.edition import Edition, OrderRules, register
from ..agot.gamedata import Shape
from . import cards, wildlings

SHAPE = Shape(
    edition="agot2e",
    land_areas=38, sea_areas=12, port_areas=8,  # RULES.md R2.1
    houses=6, cards_per_house=7,
    units=("footman", "knight", "ship", "siege_engine"),  # R2.2
    tiebreaks=("castles", "land_areas", "supply", "iron_throne"),  # R9.2 (FAQ2)
    max_card_strength=4,  # Eddard Stark, Tywin Lannister ...
    wildling_cards=9,
    tides_of_battle=24,
)
DATA_VERSION = "v1"

EDITION = register(Edition(name="agot2e", shape=SHAPE, data_version=DATA_VERSION,
                           cards=cards, wildlings=wildlings,
                           orders=OrderRules(star_raid_targets=1, star_raid_defense=True, pillage_loss=1,  # R8.1, B17
                                             consolidate_per_crown=True, consolidate_on_water=True,  # R8.4, B19
                                             neutral_is_the_attack=True, orders_everywhere=True,  # R7.3, R5.1 and B8
                                             consolidate_musters=True),  # R8.4
                           absent_units_neutral=False))  # R3.2


def load_gamedata(version: str = DATA_VERSION):
    """agot2e's game data of ``version`` (``games/agot2e/<version>``)."""
    return EDITION.gamedata(version)
