"""Round three's typed-signature cases: NotRequired keys, recursive types, InitVar fields,
a required ``X | None`` sent as null, and a default too large to write as JSON."""

from __future__ import annotations

import dataclasses
import json
from typing import Annotated, Any, NotRequired, Required, TypedDict

import pytest

from kit_core import ToolDefinitionError, ToolSpec, declaration_of, tool


class Filters(TypedDict, total=False):
    """What to filter by.

    Attributes:
        tag: a tag the note carries
        author: who wrote it
    """

    tag: Required[str]
    author: NotRequired[str]


class Options(TypedDict):
    """Options.

    Attributes:
        limit: how many
        order: newest or oldest first
    """

    limit: int
    order: NotRequired[Annotated[str, "newest or oldest first"]]


class Tree(TypedDict):
    """A tree.

    Attributes:
        name: its name
        children: its subtrees
    """

    name: str
    children: list[Tree]


@dataclasses.dataclass
class Outer:
    """Outer.

    Attributes:
        inner: the inner part
    """

    inner: Inner | None


@dataclasses.dataclass
class Inner:
    """Inner.

    Attributes:
        outer: back to the outer part
    """

    outer: Outer


@dataclasses.dataclass
class Scaled:
    """A scaled value.

    Attributes:
        value: the value
        scale: how much to scale it
    """

    value: int
    scale: dataclasses.InitVar[int]

    def __post_init__(self, scale: int) -> None:
        self.value *= scale


def _schema(fn: Any) -> dict[str, Any]:
    spec = declaration_of(fn, ToolSpec)
    assert spec is not None
    return spec.definition()["function"]["parameters"]


def test_not_required_and_required_keys_are_read_from_the_typed_dict() -> None:
    @tool(toolset="t", namespace="tr", name="tr_find")
    def find(filters: Filters, options: Options) -> str:
        """Find notes.

        Args:
            filters: what to look for
            options: how to list them
        """
        return json.dumps([filters, options])

    properties = _schema(find)["properties"]
    assert properties["filters"]["required"] == ["tag"]
    assert properties["options"]["required"] == ["limit"]
    assert properties["options"]["properties"]["order"]["description"] == ("newest or oldest first")
    wrapped: Any = find  # the model's call: one dict of arguments
    out = json.loads(wrapped({"filters": {"tag": "x"}, "options": {"limit": 2}}))
    assert out == [{"tag": "x"}, {"limit": 2}]


def walk_tree(node: Tree) -> str:
    """Walk.

    Args:
        node: where to start
    """
    return "never"


def walk_outer(node: Outer) -> str:
    """Walk.

    Args:
        node: where to start
    """
    return "never"


@pytest.mark.parametrize(
    ("handler", "path"), [(walk_tree, "Tree -> Tree"), (walk_outer, "Outer -> Inner -> Outer")]
)
def test_a_recursive_type_is_refused_in_one_short_sentence(handler: Any, path: str) -> None:
    with pytest.raises(ToolDefinitionError) as caught:
        tool(toolset="t", namespace="tr", name="tr_walk")(handler)
    message = str(caught.value)
    assert f"inside itself ({path})" in message
    assert len(message) < 600


def test_an_init_only_field_without_a_default_is_refused_at_declaration() -> None:
    with pytest.raises(ToolDefinitionError, match=r"'value'\.scale: is an InitVar of Scaled"):

        @tool(toolset="t", namespace="tr", name="tr_scale")
        def scale(value: Scaled) -> str:
            """Scale.

            Args:
                value: what to scale
            """
            return "never"


def test_a_required_optional_value_takes_an_explicit_null() -> None:
    @tool(toolset="t", namespace="tr", name="tr_pick")
    def pick(choice: int | None) -> str:
        """Pick.

        Args:
            choice: the pick, or null for none
        """
        return f"got {choice!r}"

    wrapped: Any = pick  # the model's call: one dict of arguments
    assert wrapped({"choice": None}) == "got None"
    assert wrapped({"choice": 3}) == "got 3"
    missing = json.loads(wrapped({}))
    assert missing["error_code"] == "missing_argument"


def test_a_default_too_large_for_json_is_a_declaration_error() -> None:
    with pytest.raises(ToolDefinitionError, match=r"too large to write as JSON"):

        @tool(toolset="t", namespace="tr", name="tr_count")
        def count(n: int = 10**5000) -> str:
            """Count.

            Args:
                n: how far
            """
            return "never"
