"""build_schema, the description augmentation, and @tool's decoration-time checks."""

from __future__ import annotations

import copy
import inspect
from typing import Any

import pytest

from kit_core import (
    ArgSpec,
    ToolDefinitionError,
    ToolSpec,
    arg,
    array_arg,
    bool_arg,
    declaration_of,
    int_arg,
    number_arg,
    object_arg,
    str_arg,
    tool,
)
from kit_core._schema import build_schema


def spec_of(fn: object) -> ToolSpec:
    """The ToolSpec of a @tool function."""
    spec = declaration_of(fn, ToolSpec)
    assert spec is not None, f"{fn!r} carries no ToolSpec"
    return spec


def schema_untyped(value: object) -> Any:
    """Hand a deliberately wrong-typed value past the type checker."""
    return value


def schema_handler(args: Any, **kwargs: Any) -> str:
    """Read one item."""
    return "{}"


def schema_supplied(**overrides: Any) -> dict[str, Any]:
    """A valid hand-written function schema, with top-level overrides."""
    base: dict[str, Any] = {
        "description": "Look up the weather.",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City", "examples": ["Oslo", "Rome"]},
                "days": {"type": "integer", "description": "Days", "examples": [3]},
                "units": {"type": "string", "description": "Units"},
            },
            "required": ["city"],
        },
    }
    base.update(overrides)
    return base


def schema_parameters(**overrides: Any) -> dict[str, Any]:
    """A supplied schema whose ``parameters`` get the overrides."""
    params: dict[str, Any] = {"type": "object", "properties": {"a": {"type": "string"}}}
    params.update(overrides)
    return {"description": "D.", "parameters": params}


# =============================================================================================
# build_schema
# =============================================================================================


def test_build_schema_exact_shape() -> None:
    schema = build_schema(
        "discord_read_thread",
        "Read a thread.",
        {
            "thread_id": str_arg("Thread id", required=True, example="123"),
            "limit": int_arg("How many", minimum=1, example=5),
            "archived": bool_arg("Include archived"),
            "guild": str_arg("Guild", required=True),
        },
    )
    assert schema == {
        "name": "discord_read_thread",
        "description": (
            "Read a thread. Required: `thread_id` (e.g. '123'), `guild`."
            " Optional: `limit` (e.g. 5)."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "thread_id": {"type": "string", "description": "Thread id"},
                "limit": {"type": "integer", "description": "How many", "minimum": 1},
                "archived": {"type": "boolean", "description": "Include archived"},
                "guild": {"type": "string", "description": "Guild"},
            },
            "required": ["thread_id", "guild"],
            "additionalProperties": False,
        },
    }
    assert list(schema) == ["name", "description", "parameters"]
    assert list(schema["parameters"]) == ["type", "properties", "required", "additionalProperties"]


def test_build_schema_required_keeps_declaration_order() -> None:
    schema = build_schema(
        "x_y",
        "D.",
        {
            "zeta": str_arg("z", required=True),
            "alpha": str_arg("a", required=True),
            "mid": str_arg("m"),
            "beta": str_arg("b", required=True),
        },
    )
    assert schema["parameters"]["required"] == ["zeta", "alpha", "beta"]
    assert list(schema["parameters"]["properties"]) == ["zeta", "alpha", "mid", "beta"]


def test_build_schema_omits_required_when_nothing_is_required() -> None:
    schema = build_schema("x_y", "List things.", {"limit": int_arg("Limit")})
    assert schema["parameters"] == {
        "type": "object",
        "properties": {"limit": {"type": "integer", "description": "Limit"}},
        "additionalProperties": False,
    }
    assert schema["description"] == "List things."


def test_build_schema_without_params() -> None:
    assert build_schema("x_y", "  Ping.  ", {}) == {
        "name": "x_y",
        "description": "Ping.",
        "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
    }


def test_build_schema_properties_are_copies() -> None:
    spec = str_arg("Mode", enum=["a"])
    schema = build_schema("x_y", "D.", {"mode": spec})
    schema["parameters"]["properties"]["mode"]["enum"].append("b")
    assert spec.schema["enum"] == ["a"]


def test_build_schema_validates_the_name() -> None:
    with pytest.raises(ToolDefinitionError, match="snake_case"):
        build_schema("Bad-Name", "D.", {})
    with pytest.raises(ToolDefinitionError, match="reserved"):
        build_schema("memory", "D.", {})


# --- description augmentation ----------------------------------------------------------------


def test_required_clause_lists_every_required_key_with_its_example() -> None:
    schema = build_schema(
        "x_y",
        "Do it.",
        {"k1": str_arg("k1", required=True, example="ex1"), "k2": str_arg("k2", required=True)},
    )
    assert schema["description"] == "Do it. Required: `k1` (e.g. 'ex1'), `k2`."


def test_optional_clause_lists_only_optional_keys_with_an_example() -> None:
    schema = build_schema(
        "x_y",
        "Do it.",
        {"k": int_arg("k", example=5), "quiet": bool_arg("q"), "note": str_arg("n")},
    )
    assert schema["description"] == "Do it. Optional: `k` (e.g. 5)."


def test_no_clause_when_nothing_is_required_and_no_optional_example() -> None:
    schema = build_schema("x_y", "Do it.", {"quiet": bool_arg("q"), "n": int_arg("n")})
    assert schema["description"] == "Do it."


@pytest.mark.parametrize(
    ("spec", "rendered"),
    [
        (str_arg("s", example="ex1"), "'ex1'"),
        (str_arg("s", example='say "hi"'), "'say \"hi\"'"),
        (int_arg("i", example=5), "5"),
        (int_arg("i", example=0), "0"),
        (number_arg("n", example=1.5), "1.5"),
        (bool_arg("b", example=True), "true"),
        (bool_arg("b", example=False), "false"),
        (array_arg("l", items=int_arg("x"), example=[1, 2]), "[1, 2]"),
        (array_arg("l", items=str_arg("x"), example=["a"]), '["a"]'),
        (object_arg("o", example={"k": "v"}), '{"k": "v"}'),
    ],
)
def test_examples_are_rendered_as_python_strings_or_json(spec: ArgSpec, rendered: str) -> None:
    required = ArgSpec(spec.schema, True, spec.example)
    schema = build_schema("x_y", "D.", {"v": required})
    assert schema["description"] == f"D. Required: `v` (e.g. {rendered})."
    optional = build_schema("x_y", "D.", {"v": spec})
    assert optional["description"] == f"D. Optional: `v` (e.g. {rendered})."


def test_both_clauses_in_order() -> None:
    schema = build_schema(
        "x_y",
        "Search.",
        {
            "limit": int_arg("Limit", example=10),
            "query": str_arg("Query", required=True, example="cats"),
            "exact": bool_arg("Exact", example=True),
        },
    )
    assert schema["description"] == (
        "Search. Required: `query` (e.g. 'cats'). Optional: `limit` (e.g. 10), `exact` (e.g. true)."
    )


def test_an_existing_required_clause_is_not_repeated() -> None:
    params = {"q": str_arg("Query", required=True, example="cats"), "n": int_arg("N", example=3)}
    schema = build_schema("x_y", "Search. Required: `q`.", params)
    assert schema["description"] == "Search. Required: `q`. Optional: `n` (e.g. 3)."


def test_an_existing_optional_clause_is_not_repeated() -> None:
    params = {"q": str_arg("Query", required=True, example="cats"), "n": int_arg("N", example=3)}
    schema = build_schema("x_y", "Search. Optional: `n` (e.g. 3).", params)
    assert schema["description"] == "Search. Optional: `n` (e.g. 3). Required: `q` (e.g. 'cats')."


def test_both_existing_clauses_leave_the_description_alone() -> None:
    params = {"q": str_arg("Query", required=True, example="cats"), "n": int_arg("N", example=3)}
    text = "Search. Required: q. Optional: n."
    assert build_schema("x_y", text, params)["description"] == text


def test_empty_description_gets_only_the_clauses() -> None:
    schema = build_schema("x_y", "", {"q": str_arg("Query", required=True)})
    assert schema["description"] == "Required: `q`."


# --- bad params ------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["", "1abc", "a b", "a/b", "x" * 65, "é"])
def test_bad_property_names_are_rejected(key: str) -> None:
    with pytest.raises(ToolDefinitionError) as info:
        build_schema("x_y", "D.", {key: str_arg("s")})
    message = str(info.value)
    assert f"tool 'x_y': argument name {key!r} must start with a letter or '_'" in message
    assert "rename it" in message


def test_a_non_str_property_name_is_rejected() -> None:
    with pytest.raises(ToolDefinitionError, match="argument name 1"):
        build_schema("x_y", "D.", schema_untyped({1: str_arg("s")}))


@pytest.mark.parametrize("key", ["a", "_private", "A.b-c_1", "x" * 64])
def test_good_property_names_are_accepted(key: str) -> None:
    assert key in build_schema("x_y", "D.", {key: str_arg("s")})["parameters"]["properties"]


def test_a_plain_dict_instead_of_an_argspec_is_rejected() -> None:
    with pytest.raises(ToolDefinitionError) as info:
        build_schema("x_y", "D.", schema_untyped({"city": {"type": "string"}}))
    message = str(info.value)
    assert "tool 'x_y': argument 'city' must be built with str_arg()" in message
    assert "got dict" in message
    assert "schema=" in message


def test_non_mapping_params_are_rejected() -> None:
    with pytest.raises(ToolDefinitionError, match="params must map argument names to specs"):
        build_schema("x_y", "D.", schema_untyped([("a", str_arg("A"))]))


@pytest.mark.parametrize("type_", ["array", ["array", "null"]])
def test_an_array_property_without_items_is_rejected(type_: Any) -> None:
    with pytest.raises(ToolDefinitionError) as info:
        build_schema("x_y", "D.", {"tags": arg(type_, "Tags")})
    message = str(info.value)
    assert "array argument 'tags' needs items=" in message
    assert "array_arg(..., items=str_arg('...'))" in message


def test_an_array_property_with_items_via_arg_is_accepted() -> None:
    schema = build_schema("x_y", "D.", {"tags": arg("array", "Tags", items={"type": "string"})})
    assert schema["parameters"]["properties"]["tags"]["items"] == {"type": "string"}


# =============================================================================================
# @tool: description
# =============================================================================================


def test_description_comes_from_the_docstring() -> None:
    @tool(toolset="t")
    def docs_read(args: Any, **kwargs: Any) -> str:
        """
        Read a doc.

        More text.
        """
        return ""

    assert spec_of(docs_read).description == "Read a doc.\n\nMore text."


def test_description_keyword_wins_over_schema_and_docstring() -> None:
    @tool(toolset="t", description="  From the keyword. ", schema=schema_parameters())
    def docs_read(args: Any, **kwargs: Any) -> str:
        """From the docstring."""
        return ""

    assert spec_of(docs_read).description == "From the keyword."
    assert spec_of(docs_read).schema["description"] == "From the keyword."


def test_schema_description_wins_over_the_docstring() -> None:
    @tool(toolset="t", schema=schema_parameters(required=["a"]))
    def docs_read(args: Any, **kwargs: Any) -> str:
        """From the docstring."""
        return ""

    assert spec_of(docs_read).description == "D. Required: `a`."


def test_blank_description_keyword_falls_back_to_the_docstring() -> None:
    @tool(toolset="t", description="   ")
    def docs_read(args: Any, **kwargs: Any) -> str:
        """From the docstring."""
        return ""

    assert spec_of(docs_read).description == "From the docstring."


def test_a_missing_description_is_rejected() -> None:
    def docs_read(args: Any, **kwargs: Any) -> str:
        return ""

    with pytest.raises(ToolDefinitionError) as info:
        tool(toolset="t")(docs_read)
    assert (
        str(info.value)
        == "@tool 'docs_read': a description is required (docstring or description=)."
    )


def test_a_blank_schema_description_and_no_docstring_is_rejected() -> None:
    def docs_read(args: Any, **kwargs: Any) -> str:
        return ""

    with pytest.raises(ToolDefinitionError, match="a description is required"):
        tool(toolset="t", schema={"description": "  ", "parameters": {"type": "object"}})(docs_read)


def test_description_is_augmented_from_params() -> None:
    @tool(
        toolset="t",
        params={"q": str_arg("Query", required=True, example="cats"), "n": int_arg("N", example=3)},
    )
    def docs_search(args: Any, **kwargs: Any) -> str:
        """Search docs."""
        return ""

    expected = "Search docs. Required: `q` (e.g. 'cats'). Optional: `n` (e.g. 3)."
    assert spec_of(docs_search).description == expected
    assert spec_of(docs_search).schema["description"] == expected


# =============================================================================================
# @tool: schema= and params=
# =============================================================================================


def test_schema_and_params_together_are_rejected() -> None:
    with pytest.raises(ToolDefinitionError) as info:
        tool(toolset="t", schema=schema_supplied(), params={"a": str_arg("A")})(schema_handler)
    message = str(info.value)
    assert "schema and params are mutually exclusive" in message
    assert message.startswith("@tool 'schema_handler'")


def test_a_supplied_schema_is_deep_copied() -> None:
    original = schema_supplied()
    snapshot = copy.deepcopy(original)
    decorated = tool(toolset="t", schema=original)(schema_handler)
    before = spec_of(decorated).schema
    original["parameters"]["properties"]["city"]["type"] = "integer"
    original["parameters"]["required"].append("days")
    original["description"] = "Changed."
    assert spec_of(decorated).schema == before
    assert spec_of(decorated).schema["parameters"] == snapshot["parameters"]


def test_the_spec_schema_cannot_be_mutated_through_its_property() -> None:
    decorated = tool(toolset="t", schema=schema_supplied())(schema_handler)
    spec_of(decorated).schema["parameters"]["properties"].clear()
    spec_of(decorated).parameters["required"].clear()
    assert spec_of(decorated).parameters["required"] == ["city"]
    assert "city" in spec_of(decorated).schema["parameters"]["properties"]


def test_decoration_leaves_the_supplied_schema_untouched() -> None:
    original = schema_supplied()
    snapshot = copy.deepcopy(original)
    tool(toolset="t", schema=original)(schema_handler)
    assert original == snapshot


def test_a_supplied_schema_is_augmented_from_its_examples() -> None:
    decorated = tool(toolset="t", schema=schema_supplied())(schema_handler)
    spec = spec_of(decorated)
    expected = "Look up the weather. Required: `city` (e.g. 'Oslo'). Optional: `days` (e.g. 3)."
    assert spec.description == expected
    assert spec.schema["description"] == expected
    assert spec.schema["parameters"] == schema_supplied()["parameters"]


def test_a_supplied_schema_with_clauses_is_not_augmented_twice() -> None:
    text = "Look up. Required: `city` (e.g. 'Oslo'). Optional: `days` (e.g. 3)."
    decorated = tool(toolset="t", schema=schema_supplied(description=text))(schema_handler)
    assert spec_of(decorated).description == text


def test_a_supplied_schema_with_a_matching_name_is_accepted() -> None:
    decorated = tool(toolset="t", schema=schema_supplied(name="schema_handler"))(schema_handler)
    assert spec_of(decorated).schema["name"] == "schema_handler"


@pytest.mark.parametrize("bad", ["not a schema", ["parameters"], 5])
def test_a_supplied_schema_that_is_not_a_dict_is_rejected(bad: object) -> None:
    with pytest.raises(ToolDefinitionError) as info:
        tool(toolset="t", schema=schema_untyped(bad))(schema_handler)
    assert "must be a dict" in str(info.value)


def test_an_empty_list_schema_is_rejected() -> None:
    with pytest.raises(ToolDefinitionError, match="must be a dict"):
        tool(toolset="t", schema=schema_untyped([]))(schema_handler)


@pytest.mark.parametrize("key", ["properties", "type", "required", "additionalProperties"])
def test_top_level_parameter_keys_are_rejected(key: str) -> None:
    misplaced = {
        "properties": {"a": {"type": "string"}},
        "type": "object",
        "required": ["a"],
        "additionalProperties": False,
    }[key]
    with pytest.raises(ToolDefinitionError) as info:
        tool(toolset="t", schema=schema_supplied(**{key: misplaced}))(schema_handler)
    message = str(info.value)
    assert message.startswith("tool 'schema_handler': supplied schema has")
    assert f"{key!r} at the top level" in message
    assert "where the model never sees them" in message
    assert "move them under 'parameters'" in message


def test_a_flat_schema_is_rejected_naming_every_misplaced_key() -> None:
    flat = {
        "description": "D.",
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": ["a"],
    }
    with pytest.raises(ToolDefinitionError) as info:
        tool(toolset="t", schema=flat)(schema_handler)
    assert "'properties', 'required', 'type' at the top level" in str(info.value)


def test_a_schema_name_different_from_the_tool_name_is_rejected() -> None:
    with pytest.raises(ToolDefinitionError) as info:
        tool(toolset="t", schema=schema_supplied(name="other_tool"))(schema_handler)
    assert str(info.value) == (
        "tool 'schema_handler': supplied schema is named 'other_tool', but the tool is"
        " 'schema_handler'; make them equal or drop it"
    )


@pytest.mark.parametrize(
    ("schema", "got"),
    [
        ({"description": "D."}, "NoneType"),
        ({"description": "D.", "parameters": None}, "NoneType"),
        ({"description": "D.", "parameters": []}, "list"),
        ({"description": "D.", "parameters": "object"}, "str"),
    ],
)
def test_missing_or_non_dict_parameters_are_rejected(schema: dict[str, Any], got: str) -> None:
    with pytest.raises(ToolDefinitionError) as info:
        tool(toolset="t", schema=schema)(schema_handler)
    message = str(info.value)
    assert "supplied schema needs a 'parameters' object" in message
    assert message.endswith(f"got {got}")


@pytest.mark.parametrize("type_", [None, "array", "function", ["object"]])
def test_parameters_type_must_be_object(type_: Any) -> None:
    schema = schema_parameters(type=type_)
    with pytest.raises(ToolDefinitionError) as info:
        tool(toolset="t", schema=schema)(schema_handler)
    assert f"'parameters' must have type 'object', got {type_!r}" in str(info.value)


def test_required_naming_absent_properties_is_rejected_listing_them() -> None:
    schema = schema_parameters(required=["zed", "a", "beta"])
    with pytest.raises(ToolDefinitionError) as info:
        tool(toolset="t", schema=schema)(schema_handler)
    message = str(info.value)
    assert "requires 'beta', 'zed', which 'parameters.properties' does not define" in message
    assert "add the properties or drop them from 'required'" in message


@pytest.mark.parametrize("required", ["a", ["a", 1], {"a"}, None])
def test_required_must_be_a_list_of_str(required: object) -> None:
    schema = schema_parameters(required=required)
    with pytest.raises(ToolDefinitionError) as info:
        tool(toolset="t", schema=schema)(schema_handler)
    assert "'parameters.required' must be a list of argument names" in str(info.value)


@pytest.mark.parametrize("properties", [[], {"a": "string"}, {"a": None}])
def test_properties_must_map_names_to_schemas(properties: object) -> None:
    schema = schema_parameters(properties=properties)
    with pytest.raises(ToolDefinitionError, match=r"'parameters\.properties' must map"):
        tool(toolset="t", schema=schema)(schema_handler)


def test_a_supplied_schema_example_that_does_not_fit_is_rejected() -> None:
    schema = schema_parameters(properties={"n": {"type": "integer", "maximum": 5, "examples": [9]}})
    with pytest.raises(ToolDefinitionError) as info:
        tool(toolset="t", schema=schema)(schema_handler)
    assert "the example of n does not fit: must be <= 5" in str(info.value)


# =============================================================================================
# @tool: options
# =============================================================================================


@pytest.mark.parametrize("value", [1, 0, "yes", None])
def test_validate_required_must_be_a_bool(value: object) -> None:
    with pytest.raises(ToolDefinitionError) as info:
        tool(toolset="t", validate_required=schema_untyped(value))(schema_handler)
    assert f"validate_required must be a bool, got {value!r}" in str(info.value)


@pytest.mark.parametrize("toolset", ["", "   ", None, 5])
def test_toolset_is_required_and_not_blank(toolset: object) -> None:
    with pytest.raises(ToolDefinitionError) as info:
        tool(toolset=schema_untyped(toolset))(schema_handler)
    message = str(info.value)
    assert "toolset is required" in message
    assert "@tool(toolset='myplugin')" in message


def test_toolset_is_stripped() -> None:
    assert spec_of(tool(toolset="  notes ")(schema_handler)).toolset == "notes"


def test_requires_env_as_a_bare_string_is_rejected_suggesting_a_list() -> None:
    with pytest.raises(ToolDefinitionError) as info:
        tool(toolset="t", requires_env="MY_TOKEN")(schema_handler)
    message = str(info.value)
    assert "requires_env must be a list of variable names" in message
    assert "['MY_TOKEN']" in message


@pytest.mark.parametrize("env", [5, {"MY_TOKEN"}])
def test_requires_env_that_is_not_a_sequence_is_rejected(env: object) -> None:
    with pytest.raises(ToolDefinitionError, match="requires_env must be a list"):
        tool(toolset="t", requires_env=schema_untyped(env))(schema_handler)


@pytest.mark.parametrize("bad", ["1TOKEN", "MY-TOKEN", "", "MY TOKEN", 5, None])
def test_requires_env_with_invalid_names_is_rejected(bad: object) -> None:
    with pytest.raises(ToolDefinitionError) as info:
        tool(toolset="t", requires_env=schema_untyped(["OK_NAME", bad]))(schema_handler)
    message = str(info.value)
    assert f"requires_env holds invalid variable names {[bad]!r}" in message
    assert "MY_API_TOKEN" in message


def test_requires_env_is_stored_as_a_tuple() -> None:
    spec = spec_of(tool(toolset="t", requires_env=["API_TOKEN", "_base_url"])(schema_handler))
    assert spec.requires_env == ("API_TOKEN", "_base_url")
    spec = spec_of(tool(toolset="t")(schema_handler))
    assert spec.requires_env == ()


def test_check_fn_with_a_required_argument_is_rejected() -> None:
    def probe(config: Any) -> bool:
        return True

    with pytest.raises(ToolDefinitionError) as info:
        tool(toolset="t", check_fn=schema_untyped(probe))(schema_handler)
    assert "check_fn must be callable with no arguments" in str(info.value)


def test_a_non_callable_check_fn_is_rejected() -> None:
    with pytest.raises(ToolDefinitionError, match="check_fn must be callable"):
        tool(toolset="t", check_fn=schema_untyped(True))(schema_handler)


def test_a_check_fn_with_defaults_is_accepted() -> None:
    def probe(strict: bool = False) -> bool:
        return not strict

    assert spec_of(tool(toolset="t", check_fn=probe)(schema_handler)).check_fn is probe


def test_a_non_str_emoji_is_rejected() -> None:
    with pytest.raises(ToolDefinitionError, match="emoji must be a str"):
        tool(toolset="t", emoji=schema_untyped(None))(schema_handler)


# =============================================================================================
# @tool: the handler
# =============================================================================================


def test_a_handler_without_kwargs_is_rejected() -> None:
    def notes_read(args: Any) -> str:
        """Read."""
        return ""

    with pytest.raises(ToolDefinitionError) as info:
        tool(toolset="t", params={})(notes_read)
    message = str(info.value)
    assert message.startswith(
        "@tool 'notes_read': with params= or schema=, the handler must take (args, **kwargs)"
    )
    assert "or drop params= and declare the arguments as typed parameters" in message
    assert "write `def notes_read(args, **kwargs):`" in message


def test_a_handler_without_a_positional_parameter_is_rejected() -> None:
    def notes_read(**kwargs: Any) -> str:
        """Read."""
        return ""

    with pytest.raises(ToolDefinitionError, match=r"the handler must take \(args, \*\*kwargs\)"):
        tool(toolset="t", params={})(notes_read)


def test_a_handler_with_a_second_required_positional_is_rejected() -> None:
    def notes_read(args: Any, extra: Any, **kwargs: Any) -> str:
        """Read."""
        return ""

    with pytest.raises(ToolDefinitionError, match=r"must take \(args, \*\*kwargs\)"):
        tool(toolset="t", params={})(notes_read)


def test_a_handler_with_params_taking_no_parameters_is_rejected() -> None:
    def notes_read() -> str:
        """Read."""
        return ""

    with pytest.raises(ToolDefinitionError, match=r"must take \(args, \*\*kwargs\)"):
        tool(toolset="t", params={})(notes_read)


def test_handler_variants_that_take_args_and_kwargs_are_accepted() -> None:
    def notes_a(*args: Any, **kwargs: Any) -> str:
        """A."""
        return ""

    def notes_b(args: Any, /, **kwargs: Any) -> str:
        """B."""
        return ""

    def notes_c(args: Any = None, option: int = 1, **kwargs: Any) -> str:
        """C."""
        return ""

    for handler in (notes_a, notes_b, notes_c):
        assert spec_of(tool(toolset="t")(handler)).name == handler.__name__


def test_a_non_callable_is_rejected() -> None:
    with pytest.raises(ToolDefinitionError, match="@tool must decorate a function"):
        tool(toolset="t", name="notes_x")(schema_untyped("not a function"))


def test_decorating_twice_is_rejected() -> None:
    once = tool(toolset="t")(schema_handler)
    with pytest.raises(ToolDefinitionError) as info:
        tool(toolset="t")(once)
    assert "already a @tool; apply @tool once" in str(info.value)


def test_an_example_that_does_not_fit_its_spec_is_rejected() -> None:
    with pytest.raises(ToolDefinitionError) as info:
        tool(toolset="t", params={"n": int_arg("N", maximum=5, example=9)})(schema_handler)
    assert str(info.value) == (
        "@tool 'schema_handler': the example of n does not fit: must be <= 5; got integer 9"
    )


@pytest.mark.parametrize(
    "spec",
    [
        str_arg("s", example=5),
        str_arg("s", enum=["a", "b"], example="c"),
        str_arg("s", min_length=3, example="ab"),
        int_arg("i", minimum=1, example=0),
        int_arg("i", example=1.5),
        bool_arg("b", example="true"),
        array_arg("l", items=int_arg("x"), example=["a"]),
        array_arg("l", items=int_arg("x"), max_items=1, example=[1, 2]),
    ],
)
def test_examples_that_do_not_fit_are_rejected(spec: ArgSpec) -> None:
    with pytest.raises(ToolDefinitionError, match="the example of v"):
        tool(toolset="t", params={"v": spec})(schema_handler)


def test_params_with_a_plain_dict_are_rejected_at_decoration() -> None:
    with pytest.raises(ToolDefinitionError, match="must be built with str_arg"):
        tool(toolset="t", params=schema_untyped({"a": {"type": "string"}}))(schema_handler)


# =============================================================================================
# @tool: names
# =============================================================================================


def test_name_defaults_to_the_function_name() -> None:
    assert spec_of(tool(toolset="t")(schema_handler)).name == "schema_handler"


def test_name_keyword_overrides_the_function_name() -> None:
    decorated = tool(toolset="t", name="notes_read_item")(schema_handler)
    assert spec_of(decorated).name == "notes_read_item"
    assert spec_of(decorated).schema["name"] == "notes_read_item"
    assert decorated.__name__ == "schema_handler"


@pytest.mark.parametrize("name", ["Notes-Read", "memory", "memory_read", "x" * 65])
def test_a_bad_name_is_rejected_at_decoration(name: str) -> None:
    with pytest.raises(ToolDefinitionError, match=f"tool name {name!r}"):
        tool(toolset="t", name=name)(schema_handler)


def test_the_namespace_is_enforced() -> None:
    assert spec_of(tool(toolset="t", namespace="schema")(schema_handler)).name == "schema_handler"
    with pytest.raises(ToolDefinitionError, match="must start with its namespace 'notes_'"):
        tool(toolset="t", namespace="notes")(schema_handler)


# =============================================================================================
# @tool: the decorated function and its ToolSpec
# =============================================================================================


def test_the_decorated_function_and_its_spec() -> None:
    def probe() -> bool:
        return True

    def notes_read_item(args: Any, **kwargs: Any) -> str:
        """Read one note."""
        return "{}"

    decorated = tool(
        toolset="notes",
        params={"note_id": str_arg("Note id", required=True, example="n1")},
        requires_env=["NOTES_TOKEN"],
        check_fn=probe,
        emoji="📝",
        validate_required=False,
    )(notes_read_item)

    assert decorated.__name__ == "notes_read_item"
    assert decorated.__doc__ == "Read one note."
    assert not inspect.iscoroutinefunction(decorated)
    spec = spec_of(decorated)
    assert isinstance(spec, ToolSpec)
    assert declaration_of(decorated) is spec
    assert spec.name == "notes_read_item"
    assert spec.toolset == "notes"
    assert spec.description == "Read one note. Required: `note_id` (e.g. 'n1')."
    assert spec.requires_env == ("NOTES_TOKEN",)
    assert spec.check_fn is probe
    assert spec.emoji == "📝"
    assert spec.is_async is False
    assert spec.validate_required is False
    assert spec.handler is notes_read_item
    assert spec.module == notes_read_item.__module__
    assert spec.schema == {
        "name": "notes_read_item",
        "description": "Read one note. Required: `note_id` (e.g. 'n1').",
        "parameters": {
            "type": "object",
            "properties": {"note_id": {"type": "string", "description": "Note id"}},
            "required": ["note_id"],
            "additionalProperties": False,
        },
    }
    assert spec.parameters == spec.schema["parameters"]


def test_a_tool_spec_defaults_to_no_emoji_no_check_and_sync() -> None:
    spec = spec_of(tool(toolset="t")(schema_handler))
    assert spec.emoji == ""
    assert spec.check_fn is None
    assert spec.validate_required is True
    assert spec.is_async is False
    assert spec.requires_env == ()


def test_an_undecorated_function_declares_nothing() -> None:
    assert declaration_of(schema_handler) is None
    assert declaration_of(schema_handler, ToolSpec) is None
    assert declaration_of(object()) is None


def test_definition_is_what_hermes_sends_to_the_model() -> None:
    decorated = tool(toolset="t", params={"q": str_arg("Query", required=True)})(schema_handler)
    spec = spec_of(decorated)
    assert spec.definition() == {
        "type": "function",
        "function": {**spec.schema, "name": "schema_handler"},
    }
    assert spec.definition()["function"]["parameters"]["required"] == ["q"]


def test_definition_of_a_supplied_schema_without_a_name_carries_the_name() -> None:
    spec = spec_of(tool(toolset="t", schema=schema_supplied())(schema_handler))
    definition = spec.definition()
    assert definition["type"] == "function"
    assert definition["function"]["name"] == "schema_handler"
    assert definition["function"]["parameters"] == schema_supplied()["parameters"]


def test_an_async_handler_is_declared_async() -> None:
    async def notes_fetch(args: Any, **kwargs: Any) -> str:
        """Fetch a note."""
        return "{}"

    decorated = tool(toolset="t")(notes_fetch)
    assert spec_of(decorated).is_async is True
    assert inspect.iscoroutinefunction(decorated)
    assert decorated.__name__ == "notes_fetch"
    assert decorated.__doc__ == "Fetch a note."
    assert spec_of(decorated).register_kwargs(decorated)["is_async"] is True


def test_register_kwargs_has_exactly_the_host_keys() -> None:
    def probe() -> bool:
        return True

    decorated = tool(
        toolset="notes",
        name="notes_read",
        requires_env=["NOTES_TOKEN"],
        check_fn=probe,
        emoji="📝",
    )(schema_handler)
    spec = spec_of(decorated)
    kwargs = spec.register_kwargs(decorated)
    assert set(kwargs) == {
        "name",
        "toolset",
        "schema",
        "handler",
        "check_fn",
        "requires_env",
        "is_async",
        "description",
        "emoji",
    }
    assert kwargs["name"] == "notes_read"
    assert kwargs["toolset"] == "notes"
    assert kwargs["schema"] == spec.schema
    assert kwargs["handler"] is decorated
    assert kwargs["check_fn"] is probe
    assert kwargs["requires_env"] == ["NOTES_TOKEN"]
    assert kwargs["is_async"] is False
    assert kwargs["description"] == spec.description
    assert kwargs["emoji"] == "📝"


def test_register_kwargs_without_requires_env_passes_none() -> None:
    decorated = tool(toolset="t")(schema_handler)
    assert spec_of(decorated).register_kwargs(decorated)["requires_env"] is None


def test_a_description_that_is_not_a_str_is_rejected() -> None:
    def handler(args: Any, **kwargs: Any) -> None:
        """Doc."""

    with pytest.raises(ToolDefinitionError, match="description must be a str, got int"):
        tool(toolset="t", description=5)(handler)  # type: ignore[arg-type]
    with pytest.raises(ToolDefinitionError, match="description must be a str, got NoneType"):
        build_schema("a_b", None, {})  # type: ignore[arg-type]
