"""The per-call contract of a @tool: argument checks, the envelope, async handlers."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from kit_core import (
    ToolDefinitionError,
    ToolSpec,
    arg,
    array_arg,
    bool_arg,
    declaration_of,
    int_arg,
    number_arg,
    object_arg,
    str_arg,
    tool,
)


def spec_of(fn: object) -> ToolSpec:
    """The ToolSpec of a @tool function."""
    spec = declaration_of(fn, ToolSpec)
    assert spec is not None, f"{fn!r} carries no ToolSpec"
    return spec


@tool(
    toolset="tests",
    namespace="calls",
    name="calls_read_thread",
    params={
        "thread_id": str_arg("Thread id", required=True, example="123456789"),
        "limit": int_arg("Messages to return", minimum=1, maximum=100),
        "format": str_arg("Output format", enum=["json", "text"]),
        "unread": bool_arg("Only unread"),
        "tags": array_arg("Tags", items=str_arg("a tag"), max_items=3),
        "ratio": number_arg("Ratio", minimum=0, maximum=1),
        "filter": object_arg(
            "Filter", properties={"author": str_arg("Author", required=True, min_length=2)}
        ),
        "name": str_arg("Name", min_length=2, pattern="^[a-z]+$"),
    },
)
def read_thread(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Echo what arrived."""
    return {"args": args, "kwargs": sorted(kwargs)}


def call(raw: Any = None, **kwargs: Any) -> dict[str, Any]:
    out = read_thread(raw, **kwargs)
    assert isinstance(out, str)
    return json.loads(out)


def test_success_envelope_wraps_the_handler_result_and_passes_kwargs() -> None:
    out = call({"thread_id": "42", "limit": 5}, task_id="t", session_id="s", user_task="u")
    assert out == {
        "success": True,
        "data": {
            "args": {"thread_id": "42", "limit": 5},
            "kwargs": ["session_id", "task_id", "user_task"],
        },
    }


def test_success_envelope_text_is_the_upstream_encoding() -> None:
    assert read_thread({"thread_id": "é"}) == (
        '{"success": true, "data": {"args": {"thread_id": "é"}, "kwargs": []}}'
    )


@pytest.mark.parametrize("value", [None, "", "   ", "\n\t"])
def test_missing_or_blank_required_argument_is_refused_with_its_example(value: Any) -> None:
    raw = {} if value is None else {"thread_id": value}
    assert call(raw) == {
        "success": False,
        "error": "thread_id is required (e.g. '123456789')",
        "error_code": "missing_argument",
    }


@pytest.mark.parametrize("value", [0, False, [], "0"])
def test_falsy_but_present_values_are_not_missing(value: Any) -> None:
    @tool(
        toolset="tests",
        params={"v": arg(["integer", "boolean", "array", "string"], "v", required=True, items={})},
    )
    def needs_v(args: dict[str, Any], **kwargs: Any) -> str:
        """Needs v."""
        return "ran"

    assert needs_v({"v": value}) == "ran"


def test_handler_does_not_run_when_the_call_is_refused() -> None:
    ran: list[Any] = []

    @tool(toolset="tests", params={"q": str_arg("query", required=True)})
    def search(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """Search."""
        ran.append(args)
        return {}

    search({})
    search({"q": 5})
    search({"q": "x", "extra": 1})
    assert ran == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"limit": "5"}, "limit must be an integer; got string '5'"),
        ({"limit": True}, "limit must be an integer; got true"),
        ({"limit": 5.5}, "limit must be an integer; got number 5.5"),
        ({"limit": 0}, "limit must be >= 1; got integer 0"),
        ({"limit": 101}, "limit must be <= 100; got integer 101"),
        ({"format": "xml"}, "format must be one of 'json', 'text'; got string 'xml'"),
        ({"unread": "yes"}, "unread must be true or false; got string 'yes'"),
        ({"tags": "a"}, "tags must be an array; got string 'a'"),
        ({"tags": ["a", 2]}, "tags[1] must be a string; got integer 2"),
        ({"tags": ["a", "b", "c", "d"]}, "tags must have at most 3 items; got array"),
        ({"ratio": 1.5}, "ratio must be <= 1; got number 1.5"),
        ({"ratio": float("nan")}, "ratio must be a finite number; got number nan"),
        ({"filter": []}, "filter must be an object; got array"),
        ({"filter": {}}, "filter.author is required"),
        (
            {"filter": {"author": "x"}},
            "filter.author must have at least 2 characters; got string 'x'",
        ),
        ({"name": "Ab"}, "name must match the pattern '^[a-z]+$'; got string 'Ab'"),
    ],
)
def test_invalid_values_name_the_argument_the_expectation_and_what_arrived(
    args: dict[str, Any], message: str
) -> None:
    assert call({"thread_id": "1", **args}) == {
        "success": False,
        "error": message,
        "error_code": "invalid_argument",
    }


# -- a whole-number float for an integer ----------------------------------------------------


@tool(
    toolset="tests",
    namespace="whole",
    params={
        "limit": int_arg("Limit", minimum=1, maximum=100),
        "ids": array_arg("Ids", items=int_arg("An id")),
        "page": object_arg("Page", properties={"size": int_arg("Size", required=True)}),
        "size": arg(["integer", "string"], "Size"),
        "amount": arg(["integer", "number"], "Amount"),
        "level": int_arg("Level", enum=[1, 2, 3]),
    },
)
def whole_seen(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Record the Python types that arrived."""
    SEEN.append(args)
    return {}


SEEN: list[dict[str, Any]] = []


def seen(raw: dict[str, Any]) -> dict[str, Any]:
    SEEN.clear()
    out = json.loads(whole_seen(raw))
    assert out == {"success": True, "data": {}}, out
    (args,) = SEEN
    return args


def test_a_whole_number_float_is_an_int_for_an_integer_argument() -> None:
    """JSON Schema counts 5.0 as an integer (pydantic and FastMCP accept it): the handler
    gets the int 5, wherever the schema says integer."""
    sent: dict[str, Any] = {
        "limit": 5.0,
        "ids": [1.0, 2, -0.0],
        "page": {"size": 20.0},
        "size": 3.0,
        "level": 2.0,
    }
    args = seen(sent)
    assert args == {"limit": 5, "ids": [1, 2, 0], "page": {"size": 20}, "size": 3, "level": 2}
    assert [type(args["limit"]), type(args["page"]["size"]), type(args["size"])] == [int] * 3
    assert [type(v) for v in args["ids"]] == [int, int, int]
    assert type(args["level"]) is int
    assert type(sent["limit"]) is float  # the caller's dict is kept
    assert type(sent["page"]["size"]) is float


def test_a_float_stays_a_float_where_a_number_is_allowed_too() -> None:
    args = seen({"amount": 5.0})
    assert type(args["amount"]) is float


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"limit": 5.5}, "limit must be an integer; got number 5.5"),
        ({"limit": 500.0}, "limit must be <= 100; got number 500.0"),
        ({"limit": float("inf")}, "limit must be an integer; got number inf"),
        ({"ids": [1, 2.5]}, "ids[1] must be an integer; got number 2.5"),
        ({"page": {"size": 0.5}}, "page.size must be an integer; got number 0.5"),
        ({"level": 4.0}, "level must be one of 1, 2, 3; got number 4.0"),
    ],
)
def test_a_float_with_a_fraction_is_still_refused(args: dict[str, Any], message: str) -> None:
    out = json.loads(whole_seen(args))
    assert (out["error_code"], out["error"]) == ("invalid_argument", message)


def test_an_async_tool_gets_the_int_too() -> None:
    got: list[Any] = []

    @tool(toolset="tests", params={"limit": int_arg("Limit", required=True)})
    async def limited(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """Limited."""
        got.append(args["limit"])
        return {}

    asyncio.run(limited({"limit": 7.0}))
    assert got == [7]
    assert type(got[0]) is int


def test_unknown_keys_are_refused_with_a_did_you_mean() -> None:
    out = call({"thread_id": "1", "limt": 3})
    assert out["error_code"] == "invalid_argument"
    assert out["error"].startswith(
        "unknown argument 'limt'; did you mean 'limit'? This tool accepts:"
    )
    assert "thread_id, limit, format" in out["error"]


def test_unknown_nested_keys_are_refused() -> None:
    out = call({"thread_id": "1", "filter": {"author": "ann", "autor": 1}})
    assert out["error"].startswith("filter has an unknown key 'autor'; did you mean 'author'?")


def test_optional_arguments_sent_as_null_count_as_absent() -> None:
    assert call({"thread_id": "1", "limit": None})["data"]["args"] == {"thread_id": "1"}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (None, {}),
        ('{"thread_id": "7"}', {"thread_id": "7"}),
        (b'{"thread_id": "7"}', {"thread_id": "7"}),
    ],
)
def test_none_and_json_object_strings_are_accepted_as_arguments(raw: Any, expected: Any) -> None:
    @tool(toolset="tests", params={"thread_id": str_arg("id")})
    def echo(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """Echo."""
        return args

    assert json.loads(echo(raw)) == {"success": True, "data": expected}


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        ([1, 2], "array"),
        ("[1]", "array"),
        ("not json", "string 'not json'"),
        (7, "integer 7"),
        ("3", "integer 3"),
    ],
)
def test_arguments_that_are_not_an_object_get_an_instructive_error(raw: Any, kind: str) -> None:
    out = call(raw)
    assert out == {
        "success": False,
        "error": "arguments must be a JSON object mapping argument names to values,"
        f' e.g. {{"name": "value"}}; got {kind}',
        "error_code": "invalid_argument",
    }


def test_validate_required_false_keeps_the_schema_and_skips_the_checks() -> None:
    @tool(
        toolset="tests",
        params={"content": str_arg("Content", required=True)},
        validate_required=False,
    )
    def legacy(args: dict[str, Any], **kwargs: Any) -> str:
        """Legacy validation."""
        return json.dumps({"error": "content missing"} if not args.get("content") else {"ok": 1})

    assert spec_of(legacy).schema["parameters"]["required"] == ["content"]
    assert legacy({}) == '{"error": "content missing"}'
    assert legacy({"content": 5, "other": 1}) == '{"ok": 1}'


def test_a_raising_handler_becomes_a_handler_error_envelope() -> None:
    @tool(toolset="tests", name="calls_boom")
    def boom(args: dict[str, Any], **kwargs: Any) -> None:
        """Boom."""
        raise RuntimeError("disk full")

    assert json.loads(boom({})) == {
        "success": False,
        "error": "calls_boom failed: disk full",
        "error_code": "handler_error",
    }


def test_an_exception_without_text_is_named_by_its_type() -> None:
    @tool(toolset="tests")
    def silent(args: dict[str, Any], **kwargs: Any) -> None:
        """Fails silently."""
        raise KeyError

    assert json.loads(silent({}))["error"] == "silent failed: KeyError"


def test_an_exception_whose_str_raises_still_gives_an_envelope() -> None:
    class Nasty(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no")

    @tool(toolset="tests")
    def nasty(args: dict[str, Any], **kwargs: Any) -> None:
        """Nasty."""
        raise Nasty

    assert json.loads(nasty({}))["error"] == "nasty failed: Nasty"


def test_system_exit_in_a_handler_does_not_stop_the_agent() -> None:
    @tool(toolset="tests")
    def quits(args: dict[str, Any], **kwargs: Any) -> None:
        """Quits."""
        raise SystemExit(3)

    assert json.loads(quits({}))["error_code"] == "handler_error"


def test_keyboard_interrupt_is_not_swallowed() -> None:
    @tool(toolset="tests")
    def interrupted(args: dict[str, Any], **kwargs: Any) -> None:
        """Interrupted."""
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interrupted({})


def test_a_str_result_passes_through_unchanged() -> None:
    @tool(toolset="tests")
    def raw_text(args: dict[str, Any], **kwargs: Any) -> str:
        """Raw."""
        return "not even json"

    assert raw_text({}) == "not even json"


def test_a_sync_handler_returning_a_coroutine_gets_an_error_not_a_warning() -> None:
    async def later() -> int:
        return 1

    @tool(toolset="tests")
    def forgot_async(args: dict[str, Any], **kwargs: Any) -> object:
        """Forgot async."""
        return later()

    out = json.loads(forgot_async({}))
    assert out["error_code"] == "result_not_serializable"
    assert "declare it async def or await the call" in out["error"]


def test_an_async_handler_returning_a_coroutine_is_told_to_add_the_missing_await() -> None:
    """It is async def already: the advice is the await it forgot, never to declare it
    async def."""

    async def later() -> int:
        return 1

    @tool(toolset="tests")
    async def forgot_await(args: dict[str, Any], **kwargs: Any) -> object:
        """Forgot await."""
        return later()

    out = json.loads(asyncio.run(forgot_await({})))
    assert out["error_code"] == "result_not_serializable"
    assert "add the missing await" in out["error"]
    assert "async def or" not in out["error"]
    assert "declare" not in out["error"]


def test_async_handlers_are_awaited_and_keep_the_contract() -> None:
    @tool(toolset="tests", params={"n": int_arg("n", required=True, example=2)})
    async def doubler(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """Double n."""
        await asyncio.sleep(0)
        if args["n"] < 0:
            raise ValueError("negative")
        return {"n": args["n"] * 2, "session": kwargs.get("session_id")}

    assert spec_of(doubler).is_async
    assert asyncio.run(doubler({"n": 4}, session_id="s")) == (
        '{"success": true, "data": {"n": 8, "session": "s"}}'
    )
    assert json.loads(asyncio.run(doubler({})))["error"] == "n is required (e.g. 2)"
    assert json.loads(asyncio.run(doubler({"n": -1})))["error"] == "doubler failed: negative"


def test_a_tool_without_parameters_refuses_any_argument() -> None:
    @tool(toolset="tests")
    def ping(args: dict[str, Any], **kwargs: Any) -> str:
        """Ping."""
        return "pong"

    assert ping({}) == "pong"
    assert (
        json.loads(ping({"x": 1}))["error"]
        == "unknown argument 'x'. This tool accepts no arguments"
    )


def test_huge_integers_are_compared_exactly_without_overflow() -> None:
    assert call({"thread_id": "1", "limit": 10**400})["error"].startswith(
        "limit must be <= 100; got integer 1000"
    )
    assert call({"thread_id": "1", "ratio": 10**400})["error"].startswith(
        "ratio must be <= 1; got integer 1000"
    )


def test_an_integer_too_long_to_print_is_still_described() -> None:
    out = call({"thread_id": "1", "limit": 10**5000})
    assert out["error_code"] == "invalid_argument"
    assert out["error"].startswith("limit must be <= 100; got integer of 16610 bits")


def test_nullable_and_any_of_arguments_are_checked_by_their_alternatives() -> None:
    @tool(
        toolset="tests",
        params={
            "cursor": arg(["string", "null"], "Cursor", required=False),
            "size": arg(["integer", "string"], "Size", required=True, example=3),
        },
    )
    def page(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """Page."""
        return args

    assert json.loads(page({"size": "big"}))["data"] == {"size": "big"}
    assert json.loads(page({"size": 2, "cursor": None}))["data"] == {"size": 2}
    out = json.loads(page({"size": 2.5}))
    assert out["error"] == "size must be an integer or a string; got number 2.5"


def test_the_wrapper_belongs_to_the_handler_module_as_hermes_sees_it() -> None:
    # hermes attributes a handler to a plugin by handler.__globals__["__name__"]
    assert read_thread.__globals__["__name__"] == __name__  # type: ignore[attr-defined]
    assert read_thread.__wrapped__.__name__ == "read_thread"  # type: ignore[attr-defined]


def test_tool_without_parentheses_says_how_to_write_it() -> None:
    def handler(args: dict[str, Any], **kwargs: Any) -> str:
        """Doc."""
        return ""

    with pytest.raises(ToolDefinitionError, match=r"written with parentheses: put @tool\(toolset="):
        tool(handler)  # pyright: ignore[reportArgumentType]


def test_a_refusal_that_cannot_be_described_still_answers_and_lets_an_interrupt_through(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import kit_core._runtime as runtime

    def broken(text: str, secrets: Any = ()) -> str:
        raise RuntimeError("redaction broke")

    monkeypatch.setattr(runtime, "redact_text", broken)
    refused = call({})
    assert refused == {
        "success": False,
        "error": "calls_read_thread failed, and the kit could not describe the error",
        "error_code": "handler_error",
    }

    def interrupted(text: str, secrets: Any = ()) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(runtime, "redact_text", interrupted)
    with pytest.raises(KeyboardInterrupt):
        read_thread({})
