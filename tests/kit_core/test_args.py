"""Argument specs: each helper's ArgSpec, its JSON Schema property and its metadata."""

from __future__ import annotations

from typing import Any

import pytest

from kit_core import (
    ArgSpec,
    ToolDefinitionError,
    arg,
    array_arg,
    bool_arg,
    int_arg,
    number_arg,
    object_arg,
    str_arg,
)


def args_untyped(value: object) -> Any:
    """Hand a deliberately wrong-typed value past the type checker."""
    return value


# --- each helper's schema --------------------------------------------------------------------


def test_str_arg_gives_a_string_schema_with_its_keywords() -> None:
    spec = str_arg("Thread id", required=True, example="123", min_length=1)
    assert isinstance(spec, ArgSpec)
    assert dict(spec.schema) == {"type": "string", "description": "Thread id", "minLength": 1}
    assert spec.required is True
    assert spec.example == "123"
    assert spec.has_example


def test_str_arg_with_a_description_alone_is_optional_without_example() -> None:
    spec = str_arg("Thread id")
    assert dict(spec.schema) == {"type": "string", "description": "Thread id"}
    assert spec.required is False
    assert spec.example is None
    assert not spec.has_example


def test_str_arg_min_length_zero_is_kept() -> None:
    assert str_arg("x", min_length=0).schema["minLength"] == 0


def test_int_arg_copies_bounds() -> None:
    spec = int_arg("Limit", minimum=1, maximum=100, example=10)
    assert dict(spec.schema) == {
        "type": "integer",
        "description": "Limit",
        "minimum": 1,
        "maximum": 100,
    }
    assert spec.example == 10


def test_int_arg_zero_bound_is_kept() -> None:
    assert dict(int_arg("n", minimum=0).schema) == {
        "type": "integer",
        "description": "n",
        "minimum": 0,
    }


def test_number_arg_copies_bounds() -> None:
    spec = number_arg("Ratio", minimum=0.0, maximum=1.5)
    assert dict(spec.schema) == {
        "type": "number",
        "description": "Ratio",
        "minimum": 0.0,
        "maximum": 1.5,
    }


def test_bool_arg_gives_a_boolean_schema_and_keeps_a_false_example() -> None:
    spec = bool_arg("Include archived", required=True, example=False)
    assert dict(spec.schema) == {"type": "boolean", "description": "Include archived"}
    assert spec.required is True
    assert spec.example is False
    assert spec.has_example


def test_arg_with_a_single_type() -> None:
    spec = arg("string", "Name", required=True, example="x")
    assert dict(spec.schema) == {"type": "string", "description": "Name"}
    assert spec.required is True


def test_a_type_with_null_is_emitted_as_hermes_sends_it_nullable() -> None:
    spec = arg(["string", "null"], "Cursor")
    assert dict(spec.schema) == {"type": "string", "nullable": True, "description": "Cursor"}


def test_several_types_are_emitted_as_an_any_of_as_hermes_sends_them() -> None:
    assert dict(arg(("integer", "string", "null"), "n").schema) == {
        "anyOf": [{"type": "integer"}, {"type": "string"}],
        "nullable": True,
        "description": "n",
    }


def test_description_is_stripped() -> None:
    assert str_arg("  Thread id \n").schema["description"] == "Thread id"


@pytest.mark.parametrize(
    "spec",
    [
        str_arg("s", required=True, example="e"),
        int_arg("i", required=True, example=1),
        number_arg("n", required=True, example=1.5),
        bool_arg("b", required=True, example=True),
        arg("string", "a", required=True, example="e"),
        array_arg("l", items=str_arg("x"), required=True, example=["e"]),
        object_arg("o", required=True, example={"k": 1}),
    ],
)
def test_required_and_example_never_reach_the_schema(spec: ArgSpec) -> None:
    assert "required" not in spec.schema
    assert "example" not in spec.schema
    assert "examples" not in spec.schema
    assert spec.required is True
    assert spec.has_example


# --- extra keywords --------------------------------------------------------------------------


def test_extra_keywords_pass_through_verbatim() -> None:
    spec = str_arg("Url", format="uri", default=None, pattern="^https://", maxLength=200)
    assert dict(spec.schema) == {
        "type": "string",
        "description": "Url",
        "format": "uri",
        "default": None,
        "pattern": "^https://",
        "maxLength": 200,
    }


@pytest.mark.parametrize(
    "spec",
    [
        int_arg("i", default=None, exclusiveMinimum=0),
        number_arg("n", default=None, exclusiveMinimum=0),
        bool_arg("b", default=None, exclusiveMinimum=0),
        arg("integer", "a", default=None, exclusiveMinimum=0),
        array_arg("l", items=int_arg("x"), default=None, exclusiveMinimum=0),
        object_arg("o", default=None, exclusiveMinimum=0),
    ],
)
def test_every_helper_passes_extra_keywords_through(spec: ArgSpec) -> None:
    assert "default" in spec.schema
    assert spec.schema["default"] is None
    assert spec.schema["exclusiveMinimum"] == 0


def test_extra_keywords_with_x_prefix_pass_through() -> None:
    extra: dict[str, Any] = {"x-secret": True, "title": "A"}
    spec = arg("string", "a", **extra)
    assert spec.schema["x-secret"] is True
    assert spec.schema["title"] == "A"


# --- enum ------------------------------------------------------------------------------------


def test_enum_list_is_kept() -> None:
    assert str_arg("Mode", enum=["a", "b"]).schema["enum"] == ["a", "b"]


def test_enum_tuple_becomes_a_list() -> None:
    spec = str_arg("Mode", enum=("fast", "slow"))
    assert spec.schema["enum"] == ["fast", "slow"]
    assert isinstance(spec.schema["enum"], list)


def test_arg_enum_tuple_becomes_a_list() -> None:
    spec = arg("integer", "Level", enum=(1, 2, 3))
    assert spec.schema["enum"] == [1, 2, 3]
    assert isinstance(spec.schema["enum"], list)


def test_enum_through_extra_keywords_becomes_a_list() -> None:
    spec = int_arg("Level", enum=(1, 2))
    assert spec.schema["enum"] == [1, 2]
    assert isinstance(spec.schema["enum"], list)


@pytest.mark.parametrize("enum", [[], ()])
def test_empty_enum_is_rejected(enum: Any) -> None:
    with pytest.raises(ToolDefinitionError, match="enum must be a non-empty list"):
        str_arg("Mode", enum=enum)
    with pytest.raises(ToolDefinitionError, match="enum must be a non-empty list"):
        int_arg("Level", enum=enum)


@pytest.mark.parametrize("enum", ["ab", b"ab", {"a", "b"}, {"a": 1}, 5])
def test_non_list_enum_is_rejected(enum: object) -> None:
    with pytest.raises(ToolDefinitionError) as info:
        str_arg("Mode", enum=args_untyped(enum))
    assert str(info.value) == f"enum must be a non-empty list of allowed values, got {enum!r}"


# --- bad descriptions, types and flags -------------------------------------------------------


@pytest.mark.parametrize("description", ["", "   ", "\n\t"])
def test_blank_description_is_rejected(description: str) -> None:
    with pytest.raises(ToolDefinitionError) as info:
        str_arg(description)
    message = str(info.value)
    assert "needs a description" in message
    assert "the model reads it" in message


def test_non_str_description_is_rejected() -> None:
    with pytest.raises(ToolDefinitionError, match="needs a description"):
        int_arg(args_untyped(None))


@pytest.mark.parametrize("type_", ["str", "int", "dict", "", "String"])
def test_unknown_type_is_rejected(type_: str) -> None:
    with pytest.raises(ToolDefinitionError) as info:
        arg(type_, "x")
    message = str(info.value)
    assert f"argument type {type_!r} is not a JSON Schema type" in message
    assert "array, boolean, integer, null, number, object, string" in message


@pytest.mark.parametrize("types", [[], ["string", "text"]])
def test_unknown_or_empty_type_list_is_rejected(types: list[str]) -> None:
    with pytest.raises(ToolDefinitionError, match="is not a JSON Schema type"):
        arg(types, "x")


@pytest.mark.parametrize("required", [1, "yes", None])
def test_non_bool_required_is_rejected(required: object) -> None:
    with pytest.raises(ToolDefinitionError, match="required must be True or False"):
        str_arg("x", required=args_untyped(required))


# --- array_arg -------------------------------------------------------------------------------


def test_array_arg_with_an_argspec_items() -> None:
    spec = array_arg("Tags", items=str_arg("A tag", required=True, example="x"))
    assert dict(spec.schema) == {
        "type": "array",
        "description": "Tags",
        "items": {"type": "string", "description": "A tag"},
    }


def test_array_arg_with_a_dict_items() -> None:
    spec = array_arg("Ids", items={"type": "integer", "minimum": 1})
    assert spec.schema["items"] == {"type": "integer", "minimum": 1}


def test_array_arg_min_and_max_items() -> None:
    spec = array_arg("Ids", items={"type": "integer"}, min_items=1, max_items=10)
    assert dict(spec.schema) == {
        "type": "array",
        "description": "Ids",
        "items": {"type": "integer"},
        "minItems": 1,
        "maxItems": 10,
    }


@pytest.mark.parametrize("items", [None, {}, {"description": "no type"}, "string", 5])
def test_array_arg_requires_items(items: object) -> None:
    with pytest.raises(ToolDefinitionError) as info:
        array_arg("Tags", items=args_untyped(items))
    message = str(info.value)
    assert "items must describe the array's elements" in message
    assert "items=str_arg('tag')" in message


def test_array_arg_without_items_keyword_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        array_arg("Tags")  # pyright: ignore[reportCallIssue]


def test_array_arg_items_dict_is_copied() -> None:
    items: dict[str, Any] = {"type": "string", "enum": ["a"]}
    spec = array_arg("Tags", items=items)
    items["enum"].append("b")
    items["type"] = "integer"
    assert spec.schema["items"] == {"type": "string", "enum": ["a"]}


# --- object_arg ------------------------------------------------------------------------------


def test_free_form_object_arg() -> None:
    # hermes gives a free-form object empty properties; the kit emits it that way already
    assert dict(object_arg("Filters").schema) == {
        "type": "object",
        "description": "Filters",
        "properties": {},
    }


def test_object_arg_with_nested_properties() -> None:
    spec = object_arg(
        "Author",
        properties={
            "name": str_arg("Name", required=True, example="Ann"),
            "age": int_arg("Age", minimum=0),
            "email": str_arg("Email", required=True),
        },
        required=True,
    )
    assert dict(spec.schema) == {
        "type": "object",
        "description": "Author",
        "properties": {
            "name": {"type": "string", "description": "Name"},
            "age": {"type": "integer", "description": "Age", "minimum": 0},
            "email": {"type": "string", "description": "Email"},
        },
        "required": ["name", "email"],
        "additionalProperties": False,
    }
    assert spec.required is True


def test_object_arg_without_required_nested_properties_has_no_required() -> None:
    spec = object_arg("Opts", properties={"a": bool_arg("A")})
    assert "required" not in spec.schema
    assert spec.schema["additionalProperties"] is False


def test_object_arg_extra_can_reopen_additional_properties() -> None:
    spec = object_arg("Opts", properties={"a": bool_arg("A")}, additionalProperties=True)
    assert spec.schema["additionalProperties"] is True


def test_object_arg_rejects_a_nested_plain_dict() -> None:
    with pytest.raises(ToolDefinitionError) as info:
        object_arg("Opts", properties=args_untyped({"a": {"type": "string"}}))
    message = str(info.value)
    assert "property 'a' must be an ArgSpec" in message
    assert "str_arg(...)" in message


def test_object_arg_rejects_non_mapping_properties() -> None:
    with pytest.raises(ToolDefinitionError, match="properties must map names to ArgSpecs"):
        object_arg("Opts", properties=args_untyped([("a", str_arg("A"))]))


# --- copies ----------------------------------------------------------------------------------


def test_schema_is_a_deep_copy_of_extra_values() -> None:
    default: dict[str, Any] = {"tags": ["a"]}
    spec = object_arg("Opts", default=default)
    default["tags"].append("b")
    default["new"] = 1
    assert spec.schema["default"] == {"tags": ["a"]}


def test_schema_is_a_deep_copy_of_a_passed_extra_dict() -> None:
    extra: dict[str, Any] = {"default": ["x"], "format": "uri"}
    spec = str_arg("Url", **extra)
    extra["default"].append("y")
    extra["format"] = "email"
    assert spec.schema["default"] == ["x"]
    assert spec.schema["format"] == "uri"


def test_schema_is_a_copy_of_a_passed_enum_list() -> None:
    enum = ["a", "b"]
    spec = str_arg("Mode", enum=enum)
    enum.append("c")
    assert spec.schema["enum"] == ["a", "b"]


def test_nested_spec_is_copied_into_object_properties() -> None:
    inner = str_arg("Name", enum=["a"])
    outer = object_arg("Opts", properties={"name": inner})
    outer.schema["properties"]["name"]["enum"].append("b")
    assert inner.schema["enum"] == ["a"]


def test_example_is_a_deep_copy() -> None:
    sample = [1, 2]
    spec = array_arg("Ids", items=int_arg("id"), example=sample)
    sample.append(3)
    assert spec.example == [1, 2]


def test_to_schema_returns_an_independent_copy() -> None:
    spec = str_arg("Mode", enum=["a"])
    copied = spec.to_schema()
    copied["enum"].append("b")
    copied["type"] = "integer"
    assert dict(spec.schema) == {"type": "string", "description": "Mode", "enum": ["a"]}
    assert isinstance(copied, dict)


def test_argspec_is_frozen() -> None:
    spec = str_arg("x")
    with pytest.raises(AttributeError):
        spec.required = True  # pyright: ignore[reportAttributeAccessIssue]


@pytest.mark.parametrize(
    ("keyword", "spelled"),
    [("max_length", "maxLength"), ("min_items", "minItems"), ("multiple_of", "multipleOf")],
)
def test_python_spellings_of_schema_keywords_are_refused_with_the_right_one(
    keyword: str, spelled: str
) -> None:
    extra: dict[str, Any] = {keyword: 3}
    with pytest.raises(
        ToolDefinitionError, match=f"{keyword}= is not a JSON Schema keyword.*write {spelled}="
    ):
        str_arg("Text", **extra)
