"""The spec helpers (``int_arg`` and friends) inside ``Annotated``: their description and
constraints apply to the typed parameter; a helper of another type is refused, naming it."""

from __future__ import annotations

import json
from typing import Annotated, Any

import pytest

from kit_core import (
    ToolDefinitionError,
    ToolSpec,
    array_arg,
    declaration_of,
    int_arg,
    number_arg,
    str_arg,
    tool,
)


def as_tool(fn: object) -> Any:
    """A typed tool called as hermes calls it (one dict of arguments)."""
    return fn


def parameters(fn: object) -> dict[str, Any]:
    spec = declaration_of(fn, ToolSpec)
    assert spec is not None
    return spec.schema["parameters"]


def test_a_helper_inside_annotated_gives_its_description_and_constraints() -> None:
    @tool(toolset="t")
    def count(
        n: Annotated[int, int_arg("How many", minimum=1, maximum=9)],
        word: Annotated[str | None, str_arg("A word", min_length=2, enum=["ab", "cd"])] = None,
        tags: Annotated[list[str], array_arg("Tags", items=str_arg("A tag"), max_items=2)] = [],  # noqa: B006
        ratio: Annotated[float, number_arg("A ratio", maximum=1)] = 0.5,
    ) -> dict[str, Any]:
        """Count."""
        return {"n": n, "word": word, "tags": tags, "ratio": ratio}

    props = parameters(count)["properties"]
    assert props["n"] == {"type": "integer", "description": "How many", "minimum": 1, "maximum": 9}
    assert props["word"] == {
        "type": "string",
        "description": "A word",
        "enum": ["ab", "cd"],
        "minLength": 2,
    }
    assert props["tags"]["maxItems"] == 2
    assert props["tags"]["items"] == {"type": "string"}
    assert props["ratio"]["maximum"] == 1
    assert parameters(count)["required"] == ["n"]
    out = json.loads(as_tool(count)({"n": 0, "word": "zz", "tags": ["a", "b", "c"], "ratio": 2}))
    assert out["error"] == (
        "n must be >= 1; got integer 0 | word must be one of 'ab', 'cd'; got string 'zz'"
        " | tags must have at most 2 items; got array | ratio must be <= 1; got integer 2"
    )
    assert json.loads(as_tool(count)({"n": 3})) == {
        "success": True,
        "data": {"n": 3, "word": None, "tags": [], "ratio": 0.5},
    }


def test_the_helpers_example_is_the_arguments() -> None:
    @tool(toolset="t")
    def city(name: Annotated[str, str_arg("The city", example="Oslo")]) -> str:
        """City."""
        return name

    assert json.loads(as_tool(city)({}))["error"] == "name is required (e.g. 'Oslo')"


@pytest.mark.parametrize(
    ("annotation", "words"),
    [
        (
            "Annotated[int, str_arg('How many')]",
            ["str_arg(...)", "int_arg(...)", "is annotated int"],
        ),
        (
            "Annotated[str | None, int_arg('A word')]",
            ["int_arg(...)", "describes integer", "str_arg(...)"],
        ),
        (
            "Annotated[list[str], array_arg('Tags', items=int_arg('An id'))]",
            ["array_arg(...)", "items of integer", "list[str]"],
        ),
    ],
)
def test_a_helper_of_another_type_is_refused_naming_it_and_the_fix(
    annotation: str, words: list[str]
) -> None:
    namespace: dict[str, Any] = {}
    source = (
        "from typing import Annotated\n"
        "from kit_core import array_arg, int_arg, str_arg, tool\n"
        "@tool(toolset='t')\n"
        f"def f(x: {annotation}) -> str:\n"
        "    '''F.'''\n"
        "    return ''\n"
    )
    with pytest.raises(ToolDefinitionError) as caught:
        exec(source, namespace)
    message = str(caught.value)
    assert "parameter 'x'" in message
    for word in words:
        assert word in message


def test_required_in_the_helper_against_a_default_is_refused() -> None:
    with pytest.raises(
        ToolDefinitionError, match=r"int_arg\(\.\.\.\) inside Annotated says required=True"
    ):

        @tool(toolset="t")
        def f(n: Annotated[int, int_arg("How many", required=True)] = 3) -> int:
            """F."""
            return n
