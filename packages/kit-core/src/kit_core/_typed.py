"""A type annotation as a tool argument: its JSON Schema and how a checked value becomes
the Python value the handler's annotation promises.

The schemas have the shapes the spec helpers give (``str_arg`` and friends) and that
hermes sends on (``tools/schema_sanitizer.py`` turns ``[T, "null"]`` into ``T`` plus
``nullable`` and several types into ``anyOf``, so the kit writes them that way at once).
A value the kit's checks let through is JSON: an ``Enum`` argument arrives as its value,
a dataclass as an object, a tuple as an array; the converter turns them into what the
annotation says before the handler is called (None when nothing needs turning).

This module holds :func:`derive`, which makes one top-level argument's spec and converter
(kept, so a repeated annotation is derived once); the schema and converter of an
annotation are :mod:`kit_core._typed_schema`'s, what ``Annotated`` adds is
:mod:`kit_core._typed_meta`'s.
"""

from __future__ import annotations

from typing import Any

from kit_core._typed_meta import Need, helper_name
from kit_core._typed_schema import Convert, schema_of
from kit_core.args import ArgSpec, typed_spec

__all__ = ["Derived", "clear_derived", "derive"]


class Derived:
    """One argument derived from its annotation: its spec and its converter."""

    __slots__ = ("convert", "spec")

    def __init__(self, spec: ArgSpec, convert: Convert | None) -> None:
        self.spec = spec
        self.convert = convert


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
    need = Need(where, allow_undocumented)
    schema, convert, meta = schema_of(annotation, need)
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
            f"has a default, but its {helper_name(meta.helper.schema)} inside Annotated says"
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
