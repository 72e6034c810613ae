"""Evidence on real plugins: `hermes-plugin-kit check` run on third-party hermes-agent
plugins published on PyPI, each pinned at an exact version, against what hermes' own
plugin manager does with them.

For each plugin in PLUGINS, an environment of its own under ``.cache/evidence/<dist>``
(uv, this machine's Python 3.11, never a downloaded one) gets the plugin, hermes-agent
0.19.0 and the kit from this checkout (editable). Then, with ``HOME`` and the working
directory in a fresh temporary folder:

- ``hermes-plugin-kit check ENTRY_POINT --format json``: the in-memory verdict;
- ``check ENTRY_POINT --real --format json``: hermes' plugin manager loads the installed
  entry point in a process of its own, and ``check`` reports where it disagrees (HPK010)
  or why it could not run (HPK011);
- ``check ENTRY_POINT --probe --format json`` when the plugin registers tools.

Every error is a suspect until someone has read the plugin's code and said why it is real
(REVIEWED, by distribution and rule). An error not reviewed is counted as a possible false
error; one found false is fixed in the kit, not listed here. The table says, per plugin:
its surfaces, the findings by rule and severity, the false errors, and whether
``--real`` agrees with the in-memory verdict.

Not part of ./scripts/test: it needs the package registry (about a minute here with
warm caches). Usage (``scripts/plugin_evidence`` runs it in the project environment):

    python scripts/plugin_evidence.py [--only DIST ...] [--no-install] [--write-docs]
        [--output FILE] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _markers import write_between_markers

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "evidence"
HERMES = "hermes-agent==0.19.0"
KIT = ("kit-core", "kit-lifecycle", "kit-media", "hermes-plugin-kit", "kit-devtools")
INTERPRETER = os.path.realpath(sys.executable)
"""This machine's Python (a virtual environment's resolved to its base): 3.11, as measured."""
DATE = "2026-11-30"
START, END = "<!-- evidence:start -->", "<!-- evidence:end -->"
CHECK_TIMEOUT = 600


@dataclass(frozen=True)
class Plugin:
    dist: str
    version: str
    entry_point: str
    surfaces: str


PLUGINS: tuple[Plugin, ...] = (
    Plugin("camofox-web-search-hermes", "0.0.6", "camofox-web-search", "web-search provider"),
    Plugin("serpapi-hermes-plugin", "1.1.1", "serpapi", "tools, web-search provider"),
    Plugin("hermes-stepfun-imagegen", "0.3.0", "stepfun-imggen", "image-gen providers"),
    Plugin("hermes-minimax-media", "0.3.0", "minimax-vidgen", "video-gen provider, tool"),
    Plugin("hermes-plugin-murf-tts", "1.0.2", "murf-tts", "TTS provider"),
    Plugin("hermes-voicebox", "0.1.0", "voicebox", "TTS and transcription providers, skills"),
    Plugin("hermes-memori", "0.1.8", "memori", "memory provider"),
    Plugin("hermes-vk-community", "1.1.4", "vk-community", "platform adapter, CLI command"),
    Plugin("hermes-band", "0.1.0", "band", "platform adapter, async tools, skills"),
    Plugin("hermes-tweet", "0.1.16", "hermes-tweet", "tools, slash commands, skill"),
    Plugin("hermes-yandex-calendar", "0.6.4", "yandex_calendar", "tools"),
    Plugin("rtk-hermes", "1.2.3", "rtk-rewrite", "slash command; its hook needs the rtk binary"),
    Plugin("noisegate-hermes", "0.3.3", "noisegate", "hooks"),
    Plugin("scythe-hermes-plugin", "0.20.0", "scythe", "skill only"),
    Plugin("hermes-evolve", "1.3.0", "evolve", "slash command"),
)

REVIEWED: dict[tuple[str, str], str] = {
    ("hermes-memori", "HPK007"): "the entry point is `memori_hermes:register`; hermes 0.19.0"
    " calls `ep.load().register` and records 'no register() function' (so does `--real`)",
    ("hermes-memori", "HPK001"): "register() calls `ctx.register_memory_provider`, which"
    " hermes 0.19.0's PluginContext lacks (its memory providers load from plugins/memory"
    " directories, not entry points): an AttributeError once the entry point is fixed",
    ("hermes-evolve", "HPK007"): "the entry point is `hermes_evolve:register`; hermes 0.19.0"
    " records 'no register() function' and never loads the /evolve command (so does"
    " `--real`)",
}
"""(distribution, rule) -> why that error is a real defect, from reading the plugin."""

META_RULES = {"HPK010", "HPK011"}
"""--real's own findings: reported in the --real column, not among the defects."""


@dataclass
class Result:
    plugin: Plugin
    installed: bool = False
    problem: str | None = None
    check: dict[str, Any] = field(default_factory=dict[str, Any])
    real: dict[str, Any] = field(default_factory=dict[str, Any])
    probe: dict[str, Any] | None = None
    seconds: float = 0.0


def uv() -> list[str]:
    """A uv command: the PATH's, the main checkout's, or ``python -m uv``."""
    found = shutil.which("uv")
    if found:
        return [found]
    local = ROOT / ".venv" / "bin" / "uv"
    return [str(local)] if local.is_file() else [sys.executable, "-m", "uv"]


def environment(plugin: Plugin, install: bool) -> tuple[Path, str | None]:
    """The plugin's own environment's python, built when asked; or why it could not be."""
    env = CACHE / plugin.dist
    python = env / "bin" / "python"
    if not install:
        return python, None if python.is_file() else "not installed (run without --no-install)"
    os.environ["UV_PYTHON_DOWNLOADS"] = "never"
    steps = [
        [*uv(), "venv", "--quiet", "--allow-existing", "--python", INTERPRETER, str(env)],
        [
            *uv(),
            "pip",
            "install",
            "--quiet",
            "--python",
            str(python),
            f"{plugin.dist}=={plugin.version}",
            HERMES,
            *(arg for name in KIT for arg in ("-e", str(ROOT / "packages" / name))),
        ],
    ]
    for step in steps:
        run = subprocess.run(step, capture_output=True, text=True, check=False, timeout=1800)
        if run.returncode != 0:
            last = (run.stderr.strip().splitlines() or ["no output"])[-3:]
            return python, "install failed: " + " | ".join(last)
    return python, None


def check(python: Path, plugin: Plugin, *flags: str) -> dict[str, Any]:
    """``hermes-plugin-kit check`` on the entry point, as parsed JSON (or why not)."""
    with tempfile.TemporaryDirectory(prefix="hpk-evidence-") as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith("HERMES_")}
        env.update(HOME=home, PYTHONDONTWRITEBYTECODE="1")
        argv = [str(python), "-m", "kit_devtools", "check", plugin.entry_point, *flags]
        try:
            run = subprocess.run(
                [*argv, "--format", "json"],
                capture_output=True,
                text=True,
                check=False,
                cwd=home,
                env=env,
                timeout=CHECK_TIMEOUT,
            )
        except subprocess.TimeoutExpired:
            return {"status": None, "problem": f"timed out after {CHECK_TIMEOUT} s"}
    start = run.stdout.find("{")
    try:
        data: dict[str, Any] = json.loads(run.stdout[start:]) if start >= 0 else {}
    except ValueError:
        data = {}
    if not data:
        last = (run.stderr.strip().splitlines() or ["no output"])[-1]
        return {"status": run.returncode, "problem": last}
    data["status"] = run.returncode
    return data


def measure(plugin: Plugin, install: bool) -> Result:
    result = Result(plugin)
    began = time.perf_counter()
    python, problem = environment(plugin, install)
    if problem is not None:
        result.problem = problem
        return result
    result.installed = True
    result.check = check(python, plugin)
    result.real = check(python, plugin, "--real")
    if result.check.get("tools"):
        result.probe = check(python, plugin, "--probe")
    result.seconds = time.perf_counter() - began
    return result


def findings(data: dict[str, Any] | None) -> list[dict[str, Any]]:
    return list((data or {}).get("findings", []))


def defects(result: Result) -> list[dict[str, Any]]:
    """What check and --probe found, without --real's own findings, each once."""
    seen: dict[tuple[str, str, str], dict[str, Any]] = {}
    for item in findings(result.check) + findings(result.probe):
        if item["rule"] not in META_RULES:
            seen.setdefault((item["rule"], item["where"], item["message"]), item)
    return list(seen.values())


def by_rule(items: list[dict[str, Any]], severity: str) -> str:
    counted = Counter(f["rule"] for f in items if f["severity"] == severity)
    return ", ".join(f"{r}×{n}" if n > 1 else r for r, n in sorted(counted.items())) or "-"


def false_errors(result: Result) -> list[str]:
    """Errors nobody has shown to be real: each rule once."""
    rules = {f["rule"] for f in defects(result) if f["severity"] == "error"}
    return sorted(r for r in rules if (result.plugin.dist, r) not in REVIEWED)


def real_column(result: Result) -> str:
    if result.real.get("problem"):
        return f"did not run ({result.real['problem']})"
    own = [f for f in findings(result.real) if f["rule"] in META_RULES]
    if not own:
        unloadable = {"HPK001", "HPK002", "HPK003", "HPK007", "HPK008", "HPK009"}
        rules = {f["rule"] for f in findings(result.real) if f["severity"] == "error"}
        if rules & unloadable or not result.real["plugin"]["enabled"]:
            return "agrees: hermes does not load it"
        return "agrees: hermes loads it, same counts"
    return "; ".join(f"{f['rule']}: {f['message']}" for f in own)


def loaded(result: Result) -> str:
    data = result.check
    if data.get("problem"):
        return f"check failed: {data['problem']}"
    parts = [f"{len(data.get(k, []))} {k}" for k in ("tools", "commands", "hooks", "skills")]
    parts += [f"{len(data.get('cli_commands', []))} CLI"]
    provisions = data.get("provisions", {})
    parts += [f"{kind}: {', '.join(names)}" for kind, names in provisions.items()]
    state = "enabled" if data["plugin"]["enabled"] else "not loaded"
    if {"HPK007", "HPK008"} & {f["rule"] for f in findings(data)}:
        state += " (entry point as if fixed)"
    shown = ", ".join(p for p in parts if not p.startswith("0 "))
    return f"{state}; {shown}" if shown else state


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table(results: list[Result]) -> str:
    lines = [
        f"Measured {DATE} with hermes-agent 0.19.0 on Python 3.11, each plugin in an"
        " environment of its own (`scripts/plugin_evidence.py`).",
        "",
        "| plugin (entry point) | surfaces | check: what the model sees, no credentials set"
        " | errors | warnings"
        " | false errors | `--real` |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        p = r.plugin
        name = f"{p.dist}=={p.version} (`{p.entry_point}`)"
        if r.problem:
            lines.append(f"| {name} | {p.surfaces} | {cell(r.problem)} | | | | |")
            continue
        items = defects(r)
        false = false_errors(r)
        row = [
            name,
            p.surfaces,
            loaded(r),
            by_rule(items, "error"),
            by_rule(items, "warning"),
            ", ".join(false) or "none",
            real_column(r),
        ]
        lines.append("| " + " | ".join(cell(c) for c in row) + " |")
    done = [r for r in results if not r.problem]
    agree = sum(1 for r in done if real_column(r).startswith("agrees"))
    false_total = sum(len(false_errors(r)) for r in done)
    lines += [
        "",
        f"{len(done)} of {len(results)} plugins checked; false errors: {false_total};"
        f" `--real` agrees on {agree} of {len(done)}; `--probe` called the tools of"
        f" {sum(1 for r in done if r.probe is not None)} (the only ones whose tools the model"
        " sees without credentials).",
    ]
    reviewed = [(d, r, why) for (d, r), why in sorted(REVIEWED.items())]
    if reviewed:
        lines += ["", "Why each error is real (read in the plugin's code):", ""]
        lines += [f"- {d} {r}: {why}" for d, r, why in reviewed]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--only", nargs="*", default=[], help="distributions to measure")
    parser.add_argument("--no-install", action="store_true", help="reuse the environments")
    parser.add_argument("--write-docs", action="store_true", help="update docs/evidence.md")
    parser.add_argument("--output", type=Path, help="also write the table to this file")
    parser.add_argument("--json", type=Path, help="write the raw results as JSON")
    args = parser.parse_args()
    if sys.version_info[:2] != (3, 11):
        msg = f"run it with Python 3.11 (the figures are for 3.11), not {sys.version.split()[0]}"
        raise SystemExit(msg)
    chosen = [p for p in PLUGINS if not args.only or p.dist in args.only]
    results: list[Result] = []
    for plugin in chosen:
        print(f"== {plugin.dist}=={plugin.version}", file=sys.stderr, flush=True)
        results.append(measure(plugin, install=not args.no_install))
    text = table(results)
    print(text)
    if args.json:
        raw = [
            {"dist": r.plugin.dist, "problem": r.problem, "check": r.check, "real": r.real,
             "probe": r.probe, "seconds": round(r.seconds, 1)}
            for r in results
        ]  # fmt: skip
        args.json.write_text(json.dumps(raw, indent=2, ensure_ascii=False), encoding="utf-8")
    if args.output:
        args.output.write_text(text + "\n", encoding="utf-8")
    if args.write_docs:
        write_between_markers(ROOT / "docs" / "evidence.md", START, END, text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
