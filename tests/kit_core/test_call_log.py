"""``HERMES_PLUGIN_KIT_CALL_LOG``: an operator lowers the per-call success line to DEBUG."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from importlib.metadata import EntryPoint, EntryPoints
from typing import Any

import pytest

from kit_core import _call_log, str_arg, tool

ENV = "HERMES_PLUGIN_KIT_CALL_LOG"


def declare(module: str, *, is_async: bool = False) -> Callable[..., Any]:
    """A kit tool whose handler lives in ``module`` (as hermes imports a plugin's)."""

    def handler(args: dict[str, Any], **kwargs: Any) -> object:
        """Echo the text."""
        return {"echo": args.get("q")}

    async def async_handler(args: dict[str, Any], **kwargs: Any) -> object:
        """Echo the text."""
        return {"echo": args.get("q")}

    fn = async_handler if is_async else handler
    fn.__module__ = module
    namespace = module.split(".")[-2].replace("-", "_")
    params = {"q": str_arg("Text to echo", required=True, example="x")}
    return tool(toolset="tests", name=f"{namespace}_echo_text", params=params)(fn)


def call(fn: Callable[..., Any]) -> dict[str, Any]:
    answer = fn({"q": "x"}, task_id="t1")
    if asyncio.iscoroutine(answer):
        answer = asyncio.run(answer)
    return json.loads(answer)


def lines(caplog: pytest.LogCaptureFixture, logger: str) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage().split(";")[0]) for r in caplog.records if r.name == logger]


MEMO = "hermes_plugins.memo_sync.tools"
NOTES = "hermes_plugins.notes.tools"


@pytest.mark.parametrize("is_async", [False, True])
def test_by_default_the_success_line_is_info(
    is_async: bool, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV, raising=False)
    fn = declare(MEMO, is_async=is_async)
    caplog.set_level(logging.INFO, logger=MEMO)
    assert call(fn) == {"success": True, "data": {"echo": "x"}}
    assert lines(caplog, MEMO) == [(logging.INFO, "memo_sync_echo_text: ok")]


@pytest.mark.parametrize("is_async", [False, True])
def test_debug_moves_the_success_line_to_debug_for_every_plugin(
    is_async: bool, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, "debug")
    fn = declare(MEMO, is_async=is_async)
    caplog.set_level(logging.INFO, logger=MEMO)
    assert call(fn) == {"success": True, "data": {"echo": "x"}}
    assert lines(caplog, MEMO) == []  # at hermes' usual INFO: no line at all
    caplog.clear()
    caplog.set_level(logging.DEBUG, logger=MEMO)
    call(fn)
    assert lines(caplog, MEMO) == [
        (logging.DEBUG, "memo_sync_echo_text: invoked"),
        (logging.DEBUG, "memo_sync_echo_text: ok"),
    ]


def test_one_plugin_is_lowered_by_name_and_the_others_keep_info(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, "memo-sync=debug")  # '-' and '_' are the same
    memo, notes = declare(MEMO), declare(NOTES)
    caplog.set_level(logging.INFO, logger=MEMO)
    caplog.set_level(logging.INFO, logger=NOTES)
    call(memo)
    call(notes)
    assert lines(caplog, MEMO) == []
    assert lines(caplog, NOTES) == [(logging.INFO, "notes_echo_text: ok")]


def test_a_plugin_entry_overrides_the_default_and_a_pip_plugin_is_its_package(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, "debug, word_tools=info")
    pip_plugin = "word_tools.tools"
    words, memo = declare(pip_plugin), declare(MEMO)
    caplog.set_level(logging.INFO, logger=pip_plugin)
    caplog.set_level(logging.INFO, logger=MEMO)
    call(words)
    call(memo)
    assert lines(caplog, pip_plugin) == [(logging.INFO, "word_tools_echo_text: ok")]
    assert lines(caplog, MEMO) == []


def test_the_setting_is_read_when_the_tool_is_declared_not_per_call(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, "debug")
    fn = declare(MEMO)
    monkeypatch.setenv(ENV, "info")
    caplog.set_level(logging.INFO, logger=MEMO)
    call(fn)
    assert lines(caplog, MEMO) == []


@pytest.mark.parametrize("value", ["loud", "=debug", "memo_sync=verbose"])
def test_a_value_the_kit_cannot_read_is_named_in_a_warning_and_info_stays(
    value: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    _call_log._parse.cache_clear()  # warned once per value
    monkeypatch.setenv(ENV, value)
    caplog.set_level(logging.WARNING, logger="kit_core")
    caplog.set_level(logging.INFO, logger=MEMO)  # last: caplog's handler takes this level
    fn = declare(MEMO)
    call(fn)
    assert lines(caplog, MEMO) == [(logging.INFO, "memo_sync_echo_text: ok")]
    warned = [r.getMessage() for r in caplog.records if r.name == "kit_core"]
    assert any(ENV in w and repr(value) in w for w in warned)


def declare_failing(module: str) -> Callable[..., Any]:
    """A kit tool in ``module`` that raises when ``q`` is ``boom``."""

    def handler(args: dict[str, Any], **kwargs: Any) -> object:
        """Fail on request."""
        if args["q"] == "boom":
            raise RuntimeError("it broke")
        return {"echo": args["q"]}

    handler.__module__ = module
    namespace = module.split(".")[-2]
    params = {"q": str_arg("Text to echo", required=True, example="x")}
    return tool(toolset="tests", name=f"{namespace}_fail_text", params=params)(handler)


def test_lowered_refusals_and_failures_still_log_at_warning(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, "memo_sync=debug")
    fn = declare_failing(MEMO)
    caplog.set_level(logging.INFO, logger=MEMO)
    assert json.loads(fn({"q": "boom"}))["success"] is False
    assert json.loads(fn({}))["success"] is False
    assert json.loads(fn({"q": "fine"}))["success"] is True
    assert lines(caplog, MEMO) == [
        (logging.WARNING, "memo_sync_fail_text: handler raised"),
        (logging.WARNING, "memo_sync_fail_text: rejected call, missing q"),
    ]


@pytest.mark.parametrize(
    ("module", "entry"),
    [
        ("hermes_plugins.image_gen__openai.tools", "image_gen/openai=debug"),  # a key
        ("hermes_plugins.memo_sync", "Memo-Sync=debug"),  # case and '-' do not matter
        ("hermes_plugins.memo_sync.tools", "hermes_plugins.memo_sync=debug"),  # the module
    ],
)
def test_a_directory_plugin_is_named_as_in_plugins_enabled(
    module: str, entry: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, entry)
    assert _call_log.success_level(module) == logging.DEBUG
    assert _call_log.success_level("hermes_plugins.other.tools") == logging.INFO


def test_a_pip_plugin_is_named_by_its_entry_point_or_its_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    points = EntryPoints(
        [EntryPoint(name="word-tools", value="wordkit_plugin.hermes", group="hermes_agent.plugins")]
    )
    seen: list[str] = []

    def entry_points(*, group: str) -> EntryPoints:
        seen.append(group)
        return points

    monkeypatch.setattr("importlib.metadata.entry_points", entry_points)
    _call_log._entry_point_names.cache_clear()
    try:
        monkeypatch.setenv(ENV, "word_tools=debug")
        assert _call_log.success_level("wordkit_plugin.tools") == logging.DEBUG
        monkeypatch.setenv(ENV, "wordkit-plugin=debug")
        assert _call_log.success_level("wordkit_plugin.tools") == logging.DEBUG
        monkeypatch.setenv(ENV, "other=debug")
        assert _call_log.success_level("wordkit_plugin.tools") == logging.INFO
        assert seen == ["hermes_agent.plugins"]  # looked up once per package
    finally:
        _call_log._entry_point_names.cache_clear()


def test_a_broken_entry_point_lookup_leaves_the_package_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def entry_points(*, group: str) -> EntryPoints:
        raise OSError("unreadable metadata")

    monkeypatch.setattr("importlib.metadata.entry_points", entry_points)
    _call_log._entry_point_names.cache_clear()
    try:
        monkeypatch.setenv(ENV, "wordkit_plugin=debug")
        assert _call_log.success_level("wordkit_plugin.tools") == logging.DEBUG
    finally:
        _call_log._entry_point_names.cache_clear()
