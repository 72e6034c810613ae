"""``preflight --catalog-entry PATH``: the entry hermes' plugin catalogue takes.

hermes lists a plugin once a maintainer merges ``plugin-catalog/<name>.yaml`` into the
hermes-agent repository. The fields are those of upstream's entries (``plugin-catalog/
README.md`` at ``8db3c235``, "Entry schema"; ``PluginCatalogEntry`` of
``hermes_cli/plugin_catalog.py``, 0.21.3 on): ``name``, ``repo`` (https), ``subdir``,
``sha`` (a full commit SHA), ``version``, ``description``, ``maintainer``, ``tier``,
``category`` and ``capabilities`` (``provides_tools``, ``provides_hooks``,
``provides_middleware``, ``requires_env``), plus ``requires_hermes`` when the manifest
has one. The capabilities are what the plugin registered in preflight's probe, not what
its manifest says, since admission compares them with reality (rule 6).

The entry is read back by hermes' own loader (``entry_from_mapping``) in a child process
of the installed hermes, or of the newest cached release that has the module; without
one, by the loader's checks as read from 0.22.2's source (the shelves:
:data:`kit_core.hermes.CATALOG_CATEGORIES`). git answers for the pin: the commit exists,
a remote branch holds it (it is pushed), its age against the two weeks the catalogue
asks (rule 3), and whether the plugin's directory has changes the pin lacks.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, cast

from kit_core.hermes import CATALOG_CATEGORIES, CATALOG_CATEGORY_OF_KIND
from kit_devtools.cli._scan import DISTRIBUTIONS, RELEASE_OF, cached_having
from kit_devtools.cli._upstream import has_module
from kit_devtools.cli.findings import E, Finding, Rule, W, declare, finding

if TYPE_CHECKING:
    from kit_devtools.cli._preflight import Preflight

__all__ = [
    "Entry",
    "catalog_entry",
    "https_repo",
    "kit_reading",
    "read_back",
    "render",
]

declare("preflight", {
    "HPK063": Rule(E, "hermes' catalogue loader refuses the entry: {problem}", "{fix}",
                   "hermes_cli/plugin_catalog.py entry_from_mapping (0.21.3 on) logs the"
                   " problem and drops the entry: the plugin is not in the catalogue"),
    "HPK064": Rule(E, "the pin {sha} {problem}", "{fix}", "installing from the catalogue"
                   " clones the repository and checks out exactly the pinned commit"
                   " (plugin-catalog/README.md, admission rule 2): a commit the repository"
                   " does not hold cannot be installed"),
    "HPK065": Rule(W, "the pinned commit is {days} days old; the catalogue asks for a pin at"
                   " least 14 days old", "pin an older pushed commit (--sha), or submit the"
                   " entry on or after {ready}", "a maintainer-reviewed rule of the catalogue"
                   " (plugin-catalog/README.md, rule 3, pin maturity); the loader itself"
                   " does not check it"),
    "HPK066": Rule(W, "{directory} has changes the pinned commit does not: the entry's"
                   " capabilities are what the working tree registers", "commit and push"
                   " them and pin that commit, or run preflight on a checkout of the pin",
                   "validation compares the capabilities with what the plugin registers at"
                   " the pinned commit (plugin-catalog/README.md, rule 6)"),
    "HPK067": Rule(W, "hermes' catalogue loader ignores part of the entry: {problem}",
                   "{fix}", "hermes_cli/plugin_catalog.py entry_from_mapping keeps the entry"
                   " and drops the field it logs (a version label, an image)"),
})  # fmt: skip

LOADER: Final = "hermes_cli.plugin_catalog"
NAME: Final = re.compile(r"^[a-z0-9_-]{1,64}$")
SHA: Final = re.compile(r"^[0-9a-f]{40}$")
TIERS: Final = ("official", "community")
MATURE_DAYS: Final = 14
_ORDER: Final = (
    "name", "repo", "subdir", "sha", "version", "description", "maintainer", "tier",
    "category", "requires_hermes", "capabilities",
)  # fmt: skip
"""The key order of upstream's entries."""

_CHILD: Final = (
    RELEASE_OF
    + r"""
import json, logging, sys
from hermes_cli import plugin_catalog as catalog
release = release_of(sys.argv[3:])
said = []
class Keep(logging.Handler):
    def emit(self, record):
        said.append(record.getMessage())
catalog.logger.addHandler(Keep())
catalog.logger.setLevel(logging.DEBUG)
catalog.logger.propagate = False
entry = catalog.entry_from_mapping(json.loads(sys.argv[1]), sys.argv[2])
print(json.dumps({"release": release, "said": said,
                  "entry": entry.to_dict() if entry is not None else None}))
"""
)


@dataclass
class Entry:
    """An entry, what read it back, and the findings of the entry and its pin."""

    data: dict[str, Any]
    checked_by: str
    findings: list[Finding] = field(default_factory=list[Finding])


def _git(directory: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(directory), *args],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


_SCP: Final = re.compile(r"^(?:[^@/\s]+@)?([^:/\s]+):(?!//)(.+)$")


def https_repo(url: str) -> str:
    """A git remote's URL as the https address an entry names: ``git@github.com:o/r.git``
    and ``ssh://git@github.com/o/r`` give ``https://github.com/o/r``."""
    text = url.strip()
    if text.startswith("ssh://"):
        text = text[len("ssh://") :].split("@", 1)[-1]
        host, _, path = text.partition("/")
        text = f"https://{host}/{path}"
    elif (scp := _SCP.match(text)) is not None and "://" not in text:
        text = f"https://{scp[1]}/{scp[2]}"
    text = text.removesuffix("/")
    return text.removesuffix(".git")


def _env_name(item: object) -> str:
    """A ``requires_env`` item's name: the item, or a mapping's ``name``."""
    if isinstance(item, dict):
        return str(cast("dict[str, Any]", item).get("name"))
    return str(item)


def _owner(repo: str) -> str:
    parts = repo.removeprefix("https://").split("/")
    return parts[1] if len(parts) > 2 else ""


def render(data: dict[str, Any]) -> str:
    """The entry as YAML, in upstream's key order and style."""
    lines: list[str] = []
    for key in _ORDER:
        if key not in data:
            continue
        value = data[key]
        if key == "capabilities":
            lines.append("capabilities:")
            for kind, names in value.items():
                if names:
                    lines.append(f"  {kind}:")
                    lines += [f"    - {json.dumps(n)}" for n in names]
                else:
                    lines.append(f"  {kind}: []")
        else:
            lines.append(f"{key}: {json.dumps(value, ensure_ascii=False)}")
    return "\n".join(lines) + "\n"


def _pin_findings(directory: Path, sha: str, where: str) -> list[Finding]:
    """Whether the repository holds the pin, has pushed it, how old it is, and whether the
    plugin's directory has changes the pin lacks."""
    if _git(directory, "cat-file", "-e", f"{sha}^{{commit}}") is None:
        return [
            finding(
                "HPK064", where, sha=sha, problem="is not a commit of this repository",
                fix="pass --sha the full SHA of a commit of the plugin's repository",
            )
        ]  # fmt: skip
    found: list[Finding] = []
    if not _git(directory, "branch", "-r", "--contains", sha):
        found.append(
            finding(
                "HPK064", where, sha=sha,
                problem="is on no remote branch: it is not pushed, so hermes cannot fetch it",
                fix="push it (git push), then run preflight again",
            )
        )  # fmt: skip
    stamp = _git(directory, "show", "-s", "--format=%ct", sha)
    if stamp and stamp.isdigit():
        days = int((time.time() - int(stamp)) // 86_400)
        if days < MATURE_DAYS:
            ready = time.strftime("%Y-%m-%d", time.gmtime(int(stamp) + MATURE_DAYS * 86_400))
            found.append(finding("HPK065", where, days=days, ready=ready))
    status = _git(directory, "status", "--porcelain", "--", ".") or ""
    untracked = [  # what importing the plugin writes is no change of its own
        line
        for line in status.splitlines()
        if "__pycache__" not in line and not line.endswith(".pyc")
    ]
    differs = _git(directory, "diff", "--quiet", sha, "--", ".") is None  # tree against pin
    if untracked or differs:
        found.append(finding("HPK066", where, directory=directory))
    return found


def _reader() -> str | None:
    """The interpreter of a hermes that has the catalogue loader, or None."""
    if has_module(LOADER):
        return sys.executable
    cached = cached_having("hermes_cli/plugin_catalog.py")
    return str(cached[0]) if cached else None


def kit_reading(data: dict[str, Any]) -> str | None:
    """The first problem the loader's checks find, in its words
    (``hermes_cli.plugin_catalog.entry_from_mapping``): a name not matching
    ``hermes_cli.plugin_catalog._NAME_RE`` (:data:`NAME`), a repo not starting
    ``https://``, a sha not matching ``_SHA_RE`` (:data:`SHA`), a tier outside
    ``CATALOG_TIERS``, a category outside ``CATALOG_CATEGORIES``."""
    name, repo, sha = (str(data.get(k) or "") for k in ("name", "repo", "sha"))
    tier, category = data.get("tier"), data.get("category")
    if not NAME.match(name):
        return f"invalid name {name!r} (must match [a-z0-9_-]{{1,64}})"
    if not repo.startswith("https://"):
        return f"repo must be an https:// URL (got {repo!r})"
    if not SHA.match(sha):
        return f"sha must be a full 40-character hex commit SHA (got {sha!r})"
    if tier not in TIERS:
        return f"tier must be one of {'/'.join(TIERS)} (got {tier!r})"
    if category not in CATALOG_CATEGORIES:
        return f"category must be one of {'/'.join(CATALOG_CATEGORIES)} (got {category!r})"
    return None


def read_back(data: dict[str, Any], where: str) -> tuple[str, list[Finding]]:
    """What hermes' loader (or the kit's reading of it) says of the entry."""
    python = _reader()
    label = f"{data.get('name')}.yaml"
    fix = "fix the field it names (--repo, --sha, --category) and run preflight again"
    if python is None:
        problem = kit_reading(data)
        by = "the kit's reading of hermes' catalogue loader (hermes_cli/plugin_catalog.py)"
        return by, [] if problem is None else [finding("HPK063", where, problem=problem, fix=fix)]
    with tempfile.TemporaryDirectory(prefix="hpk-catalog-") as home:
        done = subprocess.run(
            [python, "-c", _CHILD, json.dumps(data), label, *DISTRIBUTIONS],
            capture_output=True, text=True, timeout=300, check=False,
            env={"HERMES_HOME": home, "PATH": "/usr/bin:/bin"},
        )  # fmt: skip
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        problem = f"the loader could not run ({tail})"
        return "hermes' catalogue loader", [finding("HPK063", where, problem=problem, fix=fix)]
    answer: dict[str, Any] = json.loads(lines[-1])
    by = f"hermes {answer['release']}'s catalogue loader (hermes_cli/plugin_catalog.py)"
    said = [s.split(f"{label}: ", 1)[-1] for s in answer["said"]]
    if answer["entry"] is None:
        problem = said[0] if said else "it returned no entry"
        return by, [finding("HPK063", where, problem=problem, fix=fix)]
    ignored = "remove or correct that field"
    return by, [finding("HPK067", where, problem=s, fix=ignored) for s in said]


def catalog_entry(
    report: Preflight,
    repo: str | None = None,
    sha: str | None = None,
    maintainer: str | None = None,
    category: str | None = None,
    tier: str = "community",
) -> Entry:
    """The catalogue entry of the plugin ``report`` ran preflight on, read back by hermes'
    loader, with the findings of its pin. ``repo``, ``sha`` and ``maintainer`` default to
    the directory's git ``origin``, ``HEAD`` and the repository's owner."""
    directory = report.directory.resolve()
    where = f"catalogue entry of {report.key}"
    top = _git(directory, "rev-parse", "--show-toplevel")
    remote = _git(directory, "remote", "get-url", "origin") if repo is None else repo
    pinned = sha or _git(directory, "rev-parse", "HEAD") or ""
    address = https_repo(remote) if remote else ""
    manifest = report.manifest
    kind = str(manifest.get("kind") or "standalone").strip().lower()
    registered = report.registered or dict.fromkeys(("tools", "hooks", "middleware"), ())
    env: list[Any] = manifest.get("requires_env") or []
    data: dict[str, Any] = {
        "name": str(manifest.get("name") or report.key),
        "repo": address,
        "subdir": directory.relative_to(Path(top)).as_posix() if top else "",
        "sha": pinned.lower(),
        "version": str(manifest.get("version") or ""),
        "description": " ".join(str(manifest.get("description") or "").split()),
        "maintainer": maintainer or _owner(address),
        "tier": tier,
        "category": category or CATALOG_CATEGORY_OF_KIND.get(kind, "tools"),
        "capabilities": {
            **{f"provides_{kind}": list(names) for kind, names in registered.items()},
            "requires_env": [_env_name(e) for e in (env if isinstance(env, list) else [])],
        },
    }
    if data["subdir"] == ".":
        data["subdir"] = ""
    if manifest.get("requires_hermes"):
        data["requires_hermes"] = str(manifest["requires_hermes"])
    by, findings = read_back(data, where)
    if top is None:
        problem = "cannot be checked: the plugin's directory is not in a git repository"
        fix = "put the plugin in a git repository pushed to its https:// home"
        findings.append(finding("HPK064", where, sha=pinned or "(none)", problem=problem, fix=fix))
    elif pinned:
        findings += _pin_findings(directory, pinned, where)
    return Entry(data, by, findings)
