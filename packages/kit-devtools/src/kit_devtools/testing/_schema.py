"""Tool definitions as the model receives them: hermes' schema sanitizer, re-done.

``tools/schema_sanitizer.sanitize_tool_schemas`` (0.19.0) runs on every definition after
the ``check_fn`` filter: missing or non-dict ``parameters`` become an empty object, bare
type strings become schemas, ``type`` lists collapse (``nullable: true``) or become
``anyOf``, objects get ``properties``, ``required`` loses names that are not properties,
nullable ``anyOf``/``oneOf`` unions collapse, top-level combinators and ``default`` next
to ``$ref`` are dropped.

Where the release's sanitizer adds ``required`` (``HostRelease.sanitizer_adds_required``,
0.21.4 on: ``tools/schema_sanitizer.py`` ``_empty_object``, ``_sanitize_single_tool`` and
the end of ``_sanitize_node``), every object node carries a ``required`` list, ``[]`` when
it had none or none of its names is a property, appended after its other keys.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from kit_core.args import JSON_TYPES
from kit_devtools.testing._coerce import as_dict, as_list

_TOP_LEVEL_FORBIDDEN = ("allOf", "anyOf", "oneOf", "enum", "not")
_UNION_META = ("title", "description", "default", "examples")


def sanitize_definition(tool: dict[str, Any], *, adds_required: bool = False) -> dict[str, Any]:
    """A sanitized deep copy of one ``{"type": "function", "function": {...}}`` entry;
    ``adds_required``: the release's sanitizer gives every object a ``required`` list."""
    out = copy.deepcopy(tool)
    function = as_dict(out.get("function"))
    if function is None:
        return out
    params = as_dict(function.get("parameters"))
    if params is None:
        function["parameters"] = _empty_object(adds_required)
        return out
    top: dict[str, Any] | None = as_dict(_sanitize_node(params, adds_required))
    if top is None:
        top = _empty_object(adds_required)
    else:
        if top.get("type") != "object":
            top["type"] = "object"
        if as_dict(top.get("properties")) is None:
            top["properties"] = {}
        if adds_required and as_list(top.get("required")) is None:
            top["required"] = []
    stripped: dict[str, Any] = strip_nullable_unions(top)
    kept = {k: v for k, v in stripped.items() if k not in _TOP_LEVEL_FORBIDDEN}
    function["parameters"] = _strip_ref_siblings(kept)
    return out


def _bottom_up(node: Any, finish: Callable[[dict[str, Any]], Any]) -> Any:
    """``node`` with every dict in it, its children done first, replaced by ``finish(dict)``."""
    items = as_list(node)
    if items is not None:
        return [_bottom_up(item, finish) for item in items]
    mapping = as_dict(node)
    if mapping is None:
        return node
    return finish({k: _bottom_up(v, finish) for k, v in mapping.items()})


def _strip_ref_siblings(node: Any) -> Any:
    return _bottom_up(
        node, lambda d: {k: v for k, v in d.items() if k != "default" or "$ref" not in d}
    )


def strip_nullable_unions(schema: Any) -> Any:
    """Collapse ``anyOf``/``oneOf`` unions with one non-null branch to that branch."""
    return _bottom_up(schema, _collapse_union)


def _collapse_union(stripped: dict[str, Any]) -> Any:
    for key in ("anyOf", "oneOf"):
        branches = as_list(stripped.get(key))
        if branches is None:
            continue
        non_null = [
            b
            for b in branches
            if (as_dict(b) or {}).get("type") != "null" or not isinstance(b, dict)
        ]
        if len(non_null) == 1 and len(non_null) != len(branches):
            replacement = dict(as_dict(non_null[0]) or {})
            replacement.setdefault("nullable", True)
            for meta in _UNION_META:
                if meta in stripped and meta not in replacement:
                    if meta == "default" and "$ref" in replacement:
                        continue
                    replacement[meta] = stripped[meta]
            return strip_nullable_unions(replacement)
    return stripped


def _empty_object(adds_required: bool) -> dict[str, Any]:
    empty: dict[str, Any] = {"type": "object", "properties": {}}
    return {**empty, "required": []} if adds_required else empty


def _sanitize_node(node: Any, adds_required: bool = False) -> Any:
    if isinstance(node, str):
        if node == "object" or node not in JSON_TYPES:
            return _empty_object(adds_required)
        return {"type": node}
    items = as_list(node)
    if items is not None:
        return [_sanitize_node(item, adds_required) for item in items]
    mapping = as_dict(node)
    if mapping is None:
        return node
    out: dict[str, Any] = {}
    for key, value in mapping.items():
        kinds = as_list(value) if key == "type" else None
        if kinds is not None:
            has_null = "null" in kinds
            non_null = [t for t in kinds if isinstance(t, str) and t != "null"]
            if len(non_null) == 1:
                out["type"] = non_null[0]
            elif len(non_null) >= 2:
                out["anyOf"] = [{"type": t} for t in non_null]
            else:
                out["type"] = "null" if has_null else "object"
                continue
            if has_null:
                out.setdefault("nullable", True)
            continue
        children = as_dict(value)
        if key in {"properties", "$defs", "definitions"} and children is not None:
            out[key] = {k: _sanitize_node(v, adds_required) for k, v in children.items()}
        elif key in {"items", "additionalProperties"}:
            out[key] = value if isinstance(value, bool) else _sanitize_node(value, adds_required)
        elif key in {"anyOf", "oneOf", "allOf"} and as_list(value) is not None:
            out[key] = [_sanitize_node(item, adds_required) for item in as_list(value) or []]
        elif key in {"required", "enum", "examples"}:
            container = as_list(value) is not None or as_dict(value) is not None
            out[key] = copy.deepcopy(value) if container else value
        else:
            out[key] = (
                _sanitize_node(value, adds_required) if isinstance(value, dict | list) else value
            )
    if out.get("type") == "object" and as_dict(out.get("properties")) is None:
        out["properties"] = {}
    required = as_list(out.get("required"))
    if out.get("type") == "object" and adds_required:
        props = as_dict(out.get("properties")) or {}
        kept = [r for r in required if isinstance(r, str) and r in props] if required else []
        out["required"] = kept  # 0.21.4 _sanitize_node: "Always emit a list"
    elif out.get("type") == "object" and required is not None:
        props = as_dict(out.get("properties")) or {}
        valid = [r for r in required if isinstance(r, str) and r in props]
        if not valid:
            out.pop("required", None)
        elif len(valid) != len(required):
            out["required"] = valid
    return out
