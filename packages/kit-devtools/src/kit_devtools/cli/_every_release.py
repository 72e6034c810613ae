"""``preflight --every-release``: the admission rules and ``check`` on each real release the
manifest's ``requires_hermes`` admits.

A catalogue entry claims every release its ``requires_hermes`` admits; a hook or a
``PluginContext`` member one of them lacks is found only by loading the plugin there. For
each supported release the spec admits (all of them without one), preflight runs
``hermes-plugin-kit preflight DIR --json`` and ``hermes-plugin-kit check DIR --format json``
with that release's interpreter: its cached environment (``cache_root()/<release>``, the
one ``--hermes`` and ``--scan-with`` use), made with uv when missing. Each run is the
command itself, so plugin code stays in its isolated child. A finding that some releases
give and the installed one does not is reported with the releases it holds on; a release
that could not run is a warning naming why (HPK068). The installed release is the
report's own run.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from kit_core.hermes import installed_release, plain_version, registry_releases
from kit_devtools.cli.findings import Finding, Rule, Severity, W, declare, finding
from kit_devtools.testing._requires_hermes import version_satisfies

__all__ = ["Across", "across_releases", "claimed"]

declare("preflight", {
    "HPK068": Rule(W, "preflight and check could not run on a release requires_hermes"
                   " admits: {why}", "make its environment (check DIR --hermes RELEASE makes"
                   " it), or narrow requires_hermes to the releases the plugin supports",
                   "the catalogue entry claims every release its requires_hermes admits"
                   " (plugin-catalog/README.md); this one was not checked"),
})  # fmt: skip

TIMEOUT: Final = 600


@dataclass
class Across:
    """What each release said: its counts, or why it could not run; and the findings of
    the releases the installed one does not give."""

    runs: dict[str, dict[str, Any]] = field(default_factory=dict[str, dict[str, Any]])
    findings: list[Finding] = field(default_factory=list[Finding])


def claimed(spec: str) -> list[str]:
    """The supported releases ``spec`` admits, oldest first (all of them for ``""``)."""
    return [
        r.version for r in registry_releases() if not spec or version_satisfies(spec, r.version)
    ]


def _interpreter(version: str) -> Path | str:
    """The interpreter of ``version``'s cached environment (made when missing), or why
    there is none."""
    from kit_devtools.testing._host_envs import HostEnvironmentError, cache_root, environment

    cached = cache_root() / version / "bin" / "python"
    if cached.exists():
        return cached
    try:
        return environment(version)
    except HostEnvironmentError as exc:
        return f"its environment could not be made: {str(exc).splitlines()[0]}"


def _run(python: Path, args: list[str]) -> subprocess.CompletedProcess[str] | str:
    # without HPK_ISOLATED, the command isolates the plugin again in that release (its own
    # temporary home, no network), as it does when an author runs it
    env = {k: v for k, v in os.environ.items() if k != "HPK_ISOLATED"}
    try:
        return subprocess.run(
            [str(python), *args], capture_output=True, text=True, timeout=TIMEOUT,
            check=False, env=env,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{type(exc).__name__}: {exc}"


def _report(python: Path, command: list[str]) -> dict[str, Any] | str:
    """The JSON report of one command in that environment, or why there is none."""
    done = _run(python, ["-m", "kit_devtools", *command])
    if isinstance(done, str):
        return done
    try:
        found: dict[str, Any] = json.loads(done.stdout)
    except ValueError:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return f"{command[0]} gave no report (exit {done.returncode}): {tail}"
    return found


def _release_of(python: Path) -> str | None:
    from kit_devtools.cli._scan import DISTRIBUTIONS, RELEASE_OF

    code = RELEASE_OF + "import sys\nprint(release_of(sys.argv[1:]) or '')\n"
    done = _run(python, ["-c", code, *DISTRIBUTIONS])
    if isinstance(done, str) or not done.stdout.strip():
        return None
    return done.stdout.strip().splitlines()[-1]


def _one(directory: Path, version: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The findings of preflight and check on ``version``, and its entry of the report."""
    python = _interpreter(version)
    if isinstance(python, str):
        return [], {"problem": python}
    installed = _release_of(python)
    if installed is None or plain_version(installed) != version:
        return [], {"problem": f"its environment holds hermes {installed or 'nothing'}"}
    found: list[dict[str, Any]] = []
    run: dict[str, Any] = {"release": installed}
    for label, command in (
        ("preflight", ["preflight", str(directory), "--json"]),
        ("check", ["check", str(directory), "--format", "json"]),
    ):
        report = _report(python, command)
        if isinstance(report, str):
            return [], {"problem": report}
        findings: list[dict[str, Any]] = report.get("findings") or []
        run[label] = {"errors": sum(f["severity"] == "error" for f in findings),
                      "warnings": sum(f["severity"] == "warning" for f in findings)}  # fmt: skip
        found += findings
    return found, run


def across_releases(
    directory: Path,
    spec: str,
    known: list[Finding],
    one: Callable[[Path, str], tuple[list[dict[str, Any]], dict[str, Any]]] = _one,
) -> Across:
    """Preflight and check on each release ``spec`` admits; ``known``: the findings of the
    installed release, which are not repeated."""
    seen = {(f.rule, f.where, f.message) for f in known}
    result = Across()
    holds: dict[tuple[str, str, str], list[str]] = {}
    first: dict[tuple[str, str, str], dict[str, Any]] = {}
    here = installed_release()
    for version in claimed(spec):
        if here is not None and here.version == version:
            result.runs[version] = {"installed": True}  # the report's own run
            continue
        found, run = one(directory, version)
        result.runs[version] = run
        if "problem" in run:
            result.findings.append(finding("HPK068", f"hermes {version}", why=run["problem"]))
            continue
        for item in found:
            key = (item["rule"], item["where"], item["message"])
            if key not in seen and version not in holds.setdefault(key, []):
                holds[key].append(version)
                first.setdefault(key, item)
    for key, versions in holds.items():
        item = first[key]
        where = f"{item['where']} (hermes {', '.join(versions)})"
        severity = Severity(item["severity"])
        result.findings.append(Finding(item["rule"], severity, where, item["message"], item["fix"]))
    return result
