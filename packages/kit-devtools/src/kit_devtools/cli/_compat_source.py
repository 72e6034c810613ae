"""The rules on a plugin's source text: names upstream moved, the re-kinding text test,
absolute imports of the plugin's own package, and ``PluginContext`` members a release
lacks."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Final, cast

from kit_core.hermes import HostRelease, first_release, version_key
from kit_devtools.cli._moved_names import is_getattr, scan
from kit_devtools.cli.findings import E, Finding, Rule, W, declare, finding
from kit_devtools.testing import LoadedPlugin
from kit_devtools.testing._manifest import (
    MEMORY_MARKERS,
    MODEL_PROVIDER_MARKERS,
    REKIND_LIMIT,
    plugin_slug,
)

__all__ = [
    "absent_member_findings",
    "absolute_import_findings",
    "first_place",
    "is_own_package",
    "member_since",
    "moved_name_findings",
    "named_members",
    "own_import_findings",
    "python_files",
    "rekind_finding",
    "source_root",
    "source_trees",
]

_NEVER_LOADED = "hermes' general loader never imports the plugin"

declare("compat", {
    "HPK501": Rule(E, "uses {name}, a name upstream hermes moved or deleted (its Sep 2026"
                   " decomposition): from 2026-09-14 upstream's loader skips a plugin whose"
                   " source uses one (hermes_cli/plugin_compat.py), unless the operator sets"
                   " plugins.allow_deprecated_imports: true",
                   "import it from the module it moved to (upstream's compat_manifest.json"
                   " names it), or do without it",
                   "upstream's loader skips the plugin"
                   " (hermes_cli.plugin_compat.disable_reason)"),
    "HPK502": Rule(E, "plugin.yaml has no 'kind' and the first 8192 characters of __init__.py"
                   " contain {marker!r} (line {line}): hermes re-kinds the plugin as {kind!r}"
                   " ({what}) and its general plugin loader never imports it",
                   "add 'kind: standalone' to plugin.yaml (a real one states 'kind:"
                   " {kind}')", f"_parse_manifest's text test"
                   f" (hermes_cli.plugins.PluginManager._parse_manifest): {_NEVER_LOADED}"),
    "HPK504": Rule(E, "absolute import of the plugin's own package ({statement}): hermes"
                   " imports a directory plugin as hermes_plugins.{slug}, so {top!r} is not"
                   " importable there (it works only where the plugin's parent folder is on"
                   " sys.path, as in its own tests)", "import it relatively: {suggestion}",
                   "_load_directory_module imports the plugin as hermes_plugins.<slug>"
                   " (hermes_cli.plugins.PluginManager._load_directory_module)"),
    "HPK507": Rule(W, "ctx.{member} is not on {release} (it came with {since}): there the"
                   " plugin's call raises AttributeError, or, guarded (hasattr, getattr, try),"
                   " does nothing, and hermes says nothing of it",
                   "require that release (requires_hermes: \">={version}\"), or tell the"
                   " plugin's users what is off on older hermes",
                   "the release's PluginContext lacks the member (the host model's members of"
                   " each release, read from it)"),
})  # fmt: skip

_SKIPPED_DIRS: Final = frozenset({"__pycache__", "node_modules", "venv", "build", "dist"})
_TEST_DIRS: Final = frozenset({"tests", "test"})
_LOOKUPS: Final = frozenset({"getattr", "hasattr"})


def python_files(root: Path) -> Iterator[Path]:
    """The plugin's ``.py`` files, without hidden folders, caches and build output."""
    if root.is_file():
        yield root
        return
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).parts[:-1]
        if any(p.startswith(".") or p in _SKIPPED_DIRS for p in parts):
            continue
        yield path


def _is_test(path: Path, root: Path) -> bool:
    rel = path.relative_to(root).parts
    name = rel[-1]
    return bool(_TEST_DIRS & set(rel[:-1])) or name.startswith("test_") or name == "conftest.py"


def _parse(path: Path) -> ast.Module | None:
    try:
        return ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except (SyntaxError, ValueError, OSError):
        return None


def moved_name_findings(root: Path) -> list[Finding]:
    """HPK501 for each moved name a file of the plugin uses (:mod:`._moved_names`)."""
    found: list[Finding] = []
    base = root.parent
    for path in python_files(root):
        try:
            hits = scan(path.read_text(encoding="utf-8", errors="replace"))
        except (SyntaxError, ValueError):
            continue
        where = f"file {path.relative_to(base)}"
        found += [finding("HPK501", where, name=name) for name in hits]
    return found


def rekind_finding(directory: Path, manifest: dict[str, object]) -> Finding | None:
    """HPK502 when hermes' text test re-kinds a directory plugin that declares no kind.

    The test, exactly: with no ``kind`` key in plugin.yaml, the first 8192 characters of
    ``__init__.py`` (read with ``errors="replace"``) are searched for
    ``"register_memory_provider"`` or ``"MemoryProvider"`` (-> ``exclusive``), else for
    both ``"register_provider"`` and ``"ProviderProfile"`` (-> ``model-provider``).
    hermes-agent 0.19.0: ``hermes_cli.plugins.PluginManager._parse_manifest`` (the registry
    wheel); upstream: ``hermes_cli.plugins_manifest._detect_kind_from_source`` on
    ``hermes_cli.plugins_manifest._read_source_from_origin(..., limit=8192)`` (which reads
    ``utf-8-sig``: a byte-order mark is not counted), both mirroring
    ``plugins.memory._is_memory_provider_dir``.
    """
    if "kind" in manifest:
        return None
    init = directory / "__init__.py"
    try:
        source = init.read_text(encoding="utf-8-sig", errors="replace")[:REKIND_LIMIT]
    except OSError:
        return None
    found = next((m for m in MEMORY_MARKERS if m in source), None)
    kind, what = "exclusive", "a memory provider"
    if found is None:
        if not all(m in source for m in MODEL_PROVIDER_MARKERS):
            return None
        found, kind, what = MODEL_PROVIDER_MARKERS[1], "model-provider", "a model provider"
    line = source[: source.index(found)].count("\n") + 1
    where = f"plugin {directory.name} __init__.py"
    return finding("HPK502", where, marker=found, line=line, kind=kind, what=what)


def _own_package_names(directory: Path, key: str) -> set[str]:
    return {directory.name, plugin_slug(key), plugin_slug(directory.name)} - {""}


def _directory(plugin: LoadedPlugin) -> Path | None:
    """A directory plugin's folder (hermes imports it as ``hermes_plugins.<slug>``); None
    for a module or an entry point, which are imported by their own names."""
    return Path(plugin.path) if plugin.source == "directory" and plugin.path else None


def own_import_findings(plugin: LoadedPlugin) -> list[Finding]:
    """HPK504 for each absolute import of a directory plugin's own package
    (:func:`absolute_import_findings`)."""
    directory = _directory(plugin)
    return [] if directory is None else absolute_import_findings(directory, plugin.key)


def is_own_package(plugin: LoadedPlugin, module: str) -> bool:
    """Whether ``module`` is (in) the directory plugin's own package, by a name hermes does
    not import it as."""
    directory = _directory(plugin)
    if directory is None:
        return False
    return module.partition(".")[0] in _own_package_names(directory, plugin.key)


def _relative(path: Path, root: Path, module: str, names: list[str]) -> str:
    depth = len(path.relative_to(root).parts) - 1
    dots = "." * (depth + 1)
    rest = module.partition(".")[2]
    imported = ", ".join(names) or "..."
    if rest:
        return f"from {dots}{rest} import {imported}"
    return f"from {dots} import {imported}"


def absolute_import_findings(directory: Path, key: str) -> list[Finding]:
    """HPK504 for each ``import <own>``/``from <own>[.x] import`` in a file hermes
    imports (test files are not: hermes never imports them). hermes imports a directory
    plugin as ``hermes_plugins.<slug>``
    (``hermes_cli.plugins.PluginManager._load_directory_module``, 0.19.0 and upstream alike;
    upstream takes the name from ``hermes_cli.plugins.PluginManager._directory_module_name``)."""
    own = _own_package_names(directory, key)
    found: list[Finding] = []
    for path in python_files(directory):
        if _is_test(path, directory):
            continue
        tree = _parse(path)
        if tree is None:
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            statement = suggestion = None
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if node.module.split(".")[0] in own:
                    names = [a.name for a in node.names]
                    statement = f"from {node.module} import {', '.join(names)}"
                    suggestion = _relative(path, directory, node.module, names)
            else:
                for alias in node.names:
                    if alias.name.split(".")[0] in own:
                        statement = f"import {alias.name}"
                        module, _, last = alias.name.rpartition(".")
                        suggestion = _relative(path, directory, module or alias.name,
                                               [last] if module else [])  # fmt: skip
            if statement is not None and suggestion is not None:
                where = f"file {path.relative_to(directory.parent)} line {node.lineno}"
                top = statement.split()[1].split(".")[0]
                found.append(
                    finding("HPK504", where, statement=statement, slug=plugin_slug(key),
                            top=top, suggestion=suggestion)
                )  # fmt: skip
    return found


def source_trees(root: Path) -> Iterator[tuple[Path, ast.Module]]:
    """Each of the plugin's Python files that parses (test files left out), with its tree."""
    for path in python_files(root):
        if root.is_dir() and _is_test(path, root):
            continue
        tree = _parse(path)
        if tree is not None:
            yield path, tree


def named_members(root: Path, members: set[str]) -> dict[str, list[str]]:
    """``member -> ["file line", ...]`` for each ``<name>.<member>`` of ``members`` in the
    plugin's source (test files left out): context members a plugin may call after
    ``register()``, which the recording does not see."""
    base = root.parent
    found: dict[str, list[str]] = {}
    for path, tree in source_trees(root):
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in members:
                where = f"{path.relative_to(base)} line {node.lineno}"
                found.setdefault(node.attr, []).append(where)
    return found


_CONTEXT_NAMES: Final = frozenset({"ctx", "context", "plugin_context"})
"""What plugins call the ``PluginContext`` hermes hands ``register()`` (besides the name of
``register``'s own parameter, which is read from the source)."""


def _context_names(tree: ast.Module) -> set[str]:
    names = set(_CONTEXT_NAMES)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == "register":
            names.update(arg.arg for arg in node.args.args[:1])
    return names


def context_members_named(root: Path) -> dict[str, list[str]]:
    """``member -> ["file line", ...]`` for each ``PluginContext`` member the plugin's source
    reaches for: ``ctx.member``, ``getattr(ctx, "member", ...)``, ``hasattr(ctx,
    "member")`` (test files left out), guarded or not."""
    base = root.parent
    found: dict[str, list[str]] = {}
    for path, tree in source_trees(root):
        names = _context_names(tree)
        for node in ast.walk(tree):
            member: str | None = None
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in names
            ):
                member = node.attr
            elif (
                is_getattr(node, _LOOKUPS)
                and isinstance(node.args[0], ast.Name)
                and node.args[0].id in names
            ):
                member = str(cast("ast.Constant", node.args[1]).value)
            if member is not None:
                line = getattr(node, "lineno", 0)
                found.setdefault(member, []).append(f"{path.relative_to(base)} line {line}")
    return found


def absent_member_findings(
    root: Path, release: HostRelease, failed: BaseException | None = None
) -> list[Finding]:
    """HPK507 for each ``PluginContext`` member the plugin's source reaches for that
    ``release`` lacks and a later release offers: there the call raises AttributeError, or,
    guarded (``hasattr``, ``getattr(..., None)``, ``try``), does nothing, and hermes says
    nothing of it (a registry plugin calls ``register_system_prompt_section`` on 0.19.0).
    A member whose absence is the AttributeError ``failed`` that stopped the load is left to
    that error's finding."""
    found: list[Finding] = []
    for member, places in sorted(context_members_named(root).items()):
        since = member_since(member, release)  # None: not a member (HPK506 is about those)
        if since is None or (isinstance(failed, AttributeError) and repr(member) in str(failed)):
            continue
        found.append(finding("HPK507", first_place(places), member=member, release=release.label,
                             since=since.label, version=since.version))  # fmt: skip
    return found


def member_since(member: str, release: HostRelease) -> HostRelease | None:
    """The release that brought the ``PluginContext`` member, when it is newer than
    ``release``; None when it is not (or no release has it)."""
    since = first_release(lambda r: r.offers(member))
    newer = since is not None and version_key(since.version) > version_key(release.version)
    return since if newer else None


def first_place(places: list[str]) -> str:
    """The first of the places a member is named, and how many more there are."""
    return places[0] + (f" (and {len(places) - 1} more)" if len(places) > 1 else "")


def source_root(plugin: LoadedPlugin) -> Path | None:
    """The plugin's directory, or its module's file (its package folder for a package)."""
    if plugin.path is not None:
        return Path(plugin.path)
    file = getattr(plugin.module, "__file__", None)
    if not isinstance(file, str):
        return None
    path = Path(file)
    return path.parent if path.name == "__init__.py" else path
