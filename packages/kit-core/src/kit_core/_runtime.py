"""The per-call path of a kit tool: check, run, encode, log. Never raises, always a str.

This is the hot path of every tool call, so work that only a log line needs
(redaction, serialisation, timing text) happens only when that line is emitted.
"""

from __future__ import annotations

import inspect
import json
import logging
import os
import traceback
from collections.abc import Callable
from time import perf_counter
from typing import Any, Final

from kit_core._checks import ArgumentCheck, Rejection, parse_arguments
from kit_core.envelope import ErrorCode, encode_success, error_envelope
from kit_core.redaction import redact, redact_text

PREVIEW_CHARS: Final = 200
CONTEXT_KEYS: Final = ("session_id", "task_id")
_DEBUG: Final = logging.DEBUG
_INFO: Final = logging.INFO
_WARNING: Final = logging.WARNING
_AWAITABLE_HINT: Final = "it is awaitable; declare the handler with async def so the kit awaits it"


def _safe_str(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:  # a broken __str__ must not break the envelope
        text = ""
    return text or type(exc).__name__


def _preview(value: Any, secrets: tuple[str, ...]) -> str:
    """Redacted JSON of ``value``, cut to 200 characters, for a log line."""
    try:
        text = json.dumps(redact(value, secrets), ensure_ascii=False, default=str)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= PREVIEW_CHARS else text[:PREVIEW_CHARS] + "…"


class ToolRunner:
    """Everything a call of one tool needs, fixed when the tool is decorated."""

    __slots__ = ("check", "env_names", "handler", "logger", "name")

    def __init__(
        self,
        name: str,
        handler: Callable[..., Any],
        check: ArgumentCheck | None,
        env_names: tuple[str, ...],
        logger: logging.Logger,
    ) -> None:
        self.name = name
        self.handler = handler
        self.check = check
        self.env_names = env_names
        self.logger = logger

    # -- pieces shared by the sync and async paths ---------------------------------

    def secrets(self) -> tuple[str, ...]:
        """The current values of the tool's ``requires_env`` variables."""
        return tuple(v for n in self.env_names if (v := os.environ.get(n)))

    def begin(
        self, raw: Any, kwargs: dict[str, Any], started: float
    ) -> tuple[dict[str, Any], str | None]:
        """Parse and check the arguments; return them, or the rejection envelope."""
        args, rejection = parse_arguments(raw)
        if rejection is None and self.check is not None:
            args, rejection = self.check(args)
        logger = self.logger
        if logger.isEnabledFor(_DEBUG):
            secrets = self.secrets()
            context = {k: kwargs[k] for k in CONTEXT_KEYS if kwargs.get(k) is not None}
            logger.debug(
                "%s: invoked; args=%s; context=%s",
                self.name,
                _preview(raw if rejection else args, secrets),
                _preview(context, secrets),
            )
        if rejection is None:
            return args, None
        return args, self.reject(rejection, raw, started)

    def reject(self, rejection: Rejection, raw: Any, started: float) -> str:
        secrets = self.secrets()
        message = redact_text(rejection.message, secrets)
        if self.logger.isEnabledFor(_WARNING):
            self.logger.warning(
                "%s: rejected call, %s; elapsed_ms=%.2f; error=%s; args=%s",
                self.name,
                rejection.reason,
                (perf_counter() - started) * 1000,
                message,
                _preview(raw, secrets),
            )
        return error_envelope(message, rejection.code)

    def finish(self, result: Any, started: float) -> str:
        """Encode what the handler returned; log the outcome."""
        if result.__class__ is str:
            mode = "encoded_string"
            encoded: str = result
        elif isinstance(result, str):
            mode = "encoded_string"
            encoded = str.__str__(result)
        else:
            mode = type(result).__name__
            try:
                encoded = encode_success(result)
            except (TypeError, ValueError, RecursionError) as exc:
                why = _AWAITABLE_HINT if inspect.isawaitable(result) else _safe_str(exc)
                return self.not_encodable(result, started, why)
        if self.logger.isEnabledFor(_INFO):
            self.logger.info(
                "%s: ok; elapsed_ms=%.2f; result=%s",
                self.name,
                (perf_counter() - started) * 1000,
                mode,
            )
        return encoded

    def not_encodable(self, result: Any, started: float, why: str) -> str:
        if inspect.iscoroutine(result):
            result.close()  # never awaited: close it so Python does not warn later
        message = (
            f"{self.name} returned a {type(result).__name__} the kit cannot encode as JSON:"
            f" {why}. Return a dict, list, str or another JSON value"
        )
        if self.logger.isEnabledFor(_WARNING):
            self.logger.warning(
                "%s: result not serializable; elapsed_ms=%.2f; result=%s",
                self.name,
                (perf_counter() - started) * 1000,
                type(result).__name__,
            )
        return error_envelope(message, ErrorCode.RESULT_NOT_SERIALIZABLE)

    def fail(self, exc: BaseException, started: float) -> str:
        """The envelope for a handler that raised; logs the redacted traceback."""
        secrets = self.secrets()
        text = redact_text(_safe_str(exc), secrets)
        if self.logger.isEnabledFor(_WARNING):
            trace = redact_text("".join(traceback.format_exception(exc)), secrets)
            self.logger.warning(
                "%s: handler raised; elapsed_ms=%.2f; error_type=%s; error=%s\n%s",
                self.name,
                (perf_counter() - started) * 1000,
                type(exc).__name__,
                text,
                trace.rstrip(),
            )
        return error_envelope(f"{self.name} failed: {text}", ErrorCode.HANDLER_ERROR)

    # -- the two call paths ------------------------------------------------------

    def call(self, raw: Any, kwargs: dict[str, Any]) -> str:
        started = perf_counter()
        try:
            args, refused = self.begin(raw, kwargs, started)
            if refused is not None:
                return refused
            result = self.handler(args, **kwargs)
        except (Exception, SystemExit) as exc:
            return self.fail(exc, started)
        try:
            return self.finish(result, started)
        except Exception as exc:  # a str subclass or logging handler misbehaving
            return self.fail(exc, started)

    async def call_async(self, raw: Any, kwargs: dict[str, Any]) -> str:
        started = perf_counter()
        try:
            args, refused = self.begin(raw, kwargs, started)
            if refused is not None:
                return refused
            result = await self.handler(args, **kwargs)
        except (Exception, SystemExit) as exc:
            return self.fail(exc, started)
        try:
            return self.finish(result, started)
        except Exception as exc:
            return self.fail(exc, started)
