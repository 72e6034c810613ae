"""pydantic v2 models as typed tools take and give them: described inline (never ``$ref``),
checked by the kit's own checks, handed over as instances, refused as argument errors when
a validator of the model says no, encoded by ``model_dump(mode="json")``; and the kit
itself never imports pydantic.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, Optional

import pytest
from pydantic import AliasChoices, BaseModel, Field, RootModel, field_validator, model_validator

from kit_core import Arg, ToolDefinitionError, declaration_of, tool
from kit_core.toolspec import ToolSpec


class Item(BaseModel):
    """A line of an order.

    Attributes:
        sku: The stock code (docstring).
    """

    sku: str = Field(pattern=r"^[A-Z]+$", min_length=2, max_length=8)
    qty: Annotated[int, Field(ge=1, le=99, description="How many")] = 1
    tags: list[str] = Field(default_factory=list, max_length=3, description="Labels")
    note: Annotated[str | None, "A note for the packer"] = None

    @field_validator("sku")
    @classmethod
    def not_discontinued(cls, value: str) -> str:
        if value == "OLD":
            raise ValueError("OLD is discontinued")
        return value


class Window(BaseModel):
    start: int = Field(description="First hour", ge=0, lt=24)
    end: int = Field(description="Last hour", gt=0, le=24)

    @model_validator(mode="after")
    def ordered(self) -> Window:
        if self.end <= self.start:
            raise ValueError("end must be after start")
        return self


class Order(BaseModel):
    items: list[Item] = Field(description="What to send", min_length=1)
    window: Window | None = Field(default=None, description="When to deliver")
    city: str = Field(alias="toCity", description="Where to")


class Stamp(BaseModel):
    at: datetime = Field(description="When")
    label: str = Field(description="What")


@dataclass
class PointDC:
    """A point.

    Attributes:
        x: Metres east.
        y: Metres north.
    """

    x: float
    y: Annotated[float, Arg(minimum=0)] = 0.5


class PointModel(BaseModel):
    """A point.

    Attributes:
        x: Metres east.
        y: Metres north.
    """

    x: float
    y: float = Field(default=0.5, ge=0)


class Tree(BaseModel):
    label: str = Field(description="Name")
    children: list[Tree] = Field(default_factory=list, description="Below")


class Numbers(RootModel[list[int]]):
    pass


class Bare(BaseModel):
    name: str


class Chosen(BaseModel):
    name: str = Field(validation_alias=AliasChoices("name", "title"), description="Name")


CALLS: list[Any] = []


@tool(toolset="shop")
def shop_place(
    order: Order,
    extra: list[Item] | None = None,
    by_shelf: dict[str, Item] | None = None,
    backup: Optional[Window] = None,  # noqa: UP045 (the Optional spelling is tested too)
) -> dict[str, Any]:
    """Place an order.

    Args:
        order: The order.
        extra: More lines.
        by_shelf: Lines by shelf.
        backup: A second window.
    """
    CALLS.append((order, extra, by_shelf, backup))
    return {"lines": len(order.items) + len(extra or ())}


def schema_of(fn: object) -> dict[str, Any]:
    spec = declaration_of(fn, ToolSpec)
    assert spec is not None
    return spec.schema


def answer(fn: Any, args: dict[str, Any]) -> dict[str, Any]:
    return json.loads(fn(args))


def keys_anywhere(value: Any) -> set[str]:
    if isinstance(value, dict):
        found = set(value)
        for item in value.values():
            found |= keys_anywhere(item)
        return found
    if isinstance(value, list):
        return set().union(*(keys_anywhere(v) for v in value)) if value else set()
    return set()


ITEM_SCHEMA = {
    "type": "object",
    "properties": {
        "sku": {
            "type": "string",
            "description": "The stock code (docstring).",
            "minLength": 2,
            "maxLength": 8,
            "pattern": "^[A-Z]+$",
        },
        "qty": {
            "type": "integer",
            "description": "How many",
            "minimum": 1,
            "maximum": 99,
            "default": 1,
        },
        "tags": {
            "type": "array",
            "description": "Labels",
            "items": {"type": "string"},
            "maxItems": 3,
        },
        "note": {"type": "string", "description": "A note for the packer", "nullable": True},
    },
    "required": ["sku"],
    "additionalProperties": False,
}


def test_a_model_is_described_inline_as_an_object_with_its_field_constraints() -> None:
    parameters = schema_of(shop_place)["parameters"]
    properties = parameters["properties"]
    assert properties["order"] == {
        "type": "object",
        "description": "The order.",
        "properties": {
            "items": {
                "type": "array",
                "description": "What to send",
                "items": ITEM_SCHEMA,
                "minItems": 1,
            },
            "window": {
                "type": "object",
                "description": "When to deliver",
                "properties": {
                    "start": {
                        "type": "integer",
                        "description": "First hour",
                        "minimum": 0,
                        "exclusiveMaximum": 24,
                    },
                    "end": {
                        "type": "integer",
                        "description": "Last hour",
                        "exclusiveMinimum": 0,
                        "maximum": 24,
                    },
                },
                "required": ["start", "end"],
                "additionalProperties": False,
                "nullable": True,
            },
            "toCity": {"type": "string", "description": "Where to"},
        },
        "required": ["items", "toCity"],
        "additionalProperties": False,
    }
    assert properties["extra"] == {
        "type": "array",
        "description": "More lines.",
        "items": ITEM_SCHEMA,
    }
    assert properties["by_shelf"]["additionalProperties"] == ITEM_SCHEMA
    assert (
        properties["backup"]["properties"]
        == properties["order"]["properties"]["window"]["properties"]
    )
    assert parameters["required"] == ["order"]
    assert not keys_anywhere(schema_of(shop_place)) & {"$ref", "$defs", "definitions", "allOf"}


def test_a_model_is_described_as_the_same_dataclass_would_be() -> None:
    @tool(toolset="geo")
    def geo_as_dataclass(point: PointDC) -> str:
        """Locate.

        Args:
            point: Where.
        """
        return "ok"

    @tool(toolset="geo")
    def geo_as_model(point: PointModel) -> str:
        """Locate.

        Args:
            point: Where.
        """
        return "ok"

    assert schema_of(geo_as_model)["parameters"] == schema_of(geo_as_dataclass)["parameters"]


GOOD_ORDER = {
    "items": [{"sku": "AB", "qty": 2}],
    "toCity": "Oslo",
    "window": {"start": 8, "end": 10},
}


def test_the_handler_receives_model_instances_at_every_depth() -> None:
    CALLS.clear()
    result = answer(
        shop_place,
        {
            "order": GOOD_ORDER,
            "extra": [{"sku": "CD"}, {"sku": "EF", "tags": ["cold"]}],
            "by_shelf": {"top": {"sku": "GH", "qty": 3}},
            "backup": {"start": 1, "end": 2},
        },
    )
    assert result == {"success": True, "data": {"lines": 3}}
    ((order, extra, by_shelf, backup),) = CALLS
    assert isinstance(order, Order)
    assert isinstance(order.items[0], Item)
    assert isinstance(order.window, Window)
    assert (order.city, order.items[0].qty, order.window.end) == ("Oslo", 2, 10)
    assert [type(i) for i in extra] == [Item, Item]
    assert extra[0].qty == 1  # the model's default, filled by model_validate
    assert extra[1].tags == ["cold"]
    assert isinstance(by_shelf["top"], Item)
    assert by_shelf["top"].qty == 3
    assert isinstance(backup, Window)


def test_optional_models_left_out_or_null_reach_the_handler_as_none() -> None:
    CALLS.clear()
    answer(shop_place, {"order": {**GOOD_ORDER, "window": None}, "extra": None})
    ((order, extra, by_shelf, backup),) = CALLS
    assert order.window is None
    assert (extra, by_shelf, backup) == (None, None, None)


def test_bad_json_gets_the_kits_own_messages_with_the_nested_path() -> None:
    CALLS.clear()
    refused = answer(
        shop_place,
        {"order": {"items": [{"sku": "AB"}, {"sku": "ab", "qty": 0}], "toCity": "Oslo"}},
    )
    assert refused == {
        "success": False,
        "error": "order.items[1].sku must match the pattern '^[A-Z]+$'; got string 'ab'"
        " | order.items[1].qty must be >= 1; got integer 0",
        "error_code": "invalid_argument",
        "errors": [
            {
                "argument": "order.items[1].sku",
                "rule": "pattern",
                "message": "order.items[1].sku must match the pattern '^[A-Z]+$'; got string 'ab'",
            },
            {
                "argument": "order.items[1].qty",
                "rule": "minimum",
                "message": "order.items[1].qty must be >= 1; got integer 0",
            },
        ],
    }
    misspelt = answer(shop_place, {"order": {"items": [{"sku": "AB"}], "toCty": "Oslo"}})
    assert misspelt["error"].startswith(
        "order.toCity is required; got 'toCty' instead: did you mean 'toCity'?"
    )
    unknown = answer(shop_place, {"order": GOOD_ORDER, "extra": [{"sku": "AB", "colour": "red"}]})
    assert unknown["error"].startswith("extra[0] has an unknown key 'colour'")
    assert CALLS == []


def test_a_validator_that_refuses_is_an_argument_error_at_its_path(
    caplog: pytest.LogCaptureFixture,
) -> None:
    CALLS.clear()
    with caplog.at_level(logging.WARNING):
        after = answer(shop_place, {"order": {**GOOD_ORDER, "window": {"start": 9, "end": 9}}})
        nested = answer(
            shop_place, {"order": {"items": [{"sku": "AB"}, {"sku": "OLD"}], "toCity": "Oslo"}}
        )
        in_list = answer(
            shop_place, {"order": GOOD_ORDER, "extra": [{"sku": "AB"}, {"sku": "OLD"}]}
        )
        in_dict = answer(shop_place, {"order": GOOD_ORDER, "by_shelf": {"low": {"sku": "OLD"}}})
    assert after == {
        "success": False,
        "error": "order.window is invalid (Order): Value error, end must be after start",
        "error_code": "invalid_argument",
    }
    assert nested["error"] == (
        "order.items[1].sku is invalid (Order): Value error, OLD is discontinued"
    )
    assert in_list["error"] == "extra[1].sku is invalid (Item): Value error, OLD is discontinued"
    assert in_dict["error"] == (
        "by_shelf.low.sku is invalid (Item): Value error, OLD is discontinued"
    )
    assert {a["error_code"] for a in (after, nested, in_list, in_dict)} == {"invalid_argument"}
    assert CALLS == []
    rejected = [r.getMessage() for r in caplog.records if "rejected call" in r.getMessage()]
    assert len(rejected) == 4
    assert not [r for r in caplog.records if "handler raised" in r.getMessage()]


def test_several_validator_errors_are_listed_in_one_envelope() -> None:
    refused = answer(
        shop_place, {"order": {"items": [{"sku": "OLD"}, {"sku": "OLD"}], "toCity": "Oslo"}}
    )
    assert refused["error"] == (
        "order.items[0].sku is invalid (Order): Value error, OLD is discontinued"
        " | order.items[1].sku is invalid (Order): Value error, OLD is discontinued"
    )
    assert [(e["argument"], e["rule"]) for e in refused["errors"]] == [
        ("order.items[0].sku", "value_error"),
        ("order.items[1].sku", "value_error"),
    ]


def test_an_async_handlers_refused_model_is_an_argument_error_too() -> None:
    @tool(toolset="shop")
    async def shop_window(window: Window) -> dict[str, int]:
        """Book.

        Args:
            window: When.
        """
        return {"hours": window.end - window.start}

    call: Any = shop_window  # called as hermes calls it, with the arguments' dict
    good = json.loads(asyncio_run(call({"window": {"start": 1, "end": 3}})))
    bad = json.loads(asyncio_run(call({"window": {"start": 3, "end": 1}})))
    assert good == {"success": True, "data": {"hours": 2}}
    assert bad == {
        "success": False,
        "error": "window is invalid (Window): Value error, end must be after start",
        "error_code": "invalid_argument",
    }


def asyncio_run(awaitable: Any) -> Any:
    import asyncio

    return asyncio.run(awaitable)


def test_a_validation_error_the_handler_raises_itself_stays_a_handler_error() -> None:
    @tool(toolset="shop")
    def shop_parse(text: str) -> str:
        """Parse.

        Args:
            text: JSON of a window.
        """
        return str(Window.model_validate_json(text))

    refused = answer(shop_parse, {"text": '{"start": 5, "end": 1}'})
    assert refused["error_code"] == "handler_error"
    assert refused["error"].startswith("shop_parse failed: 1 validation error for Window")


def test_returned_models_are_encoded_by_model_dump_json_mode() -> None:
    at = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)

    @tool(toolset="stamps")
    def stamps_make(label: str, many: bool = False) -> Any:
        """Make.

        Args:
            label: The label.
            many: A list and a dict of them.
        """
        stamp = Stamp(at=at, label=label)
        return {"list": [stamp, stamp], "by": {"one": stamp}} if many else stamp

    one = answer(stamps_make, {"label": "x"})
    many = answer(stamps_make, {"label": "y", "many": True})
    dumped = {"at": "2026-01-02T03:04:05Z", "label": "x"}
    assert one == {"success": True, "data": dumped}
    also = {**dumped, "label": "y"}
    assert many == {"success": True, "data": {"list": [also, also], "by": {"one": also}}}


def test_a_model_default_is_shown_as_json_and_handed_over_as_a_model() -> None:
    got: list[Any] = []

    @tool(toolset="geo")
    def geo_at(point: PointModel = PointModel(x=1.5)) -> str:  # noqa: B008 (a frozen default)
        """Locate.

        Args:
            point: Where.
        """
        got.append(point)
        return "ok"

    assert schema_of(geo_at)["parameters"]["properties"]["point"]["default"] == {"x": 1.5, "y": 0.5}
    call: Any = geo_at
    assert call({}) == "ok"
    assert got == [PointModel(x=1.5, y=0.5)]


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        ("Tree", "refers to Tree inside itself (Tree -> Tree)"),
        ("Numbers", "Numbers is a RootModel"),
        ("Bare", "'x'.name: has no description"),
        ("Chosen", "field 'name' of Chosen has the validation alias AliasChoices("),
    ],
)
def test_models_the_kit_cannot_describe_are_refused_at_declaration(
    annotation: str, expected: str
) -> None:
    def handler(x: Any) -> str:
        """Do.

        Args:
            x: The value.
        """
        return "ok"

    handler.__annotations__ = {"x": globals()[annotation], "return": str}
    with pytest.raises(ToolDefinitionError) as caught:
        tool(toolset="bad")(handler)
    assert expected in str(caught.value)


def test_a_model_not_yet_fully_defined_is_refused_with_the_fix() -> None:
    class Later(BaseModel):
        inner: Missing  # noqa: F821  # pyright: ignore[reportUndefinedVariable]

    def handler(x: Any) -> str:
        """Do.

        Args:
            x: The value.
        """
        return "ok"

    handler.__annotations__ = {"x": Later, "return": str}
    with pytest.raises(ToolDefinitionError, match=r"call Later\.model_rebuild\(\)"):
        tool(toolset="bad", allow_undocumented=True)(handler)


CHILD = """
import json, sys
from dataclasses import dataclass
import hermes_plugin_kit, kit_core
from kit_core import tool
before = "pydantic" in sys.modules

@dataclass
class P:
    x: int

@tool(toolset="t", allow_undocumented=True)
def t_point(p: P) -> P:
    'Echo the point.'
    return p

answer = json.loads(t_point({"p": {"x": 1}}))
print(json.dumps([before, "pydantic" in sys.modules, answer]))
"""


def test_the_kit_never_imports_pydantic() -> None:
    plain = subprocess.run(
        [sys.executable, "-c", "import hermes_plugin_kit, sys; print('pydantic' in sys.modules)"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert plain.stdout.strip() == "False"
    used = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=True)
    assert json.loads(used.stdout) == [False, False, {"success": True, "data": {"x": 1}}]
