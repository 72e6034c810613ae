"""What an ``Annotated`` wrapper adds to a tool argument's annotation, and where a
derivation is.

:func:`split_annotated` takes an annotation apart into its type and the :class:`Meta`
its wrapper added (a description, an :class:`~kit_core.typed.Arg`, a spec helper such as
``int_arg(...)``); :func:`agrees` refuses a spec helper whose JSON type is not the
annotation's. :class:`Need` carries where a derivation is, for its errors.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Any, Final, cast

from kit_core._json_types import BY_NAME
from kit_core._snapshot import deep_copy
from kit_core.args import ArgSpec
from kit_core.errors import ToolDefinitionError
from kit_core.typed import Arg

__all__ = ["Meta", "Need", "agrees", "helper_name", "merge_meta", "split_annotated"]


class Need:
    """Where a derivation is, for its errors, and whether descriptions may be missing."""

    __slots__ = ("allow_undocumented", "inside", "where")

    def __init__(self, where: str, allow_undocumented: bool, inside: tuple[type, ...] = ()) -> None:
        self.where = where
        self.allow_undocumented = allow_undocumented
        self.inside = inside
        """The TypedDicts and dataclasses being described around this point."""

    def at(self, part: str) -> Need:
        return Need(f"{self.where}{part}", self.allow_undocumented, self.inside)

    def entering(self, cls: type) -> Need:
        if cls in self.inside:
            path = " -> ".join(c.__name__ for c in (*self.inside[self.inside.index(cls) :], cls))
            raise self.fail(
                f"refers to {cls.__name__} inside itself ({path}): a tool's schema is written"
                " out in full (no $ref, which hermes' Gemini path drops), so a recursive type"
                " has no end; take the nested part as a JSON string or a list of flat"
                " records, and build the tree in the handler"
            )
        return Need(self.where, self.allow_undocumented, (*self.inside, cls))

    def fail(self, problem: str) -> ToolDefinitionError:
        return ToolDefinitionError(f"{self.where}: {problem}")


class Meta:
    """What ``Annotated`` added: a description, an example, keywords, and the spec helper
    (``int_arg(...)``) they came from, if one did."""

    __slots__ = ("description", "example", "helper", "keywords")

    def __init__(self) -> None:
        self.description: str | None = None
        self.example: Any = None
        self.keywords: dict[str, Any] = {}
        self.helper: ArgSpec | None = None


_FROM_TYPE: Final = frozenset(
    {"type", "anyOf", "nullable", "description", "items", "properties", "required"}
    | {"additionalProperties"}
)
"""What an annotation decides and a spec helper inside ``Annotated`` does not: the type
(checked to agree with the helper's), its items and fields; the description is taken."""


def helper_name(schema: Mapping[str, Any]) -> str:
    types = [t for t in _declared(schema) if t != "null"]
    helper = BY_NAME[types[0]].helper if len(types) == 1 and types[0] in BY_NAME else None
    return f"{helper or 'arg'}(...)"


def _declared(schema: Mapping[str, Any]) -> list[str]:
    from kit_core._value_checks import declared_types

    return declared_types(schema)


def _take_helper(spec: ArgSpec, meta: Meta) -> None:
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


def agrees(helper: ArgSpec, schema: Mapping[str, Any], base: Any, need: Need) -> None:
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
    used = helper_name(helper.schema)
    kinds = " or ".join(sorted(have)) or "no JSON type"
    told = " or ".join(sorted(wanted)) or "no JSON type"
    fix = f"write {helper_name(schema)} for this type" if not where else "make the items agree"
    raise need.fail(
        f"is annotated {shown} ({where.strip() + ' ' if where else ''}{kinds}), but its {used}"
        f" inside Annotated describes{where} {told}; {fix} (or write Annotated[{shown},"
        " Arg('description', ...)]), or change the annotation"
    )


_KEY_QUALIFIERS: Final = frozenset(
    q for q in (typing.Required, typing.NotRequired, getattr(typing, "ReadOnly", None)) if q
)
"""``Required[T]``, ``NotRequired[T]``, ``ReadOnly[T]`` around a TypedDict key's type."""


def split_annotated(annotation: Any, need: Need) -> tuple[Any, Meta]:
    meta = Meta()
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


def merge_meta(outer: Meta, inner: Meta) -> None:
    outer.description = outer.description or inner.description
    outer.example = outer.example if outer.example is not None else inner.example
    outer.keywords = {**inner.keywords, **outer.keywords}
    outer.helper = outer.helper or inner.helper
