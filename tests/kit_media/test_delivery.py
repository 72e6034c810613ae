"""deliver_media: one error rule, truthful success, privacy-safe results and logs."""

from __future__ import annotations

import contextvars
import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from kit_media import (
    MediaDeliveryResult,
    MediaError,
    MediaPayload,
    MediaType,
    deliver_media,
    transform_media_delivery_output,
)
from kit_media._markers import MARKERS
from kit_media._session import NO_SESSION_NOTE

if TYPE_CHECKING:
    from tests.kit_media.conftest import FakeHost, InTurn

CHAT = "-1001234567890"
TOPIC = "17585"
TOKEN = "7012345678:AAHf3kQx9V2mZP1wLrT8sYbN4cJd6eGuK0o"


def test_a_delivery_sends_the_payloads_message_to_the_current_chat(
    host: FakeHost, image: Path
) -> None:
    host.in_chat()
    result = deliver_media(MediaPayload(image), session_id="s-1", task_id="t-1")

    [(args, kwargs)] = host.handler_calls
    assert args == {
        "action": "send",
        "target": f"telegram:{CHAT}:{TOPIC}",
        "message": f"MEDIA:{image}",
    }
    assert kwargs["session_id"] == "s-1"
    assert kwargs["task_id"] == "t-1"
    assert host.policy_calls == [str(image)]
    assert result == MediaDeliveryResult(
        success=True,
        media_type=MediaType.AUTO,
        path=image,
        requested_target="origin",
        display_target="telegram:…7890:…7585",
        spoiler=False,
        host_result=result.host_result,
        reason=None,
        suppression_armed=True,
        suppression_note=None,
    )
    assert dict(result.host_result) == {
        "success": True,
        "platform": "telegram",
        "chat_id": "…7890",
        "message_id": "11",
    }


def test_as_dict_is_json_ready_with_the_upstream_keys(host: FakeHost, voice: Path) -> None:
    result = deliver_media(MediaPayload(voice, MediaType.VOICE), f"telegram:{CHAT}")
    data = result.as_dict()
    assert json.loads(json.dumps(data)) == data
    assert data == {
        "success": True,
        "requested_target": "telegram:…7890",
        "display_target": "telegram:…7890",
        "media_type": "voice",
        "path": str(voice),
        "host_result": {
            "success": True,
            "platform": "telegram",
            "chat_id": "…7890",
            "message_id": "11",
        },
        "spoiler": False,
        "reason": None,
        "suppression_armed": False,
        "suppression_note": NO_SESSION_NOTE,
    }
    data["host_result"]["chat_id"] = "changed"
    assert result.host_result["chat_id"] == "…7890"


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("Message sent!", "the host's reply was not valid JSON"),
        ("", "the host's reply was not valid JSON"),
        ("[1, 2]", "the host's reply was a JSON list, not an object"),
        ('"ok"', "the host's reply was a JSON str, not an object"),
        ("{}", "the host's reply did not report success"),
        ('{"success": "yes"}', "the host's reply did not report success"),
        ('{"success": false}', "the host's reply did not report success"),
        ('{"error": "Telegram send failed: Forbidden"}', "Telegram send failed: Forbidden"),
        (
            '{"error": "No deliverable text or media", "warnings": ["Failed to send media x"]}',
            "No deliverable text or media (Failed to send media x)",
        ),
        (
            '{"success": true, "warnings": ["MEDIA attachments were omitted for sms"]}',
            "the host sent the message but not all media: MEDIA attachments were omitted",
        ),
        (
            '{"success": true, "skipped": true, "reason": "cron_auto_delivery_duplicate_target"}',
            "the host skipped the send (cron_auto_delivery_duplicate_target)",
        ),
    ],
)
def test_only_a_clean_explicit_success_counts(
    host: FakeHost, image: Path, reply: str, reason: str
) -> None:
    host.reply = reply
    result = deliver_media(MediaPayload(image), "telegram", session_id="s-1")
    assert result.success is False
    assert result.reason is not None
    assert result.reason.startswith(reason)
    assert not MARKERS.is_armed("s-1")


def test_a_failed_delivery_arms_nothing_and_a_success_arms_its_session(
    host: FakeHost, image: Path
) -> None:
    host.reply = '{"error": "nope"}'
    deliver_media(MediaPayload(image), "telegram", session_id="s-1")
    assert transform_media_delivery_output(response_text="text", session_id="s-1") is None

    host.reply = '{"success": true}'
    deliver_media(MediaPayload(image), "telegram", session_id="s-1")
    assert transform_media_delivery_output(response_text="text", session_id="s-1") == "NO_REPLY"
    assert transform_media_delivery_output(response_text="text", session_id="s-1") is None


def test_arming_uses_the_session_hermes_bound_for_this_turn_never_the_session_key(
    host: FakeHost, image: Path, caplog: pytest.LogCaptureFixture, in_turn: InTurn
) -> None:
    host.session["HERMES_SESSION_KEY"] = "agent:main:telegram:group:-100"
    unnamed = deliver_media(MediaPayload(image), "telegram")
    assert len(MARKERS) == 0
    assert (unnamed.suppression_armed, unnamed.suppression_note) == (False, NO_SESSION_NOTE)
    assert "event=media_final_response_suppression_unavailable reason=no_session_id" in caplog.text

    bound = in_turn("20260101_120000_abc123", deliver_media, MediaPayload(image), "telegram")
    assert (bound.suppression_armed, bound.suppression_note) == (True, None)
    assert MARKERS.is_armed("20260101_120000_abc123")
    assert not MARKERS.is_armed("agent:main:telegram:group:-100")


def test_the_process_wide_session_id_is_never_armed(
    host: FakeHost, image: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # get_session_env falls back to os.environ when this context bound nothing, and
    # hermes writes os.environ for whichever agent it set up last: another session's id
    monkeypatch.setenv("HERMES_SESSION_ID", "another-session")
    host.session["HERMES_SESSION_ID"] = "another-session"  # what get_session_env answers
    result = deliver_media(MediaPayload(image), "telegram")
    assert result.success is True
    assert result.suppression_armed is False
    assert result.suppression_note == NO_SESSION_NOTE
    assert "session_id" in NO_SESSION_NOTE
    assert "**kwargs" in NO_SESSION_NOTE
    assert len(MARKERS) == 0
    assert transform_media_delivery_output(response_text="hi", session_id="another-session") is None


@pytest.mark.parametrize("given", ["", "   ", None, 42])
def test_a_blank_or_non_text_session_id_falls_back_to_the_bound_one_only(
    host: FakeHost, image: Path, given: object, in_turn: InTurn
) -> None:
    unbound = deliver_media(MediaPayload(image), "telegram", session_id=given)
    assert unbound.suppression_armed is False
    bound = in_turn(
        "turn-session", deliver_media, MediaPayload(image), "telegram", session_id=given
    )
    assert bound.suppression_armed is True
    assert MARKERS.is_armed("turn-session")


def test_the_runtime_session_id_wins_over_the_bound_one(
    host: FakeHost, image: Path, in_turn: InTurn
) -> None:
    result = in_turn(
        "task-local", deliver_media, MediaPayload(image), "telegram", session_id="from-handler"
    )
    assert result.suppression_armed is True
    assert MARKERS.is_armed("from-handler")
    assert not MARKERS.is_armed("task-local")


def test_two_variables_of_that_name_that_disagree_name_no_session(
    host: FakeHost, image: Path, in_turn: InTurn
) -> None:
    other = contextvars.ContextVar[str]("HERMES_SESSION_ID")

    def both() -> MediaDeliveryResult:
        other.set("second")
        return deliver_media(MediaPayload(image), "telegram")

    result = in_turn("first", both)
    assert result.suppression_armed is False
    assert len(MARKERS) == 0


def test_a_failed_delivery_neither_arms_nor_adds_a_note(host: FakeHost, image: Path) -> None:
    host.reply = '{"error": "nope"}'
    result = deliver_media(MediaPayload(image), "telegram", session_id="s-1")
    assert (result.suppression_armed, result.suppression_note) == (False, None)


def test_a_blocked_delivery_is_a_failure_with_the_block_message(
    host: FakeHost, image: Path
) -> None:
    host.block = "sending is paused"
    result = deliver_media(MediaPayload(image), "telegram", session_id="s-1")
    assert (result.success, result.reason) == (False, "sending is paused")
    assert dict(result.host_result) == {"error": "sending is paused"}
    assert host.handler_calls == []
    assert not MARKERS.is_armed("s-1")


def test_the_hosts_media_policy_refusal_is_a_failure_before_any_send(
    host: FakeHost, image: Path
) -> None:
    host.policy = lambda path: None
    result = deliver_media(MediaPayload(image, caption="would go out alone"), "telegram")
    assert result.success is False
    assert result.reason is not None
    assert result.reason.startswith("hermes' media policy refuses to deliver this file")
    assert host.pre_calls == []
    assert host.handler_calls == []
    assert dict(result.host_result) == {}


def test_origin_outside_a_chat_is_a_failure_not_an_exception(host: FakeHost, image: Path) -> None:
    result = deliver_media(MediaPayload(image))
    assert result.success is False
    assert result.requested_target == result.display_target == "origin"
    assert result.reason is not None
    assert "no platform chat to deliver to" in result.reason
    assert host.handler_calls == []


def test_without_hermes_the_delivery_fails_with_the_reason(image: Path) -> None:
    result = deliver_media(MediaPayload(image), "telegram")
    assert result.success is False
    assert result.reason is not None
    assert result.reason.startswith("hermes-agent is not importable")


def test_an_unexpected_host_shape_is_a_failure(
    host: FakeHost, image: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kit_media.delivery

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise AttributeError("host moved things")

    monkeypatch.setattr(kit_media.delivery, "invoke_host_tool", broken)
    result = deliver_media(MediaPayload(image), "telegram")
    assert (result.success, result.reason) == (
        False,
        "kit-media could not complete the delivery: AttributeError",
    )


@pytest.mark.parametrize("payload", [None, "/tmp/cat.png", {"path": "/tmp/cat.png"}])
def test_a_payload_that_is_not_a_media_payload_raises(host: FakeHost, payload: Any) -> None:
    with pytest.raises(MediaError, match="deliver_media needs a MediaPayload"):
        deliver_media(payload)


@pytest.mark.parametrize("target", ["", "telegram:", 42, None])
def test_a_malformed_target_raises(host: FakeHost, image: Path, target: Any) -> None:
    with pytest.raises(MediaError, match="delivery target"):
        deliver_media(MediaPayload(image), target)
    assert host.handler_calls == []


def test_a_file_removed_after_the_payload_was_built_raises(host: FakeHost, image: Path) -> None:
    payload = MediaPayload(image)
    image.unlink()
    with pytest.raises(MediaError, match="does not exist"):
        deliver_media(payload, "telegram")
    assert host.handler_calls == []


def test_raw_ids_and_tokens_never_reach_the_result(host: FakeHost, image: Path) -> None:
    host.in_chat()
    host.reply = json.dumps(
        {
            "error": f"Telegram send failed for {CHAT} (thread {TOPIC}) via bot{TOKEN}",
            "chat_id": CHAT,
            "target": f"telegram:{CHAT}:{TOPIC}",
            "details": {"note": f"chat_id: {CHAT}", "token": TOKEN, "list": [CHAT]},
        }
    )
    result = deliver_media(MediaPayload(image), session_id="s-1")
    text = json.dumps(result.as_dict())
    assert CHAT not in text
    assert CHAT.lstrip("-") not in text
    assert TOPIC not in text
    assert TOKEN not in text
    assert TOKEN.split(":")[1] not in text
    assert result.host_result["target"] == "telegram:…7890:…7585"
    assert result.host_result["details"]["token"] == "***"
    assert result.reason is not None
    assert "…7890" in result.reason


def test_home_channel_ids_echoed_by_the_host_are_masked(host: FakeHost, image: Path) -> None:
    home = "-1009876543210"
    host.reply = json.dumps(
        {
            "success": True,
            "chat_id": home,
            "note": f"Sent to telegram home channel (chat_id: {home})",
        }
    )
    result = deliver_media(MediaPayload(image), "telegram")
    assert result.success is True
    assert dict(result.host_result) == {
        "success": True,
        "chat_id": "…3210",
        "note": "Sent to telegram home channel (chat_id: …3210)",
    }


def test_logs_name_the_file_and_never_the_folder_ids_or_token(
    host: FakeHost, image: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="kit_media")
    host.in_chat()
    deliver_media(MediaPayload(image), session_id="s-1")
    host.reply = json.dumps({"error": f"Failed to send media {image}: bad bot{TOKEN} {CHAT}"})
    deliver_media(MediaPayload(image), session_id="s-1")
    host.block = f"blocked for {CHAT}"
    deliver_media(MediaPayload(image), session_id="s-1")

    records = [r for r in caplog.records if r.name.startswith("kit_media")]
    assert {r.levelname for r in records} >= {"INFO", "WARNING"}
    text = "\n".join(r.getMessage() for r in records)
    assert "file=cat.png" in text
    assert "event=media_delivery_started target=telegram:…7890:…7585" in text
    assert str(image.parent) not in text
    assert CHAT.lstrip("-") not in text
    assert TOKEN.split(":")[1] not in text


def test_a_kit_tool_returning_a_blocked_delivery_answers_with_an_error_envelope(
    host: FakeHost, image: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from kit_core import ToolFailure, tool

    @tool(toolset="tests", name="media_send")
    def media_send(args: dict[str, Any], **kwargs: Any) -> MediaDeliveryResult:
        """Send the image."""
        return deliver_media(MediaPayload(image), "telegram", **kwargs)

    caplog.set_level(logging.INFO, logger=__name__)
    host.block = "sending is paused"
    failed = deliver_media(MediaPayload(image), "telegram")
    assert failed.tool_failure() == ToolFailure(
        "could not deliver cat.png to telegram (home channel): sending is paused",
        "media_delivery_failed",
    )
    assert json.loads(media_send({}, session_id="s-1")) == {
        "success": False,
        "error": (
            "media_send failed: could not deliver cat.png to telegram (home channel):"
            " sending is paused"
        ),
        "error_code": "media_delivery_failed",
    }
    (line,) = [r.getMessage() for r in caplog.records if r.name == __name__]
    assert line.startswith("media_send: returned failure; elapsed_ms=")
    assert line.endswith(
        "; error_code=media_delivery_failed; error=could not deliver cat.png"
        " to telegram (home channel): sending is paused"
    )

    host.block = None  # the same tool, a delivery that succeeds: the success envelope
    out = json.loads(media_send({}, session_id="s-1"))
    assert out["success"] is True
    assert out["data"]["success"] is True
    assert out["data"]["reason"] is None
    assert out["data"]["path"] == str(image)
    assert out["data"]["host_result"]["success"] is True
    assert deliver_media(MediaPayload(image), "telegram").tool_failure() is None
