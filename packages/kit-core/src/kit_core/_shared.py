"""Argument checks compiled once per shape and shared by every tool of that shape.

A compiled check depends only on the keywords a check reads (:data:`CONSTRAINING`:
types, enums, bounds, lengths, patterns, nested items and properties), on the argument
names (they decide which values are secret and what an error names), on the
examples of required arguments (quoted when one is missing) and on the defaults of
optional ones (filled in when absent). Descriptions, titles, the tool's name and its
description play no part. So a plugin declaring many tools with the same arguments
compiles their check once, and the tools share it.

The key of a shape is the :mod:`marshal` bytes of the schema cut down to those parts,
and the check is compiled from the value those bytes load back to, never from the
schema given: what a check does can depend on nothing the key leaves out. ``marshal``
tells ``1``, ``1.0``, ``True``, ``-0.0`` and ``0.0`` apart and a list from a tuple, which
equality does not (a bound of ``1.0`` is worded ``>= 1.0``). A schema holding anything
but plain JSON data (a subclass, a ``set``, an object of the author's) has no key: its
check is compiled for it alone, as before.

The caches are bounded (least recently used first out); a check evicted from them stays
with the tools holding it. Compiled checks hold no state, so sharing them across tools
and plugins is safe.
"""

from __future__ import annotations

import functools
import marshal
from collections.abc import Mapping
from typing import Any, Final, cast

from kit_core._argument_check import ArgumentCheck, compile_arguments
from kit_core._quick import CONSTRAINING
from kit_core._snapshot import ATOMS, deep_copy, is_plain
from kit_core._value_checks import ValueCheck, compile_value_check

__all__ = ["argument_check", "example_misfit", "shape_key", "value_check"]

_TOOL_SHAPES: Final = 512
_PROPERTY_SHAPES: Final = 2048


class _NoKey(Exception):
    """The schema holds something that is not plain JSON data."""


def _plain(value: Any) -> Any:
    if type(value) in ATOMS or is_plain(value):
        return value
    raise _NoKey


def _checked_part(schema: Any) -> dict[str, Any]:
    """A property schema cut down to what its check reads (recursively)."""
    if type(schema) is not dict:
        raise _NoKey
    given = cast("dict[str, Any]", schema)
    part = {k: v for k, v in given.items() if k in CONSTRAINING}
    for key, value in part.items():
        if type(value) in ATOMS:
            continue
        if key == "items" and type(value) is dict:
            part[key] = _checked_part(value)
        elif key == "properties" and type(value) is dict:
            part[key] = _properties_part(value)
        elif key == "anyOf" and type(value) is list:
            branches = cast("list[Any]", value)
            part[key] = [_checked_part(b) if type(b) is dict else _plain(b) for b in branches]
        elif not is_plain(value):
            raise _NoKey
    return part


def _properties_part(properties: Any) -> dict[str, Any]:
    return {name: _checked_part(sub) for name, sub in cast("dict[str, Any]", properties).items()}


def _parameters_part(parameters: Mapping[str, Any]) -> dict[str, Any]:
    """A tool's ``parameters`` cut down to what :func:`compile_arguments` reads."""
    if type(parameters) is not dict:
        raise _NoKey
    part: dict[str, Any] = {}
    for key, value in cast("dict[str, Any]", parameters).items():
        if key == "properties" and type(value) is dict:
            part[key] = _properties_part(value)
        elif key in ("properties", "required", "additionalProperties"):
            part[key] = _plain(value)
    return part


def shape_key(
    parameters: Mapping[str, Any],
    examples: Mapping[str, Any],
    defaults: Mapping[str, Any] | None = None,
) -> bytes | None:
    """The key of a tool's argument shape, examples and defaults, or None when it has none
    (see the module)."""
    try:
        return marshal.dumps(
            (_parameters_part(parameters), _plain(dict(examples)), _plain(dict(defaults or {})))
        )
    except (_NoKey, RecursionError, ValueError):
        return None


def argument_check(
    parameters: Mapping[str, Any],
    examples: Mapping[str, Any],
    defaults: Mapping[str, Any] | None = None,
) -> tuple[ArgumentCheck | None, str | None]:
    """:func:`compile_arguments` of ``parameters``, shared with every tool of its shape,
    examples and defaults, or, when an example does not fit its property, None and the
    problem (see :func:`example_misfit`). ``defaults`` are taken as fitting (the caller
    checks them with :func:`example_misfit` first)."""
    key = shape_key(parameters, examples, defaults)
    if key is None:  # compiled from a copy: a check keeps some values it was given
        return _compile(deep_copy(parameters), examples, deep_copy(dict(defaults or {})))
    return _compiled(key)


def example_misfit(parameters: Mapping[str, Any], examples: Mapping[str, Any]) -> str | None:
    """The problem with the first example that does not fit its property (``"<name> must
    be …; got …"``), or None."""
    properties = parameters["properties"]
    for name, example in examples.items():
        problem = value_check(properties[name])(example, name)
        if problem is not None:
            return problem
    return None


def value_check(schema: Mapping[str, Any], secret: bool = False) -> ValueCheck:
    """:func:`compile_value_check` of a property schema, shared with every property of its
    shape."""
    try:
        key = marshal.dumps(_checked_part(schema))
    except (_NoKey, RecursionError, ValueError):
        return compile_value_check(schema, secret)
    return _value_check(key, secret)


def _compile(
    parameters: Mapping[str, Any], examples: Mapping[str, Any], defaults: Mapping[str, Any]
) -> tuple[ArgumentCheck | None, str | None]:
    misfit = example_misfit(parameters, examples)
    if misfit is not None:
        return None, misfit
    return compile_arguments(parameters, examples, value_check, defaults), None


@functools.lru_cache(maxsize=_TOOL_SHAPES)
def _compiled(key: bytes) -> tuple[ArgumentCheck | None, str | None]:
    parameters, examples, defaults = marshal.loads(key)
    return _compile(parameters, examples, defaults)


@functools.lru_cache(maxsize=_PROPERTY_SHAPES)
def _value_check(key: bytes, secret: bool) -> ValueCheck:
    return compile_value_check(marshal.loads(key), secret)
