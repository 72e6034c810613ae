"""The host matrix: the real-host suite (tests/host) and the examples' tests (tests/examples,
``--hermes installed``) on every hermes release the kit supports, each installed from the
package registry in an environment of its own (hermes-agent 0.13.0-0.19.0, and upstream
0.20-0.22 through its packagings for Python 3.11+), then the support table of the
documentation (docs/hosts.md) made from what the runs reported.

The project environment's release (the ``host`` dependency group) runs in the whole
suite on Python 3.11 (``--suite .venv``, which writes that release's results beside the
others); the whole suite on the other Pythons (``--suite .venv-3.12``) runs here too, in
the same pool as the legs: every job :data:`WORKERS` at a time, the longest first
(pyright and the documentation build, given with ``--also``, after them). The run fails
when a job fails or a leg's results are missing, or when the documented table is not what
the runs produced (it is rewritten then: commit it).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any, Final, NamedTuple

from _hosts import CACHE, ROOT, environment
from kit_core.hermes import installed_release, registry_releases

WORKERS: Final = 3
"""Jobs at a time: the machine has two cores, and a job waits on its children (hermes'
starts, uv) about a tenth of its time, which a third job fills."""
RESULTS = CACHE / "results"
LOGS = CACHE / "logs"
PAGE = ROOT / "docs" / "hosts.md"
START, END = "<!-- host-matrix:start -->", "<!-- host-matrix:end -->"
ROWS = (
    "host model matches the release",
    "tools: schema, dispatch, envelope",
    "typed tools: the spec style's definitions",
    "tools: every argument error at once",
    "tools: images and files (Rich)",
    "commands, hooks, skills, receipt, rollback",
    "middleware",
    "media delivery (kit-media)",
    "media: a caption on the file",
    "media: final-reply suppression",
    "media: Telegram spoiler photos",
    "plugin settings (load_plugin_config)",
    "a project installed into hermes as the docs say",
    "check --real",
    "hermes' install scan (preflight --scan)",
    "the catalogue entry (preflight --catalog-entry)",
    "every release claimed (preflight --every-release)",
)


class Job(NamedTuple):
    """A job of the pool: its name, the environment variables it adds, and what gives its
    command (a leg's makes its release's environment first, inside the job, so installs
    overlap with the suites already running)."""

    name: str
    extra: dict[str, str]
    command: Callable[[], list[str]]


def leg(version: str, python_version: str) -> Job:
    """tests/host and tests/examples against one release on one Python."""
    name = version if python_version == "3.11" else f"{version}-py{python_version}"

    def command() -> list[str]:
        python = environment(version, python_version)
        return [
            *(str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider"),
            *("tests/host", "tests/examples", "--hermes", "installed"),
        ]

    return Job(f"hermes {name}", {"KIT_HOST_RESULTS": str(RESULTS / f"{name}.json")}, command)


OTHER_PYTHONS: Final = "not host and not python_independent"
"""What the whole suite runs on a Python after the first: not what runs on real hermes (the
legs run tests/host and the examples on every release, the newest also on 3.13) nor what
gives the same answer on every Python."""


def suite(venv: str, release: str | None) -> Job:
    """The whole suite in the project environment ``venv`` (``.venv-3.12``); ``release``:
    the hermes release installed there, whose results it records (the first suite's);
    another suite runs :data:`OTHER_PYTHONS`."""
    python = ROOT / venv / "bin" / "python"
    extra = {"KIT_HOST_RESULTS": str(RESULTS / f"{release}.json")} if release else {}
    select = [] if release else ["-m", OTHER_PYTHONS]
    command = [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", *select]
    return Job(f"suite {venv}", extra, lambda: command)


def also(given: str) -> Job:
    """``NAME=COMMAND``, a command of the gate's own (pyright, the documentation build), as
    a job of the pool."""
    name, separator, command = given.partition("=")
    if not separator or not name or not command:
        raise SystemExit(f"host matrix: --also takes NAME=COMMAND, not {given!r}")
    words = shlex.split(command)
    return Job(name, {}, lambda: words)


def run(job: Job) -> tuple[str, int, str, float]:
    """Run one job; returns (its name, exit code, summary, seconds)."""
    env = {**os.environ, **job.extra}
    env.pop("VIRTUAL_ENV", None)
    started = time.monotonic()
    try:
        command = job.command()
    except SystemExit as exc:  # its environment could not be made
        return job.name, 1, str(exc), time.monotonic() - started
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    LOGS.mkdir(parents=True, exist_ok=True)
    (LOGS / f"{job.name.replace(' ', '-').replace('/', '')}.txt").write_text(
        done.stdout + done.stderr
    )
    lines = done.stdout.strip().splitlines() or ["no output"]
    failures = [line for line in lines if line.startswith(("FAILED", "ERROR"))]
    summary = "\n".join([*failures, lines[-1]])
    return job.name, done.returncode, summary, time.monotonic() - started


def cell(row: dict[str, Any] | None) -> str:
    if row is None:
        return "not run"
    total = row["passed"] + row["failed"] + row["skipped"]
    if row["failed"]:
        return f"**FAILS** {row['failed']} of {total}"
    if row["skipped"]:  # a test that says what this release lacks (its reason is in the log)
        return f"{row['passed']} passed, {row['skipped']} skipped: not in this release"
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The host matrix and the whole suites.")
    parser.add_argument(
        "--suite",
        action="append",
        default=[],
        metavar="VENV",
        help="also run the whole suite in this project environment: all of it in the first"
        " (its hermes release is that release's column), the rest in the others",
    )
    parser.add_argument(
        "--also",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="also run this command (split as a shell would) in the pool, after the legs: a"
        " short job fills the time the longer ones leave",
    )
    parser.add_argument(
        "--jobs", type=int, default=WORKERS, help=f"jobs at a time (default {WORKERS})"
    )
    options = parser.parse_args(argv)
    own = installed_release()
    releases = registry_releases()
    # every other release on 3.11, and the newest also on 3.13
    legs = [(r.version, "3.11") for r in releases if r is not own]
    legs.append((releases[-1].version, "3.13"))
    # the packagings of upstream boot hermes about twice as slowly: their legs go first
    slow = {r.version for r in releases if r.distribution != "hermes-agent"}
    legs.sort(key=lambda leg: leg[0] not in slow)
    # the whole suites take longest: they go before every leg, so the two workers finish
    # together
    jobs = [suite(v, own.version if own and i == 0 else None) for i, v in enumerate(options.suite)]
    jobs += [leg(*one) for one in legs]
    jobs += [also(command) for command in options.also]
    failed: list[str] = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
        for name, code, summary, seconds in pool.map(run, jobs):
            print(f"== {name} ({seconds:.0f} s): {summary}", flush=True)
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
