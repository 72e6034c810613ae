"""``HostContext``: what a plugin's ``register(ctx)`` receives from the in-memory host.

Each method has the signature of hermes-agent 0.19.0's ``PluginContext`` method of the
same name, stores the same fields and refuses what the host refuses, the same way: raising
where hermes raises, and otherwise skipping with a WARNING or ERROR event
(``InMemoryHost.events``) where hermes logs one.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Any, cast

from kit_core.hermes import registry_releases
from kit_devtools.testing._context_registrars import Registrars
from kit_devtools.testing._providers import Provisions
from kit_devtools.testing._state import HostState
from kit_devtools.testing.entries import (
    CliCommandEntry,
    CommandEntry,
    HookEntry,
    MiddlewareEntry,
    PluginManifest,
    PluginToolOverrideError,
    SkillEntry,
    ToolEntry,
)
from kit_devtools.testing.host_names import (
    BUILTIN_COMMANDS,
    BUILTIN_TOOLS,
    VALID_MIDDLEWARE,
)

__all__ = ["HostContext"]

_SKILL_NAME = re.compile(r"^[a-zA-Z0-9_-]+$")  # agent.skill_utils._NAMESPACE_RE
_PLUGIN_NAMESPACE = "hermes_plugins."


def _taken(table: object) -> list[tuple[str, Any]]:
    """Empty one of ``ctx._manager``'s callback tables; what it held, as (name, callback).
    A table the plugin replaced with something else is left alone."""
    if not isinstance(table, dict):
        return []
    held = cast("dict[str, Any]", table)
    taken = [
        (str(name), callback)
        for name, callbacks in held.items()
        for callback in (cast("list[Any]", callbacks) if isinstance(callbacks, list) else [])
    ]
    held.clear()
    return taken


class PluginManager:
    """``ctx._manager``, hermes' ``PluginManager`` as a plugin reaches it through its
    context: the attributes of hermes-agent 0.19.0's manager (``_discovered`` is True while
    plugins load), empty, since the in-memory host keeps its state elsewhere. A name that
    manager lacks raises AttributeError, as there: a plugin written for upstream's manager
    (``home_path``, say) fails here as it fails in hermes 0.19.0."""

    def __init__(self) -> None:
        self._plugins: dict[str, Any] = {}
        self._hooks: dict[str, list[Any]] = {}
        self._middleware: dict[str, list[Any]] = {}
        self._plugin_tool_names: set[str] = set()
        self._plugin_platform_names: set[str] = set()
        self._cli_commands: dict[str, Any] = {}
        self._context_engine: Any = None
        self._plugin_commands: dict[str, Any] = {}
        self._discovered = True
        self._cli_ref: Any = None
        self._plugin_skills: dict[str, Any] = {}
        self._aux_tasks: dict[str, Any] = {}
        self._slack_action_handlers: list[Any] = []


@functools.cache
def gated() -> frozenset[str]:
    """``PluginContext`` members some release lacks (``HostRelease.context``): absent where
    the release played lacks them, as there (``register_middleware`` before 0.17.0, the
    TTS and speech-to-text registrars before 0.15.0, the members of 0.20.1 before it ...)."""
    members = [frozenset(r.context) for r in registry_releases()]
    every: frozenset[str] = members[0].intersection(*members[1:])
    return frozenset[str]().union(*members) - every


class HostContext(Provisions, Registrars):
    """The in-memory host's ``PluginContext``, handed to one plugin's ``register``."""

    def __init__(
        self, state: HostState, dispatch: Callable[..., Any], manifest: PluginManifest
    ) -> None:
        """``state``: the host's registries; ``dispatch``: the host's ``registry.dispatch``
        (the context knows the host only through these two, not the host class)."""
        self.manifest = manifest
        self._state = state
        self._dispatch = dispatch
        self._manager: Any = PluginManager()

    def __repr__(self) -> str:
        return f"HostContext(plugin={self.manifest.name!r})"

    def __getattribute__(self, name: str) -> Any:
        if name in gated() and name not in object.__getattribute__(self, "_state").release.context:
            msg = f"'PluginContext' object has no attribute {name!r}"
            raise AttributeError(msg, name=name, obj=self)
        return object.__getattribute__(self, name)

    def __dir__(self) -> list[str]:
        offered = self._state.release.context
        return [n for n in super().__dir__() if n not in gated() or n in offered]

    def __getattr__(self, name: str) -> Any:
        """A member the release lacks fails in hermes' words: ``'PluginContext' object has
        no attribute ...`` (a plugin calling ``register_memory_provider`` on 0.19.0 gets
        the error hermes records)."""
        msg = f"'PluginContext' object has no attribute {name!r}"
        raise AttributeError(msg, name=name, obj=self)

    @property
    def _plugin(self) -> str:
        return self.manifest.name

    @property
    def profile_name(self) -> str:
        """The active hermes profile: always ``"default"`` in the in-memory host."""
        return "default"

    @property
    def llm(self) -> Any:
        """hermes' host-owned LLM facade, ``agent.plugin_llm.PluginLlm``: the real one
        where hermes is importable (fail-closed by config, as in hermes), else the
        ImportError hermes itself would raise."""
        module: Any = importlib.import_module("agent.plugin_llm")
        return module.PluginLlm(plugin_id=self.manifest.key or self.manifest.name)

    # -- tools --------------------------------------------------------------------------

    def register_tool(
        self,
        name: str,
        toolset: str,
        schema: dict[str, Any],
        handler: Callable[..., Any],
        check_fn: Callable[[], Any] | None = None,
        requires_env: list[Any] | None = None,
        is_async: bool = False,
        description: str = "",
        emoji: str = "",
        override: bool = False,
    ) -> None:
        """Register a tool like ``PluginContext.register_tool`` + ``registry.register``."""
        state = self._state
        plugin_id = self.manifest.key or self.manifest.name
        if override and not state.override_allowed(plugin_id):
            msg = (
                f"Plugin {self.manifest.name!r} cannot override built-in tool "
                f"{name!r}. Set "
                f"plugins.entries.{plugin_id}.allow_tool_override: true "
                f"in config.yaml to allow this plugin to replace built-in tools."
            )
            raise PluginToolOverrideError(msg)
        existing = state.tools[name].toolset if name in state.tools else BUILTIN_TOOLS.get(name)
        if existing is not None and existing != toolset:
            both_mcp = existing.startswith("mcp-") and toolset.startswith("mcp-")
            if not both_mcp and override:
                self._check_registry_override(name, handler, existing)
            elif not both_mcp:
                message = (
                    f"Tool registration REJECTED: '{name}' (toolset '{toolset}') would "
                    f"shadow existing tool from toolset '{existing}'. Pass "
                    "override=True to register() if the replacement is "
                    "intentional, or deregister the existing tool first."
                )
                state.record("ERROR", self._plugin, "tool", name, message)
                state.plugin_tool_names[name] = None
                return
        schema_any: Any = schema
        state.tools[name] = ToolEntry(
            name=name,
            toolset=toolset,
            schema=schema,
            handler=handler,
            check_fn=check_fn,
            requires_env=requires_env or [],
            is_async=is_async,
            description=description or schema_any.get("description", ""),
            emoji=emoji,
            plugin=self._plugin,
        )
        state.plugin_tool_names[name] = None

    def _check_registry_override(
        self, name: str, handler: Callable[..., Any], existing: str
    ) -> None:
        """The registry's own gate: bound to the module that *defined* the handler."""
        try:
            module: Any = getattr(handler, "__globals__", {}).get("__name__", "")
        except AttributeError:
            module = ""
        policy = self._state.override_policy
        owner = module if module in policy or str(module).startswith(_PLUGIN_NAMESPACE) else None
        if owner is not None and not policy.get(owner, False):
            message = (
                f"Tool registration REJECTED: plugin {owner!r} attempted to "
                f"override built-in tool {name!r} (existing toolset {existing!r}) without "
                "operator opt-in. Set "
                "plugins.entries.<plugin_id>.allow_tool_override: true "
                "in config.yaml to allow it."
            )
            self._state.record("ERROR", self._plugin, "tool", name, message)
            msg = (
                f"Plugin module {owner!r} cannot override built-in "
                f"tool {name!r} without operator opt-in "
                f"(allow_tool_override)."
            )
            raise PermissionError(msg)

    def dispatch_tool(self, tool_name: str, args: dict[str, Any], **kwargs: Any) -> Any:
        """``registry.dispatch``: the handler alone, no hooks, middleware or coercion."""
        return self._dispatch(tool_name, args, **kwargs)

    # -- commands -----------------------------------------------------------------------

    def register_cli_command(
        self,
        name: str,
        help: str,
        setup_fn: Callable[..., Any],
        handler_fn: Callable[..., Any] | None = None,
        description: str = "",
    ) -> None:
        """Store a ``hermes <name>`` command, unvalidated, like the host."""
        self._state.cli_commands[name] = CliCommandEntry(
            name, help, setup_fn, handler_fn, description, self._plugin
        )

    def register_command(
        self,
        name: str,
        handler: Callable[..., Any],
        description: str = "",
        args_hint: str = "",
    ) -> None:
        """Register a slash command; empty and built-in names are skipped with a warning."""
        clean = name.lower().strip().lstrip("/").replace(" ", "-")
        if not clean:
            message = f"Plugin '{self._plugin}' tried to register a command with an empty name."
            self._state.record("WARNING", self._plugin, "command", name, message)
            return
        if clean in BUILTIN_COMMANDS:
            message = (
                f"Plugin '{self._plugin}' tried to register command '/{clean}' which "
                "conflicts with a built-in command. Skipping."
            )
            self._state.record("WARNING", self._plugin, "command", clean, message)
            return
        self._state.commands[clean] = CommandEntry(
            clean, handler, description or "Plugin command", (args_hint or "").strip(), self._plugin
        )

    # -- hooks, middleware, skills ------------------------------------------------------

    def register_hook(self, hook_name: str, callback: Callable[..., Any]) -> None:
        """Store a hook callback; an unknown name is stored too, with a warning."""
        entry = HookEntry(hook_name, callback, self._plugin)
        self._append("hook", self._state.release.hooks, self._state.hooks, entry, hook_name)

    def register_middleware(self, kind: str, callback: Callable[..., Any]) -> None:
        """Store a middleware callback; an unknown kind is stored too, with a warning."""
        entry = MiddlewareEntry(kind, callback, self._plugin)
        self._append("middleware", VALID_MIDDLEWARE, self._state.middleware, entry, kind)

    def _append(
        self, surface: str, valid: AbstractSet[str], table: dict[str, Any], entry: Any, name: str
    ) -> None:
        if name not in valid:
            message = (
                f"Plugin '{self._plugin}' registered unknown {surface} '{name}' "
                f"(valid: {', '.join(sorted(valid))})"
            )
            self._state.record("WARNING", self._plugin, surface, name, message)
        table.setdefault(name, []).append(entry)

    def _adopt_manager_tables(self) -> None:
        """Take in the callbacks the plugin appended straight into ``ctx._manager``'s hook
        and middleware tables. In hermes those are the manager's own tables: the callbacks
        run, and a release without the registration ledger credits them (0.19.0's
        ``_load_plugin`` counts what each table gained); a ledger release credits only what
        its registrars recorded."""
        for name, callback in _taken(self._manager._hooks):
            self._state.hooks.setdefault(name, []).append(HookEntry(name, callback, self._plugin))
        for kind, callback in _taken(self._manager._middleware):
            entry = MiddlewareEntry(kind, callback, self._plugin)
            self._state.middleware.setdefault(kind, []).append(entry)

    def register_skill(self, name: str, path: Path, description: str = "") -> None:
        """Register ``<plugin>:<name>``; raises ValueError / FileNotFoundError like hermes
        (and, where the release takes no str path, AttributeError for one, which has no
        ``exists()``)."""
        if ":" in name:
            msg = (
                f"Skill name '{name}' must not contain ':' "
                f"(the namespace is derived from the plugin name "
                f"'{self.manifest.name}' automatically)."
            )
            raise ValueError(msg)
        if not name or not _SKILL_NAME.match(name):
            msg = f"Invalid skill name '{name}'. Must match [a-zA-Z0-9_-]+."
            raise ValueError(msg)
        if self._state.release.skill_path_str:  # 0.21.5 on: register_skill takes Path(path)
            path = Path(path)
        if not path.exists():
            msg = f"SKILL.md not found at {path}"
            raise FileNotFoundError(msg)
        qualified = f"{self.manifest.name}:{name}"
        self._state.skills[qualified] = SkillEntry(qualified, name, path, description, self._plugin)

    # -- the rest of PluginContext ------------------------------------------------------

    def inject_message(self, content: str, role: str = "user") -> bool:
        """No CLI is attached: like hermes in the gateway, log a warning and return False."""
        del content, role
        message = "inject_message: no CLI reference (not available in gateway mode)"
        self._state.record("WARNING", self._plugin, "context", "inject_message", message)
        return False
