"""Running a host operation inside hermes' own tool-call guard.

The order is the one ``model_tools.handle_function_call`` uses for a registered tool
(hermes 0.19.0, ``model_tools.py:1168-1330``):

1. ``hermes_cli.plugins.resolve_pre_tool_block`` fires ``pre_tool_call`` once. A
   ``block`` directive, or an ``approve`` directive whose human gate denies, times out
   or fails, returns the block message (``plugins.py:2228-2276``).
2. Blocked: the result is ``{"error": <message>}`` exactly as the host writes it, and
   ``post_tool_call`` is emitted with ``status="blocked"``,
   ``error_type="plugin_block"``. The operation never runs.
3. Otherwise the operation runs, timed, and ``post_tool_call`` is emitted with the
   host's observer fields: ``status`` ``"ok"`` or ``"error"`` (``error_type``
   ``"tool_error"`` when the result carries an error, ``"host_tool_error"`` when the
   operation raised). The payload keys are those of ``model_tools._emit_post_tool_call_hook``
   (``model_tools.py:974-1022``); the kit emits through the public ``has_hook`` /
   ``invoke_hook`` rather than that private helper.

Where hermes fails open the kit fails closed: no guard API means no call, and a guard
that raises blocks the call.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import Any, Final

from kit_core import redact_text
from kit_core.envelope import error_envelope
from kit_media._host import HostUnavailableError, guard_context, import_host

logger = logging.getLogger("kit_media.host")

GUARD_MISSING: Final = (
    "hermes' pre_tool_call guard (hermes_cli.plugins.resolve_pre_tool_block) is not"
    " available; the host call was refused rather than made unguarded: run inside"
    " hermes-agent 0.19.0 or newer"
)

Operation = Callable[[dict[str, Any]], Any]
"""The guarded host operation: gets the (guard-checked) args, returns the result."""


def refusal(message: str, code: str) -> str:
    """A kit-side refusal as a JSON string (the host never saw the call)."""
    return error_envelope(message, code)


def load_guard() -> tuple[Any, str | None]:
    """``(hermes_cli.plugins, None)``, or ``(None, refusal JSON)`` when it cannot guard."""
    try:
        plugins = import_host("hermes_cli.plugins")
    except HostUnavailableError as exc:
        return None, refusal(str(exc), "host_unavailable")
    if not callable(getattr(plugins, "resolve_pre_tool_block", None)):
        return None, refusal(GUARD_MISSING, "host_guard_unavailable")
    return plugins, None


def run_guarded(
    plugins: Any,
    tool_name: str,
    args: dict[str, Any],
    context: dict[str, Any],
    operation: Operation,
    secrets: tuple[str, ...] = (),
) -> str:
    """Run ``operation(args)`` as hermes would run tool ``tool_name``; never raises.

    ``plugins`` is what :func:`load_guard` returned. ``secrets`` are exact values to
    redact from an exception's text (a bot token).
    """
    ctx = guard_context(context)
    try:
        block = plugins.resolve_pre_tool_block(tool_name, args, **ctx)
    except Exception as exc:
        message = (
            f"hermes' pre_tool_call guard raised {type(exc).__name__}; {tool_name} was not"
            " run (kit-media fails closed)"
        )
        logger.warning(
            "event=host_tool_guard_failed tool=%s error_type=%s", tool_name, type(exc).__name__
        )
        result = refusal(message, "host_guard_failed")
        _emit_post(plugins, tool_name, args, result, ctx, 0, "blocked", "guard_error", message)
        return result
    if block is not None:
        message = str(block)
        result = json.dumps({"error": message}, ensure_ascii=False)
        logger.info("event=host_tool_blocked tool=%s", tool_name)
        _emit_post(plugins, tool_name, args, result, ctx, 0, "blocked", "plugin_block", message)
        return result

    started = time.monotonic()
    try:
        result = _as_json_text(operation(args))
        status, error_type, error_message = observe(result)
    except Exception as exc:
        detail = redact_text(f"{type(exc).__name__}: {exc}", secrets)
        error_message = f"{tool_name} host handler failed: {detail}"
        result = refusal(error_message, "host_tool_error")
        status, error_type = "error", "host_tool_error"
        logger.error("event=host_tool_failed tool=%s error_type=%s", tool_name, type(exc).__name__)
    duration_ms = int((time.monotonic() - started) * 1000)
    logger.info(
        "event=host_tool_completed tool=%s status=%s duration_ms=%d", tool_name, status, duration_ms
    )
    _emit_post(
        plugins, tool_name, args, result, ctx, duration_ms, status, error_type, error_message
    )
    return result


def observe(result: str) -> tuple[str, str | None, str | None]:
    """The host's ``post_tool_call`` status fields for a result string.

    Like ``model_tools._tool_result_observer_fields`` (``model_tools.py:962-971``), and
    a reply that says ``"success": false`` is an error too.
    """
    try:
        parsed = json.loads(result)
    except ValueError:
        return "ok", None, None
    if isinstance(parsed, dict):
        reply: dict[str, Any] = parsed  # pyright: ignore[reportUnknownVariableType]
        if reply.get("error"):
            return "error", "tool_error", str(reply["error"])
        if reply.get("success") is False:
            return "error", "tool_error", "the host reported success: false"
    return "ok", None, None


def _as_json_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _emit_post(
    plugins: Any,
    tool_name: str,
    args: dict[str, Any],
    result: str,
    ctx: dict[str, str],
    duration_ms: int,
    status: str,
    error_type: str | None,
    error_message: str | None,
) -> None:
    """Emit ``post_tool_call`` as the host does; a failure here never reaches the caller."""
    try:
        has_hook = getattr(plugins, "has_hook", None)
        if callable(has_hook) and not has_hook("post_tool_call"):
            return
        plugins.invoke_hook(
            "post_tool_call",
            tool_name=tool_name,
            args=args,
            result=result,
            **ctx,
            duration_ms=duration_ms,
            status=status,
            error_type=error_type,
            error_message=error_message,
            middleware_trace=[],
        )
    except Exception as exc:
        logger.warning(
            "event=post_tool_call_failed tool=%s error_type=%s", tool_name, type(exc).__name__
        )
