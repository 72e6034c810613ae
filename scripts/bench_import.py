"""Import cost: each import in a fresh interpreter, as milliseconds added over a bare one.

Every statement runs in its own ``python -c`` process, round-robin so drift spreads
evenly; the process times the statement itself (``time.perf_counter`` around it, the
``time`` module being built in), which is what it adds to a bare interpreter without
the noise of starting one. Figures are medians. Bytecode
is cached in a private prefix (one warm-up run each), as it is once a plugin has been
loaded once: an environment that never writes ``.pyc`` files (``PYTHONDONTWRITEBYTECODE``)
compiles every kit module from source at every start instead, which costs more.

The targets: the façade adds at most 5 ms over ``kit_core`` in a bare
interpreter, and ``import hermes_plugin_kit`` takes at most 5 ms in a process that has
already imported hermes' plugin host (``hermes_cli.plugins`` and ``tools.registry``, what
every process that loads plugins has; ``HERMES_HOME`` points at an empty directory).

Usage: python scripts/bench_import.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from importlib.util import find_spec

from _bench import machine, median, table

KIT = ("kit_core", "kit_lifecycle", "kit_media", "hermes_plugin_kit")
TARGET_MS = 5.0
HERMES = "import hermes_cli.plugins, tools.registry\n_t = time.perf_counter()\n"
"""The plugin host already imported; the timer restarts after it."""
PROBE = (
    "import sys; before = set(sys.modules); import hermes_plugin_kit;"
    " print(' '.join(sorted(m for m in set(sys.modules) - before"
    " if m.split('.')[0] not in {'kit_core', 'kit_lifecycle', 'kit_media', 'hermes_plugin_kit'}"
    " and not m.startswith('_') and '.' not in m)))"
)


def stdlib_needed() -> str:
    """The top-level standard-library modules importing the façade loads."""
    names = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True
    ).stdout.split()
    return "import " + ", ".join(names)


def import_ms(statement: str, env: Mapping[str, str]) -> float:
    """Milliseconds ``statement`` takes in a fresh interpreter."""
    timed = (
        "import time; _t = time.perf_counter()\n"
        f"{statement}\n"
        "print((time.perf_counter() - _t) * 1000)"
    )
    out = subprocess.run(
        [sys.executable, "-c", timed], env=dict(env), capture_output=True, text=True, check=True
    )
    return float(out.stdout.split()[-1])


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    options = parser.parse_args(argv)
    try:
        import pydantic  # noqa: F401  # pyright: ignore[reportUnusedImport]

        has_pydantic = True
    except ImportError:
        has_pydantic = False

    stdlib = stdlib_needed()
    bare_facade = "import hermes_plugin_kit (kit_core + the façade)"
    over_core = "import hermes_plugin_kit, kit_core already imported (what the façade adds)"
    in_hermes = "import hermes_plugin_kit, hermes' plugin host already imported"
    statements = {
        "the standard-library modules the façade loads": stdlib,
        "import kit_core": "import kit_core",
        "import kit_lifecycle": "import kit_lifecycle",
        "import kit_media": "import kit_media",
        bare_facade: "import hermes_plugin_kit",
        over_core: "import kit_core\n_t = time.perf_counter()\nimport hermes_plugin_kit",
        "import hermes_plugin_kit, then use every name (all three packages)": (
            "from hermes_plugin_kit import *"
        ),
        "façade, its stdlib modules already loaded": (
            f"{stdlib}\n_t = time.perf_counter()\nimport hermes_plugin_kit"
        ),
    }
    has_hermes = find_spec("hermes_cli") is not None
    if has_hermes:
        statements["import kit_core, hermes' plugin host already imported"] = (
            f"{HERMES}import kit_core"
        )
        statements[in_hermes] = f"{HERMES}import hermes_plugin_kit"
    if has_pydantic:
        statements["import pydantic"] = "import pydantic"

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with (
        tempfile.TemporaryDirectory(prefix="hpk-bench-pyc-") as cache,
        tempfile.TemporaryDirectory(prefix="hpk-bench-home-") as home,
    ):
        env["PYTHONPYCACHEPREFIX"] = cache
        env["HERMES_HOME"] = home
        for statement in statements.values():
            import_ms(statement, env)  # writes the bytecode the measured runs read
        samples: dict[str, list[float]] = {label: [] for label in statements}
        for _ in range(options.runs):
            for label, statement in statements.items():
                samples[label].append(import_ms(statement, env))

    ms = {label: median(values) for label, values in samples.items()}
    rows = [[label, f"{value:+.1f}"] for label, value in ms.items()]
    print(f"# import cost ({machine()})")
    print(
        f"# median of {options.runs} fresh interpreters each, round-robin, .pyc cached;"
        " ms added over a bare interpreter"
    )
    print(table(["import", "added ms"], rows))
    print(f"# stdlib modules loaded: {stdlib.removeprefix('import ')}")
    # measured in one process (kit_core imported first, untimed): the difference of two
    # fresh-interpreter medians of ~30 ms would drown a 1 ms figure in their noise
    print(verdict("the façade over kit_core, bare interpreter", ms[over_core], ""))
    if has_hermes:
        core = ms["import kit_core, hermes' plugin host already imported"]
        modules, kib = kit_core_bytecode()
        limit = (
            f"kit_core itself, {core:.1f} ms of it: {modules} modules, {kib} KiB of bytecode to"
            " load and their functions, classes and enum to create, which a plugin's first"
            f" @tool needs anyway; the façade and its revision check add {ms[over_core]:.1f} ms"
        )
        print(verdict("import hermes_plugin_kit in a process with hermes", ms[in_hermes], limit))
    return 0


def kit_core_bytecode() -> tuple[int, int]:
    """How many modules importing ``hermes_plugin_kit`` loads from the kit, and the size of
    their bytecode."""
    probe = (
        "import sys, marshal; import hermes_plugin_kit;"
        " kit = [m for n, m in sys.modules.items() if n.split('.')[0] in"
        " ('kit_core', 'hermes_plugin_kit')];"
        " print(len(kit), sum(len(marshal.dumps(compile(open(m.__file__).read(), m.__file__,"
        " 'exec'))) for m in kit) // 1024)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    modules, kib = out.stdout.split()
    return int(modules), int(kib)


def verdict(what: str, value: float, limit: str) -> str:
    met = "met" if value <= TARGET_MS else f"not met, limited by {limit}" if limit else "not met"
    return f"# target: {what}: {value:+.1f} ms (at most {TARGET_MS:.0f} ms: {met})"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
