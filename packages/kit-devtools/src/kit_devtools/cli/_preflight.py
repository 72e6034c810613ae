"""``preflight``: the catalogue's admission rules, applied by the kit where hermes has none.

Upstream hermes-agent admits a plugin to its catalogue with ``hermes plugins validate``
(``hermes_cli.plugin_validate`` of 0.21.3) and tells authors to run ``hermes plugins
doctor`` (``hermes_cli.plugin_dev`` of a later main). hermes-agent 0.13.0 to 0.19.0 have
neither (the registry's packagings of upstream have ``plugin_dev`` from 0.20.1 and
``plugin_validate`` from 0.21.3), so this module applies their rules itself, on any host,
read from that source (functions of ``hermes_cli.plugin_validate``, and of
``hermes_cli.plugin_dev`` for doctor's):

- ``validate_plugin_dir``: ``plugin.yaml``, else ``plugin.yml``, read as ``utf-8-sig`` and
  ``safe_load``-ed, must be a mapping: HPK050;
- ``_check_manifest_fields``: ``name``, ``version`` and ``description`` truthy: HPK051;
- ``_check_requires_hermes`` with ``_requires_hermes_spec_valid``: HPK012 (``check``'s
  rule, reused);
- ``_check_config_spec``: HPK015 (reused; HPK016 is doctor's ``_check_manifest_v2``
  warning on a type the loader does not know);
- ``_check_requires_env`` (``_UPPER_SNAKE_RE``): HPK052;
- ``_check_capabilities`` with ``_declared_list``: register() must run (HPK053); a
  registered tool, hook or middleware kind missing from ``provides_tools``,
  ``provides_hooks`` or ``provides_middleware`` fails (HPK054); a declared one not
  registered warns (HPK055). A non-list ``provides_*`` reads as empty and non-string
  items are skipped, so they also show as undeclared;
- ``_check_builtin_collisions``: declared and registered tool names against the built-in
  tools (HPK056); the kit's names are those of its host model for upstream;
- doctor's ``doctor_plugin``: ``provides_hooks`` and ``provides_tools`` must be lists,
  ``provides_hooks`` entries strings naming known hooks (HPK057), and every registered
  hook callback takes ``**kwargs`` (``_accepts_var_kwargs``; HPK301, reused).

A plugin hermes' loader refuses by kind (an exclusive memory provider, say) is probed as
upstream probes it, against a recording stub (``_recording_probe``): admission calls its
``register()`` all the same. Otherwise, what differs: upstream probes ``register(ctx)``
against a recording stub that accepts any call (``_PROBE_SCRIPT``); the kit loads
the plugin into its in-memory host, whose context refuses what hermes' real one refuses (a
``str`` skill path, say), so a plugin the stub passes but hermes' loader breaks fails
here. Beyond validate, the command names hermes skips (HPK202, HPK204) and a
``manifest_version`` the installer refuses (HPK017) are reported, since a catalogue plugin
is installed with ``hermes plugins install``; unknown manifest keys warn only on a
``manifest_version: 2`` file, as upstream's loader logs them (at debug for v1, at warning
for v2: ``hermes_cli.plugins_manifest._KNOWN_MANIFEST_FIELDS`` and its caller).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, cast

from kit_core.hermes import newest_registry_release
from kit_devtools.cli._manifest_rules import (
    ADMISSION_KEYS,
    UPSTREAM_MANIFEST_KEYS,
    _config_schema,  # pyright: ignore[reportPrivateUsage]
    _requires_hermes,  # pyright: ignore[reportPrivateUsage]
    manifest_version_findings,
    unread_key,
)
from kit_devtools.cli._recording_probe import recording_probe
from kit_devtools.cli.findings import E, Finding, Rule, W, declare, finding
from kit_devtools.cli.lint import lint_plugin
from kit_devtools.testing import InMemoryHost, LoadedPlugin
from kit_devtools.testing._failure import PluginRefused
from kit_devtools.testing._loader import directory_key
from kit_devtools.testing._manifest import (
    ManifestBeyondLimits,
    ManifestError,
    bounded_text,
    load_bounded,
)
from kit_devtools.testing.host_names import profile

__all__ = ["PROVIDES", "Preflight", "manifest_path", "preflight_directory"]

_VALIDATE = "upstream's `hermes plugins validate`, the catalogue's admission, fails on it"

declare("preflight", {
    "HPK050": Rule(E, "plugin.yaml cannot be read: {why}; `hermes plugins validate` refuses"
                   " the plugin", "add a plugin.yaml mapping with name, version and"
                   " description",
                   f"{_VALIDATE} (hermes_cli.plugin_validate.validate_plugin_dir)"),
    "HPK051": Rule(E, "plugin.yaml has no {fields}: `hermes plugins validate` refuses the"
                   " plugin", "add them (name, version and description must all be"
                   " non-empty)",
                   f"{_VALIDATE} (hermes_cli.plugin_validate._check_manifest_fields)"),
    "HPK052": Rule(E, "requires_env {problem}: `hermes plugins validate` refuses the plugin",
                   "list environment variable names in UPPER_SNAKE_CASE, as strings or as"
                   " {{name: ...}} mappings",
                   f"{_VALIDATE} (hermes_cli.plugin_validate._check_requires_env)"),
    "HPK053": Rule(E, "register() did not run for the capability probe ({error}):"
                   " `hermes plugins validate` refuses the plugin",
                   "make the plugin import and register() with no settings and no network",
                   f"{_VALIDATE} (hermes_cli.plugin_validate._check_capabilities)"),
    "HPK054": Rule(E, "registers {kind} that {key} does not declare: {names};"
                   " `hermes plugins validate` refuses the plugin",
                   "declare them in {key} (hermes-plugin-kit preflight --write does it)",
                   f"{_VALIDATE} (hermes_cli.plugin_validate._check_capabilities)"),
    "HPK055": Rule(W, "{key} declares {kind} that register() does not register: {names};"
                   " `hermes plugins validate` warns", "remove them from {key}"
                   " (hermes-plugin-kit preflight --write does it), or register them",
                   "validate warns and admits the plugin"
                   " (hermes_cli.plugin_validate._check_capabilities)"),
    "HPK056": Rule(E, "tool names taken by hermes' built-in tools: {names};"
                   " `hermes plugins validate` refuses the plugin",
                   "rename the tools with your plugin's namespace",
                   f"{_VALIDATE} (hermes_cli.plugin_validate._check_builtin_collisions)"),
    "HPK057": Rule(E, "{key} {problem}: `hermes plugins doctor` reports an error",
                   "write {key} as a list of names (hermes-plugin-kit preflight --write)",
                   "hermes_cli.plugin_dev.doctor_plugin reports it as an error"),
})  # fmt: skip

PROVIDES: Final = (
    ("tools", "provides_tools"),
    ("hooks", "provides_hooks"),
    ("middleware", "provides_middleware"),
)
"""What the capability probe compares: registrations of a kind -> the manifest's list
(``hermes_cli.plugin_validate._check_capabilities``)."""

UPPER_SNAKE: Final = re.compile(r"^[A-Z][A-Z0-9_]*$")
"""``hermes_cli.plugin_validate._UPPER_SNAKE_RE``."""

_REUSED_LINT: Final = frozenset({"HPK202", "HPK204", "HPK301"})
"""``check``'s rules preflight reports too: commands hermes skips, callbacks without
``**kwargs`` (doctor's error)."""


@dataclass
class Preflight:
    """One preflight run: the findings, and what was declared and registered."""

    directory: Path
    manifest_file: Path | None = None
    manifest: dict[str, Any] = field(default_factory=dict[str, Any])
    findings: list[Finding] = field(default_factory=list[Finding])
    registered: dict[str, list[str]] | None = None
    """Per kind (tools, hooks, middleware), in registration order; None when
    ``register()`` did not run."""
    verdict_by: str = "hermes-plugin-kit (upstream's rules, applied by the kit)"

    @property
    def key(self) -> str:
        """The plugin's key, as hermes (and ``check``) name it."""
        return directory_key(self.manifest, self.directory)

    def declared(self) -> dict[str, list[str]]:
        """The ``provides_*`` lists as upstream reads them (``_declared_list``)."""
        return {kind: declared_list(self.manifest, key) for kind, key in PROVIDES}


def manifest_path(directory: Path) -> Path | None:
    """``plugin.yaml``, else ``plugin.yml`` (``hermes_cli.plugin_validate.validate_plugin_dir``)."""
    for name in ("plugin.yaml", "plugin.yml"):
        if (directory / name).is_file():
            return directory / name
    return None


def declared_list(manifest: dict[str, Any], key: str) -> list[str]:
    """``hermes_cli.plugin_validate._declared_list``: a non-list reads as empty, and only
    string items count."""
    raw: object = manifest.get(key) or []
    if not isinstance(raw, list):
        return []
    return [item for item in cast("list[object]", raw) if isinstance(item, str)]


def _read_manifest(report: Preflight) -> bool:
    where = f"plugin {report.key} plugin.yaml"
    path = manifest_path(report.directory)
    if path is None:
        portable = (report.directory / "plugin.json").is_file()
        why = (
            "it is a portable plugin.json package, which preflight does not check"
            if portable
            else "the directory has no plugin.yaml (or plugin.yml)"
        )
        report.findings.append(finding("HPK050", where, why=why))
        return False
    report.manifest_file = path
    try:
        data: object = load_bounded(bounded_text(path, "utf-8-sig"))
    except ManifestBeyondLimits as exc:
        report.findings.append(finding("HPK020", where, file=path.name, why=exc.why, fix=exc.fix))
        return False
    except (ManifestError, OSError, UnicodeDecodeError) as exc:
        report.findings.append(finding("HPK050", where, why=f"it does not parse: {exc}"))
        return False
    if not isinstance(data, dict):
        report.findings.append(finding("HPK050", where, why="it is not a mapping"))
        return False
    report.manifest = cast("dict[str, Any]", data)
    return True


def _requires_env(manifest: dict[str, Any], where: str) -> list[Finding]:
    """``hermes_cli.plugin_validate._check_requires_env``: a list of names or of
    ``{name: ...}`` mappings, each UPPER_SNAKE."""
    raw: object = manifest.get("requires_env") or []
    problems: list[str] = []
    entries: list[object] = []
    if isinstance(raw, list):
        entries = cast("list[object]", raw)
    else:
        problems.append("must be a list")
    for i, entry in enumerate(entries):
        if isinstance(entry, str):
            name = entry
        elif isinstance(entry, dict):
            name = str(cast("dict[str, object]", entry).get("name") or "")
        else:
            problems.append(f"[{i}] must be a string or mapping")
            continue
        if not UPPER_SNAKE.match(name):
            problems.append(f"[{i}] {name!r} is not UPPER_SNAKE_CASE")
    return [finding("HPK052", where, problem=p) for p in problems]


def _provides_shape(manifest: dict[str, Any], where: str) -> list[Finding]:
    """Doctor's checks of the declared lists (``hermes_cli.plugin_dev.doctor_plugin``):
    each ``provides_hooks``/``provides_tools`` a list of strings, each
    declared hook one hermes knows (the newest release's ``VALID_HOOKS``, from the host model)."""
    found: list[Finding] = []
    hooks = newest_registry_release().hooks
    for _, key in PROVIDES:
        raw: object = manifest.get(key)
        if raw is None:
            continue
        if not isinstance(raw, list):
            found.append(finding("HPK057", where, key=key, problem="must be a list"))
            continue
        for item in cast("list[object]", raw):
            what = "a string" if not isinstance(item, str) else "a hook"
            if what == "a string" or (key == "provides_hooks" and item not in hooks):
                found.append(finding("HPK057", where, key=key, problem=f"{item!r} is not {what}"))
    return found


def _static(report: Preflight) -> None:
    manifest, where = report.manifest, f"plugin {report.key} plugin.yaml"
    missing = [f for f in ("name", "version", "description") if not manifest.get(f)]
    if missing:
        report.findings.append(finding("HPK051", where, fields=", ".join(missing)))
    found = _requires_hermes(manifest, newest_registry_release(), where)
    found += _config_schema(manifest, where) + _requires_env(manifest, where)
    # the installer that would install it: the release here (the in-memory host's default)
    found += manifest_version_findings(manifest, where, profile(None))
    found += _provides_shape(manifest, where)
    version: object = manifest.get("manifest_version")
    if isinstance(version, int) and not isinstance(version, bool) and version >= 2:
        found += [
            unread_key(where, key)
            for key in manifest
            if key not in UPSTREAM_MANIFEST_KEYS | ADMISSION_KEYS
        ]
    report.findings += found


def _registered(plugin: LoadedPlugin) -> dict[str, list[str]]:
    return {kind: list(dict.fromkeys(getattr(plugin, kind))) for kind, _ in PROVIDES}


def _probe(report: Preflight) -> None:
    where = f"plugin {report.key}"
    if not (report.directory / "__init__.py").is_file():
        # upstream: a warning, and the probe "skipped (manifest-only plugin)"
        # (``hermes_cli.plugin_validate._check_capabilities``)
        return
    host = InMemoryHost()
    try:
        plugin = host.load(report.directory)
    except Exception as exc:  # the in-memory host raises only when told to be strict
        report.findings.append(finding("HPK053", where, error=f"{type(exc).__name__}: {exc}"))
        return
    if isinstance(plugin.exception, PluginRefused):  # hermes' loader skips it; admission not
        recorded = recording_probe(report.directory)
        if isinstance(recorded, str):
            report.findings.append(finding("HPK053", where, error=recorded))
            return
        report.registered = recorded
    elif plugin.error is not None:
        report.findings.append(finding("HPK053", where, error=plugin.error))
        return
    else:
        report.registered = _registered(plugin)
    registered = report.registered
    declared = report.declared()
    for kind, key in PROVIDES:
        undeclared = [n for n in registered[kind] if n not in declared[kind]]
        unregistered = [n for n in declared[kind] if n not in registered[kind]]
        if undeclared:
            names = ", ".join(undeclared)
            report.findings.append(finding("HPK054", where, kind=kind, names=names, key=key))
        if unregistered:
            names = ", ".join(unregistered)
            report.findings.append(finding("HPK055", where, kind=kind, names=names, key=key))
    builtin = newest_registry_release().tools
    clashing = sorted((set(declared["tools"]) | set(registered["tools"])) & set(builtin))
    if clashing:
        report.findings.append(finding("HPK056", where, names=", ".join(clashing)))
    if plugin.error is None:
        report.findings += [f for f in lint_plugin(host, plugin) if f.rule in _REUSED_LINT]


def preflight_directory(directory: Path) -> Preflight:
    """Apply upstream's admission rules to the plugin directory, as the kit reads them."""
    report = Preflight(directory.resolve())
    if not report.directory.is_dir():
        why = "it is not a directory"
        report.findings.append(finding("HPK050", str(directory), why=why))
        return report
    if _read_manifest(report):
        _static(report)
        _probe(report)
    return report
