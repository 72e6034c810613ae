"""A memory-provider plugin loaded the way hermes' memory discovery loads one, and checked
the way hermes' memory manager uses it.

hermes' general plugin loader never imports a memory provider: a plugin directory whose
manifest has no ``kind`` and whose ``__init__.py`` mentions ``MemoryProvider`` or
``register_memory_provider`` is re-kinded ``exclusive`` and only recorded
(``hermes_cli.plugins.PluginManager._parse_manifest`` and
``hermes_cli.plugins.PluginManager._discover_and_load_inner``, hermes-agent 0.19.0). The
operator activates one with ``memory.provider: <name>``; then
``plugins.memory.load_memory_provider`` (``plugins.memory.find_provider_dir``,
``plugins.memory._load_provider_from_dir``, ``plugins.memory._ProviderCollector``):

- imports the directory as ``_hermes_user_memory.<folder>``; an import error is logged at
  debug level and gives no provider;
- calls ``register(collector)``: the collector keeps what ``register_memory_provider``
  receives and ignores ``register_tool``, ``register_hook`` and ``register_cli_command``;
  anything else it lacks raises AttributeError, which is logged and skipped;
- else instantiates the module's first ``MemoryProvider`` subclass (by name order).

The memory manager (``agent.memory_manager.MemoryManager.add_provider``) then reads the
provider's ``name`` and ``get_tool_schemas()``, drops a tool named like a core tool, and
the agent calls ``is_available()`` and ``initialize()``. What would fail there is a
problem here.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, cast

from kit_core.hermes import first_version, version_key
from kit_devtools.testing._discovered_provider import Category, provider_from
from kit_devtools.testing._memory_members import REQUIRED
from kit_devtools.testing._provider_drive import normalized

USER_NAMESPACE: Final = "_hermes_user_memory"
"""The namespace hermes imports a user-installed provider under (``plugins/memory``)."""


@dataclass(frozen=True, slots=True)
class MemoryProviderLoad:
    """What hermes' memory discovery makes of a plugin directory."""

    provider: object | None
    """The provider instance, or None when hermes would get none."""
    how: str
    """``register(ctx)`` or ``MemoryProvider subclass``; why none when there is none."""
    tools: tuple[dict[str, Any], ...] = ()
    """The tool schemas the provider gives the model when it is the active one."""
    problems: tuple[str, ...] = field(default=())
    """What hermes' memory manager would trip over."""
    exception: BaseException | None = field(default=None, compare=False, repr=False)
    """What importing the plugin raised, when it did."""

    @property
    def name(self) -> str | None:
        """The provider's name, when it has a usable one."""
        value = getattr(self.provider, "name", None) if self.provider is not None else None
        return value if isinstance(value, str) and value else None


def core_tools() -> frozenset[str]:
    """``toolsets._HERMES_CORE_TOOLS`` of the installed hermes (none where it is absent)."""
    try:
        names: Any = importlib.import_module("toolsets")._HERMES_CORE_TOOLS
    except (ImportError, AttributeError):
        return frozenset()
    return frozenset(str(n) for n in names)


MEMORY: Final = Category(
    namespace=USER_NAMESPACE,
    registrar="register_memory_provider",
    ignored=("register_tool", "register_hook", "register_cli_command"),
    base=("agent.memory_provider", "MemoryProvider"),
)
"""hermes' memory discovery, as :mod:`._discovered_provider` takes a provider from it."""


CORE_TOOLS_DROPPED_SINCE: Final = first_version(lambda r: r.memory_rejects_core_tools)
"""From this release the memory manager drops a provider tool named like a core tool
(``HostRelease.memory_rejects_core_tools``); before, it offers it."""


def load(directory: Path, release: str = CORE_TOOLS_DROPPED_SINCE) -> MemoryProviderLoad:
    """Load the memory provider in ``directory`` as hermes ``release`` does (the caller
    activates the in-memory host, so the plugin's host imports resolve), and check it."""
    dropped = version_key(release) >= version_key(CORE_TOOLS_DROPPED_SINCE)
    core_named = core_tools() if dropped else frozenset[str]()
    found = provider_from(directory, MEMORY)
    if found.provider is None:
        return MemoryProviderLoad(None, found.how, exception=found.exception)
    return _checked(found.provider, found.how, core_named)


def _checked(provider: object, how: str, core_tools: frozenset[str]) -> MemoryProviderLoad:
    problems = [f"has no {m}" for m in REQUIRED if not hasattr(type(provider), m)]
    tools: list[dict[str, Any]] = []
    if problems:
        return MemoryProviderLoad(provider, how, (), tuple(problems))
    name = _attempt(lambda: provider.name, "name", problems)  # pyright: ignore[reportAttributeAccessIssue, reportUnknownLambdaType, reportUnknownMemberType]
    if name is not None and (not isinstance(name, str) or not name):
        problems.append(f"name is {name!r}, not a non-empty string")
    _attempt(provider.is_available, "is_available()", problems)  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
    schemas = _attempt(provider.get_tool_schemas, "get_tool_schemas()", problems)  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType]
    if schemas is not None and not isinstance(schemas, list | tuple):
        problems.append(f"get_tool_schemas() returned a {type(schemas).__name__}, not a list")
    elif schemas is not None:
        for raw in cast("list[Any]", schemas):
            typed = normalized(raw)
            if typed is None:
                problems.append(
                    f"get_tool_schemas() holds {raw!r}, which has no name: hermes' memory"
                    " manager skips it"
                )
                continue
            if typed["name"] in core_tools:
                problems.append(
                    f"offers the tool {typed['name']!r}, a core tool's name: hermes' memory"
                    " manager drops it"
                )
                continue
            tools.append(typed)
    return MemoryProviderLoad(provider, how, tuple(tools), tuple(problems))


def _attempt(call: Any, what: str, problems: list[str]) -> Any:
    try:
        return call()
    except Exception as exc:
        problems.append(f"{what} raised {type(exc).__name__}: {exc}")
        return None
