"""The lint rules that read a tool as the host received it, on hand-written schemas."""

from __future__ import annotations

import re
from typing import Any

import pytest

from kit_core.hermes import first_release, registry_release
from kit_devtools.cli._tool_rules import (
    bridge_line_findings,
    handler_findings,
    name_findings,
    schema_findings,
)
from kit_devtools.cli.findings import Severity, finding
from kit_devtools.cli.rules import RULES
from kit_devtools.testing.host_names import MODELLED

GOOD: dict[str, Any] = {
    "name": "acme_get_item",
    "description": "Get an item.",
    "parameters": {
        "type": "object",
        "properties": {"id": {"type": "string", "description": "Item id"}},
        "required": ["id"],
    },
}


def rules_of(findings: list[Any]) -> list[str]:
    return [f.rule for f in findings]


def test_a_correct_schema_has_no_findings() -> None:
    assert schema_findings("acme_get_item", GOOD) == []


@pytest.mark.parametrize(
    ("schema", "rule"),
    [
        ("not a schema", "HPK101"),
        ({"type": "function", "function": GOOD}, "HPK102"),
        ({"name": "x", "description": "d", "type": "object", "properties": {"q": {}}}, "HPK103"),
        ({**GOOD, "description": ""}, "HPK104"),
        ({"name": "x", "description": "d"}, "HPK105"),
        ({**GOOD, "parameters": {"type": "array"}}, "HPK105"),
        ({**GOOD, "parameters": {**GOOD["parameters"], "required": ["id", "ghost"]}}, "HPK106"),
        (
            {**GOOD, "parameters": {"type": "object", "properties": {"id": {"type": "string"}}}},
            "HPK107",
        ),
        (
            {
                **GOOD,
                "parameters": {
                    "type": "object",
                    "properties": {"x": {"$ref": "#/$defs/X", "description": "x"}},
                },
            },
            "HPK108",
        ),
        (
            {
                **GOOD,
                "parameters": {
                    "type": "object",
                    "properties": {"tags": {"type": "array", "description": "t"}},
                },
            },
            "HPK109",
        ),
        (
            {
                **GOOD,
                "parameters": {
                    "type": "object",
                    "properties": {
                        "deep": {
                            "type": "object",
                            "description": "d",
                            "properties": {"list": {"type": ["array", "null"]}},
                        }
                    },
                },
            },
            "HPK109",
        ),
    ],
)
def test_each_schema_mistake_is_found(schema: Any, rule: str) -> None:
    assert rule in rules_of(schema_findings("acme_get_item", schema))


def test_arguments_outside_parameters_name_the_keys() -> None:
    bare = {"name": "x", "description": "d", "type": "object", "properties": {}, "required": []}
    (outside,) = [f for f in schema_findings("x_y", bare) if f.rule == "HPK103"]
    assert "'properties', 'required', 'type' stand outside 'parameters'" in outside.message
    assert outside.severity is Severity.ERROR
    assert outside.fix == "move them under schema['parameters']"


@pytest.mark.parametrize(
    ("name", "toolset", "rule"),
    [
        ("bad name!", "acme", "HPK111"),
        ("x" * 65, "acme", "HPK111"),
        ("memory", "acme", "HPK112"),
        ("memory_write", "acme", "HPK117"),
        ("AcmeGet", "acme", "HPK113"),
        ("search", "acme", "HPK114"),
        ("acme_get_item", "file", "HPK115"),
    ],
)
def test_name_and_toolset_rules(name: str, toolset: str, rule: str) -> None:
    assert rule in rules_of(name_findings(name, "acme-tools", toolset))


def test_a_namespaced_snake_case_name_in_its_own_toolset_is_fine() -> None:
    assert name_findings("acme_get_item", "acme", "acme") == []


def test_reserved_names_suggest_the_plugin_namespace() -> None:
    (reserved,) = name_findings("todo", "acme-tools", "acme")[:1]
    assert reserved.fix == "give it your plugin's namespace, e.g. acme_tools_todo"


def good_handler(args: Any, **kwargs: Any) -> str:
    return "{}"


def no_kwargs(args: Any) -> str:
    return "{}"


async def async_handler(args: Any, **kwargs: Any) -> str:
    return "{}"


def dict_handler(args: Any, **kwargs: Any) -> dict[str, Any]:
    return {"id": args}


@pytest.mark.parametrize(
    ("handler", "is_async", "rules"),
    [
        (good_handler, False, []),
        (no_kwargs, False, ["HPK121"]),
        (async_handler, False, ["HPK122"]),
        (good_handler, True, ["HPK123"]),
        (async_handler, True, []),
        (dict_handler, False, ["HPK125"]),
    ],
)
def test_each_handler_shape_gives_its_rules(handler: Any, is_async: bool, rules: list[str]) -> None:
    assert rules_of(handler_findings("acme_x", handler, is_async)) == rules


def names_keywords(args: Any, *, task_id: Any = None, session_id: Any = None,
                   user_task: Any = None) -> str:  # fmt: skip
    return "{}"


def test_a_handler_naming_every_keyword_hermes_passes_is_a_warning_not_an_error() -> None:
    """hermes-kiokuko 0.1.25's handlers: hermes-agent 0.19.0 passes task_id, session_id and
    user_task (``model_tools.py`` 1272-1278), so the call works there."""
    keywords = MODELLED.tool_keywords
    assert keywords == {"task_id", "session_id", "user_task"}
    assert rules_of(handler_findings("acme_x", names_keywords, False, keywords)) == ["HPK124"]
    assert rules_of(handler_findings("acme_x", no_kwargs, False, keywords)) == ["HPK121"]
    older = frozenset({"task_id", "user_task"})
    assert rules_of(handler_findings("acme_x", names_keywords, False, older)) == ["HPK124"]


def test_every_rule_renders_with_its_details() -> None:
    for rule, (severity, message, fix, mirrors) in RULES.items():
        assert mirrors.strip(), f"{rule} does not say which hermes behaviour it mirrors"
        assert re.fullmatch(r"HPK\d{3}", rule)
        fields = set(re.findall(r"(?<!\{)\{(\w+)[^}]*\}(?!\})", message + fix))
        built = finding(rule, "somewhere", **dict.fromkeys(fields, "X"))
        assert built.severity is severity
        assert (
            "{" not in built.message.replace("{'", "").replace("{{", "")
            or "'type'" in built.message
        )
        assert built.line().startswith(f"{severity} {rule} somewhere: ")


BRIDGED = first_release(lambda r: r.bridge_default)
UNBRIDGED = registry_release("0.19.0")


@pytest.mark.parametrize(
    ("name", "description", "why"),
    [
        ("notes_add_note", "Add a note.", "nothing beyond the tool's name"),
        ("acme_get_item", "Get an item.", "nothing beyond the tool's name"),
        ("notes_add_note", "Adds notes to the notes.", "nothing beyond the tool's name"),
        ("acme_lookup", "This tool looks things up in Acme.", "what the tool is, not what"),
        ("acme_lookup", "A helper for Acme lookups.", "what the tool is, not what"),
        ("acme_lookup", "Use this to search Acme orders.", "what the tool is, not what"),
    ],
)
def test_a_bridge_line_that_does_not_say_what_the_tool_does_is_a_convention(
    name: str, description: str, why: str
) -> None:
    assert BRIDGED is not None
    schema = {**GOOD, "name": name, "description": description}
    (found,) = bridge_line_findings(name, schema, BRIDGED)
    assert (found.rule, found.severity) == ("HPK118", Severity.CONVENTION)
    assert why in found.message
    assert repr(description) in found.message  # the line the model picks the tool by
    assert BRIDGED.label in found.message
    # where the model is sent the schemas themselves, the first sentence is not alone
    assert UNBRIDGED is not None
    assert bridge_line_findings(name, schema, UNBRIDGED) == []


@pytest.mark.parametrize(
    ("name", "description"),
    [
        ("acme_get", "Get an item by its id."),
        ("notes_add_note", "Add a note with tags to the team's notebook."),
        ("units_convert_length", "Convert a length between metric and imperial units."),
        ("acme_lookup", ""),  # no description: HPK104's
        ("acme_tool_search", "Search Acme's tool catalogue by keyword."),
    ],
)
def test_a_bridge_line_that_says_what_the_tool_does_is_fine(name: str, description: str) -> None:
    assert BRIDGED is not None
    schema = {**GOOD, "name": name, "description": description}
    assert bridge_line_findings(name, schema, BRIDGED) == []


def test_the_bridge_line_is_the_first_sentence_as_the_release_clips_it() -> None:
    # the rule reads the line the bridge shows, not the whole description
    assert BRIDGED is not None
    schema = {**GOOD, "name": "acme_lookup", "description": "Acme lookup. Finds orders by id."}
    (found,) = bridge_line_findings("acme_lookup", schema, BRIDGED)
    assert "'Acme lookup.'" in found.message
