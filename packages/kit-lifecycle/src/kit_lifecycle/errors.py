"""The exceptions kit-lifecycle raises: a bad declaration, and a registration that failed midway."""

from __future__ import annotations

from kit_core import KitError, RegistrationError

__all__ = ["DeclarationError", "PartialRegistrationError"]


class DeclarationError(KitError, ValueError):
    """A ``@command``, ``@middleware``, ``@hook`` or ``plugin_skill`` breaks a rule.

    The message names the declaration, the rule and the fix. Raised when the module
    defining it is imported, long before the host sees anything.
    """


class PartialRegistrationError(RegistrationError):
    """``register_plugin`` failed after it had started handing surfaces to the host.

    A host registrar raised (a SKILL.md removed after the checks, a registrar refusing a
    value), or the receipt could not be logged. Everything registered before the failure
    was undone as far as the host allows; the message says which surface failed and why,
    what was rolled back, and what is left registered (and why it could not be undone).
    The same facts are on the exception, as labels like ``"hook 'pre_tool_call'"``.
    """

    def __init__(
        self,
        message: str,
        *,
        failed: str,
        rolled_back: tuple[str, ...],
        left_registered: tuple[str, ...],
    ) -> None:
        super().__init__(message)
        self.failed = failed
        """The surface whose registration failed, e.g. ``"skill 'guide'"``."""
        self.rolled_back = rolled_back
        """The surfaces taken back out of the host, newest first."""
        self.left_registered = left_registered
        """The surfaces still registered with the host, each with why it could not be undone."""
