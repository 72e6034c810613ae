"""What hermes checks of a provider before its registry keeps it, for
:class:`~kit_devtools.testing._providers.Provisions`: the base class it must inherit
(hermes' own class, where hermes is installed), the dashboard-auth registry's protocol and
duplicate checks, and the secret-source registry's checks (hermes-agent 0.19.0, and the
releases the host model names where they differ).
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, Final, cast

from kit_devtools.testing._standin_state import SHIM_MARK
from kit_devtools.testing._state import HostState

_DASHBOARD_METHODS: Final = (
    "start_login",
    "complete_login",
    "verify_session",
    "refresh_session",
    "revoke_session",
)
"""``assert_protocol_compliance``'s required methods (``hermes_cli/dashboard_auth/base.py``)."""

_SECRET_SHAPES: Final = ("mapped", "bulk")


def base_class(module: str, name: str) -> type | None:
    """hermes' class, or None where hermes is not installed. Where it is but lacks the
    module, the ImportError hermes' own registrar would raise is raised (0.19.0 has every
    one of them, ``hermes_cli.dashboard_auth`` included)."""
    try:
        found = getattr(importlib.import_module(module), name, None)
    except ImportError:
        if _hermes_installed() and not _under_stand_in(module):
            raise
        return None
    return found if isinstance(found, type) else None


def _protocol_problem(cls: type) -> str | None:
    """What ``hermes_cli.dashboard_auth.base.assert_protocol_compliance`` raises its
    TypeError with for ``cls``; None for a compliant class."""
    for attr in ("name", "display_name"):
        if not getattr(cls, attr, ""):
            return f"{cls.__name__} missing or empty attribute: {attr!r}"
    for method in _DASHBOARD_METHODS:
        if not callable(getattr(cls, method, None)):
            return f"{cls.__name__} missing method: {method}"
    abstract: Any = getattr(cls, "__abstractmethods__", None)
    if abstract:
        return f"{cls.__name__} has unimplemented abstract methods: {sorted(abstract)}"
    return None


def _under_stand_in(module: str) -> bool:
    """Whether a parent package of ``module`` is one of the in-memory host's stand-ins
    (which hide the real one for now): hermes' class cannot be reached to check."""
    parts = module.split(".")
    for end in range(1, len(parts)):
        parent = sys.modules.get(".".join(parts[:end]))
        if parent is not None and vars(parent).get(SHIM_MARK):
            return True
    return False


def _hermes_installed() -> bool:
    from kit_core.hermes import installed_distribution

    return installed_distribution() is not None


def dashboard_auth_verdict(state: HostState, plugin: str, provider: Any) -> tuple[str, str | None]:
    """``register_provider``'s protocol check and duplicate check, a failure logged
    and swallowed as ``PluginContext.register_dashboard_auth_provider`` does. Where the
    release keeps plugins' providers in one process-wide slot
    (``HostRelease.global_dashboard_auth``:
    ``hermes_cli.dashboard_auth.registry.register_global_provider``, called by
    ``hermes_cli.plugins.PluginContext.register_dashboard_auth_provider``), a same-named
    provider replaces the one held instead of being refused. (0.22.2 also ignores one
    registered from a profile other than the launch profile: the in-memory host has only the
    launch profile.)"""
    registered = state.provisions.get("dashboard_auth", {})
    problem = _protocol_problem(cast("type[Any]", type(provider)))
    replaces = state.release.global_dashboard_auth  # the process-wide slot's upsert
    if problem is None and provider.name in registered and not replaces:
        problem = f"dashboard-auth provider already registered: {provider.name!r}"
    if problem is None:
        return provider.name, None
    name = getattr(provider, "name", "?")
    return str(name), (
        f"Plugin '{plugin}' failed to register dashboard-auth provider {name!r}: {problem}"
    )


def secret_source_verdict(state: HostState, source: Any) -> tuple[str, str | None]:
    """``agent.secret_sources.registry.register_source`` (``replace=False``)."""
    sources = state.provisions.get("secret_source", {})
    name: Any = getattr(source, "name", "") or ""
    if not name or not name.replace("_", "").isalnum() or name != name.lower():
        return str(name), f"Ignoring secret source with invalid name {name!r}"
    speaks = state.release.secret_source_api_version
    if getattr(source, "api_version", None) != speaks:
        return name, (
            f"Ignoring secret source '{name}': built against secret-source API"
            f" v{getattr(source, 'api_version', '?')}, this Hermes speaks v{speaks}"
        )
    shape = getattr(source, "shape", None)
    if shape not in _SECRET_SHAPES:
        return name, (
            f"Ignoring secret source '{name}': shape must be 'mapped' or 'bulk', got {shape!r}"
        )
    if name in sources:
        return name, f"Secret source '{name}' already registered; ignoring duplicate"
    scheme = getattr(source, "scheme", None)
    owner = next(
        (
            other
            for other, (_, held) in sources.items()
            if scheme and getattr(held, "scheme", None) == scheme
        ),
        None,
    )
    if owner is not None:
        return name, (
            f"Ignoring secret source '{name}': scheme '{scheme}://' is already owned by"
            f" source '{owner}'"
        )
    return name, None
