"""The per-call path of a kit tool: check, run, encode, log. Never raises, always a str.

This is the hot path of every tool call, so work that only a log line needs
(redaction, serialisation, timing text) happens only when that line is emitted.
:class:`ToolRunner` holds what a call of one tool needs and each step of the call; the
function a tool is (:mod:`kit_core._tool_wrapper`) calls them, and what keeps the error
path from raising is :mod:`kit_core._call_guards`.
"""

from __future__ import annotations

import functools
import inspect
import logging
import traceback
from collections.abc import Callable
from time import perf_counter
from typing import Any, Final

from kit_core._argument_check import ArgumentCheck, parse_arguments
from kit_core._call_guards import fallback, log_line, propagates, safe_str
from kit_core._env import requires_env_values
from kit_core._preview import preview
from kit_core._pydantic import ModelRefused
from kit_core._refusal import ECHO_CHARS, Rejection
from kit_core.content import MULTIMODAL_KEY, ContentTooLarge, Rich, is_multimodal
from kit_core.envelope import ErrorCode, ToolFailure, encode_success, error_envelope, failure_of
from kit_core.redaction import (
    MIN_SECRET_LENGTH,
    REDACTED,
    named_forms,
    redact_preview,
    redact_text,
)

__all__ = [
    "CONTEXT_KEYS",
    "ERROR_CHARS",
    "MISSING_AWAIT_HINT",
    "PREVIEW_CHARS",
    "SYNC_AWAITABLE_HINT",
    "TRACE_CHARS",
    "ToolRunner",
    "split_keywords",
]

PREVIEW_CHARS: Final = 200
ERROR_CHARS: Final = 2_000
"""The most of an exception's text an error envelope or log line shows."""
TRACE_CHARS: Final = 32_000
"""The most of a traceback a log line shows."""


CONTEXT_KEYS: Final = ("session_id", "task_id")
"""The call identity a kit log line shows (tools here, hooks and middleware in
kit_lifecycle): the conversation and the task, never the per-call ids."""


def split_keywords(
    keywords: dict[str, Any], names: frozenset[str]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A typed tool called directly (``fn(city="Paris")``): its keywords split into the
    model's arguments (the tool's argument names) and the caller's other keywords."""
    return (
        {k: v for k, v in keywords.items() if k in names},
        {k: v for k, v in keywords.items() if k not in names},
    )


_DEBUG: Final = logging.DEBUG
_WARNING: Final = logging.WARNING
SYNC_AWAITABLE_HINT: Final = (
    "it is awaitable, which a plain def handler hands back unawaited: declare it async def"
    " or await the call (async def handler(...): return await ...), so the kit awaits it"
)
"""Why a sync handler's coroutine (or other awaitable) cannot be encoded; ``check --probe``
reads it in the envelope (HPK134)."""
MISSING_AWAIT_HINT: Final = (
    "it is awaitable: the async def handler returned it without awaiting it; add the"
    " missing await (return await ...)"
)
"""Why an ``async def`` handler's awaitable result cannot be encoded (HPK135)."""


def _without_cut_secrets(text: str, secrets: tuple[str, ...]) -> str:
    """``text`` without the start of a named secret cut short by a quote of what the
    caller sent (``got string 'abcd…'``), which the exact-value redaction cannot find."""
    if not secrets:
        return text
    for form in named_forms(secrets):
        for size in range(min(len(form) - 1, ECHO_CHARS), MIN_SECRET_LENGTH - 1, -1):
            cut = form[:size] + "…"
            if cut in text:
                text = text.replace(cut, REDACTED + "…")
                break
    return text


def _or_fallback(method: Callable[..., str]) -> Callable[..., str]:
    """An error-path method of :class:`ToolRunner` that cannot raise: whatever goes wrong
    in it (a logging set-up, an object that cannot be described) gives the fixed
    envelope of :func:`fallback` instead."""

    @functools.wraps(method)
    def guarded(runner: ToolRunner, *args: Any) -> str:
        try:
            return method(runner, *args)
        except BaseException as broken:
            if propagates(broken):
                raise
            return fallback(runner.name)

    return guarded


class ToolRunner:
    """Everything a call of one tool needs, fixed when the tool is decorated."""

    __slots__ = (
        "check", "direct", "env_names", "handler", "is_async", "line_level", "logger", "name",
    )  # fmt: skip

    def __init__(
        self,
        name: str,
        handler: Callable[..., Any],
        check: ArgumentCheck | None,
        env_names: tuple[str, ...],
        logger: logging.Logger,
        line_level: int = logging.INFO,
        direct: frozenset[str] | None = None,
        *,
        is_async: bool = False,
    ) -> None:
        self.name = name
        self.handler = handler
        self.check = check
        self.env_names = env_names
        self.logger = logger
        self.line_level = line_level
        """The level of the success line: INFO, or DEBUG when the operator lowered it
        (``HERMES_PLUGIN_KIT_CALL_LOG``, see :mod:`kit_core._call_log`)."""
        self.direct = direct
        """A typed tool's argument names, which a direct call passes as keywords
        (:func:`split_keywords`); None for a spec-style tool."""
        self.is_async = is_async
        """Whether the handler is ``async def`` (the kit awaits it): an awaitable result
        is then a missing ``await``, else a handler that should have been async."""

    # -- pieces shared by the sync and async paths ---------------------------------

    def secrets(self) -> tuple[str, ...]:
        """The current values of the tool's ``requires_env`` variables."""
        if not self.env_names:
            return ()
        return requires_env_values(self.env_names)

    def begin(
        self, raw: Any, kwargs: dict[str, Any], started: float
    ) -> tuple[dict[str, Any], dict[str, Any], str | None, bool]:
        """Parse and check the arguments: the arguments and keywords to call the handler
        with, the rejection envelope (None when the call goes on), and whether the success
        line is on for this call (the logger's level is read once per call). A typed tool
        called directly with keywords (``fn(city="Paris")``) has them split first."""
        if type(raw) is dict:
            args: dict[str, Any] = raw  # pyright: ignore[reportUnknownVariableType]
            rejection = None
        else:
            if raw is None and self.direct is not None:
                raw, kwargs = split_keywords(kwargs, self.direct)
            args, rejection = parse_arguments(raw)
        check = self.check
        if check is not None and rejection is None:
            args, rejection = check(args)
        info = self.logger.isEnabledFor(self.line_level)  # off means DEBUG is off too
        if info:
            self.invoked(raw, args, rejection, kwargs)
        if rejection is None:
            return args, kwargs, None, info
        return args, kwargs, self.reject(rejection, raw, started), info

    def invoked(
        self, raw: Any, args: dict[str, Any], rejection: Rejection | None, kwargs: dict[str, Any]
    ) -> None:
        """The DEBUG line of a call, when DEBUG is on."""
        logger = self.logger
        if logger.isEnabledFor(_DEBUG):
            secrets = self.secrets()
            context = {k: kwargs[k] for k in CONTEXT_KEYS if kwargs.get(k) is not None}
            log_line(
                logger,
                _DEBUG,
                "%s: invoked; args=%s; context=%s",
                self.name,
                preview(raw if rejection else args, secrets, PREVIEW_CHARS),
                preview(context, secrets, PREVIEW_CHARS),
            )

    def reject(self, rejection: Rejection, raw: Any, started: float) -> str:
        """The envelope of a refused call, and its WARNING line. Guarded as
        :func:`_or_fallback` guards the other error paths, but inline: every refused
        call runs it, and a wrapper would cost it a tenth of its time."""
        try:
            secrets = self.secrets() if self.env_names else ()
            message = _without_cut_secrets(redact_text(rejection.message, secrets), secrets)
            errors = (
                [
                    {
                        "argument": _without_cut_secrets(redact_text(where, secrets), secrets),
                        "rule": rule,
                        "message": _without_cut_secrets(redact_text(text, secrets), secrets),
                    }
                    for where, rule, text in rejection.errors
                ]
                if rejection.errors
                else None
            )
            if self.logger.isEnabledFor(_WARNING):
                log_line(
                    self.logger,
                    _WARNING,
                    "%s: rejected call, %s; elapsed_ms=%.2f; error=%s; args=%s",
                    self.name,
                    _without_cut_secrets(redact_text(rejection.reason, secrets), secrets),
                    (perf_counter() - started) * 1000,
                    message,
                    preview(raw, secrets, PREVIEW_CHARS),
                )
            return error_envelope(message, rejection.code, errors)
        except BaseException as broken:
            if propagates(broken):
                raise
            return fallback(self.name)

    def finish(self, result: Any, started: float, info: bool) -> str | dict[str, Any]:
        """Encode what the handler returned; log the outcome when its line is on. A str,
        or a plain dict or list, with the line off is encoded at once; anything else (a
        failure, a Rich result, hermes' own multimodal envelope) is :meth:`outcome`'s."""
        try:
            if not info:
                kind = type(result)  # pyright: ignore[reportUnknownVariableType] (not __class__: it can lie)
                if kind is str:
                    return result
                if kind is list or (kind is dict and MULTIMODAL_KEY not in result):
                    try:
                        return encode_success(result)
                    except BaseException as exc:
                        if propagates(exc):
                            raise
                        return self.not_encodable(result, started, exc)
            return self.outcome(result, started, info)
        except BaseException as exc:  # a str subclass or the logging set-up misbehaving
            if propagates(exc):
                raise
            return self.fail(exc, started)

    def outcome(self, result: Any, started: float, info: bool) -> str | dict[str, Any]:
        """What the model gets for ``result``, with the success line when it is on."""
        kind = type(result)  # pyright: ignore[reportUnknownVariableType]
        shown = None
        if kind is str:
            encoded: str | dict[str, Any] = result
        elif issubclass(kind, str):
            encoded = str.__str__(result)
        elif kind is Rich:
            encoded, shown = result.envelope(), result.describe()
        elif is_multimodal(result):
            encoded, shown = result, "multimodal"  # hermes' own envelope, passed on
        else:
            failure = None if kind is dict or kind is list else failure_of(result)
            if failure is not None:
                return self.failed(failure, started)
            try:
                encoded = encode_success(result)
            except BaseException as exc:
                if propagates(exc):
                    raise
                return self.not_encodable(result, started, exc)
        if info:
            log_line(
                self.logger,
                self.line_level,
                "%s: ok; elapsed_ms=%.2f; result=%s",
                self.name,
                (perf_counter() - started) * 1000,
                shown or ("encoded_string" if issubclass(kind, str) else kind.__name__),
            )
        return encoded

    @_or_fallback
    def not_encodable(self, result: Any, started: float, exc: BaseException) -> str:
        kind = type(result).__name__
        try:
            awaitable = inspect.isawaitable(result)
        except Exception:
            awaitable = False
        secrets = self.secrets()
        hint = MISSING_AWAIT_HINT if self.is_async else SYNC_AWAITABLE_HINT
        why = hint if awaitable else redact_preview(safe_str(exc), ERROR_CHARS, secrets)
        if inspect.iscoroutine(result):
            result.close()  # never awaited: close it so Python does not warn later
        message = (
            f"{self.name} returned a {kind} the kit cannot encode as JSON:"
            f" {why}. Return a dict, list, str or another JSON value"
        )
        if self.logger.isEnabledFor(_WARNING):
            log_line(
                self.logger,
                _WARNING,
                "%s: result not serializable; elapsed_ms=%.2f; result=%s",
                self.name,
                (perf_counter() - started) * 1000,
                kind,
            )
        return error_envelope(message, ErrorCode.RESULT_NOT_SERIALIZABLE)

    @_or_fallback
    def fail(self, exc: BaseException, started: float) -> str:
        """The envelope for a handler that raised; logs the redacted traceback. A model
        argument that ``model_validate`` refused is an argument error, not the handler's."""
        if type(exc) is ModelRefused:
            return self.reject(exc.rejection(), exc.arguments, started)
        secrets = self.secrets()
        text = redact_preview(safe_str(exc), ERROR_CHARS, secrets)
        if self.logger.isEnabledFor(_WARNING):
            try:
                trace = "".join(traceback.format_exception(exc))
            except BaseException as broken:
                if propagates(broken):
                    raise
                trace = f"{type(exc).__name__} (its traceback could not be formatted)"
            log_line(
                self.logger,
                _WARNING,
                "%s: handler raised; elapsed_ms=%.2f; error_type=%s; error=%s\n%s",
                self.name,
                (perf_counter() - started) * 1000,
                type(exc).__name__,
                text,
                redact_preview(trace, TRACE_CHARS, secrets).rstrip(),
            )
        code = ErrorCode.RESULT_TOO_LARGE if isinstance(exc, ContentTooLarge) else None
        return error_envelope(f"{self.name} failed: {text}", code or ErrorCode.HANDLER_ERROR)

    @_or_fallback
    def failed(self, failure: ToolFailure, started: float) -> str:
        """The envelope for a handler that returned a failure; logs it as one."""
        secrets = self.secrets()
        text = redact_preview(failure.message, ERROR_CHARS, secrets)
        code = redact_preview(failure.code, PREVIEW_CHARS, secrets)
        if self.logger.isEnabledFor(_WARNING):
            log_line(
                self.logger,
                _WARNING,
                "%s: returned failure; elapsed_ms=%.2f; error_code=%s; error=%s",
                self.name,
                (perf_counter() - started) * 1000,
                code,
                text,
            )
        return error_envelope(f"{self.name} failed: {text}", code)
