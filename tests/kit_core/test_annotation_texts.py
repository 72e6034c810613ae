"""Annotation texts (``from __future__ import annotations``) evaluated as Python evaluates
them, the texts that differ only in their literals sharing one compiled shape."""

from __future__ import annotations

import json
import typing
from types import FunctionType
from typing import Annotated, Any, Literal

import pytest

from kit_core import Arg, ToolSpec, declaration_of
from kit_core._hints import clear_hints, hints_of

TWO_TOOLS = '''
from __future__ import annotations
from typing import Annotated
from kit_core import Arg, tool


@tool(toolset="demo")
def demo_city(city: Annotated[str, Arg("The city to look at", example="Oslo")]) -> str:
    """City."""
    return city


@tool(toolset="demo")
def demo_day(day: Annotated[str, Arg("The day of the week", example="Monday")]) -> str:
    """Day."""
    return day
'''


def properties(fn: object) -> dict[str, Any]:
    spec = declaration_of(fn, ToolSpec)
    assert spec is not None
    return spec.schema["parameters"]["properties"]


def test_texts_of_one_shape_keep_their_own_literals() -> None:
    namespace: dict[str, Any] = {"__name__": "annotation_texts_two"}
    exec(TWO_TOOLS, namespace)
    assert properties(namespace["demo_city"])["city"] == {
        "type": "string",
        "description": "The city to look at",
    }
    assert properties(namespace["demo_day"])["day"] == {
        "type": "string",
        "description": "The day of the week",
    }
    assert json.loads(namespace["demo_day"]({}))["error"].endswith("(e.g. 'Monday')")


NAMESPACE: dict[str, Any] = {
    "Annotated": Annotated,
    "Arg": Arg,
    "Literal": Literal,
    "typing": typing,
    "__builtins__": __builtins__,
}
TEXTS = [
    'Annotated[str, Arg("What to look for", example="coffee")]',
    "Annotated[int | None, Arg('How many', minimum=1, maximum=20.5)]",
    'Annotated[str, "for each day"]',  # a keyword inside a literal
    "Literal[-1, 0, 2]",
    "Literal[1.25, 3.0]",
    'Literal["a", "b"] | None',
    'typing.Annotated[str, "x"]',
    # anything else is compiled as written, and means what it means
    'Literal["a" "b"]',
    "Literal['it\\'s']",
    'Literal["""x"""]',
    "Literal[r'x', b'y', f'{1}']",
    "Literal[1_000, 0x10, 1e3, 2j]",
    "Literal[tuple(x for x in 'ab')]",
    "Literal[(lambda: 'z')()]",
    'Literal["abc"[1:]]',
    'Literal["x".upper()]',
    "Literal['# no comment']",
    "str",
    "int | None",
]


@pytest.mark.parametrize("text", TEXTS)
def test_an_annotation_text_means_what_python_makes_of_it(text: str) -> None:
    def handler(value: Any) -> None:
        """A handler."""

    handler.__annotations__ = {"value": text}
    handler_globals: dict[str, Any] = handler.__globals__
    saved = {k: handler_globals.get(k) for k in NAMESPACE}
    clear_hints()
    for _ in range(2):  # first evaluated, then kept
        expected = eval(text, NAMESPACE)
        assert hints_of(handler)["value"] == expected
        assert repr(hints_of(handler)["value"]) == repr(expected)
    assert all(handler_globals.get(k) is v for k, v in saved.items())


def test_a_module_name_like_a_placeholder_does_not_hide_a_literal() -> None:
    def handler(value: Any) -> None:
        """A handler."""

    handler.__annotations__ = {"value": 'Literal["kept"]'}
    namespace = {"Literal": Literal, "__hpk_literal_0": "shadowed"}
    shadowed = FunctionType(handler.__code__, namespace, "handler")
    shadowed.__annotations__ = handler.__annotations__
    clear_hints()
    assert hints_of(shadowed)["value"] == Literal["kept"]


def test_a_text_without_literals_names_each_modules_own_object_and_its_rebinding() -> None:
    def handler(value: Any) -> None:
        """A handler."""

    handler.__annotations__ = {"value": "Mode"}
    one: dict[str, Any] = {"Mode": Literal["a"]}
    two: dict[str, Any] = {"Mode": Literal["b"]}
    in_one = FunctionType(handler.__code__, one, "handler")
    in_two = FunctionType(handler.__code__, two, "handler")
    in_one.__annotations__ = in_two.__annotations__ = handler.__annotations__
    clear_hints()
    assert hints_of(in_one)["value"] == Literal["a"]
    assert hints_of(in_two)["value"] == Literal["b"]
    one["Mode"] = Literal["c"]
    assert hints_of(in_one)["value"] == Literal["c"]
    assert hints_of(in_two)["value"] == Literal["b"]
