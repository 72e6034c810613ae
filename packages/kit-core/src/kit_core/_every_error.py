"""What finds every error of a refused call's values.

Compiled only when a call is first refused: each value's collector asks the same steps,
in the same order, as its check (:func:`kit_core._value_checks.compile_value_check`), but
goes on past the first error, into every item and property, so the refusal can list them
all (:func:`kit_core._refusal.combined` words them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from kit_core._refusal import Problem, accepted, did_you_mean, sent_instead_and_key, short_name
from kit_core._value_checks import rule_steps
from kit_core.redaction import is_secret_key

__all__ = ["Collect", "compile_collector"]

Collect = Callable[[Any, str, list[Problem]], None]
"""Adds every error of a value (at its path) to a list: one per value (the first rule it
breaks), and those of its items and properties."""


def compile_collector(schema: Mapping[str, Any], secret: bool = False) -> Collect:
    """What finds every error of a value of ``schema``, in the order the check of
    :func:`~kit_core._value_checks.compile_value_check` meets them (compiled only when a
    call is refused)."""
    steps = rule_steps(schema, secret)
    items: Any = schema.get("items")
    each = (
        compile_collector(cast("Mapping[str, Any]", items), secret)
        if isinstance(items, Mapping)
        else None
    )
    fields = _fields_collector(schema) if isinstance(schema.get("properties"), Mapping) else None

    def collect(v: Any, path: str, out: list[Problem]) -> None:
        for rule, step in steps:
            problem = step(v, path)
            if problem is not None:
                out.append((path, rule, problem, ""))
                return
        if each is not None and isinstance(v, list | tuple):
            for index, item in enumerate(cast("list[Any]", v)):
                each(item, f"{path}[{index}]", out)
        if fields is not None and isinstance(v, dict):
            fields(v, path, out)

    return collect


def _fields_collector(schema: Mapping[str, Any]) -> Collect:
    """Every error of a nested object: missing and unknown keys (each with its
    did-you-mean; an unknown key a missing one's already names is not told twice) and its
    values'."""
    props: Mapping[str, Any] = schema.get("properties") or {}
    subs = {key: compile_collector(sub, is_secret_key(key)) for key, sub in props.items()}
    required = tuple(schema.get("required") or ())
    extra: Any = schema.get("additionalProperties")
    closed = extra is False
    other = (
        compile_collector(cast("Mapping[str, Any]", extra)) if isinstance(extra, Mapping) else None
    )
    known = list(props)
    known_set = frozenset(known)

    def collect(v: Any, path: str, out: list[Problem]) -> None:
        told: set[Any] = set()
        for key in required:
            if key not in v:
                hint, sent = sent_instead_and_key(key, v, known_set)
                told.add(sent)
                out.append((f"{path}.{key}", "required", f"{path}.{key} is required{hint}", ""))
        for key, item in v.items():
            sub = subs.get(key, other)
            if sub is not None:
                sub(item, f"{path}.{key}", out)
            elif closed and key not in told:
                shown = short_name(key)
                text = f"{path} has an unknown key {shown!r}{did_you_mean(str(key), known)}"
                out.append((f"{path}.{shown}", "unknown", text, accepted(known)))

    return collect
