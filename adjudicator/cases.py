"""The rules-case runner (``judge case FILE...``): positions, decisions, one correct outcome.

The format is the contract of ``shared/CASES.md``. The runner is game-agnostic: a ruleset
plugs in three hooks next to its ordinary interface:

* ``case_state(position) -> state``: build the position (raise RulesetError if it is illegal);
* ``case_done(start, state, until) -> bool``: has the case reached ``until`` (checked after each step);
* ``case_compare(state, key, expected) -> list[str]``: differences for one ``expect`` key.

The generic keys ``winner``, ``events`` and ``rejected`` are checked here. The runner never
waits: a step whose decisions are missing is adjudicated with the defaults.
"""

from __future__ import annotations

import difflib

import re
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import ruleset as rulesets
from . import yamlio
from .ruleset import RulesetError, UnknownPlayer
from .yamlio import YamlFileError
from .plaindata import clone

MAX_STEPS = 10_000
TITLE_SHOWN = 300  # characters of a title on its PASS/FAIL line (the longest of tests/cases: 180)
REQUIRED = ("ruleset", "title", "position")
SHAPE = {  # key -> type, example (yamlio.check_keys); an empty key is read as absent
    "ruleset": (str, "ruleset: agot1e"),
    "position": (dict, "position: {players: [stark, lannister, baratheon], round: 2}"),
    "decisions": (dict, "decisions: {stark: 'CARD Eddard Stark'}"),
    "until": (str, "until: end of action"),
    "expect": (dict, "expect: {winner: stark}"),
}


@dataclass
class CaseResult:
    path: Path
    title: str
    differences: list[str] = field(default_factory=list)
    error: str | None = None  # the case could not be run at all
    warnings: list[str] = field(default_factory=list)  # said beside the result (stderr), never part of it

    @property
    def passed(self) -> bool:
        return self.error is None and not self.differences

    def report(self) -> str:
        head = f"{'PASS' if self.passed else 'FAIL'} {shown_title(self.title)}"
        details = [self.error] if self.error else self.differences
        return "\n".join([head, *(f"    {d}" for d in details)])


def check_shapes(position: dict, shapes: dict[str, tuple[Any, str]]) -> None:
    """A position's values of the wrong shape named with their key and an example before the
    position is read (a list where a mapping belongs, a word where a list belongs, read letter by
    letter, a number where a name belongs), raising RulesetError. ``shapes``: key -> (shape,
    example); a shape is ``str`` (a text), ``int`` (a whole number, or a text of one), ``bool``,
    ``list[S]``, ``dict[str, S]`` or ``S | T``. A list, a mapping or a flag may be null (none, off);
    a text or a number only where the shape says ``| None``."""
    for key, (shape, example) in shapes.items():
        if key in position:
            check_shape(position[key], shape, key, example)


def check_shape(value: Any, shape: Any, where: str, example: str) -> None:
    """One value of the shape :func:`check_shapes` says, named ``where`` if it is not."""
    if _fits(value, shape):
        origin = typing.get_origin(shape)
        if origin is list and value:
            for i, item in enumerate(value):
                check_shape(item, typing.get_args(shape)[0], f"{where}, item {i + 1}", example)
        elif origin is dict and value:
            for key, item in value.items():
                if not isinstance(key, str):
                    raise RulesetError(f"{where}: the key {key!r} must be a text (example: {example})")
                check_shape(item, typing.get_args(shape)[1], f"{where}.{key}", example)
        elif origin in (typing.Union, types.UnionType):
            for alternative in typing.get_args(shape):
                if _fits(value, alternative):
                    check_shape(value, alternative, where, example)
                    break
        return
    raise RulesetError(f"{where}: expected {_SHAPE_NAMES.get(typing.get_origin(shape) or shape, 'something else')}, "
                       f"found {_found(value)} (example: {example})")


def _fits(value: Any, shape: Any) -> bool:
    origin = typing.get_origin(shape) or shape
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, alternative) for alternative in typing.get_args(shape))
    if value is None:
        return origin in (list, dict, bool, type(None))
    if origin is int:
        return (type(value) is int) or (isinstance(value, str) and re.fullmatch(r"\s*-?\d+\s*", value) is not None)
    return isinstance(value, origin)


_SHAPE_NAMES = {str: "a text", int: "a number", bool: "true or false", list: "a list", dict: "a mapping"}


def _found(value: Any) -> str:
    shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
    return f"a list {shown}" if isinstance(value, list) else f"a mapping {shown}" if isinstance(value, dict) else shown


def shown_title(title: str) -> str:
    """The title as the PASS/FAIL line shows it: one line, at most :data:`TITLE_SHOWN` characters
    and the length of the rest (a case written to hurt, or by mistake, had its whole title printed)."""
    one_line = title.replace("\r", " ").replace("\n", " ")
    if len(title) <= TITLE_SHOWN:
        return one_line
    return f"{one_line[:TITLE_SHOWN].rstrip()}... ({len(title)} characters)"


def diff_values(key: str, expected: Any, actual: Any) -> list[str]:
    """Compare only what ``expected`` lists: mappings key by key, everything else exactly."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{key}: expected {expected!r}, got {actual!r}"]
        out = []
        for k, v in expected.items():
            out.extend(diff_values(f"{key}.{k}", v, actual.get(k)))
        return out
    return [] if expected == actual else [f"{key}: expected {expected!r}, got {actual!r}"]


def run_case(path: Path) -> CaseResult:
    try:
        case = yamlio.load_mapping(path)
    except YamlFileError as exc:
        return CaseResult(path, path.name, error=str(exc))
    missing = [k for k in REQUIRED if k not in case]
    if missing:
        return CaseResult(path, str(case.get("title", path.name)), error=f"{path}: missing key(s) {', '.join(missing)}")
    result = CaseResult(path, str(case["title"]))
    try:
        yamlio.check_keys(path, {k: v for k, v in case.items() if v is not None}, SHAPE)
    except YamlFileError as exc:
        result.error = str(exc)
        return result
    try:
        _run(case, result)
    except (RulesetError, YamlFileError) as exc:
        result.error = f"{path}: {exc}"
    except Exception as exc:  # an engine bug must fail its case with the reason, not stop the run
        result.error = f"{path}: the engine crashed: {type(exc).__name__}: {exc}"
    return result


def _run(case: dict, result: CaseResult) -> None:
    rs = rulesets.get(case["ruleset"])
    for hook in ("case_state", "case_done", "case_compare"):
        if not hasattr(rs, hook):
            raise RulesetError(f"ruleset {rs.name} cannot run rules cases (no {hook})")
    result.warnings += unread_keys(rs, case["position"] or {}, result.path)
    state = rs.case_state(case["position"] or {})
    start = clone(state)
    errors: dict[str, list[str]] = {}
    for player, text in (case.get("decisions") or {}).items():
        try:
            sub = rs.submit(state, str(player), str(text))
        except UnknownPlayer as exc:
            raise RulesetError(f"decisions: no player {exc.player!r} in this case (players: {', '.join(exc.players)})") from None
        errors[str(player)] = [f"line {ln.lineno}: {ln.error}" for ln in sub.parsed.lines if not ln.ok] + [
            str(note) for note in (sub.notes if not sub.applied else [])]  # in English, as cases are written
        if sub.applied:
            state = sub.state
    until = str(case.get("until", "end of step"))
    events = []
    for _ in range(MAX_STEPS):
        if rs.result(state) is not None:
            break
        complete = all(o.done for o in rs.pending(state))
        state, step_events = rs.advance(state, force=not complete)
        events.extend(step_events)
        if rs.case_done(start, state, until):
            break
    else:
        raise RulesetError(f"did not reach {until!r} within {MAX_STEPS} steps")

    for key, expected in (case.get("expect") or {}).items():
        if key == "winner":
            result.differences += diff_values("winner", expected, rs.result(state))
        elif key == "events":
            wanted = _listed("events", expected, "Greyjoy wins the battle at Seagard")
            result.differences += _check_events(wanted, [e.text for e in events if e.to is None])
        elif key == "rejected":
            if not isinstance(expected or {}, dict):
                raise RulesetError(f"'rejected' must be a mapping, found {type(expected).__name__} "
                                   "(example: rejected: {stark: [unknown area]})")
            for player, wanted in (expected or {}).items():
                wanted = _listed(f"rejected.{player}", wanted, "unknown area")
                result.differences += _check_rejected(str(player), wanted, errors.get(str(player), []))
        else:
            result.differences += rs.case_compare(state, key, expected)


def unread_keys(rs, position: Any, path: Path) -> list[str]:
    """A warning for each key of the position that the ruleset does not read (a typo such as ``ordrs``
    would leave the case testing the standard setup's orders): named, with the key meant where one is
    close, and ignored as before, so that a case written with a key of its own still runs unchanged
    (CASES.md: a contract). Rulesets that name their keys (``case_keys``) only."""
    known = getattr(rs, "case_keys", None)
    if known is None or not isinstance(position, dict):
        return []
    out = []
    for key in position:
        if key not in known:
            close = difflib.get_close_matches(str(key), sorted(known), n=1)
            meant = f" (did you mean {close[0]!r}?)" if close else f" (its keys: {', '.join(sorted(known))})"
            out.append(f"{path}: position key {key!r} is not one {rs.name} reads, so it is ignored{meant}")
    return out


def _listed(name: str, value: Any, example: str) -> list:
    """An expectation's substrings: one text where the list belongs is that one substring (iterated,
    it would be checked letter by letter, and pass)."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list):
        raise RulesetError(f"'{name}' must be a list of substrings, found {type(value).__name__} "
                           f"(example: {name.rpartition('.')[2]}: [{example}])")
    return value


def _check_events(wanted: list[str], texts: list[str]) -> list[str]:
    """Each wanted substring must appear in the public log, in order."""
    position = 0
    for want in wanted:
        for i in range(position, len(texts)):
            if want.lower() in texts[i].lower():
                position = i + 1
                break
        else:
            shown = "\n      ".join(texts) or "(no events)"
            return [f"events: no {want!r} (in order) in:\n      {shown}"]
    return []


def _check_rejected(player: str, wanted: list[str], errors: list[str]) -> list[str]:
    if not wanted:
        return [f"rejected.{player}: expected no errors, got {errors}"] if errors else []
    return [f"rejected.{player}: no error mentions {w!r} (errors: {errors or 'none'})"
            for w in wanted if not any(w.lower() in e.lower() for e in errors)]


def run_cases(paths: list[Path]) -> list[CaseResult]:
    """Run every case file given (folders: every ``*.yaml`` below them, sorted)."""
    files: list[Path] = []
    for p in paths:
        files.extend(sorted(p.rglob("*.yaml")) if p.is_dir() else [p])
    return [run_case(f) for f in files]
