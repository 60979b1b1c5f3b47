"""Safe, fast YAML in and out, and atomic file writes.

One way to read and write YAML in the whole project:

* only the safe loader, through LibYAML when PyYAML was built with it (``yaml.safe_load``
  never uses LibYAML and is about ten times slower);
* ``allow_unicode`` so that Czech text stays readable in the files;
* every failure becomes :class:`YamlFileError`, which names the file and, where YAML says it,
  the line: a GM sees ``states/000004.yaml line 12: ...`` instead of a traceback.

:func:`atomic_write` is the only way files are written: temp file in the same directory,
fsync, rename over the target, fsync of the directory. A crash at any moment leaves either the
old file or the new one, never a torn one. Temp files start with ``.tmp-`` and readers ignore
them.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import yaml

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
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
    """Parse YAML text safely; errors name ``source`` and the line."""
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "not valid YAML"
        raise YamlFileError(source, problem, line) from None
    except yaml.YAMLError as exc:  # e.g. a reader error on a NUL byte or bad encoding
        raise YamlFileError(source, str(exc).splitlines()[0] if str(exc) else "not valid YAML") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise YamlFileError(source, f"not readable text ({exc.__class__.__name__})") from None


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


def dumps(data: Any) -> str:
    """Serialise to block-style YAML with unicode kept readable and key order preserved."""
    return yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, default_flow_style=False)


def atomic_write(path: os.PathLike | str, data: bytes | str, *, fsync: bool = True) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never a mix."""
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if fsync:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    if fsync:
        fsync_dir(path.parent)


def fsync_dir(directory: os.PathLike | str) -> None:
    """Make a rename or a new file in ``directory`` durable."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def dump(path: os.PathLike | str, data: Any, *, fsync: bool = True) -> None:
    """Atomically write ``data`` as YAML to ``path``."""
    atomic_write(path, dumps(data), fsync=fsync)
