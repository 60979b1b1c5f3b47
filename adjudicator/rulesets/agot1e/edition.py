"""The 1st edition as the shared AGoT engine sees it: its data's shape and its house-card abilities."""

from __future__ import annotations

from ..agot import bidding
from ..agot.edition import Edition, OrderRules, register
from ..agot.gamedata import Shape
from . import cards

SHAPE = Shape(
    edition="agot1e",
    land_areas=34, sea_areas=11,  # CZ components
    houses=5, cards_per_house=7,
    units=("footman", "knight", "ship"),
    tiebreaks=("castles", "supply", "power"),
    max_card_strength=3,  # CZ p.10: printed strength 0 to 3
)
DATA_VERSION = "v1"  # the version new games are created with

EDITION = register(Edition(name="agot1e", shape=SHAPE, data_version=DATA_VERSION, cards=cards,
                           wildlings=bidding,  # the fixed wildling losses and the reclaim (CZ p.13)
                           orders=OrderRules(star_raid_targets=2, star_raid_defense=False, pillage_loss=0,
                                             consolidate_per_crown=False, consolidate_on_water=False,
                                             neutral_is_the_attack=False, orders_everywhere=False),
                           absent_units_neutral=True))  # CZ p.13


def load_gamedata(version: str = DATA_VERSION):
    """agot1e's game data of ``version`` (``games/agot1e/<version>``)."""
    return EDITION.gamedata(version)
