"""The fast path of an argument check: the common valid call in a few tests per argument.

The full check (:func:`kit_core._argument_check.compile_arguments`) names every problem, but
for a call whose simple arguments are all valid it still walks each value through its
chain of steps. Once per tool, this module picks a small test for each simple property
(a string, integer, number or boolean with its enum, bounds or lengths) and puts the
tests in front of the full check, which gets every other call. The fast path never
refuses anything itself, so every message still comes from the full check, and it
accepts only what the full check accepts, returning the arguments unchanged.

The tests are ordinary closures over the property's own bounds and enum: nothing is
compiled or generated at run time.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Mapping
from typing import Any, Final, cast

from kit_core._json_types import is_integer, is_number

__all__ = ["CONSTRAINING", "FastPath", "compile_quick_check"]

CONSTRAINING: Final = frozenset(
    {
        "type", "anyOf", "nullable", "enum", "minimum", "maximum", "exclusiveMinimum",
        "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "pattern",
        "items", "properties", "required", "additionalProperties",
    }
)  # fmt: skip
"""Every keyword of a property schema that an argument check reads (the full check and
the fast path alike); the others (``description``, ``examples``, ``default`` …) only
inform the model."""
_QUICK: Final = frozenset({"type", "enum", "minimum", "maximum", "minLength", "maxLength"})
_ABSENT: Final = object()

Test = Callable[[Any], bool]
ArgumentCheck = Callable[[dict[str, Any]], "tuple[dict[str, Any], Any]"]
FullCheck = Callable[[dict[str, Any], "str | None"], "tuple[dict[str, Any], Any]"]
"""The full check, told which lone argument the fast path refused (None: not one)."""
ValueCheck = Callable[[Any, str], "str | None"]


def _bound(schema: Mapping[str, Any], key: str, fits: Callable[[Any], bool], absent: Any) -> Any:
    value = schema.get(key)
    return value if fits(value) else absent


# -- the quick tests: True means valid, False means "ask the full check" ----------------


def _is_bool(v: Any) -> bool:
    return v is True or v is False


def _is_str(v: Any) -> bool:
    return v.__class__ is str


def _is_int(v: Any) -> bool:
    return v.__class__ is int


def _string_test(allowed: frozenset[str] | None, low: int, high: int) -> Test:
    if allowed is None:

        def sized(v: Any) -> bool:
            return v.__class__ is str and low <= len(v) <= high

        return sized

    def listed(v: Any) -> bool:
        return v.__class__ is str and v in allowed and low <= len(v) <= high

    return listed


def _integer_test(low: float, high: float) -> Test:
    def bounded(v: Any) -> bool:
        return v.__class__ is int and low <= v <= high

    return bounded


def _number_test(low: float, high: float) -> Test:
    finite = math.isfinite

    def bounded(v: Any) -> bool:
        kind = v.__class__
        return (kind is int or (kind is float and finite(v))) and low <= v <= high

    return bounded


def compile_quick_check(schema: Mapping[str, Any]) -> Test | None:
    """A one-call test that accepts the common valid values of a simple property.

    True means valid; False means "ask the full check", which names the problem (or
    accepts a rarer valid value, such as a str subclass). None when the property is not
    simple enough (only one of string, integer, number or boolean, with enum, bounds or
    lengths).
    """
    kind = schema.get("type")
    if kind not in ("string", "integer", "number", "boolean") or not _QUICK.issuperset(
        CONSTRAINING.intersection(schema)
    ):
        return None
    enum: Any = schema.get("enum")
    if kind == "boolean":
        return None if enum is not None else _is_bool
    if kind == "string":
        if enum is not None and not all(isinstance(e, str) for e in cast("list[Any]", enum)):
            return None
        allowed = None if enum is None else frozenset(cast("list[str]", enum))
        low = _bound(schema, "minLength", is_integer, 0)
        high = _bound(schema, "maxLength", is_integer, sys.maxsize)
        if allowed is None and low == 0 and high == sys.maxsize:
            return _is_str
        return _string_test(allowed, low, high)
    if enum is not None:
        return None
    low = _bound(schema, "minimum", is_number, -math.inf)
    high = _bound(schema, "maximum", is_number, math.inf)
    if kind == "number":
        return _number_test(low, high)
    if low == -math.inf and high == math.inf:
        return _is_int
    return _integer_test(low, high)


def _by_value_check(check: ValueCheck, key: str, fix: Callable[[Any], Any] | None) -> Test:
    """The test of a property without a quick one: its full value check, and, when it has
    a fix, a value the fix leaves as it is (a whole-number float for an integer is the
    full check's to turn into an int). Null is never accepted here: the full check drops
    it."""
    if fix is None:

        def checked(v: Any) -> bool:
            return v is not None and check(v, key) is None

        return checked

    def checked_unfixed(v: Any) -> bool:
        return v is not None and check(v, key) is None and fix(v) is v

    return checked_unfixed


def _present(v: Any) -> bool:
    """A required argument the tool does not declare: only its presence is checked."""
    return True


class FastPath:
    """The quick tests of one tool's properties and, in front of its full check, the fast
    check built from them."""

    __slots__ = ("optional", "properties", "required", "tests")

    def __init__(
        self,
        properties: Mapping[str, Mapping[str, Any]],
        required: tuple[str, ...],
        value_checks: Mapping[str, ValueCheck],
        fixes: Mapping[str, Callable[[Any], Any]] | None = None,
    ) -> None:
        self.properties = properties
        self.tests: dict[str, Test] = {}
        for key, schema in properties.items():
            test = compile_quick_check(schema)
            if test is not None:
                self.tests[key] = test
        wanted = set(required)
        needed: list[tuple[str, Test]] = []
        optional: list[tuple[str, Test]] = []
        for key in properties:
            test = self.tests.get(key) or _by_value_check(
                value_checks[key], key, (fixes or {}).get(key)
            )
            (needed if key in wanted else optional).append((key, test))
        needed += [(key, _present) for key in required if key not in properties]
        self.required = tuple(needed)
        """``(key, test)`` of each required argument, checked present and not blank too."""
        self.optional = tuple(optional)
        """``(key, test)`` of each optional argument, checked when present."""

    def check(
        self,
        closed: bool,
        full: FullCheck,
        fill: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
        defaulted: tuple[str, ...] = (),
    ) -> ArgumentCheck:
        """The check a tool runs: the fast path in front of ``full``.

        Accepts (returning ``(args, None)``) only when ``full`` would, with the arguments
        unchanged: no unknown key when ``closed``, every required key present and not
        blank, and every key present passing its test. Anything else is ``full(args,
        lone)``, ``lone`` naming the one argument the tests refused when every other
        passed them (so ``full`` need not look for other errors), else None. With
        ``fill`` (the tool has defaults, which ``full`` fills in too), an accepted call
        missing one of the ``defaulted`` arguments returns ``fill(args)``; a call sending
        them all pays one ``in`` test per default.
        """
        known = frozenset(self.properties) if closed else None
        required, optional = self.required, self.optional

        def fast_check(args: dict[str, Any]) -> tuple[dict[str, Any], Any]:
            if known is not None and not known.issuperset(args):
                return full(args, None)
            refused = None
            for key, test in required:
                v = args.get(key)
                if v is None or (v.__class__ is str and not v.strip()) or not test(v):
                    if refused is not None:
                        return full(args, None)
                    refused = key
            for key, test in optional:
                v = args.get(key, _ABSENT)
                if v is not _ABSENT and not test(v):
                    if refused is not None:
                        return full(args, None)
                    refused = key
            if refused is not None:
                return full(args, refused)
            if fill is not None:
                for key in defaulted:
                    if key not in args:
                        return fill(args), None
            return args, None

        return fast_check
