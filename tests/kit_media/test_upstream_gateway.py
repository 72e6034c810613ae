"""kit-media on newer hermes behaviour, played by the fakes: the ``modify`` directive of
``pre_tool_call`` and the gateway's human-turn silence guard of real releases.

Each played behaviour cites the source it follows:

* ``modify``: ``hermes_cli/plugins.py`` at 00067189dfecf833d4d009c2dd977ae85cf800e0,
  ``_get_pre_tool_call_directive_details`` L1784-1827 (the merge at L1808-1816) and
  ``_dispatch_pre_tool_call_hooks`` L1887-1895 (``resolve_pre_tool_block``, L1847-1852,
  returns only its ``[0]``), applied by ``model_tools._pre_dispatch_guards`` L765-800
  (stored file id 68283923223, commit not resolved by the store, lines counted from that
  copy: ``if modified_args is not None: function_args = modified_args``, L782-783);
* the silence guard, by release (``HostRelease.silence_predicates``): none on 0.19.0 and
  0.21.3; ``is_machinery_display_kind`` on 0.21.4 and 0.21.5 and ``silence_allowed`` on
  0.22.2 (their ``gateway/response_filters.py`` L116-123 and L126-128; the gateway's use
  in ``gateway/run_turn.py``, see ``kit_devtools.testing._upstream_gateway``). 0.22.2 has
  no ``SILENT_REPLY_TOKEN``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from tests.kit_media._upstream_gateway import (
    final_delivery,
    release,
    unexpected_silence_reply,
)

from kit_media import MediaPayload, deliver_media, invoke_host_tool
from kit_media._capabilities import SILENCE_TOKEN, human_turn_note
from kit_media._markers import MARKERS
from kit_media.suppression import transform_media_delivery_output

if TYPE_CHECKING:
    from tests.kit_media.conftest import FakeHost

ARGS = {"action": "send", "target": "telegram:-1001234567890", "message": "hi"}
CONTEXT = {"task_id": "t-1", "session_id": "s-1", "tool_call_id": "c-1", "turn_id": "u-1"}


# -- modify ---------------------------------------------------------------------------


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


def test_dispatcher_that_raises_blocks(host: FakeHost) -> None:
    host.dispatch_api = True
    host.guard_error = RuntimeError("boom")
    _install(host)
    reply = json.loads(invoke_host_tool("send_message", ARGS, **CONTEXT))
    assert reply["error_code"] == "host_guard_failed"
    assert host.handler_calls == []


# -- the human-turn silence guard -------------------------------------------------------

GUARDED = [
    ("0.21.4", "is_machinery_display_kind"),
    ("0.21.5", "is_machinery_display_kind"),
    ("0.22.2", "silence_allowed"),
]
"""The releases with the guard, and the predicate their gateway decides with."""


@pytest.mark.parametrize(("hermes", "predicate"), GUARDED)
def test_guarded_gateway_arms_no_suppression_and_asks_for_a_short_reply(
    host: FakeHost, image: Path, hermes: str, predicate: str
) -> None:
    host.hermes = hermes
    _install(host.in_chat())
    result = deliver_media(MediaPayload(image), **CONTEXT)
    assert result.success
    assert result.suppression_armed is False
    assert result.suppression_note == human_turn_note(release(hermes).label, predicate)
    assert f"{release(hermes).label} does not let a person's turn" in str(result.suppression_note)
    assert not MARKERS.is_armed("s-1")
    # the agent's final reply is left alone, so the person never gets the fallback
    final = transform_media_delivery_output(response_text="Here it is.", session_id="s-1")
    assert final is None
    sent = final_delivery("Here it is.", release(hermes), is_silence=_is_silence)
    assert sent == "Here it is."


@pytest.mark.parametrize("hermes", ["0.19.0", "0.21.3", "0.21.4", "0.21.5", "0.22.2"])
def test_what_arming_would_cost(hermes: str) -> None:
    # the reason for the above: a NO_REPLY on a person's turn becomes the fallback text
    played = release(hermes)
    person = final_delivery(SILENCE_TOKEN, played, is_silence=_is_silence)
    assert person == (unexpected_silence_reply(played) if played.human_turn_guard else None)
    # a machinery turn (an internal event) may end in silence on every release
    assert final_delivery(SILENCE_TOKEN, played, is_silence=_is_silence, internal=True) is None


def test_the_fallback_text_of_each_guarded_release() -> None:
    # 0.21.4/0.21.5 gateway/run_turn.py L84-87; 0.22.2 L87-89 t("gateway.errors.unexpected_silence")
    for hermes in ("0.21.4", "0.21.5"):
        assert unexpected_silence_reply(release(hermes)).startswith(
            "⚠️ The model returned only a silence marker for a message that needed a reply."
        )
    assert unexpected_silence_reply(release("0.22.2")) == "gateway.errors.unexpected_silence"


def test_on_0_22_a_turn_that_needs_no_reply_may_end_silent_and_0_21_has_no_such_turn() -> None:
    # 0.22.2 silence_allowed(display_kind, reply_expected): reply_expected=False is silent
    assert (
        final_delivery(
            SILENCE_TOKEN, release("0.22.2"), is_silence=_is_silence, reply_expected=False
        )
        is None
    )
    assert final_delivery(
        SILENCE_TOKEN, release("0.21.5"), is_silence=_is_silence, reply_expected=False
    ) == unexpected_silence_reply(release("0.21.5"))


@pytest.mark.parametrize("hermes", ["0.19.0", "0.21.3"])
def test_gateway_without_the_guard_still_arms(host: FakeHost, image: Path, hermes: str) -> None:
    host.hermes = hermes
    _install(host.in_chat())
    result = deliver_media(MediaPayload(image), **CONTEXT)
    assert (result.suppression_armed, result.suppression_note) == (True, None)
    assert transform_media_delivery_output(response_text="x", session_id="s-1") == "NO_REPLY"


def test_on_0_22_the_kit_needs_no_silent_reply_token(host: FakeHost, image: Path) -> None:
    # 0.22.2 has no SILENT_REPLY_TOKEN; NO_REPLY is still a marker its filter drops, so
    # where silence_allowed says a person's turn may be silent, the kit arms as before
    host.hermes = "0.22.2"
    modules = _install(host.in_chat())
    filters = modules["gateway.response_filters"]
    assert not hasattr(filters, "SILENT_REPLY_TOKEN")
    filters.__dict__["silence_allowed"] = lambda kind, reply_expected=None: True
    result = deliver_media(MediaPayload(image), **CONTEXT)
    assert (result.suppression_armed, result.suppression_note) == (True, None)
    assert transform_media_delivery_output(response_text="x", session_id="s-1") == "NO_REPLY"


def test_silence_allowed_decides_before_is_machinery_display_kind(
    host: FakeHost, image: Path
) -> None:
    # the 0.22.2 gateway asks silence_allowed (gateway/run_turn.py L1526), which answers
    # for a person's turn even though is_machinery_display_kind(None) is False
    host.hermes = "0.22.2"
    modules = _install(host.in_chat())
    filters = modules["gateway.response_filters"]
    assert filters.is_machinery_display_kind(None) is False
    filters.__dict__["silence_allowed"] = lambda kind, reply_expected=None: True
    assert deliver_media(MediaPayload(image), **CONTEXT).suppression_armed is True


def test_the_guard_is_read_from_the_loaded_filters_not_from_the_version(
    host: FakeHost, image: Path
) -> None:
    # a 0.21.3 gateway that does offer a predicate: the kit goes by the predicate
    host.hermes = "0.21.3"
    modules = _install(host.in_chat())
    filters = modules["gateway.response_filters"]
    filters.__dict__["is_machinery_display_kind"] = release_predicate("is_machinery_display_kind")
    result = deliver_media(MediaPayload(image), **CONTEXT)
    label = release("0.21.3").label
    expected = human_turn_note(label, "is_machinery_display_kind")
    assert (result.suppression_armed, result.suppression_note) == (False, expected)


@pytest.mark.parametrize(("hermes", "predicate"), GUARDED)
def test_a_predicate_that_fails_counts_as_the_guard(
    host: FakeHost, image: Path, hermes: str, predicate: str
) -> None:
    host.hermes = hermes
    modules = _install(host.in_chat())

    def broken(*args: Any) -> bool:
        raise TypeError("new signature")

    modules["gateway.response_filters"].__dict__[predicate] = broken
    result = deliver_media(MediaPayload(image), **CONTEXT)
    expected = human_turn_note(release(hermes).label, predicate)
    assert (result.suppression_armed, result.suppression_note) == (False, expected)


def test_without_a_loaded_hermes_cli_the_note_says_this_hermes(host: FakeHost, image: Path) -> None:
    host.hermes = "0.22.2"
    _install(host.in_chat())
    sys.modules["hermes_cli"] = None  # type: ignore[assignment]  # restored by the fixture
    result = deliver_media(MediaPayload(image), **CONTEXT)
    assert result.suppression_note == human_turn_note("this hermes", "silence_allowed")


def release_predicate(name: str) -> Any:
    from kit_devtools.testing._upstream_gateway import PREDICATES

    return PREDICATES[name]


def _is_silence(text: str) -> bool:
    return text.strip().upper() in {"NO_REPLY", "[SILENT]"}


def _install(host: FakeHost) -> dict[str, Any]:
    """Re-install the fake's modules after a field changed what they export."""
    modules = host.modules()
    sys.modules.update(modules)  # the autouse fixture restores sys.modules afterwards
    return dict(modules)
