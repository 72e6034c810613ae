"""The façade re-exports the kit packages' public names (loading kit-lifecycle and
kit-media on first use), and the bundled example runs through it."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import hermes_plugin_kit
import kit_core
import kit_lifecycle
import kit_media
from kit_core import declaration_of
from kit_devtools.testing import InMemoryHost, load_plugin

ROOT = Path(__file__).resolve().parents[2]


PACKAGES = (kit_core, kit_lifecycle, kit_media)


PUBLIC_NAMES = frozenset(
    {
        "Arg",
        "ArgSpec",
        "AsyncRichToolFunction",
        "AsyncToolFunction",
        "ContentTooLarge",
        "File",
        "Image",
        "Rich",
        "RichToolFunction",
        "CommandSpec",
        "CommandType",
        "Declaration",
        "DeclarationError",
        "ErrorCode",
        "HookSpec",
        "KitError",
        "MEDIA_DELIVERY_HOOKS",
        "MediaDeliveryResult",
        "MediaError",
        "MediaPayload",
        "MediaType",
        "MiddlewareKind",
        "MiddlewareSpec",
        "PartialRegistrationError",
        "PluginSkill",
        "ProviderTools",
        "RegistrationError",
        "RegistrationSummary",
        "ReportsFailure",
        "ResolvedDeliveryTarget",
        "ToolDefinitionError",
        "ToolFailure",
        "ToolContext",
        "ToolFunction",
        "ToolSpec",
        "arg",
        "array_arg",
        "bool_arg",
        "clear_media_delivery_state",
        "command",
        "configure_stderr_logging",
        "declaration_of",
        "declarations_in",
        "declare",
        "deliver_media",
        "hook",
        "int_arg",
        "invoke_host_tool",
        "load_plugin_config",
        "log_registration_summary",
        "middleware",
        "number_arg",
        "object_arg",
        "plugin_skill",
        "redact",
        "redact_text",
        "register_all",
        "register_plugin",
        "resolve_delivery_target",
        "str_arg",
        "tool",
        "tool_name",
        "transform_media_delivery_output",
        "validate_tool_name",
    }
)
"""What plugin authors use. Plumbing the sibling packages share stays out: a change here
is a deliberate change of the public API."""

HELD_HOOKS = frozenset(
    {"MEDIA_DELIVERY_HOOKS", "clear_media_delivery_state", "transform_media_delivery_output"}
)
"""Public names a plugin module registers by holding them (``register_plugin`` of a module
registers its declared objects): importable by name, never brought by ``import *``."""

STARRED = PUBLIC_NAMES - HELD_HOOKS


def test_the_public_names_are_pinned() -> None:
    assert set(hermes_plugin_kit.__all__) == STARRED
    assert len(hermes_plugin_kit.__all__) == len(STARRED)
    assert set(kit_media.__all__) & HELD_HOOKS == set()
    for name in PUBLIC_NAMES:
        assert name in dir(hermes_plugin_kit), name
        assert getattr(hermes_plugin_kit, name) is not None


STAR_PLUGIN = """
from hermes_plugin_kit import *


@tool(toolset="star", namespace="star")
def star_echo(args, **kwargs):
    \"\"\"Echo the text.\"\"\"
    return {"text": args.get("text")}


def register(ctx):
    return register_plugin(ctx, __name__)
"""


@pytest.mark.parametrize("package", ["hermes_plugin_kit", "kit_core", "kit_lifecycle", "kit_media"])
def test_a_star_import_binds_no_declared_object(package: str) -> None:
    namespace: dict[str, Any] = {}
    exec(f"from {package} import *", namespace)
    declared = sorted(n for n, v in namespace.items() if declaration_of(v) is not None)
    held = sorted(n for n, v in namespace.items() if declarations_in_value(v))
    assert (declared, held) == ([], [])


def declarations_in_value(value: object) -> bool:
    """A tuple or list of declared objects, which ``declarations_in`` also registers."""
    return (
        isinstance(value, tuple | list)
        and bool(value)
        and all(declaration_of(item) is not None for item in value)
    )


def test_a_plugin_module_that_star_imports_the_kit_registers_only_its_own(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "star"
    folder.mkdir()
    (folder / "plugin.yaml").write_text("name: star\nversion: 0.1.0\n", encoding="utf-8")
    (folder / "__init__.py").write_text(STAR_PLUGIN, encoding="utf-8")
    host = InMemoryHost(strict=True)
    plugin = host.load(folder)
    assert sorted(host.tools) == ["star_echo"]
    assert plugin.hooks == ()
    assert host.invoke_hook("on_session_end", session_id="s") == []


FIRST_USE = """
import json, sys
import hermes_plugin_kit
state = {"import": sorted(m for m in ("kit_lifecycle", "kit_media") if m in sys.modules)}
from hermes_plugin_kit import command
state["command"] = sorted(m for m in ("kit_lifecycle", "kit_media") if m in sys.modules)
state["in_dir"] = {"deliver_media", "command", "tool"} <= set(dir(hermes_plugin_kit))
namespace = {}
exec("from hermes_plugin_kit import *", namespace)
state["star"] = sorted(m for m in ("kit_lifecycle", "kit_media") if m in sys.modules)
state["star_names"] = sorted(n for n in namespace if not n.startswith("__"))
try:
    hermes_plugin_kit.no_such_name
except AttributeError as exc:
    state["unknown"] = str(exc)
print(json.dumps(state))
"""


def test_kit_lifecycle_and_kit_media_load_on_first_use_of_their_names() -> None:
    run = subprocess.run(
        [sys.executable, "-c", FIRST_USE], capture_output=True, text=True, check=True
    )
    state = json.loads(run.stdout)
    assert state["import"] == []
    assert state["command"] == ["kit_lifecycle"]
    assert state["in_dir"] is True
    assert state["star"] == ["kit_lifecycle", "kit_media"]
    assert state["star_names"] == sorted(STARRED)
    assert state["unknown"] == "module 'hermes_plugin_kit' has no attribute 'no_such_name'"


def test_type_checkers_see_exactly_the_names_loaded_on_first_use() -> None:
    """The ``TYPE_CHECKING`` imports (what pyright sees) are each package's whole
    ``__all__`` (star imports) and, by name, the hooks the façade holds: what runs."""
    source = Path(hermes_plugin_kit.__file__).read_text(encoding="utf-8")
    seen: dict[str, set[str]] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module in {"kit_lifecycle", "kit_media"}:
            seen.setdefault(node.module, set()).update(a.name for a in node.names)
    assert seen["kit_lifecycle"] == {"*"}
    assert seen["kit_media"] == {"*"} | HELD_HOOKS
    assert set(hermes_plugin_kit._HELD) == HELD_HOOKS


def test_the_facade_exports_exactly_the_kit_packages_public_names() -> None:
    union = [name for package in PACKAGES for name in package.__all__]
    assert len(union) == len(set(union)), "two kit packages export the same name"
    assert sorted(hermes_plugin_kit.__all__) == sorted(union)
    for package in PACKAGES:
        for name in package.__all__:
            assert getattr(hermes_plugin_kit, name) is getattr(package, name)
    for name in HELD_HOOKS:
        assert getattr(hermes_plugin_kit, name) is getattr(kit_media, name)


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
