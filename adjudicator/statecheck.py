"""What is wrong in a version's state edited by hand, told by the shape of a new game's state.

A state is plain data whose shape each ruleset alone knows, and writing a schema per ruleset would
repeat every engine. But a new game of the same ruleset, players and options holds, at most places
a later state has, a value of the same kind: ``round: 1`` where a hand wrote ``round: one``. So when
the judge fails on a loaded version (``Judge.diagnose``), the version's state is compared with a new
game's, kind by kind, and the first place that differs is named with the new game's value as the
example; so is a key of the top level that is missing (bot games show that no engine removes one). Only where both hold a value (null in either says nothing: a battle not yet fought, a
winner not yet known), into the keys both have, and into lists and mappings whose values in the new
game are all of one kind (the houses' supply, the units of an area). Run only when something failed:
a healthy game never pays for it, and a false alarm can only name a suspect, never refuse a game.
"""

from __future__ import annotations

from typing import Any

_KINDS = ((bool, "true or false"), ((int, float), "a number"), (str, "a text"), (list, "a list"), (dict, "a mapping"))


def _kind(value: Any) -> str | None:
    for types, name in _KINDS:
        if isinstance(value, types):
            return name
    return None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def first_slip(state: Any, example: Any) -> str | None:
    """The first place where ``state`` holds a value of another kind than ``example`` (a new game's
    state) holds there, as ``state.round: expected a number, found 'one' (a new game has round: 1)``,
    or lacks a key of its top level (no engine removes one); None when none is found."""
    if isinstance(state, dict) and isinstance(example, dict):
        for key, value in example.items():
            if key not in state:
                return f"state: the key {key!r} is missing (a new game has {key}: {_shown(value)})"
    return _first_slip(state, example, "state")


def _first_slip(state: Any, example: Any, where: str) -> str | None:
    if state is None or example is None:
        return None
    kind = _kind(example)
    if _kind(state) != kind:
        name = where.rsplit(".", 1)[-1]
        return f"{where}: expected {kind}, found {_shown(state)} (a new game has {name}: {_shown(example)})"
    if isinstance(example, dict):
        like = _one_kind(list(example.values()))
        for key, value in state.items():
            slip = _first_slip(value, example[key] if key in example else like, f"{where}.{key}")
            if slip:
                return slip
    elif isinstance(example, list):
        like = _one_kind(example)
        for i, value in enumerate(state):
            slip = _first_slip(value, like, f"{where}[{i}]")
            if slip:
                return slip
    return None


def _one_kind(values: list) -> Any:
    """The first of ``values`` if all are of one kind (and are not containers of different keys), else None."""
    if not values or values[0] is None:
        return None
    kind = _kind(values[0])
    if any(_kind(v) != kind for v in values):
        return None
    if kind == "a mapping" and any(v.keys() != values[0].keys() for v in values):
        return None  # records of different shapes: no one stands for the others
    return values[0]
