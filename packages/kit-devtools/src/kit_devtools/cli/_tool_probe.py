"""``check --probe``: each of the plugin's tools called through the host pipeline, what a
model could send, and what the call gave back judged as hermes would take it (HPK131-HPK135)."""

from __future__ import annotations

import json
from typing import Any, Final, cast

from kit_core import ErrorCode, ToolSpec, declaration_of
from kit_core._runtime import MISSING_AWAIT_HINT, SYNC_AWAITABLE_HINT
from kit_devtools.cli._chat_turn import simulate_chat_turn
from kit_devtools.cli._handler_source import dict_return
from kit_devtools.cli._probe_args import arguments_for
from kit_devtools.cli._tool_rules import is_coroutine_function
from kit_devtools.cli.findings import E, Finding, Rule, W, declare, finding
from kit_devtools.testing import InMemoryHost, LoadedPlugin
from kit_devtools.testing._pipeline import multimodal

__all__ = ["PROBE_SESSION", "probe_tools"]

declare("tool name, toolset, handler", {
    "HPK131": Rule(E, "called with {called_with} the handler raised {error}: hermes logs a"
                   " traceback and the call fails with its tool error ('Tool execution"
                   " failed: ...')",
                   "validate arguments and return an error envelope",
                   "registry.dispatch catches the exception and answers 'Tool execution"
                   " failed' (tools.registry.ToolRegistry.dispatch)"),
    "HPK132": Rule(E, "called with {called_with} the tool returned {kind}, not a JSON string:"
                   " hermes replaces it with a tool_result_contract error",
                   "return json.dumps(...) (kit tools do this for you)",
                   "_normalize_handler_result refuses a result that is not a string or a"
                   " multimodal envelope (tools/registry.py); before 0.19.0 hermes hands the"
                   " object itself on where the agent loop expects the tool message's text"),
    "HPK133": Rule(W, "called with {called_with} the handler raised; the kit answered the"
                   " model with an error envelope: {error}", "if those arguments are valid,"
                   " fix the handler; if it refuses them on purpose, narrow the schema (enum,"
                   " bounds, pattern) or declare an example, so the model is not invited to"
                   " send them", "hermes gets the kit's error envelope, a valid result: the"
                   " call works, the model is told why it failed"),
    "HPK134": Rule(E, "called with {called_with} the handler returned a coroutine, which"
                   " nothing awaits: it is a plain def that calls an async function without"
                   " awaiting it, so every call fails (the kit answers result_not_serializable,"
                   " hermes a tool_result_contract error)",
                   "declare it async def or await the call: async def handler(args,"
                   " **kwargs): return await ... (registered by hand, also pass"
                   " is_async=True to register_tool)",
                   "registry.dispatch calls a handler registered without is_async and does not"
                   " await its result; _normalize_handler_result refuses the coroutine"
                   " (tools.registry.ToolRegistry.dispatch); before 0.19.0 hermes hands its"
                   " repr on"),
    "HPK135": Rule(E, "called with {called_with} the async def handler's result is itself a"
                   " coroutine: an await is missing, so the awaited call never runs and every"
                   " call fails (the kit answers result_not_serializable, hermes a"
                   " tool_result_contract error)",
                   "add the missing await: return await ... where the handler returns the"
                   " call of an async function",
                   "registry.dispatch awaits an is_async handler once (model_tools._run_async)"
                   " and refuses the coroutine it returned"
                   " (tools.registry.ToolRegistry._normalize_handler_result); before 0.19.0"
                   " hermes hands its repr on"),
})  # fmt: skip


PROBE_SESSION: Final = "hpk-probe"
"""The task and session id of the probe's calls."""
_HOST_ERRORS: Final = ("[TOOL_ERROR]", "Tool execution failed:", "Error executing")
"""How hermes words a tool whose handler raised (``tools/registry.py`` dispatch)."""


def probe_tools(host: InMemoryHost, plugin: LoadedPlugin) -> list[Finding]:
    """Call each of the plugin's tools through the host pipeline: with empty arguments,
    then with arguments built from its schema (what a model could send), in a simulated
    chat turn (a media tool delivers to its chat, recorded)."""
    found: list[Finding] = []
    simulate_chat_turn(host, PROBE_SESSION)
    for name in plugin.tools:
        entry = host.tools.get(name)
        if entry is None or entry.plugin != plugin.name:
            continue
        spec = declaration_of(entry.handler, ToolSpec)
        examples = spec.examples if spec is not None else None
        built = arguments_for(entry.schema.get("parameters"), examples)
        calls: list[tuple[str, dict[str, Any]]] = [("empty arguments", {})]
        if built:
            calls.append((f"arguments built from its schema {json.dumps(built)}", built))
        for called_with, args in calls:
            problem = _probe_problem(host, name, called_with, args)
            if problem is not None:
                found.append(problem)
                break
    return found


_RAISED: Final = (ErrorCode.HANDLER_ERROR, ErrorCode.RESULT_TOO_LARGE)
"""The error codes of a handler that raised (an image too large for hermes included)."""


def _probe_problem(
    host: InMemoryHost, name: str, called_with: str, args: dict[str, Any]
) -> Finding | None:
    out = host.call_tool(name, args, task_id=PROBE_SESSION, session_id=PROBE_SESSION)
    where = f"tool {name}"
    if not isinstance(out, str):
        if multimodal(out) is not None:
            return None  # hermes' multimodal envelope: a valid result
        return finding("HPK132", where, called_with=called_with, kind=f"a {type(out).__name__}")
    try:
        data = json.loads(out)
    except ValueError:
        return None  # a plain string is a valid tool result
    if not isinstance(data, dict):
        return None
    reply = cast("dict[str, Any]", data)
    unawaited = _unawaited(host, name, reply)
    if unawaited is not None:
        return None if unawaited == "HPK122" else finding(unawaited, where, called_with=called_with)
    if reply.get("error_type") == "tool_result_contract":
        dict_result = reply.get("result_type") == "dict"
        if dict_result and dict_return(host.tools[name].handler) is not None:
            return None  # HPK125 names the return statement
        kind = f"a {reply.get('result_type')}"
        return finding("HPK132", where, called_with=called_with, kind=kind)
    error = str(reply.get("error", ""))
    if error.startswith(_HOST_ERRORS):  # the exception escaped to hermes
        return finding("HPK131", where, called_with=called_with, error=error)
    if reply.get("error_code") in _RAISED:  # the kit caught it
        return finding("HPK133", where, called_with=called_with, error=error)
    return None


def _unawaited(host: InMemoryHost, name: str, reply: dict[str, Any]) -> str | None:
    """The rule of a call whose handler gave back an awaitable nothing awaits: HPK134 for a
    plain ``def`` handler (it should be ``async def``, or await what it calls), HPK135 for
    an ``async def`` one (an ``await`` is missing), HPK122 for an ``async def`` handler
    registered without ``is_async`` (the static rule says it); None for any other reply.
    A kit tool says which in its ``result_not_serializable`` envelope; hermes' result
    contract names the coroutine of a hand-written handler."""
    if reply.get("error_code") == ErrorCode.RESULT_NOT_SERIALIZABLE:
        error = str(reply.get("error", ""))
        if MISSING_AWAIT_HINT in error:
            return "HPK135"
        return "HPK134" if SYNC_AWAITABLE_HINT in error else None
    if reply.get("error_type") != "tool_result_contract" or reply.get("result_type") != "coroutine":
        return None
    entry = host.tools[name]
    if not is_coroutine_function(entry.handler):
        return "HPK134"
    return "HPK135" if entry.is_async else "HPK122"
