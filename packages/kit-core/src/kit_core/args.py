"""Argument specs: one function per JSON type, each returning an :class:`ArgSpec`.

``required`` and ``example`` are kit metadata: they drive validation, the error
text and the model-facing description, and never reach the emitted JSON Schema.
Every other keyword passes through verbatim into the property's schema.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, cast

from kit_core._json_types import NAMES
from kit_core._record import Record
from kit_core._snapshot import ATOMS, deep_copy
from kit_core.errors import ToolDefinitionError

__all__ = [
    "JSON_TYPES",
    "ArgSpec",
    "arg",
    "array_arg",
    "bool_arg",
    "int_arg",
    "number_arg",
    "object_arg",
    "str_arg",
]

JSON_TYPES: Final = NAMES
"""The JSON Schema type names an argument may declare."""


class ArgSpec(Record):
    """One tool argument: its JSON Schema plus the kit's metadata.

    Attributes:
        schema: the property's JSON Schema exactly as the model will see it.
        required: whether a call without this argument (or with a blank one) is rejected.
        example: a sample value, shown to the model and quoted in errors; ``None`` when unset.
    """

    __slots__ = ("example", "required", "schema")
    schema: Mapping[str, Any]
    required: bool
    example: Any

    def __init__(
        self, schema: Mapping[str, Any], required: bool = False, example: Any = None
    ) -> None:
        object.__setattr__(self, "schema", schema)
        object.__setattr__(self, "required", required)
        object.__setattr__(self, "example", example)

    @property
    def has_example(self) -> bool:
        """Whether an example was given."""
        return self.example is not None

    def to_schema(self) -> dict[str, Any]:
        """A deep copy of the property's JSON Schema."""
        return _detached(dict(self.schema))


def _detached(schema: dict[str, Any]) -> dict[str, Any]:
    """``copy.deepcopy(schema)`` for a dict the caller just made: the same dict when every
    value is a str, number, bool or None (what deepcopy would keep as is)."""
    for value in schema.values():
        if type(value) not in ATOMS:
            return deep_copy(schema)
    return schema


def _property_schema(
    type_: str | Sequence[str],
    description: str,
    named: Mapping[str, Any],
    extra: Mapping[str, Any],
) -> dict[str, Any]:
    types = [type_] if isinstance(type_, str) else list(type_)
    if not types or not JSON_TYPES.issuperset(types):
        msg = (
            f"argument type {type_!r} is not a JSON Schema type; use one of"
            f" {', '.join(sorted(JSON_TYPES))}"
        )
        raise ToolDefinitionError(msg)
    if not isinstance(description, str) or not description.strip():
        msg = (
            f"argument of type {type_!r} needs a description: the model reads it to decide"
            f" what to pass; got {description!r}"
        )
        raise ToolDefinitionError(msg)
    schema: dict[str, Any] = (
        {"type": type_, "description": description.strip()}
        if type(type_) is str  # one type: what _type_keywords gives, without the lists
        else {**_type_keywords(types), "description": description.strip()}
    )
    schema.update({key: value for key, value in named.items() if value is not None})
    schema.update(extra)
    if schema.get("type") == "object" and not isinstance(schema.get("properties"), dict):
        schema["properties"] = {}
    return _detached(schema)


def _type_keywords(types: list[str]) -> dict[str, Any]:
    """The type as hermes' schema sanitizer sends it, so what the kit shows is what the
    model gets: ``[T, "null"]`` becomes ``T`` plus ``nullable``, several types ``anyOf``."""
    non_null = list(dict.fromkeys(t for t in types if t != "null"))
    nullable = {"nullable": True} if "null" in types and non_null else {}
    if len(non_null) > 1:
        return {"anyOf": [{"type": t} for t in non_null], **nullable}
    return {"type": non_null[0] if non_null else "null", **nullable}


SNAKE_KEYWORDS: Final = {
    "max_length": "maxLength",
    "min_items": "minItems",
    "max_items": "maxItems",
    "unique_items": "uniqueItems",
    "multiple_of": "multipleOf",
    "exclusive_minimum": "exclusiveMinimum",
    "exclusive_maximum": "exclusiveMaximum",
    "additional_properties": "additionalProperties",
    "min_properties": "minProperties",
    "max_properties": "maxProperties",
}
"""Python spellings of JSON Schema keywords: passed through verbatim they would mean nothing."""


def _spec(
    type_: str | Sequence[str],
    description: str,
    required: bool,
    example: Any,
    named: Mapping[str, Any],
    extra: Mapping[str, Any],
) -> ArgSpec:
    if not isinstance(required, bool):
        msg = f"required must be True or False, got {required!r}"
        raise ToolDefinitionError(msg)
    for key in extra:
        if key in SNAKE_KEYWORDS:
            msg = (
                f"{key}= is not a JSON Schema keyword and would reach the model as is;"
                f" write {SNAKE_KEYWORDS[key]}= instead"
            )
            raise ToolDefinitionError(msg)
    enum = named.get("enum", extra.get("enum"))
    if enum is not None and (
        isinstance(enum, str | bytes) or not isinstance(enum, Sequence) or not enum
    ):
        msg = f"enum must be a non-empty list of allowed values, got {enum!r}"
        raise ToolDefinitionError(msg)
    if enum is not None:
        values = list(cast("Sequence[Any]", enum))
        named = {**named, "enum": values} if "enum" in named else named
        extra = {**extra, "enum": values} if "enum" in extra else extra
    schema = _property_schema(type_, description, named, extra)
    return ArgSpec(schema, required, example if type(example) in ATOMS else deep_copy(example))


def typed_spec(
    keywords: Mapping[str, Any], description: str | None, required: bool, example: Any, where: str
) -> ArgSpec:
    """The spec of an argument derived from a typed signature: its JSON Schema keywords
    (the type's first, then the description, then the rest, as the helpers order them),
    checked as the helpers check theirs."""
    head = {k: keywords[k] for k in ("type", "anyOf", "nullable") if k in keywords}
    if description is not None:
        head["description"] = description
    schema = {**head, **{k: v for k, v in keywords.items() if k not in head}}
    enum = schema.get("enum")
    if "enum" in schema and (
        isinstance(enum, str | bytes) or not isinstance(enum, Sequence) or not enum
    ):
        msg = f"{where}: enum must be a non-empty list of allowed values, got {enum!r}"
        raise ToolDefinitionError(msg)
    if enum is not None:
        schema["enum"] = list(cast("Sequence[Any]", enum))
    return ArgSpec(_detached(schema), required, example)


def arg(
    type: str | Sequence[str],
    description: str,
    *,
    required: bool = False,
    example: Any = None,
    enum: Sequence[Any] | None = None,
    **extra: Any,
) -> ArgSpec:
    """A generic argument of any JSON Schema ``type`` (or a list of types)."""
    return _spec(type, description, required, example, {"enum": enum}, extra)


def str_arg(
    description: str,
    *,
    required: bool = False,
    example: Any = None,
    enum: Sequence[Any] | None = None,
    min_length: int | None = None,
    **extra: Any,
) -> ArgSpec:
    """A string argument; ``min_length`` becomes ``minLength``."""
    named = {"enum": enum, "minLength": min_length}
    return _spec("string", description, required, example, named, extra)


def int_arg(
    description: str,
    *,
    required: bool = False,
    example: Any = None,
    minimum: int | None = None,
    maximum: int | None = None,
    **extra: Any,
) -> ArgSpec:
    """An integer argument with optional inclusive bounds."""
    named = {"minimum": minimum, "maximum": maximum}
    return _spec("integer", description, required, example, named, extra)


def number_arg(
    description: str,
    *,
    required: bool = False,
    example: Any = None,
    minimum: float | None = None,
    maximum: float | None = None,
    **extra: Any,
) -> ArgSpec:
    """A number argument (integer or float) with optional inclusive bounds."""
    named = {"minimum": minimum, "maximum": maximum}
    return _spec("number", description, required, example, named, extra)


def bool_arg(
    description: str,
    *,
    required: bool = False,
    example: Any = None,
    **extra: Any,
) -> ArgSpec:
    """A boolean argument."""
    return _spec("boolean", description, required, example, {}, extra)


def _item_schema(items: ArgSpec | Mapping[str, Any]) -> dict[str, Any]:
    if isinstance(items, ArgSpec):
        return items.to_schema()
    if isinstance(items, Mapping) and "type" in items:
        return deep_copy(dict(items))
    msg = (
        "items must describe the array's elements, e.g. items=str_arg('tag') or"
        f" items={{'type': 'string'}}; got {items!r}"
    )
    raise ToolDefinitionError(msg)


def array_arg(
    description: str,
    *,
    items: ArgSpec | Mapping[str, Any],
    required: bool = False,
    example: Any = None,
    min_items: int | None = None,
    max_items: int | None = None,
    **extra: Any,
) -> ArgSpec:
    """An array argument; ``items`` (an ArgSpec or a JSON Schema) describes each element.

    Some model providers reject arrays without ``items``, so it is required here.
    """
    named = {"items": _item_schema(items), "minItems": min_items, "maxItems": max_items}
    return _spec("array", description, required, example, named, extra)


def object_arg(
    description: str,
    *,
    properties: Mapping[str, ArgSpec] | None = None,
    required: bool = False,
    example: Any = None,
    **extra: Any,
) -> ArgSpec:
    """An object argument, free-form or with nested ``properties`` given as ArgSpecs.

    With ``properties``, nested ``required`` comes from each nested spec and unknown
    keys are refused (``additionalProperties: false``) unless ``extra`` says otherwise.
    """
    nested: dict[str, Any] = {}
    if properties is not None:
        if not isinstance(properties, Mapping):
            msg = f"properties must map names to ArgSpecs, got {type(properties).__name__}"
            raise ToolDefinitionError(msg)
        props: dict[str, Any] = {}
        needed: list[str] = []
        for key, spec in properties.items():
            if not isinstance(spec, ArgSpec):
                msg = f"property {key!r} must be an ArgSpec (str_arg(...), arg(...)), got {spec!r}"
                raise ToolDefinitionError(msg)
            props[key] = spec.to_schema()
            if spec.required:
                needed.append(key)
        nested = {"properties": props, "additionalProperties": False}
        if needed:
            nested["required"] = needed
    return _spec("object", description, required, example, nested, extra)
