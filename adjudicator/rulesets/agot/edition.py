"""An AGoT edition: what the shared engine asks of the 1st or the 2nd edition.

The engine in this package is the game both editions share (map graph, orders, raids, marches,
battles, bidding tracks, supply, mustering, the step machine, the mail grammar, views, bots,
invariants). An edition package (``rulesets/agot1e``, ``rulesets/agot2e``) is a thin layer: its data
(``games/<edition>/vN``, checked against its :class:`~.gamedata.Shape`) and the rules that differ,
handed to the engine as this one object (``ctx.rules``) instead of ``if edition == ...`` tests:

* ``cards``: the house cards' abilities, a module with the names :mod:`.battle` and :mod:`.aftermath`
  read (``ATTACK_UNIT_BONUS`` ... ``ALL_ABILITIES``, ``choice_options``, ``parse_choice``,
  ``apply_choice``; ``BY_TIMING``: 2e resolves them by printed timing and asks every card's choice,
  with ``CHOICE_STAGE``, ``ability_order``, ``check_form``, ``default_choice``);
* ``wildlings``: what follows the bids of a wildling attack, a module with ``after_attack`` (1e: the
  shared fixed losses and reclaim of :mod:`.bidding`; 2e: its wildling cards);
* ``orders``: how the orders differ (:class:`OrderRules`);
* ``absent_units_neutral``: whether an absent house's start units stay on the board as neutral
  forces (1e, CZ p.13) or nothing of it is placed (2e, RULES.md R3.2);
* ``variant``: a fan variant's game options, numbers and victory (``agot2e-ru``:
  ``rulesets/agot2e_ru/variant.py`` with ``OPTIONS``, ``load_params``, ``held_castles``, ``end_game``;
  the engine asks ``ctx.on(option)``), None for the published editions.

A game state names its edition in ``state["edition"]``; states written before the split (agot1e's
games on disk) have no such key and are agot1e's (:func:`edition_of`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from .gamedata import GameData, Shape, load_gamedata

FIRST_EDITION = "agot1e"
"""The edition of a state without ``edition``: every AGoT game stored before the editions split."""

EDITIONS = (FIRST_EDITION, "agot2e", "agot2e-ru")
"""Every edition, the first first: what a line read without a game may name (``lines.py``)."""


@dataclass(frozen=True)
class OrderRules:
    """How the editions' orders differ (1e: CZ p.7, p.12, RULES.md A6; 2e: agot2e RULES.md R7.3, R8.1, R8.4, B19)."""

    star_raid_targets: int  # orders a starred raid removes: 1e two, 2e one
    star_raid_defense: bool  # a starred raid may remove a Defense order (2e)
    pillage_loss: int  # Power the owner of a raided Consolidate Power order discards (2e: 1)
    consolidate_per_crown: bool  # 2e: 1 Power + 1 per crown; 1e: + 1 if the area has a crown (V7)
    consolidate_on_water: bool  # 2e: on a port (1 Power without enemy ships in its sea) or a sea (nothing)
    neutral_is_the_attack: bool  # 2e: a march into a neutral force is its one attack (1e A6: it is not)
    orders_everywhere: bool  # 2e: an order in every area with units while a token fits (R5.1, B8; 1e A2: optional)
    consolidate_musters: bool = False  # 2e: a starred Consolidate Power may muster in its castle area (R8.4)


@dataclass(frozen=True)
class Edition:
    name: str  # the ruleset name and the directory under games/
    shape: Shape
    data_version: str  # the data version new games are created with
    cards: ModuleType
    wildlings: ModuleType
    orders: OrderRules
    absent_units_neutral: bool
    variant: ModuleType | None = None

    def gamedata(self, version: str | None = None) -> GameData:
        return load_gamedata(self.shape, version or self.data_version)


_EDITIONS: dict[str, Edition] = {}


def register(edition: Edition) -> Edition:
    """Called by each edition package's ``edition`` module on import."""
    _EDITIONS[edition.name] = edition
    return edition


def edition(name: str) -> Edition:
    """The edition ``name`` (its package's ``edition`` module is imported on first use)."""
    if name not in _EDITIONS:  # a package name has no hyphen: agot2e-ru is rulesets/agot2e_ru
        importlib.import_module(f"adjudicator.rulesets.{name.replace('-', '_')}.edition")
    return _EDITIONS[name]


def edition_of(state: dict) -> Edition:
    """The edition of a game state or of a view of it."""
    return edition(state.get("edition", FIRST_EDITION))


def every() -> list[Edition]:
    """Every edition, the first edition first (for lines read without a game): the same list
    whatever was imported before, so that a line reads the same in every process."""
    return [edition(name) for name in EDITIONS]
