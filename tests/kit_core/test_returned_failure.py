"""A handler that returns a failure instead of raising: a ``ToolFailure``, or a result whose
``tool_failure()`` gives one, becomes the error envelope and is logged as a failed call."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any
from unittest.mock import MagicMock

import pytest

from kit_core import ReportsFailure, ToolFailure, tool
from kit_core.envelope import failure_of

LOGGER = __name__
SECRET = "rf-0123456789abcdef0123"


class Outcome:
    """A result object of the author's own that can say it failed."""

    def __init__(self, ok: bool, body: object = None) -> None:
        self.ok = ok
        self.body = body

    def tool_failure(self) -> ToolFailure | None:
        return None if self.ok else ToolFailure("the lookup timed out; try again", "timeout")


class Broken:
    def tool_failure(self) -> ToolFailure | None:
        msg = "cannot tell"
        raise RuntimeError(msg)


@dataclass
class Claims:
    """A ``tool_failure`` that gives something other than a ToolFailure is not one."""

    note: str = "fine"

    def tool_failure(self) -> object:
        return {"success": False}


def sync_tool(value: Callable[[], object]) -> Callable[..., str]:
    @tool(toolset="tests", name="rf_sync", requires_env=["RF_TOKEN"])
    def handler(args: dict[str, Any], **kwargs: Any) -> object:
        """Return the value."""
        return value()

    return handler


def async_tool(value: Callable[[], object]) -> Callable[..., str]:
    @tool(toolset="tests", name="rf_async", requires_env=["RF_TOKEN"])
    async def handler(args: dict[str, Any], **kwargs: Any) -> object:
        """Return the value."""
        return value()

    return lambda *a, **k: asyncio.run(handler(*a, **k))


FORMS = {"sync": sync_tool, "async": async_tool}


def lines(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records if r.name == LOGGER]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("level", [logging.INFO, logging.ERROR])  # the logging and fast paths
def test_a_returned_tool_failure_is_the_error_envelope(
    form: str, level: int, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(level, logger=LOGGER)
    call = FORMS[form](lambda: ToolFailure("no note named 'x'; list the notes first", "not_found"))
    name = f"rf_{form}"
    assert json.loads(call({})) == {
        "success": False,
        "error": f"{name} failed: no note named 'x'; list the notes first",
        "error_code": "not_found",
    }
    if level == logging.INFO:
        ((levelno, text),) = lines(caplog)
        assert levelno == logging.WARNING
        assert text.startswith(f"{name}: returned failure; elapsed_ms=")
        assert text.endswith(
            "; error_code=not_found; error=no note named 'x'; list the notes first"
        )
    else:
        assert lines(caplog) == []


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("level", [logging.INFO, logging.ERROR])
def test_a_result_reporting_failure_is_an_error_and_its_success_is_data(
    form: str, level: int, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(level, logger=LOGGER)
    failed = json.loads(FORMS[form](lambda: Outcome(ok=False))({}))
    assert failed == {
        "success": False,
        "error": f"rf_{form} failed: the lookup timed out; try again",
        "error_code": "timeout",
    }

    @dataclass
    class Found:
        rows: object

        def tool_failure(self) -> ToolFailure | None:
            return None

    done = json.loads(FORMS[form](lambda: Found(MappingProxyType({"a": 1})))({}))
    assert done == {"success": True, "data": {"rows": {"a": 1}}}
    if level == logging.INFO:
        assert [levelno for levelno, _ in lines(caplog)] == [logging.WARNING, logging.INFO]
        assert lines(caplog)[1][1].startswith(f"rf_{form}: ok; ")


def test_the_failure_text_is_redacted_like_a_raised_error(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("RF_TOKEN", SECRET)
    caplog.set_level(logging.INFO, logger=LOGGER)
    reply = sync_tool(lambda: ToolFailure(f"the server refused key {SECRET}", "refused"))({})
    assert SECRET not in reply
    assert json.loads(reply)["error"].startswith("rf_sync failed: the server refused key ")
    assert all(SECRET not in text for _, text in lines(caplog))


def test_a_tool_failure_that_raises_is_a_handler_error(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    assert json.loads(sync_tool(Broken)({})) == {
        "success": False,
        "error": "rf_sync failed: cannot tell",
        "error_code": "handler_error",
    }
    assert lines(caplog)[0][1].startswith("rf_sync: handler raised; ")


@pytest.mark.parametrize(
    ("value", "data"),
    [
        (Claims(), {"note": "fine"}),
        ({"tool_failure": "x"}, {"tool_failure": "x"}),
        (["tool_failure"], ["tool_failure"]),
    ],
    ids=["not-a-ToolFailure", "dict", "list"],
)
def test_only_a_tool_failure_counts(value: object, data: object) -> None:
    assert failure_of(value) is None
    assert json.loads(sync_tool(lambda: value)({})) == {"success": True, "data": data}


def test_a_mock_answering_every_attribute_is_not_a_failure() -> None:
    mock = MagicMock()
    assert failure_of(mock) is None
    mock.tool_failure.assert_not_called()
    reply = json.loads(sync_tool(lambda: mock)({}))
    assert reply["error_code"] == "result_not_serializable"


@pytest.mark.parametrize(
    ("message", "code"), [("", "x"), ("   ", "x"), ("why", ""), (None, "x"), ("why", 3)]
)
def test_a_tool_failure_needs_a_message_and_a_code(message: Any, code: Any) -> None:
    with pytest.raises(TypeError, match="ToolFailure"):
        ToolFailure(message, code)
    reply = json.loads(sync_tool(lambda: ToolFailure(message, code))({}))
    assert reply["error_code"] == "handler_error"
    assert "ToolFailure" in reply["error"]


def test_the_protocol_is_what_a_type_checker_expects() -> None:
    reporters: list[ReportsFailure] = [Outcome(ok=True), ToolFailure("m", "c")]
    assert [failure_of(r) for r in reporters] == [None, ToolFailure("m", "c")]
