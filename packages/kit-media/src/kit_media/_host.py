"""Lazy access to the hermes-agent host and python-telegram-bot.

kit-media has no dependency on either: both are imported from the running host's
environment at the moment they are needed, never at import time, so a plugin that
imports the kit still loads (and its unit tests still run) without them.
"""

from __future__ import annotations

from typing import Any, Final

from kit_core._running_host import imported
from kit_core.hermes import CALL_IDENTITY_KEYS, first_release
from kit_media.errors import MediaError

SEND_MESSAGE_FUNCTION: Final = "tools.send_message_tool.send_message_tool"
"""The host handler kit-media delivers through (``HostRelease.functions`` name)."""


def first_offering(function: str, fallback: str = "a newer hermes-agent") -> str:
    """``"hermes-agent 0.17.0 or newer"``: the oldest modelled release that has
    ``function`` (a ``HostRelease.functions`` name), else ``fallback``."""
    release = first_release(lambda r: function in r.functions)
    return f"{release.label} or newer" if release is not None else fallback


def host_missing() -> str:
    """Why kit-media cannot deliver without hermes, naming the first release (from the
    host model) whose ``send_message`` it delivers through."""
    return (
        "hermes-agent is not importable: kit-media delivers through the host's"
        f" send_message; run inside {first_offering(SEND_MESSAGE_FUNCTION, 'hermes-agent')}"
    )


TELEGRAM_MISSING: Final = (
    "python-telegram-bot is not importable: the Telegram spoiler path sends through it;"
    " install hermes-agent with its messaging extra (hermes-agent[messaging])"
)


class HostRefusal(MediaError):
    """A problem of the host at delivery time, not of the caller's input.

    :func:`kit_media.deliver_media` turns these into a failed result instead of raising.
    """


class HostUnavailableError(HostRefusal):
    """hermes-agent (or python-telegram-bot) cannot be imported, or lacks what kit-media uses."""


def import_host(module: str) -> Any:
    """Import one hermes module, or raise :class:`HostUnavailableError` saying why."""
    return _import(module, host_missing())


def import_telegram() -> Any:
    """Import python-telegram-bot's ``telegram`` package, or raise saying how to get it."""
    return _import("telegram", TELEGRAM_MISSING)


def _import(module: str, missing: str) -> Any:
    try:
        return imported(module)
    except Exception as exc:  # ImportError, or a host that fails while importing
        msg = f"{missing} (importing {module} failed: {type(exc).__name__})"
        raise HostUnavailableError(msg) from exc


def session_env(name: str) -> str:
    """A task-local session value (``HERMES_SESSION_*``) as hermes resolves it.

    ``gateway.session_context.get_session_env`` reads the ContextVar the gateway bound
    for this turn, and falls back to ``os.environ`` only when this context never bound
    one (CLI, cron, tests).
    """
    getter = getattr(import_host("gateway.session_context"), "get_session_env", None)
    if not callable(getter):
        msg = f"{host_missing()} (gateway.session_context has no get_session_env)"
        raise HostUnavailableError(msg)
    value = getter(name, "")
    return value.strip() if isinstance(value, str) else ""


def as_text(value: object) -> str:
    """A context value as the guard helpers expect it: ``None`` is ``""``."""
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)


def guard_context(context: dict[str, Any]) -> dict[str, str]:
    """The five call-identity keys hermes' guard helpers take, as strings."""
    return {key: as_text(context.get(key)) for key in CALL_IDENTITY_KEYS}
