"""``hermes-plugin-kit new NAME [--kind KIND]``: a plugin project that passes ``check``,
``preflight`` and its tests, with a CI workflow running them (each kind's files:
``_scaffold_<kind>``)."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from string import Template
from typing import Any, Final, cast

from kit_core.errors import ToolDefinitionError
from kit_core.hermes import (
    first_version,
    installed_release,
    newest_registry_release,
    registry_releases,
)
from kit_core.names import tool_name
from kit_devtools.cli._scaffold_engine import CONTEXT_ENGINE
from kit_devtools.cli._scaffold_kinds import (
    PROVIDER_CHECKS,
    PYPROJECT,
    TOOLING_COMMENT,
    ProjectKind,
)
from kit_devtools.cli._scaffold_memory import MEMORY_ENTRY_POINT, MEMORY_PROVIDER
from kit_devtools.cli._scaffold_model import MODEL_PROVIDER
from kit_devtools.cli._scaffold_speech import TRANSCRIPTION, TTS
from kit_devtools.cli._scaffold_standalone import STANDALONE
from kit_devtools.cli._workflow import ci_workflow
from kit_devtools.testing.host_names import BUILTIN_TOOLSETS, hermes_top_level

_NAME: Final = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
SUBDIRECTORY: Final = "packages/hermes-plugin-kit"


def kit_source(mode: str) -> tuple[str, str]:
    """How the new project requires the kit: (requirement, [tool.uv.sources] block).

    ``git``: the commit this kit was installed from (or the HEAD of the checkout it runs
    from); ``path``: the directory of this kit (an editable source, for kit developers);
    ``auto``: git when a commit is known, else the installed version.
    """
    dist = metadata.distribution("hermes-plugin-kit")
    raw = dist.read_text("direct_url.json")
    direct: dict[str, Any] = json.loads(raw) if raw else {}
    vcs = cast("dict[str, Any]", direct.get("vcs_info") or {})
    local = _local_directory(direct)
    if mode == "path":
        if local is None:
            msg = "--kit-source path needs a kit installed from a local directory"
            raise ValueError(msg)
        return (
            f"hermes-plugin-kit=={dist.version}",
            f'\n[tool.uv.sources]\nhermes-plugin-kit = {{ path = "{local}", editable = true }}\n',
        )
    if vcs.get("commit_id"):
        url, rev = str(direct["url"]), str(vcs["commit_id"])
        sub = str(direct.get("subdirectory") or SUBDIRECTORY)
    elif local is not None and (commit := _head_commit(local)) is not None:
        url, rev, sub = commit[0], commit[1], SUBDIRECTORY
    elif mode == "git":
        msg = "--kit-source git needs a kit installed from Git or from a Git checkout"
        raise ValueError(msg)
    else:
        return f"hermes-plugin-kit=={dist.version}", ""
    source = f'{{ git = "{url}", rev = "{rev}", subdirectory = "{sub}" }}'
    # the version too: a wheel of the plugin keeps its requirement, not the uv source
    pinned = f"hermes-plugin-kit=={dist.version}"
    return pinned, f"\n[tool.uv.sources]\nhermes-plugin-kit = {source}\n"


def _local_directory(direct: dict[str, Any]) -> Path | None:
    url = str(direct.get("url", ""))
    if "dir_info" in direct and url.startswith("file://"):
        return Path(url.removeprefix("file://"))
    return None


def _head_commit(directory: Path) -> tuple[str, str] | None:
    def git(*args: str) -> str | None:
        run = subprocess.run(
            ["git", "-C", str(directory), *args], capture_output=True, text=True, check=False
        )
        return run.stdout.strip() if run.returncode == 0 else None

    root, head = git("rev-parse", "--show-toplevel"), git("rev-parse", "HEAD")
    if root is None or head is None:
        return None
    return f"file://{root}", head


KINDS: Final[dict[str, ProjectKind]] = {
    "standalone": STANDALONE,
    "memory-provider": MEMORY_PROVIDER,
    "context-engine": CONTEXT_ENGINE,
    "tts": TTS,
    "transcription": TRANSCRIPTION,
    "model-provider": MODEL_PROVIDER,
}
"""``new --kind`` -> what that project is made of."""


def project_kind(kind: str) -> ProjectKind:
    """The project kind ``kind``; a ValueError naming the kinds there are."""
    if kind not in KINDS:
        known = ", ".join(KINDS)
        raise ValueError(f"no project kind {kind!r}; the kinds are: {known}")
    return KINDS[kind]


def refusal(name: str, kind: str = "standalone") -> str | None:
    """Why a plugin of ``kind`` called ``name`` could not work, with the fix; None when it
    can."""
    if not _NAME.fullmatch(name):
        return f"plugin name {name!r} must be lowercase kebab-case, e.g. 'word-tools'"
    why = _problem(name, kind)
    if why is None:
        return None
    fits = [c for c in (f"{name}-tools", f"my-{name}") if _problem(c, kind) is None]
    return f"{why}; choose another name, e.g. {' or '.join(repr(c) for c in fits)}"


PROJECT_NEEDS: Final = frozenset(
    {"hermes-plugin-kit", "kit-core", "kit-lifecycle", "kit-media", "kit-devtools", "pytest",
     "hatchling", "pyyaml"}
)  # fmt: skip
"""The distributions a new project requires by name (its dependencies, its dev group and
its build backend), found whether or not they are installed here."""


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def project_needs(kind: str = "standalone") -> frozenset[str]:
    """Every distribution the new project of ``kind`` resolves to: :data:`PROJECT_NEEDS`,
    the kind's own, and, as installed here, what they require in turn (pytest's pluggy,
    iniconfig, …)."""
    seen, todo = set[str](), [*PROJECT_NEEDS, *project_kind(kind).needs]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.distribution(name).requires or []
        except metadata.PackageNotFoundError:
            continue
        todo.extend(
            _normalized(re.split(r"[\s;<>=!~\[(]", line, maxsplit=1)[0])
            for line in requires
            if "extra ==" not in line or 'extra == "dev"' in line.replace("'", '"')
        )
    return frozenset(seen)


def _problem(name: str, kind: str) -> str | None:
    package = name.replace("-", "_")
    if _normalized(name) in project_needs(kind):
        return (
            f"plugin name {name!r} is the name of a distribution the new project itself"
            f" depends on: uv refuses a project that requires itself, so it would never sync"
        )
    if package in hermes_top_level():
        return (
            f"plugin name {name!r} gives the package {package!r}, which is a top-level package"
            f" of hermes-agent itself: hermes would import its own {package!r} instead of the"
            f" plugin"
        )
    try:
        tool_name(package, "count", "words")
    except ToolDefinitionError as exc:
        return f"plugin name {name!r} gives tools named {package}_..., which the kit refuses: {exc}"
    if package in BUILTIN_TOOLSETS:
        return (
            f"plugin name {name!r} is the name of a toolset of hermes' own: the plugin's tools"
            f" would be merged into it and switched on and off with it"
        )
    taken = _importable_as(package)
    if taken is not None:
        return (
            f"plugin name {name!r} gives the package {package!r}, which this environment"
            f" already imports as {taken}: the plugin's own package would be shadowed by it,"
            f" or shadow it, and never load as the plugin"
        )
    return None


def _importable_as(package: str) -> str | None:
    """What already answers ``import <package>`` here (the standard library, an installed
    distribution such as kit-media's ``kit_media`` or PyYAML's ``yaml``), or None."""
    if package in sys.stdlib_module_names:
        return "a module of Python's standard library"
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    return f"an installed module ({spec.origin or 'a namespace package'})"


def scaffold(
    name: str, directory: Path, mode: str = "auto", kind: str = "standalone"
) -> list[Path]:
    """Write the project ``directory/name`` of ``kind`` (a key of :data:`KINDS`); return
    the files written.

    Raises:
        ValueError: an unknown kind, a bad name, an existing directory, or an impossible
            ``mode``.
    """
    project = project_kind(kind)
    if (why := refusal(name, kind)) is not None:
        raise ValueError(why)
    root = directory / name
    if root.exists():
        msg = f"{root} already exists; choose another name or directory"
        raise ValueError(msg)
    package = name.replace("-", "_")
    requirement, sources = kit_source(mode)
    values = {
        "name": name,
        "package": package,
        "namespace": package,
        "provider": package.title().replace("_", ""),
        "upper": package.upper(),
        "requirement": requirement,
        "dev_requirement": requirement.replace("hermes-plugin-kit", "hermes-plugin-kit[dev]", 1),
        "hermes_requirement": (installed_release() or newest_registry_release()).requirement,
        "sources": sources,
        "floor": project.floor or registry_releases()[0].version,
        "newest": registry_releases()[-1].version,
        # what the scaffolds' comments say a release starts to do, from the host model
        "reads_requires_hermes": first_version(lambda r: "requires_hermes" in r.manifest),
        "memory_entry_points": first_version(lambda r: MEMORY_ENTRY_POINT in r.functions),
        "description": project.description,
        "tooling_comment": TOOLING_COMMENT,
        **project.words,
    }
    for part in ("dependencies", "entry_points", "dev_extra"):
        values[part] = Template(getattr(project, part)).substitute(values)
    values["provider_checks"] = Template(PROVIDER_CHECKS).substitute(values)
    files = {root / "pyproject.toml": PYPROJECT}
    files |= {
        root / Template(path).substitute(values): text for path, text in project.files.items()
    }
    workflow = ci_workflow(f"src/{package}", f">={values['floor']}", kind)
    files[root / ".github" / "workflows" / "plugin.yml"] = Template(workflow.replace("$", "$$"))
    for path, template in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(template.substitute(values), encoding="utf-8")
    return list(files)
