"""Final-response suppression: one-turn markers keyed by session, bounded, thread-safe."""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, cast

import pytest

from kit_core import HookSpec, declaration_of
from kit_media import (
    MEDIA_DELIVERY_HOOKS,
    MediaPayload,
    clear_media_delivery_state,
    deliver_media,
    transform_media_delivery_output,
)
from kit_media._markers import (
    DEFAULT_MAX_MARKERS,
    DEFAULT_TTL_SECONDS,
    MARKERS,
    MarkerStore,
    marker_key,
)

if TYPE_CHECKING:
    from tests.kit_media.conftest import FakeHost


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# -- the hooks ----------------------------------------------------------------------------


def test_hooks_declare_their_hermes_hook_names() -> None:
    assert declaration_of(transform_media_delivery_output) == HookSpec(
        "transform_llm_output", transform_media_delivery_output
    )
    assert declaration_of(clear_media_delivery_state) == HookSpec(
        "on_session_end", clear_media_delivery_state
    )
    assert (transform_media_delivery_output, clear_media_delivery_state) == MEDIA_DELIVERY_HOOKS


@pytest.mark.parametrize("hook", MEDIA_DELIVERY_HOOKS)
def test_hooks_are_plain_synchronous_functions_taking_any_keywords(
    hook: Callable[..., object],
) -> None:
    assert inspect.isfunction(hook)
    assert not inspect.iscoroutinefunction(hook)
    parameters = inspect.signature(hook).parameters.values()
    assert any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)


def test_a_marker_suppresses_exactly_one_reply() -> None:
    MARKERS.arm("s-1")
    kwargs = {"model": "m", "platform": "telegram", "telemetry_schema_version": 1}
    assert transform_media_delivery_output(response_text="hi", session_id="s-1", **kwargs) == (
        "NO_REPLY"
    )
    assert transform_media_delivery_output(response_text="hi", session_id="s-1", **kwargs) is None


@pytest.mark.parametrize("session_id", ["", None, 42, "other"])
def test_no_marker_means_no_change(session_id: object) -> None:
    MARKERS.arm("s-1")
    hook = cast("Callable[..., object]", transform_media_delivery_output)
    assert hook(response_text="hi", session_id=session_id) is None
    assert MARKERS.is_armed("s-1")


def test_sessions_are_independent() -> None:
    MARKERS.arm("a")
    MARKERS.arm("b")
    assert transform_media_delivery_output(response_text="x", session_id="a") == "NO_REPLY"
    assert MARKERS.is_armed("b")
    clear_media_delivery_state(session_id="b", task_id="t", telemetry_schema_version=1)
    assert transform_media_delivery_output(response_text="x", session_id="b") is None


def test_session_end_clears_only_its_own_marker_and_ignores_the_task_id() -> None:
    MARKERS.arm("a")
    MARKERS.arm("t-1")
    clear_media_delivery_state(session_id="", task_id="t-1")
    assert MARKERS.is_armed("t-1")  # markers are never keyed by task id
    clear_media_delivery_state(session_id="a")
    assert not MARKERS.is_armed("a")


def test_concurrent_sessions_on_threads_each_consume_their_own_marker(
    host: FakeHost, image: Path
) -> None:
    sessions = [f"session-{i}" for i in range(64)]
    barrier = threading.Barrier(len(sessions))

    def turn(session_id: str) -> tuple[str | None, str | None]:
        barrier.wait()
        assert deliver_media(MediaPayload(image), "telegram", session_id=session_id).success
        first = transform_media_delivery_output(response_text="x", session_id=session_id)
        second = transform_media_delivery_output(response_text="x", session_id=session_id)
        return first, second

    with ThreadPoolExecutor(max_workers=len(sessions)) as pool:
        outcomes = list(pool.map(turn, sessions))

    assert outcomes == [("NO_REPLY", None)] * len(sessions)
    assert len(MARKERS) == 0


def test_racing_finalizers_of_one_session_suppress_once() -> None:
    MARKERS.arm("shared")
    barrier = threading.Barrier(32)

    def finalize(_: int) -> str | None:
        barrier.wait()
        return transform_media_delivery_output(response_text="x", session_id="shared")

    with ThreadPoolExecutor(max_workers=32) as pool:
        results = list(pool.map(finalize, range(32)))
    assert results.count("NO_REPLY") == 1
    assert results.count(None) == 31


# -- one key for arming, consuming and clearing ------------------------------------------


@pytest.mark.parametrize(
    ("armed_as", "consumed_as"),
    [(" s-1 ", "s-1"), ("s-1", " s-1\n"), ("\ts-1", "s-1\t"), ("s-1", "s-1")],
)
def test_a_delivery_marker_is_consumed_by_any_spelling_of_its_session(
    host: FakeHost, image: Path, armed_as: str, consumed_as: str
) -> None:
    assert deliver_media(MediaPayload(image), "telegram", session_id=armed_as).success
    assert transform_media_delivery_output(response_text="x", session_id=consumed_as) == (
        "NO_REPLY"
    )
    assert len(MARKERS) == 0


@pytest.mark.parametrize(("armed_as", "cleared_as"), [(" s-1 ", "s-1"), ("s-1", " s-1 ")])
def test_session_end_clears_the_marker_under_any_spelling_of_its_session(
    host: FakeHost, image: Path, armed_as: str, cleared_as: str
) -> None:
    assert deliver_media(MediaPayload(image), "telegram", session_id=armed_as).success
    clear_media_delivery_state(session_id=cleared_as)
    assert len(MARKERS) == 0
    assert transform_media_delivery_output(response_text="x", session_id="s-1") is None


def test_every_store_operation_keys_by_the_one_normalisation() -> None:
    store = MarkerStore()
    assert marker_key(" a ") == marker_key("a") == "a"
    assert [marker_key(v) for v in ("", "  ", None, 7, b"a")] == [None] * 5
    assert store.arm(" a ") is True
    assert store.is_armed("a")
    assert store.is_armed("a\n")
    assert store.consume("\ta") is True
    assert store.arm("b") is True
    assert store.clear(" b ") is True
    assert [store.arm(v) for v in ("", " ", None, 7)] == [False] * 4
    assert [store.consume(v) for v in ("", None)] == [False, False]
    assert len(store) == 0


# -- the store: bounded in size and age ---------------------------------------------------


def test_defaults_are_bounded() -> None:
    assert MARKERS.max_markers == DEFAULT_MAX_MARKERS == 4096
    assert MARKERS.ttl_seconds == DEFAULT_TTL_SECONDS == 600.0


def test_a_marker_lapses_after_its_ttl() -> None:
    clock = Clock()
    store = MarkerStore(ttl_seconds=600, clock=clock)
    store.arm("s")
    clock.now += 599.9
    assert store.is_armed("s")
    clock.now += 0.1
    assert not store.is_armed("s")
    assert store.consume("s") is False
    assert len(store) == 0


def test_rearming_refreshes_the_age() -> None:
    clock = Clock()
    store = MarkerStore(ttl_seconds=10, clock=clock)
    store.arm("s")
    clock.now += 8
    store.arm("s")
    clock.now += 8
    assert store.consume("s") is True


def test_expired_markers_are_dropped_on_every_operation() -> None:
    clock = Clock()
    store = MarkerStore(ttl_seconds=10, clock=clock)
    for i in range(100):
        store.arm(f"old-{i}")
    clock.now += 11
    store.arm("new")
    assert len(store._armed) == 1


def test_the_oldest_marker_is_evicted_beyond_the_bound() -> None:
    clock = Clock()
    store = MarkerStore(max_markers=3, clock=clock)
    for name in ("a", "b", "c"):
        store.arm(name)
        clock.now += 1
    store.arm("a")  # re-armed: now the newest
    store.arm("d")
    assert len(store) == 3
    assert not store.is_armed("b")
    assert all(store.is_armed(name) for name in ("a", "c", "d"))


def test_clear_all_drops_every_marker_and_counts_them(host: FakeHost) -> None:
    store = MarkerStore()
    store.arm("a")
    store.arm("b")
    assert store.clear("a") is True
    assert store.clear("a") is False
    assert store.clear_all() == 1
    assert len(store) == 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_markers": 0}, "max_markers must be at least 1"),
        ({"ttl_seconds": 0}, "ttl_seconds must be positive"),
        ({"ttl_seconds": float("nan")}, "ttl_seconds must be positive"),
    ],
)
def test_nonsense_bounds_are_refused(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MarkerStore(**kwargs)  # type: ignore[arg-type]


def test_the_bounded_store_stays_consistent_under_concurrent_arming() -> None:
    store = MarkerStore(max_markers=50)

    def arm_many(worker: int) -> None:
        for i in range(200):
            store.arm(f"{worker}-{i}")
            store.consume(f"{worker}-{i - 1}")

    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(arm_many, range(8)))
    assert len(store) <= 50


def test_a_session_id_too_long_to_be_hermes_names_no_session() -> None:
    """The store caps its entries and their keys: a 10 MB session id arms nothing."""
    from kit_media._markers import MAX_KEY_CHARS, MarkerStore, marker_key

    store = MarkerStore()
    assert marker_key("s" * MAX_KEY_CHARS) == "s" * MAX_KEY_CHARS
    for huge in ("s" * (MAX_KEY_CHARS + 1), "s" * 10_000_000):
        assert marker_key(huge) is None
        assert store.arm(huge) is False
