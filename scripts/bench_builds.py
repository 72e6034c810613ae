"""The import-time check that the kit packages imported are of one build: its cost.

``kit_core._build`` is loaded from its file on its own (so nothing of the kit is imported
first) and ``check(kit_core.__file__)`` is timed in this interpreter's environment: the
workspace's, where each kit package is an editable install of this checkout and hermes-agent
and its dependencies fill site-packages as in a plugin's real environment. The check finds
each sibling as the import system would (``importlib.util.find_spec``, never importing it)
and reads each folder's build once: a ``_build.json`` for a wheel, the layout of a checkout
for an editable install. Rows:

- the first call in a fresh interpreter (what ``import kit_core`` pays);
- the call repeated in one process, each folder's build already read (what it costs again
  is the finding of the siblings).

Figures are medians, in microseconds. ``--compare PATH`` times another copy of
``_build.py`` (say, an older one from ``git show``) in the same rounds, as a column.

Usage: python scripts/bench_builds.py [--runs N] [--compare PATH]...
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from importlib import metadata
from types import ModuleType

from _bench import batch_ns, machine, median, table

FIRST_CALL = """\
import importlib.util, sys, time
spec = importlib.util.spec_from_file_location("_kit_build", {path!r})
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
started = time.perf_counter_ns()
module.check({core!r})
print((time.perf_counter_ns() - started) / 1000)
"""


def core_file() -> str:
    spec = importlib.util.find_spec("kit_core")  # finds it without importing it
    if spec is None or spec.origin is None:
        raise SystemExit("kit_core is not installed in this environment")
    return spec.origin


def load(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("_kit_build", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def first_call_us(path: str, core: str) -> float:
    """Microseconds of the first ``check()`` in a fresh interpreter."""
    code = FIRST_CALL.format(path=path, core=core)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    return float(out.split()[-1])


def repeated_us(module: ModuleType, core: str, batches: int, calls: int = 100) -> float:
    """Median microseconds per call of ``check()`` over ``batches`` batches."""
    module.check(core)  # a warm-up call

    def call(_: object) -> object:
        return module.check(core)

    return median([batch_ns(call, None, calls) for _ in range(batches)]) / 1000


def measure(paths: list[str], core: str, runs: int) -> list[list[float]]:
    """Rows of microseconds, one column per ``_build.py``; fresh interpreters round-robin."""
    first: dict[str, list[float]] = {}
    for _ in range(runs):  # round-robin, so drift spreads evenly over the columns
        for path in paths:
            first.setdefault(path, []).append(first_call_us(path, core))
    return [
        [median(first[path]) for path in paths],
        [repeated_us(load(path), core, runs) for path in paths],
    ]


LABELS = ("first call, fresh interpreter", "repeated call, one process")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=51, help="fresh interpreters per row")
    parser.add_argument(
        "--compare",
        action="append",
        default=[],
        metavar="PATH",
        help="another _build.py to time in the same rounds (say, from `git show main:...`)",
    )
    options = parser.parse_args(argv)
    core = core_file()
    paths = [os.path.join(os.path.dirname(core), "_build.py"), *options.compare]
    rows = measure(paths, core, options.runs)

    try:
        host = f"hermes-agent {metadata.version('hermes-agent')}"
    except metadata.PackageNotFoundError:
        host = "hermes-agent not installed"
    print(f"# kit build check ({machine()})")
    print(
        f"# {host}; {len(sys.path)} sys.path entries; medians of {options.runs} fresh"
        " interpreters or batches of 100 calls; µs"
    )
    headers = [
        "check(kit_core.__file__)",
        "this checkout µs",
        *(f"{os.path.basename(p)} µs" for p in options.compare),
    ]
    cells = [[label, *(f"{us:.1f}" for us in row)] for label, row in zip(LABELS, rows, strict=True)]
    print(table(headers, cells))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
