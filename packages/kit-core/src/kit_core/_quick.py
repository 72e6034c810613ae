"""The fast path of an argument check: straight-line code for the common call.

The full check (:func:`kit_core._checks.compile_arguments`) names every problem, but
for a call whose simple arguments are all valid it is still a loop with a function
call per value. Once per tool, this module writes a function that tests the same
things inline and hands every other call to the full check. It never refuses anything
itself, so every message still comes from the full check, and it accepts only what the
full check accepts, returning the arguments unchanged.

The source is built from fixed templates and generated identifiers only: argument
names, bounds and enums reach the function as constants of its namespace, never as
source text. Compiled code is shared by every property or tool of the same shape.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from types import CodeType, FunctionType
from typing import Any, Final, cast

__all__ = ["CONSTRAINING", "FastPath", "compile_quick_check", "quick_condition"]

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
_BUILTINS: Final[dict[str, Any]] = {  # the only names generated code finds beyond its own
    "STR": str,
    "INT": int,
    "FLOAT": float,
    "LEN": len,
    "ISFINITE": math.isfinite,
}
_ABSENT: Final = object()


def _is_integer(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    if isinstance(v, bool):
        return False
    return isinstance(v, int) or (isinstance(v, float) and math.isfinite(v))


def quick_condition(schema: Mapping[str, Any], n: int) -> tuple[str, dict[str, Any]] | None:
    """The quick test of a simple property as a Python expression over ``v``, and the
    constants it names (suffixed with ``n``); None when the property is not simple (only
    one of string, integer, number or boolean, with enum, bounds or lengths).

    True means valid; False means "ask the full check", which names the problem or
    accepts a rarer valid value (a ``str`` subclass, say).
    """
    kind = schema.get("type")
    if kind not in ("string", "integer", "number", "boolean") or not _QUICK.issuperset(
        CONSTRAINING.intersection(schema)
    ):
        return None
    enum: Any = schema.get("enum")
    if kind == "boolean":
        return None if enum is not None else ("(v is True or v is False)", {})
    parts: list[str] = []
    constants: dict[str, Any] = {}
    if kind == "string":
        if enum is not None and not all(isinstance(e, str) for e in cast("list[Any]", enum)):
            return None
        parts.append("v.__class__ is STR")
        if enum is not None:
            parts.append(f"v in ALLOWED{n}")
            constants[f"ALLOWED{n}"] = frozenset(cast("list[str]", enum))
        for key, test in (("minLength", "LEN(v) >= {}"), ("maxLength", "LEN(v) <= {}")):
            if _is_integer(schema.get(key)):
                parts.append(test.format(f"{key.upper()}{n}"))
                constants[f"{key.upper()}{n}"] = schema[key]
        return " and ".join(parts), constants
    if enum is not None:
        return None
    if kind == "integer":
        parts.append("v.__class__ is INT")
    else:
        parts.append("(v.__class__ is INT or (v.__class__ is FLOAT and ISFINITE(v)))")
    for key, test in (("minimum", "v >= {}"), ("maximum", "v <= {}")):
        if _is_number(schema.get(key)):
            parts.append(test.format(f"{key.upper()}{n}"))
            constants[f"{key.upper()}{n}"] = schema[key]
    return " and ".join(parts), constants


@functools.lru_cache(maxsize=256)
def _function_code(source: str) -> CodeType:
    module = compile(source, "<kit_core fast path>", "exec")
    return next(c for c in module.co_consts if isinstance(c, CodeType))


def _quick_function(condition: str, namespace: dict[str, Any]) -> Callable[[Any], bool]:
    return FunctionType(_function_code(f"def quick(v):\n    return {condition}\n"), namespace)


def compile_quick_check(schema: Mapping[str, Any]) -> Callable[[Any], bool] | None:
    """A one-call test that accepts the common valid values of a simple property.

    True means valid; False means "ask the full check", which names the problem (or
    accepts a rarer valid value, such as a str subclass). None when the property is not
    simple enough (only one of string, integer, number or boolean, with enum, bounds or
    lengths).
    """
    found = quick_condition(schema, 0)
    if found is None:
        return None
    condition, constants = found
    return _quick_function(condition, {"__builtins__": _BUILTINS, **constants})


ArgumentCheck = Callable[[dict[str, Any]], "tuple[dict[str, Any], Any]"]
ValueCheck = Callable[[Any, str], "str | None"]


class FastPath:
    """The quick conditions of one tool's properties and, in front of its full check, the
    fast check built from them, with one namespace of constants."""

    __slots__ = ("conditions", "namespace", "properties")

    def __init__(self, properties: Mapping[str, Mapping[str, Any]]) -> None:
        self.properties = properties
        self.namespace: dict[str, Any] = {"__builtins__": _BUILTINS, "ABSENT": _ABSENT}
        self.conditions: dict[str, str] = {}
        for n, (key, schema) in enumerate(properties.items()):
            found = quick_condition(schema, n)
            if found is not None:
                self.conditions[key], constants = found
                self.namespace.update(constants)

    def check(
        self,
        required: tuple[str, ...],
        closed: bool,
        value_checks: Mapping[str, ValueCheck],
        full: ArgumentCheck,
        fill: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
        defaulted: tuple[str, ...] = (),
        fixes: Mapping[str, Callable[[Any], Any]] | None = None,
    ) -> ArgumentCheck:
        """The check a tool runs: the fast path in front of ``full``.

        Accepts (returning ``(args, None)``) only when ``full`` would, with the arguments
        unchanged: no unknown key when ``closed``, every required key present and not
        blank, and every known key present passing its quick test (or, for a property
        without one, its full value check, and, when ``fixes`` has one for it, a value its
        fix leaves as it is: a whole-number float for an integer is ``full``'s to turn into
        an int; a quick test accepts only a real int for an integer). Anything else is
        ``full(args)``. With ``fill`` (the tool has defaults, which
        ``full`` fills in too), an accepted call missing one of the ``defaulted`` arguments
        returns ``fill(args)``; a call sending them all pays one ``in`` test per default.
        """
        constants = self.namespace
        constants["FULL"] = full
        lines = ["def fast_check(args):"]
        lines += self._tests(required, closed, value_checks, fixes, "return FULL(args)", "")
        if fill is not None:
            constants["FILL"] = fill
            for n, key in enumerate(defaulted):
                constants[f"D{n}"] = key
                lines += [f"    if D{n} not in args:", "        return FILL(args), None"]
        lines.append("    return args, None")
        return FunctionType(_function_code("\n".join(lines) + "\n"), constants)

    def others_pass(
        self,
        required: tuple[str, ...],
        closed: bool,
        value_checks: Mapping[str, ValueCheck],
        fixes: Mapping[str, Callable[[Any], Any]] | None = None,
    ) -> Callable[[dict[str, Any], str], bool]:
        """``(args, skip)``: True when the call has nothing the fast check refuses but in
        the argument ``skip`` (a refused call's first error), so the full search of its
        other errors is not needed; False asks for it. Written when a call is first
        refused, with the fast check's tests."""
        lines = ["def others_pass(args, skip):"]
        lines += self._tests(required, closed, value_checks, fixes, "return False", "skip")
        lines.append("    return True")
        return FunctionType(_function_code("\n".join(lines) + "\n"), self.namespace)

    def _tests(
        self,
        required: tuple[str, ...],
        closed: bool,
        value_checks: Mapping[str, ValueCheck],
        fixes: Mapping[str, Callable[[Any], Any]] | None,
        fail: str,
        skip: str,
    ) -> list[str]:
        """The fast check's tests, each ``fail`` when it does not hold (with ``skip``, the
        name of an argument whose test is left out)."""
        constants = self.namespace
        lines: list[str] = []
        if closed:
            lines += ["    if not KNOWN.issuperset(args):", f"        {fail}"]
            constants["KNOWN"] = frozenset(self.properties)
        wanted = set(required)
        for n, key in enumerate(self.properties):
            condition = self.conditions.get(key)
            if condition is None:  # null is never accepted here: the full check drops it
                condition = f"v is not None and CHECK{n}(v, K{n}) is None"
                constants[f"CHECK{n}"] = value_checks[key]
                fix = (fixes or {}).get(key)
                if fix is not None:
                    condition += f" and FIX{n}(v) is v"
                    constants[f"FIX{n}"] = fix
            constants[f"K{n}"] = key
            if key in wanted:
                lines.append(f"    v = args.get(K{n})")
                test = f"v is None or (v.__class__ is STR and not v.strip()) or not ({condition})"
            else:
                lines.append(f"    v = args.get(K{n}, ABSENT)")
                test = f"v is not ABSENT and not ({condition})"
            if skip:
                test = f"({test}) and {skip} != K{n}"
            lines += [f"    if {test}:", f"        {fail}"]
        for n, key in enumerate(k for k in required if k not in self.properties):
            lines.append(f"    v = args.get(R{n})")  # required but undeclared: only present
            lines.append("    if v is None or (v.__class__ is STR and not v.strip()):")
            lines.append(f"        {fail}")
            constants[f"R{n}"] = key
        return lines
