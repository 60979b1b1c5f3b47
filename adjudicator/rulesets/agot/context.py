"""What every step module needs besides the state: the game data, the name resolver, the edition's rules
and, for a fan variant (``agot2e-ru``), the game's options switched on and the variant's numbers."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from .edition import Edition, edition, edition_of
from .gamedata import GameData
from .grammar import GameDataNames, parse_mail


@dataclass(frozen=True)
class Ctx:
    gd: GameData
    names: GameDataNames
    rules: Edition
    options: frozenset[str] = frozenset()  # a variant's game options switched on (state["options"])
    params: Any = None  # the variant's numbers (its variant-params.yaml), None without a variant

    def __post_init__(self):
        # Caches of questions a combat asks for every unit and every part of its report (not fields: a context
        # is compared and hashed by what it is made of). ``support.unit_value``: (unit, area, attacking, origin)
        # -> strength; the board's display names, read for every area an event names.
        object.__setattr__(self, "unit_values", {})
        object.__setattr__(self, "_area_names", self.gd.board.display_names)
        object.__setattr__(self, "_support_sources", {})

    def on(self, option: str) -> bool:
        """Whether the game's variant option ``option`` is switched on (never in agot1e or agot2e)."""
        return option in self.options

    def area(self, area_id: str) -> str:
        """Display name of an area, for events."""
        try:
            return self._area_names[area_id]
        except KeyError:
            return self.gd.board.name(area_id)  # (which names the unknown id)

    def support_sources(self, area: str) -> tuple[str, ...]:
        """The neighbours of ``area`` whose support order may ever join a battle there (``board.supports_into``),
        in the order of their display names: the board's part of ``support.supporters``, worked out once."""
        try:
            return self._support_sources[area]
        except KeyError:
            board = self.gd.board
            found = self._support_sources[area] = tuple(sorted((n for n in board.neighbours(area)
                                                                if board.supports_into(n, area)), key=self.area))
            return found

    def card(self, card_id: str) -> str:
        return self.gd.card(card_id).name

    def house(self, house: str) -> str:
        return self.gd.setup.houses[house]

    def command(self, line: str):
        """The command of one canonical line held in a plan (plans store canonical text)."""
        return _stored_command(self.names, line)


@lru_cache(maxsize=4096)
def _stored_command(names: GameDataNames, line: str):
    """Parsed once: a battle reads the same few plan lines at each of its steps, and commands
    are frozen values."""
    parsed = parse_mail(line, names)
    if not parsed.ok or len(parsed.commands) != 1:
        raise ValueError(f"stored instruction does not parse: {line!r}")
    return parsed.commands[0]


@cache
def ctx_for(edition_name: str, data_version: str, houses: tuple[str, ...], options: frozenset[str] = frozenset()) -> Ctx:
    rules = edition(edition_name)
    gd = rules.gamedata(data_version)
    params = rules.variant.load_params(data_version) if rules.variant else None
    return Ctx(gd, GameDataNames(gd, houses, variant=rules.variant is not None), rules, options, params)


_PLAIN: dict[tuple, Ctx] = {}
"""(edition, data version, houses) -> the context of a game without options (agot1e, agot2e): asked at every
step, found with one lookup."""


_LAST_PLAIN: list[tuple] = [(None, None, None, None)]
"""(edition, data version, houses (a copy), context) of the game without options asked last, replaced whole
(a thread reads one consistent tuple): a server's steps come game by game, a battle's five from one game, and
comparing with it builds no key."""


def ctx_of(state: dict) -> Ctx:
    """The context of a game state or of a view of it."""
    chosen = state.get("options")  # (none in agot1e: no set to build at every step)
    if not chosen:
        last = _LAST_PLAIN[0]
        houses = state["houses"]
        if last[2] == houses and last[1] == state["data_version"] and last[0] == state.get("edition"):
            return last[3]
        key = (state.get("edition"), state["data_version"], tuple(houses))
        found = _PLAIN.get(key)
        if found is None:
            found = _PLAIN[key] = ctx_for(edition_of(state).name, key[1], key[2], frozenset())
        _LAST_PLAIN[0] = (key[0], key[1], list(houses), found)
        return found
    options = frozenset(k for k, v in chosen.items() if v == "yes")
    return ctx_for(edition_of(state).name, state["data_version"], tuple(state["houses"]), options)
