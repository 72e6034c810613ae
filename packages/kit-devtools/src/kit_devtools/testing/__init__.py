"""Test plugins against hermes-agent 0.19.0's plugin host, in memory.

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

from kit_devtools.testing._contract_memory import check_memory_provider, check_memory_providers
from kit_devtools.testing._failure import PluginLoadError, PluginRefused
from kit_devtools.testing._memory_provider import MemoryProviderLoad
from kit_devtools.testing._model_provider import ModelProviderLoad
from kit_devtools.testing.context import HostContext
from kit_devtools.testing.contracts import (
    ContractFailure,
    ContractReport,
    Violation,
    check_provider,
)
from kit_devtools.testing.entries import (
    CliCommandEntry,
    CommandEntry,
    HookEntry,
    HostEvent,
    LoadedPlugin,
    MiddlewareEntry,
    PluginManifest,
    PluginToolOverrideError,
    RequestMiddlewareResult,
    SkillEntry,
    ToolEntry,
)
from kit_devtools.testing.host import InMemoryHost
from kit_devtools.testing.host_names import (
    AGENT_LOOP_TOOLS,
    BUILTIN_COMMANDS,
    BUILTIN_TOOLS,
    HOST_VERSION,
    TOOL_SEARCH_TOOLS,
    VALID_HOOKS,
    VALID_MIDDLEWARE,
)
from kit_devtools.testing.loading import load_plugin
from kit_devtools.testing.real import RealHost, RealHostCallError, RealHostDied, RealPlugin
from kit_devtools.testing.snapshot import assert_tool_snapshot

__all__ = [
    "AGENT_LOOP_TOOLS",
    "BUILTIN_COMMANDS",
    "BUILTIN_TOOLS",
    "HOST_VERSION",
    "TOOL_SEARCH_TOOLS",
    "VALID_HOOKS",
    "VALID_MIDDLEWARE",
    "CliCommandEntry",
    "CommandEntry",
    "ContractFailure",
    "ContractReport",
    "HookEntry",
    "HostContext",
    "HostEvent",
    "InMemoryHost",
    "LoadedPlugin",
    "MemoryProviderLoad",
    "MiddlewareEntry",
    "ModelProviderLoad",
    "PluginLoadError",
    "PluginManifest",
    "PluginRefused",
    "PluginToolOverrideError",
    "RealHost",
    "RealHostCallError",
    "RealHostDied",
    "RealPlugin",
    "RequestMiddlewareResult",
    "SkillEntry",
    "ToolEntry",
    "Violation",
    "assert_tool_snapshot",
    "check_memory_provider",
    "check_memory_providers",
    "check_provider",
    "load_plugin",
]
