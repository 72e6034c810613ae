"""hermes-plugin-kit: the one import a hermes-agent plugin author needs.

``from hermes_plugin_kit import tool, command, deliver_media, register_plugin`` works
whichever kit package a name lives in. kit-core is loaded with the façade; kit-lifecycle
and kit-media load on first use of one of their names (PEP 562), so a tool-only plugin
never pays for them. ``dir()`` and type checkers see every name, and
``from hermes_plugin_kit import *`` every name but kit-media's hooks
(``MEDIA_DELIVERY_HOOKS``, ``transform_media_delivery_output`` and
``clear_media_delivery_state``): ``register_plugin`` registers the declared objects a module
registered as a whole holds, so a plugin module that star-imports the kit would register
both hooks unasked. Import them by name where the plugin wants them.

Author tooling (the in-memory host, the pytest plugin, the ``hermes-plugin-kit``
command) is not here: it is ``kit-devtools``, installed with ``hermes-plugin-kit[dev]``.
"""

from typing import TYPE_CHECKING

from hermes_plugin_kit._foreign_core import refuse as _refuse_a_foreign_kit_core

_refuse_a_foreign_kit_core()  # kit_core's import then refuses siblings of another build

from kit_core._build import confirm as _confirm  # noqa: E402 - after the foreign-core check

_confirm(__name__, __file__)  # the folder really imported is of kit_core's build

from kit_core import (  # noqa: E402 - after the build checks
    Arg,
    ArgSpec,
    AsyncRichToolFunction,
    AsyncToolFunction,
    ContentTooLarge,
    Declaration,
    ErrorCode,
    File,
    HookSpec,
    Image,
    KitError,
    ProviderTools,
    RegistrationError,
    ReportsFailure,
    Rich,
    RichToolFunction,
    ToolContext,
    ToolDefinitionError,
    ToolFailure,
    ToolFunction,
    ToolSpec,
    arg,
    array_arg,
    bool_arg,
    declaration_of,
    declarations_in,
    declare,
    int_arg,
    number_arg,
    object_arg,
    redact,
    redact_text,
    register_all,
    str_arg,
    tool,
    tool_name,
    validate_tool_name,
)

if TYPE_CHECKING:
    from kit_lifecycle import (
        CommandSpec,
        CommandType,
        DeclarationError,
        MiddlewareKind,
        MiddlewareSpec,
        PartialRegistrationError,
        PluginSkill,
        RegistrationSummary,
        command,
        configure_stderr_logging,
        hook,
        load_plugin_config,
        log_registration_summary,
        middleware,
        plugin_skill,
        register_plugin,
    )
    from kit_media import MEDIA_DELIVERY_HOOKS as MEDIA_DELIVERY_HOOKS
    from kit_media import (
        MediaDeliveryResult,
        MediaError,
        MediaPayload,
        MediaType,
        ResolvedDeliveryTarget,
        deliver_media,
        invoke_host_tool,
        resolve_delivery_target,
    )
    from kit_media import clear_media_delivery_state as clear_media_delivery_state
    from kit_media import transform_media_delivery_output as transform_media_delivery_output

_LIFECYCLE_NAMES = frozenset(
    {
        "CommandSpec",
        "CommandType",
        "DeclarationError",
        "MiddlewareKind",
        "MiddlewareSpec",
        "PartialRegistrationError",
        "PluginSkill",
        "RegistrationSummary",
        "command",
        "configure_stderr_logging",
        "hook",
        "load_plugin_config",
        "log_registration_summary",
        "middleware",
        "plugin_skill",
        "register_plugin",
    }
)
_MEDIA_NAMES = frozenset(
    {
        "MEDIA_DELIVERY_HOOKS",
        "MediaDeliveryResult",
        "MediaError",
        "MediaPayload",
        "MediaType",
        "ResolvedDeliveryTarget",
        "clear_media_delivery_state",
        "deliver_media",
        "invoke_host_tool",
        "resolve_delivery_target",
        "transform_media_delivery_output",
    }
)


def __getattr__(name: str) -> object:
    """Load kit-lifecycle or kit-media the first time one of their names is asked for."""
    if name in _LIFECYCLE_NAMES:
        import kit_lifecycle as package
    elif name in _MEDIA_NAMES:
        import kit_media as package
    else:
        msg = f"module 'hermes_plugin_kit' has no attribute {name!r}"
        raise AttributeError(msg)
    value = getattr(package, name)
    globals()[name] = value  # later lookups are plain module attributes
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LIFECYCLE_NAMES, *_MEDIA_NAMES})


# kit-media's hooks are left out (see the module's docstring)
__all__ = [
    "Arg",
    "ArgSpec",
    "AsyncRichToolFunction",
    "AsyncToolFunction",
    "CommandSpec",
    "CommandType",
    "ContentTooLarge",
    "Declaration",
    "DeclarationError",
    "ErrorCode",
    "File",
    "HookSpec",
    "Image",
    "KitError",
    "MediaDeliveryResult",
    "MediaError",
    "MediaPayload",
    "MediaType",
    "MiddlewareKind",
    "MiddlewareSpec",
    "PartialRegistrationError",
    "PluginSkill",
    "ProviderTools",
    "RegistrationError",
    "RegistrationSummary",
    "ReportsFailure",
    "ResolvedDeliveryTarget",
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
    "command",
    "configure_stderr_logging",
    "declaration_of",
    "declarations_in",
    "declare",
    "deliver_media",
    "hook",
    "int_arg",
    "invoke_host_tool",
    "load_plugin_config",
    "log_registration_summary",
    "middleware",
    "number_arg",
    "object_arg",
    "plugin_skill",
    "redact",
    "redact_text",
    "register_all",
    "register_plugin",
    "resolve_delivery_target",
    "str_arg",
    "tool",
    "tool_name",
    "validate_tool_name",
]
