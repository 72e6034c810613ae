"""Why hermes' general loader does not load a plugin, read from how the in-memory host's
load of it failed: register() raised (HPK001) or is missing (HPK002), the import failed
(HPK003, HPK018 when only hermes is missing here), hermes refuses it (HPK009) or the kit
does not read it (HPK020), register_skill failed on the path (HPK503, HPK401)."""

from __future__ import annotations

import traceback
from pathlib import PurePath
from typing import Any

from kit_devtools.cli._compat_source import is_own_package, own_import_findings
from kit_devtools.cli.findings import E, Finding, Rule, W, declare, finding
from kit_devtools.testing import LoadedPlugin
from kit_devtools.testing._failure import ManifestNotRead, PluginRefused
from kit_devtools.testing._failure import where as where_raised
from kit_devtools.testing._real_hermes import hermes_installed
from kit_devtools.testing.host_names import hermes_top_level

__all__ = ["load_findings", "missing_module"]

declare("plugin and manifest", {
    "HPK001": Rule(E, "register() raised {error}: hermes disables the whole plugin and keeps"
                   " whatever it registered before the error", "fix the error; run check again",
                   "_load_plugin catches the exception and records the plugin as not enabled"
                   " with its error (hermes_cli.plugins.PluginManager._load_plugin)"),
    "HPK002": Rule(E, "the plugin has no register() function", "define def register(ctx): ...",
                   "_load_plugin records 'no register() function' and does not enable it"
                   " (hermes_cli.plugins.PluginManager._load_plugin)"),
    "HPK003": Rule(E, "the plugin could not be imported: {error}", "fix the import error",
                   "an exception while importing the plugin module leaves it not enabled,"
                   " with the error recorded (hermes_cli.plugins.PluginManager._load_plugin)"),
    "HPK009": Rule(E, "hermes does not load this plugin: {reason}", "{fix}",
                   "discovery and _parse_manifest: no plugin.yaml, a manifest that does not"
                   " parse or whose name is not a string, or a kind the general loader"
                   " records without importing"
                   " (hermes_cli.plugins.PluginManager._discover_and_load_inner,"
                   " hermes_cli.plugins.PluginManager._scan_directory_level,"
                   " hermes_cli.plugins.PluginManager._parse_manifest)"),
    "HPK018": Rule(W, "the plugin imports {module}, a hermes module the in-memory host does"
                   " not model, and hermes-agent is not installed here: {error}",
                   "install hermes-agent beside the plugin (pip install hermes-agent) to"
                   " check this plugin",
                   "not a defect: in hermes the module is there; the check could not be"
                   " made here"),
    "HPK020": Rule(E, "the kit does not read {file}: {why}", "{fix}",
                   "the kit's own bounds (kit_devtools.testing._manifest MAX_BYTES, MAX_VALUES):"
                   " hermes reads plugin.yaml with yaml.safe_load, unbounded, so it gives no"
                   " verdict here; refused so that no check passes unread"),
})  # fmt: skip

declare("compat", {
    "HPK503": Rule(E, "register_skill got a {type} path: hermes calls path.exists() on it, so"
                   " register() raises AttributeError and hermes disables the whole plugin",
                   "pass a pathlib.Path, e.g. Path(__file__).parent / 'skills' / '<name>' /"
                   " 'SKILL.md' (plugin_skill(...) does this for you)",
                   "register_skill calls path.exists()"
                   " (hermes_cli.plugins.PluginContext.register_skill)"),
})  # fmt: skip


def _raised_in(exc: BaseException, function: str) -> bool:
    return any(frame.name == function for frame in traceback.extract_tb(exc.__traceback__))


def load_findings(plugin: LoadedPlugin) -> list[Finding]:
    """Why hermes' general loader does not load the plugin, if it does not, and what in
    its source stops hermes importing it (HPK504: an absolute import of its own package,
    found also where it loads here, as in its own tests). ``check`` and ``compat`` both
    diagnose a load with it: an import failure that HPK504 explains is that finding, not
    HPK003; a skill path register_skill fails on is HPK503 (a str) or HPK401."""
    own = own_import_findings(plugin)
    return _load_failure(plugin, explained=bool(own)) + own


def _load_failure(plugin: LoadedPlugin, *, explained: bool) -> list[Finding]:
    """Why the loader does not load the plugin (none when HPK504 ``explained`` an import
    failure of the plugin's own package)."""
    where = f"plugin {plugin.key}"
    if plugin.error is None:
        return []
    exc = plugin.exception
    if isinstance(exc, ManifestNotRead):
        return [finding("HPK020", where, file=exc.file, why=exc.why, fix=exc.fix)]
    if isinstance(exc, PluginRefused):
        return [finding("HPK009", where, reason=exc.reason, fix=exc.fix)]
    if plugin.error == "no register() function" or exc is None:
        return [finding("HPK002", where)]
    if _raised_in(exc, "register_skill"):
        return [_skill_failure(plugin, exc)]
    failed_import = _import_error(exc)
    if explained and failed_import is not None and is_own_package(plugin, failed_import.name or ""):
        return []
    missing = missing_module(plugin, exc)
    if missing is not None:
        return [missing]
    error = f"{type(exc).__name__}: {exc} (at {where_raised(exc)})"
    if not _raised_in(exc, "register"):  # it failed while the plugin was being imported
        return [finding("HPK003", where, error=error)]
    return [finding("HPK001", where, error=error)]


def _skill_failure(plugin: LoadedPlugin, exc: BaseException) -> Finding:
    """HPK503 for a path register_skill could not call ``exists()`` on (a str), else
    HPK401 for the path it refused; both read from the call that raised."""
    called = _call_of(exc, "register_skill")
    name, path = called.get("name", "?"), called.get("path")
    where = f"skill {name}" if isinstance(name, str) else f"plugin {plugin.key}"
    if isinstance(exc, AttributeError) and path is not None and not isinstance(path, PurePath):
        return finding("HPK503", where, type=type(path).__name__)
    shown = path if path is not None else getattr(exc, "filename", None) or "?"
    return finding("HPK401", where, path=shown, why=f"{type(exc).__name__}: {exc}")


def _call_of(exc: BaseException, function: str) -> dict[str, Any]:
    """The arguments of the innermost frame of ``function`` the exception went through."""
    found: dict[str, Any] = {}
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_name == function:
            found = dict(tb.tb_frame.f_locals)
        tb = tb.tb_next
    return found


def _import_error(failure: BaseException | None) -> ImportError | None:
    """The ImportError the failure is, or that caused it."""
    exc = failure
    while exc is not None and not isinstance(exc, ImportError):
        exc = exc.__cause__ or exc.__context__
    return exc


def missing_module(plugin: LoadedPlugin, failure: BaseException | None) -> Finding | None:
    """HPK018 when the plugin failed on a hermes module that is absent only because
    hermes-agent is not installed here (in hermes that module is there)."""
    exc = _import_error(failure)
    if exc is None or not exc.name or hermes_installed():
        return None
    name, text = exc.name, f"{type(exc).__name__}: {exc}"
    if name.partition(".")[0] not in hermes_top_level():
        return None
    return finding("HPK018", f"plugin {plugin.key}", module=name, error=text)
