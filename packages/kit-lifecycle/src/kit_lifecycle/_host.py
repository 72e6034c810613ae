"""What kit-lifecycle asks of the host: the host model for names, the running host for
what it actually offers.

Decorators check names against every release the model knows
(:mod:`kit_core._host_model`), so a plugin imports the same way alone and inside any
host. ``register_plugin`` asks the host it is given: the ``ctx`` for its members, and the
hermes modules already loaded in the process (looking a module up in ``sys.modules`` is
free, importing it is not) for its hooks and version.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any, cast

from kit_core._host_model import HostRelease, known_releases, modelled_hooks, release_label

__all__ = [
    "builtin_on",
    "host_awaits_hooks",
    "host_fail_closed_hooks",
    "host_keeps_ledger",
    "host_tool_registry",
    "is_host_context",
    "modelled_hooks",
    "running_host_hooks",
    "running_host_release",
    "span",
]


def _loaded(module: str, attribute: str) -> Any:
    found = sys.modules.get(module)
    return getattr(found, attribute, None) if found is not None else None


def host_tool_registry() -> Any:
    """hermes' process-wide tool registry (``tools.registry.registry``) when loaded, else None."""
    return _loaded("tools.registry", "registry")


def host_keeps_ledger(ctx: object) -> bool:
    """Whether the host that gave ``ctx`` keeps a registration ledger (upstream hermes:
    its manager has ``_ownership_ledger``; every ``register_*`` returns a handle, a refused
    ``register_tool`` returns None and plugin tools live in a per-home overlay; the host
    model's ``HostRelease.registration_ledger``). Asked of the context, never of a version."""
    return hasattr(getattr(ctx, "_manager", None), "_ownership_ledger")


def is_host_context(ctx: object) -> bool:
    """Whether ``ctx`` is a ``PluginContext`` of the hermes loaded in this process (so a
    member it lacks is the release's, not a stand-in's)."""
    context = _loaded("hermes_cli.plugins", "PluginContext")
    return isinstance(context, type) and isinstance(ctx, context)


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
    return release_label(version if isinstance(version, str) else None)


def host_awaits_hooks() -> bool:
    """Whether the hermes loaded in this process awaits an ``async def`` hook callback.

    Asked of the host's behaviour, not of a module's presence: upstream hermes awaits a
    coroutine a callback returns (``PluginDispatchMixin._invoke_hook_callback`` resolves it
    through ``resolve_plugin_command_result``, ``hermes_cli/plugins_dispatch.py`` L198-207
    @006a5aeb) and offers the awaiting entry point ``PluginDispatchMixin.ainvoke_hook``
    (``hermes_cli/plugins_dispatch.py`` L493-529 @006a5aeb; a module-level ``ainvoke_hook``
    is in later ``hermes_cli/lifecycle.py`` versions: ``hermes_cli/plugins.py`` @00067189
    has only the sync ``invoke_hook``, L1683-1694). hermes-agent 0.19.0 has neither and
    drops the coroutine. Looking the module up in ``sys.modules`` imports nothing.
    """
    plugins = sys.modules.get("hermes_cli.plugins")
    if plugins is None:
        return False
    if callable(getattr(plugins, "ainvoke_hook", None)):
        return True
    manager = getattr(plugins, "PluginManager", None)
    return isinstance(manager, type) and callable(getattr(manager, "ainvoke_hook", None))


def host_fail_closed_hooks() -> frozenset[str]:
    """The hooks whose failing callback the loaded hermes turns into a block: its own table
    ``_HOOK_TIMEOUT_FAIL_CLOSED_HOOKS`` (upstream: ``pre_tool_call`` and
    ``pre_tts_synthesis``, ``hermes_cli/plugins_dispatch.py`` L48-49 @006a5aeb; a callback
    that raises or outlives ``plugins.hook_callback_timeout`` becomes a block directive,
    L231-242: the tool call, or the speech synthesis),
    read from ``hermes_cli.plugins_dispatch`` or ``hermes_cli.plugins`` when loaded; empty
    when neither has it (hermes-agent 0.19.0 logs the exception and calls the next one)."""
    for module in ("hermes_cli.plugins_dispatch", "hermes_cli.plugins"):
        table = _loaded(module, "_HOOK_TIMEOUT_FAIL_CLOSED_HOOKS")
        if isinstance(table, Iterable) and not isinstance(table, str):
            return frozenset(str(h) for h in cast("Iterable[object]", table))
    return frozenset()


def builtin_on(has: Callable[[HostRelease], bool]) -> list[HostRelease]:
    """The known releases for which ``has`` holds, oldest first."""
    return [release for release in known_releases() if has(release)]


def span(releases: list[HostRelease]) -> str:
    """How a message names a run of releases: ``hermes-agent 0.17.0 to 0.18.2``, or
    ``every hermes-agent release`` when it is all of them."""
    if len(releases) == len(known_releases()):
        return "every hermes-agent release"
    first, last = releases[0], releases[-1]
    if first is last:
        return first.label
    return f"{first.label} to {last.version}" + (" (modelled)" if last.modelled else "")
