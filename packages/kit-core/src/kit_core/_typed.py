"""A type annotation as a tool argument: its JSON Schema and how a checked value becomes
the Python value the handler's annotation promises.

The schemas have the shapes the spec helpers give (``str_arg`` and friends) and that
hermes sends on (``tools/schema_sanitizer.py`` turns ``[T, "null"]`` into ``T`` plus
``nullable`` and several types into ``anyOf``, so the kit writes them that way at once).
A value the kit's checks let through is JSON: an ``Enum`` argument arrives as its value,
a dataclass as an object, a tuple as an array; the converter built here turns them into
what the annotation says before the handler is called (None when nothing needs turning).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Literal, cast

from kit_core._docstrings import parse_docstring
from kit_core._pydantic import dumped, is_model, is_model_class, model_converter, model_fields
from kit_core._snapshot import deep_copy
from kit_core.args import ArgSpec, typed_spec
from kit_core.errors import ToolDefinitionError
from kit_core.typed import Arg

__all__ = ["Derived", "clear_derived", "derive", "json_default"]

Convert = Callable[[Any], Any]

_SCALARS: Final[dict[Any, str]] = {str: "string", int: "integer", float: "number", bool: "boolean"}
_JSON_OF: Final[tuple[tuple[type, str], ...]] = (
    (bool, "boolean"),
    (int, "integer"),
    (float, "number"),
    (str, "string"),
)


class Derived:
    """One argument derived from its annotation: its spec and its converter."""

    __slots__ = ("convert", "spec")

    def __init__(self, spec: ArgSpec, convert: Convert | None) -> None:
        self.spec = spec
        self.convert = convert


class _Need:
    """Where a derivation is, for its errors, and whether descriptions may be missing."""

    __slots__ = ("allow_undocumented", "inside", "where")

    def __init__(self, where: str, allow_undocumented: bool, inside: tuple[type, ...] = ()) -> None:
        self.where = where
        self.allow_undocumented = allow_undocumented
        self.inside = inside
        """The TypedDicts and dataclasses being described around this point."""

    def at(self, part: str) -> _Need:
        return _Need(f"{self.where}{part}", self.allow_undocumented, self.inside)

    def entering(self, cls: type) -> _Need:
        if cls in self.inside:
            path = " -> ".join(c.__name__ for c in (*self.inside[self.inside.index(cls) :], cls))
            raise self.fail(
                f"refers to {cls.__name__} inside itself ({path}): a tool's schema is written"
                " out in full (no $ref, which hermes' Gemini path drops), so a recursive type"
                " has no end; take the nested part as a JSON string or a list of flat"
                " records, and build the tree in the handler"
            )
        return _Need(self.where, self.allow_undocumented, (*self.inside, cls))

    def fail(self, problem: str) -> ToolDefinitionError:
        return ToolDefinitionError(f"{self.where}: {problem}")


def _json_type(value: object) -> str | None:
    for kind, name in _JSON_OF:
        if isinstance(value, kind):
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


def derive(
    annotation: Any,
    description: str | None,
    *,
    required: bool,
    default: Any,
    where: str,
    allow_undocumented: bool,
    absent_is_none: bool = False,
) -> Derived:
    """The spec and converter of one top-level argument.

    ``description`` comes from the docstring (an ``Annotated`` text or :class:`Arg`
    overrides it); ``default`` is the JSON default (``None``: none shown).
    ``absent_is_none``: the parameter defaults to None (``x: T | None = None``), so the
    schema says T alone: the argument is optional, and the kit takes an optional
    argument sent as null as left out, so null needs no place in the schema.
    """
    key = (id(annotation), description, required, repr(default), allow_undocumented, absent_is_none)
    kept = _DERIVED.get(key)
    if kept is not None and kept[0] is annotation:
        return kept[1]
    need = _Need(where, allow_undocumented)
    schema, convert, meta = _schema_of(annotation, need)
    if absent_is_none:
        schema.pop("nullable", None)
    text = meta.description or description
    if text is None and not allow_undocumented:
        raise need.fail(
            "has no description, and the model must know what to pass: document it in the"
            " docstring's Args section, or write Annotated[T, 'what it is'], or pass"
            " allow_undocumented=True to @tool"
        )
    if meta.helper is not None and meta.helper.required and not required:
        raise need.fail(
            f"has a default, but its {_helper_name(meta.helper.schema)} inside Annotated says"
            " required=True; a typed argument is required when it has no default: drop"
            " required=True, or drop the default"
        )
    keywords = {**schema, **meta.keywords}
    if default is not None:
        keywords["default"] = default
    derived = Derived(typed_spec(keywords, text, required, meta.example, need.where), convert)
    _DERIVED[key] = (annotation, derived)
    return derived


_DERIVED: dict[tuple[object, ...], tuple[object, Derived]] = {}
"""The arguments derived so far, by annotation object (kept, so its id stays its own) and
everything else :func:`derive` reads: an annotation a module repeats (the evaluated
annotations are shared, see :mod:`kit_core._hints`) is derived once. Its spec is shared
as a spec-style plugin shares one ``str_arg`` between tools."""


def clear_derived() -> None:
    """Forget every derived argument (for a benchmark of first declarations)."""
    _DERIVED.clear()


class _Meta:
    """What ``Annotated`` added: a description, an example, keywords, and the spec helper
    (``int_arg(...)``) they came from, if one did."""

    __slots__ = ("description", "example", "helper", "keywords")

    def __init__(self) -> None:
        self.description: str | None = None
        self.example: Any = None
        self.keywords: dict[str, Any] = {}
        self.helper: ArgSpec | None = None


_HELPERS: Final = {
    "string": "str_arg",
    "integer": "int_arg",
    "number": "number_arg",
    "boolean": "bool_arg",
    "array": "array_arg",
    "object": "object_arg",
}
"""The spec helper of each JSON type, as an error names it."""
_FROM_TYPE: Final = frozenset(
    {"type", "anyOf", "nullable", "description", "items", "properties", "required"}
    | {"additionalProperties"}
)
"""What an annotation decides and a spec helper inside ``Annotated`` does not: the type
(checked to agree with the helper's), its items and fields; the description is taken."""


def _helper_name(schema: Mapping[str, Any]) -> str:
    types = [t for t in _declared(schema) if t != "null"]
    return f"{_HELPERS[types[0]]}(...)" if len(types) == 1 and types[0] in _HELPERS else "arg(...)"


def _declared(schema: Mapping[str, Any]) -> list[str]:
    from kit_core._value_checks import declared_types

    return declared_types(schema)


def _take_helper(spec: ArgSpec, meta: _Meta) -> None:
    """An ``Annotated[T, int_arg(...)]``'s spec as :class:`Arg` would say it: its
    description, example and constraints (its ``required=True`` is the signature's to say)."""
    schema = spec.schema
    text: Any = schema.get("description")
    meta.description = meta.description or (text if isinstance(text, str) else None)
    if spec.example is not None and meta.example is None:
        meta.example = deep_copy(spec.example)
    own = {k: deep_copy(v) for k, v in schema.items() if k not in _FROM_TYPE}
    meta.keywords = {**own, **meta.keywords}
    meta.helper = meta.helper or spec


def _agrees(helper: ArgSpec, schema: Mapping[str, Any], base: Any, need: _Need) -> None:
    """Refuse a spec helper whose JSON type (or its items') is not the annotation's."""
    given: Mapping[str, Any] = helper.schema
    found: Mapping[str, Any] = schema
    where = ""
    while True:
        wanted = {t for t in _declared(given) if t != "null"}
        have = {t for t in _declared(found) if t != "null"}
        if wanted != have:
            break
        items: Any = given.get("items")
        inner: Any = found.get("items")
        if not isinstance(items, Mapping) or not isinstance(inner, Mapping):
            return
        given, found = cast("Mapping[str, Any]", items), cast("Mapping[str, Any]", inner)
        where = f"{where} items of" if where else " items of"
    shown: str = base.__name__ if isinstance(base, type) else repr(base).replace("typing.", "")
    used = _helper_name(helper.schema)
    kinds = " or ".join(sorted(have)) or "no JSON type"
    told = " or ".join(sorted(wanted)) or "no JSON type"
    fix = f"write {_helper_name(schema)} for this type" if not where else "make the items agree"
    raise need.fail(
        f"is annotated {shown} ({where.strip() + ' ' if where else ''}{kinds}), but its {used}"
        f" inside Annotated describes{where} {told}; {fix} (or write Annotated[{shown},"
        " Arg('description', ...)]), or change the annotation"
    )


_KEY_QUALIFIERS: Final = frozenset(
    q for q in (typing.Required, typing.NotRequired, getattr(typing, "ReadOnly", None)) if q
)
"""``Required[T]``, ``NotRequired[T]``, ``ReadOnly[T]`` around a TypedDict key's type."""


def _split_annotated(annotation: Any, need: _Need) -> tuple[Any, _Meta]:
    meta = _Meta()
    while typing.get_origin(annotation) in _KEY_QUALIFIERS:  # a TypedDict key's; its
        annotation = typing.get_args(annotation)[0]  # required-ness is __required_keys__
    while typing.get_origin(annotation) is typing.Annotated:
        base, *extras = typing.get_args(annotation)
        for extra in extras:
            if isinstance(extra, str):
                if not extra.strip():
                    raise need.fail("an Annotated description must not be blank")
                meta.description = meta.description or extra.strip()
            elif isinstance(extra, Arg):
                meta.description = meta.description or extra.description
                if extra.example is not None and meta.example is None:
                    meta.example = deep_copy(extra.example)
                meta.keywords = {**extra.keywords, **meta.keywords}
            elif isinstance(extra, ArgSpec):
                _take_helper(extra, meta)
        annotation = base
    return annotation, meta


def _schema_of(annotation: Any, need: _Need) -> tuple[dict[str, Any], Convert | None, _Meta]:
    """The JSON Schema keywords of an annotation (no description), its converter, and
    what its ``Annotated`` wrapper added."""
    base, meta = _split_annotated(annotation, need)
    helper = meta.helper
    schema, convert = _base_schema(base, meta, need)
    if helper is not None:
        _agrees(helper, schema, base, need)
    return schema, convert, meta


def _base_schema(base: Any, meta: _Meta, need: _Need) -> tuple[dict[str, Any], Convert | None]:
    origin = typing.get_origin(base)
    if origin is typing.Union or origin is types.UnionType:
        members = typing.get_args(base)
        kept = [m for m in members if m is not type(None)]
        if len(kept) == len(members):
            return _union(kept, need)
        schema, convert, inner = (
            _schema_of(kept[0], need) if len(kept) == 1 else (*_union(kept, need), _Meta())
        )
        _merge_meta(meta, inner)
        schema["nullable"] = True
        return schema, (None if convert is None else _or_none(convert))
    schema, convert, inner = _plain_schema(base, origin, need)
    _merge_meta(meta, inner)
    return schema, convert


def _merge_meta(outer: _Meta, inner: _Meta) -> None:
    outer.description = outer.description or inner.description
    outer.example = outer.example if outer.example is not None else inner.example
    outer.keywords = {**inner.keywords, **outer.keywords}
    outer.helper = outer.helper or inner.helper


def _or_none(convert: Convert) -> Convert:
    return lambda value: None if value is None else convert(value)


def _union(members: list[Any], need: _Need) -> tuple[dict[str, Any], None]:
    names = [_SCALARS.get(m) for m in members]
    if all(names) and len(members) > 1:
        unique = list(dict.fromkeys(cast("list[str]", names)))
        return {"anyOf": [{"type": t} for t in unique]}, None
    shown = " | ".join(getattr(m, "__name__", repr(m)) for m in members)
    raise need.fail(
        f"the union {shown} cannot be checked or converted; use one type (X | None for an"
        " optional value), or a union of str, int, float and bool"
    )


def _plain_schema(
    base: Any, origin: Any, need: _Need
) -> tuple[dict[str, Any], Convert | None, _Meta]:
    none = _Meta()
    kind: Any = base
    if base in _SCALARS:
        return {"type": _SCALARS[base]}, None, none
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


def _enum_schema(values: list[Any], need: _Need) -> dict[str, Any]:
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


def _array_schema(base: Any, origin: Any, need: _Need) -> tuple[dict[str, Any], Convert | None]:
    params = typing.get_args(base)
    as_tuple = origin is tuple or base is tuple
    if as_tuple and not (len(params) == 2 and params[1] is Ellipsis):
        raise need.fail(
            "is a fixed-length tuple, which JSON arrays cannot promise; write tuple[T, ...]"
            " or list[T]"
        )
    if not params:
        raise need.fail("is an array with no element type; write list[str] (or another T)")
    items, each, meta = _schema_of(params[0], need.at("[]"))
    if meta.description is not None:
        items["description"] = meta.description
    items.update(meta.keywords)
    if each is None:
        return {"type": "array", "items": items}, (tuple if as_tuple else None)

    def each_item(value: Any) -> Any:
        items: list[Any] = [each(v) for v in value]
        return tuple(items) if as_tuple else items

    return {"type": "array", "items": items}, each_item


def _mapping_schema(base: Any, need: _Need) -> tuple[dict[str, Any], Convert | None]:
    params = typing.get_args(base)
    if params and params[0] is not str:
        raise need.fail("is a dict whose keys are not str; JSON object keys are strings")
    schema: dict[str, Any] = {"type": "object", "properties": {}}
    if not params or params[1] is Any:
        return schema, None
    values, each, meta = _schema_of(params[1], need.at("{}"))
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


def _refuse_init_only(cls: type, hints: dict[str, Any], need: _Need) -> None:
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


def _object_schema(cls: type, need: _Need) -> tuple[dict[str, Any], Convert | None]:
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
        build = cast("Callable[..., Any]", cls)

        def to_dataclass(value: Any) -> Any:
            return build(
                **{k: (converters[k](v) if k in converters else v) for k, v in value.items()}
            )

        return schema, to_dataclass
    typed_dict = cast("type", cls)
    needed = [n for n in hints if _required_key(typed_dict, n, hints[n])]
    schema, converters = _fields_schema(typed_dict, need, hints, needed, documented, {})
    if not converters:
        return schema, None
    return schema, lambda value: {
        k: (converters[k](v) if k in converters else v) for k, v in value.items()
    }


def _model_schema(cls: type, need: _Need) -> tuple[dict[str, Any], Convert]:
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
    need: _Need,
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
        sub, convert, meta = _schema_of(hint, field_need)
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
