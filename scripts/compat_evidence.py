"""Evidence for `hermes-plugin-kit compat`'s floors: each subject loaded by the real hermes
release just below its floor and by the floor release itself.

Subjects: the kit's three examples and third-party plugins published on PyPI, each pinned
at an exact version. For each:

1. the floor: ``hermes-plugin-kit compat TARGET --json`` in an environment with
   hermes-agent 0.19.0 (the in-memory host plays 0.19.0; the host model gives the floor);
2. hermes' own plugin manager loads the plugin, in a process of its own with an empty
   temporary hermes home (as ``check --real`` does, :data:`DRIVER`), in an environment
   with hermes-agent at the floor release and in one with the release just below it (the
   previous release of the registry), counting the plugin's ``register_*`` calls;
3. a release *runs* the plugin when hermes enabled it, each ``register_*`` member was
   called (and returned) as often as on the newest release (0.19.0), and every hook it
   uses is one of that release's ``VALID_HOOKS`` (an unknown hook is stored and never
   called). A plugin that checks for a member before calling it loads on an older
   release without that surface: "loaded without".

The floor is confirmed when the floor release runs the plugin and the release below does
not; a floor at the oldest release of the registry has no release below to load (the
registry has no hermes-agent older than 0.13.0).

Environments: ``.cache/compat/<version>`` (the examples) and
``.cache/compat/<version>+<dist>`` (a third-party plugin), made with uv from this
machine's Python 3.11, with the kit's packages from this checkout (editable), resolved as
of ``scripts/_hosts.py``'s date; uv is always given ``--python <environment python>``.

Not part of ./scripts/test: it needs the package registry. Usage:

    python scripts/compat_evidence.py [--only NAME ...] [--json FILE] [--write-docs]

``--write-docs`` puts the table in docs/cli.md, between its ``compat-evidence`` markers.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _hosts import PACKAGES, RESOLVED_AS_OF, python311, uv
from _markers import write_between_markers
from kit_core.hermes import registry_releases

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "compat"
NEWEST = registry_releases()[-1].version
RELEASES = tuple(r.version for r in registry_releases())
"""The registry releases the kit models, oldest first."""


@dataclass(frozen=True)
class Subject:
    name: str
    target: str
    """A directory of this checkout, or an entry-point name."""
    dist: str | None = None
    version: str | None = None
    surfaces: str = ""


SUBJECTS: tuple[Subject, ...] = (
    Subject("unit-convert", "examples/unit-convert", surfaces="tools"),
    Subject("team-notes", "examples/team-notes", surfaces="every surface, middleware"),
    Subject("media-postcard", "examples/media-postcard", surfaces="tool, hooks, media"),
    Subject("murf-tts", "murf-tts", "hermes-plugin-murf-tts", "1.0.2", "TTS provider"),
    Subject("voicebox", "voicebox", "hermes-voicebox", "0.1.0", "TTS, transcription, skills"),
    Subject("noisegate", "noisegate", "noisegate-hermes", "0.3.3", "hooks"),
    Subject("hermes-tweet", "hermes-tweet", "hermes-tweet", "0.1.16", "tools, commands, skill"),
    Subject("serpapi", "serpapi", "serpapi-hermes-plugin", "1.1.1", "tools, web-search"),
    Subject("vault", "hermes-hashicorp-vault", "hermes-vault-secret-source", "0.1.2",
            "secret source"),
    Subject("avervox", "avervox", "avervox-hermes", "0.2.1", "TTS and STT providers"),
    Subject("onnx-asr", "onnx-asr", "hermes-onnx-asr", "1.1.4", "transcription provider"),
)  # fmt: skip

DRIVER = """
import functools, json, shutil, sys
from pathlib import Path
home, target, name = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
names = {name}
if target != "-":
    shutil.copytree(target, home / "plugins" / Path(target).name)
    names.add(Path(target).name)
(home / "config.yaml").write_text(json.dumps({"plugins": {"enabled": sorted(names)}}))
import hermes_cli.plugins as hp
calls = {}
def counted(member, original):
    @functools.wraps(original)
    def call(self, *args, **kwargs):
        result = original(self, *args, **kwargs)
        manifest = getattr(self, "manifest", None)
        if {getattr(manifest, "name", None), getattr(manifest, "key", None)} & names:
            calls[member] = calls.get(member, 0) + 1
        return result
    return call
for member in dir(hp.PluginContext):
    if member.startswith("register_") and callable(getattr(hp.PluginContext, member)):
        setattr(hp.PluginContext, member, counted(member, getattr(hp.PluginContext, member)))
import model_tools  # imports hermes as its CLI does: discovery loads the plugins
listed = hp.get_plugin_manager().list_plugins()
found = [p for p in listed if p["key"] in names or p["name"] in names]
verdict = found[0] if found else "hermes did not discover it"
if isinstance(verdict, dict):
    verdict["registered"] = calls
    verdict["valid_hooks"] = sorted(hp.VALID_HOOKS)
print("HPK-EVIDENCE " + json.dumps(verdict, default=str))
"""
"""What ``check --real`` does (``kit_devtools.cli._real``: the directory copied into an empty
hermes home and named in ``plugins.enabled``, or the installed entry point named there;
``model_tools`` imported, ``list_plugins()`` read), plus a count of the ``register_*``
calls of the plugin's ``PluginContext`` that returned (``list_plugins`` counts no
providers)."""


def _run(args: list[str], timeout: int = 1800) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV",)}
    env["UV_PYTHON_DOWNLOADS"] = "never"
    return subprocess.run(args, capture_output=True, text=True, check=False, env=env,
                          timeout=timeout)  # fmt: skip


def environment(version: str, subject: Subject) -> tuple[Path, str | None]:
    """The interpreter of hermes-agent ``version`` (+ the subject's distribution)."""
    name = version if subject.dist is None else f"{version}+{subject.dist}"
    env = CACHE / name
    python = env / "bin" / "python"
    if not python.exists():
        made = _run([*uv(), "venv", "--quiet", "--python", python311(), str(env)])
        if made.returncode != 0:
            return python, f"venv: {made.stderr.strip()[-300:]}"
    editable = [arg for package in PACKAGES for arg in ("-e", str(ROOT / "packages" / package))]
    wanted = [f"hermes-agent=={version}"]
    if subject.dist is not None:
        wanted.append(f"{subject.dist}=={subject.version}")
    install = _run(
        [*uv(), "pip", "install", "--quiet", "--python", str(python),
         "--exclude-newer", RESOLVED_AS_OF, *editable, *wanted]
    )  # fmt: skip
    if install.returncode != 0:
        last = install.stderr.strip().splitlines()[-3:]
        return python, "install failed: " + " | ".join(last)
    return python, None


def _target(subject: Subject) -> str:
    return str(ROOT / subject.target) if subject.dist is None else subject.target


def floor(python: Path, subject: Subject) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="hpk-compat-") as home:
        run = subprocess.run(
            [str(python), "-m", "kit_devtools", "compat", _target(subject), "--json"],
            capture_output=True, text=True, check=False, cwd=home,
            env={**{k: v for k, v in os.environ.items() if not k.startswith("HERMES_")},
                 "HOME": home},
            timeout=600,
        )  # fmt: skip
    start = run.stdout.find("{")
    if start < 0:
        return {"problem": (run.stderr.strip().splitlines() or ["no output"])[-1]}
    data: dict[str, Any] = json.loads(run.stdout[start:])
    return data


def load(python: Path, subject: Subject) -> dict[str, Any] | str:
    """hermes' own verdict on the subject under the environment's release."""
    target = str(ROOT / subject.target) if subject.dist is None else "-"
    name = Path(subject.target).name if subject.dist is None else subject.target
    with tempfile.TemporaryDirectory(prefix="hpk-compat-") as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith("HERMES_")}
        env.update(HOME=home, HERMES_HOME=home)
        run = subprocess.run(
            [str(python), "-c", DRIVER, home, target, name], capture_output=True, text=True,
            check=False, cwd=home, env=env, timeout=600,
        )  # fmt: skip
    lines = [x for x in run.stdout.splitlines() if x.startswith("HPK-EVIDENCE ")]
    if not lines:
        return "driver failed: " + (run.stderr.strip().splitlines() or ["no output"])[-1]
    verdict: dict[str, Any] | str = json.loads(lines[-1].removeprefix("HPK-EVIDENCE "))
    return verdict


def runs(verdict: dict[str, Any] | str, newest: dict[str, Any] | str, hooks: list[str]) -> str:
    """``runs``, or what is missing against the newest release."""
    if isinstance(verdict, str):
        return f"not loaded: {verdict}"
    if not verdict.get("enabled"):
        return f"not loaded: {verdict.get('error') or 'disabled'}"
    if isinstance(newest, dict):
        want: dict[str, int] = newest.get("registered", {})
        got: dict[str, int] = verdict.get("registered", {})
        short = [f"{m} {got.get(m, 0)}/{n}" for m, n in sorted(want.items()) if got.get(m, 0) < n]
        if short:
            return "loaded without " + ", ".join(short)
    unknown = sorted(set(hooks) - set(verdict.get("valid_hooks", [])))
    if unknown:
        return "hooks never called: " + ", ".join(unknown)
    return "runs"


@dataclass
class Row:
    subject: Subject
    floor: str | None = None
    because: list[str] = field(default_factory=list[str])
    below: str | None = None
    at_floor: str = ""
    at_below: str = ""
    problem: str | None = None


def measure(subject: Subject) -> Row:
    row = Row(subject)
    python, problem = environment(NEWEST, subject)
    if problem is not None:
        row.problem = f"{NEWEST}: {problem}"
        return row
    report = floor(python, subject)
    if not report.get("floor"):
        row.problem = report.get("problem") or f"no floor: {report.get('notes')}"
        return row
    version: str = report["floor"]["version"]
    row.floor = version
    row.because = report["floor"]["because"]
    hooks = [u["name"] for u in report["uses"] if u["kind"] == "hook"]
    newest = load(python, subject)
    index = RELEASES.index(version) if version in RELEASES else -1
    if index < 0:
        row.problem = f"the floor {version} is not a registry release"
        return row
    floor_python, problem = environment(version, subject)
    row.at_floor = problem or runs(load(floor_python, subject), newest, hooks)
    if index == 0:
        row.at_below = "no older release on the registry"
    else:
        row.below = RELEASES[index - 1]
        below_python, problem = environment(row.below, subject)
        row.at_below = problem or runs(load(below_python, subject), newest, hooks)
    return row


def _cell(text: str, limit: int = 160) -> str:
    """One table cell: on one line, without pipes; uv's resolver story cut to its cause,
    hermes' or the kit's message to its first sentence, at most ``limit`` characters."""
    flat = " ".join(text.replace("|", "/").split())
    if flat.startswith("install failed:") and "cause: Because " in flat:
        cause = flat.split("cause: Because ", 1)[1].split(", we can conclude", 1)[0]
        flat = f"not installable: {cause}"
    elif flat.startswith("not loaded:") and ". " in flat:
        flat = flat.split(". ", 1)[0]
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def table(rows: list[Row]) -> str:
    lines = [
        "| plugin | surfaces | floor (why) | at the floor | just below |",
        "|---|---|---|---|---|",
    ]
    for row in rows:
        s = row.subject
        name = s.name if s.dist is None else f"{s.dist} {s.version}"
        if row.problem:
            lines.append(f"| {name} | {s.surfaces} | not measured: {_cell(row.problem)} | | |")
            continue
        why = ", ".join(f"`{b}`" for b in row.because) or "nothing newer than the oldest"
        below = f"{row.below}: {_cell(row.at_below)}" if row.below else _cell(row.at_below)
        cells = (name, s.surfaces, f"{row.floor} ({why})", _cell(row.at_floor), below)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


START, END = "<!-- compat-evidence:start -->", "<!-- compat-evidence:end -->"
DOCS = ROOT / "docs" / "cli.md"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--json", default=None, help="also write the rows as JSON here")
    parser.add_argument("--write-docs", action="store_true", help="update docs/cli.md")
    args = parser.parse_args()
    chosen = [s for s in SUBJECTS if args.only is None or s.name in args.only]
    rows: list[Row] = []
    for subject in chosen:
        row = measure(subject)
        rows.append(row)
        print(f"{subject.name}: floor {row.floor} at={row.at_floor!r} below={row.at_below!r}"
              f" {row.problem or ''}", file=sys.stderr, flush=True)  # fmt: skip
    measured = (
        f"Measured {datetime.date.today().isoformat()} (Python"
        f" {sys.version_info.major}.{sys.version_info.minor}, packages resolved as of"
        f" {RESOLVED_AS_OF[:10]}) by `scripts/compat_evidence.py`:"
    )
    text = f"{measured}\n\n{table(rows)}"
    print(text)
    if args.write_docs:
        write_between_markers(DOCS, START, END, text)
    if args.json:
        Path(args.json).write_text(
            json.dumps([{**row.__dict__, "subject": row.subject.__dict__} for row in rows],
                       indent=2), encoding="utf-8",
        )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
