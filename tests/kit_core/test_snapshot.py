"""Snapshot: a value stored once, and a fresh deep copy for everyone who asks."""

from __future__ import annotations

import collections
import copy
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kit_core._snapshot import Snapshot, deep_copy

json_like = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.just(-0.0),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=6) | st.integers(), inner, max_size=4)
    ),
    max_leaves=25,
)


def typed(value: Any) -> Any:
    """``value`` with the exact type of every part spelled out (``1 == True == 1.0`` and
    ``0.0 == -0.0`` compare equal; these must come back as they were)."""
    cls = type(value)
    if cls is dict:
        return ("dict", [(typed(k), typed(v)) for k, v in value.items()])
    if cls in (list, tuple):
        return (cls.__name__, [typed(v) for v in value])
    if cls is float:
        return ("float", repr(value))
    return (cls.__name__, value)


def containers(value: Any) -> list[Any]:
    """Every dict and list inside ``value`` (the parts a holder could change)."""
    found: list[Any] = []
    if isinstance(value, dict):
        found.append(value)
        for key, item in value.items():
            found += containers(key) + containers(item)
    elif isinstance(value, list | tuple):
        if isinstance(value, list):
            found.append(value)
        for item in value:
            found += containers(item)
    return found


def assert_disjoint(first: Any, second: Any) -> None:
    ids = {id(c) for c in containers(first)}
    assert not ids & {id(c) for c in containers(second)}


@settings(max_examples=150, deadline=None)
@given(json_like)
def test_a_copy_is_the_value_with_every_type_kept_and_nothing_mutable_shared(value: Any) -> None:
    snapshot = Snapshot(value)
    first, second = snapshot.copy(), snapshot.copy()
    assert typed(first) == typed(value) == typed(second)
    assert_disjoint(first, value)
    assert_disjoint(first, second)


@settings(max_examples=100, deadline=None)
@given(json_like)
def test_deep_copy_equals_copy_deepcopy(value: Any) -> None:
    copied = deep_copy(value)
    assert typed(copied) == typed(copy.deepcopy(value))
    assert_disjoint(copied, value)


def test_changing_the_value_later_changes_no_copy() -> None:
    value: dict[str, Any] = {"a": {"b": [1, 2]}, "c": [{"d": "e"}], "t": ({"x": 1},)}
    snapshot = Snapshot(value)
    value["a"]["b"].append(3)
    value["c"][0]["d"] = "changed"
    value["t"][0]["x"] = 2
    value["new"] = True
    assert snapshot.copy() == {"a": {"b": [1, 2]}, "c": [{"d": "e"}], "t": ({"x": 1},)}


def test_changing_a_copy_changes_neither_the_snapshot_nor_other_copies() -> None:
    snapshot = Snapshot({"p": {"q": {"enum": ["a", "b"]}}, "r": ["q"]})
    first = snapshot.copy()
    first["p"]["q"]["enum"].append("c")
    first["r"].clear()
    first["p"].clear()
    assert snapshot.copy() == {"p": {"q": {"enum": ["a", "b"]}}, "r": ["q"]}


@pytest.mark.parametrize(
    "value",
    [
        {},
        [],
        (),
        "text",
        None,
        3,
        {"a": []},
        {"a": ()},
        [[], [[]], {}],
        ({"a": 1},),
        ({"a": 1}, [2], 3),
        [(1, 2), [3, (4,)]],
        {1: "one", None: "none", False: "no", 2.5: "x"},
        {"n": math.inf, "m": -math.inf, "z": -0.0, "big": 10**40, "b": False},
        {"s": "x" * 10_000, "list": list(range(5000))},
    ],
)
def test_a_copy_has_the_layout_and_types_of_the_value(value: Any) -> None:
    assert typed(Snapshot(value).copy()) == typed(value)


def test_nan_stays_nan() -> None:
    copied = Snapshot({"x": [math.nan]}).copy()
    assert math.isnan(copied["x"][0])


class Marker:
    def __init__(self, name: str) -> None:
        self.name = name


@pytest.mark.parametrize(
    "value",
    [
        {"default": {1, 2}},
        {"enum": frozenset({"a"})},
        collections.OrderedDict(a=1),
        {"nested": collections.OrderedDict(b=[1])},
        {"buffer": bytearray(b"ab")},
        {"bytes": b"ab"},
        {"object": Marker("m")},
        {"subclass": type("Text", (str,), {})("x")},
        {(1, 2): "tuple key"},
    ],
)
def test_anything_but_plain_json_data_is_copied_as_deepcopy_copies_it(value: Any) -> None:
    snapshot = Snapshot(value)
    copied = snapshot.copy()
    expected = copy.deepcopy(value)
    assert type(copied) is type(expected)
    for key in value:
        assert type(copied[key]) is type(expected[key])
        if isinstance(value[key], Marker):
            assert copied[key] is not value[key]
            assert copied[key].name == "m"
        else:
            assert copied[key] == value[key]
        assert type(deep_copy(value)[key]) is type(expected[key])  # a buffer stays a bytearray


def test_a_cycle_is_copied_as_deepcopy_copies_it() -> None:
    value: dict[str, Any] = {"a": [1]}
    value["a"].append(value)
    copied = Snapshot(value).copy()
    assert copied["a"][1] is copied
    assert copied is not value


@pytest.mark.parametrize("depth", [50, 400])
def test_deep_nesting_is_still_copied(depth: int) -> None:
    value: Any = "leaf"
    for _ in range(depth):
        value = {"k": [value]}
    copied = Snapshot(value).copy()
    assert copied == value
    assert_disjoint(copied, value)
