"""Print, as one JSON object, where the hermes-agent installed beside this interpreter
defines each name the kit cites: ``{"name": "path Lstart-end", ...}``, the path relative
to the folder hermes is installed in; a name this release lacks is left out.

Run it with the interpreter of an environment that has hermes-agent installed (as
``scripts/host_facts.py``), the names given as arguments. ``scripts/host_model.py`` runs
it on every release of the model and writes what it prints into the page
``docs/hermes-sources.md``, so the kit's docstrings and rule texts name hermes code
(``hermes_cli.plugins.PluginManager._load_plugin``) and never a line number that the
next release moves.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import logging
import os
import sys
import tempfile
import warnings
from pathlib import Path
from types import ModuleType

CITED: tuple[str, ...] = (
    "agent.agent_init._init_memory",
    "agent.agent_init._memory_provider_init_kwargs",
    "agent.agent_init._select_context_engine",
    "agent.agent_init.init_agent",
    "agent.context_engine.ContextEngine",
    "agent.context_references.BUILTIN_PREFIXES",
    "agent.conversation_compression._supported_compression_kwargs",
    "agent.conversation_compression.compress_context",
    "agent.conversation_loop.run_conversation",
    "agent.i18n.t",
    "agent.i18n_layers._LANGUAGE_ID_RE",
    "agent.memory_manager.MemoryManager",
    "agent.memory_manager.MemoryManager._drain_sync_executor",
    "agent.memory_manager.MemoryManager._provider_sync_accepts_messages",
    "agent.memory_manager.MemoryManager._submit_background",
    "agent.memory_manager.MemoryManager.add_provider",
    "agent.memory_manager.MemoryManager.get_all_tool_schemas",
    "agent.memory_manager.MemoryManager.handle_tool_call",
    "agent.memory_manager.MemoryManager.initialize_all",
    "agent.memory_manager.MemoryManager.queue_prefetch_all",
    "agent.memory_manager.MemoryManager.shutdown_all",
    "agent.memory_manager.MemoryManager.sync_all",
    "agent.memory_manager.normalize_tool_schema",
    "agent.memory_provider.MemoryProvider",
    "agent.plugin_llm.PluginLlm",
    "agent.provider_base.CatalogProviderBase",
    "agent.provider_registry.ProviderRegistry",
    "agent.provider_registry.ProviderRegistry.register",
    "agent.redact.register_redaction_patterns",
    "agent.secret_sources.base.SECRET_SOURCE_API_VERSION",
    "agent.secret_sources.registry.register_source",
    "agent.tool_executor._parse_tool_arguments",
    "agent.tool_executor.execute_tool_calls_sequential",
    "agent.transcription_provider.TranscriptionProvider",
    "agent.transcription_registry.register_provider",
    "agent.tts_provider.TTSProvider",
    "agent.tts_registry.register_provider",
    "agent.turn_context._memory_turn_start_and_prefetch",
    "agent.turn_context.build_turn_context",
    "agent.turn_finalizer.finalize_turn",
    "cron.scheduler_provider.CronScheduler",
    "cron.scheduler_provider.resolve_cron_scheduler",
    "gateway.config._apply_env_overrides",
    "gateway.platforms.base.BasePlatformAdapter.extract_media",
    "gateway.platforms.base.MEDIA_DELIVERY_EXTS",
    "gateway.response_filters.LIVE_GATEWAY_SILENT_MARKERS",
    "gateway.response_filters.SILENT_REPLY_TOKEN",
    "gateway.response_filters.display_kind_for_event",
    "gateway.response_filters.is_intentional_silence_response",
    "gateway.response_filters.is_machinery_display_kind",
    "gateway.response_filters.silence_allowed",
    "gateway.run.GatewayRunner._handle_message_with_agent",
    "gateway.run.GatewayRunner._set_session_env",
    "gateway.run_turn.GatewayTurnMixin._hmwa_deliver_turn_response",
    "gateway.run_turn.GatewayTurnMixin._hmwa_shape_agent_response",
    "gateway.run_turn._UNEXPECTED_SILENCE_REPLY",
    "gateway.run_turn._unexpected_silence_reply",
    "gateway.session_context._SESSION_ID",
    "gateway.session_context.get_session_env",
    "gateway.session_context.set_current_session_id",
    "hermes_cli.__version__",
    "hermes_cli.commands._COMMAND_LOOKUP",
    "hermes_cli.config.cfg_get",
    "hermes_cli.config.ensure_hermes_home",
    "hermes_cli.config.get_env_value",
    "hermes_cli.config.load_config",
    "hermes_cli.dashboard_auth.base.assert_protocol_compliance",
    "hermes_cli.dashboard_auth.registry.register_global_provider",
    "hermes_cli.dashboard_auth.registry.register_provider",
    "hermes_cli.main._AUX_TASKS",
    "hermes_cli.main._BUILTIN_SUBCOMMANDS",
    "hermes_cli.middleware.MIDDLEWARE_SCHEMA_VERSION",
    "hermes_cli.middleware.OBSERVER_SCHEMA_VERSION",
    "hermes_cli.middleware.VALID_MIDDLEWARE",
    "hermes_cli.middleware.apply_llm_request_middleware",
    "hermes_cli.plugin_capabilities.parse_declared_capabilities",
    "hermes_cli.plugin_catalog.CATALOG_CATEGORIES",
    "hermes_cli.plugin_catalog._NAME_RE",
    "hermes_cli.plugin_catalog.entry_from_mapping",
    "hermes_cli.plugin_compat.disable_reason",
    "hermes_cli.plugin_compat.scan_source",
    "hermes_cli.plugin_dev._check_manifest_v2",
    "hermes_cli.plugin_dev.doctor_plugin",
    "hermes_cli.plugin_validate._CONFIG_TYPES",
    "hermes_cli.plugin_validate._PROBE_SCRIPT",
    "hermes_cli.plugin_validate._UPPER_SNAKE_RE",
    "hermes_cli.plugin_validate._check_builtin_collisions",
    "hermes_cli.plugin_validate._check_capabilities",
    "hermes_cli.plugin_validate._check_config_spec",
    "hermes_cli.plugin_validate._check_manifest_fields",
    "hermes_cli.plugin_validate._check_requires_env",
    "hermes_cli.plugin_validate._check_requires_hermes",
    "hermes_cli.plugin_validate._declared_list",
    "hermes_cli.plugin_validate._requires_hermes_spec_valid",
    "hermes_cli.plugin_validate.validate_plugin_dir",
    "hermes_cli.plugins.ENTRY_POINTS_GROUP",
    "hermes_cli.plugins.PluginContext",
    "hermes_cli.plugins.PluginContext.get_config",
    "hermes_cli.plugins.PluginContext.register_cli_command",
    "hermes_cli.plugins.PluginContext.register_command",
    "hermes_cli.plugins.PluginContext.register_context_engine",
    "hermes_cli.plugins.PluginContext.register_dashboard_auth_provider",
    "hermes_cli.plugins.PluginContext.register_hook",
    "hermes_cli.plugins.PluginContext.register_middleware",
    "hermes_cli.plugins.PluginContext.register_skill",
    "hermes_cli.plugins.PluginContext.register_tool",
    "hermes_cli.plugins.PluginManager._directory_module_name",
    "hermes_cli.plugins.PluginManager._discover_and_load_inner",
    "hermes_cli.plugins.PluginManager._hook_callback_kwargs",
    "hermes_cli.plugins.PluginManager._invoke_hook_callback",
    "hermes_cli.plugins.PluginManager._load_directory_module",
    "hermes_cli.plugins.PluginManager._load_entrypoint_module",
    "hermes_cli.plugins.PluginManager._load_plugin",
    "hermes_cli.plugins.PluginManager._load_plugin_scoped",
    "hermes_cli.plugins.PluginManager._parse_manifest",
    "hermes_cli.plugins.PluginManager._scan_directory",
    "hermes_cli.plugins.PluginManager._scan_directory_level",
    "hermes_cli.plugins.PluginManager._scan_entry_points",
    "hermes_cli.plugins.PluginManager.invoke_hook",
    "hermes_cli.plugins.VALID_HOOKS",
    "hermes_cli.plugins._NS_PARENT",
    "hermes_cli.plugins._VALID_PLUGIN_KINDS",
    "hermes_cli.plugins._dispatch_pre_tool_call_hooks",
    "hermes_cli.plugins._display_author",
    "hermes_cli.plugins._parse_manifest_v2_fields",
    "hermes_cli.plugins.get_pre_tool_call_block_message",
    "hermes_cli.plugins.invoke_hook",
    "hermes_cli.plugins.resolve_pre_tool_block",
    "hermes_cli.plugins_cmd._check_manifest_version",
    "hermes_cli.plugins_cmd._install_plugin_core",
    "hermes_cli.plugins_discovery.scan_directory",
    "hermes_cli.plugins_manifest._CONFIG_SCHEMA_TYPES",
    "hermes_cli.plugins_manifest._KNOWN_MANIFEST_FIELDS",
    "hermes_cli.plugins_manifest._VERSION_COMPARATOR_RE",
    "hermes_cli.plugins_manifest._detect_kind_from_source",
    "hermes_cli.plugins_manifest._manifest_int",
    "hermes_cli.plugins_manifest._manifest_list",
    "hermes_cli.plugins_manifest._parse_manifest_v2_fields",
    "hermes_cli.plugins_manifest._version_tuple",
    "hermes_cli.plugins_manifest.parse_manifest_file",
    "hermes_cli.plugins_manifest.parse_provides_locales",
    "hermes_cli.plugins_manifest.requires_hermes_error",
    "hermes_cli.plugins_manifest.validate_config_schema",
    "hermes_cli.plugins_manifest.version_satisfies",
    "hermes_cli.plugins_state._nested_plugin_value",
    "hermes_cli.plugins_state._plugin_relative_segments",
    "hermes_logging.setup_logging",
    "hermes_yaml.safe_load",
    "model_tools._AGENT_LOOP_TOOLS",
    "model_tools._LEGACY_TOOL_ALIASES",
    "model_tools._compute_tool_definitions",
    "model_tools._emit_post_tool_call_hook",
    "model_tools._pre_dispatch_guards",
    "model_tools._run_async",
    "model_tools._sanitize_tool_error",
    "model_tools._tool_result_observer_fields",
    "model_tools.coerce_tool_args",
    "model_tools.get_tool_definitions",
    "model_tools.handle_function_call",
    "plugins.cron_providers._ProviderCollector",
    "plugins.cron_providers._is_cron_provider_dir",
    "plugins.cron_providers._load_provider_from_dir",
    "plugins.cron_providers.load_cron_scheduler",
    "plugins.memory._ProviderCollector",
    "plugins.memory._is_memory_provider_dir",
    "plugins.memory._load_provider_from_dir",
    "plugins.memory.find_provider_dir",
    "plugins.memory.load_memory_provider",
    "providers._discover_providers",
    "providers._import_plugin_dir",
    "providers.base.ProviderProfile",
    "providers.get_provider_profile",
    "providers.register_provider",
    "run_agent.AIAgent.__init__",
    "run_agent.AIAgent._compress_context",
    "run_agent.AIAgent._invoke_tool",
    "run_agent.AIAgent._sync_external_memory_for_turn",
    "run_agent.AIAgent.run_conversation",
    "run_agent.AIAgent.shutdown_memory_provider",
    "tools.plugin_guard.CODE_EXEMPT_PATTERN_IDS",
    "tools.plugin_guard.CODE_FILE_EXTENSIONS",
    "tools.plugin_guard.EXCLUDED_DIRS",
    "tools.plugin_guard.SEVERITY_REMAP",
    "tools.plugin_guard._context_severity",
    "tools.plugin_guard_context.STEP_DOWN",
    "tools.registry.ToolRegistry._normalize_handler_result",
    "tools.registry.ToolRegistry.dispatch",
    "tools.registry.ToolRegistry.register",
    "tools.registry.registry",
    "tools.registry.registry.deregister",
    "tools.registry.tool_error",
    "tools.registry.tool_result",
    "tools.send_message_tool._TELEGRAM_TOPIC_TARGET_RE",
    "tools.send_message_tool._media_caption_split",
    "tools.skills_tool._serve_plugin_skill",
    "tools.skills_tool.skill_view",
    "tools.todo_tool.TODO_LEGACY_ALIASES",
    "tools.tool_search.BRIDGE_TOOL_NAMES",
    "tools.tool_search._short_desc",
    "tools.tool_search.assemble_tool_defs",
    "tools.transcription_command._dispatch_to_plugin_provider",
    "tools.transcription_tools._dispatch_to_plugin_provider",
    "tools.tts_tool._dispatch_to_plugin_provider",
    "tools.tts_tool.check_tts_requirements",
    "tools.tts_tool.text_to_speech_tool",
    "tools.tts_tool_plugins._dispatch_to_plugin_provider",
    "toolsets.TOOLSETS",
    "toolsets._HERMES_CORE_TOOLS",
    "toolsets._get_plugin_toolset_names",
    "utils.fast_safe_load",
)
"""The hermes code the kit's docstrings, comments, rule texts and pages name
(``module.qualname``; a module by itself is not listed): docs/hermes-sources.md gives where
each release defines each."""


_MISSING = object()


def _resolve(name: str) -> tuple[object, object, str] | None:
    """The value ``name`` is, the module or class that holds it, and its last part."""
    parts = name.split(".")
    holder: object = None
    for cut in range(len(parts), 0, -1):  # the longest importable module prefix
        try:
            holder = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        rest = parts[cut:]
        break
    else:
        return None
    if not rest:
        return holder, None, parts[-1]
    for part in rest[:-1]:
        holder = inspect.getattr_static(holder, part, None)
        if holder is None:
            return None
    value = inspect.getattr_static(holder, rest[-1], _MISSING)
    return None if value is _MISSING else (value, holder, rest[-1])


def _assignment(tree: ast.AST, target: str) -> ast.stmt | None:
    """The statement of ``tree``'s body that binds ``target``."""
    for statement in getattr(tree, "body", ()):
        names: list[ast.expr] = []
        if isinstance(statement, ast.Assign):
            names = statement.targets
        elif isinstance(statement, ast.AnnAssign):
            names = [statement.target]
        if any(isinstance(n, ast.Name) and n.id == target for n in names):
            return statement
    return None


def _span(name: str, root: Path) -> str | None:
    found = _resolve(name)
    if found is None:
        return None
    value, holder, last = found
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, property) and value.fget is not None:
        value = value.fget
    if inspect.isfunction(value) or inspect.isclass(value) or isinstance(value, ModuleType):
        value = inspect.unwrap(value)  # type: ignore[arg-type]
        path = inspect.getsourcefile(value)
        lines, start = inspect.getsourcelines(value)
        start = max(start, 1)
        end = start + len(lines) - 1
    else:  # a constant: its assignment in the module or class that holds it
        path = inspect.getsourcefile(holder)  # type: ignore[arg-type]
        if path is None:
            return None
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
        if inspect.isclass(holder):
            owner = next(
                (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)
                 and n.name == holder.__name__),
                None,
            )  # fmt: skip
            tree = owner or tree
        statement = _assignment(tree, last)
        if statement is None:
            return None
        start, end = statement.lineno, statement.end_lineno or statement.lineno
    if path is None:
        return None
    relative = Path(path).resolve().relative_to(root).as_posix()
    return f"{relative} L{start}" + (f"-{end}" if end != start else "")


def _located(name: str, root: Path) -> str | None:
    """:func:`_span`, or None where the source cannot be read (a name bound to something
    built in, a file outside hermes' folder)."""
    try:
        return _span(name, root)
    except (OSError, TypeError, ValueError):
        return None


def main(names: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="hermes-sources-") as home:
        os.environ["HERMES_HOME"] = home
        logging.disable(logging.CRITICAL)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            root = Path(importlib.import_module("hermes_cli").__file__ or "").parents[1]
            spans = {name: _located(name, root.resolve()) for name in names}
    sys.stdout.write(json.dumps({k: v for k, v in spans.items() if v}) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
