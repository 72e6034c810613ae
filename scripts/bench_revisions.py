"""The façade's import-time check that the kit is one version from one revision: its cost.

``hermes_plugin_kit._versions`` is loaded from its file on its own (so importing the
façade does not run the check first) and ``check_versions()`` is timed against this
interpreter's ``sys.path``: the workspace environment, where hermes-agent and its
dependencies fill site-packages as in a plugin's real environment. Rows:

- the first call in a fresh interpreter, with ``json`` already loaded as it is in hermes,
  and without it (the check then loads ``json``, which the kit loads at import anyway);
- the call repeated in one process;
- the full listing of every ``sys.path`` entry that only a missing, shadowed or mixed
  install needs (to word the error).

Figures are medians, in microseconds. ``--compare PATH`` times another copy of
``_versions.py`` (say, an older one from ``git show``) in the same rounds, as a column.

Usage: python scripts/bench_revisions.py [--runs N] [--compare PATH]...
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from collections.abc import Callable
from importlib import metadata
from types import ModuleType

from _bench import batch_ns, machine, median, table

FIRST_CALL = """\
{preload}import importlib.util, sys, time
spec = importlib.util.spec_from_file_location("_kit_versions", {path!r})
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
started = time.perf_counter_ns()
module.check_versions()
print((time.perf_counter_ns() - started) / 1000)
"""


def versions_file() -> str:
    spec = importlib.util.find_spec("hermes_plugin_kit")  # finds it without importing it
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("hermes_plugin_kit is not installed in this environment")
    return os.path.join(next(iter(spec.submodule_search_locations)), "_versions.py")


def load(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("_kit_versions", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def first_call_us(path: str, preload: str) -> float:
    """Microseconds of the first ``check_versions()`` in a fresh interpreter."""
    code = FIRST_CALL.format(preload=preload, path=path)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    return float(out.split()[-1])


def in_process_us(fn: Callable[[], object], batches: int, calls: int = 100) -> float:
    """Median microseconds per call of ``fn()`` over ``batches`` batches."""
    fn()  # a warm-up call

    def call(_: object) -> object:
        return fn()

    return median([batch_ns(call, None, calls) for _ in range(batches)]) / 1000


def measure(paths: list[str], runs: int) -> list[list[float | None]]:
    """Rows of microseconds, one column per ``_versions.py``; fresh interpreters round-robin."""
    modules = [load(path) for path in paths]
    first: dict[tuple[str, str], list[float]] = {}
    for _ in range(runs):  # round-robin, so drift spreads evenly over rows and columns
        for path in paths:
            for preload in ("import json\n", ""):
                first.setdefault((path, preload), []).append(first_call_us(path, preload))
    rows: list[list[float | None]] = [
        [median(first[path, "import json\n"]) for path in paths],
        [median(first[path, ""]) for path in paths],
        [in_process_us(module.check_versions, runs) for module in modules],
        [
            in_process_us(module.find_installs, 21) if hasattr(module, "find_installs") else None
            for module in modules
        ],
    ]
    return rows


LABELS = (
    "first call, fresh interpreter, json loaded (as in hermes)",
    "first call, fresh interpreter, json not loaded",
    "repeated call, one process",
    "error path: list every sys.path entry",
)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=51, help="fresh interpreters per row")
    parser.add_argument(
        "--compare",
        action="append",
        default=[],
        metavar="PATH",
        help="another _versions.py to time in the same rounds (say, from `git show main:...`)",
    )
    options = parser.parse_args(argv)
    paths = [versions_file(), *options.compare]
    rows = measure(paths, options.runs)

    try:
        host = f"hermes-agent {metadata.version('hermes-agent')}"
    except metadata.PackageNotFoundError:
        host = "hermes-agent not installed"
    site = [entry for entry in sys.path if entry.endswith("site-packages")]
    listed = sum(len(os.listdir(entry)) for entry in site)
    print(f"# kit version and revision check ({machine()})")
    print(
        f"# {host}; {len(sys.path)} sys.path entries, {listed} names in site-packages;"
        f" medians of {options.runs} fresh interpreters or batches of 100 calls; µs"
    )
    headers = [
        "check_versions()",
        "this checkout µs",
        *(f"{os.path.basename(p)} µs" for p in options.compare),
    ]
    cells = [
        [label, *("n/a" if us is None else f"{us:.1f}" for us in row)]
        for label, row in zip(LABELS, rows, strict=True)
    ]
    print(table(headers, cells))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
