"""``check --probe`` reaches each handler: with empty arguments and with arguments built
from the tool's schema, and it reports a handler that raises whether the exception
escapes to hermes or the kit turns it into an error envelope."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from kit_devtools.cli import main
from kit_devtools.cli._probe_args import arguments_for


def test_arguments_satisfy_types_bounds_and_choices() -> None:
    parameters = {
        "type": "object",
        "properties": {
            "city": {"type": "string", "minLength": 3, "maxLength": 5},
            "days": {"type": "integer", "minimum": 2, "maximum": 5},
            "ratio": {"type": "number", "exclusiveMinimum": 1, "exclusiveMaximum": 2},
            "below": {"type": "integer", "maximum": -3},
            "unit": {"type": "string", "enum": ["c", "f"]},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2},
            "where": {
                "type": "object",
                "properties": {"lat": {"type": "number"}, "note": {"type": "string"}},
                "required": ["lat"],
            },
            "maybe": {"type": ["null", "boolean"]},
            "either": {"anyOf": [{"type": "integer", "minimum": 7}, {"type": "string"}]},
            "optional": {"type": "string"},
            "shown": {"type": "string", "examples": ["Paris"]},
        },
        "required": [
            "city", "days", "ratio", "below", "unit", "tags", "where", "maybe", "either",
        ],
    }  # fmt: skip
    assert arguments_for(parameters) == {
        "city": "xxx",
        "days": 2,
        "ratio": 1.5,
        "below": -3,
        "unit": "c",
        "tags": ["x", "x"],
        "where": {"lat": 1.0},
        "maybe": True,
        "either": 7,
        "shown": "Paris",
    }


def test_declared_examples_come_first() -> None:
    parameters = {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
        "required": ["a"],
    }
    assert arguments_for(parameters, {"a": "chosen", "b": 4}) == {"a": "chosen", "b": 4}


@pytest.mark.parametrize("parameters", [None, [], {"type": "object"}, {"properties": "no"}])
def test_schemas_without_properties_give_no_arguments(parameters: object) -> None:
    assert arguments_for(parameters) == {}


PLUGIN = """
import json
import sys

from hermes_plugin_kit import int_arg, register_all, str_arg, tool


@tool(toolset="probe", params={
    "city": str_arg("City", required=True, example="Lyon"),
    "days": int_arg("Days", required=True, minimum=2, maximum=5),
})
def probe_forecast(args, **kwargs):
    \"\"\"Forecast; breaks on the smallest number of days its schema allows.\"\"\"
    return {"per_day": 10 // (args["days"] - 2)}


def probe_raw(args, **kwargs):
    return json.dumps({"upper": args["word"].upper()})  # KeyError on {}, fine with a word


def register(ctx):
    register_all(ctx, sys.modules[__name__])
    schema = {
        "name": "probe_raw",
        "description": "Upper-case a word.",
        "parameters": {
            "type": "object",
            "properties": {"word": {"type": "string", "description": "A word."}},
            "required": ["word"],
        },
    }
    ctx.register_tool(name="probe_raw", toolset="probe", schema=schema, handler=probe_raw)
"""


def test_probe_reports_raises_the_kit_caught_and_raises_that_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    directory = tmp_path / "probe_plugin"
    directory.mkdir()
    (directory / "__init__.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    (directory / "plugin.yaml").write_text("name: probe_plugin\nkind: standalone\n")
    assert main(["check", str(directory), "--format", "json"]) == 0  # no probe: nothing called
    capsys.readouterr()
    assert main(["check", str(directory), "--probe", "--format", "json"]) == 1  # HPK131
    findings: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["findings"]
    by_tool = {f["where"]: f for f in findings}
    forecast = by_tool["tool probe_forecast"]
    assert (forecast["rule"], forecast["severity"]) == ("HPK133", "warning")
    assert 'arguments built from its schema {"city": "Lyon", "days": 2}' in forecast["message"]
    assert "integer division or modulo by zero" in forecast["message"]
    raw = by_tool["tool probe_raw"]
    assert (raw["rule"], raw["severity"]) == ("HPK131", "error")
    assert raw["message"].startswith("called with empty arguments the handler raised")
    assert len(findings) == 2
