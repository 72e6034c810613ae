"""Property: whatever arrives and whatever the handler does, a tool answers with a str."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import inspect
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kit_core import array_arg, int_arg, object_arg, str_arg, tool
from kit_core._argument_check import compile_arguments
from kit_core._quick import compile_quick_check
from kit_core._value_checks import compile_value_check

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@dataclasses.dataclass
class Record:
    name: str
    payload: Any


class Opaque:
    pass


odd_values = st.one_of(
    st.builds(Opaque),
    st.binary(max_size=8),
    st.sets(st.integers(), max_size=3),
    st.tuples(st.integers(), st.text(max_size=3)),
    st.datetimes(),
    st.builds(Record, st.text(max_size=5), json_values),
    st.dictionaries(st.tuples(st.integers()), st.integers(), min_size=1, max_size=2),
    st.just(float("nan")),
)
anything = json_values | odd_values | st.text(max_size=30).map(lambda s: "{" + s)

exceptions = st.sampled_from(
    [ValueError, KeyError, RuntimeError, TypeError, SystemExit, ZeroDivisionError]
)

outcomes = st.one_of(
    st.tuples(st.just("return"), json_values | odd_values),
    st.tuples(st.just("text"), st.text(max_size=30)),
    st.tuples(st.just("raise"), st.tuples(exceptions, st.text(max_size=30))),
)

PARAMS = {
    "q": str_arg("Query", required=True, example="x"),
    "n": int_arg("Count", minimum=0, maximum=10),
    "tags": array_arg("Tags", items=str_arg("tag")),
    "opts": object_arg("Options", properties={"deep": int_arg("Depth", required=True)}),
}


def behave(outcome: tuple[str, Any]) -> Any:
    kind, value = outcome
    if kind == "raise":
        exc_type, text = value
        raise exc_type(text)
    return value


def check(out: Any, outcome: tuple[str, Any]) -> None:
    assert isinstance(out, str)
    returned_text = outcome[0] in {"text", "return"} and isinstance(outcome[1], str)
    if returned_text and not out.startswith('{"success": false'):
        assert out == outcome[1]  # a str result reaches hermes as it is
        return
    parsed = json.loads(out)
    assert isinstance(parsed, dict)
    assert isinstance(parsed["success"], bool)
    if parsed["success"] is False:
        assert isinstance(parsed["error"], str)
        assert parsed["error_code"] in {
            "missing_argument",
            "invalid_argument",
            "handler_error",
            "result_not_serializable",
        }


@settings(max_examples=300, deadline=None)
@given(
    raw=st.none()
    | anything
    | st.dictionaries(st.sampled_from(["q", "n", "tags", "opts", "x"]), anything),
    outcome=outcomes,
)
def test_sync_tools_always_answer_with_a_str_and_never_raise(
    raw: Any, outcome: tuple[str, Any]
) -> None:
    @tool(toolset="tests", name="prop_sync", params=PARAMS)
    def handler(args: dict[str, Any], **kwargs: Any) -> object:
        """Property handler."""
        return behave(outcome)

    check(handler(raw, session_id=raw, task_id=outcome), outcome)


@settings(max_examples=100, deadline=None)
@given(raw=st.none() | anything, outcome=outcomes, validate=st.booleans())
def test_async_tools_always_answer_with_a_str_and_never_raise(
    raw: Any, outcome: tuple[str, Any], validate: bool
) -> None:
    @tool(toolset="tests", name="prop_async", params=PARAMS, validate_required=validate)
    async def handler(args: Any, **kwargs: Any) -> Any:
        """Property handler."""
        await asyncio.sleep(0)
        return behave(outcome)

    check(asyncio.run(handler(raw)), outcome)


@settings(max_examples=200, deadline=None)
@given(value=(json_values | st.datetimes() | st.dates()).filter(lambda v: not isinstance(v, str)))
def test_encodable_results_round_trip_as_data(value: Any) -> None:
    @tool(toolset="tests", name="prop_round_trip")
    def handler(args: dict[str, Any], **kwargs: Any) -> object:
        """Return the value."""
        return value

    out = json.loads(handler({}))
    if out["success"]:
        expected = value.isoformat() if isinstance(value, dt.date) else value
        assert json.dumps(out["data"], sort_keys=True) == json.dumps(expected, sort_keys=True)
    else:
        # only NaN and infinities are refused among JSON-like values
        assert out["error_code"] == "result_not_serializable"
        assert "Out of range float" in out["error"]


simple_schemas = st.one_of(
    st.fixed_dictionaries(
        {"type": st.just("string")},
        optional={
            "enum": st.lists(st.text(max_size=3), min_size=1, max_size=3),
            "minLength": st.integers(0, 3),
            "maxLength": st.integers(0, 5),
        },
    ),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["integer", "number"])},
        optional={"minimum": st.integers(-5, 5) | st.floats(-5, 5), "maximum": st.integers(-5, 5)},
    ),
    st.just({"type": "boolean"}),
)


@settings(max_examples=300, deadline=None)
@given(schema=simple_schemas, value=json_values | st.integers(-10, 10) | st.floats(-10, 10))
def test_the_quick_check_never_accepts_what_the_full_check_refuses(
    schema: dict[str, Any], value: Any
) -> None:
    quick = compile_quick_check(schema)
    assert quick is not None
    full = compile_value_check(schema)(value, "v")
    if quick(value):
        assert full is None


# -- integers: the fast path and the full check agree on whole-number floats ---------------

integer_schemas = st.one_of(
    st.fixed_dictionaries(
        {"type": st.just("integer")},
        optional={"minimum": st.integers(-3, 3), "maximum": st.integers(0, 9)},
    ),
    st.builds(lambda values: {"type": "integer", "enum": values}, st.just([0, 1, 2])),
    st.just({"type": ["integer", "string"]}),
    st.just({"type": ["integer", "number"]}),
    st.just({"type": "array", "items": {"type": "integer"}}),
    st.just({"type": "object", "properties": {"n": {"type": "integer"}}}),
    st.just({"type": "object", "properties": {}, "additionalProperties": {"type": "integer"}}),
)
numbers = st.integers(-4, 10) | st.integers(-4, 10).map(float) | st.floats(-4, 10)
integer_values = st.one_of(
    numbers,
    st.lists(numbers, max_size=3),
    st.dictionaries(st.sampled_from(["n", "m"]), numbers, max_size=2),
    st.text(max_size=2),
)


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    schemas=st.dictionaries(st.sampled_from(["a", "b"]), integer_schemas, min_size=1),
    args=st.dictionaries(st.sampled_from(["a", "b"]), integer_values),
)
def test_the_fast_path_and_the_full_check_agree_on_whole_number_floats(
    schemas: dict[str, Any], args: dict[str, Any]
) -> None:
    """Both accept a whole-number float for an integer and hand it on as an int (the fast
    path leaves such a call to the full check), refuse a fraction alike, and never change
    what the caller sent."""
    check = compile_arguments({"type": "object", "properties": schemas}, {})
    full = inspect.getclosurevars(check).nonlocals["full"]  # the full check behind the fast path
    sent = repr(args)
    fast_args, fast_refused = check(dict(args))
    full_args, full_refused = full(dict(args), None)
    assert repr(args) == sent
    assert (fast_refused is None) is (full_refused is None)
    if full_refused is None:
        assert repr(fast_args) == repr(full_args)  # 5 == 5.0: repr tells them apart
        for key, value in full_args.items():
            if schemas.get(key, {}).get("type") == "integer" and isinstance(value, int | float):
                assert type(value) is int
    else:
        assert fast_refused is not None
        assert fast_refused.message == full_refused.message
