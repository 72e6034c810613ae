"""What the kit knows of the host's names: hooks, middleware kinds, built-in commands.

When hermes-agent is already imported in this process (a plugin being loaded by the
real host), its own lists are used; otherwise the kit's copies below, read from
hermes-agent 0.19.0 and extended with the hooks newer releases added. Nothing here
imports hermes: looking a module up in ``sys.modules`` is free, importing it is not.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any, Final, cast

HERMES_HOOKS: Final = frozenset(
    {
        "pre_tool_call", "post_tool_call", "transform_terminal_output", "transform_tool_result",
        "transform_llm_output", "pre_llm_call", "post_llm_call", "pre_verify",
        "pre_api_request", "post_api_request", "api_request_error", "on_session_start",
        "on_session_end", "on_session_finalize", "on_session_reset", "subagent_start",
        "subagent_stop", "pre_gateway_dispatch", "pre_approval_request",
        "post_approval_response", "kanban_task_claimed", "kanban_task_completed",
        "kanban_task_blocked",
    }
)  # fmt: skip
"""``VALID_HOOKS`` of hermes-agent 0.19.0 (``hermes_cli/plugins.py``)."""

HERMES_NEWER_HOOKS: Final = frozenset(
    {
        "on_stream_start", "on_stream_delta", "on_stream_end", "on_interim_message",
        "transform_api_error_classification", "on_skill_lifecycle", "agent_loop_stopped",
        "on_room_member_activity", "pre_transcription", "on_kanban_worker_spawned",
        "on_kanban_worker_exited", "on_kanban_worker_stale_claim", "on_kanban_task_updated",
        "on_kanban_dispatch_tick", "gateway_platform_event", "pre_command",
    }
)  # fmt: skip
"""Hooks added by hermes releases after 0.19.0."""

HERMES_MIDDLEWARE_KINDS: Final = frozenset(
    {"tool_request", "tool_execution", "llm_request", "llm_execution"}
)
"""``VALID_MIDDLEWARE`` of hermes-agent 0.19.0 (``hermes_cli/middleware.py``)."""

HERMES_SLASH_COMMANDS: Final = frozenset(
    {
        "agents", "approve", "background", "bg", "blueprint", "bp", "branch", "browser", "btw",
        "bundles", "busy", "clear", "codex-runtime", "codex_runtime", "commands", "compact",
        "compose", "compress", "config", "copy", "cron", "curator", "debug", "deny", "exit",
        "fast", "footer", "fork", "gateway", "generate-pet", "goal", "handoff", "hatch", "help",
        "history", "image", "indicator", "insights", "journey", "kanban", "learn", "learning",
        "memory", "memory-graph", "moa", "model", "new", "paste", "personality", "pet",
        "platform", "platforms", "plugins", "profile", "prompt", "q", "queue", "quit",
        "reasoning", "redraw", "reload", "reload-mcp", "reload-skills", "reload_mcp",
        "reload_skills", "reset", "restart", "resume", "retry", "rollback", "save", "sb",
        "sessions", "set-home", "sethome", "skills", "skin", "snap", "snapshot", "start",
        "status", "statusbar", "steer", "stop", "subgoal", "subscription", "suggest",
        "suggestions", "tasks", "timestamps", "title", "tools", "toolsets", "topic", "topup",
        "ts", "undo", "update", "upgrade", "usage", "v", "verbose", "version", "voice",
        "whoami", "yolo",
    }
)  # fmt: skip
"""Built-in slash commands and aliases of hermes-agent 0.19.0 (``hermes_cli/commands.py``)."""

HERMES_CLI_COMMANDS: Final = frozenset(
    {
        "acp", "auth", "backup", "bundles", "chat", "checkpoints", "claw", "completion",
        "computer-use", "config", "console", "cron", "curator", "dashboard", "debug", "desktop",
        "doctor", "dump", "fallback", "gateway", "gui", "help", "hooks", "import", "insights",
        "journey", "kanban", "learning", "login", "logout", "logs", "lsp", "mcp", "memory",
        "memory-graph", "migrate", "moa", "model", "pairing", "pets", "plugins", "portal",
        "postinstall", "profile", "project", "prompt-size", "proxy", "secrets", "security",
        "send", "serve", "sessions", "setup", "skills", "slack", "status", "tools",
        "uninstall", "update", "version", "webhook", "whatsapp", "whatsapp-cloud",
    }
)  # fmt: skip
"""Built-in ``hermes`` subcommands of 0.19.0 (``_BUILTIN_SUBCOMMANDS``, ``hermes_cli/main.py``)."""


def _loaded(module: str, attribute: str) -> Any:
    found = sys.modules.get(module)
    return getattr(found, attribute, None) if found is not None else None


def host_tool_registry() -> Any:
    """hermes' process-wide tool registry (``tools.registry.registry``) when loaded, else None."""
    return _loaded("tools.registry", "registry")


MODELLED_HOOKS: Final = HERMES_HOOKS | HERMES_NEWER_HOOKS
"""Every hook of every release the kit knows: what a decorator accepts, whatever else is
imported in the process (a plugin imports the same way alone and inside a host)."""


def running_host_hooks() -> frozenset[str] | None:
    """The hook names of the hermes loaded in this process (its ``VALID_HOOKS``), or None
    when none is loaded: what ``register_plugin`` checks against."""
    valid = _loaded("hermes_cli.plugins", "VALID_HOOKS")
    if isinstance(valid, Iterable) and not isinstance(valid, str):
        return frozenset(str(h) for h in cast("Iterable[object]", valid))
    return None


def running_host_release() -> str:
    """``hermes-agent <version>`` of the loaded host (``hermes_cli.__version__``), for
    messages."""
    version = _loaded("hermes_cli", "__version__")
    return f"hermes-agent {version}" if isinstance(version, str) else "this hermes"


def host_awaits_hooks() -> bool:
    """Whether the running host awaits ``async def`` hooks (releases after 0.19.0 do)."""
    return "hermes_cli.plugins_dispatch" in sys.modules


def reserved_slash_command(name: str) -> bool:
    """Whether the host would skip a plugin slash command of this name as a built-in."""
    resolve = _loaded("hermes_cli.commands", "resolve_command")
    if callable(resolve):
        try:
            return resolve(name) is not None
        except Exception:  # the host's lookup failing must not hide the kit's own list
            pass
    return name in HERMES_SLASH_COMMANDS


def reserved_cli_command(name: str) -> bool:
    """Whether ``hermes <name>`` is a built-in subcommand (a plugin's would never be reached)."""
    builtin = _loaded("hermes_cli.main", "_BUILTIN_SUBCOMMANDS")
    if isinstance(builtin, Iterable) and not isinstance(builtin, str) and name in builtin:
        return True
    return name in HERMES_CLI_COMMANDS
