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
from kit_devtools.cli._tool_probe import probe_tools
from kit_devtools.testing import InMemoryHost

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


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


UNAWAITED = """
import asyncio
import json
import sys

from hermes_plugin_kit import register_all, tool


async def fetch():
    await asyncio.sleep(0)
    return {"items": 3}


@tool(toolset="probe")
def probe_kit_sync(args, **kwargs):
    \"\"\"Count the items; a plain def that calls an async function.\"\"\"
    return fetch()


@tool(toolset="probe")
async def probe_kit_forgot(args, **kwargs):
    \"\"\"Count the items; async, but the await is missing.\"\"\"
    return fetch()


def plain_sync(args, **kwargs):
    return fetch()


async def plain_forgot(args, **kwargs):
    return fetch()


async def plain_good(args, **kwargs):
    return json.dumps(await fetch())


SCHEMA = {"description": "Count the items.", "parameters": {"type": "object", "properties": {}}}


def register(ctx):
    register_all(ctx, sys.modules[__name__])
    for name, handler, is_async in (
        ("probe_plain_sync", plain_sync, False),
        ("probe_plain_forgot", plain_forgot, True),
        ("probe_plain_good", plain_good, True),
    ):
        ctx.register_tool(name=name, toolset="probe", schema={"name": name, **SCHEMA},
                          handler=handler, is_async=is_async)
"""


def write_plugin(root: Path, name: str, source: str) -> Path:
    directory = root / name
    directory.mkdir()
    (directory / "__init__.py").write_text(textwrap.dedent(source), encoding="utf-8")
    (directory / "plugin.yaml").write_text(f"name: {name}\nkind: standalone\n")
    return directory


def test_the_probe_names_a_coroutine_nothing_awaits_with_the_fix_for_the_handler_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A plain def that returns a coroutine is told to be async def (or await); an async
    def whose result is a coroutine is told to add the missing await, never to be
    declared async def: for kit tools (the kit's result_not_serializable) and hand-written
    ones (hermes' tool_result_contract) alike."""
    directory = write_plugin(tmp_path, "unawaited", UNAWAITED)
    assert main(["check", str(directory), "--format", "json"]) == 0  # no probe: no call
    capsys.readouterr()
    assert main(["check", str(directory), "--probe", "--format", "json"]) == 1
    findings: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["findings"]
    by_tool = {f["where"]: f for f in findings}
    assert {w: f["rule"] for w, f in by_tool.items()} == {
        "tool probe_kit_sync": "HPK134",
        "tool probe_kit_forgot": "HPK135",
        "tool probe_plain_sync": "HPK134",
        "tool probe_plain_forgot": "HPK135",
    }
    assert len(findings) == 4
    for where in ("tool probe_kit_sync", "tool probe_plain_sync"):
        assert by_tool[where]["severity"] == "error"
        assert by_tool[where]["fix"].startswith("declare it async def or await the call")
    for where in ("tool probe_kit_forgot", "tool probe_plain_forgot"):
        assert by_tool[where]["severity"] == "error"
        assert by_tool[where]["fix"].startswith("add the missing await")
        assert "async def handler" not in by_tool[where]["fix"]
        assert "declare" not in by_tool[where]["message"] + by_tool[where]["fix"]


DICT_RETURNS = """
import json


def plain_dict(args, **kwargs):
    if not args:
        return json.dumps({"hits": []})
    return {"hits": [args]}


def plain_call(args, **kwargs):
    return dict(hits=[])


def plain_inner(args, **kwargs):
    def shape(hits):
        return {"hits": hits}  # a helper's return: json.dumps'ed below

    return json.dumps(shape([]))


def plain_media(args, **kwargs):
    return {"_multimodal": True, "content": [{"type": "text", "text": "hi"}]}


SCHEMA = {"description": "Find hits.", "parameters": {"type": "object", "properties": {}}}


def register(ctx):
    for name, handler in (
        ("dicts_plain_dict", plain_dict),
        ("dicts_plain_call", plain_call),
        ("dicts_plain_inner", plain_inner),
        ("dicts_plain_media", plain_media),
        ("dicts_plain_lambda", lambda args, **kwargs: {"hits": []}),
    ):
        ctx.register_tool(name=name, toolset="dicts", schema={"name": name, **SCHEMA},
                          handler=handler)
    ctx.register_tool(
        name="dicts_plain_spread",
        toolset="dicts",
        schema={"name": "dicts_plain_spread", **SCHEMA},
        handler=lambda args, **kwargs: {"hits": [], "spread": True},
    )
"""


def test_plain_check_finds_a_hand_written_handler_that_returns_a_dict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The founding bug, from the handler's source: no call needed, and the probe does
    not repeat it."""
    directory = write_plugin(tmp_path, "dicts", DICT_RETURNS)
    assert main(["check", str(directory), "--format", "json"]) == 1
    findings: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["findings"]
    found = {f["where"]: f for f in findings if f["rule"] == "HPK125"}
    assert sorted(found) == ["tool dicts_plain_call", "tool dicts_plain_dict",
                             "tool dicts_plain_lambda", "tool dicts_plain_spread"]  # fmt: skip
    plain = found["tool dicts_plain_dict"]
    assert plain["severity"] == "error"
    assert "(__init__.py:8: return {'hits': [args]})" in plain["message"]
    assert plain["fix"].startswith("return json.dumps(...)")
    assert "@tool" in plain["fix"]
    assert "dict(hits=[])" in found["tool dicts_plain_call"]["message"]
    assert main(["check", str(directory), "--probe", "--format", "json"]) == 1
    probed = json.loads(capsys.readouterr().out)["findings"]
    assert probed == findings


def test_the_probe_runs_a_media_tool_in_a_simulated_chat_turn() -> None:
    """The probe's calls are in a chat turn, as a model's are: a media tool's delivery to
    "origin" reaches the recorded send_message instead of failing for want of a chat."""
    host = InMemoryHost()
    plugin = host.load(EXAMPLES / "media-postcard")
    assert probe_tools(host, plugin) == []
    [sent] = host.sent_messages
    picture = (EXAMPLES / "media-postcard" / "album" / "harbour.png").resolve()
    assert sent == {
        "action": "send",
        "target": "telegram:-1000000000001:10001",
        "message": f"MEDIA:{picture}",
    }
