"""What a tool logs, at which level, and what it never logs."""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import pytest

import kit_core._runtime as runtime
from kit_core import ToolSpec, declaration_of, str_arg, tool


def spec_of(fn: object) -> ToolSpec:
    """The ToolSpec of a @tool function."""
    spec = declaration_of(fn, ToolSpec)
    assert spec is not None, f"{fn!r} carries no ToolSpec"
    return spec


RESULT_MARKER = "result-payload-never-logged"


@tool(
    toolset="tests",
    name="log_fetch",
    requires_env=["LOG_TEST_TOKEN"],
    params={"q": str_arg("Query", required=True, example="weather"), "note": str_arg("Note")},
)
def fetch(args: dict[str, Any], **kwargs: Any) -> object:
    """Fetch something."""
    if args["q"] == "raise":
        raise RuntimeError(f"upstream said no to {args.get('note')}")
    if args["q"] == "text":
        return "already encoded"
    return {"marker": RESULT_MARKER}


LOGGER = spec_of(fetch).module


def messages(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records if r.name == LOGGER]


def test_the_handler_module_logger_is_used() -> None:
    assert __name__ == LOGGER


def test_success_logs_debug_invocation_and_info_outcome(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    fetch({"q": "x"}, session_id="s1", task_id="t1", user_task="do not log me")
    (debug, invoked), (info, ok) = messages(caplog)
    assert debug == logging.DEBUG
    assert (
        invoked
        == 'log_fetch: invoked; args={"q": "x"}; context={"session_id": "s1", "task_id": "t1"}'
    )
    assert info == logging.INFO
    assert re.fullmatch(r"log_fetch: ok; elapsed_ms=\d+\.\d{2}; result=dict", ok)
    assert RESULT_MARKER not in caplog.text


def test_a_str_result_is_logged_as_encoded_string(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger=LOGGER)
    fetch({"q": "text"})
    assert messages(caplog)[-1][1].endswith("result=encoded_string")


def test_long_arguments_are_truncated_to_200_characters(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    fetch({"q": "y" * 500})
    invoked = messages(caplog)[0][1]
    args_text = invoked.split("args=", 1)[1].split("; context=", 1)[0]
    assert len(args_text) == 201
    assert args_text.endswith("…")


def test_rejected_calls_log_a_warning_naming_the_argument(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger=LOGGER)
    fetch({"note": "n"})
    ((level, text),) = messages(caplog)
    assert level == logging.WARNING
    assert re.fullmatch(
        r"log_fetch: rejected call, missing q; elapsed_ms=\d+\.\d{2}; "
        r"error=q is required \(e\.g\. 'weather'\); args=\{\"note\": \"n\"\}",
        text,
    )


def test_handler_exceptions_log_a_warning_with_the_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger=LOGGER)
    fetch({"q": "raise", "note": "plain"})
    ((level, text),) = messages(caplog)
    assert level == logging.WARNING
    assert text.startswith("log_fetch: handler raised; elapsed_ms=")
    assert "error_type=RuntimeError; error=upstream said no to plain" in text
    assert "Traceback (most recent call last):" in text
    assert "in fetch" in text


SECRETS = {
    "key": "s3cr3t-in-a-key",
    "nested": "n3st3d-s3cr3t",
    "env": "env-value-1234",
    "openai": "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2",
    "bearer": "abcDEF123456789xyz",
    "github": "ghp_" + "a" * 36,
}


def test_no_secret_reaches_a_log_record_or_an_envelope(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LOG_TEST_TOKEN", SECRETS["env"])
    caplog.set_level(logging.DEBUG, logger=LOGGER)

    @tool(
        toolset="tests", name="log_leaky", requires_env=["LOG_TEST_TOKEN"], validate_required=False
    )
    def leaky(args: dict[str, Any], **kwargs: Any) -> None:
        """Leaks everything it can."""
        raise RuntimeError(
            f"failed with {SECRETS['env']} / {SECRETS['openai']} / Bearer {SECRETS['bearer']}"
            f" / password={SECRETS['key']} / {SECRETS['github']}"
        )

    planted = {
        "api_key": SECRETS["key"],
        "items": [
            {"Authorization": f"Bearer {SECRETS['bearer']}"},
            ("x", {"db_password": SECRETS["nested"]}),
        ],
        "free_text": f"use {SECRETS['openai']} and {SECRETS['env']}",
        "gh": SECRETS["github"],
    }
    envelopes = [
        leaky(planted, session_id="s"),
        fetch({"q": "raise", "note": SECRETS["env"]}),
        fetch(planted),
    ]
    logged = "\n".join(
        [r.getMessage() for r in caplog.records] + [r.exc_text or "" for r in caplog.records]
    )
    assert "***" in logged
    for secret in SECRETS.values():
        assert secret not in logged
        for envelope in envelopes:
            assert secret not in envelope
    assert json.loads(envelopes[0])["error"].startswith("log_leaky failed: failed with ***")


def test_nothing_is_redacted_or_serialised_when_debug_is_off(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("redaction work on the success path with DEBUG off")

    for name in ("preview", "redact_text", "redact_preview"):
        monkeypatch.setattr(runtime, name, forbidden)
    caplog.set_level(logging.INFO, logger=LOGGER)
    assert json.loads(fetch({"q": "x"}))["success"] is True
    assert [level for level, _ in messages(caplog)] == [logging.INFO]


def test_warning_level_logger_emits_nothing_on_success(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger=LOGGER)
    fetch({"q": "x"})
    assert messages(caplog) == []
