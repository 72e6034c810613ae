"""The in-memory host's answers: definitions, the tool-call pipeline, hooks, middleware,
slash and terminal commands, each step against a small hand-written plugin."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from kit_devtools.testing import InMemoryHost

PARAMS = {
    "type": "object",
    "properties": {
        "n": {"type": "integer", "description": "A count"},
        "flag": {"type": "boolean"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "note": {"type": ["string", "null"]},
    },
    "required": ["n"],
}
SCHEMA = {"name": "ignored", "description": "Echo.", "parameters": PARAMS}


def echo(args: dict[str, Any], **kwargs: Any) -> str:
    return json.dumps({"args": args, "kwargs": kwargs})


def host_with(register: Callable[[Any], None]) -> InMemoryHost:
    module = ModuleType("handmade")
    module.register = register  # type: ignore[attr-defined]
    host = InMemoryHost()
    loaded = host.load(module)
    assert loaded.enabled, loaded.error
    return host


def echo_host(*extra: Callable[[Any], None]) -> InMemoryHost:
    def register(ctx: Any) -> None:
        ctx.register_tool("hm_echo", "handmade", SCHEMA, echo)
        for more in extra:
            more(ctx)

    return host_with(register)


# -- definitions ------------------------------------------------------------------------------


def test_definitions_are_what_the_model_receives() -> None:
    def register(ctx: Any) -> None:
        ctx.register_tool("hm_b", "one", {"description": "bare"}, echo)
        ctx.register_tool("hm_a", "one", SCHEMA, echo)
        ctx.register_tool("hm_hidden", "one", SCHEMA, echo, check_fn=lambda: 0)
        ctx.register_tool("hm_raises", "one", SCHEMA, echo, check_fn=lambda: 1 / 0)
        ctx.register_tool("hm_other", "two", SCHEMA, echo)

    host = host_with(register)
    names = [d["function"]["name"] for d in host.definitions()]
    assert names == ["hm_a", "hm_b", "hm_other"]
    [a, b] = host.definitions(["one"])
    assert b == {
        "type": "function",
        "function": {
            "description": "bare",
            "name": "hm_b",
            "parameters": {"type": "object", "properties": {}},
        },
    }
    assert a["function"]["name"] == "hm_a"  # the registered name wins over the schema's
    assert a["function"]["parameters"]["properties"]["note"] == {"type": "string", "nullable": True}
    a["function"]["description"] = "changed"
    assert host.definitions(["one"])[0]["function"]["description"] == "Echo."


def test_the_sanitizer_fixes_what_strict_backends_reject() -> None:
    params = {
        "type": "object",
        "anyOf": [{"required": ["a"]}],
        "properties": {
            "a": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "A"},
            "b": {"type": ["number", "string", "null"]},
            "c": "object",
            "d": {"$ref": "#/$defs/D", "default": None},
            "e": {"type": "object"},
            "f": {"type": "array", "items": "string"},
        },
        "required": ["a", "ghost"],
    }
    host = host_with(lambda ctx: ctx.register_tool("hm_s", "s", {"parameters": params}, echo))
    [definition] = host.definitions()
    assert definition["function"]["parameters"] == {
        "type": "object",
        "properties": {
            "a": {"type": "string", "nullable": True, "description": "A"},
            "b": {"anyOf": [{"type": "number"}, {"type": "string"}], "nullable": True},
            "c": {"type": "object", "properties": {}},
            "d": {"$ref": "#/$defs/D"},
            "e": {"type": "object", "properties": {}},
            "f": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["a"],
    }
    assert params["required"] == ["a", "ghost"]  # the registered schema is left alone


# -- the tool-call pipeline ---------------------------------------------------------------------


def test_arguments_are_coerced_to_the_schema_in_place() -> None:
    host = echo_host()
    args = {"n": "3", "flag": "true", "tags": "solo", "note": "null", "extra": "7"}
    out = json.loads(host.call_tool("hm_echo", args, task_id="t"))
    assert out["args"] == {"n": 3, "flag": True, "tags": ["solo"], "note": None, "extra": "7"}
    assert args["n"] == 3  # hermes coerces the caller's dict
    assert out["kwargs"] == {"task_id": "t", "session_id": None, "user_task": None}
    listed = json.loads(host.call_tool("hm_echo", {"n": "2.5", "tags": '["a", "b"]'}))
    assert listed["args"] == {"n": "2.5", "tags": ["a", "b"]}
    assert json.loads(host.call_tool("hm_echo", ["not", "a", "dict"]))["args"] == {}


def test_request_middleware_is_last_writer_wins_and_guards_see_its_result() -> None:
    seen: list[tuple[str, Any]] = []

    def first(**kw: Any) -> Any:
        seen.append(("first", dict(kw["args"])))
        return {"args": {**kw["args"], "n": 1}, "source": "first"}

    def second(**kw: Any) -> Any:
        seen.append(("second", dict(kw["args"])))
        return {"args": {**kw["args"], "n": 2}, "reason": "why"}

    def guard(**kw: Any) -> None:
        seen.append(("guard", (kw["args"], kw["middleware_trace"], kw["telemetry_schema_version"])))

    def wrap(**kw: Any) -> Any:
        seen.append(("exec", (kw["args"], kw["original_args"], kw["middleware_schema_version"])))
        return kw["next_call"]()

    def register(ctx: Any) -> None:
        ctx.register_middleware("tool_request", first)
        ctx.register_middleware("tool_request", second)
        ctx.register_middleware("tool_execution", wrap)
        ctx.register_hook("pre_tool_call", guard)

    host = echo_host(register)
    out = json.loads(host.call_tool("hm_echo", {"n": 0}, tool_call_id="c"))
    assert out["args"] == {"n": 2}
    trace = [{"source": "first"}, {"reason": "why"}]
    assert seen == [
        ("first", {"n": 0}),
        ("second", {"n": 0}),  # every callback sees the same, un-rewritten arguments
        ("guard", ({"n": 2}, trace, "hermes.observer.v1")),
        ("exec", ({"n": 2}, {"n": 0}, "hermes.middleware.v1")),
    ]


@pytest.mark.parametrize(
    ("decision", "expected"),
    [
        ({"action": "block", "message": "no"}, "no"),
        (
            {"action": "approve", "message": "risky"},
            "BLOCKED: Tool 'hm_never' requires approval (risky) but no interactive user or"
            " gateway is present to approve it. A plugin flagged this action for human"
            " confirmation.",
        ),
    ],
)
def test_a_pre_tool_call_directive_blocks_before_the_handler(
    decision: dict[str, Any], expected: str
) -> None:
    posts: list[dict[str, Any]] = []

    def register(ctx: Any) -> None:
        ctx.register_hook("pre_tool_call", lambda **kw: {"action": "block"})  # no message: ignored
        ctx.register_hook("pre_tool_call", lambda **kw: "not a dict")
        ctx.register_hook("pre_tool_call", lambda **kw: decision)
        ctx.register_hook("post_tool_call", lambda **kw: posts.append(kw))
        ctx.register_tool("hm_never", "h", SCHEMA, lambda a, **k: pytest.fail("ran"))

    host = host_with(register)
    out = host.call_tool("hm_never", {"n": 1}, task_id="t", session_id="s")
    assert json.loads(out) == {"error": expected}
    [post] = posts
    assert (post["status"], post["error_type"], post["error_message"]) == (
        "blocked",
        "plugin_block",
        expected,
    )
    assert (post["duration_ms"], post["task_id"], post["turn_id"], post["result"]) == (
        0,
        "t",
        "",
        out,
    )


def test_execution_middleware_is_an_onion_with_single_use_next_call() -> None:
    order: list[str] = []

    def outer(**kw: Any) -> Any:
        order.append("outer")
        return kw["next_call"]({"n": 5})

    def skipped(**kw: Any) -> Any:
        order.append("skipped")
        raise RuntimeError("before next_call")

    def inner(**kw: Any) -> Any:
        order.append("inner")
        kw["next_call"]()
        raise ValueError("after next_call")  # the downstream result still goes out

    def register(ctx: Any) -> None:
        for callback in (outer, skipped, inner):
            ctx.register_middleware("tool_execution", callback)

    host = echo_host(register)
    out = json.loads(host.call_tool("hm_echo", {"n": 1}))
    assert out["args"] == {"n": 5}
    assert order == ["outer", "skipped", "inner"]
    assert [(e.surface, e.plugin) for e in host.events] == [("middleware_call", "handmade")] * 2

    def twice(**kw: Any) -> Any:
        return [kw["next_call"](), kw["next_call"]()]

    host = echo_host(lambda ctx: ctx.register_middleware("tool_execution", twice))
    out = json.loads(host.call_tool("hm_echo", {"n": 1}))  # the first call's result
    assert out["args"] == {"n": 1}
    assert "called next_call() more than once" in host.events[-1].message
    raw = echo_host(lambda ctx: ctx.register_middleware("tool_execution", lambda **kw: {"raw": 1}))
    assert raw.call_tool("hm_echo", {"n": 1}) == {"raw": 1}  # not normalised, as in hermes


def raising(args: dict[str, Any], **kwargs: Any) -> str:
    raise RuntimeError("<tool_call>bad</tool_call> " + "x" * 3000)


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        ({"a": 1}, "dict"),
        (None, "NoneType"),
        (["x"], "list"),
    ],
)
def test_results_other_than_str_become_the_contract_error(result: Any, expected: str) -> None:
    host = host_with(lambda ctx: ctx.register_tool("hm_r", "h", SCHEMA, lambda a, **k: result))
    assert json.loads(host.call_tool("hm_r", {})) == {
        "error": f"Tool handler returned unsupported result type: {expected}",
        "error_type": "tool_result_contract",
        "tool": "hm_r",
        "result_type": expected,
    }
    assert host.events[-1].level == "ERROR"


def test_handler_errors_are_sanitised_and_capped() -> None:
    host = host_with(lambda ctx: ctx.register_tool("hm_raise", "h", SCHEMA, raising))
    error = json.loads(host.call_tool("hm_raise", {}))["error"]
    assert error.startswith("[TOOL_ERROR] Tool execution failed: RuntimeError: bad xxx")
    assert len(error) == len("[TOOL_ERROR] ") + 2000
    assert error.endswith("...")
    assert isinstance(host.events[-1].exception, RuntimeError)
    multimodal = {"_multimodal": True, "content": [{"type": "text", "text": "hi"}]}
    host = host_with(lambda ctx: ctx.register_tool("hm_mm", "h", SCHEMA, lambda a, **k: multimodal))
    assert host.call_tool("hm_mm", {}) == multimodal


def test_async_handlers_run_to_completion_as_the_host_runs_them() -> None:
    async def slow(args: dict[str, Any], **kwargs: Any) -> str:
        await asyncio.sleep(0)
        return json.dumps({"thread": threading.current_thread().name})

    def register(ctx: Any) -> None:
        ctx.register_tool("hm_async", "h", SCHEMA, slow, is_async=True)
        ctx.register_tool("hm_undeclared", "h", SCHEMA, slow)
        ctx.register_tool("hm_sync_declared", "h", SCHEMA, echo, is_async=True)

    host = host_with(register)
    assert json.loads(host.call_tool("hm_async", {})) == {"thread": "MainThread"}
    undeclared = json.loads(host.call_tool("hm_undeclared", {}))
    assert undeclared["result_type"] == "coroutine"  # closed, so no "never awaited" warning
    assert json.loads(host.call_tool("hm_sync_declared", {}))["error"] == (
        "[TOOL_ERROR] Tool execution failed: TypeError: An asyncio.Future, a coroutine or an"
        " awaitable is required"
    )

    async def inside_a_loop() -> Any:
        return json.loads(host.call_tool("hm_async", {}))

    assert asyncio.run(inside_a_loop())["thread"] != "MainThread"  # a worker thread


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("memory", "memory must be handled by the agent loop"),
        ("nope", "Unknown tool: nope"),
        ("tool_search", "tool_search is answered by hermes' Tool Search bridge"),
    ],
)
def test_names_answered_before_the_registry(name: str, error: str) -> None:
    assert json.loads(echo_host().call_tool(name, {}))["error"].startswith(error)


def test_post_tool_call_and_transform_tool_result() -> None:
    posts: list[dict[str, Any]] = []

    def register(ctx: Any) -> None:
        ctx.register_tool("hm_fail", "h", SCHEMA, lambda a, **k: json.dumps({"error": "nope"}))
        ctx.register_hook("post_tool_call", lambda **kw: posts.append(kw))
        ctx.register_hook("transform_tool_result", lambda **kw: 42)  # not a str: ignored
        ctx.register_hook("transform_tool_result", lambda **kw: f"{kw['status']}:{kw['result']}")
        ctx.register_hook("transform_tool_result", lambda **kw: "too late")

    host = echo_host(register)
    assert host.call_tool("hm_echo", {"n": 1}).startswith("ok:{")
    assert host.call_tool("hm_fail", {}) == 'error:{"error": "nope"}'
    assert [(p["status"], p["error_type"], p["error_message"]) for p in posts] == [
        ("ok", None, None),
        ("error", "tool_error", "nope"),
    ]
    assert isinstance(posts[0]["duration_ms"], int)
    assert posts[0]["middleware_trace"] == []


def test_dispatch_is_the_registry_alone() -> None:
    calls: list[Any] = []
    host = echo_host(lambda ctx: ctx.register_hook("pre_tool_call", lambda **kw: calls.append(kw)))
    out = json.loads(host.dispatch("hm_echo", {"n": "4"}, anything=1))
    assert out == {"args": {"n": "4"}, "kwargs": {"anything": 1}}  # no coercion, no hooks
    assert calls == []


# -- hooks, llm middleware, commands ------------------------------------------------------------


def test_invoke_hook_runs_every_callback_in_order() -> None:
    async def later(**kw: Any) -> str:
        return "never awaited"

    def register(ctx: Any) -> None:
        ctx.register_hook("pre_llm_call", lambda **kw: {"context": kw["telemetry_schema_version"]})
        ctx.register_hook("pre_llm_call", lambda **kw: None)
        ctx.register_hook("pre_llm_call", lambda user_message: "no **kwargs")
        ctx.register_hook("pre_llm_call", later)
        ctx.register_hook("pre_llm_call", lambda **kw: "last")

    host = host_with(register)
    first, coroutine, last = host.invoke_hook("pre_llm_call", user_message="hi")
    assert first == {"context": "hermes.observer.v1"}
    assert asyncio.iscoroutine(coroutine)
    coroutine.close()
    assert last == "last"
    [event] = host.events
    assert (event.surface, event.name) == ("hook_call", "pre_llm_call")
    assert "got an unexpected keyword argument 'telemetry_schema_version'" in event.message
    kept = host.invoke_hook("pre_llm_call", telemetry_schema_version="mine", user_message="x")
    assert kept[0] == {"context": "mine"}
    kept[1].close()
    assert host.invoke_hook("no_such_hook") == []


def test_llm_middleware_rewrites_and_wraps() -> None:
    request = {"model": "m", "messages": []}
    bare = echo_host()
    untouched = bare.apply_llm_request_middleware(request, task_id="t")
    assert untouched.payload is request
    assert untouched.original_payload is request
    assert (untouched.changed, untouched.trace) == (False, [])
    assert bare.run_llm_execution_middleware(request, lambda r: ("sent", r)) == ("sent", request)

    def register(ctx: Any) -> None:
        ctx.register_middleware("llm_request", lambda **kw: {"request": {**kw["request"], "n": 1}})
        ctx.register_middleware(
            "llm_execution",
            lambda **kw: {"wrapped": kw["next_call"](), "of": kw["original_request"]},
        )

    host = echo_host(register)
    applied = host.apply_llm_request_middleware(request, turn_id="u")
    assert applied.payload == {"model": "m", "messages": [], "n": 1}
    assert applied.original_payload == request
    assert applied.original_payload is not request
    assert (applied.changed, applied.trace) == (True, [{"source": "plugin"}])
    assert host.run_llm_execution_middleware(applied.payload, lambda r: "resp") == {
        "wrapped": "resp",
        "of": applied.payload,
    }


def test_slash_commands_run_like_the_cli() -> None:
    async def later(raw: str) -> str:
        await asyncio.sleep(0)
        return f"later {raw}"

    def register(ctx: Any) -> None:
        ctx.register_command("hm-now", lambda raw: f"now {raw!r}")
        ctx.register_command("hm-later", later)

    host = host_with(register)
    assert host.run_command("hm-now") == "now ''"
    assert host.run_command("/hm-later", "x y") == "later x y"
    with pytest.raises(
        KeyError, match=r"no plugin command /hm-nope; registered: /hm-later, /hm-now"
    ):
        host.run_command("hm-nope")
    with pytest.raises(KeyError, match=r"a built-in hermes command"):
        host.run_command("help")


def test_an_async_command_run_inside_a_running_loop_is_awaited_on_a_bounded_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from kit_devtools.testing import _commands

    async def answer() -> str:
        await asyncio.sleep(0)
        return "done"

    async def fail() -> None:
        raise ValueError("refused")

    async def stall() -> None:
        await asyncio.sleep(1)

    async def inside_a_loop() -> None:
        assert _commands.resolve_command_result(answer()) == "done"
        with pytest.raises(ValueError, match="refused"):
            _commands.resolve_command_result(fail())
        monkeypatch.setattr(_commands, "COMMAND_AWAIT_TIMEOUT_SECONDS", 0.05)
        with pytest.raises(TimeoutError, match=r"did not complete within 0s"):
            _commands.resolve_command_result(stall())

    asyncio.run(inside_a_loop())


def test_terminal_commands_run_through_argparse(capsys: pytest.CaptureFixture[str]) -> None:
    def setup(parser: Any) -> None:
        parser.add_argument("--scope", default="all")

    def register(ctx: Any) -> None:
        ctx.register_cli_command("hm-admin", "Administer", setup, lambda args: f"ran {args.scope}")
        ctx.register_cli_command("hm-nohandler", "No handler", setup)

    host = host_with(register)
    assert host.run_cli(["hm-admin", "--scope", "x"]) == "ran x"
    assert host.run_cli(["hm-nohandler"]) is None
    assert "usage: hermes" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        host.run_cli(["hm-admin", "--bogus"])


def test_a_schema_hermes_cannot_coerce_against_raises_out_of_the_call() -> None:
    # coerce_tool_args runs before handle_function_call's own error handling
    bad = {"name": "x", "parameters": ["not", "a", "mapping"]}
    host = host_with(lambda ctx: ctx.register_tool("hm_bad", "h", bad, echo))
    with pytest.raises(AttributeError, match="'list' object has no attribute 'get'"):
        host.call_tool("hm_bad", {"a": 1})
    assert json.loads(host.call_tool("hm_bad", {}))["args"] == {}  # nothing to coerce


def test_execution_middleware_gets_the_call_keywords_then_the_schema_versions() -> None:
    seen: list[dict[str, Any]] = []

    def wrap(**kw: Any) -> Any:
        seen.append({k: v for k, v in kw.items() if k != "next_call"} | {"next": "next_call" in kw})
        return kw["next_call"]()

    host = host_with(lambda ctx: ctx.register_middleware("llm_execution", wrap))
    host.run_llm_execution_middleware({"q": 1}, lambda r: r, model="m")
    host.run_llm_execution_middleware({"q": 2}, lambda r: r, telemetry_schema_version="t")
    assert [list(kw) for kw in seen] == [
        ["request", "original_request", "model", "telemetry_schema_version",
         "middleware_schema_version", "next"],
        ["request", "original_request", "telemetry_schema_version",
         "middleware_schema_version", "next"],
    ]  # fmt: skip
    assert seen[0]["telemetry_schema_version"] == "hermes.observer.v1"
    assert seen[1]["telemetry_schema_version"] == "t"
    assert seen[1]["middleware_schema_version"] == "hermes.middleware.v1"
