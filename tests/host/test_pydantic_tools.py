"""A typed tool that takes and returns pydantic models, as the real hermes delivers it: a
plugin loaded by hermes' own discovery (``RealHost``), its schema read from
``model_tools.get_tool_definitions`` and its calls made through hermes' whole tool
pipeline (``model_tools.handle_function_call``)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from kit_devtools.testing import RealHost

pytestmark = pytest.mark.host

NAME = "kit-models"
PLUGIN = '''
from __future__ import annotations

from pydantic import BaseModel, Field, field_validator

from hermes_plugin_kit import register_plugin, tool


class Line(BaseModel):
    sku: str = Field(description="The stock code", pattern="^[A-Z]+$")
    qty: int = Field(default=1, ge=1, le=50, description="How many")

    @field_validator("sku")
    @classmethod
    def not_discontinued(cls, value: str) -> str:
        if value == "OLD":
            raise ValueError("OLD is discontinued")
        return value


class Order(BaseModel):
    lines: list[Line] = Field(description="What to send", min_length=1)
    note: str | None = Field(default=None, description="For the packer")


class Receipt(BaseModel):
    kinds: list[str]
    units: int
    rush: Line | None


@tool(toolset="kit_models")
def kmod_place(order: Order, rush: Line | None = None) -> Receipt:
    """Place an order.

    Args:
        order: The order.
        rush: One line to send first.
    """
    kinds = [type(order).__name__, *(type(line).__name__ for line in order.lines)]
    return Receipt(kinds=kinds, units=sum(line.qty for line in order.lines), rush=rush)


def register(ctx):
    return register_plugin(ctx, [kmod_place])
'''


def models_plugin(tmp_path: Path) -> Path:
    folder = tmp_path / NAME
    folder.mkdir()
    (folder / "plugin.yaml").write_text(
        f"name: {NAME}\nversion: 0.1.0\nkind: standalone\nprovides_tools: [kmod_place]\n",
        encoding="utf-8",
    )
    (folder / "__init__.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    return folder


def answer(host: RealHost, args: dict[str, Any]) -> dict[str, Any]:
    raw = host.call_tool("kmod_place", args, task_id="t")
    assert isinstance(raw, str), raw
    return json.loads(raw)


def keys_anywhere(value: Any) -> set[str]:
    if isinstance(value, dict):
        found = set(value)
        for item in value.values():
            found |= keys_anywhere(item)
        return found
    if isinstance(value, list):
        return set().union(*(keys_anywhere(v) for v in value)) if value else set()
    return set()


LINE = {
    "type": "object",
    "properties": {
        "sku": {"type": "string", "description": "The stock code", "pattern": "^[A-Z]+$"},
        "qty": {
            "type": "integer",
            "description": "How many",
            "minimum": 1,
            "maximum": 50,
            "default": 1,
        },
    },
    "required": ["sku"],
    "additionalProperties": False,
}


def test_a_pydantic_typed_tool_through_the_real_registry(tmp_path: Path) -> None:
    with RealHost() as host:
        host.load(models_plugin(tmp_path))
        (definition,) = host.definitions(["kit_models"])
        good = answer(
            host,
            {"order": {"lines": [{"sku": "AB", "qty": 2}, {"sku": "CD"}]}, "rush": {"sku": "EF"}},
        )
        checked = answer(host, {"order": {"lines": [{"sku": "AB", "qty": 0}, {"sku": "c"}]}})
        validated = answer(host, {"order": {"lines": [{"sku": "AB"}, {"sku": "OLD"}]}})
        misspelt = answer(host, {"order": {"lnies": [{"sku": "AB"}]}})
    parameters = definition["function"]["parameters"]
    assert not keys_anywhere(parameters) & {"$ref", "$defs", "definitions"}
    order = parameters["properties"]["order"]
    assert order["type"] == "object"
    assert order["properties"]["lines"]["items"] == LINE
    assert order["properties"]["lines"]["minItems"] == 1
    assert order["required"] == ["lines"]
    assert {k: v for k, v in parameters["properties"]["rush"].items() if k != "description"} == LINE
    assert good == {
        "success": True,
        "data": {"kinds": ["Order", "Line", "Line"], "units": 3, "rush": {"sku": "EF", "qty": 1}},
    }
    assert checked["error_code"] == "invalid_argument"
    assert checked["error"] == (
        "order.lines[0].qty must be >= 1; got integer 0"
        " | order.lines[1].sku must match the pattern '^[A-Z]+$'; got string 'c'"
    )
    assert validated == {
        "success": False,
        "error": "order.lines[1].sku is invalid (Order): Value error, OLD is discontinued",
        "error_code": "invalid_argument",
    }
    assert misspelt["error_code"] == "invalid_argument"
    assert misspelt["error"].startswith(
        "order.lines is required; got 'lnies' instead: did you mean 'lines'?"
    )
