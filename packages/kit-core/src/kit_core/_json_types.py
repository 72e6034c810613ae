"""The JSON types a tool argument may have, each declared once: the Python values a
decoded call carries for it, the test an arriving value passes, how an error names what
was expected, the spec helper that declares it and the Python annotation a typed handler
writes for it. The schema helpers, the value checks, the refusal wording and the typed
signature's derivation all read this table.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final, NamedTuple

__all__ = [
    "BY_NAME",
    "NAMES",
    "NAME_OF_VALUE",
    "SCALARS",
    "TYPES",
    "JsonType",
    "is_integer",
    "is_number",
]


def is_integer(v: Any) -> bool:
    """A true int (never a bool): what a length or count bound must be."""
    return isinstance(v, int) and not isinstance(v, bool)


def is_number(v: Any) -> bool:
    """An int or a finite float (never a bool)."""
    if isinstance(v, bool):
        return False
    return isinstance(v, int) or (isinstance(v, float) and math.isfinite(v))


def _is_whole(v: Any) -> bool:
    """An integer argument: an int, or a float with no fractional part (``5.0``), which JSON
    Schema counts as an integer (and pydantic and FastMCP accept); the check hands it to
    the handler as an int (``_value_checks.compile_whole_numbers``)."""
    return is_integer(v) or (isinstance(v, float) and v.is_integer())


class JsonType(NamedTuple):
    """One JSON type, as the kit declares, checks and derives it."""

    name: str
    """Its JSON Schema name (``integer``)."""
    values: tuple[type, ...]
    """The Python types of a decoded JSON value of it (an error names an arriving value
    of these by this type)."""
    test: Callable[[Any], bool]
    """Whether an arriving value is of it."""
    wanted: str
    """How a refusal says it was expected (``must be an integer``)."""
    helper: str | None
    """The spec helper that declares an argument of it (``int_arg``)."""
    annotation: type | None
    """The plain Python annotation a typed handler writes for it (``int``), for a scalar."""


def _of(*kinds: type) -> Callable[[Any], bool]:
    """The test of a type whose values are exactly those of ``kinds``."""
    return lambda v: isinstance(v, kinds)


TYPES: Final = (
    # bool before int: a bool is an int to isinstance
    JsonType("boolean", (bool,), _of(bool), "true or false", "bool_arg", bool),
    JsonType("integer", (int,), _is_whole, "an integer", "int_arg", int),
    JsonType("number", (float,), is_number, "a finite number", "number_arg", float),
    JsonType("string", (str,), _of(str), "a string", "str_arg", str),
    JsonType("array", (list, tuple), _of(list, tuple), "an array", "array_arg", None),
    JsonType("object", (dict,), _of(dict), "an object", "object_arg", None),
    JsonType("null", (type(None),), _of(type(None)), "null", None, None),
)
BY_NAME: Final = {t.name: t for t in TYPES}
NAMES: Final = frozenset(BY_NAME)
"""The JSON Schema type names an argument may declare."""
SCALARS: Final = {t.annotation: t.name for t in TYPES if t.annotation is not None}
"""A scalar annotation (``int``) -> its JSON type, bool first (see :data:`TYPES`)."""
NAME_OF_VALUE: Final = {cls: t.name for t in TYPES for cls in t.values}
"""The exact Python type of a decoded value -> its JSON type."""
