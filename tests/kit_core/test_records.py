"""The declaration records are frozen value classes written out (``kit_core._record``),
behaving as the ``@dataclass(frozen=True, slots=True)`` classes they replace."""

from __future__ import annotations

import dataclasses

import pytest

from kit_core import ArgSpec, HookSpec, ToolSpec, declaration_of, str_arg, tool


def handler(args: dict[str, object], **kwargs: object) -> str:
    """Echo."""
    return "ok"


def test_fields_are_frozen_and_slotted() -> None:
    spec = declaration_of(tool(toolset="t", name="rec_echo")(handler))
    assert spec is not None
    arg = str_arg("text", required=True)
    for record, field in ((spec, "name"), (arg, "required"), (HookSpec("on_x", print), "name")):
        with pytest.raises(dataclasses.FrozenInstanceError, match=f"field '{field}'"):
            setattr(record, field, "changed")
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(record, field)
        assert not hasattr(record, "__dict__")


def test_repr_lists_the_fields_in_declaration_order_and_hides_callables() -> None:
    assert repr(ArgSpec({"type": "string"}, True)) == (
        "ArgSpec(schema={'type': 'string'}, required=True, example=None)"
    )
    assert repr(HookSpec("on_x", print)) == "HookSpec(name='on_x')"
    spec = declaration_of(tool(toolset="t", name="rec_echo")(handler))
    shown = repr(spec)
    assert shown.startswith("ToolSpec(name='rec_echo', toolset='t', description=")
    assert "handler" not in shown
    assert "_schema" not in shown


def test_value_records_compare_by_fields_and_tools_by_identity() -> None:
    assert ArgSpec({"type": "string"}, True) == ArgSpec({"type": "string"}, True)
    assert ArgSpec({"type": "string"}, True) != ArgSpec({"type": "string"}, False)
    assert HookSpec("on_x", print) == HookSpec("on_x", print)
    assert hash(HookSpec("on_x", print)) == hash(HookSpec("on_x", print))
    assert HookSpec("on_x", print) != ArgSpec({"type": "string"})
    with pytest.raises(TypeError, match="unhashable"):
        hash(ArgSpec({"type": "string"}))  # its schema is a dict, as with the dataclass
    first = declaration_of(tool(toolset="t", name="rec_echo")(handler))
    second = declaration_of(tool(toolset="t", name="rec_echo")(handler))
    assert first != second
    assert first == first
    assert len({first, second}) == 2


def test_a_tool_carries_its_declared_examples_read_only() -> None:
    declared = tool(
        toolset="t",
        name="rec_examples",
        params={
            "text": str_arg("Text", required=True, example="hi"),
            "mode": str_arg("Mode"),
        },
    )(handler)
    spec = declaration_of(declared, ToolSpec)
    assert spec is not None
    assert dict(spec.examples) == {"text": "hi"}
    with pytest.raises(TypeError):
        spec.examples["text"] = "changed"  # type: ignore[index]
    bare = declaration_of(tool(toolset="t", name="rec_bare")(handler), ToolSpec)
    assert bare is not None
    assert dict(bare.examples) == {}
