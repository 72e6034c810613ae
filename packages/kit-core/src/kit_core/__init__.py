"""kit-core: the tool contract for hermes-agent plugins.

Declare a tool with :func:`tool` and argument specs, register a module's tools
with :func:`register_all`. A decorated tool always answers the host with a JSON
string, checks its arguments before the handler runs, and logs safely. Every object
a kit decorator declares carries one :class:`Declaration` record (a :class:`ToolSpec`,
a :class:`HookSpec`, kit-lifecycle's command and middleware specs), read with
:func:`declaration_of`. A handler reports a failure without raising by returning a
:class:`ToolFailure` (or a result whose ``tool_failure()`` gives one), and images or
files with :class:`Rich`. A memory provider or
context engine answers its own tools' calls: :class:`ProviderTools` gives its
``get_tool_schemas`` and ``handle_tool_call`` from its ``@tool`` functions and methods.
"""

from kit_core import _build

_build.check(__file__)  # plugins share one environment: refuse siblings of another build

from kit_core.args import (
    ArgSpec,
    arg,
    array_arg,
    bool_arg,
    int_arg,
    number_arg,
    object_arg,
    str_arg,
)
from kit_core.content import ContentTooLarge, File, Image, Rich
from kit_core.declarations import Declaration, HookSpec, declaration_of, declarations_in, declare
from kit_core.envelope import ErrorCode, ReportsFailure, ToolFailure
from kit_core.errors import KitError, RegistrationError, ToolDefinitionError
from kit_core.names import tool_name, validate_tool_name
from kit_core.provider_tools import ProviderTools
from kit_core.redaction import redact, redact_text
from kit_core.registration import register_all
from kit_core.tools import (
    AsyncRichToolFunction,
    AsyncToolFunction,
    RichToolFunction,
    ToolFunction,
    tool,
)
from kit_core.toolspec import ToolSpec
from kit_core.typed import Arg, ToolContext

__all__ = [
    "Arg",
    "ArgSpec",
    "AsyncRichToolFunction",
    "AsyncToolFunction",
    "ContentTooLarge",
    "Declaration",
    "ErrorCode",
    "File",
    "HookSpec",
    "Image",
    "KitError",
    "ProviderTools",
    "RegistrationError",
    "ReportsFailure",
    "Rich",
    "RichToolFunction",
    "ToolContext",
    "ToolDefinitionError",
    "ToolFailure",
    "ToolFunction",
    "ToolSpec",
    "arg",
    "array_arg",
    "bool_arg",
    "declaration_of",
    "declarations_in",
    "declare",
    "int_arg",
    "number_arg",
    "object_arg",
    "redact",
    "redact_text",
    "register_all",
    "str_arg",
    "tool",
    "tool_name",
    "validate_tool_name",
]
