"""Running a host operation inside the running hermes' own tool-call guard.

The kit does what the running release's ``model_tools.handle_function_call`` does for a
registered tool, with the helpers that release offers; it asks the host what it has (a
function's presence and its signature), never its version number:

1. **pre_tool_call.** ``hermes_cli.plugins.resolve_pre_tool_block`` where it exists (it
   fires ``pre_tool_call`` once, and an ``approve`` directive whose human gate denies,
   times out or fails is a block: from 0.18.1, called from
   ``model_tools.handle_function_call``). Older releases call
   ``hermes_cli.plugins.get_pre_tool_call_block_message`` instead, whose keyword parameters grew
   over time (``task_id``, ``session_id``, ``tool_call_id`` in 0.13.0; ``turn_id``,
   ``api_request_id`` from 0.16.0): the kit passes only those the function's signature accepts.
2. **Blocked:** the result is ``{"error": <message>}`` exactly as the host writes it, and
   the operation never runs. Where the release's pipeline reports a block to
   ``post_tool_call`` (through ``model_tools._emit_post_tool_call_hook`` with
   ``status="blocked"``, ``error_type="plugin_block"``: from 0.16.0), so does the kit;
   older releases return without it, and so does the kit.
3. **Otherwise** the operation runs, timed, and ``post_tool_call`` is emitted as that
   release emits it: through its ``_emit_post_tool_call_hook``, with the observer fields
   the helper's signature takes (``status`` ``"ok"`` or ``"error"``, ``error_type``
   ``"tool_error"`` when the result carries an error, ``"host_tool_error"`` when the
   operation raised); or, on a release without that helper, with the payload its
   ``handle_function_call`` builds inline (``tool_name``, ``args``, ``result``,
   ``task_id``, ``session_id``, ``tool_call_id``, ``duration_ms``: 0.13.0 to 0.15.2).

**modify.** Upstream hermes (PR #87482) lets a ``pre_tool_call`` callback return
``{"action": "modify", "args": {...}}``: ``_get_pre_tool_call_directive_details``
shallow-merges each such dict over the original args (later hooks win per key; an empty
or non-dict ``args`` is ignored; modify survives a later block), and
``_dispatch_pre_tool_call_hooks`` fires the hook once and returns ``(block_message,
modified_args)`` (upstream ``hermes_cli.plugins``; its public ``resolve_pre_tool_block``
returns only ``[0]`` of it, dropping the args). hermes' own pipeline then runs the tool
with the modified args (``model_tools._pre_dispatch_guards``: ``if modified_args is not
None: function_args = modified_args``; ``agent.agent_runtime_helpers`` does the same).
Where the
running hermes has ``_dispatch_pre_tool_call_hooks`` (asked by its presence), the kit
calls it instead of ``resolve_pre_tool_block`` and does the same: the operation runs
with, and ``post_tool_call`` reports, the modified args.

Where hermes fails open the kit fails closed: no guard function means no call, and a
guard that raises blocks the call.
"""

from __future__ import annotations

import inspect
import json
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any, Final, cast

from kit_core import redact_text
from kit_core._annotations import signature_of
from kit_core._running_host import loaded
from kit_core.envelope import error_envelope as refusal  # the host never saw the call
from kit_core.hermes import first_release
from kit_media._host import HostUnavailableError, guard_context, import_host

logger = logging.getLogger("kit_media.host")

DISPATCH_FUNCTION: Final = "_dispatch_pre_tool_call_hooks"
"""Upstream's one ``pre_tool_call`` pass returning ``(block_message, modified_args)``
(private, so looked up by presence and used only when it is there)."""

GUARD_FUNCTIONS: Final = ("resolve_pre_tool_block", "get_pre_tool_call_block_message")
"""``hermes_cli.plugins`` public functions that run the ``pre_tool_call`` guard, newest
first (used where :data:`DISPATCH_FUNCTION` is absent)."""

LEGACY_POST_KEYS: Final = ("task_id", "session_id", "tool_call_id")
"""Call identity in the ``post_tool_call`` payload of a release without
``_emit_post_tool_call_hook`` (0.13.0 to 0.15.2)."""

Operation = Callable[[dict[str, Any]], Any]
"""The guarded host operation: gets the (guard-checked) args, returns the result."""


def guard_missing_message() -> str:
    """Why the kit refuses a host call on a hermes without a guard function, naming the
    first release whose plugins have a ``pre_tool_call`` hook (from the host model)."""
    first = first_release(lambda release: "pre_tool_call" in release.hooks)
    where = f"run inside {first.label} or newer" if first else "upgrade hermes-agent"
    names = " or ".join(f"hermes_cli.plugins.{name}" for name in GUARD_FUNCTIONS)
    return (
        f"hermes' pre_tool_call guard ({names}) is not available; the host call was"
        f" refused rather than made unguarded: {where}"
    )


class HostGuard:
    """The running host's guard: its pre-call check and its ``post_tool_call`` emitter.

    ``post_tool_call`` goes out the way the running release's pipeline sends it:

    * through ``model_tools._emit_post_tool_call_hook`` when the host's ``model_tools``
      is loaded and has it (0.16.0 and newer), with the keywords its signature takes;
    * otherwise, on a host whose ``hermes_cli.plugins`` has ``has_hook`` (which that
      helper is gated on), with the same observer
      fields through ``has_hook`` / ``invoke_hook`` (a host of someone's own making: every
      release with ``has_hook`` has the helper, and the in-memory host plays both);
    * otherwise with the payload a release without either builds inline, and never
      for a blocked call.
    """

    __slots__ = (
        "_check",
        "_check_keys",
        "_emit",
        "_emit_keys",
        "_has_hook",
        "_plugins",
        "_returns_args",
    )

    def __init__(
        self, plugins: Any, check: Callable[..., Any], emit: Any, *, returns_args: bool = False
    ) -> None:
        self._plugins = plugins
        self._check = check
        self._returns_args = returns_args
        self._check_keys = accepted_keywords(check)
        self._emit = emit if callable(emit) else None
        self._emit_keys = accepted_keywords(emit) if callable(emit) else None
        has_hook = getattr(plugins, "has_hook", None)
        self._has_hook: Callable[[str], Any] | None = has_hook if callable(has_hook) else None

    @property
    def reports_blocks(self) -> bool:
        """Whether this host tells ``post_tool_call`` about a blocked call."""
        return self._emit is not None or self._has_hook is not None

    def check(
        self, tool_name: str, args: dict[str, Any], ctx: Mapping[str, str]
    ) -> tuple[Any, dict[str, Any] | None]:
        """``(block message, modified args)``: ``None`` as the message lets the call
        proceed, ``None`` as the args keeps the caller's; may raise."""
        answer = self._check(tool_name, dict(args), **_only(ctx, self._check_keys))
        if not self._returns_args:
            return answer, None
        block, modified = answer  # the dispatcher's (block_message, modified_args)
        if isinstance(modified, dict):
            return block, dict(cast("dict[str, Any]", modified))
        return block, None

    def emit_post(
        self,
        tool_name: str,
        args: dict[str, Any],
        result: str,
        ctx: Mapping[str, str],
        fields: Mapping[str, Any],
    ) -> None:
        """Emit ``post_tool_call`` as this host does; a failure never reaches the caller."""
        payload: dict[str, Any] = {**ctx, **fields}
        try:
            if self._emit is not None:
                self._emit(
                    function_name=tool_name,
                    function_args=args,
                    result=result,
                    **_only(payload, self._emit_keys),
                )
                return
            if self._has_hook is None:  # the payload a release without either builds inline
                payload = {key: ctx.get(key, "") for key in LEGACY_POST_KEYS}
                payload["duration_ms"] = fields.get("duration_ms", 0)
            elif self._has_hook("post_tool_call"):
                payload["middleware_trace"] = []
            else:
                return
            self._plugins.invoke_hook(
                "post_tool_call", tool_name=tool_name, args=args, result=result, **payload
            )
        except Exception as exc:
            logger.warning(
                "event=post_tool_call_failed tool=%s error_type=%s", tool_name, type(exc).__name__
            )


def accepted_keywords(function: Any) -> frozenset[str] | None:
    """The keyword names ``function`` takes (``None``: any, or its signature is unreadable)."""
    try:
        parameters = signature_of(function).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return None
    return frozenset(
        p.name
        for p in parameters
        if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    )


def _only(values: Mapping[str, Any], keys: frozenset[str] | None) -> dict[str, Any]:
    return dict(values) if keys is None else {k: v for k, v in values.items() if k in keys}


def load_guard() -> tuple[HostGuard | None, str | None]:
    """``(guard, None)``, or ``(None, refusal JSON)`` when the host cannot guard a call."""
    try:
        plugins = import_host("hermes_cli.plugins")
    except HostUnavailableError as exc:
        return None, refusal(str(exc), "host_unavailable")
    dispatch = getattr(plugins, DISPATCH_FUNCTION, None)
    check = (
        dispatch
        if callable(dispatch)
        else next(
            (f for name in GUARD_FUNCTIONS if callable(f := getattr(plugins, name, None))), None
        )
    )
    if check is None or not callable(getattr(plugins, "invoke_hook", None)):
        return None, refusal(guard_missing_message(), "host_guard_unavailable")
    # the host's tool pipeline is loaded wherever hermes runs a plugin (model_tools
    # discovers the plugins); it is looked up, never imported, so that asking for the
    # guard never boots hermes' tool discovery
    emit = loaded("model_tools", "_emit_post_tool_call_hook")
    return HostGuard(plugins, check, emit, returns_args=check is dispatch), None


def run_guarded(
    guard: HostGuard,
    tool_name: str,
    args: dict[str, Any],
    context: dict[str, Any],
    operation: Operation,
    secrets: tuple[str, ...] = (),
) -> str:
    """Run ``operation(args)`` as hermes would run tool ``tool_name``; never raises.

    ``guard`` is what :func:`load_guard` returned. ``secrets`` are exact values to
    redact from an exception's text (a bot token).
    """
    ctx = guard_context(context)
    try:
        block, modified = guard.check(tool_name, args, ctx)
    except Exception as exc:
        message = (
            f"hermes' pre_tool_call guard raised {type(exc).__name__}; {tool_name} was not"
            " run (kit-media fails closed)"
        )
        logger.warning(
            "event=host_tool_guard_failed tool=%s error_type=%s", tool_name, type(exc).__name__
        )
        result = refusal(message, "host_guard_failed")
        _report_block(guard, tool_name, args, result, ctx, "guard_error", message)
        return result
    if modified is not None:
        logger.info("event=host_tool_args_modified tool=%s", tool_name)
        args = modified
    if block is not None:
        message = str(block)
        result = json.dumps({"error": message}, ensure_ascii=False)
        logger.info("event=host_tool_blocked tool=%s", tool_name)
        _report_block(guard, tool_name, args, result, ctx, "plugin_block", message)
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
    fields = {
        "duration_ms": duration_ms,
        "status": status,
        "error_type": error_type,
        "error_message": error_message,
    }
    guard.emit_post(tool_name, args, result, ctx, fields)
    return result


def _report_block(
    guard: HostGuard,
    tool_name: str,
    args: dict[str, Any],
    result: str,
    ctx: Mapping[str, str],
    error_type: str,
    message: str,
) -> None:
    if guard.reports_blocks:
        fields = {"status": "blocked", "error_type": error_type, "error_message": message}
        guard.emit_post(tool_name, args, result, ctx, {"duration_ms": 0, **fields})


def observe(result: str) -> tuple[str, str | None, str | None]:
    """The host's ``post_tool_call`` status fields for a result string.

    Like ``model_tools._tool_result_observer_fields``, and a reply that says ``"success": false`` is
    an error too."""
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
