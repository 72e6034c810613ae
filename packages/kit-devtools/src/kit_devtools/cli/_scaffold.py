"""``hermes-plugin-kit new NAME``: a plugin project that passes ``check``, ``preflight`` and
its tests, with a CI workflow running them."""

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

from kit_core._host_model import registry_releases
from kit_core.errors import ToolDefinitionError
from kit_core.names import tool_name
from kit_devtools.cli._tool_rules import BUILTIN_TOOLSETS
from kit_devtools.cli._workflow import ci_workflow
from kit_devtools.testing.host_names import hermes_top_level

_NAME: Final = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
SUBDIRECTORY: Final = "packages/hermes-plugin-kit"

PYPROJECT: Final = Template("""\
[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "$name"
version = "0.1.0"
description = "A hermes-agent plugin."
requires-python = ">=3.11"
dependencies = ["$requirement"]

# pip-installed plugins are found through this entry point (hermes loads the module)
[project.entry-points."hermes_agent.plugins"]
$name = "$package"

# the kit's author tooling (in-memory host, pytest fixtures, the hermes-plugin-kit command)
[dependency-groups]
dev = ["pytest>=8,<10", "$dev_requirement"]

[tool.hatch.build.targets.wheel]
packages = ["src/$package"]
$sources""")

PLUGIN_YAML: Final = Template("""\
name: $name
version: 0.1.0
description: A hermes-agent plugin built with hermes-plugin-kit
kind: standalone
# the oldest hermes-agent this plugin runs on (upstream 0.21 refuses to load it on an older
# one; 0.19.0 and older ignore the key)
requires_hermes: ">=$floor"
# manifest v1: `hermes plugins install` refuses manifest_version 2 on every release
# through 0.21.3
manifest_version: 1
# what register() registers: catalogue admission (`hermes plugins validate`) refuses a
# plugin that registers more; `hermes-plugin-kit preflight --write` keeps them in step
provides_tools: [${namespace}_count_words]
""")

INIT: Final = Template('''\
"""$name: a hermes-agent plugin."""

from hermes_plugin_kit import register_plugin

from . import tools


def register(ctx):
    """Called by hermes with its PluginContext: registers every declaration of tools.py."""
    return register_plugin(ctx, tools)
''')

TOOLS: Final = Template('''\
"""The tools and commands of $name."""

from __future__ import annotations

from typing import Any

from hermes_plugin_kit import command, int_arg, str_arg, tool, tool_name


@tool(
    toolset="$name",
    namespace="$namespace",
    name=tool_name("$namespace", "count", "words"),
    params={
        "text": str_arg("The text to count words in", required=True, example="one two three"),
        "top": int_arg("How many of the most frequent words to list", minimum=0, maximum=50),
    },
)
def count_words(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Count the words of a text and list the most frequent ones."""
    words = args["text"].lower().split()
    frequency: dict[str, int] = {}
    for word in words:
        frequency[word] = frequency.get(word, 0) + 1
    ranked = sorted(frequency.items(), key=lambda item: (-item[1], item[0]))
    return {"words": len(words), "top": ranked[: args.get("top", 3)]}


@command("$name-status")
def status(raw_args: str) -> str:
    """Say that $name is loaded."""
    return "$name is loaded"
''')

TEST: Final = Template('''\
"""Tests of $name, on the kit's in-memory hermes host and, with ``--hermes``, on real
hermes-agent releases (``any_host``: ``pytest --hermes $floor,$newest`` runs each test on
the in-memory host and on both releases)."""

import json
from pathlib import Path

PLUGIN = Path(__file__).resolve().parents[1] / "src" / "$package"


def test_the_tool_reaches_the_model_with_its_arguments(any_host):
    plugin = any_host.load(PLUGIN)
    assert plugin.enabled, plugin.error
    definitions = {d["function"]["name"]: d["function"] for d in any_host.definitions()}
    assert definitions["${namespace}_count_words"]["parameters"]["required"] == ["text"]


def test_the_tool_answers_with_the_envelope(any_host):
    any_host.load(PLUGIN)
    out = json.loads(any_host.call_tool("${namespace}_count_words", {"text": "a b a"}))
    assert out == {"success": True, "data": {"words": 3, "top": [["a", 2], ["b", 1]]}}
    missing = json.loads(any_host.call_tool("${namespace}_count_words", {}))
    assert missing["error"] == "text is required (e.g. 'one two three')"


def test_the_status_command_answers(any_host):
    any_host.load(PLUGIN)
    assert any_host.run_command("$name-status") == "$name is loaded"
''')

README: Final = Template("""\
# $name

A hermes-agent plugin built with hermes-plugin-kit.

    uv run python -m pytest                            # its tests, on the kit's in-memory host
    uv run python -m pytest --hermes $floor,$newest    # and on real hermes, oldest and newest
    uv run hermes-plugin-kit check src/$package        # what hermes will see, and the lint
    uv run hermes-plugin-kit preflight src/$package    # hermes' catalogue admission rules

`.github/workflows/plugin.yml` runs all four on every push.

## Into hermes

Install the project into the Python environment hermes runs in: that brings the kit from
the commit `pyproject.toml` pins, and the entry point (`hermes_agent.plugins`) hermes
finds the plugin by. Then enable it:

    uv pip install --python "$$(head -1 "$$(command -v hermes)" | cut -c3-)" .
    hermes plugins enable $name

(the first line reads hermes' Python off the `hermes` command's first line; give its path
yourself if that is not a `#!` line). Copying `src/$package` into `~/.hermes/plugins/` is
not enough on its own: hermes then fails with `No module named 'hermes_plugin_kit'` until
the kit is installed into its environment too.
""")


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


def refusal(name: str) -> str | None:
    """Why a plugin called ``name`` could not work, with the fix; None when it can."""
    if not _NAME.fullmatch(name):
        return f"plugin name {name!r} must be lowercase kebab-case, e.g. 'word-tools'"
    why = _problem(name)
    if why is None:
        return None
    fits = [c for c in (f"{name}-tools", f"my-{name}") if _problem(c) is None]
    return f"{why}; choose another name, e.g. {' or '.join(repr(c) for c in fits)}"


PROJECT_NEEDS: Final = frozenset(
    {"hermes-plugin-kit", "kit-core", "kit-lifecycle", "kit-media", "kit-devtools", "pytest",
     "hatchling", "pyyaml"}
)  # fmt: skip
"""The distributions a new project requires by name (its dependencies, its dev group and
its build backend), found whether or not they are installed here."""


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def project_needs() -> frozenset[str]:
    """Every distribution the new project resolves to: :data:`PROJECT_NEEDS` and, as
    installed here, what they require in turn (pytest's pluggy, iniconfig, …)."""
    seen, todo = set[str](), list(PROJECT_NEEDS)
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


def _problem(name: str) -> str | None:
    package = name.replace("-", "_")
    if _normalized(name) in project_needs():
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


def scaffold(name: str, directory: Path, mode: str = "auto") -> list[Path]:
    """Write the project ``directory/name``; return the files written.

    Raises:
        ValueError: a bad name, an existing directory, or an impossible ``mode``.
    """
    if (why := refusal(name)) is not None:
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
        "requirement": requirement,
        "dev_requirement": requirement.replace("hermes-plugin-kit", "hermes-plugin-kit[dev]", 1),
        "sources": sources,
        "floor": registry_releases()[0].version,
        "newest": registry_releases()[-1].version,
    }
    files = {
        root / "pyproject.toml": PYPROJECT,
        root / "README.md": README,
        root / "src" / package / "plugin.yaml": PLUGIN_YAML,
        root / "src" / package / "__init__.py": INIT,
        root / "src" / package / "tools.py": TOOLS,
        root / "tests" / f"test_{package}.py": TEST,
    }
    workflow = ci_workflow(f"src/{package}", f">={values['floor']}")
    files[root / ".github" / "workflows" / "plugin.yml"] = Template(workflow.replace("$", "$$"))
    for path, template in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(template.substitute(values), encoding="utf-8")
    return list(files)
