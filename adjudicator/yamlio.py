"""Safe, fast YAML in and out, and atomic file writes.

One way to read and write YAML in the whole project:

* only the safe loader, through LibYAML when PyYAML was built with it (``yaml.safe_load``
  never uses LibYAML and is about ten times slower);
* ``allow_unicode`` so that Czech text stays readable in the files;
* a key written twice in one mapping is refused (:class:`_Loader`), in every file read: game.yaml
  and the GM's other hand edits, rules cases, game data, catalogues;
* every failure becomes :class:`YamlFileError`, which names the file and, where YAML says it,
  the line: a GM sees ``states/000004.yaml line 12: ...`` instead of a traceback.

:func:`atomic_write` is the only way files are written: temp file in the same directory,
fsync, rename over the target, fsync of the directory. A crash at any moment leaves either the
old file or the new one, never a torn one. Temp files are named ``.tmp-<pid>-<random>``; readers
ignore them, and :func:`remove_stale_temp` removes those a killed process left behind (one may
hold a raw mail with its sign-on password).
"""

from __future__ import annotations

import json
import itertools
import os
import re
import time
from pathlib import Path

from .crashpoints import crashpoint
from typing import Any

import yaml

_MERGE = "tag:yaml.org,2002:merge"


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """The safe loader (LibYAML's parser when there is one) that refuses a key written twice in
    one mapping: YAML forbids it, PyYAML keeps the last silently, and a GM who adds a second
    ``ruleset:`` to game.yaml, or a case writer a second ``round:``, would be overruled unseen.
    What the judge writes itself never repeats a key (it writes dicts); a merge key's values
    (``<<: *base``) may be overridden, as YAML says."""

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            first: dict = {}
            for key_node, value_node in node.value:
                if key_node.tag == _MERGE:
                    continue
                key = self.construct_object(key_node)
                try:
                    seen = first.setdefault(key, key_node)
                except TypeError:
                    continue  # an unhashable key: the constructor names it
                if seen is not key_node:
                    example = value_node.value if isinstance(value_node, yaml.ScalarNode) else "..."
                    raise yaml.constructor.ConstructorError(
                        None, None, f"duplicate key {key!r} (first on line {seen.start_mark.line + 1}): write each key "
                                    f"once (example: {key}: {example})", key_node.start_mark)
        return super().construct_mapping(node, deep)


_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

TMP_PREFIX = ".tmp-"


class YamlFileError(Exception):
    """A YAML file that cannot be read or does not have the expected shape."""

    def __init__(self, path: os.PathLike | str, problem: str, line: int | None = None):
        self.path = Path(path)
        self.problem = problem
        self.line = line
        where = f"{self.path}" + (f" line {line}" if line else "")
        super().__init__(f"{where}: {problem}")


def loads(text: str | bytes, source: os.PathLike | str = "<text>") -> Any:
    """Parse YAML text safely; errors name ``source`` and the line. What :func:`dump_text` wrote
    is read by :func:`_read_own` (about five times faster than LibYAML's parser with PyYAML's
    constructor); anything else, or anything it is unsure of, by PyYAML."""
    own = _read_own(text)
    if own is not _NOT_OURS:
        return own
    try:
        data = yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "not valid YAML"
        raise YamlFileError(source, problem, line) from None
    except yaml.YAMLError as exc:  # e.g. a reader error on a NUL byte or bad encoding
        raise YamlFileError(source, str(exc).splitlines()[0] if str(exc) else "not valid YAML") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise YamlFileError(source, f"not readable text ({exc.__class__.__name__})") from None
    if ("&" if isinstance(text, str) else b"&") in text:  # an alias needs an anchor (&name)
        _check_aliases(data, source)
    return data


MAX_ALIASED = 1_000_000  # items reached again through aliases


def _check_aliases(data: Any, source: os.PathLike | str) -> None:
    """Refuse an alias bomb ("billion laughs": a few hundred bytes whose aliases stand for 9**10
    items): the loader shares what an alias names, but whatever walks or prints the data (a
    rules case's players, a message) would not finish. Counts the items met again through
    aliases, and stops at :data:`MAX_ALIASED`."""
    seen: set[int] = set()
    again = 0
    stack = [data]
    while stack:
        node = stack.pop()
        if not isinstance(node, (dict, list)):
            continue
        if id(node) in seen:
            again += len(node)
            if again > MAX_ALIASED:
                raise YamlFileError(source, f"its aliases (*name) stand for more than {MAX_ALIASED} items; "
                                            "write the data out (example: players: [stark, lannister])")
        seen.add(id(node))
        stack.extend(node.values() if isinstance(node, dict) else node)


def load(path: os.PathLike | str) -> Any:
    """Read one YAML file. Missing, unreadable or malformed files raise YamlFileError."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise YamlFileError(path, exc.strerror or str(exc)) from None
    return loads(data, path)


def load_mapping(path: os.PathLike | str, *, format_version: int | None = None) -> dict:
    """Read a YAML file whose top level must be a mapping (optionally with ``format: N``)."""
    data = load(path)
    if not isinstance(data, dict):
        raise YamlFileError(path, f"expected a mapping at the top level, found {type(data).__name__}")
    if format_version is not None:
        found = data.get("format")
        if found != format_version:
            raise YamlFileError(path, f"unsupported format {found!r} (this judge reads format {format_version})")
    return data


def check_keys(path: os.PathLike | str, data: dict, shape: dict[str, tuple[type, str]]) -> None:
    """A file edited by hand with a key of the wrong type is named with an example here, not met
    later as a traceback in whatever reads it first. ``shape``: key -> (type, example)."""
    for key, (kind, example) in shape.items():
        if key in data and not isinstance(data[key], kind):
            raise YamlFileError(path, f"'{key}' must be a {_KINDS[kind]}, found {type(data[key]).__name__} "
                                      f"(example: {example})")


_KINDS = {str: "text", dict: "mapping", list: "list"}


def whole_number(path: os.PathLike | str, where: str, value: Any, low: int | None = 0) -> int:
    """``value``, a whole number (not a boolean) of at least ``low`` (None: any), read from the file
    ``path`` at ``where`` (``game.players.min``); anything else is named there."""
    if not isinstance(value, int) or isinstance(value, bool) or (low is not None and value < low):
        raise YamlFileError(path, f"{where}: expected a whole number{'' if low is None else f' >= {low}'}, found {value!r}")
    return value


def dumps(data: Any) -> str:
    """Serialise to block-style YAML with unicode kept readable and key order preserved."""
    return yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, default_flow_style=False)


def dump_text(data: Any) -> str:
    """YAML of a file the judge writes: block style like :func:`dumps`, every string that is not
    a plain word double-quoted (JSON's escapes, which YAML reads), written by a small emitter
    about ten times faster than PyYAML's representer (a game's versions, journal entries and
    bookkeeping are written on every mail and every step). Anything it does not know (floats,
    dates, keys that are not short strings or integers) goes to :func:`dumps`. What it writes
    reads back equal (``tests/test_yamlio.py`` checks it against PyYAML's loader)."""
    if not isinstance(data, dict) or not data:
        return dumps(data)
    out: list[str] = []
    try:
        _emit_mapping(data, "", out)
    except _Unsupported:
        return dumps(data)
    return "".join(out)


class _Unsupported(Exception):
    pass


_PLAIN = re.compile(r"[A-Za-z0-9_/(][A-Za-z0-9 _./()+,=@$-]*")  # no ": ", " #", quotes, leading indicators
_UNPRINTABLE = re.compile("[\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")
_RESOLVERS = yaml.resolver.Resolver.yaml_implicit_resolvers


_STRINGS: dict[str, str] = {}
"""Strings already written, as written: a game's files repeat the same area, unit and player
names thousands of times, and a dict lookup is a tenth of the checks below."""
_STRINGS_AT_MOST = 50_000


def _scalar(value) -> str:
    if type(value) is str:
        text = _STRINGS.get(value)
        if text is None:
            text = _string(value)
            if len(value) <= 200:
                if len(_STRINGS) >= _STRINGS_AT_MOST:
                    _STRINGS.clear()
                _STRINGS[value] = text
        return text
    return _other_scalar(value)


def _other_scalar(value) -> str:
    if isinstance(value, str):
        return _string(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value) is int:
        return str(value)
    raise _Unsupported


def _string(value: str) -> str:
    if _PLAIN.fullmatch(value) and value[-1] != " " and not any(
            regexp.match(value) for _, regexp in _RESOLVERS.get(value[0], ())):
        return value  # reads back as this string, not a number, bool, null or date
    text = json.dumps(value, ensure_ascii=False)
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) if _UNPRINTABLE.search(text) else text


def _key(key) -> str:
    if (type(key) is int) or (isinstance(key, str) and 0 < len(key) <= 100):
        return _scalar(key)
    raise _Unsupported


def _emit_mapping(data: dict, indent: str, out: list[str], first: str | None = None) -> None:
    """``first``: the prefix of the first line instead of ``indent`` (an item of a sequence)."""
    for key, value in data.items():
        out.append(indent if first is None else first)
        first = None
        out.append(_key(key))
        if isinstance(value, dict):
            if value:
                out.append(":\n")
                _emit_mapping(value, indent + "  ", out)
            else:
                out.append(": {}\n")
        elif isinstance(value, list):
            if value:
                out.append(":\n")
                _emit_sequence(value, indent, out)
            else:
                out.append(": []\n")
        else:
            out.append(": ")
            out.append(_scalar(value))
            out.append("\n")


def _emit_sequence(data: list, indent: str, out: list[str], first: str | None = None) -> None:
    for item in data:
        dash = (indent if first is None else first) + "- "
        first = None
        if isinstance(item, dict) and item:
            _emit_mapping(item, indent + "  ", out, first=dash)
        elif isinstance(item, list) and item:
            _emit_sequence(item, indent + "  ", out, first=dash)
        else:
            out.append(dash)
            out.append("{}" if isinstance(item, dict) else "[]" if isinstance(item, list) else _scalar(item))
            out.append("\n")


_NOT_OURS = object()
_INT = re.compile(r"-?(?:0|[1-9][0-9]*)")
_WORDS = {"null": None, "true": True, "false": False}
_JSON = json.JSONDecoder()


class _Other(Exception):
    """Not in :func:`dump_text`'s subset: PyYAML reads it."""


def _read_own(text: str | bytes) -> Any:
    """The value of ``text`` if it is in the subset :func:`dump_text` writes (a block mapping
    of block mappings and sequences, two spaces a level; plain words that no YAML resolver
    claims, integers, ``null``/``true``/``false``, JSON-quoted strings, ``{}`` and ``[]``),
    exactly as PyYAML reads it; else :data:`_NOT_OURS`. Strict: a line it does not expect
    (comments, other indents, flow or multi-line scalars, anchors, tags, other quotes, duplicate
    keys) sends the whole text to PyYAML."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        lines = text.split("\n")
        if len(lines) < 2 or lines.pop() != "":
            return _NOT_OURS
        value, end = _own_mapping(lines, 0, 0)
        return value if end == len(lines) else _NOT_OURS
    except (_Other, UnicodeDecodeError, ValueError, IndexError):
        return _NOT_OURS


_SCALARS_READ: dict[str, Any] = {}
"""Plain scalars already read (their values are immutable: words, integers, null, booleans)."""


def _own_scalar(text: str) -> Any:
    value = _SCALARS_READ.get(text, _NOT_OURS)
    if value is not _NOT_OURS:
        return value
    if text == "{}":
        return {}
    if text == "[]":
        return []
    value = _own_new_scalar(text)
    if text[:1] != '"' and len(text) <= 200:
        if len(_SCALARS_READ) >= _STRINGS_AT_MOST:
            _SCALARS_READ.clear()
        _SCALARS_READ[text] = value
    return value


def _own_new_scalar(text: str) -> Any:
    if text[:1] == '"':
        if "\\u" in text and re.search(r"\\u[dD][89a-fA-F]", text):
            raise _Other  # a surrogate escape: JSON would pair two, YAML does not
        value, end = _JSON.raw_decode(text)
        if end != len(text):
            raise _Other
        return value
    if text in _WORDS:
        return _WORDS[text]
    if _INT.fullmatch(text):
        return int(text)
    if _PLAIN.fullmatch(text) and text[-1] != " " and not any(
            regexp.match(text) for _, regexp in _RESOLVERS.get(text[0], ())):
        return text
    raise _Other


def _own_key(content: str) -> tuple[Any, str] | None:
    """``content``'s key and what follows its colon, or None when it is not a key line."""
    if content[:1] == '"':
        key, end = _JSON.raw_decode(content)
        if content[end:end + 1] != ":":
            return None
        if "\\u" in content[:end] and re.search(r"\\u[dD][89a-fA-F]", content[:end]):
            raise _Other
        return key, content[end + 1:]
    colon = content.find(":")
    if colon <= 0:
        return None
    key = _own_scalar(content[:colon])
    if isinstance(key, (dict, list)) or key is None or isinstance(key, bool):
        raise _Other
    return key, content[colon + 1:]


def _own_mapping(lines: list[str], pos: int, indent: int) -> tuple[dict, int]:
    out: dict = {}
    pad = " " * indent
    while pos < len(lines):
        line = lines[pos]
        if not line.startswith(pad):
            break
        content = line[indent:]
        if content[:1] == " " or content[:2] == "- ":
            raise _Other
        split = _own_key(content)
        if split is None:
            raise _Other
        key, rest = split
        if key in out:
            raise _Other
        if rest:
            if rest[0] != " ":
                raise _Other
            out[key] = _own_scalar(rest[1:])
            pos += 1
            continue
        pos += 1  # "key:" with the value below: a sequence at this indent or a mapping two deeper
        below = lines[pos] if pos < len(lines) else ""
        if below.startswith(pad + "- "):
            out[key], pos = _own_sequence(lines, pos, indent)
        elif below.startswith(pad + "  ") and below[indent + 2:indent + 3] not in (" ", "") \
                and below[indent + 2:indent + 4] != "- ":
            out[key], pos = _own_mapping(lines, pos, indent + 2)
        else:
            raise _Other  # a null written as nothing, or another indent
    if pos < len(lines) and indent == 0:
        raise _Other
    return out, pos


def _own_sequence(lines: list[str], pos: int, indent: int) -> tuple[list, int]:
    out: list = []
    dash = " " * indent + "- "
    inner = " " * (indent + 2)
    while pos < len(lines) and lines[pos].startswith(dash):
        rest = lines[pos][indent + 2:]
        if rest[:2] == "- ":
            lines[pos] = inner + rest  # "- - x": a sequence as this item, two deeper
            value, pos = _own_sequence(lines, pos, indent + 2)
        elif (rest[:1] == '"' or ":" in rest) and _own_key(rest) is not None:
            lines[pos] = inner + rest  # "- key: ...": a mapping as this item, two deeper
            value, pos = _own_mapping(lines, pos, indent + 2)
        else:
            value = _own_scalar(rest)
            pos += 1
        out.append(value)
    return out, pos


def atomic_write(path: os.PathLike | str, data: bytes | str, *, fsync: bool = True) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never a mix."""
    path = os.fspath(path)
    directory, name = os.path.split(path)
    directory = directory or "."
    if isinstance(data, str):
        data = data.encode("utf-8")
    crashpoint(f"before writing {name}")
    fd, tmp = _temp_file(directory)
    try:
        try:
            view = memoryview(data)
            while view:  # (os.write may write less than asked: a full disk, a signal)
                view = view[os.write(fd, view):]
            if fsync:
                os.fsync(fd)
        finally:
            os.close(fd)
        crashpoint(f"before renaming over {name}")
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    if fsync:
        fsync_dir(directory)
    crashpoint(f"after writing {name}")


_serial = itertools.count()


def _temp_file(directory: os.PathLike | str) -> tuple[int, str]:
    """A new temp file in ``directory`` (mode 0600), named ``.tmp-<pid>-<serial>``: unique in this
    process (the serial; ``next`` of a count is atomic under the GIL), and ``O_EXCL`` against the
    leftover of a dead process that had the same pid. (``tempfile.mkstemp`` draws random names
    with a lock: a fair part of writing a small file.)"""
    while True:
        name = f"{directory}/{temp_prefix()}{next(_serial)}"
        try:
            return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), name
        except FileExistsError:
            continue


def temp_prefix() -> str:
    """``.tmp-<pid>-``: whose temp file it is, so that a dead writer's leftovers can be told apart."""
    return f"{TMP_PREFIX}{os.getpid()}-"


def remove_stale_temp(directory: os.PathLike | str) -> list[str]:
    """Remove the temp files in ``directory`` whose writing process is gone (a crash); return their names.

    A temp file of a live process (a concurrent writer) is left alone; so is one whose name does
    not carry a process id, unless it is over an hour old (no write takes that long).
    """
    removed = []
    try:
        names = [n for n in os.listdir(directory) if n.startswith(TMP_PREFIX)]
    except (FileNotFoundError, NotADirectoryError):
        return removed
    for name in names:
        path = Path(directory) / name
        pid_text = name[len(TMP_PREFIX):].split("-", 1)[0]
        try:
            if pid_text.isdigit():
                if _alive(int(pid_text)):
                    continue
            elif time.time() - path.stat().st_mtime < 3600:
                continue
            path.unlink()
            removed.append(name)
        except FileNotFoundError:
            continue
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's live process
    return True


def fsync_dir(directory: os.PathLike | str) -> None:
    """Make a rename or a new file in ``directory`` durable."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def dump(path: os.PathLike | str, data: Any, *, fsync: bool = True) -> None:
    """Atomically write ``data`` as YAML to ``path`` (:func:`dump_text`)."""
    atomic_write(path, dump_text(data), fsync=fsync)
