"""Privacy: ids the caller never gave are masked wherever the host names them; secret-shaped
targets are refused on the text as given and never echoed."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from kit_media import MediaError, MediaPayload, deliver_media, resolve_delivery_target
from kit_media._privacy import mask_id, mask_ids_in_text, scrub_host_result, scrub_text

if TYPE_CHECKING:
    from tests.kit_media.conftest import FakeHost

TOKEN = "7012345678:AAHf3kQx9V2mZP1wLrT8sYbN4cJd6eGuK0o"
NEW_CHAT = "-1005550001112"
HOME = "-1009876543210"


@pytest.mark.parametrize(
    ("text", "raw", "masked"),
    [
        (f"Group migrated to supergroup. New chat id: {NEW_CHAT}.", NEW_CHAT, "…1112."),
        (f"Sent to telegram home channel (chat_id: {HOME})", HOME, "(chat_id: …3210)"),
        ("Discord: Unknown Channel 998877665544332211", "998877665544332211", "…2211"),
        ("Signal: +15551234567 is not registered", "+15551234567", "…4567"),
        ("User @bot:matrix.example is not in room", "@bot:matrix.example", "…bot:…mple"),
        ("room !AbCdEf:matrix.org is gone", "!AbCdEf:matrix.org", "…CdEf:….org"),
        ("mailbox alice@example.org refused", "alice@example.org", "….org"),
        ("JID 15551234567@s.whatsapp.net unknown", "15551234567@s.whatsapp.net", "….net"),
        ("Chat @my_channel not found", "@my_channel", "…nnel"),
        ("channel_not_found: C024BE91L", "C024BE91L", "…E91L"),
        ("open_id oc_5ad573a6bd6a1c3b8e5d8f0e3c0e7a1b invalid", "5ad573a6bd6a1c3b8e5d", "…7a1b"),
        ("skipped telegram:-100123456:17585", "100123456", "telegram:…3456:…7585"),
    ],
)
def test_every_id_shape_in_host_text_is_masked_like_a_route(
    text: str, raw: str, masked: str
) -> None:
    shown = mask_ids_in_text(text)
    assert raw not in shown
    assert masked in shown


@pytest.mark.parametrize(
    "text",
    [
        "Telegram API error (400): Bad Request: chat not found",
        "Flood control exceeded. Retry in 35 seconds",
        "at 2026-01-01 10:00:00 (HTTP/1.1), caption 1024 units",
        "python-telegram-bot not installed. Run: pip install python-telegram-bot",
    ],
)
def test_ordinary_host_text_stays_readable(text: str) -> None:
    assert mask_ids_in_text(text) == text


def test_a_masked_id_is_never_masked_again() -> None:
    once = mask_ids_in_text(f"new chat {NEW_CHAT}, room !AbCdEf:matrix.org, @my_channel")
    assert mask_ids_in_text(once) == once


def test_secrets_are_redacted_before_ids_are_masked() -> None:
    # masking the bot id first would break the token's shape and let its secret part through
    shown = scrub_text(f"POST https://api.telegram.org/bot{TOKEN}/sendPhoto and {TOKEN}")
    assert TOKEN.split(":")[1] not in shown
    assert "AAHf3k" not in shown
    assert shown.count("***") == 2


def test_values_under_any_id_key_and_large_integers_are_masked_message_ids_kept() -> None:
    scrubbed = scrub_host_result(
        {
            "success": True,
            "message_id": "4202",
            "migrate_to_chat_id": -1005550001112,
            "new_chat_id": "4242",
            "details": {"recipient": [15551234567], "retry_after": 30, "count": 2},
            NEW_CHAT: "an id as a key",
        },
        raw_ids=(),
    )
    assert scrubbed == {
        "success": True,
        "message_id": "4202",
        "migrate_to_chat_id": "…1112",
        "new_chat_id": "…242",
        "details": {"recipient": ["…4567"], "retry_after": 30, "count": 2},
        "…1112": "an id as a key",
    }


def test_mask_id_is_the_route_masking() -> None:
    assert mask_id("-1001234567890:17585") == "…7890:…7585"


# -- through deliver_media ----------------------------------------------------------------


def test_a_chat_migrated_error_never_shows_the_new_chat_id(
    host: FakeHost, image: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="kit_media")
    error = f"Telegram send failed: Group migrated to supergroup. New chat id: {NEW_CHAT}"
    host.reply = json.dumps({"error": error})
    result = deliver_media(MediaPayload(image), "telegram:-100123456", session_id="s-1")
    assert result.success is False
    assert result.reason == (
        "Telegram send failed: Group migrated to supergroup. New chat id: …1112"
    )
    shown = json.dumps(result.as_dict()) + repr(result) + caplog.text
    assert NEW_CHAT.lstrip("-") not in shown
    assert "New chat id: …1112" in caplog.text


def test_a_home_channel_id_is_masked_even_when_the_reply_has_no_chat_id_key(
    host: FakeHost, image: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="kit_media")
    host.reply = json.dumps(
        {"success": True, "note": f"Sent to telegram home channel (chat_id: {HOME})"}
    )
    result = deliver_media(MediaPayload(image), "telegram", session_id="s-1")
    assert result.success is True
    assert result.host_result["note"] == "Sent to telegram home channel (chat_id: …3210)"
    assert HOME.lstrip("-") not in json.dumps(result.as_dict()) + caplog.text


def test_a_blocking_policys_message_is_host_text_too(host: FakeHost, image: Path) -> None:
    host.block = f"chat {HOME} is muted"
    result = deliver_media(MediaPayload(image), "telegram", session_id="s-1")
    assert result.reason == "chat …3210 is muted"
    assert HOME.lstrip("-") not in json.dumps(result.as_dict())


def test_a_failed_spoiler_send_masks_the_new_chat_id_in_the_telegram_error(
    host: FakeHost, image: Path
) -> None:
    host.bot_failures["send_photo"] = RuntimeError(
        f"Group migrated to supergroup. New chat id: {NEW_CHAT}"
    )
    result = deliver_media(MediaPayload(image, spoiler=True), "telegram:-100123456")
    assert result.success is False
    assert result.reason is not None
    assert result.reason.endswith("New chat id: …1112")
    assert NEW_CHAT.lstrip("-") not in json.dumps(result.as_dict())


# -- secret-shaped targets ----------------------------------------------------------------


@pytest.mark.parametrize(
    "target",
    [
        "AKIAIOSFODNN7EXAMPLE",  # lower-cased, this is a valid platform name and no secret
        "AKIAIOSFODNN7EXAMPLE:12345",
        "AIzaSyA1234567890abcdefghijklmnopqrstu",
        "telegram:AKIAIOSFODNN7EXAMPLE",
        f"telegram:{TOKEN}",
    ],
)
def test_a_secret_shaped_target_is_refused_on_the_text_as_given_and_never_echoed(
    host: FakeHost, image: Path, target: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="kit_media")
    with pytest.raises(MediaError, match="looks like it holds a secret") as refused:
        resolve_delivery_target(target)
    with pytest.raises(MediaError):
        deliver_media(MediaPayload(image), target, session_id="s-1")
    message = str(refused.value)
    assert "***" in message
    for form in (target, target.lower()):
        for part in form.split(":"):
            if len(part) >= 12:
                assert part not in message
                assert part not in caplog.text
    assert host.handler_calls == []
