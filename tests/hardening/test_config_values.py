"""Fuzzing ``load_plugin_config`` with settings it cannot copy.

Whatever the settings hold (locks, objects whose copy raises, thousands of levels of
nesting, shared and cyclic values), from whichever source (the manifest, the context's
config API, hermes' read-only config), ``load_plugin_config`` returns without raising,
drops nothing, copies every mapping and list, returns what it cannot copy as the very
same object, and names each such value's key path in one WARNING.
"""

from __future__ import annotations

import logging
import sys
import threading
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kit_lifecycle import load_plugin_config

HARDENING = settings(parent=settings.get_profile("hpk-hardening"))
MESSAGE = "uncopyable-message-3f9e-never-logged"


class Uncopyable:
    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        raise RuntimeError(MESSAGE)


def poison() -> st.SearchStrategy[Any]:
    return st.sampled_from([threading.Lock, threading.RLock, Uncopyable]).map(lambda make: make())


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8))
leaves = st.one_of(scalars, poison(), st.tuples(scalars, scalars))
trees = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=24,
)


def is_poison(value: Any) -> bool:
    return isinstance(value, Uncopyable) or type(value) in (
        type(threading.Lock()),
        type(threading.RLock()),
    )


def mirrored(original: dict[str, Any], copied: dict[str, Any]) -> int:
    """Check, without recursion, that ``copied`` copies ``original`` container by container
    and keeps each uncopyable value as it is; return how many of those there were."""
    kept = 0
    pending: list[tuple[Any, Any]] = [(original, copied)]
    while pending:
        source, target = pending.pop()
        if isinstance(source, dict | list):
            assert type(target) is type(source)
            assert target is not source
            assert len(target) == len(source)
            pairs = (
                [(source[k], target[k]) for k in source]
                if isinstance(source, dict)
                else list(zip(source, target, strict=True))
            )
            pending.extend(pairs)
        elif is_poison(source):
            assert target is source
            kept += 1
        else:
            assert target == source or (target != target and source != source)  # NaN
    return kept


def plant(source: str, value: dict[str, Any], mp: pytest.MonkeyPatch) -> Any:
    if source == "manifest":
        return SimpleNamespace(manifest=SimpleNamespace(config=value))
    if source == "api":
        return SimpleNamespace(manifest=None, get_config=lambda: value)
    host = ModuleType("hermes_cli.config")
    host.load_config_readonly = lambda: {"plugins": {"fuzz": value}}  # type: ignore[attr-defined]
    mp.setitem(sys.modules, "hermes_cli.config", host)
    return SimpleNamespace(manifest=None)


@HARDENING
@given(
    tree=st.dictionaries(st.text(max_size=6), trees, min_size=1, max_size=5),
    depth=st.integers(0, 3000),
    source=st.sampled_from(["manifest", "api", "host"]),
)
def test_whatever_the_settings_hold_nothing_raises_and_nothing_is_dropped(
    tree: dict[str, Any], depth: int, source: str, capture: Any, tally: Any
) -> None:
    value: dict[str, Any] = tree
    for level in range(depth):  # a long chain above it: far past the recursion limit
        value = {"level": [value]} if level % 2 else {"level": value}
    with capture() as logs, pytest.MonkeyPatch.context() as mp:
        result = load_plugin_config(plant(source, value, mp), "fuzz")
    kept = mirrored(value, result)
    warnings = [r.getMessage() for r in logs.records if r.levelno == logging.WARNING]
    if kept:
        (message,) = warnings
        assert f"{kept} value(s) could not be copied" in message
        assert message.count(": cannot be copied (") == min(kept, 10)
    else:
        assert warnings == []
    assert all(MESSAGE not in text for text in logs.texts())
    tally.fuzz("load_plugin_config settings")


def test_a_value_shared_and_a_cycle_survive_any_depth() -> None:
    shared = {"x": [1]}
    top: dict[str, Any] = {"a": shared}
    node = top
    for _ in range(5000):
        node["next"] = {"b": shared}
        node = node["next"]
    node["loop"] = top
    result = load_plugin_config(SimpleNamespace(manifest=SimpleNamespace(config=top)), "fuzz")
    node = result
    for _ in range(5000):
        node = node["next"]
        assert node["b"] is result["a"]
    assert node["loop"] is result
