"""The ``PluginContext`` members of hermes 0.20.1+ that are not registrars: plugin
discovery (``has_plugin``), config writes and durable state, capabilities, the event bus,
MCP access, background tasks, unload callbacks and the facades that need a live agent.

Each member is played as hermes' ``PluginContext`` of 0.20.1, 0.21.3 and 0.22.2 plays it
where a plugin can observe it in a host with no agent running. A member exists only on a
release whose ``PluginContext`` has it (``context.gated``, checked by
``HostContext.__getattribute__``).
"""

from __future__ import annotations

import asyncio
import copy
import importlib
import json
import re
from collections.abc import Callable
from typing import Any, Final, cast

from kit_devtools.testing._provider_checks import base_class
from kit_devtools.testing._state import HostState

__all__ = ["InMemoryPluginState", "LifecycleMembers"]

_STATE_KEY: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$")
"""``_PLUGIN_STATE_KEY_RE`` (0.21.3)."""
STATE_QUOTA_BYTES: Final = 10 * 1024 * 1024
"""``_PLUGIN_STATE_QUOTA_BYTES`` (0.21.3)."""
HERMES_EVENT_NAMESPACE: Final = "hermes"


class InMemoryPluginState:
    """``ctx.state``: hermes' ``PluginState`` (``get``/``set`` of JSON values under a
    validated key, a per-plugin quota), kept in the host
    (``InMemoryHost._state.plugin_state``) instead of
    ``<HERMES_HOME>/plugin-data/<namespace>/state.json``."""

    def __init__(self, store: dict[str, Any]) -> None:
        self._store = store

    @property
    def quota_bytes(self) -> int:
        return STATE_QUOTA_BYTES

    @staticmethod
    def _validate_key(key: str) -> None:
        if not isinstance(key, str) or not _STATE_KEY.fullmatch(key) or ".." in key:
            msg = (
                "Plugin state keys must be 1-128 characters using letters, "
                "numbers, '_', '-', '.', or ':' (without '..')"
            )
            raise ValueError(msg)

    def get(self, key: str, default: Any = None) -> Any:
        self._validate_key(key)
        return copy.deepcopy(self._store.get(key, default))

    def set(self, key: str, value: Any) -> None:
        self._validate_key(key)
        data = {**self._store, key: value}
        try:
            encoded = json.dumps(data, ensure_ascii=False, indent=2).encode("utf-8")
        except (TypeError, ValueError) as exc:
            msg = f"Plugin state value for {key!r} is not JSON-serializable"
            raise ValueError(msg) from exc
        if len(encoded) > self.quota_bytes:
            msg = (
                f"Plugin state quota exceeded: {len(encoded)} bytes is greater "
                f"than the {self.quota_bytes}-byte per-plugin quota"
            )
            raise ValueError(msg)
        self._store[key] = json.loads(json.dumps(value))  # what a read of the file gives back


def _hermes(module: str, name: str) -> Any:
    """hermes' own helper where hermes is importable, else None."""
    try:
        return getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None


class LifecycleMembers:
    """The mixin ``HostContext`` gets these members from."""

    _state: HostState
    manifest: Any

    @property
    def _plugin(self) -> str:
        raise NotImplementedError  # HostContext's

    @property
    def plugin_id(self) -> str:
        return cast("str", self.manifest.key or self.manifest.name)

    def _track(
        self, kind: str, name: str, release: Callable[[], None], *, persistent: bool = False
    ) -> Any:
        raise NotImplementedError  # UpstreamContext's (every release with these members)

    def _refuse(self, what: str) -> ValueError:
        """``PluginContext._refuse``."""
        return ValueError(f"Plugin '{self.manifest.name}' tried to register {what}.")

    def _warn(self, surface: str, name: str, message: str) -> None:
        self._state.record("WARNING", self._plugin, surface, name, message)

    def _wrong_type(
        self, surface: str, obj: Any, what: str, module: str, base: str, name: str | None = None
    ) -> bool:
        """Whether ``obj`` does not inherit hermes' ``<module>.<base>`` (checked where hermes
        is importable): hermes then ignores it with this WARNING."""
        cls = base_class(module, base)
        if cls is None or isinstance(obj, cls):
            return False
        message = (
            f"Plugin '{self._plugin}' tried to register {what} that does not inherit from"
            f" {base}. Ignoring."
        )
        self._warn(surface, type(obj).__name__ if name is None else name, message)
        return True

    # -- other plugins, config, state ---------------------------------------------------

    def has_plugin(self, plugin_id: str) -> bool:
        """Whether another plugin is loaded and enabled, by key or manifest name
        (``has_plugin``)."""
        return any(
            loaded.enabled and plugin_id in (key, loaded.name)
            for key, loaded in self._state.loaded.items()
        )

    def set_config(self, key: str, value: Any) -> None:
        """Write ``plugins.entries.<plugin_id>.settings.<key>`` into the host's config
        (``set_config``): a key other than a plugin-relative one is the ValueError of
        ``get_config``, with hermes' WARNING; the in-memory host is no managed install, so
        no PermissionError."""
        from kit_devtools.testing._upstream_config import relative_segments

        try:
            segments = relative_segments(key)
        except ValueError:
            message = f"Rejected config path {key!r} from plugin {self.plugin_id}"
            self._state.record("WARNING", self._plugin, "context", "set_config", message)
            raise
        node: dict[str, Any] = self._state.config
        for part in ("plugins", "entries", self.plugin_id, "settings", *segments[:-1]):
            child = node.get(part)
            if not isinstance(child, dict):
                child = node[part] = {}
            node = cast("dict[str, Any]", child)
        node[segments[-1]] = copy.deepcopy(value)

    @property
    def state(self) -> InMemoryPluginState:
        """This plugin's durable JSON state (one store per plugin id, kept by the host)."""
        store = self._state.plugin_state.setdefault(self.plugin_id, {})
        return InMemoryPluginState(store)

    # -- capabilities and MCP -----------------------------------------------------------

    def has_capability(self, capability: str) -> bool:
        """A bundled plugin is trusted for ``tools.override``; otherwise hermes'
        ``plugin_capability_granted`` on the host's config; False where hermes is not
        importable (fail closed, as hermes does when it cannot read consent state)."""
        if getattr(self.manifest, "source", "") == "bundled" and capability == "tools.override":
            return True
        granted = _hermes("hermes_cli.plugin_capabilities", "plugin_capability_granted")
        if granted is None:
            return False
        return bool(granted(self.plugin_id, capability, config=self._state.config))

    def call_mcp(
        self,
        server: str,
        tool: str,
        arguments: dict[str, Any] | None = None,
        timeout: float = 30,
    ) -> dict[str, Any]:
        """A server outside ``plugins.entries.<plugin_id>.mcp_allowlist`` is a
        PermissionError; the in-memory host connects no MCP server, so an allowed one
        answers as hermes' handler does for a server it has no connection to:
        ``{"ok": False, "error": ...}``."""
        del arguments, timeout
        plugins = cast("dict[str, Any]", self._state.config.get("plugins") or {})
        entries = cast("dict[str, Any]", plugins.get("entries") or {})
        entry = cast("dict[str, object]", entries.get(self.plugin_id) or {})
        allowlist = entry.get("mcp_allowlist")
        allowed = (
            [str(item) for item in cast("list[object]", allowlist)]
            if isinstance(allowlist, list)
            else []
        )
        if server not in allowed:
            msg = (
                f"Plugin {self.manifest.name!r} is not allowed to call MCP "
                f"server {server!r}. Add it to "
                f"plugins.entries.{self.plugin_id}.mcp_allowlist in config.yaml "
                f"to grant access (default is no MCP access)."
            )
            raise PermissionError(msg)
        return {"ok": False, "error": f"MCP server '{server}' is not connected"}

    # -- event bus ----------------------------------------------------------------------

    def emit(self, event: str, payload: dict[str, Any] | None = None) -> int:
        """Publish ``<plugin_id>:<event>`` and return how many subscribers it is delivered
        to. hermes delivers on a worker thread; the in-memory host delivers before
        returning, in subscription order, each subscriber called with a fresh deep copy of
        the payload as keywords, a raising one logged (hermes' WARNING) and the next still
        called (``_event_worker_loop``)."""
        key = self.plugin_id
        if not event or not isinstance(event, str):
            message = f"Plugin '{key}' tried to emit an invalid event name {event!r}"
            self._state.record("WARNING", self._plugin, "event", str(event), message)
            msg = f"Plugin '{key}' emit() requires a non-empty event name"
            raise ValueError(msg)
        if ":" in event:
            message = (
                f"Plugin '{key}' tried to emit namespaced/reserved event '{event}' — a plugin"
                f" may only emit bare event names under its own '{key}:' namespace (the"
                f" '{HERMES_EVENT_NAMESPACE}:' prefix is reserved for core, and foreign"
                " namespaces are forbidden)"
            )
            self._state.record("WARNING", self._plugin, "event", event, message)
            msg = (
                f"Plugin '{key}' may not emit '{event}': emit only the bare event name; the"
                f" namespace is forced to '{key}:' and the '{HERMES_EVENT_NAMESPACE}:' prefix"
                " is reserved for core"
            )
            raise ValueError(msg)
        if payload is not None and not isinstance(payload, dict):
            msg = f"Plugin '{key}' emit() payload must be a dict or None"
            raise TypeError(msg)
        full = f"{key}:{event}"
        subscribers = tuple(self._state.subscriptions.get(full, ()))
        for owner, callback in subscribers:
            try:
                result = callback(**copy.deepcopy(payload or {}))
                if asyncio.iscoroutine(result):
                    asyncio.run(result)
            except Exception as exc:
                name = getattr(callback, "__name__", repr(callback))
                message = f"Event '{full}' subscriber {name} raised: {exc}"
                self._state.record("WARNING", owner, "event", full, message, exc)
        return len(subscribers)

    def subscribe(self, event: str, callback: Callable[..., Any]) -> None:
        """Subscribe to a full ``<plugin_key>:<event>`` name (``_subscribe_event``: a
        callback that is not callable is a TypeError)."""
        if not event or not isinstance(event, str):
            msg = f"Plugin '{self.manifest.name}' subscribe() requires a non-empty event name"
            raise ValueError(msg)
        if not callable(callback):
            msg = "Event subscriber callback must be callable"
            raise TypeError(msg)
        self._state.subscriptions.setdefault(event, []).append((self._plugin, callback))

    # -- lifecycle ----------------------------------------------------------------------

    def on_unload(self, callback: Callable[[], None]) -> Any:
        """A cleanup callback in the ledger: disposing its handle (or unloading, or a
        rolled-back ``register()``) runs it once; an exception it raises is logged, never
        propagated."""
        if not callable(callback):
            msg = "on_unload callback must be callable"
            raise TypeError(msg)
        name = getattr(callback, "__name__", "callback")

        def run() -> None:
            try:
                callback()
            except Exception as exc:
                message = f"Plugin {self._plugin} on_unload callback {name} raised: {exc}"
                self._state.record("WARNING", self._plugin, "context", "on_unload", message, exc)

        return self._track("on_unload", name, run)

    def spawn_task(self, coro: Any, *, name: str | None = None) -> asyncio.Task[Any]:
        """A supervised task: not a coroutine is a TypeError; with no running event loop (a
        plugin's ``register()`` in a host with no agent), ``asyncio.get_running_loop``'s
        RuntimeError, as in hermes. The task's handle cancels it; it leaves the ledger when
        the task ends."""
        if not asyncio.iscoroutine(coro):
            msg = "spawn_task expects a coroutine"
            raise TypeError(msg)
        loop = asyncio.get_running_loop()
        task_name = name or f"plugin:{self.plugin_id}:task"
        task: asyncio.Task[Any] = loop.create_task(coro, name=task_name)

        def cancel() -> None:
            if not task.done():
                task.cancel()

        handle = self._track("background_task", task_name, cancel)
        task.add_done_callback(lambda _t: handle.dispose())
        return task

    # -- facades over a live host -------------------------------------------------------

    @property
    def subagent_lifecycle(self) -> Any:
        """hermes' ``SubagentLifecycleService``, resolving the active parent agent only when
        a child launches: in a host with no agent, launching fails as it does in hermes."""
        module: Any = importlib.import_module("agent.subagent_lifecycle")
        return module.SubagentLifecycleService(module.get_active_subagent_parent)

    @property
    def platform_actions(self) -> Any:
        """hermes' ``PlatformActions`` facade: each verb re-checks the capability and
        answers ``{"ok": False, ...}`` with no live gateway adapter."""
        module: Any = importlib.import_module("hermes_cli.platform_actions")
        return module.PlatformActions(self.plugin_id)

    def current_cron_execution(self) -> Any:
        """The cron run executing now, else None (through ``cron.execution_identity``): None
        in the in-memory host, which runs no cron job."""
        found = _hermes("cron.execution_identity", "current_cron_execution")
        return found() if found is not None else None
