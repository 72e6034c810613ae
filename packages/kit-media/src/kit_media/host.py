"""``invoke_host_tool``: call a host capability that is not a registered tool, guarded.

hermes 0.19.0 deliberately keeps ``send_message`` out of the tool registry (the end of
``tools.send_message_tool``), so ``ctx.dispatch_tool("send_message")``
answers "Unknown tool", and calling the handler directly would skip every
``pre_tool_call`` policy. ``invoke_host_tool`` resolves the host's own handler and runs
it inside the host's guard (see :mod:`kit_media._guard` for the exact sequence).

It always returns a JSON string and never raises:

=================================  =====================================================
outcome                            result
=================================  =====================================================
the handler ran                    the handler's own reply, unchanged (``send_message``:
                                   ``{"success": true, ...}`` or ``{"error": ...}``)
a ``pre_tool_call`` hook blocked   ``{"error": "<block message>"}`` (the host's shape);
                                   the handler did not run
unknown tool name                  ``{"success": false, "error": "unsupported host tool
                                   …", "error_code": "unsupported_host_tool"}``
``args`` not a dict                ``… "error_code": "invalid_argument"``
hermes not importable              ``… "error_code": "host_unavailable"``
no guard API in the host           ``… "error_code": "host_guard_unavailable"``
the guard raised                   ``… "error_code": "host_guard_failed"`` (not run)
the handler raised                 ``… "error_code": "host_tool_error"`` (redacted text)
=================================  =====================================================
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Final, cast

from kit_core import redact_text
from kit_core.envelope import error_envelope as refusal
from kit_media._guard import load_guard, run_guarded
from kit_media._host import HostUnavailableError, guard_context, host_missing, import_host

__all__ = ["SUPPORTED_HOST_TOOLS", "invoke_host_tool"]

logger = logging.getLogger("kit_media.host")

SUPPORTED_HOST_TOOLS: Final[Mapping[str, tuple[str, str]]] = {
    "send_message": ("tools.send_message_tool", "send_message_tool"),
}
"""Host capability name -> (module, handler) in hermes-agent."""


def invoke_host_tool(name: str, args: Mapping[str, Any] | None = None, **context: Any) -> str:
    """Run host capability ``name`` through hermes' pre/post tool-call guard.

    Args:
        name: a supported host capability (``send_message``).
        args: the capability's arguments (copied; ``None`` means none).
        **context: the call's identity as hermes passes it to tools and hooks:
            ``task_id``, ``session_id``, ``tool_call_id``, ``turn_id``,
            ``api_request_id`` (other keys are ignored).

    Returns:
        A JSON string (see the module docstring); never raises.
    """
    try:
        return _invoke(name, args, context)
    except Exception as exc:  # the contract is "never raises"; this is a kit bug
        logger.error("event=host_tool_failed tool=%s error_type=%s", name, type(exc).__name__)
        detail = redact_text(f"{type(exc).__name__}: {exc}")
        return refusal(f"invoke_host_tool failed unexpectedly: {detail}", "host_tool_error")


def _invoke(name: object, args: object, context: dict[str, Any]) -> str:
    supported = ", ".join(sorted(SUPPORTED_HOST_TOOLS))
    if not isinstance(name, str) or name not in SUPPORTED_HOST_TOOLS:
        shown = name if isinstance(name, str) else type(name).__name__
        return refusal(
            f"unsupported host tool {shown!r}; supported: {supported}", "unsupported_host_tool"
        )
    if args is None:
        payload: dict[str, Any] = {}
    elif isinstance(args, Mapping):
        payload = dict(cast("Mapping[str, Any]", args))
    else:
        return refusal(
            f"host tool args must be a dict, got {type(args).__name__}", "invalid_argument"
        )
    module_name, attribute = SUPPORTED_HOST_TOOLS[name]
    try:
        handler = getattr(import_host(module_name), attribute, None)
    except HostUnavailableError as exc:
        return refusal(str(exc), "host_unavailable")
    if not callable(handler):
        return refusal(
            f"{host_missing()} ({module_name} has no callable {attribute})", "host_unavailable"
        )
    guard, refused = load_guard()
    if guard is None:
        logger.warning("event=host_tool_refused tool=%s reason=no_guard", name)
        return refused or refusal("hermes' guard could not be loaded", "host_guard_unavailable")
    kwargs = guard_context(context)
    return run_guarded(guard, name, payload, context, lambda a: handler(a, **kwargs))
