"""An argument's ``default=``: shown in the schema, filled in before the handler runs when
the model leaves the argument out (or sends null), and checked against its own spec when
the tool is decorated."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest

from kit_core import (
    ToolDefinitionError,
    ToolSpec,
    array_arg,
    declaration_of,
    int_arg,
    str_arg,
    tool,
)


def answer(fn: Callable[..., str], args: Any) -> dict[str, Any]:
    return json.loads(fn(args))


def spec_of(fn: object) -> ToolSpec:
    spec = declaration_of(fn, ToolSpec)
    assert spec is not None
    return spec


PARAMS = {
    "query": str_arg("What to look for", required=True),
    "limit": int_arg("How many", minimum=1, maximum=50, default=10),
    "region": str_arg("Where", enum=["eu", "us"], default="eu"),
    "tags": array_arg("Tags", items=str_arg("tag"), default=["new"]),
}


def make(**options: Any) -> Callable[..., str]:
    seen: list[dict[str, Any]] = []

    @tool(toolset="t", description="Search.", params=PARAMS, **options)
    def search(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        seen.append(args)
        args["tags"].append("touched")  # a handler changing a default changes it once
        return args

    return search


def test_omitted_arguments_get_their_defaults() -> None:
    search = make()
    data = answer(search, {"query": "coffee"})["data"]
    assert data == {"query": "coffee", "limit": 10, "region": "eu", "tags": ["new", "touched"]}


def test_sent_values_win_over_defaults() -> None:
    search = make()
    data = answer(search, {"query": "x", "limit": 3, "region": "us", "tags": []})["data"]
    assert data == {"query": "x", "limit": 3, "region": "us", "tags": ["touched"]}


def test_null_counts_as_absent_and_gets_the_default() -> None:
    search = make()
    data = answer(search, {"query": "x", "limit": None, "region": None})["data"]
    assert data["limit"] == 10
    assert data["region"] == "eu"


def test_each_call_gets_a_fresh_copy_and_the_callers_dict_is_untouched() -> None:
    search = make()
    sent: dict[str, Any] = {"query": "x"}
    answer(search, sent)
    second = answer(search, {"query": "y"})["data"]
    assert second["tags"] == ["new", "touched"]
    assert sent == {"query": "x"}


def test_json_string_arguments_get_defaults_too() -> None:
    search = make()
    assert answer(search, '{"query": "x"}')["data"]["limit"] == 10


def test_invalid_values_are_still_refused() -> None:
    search = make()
    refused = answer(search, {"query": "x", "limit": 99})
    assert refused["success"] is False
    assert "limit" in refused["error"]


def test_defaults_apply_without_validation() -> None:
    search = make(validate_required=False)
    data = answer(search, {})["data"]
    assert data["limit"] == 10
    assert data["region"] == "eu"


def test_async_tools_get_defaults() -> None:
    @tool(toolset="t", description="Search.", params={"n": int_arg("N", default=2)})
    async def count(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return args

    assert json.loads(asyncio.run(count({})))["data"] == {"n": 2}


def test_defaults_are_in_the_schema() -> None:
    props = spec_of(make()).schema["parameters"]["properties"]
    assert props["limit"]["default"] == 10
    assert props["region"]["default"] == "eu"
    assert props["tags"]["default"] == ["new"]


def test_a_supplied_schema_default_applies() -> None:
    schema = {
        "name": "ping",
        "description": "Ping.",
        "parameters": {
            "type": "object",
            "properties": {"times": {"type": "integer", "minimum": 1, "default": 3}},
        },
    }

    @tool(toolset="t", schema=schema)
    def ping(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return args

    assert answer(ping, {})["data"] == {"times": 3}


def test_tools_of_one_shape_with_different_defaults_do_not_share_them() -> None:
    @tool(toolset="t", description="A.", params={"n": int_arg("N", default=1)})
    def first(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return args

    @tool(toolset="t", description="B.", params={"n": int_arg("N", default=2)})
    def second(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return args

    assert answer(first, {})["data"] == {"n": 1}
    assert answer(second, {})["data"] == {"n": 2}


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        (int_arg("N", minimum=1, maximum=50, default=100), "must be <= 50"),
        (int_arg("N", default="ten"), "must be"),
        (str_arg("S", min_length=3, default="ab"), "at least 3"),
        (str_arg("S", maxLength=2, default="abc"), "at most 2"),
        (str_arg("S", pattern="^[a-z]+$", default="ABC"), "pattern"),
        (str_arg("S", enum=["eu", "us"], default="asia"), "one of"),
    ],
)
def test_a_default_that_breaks_its_spec_is_refused(spec: Any, fragment: str) -> None:
    with pytest.raises(ToolDefinitionError, match="the default of n does not fit") as caught:

        @tool(toolset="t", description="D.", params={"n": spec})
        def broken(args: dict[str, Any], **kwargs: Any) -> str:
            return ""

    assert fragment in str(caught.value)


def test_a_default_that_breaks_its_spec_is_refused_without_validation_too() -> None:
    with pytest.raises(ToolDefinitionError, match="the default of n does not fit"):

        @tool(
            toolset="t",
            description="D.",
            params={"n": int_arg("N", maximum=5, default=9)},
            validate_required=False,
        )
        def broken(args: dict[str, Any], **kwargs: Any) -> str:
            return ""


def test_a_required_argument_with_a_default_is_refused() -> None:
    with pytest.raises(ToolDefinitionError, match="'n' is required and has a default"):

        @tool(toolset="t", description="D.", params={"n": int_arg("N", required=True, default=1)})
        def broken(args: dict[str, Any], **kwargs: Any) -> str:
            return ""
