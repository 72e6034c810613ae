"""The host matrix: the real-host suite (tests/host) on every hermes-agent release of the
package registry the kit supports, each in an environment of its own, then the support
table of the documentation (docs/hosts.md) made from what the runs reported.

The project environment's release (the ``host`` dependency group) runs in the main
Python 3.11 leg of ./scripts/test, which writes its results beside these; this script
runs every other release, two at a time (the machine has two cores), and fails when a
leg fails, a leg's results are missing, or the documented table was not what the runs
produced (it is rewritten; commit it).
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import subprocess
import sys
import time
from typing import Any

from _hosts import CACHE, ROOT, environment
from kit_core._host_model import installed_distribution, registry_releases

RESULTS = CACHE / "results"
LOGS = CACHE / "logs"
PAGE = ROOT / "docs" / "hosts.md"
START, END = "<!-- host-matrix:start -->", "<!-- host-matrix:end -->"
ROWS = (
    "host model matches the release",
    "tools: schema, dispatch, envelope",
    "typed tools: the spec style's definitions",
    "commands, hooks, skills, receipt, rollback",
    "middleware",
    "media delivery (kit-media)",
    "media: a caption on the file",
    "media: final-reply suppression",
    "media: Telegram spoiler photos",
    "check --real",
)


def run_leg(version: str) -> tuple[str, int, str, float]:
    """tests/host against one release; returns (version, exit code, summary, seconds)."""
    python = environment(version)
    env = {**os.environ, "KIT_HOST_RESULTS": str(RESULTS / f"{version}.json")}
    env.pop("VIRTUAL_ENV", None)
    started = time.monotonic()
    run = subprocess.run(
        [str(python), "-m", "pytest", "tests/host", "-q", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    LOGS.mkdir(parents=True, exist_ok=True)
    (LOGS / f"{version}.txt").write_text(run.stdout + run.stderr)
    lines = run.stdout.strip().splitlines() or ["no output"]
    failures = [line for line in lines if line.startswith(("FAILED", "ERROR"))]
    summary = "\n".join([*failures, lines[-1]])
    return version, run.returncode, summary, time.monotonic() - started


def cell(row: dict[str, Any] | None) -> str:
    if row is None:
        return "not run"
    total = row["passed"] + row["failed"] + row["skipped"]
    if row["failed"] or row["skipped"]:
        return f"**FAILS** {row['failed'] + row['skipped']} of {total}"
    if row.get("refused"):
        return f"absent: the kit says so ({total})"
    return f"yes ({total})"


def table() -> str:
    versions = [release.version for release in registry_releases()]
    found: dict[str, dict[str, Any]] = {}
    for version in versions:
        path = RESULTS / f"{version}.json"
        if not path.exists():
            raise SystemExit(f"host matrix: no results for hermes {version} ({path})")
        found[version] = json.loads(path.read_text())
    lines = [
        "| what the kit does (tests run) | " + " | ".join(versions) + " |",
        "|---|" + "---|" * len(versions),
    ]
    for name in ROWS:
        cells = [cell(found[v]["rows"].get(name)) for v in versions]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_table() -> bool:
    """Put the table into docs/hosts.md; True when it was already there."""
    text = PAGE.read_text()
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    new = f"{head}{START}\n{table()}\n{END}{tail}"
    if new == text:
        return True
    PAGE.write_text(new)
    return False


def main() -> int:
    installed = installed_distribution()
    own = ".".join(installed[1].split(".")[:3]) if installed is not None else None
    others = [r.version for r in registry_releases() if r.version != own]
    for version in others:  # installs one at a time: uv shares its cache
        environment(version)
    failed: list[str] = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for version, code, summary, seconds in pool.map(run_leg, others):
            print(f"== hermes {version} ({seconds:.0f} s): {summary}", flush=True)
            if code != 0:
                failed.append(version)
    if failed:
        print(f"host matrix: failed on {', '.join(failed)}; logs in {LOGS}", file=sys.stderr)
        return 1
    if not write_table():
        print(
            "host matrix: the support table in docs/hosts.md was not what the runs produced; it is"
            " rewritten now: commit docs/hosts.md",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
