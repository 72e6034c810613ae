"""kit-media on the in-memory host playing real releases (``InMemoryHost(hermes=...)``):
the media-postcard example delivers; a small plugin guards.

Behaviour pinned here, by release (``kit_devtools.testing._upstream_gateway`` and
``_hooks``):

* the human-turn silence guard: none on 0.19.0 and 0.21.3; ``display_kind_for_event``
  and ``is_machinery_display_kind`` on 0.21.4 and 0.21.5 (``gateway/response_filters.py``
  L104-113 and L116-123), and ``silence_allowed`` too on 0.22.2 (L126-128), which has no
  ``SILENT_REPLY_TOKEN``; a person's turn that ends in a bare marker gets a visible
  fallback (``_hmwa_shape_agent_response``, ``gateway/run_turn.py`` 0.21.4 L1515-1525,
  0.22.2 L1520-1532);
* ``{"action": "modify", "args": {...}}`` from ``pre_tool_call`` is merged over the call's
  arguments from 0.20.1 (``HostRelease.modify_directive``; ``_get_pre_tool_call_directive_details``
  and ``_dispatch_pre_tool_call_hooks``, ``hermes_cli/plugins.py`` L1784-1827 and
  L1887-1895 at 00067189dfecf833d4d009c2dd977ae85cf800e0), which kit-media's guarded
  ``send_message`` call honours.
"""

from __future__ import annotations

import importlib
import json
import textwrap
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from kit_core.hermes import HostRelease, registry_release
from kit_devtools.testing import InMemoryHost
from kit_devtools.testing._upstream_gateway import (
    PREDICATES,
    final_delivery,
    unexpected_silence_reply,
)
from kit_media._capabilities import SILENCE_TOKEN, human_turn_note

POSTCARD = Path(__file__).resolve().parents[2] / "examples" / "media-postcard"
PICTURE = (POSTCARD / "album" / "harbour.png").resolve()
CHAT = {"HERMES_SESSION_PLATFORM": "telegram", "HERMES_SESSION_CHAT_ID": "-1001234567890"}

GUARD = """
import sys

from hermes_plugin_kit import hook, register_plugin


@hook("pre_tool_call")
def rewrite(tool_name, args, **kwargs):
    if tool_name == "send_message":
        return {"action": "modify", "args": {"message": "MEDIA:/checked/by/the/guard.png"}}
    return None


def register(ctx):
    register_plugin(ctx, sys.modules[__name__])
"""


def postcard_host(hermes: str, tmp_path: Path | None = None) -> InMemoryHost:
    host = InMemoryHost(hermes=hermes, strict=True)
    host.load(POSTCARD)
    if tmp_path is not None:
        directory = tmp_path / "rewriter"
        directory.mkdir()
        (directory / "__init__.py").write_text(textwrap.dedent(GUARD), encoding="utf-8")
        (directory / "plugin.yaml").write_text("name: rewriter\nkind: standalone\n")
        host.load(directory)
    host.session_env.update(CHAT)
    return host


def send(host: InMemoryHost, session_id: str = "s-1") -> dict[str, Any]:
    reply = json.loads(
        host.call_tool("postcard_send_picture", {"picture": "harbour.png"}, session_id=session_id)
    )
    assert reply["success"] is True, reply
    return reply["data"]


def is_silence(text: Any) -> bool:
    """The played release's own silence filter, read from its stand-in while it runs."""
    filters = importlib.import_module("gateway.response_filters")
    return bool(filters.is_intentional_silence_response(text))


def release(version: str) -> HostRelease:
    found = registry_release(version)
    assert found is not None, version
    return found


# -- item 1: final-reply suppression under the human-turn silence guard -------------------


@pytest.mark.parametrize(
    ("hermes", "offered", "token"),
    [
        ("0.19.0", (), True),
        ("0.21.3", (), True),
        ("0.21.4", ("display_kind_for_event", "is_machinery_display_kind"), True),
        ("0.21.5", ("display_kind_for_event", "is_machinery_display_kind"), True),
        (
            "0.22.2",
            ("display_kind_for_event", "is_machinery_display_kind", "silence_allowed"),
            False,
        ),
    ],
)
def test_the_stand_in_offers_exactly_the_releases_predicates(
    hermes: str, offered: tuple[str, ...], token: bool
) -> None:
    assert release(hermes).silence_predicates == offered  # the model, read from the release
    with InMemoryHost(hermes=hermes).activate():
        filters = importlib.import_module("gateway.response_filters")
        assert {name for name in PREDICATES if hasattr(filters, name)} == set(offered)
        assert not hasattr(filters, "allows_final_silence")  # in no release
        assert hasattr(filters, "SILENT_REPLY_TOKEN") is token
        if token:
            assert filters.SILENT_REPLY_TOKEN == SILENCE_TOKEN
        assert filters.is_intentional_silence_response(SILENCE_TOKEN) is True
        if "is_machinery_display_kind" in offered:
            machinery: Any = filters.is_machinery_display_kind
            kind_of: Any = filters.display_kind_for_event
            assert machinery(None) is False  # a person's turn
            assert machinery(filters.INTERNAL_NOTIFICATION_DISPLAY_KIND) is True
            assert kind_of(SimpleNamespace(internal=True)) == "internal_notification"
            heartbeat = SimpleNamespace(internal=False, _heartbeat_session_id="hb-1")
            assert kind_of(heartbeat) == "internal_notification"
            assert kind_of(SimpleNamespace(internal=False)) is None
        if "silence_allowed" in offered:
            allowed: Any = filters.silence_allowed
            assert allowed(None) is False
            assert allowed(None, True) is False
            assert allowed(None, False) is True  # a message not addressed to the bot
            assert allowed("internal_notification", True) is True


@pytest.mark.parametrize(
    ("hermes", "predicate"),
    [("0.21.4", "is_machinery_display_kind"), ("0.22.2", "silence_allowed")],
)
def test_with_the_guard_a_delivery_on_a_persons_turn_arms_no_suppression(
    hermes: str, predicate: str
) -> None:
    host = postcard_host(hermes)
    data = send(host)
    assert host.sent_messages[0]["message"] == f"MEDIA:{PICTURE}"
    assert data["suppression_armed"] is False
    assert data["suppression_note"] == human_turn_note(release(hermes).label, predicate)
    # the model's final reply is left alone, and the gateway delivers it as it is
    assert host.invoke_hook("transform_llm_output", response_text="Sent.", session_id="s-1") == []
    with host.activate():
        played = release(hermes)
        assert final_delivery("Sent.", played, is_silence=is_silence) == "Sent."
        # what arming would have cost: a person's turn that ends in the token gets the
        # gateway's fallback text instead of silence
        assert final_delivery(SILENCE_TOKEN, played, is_silence=is_silence) == (
            unexpected_silence_reply(played)
        )


@pytest.mark.parametrize("hermes", ["0.19.0", "0.21.3"])
def test_without_the_guard_the_same_delivery_arms_suppression(hermes: str) -> None:
    host = postcard_host(hermes)
    data = send(host)
    assert (data["suppression_armed"], data["suppression_note"]) == (True, None)
    replies = host.invoke_hook("transform_llm_output", response_text="Sent.", session_id="s-1")
    assert replies == [SILENCE_TOKEN]
    with host.activate():
        assert final_delivery(SILENCE_TOKEN, release(hermes), is_silence=is_silence) is None


# -- item 4: the modify directive reaches kit-media's guarded host call --------------------


@pytest.mark.parametrize(
    ("hermes", "message"),
    [
        ("0.19.0", f"MEDIA:{PICTURE}"),
        ("0.20.0", f"MEDIA:{PICTURE}"),
        ("0.20.1", "MEDIA:/checked/by/the/guard.png"),
        ("0.22.2", "MEDIA:/checked/by/the/guard.png"),
    ],
)
def test_a_modify_directive_changes_what_send_message_runs_with_from_0_20_1(
    tmp_path: Path, hermes: str, message: str
) -> None:
    host = postcard_host(hermes, tmp_path)
    send(host)
    (sent,) = host.sent_messages
    assert sent["message"] == message
    assert sent["target"] == "telegram:-1001234567890"  # keys the directive left alone
