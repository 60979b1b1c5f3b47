"""Benchmark of the game store: versions written and read back per second for a ~20 KB state.

Run: ``python bench/store.py [--count N]``. Prints one line per mode (with and without fsync);
the README quotes its figures. A benchmark, not a test: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from adjudicator import yamlio
from adjudicator.store import Store


def sample_state(target_bytes: int = 20_000) -> dict:
    """A state shaped like a game's: areas with units and orders, tracks, hands, a log."""
    areas = {}
    i = 0
    while len(yamlio.dumps({"areas": areas})) < target_bytes:
        areas[f"area-{i:03d}"] = {"house": ["stark", "lannister", "tyrell"][i % 3], "units": ["footman", "knight"][: 1 + i % 2],
                                  "order": {"kind": "march", "bonus": i % 3 - 1, "star": i % 5 == 0}, "power": i % 2 == 0}
        i += 1
    return {"round": 4, "tracks": {"iron_throne": ["stark", "lannister", "tyrell"]}, "areas": areas}


def run(count: int, fsync: bool) -> tuple[float, float, int]:
    state = sample_state()
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp), fsync=fsync)
        files = store.create("bench", {"game": "bench", "ruleset": "none"}, {"journal_seq": 0, "state": state})
        started = time.perf_counter()
        for n in range(count):
            files.write_version({"journal_seq": n, "state": state})
        written = time.perf_counter() - started
        started = time.perf_counter()
        for n in files.version_numbers()[-count:]:
            files.read_version(n)
        read = time.perf_counter() - started
        size = files.version_path(2).stat().st_size
    return count / written, count / read, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300)
    args = parser.parse_args()
    for fsync in (True, False):
        w, r, size = run(args.count, fsync)
        print(f"store, {size / 1000:.1f} KB state, fsync {'on ' if fsync else 'off'}: "
              f"{w:7.0f} versions written/s, {r:7.0f} read back/s (LibYAML: {yamlio._Loader is not __import__('yaml').SafeLoader})")


if __name__ == "__main__":
    main()
