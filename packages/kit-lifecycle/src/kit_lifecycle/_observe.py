"""Timing and logging shared by hook, middleware and command wrappers.

What is logged: the surface's label, the elapsed time, the type of the result or of
the exception, and the ``session_id``/``task_id`` the host passed. Never payloads,
raw command text, parsed arguments or exception messages.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from time import perf_counter
from typing import Any, Final

from kit_core import redact

CONTEXT_KEYS: Final = ("session_id", "task_id")


def context_of(kwargs: Mapping[str, Any]) -> str:
    """The safe correlation ids of a call, as compact JSON."""
    ids = {k: kwargs[k] for k in CONTEXT_KEYS if kwargs.get(k) is not None}
    try:
        return json.dumps(redact(ids), ensure_ascii=False, default=str)
    except Exception:
        return "{}"


def log_ok(logger: logging.Logger, label: str, elapsed: float, result: Any, context: str) -> None:
    if logger.isEnabledFor(logging.INFO):
        logger.info(
            "%s: ok; elapsed_ms=%.2f; result=%s; context=%s",
            label,
            elapsed * 1000,
            type(result).__name__,
            context,
        )


def log_raised(
    logger: logging.Logger, label: str, elapsed: float, exc: BaseException, context: str
) -> None:
    if logger.isEnabledFor(logging.WARNING):
        logger.warning(
            "%s: callback raised; elapsed_ms=%.2f; error_type=%s; context=%s",
            label,
            elapsed * 1000,
            type(exc).__name__,
            context,
        )


def call_observed(
    fn: Callable[..., Any], kwargs: dict[str, Any], label: str, logger: logging.Logger
) -> Any:
    """``fn(**kwargs)`` with the safe invocation, outcome and failure logs; re-raises."""
    context = context_of(kwargs)
    if logger.isEnabledFor(logging.DEBUG):
        logger.debug("%s: invoked; context=%s", label, context)
    started = perf_counter()
    try:
        result = fn(**kwargs)
    except BaseException as exc:
        log_raised(logger, label, perf_counter() - started, exc, context)
        raise
    log_ok(logger, label, perf_counter() - started, result, context)
    return result
