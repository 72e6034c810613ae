"""Names upstream hermes moved or deleted in its Sep 2026 decomposition (PR #102117).

Copied from upstream's ``compat_manifest.json`` (repository root) at commit
0f9c44d87902ab14309b47ece66ac95521761d8b, which ``hermes_cli.plugin_compat`` reads
(``load_manifest``; ``scan_source`` finds a plugin's uses of them; ``disable_reason``
skips such a plugin from ``COMPAT_REMOVAL_DATE`` = 2026-09-14 unless
``plugins.allow_deprecated_imports: true``).

Only the facade modules the kit, its examples or its tests reach are copied, each with
all of its entries (an empty tuple: the manifest has none for that module, read from its
sorted neighbours; the manifest lists its entries sorted by ``facade``, and a module a
moved name points *to*, such as ``agent.context_engine`` or ``agent.secret_sources.base``,
is not a facade unless an entry names it as one). The ``agent.*`` facades were read from
characters 0-48,000 of the 293,700-character file, which hold every ``agent.*`` entry
(the next facade is ``cli``). :data:`COPIED` is the list of facades whose entries are here; a kit
module that starts using another hermes module must copy that module's entries first
(the test checks it).

``hermes-plugin-kit compat`` runs :func:`scan` over a plugin's source with these entries:
it therefore finds the moved names of the copied facades only (the kit's own tests check
the kit's source with it, ``tests/compat/test_moved_names.py``); upstream's
``hermes plugins compat`` reads the whole manifest.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Final, TypeGuard

__all__ = ["COPIED", "MOVED", "is_getattr", "scan"]

MOVED: Final[dict[str, tuple[str, ...]]] = {
    "gateway": (),
    "gateway.config": ("json",),
    "gateway.platform_registry": (),
    "gateway.platforms": (),
    "gateway.platforms.base": (),
    "gateway.response_filters": ("SILENT_REPLY_TOKEN",),
    "gateway.session_context": (),
    "hermes_cli": (),
    "hermes_cli.commands": (
        "Any", "Callable", "Dict", "Mapping", "Optional", "Sequence",
        "SlashCommandAutoSuggest", "SlashCommandCompleter", "Tuple", "_requires_argument",
        "_CMD_NAME_LIMIT", "_clamp_command_names", "_collect_gateway_skill_entries",
        "discord_skill_commands", "discord_skill_commands_by_category", "field", "os",
        "shutil", "slack_app_manifest", "slack_native_slashes", "slack_subcommand_map",
        "subprocess", "telegram_bot_commands", "telegram_menu_commands",
        "telegram_menu_max_commands", "time",
    ),
    "hermes_cli.config": (
        "normalize_route_base_url", "_install_method_project_root", "stamp_install_method",
    ),
    "hermes_cli.dashboard_auth": (),
    "hermes_cli.main": ("hashlib", "line_input", "shlex", "stat", "tempfile"),
    "hermes_cli.middleware": (
        "API_EXECUTION_MIDDLEWARE", "API_REQUEST_MIDDLEWARE", "apply_api_request_middleware",
        "run_api_execution_middleware",
    ),
    "hermes_cli.plugins": (
        "CAPABILITY_REGISTRY", "ENTRY_POINT_CAPABILITIES_GROUP", "Iterable",
        "LEGACY_RELAY_PLUGIN_KEYS", "MAX_SYSTEM_PROMPT_SECTIONS", "OBSERVER_SCHEMA_VERSION",
        "Type", "VALID_CAPABILITY_IDS", "cfg_get", "contextmanager", "contextvars", "copy",
        "fast_safe_load", "format_system_prompt_section", "get_plugin_subscriptions",
        "hashlib", "reset_hermes_home_override", "set_hermes_home_override", "time",
        "unload_plugins", "wraps",
    ),
    "hermes_cli.plugins_cmd": ("importlib",),
    "hermes_cli.plugins_dispatch": (),
    "agent": (),  # none: "acp_adapter.session" is followed by "agent.agent_init"
    "agent.browser_provider": ("Any", "Optional"),
    "agent.context_engine": (),  # none: "agent.context_compressor", then "agent.conversation_*"
    "agent.image_gen_provider": ("base64", "datetime", "uuid"),
    "agent.plugin_llm": (),  # none: "agent.pet.generate.atlas", then "agent.prompt_builder"
    "agent.secret_sources.base": (),  # none: "agent.secret_sources._cache", then ".bitwarden"
    "agent.transcription_provider": ("List", "logger", "logging"),
    "agent.tts_provider": (),  # none: "agent.transports.codex_app_server", "agent.tts_registry"
    "agent.video_gen_provider": ("base64", "datetime", "uuid"),
    "agent.web_search_provider": ("Optional",),
    "model_tools": (),
    "tools": (),
    "tools.registry": (),
    "tools.send_message_tool": ("SEND_MESSAGE_SCHEMA", "re", "redact_sensitive_text", "time"),
    "tools.skills_tool": (
        "Enum", "Set", "display_hermes_home", "env_var_enabled", "re", "threading",
    ),
    "tools.tool_search": (
        "Literal", "build_catalog_listing", "copy", "field", "re", "snowballstemmer", "threading",
    ),
    "toolsets": ("resolve_multiple_toolsets",),
}  # fmt: skip

COPIED: Final = frozenset(MOVED)


def scan(source: str, moved: Mapping[str, tuple[str, ...]] = MOVED) -> list[str]:
    """``"F.n"`` for every use of a moved name in ``source`` (the forms upstream's
    ``hermes_cli.plugin_compat.scan_source`` finds, plus ``from F import sub`` then
    ``sub.n`` and ``getattr(module, "n")``)."""
    tree = ast.parse(source)
    hits: set[str] = set()
    aliases: dict[str, str] = {}
    named: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            named.add(node.module)
            for alias in node.names:
                if alias.name in moved.get(node.module, ()):
                    hits.add(f"{node.module}.{alias.name}")
                if f"{node.module}.{alias.name}" in moved:
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                named.add(alias.name)
                if alias.name in moved and alias.asname:
                    aliases[alias.asname] = alias.name
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            module, _, name = node.value.rpartition(".")
            if name in moved.get(module, ()):
                hits.add(node.value)
            if node.value in moved:
                named.add(node.value)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            dotted = _dotted(node)
            if dotted is not None:
                head, *rest = dotted.split(".")
                dotted = ".".join([aliases.get(head, head), *rest])
                module, _, name = dotted.rpartition(".")
                if name in moved.get(module, ()):
                    hits.add(dotted)
        elif is_getattr(node):
            name = node.args[1].value  # type: ignore[union-attr]
            hits.update(f"{m}.{name}" for m in named if name in moved.get(m, ()))
    return sorted(hits)


def _dotted(node: ast.expr) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def is_getattr(
    node: ast.AST, functions: frozenset[str] = frozenset({"getattr"})
) -> TypeGuard[ast.Call]:
    """Whether ``node`` is ``getattr(x, "name", ...)``, or another of ``functions`` so called."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in functions
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
    )
