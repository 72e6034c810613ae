"""Arguments a model could send, built from a tool's JSON Schema, for ``check --probe``.

Every required property gets a value, and so does an optional one that shows an example:
the example the tool declared (kit tools carry theirs on the ``ToolSpec``; the model reads
them in the description), else the first example, ``const``, ``default`` or ``enum`` value
where the schema gives one,
else the smallest value of its type inside its bounds (lengths, ranges, item counts).
A ``pattern`` or ``format`` without an example cannot be satisfied in general; the tool's
own check may then refuse the call, which ``check`` does not report.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Final, cast

__all__ = ["arguments_for"]

MAX_DEPTH: Final = 8


def arguments_for(parameters: object, examples: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A value for each required property of ``parameters`` (and each with an example);
    ``examples`` (argument name to value) come first."""
    return _object(parameters, 0, examples or {})


def _value(schema: object, depth: int) -> Any:
    if not isinstance(schema, dict) or depth > MAX_DEPTH:
        return "example"
    spec = cast("dict[str, Any]", schema)
    for key in ("examples", "enum"):
        options = spec.get(key)
        if isinstance(options, list) and options:
            return cast("list[Any]", options)[0]
    for key in ("const", "default", "example"):
        if key in spec:
            return spec[key]
    for key in ("anyOf", "oneOf", "allOf"):
        options = spec.get(key)
        if isinstance(options, list) and options:
            return _value(cast("list[Any]", options)[0], depth + 1)
    return _typed(spec, _type(spec), depth)


def _type(spec: dict[str, Any]) -> str:
    declared = spec.get("type")
    if isinstance(declared, list):
        named = [t for t in cast("list[Any]", declared) if t != "null"]
        return str(named[0]) if named else "null"
    if isinstance(declared, str):
        return declared
    return "object" if "properties" in spec else "string"


def _typed(spec: dict[str, Any], kind: str, depth: int) -> Any:
    if kind == "string":
        length = max(_int(spec.get("minLength"), 1), 1)
        return "x" * max(min(length, _int(spec.get("maxLength"), length)), 0)
    if kind in {"integer", "number"}:
        return _number(spec, kind == "integer")
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    if kind == "array":
        count = _int(spec.get("minItems"), 1)
        count = min(max(count, 1), _int(spec.get("maxItems"), count), 16)
        return [_value(spec.get("items"), depth + 1) for _ in range(count)]
    return _object(spec, depth)


def _object(
    schema: object, depth: int, examples: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    if not isinstance(schema, dict):
        return {}
    spec = cast("dict[str, Any]", schema)
    properties = spec.get("properties")
    if not isinstance(properties, dict):
        return {}
    fields = cast("dict[str, Any]", properties)
    raw_required = spec.get("required")
    required: set[Any] = (
        set(cast("list[Any]", raw_required)) if isinstance(raw_required, list) else set()
    )
    out: dict[str, Any] = {}
    declared = examples or {}
    for name, prop in fields.items():
        if name in declared:
            out[name] = declared[name]
        elif name in required or _shows_example(prop):
            out[name] = _value(prop, depth + 1)
    return out


def _shows_example(prop: object) -> bool:
    if not isinstance(prop, dict):
        return False
    keys = cast("dict[str, Any]", prop)
    return "examples" in keys or "example" in keys or "const" in keys


def _int(value: object, fallback: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else fallback


def _bound(spec: dict[str, Any], key: str) -> float | None:
    value = spec.get(key)
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _number(spec: dict[str, Any], integer: bool) -> int | float:
    """1, moved inside the bounds (exclusive ones by a step of 1, or 0.5 for numbers)."""
    low, high = _bound(spec, "minimum"), _bound(spec, "maximum")
    above, below = _bound(spec, "exclusiveMinimum"), _bound(spec, "exclusiveMaximum")
    step = 1 if integer else 0.5
    value: float = 1
    if low is not None:
        value = max(value, low)
    if above is not None and value <= above:
        value = above + step
    if high is not None:
        value = min(value, high)
    if below is not None and value >= below:
        value = below - step
    if not integer:
        return float(value)
    return math.ceil(value) if low is not None or above is not None else math.floor(value)
