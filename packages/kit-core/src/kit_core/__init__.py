"""kit-core: the tool contract for hermes-agent plugins.

Declare a tool with :func:`tool` and argument specs, register a module's tools
with :func:`register_all`. A decorated tool always answers the host with a JSON
string, checks its arguments before the handler runs, and logs safely. Every object
a kit decorator declares carries one :class:`Declaration` record (a :class:`ToolSpec`,
a :class:`HookSpec`, kit-lifecycle's command and middleware specs), read with
:func:`declaration_of`.
"""

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
from kit_core.declarations import (
    Declaration,
    HookSpec,
    declaration_of,
    declarations_in,
    declare,
    resolve_module,
)
from kit_core.env import check_requires_env, requires_env_values
from kit_core.envelope import ErrorCode, encode_success, error_envelope
from kit_core.errors import KitError, RegistrationError, ToolDefinitionError
from kit_core.names import RESERVED_TOOL_NAMES, tool_name, validate_tool_name
from kit_core.redaction import is_secret_key, redact, redact_text
from kit_core.registration import collect_tools, register_all
from kit_core.schema import build_schema
from kit_core.tools import AsyncToolFunction, ToolFunction, ToolSpec, tool

__all__ = [
    "RESERVED_TOOL_NAMES",
    "ArgSpec",
    "AsyncToolFunction",
    "Declaration",
    "ErrorCode",
    "HookSpec",
    "KitError",
    "RegistrationError",
    "ToolDefinitionError",
    "ToolFunction",
    "ToolSpec",
    "arg",
    "array_arg",
    "bool_arg",
    "build_schema",
    "check_requires_env",
    "collect_tools",
    "declaration_of",
    "declarations_in",
    "declare",
    "encode_success",
    "error_envelope",
    "int_arg",
    "is_secret_key",
    "number_arg",
    "object_arg",
    "redact",
    "redact_text",
    "register_all",
    "requires_env_values",
    "resolve_module",
    "str_arg",
    "tool",
    "tool_name",
    "validate_tool_name",
]
