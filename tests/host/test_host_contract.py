"""The kit's contract, checked against the real hermes-agent host (marked ``host``).

The ``hermes_host`` fixture (conftest.py) boots hermes-agent once per session with two
kit-built plugins loaded by the host's own discovery: ``kit_contract`` (tests/host/plugins)
and the bundled example ``examples/unit-convert``. Every assertion goes through the
host's public entry points: ``PluginManager.list_plugins``, the tool registry,
``model_tools.get_tool_definitions`` (what the model receives) and
``model_tools.handle_function_call`` (the full dispatch pipeline: argument coercion,
hooks, middleware, registry dispatch, async bridging, result normalisation).
"""

from __future__ import annotations

import copy
import json
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

from kit_core import ToolSpec, declaration_of
from kit_core.hermes import HostRelease, plain_version, registry_release

if TYPE_CHECKING:
    from tests.host.conftest import HermesHost


def spec_of(fn: object) -> ToolSpec:
    """The ToolSpec of a @tool function."""
    spec = declaration_of(fn, ToolSpec)
    assert spec is not None, f"{fn!r} carries no ToolSpec"
    return spec


def as_sent(definition: dict[str, Any], release: HostRelease) -> dict[str, Any]:
    """A definition the host sends unchanged, as ``release`` sends it: from 0.21.4
    (``sanitizer_adds_required``) every object schema without a ``required`` list gets
    ``"required": []`` after its other keys (``tools/schema_sanitizer.py``: the end of
    ``_sanitize_node`` and ``_sanitize_single_tool``)."""

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        out = {key: walk(value) for key, value in node.items()}
        if out.get("type") == "object" and not isinstance(out.get("required"), list):
            out["required"] = []
        return out

    if not release.sanitizer_adds_required:
        return definition
    function = definition["function"]
    return {**definition, "function": {**function, "parameters": walk(function["parameters"])}}


KIT_CONTRACT = "kit_contract"
UNIT_CONVERT = "unit-convert"
CONTEXT = {"task_id": "task-42", "session_id": "session-7"}

KIT_CONTRACT_TOOLS = {"kitc_annotate", "kitc_echo", "kitc_echo_async", "kitc_explode", "kitc_gated"}
UNIT_CONVERT_TOOLS = {"units_convert_temperature", "units_convert_length"}

EXPECTED_ECHO_DEFINITION = {
    "type": "function",
    "function": {
        "name": "kitc_echo",
        "description": (
            "Echo the text back, repeated. Required: `text` (e.g. 'hello')."
            " Optional: `times` (e.g. 2)."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "text": {"type": "string", "description": "Text to echo"},
                "times": {
                    "type": "integer",
                    "description": "How many times to repeat the text",
                    "minimum": 1,
                    "maximum": 5,
                },
            },
            "required": ["text"],
            "additionalProperties": False,
        },
    },
}


@pytest.fixture
def tools(hermes_host: HermesHost) -> ModuleType:
    """The host's copy of kit_contract's tools module; its CALLS list starts empty."""
    module = hermes_host.plugin_module(KIT_CONTRACT, "tools")
    module.CALLS.clear()
    return module


def call(hermes_host: HermesHost, name: str, args: dict[str, Any], **context: Any) -> Any:
    """Dispatch through ``handle_function_call``; the answer must be a JSON str."""
    result = hermes_host.call(name, args, **{**CONTEXT, **context})
    assert isinstance(result, str), f"{name} answered a {type(result).__name__}: {result!r}"
    return json.loads(result)


# -- the host and discovery ---------------------------------------------------------------


def test_the_host_is_the_pinned_release_with_its_own_home(hermes_host: HermesHost) -> None:
    import hermes_cli  # imported by the fixture already

    # the booted host is the installed release (a packaging's hermes_cli says its own
    # version: 0.21.3.post1; axisrow's says the release, 0.20.1) ...
    assert plain_version(hermes_cli.__version__) == hermes_host.release.version
    # ... and one the host model holds
    assert registry_release(hermes_cli.__version__) is hermes_host.release
    from hermes_constants import get_hermes_home  # imported by the fixture already

    assert get_hermes_home() == hermes_host.home
    assert (hermes_host.home / "plugins" / KIT_CONTRACT / "plugin.yaml").is_file()


@pytest.mark.parametrize(
    ("key", "tool_count", "description"),
    [
        (
            KIT_CONTRACT,
            len(KIT_CONTRACT_TOOLS),
            "Kit-built plugin that the real-host contract tests load into hermes-agent",
        ),
        (
            UNIT_CONVERT,
            len(UNIT_CONVERT_TOOLS),
            "Convert temperatures and lengths (a tool-only example built with kit-core)",
        ),
    ],
)
def test_plugin_is_listed_enabled_without_error(
    hermes_host: HermesHost, key: str, tool_count: int, description: str
) -> None:
    info = hermes_host.list_plugins().get(key)
    expected = {
        "name": key,
        "key": key,
        "kind": "standalone",
        "version": "0.1.0",
        "description": description,
        "source": "user",
        "enabled": True,
        "tools": tool_count,
        "hooks": 0,
        "middleware": 0,
        "commands": 0,
        "error": None,
    }
    if not hermes_host.release.offers("register_middleware"):
        del expected["middleware"]  # releases before middleware do not count it
    assert info == expected


def test_every_kit_tool_is_in_the_registry_under_its_toolset(hermes_host: HermesHost) -> None:
    registry = hermes_host.registry
    for name in KIT_CONTRACT_TOOLS:
        assert registry.get_toolset_for_tool(name) == "kit_contract", name
    for name in UNIT_CONVERT_TOOLS:
        assert registry.get_toolset_for_tool(name) == "unit-convert", name


# -- what the model receives --------------------------------------------------------------


def test_sync_tool_definition_is_exactly_what_the_model_receives(
    hermes_host: HermesHost, tools: ModuleType
) -> None:
    definitions = hermes_host.definitions(KIT_CONTRACT)
    assert definitions["kitc_echo"] == EXPECTED_ECHO_DEFINITION
    assert definitions["kitc_echo"] == spec_of(tools.kitc_echo).definition()


def test_every_visible_definition_equals_the_kits_own(
    hermes_host: HermesHost, tools: ModuleType
) -> None:
    definitions = hermes_host.definitions(KIT_CONTRACT, UNIT_CONVERT)
    assert set(definitions) == (KIT_CONTRACT_TOOLS - {"kitc_gated"}) | UNIT_CONVERT_TOOLS
    examples = hermes_host.plugin_module(UNIT_CONVERT, "tools")
    for name, fn in [  # kitc_annotate: see test_kit_definition_matches_the_host_for_shapes...
        ("kitc_echo", tools.kitc_echo),
        ("kitc_echo_async", tools.kitc_echo_async),
        ("kitc_explode", tools.kitc_explode),
        ("units_convert_temperature", examples.convert_temperature),
        ("units_convert_length", examples.convert_length),
    ]:
        assert definitions[name] == as_sent(spec_of(fn).definition(), hermes_host.release), name


# Argument shapes the host's schema sanitiser (tools/schema_sanitizer.py, run by
# model_tools._compute_tool_definitions) rewrites before the model sees them.
EXPECTED_ANNOTATE_PROPERTIES = {
    "label": {"type": "string", "description": "Label to attach"},
    "metadata": {
        "type": "object",
        "description": "Free-form metadata to keep with the label",
        "properties": {},  # injected into every object node without properties
    },
    "note": {  # ["string", "null"] -> a single type plus a nullable hint
        "type": "string",
        "nullable": True,
        "description": "A note, or null for none",
    },
    "weight": {  # ["number", "string"] -> anyOf of single-type schemas
        "anyOf": [{"type": "number"}, {"type": "string"}],
        "description": "A weight, as a number or a string such as '2kg'",
    },
}


def test_host_rewrites_free_form_objects_and_type_lists(hermes_host: HermesHost) -> None:
    parameters = hermes_host.definitions(KIT_CONTRACT)["kitc_annotate"]["function"]["parameters"]
    properties: dict[str, Any] = copy.deepcopy(EXPECTED_ANNOTATE_PROPERTIES)
    if hermes_host.release.sanitizer_adds_required:  # 0.21.4 on: every object gets a list
        properties["metadata"]["required"] = []
    assert parameters == {
        "type": "object",
        "properties": properties,
        "required": ["label"],
        "additionalProperties": False,
    }


def test_kit_definition_matches_the_host_for_shapes_the_host_rewrites(
    hermes_host: HermesHost, tools: ModuleType
) -> None:
    """ToolSpec.definition() promises "the tool exactly as hermes sends it to the model"."""
    host = hermes_host.definitions(KIT_CONTRACT)["kitc_annotate"]
    # ToolSpec.definition() knows no release: from 0.21.4 the host adds "required": []
    kit = as_sent(spec_of(tools.kitc_annotate).definition(), hermes_host.release)
    host_properties = host["function"]["parameters"]["properties"]
    assert host_properties == kit["function"]["parameters"]["properties"]
    assert host == kit


def test_tool_whose_check_fn_is_false_is_hidden_from_the_model(
    hermes_host: HermesHost, tools: ModuleType
) -> None:
    assert hermes_host.registry.get_entry("kitc_gated") is not None
    assert hermes_host.registry.get_entry("kitc_gated").check_fn is tools.never_available
    assert "kitc_gated" not in hermes_host.definitions(KIT_CONTRACT)
    assert "kitc_echo" in hermes_host.definitions(KIT_CONTRACT)


def test_hidden_tool_is_still_dispatched_by_the_host(
    hermes_host: HermesHost, tools: ModuleType
) -> None:
    """The host does not consult check_fn at dispatch: hiding is the only gate."""
    assert call(hermes_host, "kitc_gated", {}) == {"success": True, "data": {"ran": True}}
    assert tools.CALLS == ["kitc_gated"]


@pytest.mark.parametrize(
    ("name", "toolset", "is_async", "emoji", "requires_env"),
    [
        ("kitc_echo", "kit_contract", False, "🔁", []),
        ("kitc_echo_async", "kit_contract", True, "", []),
        ("kitc_explode", "kit_contract", False, "", []),
        ("kitc_gated", "kit_contract", False, "🔒", ["KITC_FAKE_TOKEN"]),
        ("kitc_annotate", "kit_contract", False, "", []),
        ("units_convert_temperature", "unit-convert", False, "🌡", []),
        ("units_convert_length", "unit-convert", True, "", []),
    ],
)
def test_registry_entry_carries_every_field_the_kit_declared(
    hermes_host: HermesHost,
    name: str,
    toolset: str,
    is_async: bool,
    emoji: str,
    requires_env: list[str],
) -> None:
    entry = hermes_host.registry.get_entry(name)
    assert entry is not None, f"{name} is not registered"
    key = KIT_CONTRACT if toolset == "kit_contract" else UNIT_CONVERT
    fn = next(
        value
        for value in vars(hermes_host.plugin_module(key, "tools")).values()
        if getattr(declaration_of(value, ToolSpec), "name", None) == name
    )
    spec = spec_of(fn)
    assert (entry.name, entry.toolset, entry.is_async, entry.emoji, entry.requires_env) == (
        name,
        toolset,
        is_async,
        emoji,
        requires_env,
    )
    assert entry.description == spec.description == spec.schema["description"]
    assert entry.schema == spec.schema
    assert entry.handler is fn
    assert entry.check_fn is spec.check_fn
    # the host attributes the kit's wrapper to the plugin module that defined the handler
    # (releases that attribute handlers at all: 0.18.0 and later); the registry of the
    # registration ledger (0.20.1 on) resolves that module to its plugin's package
    # (tools/registry.py _plugin_owner_of -> _plugin_namespace_of_module)
    owner_of = getattr(hermes_host.registry, "_plugin_owner_of", None)
    if owner_of is not None:
        owner = hermes_host.plugin_module(
            key, "" if hermes_host.release.registration_ledger else "tools"
        )
        assert owner_of(entry.handler) == owner.__name__
    assert entry.handler.__module__ == hermes_host.plugin_module(key, "tools").__name__


def _container_ids(value: Any) -> set[int]:
    if isinstance(value, dict):
        return {id(value)}.union(*(_container_ids(v) for v in value.values()))
    if isinstance(value, list):
        return {id(value)}.union(*(_container_ids(v) for v in value))
    return set()


def test_hermes_keeps_a_schema_of_its_own_for_each_tool(
    hermes_host: HermesHost, tools: ModuleType
) -> None:
    """hermes 0.19.0 stores the schema it is given on its ToolEntry (and hands out shallow
    copies of it): what it keeps shares no dict or list with another tool's or the kit's,
    so a change there reaches nothing else."""
    registry = hermes_host.registry
    seen: set[int] = set()
    for name in sorted(KIT_CONTRACT_TOOLS | UNIT_CONVERT_TOOLS):
        ids = _container_ids(registry.get_entry(name).schema)
        assert not ids & seen, name
        seen |= ids
    entry = registry.get_entry("kitc_echo")
    saved = copy.deepcopy(entry.schema)
    try:
        entry.schema["parameters"]["properties"]["text"]["type"] = "integer"
        entry.schema["parameters"]["required"].clear()
        entry.schema["description"] = "Changed by the host."
        assert spec_of(tools.kitc_echo).schema == EXPECTED_ECHO_DEFINITION["function"]
        refused = json.loads(tools.kitc_echo({}))
        assert refused["error_code"] == "missing_argument"
        assert registry.get_entry("kitc_echo_async").schema["parameters"]["required"] == ["text"]
    finally:
        entry.schema.clear()
        entry.schema.update(saved)
    assert hermes_host.definitions(KIT_CONTRACT)["kitc_echo"] == EXPECTED_ECHO_DEFINITION


# -- dispatch through the host's full pipeline --------------------------------------------


def test_sync_success_returns_the_kit_envelope(hermes_host: HermesHost, tools: ModuleType) -> None:
    result = call(hermes_host, "kitc_echo", {"text": "hi", "times": 2})
    assert result["success"] is True
    assert set(result) == {"success", "data"}
    assert result["data"]["echo"] == "hi hi"
    assert result["data"]["args"] == {"text": "hi", "times": 2}
    assert tools.CALLS == ["kitc_echo"]


def test_async_success_is_awaited_by_the_host(hermes_host: HermesHost, tools: ModuleType) -> None:
    result = call(hermes_host, "kitc_echo_async", {"text": "from a coroutine"})
    keywords = hermes_host.release.tool_keywords  # session_id from 0.17.0 on
    assert result == {
        "success": True,
        "data": {
            "echo": "from a coroutine",
            "loop_running": True,
            "thread": "MainThread",
            "args": {"text": "from a coroutine"},
            "arg_types": {"text": "str"},
            "kwargs": sorted(keywords),
            "task_id": "task-42",
            "session_id": "session-7" if "session_id" in keywords else None,
            "user_task": None,
        },
    }
    assert tools.CALLS == ["kitc_echo_async"]


def test_missing_required_argument_is_refused_before_the_handler(
    hermes_host: HermesHost, tools: ModuleType
) -> None:
    expected = {
        "success": False,
        "error": "text is required (e.g. 'hello')",
        "error_code": "missing_argument",
    }
    assert call(hermes_host, "kitc_echo", {}) == expected
    assert call(hermes_host, "kitc_echo", {"times": 2}) == expected
    assert call(hermes_host, "kitc_echo", {"text": "   "}) == expected
    assert call(hermes_host, "kitc_echo_async", {}) == {
        "success": False,
        "error": "text is required (e.g. 'hi')",
        "error_code": "missing_argument",
    }
    assert tools.CALLS == []


def test_handler_that_raises_returns_the_kit_error_not_the_host_error(
    hermes_host: HermesHost, tools: ModuleType
) -> None:
    raw = hermes_host.call("kitc_explode", {"reason": "boom"}, **CONTEXT)
    assert isinstance(raw, str)
    assert "[TOOL_ERROR]" not in raw
    assert json.loads(raw) == {
        "success": False,
        "error": "kitc_explode failed: exploded: boom",
        "error_code": "handler_error",
    }
    assert tools.CALLS == ["kitc_explode"]


def test_int_sent_as_a_string_is_coerced_by_the_host_before_the_kit_checks_it(
    hermes_host: HermesHost, tools: ModuleType
) -> None:
    result = call(hermes_host, "kitc_echo", {"text": "hi", "times": "3"})
    assert result["success"] is True
    assert result["data"]["echo"] == "hi hi hi"
    assert result["data"]["args"] == {"text": "hi", "times": 3}
    assert result["data"]["arg_types"] == {"text": "str", "times": "int"}
    # Called directly, without the host's coerce_tool_args, the kit refuses the string.
    direct = json.loads(tools.kitc_echo({"text": "hi", "times": "3"}))
    assert direct["error_code"] == "invalid_argument"
    assert tools.CALLS == ["kitc_echo"]


def test_bounds_are_checked_by_the_kit_after_the_hosts_coercion(
    hermes_host: HermesHost, tools: ModuleType
) -> None:
    assert call(hermes_host, "kitc_echo", {"text": "hi", "times": "9"}) == {
        "success": False,
        "error": "times must be <= 5; got integer 9",
        "error_code": "invalid_argument",
    }
    assert tools.CALLS == []


def test_handler_receives_the_hosts_keyword_arguments(
    hermes_host: HermesHost, tools: ModuleType
) -> None:
    result = call(
        hermes_host,
        "kitc_echo",
        {"text": "ctx"},
        task_id="task-1",
        session_id="sess-1",
        user_task="say ctx",
    )
    data = result["data"]
    keywords = hermes_host.release.tool_keywords
    assert data["kwargs"] == sorted(keywords) == sorted({"task_id", "user_task"} | keywords)
    assert (data["task_id"], data["session_id"], data["user_task"]) == (
        "task-1",
        "sess-1" if "session_id" in keywords else None,
        "say ctx",
    )
    assert data["args"] == {"text": "ctx"}
    assert tools.CALLS == ["kitc_echo"]


def test_host_coerces_json_strings_and_null_strings_before_the_kit_checks_them(
    hermes_host: HermesHost, tools: ModuleType
) -> None:
    # the kit sends a multi-type argument as anyOf (as the model sees it), which the host's
    # coerce_tool_args leaves alone: "2" stays a string, which the anyOf allows
    args = {"label": "x", "metadata": '{"a": 1}', "note": "null", "weight": "2"}
    assert call(hermes_host, "kitc_annotate", args) == {
        "success": True,
        "data": {"args": {"label": "x", "metadata": {"a": 1}, "weight": "2"}},
    }
    assert tools.CALLS == ["kitc_annotate"]


# -- the bundled example ------------------------------------------------------------------


def test_example_temperature_tool_through_the_host(hermes_host: HermesHost) -> None:
    args = {"value": 21.5, "from_scale": "celsius", "to_scale": "fahrenheit"}
    assert call(hermes_host, "units_convert_temperature", args) == {
        "success": True,
        "data": {"value": 70.7, "scale": "fahrenheit"},
    }


def test_example_async_length_tool_through_the_host(hermes_host: HermesHost) -> None:
    args = {"value": 3, "from_unit": "mi", "to_unit": "km"}
    assert call(hermes_host, "units_convert_length", args) == {
        "success": True,
        "data": {"value": 4.828032, "unit": "km"},
    }


def test_example_refuses_a_value_outside_its_enum(hermes_host: HermesHost) -> None:
    args = {"value": 1, "from_scale": "rankine", "to_scale": "kelvin"}
    result = call(hermes_host, "units_convert_temperature", args)
    assert result["success"] is False
    assert result["error_code"] == "invalid_argument"
    assert result["error"].startswith("from_scale must be one of 'celsius', 'fahrenheit', 'kelvin'")


# -- what the model receives by default: the tool-search bridge (0.20.0 on) ---------------

BRIDGE_DEFAULT = pytest.mark.needs("bridge_default")
"""Tests of a release that sends the bridge by default (the host model's fact): deselected
on the others, which send plugin schemas."""

ECHO_ENTRY = "- kitc_echo: Echo the text back, repeated."
"""kitc_echo's line in the catalog listing: ``- name: first sentence of the description``
(``build_catalog_listing_with_form`` / ``_short_desc``: 0.20.0 ``tools/tool_search.py``,
0.22.2 ``tools/tool_search_catalog.py``)."""


def bridge_properties(bridged: dict[str, Any], name: str) -> dict[str, Any]:
    properties: dict[str, Any] = bridged[name]["function"]["parameters"]["properties"]
    return properties


def describe(hermes_host: HermesHost, bridged: dict[str, Any], name: str) -> dict[str, Any]:
    """``tool_describe`` through ``handle_function_call``, in the form the release's
    bridge asks for: ``{"name": ...}`` answered with the tool (0.20.0-0.20.5), or
    ``{"names": [...]}`` answered with ``{"tools": {name: ...}}`` (0.20.6 on)."""
    if "names" in bridge_properties(bridged, "tool_describe"):
        answer = call(hermes_host, "tool_describe", {"names": [name]})
        assert set(answer) == {"tools"}, answer
        found: dict[str, Any] = answer["tools"][name]
        return found
    answer = call(hermes_host, "tool_describe", {"name": name})
    assert answer.pop("name") == name
    return answer


@BRIDGE_DEFAULT
def test_by_default_the_model_gets_the_bridge_with_one_line_per_tool(
    hermes_host: HermesHost,
) -> None:
    with hermes_host.default_tool_search():
        found = hermes_host.model_tools.get_tool_definitions(
            enabled_toolsets=[KIT_CONTRACT, UNIT_CONVERT], quiet_mode=True
        )
    names = [d["function"]["name"] for d in found]
    assert set(names) == set(hermes_host.release.bridge_tools)
    assert set(names) == {"tool_search", "tool_describe", "tool_call"}
    search = next(d for d in found if d["function"]["name"] == "tool_search")["function"]
    lines = search["description"].splitlines()
    assert ECHO_ENTRY in lines
    assert "kit_contract tools (4):" in lines  # kitc_gated's check_fn fails: not listed
    assert "- units_convert_length: Convert a length between metric and imperial units." in lines
    assert not any(line.startswith("- kitc_gated") for line in lines)
    # the operator's switch sends the schemas themselves again
    assert "kitc_echo" in hermes_host.definitions(KIT_CONTRACT)


def sent_by_default(hermes_host: HermesHost) -> dict[str, dict[str, Any]]:
    """What the model is sent for kit_contract's toolset, by name (call inside
    ``default_tool_search()``: the bridge's three tools)."""
    found = hermes_host.model_tools.get_tool_definitions(
        enabled_toolsets=[KIT_CONTRACT], quiet_mode=True
    )
    return {d["function"]["name"]: d for d in found}


@BRIDGE_DEFAULT
def test_tool_describe_returns_the_kits_own_schema(
    hermes_host: HermesHost, tools: ModuleType
) -> None:
    with hermes_host.default_tool_search():
        bridged = sent_by_default(hermes_host)
        described = describe(hermes_host, bridged, "kitc_echo")
        annotate = describe(hermes_host, bridged, "kitc_annotate")
    schema = {"name": "kitc_echo", **described}
    assert {"type": "function", "function": schema} == spec_of(tools.kitc_echo).definition()
    assert {"type": "function", "function": schema} == EXPECTED_ECHO_DEFINITION
    # tool_describe hands out the sanitized schema, the one the switch-off sends
    direct = hermes_host.definitions(KIT_CONTRACT)["kitc_annotate"]["function"]
    assert annotate == {"description": direct["description"], "parameters": direct["parameters"]}
    assert tools.CALLS == []


@BRIDGE_DEFAULT
def test_a_call_through_tool_call_reaches_the_plugin_handler(
    hermes_host: HermesHost, tools: ModuleType
) -> None:
    with hermes_host.default_tool_search():
        bridged = sent_by_default(hermes_host)
        one = {"name": "kitc_echo", "arguments": {"text": "via", "times": 2}}
        if "calls" in bridge_properties(bridged, "tool_call"):  # 0.21.3 on: a batch of one
            result = call(hermes_host, "tool_call", {"calls": [one]})
        else:
            result = call(hermes_host, "tool_call", one)
    assert result["success"] is True
    assert result["data"]["echo"] == "via via"
    assert result["data"]["args"] == {"text": "via", "times": 2}
    assert tools.CALLS == ["kitc_echo"]
