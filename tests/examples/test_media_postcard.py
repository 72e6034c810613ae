"""The media-postcard example: a delivery through the recorded send_message, then silence."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from kit_core.hermes import first_release
from kit_devtools.testing import InMemoryHost

PLUGIN = Path(__file__).resolve().parents[2] / "examples" / "media-postcard"
SILENCE_FILTER = "gateway.response_filters.is_intentional_silence_response"
"""The gateway's silence filter (``HostRelease.functions``; 0.22.2 has it without the
``SILENT_REPLY_TOKEN`` constant, so ``silence_token`` is empty there)."""
SESSION_BINDER = "gateway.session_context.set_current_session_id"
"""What binds the turn's session id for a tool to find (``HostRelease.functions``, 0.15.0 on)."""


@pytest.fixture
def host(plugin_host: InMemoryHost) -> InMemoryHost:
    plugin = plugin_host.load(PLUGIN)
    assert plugin.enabled, plugin.error
    # the chat the gateway is answering, as it tells a tool (its session too: before
    # 0.17.0 hermes passes a tool handler no session_id keyword)
    plugin_host.session_env.update(
        {
            "HERMES_SESSION_PLATFORM": "telegram",
            "HERMES_SESSION_CHAT_ID": "-1001234567890",
            "HERMES_SESSION_THREAD_ID": "17585",
            "HERMES_SESSION_ID": "s1",
        }
    )
    return plugin_host


def test_a_picture_goes_to_the_current_chat_and_the_reply_is_silenced_where_it_may_be(
    host: InMemoryHost,
) -> None:
    out = json.loads(
        host.call_tool(
            "postcard_send_picture", {"picture": "harbour.png", "caption": "Hi"}, session_id="s1"
        )
    )
    assert out["success"] is True
    data = out["data"]
    assert data["success"] is True
    assert data["requested_target"] == "origin"
    assert "1234567890" not in json.dumps(data)
    (sent,) = host.sent_messages
    assert sent["target"] == "telegram:-1001234567890:17585"
    album = PLUGIN / "album" / "harbour.png"
    assert sent["message"] == f"Hi\nMEDIA:{album.resolve()}"
    release = host.release
    if "session_id" not in release.tool_keywords and SESSION_BINDER not in release.functions:
        # 0.13.0 and 0.14.0 neither pass the handler its session nor bind it for the turn:
        # nothing names the session whose reply to silence, so the kit arms nothing
        assert data["suppression_armed"] is False
        assert data["suppression_note"].startswith(
            "the final reply of this turn will be sent as usual: the call named no session"
        )
        return
    if SILENCE_FILTER not in host.release.functions:
        # no silence filter in this release's gateway (before 0.17.0): a silence token would
        # reach the chat as text, so the kit arms nothing and says which release has one
        assert data["suppression_armed"] is False
        since = first_release(lambda r: SILENCE_FILTER in r.functions)
        assert since is not None
        assert since.version in data["suppression_note"]
        assert (
            host.invoke_hook("transform_llm_output", response_text="Here it is!", session_id="s1")
            == []
        )
        return
    if host.release.silence_predicates:
        # this release's gateway answers a person's turn that ends in silence with a visible
        # "unexpected silence" reply (0.21.4 on): the kit arms nothing and tells the model
        assert data["suppression_armed"] is False
        assert "does not let a person's turn end in silence" in data["suppression_note"]
        assert (
            host.invoke_hook("transform_llm_output", response_text="Here it is!", session_id="s1")
            == []
        )
        return
    # the model's final text for this turn is replaced by hermes' silence token, once
    assert data["suppression_armed"] is True
    assert host.invoke_hook(
        "transform_llm_output", response_text="Here it is!", session_id="s1"
    ) == ["NO_REPLY"]
    assert (
        host.invoke_hook("transform_llm_output", response_text="Next turn", session_id="s1") == []
    )


def test_an_unknown_picture_is_an_error_listing_the_album(host: InMemoryHost) -> None:
    out = json.loads(
        host.call_tool("postcard_send_picture", {"picture": "../plugin.yaml"}, session_id="s2")
    )
    assert out["error"] == (
        "postcard_send_picture failed: no picture '../plugin.yaml' in the album;"
        " available: harbour.png, sunset.png"
    )
    assert host.sent_messages == []


def test_a_failed_delivery_is_an_error_envelope_and_a_logged_failure(
    plugin_host: InMemoryHost, caplog: pytest.LogCaptureFixture
) -> None:
    plugin = plugin_host.load(PLUGIN)
    assert plugin.enabled, plugin.error
    caplog.set_level(logging.INFO)
    # no chat bound for this turn: "origin" has nowhere to go, so nothing is sent
    reply = plugin_host.call_tool("postcard_send_picture", {"picture": "harbour.png"})
    out = json.loads(reply)
    assert out["success"] is False, out
    assert out["error_code"] == "media_delivery_failed"
    assert out["error"].startswith(
        "postcard_send_picture failed: could not deliver harbour.png to origin: "
    )
    assert "data" not in out
    assert plugin_host.sent_messages == []
    (line,) = [r for r in caplog.records if "postcard_send_picture:" in r.getMessage()]
    assert line.levelno == logging.WARNING
    assert "postcard_send_picture: returned failure; elapsed_ms=" in line.getMessage()
    assert "; error_code=media_delivery_failed; error=could not deliver" in line.getMessage()
