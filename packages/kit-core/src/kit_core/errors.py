"""Exceptions the kit raises while a plugin is being defined or registered.

Nothing here is raised while a tool runs: a running tool answers every problem
with an error envelope instead (see :mod:`kit_core.envelope`).

    KitError
    ├── ToolDefinitionError (also a ValueError)   a bad @tool, name, argument or schema
    └── RegistrationError  (also a ValueError)    the plugin cannot be handed to the host
"""

from __future__ import annotations

__all__ = ["KitError", "RegistrationError", "ToolDefinitionError"]


class KitError(Exception):
    """Base class of every exception the kit raises on purpose."""


class ToolDefinitionError(KitError, ValueError):
    """A tool, its name, an argument spec or a supplied schema breaks a rule.

    The message names the tool or argument, the rule, and how to fix it.
    """


class RegistrationError(KitError, ValueError):
    """Declarations cannot be registered as they are (for example two tools share a name).

    Raised before anything is handed to the host, so nothing is half-registered, when
    a declaration is at fault. When the host itself fails midway, kit-lifecycle's
    ``PartialRegistrationError`` (a subclass) says what it undid and what is left.
    """
