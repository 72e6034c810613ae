"""Upstream hermes' ``PluginContext`` (0.21.3), for ``InMemoryHost(hermes="0.21")``.

* ``plugin_id`` is ``manifest.key or manifest.name``, and ``manifest.config_schema``
  holds the manifest's ``config_schema`` mapping (each entry a mapping).
* ``get_config(key, default=None)`` needs a plugin-relative key (ValueError otherwise),
  read from ``plugins.entries.<plugin_id>.settings.<key>`` when present (an explicit null
  too), else from the legacy ``…config.<key>``, else ``default``; ``config_schema``
  defaults are never applied.
* Every ``register_*`` of the six the kit uses returns a handle whose ``dispose()`` takes
  the registration back (``PluginRegistration``), and None when nothing was stored.
* ``register_tool``: plugin tools live in the host's overlay; a name a built-in holds,
  without ``override=True``, is refused with a WARNING and None, the registry never
  called; a tool the registry did not take returns None and is not credited
  (``tools_registered`` lists accepted tools only).
* ``InMemoryHost.load`` disposes the handles of a ``register()`` that raised, newest first
  (upstream's rollback, in reverse acquisition order), so nothing of that plugin stays
  registered.

The manifest with its ``config_schema`` and the plugin-relative config keys are in
``_upstream_config``; the handle, ``PluginRegistration``, is in ``_upstream_registration``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Final

from kit_devtools.testing._upstream_config import nested, relative_segments
from kit_devtools.testing._upstream_registration import PluginRegistration, taking_back
from kit_devtools.testing.context import HostContext, PluginManager
from kit_devtools.testing.host_names import BUILTIN_TOOLS

_UNSET: Final = object()


class _Manager(PluginManager):
    """The parts of upstream's ``PluginManager`` a context exposes as ``ctx._manager``:
    0.19.0's, and the registration ledger (``_ownership_ledger``: plugin key -> handles)."""

    def __init__(self) -> None:
        super().__init__()
        self._ownership_ledger: dict[str, list[PluginRegistration]] = {}
        self.scope_key = "default"


def _ledgered(kind: str, registrar: Callable[..., object], ledger_kind: str = "") -> Any:
    """``registrar`` returning the handle of what it stored under ``provisions[kind]`` (its
    ledger kind ``ledger_kind``, else ``kind``), None when it stored nothing."""

    @functools.wraps(registrar)
    def register(self: UpstreamContext, *args: Any, **kwargs: Any) -> Any:
        call = functools.partial(registrar, self, *args, **kwargs)
        return self._provided(kind, ledger_kind or kind, call)  # pyright: ignore[reportPrivateUsage]

    return register


class UpstreamContext(HostContext):
    """The in-memory host's ``PluginContext`` on the upstream profile."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._manager = _Manager()
        self._handles: list[PluginRegistration] = []
        """Every handle this context returned, oldest first."""

    def get_config(self, key: str, default: Any = None) -> Any:
        segments = relative_segments(key)
        plugins: Any = self._state.config.get("plugins")
        entry = nested(plugins, ("entries", self.plugin_id), None)
        if not isinstance(entry, Mapping):
            return default
        entry_map: Mapping[str, Any] = entry  # pyright: ignore[reportUnknownVariableType]
        value = nested(entry_map.get("settings"), segments, _UNSET)
        if value is not _UNSET:
            return value
        return nested(entry_map.get("config"), segments, default)

    def _track(
        self, kind: str, name: str, release: Callable[[], None], *, persistent: bool = False
    ) -> PluginRegistration:
        ledger = self._manager._ownership_ledger

        def forget(disposed: PluginRegistration) -> None:
            owned = [r for r in ledger.get(disposed.plugin_key, []) if r is not disposed]
            if owned:
                ledger[disposed.plugin_key] = owned
            else:
                ledger.pop(disposed.plugin_key, None)

        handle = PluginRegistration(
            kind, name, release, self.plugin_id, persistent=persistent, forget=forget
        )
        self._handles.append(handle)
        ledger.setdefault(self.plugin_id, []).append(handle)
        return handle

    def _rollback(self) -> None:
        """Dispose every handle, newest first (the ledger unwinding a failed register())."""
        for handle in reversed(self._handles):
            handle.dispose()

    def _ledger_credits(self) -> dict[str, tuple[str, ...]]:
        """What hermes credits the plugin with from its ledger slice: the keys of its active
        registrations of each kind, in registration order, one per registration (a hook
        registered twice is listed twice)."""
        active = [h for h in self._handles if h.active]
        return {
            surface: tuple(h.key for h in active if h.kind == kind)
            for surface, kind in (
                ("tools", "tool"),
                ("hooks", "hook"),
                ("middleware", "middleware"),
                ("commands", "command"),
            )
        }

    def register_tool(  # type: ignore[override]
        self, name: str, toolset: str, schema: dict[str, Any], handler: Callable[..., Any],
        check_fn: Callable[[], Any] | None = None, requires_env: list[Any] | None = None,
        is_async: bool = False, description: str = "", emoji: str = "", override: bool = False,
    ) -> PluginRegistration | None:  # fmt: skip
        state = self._state
        previous = state.tools.get(name)
        if previous is None and not override and name in BUILTIN_TOOLS:
            message = (
                f"Plugin {self._plugin} tried to shadow global tool {name} without override=True"
            )
            state.record("WARNING", self._plugin, "tool", name, message)
            return None
        credited = name in state.plugin_tool_names
        super().register_tool(
            name, toolset, schema, handler, check_fn, requires_env, is_async, description,
            emoji, override,
        )  # fmt: skip
        registered = state.tools.get(name)
        if registered is None or registered is previous or registered.handler is not handler:
            if not credited:
                state.plugin_tool_names.pop(name, None)  # only accepted tools are credited
            return None
        uncredit = functools.partial(state.plugin_tool_names.pop, name, None)
        return self._track(
            "tool", name, taking_back(state.tools, name, registered, previous, uncredit)
        )

    def register_hook(self, hook_name: str, callback: Callable[..., Any]) -> PluginRegistration:  # type: ignore[override]
        super().register_hook(hook_name, callback)
        return self._track("hook", hook_name, self._remover(self._state.hooks, hook_name))

    def register_middleware(self, kind: str, callback: Callable[..., Any]) -> PluginRegistration:  # type: ignore[override]
        super().register_middleware(kind, callback)
        return self._track("middleware", kind, self._remover(self._state.middleware, kind))

    def _remover(self, table: dict[str, list[Any]], key: str) -> Callable[[], None]:
        entry = table[key][-1]

        def release() -> None:
            entries = table.get(key, [])
            if entry in entries:
                entries.remove(entry)
            if not entries:
                table.pop(key, None)

        return release

    def register_command(  # type: ignore[override]
        self, name: str, handler: Callable[..., Any], description: str = "", args_hint: str = ""
    ) -> PluginRegistration | None:
        clean = name.lower().strip().lstrip("/").replace(" ", "-")
        before = self._state.commands.get(clean)
        super().register_command(name, handler, description, args_hint)
        return self._stored("command", self._state.commands, clean, before)

    def register_cli_command(  # type: ignore[override]
        self, name: str, help: str, setup_fn: Callable[..., Any],
        handler_fn: Callable[..., Any] | None = None, description: str = "",
    ) -> PluginRegistration | None:  # fmt: skip
        before = self._state.cli_commands.get(name)
        super().register_cli_command(name, help, setup_fn, handler_fn, description)
        return self._stored("cli_command", self._state.cli_commands, name, before)

    def register_skill(  # type: ignore[override]
        self, name: str, path: Path, description: str = ""
    ) -> PluginRegistration | None:
        qualified = f"{self.manifest.name}:{name}"
        before = self._state.skills.get(qualified)
        super().register_skill(name, path, description)
        return self._stored("skill", self._state.skills, qualified, before)

    def _stored(
        self, kind: str, table: dict[str, Any], key: str, before: Any
    ) -> PluginRegistration | None:
        entry = table.get(key)
        if entry is None or entry is before:
            return None
        return self._track(kind, key, taking_back(table, key, entry, before))

    # -- provisions: each returns the handle of what it stored, None when it stored nothing

    def _provided(self, kind: str, ledger_kind: str, call: Callable[[], object]) -> Any:
        provisions = self._state.provisions
        before = dict(provisions.get(kind, {}))  # no empty table made: "one is registered"
        call()
        table = provisions.get(kind, {})
        stored = [k for k, v in table.items() if before.get(k) is not v]
        if not stored:
            return None
        key, entry = stored[-1], table[stored[-1]]
        # the process-wide dashboard-auth slot (0.21.3+): the handle is persistent and takes
        # back only its own provider, restoring none (``unregister_global_provider``)
        persistent = kind == "dashboard_auth" and self._state.release.global_dashboard_auth
        previous = None if persistent else before.get(key)
        release = taking_back(
            table, key, entry, previous, lambda: table or provisions.pop(kind, None)
        )
        return self._track(ledger_kind, key, release, persistent=persistent)

    def _provide(self, kind: str, provider: Any) -> Any:
        ledger_kind = kind if kind == "secret_source" else f"{kind}_provider"
        return self._provided(
            kind, ledger_kind, lambda: super(UpstreamContext, self)._provide(kind, provider)
        )

    register_context_engine = _ledgered("context_engine", HostContext.register_context_engine)
    register_platform = _ledgered("platform", HostContext.register_platform)
    register_slack_action_handler = _ledgered(
        "slack_action", HostContext.register_slack_action_handler, "slack_action_handler"
    )
    register_auxiliary_task = _ledgered("auxiliary_task", HostContext.register_auxiliary_task)

    def inject_message(
        self, content: str, role: str = "user", *, session_key: str | None = None, **kwargs: Any
    ) -> bool:
        """No CLI is attached: without a session, hermes' gateway-mode warning (asking for
        an ``origin`` too where the release's signature has one); with one, the consent
        warning unless ``plugins.entries.<plugin_id>.allow_gateway_injection`` is true,
        else no live gateway (the in-memory host runs none)."""
        del content, role, kwargs
        if not session_key:
            origin = "origin" in self._state.release.context.get("inject_message", "")
            message = "inject_message: gateway mode requires an existing session_key" + (
                " or an origin" if origin else ""
            )
        elif (
            nested(self._state.config, ("plugins", "entries", self.plugin_id), {}).get(
                "allow_gateway_injection"
            )
            is not True
        ):
            message = (
                f"inject_message: gateway injection denied for plugin {self.plugin_id}; set"
                f" plugins.entries.{self.plugin_id}.allow_gateway_injection: true to allow it"
            )
        else:
            message = "inject_message: no live gateway is available"
        self._state.record("WARNING", self._plugin, "context", "inject_message", message)
        return False
