"""The provider contract suites on the corpus' providers: every memory provider, context
engine, TTS, transcription and model provider of scripts/corpus.txt driven by
``kit_devtools.testing.contracts.check_provider`` on the in-memory host and on the real
hermes-agent 0.19.0 of its distribution's environment (``corpus.py``'s, under
``.cache/corpus/<dist>``), and the two verdicts compared.

Each provider runs on each host in a child process of its own, in a fresh ``HOME`` /
``HERMES_HOME`` with no credentials, killed after ``TIMEOUT`` seconds (the environment,
the isolation and the timeout are ``corpus.py``'s: ``environment``, ``run_isolated``).
What each suite is pointed at is what hermes 0.19.0 reaches the provider through:

- a memory-provider directory (group ``directory``): the directory, as memory discovery
  loads it from ``$HERMES_HOME/plugins/<folder>``;
- a memory provider or model provider behind an entry point: hermes 0.19.0 reaches
  neither through an entry point (its memory discovery and ``providers/`` discovery read
  directories only), so the suite gets the entry point's package folder, as an operator
  who copies it into ``$HERMES_HOME/plugins`` installs it;
- a context engine, TTS or transcription provider: the entry point itself, which hermes'
  plugin manager loads by name.

A violation is *confirmed* when real hermes reports the same member and rule. Most
providers need credentials or a service: an ``is_available()`` that is not True stops a
suite after the static parts (the abstract members, ``name``; the catalog members of a
speech provider), reported as "not driven past is_available".
Usage (in the project environment, as ``scripts/corpus`` runs ``corpus.py``):

    python scripts/corpus_contracts.py [--only DIST ...] [--no-install] [--jobs N]
        [--write-docs] [--json FILE] [--from-json FILE]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _hosts import ROOT
from _markers import write_between_markers
from corpus import (
    DIRECTORY,
    Entry,
    cell,
    environment,
    read_list,
    run_isolated,
    short,
    site_packages,
)

KINDS: Final = ("memory-provider", "context-engine", "tts", "transcription", "model-provider")
BY_FOLDER: Final = frozenset({"memory-provider", "model-provider"})
"""Kinds hermes 0.19.0 reaches through a directory only."""
TIMEOUT: Final = 240
START, END = "<!-- contracts:start -->", "<!-- contracts:end -->"
UNAVAILABLE: Final = frozenset({
    "must return True where the provider can work",  # the memory suite's
    "must be True where the suite runs",  # the TTS and transcription suites'
})  # fmt: skip
"""The rules of an ``is_available()`` that is not True: the provider was not driven on."""
MARKER: Final = "HPK-CONTRACTS "

CHILD: Final = """
import importlib.metadata, importlib.util, json, sys, time
from pathlib import Path
kind, group, target, by_folder = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
host = None if sys.argv[5] == "memory" else sys.argv[5]
if group != "directory" and by_folder:  # the entry point's package folder
    found = [e for e in importlib.metadata.entry_points(group=group) if e.name == target]
    top = found[0].value.split(":")[0].split(".")[0] if found else ""
    spec = importlib.util.find_spec(top) if top else None
    places = list(spec.submodule_search_locations or []) if spec else []
    target = places[0] if places else target
from kit_devtools.testing.contracts import check_provider
from kit_devtools.testing.real import RealHost
def report(host):
    began = time.perf_counter()
    try:
        if host is None:
            found = check_provider(target, kind=kind)
        elif kind == "memory-provider":
            found = check_provider(target, kind=kind, host="installed")
        else:
            with RealHost() as real:
                found = check_provider(target, kind=kind, host=real)
    except BaseException as exc:
        return {"error": f"{type(exc).__name__}: {exc}"[:600],
                "seconds": time.perf_counter() - began}
    return {"host": found.host, "checked": found.checked, "absent": found.absent,
            "violations": [{"member": v.member, "rule": v.rule, "detail": v.detail[:400]}
                           for v in found.violations],
            "seconds": time.perf_counter() - began}
print("HPK-CONTRACTS " + json.dumps({"target": target, **report(host)}))
"""
"""The child: the suite of ``kind`` on ``target`` on one host (``memory``, or the
installed hermes), what the suite raised kept as its ``error``."""


@dataclass
class Run:
    entry: Entry
    kind: str
    problem: str | None = None
    found: dict[str, Any] = field(default_factory=dict[str, Any])
    seconds: float = 0.0


def provider_kinds(entry: Entry) -> list[str]:
    """The kinds of provider ``entry`` gives, in KINDS' order."""
    kinds = {entry.kind, *filter(None, entry.also.split(","))}
    return [k for k in KINDS if k in kinds]


def drive(entry: Entry, kind: str, python: Path) -> Run:
    run = Run(entry, kind)
    began = time.perf_counter()
    target = entry.entry_point
    if entry.group == DIRECTORY:
        target = str(site_packages(python) / entry.entry_point)
        by_folder = "1"
    else:
        by_folder = "1" if kind in BY_FOLDER else "0"
    for host, side in (("memory", "memory"), ("installed", "real")):
        argv = [str(python), "-c", CHILD, kind, entry.group, target, by_folder, host]
        found, problem = run_isolated(argv, MARKER, timeout=TIMEOUT)
        run.found["target"] = found.pop("target", target)
        run.found[side] = (
            {"error": problem, "timeout": "timed out" in problem} if problem else found
        )
    run.seconds = time.perf_counter() - began
    return run


def pairs(side: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted({(v["member"], v["rule"]) for v in side.get("violations", [])})


def why(side: dict[str, Any], member: str, rule: str) -> str:
    """The detail of the first violation of ``rule`` on ``member``, shortened."""
    found = [v for v in side.get("violations", []) if (v["member"], v["rule"]) == (member, rule)]
    text = str(found[0]["detail"]) if found else ""
    return short(text.removeprefix("load_memory_provider gave None: "), 140)


def state(side: dict[str, Any]) -> str:
    """How far a host got: timed out, error, absent, no provider, unavailable, driven."""
    if side.get("timeout"):
        return "timed out"
    if "error" in side:
        return "error"
    if side.get("absent"):
        return "absent"
    if not side.get("checked"):
        return "no provider"
    if any(v["rule"] in UNAVAILABLE for v in side.get("violations", [])):
        return "unavailable"
    return "driven"


def agreement(run: Run) -> str:
    if run.problem:
        return "not run"
    memory, real = run.found["memory"], run.found["real"]
    if memory.get("timeout") or real.get("timeout"):
        return "timed out"
    if "error" in memory or "error" in real:
        return "suite error"
    return "agree" if pairs(memory) == pairs(real) else "differ"


def confirmed(run: Run) -> list[tuple[str, str]]:
    """The violations both hosts report, but for not being available (counted apart)."""
    if run.problem:
        return []
    both = set(pairs(run.found["memory"])) & set(pairs(run.found["real"]))
    return sorted(p for p in both if p[1] not in UNAVAILABLE)


def describe(run: Run) -> tuple[str, str]:
    """(what real hermes found, the in-memory host's difference if any)."""
    if run.problem:
        return f"not run: {short(run.problem)}", ""
    real, memory = run.found["real"], run.found["memory"]
    if real.get("timeout"):
        said = f"not driven: the child on real hermes {real['error']}"
    elif "error" in real:
        said = f"suite raised on hermes: {short(real['error'])}"
    elif real.get("absent"):
        said = f"nothing to drive: {short(real['absent'])}"
    else:
        broken = [f"`{m}`: {r} ({why(real, m, r)})" for m, r in pairs(real) if r not in UNAVAILABLE]
        said = "; ".join(broken) or "none"
        if state(real) == "unavailable":
            said = f"not driven past is_available (no credentials or service here); {said}"
    mine = set(pairs(memory)) if "error" not in memory else set()
    extra = [f"only in-memory: `{m}`: {r}" for m, r in sorted(mine - set(pairs(real)))]
    extra += [f"only real: `{m}`: {r}" for m, r in sorted(set(pairs(real)) - mine)]
    if memory.get("timeout"):
        extra.append(f"the in-memory child {memory['error']}")
    elif "error" in memory:
        extra.append(f"in-memory suite raised: {short(memory['error'])}")
    return said, "; ".join(extra)


def table(runs: list[Run], date: str, seconds: float) -> str:
    lines = [
        f"Measured {date} with hermes-agent 0.19.0 on Python 3.11: {len(runs)} providers"
        f" of {len({r.entry.dist for r in runs})} distributions, each suite run on the"
        " in-memory host and on the environment's real hermes, in a child process per"
        f" provider and host (fresh home, no credentials, {TIMEOUT} s at most;"
        " `scripts/corpus_contracts.py`).",
        "",
        "| provider | kind | violations (real hermes) | in-memory and real | differences |",
        "|---|---|---|---|---|",
    ]
    for r in runs:
        e = r.entry
        where = "directory" if e.group == DIRECTORY else f"entry point, `{e.group}`"
        said, extra = describe(r)
        row = [f"{e.dist}=={e.version} (`{e.entry_point}`, {where})", r.kind, said,
               agreement(r), extra or "-"]  # fmt: skip
        lines.append("| " + " | ".join(cell(c) for c in row) + " |")
    ran = [r for r in runs if not r.problem]
    tally = Counter(agreement(r) for r in runs)
    states = Counter(state(r.found["real"]) for r in ran)
    broken = [r for r in ran if confirmed(r)]
    rules = Counter(rule for r in ran for _, rule in confirmed(r))
    common = ", ".join(f"{rule!r} ({n})" for rule, n in rules.most_common(5)) or "none"
    lines += [
        "",
        f"Providers: {len(runs)}; run on both hosts: {len(ran)}; in-memory and real agree on"
        f" {tally['agree']}, differ on {tally['differ']}, a suite raised on"
        f" {tally['suite error']}, timed out on {tally['timed out']}, not run"
        f" {tally['not run']}. On real hermes: {states['driven']} driven through the"
        f" lifecycle, {states['unavailable']} not driven past is_available,"
        f" {states['no provider']} giving hermes no provider, {states['absent']} with"
        f" nothing to drive, {states['timed out']} timed out, {states['error']} where the"
        f" suite raised. Providers with a violation confirmed"
        f" on real hermes (not counting is_available): {len(broken)}. Most common rules:"
        f" {common}. Run time: {seconds:.0f} s with the environments installed.",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--only", nargs="*", default=[], help="distributions to run")
    parser.add_argument("--no-install", action="store_true", help="reuse the environments")
    parser.add_argument("--jobs", type=int, default=2, help="providers at a time (2 at most)")
    parser.add_argument("--write-docs", action="store_true", help="update docs/evidence.md")
    parser.add_argument("--json", type=Path, help="write the raw results as JSON")
    parser.add_argument("--from-json", type=Path, help="the table of an earlier --json")
    args = parser.parse_args()
    if args.from_json:
        raw = json.loads(args.from_json.read_text(encoding="utf-8"))
        runs = [Run(Entry(**r["entry"]), r["kind"], r["problem"], r["found"], r["seconds"])
                for r in raw["runs"]]  # fmt: skip
        return report(runs, raw["date"], raw["seconds"], args.write_docs)
    began = time.perf_counter()
    jobs = [(e, k) for e in read_list() for k in provider_kinds(e)
            if not args.only or e.dist in args.only]  # fmt: skip
    ready: dict[tuple[str, str], tuple[Path, str | None]] = {}
    for e, _ in jobs:
        if (e.dist, e.version) not in ready:
            ready[e.dist, e.version] = environment(e.dist, e.version, not args.no_install)

    def one(job: tuple[Entry, str]) -> Run:
        entry, kind = job
        python, problem = ready[entry.dist, entry.version]
        run = Run(entry, kind, problem) if problem else drive(entry, kind, python)
        print(f"== {entry.dist} {entry.entry_point} {kind}: {agreement(run)}"
              f" ({run.seconds:.0f} s)", file=sys.stderr, flush=True)  # fmt: skip
        return run

    with concurrent.futures.ThreadPoolExecutor(max_workers=min(2, max(1, args.jobs))) as pool:
        runs = list(pool.map(one, jobs))
    seconds = time.perf_counter() - began
    date = time.strftime("%Y-%m-%d")
    if args.json:
        raw = {"date": date, "seconds": round(seconds), "runs": [
            {"entry": vars(r.entry), "kind": r.kind, "problem": r.problem, "found": r.found,
             "seconds": round(r.seconds, 1)} for r in runs]}  # fmt: skip
        args.json.write_text(json.dumps(raw, indent=2, ensure_ascii=False), encoding="utf-8")
    return report(runs, date, seconds, args.write_docs)


def report(runs: list[Run], date: str, seconds: float, write_docs: bool) -> int:
    text = table(runs, date, seconds)
    print(text)
    if write_docs:
        write_between_markers(ROOT / "docs" / "evidence.md", START, END, text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
