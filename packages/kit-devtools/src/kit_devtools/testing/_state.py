"""The host's mutable tables: hermes' tool registry and plugin manager, in one object."""

from __future__ import annotations

import copy
import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, cast

from kit_core.hermes import HostRelease
from kit_devtools.testing.entries import (
    CliCommandEntry,
    CommandEntry,
    HookEntry,
    HostEvent,
    MiddlewareEntry,
    SkillEntry,
    ToolEntry,
)
from kit_devtools.testing.host_names import MODELLED


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Table sizes before a plugin's ``register(ctx)``, to credit what it added."""

    tools: frozenset[str]
    hooks: dict[str, int]
    middleware: dict[str, int]


class HostState:
    """Registry, manager tables and the event log of one in-memory host."""

    def __init__(
        self, config: Mapping[str, Any] | None, release: HostRelease | None = None
    ) -> None:
        self.release: HostRelease = release or MODELLED
        """The hermes release this host plays (the newest registry release, or upstream)."""
        self.config: dict[str, Any] = copy.deepcopy(dict(config or {}))
        self.tools: dict[str, ToolEntry] = {}
        self.hooks: dict[str, list[HookEntry]] = {}
        self.middleware: dict[str, list[MiddlewareEntry]] = {}
        self.commands: dict[str, CommandEntry] = {}
        self.cli_commands: dict[str, CliCommandEntry] = {}
        self.skills: dict[str, SkillEntry] = {}
        self.plugin_tool_names: dict[str, None] = {}
        """``PluginManager._plugin_tool_names`` (ordered): every name a plugin registered."""
        self.override_policy: dict[str, bool] = {}
        """``ToolRegistry._plugin_override_policy``: plugin module namespace -> allowed."""
        self.events: list[HostEvent] = []
        self.session_env: dict[str, str] = {}
        self.sent_messages: list[dict[str, Any]] = []
        self.provisions: dict[str, dict[str, tuple[str, Any]]] = {}
        """What plugins provided beyond tools and callbacks: kind -> name -> (plugin,
        object); kinds ``image_gen``, ``web_search``, ``platform``, ``auxiliary_task``..."""
        self.loaded: dict[str, Any] = {}
        """The host's loaded plugins by key (``LoadedPlugin``), as ``ctx.has_plugin`` sees them."""
        self.plugin_state: dict[str, dict[str, Any]] = {}
        """``ctx.state`` of each plugin id: key -> JSON value."""
        self.subscriptions: dict[str, list[tuple[str, Any]]] = {}
        """``ctx.subscribe``: full event name -> (plugin, callback), in subscription order."""

    def record(
        self,
        level: Literal["WARNING", "ERROR"],
        plugin: str,
        surface: str,
        name: str,
        message: str,
        exception: BaseException | None = None,
    ) -> None:
        """Log what the real host would log at WARNING or ERROR."""
        self.events.append(HostEvent(level, plugin, surface, name, message, exception))

    def override_allowed(self, plugin_id: str) -> bool:
        """``plugins.entries.<plugin_id>.allow_tool_override`` of the host's config."""
        plugins: Any = self.config.get("plugins") or {}
        entries: Any = plugins.get("entries") or {}
        entry: Any = entries.get(plugin_id) or {}
        return bool(entry.get("allow_tool_override", False))

    def has_hook(self, name: str) -> bool:
        return bool(self.hooks.get(name))

    # -- crediting ---------------------------------------------------------------------

    def snapshot(self) -> Snapshot:
        return Snapshot(
            frozenset(self.plugin_tool_names),
            {name: len(entries) for name, entries in self.hooks.items()},
            {kind: len(entries) for kind, entries in self.middleware.items()},
        )

    def credits(
        self, before: Snapshot, plugin: str, earlier_hooks: frozenset[str]
    ) -> dict[str, tuple[str, ...]]:
        """What a plugin added since ``before``, computed the way ``_load_plugin`` does;
        ``earlier_hooks``: the hook names earlier plugins were credited with, which a
        release before 0.17.0 credits to no later plugin (``credits_shared_hooks``)."""
        if self.release.credits_shared_hooks:
            hooks = tuple(h for h, cbs in self.hooks.items() if len(cbs) > before.hooks.get(h, 0))
        else:
            hooks = tuple(h for h, cbs in self.hooks.items() if cbs and h not in earlier_hooks)
        return {
            "tools": tuple(n for n in self.plugin_tool_names if n not in before.tools),
            "hooks": hooks,
            "middleware": tuple(
                k for k, cbs in self.middleware.items() if len(cbs) > before.middleware.get(k, 0)
            ),
            "commands": tuple(c for c, e in self.commands.items() if e.plugin == plugin),
            "cli_commands": tuple(c for c, e in self.cli_commands.items() if e.plugin == plugin),
            "skills": tuple(s for s, e in self.skills.items() if e.plugin == plugin),
        }


def discard_coroutines(results: list[Any]) -> None:
    """Close coroutines the host would drop un-awaited (an async hook's "result").

    hermes leaves them to be garbage-collected with a "never awaited" warning; closing
    them keeps a test session that treats warnings as errors clean.
    """
    for result in results:
        if inspect.iscoroutine(result):
            cast("Any", result).close()
