"""What keeps a tool call's error path from raising.

Whatever goes wrong while a call is refused, failed or logged (an exception whose
``__str__`` raises, a logging filter or handler that raises), the call still answers:
:func:`propagates` says what a call lets through (an interrupt, a cancellation), and the
rest is caught here: :func:`safe_str` gives an exception's text, :func:`log_line` loses
the line, not the call, and :func:`fallback` is the fixed envelope when even describing
the error fails.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from kit_core.envelope import ErrorCode, error_envelope

__all__ = ["fallback", "log_line", "propagates", "safe_str"]


def propagates(exc: BaseException) -> bool:
    """Whether a tool call lets ``exc`` through: the user stopping the process, and the
    cancellation of the task that awaits the call. Everything else becomes an error
    envelope. (asyncio is looked up, not imported: without it, nothing is cancelled.)"""
    if isinstance(exc, KeyboardInterrupt):
        return True
    asyncio: Any = sys.modules.get("asyncio")
    return asyncio is not None and isinstance(exc, asyncio.CancelledError)


def safe_str(exc: BaseException) -> str:
    try:
        text = str(exc)
    except BaseException as broken:  # a broken __str__ must not break the envelope
        if propagates(broken):
            raise
        text = ""
    return text if text.__class__ is str and text else type(exc).__name__


def log_line(logger: logging.Logger, level: int, message: str, *args: object) -> None:
    """Log a line; a logging filter or handler that raises loses the line, not the call."""
    try:
        logger.log(level, message, *args)
    except BaseException as broken:
        if propagates(broken):
            raise


def fallback(name: str) -> str:
    """The envelope when even the error path fails: fixed text, nothing of the call."""
    return error_envelope(
        f"{name} failed, and the kit could not describe the error", ErrorCode.HANDLER_ERROR
    )
