"""Inputs this suite found breaking a contract, kept as plain examples once fixed."""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from kit_core import RegistrationError, ToolDefinitionError, int_arg, tool
from kit_lifecycle import command, register_plugin
from kit_media import MediaError, MediaPayload, resolve_delivery_target


@pytest.mark.parametrize(
    "prop",
    [{"type": True}, {"type": "string", "enum": None}, {"type": "string", "pattern": "("}],
)
def test_a_supplied_schema_no_check_can_be_made_of_is_a_definition_error(prop: Any) -> None:
    schema = {"parameters": {"type": "object", "properties": {"a": prop}}}
    with pytest.raises(ToolDefinitionError, match="cannot be turned into argument checks"):
        tool(toolset="hardening", name="odd_schema", schema=schema, description="D.")(
            lambda args, **kwargs: args
        )


def _cycle() -> list[Any]:
    loop: list[Any] = []
    loop.append(loop)
    return loop


@pytest.mark.parametrize(
    "result", [{(1, 2): "tuple key"}, 10**5000, _cycle()], ids=["tuple-key", "huge-int", "cycle"]
)
def test_a_slash_reply_json_cannot_hold_is_still_text(result: Any) -> None:
    @command("hardening-odd-reply", "Replies oddly.")
    def odd(raw_args: str) -> object:
        return result

    reply = odd("x")
    assert isinstance(reply, str)
    assert "cannot be written as JSON text" in reply


@pytest.mark.parametrize("skills", [None, 5, b"SKILL"])
def test_register_plugin_refuses_skills_that_are_not_a_list(skills: Any) -> None:
    calls: list[Any] = []
    ctx = SimpleNamespace(register_tool=lambda **kw: calls.append(kw))
    with pytest.raises(RegistrationError, match="skills must be a list"):
        register_plugin(ctx, [], skills)
    assert calls == []


class _NoPath(os.PathLike[str]):
    def __init__(self, value: Any) -> None:
        self.value = value

    def __fspath__(self) -> Any:
        if isinstance(self.value, BaseException):
            raise self.value
        return self.value


@pytest.mark.parametrize("path", [_NoPath(5), _NoPath(ValueError("no path"))])
def test_a_path_like_that_gives_no_path_is_a_media_error(path: Any) -> None:
    with pytest.raises(MediaError, match="gave no path"):
        MediaPayload(path)


def test_a_caption_with_an_unpaired_surrogate_is_a_media_error(media_file: Path) -> None:
    with pytest.raises(MediaError, match="unpaired surrogate"):
        MediaPayload(media_file, caption=json.loads('"\\ud800"'))


def test_a_target_shaped_like_a_secret_is_refused_without_quoting_it() -> None:
    secret = "xoxb-123456789012-abcdefghijklmnopqrstuvwx"
    with pytest.raises(MediaError) as refused:
        resolve_delivery_target(secret)
    assert secret not in str(refused.value)
    assert "***" in str(refused.value)
    with pytest.raises(MediaError) as refused:
        resolve_delivery_target(f"{secret}:12345")
    assert secret not in str(refused.value)


@tool(toolset="hardening", requires_env=["HPK_HARDENING_CUT"], params={"n": int_arg("N")})
def counted(args: dict[str, Any], **kwargs: Any) -> object:
    """Counts."""
    return args


def test_a_secret_cut_short_in_an_error_is_still_hidden(
    monkeypatch: pytest.MonkeyPatch, capture: Any
) -> None:
    env_secret = "q" * 20 + "r" * 28
    monkeypatch.setenv("HPK_HARDENING_CUT", env_secret)
    shaped = "123456789:AA" + "b" * 33  # longer than the 37-character value preview
    with capture() as logs:
        answers = [counted({"n": env_secret}), counted({"n": shaped}), counted({shaped: 1})]
    for text in [*answers, *logs.lines]:
        assert env_secret[:12] not in text
        assert "b" * 12 not in text
        assert "invalid 123456789:AA" not in text  # the rejection reason names the key
