"""Hooks and middleware as hermes 0.19.0 runs them (``hermes_cli.plugins`` and
``hermes_cli.middleware``), over the in-memory host's tables."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any, Final, cast

from kit_core._host_signatures import parameters
from kit_core.hermes import CALL_IDENTITY_KEYS, HostRelease
from kit_devtools.testing import _upstream_hooks
from kit_devtools.testing._state import HostState, discard_coroutines
from kit_devtools.testing._upstream_hooks import name_of
from kit_devtools.testing.entries import RequestMiddlewareResult
from kit_devtools.testing.host_names import MIDDLEWARE_SCHEMA_VERSION, OBSERVER_SCHEMA_VERSION

_OBSERVED_KEYS = (
    "tool_name", "args", "result", *CALL_IDENTITY_KEYS, "duration_ms", "status", "error_type",
    "error_message", "telemetry_schema_version",
)  # fmt: skip
SENT_KEYWORDS: Final = {
    "pre_tool_call": frozenset(
        ("tool_name", "args", *CALL_IDENTITY_KEYS, "middleware_trace", "telemetry_schema_version")
    ),
    "post_tool_call": frozenset((*_OBSERVED_KEYS, "middleware_trace")),
    "transform_tool_result": frozenset(_OBSERVED_KEYS),
}
"""The keywords the host sends the tool-call hooks it fires (``pre_tool_call_details``
below and ``_pipeline._observed``, modelled on ``model_tools`` and
``hermes_cli.plugins``): a callback of a release that narrows keywords may require any of
these by name. The kit does not know every other hook's payload."""


def _call_each(
    state: HostState, entries: Sequence[Any], surface: str, name: str, kwargs: dict[str, Any]
) -> list[Any]:
    """Call every entry in registration order; keep non-None results; log and skip raises."""
    label = "Hook" if surface == "hook_call" else "Middleware"
    results: list[Any] = []
    for entry in list(entries):
        try:
            result = entry.callback(**kwargs)
        except Exception as exc:
            message = f"{label} '{name}' callback {name_of(entry.callback)} raised: {exc}"
            state.record("WARNING", entry.plugin, surface, name, message, exc)
            continue
        if result is not None:
            results.append(result)
    return results


HANDLE_FUNCTION_CALL: Final = "model_tools.handle_function_call"


def context_keys(release: HostRelease) -> tuple[str, ...]:
    """The call context the release's tool pipeline takes and hands its hooks: the
    :data:`~kit_core.hermes.CALL_IDENTITY_KEYS` its ``handle_function_call`` names
    (``turn_id`` and ``api_request_id`` from 0.16.0; 0.15.2 passes ``task_id``,
    ``session_id`` and ``tool_call_id`` only); all of them where the model holds no
    signature."""
    signature = release.functions.get(HANDLE_FUNCTION_CALL)
    if signature is None:
        return CALL_IDENTITY_KEYS
    _, known, _, takes_any = parameters(signature)
    return tuple(k for k in CALL_IDENTITY_KEYS if takes_any or k in known)


def trace_keyword(state: HostState, trace: Sequence[Any] | None) -> dict[str, Any]:
    """``{"middleware_trace": [...]}`` for the tool-call hooks of a release with
    middleware (the keyword arrived with it, 0.17.0); ``{}`` before."""
    return {"middleware_trace": list(trace or [])} if state.release.middleware else {}


def invoke_hook(state: HostState, hook_name: str, **kwargs: Any) -> list[Any]:
    """Every callback in registration order; non-None results; exceptions logged. On a
    release that passes a callback only the keywords it declares (``narrows_hook_kwargs``,
    0.20.1 on), as upstream dispatches them (:mod:`kit_devtools.testing._upstream_hooks`:
    narrowed, and awaited, bounded and fail-closed where the release is); before, every
    keyword goes to every callback (0.19.0 ``invoke_hook``, ``callback(**kwargs)``)."""
    if state.release.narrows_hook_kwargs:
        entries = state.hooks.get(hook_name, [])
        return _upstream_hooks.invoke_hook(state, hook_name, entries, **kwargs)
    observer = state.release.observer_schema_version
    if observer:  # added from 0.16.0; before, no such keyword
        kwargs.setdefault("telemetry_schema_version", observer)
    return _call_each(state, state.hooks.get(hook_name, []), "hook_call", hook_name, kwargs)


def invoke_middleware(state: HostState, kind: str, **kwargs: Any) -> list[Any]:
    """``PluginManager.invoke_middleware`` with the two schema-version keywords added."""
    kwargs.setdefault("telemetry_schema_version", OBSERVER_SCHEMA_VERSION)
    kwargs.setdefault("middleware_schema_version", MIDDLEWARE_SCHEMA_VERSION)
    return _call_each(state, state.middleware.get(kind, []), "middleware_call", kind, kwargs)


def _safe_copy(payload: Any) -> Any:
    try:
        return copy.deepcopy(payload)
    except Exception:
        if isinstance(payload, dict):
            return dict(cast("dict[str, Any]", payload))
        return payload


def _trace_entry(result: dict[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    for key in ("source", "reason", "name"):
        value = result.get(key)
        if isinstance(value, str) and value:
            entry[key] = value
    if not entry:
        entry["source"] = "plugin"
    return entry


def apply_request_middleware(
    state: HostState, kind: str, key: str, payload: Any, **context: Any
) -> RequestMiddlewareResult:
    """The rewrite pass of ``tool_request`` (key ``args``) or ``llm_request`` (``request``):
    every callback sees the same copy; each ``{key: dict}`` result replaces the payload."""
    if not state.middleware.get(kind):
        return RequestMiddlewareResult(payload, payload, changed=False, trace=[])
    original = _safe_copy(payload)
    current = _safe_copy(original)
    trace: list[dict[str, Any]] = []
    results = invoke_middleware(
        state, kind, **{key: current, f"original_{key}": original}, **context
    )
    for result in results:
        if not isinstance(result, dict):
            continue
        found = cast("dict[str, Any]", result)
        replacement = found.get(key)
        if not isinstance(replacement, dict):
            continue
        current = _safe_copy(replacement)
        trace.append(_trace_entry(found))
    discard_coroutines(results)
    return RequestMiddlewareResult(current, original, changed=bool(trace), trace=trace)


class _DownstreamError(Exception):
    def __init__(self, original: Exception) -> None:
        super().__init__(str(original))
        self.original = original


def run_execution_chain(
    state: HostState,
    kind: str,
    terminal_call: Callable[[Any], Any],
    **kwargs: Any,
) -> Any:
    """The onion of ``tool_execution`` / ``llm_execution`` middleware around ``terminal_call``.

    First registered is outermost; ``next_call`` is single-use; a callback that raises
    before calling it is skipped; downstream exceptions propagate unchanged.
    """
    entries = list(state.middleware.get(kind, []))
    payload_key = "request" if "request" in kwargs else "args"
    if not entries:
        return terminal_call(kwargs[payload_key])
    kwargs.setdefault("telemetry_schema_version", OBSERVER_SCHEMA_VERSION)
    kwargs.setdefault("middleware_schema_version", MIDDLEWARE_SCHEMA_VERSION)

    def call_at(index: int, payload: Any) -> Any:
        if index >= len(entries):
            return terminal_call(payload)
        entry = entries[index]
        called = succeeded = False
        downstream: Any = None

        def next_call(next_payload: Any = None) -> Any:
            nonlocal called, succeeded, downstream
            if called:
                msg = (
                    f"Middleware '{kind}' callback {name_of(entry.callback)} called "
                    "next_call() more than once; downstream execution is single-use"
                )
                raise RuntimeError(msg)
            called = True
            try:
                downstream = call_at(index + 1, payload if next_payload is None else next_payload)
            except Exception as exc:
                raise _DownstreamError(exc) from exc
            succeeded = True
            return downstream

        try:
            return entry.callback(**{**kwargs, payload_key: payload, "next_call": next_call})
        except _DownstreamError as exc:
            raise exc.original  # noqa: B904 - the downstream exception, unchanged
        except Exception as exc:
            message = f"Middleware '{kind}' callback {name_of(entry.callback)} raised: {exc}"
            state.record("WARNING", entry.plugin, "middleware_call", kind, message, exc)
            if succeeded:
                return downstream
            if called:
                raise
            return call_at(index + 1, payload)

    return call_at(0, kwargs[payload_key])


def pre_tool_call_details(
    state: HostState, tool_name: str, args: Any, **context: Any
) -> tuple[str | None, str | None, str | None, dict[str, Any] | None]:
    """``(action, message, rule_key, modified_args)`` from the ``pre_tool_call`` results.

    The first valid ``block`` (with a message) or ``approve`` wins. On a release with the
    ``modify`` directive, each ``{"action": "modify", "args": {...}}`` before it is
    shallow-merged over the call's arguments, later hooks winning per key (upstream's
    ``_get_pre_tool_call_directive_details``); elsewhere it is ignored, as hermes-agent
    0.19.0 ignores any other action.
    """
    call_args: dict[str, Any] = cast("dict[str, Any]", args) if isinstance(args, dict) else {}
    results = invoke_hook(
        state,
        "pre_tool_call",
        tool_name=tool_name,
        args=call_args,
        **{key: context.get(key, "") for key in context_keys(state.release)},
        **trace_keyword(state, context.get("middleware_trace")),
    )
    modified: dict[str, Any] | None = None
    try:
        for result in results:
            if not isinstance(result, dict):
                continue
            found = cast("dict[str, Any]", result)
            action = found.get("action")
            if action == "modify" and state.release.modify_directive:
                partial = found.get("args")
                if isinstance(partial, dict) and partial:
                    base = modified if modified is not None else call_args
                    modified = {**base, **cast("dict[str, Any]", partial)}
                continue
            if action not in ("block", "approve"):
                continue
            message = found.get("message")
            message = message if isinstance(message, str) and message else None
            if action == "block" and not message:
                continue
            rule_key = found.get("rule_key") if action == "approve" else None
            rule_key = rule_key.strip() if isinstance(rule_key, str) else None
            return cast("str", action), message, rule_key or None, modified
        return None, None, None, modified
    finally:
        discard_coroutines(results)


def pre_tool_call_directive(
    state: HostState, tool_name: str, args: Any, **context: Any
) -> tuple[str | None, str | None, str | None]:
    """``(action, message, rule_key)`` from the first valid ``pre_tool_call`` result."""
    return pre_tool_call_details(state, tool_name, args, **context)[:3]


def resolve_pre_tool_block(state: HostState, tool_name: str, args: Any, **context: Any) -> Any:
    """The block message, or None (upstream's ``resolve_pre_tool_block`` drops ``modify``)."""
    return dispatch_pre_tool_call(state, tool_name, args, **context)[0]


def dispatch_pre_tool_call(
    state: HostState, tool_name: str, args: Any, **context: Any
) -> tuple[str | None, dict[str, Any] | None]:
    """``(block_message, modified_args)``: upstream's ``_dispatch_pre_tool_call_hooks``;
    ``modified_args`` is None unless the release has the ``modify`` directive and a hook
    used it.

    ``approve`` fails closed: no human answers here. hermes asks its approval gate, which
    in a process with no interactive user, gateway or cron session blocks with the message
    below (hermes-agent 0.19.0).
    """
    action, message, _rule_key, modified = pre_tool_call_details(state, tool_name, args, **context)
    if action == "block":
        return message, modified
    if action == "approve":
        description = message or f"Plugin requires approval for {tool_name}"
        block = (
            f"BLOCKED: Tool '{tool_name}' requires approval ({description}) "
            "but no interactive user or gateway is present to approve it. "
            "A plugin flagged this action for human confirmation."
        )
        return block, modified
    return None, modified
