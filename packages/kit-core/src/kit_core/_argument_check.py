"""Compile a tool's ``parameters`` schema into a fast per-call argument check.

A check is compiled once, when the tool is decorated; a call then costs a few
dict look-ups and type tests. Problems are reported as :class:`~kit_core._refusal.Rejection`,
whose message names the argument, what was expected and what arrived. Each argument's value
is checked by its property's check (:mod:`kit_core._value_checks`); this module adds what
concerns the call as a whole: required and unknown arguments, nulls, defaults, and the
parsing of what the caller sent.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, cast

from kit_core._every_error import Collect, compile_collector
from kit_core._quick import FastPath
from kit_core._refusal import (
    INVALID,
    MISSING,
    Problem,
    Rejection,
    accepted,
    combined,
    describe_value,
    did_you_mean,
    render_example,
    sent_instead_and_key,
    short_name,
    suggest,
)
from kit_core._snapshot import ATOMS, deep_copy
from kit_core._value_checks import (
    Fix,
    ValueCheck,
    compile_value_check,
    compile_whole_numbers,
    replaced,
)
from kit_core.redaction import is_secret_key

__all__ = ["ArgumentCheck", "compile_arguments", "default_filler", "parse_arguments"]

ArgumentCheck = Callable[[dict[str, Any]], "tuple[dict[str, Any], Rejection | None]"]


def _collectors(props: Mapping[str, Any]) -> dict[str, Collect]:
    """What finds every error of each argument of a refused call."""
    return {key: compile_collector(sub, is_secret_key(key)) for key, sub in props.items()}


def compile_arguments(
    parameters: Mapping[str, Any],
    examples: Mapping[str, Any],
    value_check: Callable[[Mapping[str, Any], bool], ValueCheck] = compile_value_check,
    defaults: Mapping[str, Any] | None = None,
) -> ArgumentCheck:
    """Compile a tool's ``parameters`` into the check that runs before its handler.

    The check returns the arguments to hand to the handler (optional arguments sent
    as ``null`` are dropped, as if absent, a whole-number float sent for an integer is an
    int, and absent ones with a default get a copy of it) and the first problem found, if
    any. Each property's check comes from ``value_check(schema, secret)``.
    """
    props: Mapping[str, Any] = parameters.get("properties") or {}
    required = tuple(parameters.get("required") or ())
    required_set = frozenset(required)
    closed = parameters.get("additionalProperties") is False
    known = list(props)
    known_set = frozenset(known)
    checks = {key: value_check(sub, is_secret_key(key)) for key, sub in props.items()}
    fixes = {
        key: fix
        for key, sub in props.items()
        if isinstance(sub, Mapping)
        and (fix := compile_whole_numbers(cast("Mapping[str, Any]", sub))) is not None
    }
    missing_text = {
        key: f"{key} is required (e.g. {render_example(examples[key])})"
        if examples.get(key) is not None
        else f"{key} is required"
        for key in required
    }

    # a required argument that may be null (a signature's ``x: int | None`` without a
    # default) takes an explicit null: it is handed to the handler as None
    null_ok = frozenset(k for k in required if _nullable(props.get(k)))

    fast = FastPath(props, required, checks, fixes)
    quick = fast.tests
    compiled: list[dict[str, Collect]] = []  # one entry, made when a call is first refused

    def every_error(first: Rejection, args: dict[str, Any], told: Any = None) -> Rejection:
        """``first`` with every other error of the call (see :func:`combined`); ``told``:
        the unknown key ``first``'s did-you-mean names. A value its property's quick test
        accepts is not looked at again, so a call with one error pays little for the
        search of others. (A call whose one error the fast path found, every other
        argument passing its tests, never asks: see ``check``.)"""
        if not compiled:  # made whole, then published: a concurrent call sees all or none
            compiled.append(_collectors(props))
        collectors = compiled[0]
        found: list[Problem] = []
        missing: list[str] = []
        for key in required:
            value = args.get(key)
            if value is None and key in null_ok and key in args:
                continue
            if value is None or (value.__class__ is str and not value.strip()):
                missing.append(key)
                if key == first.argument and first.code == MISSING:
                    found.append((key, "required", first.message, ""))
                    continue
                hint, sent = sent_instead_and_key(key, args, known_set)
                told = (told, sent)
                found.append((key, "required", missing_text[key] + hint, ""))
        if closed and not known_set.issuperset(args):
            found.extend(_unknown(args, told))
        for key, value in args.items():
            if value is None or key in missing:
                continue
            test = quick.get(key)
            if test is not None and test(value):
                continue
            collect = collectors.get(key)
            if collect is not None:
                collect(value, key, found)
        return first if len(found) < 2 else combined(first, found)

    def _unknown(args: dict[str, Any], told: Any) -> list[Problem]:
        """The unknown keys of a call but those a missing argument's did-you-mean named
        (``told``: nested pairs of them)."""
        named: set[Any] = set()
        while isinstance(told, tuple):
            told, sent = cast("tuple[Any, Any]", told)
            named.add(sent)
        named.add(told)
        found: list[Problem] = []
        for key in args:
            if key not in known_set and key not in named:
                shown = short_name(key)
                text = f"unknown argument {shown!r}{did_you_mean(str(key), known)}"
                found.append((shown, "unknown", text, accepted(known)))
        return found

    def check(args: dict[str, Any], lone: str | None) -> tuple[dict[str, Any], Rejection | None]:
        for key in required:
            value = args.get(key)
            if value is None and key in null_ok and key in args:
                continue
            if value is None or (value.__class__ is str and not value.strip()):
                hint, sent = sent_instead_and_key(key, args, known_set)
                first = Rejection(MISSING, key, missing_text[key] + hint)
                # the fast path refused this one argument alone: the call's only error
                return args, first if key == lone else every_error(first, args, sent)
        if closed and not known_set.issuperset(args):
            for key in args:
                if key not in known_set:
                    shown = short_name(key)
                    text = f"unknown argument {shown!r}{suggest(str(key), known)}"
                    return args, every_error(Rejection(INVALID, shown, text), args)
        nulls: list[str] | None = None
        for key, value in args.items():
            sub = checks.get(key)
            if sub is None:
                continue  # an unknown key of an open schema
            if value is None and key not in required_set:  # pyright: ignore[reportUnnecessaryContains]
                nulls = [*(nulls or ()), key]
                continue
            problem = sub(value, key)
            if problem is not None:
                first = Rejection(INVALID, key, problem)
                # the one argument the fast path refused, a scalar: its only error
                return args, first if key == lone and key in quick else every_error(first, args)
        if nulls:
            args = {k: v for k, v in args.items() if k not in nulls}
        if fixes:
            args = _whole_numbers(args, fixes)
        if fill is not None:
            args = fill(args)
        return args, None

    fill = default_filler(defaults) if defaults else None
    # the fast path answers the common valid call; anything else is ``check``
    return fast.check(closed, check, fill, tuple(defaults or ()))


def _whole_numbers(args: dict[str, Any], fixes: Mapping[str, Fix]) -> dict[str, Any]:
    """``args`` with each fixed argument's whole-number floats made ints."""
    return replaced(args, fixes.get)


def _nullable(schema: object) -> bool:
    if not isinstance(schema, Mapping):
        return False
    found = cast("Mapping[str, Any]", schema)
    kinds = found.get("type")
    return found.get("nullable") is True or (isinstance(kinds, list) and "null" in kinds)


def default_filler(defaults: Mapping[str, Any]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A function giving the arguments with every absent defaulted one filled in: a new
    dict (the caller's is never changed), each default a fresh copy, so a handler that
    changes a default list or dict changes it for that call only."""
    fixed = dict(defaults)

    def fill(args: dict[str, Any]) -> dict[str, Any]:
        filled: dict[str, Any] | None = None
        for key, value in fixed.items():
            if key not in args:
                if filled is None:
                    filled = dict(args)
                filled[key] = value if type(value) in ATOMS else deep_copy(value)
        return args if filled is None else filled

    return fill


def parse_arguments(raw: Any) -> tuple[dict[str, Any], Rejection | None]:
    """Turn what the caller sent into an arguments dict, or say why it cannot be one.

    ``None`` counts as ``{}``; a JSON string holding an object is parsed.
    """
    if raw.__class__ is dict:
        return raw, None
    if raw is None:
        return {}, None
    if isinstance(raw, Mapping):
        return dict(cast("Mapping[str, Any]", raw)), None
    if isinstance(raw, str | bytes | bytearray):
        parsed: Any
        try:
            parsed = json.loads(raw) if raw.strip() else {}
        except ValueError:
            parsed = raw
        if isinstance(parsed, dict):
            return parsed, None  # pyright: ignore[reportUnknownVariableType]
        raw = parsed
    text = (
        "arguments must be a JSON object mapping argument names to values, e.g."
        f' {{"name": "value"}}; got {describe_value(raw)}'
    )
    return {}, Rejection(INVALID, "arguments", text)
