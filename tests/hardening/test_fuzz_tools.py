"""Fuzzing tools: whatever the model sends and whatever the handler does, a str comes back.

Also checks that the kit's fast paths are exact: the straight-line argument check agrees
with the full check on every input, and the pre-filtered secret pattern redacts exactly
what the plain pattern does.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import inspect
import json
import math
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kit_core import (
    ToolDefinitionError,
    arg,
    array_arg,
    bool_arg,
    int_arg,
    number_arg,
    object_arg,
    str_arg,
    tool,
)
from kit_core._argument_check import compile_arguments
from kit_core._shapes import catalogue, merge_spans
from kit_core.redaction import redact_text

HARDENING = settings(parent=settings.get_profile("hpk-hardening"))

# -- what a model (or a confused caller) may send ----------------------------------------


class Weird:
    """An object whose every text form fails."""

    def __repr__(self) -> str:
        raise RuntimeError("repr failed")

    def __str__(self) -> str:
        raise RuntimeError("str failed")


class Shout(str):
    """A str subclass (JSON decoders never make one, Python callers may)."""


def nested(depth: int, leaf: Any) -> Any:
    value = leaf
    for level in range(depth):
        value = [value] if level % 2 else {"deeper": value}
    return value


text = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=40)
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(0, 1000).map(lambda k: 10**4400 + k)  # too long to print
    | st.floats()
    | text
    | st.binary(max_size=16)
    | st.just("   ")
    | st.builds(Shout, st.text(max_size=8))
    | st.builds(Weird)
    | st.datetimes()
)
json_like = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=10,
)
json_text = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=10,
).map(json.dumps)
huge = st.tuples(st.sampled_from(["x", "token=y", "-"]), st.integers(1_000, 200_000)).map(
    lambda unit_count: unit_count[0] * unit_count[1]
)
deep = st.integers(min_value=1, max_value=3000).map(lambda d: nested(d, "leaf"))
deep_json = st.integers(min_value=1, max_value=5000).map(
    lambda d: '{"q": ' + "[" * d + "]" * d + "}"
)
arguments = st.one_of(
    json_like,
    st.dictionaries(
        st.sampled_from(["q", "n", "ratio", "flag", "tags", "opts", "maybe", "mixed"]),
        json_like | huge | deep,
        max_size=8,
    ),
    json_text,
    st.text(max_size=30).map(lambda s: "{" + s),
    deep_json,
    huge,
)

# -- what a handler may do ------------------------------------------------------------------


async def _pending() -> int:
    return 1


outcomes = st.one_of(
    st.tuples(st.just("return"), json_like),
    st.tuples(
        st.just("return"), st.sampled_from([float("nan"), {1, 2}, (1, "a"), dt.date(2020, 1, 1)])
    ),
    st.tuples(st.just("text"), st.text(max_size=30)),
    st.tuples(
        st.just("raise"),
        st.sampled_from([ValueError, KeyError, RuntimeError, SystemExit, RecursionError]),
    ),
    st.tuples(st.just("coroutine"), st.none()),
    st.tuples(st.just("cycle"), st.none()),
)


def behave(outcome: tuple[str, Any]) -> Any:
    kind, value = outcome
    if kind == "raise":
        raise value("handler failed on purpose")
    if kind == "coroutine":
        return _pending()
    if kind == "cycle":
        loop: list[Any] = []
        loop.append(loop)
        return loop
    return value


PARAMS = {
    "q": str_arg("Query", required=True, example="x", min_length=1),
    "n": int_arg("Count", minimum=0, maximum=10),
    "ratio": number_arg("Ratio", minimum=0, maximum=1),
    "flag": bool_arg("Flag"),
    "tags": array_arg("Tags", items=str_arg("Tag", enum=["a", "b"]), max_items=3),
    "opts": object_arg("Options", properties={"deep": int_arg("Depth", required=True)}),
    "maybe": arg(["string", "null"], "Maybe", pattern="^[a-z]*$"),
    "mixed": arg(["integer", "string"], "Mixed"),
}
CURRENT: dict[str, tuple[str, Any]] = {}


@tool(toolset="hardening", params=PARAMS)
def fuzz_sync(args: dict[str, Any], **kwargs: Any) -> object:
    """A tool whose behaviour the test picks."""
    return behave(CURRENT["outcome"])


@tool(toolset="hardening", params=PARAMS)
async def fuzz_async(args: dict[str, Any], **kwargs: Any) -> object:
    """The same, async."""
    return behave(CURRENT["outcome"])


def check_answer(answer: object, outcome: tuple[str, Any]) -> None:
    assert isinstance(answer, str)
    returned_text = outcome[0] in {"text", "return"} and isinstance(outcome[1], str)
    if returned_text and not answer.startswith('{"success": false'):
        assert answer == outcome[1]  # a str result reaches hermes as it is
        return
    parsed = json.loads(answer)
    assert isinstance(parsed, dict)
    if parsed.get("success") is False:
        assert isinstance(parsed["error"], str)
        assert parsed["error"]
        assert parsed["error_code"] in {
            "missing_argument",
            "invalid_argument",
            "handler_error",
            "result_not_serializable",
        }


@HARDENING
@given(
    args=arguments,
    outcome=outcomes,
    context=st.dictionaries(
        st.sampled_from(["task_id", "session_id", "user_task"]), scalars, max_size=3
    ),
)
def test_a_tool_always_answers_with_a_str(
    args: Any, outcome: tuple[str, Any], context: dict[str, Any], tally: Any
) -> None:
    CURRENT["outcome"] = outcome
    check_answer(fuzz_sync(args, **context), outcome)
    check_answer(asyncio.run(fuzz_async(args, **context)), outcome)
    tally.fuzz("tool arguments", 2)


# -- the fast argument check is exact ---------------------------------------------------------

specs = st.one_of(
    st.builds(
        lambda req, enum, low, high: str_arg(
            "s", required=req, enum=enum, min_length=low, maxLength=high
        ),
        st.booleans(),
        st.none() | st.lists(st.sampled_from(["a", "b", "", " c"]), min_size=1, unique=True),
        st.none() | st.integers(0, 3),
        st.none() | st.integers(0, 5),
    ),
    st.builds(
        lambda req, low, high: int_arg("i", required=req, minimum=low, maximum=high),
        st.booleans(),
        st.none() | st.integers(-5, 5) | st.floats(-5, 5),
        st.none() | st.integers(-5, 50),
    ),
    st.builds(
        lambda req, low: number_arg("n", required=req, minimum=low),
        st.booleans(),
        st.none() | st.floats(-1, 1),
    ),
    st.builds(lambda req: bool_arg("b", required=req), st.booleans()),
    st.builds(lambda req: array_arg("a", items=int_arg("x"), required=req), st.booleans()),
    st.builds(lambda req: arg(["string", "null"], "m", required=req), st.booleans()),
    st.builds(lambda req: arg(["integer", "string"], "u", required=req), st.booleans()),
    st.builds(lambda req: arg(["integer", "number"], "w", required=req), st.booleans()),
    st.builds(lambda req: int_arg("e", required=req, enum=[0, 1, 2]), st.booleans()),
    st.builds(lambda req: object_arg("o", required=req), st.booleans()),
    st.builds(
        lambda req: object_arg("p", required=req, properties={"n": int_arg("n")}), st.booleans()
    ),
)
whole = st.integers(-3, 60).map(float)  # 5.0: an integer to JSON Schema, an int to the handler
values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10, 60),
    st.floats(allow_nan=True, allow_infinity=True),
    whole,
    st.sampled_from(["a", "b", "", "   ", " c", "hello", "a" * 9]),
    st.builds(Shout, st.sampled_from(["a", "b", "zz"])),
    st.lists(st.integers(-3, 3) | st.text(max_size=2) | whole | st.floats(-3, 3), max_size=3),
    st.dictionaries(st.text(max_size=3) | st.just("n"), st.integers() | whole, max_size=2),
)


@HARDENING
@given(
    params=st.dictionaries(st.sampled_from(["p", "q", "r", "s"]), specs, max_size=4),
    closed=st.booleans(),
    args=st.dictionaries(st.sampled_from(["p", "q", "r", "s", "extra"]), values, max_size=5),
)
def test_the_fast_check_agrees_with_the_full_check(
    params: dict[str, Any], closed: bool, args: dict[str, Any], tally: Any
) -> None:
    properties = {key: spec.to_schema() for key, spec in params.items()}
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    required = [key for key, spec in params.items() if spec.required]
    if required:
        parameters["required"] = required
    if closed:
        parameters["additionalProperties"] = False
    check = compile_arguments(parameters, {})
    full = inspect.getclosurevars(check).nonlocals["full"]  # the full check behind the fast path

    def outcome(found: tuple[dict[str, Any], Any]) -> tuple[Any, ...]:
        kept, rejection = found
        if rejection is None:
            return (repr(kept),)  # repr: 5 and 5.0 are equal, and must not pass for each other
        return (rejection.code, rejection.argument, rejection.message)

    sent = repr(args)
    fast_result, full_result = check(dict(args)), full(dict(args), None)
    assert outcome(fast_result) == outcome(full_result)
    assert repr(args) == sent  # neither changes what the caller sent
    tally.fuzz("argument checks (fast against full)")


# -- supplied schemas ------------------------------------------------------------------------

schema_parts = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.text(max_size=6)
    | st.sampled_from(["object", "string", "integer", "array"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "properties",
                    "required",
                    "items",
                    "enum",
                    "minimum",
                    "maximum",
                    "minLength",
                    "pattern",
                    "anyOf",
                    "nullable",
                    "additionalProperties",
                    "description",
                    "examples",
                    "x",
                ]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)
supplied = st.one_of(
    schema_parts,
    st.builds(
        lambda props, required, extra: {
            "description": "Supplied.",
            "parameters": {"type": "object", "properties": props, "required": required, **extra},
        },
        st.dictionaries(
            st.sampled_from(["a", "b", "c"]),
            st.dictionaries(
                st.sampled_from(
                    [
                        "type",
                        "enum",
                        "minimum",
                        "maximum",
                        "minLength",
                        "pattern",
                        "items",
                        "examples",
                        "properties",
                        "required",
                    ]
                ),
                schema_parts,
                max_size=3,
            ),
            max_size=3,
        ),
        st.lists(st.sampled_from(["a", "b", "c"]), max_size=2, unique=True),
        st.dictionaries(st.just("additionalProperties"), schema_parts, max_size=1),
    ),
)


@HARDENING
@given(schema=supplied, args=arguments, validate=st.booleans())
def test_a_supplied_schema_is_refused_clearly_or_works(
    schema: Any, args: Any, validate: bool, tally: Any
) -> None:
    def handler(args: dict[str, Any], **kwargs: Any) -> object:
        return {"got": sorted(map(str, args))}

    tally.fuzz("supplied schemas")
    try:
        decorated = tool(
            toolset="hardening", name="supplied_schema", schema=schema, validate_required=validate
        )(handler)
    except ToolDefinitionError as exc:
        refusal = str(exc)
    else:
        assert isinstance(decorated(args, session_id="s"), str)
        return
    assert refusal.startswith(("tool 'supplied_schema'", "@tool 'supplied_schema'"))


# -- the fast scanner finds exactly what the plain patterns find -----------------------------

FRAGMENTS = [
    "sk-", "sk_live_", "rk_test_", "ghp_", "github_pat_", "glpat-", "xoxb-", "xapp-", "AKIA",
    "ASIA", "AIza", "hf_", "npm_", "ya29.", "pypi-AgE", "eyJ", ".", ":AA", "%3AAA",
    "123456789", "Bearer ", "bearer\t", "BEARER ", "Basic ", "basic ", "token", "TOKEN",
    "\u017fecret", "pa\u017f\u017fword", "pwd", "api_key", "Api-Key", "apiKey", "access_token",
    "auth-token", "author", "Authorization", "cookie", "passphrase", "credentials", "private key",
    "?key=", "&sig=", "://", "user:pw@", "@", "=", ": ", '"', "'", " ", ";", "&",
    "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----", "\n", "\r",
    "abcdefghijklmnopqrstuvwxyz0123456789", "ABCDEFGHIJKLMNOP", "dXNlcjpwYXNz", "_", "-",
    "\u0663\u0664\u0665\u0666\u0667\u0668", "\u00e9", "\u0130", "\u212a", "\ud800",
]  # fmt: skip
PLAIN_PATTERNS = [
    re.compile(shape.pattern, re.ASCII | (re.IGNORECASE if shape.folded else 0))
    for shape in catalogue()
]


def plain_redaction(text: str) -> str:
    """Every shape's pattern run over ``text`` itself (case-insensitively where the scanner
    folds), the union of what they find masked: no pre-filter, no folded copy."""
    spans: list[tuple[int, int]] = []
    for pattern in PLAIN_PATTERNS:
        group = pattern.groupindex.get("secret", 0)
        spans.extend(m.span(group) for m in pattern.finditer(text))
    shown, last = [], 0
    for start, end in merge_spans(spans):
        shown += [text[last:start], "***"]
        last = end
    return "".join([*shown, text[last:]])


@HARDENING
@given(sample=st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=4), max_size=14).map("".join))
def test_redaction_matches_the_plain_patterns(sample: str, tally: Any) -> None:
    assert redact_text(sample) == plain_redaction(sample)
    tally.fuzz("redaction texts")


@pytest.mark.parametrize("size", [10, 10_000, 1_000_000])
def test_huge_arguments_are_answered(size: int, tally: Any) -> None:
    CURRENT["outcome"] = ("return", {"ok": True})
    huge_args = {"q": "token=" + "z" * size, "n": "not a number " * (size // 13 + 1)}
    answer = json.loads(fuzz_sync(huge_args))
    assert answer["error_code"] == "invalid_argument"
    assert len(answer["error"]) < 400  # the value is quoted short, not echoed whole
    assert math.isfinite(len(answer["error"]))
    tally.fuzz("tool arguments")
