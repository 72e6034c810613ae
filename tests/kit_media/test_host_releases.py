"""kit-media on older hermes releases: it uses what the running host offers, the way that
release's own tool pipeline does, and refuses what the release lacks, naming the first
release that has it (from the host model)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest
from tests.kit_media._calls import ARGS, CONTEXT

from kit_core.hermes import first_release
from kit_media import MediaError, MediaPayload, MediaType, deliver_media, invoke_host_tool
from kit_media._capabilities import CAPTION_FUNCTION, MEDIA_POLICY_FUNCTION, SILENCE_FUNCTION
from kit_media._guard import accepted_keywords, guard_missing_message
from kit_media._markers import MARKERS
from kit_media._media_tag import tag_problem

if TYPE_CHECKING:
    from tests.kit_media.conftest import FakeHost


def first_label(function: str) -> str:
    release = first_release(lambda r: function in r.functions)
    assert release is not None
    return release.label


def reinstall(host: FakeHost, monkeypatch: pytest.MonkeyPatch) -> None:
    """Put the fake host's modules back after changing what it offers."""
    for name, module in host.modules().items():
        monkeypatch.setitem(sys.modules, name, module)


def plugins_module(monkeypatch: pytest.MonkeyPatch, **functions: Any) -> ModuleType:
    module = ModuleType("hermes_cli.plugins")
    module.__dict__.update(functions)
    monkeypatch.setitem(sys.modules, "hermes_cli.plugins", module)
    return module


class LegacyPlugins:
    """``hermes_cli.plugins`` of hermes 0.13.0: the old guard name with three context
    keywords, ``invoke_hook``, and no ``has_hook``."""

    def __init__(self, block: str | None = None) -> None:
        self.block = block
        self.pre: list[dict[str, Any]] = []
        self.hooks: list[tuple[str, dict[str, Any]]] = []

    def get_pre_tool_call_block_message(
        self, tool_name: str, args: Any, task_id: str = "", session_id: str = "",
        tool_call_id: str = "",
    ) -> str | None:  # fmt: skip
        self.pre.append(
            {"tool_name": tool_name, "task_id": task_id, "session_id": session_id,
             "tool_call_id": tool_call_id}
        )  # fmt: skip
        return self.block

    def invoke_hook(self, hook_name: str, **kwargs: Any) -> list[Any]:
        self.hooks.append((hook_name, kwargs))
        return []

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        plugins_module(
            monkeypatch,
            get_pre_tool_call_block_message=self.get_pre_tool_call_block_message,
            invoke_hook=self.invoke_hook,
        )


def test_an_old_guard_gets_only_the_keywords_its_signature_takes(
    host: FakeHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    legacy = LegacyPlugins()
    legacy.install(monkeypatch)

    result = invoke_host_tool("send_message", ARGS, **CONTEXT)

    assert result == host.reply
    assert legacy.pre == [
        {"tool_name": "send_message", "task_id": "task-1", "session_id": "session-1",
         "tool_call_id": "call-1"}
    ]  # fmt: skip
    # the payload 0.13.0's handle_function_call builds inline: no observer fields
    [(name, post)] = legacy.hooks
    assert name == "post_tool_call"
    assert set(post) == {
        "tool_name", "args", "result", "task_id", "session_id", "tool_call_id", "duration_ms"
    }  # fmt: skip
    assert (post["result"], post["session_id"]) == (host.reply, "session-1")


def test_an_old_guard_that_blocks_stops_the_call_and_tells_post_tool_call_nothing(
    host: FakeHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    legacy = LegacyPlugins(block="paused")
    legacy.install(monkeypatch)

    assert json.loads(invoke_host_tool("send_message", ARGS, **CONTEXT)) == {"error": "paused"}
    assert host.handler_calls == []
    assert legacy.hooks == []  # 0.13.0 returns the block without a post_tool_call


def test_an_old_guard_that_raises_blocks_the_call(
    host: FakeHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(tool_name: str, args: Any, task_id: str = "") -> str | None:
        raise RuntimeError("policy store down")

    plugins_module(monkeypatch, get_pre_tool_call_block_message=broken, invoke_hook=print)
    reply = json.loads(invoke_host_tool("send_message", ARGS, **CONTEXT))
    assert reply["error_code"] == "host_guard_failed"
    assert host.handler_calls == []


def test_the_newest_guard_is_preferred_to_the_deprecated_one(
    host: FakeHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = sys.modules["hermes_cli.plugins"]
    monkeypatch.setattr(
        module, "get_pre_tool_call_block_message", lambda *a, **k: "old shim", raising=False
    )
    assert invoke_host_tool("send_message", ARGS, **CONTEXT) == host.reply
    assert len(host.pre_calls) == 1  # resolve_pre_tool_block ran, the shim did not


def test_the_hosts_own_post_tool_call_helper_is_used_with_the_keywords_it_takes(
    host: FakeHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    emitted: list[dict[str, Any]] = []

    def emit(
        *,
        function_name: str,
        function_args: Any,
        result: Any,
        session_id: Any = None,
        duration_ms: int = 0,
        status: Any = None,
        error_type: Any = None,
        error_message: Any = None,
    ) -> None:  # fmt: skip  (0.16.0's helper, less the keywords this test leaves out)
        emitted.append({"name": function_name, "session_id": session_id, "status": status})

    model_tools = ModuleType("model_tools")
    model_tools.__dict__["_emit_post_tool_call_hook"] = emit
    monkeypatch.setitem(sys.modules, "model_tools", model_tools)

    assert invoke_host_tool("send_message", ARGS, **CONTEXT) == host.reply
    assert emitted == [{"name": "send_message", "session_id": "session-1", "status": "ok"}]
    assert host.post_calls == []  # only through the host's helper


def test_a_host_without_any_guard_is_refused_naming_the_first_release_with_one(
    host: FakeHost, monkeypatch: pytest.MonkeyPatch
) -> None:
    plugins_module(monkeypatch, invoke_hook=print)
    reply = json.loads(invoke_host_tool("send_message", ARGS, **CONTEXT))
    assert reply["error_code"] == "host_guard_unavailable"
    first = first_release(lambda r: "pre_tool_call" in r.hooks)
    assert first is not None
    assert reply["error"] == guard_missing_message()
    assert f"run inside {first.label} or newer" in reply["error"]
    assert host.handler_calls == []


def test_accepted_keywords_reads_a_signature() -> None:
    def guard(tool_name: str, args: Any, *, task_id: str = "") -> None: ...
    def open_ended(tool_name: str, **kwargs: Any) -> None: ...

    assert accepted_keywords(guard) == {"tool_name", "args", "task_id"}
    assert accepted_keywords(open_ended) is None  # takes any keyword
    assert accepted_keywords(object()) is None  # unreadable: pass everything


# -- capabilities a release lacks ---------------------------------------------------------


def test_no_silence_filter_arms_nothing_and_names_the_first_release(
    host: FakeHost, image: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    host.silence_filter = False
    host.hermes = "0.16.0"  # the last release before the silence filter
    reinstall(host, monkeypatch)
    result = deliver_media(MediaPayload(image), "telegram:-1001234567890", session_id="s-1")
    assert result.success is True, result.reason
    assert result.suppression_armed is False
    assert result.suppression_note is not None
    assert f"needs {first_label(SILENCE_FUNCTION)} or newer" in result.suppression_note
    assert "hermes-agent 0.16.0 has no silence filter" in result.suppression_note
    assert not MARKERS.is_armed("s-1")


def test_with_a_silence_filter_the_session_is_armed(host: FakeHost, image: Path) -> None:
    result = deliver_media(MediaPayload(image), "telegram:-1001234567890", session_id="s-1")
    assert (result.suppression_armed, result.suppression_note) == (True, None)
    assert MARKERS.is_armed("s-1")


def test_a_caption_the_host_cannot_attach_is_refused(
    host: FakeHost, image: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    host.caption_split = False
    reinstall(host, monkeypatch)
    result = deliver_media(MediaPayload(image, caption="Your cat"), "telegram:-1001234567890")
    assert result.success is False
    assert result.reason is not None
    assert f"captions ride on the file in {first_label(CAPTION_FUNCTION)}" in result.reason
    assert host.handler_calls == []
    assert host.pre_calls == []  # refused before the guard: nothing was attempted


def test_a_voice_note_caption_is_its_own_message_everywhere(
    host: FakeHost, voice: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    host.caption_split = False
    reinstall(host, monkeypatch)
    payload = MediaPayload(voice, MediaType.VOICE, caption="listen")
    assert deliver_media(payload, "telegram:-1001234567890").success is True


def test_a_spoiler_without_a_media_policy_names_the_first_release_with_one(
    host: FakeHost, image: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delattr(sys.modules["gateway.platforms.base"], "validate_media_delivery_path")
    result = deliver_media(MediaPayload(image, spoiler=True), "telegram:-1001234567890")
    assert result.success is False
    assert result.reason is not None
    assert f"spoiler photos need {first_label(MEDIA_POLICY_FUNCTION)}" in result.reason
    assert host.bot_calls == []


# -- the MEDIA: line follows the loaded parser --------------------------------------------


def loaded_parser(monkeypatch: pytest.MonkeyPatch, reads: Any) -> None:
    base = ModuleType("gateway.platforms.base")
    base.__dict__["BasePlatformAdapter"] = type(
        "BasePlatformAdapter", (), {"extract_media": staticmethod(lambda c: (reads(c), ""))}
    )
    monkeypatch.setitem(sys.modules, "gateway.platforms.base", base)


def test_a_path_the_model_refuses_is_accepted_when_the_loaded_parser_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "photo").write_bytes(b"other")
    path = tmp_path / "photo album.png"
    path.write_bytes(b"png")
    assert tag_problem(str(path)) is not None  # the 0.19.0 model: 'photo' is read too
    loaded_parser(monkeypatch, lambda content: [(content.removeprefix("MEDIA:"), False)])
    assert tag_problem(str(path)) is None  # an older parser that reads the whole name
    assert MediaPayload(path).path == path


def test_a_path_the_loaded_parser_misreads_is_refused_with_the_models_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "cat.png)"
    path.write_bytes(b"png")
    loaded_parser(monkeypatch, lambda content: [(str(tmp_path / "cat.png"), False)])
    with pytest.raises(MediaError) as refused:
        MediaPayload(path)
    assert str(refused.value).startswith("hermes would read MEDIA:cat.png) as 'cat.png', not")
    assert "which hermes strips" in str(refused.value)


def test_directives_are_refused_whatever_the_parser_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "plan[[as_document]].png"
    path.write_bytes(b"png")
    loaded_parser(monkeypatch, lambda content: [(content.removeprefix("MEDIA:"), False)])
    with pytest.raises(MediaError, match="which hermes acts on"):
        MediaPayload(path)
