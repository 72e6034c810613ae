"""The exception raised for a bad command, middleware, hook or skill declaration."""

from __future__ import annotations

from kit_core import KitError

__all__ = ["DeclarationError"]


class DeclarationError(KitError, ValueError):
    """A ``@command``, ``@middleware``, ``@hook`` or ``plugin_skill`` breaks a rule.

    The message names the declaration, the rule and the fix. Raised when the module
    defining it is imported, long before the host sees anything.
    """
