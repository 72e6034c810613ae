"""What type checkers see of decorated functions: pinned by pyright in CI, run by pytest.

Each ``assert_type`` pins the parameters or the result a decorated callable shows a type
checker. Each line marked ``# pyright: ignore[<rule>]`` is a call that must stay a type
error: the root ``pyproject.toml`` sets ``reportUnnecessaryTypeIgnoreComment = "error"``,
so pyright fails the moment a decorator lets such a call through again (as every
decorator but ``@tool`` did when they returned ``Any``). pytest runs the same calls and
checks that what they do at run time agrees with the types (the kit's wrappers never
raise for what the model sends, so some ill-typed calls still get an answer).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import types
from collections.abc import Callable, Coroutine
from typing import Annotated, Any, assert_type

import pytest

from hermes_plugin_kit import (
    CommandSpec,
    CommandType,
    Declaration,
    HookSpec,
    MiddlewareKind,
    RegistrationError,
    RegistrationSummary,
    Rich,
    ToolDefinitionError,
    ToolSpec,
    clear_media_delivery_state,
    command,
    declaration_of,
    declarations_in,
    hook,
    int_arg,
    middleware,
    register_plugin,
    str_arg,
    tool,
    transform_media_delivery_output,
)

# -- the declarations under test ----------------------------------------------------------------


@tool(toolset="typing", params={"q": str_arg("Query")})
def typing_lookup(args: dict[str, Any], **kwargs: Any) -> dict[str, int]:
    """Look something up."""
    return {"found": len(args)}


@tool(toolset="typing", params={"a": int_arg("A"), "b": int_arg("B")})
async def typing_fetch(args: dict[str, Any], **kwargs: Any) -> list[str]:
    """Fetch something."""
    return sorted(args)


@command("typing-status")
def typing_status(raw: str) -> dict[str, int]:
    """Show the status."""
    return {"chars": len(raw)}


@command("typing-later")
async def typing_later(raw: str) -> str:
    """Answer later."""
    return raw.upper()


@command("typing-sync", type=CommandType.CLI)
def typing_sync(args: argparse.Namespace) -> int:
    """Sync from the terminal."""
    return 7


@command("typing-cli-string", type="cli")
def typing_cli_string(args: argparse.Namespace) -> str:
    """A CLI command typed with the string form."""
    return "done"


@hook("pre_llm_call")
def typing_context(*, session_id: str = "", **kwargs: Any) -> dict[str, str]:
    return {"context": session_id}


@middleware(MiddlewareKind.TOOL_REQUEST)
def typing_rewrite(*, args: dict[str, Any] | None = None, **kwargs: Any) -> dict[str, Any]:
    return {"args": {**(args or {}), "rewritten": True}}


# -- @tool ------------------------------------------------------------------------------------


def test_a_sync_tool_keeps_its_parameters_and_answers_str() -> None:
    answer = typing_lookup({"q": "x"}, task_id="t")
    assert_type(answer, str)
    assert json.loads(answer) == {"success": True, "data": {"found": 1}}
    keeps: Callable[[dict[str, Any]], str] = typing_lookup
    assert keeps is typing_lookup


def test_wrong_calls_to_a_sync_tool_are_type_errors() -> None:
    wrong: Callable[[str], str] = typing_lookup  # pyright: ignore[reportAssignmentType]
    # still an envelope at run time: the wrapper never raises for what the model sends
    refused = json.loads(typing_lookup("not a dict"))  # pyright: ignore[reportArgumentType]
    assert refused["error_code"] == "invalid_argument"
    assert wrong is typing_lookup
    with pytest.raises(TypeError):
        typing_lookup({}, {})  # pyright: ignore[reportCallIssue]


def test_an_async_tool_keeps_its_parameters_and_answers_a_coroutine_of_str() -> None:
    pending = assert_type(typing_fetch({"b": 1, "a": 2}), Coroutine[Any, Any, str])
    answer = asyncio.run(pending)
    assert_type(answer, str)
    assert json.loads(answer) == {"success": True, "data": ["a", "b"]}
    with pytest.raises(TypeError):
        _ = typing_fetch({}, {})  # pyright: ignore[reportCallIssue]


@tool(toolset="typing", params={"q": str_arg("Query")})
def typing_picture(args: dict[str, Any], **kwargs: Any) -> Rich:
    """Draw something."""
    return Rich(str(args.get("q")))


@tool(toolset="typing", params={"q": str_arg("Query")})
async def typing_apicture(args: dict[str, Any], **kwargs: Any) -> Rich:
    """Draw something, asynchronously."""
    return Rich(str(args.get("q")))


def test_a_rich_tool_answers_the_multimodal_envelope_or_a_str() -> None:
    answer = assert_type(typing_picture({"q": "x"}), str | dict[str, Any])
    assert isinstance(answer, dict)
    assert answer["content"] == [{"type": "text", "text": "x"}]
    pending = assert_type(typing_apicture({"q": "y"}), Coroutine[Any, Any, str | dict[str, Any]])
    assert_type(asyncio.run(pending), str | dict[str, Any])
    as_str: Callable[[dict[str, Any]], str] = typing_picture  # pyright: ignore[reportAssignmentType]
    assert as_str is typing_picture


class TypingProvider:
    @tool(toolset="typing")
    def typing_recall(self, query: str, limit: int = 1) -> list[str]:
        """Recall notes.

        Args:
            query: what to look for.
            limit: how many.
        """
        return [query] * limit


def test_a_method_tool_read_from_an_instance_is_bound_to_it() -> None:
    provider = TypingProvider()
    answer = provider.typing_recall(query="x", limit=2)
    assert_type(answer, str)
    assert json.loads(answer) == {"success": True, "data": ["x", "x"]}
    refused = json.loads(provider.typing_recall(query=3))  # pyright: ignore[reportArgumentType]
    assert refused["error_code"] == "invalid_argument"


def test_bare_tool_is_a_type_error() -> None:
    def handler(args: dict[str, Any], **kwargs: Any) -> str:
        """Doc."""
        return ""

    with pytest.raises(ToolDefinitionError, match="written with parentheses"):
        tool(handler)  # pyright: ignore[reportArgumentType]


# -- @command ---------------------------------------------------------------------------------


def test_a_slash_command_keeps_its_parameters_and_answers_str_or_none() -> None:
    reply = typing_status("abc")
    assert_type(reply, str | None)
    assert reply == '{"chars": 3}'  # what is not a str is sent as JSON text
    pending = assert_type(typing_later("abc"), Coroutine[Any, Any, str | None])
    assert asyncio.run(pending) == "ABC"


def test_wrong_calls_to_a_slash_command_are_type_errors() -> None:
    with pytest.raises(TypeError):
        typing_status(3)  # pyright: ignore[reportArgumentType]
    with pytest.raises(TypeError):
        typing_status("a", "b")  # pyright: ignore[reportCallIssue]
    with pytest.raises(TypeError):
        _ = typing_later("a", "b")  # pyright: ignore[reportCallIssue]


def test_a_cli_command_is_typed_as_its_handler() -> None:
    namespace = argparse.Namespace()
    assert_type(typing_sync(namespace), int)
    assert typing_sync(namespace) == 7
    assert_type(typing_cli_string(namespace), str)
    with pytest.raises(TypeError):
        typing_sync(namespace, 2)  # pyright: ignore[reportCallIssue]
    typing_sync("not a namespace")  # pyright: ignore[reportArgumentType]


def runtime_typed(kind: CommandType | str) -> Callable[[str], Any]:
    def handler(raw: str) -> str:
        """Typed at run time."""
        return raw

    fn = command("typing-runtime", type=kind)(handler)
    assert_type(fn("x"), Any)
    return fn


def test_a_command_type_known_only_at_run_time_keeps_the_parameters() -> None:
    fn = runtime_typed("slash")
    assert fn("x") == "x"
    with pytest.raises(TypeError):
        fn("x", "y")  # pyright: ignore[reportCallIssue]


def test_options_a_slash_command_refuses_are_type_errors() -> None:
    with pytest.raises(ValueError, match="help is only valid for CLI"):
        command("typing-x", "D.", help="h")  # pyright: ignore[reportArgumentType]


# -- @hook and @middleware --------------------------------------------------------------------


def test_a_hook_keeps_its_signature() -> None:
    assert_type(typing_context(session_id="s"), dict[str, str])
    assert typing_context(session_id="s", telemetry_schema_version=1) == {"context": "s"}
    with pytest.raises(TypeError):
        typing_context("positional")  # pyright: ignore[reportCallIssue]
    assert typing_context(session_id=3) == {"context": 3}  # pyright: ignore[reportArgumentType]


def test_a_middleware_keeps_its_signature() -> None:
    rewritten = typing_rewrite(args={"a": 1}, tool_name="t")
    assert_type(rewritten, dict[str, Any])
    assert rewritten == {"args": {"a": 1, "rewritten": True}}
    with pytest.raises(TypeError):
        typing_rewrite({"a": 1})  # pyright: ignore[reportCallIssue]


def test_the_media_hooks_keep_their_signatures() -> None:
    assert_type(transform_media_delivery_output(session_id="typing-none"), str | None)
    assert transform_media_delivery_output(session_id="typing-none") is None
    assert_type(clear_media_delivery_state(session_id="typing-none"), None)
    with pytest.raises(TypeError):
        transform_media_delivery_output("a", "b", "c")  # pyright: ignore[reportCallIssue]


# -- the reader ---------------------------------------------------------------------------------


def test_the_reader_is_typed_by_the_kind_asked_for() -> None:
    assert_type(declaration_of(typing_lookup), Declaration | None)
    tool_spec = declaration_of(typing_lookup, ToolSpec)
    assert_type(tool_spec, ToolSpec | None)
    assert tool_spec is not None
    assert tool_spec.name == "typing_lookup"
    command_spec = declaration_of(typing_status, CommandSpec)
    assert_type(command_spec, CommandSpec | None)
    assert command_spec is not None
    assert command_spec.type is CommandType.SLASH
    module = types.ModuleType("typing_reader_module")
    module.__dict__["hooks"] = (typing_context,)
    found = declarations_in(module, HookSpec)
    assert_type(found, list[tuple[str, object, HookSpec]])
    assert [(where, spec.name) for where, _, spec in found] == [("hooks[0]", "pre_llm_call")]
    declaration_of(typing_lookup, str)  # pyright: ignore[reportArgumentType]


class _ToolsOnly:
    """A plugin context offering only register_tool."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def register_tool(self, name: str, **kwargs: Any) -> None:
        self.names.append(name)


def test_register_plugin_takes_modules_mixed_with_declarations() -> None:
    tools_module = types.ModuleType("typing_tools_module")
    tools_module.lookup = typing_lookup  # type: ignore[attr-defined]
    ctx = _ToolsOnly()
    mixed = [tools_module, "typing_tools_module_unused", typing_lookup]
    assert_type(
        register_plugin(ctx, [tools_module, typing_lookup], plugin_name="typing"),
        RegistrationSummary,
    )
    assert ctx.names == ["typing_lookup"]
    with pytest.raises(RegistrationError, match="cannot import module"):
        register_plugin(ctx, mixed, plugin_name="typing")  # a module name is fine to pyright
    with pytest.raises(RegistrationError):
        register_plugin(ctx, [1, 2])  # pyright: ignore[reportArgumentType]


# -- typed-signature tools ---------------------------------------------------------------


@tool(toolset="typing")
def typing_forecast(
    city: Annotated[str, "The city"], days: Annotated[int, "Days"] = 3
) -> dict[str, int]:
    """Forecast."""
    return {city: days}


def test_a_typed_tool_shows_its_own_keyword_parameters_and_answers_a_str() -> None:
    assert_type(typing_forecast(city="Oslo"), str)
    assert json.loads(typing_forecast(city="Oslo", days=2)) == {
        "success": True,
        "data": {"Oslo": 2},
    }
    answered = typing_forecast(city=5)  # pyright: ignore[reportArgumentType]
    assert json.loads(answered)["error"] == "city must be a string; got integer 5"
