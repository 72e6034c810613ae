"""How :class:`~kit_devtools.testing.host.InMemoryHost` loads one plugin it has found, as
hermes' loader does: the import and ``register(ctx)`` under the host, with the context of
the release played; a plugin's ``sys.exit()`` taken as the error hermes itself would die
of (:class:`PluginExited`); what the plugin is credited with; and the record kept, a strict
host raising :class:`~kit_devtools.testing.PluginLoadError` for a plugin that did not load.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from types import ModuleType
from typing import Any

from kit_core.hermes import PLUGIN_PACKAGE, HostRelease
from kit_devtools.testing import _requires_hermes
from kit_devtools.testing._failure import PluginLoadError, load_failure
from kit_devtools.testing._loader import Target
from kit_devtools.testing._manifest import plugin_slug
from kit_devtools.testing._state import HostState
from kit_devtools.testing._upstream_context import UpstreamContext
from kit_devtools.testing.context import HostContext
from kit_devtools.testing.entries import LoadedPlugin


def load(
    state: HostState,
    found: Target,
    plugins: dict[str, LoadedPlugin],
    *,
    strict: bool,
    activate: Callable[[], AbstractContextManager[Any]],
    context: Callable[[Any, Mapping[str, Any]], HostContext],
) -> LoadedPlugin:
    """``InMemoryHost.load`` of the target ``found``: refused before import where hermes
    refuses it, else imported and registered under the host (``activate``) with the
    release's context (``context``); kept in ``plugins`` either way."""
    manifest = found.manifest
    plugin_key = manifest.key or manifest.name
    for warning in found.warnings:
        state.record("WARNING", manifest.name, "plugin", plugin_key, warning)
    refused = found.refused or _requires_hermes.gate(found.data, state.release)
    if refused is not None:
        return _keep(plugins, strict, found, None, error=refused.error, exception=refused)
    if manifest.kind == "model-provider":  # recorded as enabled, imported by providers/
        return _keep(plugins, strict, found, None, enabled=True)
    namespace = f"{PLUGIN_PACKAGE}.{plugin_slug(plugin_key)}"
    state.override_policy[namespace] = state.override_allowed(plugin_key)
    before = state.snapshot()
    module: ModuleType | None = None
    ctx: HostContext | None = None
    with activate():
        try:
            loaded = found.importer()
            register: Any = None
            if _called_entry_point(loaded, state.release):
                # an entry point naming module:callable: the loader calls what
                # ep.load() returned, before looking for a register on it
                register = loaded
                loaded = sys.modules.get(getattr(loaded, "__module__", ""), None)
            if register is None:
                register = getattr(loaded, "register", None)
            module = loaded
            if register is None:
                message = f"Plugin '{manifest.name}' has no register() function"
                state.record("WARNING", manifest.name, "plugin", plugin_key, message)
                return _keep(plugins, strict, found, module, error="no register() function")
            ctx = context(manifest, found.data)
            try:
                register(ctx)
            finally:
                ctx._adopt_manager_tables()  # pyright: ignore[reportPrivateUsage]
        except (Exception, SystemExit) as exc:
            if isinstance(exc, SystemExit):  # hermes catches Exception only: it exits
                exc = _exit_error(exc)
            message = f"Failed to load plugin '{manifest.name}': {exc}"
            state.record("WARNING", manifest.name, "plugin", plugin_key, message, exc)
            if isinstance(ctx, UpstreamContext):
                # upstream's ledger unwinds what register() registered
                ctx._rollback()  # pyright: ignore[reportPrivateUsage]
            credits = _credits(state, plugins, before, manifest.name, ctx)
            return _keep(
                plugins, strict, found, module, error=str(exc), exception=exc, credits=credits
            )
    credits = _credits(state, plugins, before, manifest.name, ctx)
    return _keep(plugins, strict, found, module, enabled=True, credits=credits)


def _credits(
    state: HostState,
    plugins: Mapping[str, LoadedPlugin],
    before: Any,
    plugin: str,
    ctx: HostContext | None,
) -> dict[str, tuple[str, ...]]:
    """What the plugin is credited with: on a release with the registration ledger its
    ledger slice, else what the tables gained (0.19.0's ``_load_plugin``)."""
    earlier = frozenset(h for loaded in plugins.values() for h in loaded.hooks)
    credits = state.credits(before, plugin, earlier)
    if isinstance(ctx, UpstreamContext):
        credits.update(ctx._ledger_credits())  # pyright: ignore[reportPrivateUsage]
    return credits


_CREDITED = ("tools", "hooks", "middleware", "commands", "cli_commands", "skills")


def _keep(
    plugins: dict[str, LoadedPlugin],
    strict: bool,
    found: Target,
    module: ModuleType | None,
    *,
    enabled: bool = False,
    error: str | None = None,
    exception: BaseException | None = None,
    credits: Mapping[str, tuple[str, ...]] | None = None,
) -> LoadedPlugin:
    manifest = found.manifest
    got = {k: (credits or {}).get(k, ()) for k in _CREDITED}
    loaded = LoadedPlugin(
        key=manifest.key or manifest.name,
        name=manifest.name,
        source=found.source,
        path=found.path,
        module=module,
        manifest=copy.deepcopy(found.data),
        enabled=enabled,
        error=error,
        exception=exception,
        kind=manifest.kind,
        **got,
    )
    plugins[loaded.key] = loaded
    if strict and not enabled:
        raise PluginLoadError(load_failure(loaded))
    return loaded


def _called_entry_point(loaded: object, release: HostRelease) -> bool:
    """Whether ``release`` calls what an entry point loaded as the plugin's register: a
    callable that is not a module, on a release where that works (``entry_point_callable``)."""
    return release.entry_point_callable and callable(loaded) and not isinstance(loaded, ModuleType)


class PluginExited(RuntimeError):
    """A plugin called ``sys.exit()`` (raised ``SystemExit``) while hermes loaded it."""


def _exit_error(exc: SystemExit) -> PluginExited:
    """What a plugin's ``SystemExit`` is to the kit: hermes catches ``Exception`` around a
    plugin's import and ``register()``, not ``SystemExit``, so hermes itself would exit
    with the plugin's code at startup, taking the agent down with it."""
    error = PluginExited(
        f"the plugin called sys.exit({exc.code!r}) while loading; hermes catches only"
        " Exception around a plugin's import and register(), so hermes itself would exit"
        " at startup: raise an exception instead (hermes logs it and goes on without the"
        " plugin)"
    )
    error.__cause__ = exc
    return error.with_traceback(exc.__traceback__)  # where it exited: import or register()
