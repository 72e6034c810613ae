"""The recorded ``send_message`` and the stand-in hermes modules of the in-memory host.

kit-media imports hermes lazily; while the host runs a call, those imports resolve to
the host (its guard hooks, its session values, its recorded send), and ``sys.modules``
is exactly what it was afterwards.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import kit_media
from kit_core import declaration_of
from kit_devtools.testing import InMemoryHost, _real_hermes
from kit_lifecycle import load_plugin_config
from kit_media import MEDIA_DELIVERY_HOOKS, MediaPayload, deliver_media

PLUGINS = Path(__file__).resolve().parents[1] / "host" / "plugins"
SESSION = "session-media"
IN_CHAT = {
    "HERMES_SESSION_PLATFORM": "telegram",
    "HERMES_SESSION_CHAT_ID": "-1001234567890",
    "HERMES_SESSION_THREAD_ID": "17585",
}


@pytest.fixture
def image(tmp_path: Path) -> Path:
    path = tmp_path / "cat.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 16)
    return path


@pytest.fixture(autouse=True)
def _clean_markers() -> Any:
    kit_media.clear_media_delivery_state(session_id=SESSION)
    yield
    kit_media.clear_media_delivery_state(session_id=SESSION)


def media_host() -> tuple[InMemoryHost, Any]:
    host = InMemoryHost()
    loaded = host.load(PLUGINS / "kit_media_contract")
    assert loaded.enabled, loaded.error
    assert loaded.module is not None
    return host, loaded.module


def test_a_delivery_from_a_tool_call_is_recorded_and_guarded(image: Path) -> None:
    host, plugin = media_host()
    host.session_env.update(IN_CHAT)
    out = json.loads(host.call_tool("kitm_deliver", {"path": str(image)}, session_id=SESSION))
    assert out["success"] is True, out
    assert out["data"]["success"] is True
    assert out["data"]["display_target"] == "telegram:…7890:…7585"
    assert host.sent_messages == [
        {"action": "send", "target": "telegram:-1001234567890:17585", "message": f"MEDIA:{image}"}
    ]
    [pre] = plugin.PRE_CALLS
    assert (pre["tool_name"], pre["session_id"]) == ("send_message", SESSION)
    [post] = plugin.POST_CALLS
    assert (post["status"], post["error_type"]) == ("ok", None)
    assert json.loads(post["result"])["message_id"] == "1"
    # the kit's suppression hook swallows the final reply once, through the host
    assert host.invoke_hook("transform_llm_output", response_text="x", session_id=SESSION) == [
        "NO_REPLY"
    ]
    assert [getattr(declaration_of(h), "name", None) for h in MEDIA_DELIVERY_HOOKS] == [
        h for h in host.hooks if h in {"transform_llm_output", "on_session_end"}
    ]


def test_a_module_registered_as_a_whole_registers_the_media_hooks_it_imports(
    image: Path,
) -> None:
    # kit_media_module hands register_plugin a module that imports MEDIA_DELIVERY_HOOKS
    host = InMemoryHost()
    loaded = host.load(PLUGINS / "kit_media_module")
    assert loaded.enabled, loaded.error
    assert list(loaded.tools) == ["kitmm_send"]
    assert list(loaded.hooks) == ["on_session_end", "transform_llm_output"]
    assert [e.callback for e in host.hooks["transform_llm_output"]] == [
        kit_media.transform_media_delivery_output
    ]
    assert [e.callback for e in host.hooks["on_session_end"]] == [
        kit_media.clear_media_delivery_state
    ]
    host.session_env.update(IN_CHAT)
    out = json.loads(host.call_tool("kitmm_send", {"path": str(image)}, session_id=SESSION))
    assert out["data"]["suppression_armed"] is True, out
    replies = [
        host.invoke_hook("transform_llm_output", response_text="x", session_id=SESSION)
        for _ in range(2)
    ]
    assert replies == [["NO_REPLY"], []]


def test_a_blocking_guard_stops_the_send(image: Path) -> None:
    host, plugin = media_host()
    plugin.BLOCK_SEND_MESSAGE = "paused"
    host.session_env.update(IN_CHAT)
    out = json.loads(host.call_tool("kitm_deliver", {"path": str(image)}, session_id=SESSION))
    assert out == {  # the tool returned the failed result: the model gets an error
        "success": False,
        "error": f"kitm_deliver failed: could not deliver {image.name} to telegram:…7890:…7585:"
        " paused",
        "error_code": "media_delivery_failed",
    }
    assert host.sent_messages == []
    assert plugin.POST_CALLS[0]["status"] == "blocked"


def test_origin_needs_a_chat_and_a_home_channel_send_needs_one(
    image: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in (*IN_CHAT, "TELEGRAM_HOME_CHANNEL"):
        monkeypatch.delenv(name, raising=False)
    host, _ = media_host()
    with host.activate():
        no_chat = deliver_media(MediaPayload(image))
        no_home = deliver_media(MediaPayload(image), "telegram")
        host.session_env["TELEGRAM_HOME_CHANNEL"] = "-100777"
        home = deliver_media(MediaPayload(image), "telegram")
    assert (no_chat.success, no_home.success) == (False, False)
    assert "no platform chat" in str(no_chat.reason)
    assert "No home channel set for telegram" in str(no_home.reason)
    assert home.success is True
    assert [m["target"] for m in host.sent_messages] == ["telegram", "telegram"]


def test_a_custom_reply_and_the_media_policy(image: Path) -> None:
    host, _ = media_host()
    host.send_message_reply = lambda args: {"error": f"refused {args['target']}"}
    with host.activate():
        refused = deliver_media(MediaPayload(image), "telegram:42")
        system = deliver_media(MediaPayload(Path("/etc/hostname")), "telegram:42")
    assert (refused.success, refused.reason) == (False, "refused telegram:42")
    assert system.success is False
    assert "media policy refuses" in str(system.reason)
    assert len(host.sent_messages) == 1


def test_sys_modules_is_unchanged_after_every_call(image: Path) -> None:
    host, _ = media_host()
    host.session_env.update(IN_CHAT)
    before = dict(sys.modules)
    host.call_tool("kitm_deliver", {"path": str(image)}, session_id=SESSION)
    host.invoke_hook("on_session_end", session_id=SESSION)
    host.definitions()
    with host.activate(), host.activate():
        assert sys.modules["tools.send_message_tool"].__dict__["__hermes_plugin_kit_shim__"]
    assert dict(sys.modules) == before


def test_real_modules_are_put_back_intact(monkeypatch: pytest.MonkeyPatch) -> None:
    real_parent = ModuleType("gateway")
    real_parent.__path__ = []
    real_child = ModuleType("gateway.session_context")
    real_child.get_session_env = lambda name, default="": "real"  # type: ignore[attr-defined]
    real_parent.session_context = real_child  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gateway", real_parent)
    monkeypatch.setitem(sys.modules, "gateway.session_context", real_child)
    # the real hermes may have been imported by an earlier test (tests/host): hide it
    monkeypatch.delitem(sys.modules, "gateway.platforms", raising=False)
    host = InMemoryHost()
    host.session_env["HERMES_SESSION_ID"] = "in-memory"
    with host.activate():
        shim = importlib.import_module("gateway.session_context")
        assert shim is not real_child
        assert shim.get_session_env("HERMES_SESSION_ID") == "in-memory"
        assert sys.modules["gateway"] is real_parent
    assert sys.modules["gateway.session_context"] is real_child
    assert real_parent.session_context is real_child
    assert "gateway.platforms" not in sys.modules


def test_without_hermes_nothing_is_importable_under_a_stand_in_package(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the real hermes may have been imported by an earlier test (tests/host): hide it
    for name in [n for n in sys.modules if n.split(".")[0] in {"tools", "hermes_cli"}]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(_real_hermes, "hermes_installed", lambda: False)
    host = InMemoryHost()
    with host.activate():
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module("tools.web_tools")
        with pytest.raises(ImportError, match="get_env_value"):
            exec("from hermes_cli.config import get_env_value", {})


def test_plugins_read_the_hosts_config_and_registry_helpers_while_registering() -> None:
    seen: dict[str, Any] = {}

    def register(ctx: Any) -> None:
        from tools.registry import tool_error, tool_result  # a common hand-written import

        seen["config"] = load_plugin_config(ctx, "handmade")
        seen["error"] = tool_error("bad", success=False)
        seen["result"] = tool_result({"a": 1})

    module = ModuleType("handmade")
    module.register = register  # type: ignore[attr-defined]
    host = InMemoryHost(config={"plugins": {"handmade": {"units": "metric"}}})
    assert host.load(module).enabled
    assert seen == {
        "config": {"units": "metric"},
        "error": '{"error": "bad", "success": false}',
        "result": '{"a": 1}',
    }


def test_the_guard_and_middleware_helpers_answer_from_the_host() -> None:
    def register(ctx: Any) -> None:
        ctx.register_hook("pre_tool_call", lambda **kw: {"action": "block", "message": "stop"})
        ctx.register_middleware("tool_request", lambda **kw: {"args": {"rewritten": True}})

    module = ModuleType("guarded")
    module.register = register  # type: ignore[attr-defined]
    host = InMemoryHost()
    host.load(module)
    with host.activate():
        plugins = importlib.import_module("hermes_cli.plugins")
        middleware = importlib.import_module("hermes_cli.middleware")
        model_tools = importlib.import_module("model_tools")
        assert plugins.resolve_pre_tool_block("x", {}) == "stop"
        assert plugins.get_pre_tool_call_directive("x", {}) == ("block", "stop")
        assert (plugins.has_hook("pre_tool_call"), plugins.has_hook("post_tool_call")) == (
            True,
            False,
        )
        assert middleware.apply_tool_request_middleware("x", {}).payload == {"rewritten": True}
        assert json.loads(model_tools.handle_function_call("x", {}, "t")) == {"error": "stop"}


def session_id_seen() -> str:
    return importlib.import_module("gateway.session_context").get_session_env("HERMES_SESSION_ID")


def test_nested_and_concurrent_hosts_each_answer_for_themselves() -> None:
    import threading

    first, second = InMemoryHost(), InMemoryHost()
    first.session_env["HERMES_SESSION_ID"] = "first"
    second.session_env["HERMES_SESSION_ID"] = "second"
    before = dict(sys.modules)
    with first.activate():
        assert session_id_seen() == "first"
        with second.activate():
            assert session_id_seen() == "second"
        assert session_id_seen() == "first"
        inside, ready, done = [], threading.Event(), threading.Event()

        def other_thread() -> None:
            with second.activate():
                inside.append(session_id_seen())
                ready.set()
                done.wait(5)

        thread = threading.Thread(target=other_thread)
        thread.start()
        ready.wait(5)
        assert session_id_seen() == "first"  # this thread's host, while the other is active
    done.set()
    thread.join(5)
    assert inside == ["second"]
    assert dict(sys.modules) == before


def test_the_session_bound_for_the_turn_arms_suppression(image: Path) -> None:
    """hermes binds the turn's session id to a context variable; a delivery that passes no
    session_id keyword arms under it. The in-memory host binds session_env's value so."""
    host = InMemoryHost()
    host.session_env.update(IN_CHAT)
    host.session_env["HERMES_SESSION_ID"] = SESSION
    with host.activate():
        result = deliver_media(MediaPayload(str(image)), "origin")
    assert result.success, result.reason
    assert result.suppression_armed is True
    assert kit_media.transform_media_delivery_output(response_text="x", session_id=SESSION) == (
        "NO_REPLY"
    )


def test_without_a_bound_session_nothing_is_armed(image: Path) -> None:
    host = InMemoryHost()
    host.session_env.update(IN_CHAT)
    with host.activate():
        result = deliver_media(MediaPayload(str(image)), "origin")
    assert result.success, result.reason
    assert result.suppression_armed is False
    assert result.suppression_note


@pytest.mark.parametrize(
    ("hermes", "armed", "note"),
    [
        ("0.16.0", False, "hermes-agent 0.16.0 has no silence filter"),
        ("0.21.3", True, None),
        ("0.21.4", False, "gateway.response_filters.is_machinery_display_kind"),
        ("0.22.2", False, "gateway.response_filters.silence_allowed"),
    ],
)
def test_suppression_follows_the_played_releases_response_filters(
    image: Path, hermes: str, armed: bool, note: str | None
) -> None:
    # the stand-in offers the release's own silence filter (from 0.17.0) and its
    # human-turn guard (0.21.4: is_machinery_display_kind; 0.22.2: silence_allowed)
    from kit_core.hermes import registry_release

    host = InMemoryHost(hermes=hermes)
    loaded = host.load(PLUGINS / "kit_media_module")
    assert loaded.enabled, loaded.error
    # the session also as the gateway's variable: before 0.17.0 hermes passes a tool
    # handler no session_id keyword (tool_keywords), so the kit reads the session there
    host.session_env.update({**IN_CHAT, "HERMES_SESSION_ID": SESSION})
    out = json.loads(host.call_tool("kitmm_send", {"path": str(image)}, session_id=SESSION))
    data = out["data"]
    assert data["success"] is True, out
    assert data["suppression_armed"] is armed
    if note is None:
        assert data["suppression_note"] is None
    else:
        assert note in data["suppression_note"]
        release = registry_release(hermes)
        assert release is not None
        assert release.label in data["suppression_note"]  # the running release, named
    replies = host.invoke_hook("transform_llm_output", response_text="x", session_id=SESSION)
    assert replies == (["NO_REPLY"] if armed else [])
