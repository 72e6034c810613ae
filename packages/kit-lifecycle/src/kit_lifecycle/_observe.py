"""Timing, logging and redaction shared by hook, middleware and command wrappers.

What is logged: the surface's label, the elapsed time, the type of the result or of
the exception, and (hooks and middleware) the ``session_id``/``task_id`` the host passed.
Never payloads, raw command text, parsed arguments or exception messages.

Every line, and the message of every exception leaving the callback, has secret-shaped
values and the current values of the callback's secret environment variables (see
:mod:`kit_lifecycle._secrets`) replaced by ``***``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from time import perf_counter
from typing import Any

from kit_core import redact, redact_text
from kit_core._runtime import CONTEXT_KEYS
from kit_lifecycle._secrets import EnvSecrets, scrub


def context_of(kwargs: Mapping[str, Any], secrets: tuple[str, ...]) -> str:
    """The safe correlation ids of a call, as compact JSON."""
    ids = {k: kwargs[k] for k in CONTEXT_KEYS if kwargs.get(k) is not None}
    try:
        return json.dumps(redact(ids, secrets), ensure_ascii=False, default=str)
    except Exception:
        return "{}"


def log_outcome(
    logger: logging.Logger,
    label: str,
    started: float,
    result: Any,
    exc: BaseException | None,
    secrets: tuple[str, ...],
    *,
    what: str = "callback",
    context: str | None = None,
    ok_level: int = logging.INFO,
) -> None:
    """The ``ok`` line at ``ok_level`` (INFO unless the operator lowered it, see
    :mod:`kit_core._call_log`), or the ``<what> raised`` line at WARNING (with the type of
    the exception, never its message); ``context`` is appended when given."""
    level = ok_level if exc is None else logging.WARNING
    if not logger.isEnabledFor(level):
        return
    elapsed = (perf_counter() - started) * 1000
    tail, extra = ("; context=%s", (context,)) if context is not None else ("", ())
    if exc is None:
        outcome = ("%s: ok; elapsed_ms=%.2f; result=%s" + tail, type(result).__name__)
    else:
        outcome = (f"%s: {what} raised; elapsed_ms=%.2f; error_type=%s" + tail, type(exc).__name__)
    logger.log(level, outcome[0], redact_text(label, secrets), elapsed, outcome[1], *extra)


def _started(kwargs: dict[str, Any], label: str, logger: logging.Logger, env: EnvSecrets) -> float:
    if logger.isEnabledFor(logging.DEBUG):
        secrets = env.values()
        logger.debug(
            "%s: invoked; context=%s", redact_text(label, secrets), context_of(kwargs, secrets)
        )
    return perf_counter()


def _failed(
    exc: BaseException,
    kwargs: dict[str, Any],
    label: str,
    logger: logging.Logger,
    env: EnvSecrets,
    started: float,
) -> None:
    secrets = env.values()
    scrub(exc, secrets)
    context = context_of(kwargs, secrets) if logger.isEnabledFor(logging.WARNING) else ""
    log_outcome(logger, label, started, None, exc, secrets, context=context)


def _succeeded(
    result: Any,
    kwargs: dict[str, Any],
    label: str,
    logger: logging.Logger,
    env: EnvSecrets,
    started: float,
    ok_level: int,
) -> None:
    if logger.isEnabledFor(ok_level):
        secrets = env.values()
        context = context_of(kwargs, secrets)
        log_outcome(
            logger, label, started, result, None, secrets, context=context, ok_level=ok_level
        )


def call_observed(
    fn: Callable[..., Any],
    kwargs: dict[str, Any],
    label: str,
    logger: logging.Logger,
    env: EnvSecrets,
    ok_level: int = logging.INFO,
) -> Any:
    """``fn(**kwargs)`` with the safe invocation, outcome and failure logs (the outcome at
    ``ok_level``); re-raises the callback's exception, its message cleaned of secrets."""
    started = _started(kwargs, label, logger, env)
    try:
        result = fn(**kwargs)
    except BaseException as exc:
        _failed(exc, kwargs, label, logger, env, started)
        raise
    _succeeded(result, kwargs, label, logger, env, started, ok_level)
    return result


async def call_observed_async(
    fn: Callable[..., Any],
    kwargs: dict[str, Any],
    label: str,
    logger: logging.Logger,
    env: EnvSecrets,
    ok_level: int = logging.INFO,
) -> Any:
    """:func:`call_observed` for an ``async def`` callback: ``await fn(**kwargs)``, so the
    elapsed time and result type are the awaited callback's, and an exception raised
    inside the coroutine gets the failure line and is cleaned of secrets too."""
    started = _started(kwargs, label, logger, env)
    try:
        result = await fn(**kwargs)
    except BaseException as exc:
        _failed(exc, kwargs, label, logger, env, started)
        raise
    _succeeded(result, kwargs, label, logger, env, started, ok_level)
    return result
