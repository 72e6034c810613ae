"""A wrapped tool returns exactly ``str`` and raises nothing but what docs/contracts.md names
(``KeyboardInterrupt`` and the cancellation of the awaiting task), whatever its handler
raises or returns, however its exceptions and results misbehave, and whatever the
logging set-up does; and what the caller sent is echoed short."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kit_core import ToolSpec, declaration_of, str_arg, tool
from kit_core._runtime import ERROR_CHARS, PREVIEW_CHARS


def spec_of(fn: object) -> ToolSpec:
    """The ToolSpec of a @tool function."""
    spec = declaration_of(fn, ToolSpec)
    assert spec is not None, f"{fn!r} carries no ToolSpec"
    return spec


HARDENING = settings(parent=settings.get_profile("hpk-hardening"))
CURRENT: dict[str, Any] = {}


class Timeout(BaseException):
    """Greenlet-style timeouts derive from BaseException."""


class BrokenStr(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text")


class BrokenNotes(Exception):
    @property
    def __notes__(self) -> list[str]:  # pyright: ignore[reportIncompatibleVariableOverride]
        raise RuntimeError("no notes")


class BaseBrokenStr(BaseException):
    def __str__(self) -> str:
        raise Timeout


class Unprintable:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    __str__ = __repr__


class StrSubclass(str):
    def __str__(self) -> str:
        raise RuntimeError("no str")


RAISED = [
    GeneratorExit(),
    Timeout("took too long"),
    SystemExit(3),
    BrokenStr(),
    BrokenNotes("with notes"),
    BaseBrokenStr(),
    StopIteration(),
    StopAsyncIteration(),
    RecursionError("deep"),
    MemoryError(),
    ValueError("x" * 10_000_000),
]
RETURNED = [
    Unprintable(),
    mock.Mock(spec=str),
    mock.MagicMock(spec=str),
    StrSubclass('{"ok": 1}'),  # a str is taken as encoded: handed over as a plain str
    {"bad": Unprintable()},
    {1j: 1},
    [float("nan")],
    iter([1]),
]


def outcome(args: dict[str, Any]) -> Any:
    kind, value = CURRENT["outcome"]
    if kind == "raise":
        raise value
    return value


@tool(toolset="hardening", name="never_sync", params={"q": str_arg("Query")})
def never_sync(args: dict[str, Any], **kwargs: Any) -> object:
    """Raises or returns what the test says."""
    return outcome(args)


@tool(toolset="hardening", name="never_async", params={"q": str_arg("Query")})
async def never_async(args: dict[str, Any], **kwargs: Any) -> object:
    """Raises or returns what the test says."""
    return outcome(args)


def both(args: Any) -> list[Any]:
    return [never_sync(args), asyncio.run(never_async(args))]


@pytest.mark.parametrize("exc", RAISED, ids=lambda e: type(e).__name__)
def test_every_base_exception_but_two_becomes_an_envelope(exc: BaseException) -> None:
    CURRENT["outcome"] = ("raise", exc)
    for answer in both({"q": "x"}):
        assert type(answer) is str
        body = json.loads(answer)
        assert body["error_code"] == "handler_error"
        assert len(body["error"]) < ERROR_CHARS + 200


@pytest.mark.parametrize("exc", [KeyboardInterrupt(), asyncio.CancelledError()])
def test_interrupt_and_cancellation_propagate(exc: BaseException) -> None:
    CURRENT["outcome"] = ("raise", exc)
    with pytest.raises(type(exc)):
        never_sync({"q": "x"})
    with pytest.raises(type(exc)):
        asyncio.run(never_async({"q": "x"}))


@pytest.mark.parametrize("result", RETURNED, ids=lambda r: type(r).__name__)
@pytest.mark.parametrize("level", [logging.WARNING, logging.DEBUG])
def test_every_result_becomes_exactly_a_str(result: Any, level: int) -> None:
    CURRENT["outcome"] = ("return", result)
    logging.getLogger(__name__).setLevel(level)
    try:
        for answer in both({"q": "x"}):
            assert type(answer) is str
            json.loads(answer)
    finally:
        logging.getLogger(__name__).setLevel(logging.NOTSET)


class Raising(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        raise RuntimeError("the filter broke")


@pytest.mark.parametrize(
    "outcome_",
    [("return", {"ok": 1}), ("raise", RuntimeError("boom")), ("return", Unprintable())],
    ids=["ok", "raised", "unencodable"],
)
@pytest.mark.parametrize("args", [{"q": "x"}, {"q": 5}], ids=["valid", "refused"])
def test_a_logging_set_up_that_raises_loses_lines_not_calls(
    outcome_: Any, args: dict[str, Any]
) -> None:
    CURRENT["outcome"] = outcome_
    logger = logging.getLogger(__name__)
    broken = Raising()
    logger.addFilter(broken)
    logger.setLevel(logging.DEBUG)
    try:
        for answer in both(args):
            assert type(answer) is str
            json.loads(answer)
    finally:
        logger.removeFilter(broken)
        logger.setLevel(logging.NOTSET)


EXCEPTIONS = st.sampled_from(RAISED[:-1]) | st.builds(
    lambda cls, text: cls(text),
    st.sampled_from([ValueError, Timeout, GeneratorExit, SystemExit, BrokenStr, OSError]),
    st.text(max_size=50),
)
RESULTS = st.sampled_from(RETURNED) | st.recursive(
    st.none() | st.booleans() | st.floats() | st.text() | st.binary() | st.integers(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@HARDENING
@given(raised=st.booleans(), exc=EXCEPTIONS, result=RESULTS)
def test_any_outcome_is_answered_with_a_str(
    raised: bool, exc: BaseException, result: Any, tally: Any
) -> None:
    CURRENT["outcome"] = ("raise", exc) if raised else ("return", result)
    for answer in both({"q": "x"}):
        assert type(answer) is str
        if raised or not isinstance(result, str):  # a str result is handed over as it is
            json.loads(answer)
    tally.fuzz("handler outcomes")


# -- what the caller sent is echoed short -----------------------------------------------


@tool(
    toolset="hardening",
    name="echo_strict",
    schema={
        "name": "echo_strict",
        "description": "Takes one code.",
        "parameters": {
            "type": "object",
            "properties": {"code": {"type": "string", "pattern": "^[0-9]+$"}},
            "additionalProperties": False,
        },
    },
)
def echo_strict(args: dict[str, Any], **kwargs: Any) -> object:
    """Returns its arguments."""
    return args


HUGE = 10_000_000


@pytest.mark.parametrize(
    "args",
    [
        {"k" * HUGE: 1},
        {"code": "a" * HUGE},
        {"code": ["x" * HUGE]},
        {"nested": {"k" * HUGE: "v" * HUGE}},
        "{" + "x" * HUGE,
    ],
    ids=["huge-key", "huge-value", "huge-list-item", "huge-nested", "huge-json-text"],
)
def test_what_the_caller_sent_is_echoed_short(args: Any, capture: Any) -> None:
    with capture(spec_of(echo_strict).module) as logs:
        answer = echo_strict(args)
    assert json.loads(answer)["error_code"] == "invalid_argument"
    assert len(answer) < 400
    assert logs.lines
    assert all(len(line) < 2 * PREVIEW_CHARS + 400 for line in logs.lines)


def test_a_huge_exception_text_is_cut_in_the_envelope_and_the_log(capture: Any) -> None:
    CURRENT["outcome"] = ("raise", ValueError("y" * HUGE))
    with capture(spec_of(never_sync).module) as logs:
        answer = never_sync({"q": "x"})
    assert len(answer) < ERROR_CHARS + 200
    assert all(len(line) < 40_000 for line in logs.lines)


@pytest.mark.parametrize(
    ("code", "accepted"),
    [
        ("123", True),
        ("123\n", False),  # ECMA-262 "$" is the end of the input only
        ("\u0661\u0662\u0663", False),  # "\d" is ASCII digits only
        ("12a", False),
    ],
)
def test_patterns_follow_json_schema_not_python(code: str, accepted: bool) -> None:
    answer = json.loads(echo_strict({"code": code}))
    assert answer["success"] is accepted, answer
