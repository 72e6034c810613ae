"""What ``check`` and ``call`` were pointed at: a directory, a module, or an entry point."""

from __future__ import annotations

import ast
import importlib.machinery
import importlib.metadata
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path

from kit_core.hermes import ENTRY_POINT_GROUP, HostRelease, first_version
from kit_devtools.cli.findings import E, Finding, Rule, declare, finding
from kit_devtools.testing._loader import directory_manifest
from kit_devtools.testing._manifest import effective_kind
from kit_devtools.testing.host_names import profile

declare("plugin and manifest", {
    "HPK007": Rule(E, "the entry point {name!r} names {value!r}, which has no register:"
                   " hermes loads the entry point, reads register from what it gives, and"
                   " records 'no register() function' (hermes {callable_from} and later call"
                   " a callable it gives)",
                   "point it at the module: {module!r}",
                   "_load_entrypoint_module returns ep.load() and the loader reads"
                   " .register from it, so a function gives 'no register() function' and"
                   " an object with a register loads"
                   " (hermes_cli.plugins.PluginManager._load_entrypoint_module,"
                   " hermes_cli.plugins.PluginManager._load_plugin); 0.21.5 calls a callable"
                   " result (hermes_cli.plugins.PluginManager._load_plugin_scoped)"),
    "HPK008": Rule(E, "the entry point {name!r} is in group {group!r}, which hermes never"
                   " scans", "declare it under [project.entry-points.\"hermes_agent.plugins\"]",
                   "_scan_entry_points reads only the group 'hermes_agent.plugins'"
                   " (hermes_cli.plugins.PluginManager._scan_entry_points,"
                   " hermes_cli.plugins.ENTRY_POINTS_GROUP)"),
    "HPK019": Rule(E, "the entry point {name!r} of {dist} ({value}) has this plugin's name:"
                   " hermes discovers entry points after plugin directories and keeps the"
                   " last plugin of a name, so beside that package this directory never loads"
                   " (hermes {kept_from} and later keep the directory's)",
                   "rename the plugin in plugin.yaml, or install only one of the two",
                   "hermes_cli.plugins.PluginManager._discover_and_load_inner keeps the last"
                   " manifest of each key, entry points last (winners); 0.21.4 drops entry"
                   " points named in directory_keys"),
})  # fmt: skip


@dataclass(frozen=True, slots=True)
class Target:
    """A resolved target: what to hand the in-memory host, or why it cannot be loaded.

    An entry point with a defect still names a module: it is loaded as if the entry point
    were fixed, under the entry point's name (``key``), so the plugin's other defects are
    reported in the same run.
    """

    load: str | Path | None
    findings: tuple[Finding, ...] = field(default=())
    problem: str | None = None
    key: str | None = None
    entry_point: str | None = None
    """The entry point's name when TARGET named one (``check --real`` enables it by name)."""


def _entry_point_findings(name: str, release: HostRelease) -> Target | None:
    """HPK007 for an entry point naming ``module:object`` whose object gives hermes no
    register: hermes reads ``register`` off what ``ep.load()`` returns (``getattr(module,
    "register")`` in ``hermes_cli.plugins.PluginManager._load_plugin`` after
    ``hermes_cli.plugins.PluginManager._load_entrypoint_module``), so through 0.21.4 a
    function is 'no register() function', while an object that has a ``register`` loads.
    From 0.21.5 (``entry_point_callable``) a callable that is not a module is called as the
    register (``hermes_cli.plugins.PluginManager._load_plugin_scoped``). HPK008 for an entry
    point of another hermes group."""
    groups = importlib.metadata.entry_points()
    for ep in groups.select(group=ENTRY_POINT_GROUP, name=name):
        if ":" in ep.value and not release.entry_point_callable and not _gives_register(ep):
            module = ep.value.split(":", 1)[0].strip()
            found = finding(
                "HPK007", f"entry point {name}", name=name, value=ep.value, module=module,
                callable_from=first_version(lambda r: r.entry_point_callable),
            )  # fmt: skip
            return Target(module, (found,), key=name, entry_point=name)
        return Target(name, entry_point=name)
    for group in groups.groups:
        if "hermes" in group and group != ENTRY_POINT_GROUP:
            for ep in groups.select(group=group, name=name):
                found = finding("HPK008", f"entry point {name}", name=ep.name, group=group)
                module = ep.value.split(":", 1)[0].strip()
                return Target(module, (found,), key=name, entry_point=name)
    return None


def _gives_register(ep: importlib.metadata.EntryPoint) -> bool:
    """Whether what ``ep`` names may have a ``register`` hermes can call: False only for a
    function its module defines (a function has none), read from the module's source so
    no plugin code runs here (it runs in the in-memory host's sandbox when loaded). True
    when the source cannot be found or read: loading through the entry point then reports
    what hermes would."""
    module, _, attr = ep.value.partition(":")
    source = _module_source(module.strip())
    if source is None:
        return True
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return True
    name = attr.strip().split(".", 1)[0]
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    return not any(isinstance(n, functions) and n.name == name for n in tree.body)


def _module_source(module: str) -> str | None:
    """The source of ``module``, found on ``sys.path`` without importing it or its
    packages (``PathFinder`` reads directories only); None when not found."""
    spec = _find_spec(module)
    origin = getattr(spec, "origin", None)
    if not origin or not origin.endswith(".py"):
        return None
    try:
        return Path(origin).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _find_spec(module: str) -> importlib.machinery.ModuleSpec | None:
    """The spec of ``module`` on ``sys.path``, found without importing it or its packages
    (``PathFinder`` reads directories only); None when not found."""
    spec, where = None, None
    for part in module.split("."):
        name = part if spec is None else f"{spec.name}.{part}"
        spec = importlib.machinery.PathFinder.find_spec(name, where)
        if spec is None:
            return None
        where = spec.submodule_search_locations
    return spec


def _shadowing_entry_point(directory: Path, release: HostRelease) -> tuple[Finding, ...]:
    """HPK019 when an installed entry point holds the directory plugin's name on a release
    where the entry point wins: hermes scans entry points after plugin directories and
    keeps the last plugin of a key (``winners`` in
    ``hermes_cli.plugins.PluginManager._discover_and_load_inner``), so the directory never
    loads beside that package. From 0.21.4 the directory keeps its name
    (``directory_beats_entry_point``: ``_discover_and_load_inner`` drops entry points whose
    key is in ``directory_keys``): nothing to report. Not for a memory provider: hermes' memory
    discovery reads its directory whatever the general loader keeps under its name."""
    if release.directory_beats_entry_point:
        return ()
    data, _ = directory_manifest(directory)  # plugin.yaml or plugin.yml, as hermes reads it
    if effective_kind(data, directory)[0] == "exclusive":
        return ()  # hermes' memory discovery reads the directory itself, whatever holds the key
    name = data.get("name", directory.name)
    if not isinstance(name, str):
        return ()  # hermes refuses the plugin first: a key no entry point's name can equal
    found = importlib.metadata.entry_points().select(group=ENTRY_POINT_GROUP, name=name)
    return tuple(
        finding("HPK019", f"plugin {name}", name=name, value=ep.value,
                dist=ep.dist.name if ep.dist else "an installed package",
                kept_from=first_version(lambda r: r.directory_beats_entry_point))
        for ep in found
        if not names_directory(ep, directory)
    )  # fmt: skip


def own_entry_point(directory: Path, name: str) -> bool:
    """Whether an installed entry point ``name`` names the package ``directory`` itself."""
    found = importlib.metadata.entry_points().select(group=ENTRY_POINT_GROUP, name=name)
    return any(names_directory(ep, directory.resolve()) for ep in found)


def names_directory(ep: importlib.metadata.EntryPoint, directory: Path) -> bool:
    """Whether ``ep`` names the package in ``directory`` (found as ``_module_source`` finds
    a module, without importing it). The plugin project's own entry point (``uv sync``
    installs it, editable) names the very directory ``check`` is pointed at: that is the
    same plugin, which hermes loads once, not a rival of its name."""
    spec = _find_spec(ep.value.split(":", 1)[0].strip())
    locations = list(spec.submodule_search_locations or ()) if spec is not None else []
    return len(locations) == 1 and Path(locations[0]).resolve() == directory


def resolve_target(target: str, release: HostRelease | None = None) -> Target:
    """Turn ``check``'s TARGET into something the in-memory host can load, with the
    findings of how ``release`` (default: the release the in-memory host plays) finds it."""
    release = release if release is not None else profile(None)
    path = Path(target)
    if path.exists():
        if path.is_dir() and (path / "__init__.py").is_file():
            return Target(path.resolve(), _shadowing_entry_point(path.resolve(), release))
        if path.is_dir():
            return Target(None, problem=f"{path} is a directory without __init__.py")
        return Target(None, problem=f"{path} is a file; point check at the plugin's directory")
    by_entry_point = _entry_point_findings(target, release)
    if by_entry_point is not None:
        return by_entry_point
    try:
        spec = importlib.util.find_spec(target)
    except (ImportError, ValueError):
        spec = None
    if spec is not None:
        return Target(target)
    return Target(
        None,
        problem=(
            f"{target!r} is neither a plugin directory, an importable module, nor an installed"
            f" plugin of the {ENTRY_POINT_GROUP!r} entry-point group"
        ),
    )
