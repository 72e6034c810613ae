"""The JSON Schema of a tool argument's annotation, and how a checked value becomes the
Python value the annotation promises.

:func:`schema_of` reads an annotation (scalars, ``Literal``, ``Enum``, lists and tuples,
``dict[str, T]``, TypedDicts, dataclasses, pydantic models, each optionally ``X | None``)
into the schema keywords the spec helpers give and a converter (None when nothing needs
turning); :func:`json_default` shows a default as JSON.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Literal, cast

from kit_core._docstrings import parse_docstring
from kit_core._json_types import SCALARS
from kit_core._pydantic import dumped, is_model, is_model_class, model_converter, model_fields
from kit_core._typed_meta import Meta, Need, agrees, merge_meta, split_annotated
from kit_core.errors import ToolDefinitionError

__all__ = ["Convert", "json_default", "schema_of"]

Convert = Callable[[Any], Any]


def _json_type(value: object) -> str | None:
    """The JSON type of an allowed value (str, int, float or bool); None for another."""
    for annotation, name in SCALARS.items():
        if isinstance(value, annotation):
            return name
    return None


_HUGE: Final = 10**300
"""Integers from here on are refused as defaults (far past what JSON readers keep exact,
and near Python's 4,300-digit limit on writing an int as text)."""


def json_default(value: object, need_where: str) -> Any:
    """A parameter default as the JSON the schema shows (an Enum member as its value, a
    tuple as a list), or an error naming what cannot be shown."""
    if isinstance(value, enum.Enum):
        return json_default(value.value, need_where)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= _HUGE:
        msg = (
            f"{need_where}: the default, an integer of {value.bit_length():,} bits, is too"
            " large to write as JSON; use a default the model can read (or None, and fill"
            " it in the handler)"
        )
        raise ToolDefinitionError(msg)
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list | tuple):
        return [json_default(v, need_where) for v in cast("Sequence[object]", value)]
    if isinstance(value, dict) and all(
        isinstance(k, str) for k in cast("dict[object, object]", value)
    ):
        return {k: json_default(v, need_where) for k, v in cast("dict[str, object]", value).items()}
    given: object = cast("object", value)
    if is_model(given):
        return json_default(dumped(given), need_where)
    msg = (
        f"{need_where}: the default {value!r} is not a JSON value the model can be shown;"
        " use a str, number, bool, list or dict default, or None and fill it in the handler"
    )
    raise ToolDefinitionError(msg)


def schema_of(annotation: Any, need: Need) -> tuple[dict[str, Any], Convert | None, Meta]:
    """The JSON Schema keywords of an annotation (no description), its converter, and
    what its ``Annotated`` wrapper added."""
    base, meta = split_annotated(annotation, need)
    helper = meta.helper
    schema, convert = _base_schema(base, meta, need)
    if helper is not None:
        agrees(helper, schema, base, need)
    return schema, convert, meta


def _base_schema(base: Any, meta: Meta, need: Need) -> tuple[dict[str, Any], Convert | None]:
    origin = typing.get_origin(base)
    if origin is typing.Union or origin is types.UnionType:
        members = typing.get_args(base)
        kept = [m for m in members if m is not type(None)]
        if len(kept) == len(members):
            return _union(kept, need)
        schema, convert, inner = (
            schema_of(kept[0], need) if len(kept) == 1 else (*_union(kept, need), Meta())
        )
        merge_meta(meta, inner)
        schema["nullable"] = True
        return schema, (None if convert is None else _or_none(convert))
    schema, convert, inner = _plain_schema(base, origin, need)
    merge_meta(meta, inner)
    return schema, convert


def _or_none(convert: Convert) -> Convert:
    return lambda value: None if value is None else convert(value)


def _union(members: list[Any], need: Need) -> tuple[dict[str, Any], None]:
    names = [SCALARS.get(m) for m in members]
    if all(names) and len(members) > 1:
        unique = list(dict.fromkeys(cast("list[str]", names)))
        return {"anyOf": [{"type": t} for t in unique]}, None
    shown = " | ".join(getattr(m, "__name__", repr(m)) for m in members)
    raise need.fail(
        f"the union {shown} cannot be checked or converted; use one type (X | None for an"
        " optional value), or a union of str, int, float and bool"
    )


def _plain_schema(
    base: Any, origin: Any, need: Need
) -> tuple[dict[str, Any], Convert | None, Meta]:
    none = Meta()
    kind: Any = base
    if base in SCALARS:
        return {"type": SCALARS[base]}, None, none
    if origin is Literal:
        return _enum_schema(list(typing.get_args(base)), need), None, none
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        members: type[enum.Enum] = kind
        values = [m.value for m in members]
        if not values:
            raise need.fail(f"the Enum {members.__name__} has no members")
        return _enum_schema(values, need), members, none
    if origin in (list, tuple, Sequence) or base in (list, tuple):
        return (*_array_schema(base, origin, need), none)
    if origin in (dict, Mapping) or base is dict:
        return (*_mapping_schema(base, need), none)
    other: Any = base
    if typing.is_typeddict(other) or dataclasses.is_dataclass(other) or is_model_class(other):
        return (*_object_schema(cast("type", base), need), none)
    if base is Any or base is object:
        raise need.fail(
            "is annotated Any, which tells the model nothing; give it a type (str, int,"
            " list[str], a TypedDict, ...)"
        )
    shown: str = getattr(other, "__name__", None) or repr(other)
    raise need.fail(
        f"has the type {shown}, which the kit cannot describe to the model; use str, int,"
        " float, bool, Literal[...], an Enum, list[T], tuple[T, ...], dict[str, T], a"
        " TypedDict, a dataclass or a pydantic model (each optionally X | None)"
    )


def _enum_schema(values: list[Any], need: Need) -> dict[str, Any]:
    nullable = None in values
    values = [v for v in values if v is not None]
    types_ = list(dict.fromkeys(_json_type(v) for v in values))
    if not values or None in types_:
        raise need.fail(f"allows {values!r}; the allowed values must be str, int, float or bool")
    schema: dict[str, Any] = (
        {"type": types_[0]} if len(types_) == 1 else {"anyOf": [{"type": t} for t in types_]}
    )
    schema["enum"] = values
    if nullable:
        schema["nullable"] = True
    return schema


def _array_schema(base: Any, origin: Any, need: Need) -> tuple[dict[str, Any], Convert | None]:
    params = typing.get_args(base)
    as_tuple = origin is tuple or base is tuple
    if as_tuple and not (len(params) == 2 and params[1] is Ellipsis):
        raise need.fail(
            "is a fixed-length tuple, which JSON arrays cannot promise; write tuple[T, ...]"
            " or list[T]"
        )
    if not params:
        raise need.fail("is an array with no element type; write list[str] (or another T)")
    items, each, meta = schema_of(params[0], need.at("[]"))
    if meta.description is not None:
        items["description"] = meta.description
    items.update(meta.keywords)
    if each is None:
        return {"type": "array", "items": items}, (tuple if as_tuple else None)

    def each_item(value: Any) -> Any:
        items: list[Any] = [each(v) for v in value]
        return tuple(items) if as_tuple else items

    return {"type": "array", "items": items}, each_item


def _mapping_schema(base: Any, need: Need) -> tuple[dict[str, Any], Convert | None]:
    params = typing.get_args(base)
    if params and params[0] is not str:
        raise need.fail("is a dict whose keys are not str; JSON object keys are strings")
    schema: dict[str, Any] = {"type": "object", "properties": {}}
    if not params or params[1] is Any:
        return schema, None
    values, each, meta = schema_of(params[1], need.at("{}"))
    if meta.description is not None:
        values["description"] = meta.description
    values.update(meta.keywords)
    schema["additionalProperties"] = values
    if each is None:
        return schema, None
    return schema, lambda value: {k: each(v) for k, v in value.items()}


def _required_key(cls: type, name: str, hint: Any) -> bool:
    """Whether a TypedDict's key is required: ``Required[...]``/``NotRequired[...]`` as
    the resolved hint says (``__required_keys__`` misses them in string annotations on
    Python 3.11 and 3.12), else the class's own reading."""
    origin = typing.get_origin(hint)
    if origin is typing.Required:
        return True
    if origin is typing.NotRequired:
        return False
    return name in cast("Any", cls).__required_keys__


def _refuse_init_only(cls: type, hints: dict[str, Any], need: Need) -> None:
    """A dataclass's ``InitVar`` without a default: ``__init__`` needs it, and the model
    is never asked for it (it is no field), so every call would fail."""
    declared = cast("dict[str, dataclasses.Field[Any]]", getattr(cls, "__dataclass_fields__", {}))
    for name, hint in hints.items():
        field = declared.get(name)
        if isinstance(hint, dataclasses.InitVar) and (
            field is None
            or (
                field.default is dataclasses.MISSING
                and field.default_factory is dataclasses.MISSING
            )
        ):
            raise need.at(f".{name}").fail(
                f"is an InitVar of {cls.__name__} with no default: __init__ needs it, and"
                " the model is never asked for it, so every call would fail; give it a"
                " default, or make it a field"
            )


def _object_schema(cls: type, need: Need) -> tuple[dict[str, Any], Convert | None]:
    """A TypedDict, dataclass or pydantic model: its fields as properties, documented in
    the class's docstring (Attributes/Args), by ``Annotated`` or (a model's) by
    ``Field(description=...)``."""
    if is_model_class(cls):
        return _model_schema(cls, need)
    try:
        hints = typing.get_type_hints(cls, include_extras=True)
    except Exception as exc:
        raise need.fail(
            f"has a field annotation of {cls.__name__} that cannot be resolved"
            f" ({type(exc).__name__}: {exc}); define the types it names at module level"
        ) from exc
    need = need.entering(cls)
    documented = parse_docstring(cls.__doc__).names
    is_dataclass = dataclasses.is_dataclass(cls)  # a name: no narrowing of cls
    if is_dataclass:
        _refuse_init_only(cls, hints, need)
        fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
        needed = [
            n
            for n, f in fields.items()
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        ]
        defaults = {
            n: f.default
            for n, f in fields.items()
            if f.default is not dataclasses.MISSING and f.default is not None
        }
        schema, converters = _fields_schema(
            cls, need, {n: hints[n] for n in fields}, needed, documented, defaults
        )
        build, convert = cast("Callable[..., Any]", cls), _each_field(converters)
        return schema, lambda value: build(**convert(value))
    typed_dict = cast("type", cls)
    needed = [n for n in hints if _required_key(typed_dict, n, hints[n])]
    schema, converters = _fields_schema(typed_dict, need, hints, needed, documented, {})
    return schema, (_each_field(converters) if converters else None)


def _each_field(converters: dict[str, Convert]) -> Convert:
    """An object's fields, each converted by its converter when it has one."""
    return lambda value: {k: (converters[k](v) if k in converters else v) for k, v in value.items()}


def _model_schema(cls: type, need: Need) -> tuple[dict[str, Any], Convert]:
    """A pydantic model (see :mod:`kit_core._pydantic`): its fields described as a
    dataclass's, its ``Field`` descriptions before its docstring's; the checked object
    becomes an instance by ``model_validate``, which converts the fields itself."""
    try:
        found = model_fields(cls)
    except ValueError as exc:
        raise need.fail(str(exc)) from None
    need = need.entering(cls)
    documented = {**parse_docstring(cls.__doc__).names, **found.descriptions}
    schema, _ = _fields_schema(cls, need, found.hints, found.required, documented, found.defaults)
    return schema, model_converter(cls)


def _fields_schema(
    cls: type,
    need: Need,
    hints: Mapping[str, Any],
    needed: list[str],
    documented: Mapping[str, str],
    defaults: Mapping[str, Any],
) -> tuple[dict[str, Any], dict[str, Convert]]:
    """The object schema of a class's fields (``hints``, in order) and the converters of
    the fields that have one."""
    label: str = cls.__name__
    properties: dict[str, Any] = {}
    converters: dict[str, Convert] = {}
    for name, hint in hints.items():
        field_need = need.at(f".{name}")
        sub, convert, meta = schema_of(hint, field_need)
        text = meta.description or documented.get(name)
        if text is None and not need.allow_undocumented:
            raise field_need.fail(
                f"has no description; document it under Attributes: in {label}'s"
                f" docstring or write Annotated[T, 'what it is'] (or allow_undocumented=True)"
            )
        prop: dict[str, Any] = {**sub}
        if text is not None:
            prop = (
                {"type": sub.pop("type"), "description": text, **sub}
                if "type" in sub
                else {"description": text, **sub}
            )
        prop.update(meta.keywords)
        if name in defaults:
            prop["default"] = json_default(defaults[name], field_need.where)
        properties[name] = prop
        if convert is not None:
            converters[name] = convert
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if needed:
        schema["required"] = needed
    schema["additionalProperties"] = False
    return schema, converters
