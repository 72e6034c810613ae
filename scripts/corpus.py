"""The corpus: `hermes-plugin-kit check` against hermes' own loader on third-party plugins
from the package registry, each pinned at an exact version (scripts/corpus.txt).

For each distribution of the list, an environment of its own under
``.cache/corpus/<dist>`` (uv, this machine's Python 3.11, never a downloaded one) gets the
plugin, hermes-agent 0.19.0 and the kit from this checkout (editable). Then, for each of
its entry points (or plugin directories: group ``directory``, the path in site-packages),
with ``HOME``, ``HERMES_HOME`` and the working directory in a fresh temporary folder and
no credentials set:

- ``hermes-plugin-kit check ENTRY_POINT --format json``: the kit's verdict, from the
  in-memory host;
- hermes' own loader, with no kit code: the entry point named in ``plugins.enabled``,
  ``model_tools`` imported as the CLI imports it (plugin discovery runs), then
  ``get_plugin_manager().list_plugins()`` and the names hermes credited the plugin with;
  a directory is first copied into ``$HERMES_HOME/plugins``, and for a memory provider
  hermes' memory discovery gives the provider and its tools.

Verdicts compared:

- **loads**: hermes enables the plugin; the kit agrees when ``check`` reports it enabled
  with no finding that says hermes does not load it (LOAD_RULES). An entry point with a
  defect (HPK007, HPK008) is checked as if fixed, and the finding says hermes does not
  load it;
- **registrations**: when both load it, the tool, hook, middleware and command names
  hermes credited are the ones ``check`` reports.

A plugin agrees when both match. A disagreement is a *false error* (the kit refuses what
hermes loads), a *miss* (the kit passes what hermes refuses) or a *registration*
difference; each is listed with hermes' and the kit's words. Errors ``check`` reports on
a plugin hermes loads (a tool with its arguments outside ``parameters``, say) do not stop
hermes loading it and are not counted against agreement; they are listed by rule, each
rule's severity pinned against the real host by tests/host/test_rule_severity.py.

Not part of ./scripts/test: it needs the package registry (here, with uv's cache warm,
installing the first 79 environments and measuring took about 7 minutes; a rerun on all
97, 95 s with two jobs). Usage
(``scripts/corpus`` runs it in the project environment):

    python scripts/corpus.py [--only DIST ...] [--no-install] [--jobs N] [--write-docs]
        [--json FILE] [--from-json FILE]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _hosts import PACKAGES, ROOT, python311, uv
from _markers import write_between_markers

LIST = ROOT / "scripts" / "corpus.txt"
CACHE = ROOT / ".cache" / "corpus"
HERMES = "hermes-agent==0.19.0"
START, END = "<!-- corpus:start -->", "<!-- corpus:end -->"
TIMEOUT = 600
LOAD_RULES = frozenset(
    {"HPK001", "HPK002", "HPK003", "HPK007", "HPK008", "HPK009", "HPK019", "HPK601", "HPK603"}
)
"""``check``'s findings that say hermes does not load the plugin (or, for a memory
provider, that its memory discovery gets no provider)."""
COMPARED = ("tools", "hooks", "middleware", "commands")

LOADER = """
import json, os, shutil, sys
from pathlib import Path
name, directory = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else None)
if directory:  # installed as an operator installs one: $HERMES_HOME/plugins/<folder>
    shutil.copytree(directory, Path(os.environ["HERMES_HOME"]) / "plugins" / Path(directory).name)
import model_tools  # as the CLI imports hermes: discovery loads the enabled plugins
from hermes_cli.plugins import get_plugin_manager
manager = get_plugin_manager()
found = [p for p in manager.list_plugins() if name in (p["key"], p["name"])]
names = {}
if found:
    loaded = manager._plugins.get(found[0]["key"])  # the names behind list_plugins' counts
    for field in ("tools", "hooks", "middleware", "commands"):
        names[field] = sorted(set(getattr(loaded, field + "_registered", []) or []))
memory = None
from plugins.memory import _is_memory_provider_dir
if directory and _is_memory_provider_dir(Path(directory)):  # memory.provider: <folder>
    from plugins.memory import load_memory_provider
    from agent.memory_manager import MemoryManager
    provider = load_memory_provider(Path(directory).name)
    if provider is not None:
        keeper = MemoryManager()
        keeper.add_provider(provider)
        memory = {"name": provider.name,
                  "tools": sorted(s.get("name") for s in keeper.get_all_tool_schemas())}
    else:
        memory = {"name": None, "tools": []}
print("HPK-CORPUS " + json.dumps({"listed": found[0] if found else None, "names": names,
                                  "memory": memory}))
"""
"""hermes' own verdict, no kit code involved (``_plugins`` gives the names behind the
public ``list_plugins()`` counts). For a plugin directory (an operator copies it into
``$HERMES_HOME/plugins``) hermes re-kinds as a memory provider, also hermes' memory
discovery: ``load_memory_provider(<folder>)`` and the tools its memory manager offers."""
DIRECTORY = "directory"
"""The group column of a plugin directory: its entry-point column is its path in the
distribution's ``site-packages``."""


@dataclass(frozen=True)
class Entry:
    dist: str
    version: str
    entry_point: str
    group: str
    kind: str
    also: str = ""


@dataclass
class Result:
    entry: Entry
    problem: str | None = None
    check: dict[str, Any] = field(default_factory=dict[str, Any])
    hermes: dict[str, Any] = field(default_factory=dict[str, Any])
    seconds: float = 0.0


def read_list(path: Path = LIST) -> list[Entry]:
    entries: list[Entry] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split("#", 1)[0].split()
        if not parts:
            continue
        dist, version, entry_point, group, kind, *rest = parts
        also = rest[0].removeprefix("also:") if rest else ""
        entries.append(Entry(dist, version, entry_point, group, kind, also))
    return entries


def environment(dist: str, version: str, install: bool) -> tuple[Path, str | None]:
    """The distribution's own environment's python, built when asked; or why not."""
    env = CACHE / dist
    python = env / "bin" / "python"
    if not install:
        return python, None if python.is_file() else "not installed (run without --no-install)"
    clean = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    clean["UV_PYTHON_DOWNLOADS"] = "never"
    steps = [
        [*uv(), "venv", "--quiet", "--allow-existing", "--python", python311(), str(env)],
        [*uv(), "pip", "install", "--quiet", "--python", str(python), f"{dist}=={version}",
         HERMES, *(arg for name in PACKAGES for arg in ("-e", str(ROOT / "packages" / name)))],
    ]  # fmt: skip
    for step in steps:
        run = subprocess.run(
            step, capture_output=True, text=True, check=False, timeout=1800, env=clean
        )
        if run.returncode != 0:
            last = (run.stderr.strip().splitlines() or ["no output"])[-3:]
            return python, "install failed: " + " | ".join(last)
    return python, None


def plugin_name(directory: Path) -> str:
    """The name hermes keys a plugin directory by: plugin.yaml's ``name``, else the folder."""
    try:
        data = yaml.safe_load((directory / "plugin.yaml").read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        data = None
    name = data.get("name") if isinstance(data, dict) else None
    return name if isinstance(name, str) and name else directory.name


def run_isolated(
    argv: list[str], marker: str | None = None, enable: str | None = None, timeout: int = TIMEOUT
) -> tuple[dict[str, Any], str]:
    """Run ``argv`` in a fresh home whose config enables the plugin ``enable``, with no
    credentials and killed after ``timeout`` seconds; its JSON (after ``marker``, or the
    first ``{``), or why there is none."""
    with tempfile.TemporaryDirectory(prefix="hpk-corpus-") as home:
        config = {"plugins": {"enabled": [enable]}} if enable else {}
        Path(home, "config.yaml").write_text(json.dumps(config), encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("HERMES_", "VIRTUAL_"))}
        env.update(HOME=home, HERMES_HOME=home, PYTHONDONTWRITEBYTECODE="1")
        try:
            run = subprocess.run(
                argv, capture_output=True, text=True, check=False, cwd=home, env=env,
                timeout=timeout,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            return {}, f"timed out after {timeout} s"
    text = run.stdout
    if marker is not None:
        lines = [line for line in text.splitlines() if line.startswith(marker)]
        text = lines[-1].removeprefix(marker) if lines else ""
    start = text.find("{")
    try:
        data: dict[str, Any] = json.loads(text[start:]) if start >= 0 else {}
    except ValueError:
        data = {}
    if not data:
        return {}, (run.stderr.strip().splitlines() or ["no output"])[-1]
    return data, ""


def site_packages(python: Path) -> Path:
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    run = subprocess.run([str(python), "-c", code], capture_output=True, text=True, check=True)
    return Path(run.stdout.strip())


def measure(entry: Entry, python: Path) -> Result:
    result = Result(entry)
    began = time.perf_counter()
    target, hermes = entry.entry_point, [entry.entry_point]
    if entry.group == DIRECTORY:
        directory = site_packages(python) / entry.entry_point
        target, hermes = str(directory), [plugin_name(directory), str(directory)]
    kit = [str(python), "-m", "kit_devtools", "check", target, "--format", "json"]
    result.check, problem = run_isolated(kit)
    if problem:
        result.problem = f"check: {problem}"
    loader = [str(python), "-c", LOADER, *hermes]
    result.hermes, problem = run_isolated(loader, "HPK-CORPUS ", enable=hermes[0])
    if problem:
        result.problem = f"hermes' loader: {problem}"
    result.seconds = time.perf_counter() - began
    return result


def errors(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in data.get("findings", []) if f["severity"] == "error"]


def kit_loads(result: Result) -> bool:
    data = result.check
    memory = data.get("memory_provider")  # what hermes' memory discovery would load
    loads = memory["loaded_by"] is not None if memory else data["plugin"]["enabled"]
    return bool(loads) and not any(f["rule"] in LOAD_RULES for f in errors(data))


def hermes_loads(result: Result) -> bool:
    memory = result.hermes.get("memory")
    if memory is not None:
        return memory["name"] is not None
    listed = result.hermes.get("listed")
    return bool(listed and listed["enabled"])


def kit_names(result: Result) -> dict[str, list[str]]:
    data = result.check
    return {
        "tools": sorted(data.get("registered_tools", [])),
        "hooks": sorted(data.get("hooks", [])),
        "middleware": sorted(data.get("middleware", [])),
        "commands": sorted(c["name"] for c in data.get("commands", [])),
    }


def registration_differences(result: Result) -> list[str]:
    memory = result.hermes.get("memory")
    if memory is not None:  # a memory provider: its name and the tools it offers
        mine = result.check.get("memory_provider", {})
        tools = sorted(t["function"]["name"] for t in mine.get("tools", []))
        return [
            f"{what}: hermes {theirs!r}, check {ours!r}"
            for what, theirs, ours in (("provider", memory["name"], mine.get("name")),
                                       ("memory tools", memory["tools"], tools))
            if theirs != ours
        ]  # fmt: skip
    mine, theirs = kit_names(result), result.hermes.get("names", {})
    return [
        f"{what}: hermes {theirs.get(what, [])}, check {mine[what]}"
        for what in COMPARED
        if sorted(set(theirs.get(what, []))) != sorted(set(mine[what]))
    ]


SITE_PACKAGES = re.compile(r"/\S*?/site-packages/")


def short(text: str, limit: int = 160) -> str:
    """``text`` without the environments' paths, cut to ``limit`` characters."""
    text = SITE_PACKAGES.sub("", text)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def verdict(result: Result) -> tuple[str, str]:
    """(agrees | false error | miss | registrations | not measured, the words)."""
    if result.problem:
        return "not measured", result.problem
    listed = result.hermes.get("listed")
    memory = result.hermes.get("memory")
    if memory is not None:
        hermes = ("' memory discovery loads the provider" if hermes_loads(result)
                  else "' memory discovery gets no provider")  # fmt: skip
    else:
        hermes = " loads it" if hermes_loads(result) else (
            f" does not load it: {short(str(listed['error']))}" if listed
            else " never discovers it"
        )  # fmt: skip
    said = "; ".join(f"{f['rule']}: {short(f['message'])}" for f in errors(result.check)
                     if f["rule"] in LOAD_RULES)  # fmt: skip
    if kit_loads(result) != hermes_loads(result):
        if hermes_loads(result):
            return "false error", f"hermes{hermes}; check: {said}"
        return "miss", f"hermes{hermes}; check passes it"
    if hermes_loads(result):
        differences = registration_differences(result)
        if differences:
            return "registrations", "; ".join(differences)
        if memory is not None:
            return "agrees", "both load the provider, same name and tools"
        return "agrees", "both load it, same registrations"
    return "agrees", f"hermes{hermes}; check: {said or 'not loaded'}"


def same_reason(result: Result) -> bool:
    """When neither loads it: whether check says why in hermes' own words (hermes' error
    appears in a finding), or hermes never discovered it and check says so (HPK008)."""
    listed = result.hermes.get("listed")
    found = result.check.get("findings", [])
    if result.hermes.get("memory") is not None:  # memory discovery gets no provider
        return any(f["rule"] == "HPK601" for f in found)
    if not listed:
        return any(f["rule"] == "HPK008" for f in found)
    error = str(listed.get("error") or "")
    return bool(error) and any(error in f["message"] for f in found)


def other_errors(result: Result) -> list[str]:
    """Errors on a plugin hermes loads: things hermes breaks after loading it."""
    if result.problem or not hermes_loads(result):
        return []
    return sorted({f["rule"] for f in errors(result.check) if f["rule"] not in LOAD_RULES})


def registered(result: Result) -> str:
    memory = result.check.get("memory_provider")
    if memory is not None and memory["name"]:
        return f"memory provider {memory['name']}, {len(memory['tools'])} tools"
    names = kit_names(result)
    parts = [f"{len(v)} {k}" for k, v in names.items() if v]
    provisions = result.check.get("provisions", {})
    parts += [f"{kind}: {', '.join(found)}" for kind, found in provisions.items()]
    return ", ".join(parts) or "nothing"


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def table(results: list[Result], date: str) -> str:
    kinds = Counter(r.entry.kind for r in results)
    directories = sum(1 for r in results if r.entry.group == DIRECTORY)
    lines = [
        f"Measured {date} with hermes-agent 0.19.0 on Python 3.11, {len(results) - directories}"
        f" entry points and {directories} plugin directories of"
        f" {len({r.entry.dist for r in results})} distributions, each distribution in an"
        " environment of its own (`scripts/corpus.py`, list in `scripts/corpus.txt`). Kinds: "
        + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))
        + ".",
        "",
        "| plugin (entry point, group) | kind | check reports | verdict | why | other errors |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        e = r.entry
        group = "" if e.group == "hermes_agent.plugins" else f", group `{e.group}`"
        name = f"{e.dist}=={e.version} (`{e.entry_point}`{group})"
        kind = e.kind + (f" (also {e.also.replace(',', ', ')})" if e.also else "")
        if r.problem:
            lines.append(f"| {name} | {kind} | | not measured | {cell(r.problem)} | |")
            continue
        state = "loads" if kit_loads(r) else "not loaded"
        said, why = verdict(r)
        row = [
            name,
            kind,
            f"{state}: {registered(r)}",
            said,
            why,
            ", ".join(other_errors(r)) or "-",
        ]
        lines.append("| " + " | ".join(cell(c) for c in row) + " |")
    measured = [r for r in results if not r.problem]
    tally = Counter(verdict(r)[0] for r in measured)
    agree = tally["agrees"]
    share = 100.0 * agree / len(measured) if measured else 0.0
    refused = [r for r in measured if verdict(r)[0] == "agrees" and not hermes_loads(r)]
    lines += [
        "",
        f"Agreement: {agree} of {len(measured)} plugins measured ({share:.1f}%);"
        f" false errors: {tally['false error']}; misses: {tally['miss']}; registrations"
        f" differ: {tally['registrations']}; not measured: {len(results) - len(measured)}."
        f" hermes loads {sum(1 for r in measured if hermes_loads(r))} of them. Of the"
        f" {len(refused)} both refuse, check gives hermes' own reason (its error in a"
        f" finding, or HPK008 for an entry point hermes never discovers) for"
        f" {sum(1 for r in refused if same_reason(r))}.",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--only", nargs="*", default=[], help="distributions to measure")
    parser.add_argument("--no-install", action="store_true", help="reuse the environments")
    parser.add_argument("--jobs", type=int, default=2, help="distributions at a time")
    parser.add_argument("--write-docs", action="store_true", help="update docs/evidence.md")
    parser.add_argument("--json", type=Path, help="write the raw results as JSON")
    parser.add_argument(
        "--from-json", type=Path, help="print (and --write-docs) the table of an earlier --json"
    )
    args = parser.parse_args()
    if args.from_json:
        raw = json.loads(args.from_json.read_text(encoding="utf-8"))
        earlier = [Result(Entry(**r["entry"]), r["problem"], r["check"], r["hermes"],
                          r["seconds"]) for r in raw]  # fmt: skip
        date = time.strftime("%Y-%m-%d", time.localtime(args.from_json.stat().st_mtime))
        return report(earlier, date, args.write_docs)
    if sys.version_info[:2] != (3, 11):
        msg = f"run it with Python 3.11 (the figures are for 3.11), not {sys.version.split()[0]}"
        raise SystemExit(msg)
    entries = [e for e in read_list() if not args.only or e.dist in args.only]
    by_dist: dict[tuple[str, str], list[Entry]] = {}
    for entry in entries:
        by_dist.setdefault((entry.dist, entry.version), []).append(entry)

    def one(key: tuple[str, str]) -> list[Result]:
        python, problem = environment(*key, install=not args.no_install)
        print(f"== {key[0]}=={key[1]}: {problem or 'ready'}", file=sys.stderr, flush=True)
        if problem is not None:
            return [Result(e, problem=problem) for e in by_dist[key]]
        return [measure(e, python) for e in by_dist[key]]

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        done = dict(zip(by_dist, pool.map(one, by_dist), strict=True))
    results = [r for key in by_dist for r in done[key]]
    order = {e: i for i, e in enumerate(entries)}
    results.sort(key=lambda r: order[r.entry])
    if args.json:
        raw = [{"entry": vars(r.entry), "problem": r.problem, "check": r.check,
                "hermes": r.hermes, "verdict": verdict(r), "seconds": round(r.seconds, 1)}
               for r in results]  # fmt: skip
        args.json.write_text(json.dumps(raw, indent=2, ensure_ascii=False), encoding="utf-8")
    return report(results, time.strftime("%Y-%m-%d"), args.write_docs)


def report(results: list[Result], date: str, write_docs: bool) -> int:
    text = table(results, date)
    print(text)
    if write_docs:
        write_between_markers(ROOT / "docs" / "evidence.md", START, END, text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
