"""kit-lifecycle: commands, middleware, hooks, skills and one registration receipt.

Declare each surface with a decorator (:func:`command`, :func:`middleware`,
:func:`hook`; skills with :func:`plugin_skill`), then register everything, tools
included, with one :func:`register_plugin` call. Each decorated callback keeps its own
signature for type checkers and carries its record (:class:`CommandSpec`,
:class:`MiddlewareSpec`, :class:`kit_core.HookSpec`), read with
:func:`kit_core.declaration_of`. A registration that fails midway is
rolled back as far as the host allows and reported in one
:class:`PartialRegistrationError`.
"""

from kit_core._build import confirm as _confirm

_confirm(__name__, __file__)  # the folder really imported is of kit_core's build

from kit_lifecycle.commands import CommandSpec, CommandType, command
from kit_lifecycle.config import configure_stderr_logging, load_plugin_config
from kit_lifecycle.errors import DeclarationError, PartialRegistrationError
from kit_lifecycle.hooks import hook
from kit_lifecycle.middleware import MiddlewareKind, MiddlewareSpec, middleware
from kit_lifecycle.registration import register_plugin
from kit_lifecycle.skills import PluginSkill, plugin_skill
from kit_lifecycle.summary import RegistrationSummary, log_registration_summary

__all__ = [
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
]
