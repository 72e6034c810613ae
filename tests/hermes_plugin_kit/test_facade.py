"""The façade re-exports the kit packages, and the bundled example runs through it."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import hermes_plugin_kit
import kit_core
import kit_lifecycle
import kit_media
from kit_devtools.testing import InMemoryHost, load_plugin

ROOT = Path(__file__).resolve().parents[2]


PACKAGES = (kit_core, kit_lifecycle, kit_media)


def test_the_facade_exports_exactly_the_kit_packages_public_names() -> None:
    union = [name for package in PACKAGES for name in package.__all__]
    assert len(union) == len(set(union)), "two kit packages export the same name"
    assert sorted(hermes_plugin_kit.__all__) == sorted(union)
    for package in PACKAGES:
        for name in package.__all__:
            assert getattr(hermes_plugin_kit, name) is getattr(package, name)


def test_public_names_are_sorted_and_importable() -> None:
    for module in PACKAGES:
        assert module.__all__ == sorted(
            module.__all__, key=lambda n: (not n.isupper(), n[:1].islower(), n)
        )
        for name in module.__all__:
            assert hasattr(module, name), name


def test_the_example_plugin_registers_and_answers() -> None:
    host = InMemoryHost()
    plugin = host.load(ROOT / "examples" / "unit-convert")
    assert plugin.enabled, plugin.error
    assert sorted(host.tools) == ["units_convert_length", "units_convert_temperature"]
    assert host.tools["units_convert_length"].is_async
    [length, temperature] = host.definitions()
    assert temperature["function"]["parameters"]["required"] == ["value", "from_scale", "to_scale"]
    assert length["function"]["name"] == "units_convert_length"
    out = host.call_tool(
        "units_convert_temperature",
        {"value": 21.5, "from_scale": "celsius", "to_scale": "fahrenheit"},
    )
    assert json.loads(out) == {"success": True, "data": {"value": 70.7, "scale": "fahrenheit"}}
    out = host.call_tool("units_convert_length", {"value": 3, "from_unit": "mi", "to_unit": "km"})
    assert json.loads(out) == {"success": True, "data": {"value": 4.828032, "unit": "km"}}
    below = host.call_tool(
        "units_convert_temperature", {"value": -300, "from_scale": "celsius", "to_scale": "kelvin"}
    )
    assert (
        json.loads(below)["error"]
        == "units_convert_temperature failed: -300 celsius is below absolute zero"
    )


def test_load_plugin_refuses_a_directory_without_init(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"has no __init__\.py"):
        load_plugin(tmp_path)


def test_the_in_memory_host_hides_tools_whose_check_fails() -> None:
    host = InMemoryHost()

    def register(ctx: Any) -> None:
        schema = {"name": "x", "description": "d", "parameters": {}}
        ctx.register_tool("a_b", "t", schema, print, check_fn=lambda: False)
        ctx.register_tool("a_c", "t", schema, print)

    module = ModuleType("hidden_tools_plugin")
    module.register = register  # type: ignore[attr-defined]
    assert host.load(module).enabled
    assert [d["function"]["name"] for d in host.definitions()] == ["a_c"]
