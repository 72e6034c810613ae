"""Argument coercion as ``model_tools.coerce_tool_args`` does it (0.19.0).

Strings become the schema's integer, number, boolean, null, array or object; a bare
value for an ``array`` property is wrapped in a list; JSON-encoded nested values are
parsed where the schema expects a container. The args dict is changed in place.
"""

from __future__ import annotations

import json
import math
from typing import Any


def as_dict(value: object) -> dict[str, Any] | None:
    """``value`` typed as a dict when it is one (no copy)."""
    return value if isinstance(value, dict) else None  # pyright: ignore[reportUnknownVariableType]


def as_list(value: object) -> list[Any] | None:
    """``value`` typed as a list when it is one (no copy)."""
    return value if isinstance(value, list) else None  # pyright: ignore[reportUnknownVariableType]


def coerce_tool_args(schema: Any, args: Any) -> Any:
    """Coerce ``args`` in place against a tool ``schema`` (the function object).

    Like hermes, a schema whose ``parameters`` or properties are not mappings raises
    AttributeError (hermes does this before its own error handling).
    """
    found = as_dict(args)
    if not args or found is None or not schema:
        return args
    parameters: Any = schema.get("parameters") or {}
    properties: Any = parameters.get("properties")
    if not properties:
        return found
    for key, value in list(found.items()):
        prop: Any = properties.get(key)
        if not prop:
            continue
        expected: Any = prop.get("type")
        if expected == "array" and value is not None and not isinstance(value, list | tuple):
            if isinstance(value, str):
                coerced = _coerce_value(value, expected, prop)
                if coerced is not value:
                    found[key] = coerced
                    continue
            found[key] = [value]
            continue
        if not isinstance(value, str):
            if (expected == "array" and isinstance(value, list | tuple)) or (
                expected == "object" and isinstance(value, dict)
            ):
                found[key] = _normalize(value, prop)
            continue
        if not expected and not _allows_null(prop):
            continue
        coerced = _coerce_value(value, expected, prop)
        if coerced is not value:
            found[key] = coerced
            if isinstance(coerced, list | tuple | dict):
                found[key] = _normalize(coerced, prop)
    return found


def _declares(node: dict[str, Any], kind: str) -> bool:
    kinds = node.get("type")
    listed = as_list(kinds)
    return kinds == kind or (listed is not None and kind in listed)


def _accepts(schema: Any, kind: str) -> bool:
    node = as_dict(schema)
    if node is None:
        return False
    if _declares(node, kind):
        return True
    for union in ("anyOf", "oneOf", "allOf"):
        branches = as_list(node.get(union))
        if branches is not None and any(_accepts(b, kind) for b in branches):
            return True
    return False


def _normalize(value: Any, schema: Any) -> Any:
    """Parse JSON strings where the schema expects a container, recursively."""
    node = as_dict(schema)
    if node is None:
        return value
    if isinstance(value, str):
        trimmed = value.strip()
        wants_array, wants_object = _accepts(node, "array"), _accepts(node, "object")
        if not (
            (wants_array and trimmed.startswith("[")) or (wants_object and trimmed.startswith("{"))
        ):
            return value
        try:
            parsed: Any = json.loads(trimmed)
        except (ValueError, TypeError):
            return value
        if not (
            (as_list(parsed) is not None and wants_array)
            or (as_dict(parsed) is not None and wants_object)
        ):
            return value
        value = parsed
    items = as_list(value)
    if items is not None:
        item_schema = as_dict(node.get("items"))
        if item_schema is None:
            return items
        out = [_normalize(item, item_schema) for item in items]
        changed = any(new is not old for new, old in zip(out, items, strict=True))
        return out if changed else items
    current = as_dict(value)
    if current is not None:
        props = as_dict(node.get("properties"))
        if props is None:
            return current
        result = dict(current)
        changed = False
        for key, prop in props.items():
            if key not in current or not isinstance(prop, dict):
                continue
            new = _normalize(current[key], prop)
            if new is not current[key]:
                result[key] = new
                changed = True
        return result if changed else current
    return value


def _coerce_value(value: str, expected: Any, schema: Any) -> Any:
    if _allows_null(schema) and value.strip().lower() == "null":
        return None
    kinds = as_list(expected)
    if kinds is not None:
        for kind in kinds:
            result = _coerce_value(value, kind, schema)
            if result is not value:
                return result
        return value
    if expected in {"integer", "number"}:
        return _coerce_number(value, integer_only=expected == "integer")
    if expected == "boolean":
        low = value.strip().lower()
        return True if low == "true" else False if low == "false" else value
    if expected in {"array", "object"}:
        try:
            parsed: Any = json.loads(value)
        except (ValueError, TypeError):
            return value
        found = as_list(parsed) if expected == "array" else as_dict(parsed)
        return value if found is None else found
    if expected == "null" and value.strip().lower() == "null":
        return None
    return value


def _allows_null(schema: Any) -> bool:
    node = as_dict(schema)
    if node is None:
        return False
    if _declares(node, "null") or node.get("nullable") is True:
        return True
    for union in ("anyOf", "oneOf"):
        variants = as_list(node.get(union))
        if variants is not None and any((as_dict(v) or {}).get("type") == "null" for v in variants):
            return True
    return False


def _coerce_number(value: str, *, integer_only: bool) -> Any:
    try:
        number = float(value)
    except (ValueError, OverflowError):
        return value
    if math.isnan(number) or math.isinf(number):
        return value
    if number == int(number):
        return int(number)
    return value if integer_only else number
