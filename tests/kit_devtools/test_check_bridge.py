"""``check`` on a release that sends the tool-search bridge by default (0.20.0 on): what it
prints under "as the model receives them", and that older releases print the tools alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kit_devtools.cli import main

UNIT_CONVERT = Path(__file__).resolve().parents[2] / "examples" / "unit-convert"
ENTRIES = [
    "  - units_convert_length: Convert a length between metric and imperial units.",
    "  - units_convert_temperature: Convert a temperature between Celsius, Fahrenheit and…",
]


def check(capsys: pytest.CaptureFixture[str], hermes: str, *extra: str) -> str:
    assert main(["check", str(UNIT_CONVERT), "--hermes", hermes, *extra]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("hermes", ["0.20.0", "0.21.4", "0.22.2"])
def test_check_says_the_model_gets_the_bridge_and_each_tools_line(
    capsys: pytest.CaptureFixture[str], hermes: str
) -> None:
    lines = check(capsys, hermes).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("tools (2)"))
    assert (
        "hermes sends the tool-search bridge (tool_call, tool_describe, tool_search)"
        in (lines[start])
    )
    assert lines[start + 1 : start + 3] == ENTRIES
    switch = lines[start + 3]
    assert "as tool_describe answers it" in switch
    assert switch.endswith('in config.yaml (tools: {tool_search: {enabled: "off"}}):')
    assert lines[start + 4] == "  ["  # then the schemas, as before


def test_check_json_carries_the_bridge_only_where_it_is_the_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bridged = json.loads(check(capsys, "0.21.4", "--format", "json"))
    assert bridged["bridge"] == {
        "tools": ["tool_call", "tool_describe", "tool_search"],
        "entries": [entry.strip() for entry in ENTRIES],
        "switch_off": 'tools: {tool_search: {enabled: "off"}}',
    }
    # 0.21.4's sanitizer: every object schema has a required list
    assert all("required" in t["function"]["parameters"] for t in bridged["tools"])
    direct = json.loads(check(capsys, "0.19.0", "--format", "json"))
    assert "bridge" not in direct
    assert [t["function"]["name"] for t in direct["tools"]] == [
        t["function"]["name"] for t in bridged["tools"]
    ]


def test_check_before_the_bridge_default_prints_the_tools_alone(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = check(capsys, "0.19.0").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("tools (2)"))
    assert lines[start] == "tools (2), as the model receives them:"
    assert lines[start + 1] == "  ["
