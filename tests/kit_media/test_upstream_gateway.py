"""kit-media on upstream hermes' newer behaviour, played by the fakes: the ``modify``
directive of ``pre_tool_call`` and the gateway's human-turn silence guard.

Each modelled behaviour cites the upstream source it follows:

* ``modify``: ``hermes_cli/plugins.py`` at 00067189dfecf833d4d009c2dd977ae85cf800e0,
  ``_get_pre_tool_call_directive_details`` L1784-1827 (the merge at L1808-1816) and
  ``_dispatch_pre_tool_call_hooks`` L1887-1895 (``resolve_pre_tool_block``, L1847-1852,
  returns only its ``[0]``), applied by ``model_tools._pre_dispatch_guards`` L765-800
  (stored file id 68283923223, commit not resolved by the store, lines counted from that
  copy: ``if modified_args is not None: function_args = modified_args``, L782-783);
* the silence guard: ``gateway/response_filters.py`` at
  06202cddf797e761f2905c0c088129e2683ff7b7 L103-128, ``gateway/run_turn.py`` at
  0107e0399523cf47587bf248d7e9027b7cd1c3df L28-30 (see ``_upstream_gateway``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from tests.kit_media._upstream_gateway import (
    UNEXPECTED_SILENCE_REPLY,
    final_delivery,
)

from kit_media import MediaPayload, deliver_media, invoke_host_tool
from kit_media._capabilities import HUMAN_TURN_NOTE
from kit_media._markers import MARKERS
from kit_media.suppression import transform_media_delivery_output

if TYPE_CHECKING:
    from tests.kit_media.conftest import FakeHost

ARGS = {"action": "send", "target": "telegram:-1001234567890", "message": "hi"}
CONTEXT = {"task_id": "t-1", "session_id": "s-1", "tool_call_id": "c-1", "turn_id": "u-1"}


# -- modify ---------------------------------------------------------------------------


@pytest.mark.upstream("media: host calls follow a pre_tool_call modify directive")
def test_modify_directive_args_reach_the_host_handler(host: FakeHost) -> None:
    host.dispatch_api = True
    host.modify = [{"message": "hello (checked)"}, {}, "not a dict", {"message": "final"}]
    _install(host)
    reply = json.loads(invoke_host_tool("send_message", ARGS, **CONTEXT))
    assert reply["success"] is True
    ((sent, _),) = host.handler_calls
    # merged over the original args, later directives winning per key
    assert sent == {**ARGS, "message": "final"}
    assert host.pre_calls[0]["args"] == ARGS  # the hooks saw the caller's args
    assert host.post_calls[0]["args"] == sent  # post_tool_call reports what ran


@pytest.mark.upstream("media: host calls follow a pre_tool_call modify directive")
def test_modify_then_block_reports_the_modified_args(host: FakeHost) -> None:
    host.dispatch_api = True
    host.modify = [{"target": "telegram:-100999"}]
    host.block = "not that chat"
    _install(host)
    assert json.loads(invoke_host_tool("send_message", ARGS, **CONTEXT)) == {
        "error": "not that chat"
    }
    assert host.handler_calls == []
    assert host.post_calls[0]["status"] == "blocked"
    assert host.post_calls[0]["args"]["target"] == "telegram:-100999"


@pytest.mark.upstream("media: host calls follow a pre_tool_call modify directive")
def test_no_modify_keeps_the_callers_args_and_the_dispatcher_is_called_once(
    host: FakeHost,
) -> None:
    host.dispatch_api = True
    _install(host)
    invoke_host_tool("send_message", ARGS, **CONTEXT)
    assert [call["args"] for call in host.pre_calls] == [ARGS]
    assert host.handler_calls[0][0] == ARGS


def test_without_the_dispatcher_the_public_guard_is_used(host: FakeHost) -> None:
    # a host without _dispatch_pre_tool_call_hooks (0.19.0) has no modify directive
    host.modify = [{"message": "ignored"}]
    invoke_host_tool("send_message", ARGS, **CONTEXT)
    assert host.handler_calls[0][0] == ARGS


@pytest.mark.upstream("media: host calls follow a pre_tool_call modify directive")
def test_dispatcher_that_raises_blocks(host: FakeHost) -> None:
    host.dispatch_api = True
    host.guard_error = RuntimeError("boom")
    _install(host)
    reply = json.loads(invoke_host_tool("send_message", ARGS, **CONTEXT))
    assert reply["error_code"] == "host_guard_failed"
    assert host.handler_calls == []


# -- the human-turn silence guard -------------------------------------------------------


@pytest.mark.upstream("media: final reply, later upstream's silence guard (06202cdd)")
@pytest.mark.parametrize(
    "generation", ["is_machinery_display_kind", "allows_final_silence", "silence_allowed"]
)
def test_guarded_gateway_arms_no_suppression_and_asks_for_a_short_reply(
    host: FakeHost, image: Path, generation: str
) -> None:
    host.human_turn_guard = generation
    _install(host.in_chat())
    result = deliver_media(MediaPayload(image), **CONTEXT)
    assert result.success
    assert result.suppression_armed is False
    assert result.suppression_note == HUMAN_TURN_NOTE
    assert not MARKERS.is_armed("s-1")
    # the agent's final reply is left alone, so the person never gets the fallback
    final = transform_media_delivery_output(response_text="Here it is.", session_id="s-1")
    assert final is None
    sent = final_delivery("Here it is.", internal=False, guard=True, is_silence=_is_silence)
    assert sent == "Here it is."


@pytest.mark.upstream("media: final reply, later upstream's silence guard (06202cdd)")
def test_what_arming_would_cost_on_a_guarded_gateway() -> None:
    # the reason for the above: a NO_REPLY on a person's turn becomes the fallback text
    guarded = final_delivery("NO_REPLY", internal=False, guard=True, is_silence=_is_silence)
    assert guarded == UNEXPECTED_SILENCE_REPLY
    assert final_delivery("NO_REPLY", internal=True, guard=True, is_silence=_is_silence) is None
    assert final_delivery("NO_REPLY", internal=False, guard=False, is_silence=_is_silence) is None


def test_gateway_without_the_guard_still_arms(host: FakeHost, image: Path) -> None:
    _install(host.in_chat())
    result = deliver_media(MediaPayload(image), **CONTEXT)
    assert result.suppression_armed is True
    assert transform_media_delivery_output(response_text="x", session_id="s-1") == "NO_REPLY"


@pytest.mark.upstream("media: final reply, later upstream's silence guard (06202cdd)")
def test_loaded_run_turn_with_the_fallback_counts_as_the_guard(
    host: FakeHost, image: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import types

    run_turn = types.ModuleType("gateway.run_turn")
    run_turn.__dict__["_unexpected_silence_reply"] = lambda: UNEXPECTED_SILENCE_REPLY
    monkeypatch.setitem(__import__("sys").modules, "gateway.run_turn", run_turn)
    _install(host.in_chat())
    result = deliver_media(MediaPayload(image), **CONTEXT)
    assert (result.suppression_armed, result.suppression_note) == (False, HUMAN_TURN_NOTE)


@pytest.mark.upstream("media: final reply, later upstream's silence guard (06202cdd)")
def test_a_predicate_that_fails_counts_as_the_guard(host: FakeHost, image: Path) -> None:
    host.human_turn_guard = "allows_final_silence"
    modules = _install(host.in_chat())

    def broken(*args: Any) -> bool:
        raise TypeError("new signature")

    modules["gateway.response_filters"].__dict__["allows_final_silence"] = broken
    result = deliver_media(MediaPayload(image), **CONTEXT)
    assert (result.suppression_armed, result.suppression_note) == (False, HUMAN_TURN_NOTE)


def _is_silence(text: str) -> bool:
    return text.strip().upper() in {"NO_REPLY", "[SILENT]"}


def _install(host: FakeHost) -> dict[str, Any]:
    """Re-install the fake's modules after a field changed what they export."""
    import sys

    modules = host.modules()
    sys.modules.update(modules)  # the autouse fixture restores sys.modules afterwards
    return dict(modules)
