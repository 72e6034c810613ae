"""The names hermes-agent 0.19.0 has built in, kept as data so the host needs no hermes.

``BUILTIN_TOOLS`` was read from a booted hermes-agent 0.19.0 (its tool registry with no
user plugin installed); the hook, middleware and command names are kit-lifecycle's copies
(which its decorators check against), so each list lives in one place; the
parity test (``tests/host/test_parity.py``) checks every constant here against the
real host, so a new hermes release that changes them fails CI instead of drifting.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from kit_lifecycle._host import HERMES_HOOKS, HERMES_MIDDLEWARE_KINDS, HERMES_SLASH_COMMANDS

__all__ = [
    "AGENT_LOOP_TOOLS",
    "BUILTIN_COMMANDS",
    "BUILTIN_TOOLS",
    "HOST_VERSION",
    "MIDDLEWARE_SCHEMA_VERSION",
    "OBSERVER_SCHEMA_VERSION",
    "TOOL_SEARCH_TOOLS",
    "VALID_HOOKS",
    "VALID_MIDDLEWARE",
]

HOST_VERSION: Final = "0.19.0"
"""The hermes-agent release this host reproduces."""

OBSERVER_SCHEMA_VERSION: Final = "hermes.observer.v1"
"""Added to every hook call as ``telemetry_schema_version`` (``hermes_cli/middleware.py``)."""

MIDDLEWARE_SCHEMA_VERSION: Final = "hermes.middleware.v1"
"""Added to every middleware call as ``middleware_schema_version``."""

VALID_HOOKS: Final = HERMES_HOOKS
"""``hermes_cli.plugins.VALID_HOOKS``: other names are stored with a warning."""

VALID_MIDDLEWARE: Final = HERMES_MIDDLEWARE_KINDS
"""``hermes_cli.middleware.VALID_MIDDLEWARE``: other kinds are stored with a warning."""

AGENT_LOOP_TOOLS: Final = frozenset({"todo", "memory", "session_search", "delegate_task"})
"""``model_tools._AGENT_LOOP_TOOLS``: ``handle_function_call`` refuses these names."""

TOOL_SEARCH_TOOLS: Final = frozenset({"tool_search", "tool_describe", "tool_call"})
"""The Tool Search bridge names ``handle_function_call`` answers before the registry."""

BUILTIN_TOOLS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "browser_back": "browser",
        "browser_cdp": "browser-cdp",
        "browser_click": "browser",
        "browser_console": "browser",
        "browser_dialog": "browser-cdp",
        "browser_get_images": "browser",
        "browser_navigate": "browser",
        "browser_press": "browser",
        "browser_scroll": "browser",
        "browser_snapshot": "browser",
        "browser_type": "browser",
        "browser_vision": "browser",
        "clarify": "clarify",
        "close_terminal": "terminal",
        "computer_use": "computer_use",
        "cronjob": "cronjob",
        "delegate_task": "delegation",
        "discord": "discord",
        "discord_admin": "discord_admin",
        "execute_code": "code_execution",
        "feishu_doc_read": "feishu_doc",
        "feishu_drive_add_comment": "feishu_drive",
        "feishu_drive_list_comment_replies": "feishu_drive",
        "feishu_drive_list_comments": "feishu_drive",
        "feishu_drive_reply_comment": "feishu_drive",
        "ha_call_service": "homeassistant",
        "ha_get_state": "homeassistant",
        "ha_list_entities": "homeassistant",
        "ha_list_services": "homeassistant",
        "image_generate": "image_gen",
        "kanban_attach": "kanban",
        "kanban_attach_url": "kanban",
        "kanban_attachments": "kanban",
        "kanban_block": "kanban",
        "kanban_comment": "kanban",
        "kanban_complete": "kanban",
        "kanban_create": "kanban",
        "kanban_heartbeat": "kanban",
        "kanban_link": "kanban",
        "kanban_list": "kanban",
        "kanban_show": "kanban",
        "kanban_unblock": "kanban",
        "memory": "memory",
        "patch": "file",
        "process": "terminal",
        "project_create": "project",
        "project_list": "project",
        "project_switch": "project",
        "read_file": "file",
        "read_terminal": "terminal",
        "search_files": "file",
        "session_search": "session_search",
        "skill_manage": "skills",
        "skill_view": "skills",
        "skills_list": "skills",
        "spotify_albums": "spotify",
        "spotify_devices": "spotify",
        "spotify_library": "spotify",
        "spotify_playback": "spotify",
        "spotify_playlists": "spotify",
        "spotify_queue": "spotify",
        "spotify_search": "spotify",
        "terminal": "terminal",
        "text_to_speech": "tts",
        "todo": "todo",
        "video_analyze": "video",
        "video_generate": "video_gen",
        "vision_analyze": "vision",
        "web_extract": "web",
        "web_search": "web",
        "write_file": "file",
        "x_search": "x_search",
        "xai_video_edit": "video_gen",
        "xai_video_extend": "video_gen",
        "yb_query_group_info": "hermes-yuanbao",
        "yb_query_group_members": "hermes-yuanbao",
        "yb_search_sticker": "hermes-yuanbao",
        "yb_send_dm": "hermes-yuanbao",
        "yb_send_sticker": "hermes-yuanbao",
    }
)
"""Every tool of a booted 0.19.0 registry -> its toolset (built-in modules and the bundled
plugins that always load). A plugin tool of the same name in another toolset is refused."""

BUILTIN_COMMANDS: Final = HERMES_SLASH_COMMANDS
"""Built-in slash commands and aliases (``hermes_cli.commands._COMMAND_LOOKUP``): a plugin
command of one of these names is skipped with a warning."""
