"""``HERMES_PLUGIN_KIT_CALL_LOG`` lowers a plugin's hook and middleware ``ok`` lines too
(they can run on every tool call); failures keep WARNING and commands keep INFO."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest

from kit_lifecycle import MiddlewareKind, command, hook, middleware

ENV = "HERMES_PLUGIN_KIT_CALL_LOG"
NOTES = "hermes_plugins.notes.surfaces"
MEMO = "hermes_plugins.memo_sync.surfaces"


def in_module(fn: Callable[..., Any], module: str) -> Callable[..., Any]:
    fn.__module__ = module
    return fn


def levels(caplog: pytest.LogCaptureFixture, module: str) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage().split(";")[0]) for r in caplog.records if r.name == module]


def declare_hook(module: str, fail: bool = False) -> Callable[..., Any]:
    def observe(**kwargs: Any) -> None:
        if fail:
            msg = "boom"
            raise RuntimeError(msg)

    return hook("post_tool_call")(in_module(observe, module))


def test_a_lowered_plugin_logs_its_hook_and_middleware_ok_lines_at_debug(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, "notes=debug")
    lowered = declare_hook(NOTES)
    kept = declare_hook(MEMO)

    def shape(**kwargs: Any) -> None:
        return None

    request = middleware(MiddlewareKind.TOOL_REQUEST)(in_module(shape, NOTES))
    caplog.set_level(logging.DEBUG)
    lowered(tool_name="t")
    kept(tool_name="t")
    request(tool_name="t", args={})
    assert (logging.DEBUG, "post_tool_call: ok") in levels(caplog, NOTES)
    assert (logging.DEBUG, "tool_request middleware: ok") in levels(caplog, NOTES)
    assert (logging.INFO, "post_tool_call: ok") in levels(caplog, MEMO)
    assert not [line for line in levels(caplog, NOTES) if line[0] >= logging.INFO]


def test_at_info_a_lowered_hook_writes_nothing_and_a_failure_still_warns(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, "notes=debug")
    quiet = declare_hook(NOTES)
    failing = declare_hook(NOTES, fail=True)
    caplog.set_level(logging.INFO)
    quiet(tool_name="t")
    with pytest.raises(RuntimeError):
        failing(tool_name="t")
    assert levels(caplog, NOTES) == [(logging.WARNING, "post_tool_call: callback raised")]


def test_a_command_keeps_its_info_line(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV, "debug")

    def notes_total(raw_args: str) -> str:
        """Count the notes."""
        return "3"

    run = command("notes-total")(in_module(notes_total, NOTES))
    caplog.set_level(logging.INFO)
    assert run("") == "3"
    assert (logging.INFO, "notes-total: ok") in levels(caplog, NOTES)
