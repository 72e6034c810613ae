"""Tools declared by a typed signature: the schema, the checks, the call and the refusals.

The types used in annotations live at module level: under ``from __future__ import
annotations`` the kit resolves them from the handler's module, as it must for any plugin.
"""

from __future__ import annotations

import asyncio
import enum
import json
import logging
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Optional, TypedDict

import pytest

from kit_core import (
    Arg,
    ToolContext,
    ToolDefinitionError,
    array_arg,
    bool_arg,
    declaration_of,
    int_arg,
    number_arg,
    object_arg,
    str_arg,
    tool,
)
from kit_core.toolspec import ToolSpec


class Unit(enum.Enum):
    CELSIUS = "celsius"
    KELVIN = "kelvin"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


@dataclass
class Point:
    """A point on the map.

    Attributes:
        x: Metres east.
        y: Metres north.
    """

    x: float
    y: float = 0.0


class Filter(TypedDict, total=False):
    """What to keep.

    Args:
        tag: Only this tag.
        units: Only these units.
    """

    tag: str
    units: list[Unit]


class Undocumented(TypedDict):
    name: str


def schema(fn: object) -> dict[str, Any]:
    spec = declaration_of(fn, ToolSpec)
    assert spec is not None
    return spec.schema


def props(fn: object) -> dict[str, Any]:
    return schema(fn)["parameters"]["properties"]


def answer(text: str) -> dict[str, Any]:
    return json.loads(text)


def call(fn: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
    """The tool called as hermes calls it (``fn(args, **keywords)``) or directly with
    keywords: type checkers see the handler's own parameters, so the call is untyped."""
    result = fn(*args, **kwargs)
    if asyncio.iscoroutine(result):
        result = asyncio.run(result)
    return answer(result)


# -- the schema ----------------------------------------------------------------------


def test_scalars_literals_enums_and_defaults_become_the_spec_helpers_schema() -> None:
    @tool(toolset="demo")
    def demo_typed(
        city: str,
        days: Annotated[int, Arg(minimum=1, maximum=7, example=3)] = 3,
        ratio: float = 0.5,
        metric: bool = True,
        mode: Literal["fast", "slow"] = "fast",
        unit: Unit = Unit.CELSIUS,
    ) -> dict[str, Any]:
        """Forecast.

        Args:
            city: The city.
            days: How many days.
            ratio: A ratio.
            metric: Metric units.
            mode: How hard to try.
            unit: The unit.
        """
        return {}

    @tool(
        toolset="demo",
        params={
            "city": str_arg("The city.", required=True),
            "days": int_arg("How many days.", minimum=1, maximum=7, example=3, default=3),
            "ratio": number_arg("A ratio.", default=0.5),
            "metric": bool_arg("Metric units.", default=True),
            "mode": str_arg("How hard to try.", enum=["fast", "slow"], default="fast"),
            "unit": str_arg("The unit.", enum=["celsius", "kelvin"], default="celsius"),
        },
    )
    def demo_typed_spec(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """Forecast."""
        return {}

    typed, spec = schema(demo_typed), schema(demo_typed_spec)
    assert typed["parameters"] == spec["parameters"]
    assert typed["description"] == spec["description"]
    assert typed["description"] == "Forecast. Required: `city`. Optional: `days` (e.g. 3)."


def test_optional_arrays_objects_and_nested_types() -> None:
    @tool(toolset="demo")
    def demo_nested(
        tags: tuple[Annotated[str, "a tag"], ...],
        where: Point | None,
        keep: Filter | None = None,
        weights: dict[str, float] | None = None,
        levels: list[Level] | None = None,
    ) -> dict[str, Any]:
        """Nested.

        Args:
            tags: Tags.
            where: Where.
            keep: What to keep.
            weights: Weights by name.
            levels: Levels.
        """
        return {}

    found = props(demo_nested)
    assert found["tags"] == {
        "type": "array",
        "description": "Tags.",
        "items": {"type": "string", "description": "a tag"},
    }
    assert found["where"] == {
        "type": "object",
        "nullable": True,  # required, and the model may send null
        "description": "Where.",
        "properties": {
            "x": {"type": "number", "description": "Metres east."},
            "y": {"type": "number", "description": "Metres north.", "default": 0.0},
        },
        "required": ["x"],
        "additionalProperties": False,
    }
    assert found["keep"] == {  # `= None`: optional, null taken as left out
        "type": "object",
        "description": "What to keep.",
        "properties": {
            "tag": {"type": "string", "description": "Only this tag."},
            "units": {
                "type": "array",
                "description": "Only these units.",
                "items": {"type": "string", "enum": ["celsius", "kelvin"]},
            },
        },
        "additionalProperties": False,
    }
    assert found["weights"] == {
        "type": "object",
        "description": "Weights by name.",
        "properties": {},
        "additionalProperties": {"type": "number"},
    }
    assert found["levels"]["items"] == {"type": "integer", "enum": [1, 2]}
    assert schema(demo_nested)["parameters"]["required"] == ["tags", "where"]


def test_the_same_schema_as_nested_spec_helpers() -> None:
    @tool(toolset="demo")
    def demo_point(where: Point) -> dict[str, Any]:
        """Pin.

        Args:
            where: Where.
        """
        return {}

    @tool(
        toolset="demo",
        params={
            "where": object_arg(
                "Where.",
                required=True,
                properties={
                    "x": number_arg("Metres east.", required=True),
                    "y": number_arg("Metres north.", default=0.0),
                },
            )
        },
    )
    def demo_point_spec(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """Pin."""
        return {}

    assert schema(demo_point) == {**schema(demo_point_spec), "name": "demo_point"}


def test_annotated_descriptions_win_over_the_docstring_and_arg_keywords_apply() -> None:
    @tool(toolset="demo")
    def demo_words(
        word: Annotated[str, Arg("A word.", min_length=2, max_length=9, pattern="^[a-z]+$")],
        words: Annotated[tuple[str, ...], "Several.", Arg(min_items=1, unique_items=True)] = ("a",),
    ) -> str:
        """Words.

        Args:
            word: Ignored: the annotation says it.
        """
        return ""

    found = props(demo_words)
    assert found["word"] == {
        "type": "string",
        "description": "A word.",
        "minLength": 2,
        "maxLength": 9,
        "pattern": "^[a-z]+$",
    }
    assert found["words"] == {
        "type": "array",
        "description": "Several.",
        "items": {"type": "string"},
        "minItems": 1,
        "uniqueItems": True,
        "default": ["a"],
    }
    spec = declaration_of(demo_words, ToolSpec)
    assert spec is not None


def test_a_tool_description_is_the_docstring_without_its_sections() -> None:
    @tool(toolset="demo")
    def demo_doc(q: str) -> str:
        """Search the notes.

        Matches words anywhere.

        Args:
            q: The query.

        Returns:
            The matches.
        """
        return ""

    assert schema(demo_doc)["description"] == (
        "Search the notes.\n\nMatches words anywhere. Required: `q`."
    )
    assert props(demo_doc)["q"]["description"] == "The query."


# -- the call -------------------------------------------------------------------------


@tool(toolset="demo")
def demo_call(
    city: str,
    unit: Unit = Unit.CELSIUS,
    where: Point | None = None,
    levels: tuple[Level, ...] = (),
    keep: Filter | None = None,
    *,
    context: ToolContext,
) -> dict[str, Any]:
    """Call.

    Args:
        city: The city.
        unit: The unit.
        where: Where.
        levels: Levels.
        keep: What to keep.
    """
    return {
        "city": city,
        "unit": repr(unit),
        "where": repr(where),
        "levels": repr(levels),
        "keep": repr(keep),
        "context": [context.task_id, context.session_id, context.user_task, dict(context.extra)],
    }


def test_the_handler_gets_keywords_converted_to_its_annotations() -> None:
    sent = {
        "city": "Oslo",
        "unit": "kelvin",
        "where": {"x": 1},
        "levels": [2, 1],
        "keep": {"units": ["celsius"]},
    }
    got = call(demo_call, sent, task_id="t1", session_id="s1", user_task="u", other=1)
    assert got["data"] == {
        "city": "Oslo",
        "unit": "<Unit.KELVIN: 'kelvin'>",
        "where": "Point(x=1, y=0.0)",
        "levels": "(<Level.HIGH: 2>, <Level.LOW: 1>)",
        "keep": "{'units': [<Unit.CELSIUS: 'celsius'>]}",
        "context": ["t1", "s1", "u", {"other": 1}],
    }
    assert sent["unit"] == "kelvin"  # the host's dict is left as it was


def test_defaults_apply_and_null_is_left_out() -> None:
    got = call(demo_call, {"city": "Oslo", "where": None})
    assert got["data"]["unit"] == "<Unit.CELSIUS: 'celsius'>"
    assert got["data"]["where"] == "None"
    assert got["data"]["context"] == [None, None, None, {}]


def test_a_direct_call_with_keywords_is_a_call_with_those_arguments() -> None:
    got = call(demo_call, city="Oslo", unit="kelvin", task_id="t2")
    assert got["data"]["unit"] == "<Unit.KELVIN: 'kelvin'>"
    assert got["data"]["context"][0] == "t2"


def test_refusals_are_the_spec_styles(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO):
        missing = call(demo_call, {"cty": "Oslo"})
        wrong = call(demo_call, {"city": "Oslo", "unit": "F"})
        nested = call(demo_call, {"city": "Oslo", "where": {"y": 1}})
        unknown = call(demo_call, {"city": "Oslo", "task_id": "x"})
    assert missing == {
        "success": False,
        "error": "city is required; got 'cty' instead: did you mean 'city'?",
        "error_code": "missing_argument",
    }
    assert wrong["error"] == "unit must be one of 'celsius', 'kelvin'; got string 'F'"
    assert nested["error"] == "where.x is required"
    assert unknown["error_code"] == "invalid_argument"
    assert "task_id" in unknown["error"]  # a runtime keyword is never a model argument
    assert "demo_call: rejected call, missing city" in caplog.text


def test_a_handler_error_and_the_success_line() -> None:
    @tool(toolset="demo")
    def demo_fail(n: Annotated[int, "A number."]) -> int:
        """Fail on zero."""
        return 10 // n

    assert call(demo_fail, {"n": 2}) == {"success": True, "data": 5}
    failed = call(demo_fail, {"n": 0})
    assert failed["error_code"] == "handler_error"
    assert "ZeroDivisionError" in failed["error"] or "division" in failed["error"]


def test_kwargs_receive_the_runtime_keywords_and_async_handlers_are_awaited() -> None:
    @tool(toolset="demo")
    async def demo_async(q: Annotated[str, "A query."], **kwargs: Any) -> dict[str, Any]:
        """Async."""
        await asyncio.sleep(0)
        return {"q": q, "keywords": sorted(kwargs)}

    spec = declaration_of(demo_async, ToolSpec)
    assert spec is not None
    assert spec.is_async
    got = call(demo_async, {"q": "x"}, task_id="t", session_id="s")
    assert got["data"] == {"q": "x", "keywords": ["session_id", "task_id"]}
    assert call(demo_async, q="y")["data"] == {"q": "y", "keywords": []}


def test_a_tool_with_no_arguments() -> None:
    @tool(toolset="demo")
    def demo_none() -> dict[str, bool]:
        """Nothing to pass."""
        return {"ok": True}

    assert schema(demo_none)["parameters"] == {
        "type": "object",
        "properties": {},
        "additionalProperties": False,
    }
    assert call(demo_none, {}) == {"success": True, "data": {"ok": True}}


# -- refused at decoration ---------------------------------------------------------------


def refused(fn: Any, **options: Any) -> str:
    with pytest.raises(ToolDefinitionError) as info:
        tool(toolset="demo", **options)(fn)
    return str(info.value)


def test_an_argument_without_a_description_is_refused_unless_allowed() -> None:
    def demo_bare(city: str) -> str:
        """No Args section."""
        return city

    message = refused(demo_bare)
    assert "parameter 'city': has no description" in message
    assert "allow_undocumented=True" in message
    allowed = tool(toolset="demo", allow_undocumented=True)(demo_bare)
    assert props(allowed) == {"city": {"type": "string"}}


def test_an_undocumented_nested_field_is_refused() -> None:
    def demo_nested_bare(who: Annotated[Undocumented, "Who."]) -> str:
        """Nested."""
        return ""

    assert "'who'.name: has no description; document it under Attributes:" in refused(
        demo_nested_bare
    )


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def demo_x(city, q: str) -> str: ...", "has no type annotation"),
        ("def demo_x(q: str, /) -> str: ...", "positional-only"),
        ("def demo_x(*q: str) -> str: ...", "positional-only"),
        ("def demo_x(q: Any) -> str: ...", "is annotated Any"),
        ("def demo_x(q: list) -> str: ...", "no element type"),
        ("def demo_x(q: tuple[str, int]) -> str: ...", "fixed-length tuple"),
        ("def demo_x(q: list[str] | int) -> str: ...", "cannot be checked or converted"),
        ("def demo_x(q: dict[int, str]) -> str: ...", "keys are not str"),
        ("def demo_x(q: set[str]) -> str: ...", "cannot describe to the model"),
        ("def demo_x(task_id: str) -> str: ...", "a keyword hermes passes every tool"),
        ("def demo_x(q: Point = Point(1.0)) -> str: ...", "is not a JSON value"),
        ("def demo_x(q: Missing) -> str: ...", "cannot be resolved"),
        (
            "def demo_x(a: ToolContext, b: ToolContext) -> str: ...",
            "only one ToolContext parameter",
        ),
    ],
)
def test_signatures_the_model_cannot_be_given_are_refused(source: str, expected: str) -> None:
    namespace: dict[str, Any] = {
        "Any": Any,
        "Point": Point,
        "ToolContext": ToolContext,
        "__name__": __name__,
    }
    exec(f"from __future__ import annotations\n{source}", namespace)
    fn = namespace["demo_x"]
    fn.__doc__ = "Doc.\n\nArgs:\n    q: Q.\n    a: A.\n    b: B.\n    city: C.\n    task_id: T.\n"
    assert expected in refused(fn)


def test_arg_refuses_keywords_the_type_decides() -> None:
    with pytest.raises(ToolDefinitionError, match="decided by the annotation"):
        Arg("x", type="string")
    with pytest.raises(ToolDefinitionError, match=r"Arg\(additional_properties=...\) is decided"):
        Arg("x", additional_properties=False)
    assert Arg(max_length=3, min_length=1).keywords == {"maxLength": 3, "minLength": 1}
    with pytest.raises(ToolDefinitionError, match="non-empty str"):
        Arg("  ")


def test_a_default_that_breaks_its_own_constraints_is_refused() -> None:
    def demo_bad_default(n: Annotated[int, Arg("A number.", minimum=5)] = 1) -> int:
        """Doc."""
        return n

    assert "the default of n does not fit: must be >= 5" in refused(demo_bad_default)


def test_validate_required_false_is_for_args_handlers_only() -> None:
    def demo_unchecked(q: Annotated[str, "Q."]) -> str:
        """Doc."""
        return q

    assert "validate_required=False is for (args, **kwargs) handlers" in refused(
        demo_unchecked, validate_required=False
    )


def test_an_args_handler_without_params_stays_a_spec_style_tool() -> None:
    @tool(toolset="demo")
    def demo_plain(args: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """Takes the arguments dict."""
        return {"args": args}

    @tool(toolset="demo", params={"q": str_arg("Q.")})
    def demo_named(payload, **kw):
        """Spec style with another name."""
        return {"payload": payload}

    assert props(demo_plain) == {}
    assert call(demo_plain, {})["data"] == {"args": {}}
    assert call(demo_named, {"q": "x"})["data"] == {"payload": {"q": "x"}}
    assert props(demo_named) == {"q": {"type": "string", "description": "Q."}}
    assert array_arg  # the helpers and typed tools share one vocabulary module


def test_a_mapping_argument_checks_every_value() -> None:
    @tool(toolset="demo")
    def demo_weights(weights: Annotated[dict[str, Level], "Levels by name."]) -> dict[str, Any]:
        """Weights."""
        return {k: repr(v) for k, v in weights.items()}

    assert call(demo_weights, {"weights": {"a": 2}})["data"] == {"a": "<Level.HIGH: 2>"}
    refusal = call(demo_weights, {"weights": {"a": 2, "b": "x"}})
    assert refusal["error"] == "weights.b must be an integer; got string 'x'"


REBOUND = '''
from __future__ import annotations
from typing import Annotated, Literal
from kit_core import tool

Mode = Literal["a", "b"]


@tool(toolset="demo")
def demo_one(mode: Annotated[Mode, "The mode."]) -> int:
    """One."""
    return 1


Mode = Literal["c"]


@tool(toolset="demo")
def demo_two(mode: Annotated[Mode, "The mode."]) -> int:
    """Two."""
    return 2
'''


def test_a_repeated_annotation_is_evaluated_again_when_a_name_it_reads_is_rebound() -> None:
    first: dict[str, Any] = {"__name__": "typed_rebound_a"}
    other: dict[str, Any] = {"__name__": "typed_rebound_b"}
    exec(REBOUND, first)
    exec(REBOUND.replace('Literal["c"]', 'Literal["d", "e"]'), other)
    assert props(first["demo_one"])["mode"]["enum"] == ["a", "b"]
    assert props(first["demo_two"])["mode"]["enum"] == ["c"]
    assert props(other["demo_one"])["mode"]["enum"] == ["a", "b"]  # same text, own module
    assert props(other["demo_two"])["mode"]["enum"] == ["d", "e"]


def test_arg_in_unions_optionals_and_element_types() -> None:
    @tool(toolset="demo")
    def demo_unions(
        name: Annotated[str, Arg("A name.", min_length=1)] | None = None,
        tags: list[Annotated[str, Arg("a tag", max_length=5, example="x")]] | None = None,
        mode: Optional[Annotated[str, Arg("A mode.", enum=["a", "b"])]] = None,  # noqa: UP045
    ) -> dict[str, Any]:
        """Unions.

        Args:
            tags: Tags.
        """
        return {"name": name, "tags": tags, "mode": mode}

    found = props(demo_unions)
    assert found["name"] == {"type": "string", "description": "A name.", "minLength": 1}
    assert found["tags"]["items"] == {"type": "string", "description": "a tag", "maxLength": 5}
    assert found["mode"] == {"type": "string", "description": "A mode.", "enum": ["a", "b"]}
    assert call(demo_unions, {"tags": ["abcdef"]})["error"] == (
        "tags[0] must have at most 5 characters; got string 'abcdef'"
    )
    assert hash(Arg("a", enum=["x"], example={"k": [1]})) == hash(
        Arg("a", enum=["x"], example={"k": [1]})
    )


def test_an_optional_context_parameter_lets_a_direct_call_leave_it_out() -> None:
    @tool(toolset="demo")
    def demo_optional_context(
        city: Annotated[str, "The city."], ctx: ToolContext | None = None
    ) -> dict[str, Any]:
        """Context optional."""
        return {"task": ctx.task_id if ctx is not None else "no context"}

    assert "ctx" not in props(demo_optional_context)
    assert demo_optional_context(city="Oslo") == '{"success": true, "data": {"task": null}}'
    assert call(demo_optional_context, {"city": "Oslo"}, task_id="t9")["data"] == {"task": "t9"}
