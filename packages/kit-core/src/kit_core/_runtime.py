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
from kit_core.redaction import MIN_SECRET_LENGTH, REDACTED, redact, redact_text

PREVIEW_CHARS: Final = 200
PREVIEW_CUT: Final = 40
"""Longer than any value preview of an error message (cut to 37 characters)."""
CONTEXT_KEYS: Final = ("session_id", "task_id")
_DEBUG: Final = logging.DEBUG
_INFO: Final = logging.INFO
_WARNING: Final = logging.WARNING
_AWAITABLE_HINT: Final = "it is awaitable; declare the handler with async def so the kit awaits it"


_PREVIEW_ENCODER: Final = json.JSONEncoder(ensure_ascii=False, default=str)


def _safe_str(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:  # a broken __str__ must not break the envelope
        text = ""
    return text or type(exc).__name__


def _preview(value: Any, secrets: tuple[str, ...]) -> str:
    """Redacted JSON of ``value``, cut to 200 characters, for a log line."""
    try:
        text = _PREVIEW_ENCODER.encode(redact(value, secrets))
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= PREVIEW_CHARS else text[:PREVIEW_CHARS] + "…"


def _without_cut_secrets(text: str, secrets: tuple[str, ...]) -> str:
    """``text`` without the start of a named secret cut short by a value preview
    (``got string 'abcd…'``), which the exact-value redaction cannot find."""
    for secret in secrets:
        for size in range(min(len(secret) - 1, PREVIEW_CUT), MIN_SECRET_LENGTH - 1, -1):
            cut = secret[:size] + "…"
            if cut in text:
                text = text.replace(cut, REDACTED + "…")
                break
    return text


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
        if not self.env_names:
            return ()
        return tuple(v for n in self.env_names if (v := os.environ.get(n)))

    def begin(
        self, raw: Any, kwargs: dict[str, Any], started: float
    ) -> tuple[dict[str, Any], str | None, bool]:
        """Parse and check the arguments; return them, or the rejection envelope, and
        whether INFO is on for this call (the logger's level is read once per call)."""
        if raw.__class__ is dict:
            args: dict[str, Any] = raw
            rejection = None
        else:
            args, rejection = parse_arguments(raw)
        check = self.check
        if check is not None and rejection is None:
            args, rejection = check(args)
        info = self.logger.isEnabledFor(_INFO)  # off means DEBUG is off too
        if info:
            self.invoked(raw, args, rejection, kwargs)
        if rejection is None:
            return args, None, info
        return args, self.reject(rejection, raw, started), info

    def invoked(
        self, raw: Any, args: dict[str, Any], rejection: Rejection | None, kwargs: dict[str, Any]
    ) -> None:
        """The DEBUG line of a call, when DEBUG is on."""
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

    def reject(self, rejection: Rejection, raw: Any, started: float) -> str:
        secrets = self.secrets()
        message = _without_cut_secrets(redact_text(rejection.message, secrets), secrets)
        if self.logger.isEnabledFor(_WARNING):
            self.logger.warning(
                "%s: rejected call, %s; elapsed_ms=%.2f; error=%s; args=%s",
                self.name,
                redact_text(rejection.reason, secrets),  # it names the argument, maybe a key
                (perf_counter() - started) * 1000,
                message,
                _preview(raw, secrets),
            )
        return error_envelope(message, rejection.code)

    def finish(self, result: Any, started: float, info: bool) -> str:
        """Encode what the handler returned; log the outcome when INFO is on."""
        if result.__class__ is str:
            encoded: str = result
        elif isinstance(result, str):
            encoded = str.__str__(result)
        else:
            try:
                encoded = encode_success(result)
            except (TypeError, ValueError, RecursionError) as exc:
                return self.not_encodable(result, started, exc)
        if info:
            self.logger.info(
                "%s: ok; elapsed_ms=%.2f; result=%s",
                self.name,
                (perf_counter() - started) * 1000,
                "encoded_string" if isinstance(result, str) else type(result).__name__,
            )
        return encoded

    def not_encodable(self, result: Any, started: float, exc: BaseException) -> str:
        why = _AWAITABLE_HINT if inspect.isawaitable(result) else _safe_str(exc)
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

    async def call_async(self, raw: Any, kwargs: dict[str, Any]) -> str:
        started = perf_counter()
        try:
            args, refused, info = self.begin(raw, kwargs, started)
            if refused is not None:
                return refused
            result = await self.handler(args, **kwargs)
        except (Exception, SystemExit) as exc:
            return self.fail(exc, started)
        try:
            return self.finish(result, started, info)
        except Exception as exc:
            return self.fail(exc, started)


def sync_call(runner: ToolRunner) -> Callable[..., str]:
    """The wrapper of a sync tool: :meth:`ToolRunner.begin` and :meth:`ToolRunner.finish`
    inlined, since every call of every sync tool takes this path.

    The body names only its closure (the kit re-creates it with the handler's globals),
    so everything it uses is bound here.
    """
    plain_dict, text, is_instance = dict, str, isinstance
    caught = (Exception, SystemExit)
    misbehaving = Exception
    unencodable = (TypeError, ValueError, RecursionError)
    clock = perf_counter
    parse = parse_arguments
    encode = encode_success
    info_level = _INFO
    handler = runner.handler
    check = runner.check
    logger = runner.logger

    def sync_wrapper(raw: Any = None, /, **kwargs: Any) -> str:
        started = clock()
        try:
            if raw.__class__ is plain_dict:
                args: dict[str, Any] = raw
                rejection = None
            else:
                args, rejection = parse(raw)
            if check is not None and rejection is None:
                args, rejection = check(args)
            info = logger.isEnabledFor(info_level)  # off means DEBUG is off too
            if info:
                runner.invoked(raw, args, rejection, kwargs)
            if rejection is not None:
                return runner.reject(rejection, raw, started)
            result = handler(args, **kwargs)
        except caught as exc:
            return runner.fail(exc, started)
        try:
            if not info:
                if result.__class__ is text:
                    return result
                if not is_instance(result, text):
                    try:
                        return encode(result)
                    except unencodable as exc:
                        return runner.not_encodable(result, started, exc)
            return runner.finish(result, started, info)
        except misbehaving as exc:  # a str subclass or logging handler misbehaving
            return runner.fail(exc, started)

    return sync_wrapper
