"""How results are encoded: every value JSON lacks a type for, and what cannot be encoded."""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import enum
import json
import uuid
from pathlib import PurePosixPath
from typing import Any

import pytest

from kit_core import ErrorCode, tool
from kit_core.envelope import encode_success, error_envelope


class Colour(enum.Enum):
    RED = "red"


@dataclasses.dataclass
class Point:
    x: int
    when: dt.date


def returning(value: Any) -> str:
    @tool(toolset="tests", name="env_result")
    def handler(args: dict[str, Any], **kwargs: Any) -> object:
        """Return the value."""
        return value

    return handler({})


@pytest.mark.parametrize(
    ("value", "data"),
    [
        ({"a": 1}, {"a": 1}),
        ([1, "x"], [1, "x"]),
        (None, None),
        (3.5, 3.5),
        ((1, 2), [1, 2]),
        (dt.datetime(2026, 11, 29, 18, 5, tzinfo=dt.UTC), "2026-11-29T18:05:00+00:00"),
        (dt.date(2026, 1, 2), "2026-01-02"),
        (dt.time(7, 8), "07:08:00"),
        (uuid.UUID(int=1), "00000000-0000-0000-0000-000000000001"),
        (decimal.Decimal("0.1000000000000000000001"), "0.1000000000000000000001"),
        (PurePosixPath("/tmp/x.png"), "/tmp/x.png"),
        (Colour.RED, "red"),
        ({3, 1, 2}, [1, 2, 3]),
        (frozenset({"b", "a"}), ["a", "b"]),
        (b"hello", "hello"),
        (b"\xff\x00", "base64:/wA="),
        (Point(1, dt.date(2026, 1, 1)), {"x": 1, "when": "2026-01-01"}),
        ({"nested": [Point(2, dt.date(2026, 2, 2))]}, {"nested": [{"x": 2, "when": "2026-02-02"}]}),
    ],
)
def test_values_are_encoded_as_documented(value: Any, data: Any) -> None:
    assert json.loads(returning(value)) == {"success": True, "data": data}


def test_unsortable_sets_keep_their_items() -> None:
    data = json.loads(returning({1, "a"}))["data"]
    assert sorted(map(str, data)) == ["1", "a"]


@pytest.mark.parametrize(
    ("value", "why"),
    [
        (object(), "object of type 'object' is not JSON serializable"),
        ({"x": float("inf")}, "Out of range float values are not JSON compliant"),
        ({(1, 2): "tuple key"}, "keys must be str, int, float, bool or None"),
    ],
)
def test_values_that_cannot_be_encoded_become_an_error_naming_the_problem(
    value: Any, why: str
) -> None:
    out = json.loads(returning(value))
    assert out["success"] is False
    assert out["error_code"] == "result_not_serializable"
    assert out["error"].startswith(
        f"env_result returned a {type(value).__name__} the kit cannot encode"
    )
    assert why in out["error"]


def test_a_reference_cycle_becomes_an_error() -> None:
    loop: list[Any] = []
    loop.append(loop)
    out = json.loads(returning(loop))
    assert out["error_code"] == "result_not_serializable"


def test_envelope_helpers_produce_the_upstream_shapes() -> None:
    assert encode_success({"k": "ü"}) == '{"success": true, "data": {"k": "ü"}}'
    assert error_envelope("q is required", ErrorCode.MISSING_ARGUMENT) == (
        '{"success": false, "error": "q is required", "error_code": "missing_argument"}'
    )
