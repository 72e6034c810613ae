"""Finding and importing a plugin the way hermes' ``PluginManager`` does (0.19.0's
``_load_directory_module`` and ``_load_entrypoint_module``), with the manifest the release
being played builds (:mod:`._manifest`)."""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import importlib.util
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Final, Literal

from kit_core.hermes import ENTRY_POINT_GROUP, MANIFEST_FILES, PLUGIN_PACKAGE, HostRelease
from kit_devtools.testing._failure import ManifestNotRead, PluginRefused
from kit_devtools.testing._manifest import (
    ManifestBeyondLimits,
    ManifestError,
    build_manifest,
    effective_kind,
    manifest_class,
    plugin_slug,
    read_manifest,
)
from kit_devtools.testing.entries import PluginManifest


@dataclass(slots=True)
class Target:
    """A resolved ``load()`` target: what to import, and the manifest hermes would build."""

    source: Literal["directory", "module", "entrypoint"]
    manifest: PluginManifest
    data: dict[str, Any]
    path: Path | None
    importer: Callable[[], ModuleType]
    warnings: list[str] = field(default_factory=list[str])
    refused: PluginRefused | None = None
    """Why hermes would not import it (a manifest it cannot parse, an exclusive kind...):
    its wording, the reason and the fix."""


def resolve(target: object, key: str | None, release: HostRelease | None = None) -> Target:
    """Work out what ``target`` names, with the manifest ``release`` would build (0.19.0's
    when None); raise LookupError when it names nothing."""
    if isinstance(target, ModuleType):
        return _module_target(target, key, release=release)
    if isinstance(target, str) and not target.strip():
        msg = "cannot load an empty name: pass a plugin directory, a module, or a name"
        raise LookupError(msg)
    if isinstance(target, Path) or (isinstance(target, str) and Path(target).expanduser().is_dir()):
        directory = Path(target).expanduser().resolve()
        if not directory.is_dir():
            msg = f"no plugin directory at {directory}"
            raise LookupError(msg)
        return _directory_target(directory, key, release)
    if not isinstance(target, str) or not target:
        msg = f"cannot load {target!r}: pass a plugin directory, a module, or a name"
        raise LookupError(msg)
    if "/" in target or "\\" in target or target.startswith(("~", ".")):
        msg = f"no plugin directory at {Path(target).expanduser().resolve()}"
        raise LookupError(msg)
    entry_point = _entry_point(target)
    if entry_point is not None:
        cls = manifest_class(release.manifest) if release is not None else PluginManifest
        manifest = cls(
            name=entry_point.name,
            source="entrypoint",
            path=entry_point.value,
            key=key or entry_point.name,
        )
        return Target("entrypoint", manifest, {}, None, entry_point.load)
    try:
        found = importlib.util.find_spec(target) is not None
    except (ImportError, ValueError):
        found = False
    except Exception:  # its parent package fails to import: load() reports that
        found = True
    if not found:
        msg = (
            f"{target!r} is not a plugin directory, an importable module, or an entry point"
            f" of group {ENTRY_POINT_GROUP!r}"
        )
        raise LookupError(msg)
    return _module_target(None, key, name=target, release=release)


def _entry_point(name: str) -> importlib.metadata.EntryPoint | None:
    for entry_point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        if entry_point.name == name:
            return entry_point
    return None


def _unreadable(path: Path, exc: BaseException) -> PluginRefused:
    return PluginRefused(
        f"Failed to parse {path}: {exc}",
        "make plugin.yaml a YAML mapping hermes' safe loader reads (name:, kind:, ...)",
    )


def directory_manifest(
    directory: Path, release: HostRelease | None = None
) -> tuple[dict[str, Any], PluginRefused | None]:
    """The manifest of ``directory`` (``{}`` when it has none), and a refusal if unreadable."""
    for file_name in MANIFEST_FILES:
        path = directory / file_name
        if path.is_file():
            try:
                return read_manifest(path, release), None
            except ManifestBeyondLimits as exc:
                return {}, ManifestNotRead(path.name, exc.why, exc.fix)
            except (ManifestError, OSError, UnicodeDecodeError) as exc:
                return {}, _unreadable(path, exc)
    return {}, None


_KIND_REFUSALS: Final = {
    "exclusive": PluginRefused(
        "exclusive plugin — activate via <category>.provider config",
        "a memory provider is activated through hermes' memory.provider config, not as a"
        " general plugin; if this is not one, add 'kind: standalone' to plugin.yaml (hermes"
        " re-kinds a plugin without 'kind' whose __init__.py mentions MemoryProvider)",
    ),
}
"""The kinds hermes' general loader records as not loaded; a ``model-provider`` it records
as enabled and leaves to ``providers/``."""


def _built(
    data: dict[str, Any], directory: Path | None, release: HostRelease | None, name: str, key: str
) -> tuple[PluginManifest, PluginRefused | None, str, list[str]]:
    """The release's manifest, or hermes' refusal when its reader raises on ``data`` (a
    key of another type than text among unknown fields, say: ``sorted`` fails); the kind
    hermes gives the plugin, and the warnings (re-kinding it, reading the manifest)."""
    kind, kind_warning = effective_kind(data, directory)
    warnings = [f"Plugin {key}: {kind_warning}; treating as 'standalone'"] if kind_warning else []
    path = str(directory) if directory else None
    build = functools.partial(
        build_manifest, name=name, key=key, source="user", path=path, kind=kind, warnings=warnings
    )
    try:
        return build(data, release=release), None, kind, warnings
    except Exception as exc:  # hermes: "Failed to parse <file>: <exc>"
        file = next(
            (directory / n for n in MANIFEST_FILES if directory and (directory / n).is_file()), None
        )
        return build({}), _unreadable(file or Path("plugin.yaml"), exc), kind, warnings


def directory_key(data: Mapping[str, Any], directory: Path) -> str:
    """The key hermes gives a plugin directory: its manifest's ``name`` as text (a YAML
    value of another type too, as hermes keeps it), else the folder's name."""
    return str(data.get("name", directory.name))


def _directory_target(directory: Path, key: str | None, release: HostRelease | None) -> Target:
    data, refused = directory_manifest(directory, release)
    if refused is None and not any((directory / name).is_file() for name in MANIFEST_FILES):
        # hermes' discovery (_scan_directory_level) skips a directory without a manifest
        refused = PluginRefused(
            f"{directory} has no plugin.yaml: hermes discovers only plugin directories that"
            " hold one (or plugin.yml), so it never loads this plugin",
            "add plugin.yaml with at least 'name: <plugin-name>' and 'kind: standalone'",
            error=f"{directory} has no plugin.yaml",
        )
    raw_name: object = data.get("name", directory.name)
    name = directory_key(data, directory)
    if refused is None and not isinstance(raw_name, str):
        # hermes keeps the YAML value as the key and matches it against plugins.enabled,
        # which `hermes plugins enable` fills with strings: "not enabled in config"
        refused = PluginRefused(
            f"plugin.yaml's name is {raw_name!r} ({type(raw_name).__name__}), not a string:"
            " `hermes plugins enable` writes strings, which never match it",
            "quote the name in plugin.yaml",
        )
    manifest, unread, kind, warnings = _built(data, directory, release, name, key or name)
    refused = refused or unread or _KIND_REFUSALS.get(kind)
    slug = plugin_slug(manifest.key)
    importer = functools.partial(import_fresh, directory, slug)
    return Target("directory", manifest, data, directory, importer, warnings, refused)


def _module_target(
    module: ModuleType | None, key: str | None, name: str = "", release: HostRelease | None = None
) -> Target:
    module_name = module.__name__ if module is not None else name
    data: dict[str, Any] = {}
    path: Path | None = None
    refused = None
    origin = getattr(module, "__file__", None) if module is not None else _origin(name)
    if origin and Path(origin).name == "__init__.py":
        path = Path(origin).resolve().parent
        if any((path / f).is_file() for f in MANIFEST_FILES):
            data, refused = directory_manifest(path, release)
    plugin_name = str(data.get("name", key or module_name.rpartition(".")[2]))
    manifest, unread, _, warnings = _built(data, path, release, plugin_name, key or plugin_name)
    importer: Callable[[], ModuleType] = (
        (lambda: module) if module is not None else (lambda: importlib.import_module(name))
    )
    return Target("module", manifest, data, path, importer, warnings, refused or unread)


def _origin(name: str) -> str | None:
    try:
        spec = importlib.util.find_spec(name)
    except Exception:
        return None
    return spec.origin if spec is not None else None


def ensure_namespace(namespace: str = PLUGIN_PACKAGE) -> None:
    """The namespace package plugins are imported under (``hermes_plugins`` for directory
    plugins)."""
    if namespace not in sys.modules:
        package = ModuleType(namespace)
        package.__path__ = []
        package.__package__ = namespace
        sys.modules[namespace] = package


def import_fresh(directory: Path, slug: str, namespace: str = PLUGIN_PACKAGE) -> ModuleType:
    """Import ``directory`` as ``<namespace>.<slug>``, re-executing it and its
    submodules (a fresh copy per load, like a new hermes process)."""
    init = directory / "__init__.py"
    if not init.exists():
        msg = f"No __init__.py in {directory}"
        raise FileNotFoundError(msg)
    ensure_namespace(namespace)
    module_name = f"{namespace}.{slug}"
    _forget(module_name)
    return exec_package(module_name, directory, f"Cannot create module spec for {init}")


def exec_package(
    module_name: str,
    directory: Path,
    no_spec: str,
    forget: Callable[[str], object] | None = None,
) -> ModuleType:
    """Run ``directory/__init__.py`` as the package ``module_name``, in ``sys.modules``;
    if it raises, ``forget`` (by default: it and its submodules) drops it again.
    ImportError ``no_spec`` when no spec can be made."""
    spec = importlib.util.spec_from_file_location(
        module_name, directory / "__init__.py", submodule_search_locations=[str(directory)]
    )
    if spec is None or spec.loader is None:
        raise ImportError(no_spec)
    module = importlib.util.module_from_spec(spec)  # __package__, __path__: the package's
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        (forget or _forget)(module_name)
        raise
    return module


def _forget(module_name: str) -> None:
    for name in [n for n in sys.modules if n == module_name or n.startswith(module_name + ".")]:
        del sys.modules[name]
