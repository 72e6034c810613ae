"""The model-facing function schema: built from argument specs, or checked when supplied.

Hermes sends each tool to the model as
``{"type": "function", "function": {**schema, "name": name}}``, so a tool's
arguments must sit under ``schema["parameters"]``; anything at the top level is
invisible to the model. Every schema the kit emits has the shape::

    {"name": ..., "description": ...,
     "parameters": {"type": "object", "properties": {...},
                    "required": [...],            # only when something is required
                    "additionalProperties": false}}
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, Final, cast

from kit_core._refusal import render_example
from kit_core._value_checks import declared_types
from kit_core.args import ArgSpec
from kit_core.errors import ToolDefinitionError
from kit_core.names import validate_tool_name

__all__ = ["build_schema", "check_function_schema", "describe_arguments", "schema_from_specs"]

_PROPERTY_CHARS: Final = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"
)


def is_property_name(key: str) -> bool:
    """``[A-Za-z_][A-Za-z0-9_.-]{0,63}`` in full, by string tests (no pattern compiled at
    import)."""
    return (
        0 < len(key) <= 64
        and (key[0] == "_" or (key[0].isascii() and key[0].isalpha()))
        and all(char in _PROPERTY_CHARS for char in key)
    )


_MISPLACED: Final = ("properties", "required", "type", "additionalProperties")


def describe_arguments(
    description: str,
    required: list[str],
    optional: list[str],
    examples: Mapping[str, Any],
) -> str:
    """Append the ``Required:`` and ``Optional:`` clauses the model reads.

    Required arguments are all listed, with their examples; optional ones only when
    they carry an example. A clause is skipped when the author already wrote one.
    """

    def listing(keys: list[str]) -> str:
        return ", ".join(
            f"`{k}` (e.g. {render_example(examples[k])})"
            if examples.get(k) is not None
            else f"`{k}`"
            for k in keys
        )

    text = description.strip()
    clauses = [text] if text else []
    if required and "Required:" not in text:
        clauses.append(f"Required: {listing(required)}.")
    shown = [k for k in optional if examples.get(k) is not None]
    if shown and "Optional:" not in text:
        clauses.append(f"Optional: {listing(shown)}.")
    return " ".join(clauses)


def build_schema(name: str, description: str, params: Mapping[str, ArgSpec]) -> dict[str, Any]:
    """Build the function schema of a tool from its argument specs.

    Raises:
        ToolDefinitionError: for a bad name, property name or spec.
    """
    return schema_from_specs(validate_tool_name(name), description, params)


def schema_from_specs(
    name: str, description: str, params: Mapping[str, ArgSpec], *, copy_specs: bool = True
) -> dict[str, Any]:
    """:func:`build_schema` for a name already checked (``@tool`` checks it first).

    ``copy_specs=False`` puts each spec's own schema dict in the result instead of a copy,
    for a caller that copies the result before anyone else sees it (``@tool`` keeps a
    snapshot of it).
    """
    if not isinstance(description, str):
        msg = f"tool {name!r}: description must be a str, got {type(description).__name__}"
        raise ToolDefinitionError(msg)
    if not isinstance(params, Mapping):
        msg = (
            f"tool {name!r}: params must map argument names to specs, e.g."
            f" params={{'city': str_arg('City name', required=True)}}; got {type(params).__name__}"
        )
        raise ToolDefinitionError(msg)
    properties: dict[str, Any] = {}
    required: list[str] = []
    examples: dict[str, Any] = {}
    for key, spec in params.items():
        if not isinstance(key, str) or not is_property_name(key):
            msg = (
                f"tool {name!r}: argument name {key!r} must start with a letter or '_' and hold"
                " only letters, digits, '_', '.' or '-' (at most 64); rename it"
            )
            raise ToolDefinitionError(msg)
        if not isinstance(spec, ArgSpec):
            msg = (
                f"tool {name!r}: argument {key!r} must be built with str_arg(), int_arg(),"
                f" bool_arg(), arg() or another spec helper; got {type(spec).__name__}."
                " To keep a hand-written JSON Schema, pass the whole function schema as schema="
            )
            raise ToolDefinitionError(msg)
        own: Any = spec.schema
        prop: dict[str, Any] = (
            cast("dict[str, Any]", own)
            if type(own) is dict and not copy_specs
            else spec.to_schema()
        )
        if "items" not in prop and "array" in declared_types(prop):
            msg = (
                f"tool {name!r}: array argument {key!r} needs items= (some model providers"
                " reject arrays without items); use array_arg(..., items=str_arg('...'))"
            )
            raise ToolDefinitionError(msg)
        properties[key] = prop
        if spec.required:
            required.append(key)
        if spec.example is not None:
            examples[key] = spec.example
    optional = [k for k in properties if k not in required]
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        parameters["required"] = required
    parameters["additionalProperties"] = False
    return {
        "name": name,
        "description": describe_arguments(description, required, optional, examples),
        "parameters": parameters,
    }


def check_function_schema(schema: object, *, name: str) -> dict[str, Any]:
    """Deep-copy a hand-written function schema and check its shape.

    Raises:
        ToolDefinitionError: naming what is wrong and how to fix it.
    """

    def fail(problem: str) -> ToolDefinitionError:
        return ToolDefinitionError(f"tool {name!r}: supplied schema {problem}")

    if not isinstance(schema, Mapping):
        msg = f"must be a dict (the function schema with 'parameters'), got {type(schema).__name__}"
        raise fail(msg)
    copied: dict[str, Any] = copy.deepcopy(dict(cast("Mapping[str, Any]", schema)))
    misplaced = [key for key in _MISPLACED if key in copied]
    if misplaced:
        msg = (
            f"has {', '.join(map(repr, misplaced))} at the top level, where the model never sees"
            " them; move them under 'parameters': {'name', 'description', 'parameters':"
            " {'type': 'object', 'properties': {...}, 'required': [...]}}"
        )
        raise fail(msg)
    if "name" in copied and copied["name"] != name:
        msg = f"is named {copied['name']!r}, but the tool is {name!r}; make them equal or drop it"
        raise fail(msg)
    raw_parameters: object = copied.get("parameters")
    if not isinstance(raw_parameters, dict):
        msg = (
            "needs a 'parameters' object, e.g. {'type': 'object', 'properties': {}}; got"
            f" {type(raw_parameters).__name__}"
        )
        raise fail(msg)
    parameters = cast("dict[str, Any]", raw_parameters)
    if parameters.get("type") != "object":
        msg = f"'parameters' must have type 'object', got {parameters.get('type')!r}"
        raise fail(msg)
    properties: Any = parameters.setdefault("properties", {})
    if not isinstance(properties, dict) or not all(
        isinstance(p, dict) for p in cast("dict[str, Any]", properties).values()
    ):
        msg = "'parameters.properties' must map each argument name to a JSON Schema object"
        raise fail(msg)
    required: Any = parameters.get("required", [])
    if not isinstance(required, list) or not all(
        isinstance(r, str) for r in cast("list[Any]", required)
    ):
        msg = f"'parameters.required' must be a list of argument names, got {required!r}"
        raise fail(msg)
    unknown = sorted(set(cast("list[str]", required)) - set(cast("dict[str, Any]", properties)))
    if unknown:
        msg = (
            f"requires {', '.join(map(repr, unknown))}, which 'parameters.properties' does not"
            " define; add the properties or drop them from 'required'"
        )
        raise fail(msg)
    extra: Any = parameters.get("additionalProperties", False)
    if not isinstance(extra, bool | dict):
        msg = f"'parameters.additionalProperties' must be true, false or a schema, got {extra!r}"
        raise fail(msg)
    return copied
