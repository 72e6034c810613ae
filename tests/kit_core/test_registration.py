"""register_all: every @tool of a module, with every host field, checked before registering."""

from __future__ import annotations

import logging
import sys
import types
from typing import Any

import pytest
from tests._hermes_context import RecordingContext

from kit_core import RegistrationError, ToolSpec, declaration_of, register_all, str_arg, tool
from kit_core.registration import collect_tools


def spec_of(fn: object) -> ToolSpec:
    """The ToolSpec of a @tool function."""
    spec = declaration_of(fn, ToolSpec)
    assert spec is not None, f"{fn!r} carries no ToolSpec"
    return spec


def make_module(name: str, **members: Any) -> types.ModuleType:
    module = types.ModuleType(name)
    vars(module).update(members)
    return module


def gate() -> bool:
    return True


@tool(
    toolset="regtest",
    name="reg_send_note",
    params={"text": str_arg("Text", required=True)},
    requires_env=["REG_TOKEN"],
    check_fn=gate,
    emoji="📝",
)
def send_note(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Send a note."""
    return {}


@tool(toolset="regtest", name="reg_fetch_note")
async def fetch_note(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Fetch a note."""
    return {}


def test_every_host_field_is_passed_in_name_order() -> None:
    ctx = RecordingContext()
    module = make_module("regmod", send_note=send_note, fetch_note=fetch_note, other=len)
    assert register_all(ctx, module) == 2
    (_, no_positional, fetch), (_, none_either, send) = ctx.given
    assert no_positional == none_either == ()
    assert set(send) == {
        "name",
        "toolset",
        "schema",
        "handler",
        "check_fn",
        "requires_env",
        "is_async",
        "description",
        "emoji",
    }
    assert fetch["name"] == "reg_fetch_note"
    assert fetch["is_async"] is True
    assert fetch["requires_env"] is None
    assert send == {
        "name": "reg_send_note",
        "toolset": "regtest",
        "schema": spec_of(send_note).schema,
        "handler": send_note,
        "check_fn": gate,
        "requires_env": ["REG_TOKEN"],
        "is_async": False,
        "description": "Send a note. Required: `text`.",
        "emoji": "📝",
    }


def test_the_host_gets_its_own_copy_of_the_schema() -> None:
    ctx = RecordingContext()
    register_all(ctx, make_module("regcopy", send_note=send_note))
    ctx.called("register_tool")[0]["schema"]["parameters"]["properties"].clear()
    assert spec_of(send_note).schema["parameters"]["properties"]


def test_a_module_name_is_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "regbyname", make_module("regbyname", send_note=send_note))
    ctx = RecordingContext()
    assert register_all(ctx, "regbyname") == 1


def test_an_unknown_module_name_is_a_clear_error() -> None:
    with pytest.raises(RegistrationError, match="cannot import module 'no_such_plugin_module'"):
        register_all(RecordingContext(), "no_such_plugin_module")


def test_the_same_tool_under_two_attribute_names_counts_once() -> None:
    ctx = RecordingContext()
    assert register_all(ctx, make_module("regalias", a=send_note, b=send_note)) == 1


def test_two_different_tools_with_one_name_fail_before_anything_is_registered() -> None:
    @tool(toolset="regtest", name="reg_send_note")
    def impostor(args: dict[str, Any], **kwargs: Any) -> None:
        """Same name."""

    ctx = RecordingContext()
    with pytest.raises(
        RegistrationError, match=r"duplicate tool name: reg_send_note .*'impostor' and 'send_note'"
    ):
        register_all(
            ctx,
            make_module("regdup", fetch_note=fetch_note, send_note=send_note, impostor=impostor),
        )
    assert ctx.calls == []


def test_a_context_without_register_tool_is_refused() -> None:
    with pytest.raises(RegistrationError, match="has no register_tool"):
        register_all(object(), make_module("regnoctx", send_note=send_note))


def test_registration_logs_the_inventory(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="reglog")
    register_all(
        RecordingContext(), make_module("reglog", send_note=send_note, fetch_note=fetch_note)
    )
    assert [r.getMessage() for r in caplog.records if r.name == "reglog"] == [
        "hermes_plugin_kit: registered 2 tool(s); names=reg_fetch_note,reg_send_note"
    ]


def test_an_empty_module_logs_none(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="regempty")
    assert register_all(RecordingContext(), make_module("regempty")) == 0
    assert "names=<none>" in caplog.text


def test_collect_tools_lists_specs_and_functions() -> None:
    found = collect_tools(make_module("regcollect", x=send_note, y=fetch_note))
    assert [(spec.name, fn) for spec, fn in found] == [
        ("reg_fetch_note", fetch_note),
        ("reg_send_note", send_note),
    ]
