"""Compile a tool's ``parameters`` schema into a fast per-call argument check.

A check is compiled once, when the tool is decorated; a call then costs a few
dict look-ups and type tests. Problems are reported as :class:`Rejection`, whose
message names the argument, what was expected and what arrived.
"""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Callable, Mapping
from typing import Any, Final, cast

from kit_core._quick import FastPath
from kit_core._snapshot import ATOMS, deep_copy
from kit_core.redaction import is_secret_key, redact_preview

# A value check returns None when the value is fine, else "<what was expected>; got <what arrived>".
ValueCheck = Callable[[Any, str], "str | None"]

MISSING: Final = "missing_argument"
INVALID: Final = "invalid_argument"
ECHO_CHARS: Final = 40
"""The most of anything the caller sent (a value, an unknown key) that an error quotes."""


Problem = tuple[str, str, str, str]
"""One argument error: its JSON path (``filters.tags[2]``), the rule it breaks (the JSON
Schema keyword: ``required``, ``type``, ``minimum`` …, or ``unknown``), its message, and a
tail the message shares with others (``This tool accepts: …``), written once."""

MAX_LISTED: Final = 5
"""The most errors a rejection spells out; the rest are named in a summary."""
EXTRA_CHARS: Final = 800
"""The most characters a rejection's message adds after its first error."""


class Rejection:
    """Why a call was refused before its handler ran: the first error (``message``, the
    text a one-error call has always had) and, when the call has several, each listed
    one as ``(argument path, rule, message)`` in ``errors`` (the first one first)."""

    __slots__ = ("argument", "code", "errors", "listed_reason", "message")

    def __init__(
        self,
        code: str,
        argument: str,
        message: str,
        errors: tuple[tuple[str, str, str], ...] = (),
        listed_reason: str = "",
    ) -> None:
        self.code = code
        self.argument = argument
        self.message = message
        self.errors = errors
        self.listed_reason = listed_reason

    def __repr__(self) -> str:
        return (
            f"Rejection(code={self.code!r}, argument={self.argument!r}, message={self.message!r})"
        )

    @property
    def reason(self) -> str:
        """A short log phrase, e.g. ``missing thread_id`` (``missing thread_id, invalid
        limit`` for several errors)."""
        return (
            self.listed_reason
            or f"{'missing' if self.code == MISSING else 'invalid'} {self.argument}"
        )


_JSON_NAMES: Final[dict[type, str]] = {
    str: "string",
    bool: "boolean",
    int: "integer",
    float: "number",
    list: "array",
    tuple: "array",
    dict: "object",
    type(None): "null",
}


def describe_value(value: Any, secret: bool = False) -> str:
    """How an arrived value is quoted in an error: its JSON type and a short preview."""
    cls: type[object] = type(value)  # pyright: ignore[reportUnknownVariableType]
    kind = _JSON_NAMES.get(cls) or cls.__name__
    if secret:
        return f"{kind} (value hidden)"
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        if isinstance(value, str):
            # cut before repr: the work and the quote are bounded whatever the size
            return f"{kind} {redact_preview(repr(value[: 2 * ECHO_CHARS]), ECHO_CHARS)}"
        try:
            preview = repr(value)
        except ValueError:  # an int too long to print (sys.get_int_max_str_digits)
            return f"{kind} of {value.bit_length()} bits" if isinstance(value, int) else kind
        return f"{kind} {redact_preview(preview, ECHO_CHARS)}"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return kind


def short_name(key: object) -> str:
    """An argument name the caller sent, as an error or log line may show it: cut short
    and redacted."""
    name = key if isinstance(key, str) else str(key)
    return redact_preview(name[: 2 * ECHO_CHARS], ECHO_CHARS)


def render_example(value: Any) -> str:
    """An example as the model reads it: strings quoted as Python does, the rest as JSON."""
    if isinstance(value, str):
        return repr(value)
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _is_integer(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_integer_value(v: Any) -> bool:
    """An integer argument: an int, or a float with no fractional part (``5.0``), which JSON
    Schema counts as an integer (and pydantic and FastMCP accept); the check hands it to
    the handler as an int (:func:`compile_whole_numbers`)."""
    return _is_integer(v) or (isinstance(v, float) and v.is_integer())


def _is_number(v: Any) -> bool:
    if isinstance(v, bool):
        return False
    return isinstance(v, int) or (isinstance(v, float) and math.isfinite(v))


_TYPE_TESTS: Final[dict[str, tuple[Callable[[Any], bool], str]]] = {
    "string": (lambda v: isinstance(v, str), "a string"),
    "integer": (_is_integer_value, "an integer"),
    "number": (_is_number, "a finite number"),
    "boolean": (lambda v: isinstance(v, bool), "true or false"),
    "array": (lambda v: isinstance(v, list | tuple), "an array"),
    "object": (lambda v: isinstance(v, dict), "an object"),
    "null": (lambda v: v is None, "null"),
}


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
    steps = [step for _, step in _rule_steps(schema, secret)]
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


def _rule_steps(schema: Mapping[str, Any], secret: bool) -> list[tuple[str, ValueCheck]]:
    """The checks of one value itself (not of its items or properties), in the order
    they are asked, each with the rule it checks."""
    steps: list[tuple[str, ValueCheck]] = []
    types = declared_types(schema)
    tests = [_TYPE_TESTS[t] for t in types if t in _TYPE_TESTS]
    if tests:
        wanted = " or ".join(text for _, text in tests)
        preds = tuple(test for test, _ in tests)

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
            return _replaced(cast("dict[Any, Any]", v), lambda key: keyed.get(key, other))
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
        if _is_number(schema.get(key)):
            limit: Any = schema[key]
            steps.append((key, _bound(limit, op, f"{word} {limit}", shown)))
    sized: tuple[tuple[str, int, str, Any], ...] = (
        ("minLength", 1, "at least {} characters", str),
        ("maxLength", -1, "at most {} characters", str),
        ("minItems", 1, "at least {} items", (list, tuple)),
        ("maxItems", -1, "at most {} items", (list, tuple)),
    )
    for key, size, noun, kinds in sized:
        if _is_integer(schema.get(key)):
            steps.append((key, _length(schema[key], size, noun.format(schema[key]), kinds, shown)))
    if isinstance(schema.get("pattern"), str):
        steps.append(("pattern", _pattern(schema["pattern"], shown)))
    return steps


def _bound(
    limit: float, op: Callable[[Any, Any], bool], text: str, shown: Callable[[Any], str]
) -> ValueCheck:
    # compared as they are: exact for int against float, and no overflow for huge ints
    def check(v: Any, path: str) -> str | None:
        if not _is_number(v) or op(v, limit):
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


def did_you_mean(name: str, known: list[str]) -> str:
    """``; did you mean 'x'?`` for an unknown key spelt close to a known one, else ``.``"""
    import difflib  # here, not at import: only a refused call needs it

    close = difflib.get_close_matches(name[: 2 * ECHO_CHARS], known, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else "."


def accepted(known: list[str]) -> str:
    """`` This tool accepts: a, b``: the names an unknown key is told of."""
    return f" This tool accepts: {', '.join(known)}" if known else " This tool accepts no arguments"


def suggest(name: str, known: list[str]) -> str:
    """A did-you-mean phrase for an unknown key, plus the accepted names."""
    return did_you_mean(name, known) + accepted(known)


def sent_instead(missing: str, args: Mapping[Any, Any], known: frozenset[str]) -> str:
    """A did-you-mean for a missing argument when the call sent an unknown one spelt
    close to it (``minuts`` for ``minutes``), else ``""``. Only a refused call asks."""
    return _instead(missing, args, known)[0]


def _instead(missing: str, args: Mapping[Any, Any], known: frozenset[str]) -> tuple[str, Any]:
    """:func:`sent_instead`'s phrase and the unknown key it names (None without one)."""
    if known.issuperset(args):  # the common case, without a loop
        return "", None
    unknown = [k for k in args if k.__class__ is str and k not in known]
    if not unknown:
        return "", None
    import difflib  # here, not at import: only a refused call needs it

    by_cut = {k[: 2 * ECHO_CHARS]: k for k in unknown}
    close = difflib.get_close_matches(missing, list(by_cut), n=1, cutoff=0.75)
    if not close:
        return "", None
    sent = by_cut[close[0]]
    return f"; got {short_name(sent)!r} instead: did you mean {missing!r}?", sent


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


# -- every error of a refused call ------------------------------------------------------

Collect = Callable[[Any, str, list[Problem]], None]
"""Adds every error of a value (at its path) to a list: one per value (the first rule it
breaks), and those of its items and properties."""


def compile_collector(schema: Mapping[str, Any], secret: bool = False) -> Collect:
    """What finds every error of a value of ``schema``, in the order the check of
    :func:`compile_value_check` meets them (compiled only when a call is refused)."""
    steps = _rule_steps(schema, secret)
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
                hint, sent = _instead(key, v, known_set)
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


def combined(first: Rejection, found: list[Problem]) -> Rejection:
    """``first`` (the first error, as the check found it) with the others ``found``: the
    message keeps ``first``'s text first and adds each other error (``" | "`` between),
    at most :data:`MAX_LISTED` in all and :data:`EXTRA_CHARS` more characters; those past
    either are named in a summary (``and 7 more: a, b, c``)."""
    head = next((p for p in found if p[2] + p[3] == first.message), None)
    rest = [p for p in found if p is not head]
    if not rest:
        return first
    path, rule = (head[0], head[1]) if head else (first.argument, "invalid")
    listed = [(path, rule, first.message)]
    parts = [first.message]
    told = {p[3] for p in found if p[3] and p[3] in first.message}
    budget = EXTRA_CHARS
    left = 0
    for index, (where, why, text, tail) in enumerate(rest):
        if tail and tail not in told:
            text += tail
        piece = f" | {text}"
        if len(listed) >= MAX_LISTED or len(piece) > budget - 40:  # room for the summary
            left = index
            break
        told.add(tail)
        budget -= len(piece)
        listed.append((where, why, text))
        parts.append(piece)
    else:
        left = len(rest)
    unlisted = rest[left:]
    if unlisted:
        names = list(dict.fromkeys(p[0] for p in unlisted))
        summary = f" | and {len(unlisted)} more: "
        shown: list[str] = []
        for name in names:
            if len(summary) + len(", ".join([*shown, name])) + 2 > budget:
                break
            shown.append(name)
        summary += ", ".join(shown) + (" …" if len(shown) < len(names) else "")
        parts.append(summary)
    reason = ", ".join(
        [
            first.reason,
            *(
                f"{'missing' if why == 'required' else 'invalid'} {where}"
                for where, why, _ in listed[1:]
            ),
        ]
    )
    if unlisted:
        reason += f" and {len(unlisted)} more"
    return Rejection(first.code, first.argument, "".join(parts), tuple(listed), reason)


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
                hint, sent = _instead(key, args, known_set)
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
                hint, sent = _instead(key, args, known_set)
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
    return _replaced(args, fixes.get)


def _replaced(found: dict[Any, Any], fix_for: Callable[[Any], Fix | None]) -> dict[Any, Any]:
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


__all__ = [
    "ECHO_CHARS",
    "INVALID",
    "MISSING",
    "ArgumentCheck",
    "Rejection",
    "compile_arguments",
    "compile_value_check",
    "compile_whole_numbers",
    "declared_types",
    "default_filler",
    "describe_value",
    "parse_arguments",
    "render_example",
    "short_name",
]
