"""The names the in-memory host's hermes release has built in, from the host model.

The release is the newest of the registry the model holds (``kit_core._host_model``,
read from the booted release itself); the host matrix checks the model against every
real release, so a new hermes release that changes them fails CI instead of drifting.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import metadata
from typing import Final

from kit_core._host_model import (
    HostRelease,
    newest_registry_release,
    registry_releases,
    upstream_release,
)

__all__ = [
    "AGENT_LOOP_TOOLS",
    "BUILTIN_COMMANDS",
    "BUILTIN_TOOLS",
    "HOST_VERSION",
    "MIDDLEWARE_SCHEMA_VERSION",
    "OBSERVER_SCHEMA_VERSION",
    "PROFILES",
    "TOOL_SEARCH_TOOLS",
    "VALID_HOOKS",
    "VALID_MIDDLEWARE",
]

MODELLED: Final = newest_registry_release()
"""The hermes-agent release this host reproduces (the newest of the host model)."""

HOST_VERSION: Final = MODELLED.version
"""Its version."""

PROFILES: Final = ("0.19.0", "0.21")
"""The hermes releases the in-memory host can play: the newest of the registry (by
default), and upstream 0.21.3, modelled from its source."""


def profile(hermes: str | None) -> HostRelease:
    """The release an in-memory host plays: ``None`` or the newest registry version for
    that release; ``"0.21"`` (or ``"0.21.3"``, ``"upstream"``) for upstream."""
    if hermes is None or hermes == MODELLED.version:
        return MODELLED
    if hermes in {"0.21", "0.21.3", "upstream"}:
        return upstream_release()
    msg = (
        f"the in-memory host plays hermes-agent {MODELLED.version} or upstream 0.21"
        f" (modelled from source), not {hermes!r}; for another release use the real host"
        " (`hermes-plugin-kit check --real` with that release installed)"
    )
    raise ValueError(msg)


OBSERVER_SCHEMA_VERSION: Final = MODELLED.observer_schema_version
"""Added to every hook call as ``telemetry_schema_version`` (``hermes_cli/middleware.py``)."""

MIDDLEWARE_SCHEMA_VERSION: Final = MODELLED.middleware_schema_version
"""Added to every middleware call as ``middleware_schema_version``."""

VALID_HOOKS: Final = MODELLED.hooks
"""``hermes_cli.plugins.VALID_HOOKS``: other names are stored with a warning."""

VALID_MIDDLEWARE: Final = MODELLED.middleware
"""``hermes_cli.middleware.VALID_MIDDLEWARE``: other kinds are stored with a warning."""

AGENT_LOOP_TOOLS: Final = MODELLED.agent_loop_tools
"""``model_tools._AGENT_LOOP_TOOLS``: ``handle_function_call`` refuses these names."""

TOOL_SEARCH_TOOLS: Final = MODELLED.bridge_tools
"""The Tool Search bridge names ``handle_function_call`` answers before the registry."""

BUILTIN_TOOLS: Final[Mapping[str, str]] = MODELLED.tools
"""Every tool of a booted registry -> its toolset (built-in modules and the bundled
plugins that always load). A plugin tool of the same name in another toolset is refused."""

BUILTIN_COMMANDS: Final = MODELLED.slash_commands
"""Built-in slash commands and aliases (``hermes_cli.commands._COMMAND_LOOKUP``): a plugin
command of one of these names is skipped with a warning."""

HERMES_TOP_LEVEL: Final = frozenset(name for r in registry_releases() for name in r.top_level)
"""hermes' own top-level modules and packages of every registry release (their
``top_level.txt``), for when hermes-agent is not installed: a plugin package of one of these
names is shadowed by hermes' own, which hermes imports instead."""


@cache
def hermes_top_level() -> frozenset[str]:
    """hermes' top-level modules: the installed hermes-agent's ``top_level.txt`` (or its
    ``RECORD``), together with :data:`HERMES_TOP_LEVEL`."""
    try:
        dist = metadata.distribution("hermes-agent")
    except metadata.PackageNotFoundError:
        return HERMES_TOP_LEVEL
    listed = set((dist.read_text("top_level.txt") or "").split())
    for file in dist.files or ():
        top = file.parts[0] if file.parts else ""
        if top.endswith(".py"):
            listed.add(top.removesuffix(".py"))
        elif len(file.parts) > 1 and not top.endswith((".dist-info", ".data")) and top != "..":
            listed.add(top)
    return HERMES_TOP_LEVEL | {n for n in listed if n.isidentifier()}
