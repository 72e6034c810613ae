"""Test plugins against hermes-agent's plugin host, in memory, as each supported release has it.

:class:`InMemoryHost` loads a plugin like hermes' plugin manager, hands ``register`` a
:class:`HostContext` with the host's methods and refusals, and then answers like hermes:
tool definitions as the model receives them, the full tool-call pipeline, hooks,
middleware, commands and a recorded ``send_message``. It needs nothing but the standard
library, and a parity test keeps it identical to the real host.

:class:`RealHost` offers the same test API answered by a real hermes-agent: the plugin
loaded by hermes' own plugin manager in a worker process with a temporary hermes home.

:func:`check_provider` (and :func:`check_memory_provider`) drive a provider plugin
through the lifecycle hermes uses and report each rule of its contract it breaks.

The pytest plugin (``kit_devtools.testing.pytest_plugin``, loaded automatically)
adds the ``plugin_host``, ``real_host``, ``any_host``, ``memory_provider_contract`` and
``tool_snapshot`` fixtures and the ``--hermes`` option choosing the real releases.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:  # what each name is, for type checkers; imported on first use below
    from kit_devtools.testing._contract_memory import (
        check_memory_provider as check_memory_provider,
    )
    from kit_devtools.testing._contract_memory import (
        check_memory_providers as check_memory_providers,
    )
    from kit_devtools.testing._failure import (
        PluginLoadError as PluginLoadError,
    )
    from kit_devtools.testing._failure import (
        PluginRefused as PluginRefused,
    )
    from kit_devtools.testing._memory_provider import (
        MemoryProviderLoad as MemoryProviderLoad,
    )
    from kit_devtools.testing._model_provider import (
        ModelProviderLoad as ModelProviderLoad,
    )
    from kit_devtools.testing.context import (
        HostContext as HostContext,
    )
    from kit_devtools.testing.contracts import (
        ContractFailure as ContractFailure,
    )
    from kit_devtools.testing.contracts import (
        ContractReport as ContractReport,
    )
    from kit_devtools.testing.contracts import (
        Violation as Violation,
    )
    from kit_devtools.testing.contracts import (
        check_provider as check_provider,
    )
    from kit_devtools.testing.entries import (
        CliCommandEntry as CliCommandEntry,
    )
    from kit_devtools.testing.entries import (
        CommandEntry as CommandEntry,
    )
    from kit_devtools.testing.entries import (
        HookEntry as HookEntry,
    )
    from kit_devtools.testing.entries import (
        HostEvent as HostEvent,
    )
    from kit_devtools.testing.entries import (
        LoadedPlugin as LoadedPlugin,
    )
    from kit_devtools.testing.entries import (
        MiddlewareEntry as MiddlewareEntry,
    )
    from kit_devtools.testing.entries import (
        PluginManifest as PluginManifest,
    )
    from kit_devtools.testing.entries import (
        PluginToolOverrideError as PluginToolOverrideError,
    )
    from kit_devtools.testing.entries import (
        RequestMiddlewareResult as RequestMiddlewareResult,
    )
    from kit_devtools.testing.entries import (
        SkillEntry as SkillEntry,
    )
    from kit_devtools.testing.entries import (
        ToolEntry as ToolEntry,
    )
    from kit_devtools.testing.host import (
        InMemoryHost as InMemoryHost,
    )
    from kit_devtools.testing.host_names import (
        AGENT_LOOP_TOOLS as AGENT_LOOP_TOOLS,
    )
    from kit_devtools.testing.host_names import (
        BUILTIN_COMMANDS as BUILTIN_COMMANDS,
    )
    from kit_devtools.testing.host_names import (
        BUILTIN_TOOLS as BUILTIN_TOOLS,
    )
    from kit_devtools.testing.host_names import (
        HOST_VERSION as HOST_VERSION,
    )
    from kit_devtools.testing.host_names import (
        TOOL_SEARCH_TOOLS as TOOL_SEARCH_TOOLS,
    )
    from kit_devtools.testing.host_names import (
        VALID_HOOKS as VALID_HOOKS,
    )
    from kit_devtools.testing.host_names import (
        VALID_MIDDLEWARE as VALID_MIDDLEWARE,
    )
    from kit_devtools.testing.loading import (
        load_plugin as load_plugin,
    )
    from kit_devtools.testing.real import (
        RealHost as RealHost,
    )
    from kit_devtools.testing.real import (
        RealHostCallError as RealHostCallError,
    )
    from kit_devtools.testing.real import (
        RealHostDied as RealHostDied,
    )
    from kit_devtools.testing.real import (
        RealPlugin as RealPlugin,
    )
    from kit_devtools.testing.snapshot import (
        assert_tool_snapshot as assert_tool_snapshot,
    )

_HOMES: Final = {
    "AGENT_LOOP_TOOLS": "host_names",
    "BUILTIN_COMMANDS": "host_names",
    "BUILTIN_TOOLS": "host_names",
    "HOST_VERSION": "host_names",
    "TOOL_SEARCH_TOOLS": "host_names",
    "VALID_HOOKS": "host_names",
    "VALID_MIDDLEWARE": "host_names",
    "CliCommandEntry": "entries",
    "CommandEntry": "entries",
    "ContractFailure": "contracts",
    "ContractReport": "contracts",
    "HookEntry": "entries",
    "HostContext": "context",
    "HostEvent": "entries",
    "InMemoryHost": "host",
    "LoadedPlugin": "entries",
    "MemoryProviderLoad": "_memory_provider",
    "MiddlewareEntry": "entries",
    "ModelProviderLoad": "_model_provider",
    "PluginLoadError": "_failure",
    "PluginManifest": "entries",
    "PluginRefused": "_failure",
    "PluginToolOverrideError": "entries",
    "RealHost": "real",
    "RealHostCallError": "real",
    "RealHostDied": "real",
    "RealPlugin": "real",
    "RequestMiddlewareResult": "entries",
    "SkillEntry": "entries",
    "ToolEntry": "entries",
    "Violation": "contracts",
    "assert_tool_snapshot": "snapshot",
    "check_memory_provider": "_contract_memory",
    "check_memory_providers": "_contract_memory",
    "check_provider": "contracts",
    "load_plugin": "loading",
}
"""Where each public name lives. Importing this package imports none of them: a name is
imported on first use, so a command or a module that needs one part (the release
environments, the host names) does not load the in-memory host."""

__all__ = list(_HOMES)  # pyright: ignore[reportUnsupportedDunderAll]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})
