"""The host matrix: the real-host suite (tests/host) and the examples' tests (tests/examples,
``--hermes installed``) on every hermes release the kit supports, each installed from the
package registry in an environment of its own (hermes-agent 0.13.0-0.19.0, and upstream
0.20-0.22 through its packagings for Python 3.11+), then the support table of the
documentation (docs/hosts.md) made from what the runs reported.

The project environment's release (the ``host`` dependency group) runs in the main
Python 3.11 leg of ./scripts/test, which writes its results beside these; this script
runs every other release, two at a time (the machine has two cores), and fails when a
leg fails or a leg's results are missing, or when the documented table is not what the
runs produced (it is rewritten then: commit it).
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
from kit_core._host_model import installed_release, registry_releases

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


def run_leg(leg: tuple[str, str]) -> tuple[str, int, str, float]:
    """tests/host and tests/examples against one release on one Python; returns (the
    leg's name, exit code, summary, seconds)."""
    version, python_version = leg
    python = environment(version, python_version)
    name = version if python_version == "3.11" else f"{version}-py{python_version}"
    env = {**os.environ, "KIT_HOST_RESULTS": str(RESULTS / f"{name}.json")}
    env.pop("VIRTUAL_ENV", None)
    started = time.monotonic()
    run = subprocess.run(
        [
            *(str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider"),
            *("tests/host", "tests/examples", "--hermes", "installed"),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    LOGS.mkdir(parents=True, exist_ok=True)
    (LOGS / f"{name}.txt").write_text(run.stdout + run.stderr)
    lines = run.stdout.strip().splitlines() or ["no output"]
    failures = [line for line in lines if line.startswith(("FAILED", "ERROR"))]
    summary = "\n".join([*failures, lines[-1]])
    return name, run.returncode, summary, time.monotonic() - started


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
    releases = registry_releases()
    versions = [release.version for release in releases]
    found: dict[str, dict[str, Any]] = {}
    for version in versions:
        path = RESULTS / f"{version}.json"
        if not path.exists():
            raise SystemExit(f"host matrix: no results for hermes {version} ({path})")
        found[version] = json.loads(path.read_text())
    headings = [
        r.version if r.distribution == "hermes-agent" else f"{r.version} ({r.distribution})"
        for r in releases
    ]
    lines = [
        "| what the kit does (tests run) | " + " | ".join(headings) + " |",
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
    own = installed_release()
    releases = registry_releases()
    # every other release on 3.11, and the newest also on 3.13 (the project's own release
    # runs on 3.12 and 3.13 in ./scripts/test's later legs)
    legs = [(r.version, "3.11") for r in releases if r is not own]
    legs.append((releases[-1].version, "3.13"))
    # the packagings of upstream boot hermes about twice as slowly: their legs go first, so
    # the two workers finish together
    slow = {r.version for r in releases if r.distribution != "hermes-agent"}
    legs.sort(key=lambda leg: leg[0] not in slow)
    for leg in legs:  # installs one at a time: uv shares its cache
        environment(*leg)
    failed: list[str] = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for name, code, summary, seconds in pool.map(run_leg, legs):
            print(f"== hermes {name} ({seconds:.0f} s): {summary}", flush=True)
            if code != 0:
                failed.append(name)
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
