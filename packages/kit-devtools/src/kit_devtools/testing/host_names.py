"""The names the in-memory host's hermes release has built in, from the host model.

The release is the one installed beside the kit, else the newest the model holds
(``kit_core.hermes``, read from each booted release itself); the host matrix checks
the model against every real release, so a new hermes release that changes them fails CI
instead of drifting.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import metadata
from typing import Final

from kit_core.hermes import (
    HostRelease,
    installed_distribution,
    installed_release,
    newest_registry_release,
    registry_release,
    registry_releases,
)

__all__ = [
    "AGENT_LOOP_TOOLS",
    "BUILTIN_COMMANDS",
    "BUILTIN_TOOLS",
    "BUILTIN_TOOLSETS",
    "HOST_VERSION",
    "MIDDLEWARE_SCHEMA_VERSION",
    "OBSERVER_SCHEMA_VERSION",
    "TOOL_SEARCH_TOOLS",
    "VALID_HOOKS",
    "VALID_MIDDLEWARE",
]

MODELLED: Final = installed_release() or newest_registry_release()
"""The release the in-memory host plays by default: the hermes installed beside it
(whichever distribution provides it), else the newest release of the host model."""

HOST_VERSION: Final = MODELLED.version
"""Its version."""


def profile(hermes: str | None) -> HostRelease:
    """The release an in-memory host plays: ``None`` for :data:`MODELLED`; any release the
    host model holds (``"0.21.3"``, a packaging's ``"0.21.3.post1"``), a series (``"0.21"``:
    its newest release) or ``"newest"``."""
    if hermes is None:
        return MODELLED
    from kit_devtools.testing._host_choice import series_release

    found = registry_release(series_release(hermes))
    if found is None:
        known = ", ".join(r.version for r in registry_releases())
        msg = (
            f"the in-memory host plays a release the kit's host model holds ({known}), not"
            f" {hermes!r}"
        )
        raise ValueError(msg)
    return found


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

BUILTIN_TOOLSETS: Final = frozenset(
    name for name in MODELLED.toolsets if not name.startswith("hermes-")
)
"""Static toolsets (``toolsets.TOOLSETS`` less the platform bundles, which are named
``hermes-<platform>``): a plugin toolset of one of these names joins hermes' own."""

BUILTIN_COMMANDS: Final = MODELLED.slash_commands
"""Built-in slash commands and aliases (``hermes_cli.commands._COMMAND_LOOKUP``): a plugin
command of one of these names is skipped with a warning."""

HERMES_TOP_LEVEL: Final = frozenset(name for r in registry_releases() for name in r.top_level)
"""hermes' own top-level modules and packages of every registry release (their
``top_level.txt``), for when hermes-agent is not installed: a plugin package of one of these
names is shadowed by hermes' own, which hermes imports instead."""


@cache
def hermes_top_level() -> frozenset[str]:
    """hermes' top-level modules: the installed hermes' ``top_level.txt`` (or its
    ``RECORD``), whichever distribution provides it, together with
    :data:`HERMES_TOP_LEVEL`."""
    installed = installed_distribution()
    if installed is None:
        return HERMES_TOP_LEVEL
    dist = metadata.distribution(installed[0])
    listed = set((dist.read_text("top_level.txt") or "").split())
    for file in dist.files or ():
        top = file.parts[0] if file.parts else ""
        if top.endswith(".py"):
            listed.add(top.removesuffix(".py"))
        elif len(file.parts) > 1 and not top.endswith((".dist-info", ".data")) and top != "..":
            listed.add(top)
    return HERMES_TOP_LEVEL | {n for n in listed if n.isidentifier()}
