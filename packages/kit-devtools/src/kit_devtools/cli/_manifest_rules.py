"""``check``'s plugin.yaml rules: the keys each host reads, and manifest v2's fields.

The v2 fields (``requires_hermes``, ``config_schema``, ``manifest_version``) are checked
as upstream hermes-agent checks them in 0.21.3 (read from source, not run):
``hermes_cli.plugin_validate`` (the catalog's admission command) and
``hermes_cli.plugins_manifest`` (the loader). Whatever host
``check`` plays, since the catalog and the installer are upstream's. hermes-agent 0.19.0
reads none of them: it drops every key it does not know (``_parse_manifest``).
"""

from __future__ import annotations

import re
from typing import Any, Final, cast

from kit_core.hermes import HostRelease, first_version, registry_releases
from kit_devtools.cli.findings import C, E, Finding, Rule, W, declare, finding
from kit_devtools.testing import LoadedPlugin
from kit_devtools.testing._failure import PluginRefused
from kit_devtools.testing._requires_hermes import enforces, spec_of, spec_parses
from kit_devtools.testing._requires_hermes import version_satisfies as admits

__all__ = [
    "ADMISSION_KEYS",
    "MANIFEST_KEYS",
    "UPSTREAM_MANIFEST_KEYS",
    "manifest_findings",
    "manifest_version_findings",
]

declare("plugin and manifest", {
    "HPK004": Rule(C, "plugin.yaml has no 'kind': hermes loads it as standalone today, but"
                   " re-kinds a plugin without 'kind' the day the first 8 KB of its"
                   " __init__.py mention MemoryProvider or register_memory_provider (or both"
                   " register_provider and ProviderProfile), and then stops loading it",
                   "add 'kind: standalone' to plugin.yaml",
                   "_parse_manifest's text test on a manifest without 'kind'"
                   " (hermes_cli.plugins.PluginManager._parse_manifest); without those words"
                   " hermes loads the plugin as standalone"),
    "HPK005": Rule(W, "plugin.yaml key {key!r} is not one hermes reads: a release before"
                   " {logs_from} drops it silently, {logs_from} and later log it (at debug for a"
                   " manifest_version 1 file, at warning for 2) and ignore it",
                   "remove it (read settings with load_plugin_config)",
                   "_parse_manifest keeps only PluginManifest's fields"
                   " (hermes_cli.plugins.PluginManager._parse_manifest); upstream logs the"
                   " rest (hermes_cli.plugins_manifest._KNOWN_MANIFEST_FIELDS): the plugin"
                   " loads, the setting is lost"),
    "HPK006": Rule(E, "the plugin name {name!r} cannot namespace skills: hermes registers"
                   " them as '{name}:<skill>', but skill_view refuses a namespace outside"
                   " [A-Za-z0-9_-]+, so they can never be loaded",
                   "rename the plugin in plugin.yaml",
                   "register_skill checks only the skill's own name and stores"
                   " '<plugin name>:<skill>' (hermes_cli.plugins.PluginContext.register_skill);"
                   " skill_view answers 'Invalid namespace' for it"
                   " (tools.skills_tool.skill_view)"),
    "HPK012": Rule(E, "requires_hermes {spec!r} does not parse: upstream's `hermes plugins"
                   " validate` (catalog admission) refuses it, and upstream's loader, which"
                   " skips a clause it cannot parse, enforces nothing",
                   "write version clauses, e.g. requires_hermes: \">={floor}\" (or"
                   " \">={floor}, <1.0\")",
                   "hermes_cli.plugin_validate._check_requires_hermes and"
                   " hermes_cli.plugin_validate._requires_hermes_spec_valid"),
    "HPK013": Rule(W, "requires_hermes is the YAML {kind} {value!r}, which hermes reads as"
                   " {read!r}", "quote it, e.g. requires_hermes: \">={floor}\"",
                   "upstream reads the YAML value with str(): the plugin loads, with a floor"
                   " other than the author meant"
                   " (hermes_cli.plugins_manifest.parse_manifest_file)"),
    "HPK014": Rule(W, "requires_hermes {spec!r} excludes {host}, which does not read the"
                   " field (hermes enforces it from {enforced_from}) and loads the plugin"
                   " anyway",
                   "make the plugin work there too, or tell its operators which hermes it"
                   " needs", "registry releases drop requires_hermes with the other unknown"
                   " keys (hermes_cli.plugins.PluginManager._parse_manifest) and load the"
                   " plugin"),
    "HPK015": Rule(E, "config_schema {problem}: upstream's `hermes plugins validate` refuses"
                   " the plugin (a release before {read_from} ignores config_schema)",
                   "declare each setting as {{type: str|int|float|bool|list|dict, default:"
                   " ..., required: true|false, description: ...}}",
                   "hermes_cli.plugin_validate._check_config_spec"),
    "HPK016": Rule(W, "config_schema.{key}: type {type!r} passes `hermes plugins validate`,"
                   " but upstream's loader does not know it: it warns at every load and never"
                   " checks that setting's type", "write type: dict",
                   "doctor's hermes_cli.plugin_dev._check_manifest_v2 and the loader's type"
                   " table (hermes_cli.plugins_manifest._CONFIG_SCHEMA_TYPES): the plugin"
                   " loads, with a warning"),
    "HPK017": Rule(E, "manifest_version {value!r}: {why}; `hermes plugins install` on"
                   " {release} refuses the plugin (its installer accepts integers up to"
                   " {limit}; from {two_from} up to 2, as the loader reads)",
                   "write manifest_version: 1, or leave it out (absent means 1)",
                   "the installer's manifest check (hermes_cli.plugins_cmd._install_plugin_core,"
                   " hermes_cli.plugins_cmd._check_manifest_version; the loader's limit from"
                   " 0.21.4, pm.plugin_declarations.manifest_version_error); the loader"
                   " itself loads the plugin"),
})  # fmt: skip

MANIFEST_KEYS: Final = frozenset(
    {"name", "version", "description", "author", "requires_env", "provides_tools",
     "provides_hooks", "kind"}
)  # fmt: skip
"""The plugin.yaml keys hermes-agent 0.19.0 reads (``_parse_manifest``)."""

UPSTREAM_MANIFEST_KEYS: Final = MANIFEST_KEYS | {
    "hooks", "label", "optional_env", "platforms", "external_dependencies",
    "pip_dependencies", "provides_browser_providers", "provides_web_providers",
    "manifest_version", "api_version", "requires_plugins", "python_dependencies",
    "config_schema", "license", "homepage", "tags", "capabilities", "emits", "listens",
    "hermes", "depends", "requires_hermes",
}  # fmt: skip
"""``hermes_cli.plugins_manifest._KNOWN_MANIFEST_FIELDS``: other keys are logged, at debug
for a v1 manifest and at warning for v2, and ignored."""

ADMISSION_KEYS: Final = frozenset({"provides_middleware"})
"""Keys the loader does not know but catalogue admission reads from the raw YAML:
``hermes_cli.plugin_validate._check_capabilities`` compares
``provides_middleware`` with the middleware kinds ``register()`` registers, so a plugin
with middleware needs it."""

VALIDATE_CONFIG_TYPES: Final = frozenset(
    {"str", "string", "int", "integer", "float", "number", "bool", "boolean", "list",
     "array", "dict", "mapping", "map"}
)  # fmt: skip
"""``hermes_cli.plugin_validate._CONFIG_TYPES``: what admission accepts."""

LOADER_CONFIG_TYPES: Final = VALIDATE_CONFIG_TYPES - {"mapping", "map"}
"""``hermes_cli.plugins_manifest._CONFIG_SCHEMA_TYPES``: what the loader type-checks
(``_parse_manifest_v2_fields`` warns on any other type)."""

_NAMESPACE: Final = re.compile(r"[A-Za-z0-9_-]+")


def _floor() -> str:
    return registry_releases()[0].version


def _requires_hermes(manifest: dict[str, Any], release: HostRelease, where: str) -> list[Finding]:
    raw: object = manifest.get("requires_hermes")
    spec = spec_of(manifest)
    if not spec:
        return []
    if not spec_parses(spec):  # ``hermes_cli.plugin_validate._check_requires_hermes``
        return [finding("HPK012", where, spec=spec, floor=_floor())]
    found: list[Finding] = []
    if not isinstance(raw, str):  # parse_manifest_file: str(value), so 0.20 reads "0.2"
        kind = "boolean" if isinstance(raw, bool) else type(raw).__name__
        found.append(finding("HPK013", where, kind=kind, value=raw, read=spec, floor=_floor()))
    if not enforces(release) and not admits(spec, release.version):
        enforced_from = first_version(lambda r: "requires_hermes" in r.manifest)
        found.append(finding("HPK014", where, spec=spec, host=release.label,
                             enforced_from=enforced_from))  # fmt: skip
    return found


def unread_key(where: str, key: str) -> Finding:
    """HPK005: hermes reads no such manifest key (from the release that logs it, it says so)."""
    logs_from = first_version(lambda r: bool(r.manifest_known_fields))
    return finding("HPK005", where, key=key, logs_from=logs_from)


def _config_schema(manifest: dict[str, Any], where: str) -> list[Finding]:
    """``hermes_cli.plugin_validate._check_config_spec``, one finding per problem; and the
    types admission accepts but the loader does not know."""
    raw: object = manifest.get("config_schema")
    if raw is None or raw == [] or raw == {}:
        return []
    read_from = first_version(lambda r: "config_schema" in r.manifest)

    def refused(problem: str) -> Finding:
        return finding("HPK015", where, problem=problem, read_from=read_from)

    if not isinstance(raw, dict):
        return [refused("must be a mapping of key -> spec")]
    found: list[Finding] = []
    for key, spec in cast("dict[object, object]", raw).items():
        if not isinstance(spec, dict):
            found.append(refused(f"{key}: must be a mapping (e.g. {{type: str}})"))
            continue
        entry = cast("dict[str, object]", spec)
        kind = entry.get("type")
        if kind is not None and str(kind).lower() not in VALIDATE_CONFIG_TYPES:
            found.append(
                refused(f"{key}: type must be one of {'/'.join(sorted(VALIDATE_CONFIG_TYPES))}")
            )
        elif kind is not None and str(kind).lower() not in LOADER_CONFIG_TYPES:
            found.append(finding("HPK016", where, key=key, type=kind))
        required = entry.get("required")
        if required is not None and not isinstance(required, bool):
            found.append(refused(f"{key}: required must be a boolean"))
    return found


def manifest_version_findings(
    manifest: dict[str, Any], where: str, release: HostRelease
) -> list[Finding]:
    """The installer's gate (``hermes plugins install``: ``int(manifest_version)``, refused
    when it raises or exceeds the installer's limit), checked against ``release``'s limit
    (``installer_manifest_version``, observed by calling the release's own check). The
    limit is ``hermes_cli.plugins_cmd._SUPPORTED_MANIFEST_VERSION = 1`` on every release
    through 0.21.3 (the gate: ``hermes_cli.plugins_cmd._install_plugin_core``); from 0.21.4
    the installer shares the loader's ``SUPPORTED_MANIFEST_VERSION = 2``
    (``hermes_cli.plugins_cmd._check_manifest_version``,
    ``pm.plugin_declarations.manifest_version_error``; upstream #85879). A non-integer is
    refused everywhere."""
    value: object = manifest.get("manifest_version")
    if value is None:
        return []
    limit = release.installer_manifest_version
    try:
        number = int(cast("Any", value))
    except (TypeError, ValueError):
        # the loader (``hermes_cli.plugins_manifest._manifest_int``) warns and reads 1
        why = "it is not an integer"
    else:
        # a release with no installer check (limit 0) refuses nothing
        if not limit or number <= limit:
            return []
        why = f"{release.label}'s installer accepts manifest versions up to {limit}"
    return [
        finding("HPK017", where, value=value, why=why, release=release.label, limit=limit,
                two_from=first_version(lambda r: r.installer_manifest_version >= 2))
    ]  # fmt: skip


def manifest_findings(plugin: LoadedPlugin, release: HostRelease) -> list[Finding]:
    """Every plugin.yaml finding of a directory plugin checked against ``release``."""
    refused = isinstance(plugin.exception, PluginRefused)
    if plugin.source != "directory" or (refused and not plugin.manifest):
        return []  # no manifest to lint (its absence is the refusal)
    where = f"plugin {plugin.key} plugin.yaml"
    manifest: dict[str, Any] = plugin.manifest or {}
    found: list[Finding] = []
    if "kind" not in manifest and plugin.kind == "standalone":  # a provider is re-kinded
        found.append(finding("HPK004", where))
    found += [
        unread_key(where, key)
        for key in manifest
        if key not in UPSTREAM_MANIFEST_KEYS | ADMISSION_KEYS
    ]
    if plugin.skills and not _NAMESPACE.fullmatch(str(plugin.name)):
        found.append(finding("HPK006", where, name=plugin.name))
    found += _requires_hermes(manifest, release, where) + _config_schema(manifest, where)
    return found + manifest_version_findings(manifest, where, release)
