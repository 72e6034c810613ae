"""``preflight`` on a hermes that has its own admission tools: run them, report their verdict.

Detected by capability, never by version: ``hermes plugins validate`` is
``hermes_cli.plugin_validate.validate_plugin_dir(Path) -> ValidationReport`` (``to_dict()``
gives ``{"ok", "checks": [{"name", "ok", "detail"}], "warnings"}``), and ``hermes plugins
doctor`` is ``hermes_cli.plugin_dev.doctor_plugin(target) -> DoctorReport`` (``findings``
of ``level``/``message``). They run in one process of their own with an empty temporary
``HERMES_HOME`` (they import the plugin and hermes' registries, which is most of their
time: a second process would import hermes again), each in turn, one answer line each; a
command that raises is that command's answer alone.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Final, cast

from kit_devtools.cli.findings import E, Finding, Rule, W, declare, finding

__all__ = ["TOOLS", "available", "has_module", "upstream_findings"]

declare("preflight", {
    "HPK058": Rule(E, "hermes' own `{command}` fails: {detail}", "{fix}",
                   "the installed hermes' own command, run on the plugin"),
    "HPK059": Rule(W, "hermes' own `{command}` warns: {detail}", "{fix}",
                   "the installed hermes' own command, run on the plugin"),
})  # fmt: skip

TOOLS: Final = {
    "hermes plugins validate": ("hermes_cli.plugin_validate", "validate_plugin_dir"),
    "hermes plugins doctor": ("hermes_cli.plugin_dev", "doctor_plugin"),
}
"""Each upstream command -> (module, function) that implements it."""

_RUN: Final = r"""
import importlib, json, sys, traceback
from pathlib import Path
target, *pairs = sys.argv[1:]
for command, module, function in zip(pairs[::3], pairs[1::3], pairs[2::3]):
    try:
        report = getattr(importlib.import_module(module), function)(Path(target))
        if hasattr(report, "to_dict"):
            data = report.to_dict()
        else:
            found = [{"level": f.level, "message": f.message} for f in report.findings]
            data = {"findings": found}
    except BaseException as exc:
        last = traceback.format_exception_only(type(exc), exc)[-1].strip()
        data = "it raised " + last
    print("HPK-UPSTREAM:" + json.dumps([command, data], default=str), flush=True)
"""
"""Run in the child: ``target`` then (command, module, function) triples; prints one
``HPK-UPSTREAM:[command, report or why it failed]`` line per command."""


def has_module(module: str) -> bool:
    """Whether ``module`` can be imported, without importing it or its package (importing
    ``hermes_cli`` would run hermes' plugin discovery against the current home)."""
    parent, _, leaf = module.rpartition(".")
    try:
        if not parent or parent in sys.modules:
            return importlib.util.find_spec(module) is not None
        spec = importlib.util.find_spec(parent)
    except (ImportError, ValueError):
        return False
    locations = (spec.submodule_search_locations or []) if spec is not None else []
    return any(
        (Path(where) / f"{leaf}.py").is_file() or (Path(where) / leaf / "__init__.py").is_file()
        for where in locations
    )


def available() -> list[str]:
    """The upstream commands the installed hermes has."""
    return [command for command, (module, _) in TOOLS.items() if has_module(module)]


def _run(directory: Path, commands: list[str]) -> dict[str, dict[str, Any] | str]:
    """Each command's report (or why there is none), from one child process."""
    triples = [part for command in commands for part in (command, *TOOLS[command])]
    answers: dict[str, dict[str, Any] | str] = {}
    with tempfile.TemporaryDirectory(prefix="hpk-preflight-") as home:
        env = {**os.environ, "HERMES_HOME": home}
        try:
            done = subprocess.run(
                [sys.executable, "-c", _RUN, str(directory), *triples],
                capture_output=True, text=True, timeout=300, env=env, check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            return dict.fromkeys(commands, "it did not finish within 300 s")
    for line in done.stdout.splitlines():
        if line.startswith("HPK-UPSTREAM:"):
            command, data = json.loads(line.removeprefix("HPK-UPSTREAM:"))
            answers[command] = cast("dict[str, Any] | str", data)
    tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
    missing = f"it exited {done.returncode}: {tail}"
    return {command: answers.get(command, missing) for command in commands}


def upstream_findings(directory: Path, commands: list[str], key: str) -> list[Finding]:
    """Each upstream command's failures and warnings, as findings on plugin ``key``."""
    where = f"plugin {key}"
    fix = "follow hermes' message; `hermes plugins validate --json` shows each check"
    found: list[Finding] = []
    for command, data in _run(directory, commands).items():
        if isinstance(data, str):
            found.append(finding("HPK058", where, command=command, detail=data, fix=fix))
            continue
        for check in cast("list[dict[str, Any]]", data.get("checks", [])):
            if not check.get("ok"):
                detail = f"{check.get('name')}: {check.get('detail')}"
                found.append(finding("HPK058", where, command=command, detail=detail, fix=fix))
        found += [
            finding("HPK059", where, command=command, detail=message, fix=fix)
            for message in cast("list[str]", data.get("warnings", []))
        ]
        for item in cast("list[dict[str, Any]]", data.get("findings", [])):
            rule = "HPK058" if item.get("level") == "error" else "HPK059"
            detail = str(item.get("message"))
            found.append(finding(rule, where, command=command, detail=detail, fix=fix))
    return found
