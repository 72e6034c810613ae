"""``ProviderTools``: a provider's ``@tool``s answer ``get_tool_schemas`` and
``handle_tool_call`` as a registered kit tool answers the host (in memory; hermes' own
memory manager drives them in tests/host/test_provider_tools.py)."""

from __future__ import annotations

import json
import logging
import types
from typing import Any

import pytest

from kit_core import (
    ProviderTools,
    RegistrationError,
    ToolContext,
    ToolDefinitionError,
    ToolSpec,
    declaration_of,
    int_arg,
    register_all,
    str_arg,
    tool,
)

SECRET = "sk-live-0123456789abcdefghij"


@tool(
    toolset="notes",
    params={"text": str_arg("What to note.", required=True), "tag": str_arg("A tag.")},
    requires_env=["NOTES_TOKEN"],
)
def notes_add(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Add a note."""
    if args["text"] == "boom":
        raise RuntimeError(f"backend refused token {SECRET}")
    return {"added": args["text"], "tag": args.get("tag"), "keywords": sorted(kwargs)}


class Notes:
    """A provider (the base class does not matter to the kit)."""

    def __init__(self, *notes: str) -> None:
        self.notes = list(notes)

    @tool(toolset="notes")
    def notes_search(self, query: str, limit: int = 1) -> list[str]:
        """Search the notes.

        Args:
            query: words to look for.
            limit: the most notes to return.
        """
        return [n for n in self.notes if query in n][:limit]

    @tool(toolset="notes", params={"index": int_arg("Which note.", required=True)})
    def notes_get(self, args: dict[str, Any], **kwargs: Any) -> str:
        """Read one note."""
        return self.notes[args["index"]]

    @tool(toolset="notes")
    def notes_context(self, ctx: ToolContext) -> dict[str, Any]:
        """What the caller passed besides the arguments."""
        return {"count": len(self.notes), "extra": sorted(ctx.extra)}

    tools = ProviderTools(notes_search, notes_get, notes_add, notes_context)

    def get_tool_schemas(self) -> list[dict[str, Any]]:
        return self.tools.schemas()

    def handle_tool_call(self, tool_name: str, args: dict[str, Any], **kwargs: Any) -> str:
        return self.tools.handle(tool_name, args, **kwargs)


def answer(provider: Notes, name: str, args: Any, **kwargs: Any) -> Any:
    return json.loads(provider.handle_tool_call(name, args, **kwargs))


def test_the_schemas_are_the_bare_function_schemas_a_registered_tool_has() -> None:
    schemas = Notes().get_tool_schemas()
    assert [s["name"] for s in schemas] == [
        "notes_search",
        "notes_get",
        "notes_add",
        "notes_context",
    ]
    registered = declaration_of(notes_add, ToolSpec)
    assert registered is not None
    assert schemas[2] == registered.register_kwargs(notes_add)["schema"]
    assert set(schemas[0]) == {"name", "description", "parameters"}  # bare, as hermes wants
    assert schemas[0]["parameters"]["properties"]["limit"]["default"] == 1
    schemas[0]["name"] = "changed"
    assert Notes().get_tool_schemas()[0]["name"] == "notes_search"  # a fresh copy each time


def test_a_method_tool_is_called_with_the_provider_it_is_read_from() -> None:
    one, two = Notes("buy milk", "milk the cow"), Notes("call mum")
    assert answer(one, "notes_search", {"query": "milk"}) == {"success": True, "data": ["buy milk"]}
    assert answer(one, "notes_search", {"query": "milk", "limit": 2})["data"] == [
        "buy milk",
        "milk the cow",
    ]
    assert answer(two, "notes_search", {"query": "mum"})["data"] == ["call mum"]
    assert two.handle_tool_call("notes_get", {"index": 0}) == "call mum"  # a str, as it is
    assert one.notes_search(query="cow", limit=3) == '{"success": true, "data": ["milk the cow"]}'
    assert one.notes_get({"index": 1}) == "milk the cow"


def test_calls_are_checked_as_a_registered_tools_calls_are() -> None:
    provider = Notes("a")
    missing = answer(provider, "notes_search", {})
    assert (missing["error_code"], missing["success"]) == ("missing_argument", False)
    wrong = answer(provider, "notes_get", {"index": "first"})
    assert wrong["error_code"] == "invalid_argument"
    as_text = answer(provider, "notes_search", '{"query": "a"}')  # hermes may pass JSON text
    assert as_text == {"success": True, "data": ["a"]}
    assert provider.handle_tool_call("notes_add", {"text": "x"}) == notes_add({"text": "x"})


def test_the_callers_keywords_reach_the_handler_never_the_arguments() -> None:
    provider = Notes("a", "b")
    added = answer(provider, "notes_add", {"text": "x"}, messages=[{"role": "user"}])
    assert added["data"]["keywords"] == ["messages"]  # a context engine's messages=
    context = answer(provider, "notes_context", {}, messages=[], session_id="s1")
    assert context["data"] == {"count": 2, "extra": ["messages"]}


def test_a_name_it_does_not_have_gets_an_unknown_tool_envelope() -> None:
    provider = Notes()
    assert provider.tools.owns("notes_get")
    assert not provider.tools.owns("notes_nope")
    assert not provider.tools.owns(None)
    unknown = answer(provider, "notes_nope", {})
    assert unknown == {
        "success": False,
        "error": "unknown tool 'notes_nope': this provider's tools are notes_search, notes_get,"
        " notes_add, notes_context",
        "error_code": "unknown_tool",
    }
    assert answer(provider, 3, {})["error"].startswith("unknown tool a int:")  # type: ignore[arg-type]


def test_a_method_tool_without_its_provider_gets_an_error_envelope_saying_how() -> None:
    unbound = Notes.tools.handle("notes_search", {"query": "a"})
    refused = json.loads(unbound)
    assert refused["error_code"] == "handler_error"
    assert "self.tools.handle(...)" in refused["error"]
    assert json.loads(Notes.tools.bind(Notes("a")).handle("notes_search", {"query": "a"}))[
        "data"
    ] == ["a"]
    assert json.loads(Notes.tools.handle("notes_add", {"text": "t"}))["success"] is True
    direct = json.loads(Notes.notes_get({"index": 0}))  # type: ignore[call-arg]
    assert direct["success"] is False  # the dict was taken for self: no instance to call with


def test_failures_are_logged_and_redacted_as_a_registered_tools_are(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NOTES_TOKEN", SECRET)
    caplog.set_level(logging.DEBUG, logger=__name__)
    failed = answer(Notes(), "notes_add", {"text": "boom"})
    assert failed["error_code"] == "handler_error"
    assert SECRET not in failed["error"]
    assert SECRET not in caplog.text
    assert "notes_add: handler raised" in caplog.text
    answer(Notes("a"), "notes_search", {"query": "a"})
    assert "notes_search: ok" in caplog.text
    assert "<self>" not in caplog.text
    assert "Notes object" not in caplog.text


def test_what_a_provider_cannot_hold_is_refused_at_declaration() -> None:
    def plain(args: dict[str, Any], **kwargs: Any) -> str:
        return ""

    with pytest.raises(ToolDefinitionError, match=r"item 1 \(plain\) is not a @tool; put @tool"):
        ProviderTools(plain)

    @tool(toolset="t")
    async def t_wait() -> str:
        """Wait."""
        return ""

    with pytest.raises(ToolDefinitionError, match=r"t_wait is async def.*write it as a plain def"):
        ProviderTools(t_wait)

    @tool(toolset="t", name="notes_add", params={})
    def other(args: dict[str, Any], **kwargs: Any) -> str:
        """Another."""
        return ""

    with pytest.raises(
        ToolDefinitionError, match=r"two tools are named 'notes_add' \(items 1 and 2\)"
    ):
        ProviderTools(notes_add, other)
    assert ProviderTools(notes_add, notes_add).names == ("notes_add",)


def test_a_spec_style_method_must_take_self_args_and_keywords() -> None:
    with pytest.raises(ToolDefinitionError, match=r"must take \(self, args, \*\*kwargs\)"):

        @tool(toolset="t", params={"q": str_arg("Q.")})
        def t_search(self: object, q: str) -> str:
            """Search."""
            return q


def test_a_method_tool_is_never_registered_with_the_host() -> None:
    module = types.ModuleType("provider_module")
    module.notes_search = Notes.notes_search  # type: ignore[attr-defined]
    with pytest.raises(RegistrationError, match=r"notes_search .*is a method of a provider class"):
        register_all(types.SimpleNamespace(register_tool=lambda **_: None), module)
