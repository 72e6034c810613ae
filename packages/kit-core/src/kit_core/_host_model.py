"""The host model: what each hermes-agent release offers a plugin, in one place.

Every registry release the kit supports is read from the release itself
(``_host_releases``, written by ``scripts/host_model.py``, checked against each real
release by the host matrix). Upstream hermes (0.21 and later) cannot be installed here (it
needs Python 3.14), so its entry is modelled from its source at a named commit.

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

from kit_core._record import Record

__all__ = [
    "LOOP_ANSWERED_TOOLS",
    "MANIFEST_FILES",
    "UPSTREAM_COMMIT",
    "UPSTREAM_ONLY_FIELDS",
    "HostRelease",
    "first_release",
    "installed_release",
    "known_releases",
    "modelled_hooks",
    "modelled_middleware",
    "modelled_reserved_tools",
    "newest_registry_release",
    "registry_release",
    "registry_releases",
    "release_label",
    "reserved_tools",
    "upstream_release",
    "version_key",
]

UPSTREAM_COMMIT: Final = "00067189dfecf833d4d009c2dd977ae85cf800e0"
"""The upstream hermes-agent commit (a coherent 0.21.3) the upstream entry is read from."""

UPSTREAM_NEW_HOOKS: Final = frozenset(
    {
        "on_stream_start", "on_stream_delta", "on_stream_end", "on_interim_message",
        "transform_api_error_classification", "on_skill_lifecycle", "agent_loop_stopped",
        "on_room_member_activity", "pre_transcription", "on_kanban_worker_spawned",
        "on_kanban_worker_exited", "on_kanban_worker_stale_claim", "on_kanban_task_updated",
        "on_kanban_dispatch_tick", "gateway_platform_event", "pre_command",
    }
)  # fmt: skip
"""Hooks upstream added after 0.19.0: ``VALID_HOOKS`` in ``hermes_cli/plugins.py`` L108-199
at :data:`UPSTREAM_COMMIT`, less 0.19.0's."""

UPSTREAM_NEW_MANIFEST_FIELDS: Final = (
    "requires_hermes", "portable", "skill_namespace", "capabilities", "manifest_version",
    "api_version", "requires_plugins", "python_dependencies", "config_schema", "license",
    "homepage", "tags", "emits", "listens",
)  # fmt: skip
"""``PluginManifest`` fields upstream added after 0.19.0: the dataclass in
``hermes_cli/plugins_manifest.py`` L321-370 at :data:`UPSTREAM_COMMIT`, less 0.19.0's."""


MANIFEST_FILES: Final = ("plugin.yaml", "plugin.yml")
"""The manifest a plugin directory must hold to be discovered, ``plugin.yaml`` first
(``PluginManager._scan_directory``: 0.13.0 ``hermes_cli/plugins.py`` L968-969, 0.19.0
L1531-1533; a directory with neither is skipped)."""


UPSTREAM_FAIL_CLOSED_HOOKS: Final = frozenset({"pre_tool_call", "pre_tts_synthesis"})
"""``_HOOK_TIMEOUT_FAIL_CLOSED_HOOKS`` (``hermes_cli/plugins_dispatch.py`` L48-49 @006a5aeb): a
callback that raises or outlives ``plugins.hook_callback_timeout`` becomes a block directive
(L231-242): the tool call for ``pre_tool_call``, the speech synthesis for
``pre_tts_synthesis``."""

UPSTREAM_CONTEXT: Final = {
    # PluginContext.plugin_id: manifest_key(manifest) = manifest.key or manifest.name
    # (hermes_cli/plugins.py L233-236 and plugins_manifest.py manifest_key, @00067189)
    "plugin_id": "property",
    # PluginContext.get_config: the key is required (hermes_cli/plugins.py L257-267 @00067189)
    "get_config": "(key: 'str', default: 'Any' = None) -> 'Any'",
    # PluginContext.set_config (hermes_cli/plugins.py L269-287 @00067189)
    "set_config": "(key: 'str', value: 'Any') -> 'None'",
}
"""``PluginContext`` members upstream added that the kit uses, with their signatures."""


UPSTREAM_ONLY_FIELDS: Final = (
    "fail_closed_hooks",
    "human_turn_guard",
    "modify_directive",
    "registration_ledger",
)
"""Facts read from upstream's source only: ``scripts/host_facts.py`` does not observe them
on a booted release, and no registry release has them (empty / False there)."""


def version_key(version: str) -> tuple[int, ...]:
    """``"0.18.2"`` -> ``(0, 18, 2)``, for ordering releases."""
    return tuple(int(part) for part in version.split(".") if part.isdigit())


class HostRelease(Record):
    """What one hermes-agent release offers a plugin."""

    __slots__ = (
        "agent_loop_tools",
        "aux_tasks",
        "awaits_hooks",
        "bridge_tools",
        "cli_commands",
        "context",
        "entry_point_group",
        "fail_closed_hooks",
        "functions",
        "hooks",
        "human_turn_guard",
        "manifest",
        "middleware",
        "middleware_schema_version",
        "modelled",
        "modify_directive",
        "observer_schema_version",
        "provider_builtins",
        "registration_ledger",
        "requires_python",
        "secret_source_api_version",
        "silence_token",
        "slash_commands",
        "tool_keywords",
        "tools",
        "toolsets",
        "top_level",
        "version",
    )
    version: str
    requires_python: str
    hooks: frozenset[str]
    """``hermes_cli.plugins.VALID_HOOKS``: other names are stored and never called."""
    middleware: frozenset[str]
    """``hermes_cli.middleware.VALID_MIDDLEWARE``; empty before 0.17.0 (no middleware)."""
    context: Mapping[str, str]
    """Public ``PluginContext`` members -> their signature (``"property"`` for properties)."""
    manifest: tuple[str, ...]
    """``PluginManifest`` fields."""
    slash_commands: frozenset[str]
    """Built-in slash commands and aliases (``hermes_cli.commands._COMMAND_LOOKUP``)."""
    cli_commands: frozenset[str]
    """Built-in ``hermes`` subcommands (``hermes_cli.main._BUILTIN_SUBCOMMANDS``)."""
    aux_tasks: frozenset[str]
    """Auxiliary task keys (``hermes_cli.main._AUX_TASKS``): a plugin may not take them."""
    tools: Mapping[str, str]
    """Every tool of the booted registry with no user plugin -> its toolset."""
    toolsets: frozenset[str]
    """``toolsets.TOOLSETS`` keys."""
    tool_keywords: frozenset[str]
    """The keywords a plugin tool's handler receives from a full tool call
    (``model_tools.handle_function_call`` -> ``registry.dispatch``)."""
    agent_loop_tools: frozenset[str]
    """``model_tools._AGENT_LOOP_TOOLS``: names the agent loop answers itself."""
    bridge_tools: frozenset[str]
    """``tools.tool_search.BRIDGE_TOOL_NAMES``: the tool-search bridge answers these names
    itself (from 0.16.0; empty before)."""
    entry_point_group: str
    """``hermes_cli.plugins.ENTRY_POINTS_GROUP``: the only entry-point group hermes scans."""
    silence_token: str
    """``gateway.response_filters.SILENT_REPLY_TOKEN``: a final reply of exactly this is not
    delivered; "" where the gateway has no silence filter (before 0.17.0)."""
    provider_builtins: Mapping[str, frozenset[str]]
    """Provider kind -> built-in names its registry keeps for itself (``_BUILTIN_NAMES`` of
    ``agent.tts_registry`` and ``agent.transcription_registry``): a plugin provider of
    such a name is ignored with a WARNING. Kinds absent here have no such list."""
    observer_schema_version: str
    """``hermes_cli.middleware.OBSERVER_SCHEMA_VERSION``, passed to every hook callback as
    ``telemetry_schema_version`` ("" before 0.17.0)."""
    middleware_schema_version: str
    """``hermes_cli.middleware.MIDDLEWARE_SCHEMA_VERSION``, passed to every middleware as
    ``middleware_schema_version`` ("" before 0.17.0)."""
    top_level: frozenset[str]
    """The distribution's ``top_level.txt``: hermes' own top-level modules and packages. A
    plugin package of such a name is shadowed by hermes' own."""
    secret_source_api_version: int | None
    """``agent.secret_sources.base.SECRET_SOURCE_API_VERSION``: a secret source of another
    ``api_version`` is ignored; None where the release has no secret sources."""
    awaits_hooks: bool
    """Whether the host awaits an ``async def`` hook (no registry release does)."""
    functions: Mapping[str, str]
    """hermes functions a kit package calls (``module.function``, or
    ``module.Class.method``; the list is ``scripts/host_facts.py``'s ``HOST_FUNCTIONS``)
    that this release has -> their signature."""
    modelled: bool
    """True for a release read from source, not installed and booted."""
    fail_closed_hooks: frozenset[str]
    """Hooks whose callback, when it raises or times out, blocks instead of being skipped
    (empty on every registry release)."""
    human_turn_guard: bool
    """Whether the gateway refuses to let a person's turn end in a silence marker and sends
    a visible "unexpected silence" fallback instead, offering its predicates in
    ``gateway.response_filters`` (no registry release)."""
    modify_directive: bool
    """Whether a ``pre_tool_call`` result ``{"action": "modify", "args": {...}}`` changes the
    arguments the tool runs with (no registry release)."""
    registration_ledger: bool
    """Whether every ``register_*`` returns a handle (``dispose()`` undoes it), a refused
    ``register_tool`` returns None, plugin tools live in a per-home overlay and a
    ``register()`` that raises is rolled back by the host (no registry release)."""

    def __init__(self, facts: Mapping[str, Any], *, modelled: bool = False) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "version", str(facts["version"]))
        setattr_(self, "requires_python", str(facts["requires_python"]))
        for name in ("hooks", "middleware", "slash_commands", "cli_commands", "aux_tasks"):
            setattr_(self, name, frozenset(facts[name]))
        setattr_(self, "toolsets", frozenset(facts["toolsets"]))
        setattr_(self, "tool_keywords", frozenset(facts["tool_keywords"]))
        setattr_(self, "agent_loop_tools", frozenset(facts["agent_loop_tools"]))
        setattr_(self, "bridge_tools", frozenset(facts["bridge_tools"]))
        setattr_(self, "entry_point_group", str(facts["entry_point_group"]))
        setattr_(self, "silence_token", str(facts["silence_token"]))
        builtins: Mapping[str, Iterable[str]] = facts["provider_builtins"]
        setattr_(
            self,
            "provider_builtins",
            MappingProxyType({kind: frozenset(names) for kind, names in builtins.items()}),
        )
        setattr_(self, "secret_source_api_version", facts["secret_source_api_version"])
        setattr_(self, "observer_schema_version", str(facts["observer_schema_version"]))
        setattr_(self, "middleware_schema_version", str(facts["middleware_schema_version"]))
        setattr_(self, "top_level", frozenset(facts["top_level"]))
        setattr_(self, "context", MappingProxyType(dict(facts["context"])))
        setattr_(self, "tools", MappingProxyType(dict(facts["tools"])))
        # .get: scripts/host_model.py reads the model it is about to rewrite, which may
        # predate this field; the model test checks every release's real functions
        setattr_(self, "functions", MappingProxyType(dict(facts.get("functions", {}))))
        setattr_(self, "manifest", tuple(facts["manifest"]))
        setattr_(self, "awaits_hooks", bool(facts["awaits_hooks"]))
        # .get: facts only upstream has (registry releases are generated without them)
        setattr_(self, "fail_closed_hooks", frozenset(facts.get("fail_closed_hooks", ())))
        setattr_(self, "human_turn_guard", bool(facts.get("human_turn_guard", False)))
        setattr_(self, "modify_directive", bool(facts.get("modify_directive", False)))
        setattr_(self, "registration_ledger", bool(facts.get("registration_ledger", False)))
        setattr_(self, "modelled", modelled)

    @property
    def label(self) -> str:
        """``hermes-agent 0.18.2``, or ``upstream hermes-agent 0.21.3 (modelled)``."""
        if self.modelled:
            return f"upstream hermes-agent {self.version} (modelled)"
        return f"hermes-agent {self.version}"

    def offers(self, member: str) -> bool:
        """Whether ``PluginContext`` has this member on this release."""
        return member in self.context


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
    """The newest supported release of the registry (what the in-memory host reproduces)."""
    return registry_releases()[-1]


@cache
def upstream_release() -> HostRelease:
    """Upstream hermes-agent 0.21.3, modelled from its source at :data:`UPSTREAM_COMMIT`:
    0.19.0's facts with the hooks upstream added, hooks awaited
    (``PluginDispatchMixin._invoke_hook_callback``, ``hermes_cli/plugins_dispatch.py``
    L198-207 @006a5aeb), ``pre_tool_call`` failing closed, registration handles, the
    ``PluginContext`` members the kit uses, and the manifest fields it added
    (``hermes_cli/plugins_manifest.py`` L321-370, among them ``requires_hermes``, which
    it enforces), and the gateway's human-turn silence guard, which landed after that
    commit (read at 06202cddf797e761f2905c0c088129e2683ff7b7). Facts not yet read from
    that source are 0.19.0's.
    """
    newest = newest_registry_release()
    facts: dict[str, Any] = {name: getattr(newest, name) for name in HostRelease.__slots__}
    facts.update(
        version="0.21.3",
        requires_python=">=3.14",
        hooks=newest.hooks | UPSTREAM_NEW_HOOKS,
        awaits_hooks=True,
        manifest=(*newest.manifest, *UPSTREAM_NEW_MANIFEST_FIELDS),
        # a failing pre_tool_call guard blocks: _HOOK_TIMEOUT_FAIL_CLOSED_HOOKS,
        # hermes_cli/plugins_dispatch.py L48-49 and L239-242 @006a5aeb
        fail_closed_hooks=UPSTREAM_FAIL_CLOSED_HOOKS,
        # {"action": "modify", "args": {...}} merges over the call's args, later hooks winning
        # per key, before block/approve: _get_pre_tool_call_directive_details and
        # _dispatch_pre_tool_call_hooks, hermes_cli/plugins.py L1784-1827 and L1887-1895
        # @00067189, applied by model_tools.handle_function_call (PR #87482)
        modify_directive=True,
        # a bare silence marker ends only a machinery turn; a person's turn gets a visible
        # fallback (PR #111624, in the v0.21.3 release per upstream issue #113031, after the
        # 00067189 snapshot): the predicates of gateway/response_filters.py L103-128 at
        # 06202cddf797e761f2905c0c088129e2683ff7b7 (display_kind_for_event,
        # is_machinery_display_kind, allows_final_silence)
        human_turn_guard=True,
        # register_* return PluginRegistration handles; register_tool returns None when it
        # refuses, without calling the registry; plugin tools live in per-home overlays
        # (scope=manager.scope_key): hermes_cli/plugins.py L459-502 @00067189; a raising
        # register() is rolled back: _load_plugin_scoped disposes the plugin's ledger
        # entries, hermes_cli/plugins_loader.py L317-325 @00067189
        registration_ledger=True,
        # plugin_id, get_config(key, default), set_config: see UPSTREAM_CONTEXT
        context={**newest.context, **UPSTREAM_CONTEXT},
    )
    return HostRelease(facts, modelled=True)


def known_releases() -> tuple[HostRelease, ...]:
    """Every release the model knows: the registry's, then upstream (modelled)."""
    return (*registry_releases(), upstream_release())


def registry_release(version: str) -> HostRelease | None:
    """The registry release of this version, or None when the model does not hold it."""
    return next((r for r in registry_releases() if r.version == version), None)


def installed_release() -> HostRelease | None:
    """The release of the hermes-agent distribution installed in this environment, or
    None when none is installed or the model does not hold its version (what tests and
    author tooling ask; the runtime asks the host it is given instead)."""
    import importlib.metadata  # here: only tooling asks

    try:
        version = importlib.metadata.version("hermes-agent")
    except importlib.metadata.PackageNotFoundError:
        return None
    return registry_release(version)


def first_release(has: Callable[[HostRelease], bool]) -> HostRelease | None:
    """The oldest known release for which ``has`` holds (None: no release)."""
    return next((r for r in known_releases() if has(r)), None)


def release_label(version: str | None) -> str:
    """How messages name a running host: ``hermes-agent 0.16.0`` (or ``this hermes``)."""
    return f"hermes-agent {version}" if version else "this hermes"


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
that has them: ``elif function_name == "clarify"`` (0.13.0 ``run_agent.py`` L10678;
0.19.0 ``agent/tool_executor.py`` L1332) and ``== "read_terminal"`` (0.17.0
``agent/tool_executor.py`` L1082; 0.19.0 L1351)."""


def reserved_tools(release: HostRelease) -> frozenset[str]:
    """Names this release answers before its tool registry, so a plugin tool of such a
    name is never reached: the agent loop's (``_AGENT_LOOP_TOOLS`` and
    :data:`LOOP_ANSWERED_TOOLS`) and the tool-search bridge's."""
    return (
        release.agent_loop_tools
        | release.bridge_tools
        | (LOOP_ANSWERED_TOOLS & frozenset(release.tools))
    )


@cache
def modelled_reserved_tools() -> frozenset[str]:
    """The names some known release answers before its registry: what a tool declaration
    refuses, whichever hermes it later runs on."""
    return _union(reserved_tools(r) for r in known_releases())
