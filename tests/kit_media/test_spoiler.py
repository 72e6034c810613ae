"""The Telegram spoiler extension: guarded, runtime token, one-shot client, refusals."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

import pytest

from kit_media import MediaPayload, deliver_media
from kit_media._markers import MARKERS

if TYPE_CHECKING:
    from tests.kit_media.conftest import FakeHost

CHAT = "-1001234567890"
TOPIC = "17585"
TOKEN = "7012345678:AAHf3kQx9V2mZP1wLrT8sYbN4cJd6eGuK0o"


def spoiler(image: Path, **kwargs: str) -> MediaPayload:
    return MediaPayload(image, spoiler=True, **kwargs)


def test_the_current_topic_gets_one_spoiler_photo_and_the_client_is_closed(
    host: FakeHost, image: Path
) -> None:
    host.in_chat()
    result = deliver_media(spoiler(image, caption="guess who"), session_id="s-1", task_id="t-1")

    assert result.success is True, result.reason
    assert host.bot_methods == ["initialize", "send_photo", "shutdown"]
    [bot] = host.bots
    assert bot.kwargs == {"token": TOKEN}
    sent = host.bot_calls[1][1]
    assert sent == {
        "chat_id": int(CHAT),
        "photo": image,
        "bytes": image.read_bytes(),
        "has_spoiler": True,
        "caption": "guess who",
        "message_thread_id": int(TOPIC),
    }
    assert host.handler_calls == []  # send_message itself cannot carry has_spoiler
    assert dict(result.host_result) == {
        "success": True,
        "platform": "telegram",
        "chat_id": "…7890",
        "message_id": "321",
        "spoiler": True,
    }
    assert MARKERS.is_armed("s-1")


def test_it_runs_the_same_guard_as_send_message(host: FakeHost, image: Path) -> None:
    host.in_chat()
    deliver_media(spoiler(image), session_id="s-1", tool_call_id="c-1")
    [pre] = host.pre_calls
    assert pre["tool_name"] == "send_message"
    assert pre["args"] == {
        "action": "send",
        "target": f"telegram:{CHAT}:{TOPIC}",
        "message": f"MEDIA:{image}",
        "media_options": {"spoiler": True},
    }
    assert (pre["session_id"], pre["tool_call_id"]) == ("s-1", "c-1")
    [post] = host.post_calls
    assert post["status"] == "ok"
    assert json.loads(post["result"])["spoiler"] is True


def test_a_blocked_spoiler_builds_no_client(host: FakeHost, image: Path) -> None:
    host.in_chat()
    host.block = "no spoilers today"
    result = deliver_media(spoiler(image), session_id="s-1")
    assert (result.success, result.reason) == (False, "no spoilers today")
    assert host.bots == []
    assert host.post_calls[0]["status"] == "blocked"
    assert not MARKERS.is_armed("s-1")


@pytest.mark.parametrize(
    ("target", "chat", "thread"),
    [
        (f"telegram:{CHAT}", int(CHAT), None),
        (f"telegram:{CHAT}:{TOPIC}", int(CHAT), int(TOPIC)),
        (f"telegram:{CHAT}:1", int(CHAT), None),  # a forum's General topic
        ("telegram:@kit_media_channel", "@kit_media_channel", None),
        ("telegram:123456789", 123456789, None),
    ],
)
def test_an_explicit_target_sends_to_its_chat_and_topic(
    host: FakeHost, image: Path, target: str, chat: int | str, thread: int | None
) -> None:
    result = deliver_media(spoiler(image), target)
    assert result.success is True, result.reason
    sent = host.bot_calls[1][1]
    assert sent["chat_id"] == chat
    assert sent.get("message_thread_id") == thread


def test_the_home_channel_and_its_topic(host: FakeHost, image: Path) -> None:
    host.home_chat, host.home_thread = "-1009876543210", "99"
    result = deliver_media(spoiler(image), "telegram")
    assert result.success is True, result.reason
    sent = host.bot_calls[1][1]
    assert (sent["chat_id"], sent["message_thread_id"]) == (-1009876543210, 99)
    assert result.display_target == "telegram (home channel)"
    assert "9876543210" not in json.dumps(result.as_dict())


@pytest.mark.parametrize(
    ("setup", "target", "reason"),
    [
        ({}, "discord:123456789", "spoiler photos are a Telegram-only extension"),
        ({"token": None}, "telegram", "Telegram is not configured in hermes"),
        ({"telegram_enabled": False}, f"telegram:{CHAT}", "Telegram is not configured in hermes"),
        ({}, "telegram", "Telegram has no home channel"),
        ({}, "telegram:#general", "the spoiler path needs a Telegram chat id"),
    ],
)
def test_routes_that_cannot_carry_a_spoiler_are_refused_not_sent_plainly(
    host: FakeHost, image: Path, setup: dict[str, object], target: str, reason: str
) -> None:
    for name, value in setup.items():
        setattr(host, name, value)
    result = deliver_media(spoiler(image), target, session_id="s-1")
    assert result.success is False
    assert result.reason is not None
    assert reason in result.reason
    assert "nothing was sent" in result.reason or "not sent" in result.reason
    assert host.pre_calls == []
    assert host.handler_calls == []
    assert host.bots == []
    assert not MARKERS.is_armed("s-1")


def test_origin_on_another_platform_is_refused(host: FakeHost, image: Path) -> None:
    host.in_chat(platform="discord", chat_id="998877665544", thread_id="")
    result = deliver_media(spoiler(image))
    assert result.reason is not None
    assert "Telegram-only" in result.reason
    assert host.handler_calls == []


def test_without_python_telegram_bot_the_reason_says_how_to_get_it(
    host: FakeHost, image: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "telegram", None)
    result = deliver_media(spoiler(image), f"telegram:{CHAT}")
    assert result.reason is not None
    assert result.reason.startswith("python-telegram-bot is not importable")
    assert "hermes-agent[messaging]" in result.reason


def test_without_the_hosts_media_policy_the_spoiler_is_refused(
    host: FakeHost, image: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "gateway.platforms.base", ModuleType("gateway.platforms.base"))
    result = deliver_media(spoiler(image), f"telegram:{CHAT}")
    assert result.success is False
    assert result.reason is not None
    assert "media path policy" in result.reason
    assert host.bots == []


def test_a_refused_path_is_never_uploaded(host: FakeHost, image: Path) -> None:
    host.policy = lambda path: None
    result = deliver_media(spoiler(image), f"telegram:{CHAT}")
    assert result.success is False
    assert host.bots == []


@pytest.mark.parametrize("failing", ["initialize", "send_photo"])
def test_a_failed_send_closes_the_client_and_hides_the_token(
    host: FakeHost, image: Path, failing: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="kit_media")
    host.bot_failures[failing] = RuntimeError(
        f"The token `{TOKEN}` was rejected: POST https://api.telegram.org/bot{TOKEN}/sendPhoto"
    )
    result = deliver_media(spoiler(image), f"telegram:{CHAT}", session_id="s-1")
    assert result.success is False
    assert host.bot_methods[-1] == "shutdown"
    assert result.reason is not None
    assert result.reason.startswith("Telegram spoiler delivery failed: RuntimeError")
    secret = TOKEN.split(":")[1]
    assert secret not in json.dumps(result.as_dict())
    assert secret not in caplog.text
    assert secret not in json.dumps(host.post_calls, default=str)
    assert host.post_calls[0]["status"] == "error"
    assert not MARKERS.is_armed("s-1")


def test_the_operators_bot_api_server_and_proxy_are_honoured(host: FakeHost, image: Path) -> None:
    host.extra = {"base_url": "http://bot-api.local/bot", "local_mode": True}
    host.proxy = "http://proxy.local:3128"
    assert deliver_media(spoiler(image), f"telegram:{CHAT}").success
    [bot] = host.bots
    assert bot.kwargs["base_url"] == "http://bot-api.local/bot"
    assert bot.kwargs["base_file_url"] == "http://bot-api.local/bot"
    assert bot.kwargs["local_mode"] is True
    assert bot.kwargs["request"].proxy == "http://proxy.local:3128"


def test_it_works_when_called_from_inside_a_running_event_loop(host: FakeHost, image: Path) -> None:
    async def caller() -> bool:
        return deliver_media(spoiler(image), f"telegram:{CHAT}").success

    assert asyncio.run(caller()) is True
    assert host.bot_methods == ["initialize", "send_photo", "shutdown"]
