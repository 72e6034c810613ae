"""kit-media on the in-memory host's upstream profile (``InMemoryHost(hermes="0.21")``),
and the same plugins on the default profile (hermes-agent 0.19.0), whose behaviour is
unchanged. The media-postcard example delivers; a small plugin guards.

Upstream behaviour pinned here, modelled from source
(``kit_devtools.testing._upstream_gateway`` and ``_hooks``):

* the human-turn silence guard: ``gateway/response_filters.py`` at
  ``06202cddf797e761f2905c0c088129e2683ff7b7`` L103-105 ``display_kind_for_event``,
  L108-115 ``is_machinery_display_kind``, L118-128 ``allows_final_silence`` (PR #111624,
  in the v0.21.3 release per upstream issue #113031); a person's turn that ends in a bare
  marker gets a visible fallback (``_UNEXPECTED_SILENCE_REPLY``, ``gateway/run_turn.py``
  as PR #111624 merged it; ``_hmwa_shape_agent_response`` at
  0107e0399523cf47587bf248d7e9027b7cd1c3df);
* ``{"action": "modify", "args": {...}}`` from ``pre_tool_call`` is merged over the call's
  arguments (``_get_pre_tool_call_directive_details`` and ``_dispatch_pre_tool_call_hooks``,
  ``hermes_cli/plugins.py`` L1784-1827 and L1887-1895 at
  00067189dfecf833d4d009c2dd977ae85cf800e0; PR #87482), which kit-media's guarded
  ``send_message`` call honours.
"""

from __future__ import annotations

import importlib
import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from kit_devtools.testing import InMemoryHost
from kit_devtools.testing._upstream_gateway import UNEXPECTED_SILENCE_REPLY, final_delivery
from kit_media._capabilities import HUMAN_TURN_NOTE, SILENCE_TOKEN

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


def postcard_host(hermes: str | None, tmp_path: Path | None = None) -> InMemoryHost:
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
    """The profile's own silence filter, read from its stand-in while it runs."""
    filters = importlib.import_module("gateway.response_filters")
    return bool(filters.is_intentional_silence_response(text))


# -- item 1: final-reply suppression under the human-turn silence guard -------------------


@pytest.mark.upstream("media: final reply, later upstream's silence guard (06202cdd)")
@pytest.mark.parametrize(("hermes", "guarded"), [("0.21", True), (None, False)])
def test_the_profile_offers_the_guards_predicates_on_upstream_only(
    hermes: str | None, guarded: bool
) -> None:
    # gateway/response_filters.py L103-128 @06202cdd; 0.19.0 has none of them
    with InMemoryHost(hermes=hermes).activate():
        filters = importlib.import_module("gateway.response_filters")

        names = ("display_kind_for_event", "is_machinery_display_kind", "allows_final_silence")
        assert all(hasattr(filters, name) for name in names) is guarded
        if guarded:
            healthy = {"failed": False, "completed": True}
            allows: Any = filters.allows_final_silence
            assert allows(healthy, None) is False  # a person's turn
            assert allows(healthy, "internal_notification") is True  # machinery
            assert allows(healthy, None, True) is True  # a healthy heartbeat turn
            assert allows({**healthy, "failed": True}, None, True) is False


@pytest.mark.upstream("media: final reply, later upstream's silence guard (06202cdd)")
def test_on_upstream_a_delivery_on_a_persons_turn_arms_no_suppression() -> None:
    host = postcard_host("0.21")
    data = send(host)
    assert host.sent_messages[0]["message"] == f"MEDIA:{PICTURE}"
    assert data["suppression_armed"] is False
    assert data["suppression_note"] == HUMAN_TURN_NOTE
    # the model's final reply is left alone, and the gateway delivers it as it is
    assert host.invoke_hook("transform_llm_output", response_text="Sent.", session_id="s-1") == []
    with host.activate():
        assert final_delivery("Sent.", guard=True, is_silence=is_silence) == "Sent."
        # what arming would have cost: a person's turn that ends in the token gets the
        # gateway's fallback text instead of silence
        assert final_delivery(SILENCE_TOKEN, guard=True, is_silence=is_silence) == (
            UNEXPECTED_SILENCE_REPLY
        )


def test_on_0_19_the_same_delivery_arms_suppression() -> None:
    host = postcard_host(None)
    data = send(host)
    assert (data["suppression_armed"], data["suppression_note"]) == (True, None)
    replies = host.invoke_hook("transform_llm_output", response_text="Sent.", session_id="s-1")
    assert replies == [SILENCE_TOKEN]
    with host.activate():
        assert final_delivery(SILENCE_TOKEN, guard=False, is_silence=is_silence) is None


# -- item 4: the modify directive reaches kit-media's guarded host call --------------------


@pytest.mark.upstream("media: host calls follow a pre_tool_call modify directive")
@pytest.mark.parametrize(
    ("hermes", "message"),
    [("0.21", "MEDIA:/checked/by/the/guard.png"), (None, f"MEDIA:{PICTURE}")],
)
def test_a_modify_directive_changes_what_send_message_runs_with_on_upstream_only(
    tmp_path: Path, hermes: str | None, message: str
) -> None:
    host = postcard_host(hermes, tmp_path)
    send(host)
    (sent,) = host.sent_messages
    assert sent["message"] == message
    assert sent["target"] == "telegram:-1001234567890"  # keys the directive left alone
