"""invoke_host_tool: the host's guard around send_message, fail-closed, JSON, never raises."""

from __future__ import annotations

import json
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest
from tests.kit_media._calls import ARGS, CONTEXT

from kit_core.hermes import first_release
from kit_media import invoke_host_tool

if TYPE_CHECKING:
    from tests.kit_media.conftest import FakeHost


def answer(result: str) -> dict[str, Any]:
    assert isinstance(result, str)
    parsed = json.loads(result)
    assert isinstance(parsed, dict)
    return parsed


def test_an_allowed_call_runs_the_hosts_handler_between_the_hooks(host: FakeHost) -> None:
    result = invoke_host_tool("send_message", ARGS, **CONTEXT, user_task="ignored")

    assert result == host.reply  # the handler's reply, unchanged
    assert host.pre_calls == [{"tool_name": "send_message", "args": ARGS, **CONTEXT}]
    assert host.handler_calls == [(ARGS, CONTEXT)]
    [post] = host.post_calls
    assert post == {
        "tool_name": "send_message",
        "args": ARGS,
        "result": host.reply,
        **CONTEXT,
        "duration_ms": post["duration_ms"],
        "status": "ok",
        "error_type": None,
        "error_message": None,
        "middleware_trace": [],
    }
    assert isinstance(post["duration_ms"], int)


def test_missing_context_keys_reach_the_guard_as_empty_strings(host: FakeHost) -> None:
    invoke_host_tool("send_message", ARGS, session_id=None, task_id=7)
    [pre] = host.pre_calls
    assert pre == {
        "tool_name": "send_message",
        "args": ARGS,
        "task_id": "7",
        "session_id": "",
        "tool_call_id": "",
        "turn_id": "",
        "api_request_id": "",
    }


def test_the_callers_args_are_copied(host: FakeHost) -> None:
    def mutating(args: dict[str, Any]) -> str:
        args["target"] = "changed"
        return "{}"

    host.reply = mutating
    mine = dict(ARGS)
    invoke_host_tool("send_message", mine)
    assert mine == ARGS


def test_no_args_means_an_empty_dict(host: FakeHost) -> None:
    invoke_host_tool("send_message")
    assert host.handler_calls == [({}, dict.fromkeys(CONTEXT, ""))]


def test_a_block_returns_the_hosts_error_shape_and_never_runs_the_handler(host: FakeHost) -> None:
    host.block = "BLOCKED: user denied send_message"
    result = invoke_host_tool("send_message", ARGS, **CONTEXT)

    assert answer(result) == {"error": "BLOCKED: user denied send_message"}
    assert host.handler_calls == []
    [post] = host.post_calls
    assert (post["status"], post["error_type"], post["error_message"], post["duration_ms"]) == (
        "blocked",
        "plugin_block",
        "BLOCKED: user denied send_message",
        0,
    )


def test_a_guard_that_raises_blocks_the_call(host: FakeHost) -> None:
    host.guard_error = RuntimeError("approval queue down")
    out = answer(invoke_host_tool("send_message", ARGS))
    assert out["error_code"] == "host_guard_failed"
    assert "guard raised RuntimeError; send_message was not run" in out["error"]
    assert host.handler_calls == []
    assert host.post_calls[0]["status"] == "blocked"


def test_an_error_reply_is_reported_to_post_tool_call_as_an_error(host: FakeHost) -> None:
    host.reply = json.dumps({"error": "Platform 'x' is not configured."})
    invoke_host_tool("send_message", ARGS)
    [post] = host.post_calls
    assert (post["status"], post["error_type"], post["error_message"]) == (
        "error",
        "tool_error",
        "Platform 'x' is not configured.",
    )


def test_a_handler_that_raises_becomes_a_redacted_error(host: FakeHost) -> None:
    host.reply = ConnectionError(
        "POST https://x/bot7012345678:AAHf3kQx9V2mZP1wLrT8sYbN4cJd6eGuK0o/y"
    )
    out = answer(invoke_host_tool("send_message", ARGS))
    assert out["success"] is False
    assert out["error_code"] == "host_tool_error"
    assert out["error"].startswith("send_message host handler failed: ConnectionError: POST")
    assert "AAHf3kQx9V2mZP1wLrT8sYbN4cJd6eGuK0o" not in out["error"]
    assert host.post_calls[0]["error_type"] == "host_tool_error"
    assert "AAHf3kQx9V2mZP1wLrT8sYbN4cJd6eGuK0o" not in host.post_calls[0]["error_message"]


def test_a_non_string_reply_is_encoded(host: FakeHost) -> None:
    host.reply = {"success": True, "message_id": "5"}
    assert answer(invoke_host_tool("send_message", ARGS)) == {"success": True, "message_id": "5"}


def test_post_tool_call_is_skipped_without_listeners_and_its_failure_is_swallowed(
    host: FakeHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    host.has_post_hook = False
    invoke_host_tool("send_message", ARGS)
    assert host.post_calls == []

    host.has_post_hook = True

    def broken(name: str, **kwargs: Any) -> list[Any]:
        raise RuntimeError("observer bug")

    monkeypatch.setattr(sys.modules["hermes_cli.plugins"], "invoke_hook", broken)
    assert invoke_host_tool("send_message", ARGS) == host.reply


@pytest.mark.parametrize("name", ["terminal", "", "SEND_MESSAGE", None, 3])
def test_unknown_names_fail_explicitly(host: FakeHost, name: Any) -> None:
    out = answer(invoke_host_tool(name, ARGS))
    assert out["success"] is False
    assert out["error_code"] == "unsupported_host_tool"
    assert out["error"].endswith("; supported: send_message")
    assert host.pre_calls == []


@pytest.mark.parametrize("args", [["send"], "send", 3])
def test_args_that_are_not_a_dict_are_refused(host: FakeHost, args: Any) -> None:
    out = answer(invoke_host_tool("send_message", args))
    assert out["error_code"] == "invalid_argument"
    assert out["error"].startswith("host tool args must be a dict, got")
    assert host.pre_calls == []


def test_without_hermes_the_call_is_refused() -> None:
    out = answer(invoke_host_tool("send_message", ARGS))
    assert out["error_code"] == "host_unavailable"
    oldest = first_release(lambda r: "tools.send_message_tool.send_message_tool" in r.functions)
    assert oldest is not None  # the host model names the release, the kit does not
    assert out["error"].startswith(
        "hermes-agent is not importable: kit-media delivers through the host's send_message;"
        f" run inside {oldest.label} or newer"
    )


def test_without_the_guard_api_the_call_is_refused_not_made_unguarded(
    host: FakeHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    old_host = ModuleType("hermes_cli.plugins")
    old_host.invoke_hook = host.invoke_hook  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "hermes_cli.plugins", old_host)
    out = answer(invoke_host_tool("send_message", ARGS))
    assert out["error_code"] == "host_guard_unavailable"
    assert "refused rather than made unguarded" in out["error"]
    assert host.handler_calls == []


def test_a_host_without_the_handler_is_refused(
    host: FakeHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(
        sys.modules, "tools.send_message_tool", ModuleType("tools.send_message_tool")
    )
    out = answer(invoke_host_tool("send_message", ARGS))
    assert out["error_code"] == "host_unavailable"
    assert "has no callable send_message_tool" in out["error"]
    assert host.pre_calls == []


def test_it_never_raises_even_when_the_kit_breaks(
    host: FakeHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kit_media.host

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise KeyError("surprise")

    monkeypatch.setattr(kit_media.host, "run_guarded", broken)
    out = answer(invoke_host_tool("send_message", ARGS))
    assert out["error_code"] == "host_tool_error"
    assert "invoke_host_tool failed unexpectedly: KeyError" in out["error"]
