"""Compile one property schema into the checks of one value.

A value's check (:func:`compile_value_check`) is compiled once, when the tool is
decorated, and answers each call with the first rule the value breaks (its type, enum,
bounds, lengths, pattern, items and properties); its fix (:func:`compile_whole_numbers`)
hands a whole-number float sent for an integer on as an int. What finds every error of a
refused call's value is :mod:`kit_core._every_error`, from the same steps.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import Any, cast

from kit_core._json_types import BY_NAME, is_integer, is_number
from kit_core._refusal import describe_value, render_example, sent_instead, short_name, suggest
from kit_core.redaction import is_secret_key

__all__ = [
    "Fix",
    "ValueCheck",
    "compile_object_check",
    "compile_value_check",
    "compile_whole_numbers",
    "declared_types",
    "replaced",
    "rule_steps",
]

# A value check returns None when the value is fine, else "<what was expected>; got <what arrived>".
ValueCheck = Callable[[Any, str], "str | None"]


def declared_types(schema: Mapping[str, Any]) -> list[str]:
    """The JSON types a property allows: from ``type`` (a name or a list), or an ``anyOf``
    of plain types, plus ``null`` when ``nullable`` is true."""
    declared = schema.get("type")
    types: list[Any] = [declared] if isinstance(declared, str) else list(declared or [])
    alternatives = schema.get("anyOf")
    if not types and isinstance(alternatives, list):
        branches = cast("list[Any]", alternatives)
        types = [cast("dict[str, Any]", a).get("type") for a in branches if isinstance(a, dict)]
    if schema.get("nullable") is True and types:
        types.append("null")
    return [t for t in types if isinstance(t, str)]


def compile_value_check(schema: Mapping[str, Any], secret: bool = False) -> ValueCheck:
    """Compile one property schema (type, enum, bounds, lengths, pattern, items, properties)."""
    steps = [step for _, step in rule_steps(schema, secret)]
    items = schema.get("items")
    if isinstance(items, Mapping):
        steps.append(_items(compile_value_check(items, secret)))  # pyright: ignore[reportUnknownArgumentType]
    if isinstance(schema.get("properties"), Mapping):
        steps.append(compile_object_check(schema))
    if not steps:
        return lambda v, path: None
    if len(steps) == 1:
        return steps[0]

    def check_all(v: Any, path: str) -> str | None:
        for step in steps:
            problem = step(v, path)
            if problem is not None:
                return problem
        return None

    return check_all


def rule_steps(schema: Mapping[str, Any], secret: bool) -> list[tuple[str, ValueCheck]]:
    """The checks of one value itself (not of its items or properties), in the order
    they are asked, each with the rule it checks."""
    steps: list[tuple[str, ValueCheck]] = []
    types = declared_types(schema)
    known = [BY_NAME[t] for t in types if t in BY_NAME]
    if known:
        wanted = " or ".join(t.wanted for t in known)
        preds = tuple(t.test for t in known)

        def check_type(v: Any, path: str) -> str | None:
            for pred in preds:
                if pred(v):
                    return None
            return f"{path} must be {wanted}; got {describe_value(v, secret)}"

        steps.append(("type", check_type))
    steps.extend(_constraint_steps(schema, secret))
    return steps


Fix = Callable[[Any], Any]


def compile_whole_numbers(schema: Mapping[str, Any]) -> Fix | None:
    """What turns the whole-number floats a property's check accepted as integers (``5.0``
    where only ``integer`` is allowed, at any depth its check reads: ``items``,
    ``properties``, ``additionalProperties``) into ints, for a value that passed the check.
    It returns the value itself when nothing changes, else a new value (the caller's is
    never changed). None when the schema has no such place. A float stays a float where
    ``number`` is allowed too."""
    types = declared_types(schema)
    here = "integer" in types and "number" not in types
    items = schema.get("items")
    each = (
        compile_whole_numbers(cast("Mapping[str, Any]", items))
        if isinstance(items, Mapping)
        else None
    )
    props = schema.get("properties")
    keyed: dict[str, Fix | None] = {}
    other: Fix | None = None
    if isinstance(props, Mapping):  # the object check runs only then (_constraint_steps)
        for key, sub in cast("Mapping[str, Any]", props).items():
            keyed[key] = (
                compile_whole_numbers(cast("Mapping[str, Any]", sub))
                if isinstance(sub, Mapping)
                else None
            )
        extra: Any = schema.get("additionalProperties")
        if isinstance(extra, Mapping):
            other = compile_whole_numbers(cast("Mapping[str, Any]", extra))
    if not here and each is None and other is None and all(f is None for f in keyed.values()):
        return None

    def fix(v: Any) -> Any:
        if here and isinstance(v, float):
            return int(v)
        if each is not None and isinstance(v, list | tuple):
            items_in = cast("list[Any] | tuple[Any, ...]", v)
            fixed: list[Any] = [each(item) for item in items_in]
            if all(a is b for a, b in zip(fixed, items_in, strict=True)):
                return items_in
            return tuple(fixed) if isinstance(v, tuple) else fixed
        if isinstance(v, dict) and (other is not None or any(keyed.values())):
            # each value as the object check reads it: its property's fix, else the extra's
            return replaced(cast("dict[Any, Any]", v), lambda key: keyed.get(key, other))
        return cast("Any", v)  # what no fix reads (a str, a number where number is allowed)

    return fix


def _constraint_steps(schema: Mapping[str, Any], secret: bool) -> list[tuple[str, ValueCheck]]:
    steps: list[tuple[str, ValueCheck]] = []

    def shown(v: Any) -> str:
        return describe_value(v, secret)

    if "enum" in schema:
        allowed = list(schema["enum"])
        listing = ", ".join(render_example(a) for a in allowed)

        def check_enum(v: Any, path: str) -> str | None:
            if any(v == a and isinstance(v, bool) is isinstance(a, bool) for a in allowed):
                return None
            return f"{path} must be one of {listing}; got {shown(v)}"

        steps.append(("enum", check_enum))
    for key, op, word in (
        ("minimum", operator.ge, ">="),
        ("maximum", operator.le, "<="),
        ("exclusiveMinimum", operator.gt, ">"),
        ("exclusiveMaximum", operator.lt, "<"),
    ):
        if is_number(schema.get(key)):
            limit: Any = schema[key]
            steps.append((key, _bound(limit, op, f"{word} {limit}", shown)))
    sized: tuple[tuple[str, int, str, Any], ...] = (
        ("minLength", 1, "at least {} characters", str),
        ("maxLength", -1, "at most {} characters", str),
        ("minItems", 1, "at least {} items", (list, tuple)),
        ("maxItems", -1, "at most {} items", (list, tuple)),
    )
    for key, size, noun, kinds in sized:
        if is_integer(schema.get(key)):
            steps.append((key, _length(schema[key], size, noun.format(schema[key]), kinds, shown)))
    if isinstance(schema.get("pattern"), str):
        steps.append(("pattern", _pattern(schema["pattern"], shown)))
    return steps


def _bound(
    limit: float, op: Callable[[Any, Any], bool], text: str, shown: Callable[[Any], str]
) -> ValueCheck:
    # compared as they are: exact for int against float, and no overflow for huge ints
    def check(v: Any, path: str) -> str | None:
        if not is_number(v) or op(v, limit):
            return None
        return f"{path} must be {text}; got {shown(v)}"

    return check


def _length(
    limit: int, sign: int, text: str, kinds: Any, shown: Callable[[Any], str]
) -> ValueCheck:
    def check(v: Any, path: str) -> str | None:
        if not isinstance(v, kinds) or (len(v) - limit) * sign >= 0:
            return None
        return f"{path} must have {text}; got {shown(v)}"

    return check


def _pattern(pattern: str, shown: Callable[[Any], str]) -> ValueCheck:
    from kit_core._ecma import SearchTooCostly, compile_ecma  # only a pattern needs it

    compiled = compile_ecma(pattern)

    def check(v: Any, path: str) -> str | None:
        if not isinstance(v, str):
            return None
        try:
            if compiled.search(v):
                return None
        except SearchTooCostly:
            return (
                f"{path} is too long to check against the pattern {pattern!r} in bounded"
                f" time ({len(v):,} characters); send a shorter value"
            )
        return f"{path} must match the pattern {pattern!r}; got {shown(v)}"

    return check


def _items(each: ValueCheck) -> ValueCheck:
    def check(v: Any, path: str) -> str | None:
        if not isinstance(v, list | tuple):
            return None
        for index, item in enumerate(v):  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
            problem = each(item, f"{path}[{index}]")
            if problem is not None:
                return problem
        return None

    return check


def compile_object_check(schema: Mapping[str, Any]) -> ValueCheck:
    """Compile a nested object schema: its required keys, unknown keys, properties, and the
    schema ``additionalProperties`` gives every other key's value (``dict[str, T]``)."""
    props: Mapping[str, Any] = schema.get("properties") or {}
    checks = {key: compile_value_check(sub, is_secret_key(key)) for key, sub in props.items()}
    required = tuple(schema.get("required") or ())
    extra: Any = schema.get("additionalProperties")
    closed = extra is False
    other = (
        compile_value_check(cast("Mapping[str, Any]", extra))
        if isinstance(extra, Mapping)
        else None
    )
    known = list(props)
    known_set = frozenset(known)

    def check(v: Any, path: str) -> str | None:
        if not isinstance(v, dict):
            return None
        for key in required:
            if key not in v:
                return f"{path}.{key} is required{sent_instead(key, v, known_set)}"  # pyright: ignore[reportUnknownArgumentType]
        for key, item in v.items():  # pyright: ignore[reportUnknownVariableType]
            sub = checks.get(key, other)  # pyright: ignore[reportUnknownArgumentType]
            if sub is not None:
                problem = sub(item, f"{path}.{key}")
                if problem is not None:
                    return problem
            elif closed:
                return f"{path} has an unknown key {short_name(key)!r}{suggest(str(key), known)}"  # pyright: ignore[reportUnknownArgumentType]
        return None

    return check


def replaced(found: dict[Any, Any], fix_for: Callable[[Any], Fix | None]) -> dict[Any, Any]:
    """``found`` with each value its key's fix (``fix_for(key)``) changes replaced: ``found``
    itself when nothing changes (the caller's dict is never written), else a new dict."""
    changed: dict[Any, Any] | None = None
    for key, item in found.items():
        fix = fix_for(key)
        if fix is None:
            continue
        new = fix(item)
        if new is not item:
            changed = changed if changed is not None else dict(found)
            changed[key] = new
    return found if changed is None else changed
