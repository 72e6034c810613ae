"""One tool call as hermes 0.19.0 runs it: ``tools.registry.ToolRegistry.dispatch`` and
``model_tools.handle_function_call``, over the host's tables.

On the upstream profile the ``pre_tool_call`` decision is upstream's: a guard that raises
or times out blocks (:mod:`kit_devtools.testing._upstream_hooks`), and a ``modify``
directive replaces the arguments the rest of the call sees (:func:`dispatch_pre_tool_call`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import inspect
import json
import re
import time
from typing import Any, Final

from kit_core import content
from kit_core.hermes import CALL_IDENTITY_KEYS, HostRelease, first_release
from kit_devtools.testing._coerce import as_dict, coerce_tool_args
from kit_devtools.testing._hooks import (
    HANDLE_FUNCTION_CALL,
    apply_request_middleware,
    context_keys,
    dispatch_pre_tool_call,
    invoke_hook,
    run_execution_chain,
    trace_keyword,
)
from kit_devtools.testing._state import HostState, discard_coroutines
from kit_devtools.testing.host_names import AGENT_LOOP_TOOLS, BUILTIN_TOOLS, TOOL_SEARCH_TOOLS

EMITTER = "model_tools._emit_post_tool_call_hook"

ASYNC_TIMEOUT_SECONDS = 300
"""How long hermes waits for an async handler when a loop is already running."""

_ROLE_TAG = re.compile(
    r"</?(?:tool_call|function_call|result|response|output|input|system|assistant|user)>",
    re.IGNORECASE,
)
_FENCE_OPEN = re.compile(r"^\s*```(?:json|xml|html|markdown)?\s*", re.MULTILINE)
_FENCE_CLOSE = re.compile(r"\s*```\s*$", re.MULTILINE)
_CDATA = re.compile(r"<!\[CDATA\[.*?\]\]>", re.DOTALL)
_ERROR_MAX = 2000


def sanitize_tool_error(message: str) -> str:
    """``model_tools._sanitize_tool_error``: framing tokens out, capped, tagged."""
    if not message:
        return "[TOOL_ERROR] "
    text = _CDATA.sub("", _FENCE_CLOSE.sub("", _FENCE_OPEN.sub("", _ROLE_TAG.sub("", message))))
    if len(text) > _ERROR_MAX:
        text = text[: _ERROR_MAX - 3] + "..."
    return f"[TOOL_ERROR] {text}"


def observer_fields(result: Any) -> tuple[str, str | None, str | None]:
    """``(status, error_type, error_message)`` as hooks see a result."""
    try:
        found = as_dict(json.loads(result) if isinstance(result, str) else result)
        if found is not None and found.get("error"):
            return "error", "tool_error", str(found.get("error"))
    except Exception:
        pass
    return "ok", None, None


def run_async(awaitable: Any) -> Any:
    """Run an async handler's coroutine to completion, as ``model_tools._run_async`` does.

    No running loop: on a fresh loop in this thread. Inside a running loop: on a worker
    thread with this context copied, for at most five minutes.
    """
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is None or not running.is_running():
        return _run_on_new_loop(awaitable)
    context = contextvars.copy_context()
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    try:
        future = pool.submit(context.run, _run_on_new_loop, awaitable)
        return future.result(timeout=ASYNC_TIMEOUT_SECONDS)
    finally:
        pool.shutdown(wait=False)


def _run_on_new_loop(awaitable: Any) -> Any:
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(awaitable)
    finally:
        try:
            pending = asyncio.all_tasks(loop)
            for task in pending:
                task.cancel()
            if pending:
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            loop.close()


MULTIMODAL_KEY: Final = content.MULTIMODAL_KEY
"""The key of hermes' multimodal envelope, ``{"_multimodal": True, "content": [...]}``."""


def multimodal(result: Any) -> dict[str, Any] | None:
    """``result`` as hermes' multimodal envelope, the one result besides a ``str`` that
    its result contract takes; None when it is none."""
    found = as_dict(result)
    if found is None or found.get(MULTIMODAL_KEY) is not True:
        return None
    return found if isinstance(found.get("content"), list) else None


def normalize_result(state: HostState, plugin: str, name: str, result: Any) -> Any:
    """A ``str``, a multimodal envelope, or hermes' ``tool_result_contract`` error."""
    if isinstance(result, str):
        return result
    found = multimodal(result)
    if found is not None:
        return found
    kind = type(result).__name__
    message = f"Tool {name} handler returned unsupported result type: {kind}"
    state.record("ERROR", plugin, "tool_call", name, message)
    discard_coroutines([result])
    return json.dumps(
        {
            "error": f"Tool handler returned unsupported result type: {kind}",
            "error_type": "tool_result_contract",
            "tool": name,
            "result_type": kind,
        },
        ensure_ascii=False,
    )


def _kwargs_accepted_by(handler: Any, kwargs: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` narrowed to the keywords ``handler`` names; all of them where it takes
    ``**kwargs`` or has no signature (0.21.5 on: ``tools/registry.py``
    ``_kwargs_accepted_by``, called by ``registry.dispatch``)."""
    try:
        parameters = inspect.signature(handler).parameters
    except (TypeError, ValueError):
        return kwargs
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return kwargs
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return {k: v for k, v in kwargs.items() if k in parameters and parameters[k].kind in named}


def dispatch(state: HostState, name: str, args: Any, **kwargs: Any) -> Any:
    """``registry.dispatch``: the handler alone, errors as hermes formats them."""
    entry = state.tools.get(name)
    if entry is None:
        if name in BUILTIN_TOOLS:
            message = (
                f"{name} is a built-in hermes tool (toolset {BUILTIN_TOOLS[name]!r});"
                " the in-memory host does not run built-in tools"
            )
            return json.dumps({"error": message})
        return json.dumps({"error": f"Unknown tool: {name}"})
    try:
        if state.release.narrows_handler_kwargs:
            kwargs = _kwargs_accepted_by(entry.handler, kwargs)
        if entry.is_async:
            result = run_async(entry.handler(args, **kwargs))
        else:
            result = entry.handler(args, **kwargs)
        return normalize_result(state, entry.plugin, name, result)
    except Exception as exc:
        message = f"Tool {name} dispatch error: {exc}"
        state.record("ERROR", entry.plugin, "tool_call", name, message, exc)
        raw = f"Tool execution failed: {type(exc).__name__}: {exc}"
        return json.dumps({"error": sanitize_tool_error(raw)})


def _observed(
    state: HostState,
    name: str,
    args: Any,
    result: Any,
    context: dict[str, Any],
    duration_ms: int,
    status: tuple[str, str | None, str | None] | None,
) -> dict[str, Any]:
    """The keywords hermes passes both result observers (``post_tool_call`` and
    ``transform_tool_result``), in its order: the release's call context and, from 0.16.0
    (:func:`reports_status`), the outcome fields."""
    observed: dict[str, Any] = {
        "tool_name": name,
        "args": args,
        "result": result,
        **{key: context.get(key) or "" for key in context_keys(state.release)},
        "duration_ms": duration_ms,
    }
    if reports_status(state.release):
        status_, error_type, error_message = status or observer_fields(result)
        observed.update(status=status_, error_type=error_type, error_message=error_message)
    return observed


def _unexpected_keyword(release: HostRelease, key: str) -> str:
    first = first_release(lambda r: key in context_keys(r))
    since = f"; it takes it from {first.label}" if first is not None else ""
    return (
        f"handle_function_call() got an unexpected keyword argument {key!r}"
        f" ({release.label}'s {HANDLE_FUNCTION_CALL} takes no {key}{since})"
    )


def reports_status(release: HostRelease) -> bool:
    """Whether the release's observers hear how a call ended (``status``, ``error_type``,
    ``error_message``) and hear of a blocked call at all: with
    ``model_tools._emit_post_tool_call_hook`` (0.16.0 on). Before, a blocked call returns
    at once (0.15.2 ``model_tools.handle_function_call``)."""
    return EMITTER in release.functions


def emit_post_tool_call(
    state: HostState,
    name: str,
    args: Any,
    result: Any,
    context: dict[str, Any],
    trace: list[dict[str, Any]],
    duration_ms: int = 0,
    status: tuple[str, str | None, str | None] | None = None,
) -> None:
    """``post_tool_call`` as the release emits it (``model_tools._emit_post_tool_call_hook``
    from 0.16.0): nothing without a listener; a failing observer never breaks the call."""
    if not state.has_hook("post_tool_call"):
        return
    try:
        observed = _observed(state, name, args, result, context, duration_ms, status)
        results = invoke_hook(state, "post_tool_call", **observed, **trace_keyword(state, trace))
    except Exception:  # hermes logs at DEBUG; an observer never breaks the call
        return
    discard_coroutines(results)


def handle_function_call(
    state: HostState,
    name: str,
    args: Any,
    *,
    context: dict[str, Any],
    user_task: str | None,
) -> Any:
    """The full pipeline: coercion, request middleware, agent-loop names, the
    ``pre_tool_call`` decision, execution middleware around dispatch, ``post_tool_call``,
    ``transform_tool_result``; unexpected errors as ``Error executing <name>: ...``.

    ``context``: ``task_id, session_id, tool_call_id, turn_id, api_request_id`` (may be None).
    One the release's ``handle_function_call`` does not take is a TypeError, as there.
    """
    taken = context_keys(state.release)
    unknown = [k for k in CALL_IDENTITY_KEYS if context.get(k) is not None and k not in taken]
    if unknown:
        raise TypeError(_unexpected_keyword(state.release, unknown[0]))
    entry = state.tools.get(name)
    args = coerce_tool_args(entry.schema if entry else None, args)
    if state.release.empties_non_dict_args and as_dict(args) is None:
        args = {}  # model_tools.handle_function_call, 0.16.0 on
    if name in TOOL_SEARCH_TOOLS:
        message = (
            f"{name} is answered by hermes' Tool Search bridge, which the in-memory host"
            " does not simulate"
        )
        return json.dumps({"error": message}, ensure_ascii=False)
    strings = {key: context.get(key) or "" for key in context_keys(state.release)}
    trace: list[dict[str, Any]] = []
    given = as_dict(args)
    original: Any = dict(given) if given is not None else args
    try:
        rewritten = apply_request_middleware(
            state, "tool_request", "args", args, tool_name=name, **strings
        )
        args, original, trace = rewritten.payload, rewritten.original_payload, rewritten.trace
    except Exception:  # hermes logs at DEBUG and goes on with the arguments it had
        pass
    try:
        if name in AGENT_LOOP_TOOLS:
            return json.dumps({"error": f"{name} must be handled by the agent loop"})
        try:
            block, modified = dispatch_pre_tool_call(
                state, name, args, **strings, middleware_trace=trace
            )
        except Exception:
            block, modified = None, None
        if modified is not None:
            # upstream applies a pre_tool_call "modify" directive to the call (PR #87482:
            # ``model_tools.handle_function_call`` -> ``model_tools._pre_dispatch_guards``
            # substitutes the args ``hermes_cli.plugins._dispatch_pre_tool_call_hooks``
            # returns)
            args = modified
        if block is not None:
            result = json.dumps({"error": block}, ensure_ascii=False)
            if reports_status(state.release):
                blocked = ("blocked", "plugin_block", block)
                emit_post_tool_call(state, name, args, result, context, trace, 0, blocked)
            return result
        started = time.monotonic()
        extra: dict[str, Any] = (
            {"enabled_tools": None} if name == "execute_code" else {"user_task": user_task}
        )

        # the call context the release's dispatch passes on (tool_keywords: session_id
        # from 0.17.0); execute_code's enabled_tools always
        passed = {"task_id": context.get("task_id"), "session_id": context.get("session_id")}
        passed = {k: v for k, v in passed.items() if k in state.release.tool_keywords}

        def terminal(next_args: Any) -> Any:
            return dispatch(state, name, next_args, **passed, **extra)

        result = run_execution_chain(
            state,
            "tool_execution",
            terminal,
            tool_name=name,
            args=args,
            original_args=original,
            **strings,
        )
        duration_ms = int((time.monotonic() - started) * 1000)
        emit_post_tool_call(state, name, args, result, context, trace, duration_ms)
        try:
            if not state.has_hook("transform_tool_result"):
                return result
            observed = _observed(state, name, args, result, context, duration_ms, None)
            results = invoke_hook(state, "transform_tool_result", **observed)
            replacement = next((r for r in results if isinstance(r, str)), None)
            discard_coroutines(results)
            return result if replacement is None else replacement
        except Exception:
            return result
    except Exception as exc:
        text = f"Error executing {name}: {exc}"
        state.record("ERROR", entry.plugin if entry else "", "tool_call", name, text, exc)
        return json.dumps({"error": sanitize_tool_error(text)}, ensure_ascii=False)
