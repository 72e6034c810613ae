"""The ``PluginContext`` members hermes 0.20.1+ added, as the in-memory host plays them: each
present only where the release played has it, validating as that release does, recording
what it took (``InMemoryHost.provisions``) and returning a ledger handle where hermes does.
The releases are picked by what the host model says they offer, never by version."""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from kit_core.hermes import first_release, registry_releases
from kit_devtools.testing import InMemoryHost

_EVENTS = first_release(lambda r: r.offers("emit"))
assert _EVENTS is not None
EVENTS = _EVENTS
_HANDLERS = first_release(lambda r: r.offers("register_platform_handler"))
assert _HANDLERS is not None
HANDLERS = _HANDLERS
_GLOBAL_AUTH = first_release(lambda r: r.global_dashboard_auth)
assert _GLOBAL_AUTH is not None
GLOBAL_AUTH = _GLOBAL_AUTH
PER_HOME_AUTH = next(
    r for r in registry_releases() if r.registration_ledger and not r.global_dashboard_auth
)
assert EVENTS is not None
assert HANDLERS is not None
assert GLOBAL_AUTH is not None


def load(register: Callable[[Any], None], *, version: str | None = None, **host: Any) -> Any:
    """Load a plugin module ``kitm`` calling ``register``; the host and the context seen."""
    seen: list[Any] = []
    module = ModuleType("kitm")

    def registered(ctx: Any) -> None:
        seen.append(ctx)
        register(ctx)

    module.register = registered  # type: ignore[attr-defined]
    h = InMemoryHost(hermes=version or EVENTS.version, **host)
    loaded = h.load(module)
    return h, seen[0], loaded


def test_a_member_the_release_lacks_is_an_attribute_error_in_hermes_words() -> None:
    older = next(r for r in registry_releases() if not r.offers("emit"))
    _, ctx, _ = load(lambda ctx: None, version=older.version)
    with pytest.raises(AttributeError, match="'PluginContext' object has no attribute 'emit'"):
        ctx.emit  # noqa: B018
    assert "emit" not in dir(ctx)
    _, newer, _ = load(lambda ctx: None)
    assert "emit" in dir(newer)
    assert callable(newer.emit)


def test_emit_delivers_deep_copies_in_order_and_isolates_a_raising_subscriber() -> None:
    got: list[tuple[str, dict[str, Any]]] = []

    def first(**payload: Any) -> None:
        got.append(("first", payload))
        payload["n"].append("mutated")

    def broken(**payload: Any) -> None:
        raise RuntimeError("boom")

    def last(**payload: Any) -> None:
        got.append(("last", payload))

    def register(ctx: Any) -> None:
        for callback in (first, broken, last):
            ctx.subscribe("kitm:ping", callback)
        assert ctx.emit("ping", {"n": []}) == 3
        assert ctx.emit("nobody-listens") == 0

    host, _, loaded = load(register)
    assert loaded.enabled, loaded.error
    assert got == [("first", {"n": ["mutated"]}), ("last", {"n": []})]
    [warning] = host.events
    assert warning.message == "Event 'kitm:ping' subscriber broken raised: boom"


@pytest.mark.parametrize(
    ("event", "payload", "error", "words"),
    [
        ("", None, ValueError, "emit() requires a non-empty event name"),
        ("other:x", None, ValueError, "may not emit 'other:x'"),
        ("x", ["not", "a", "dict"], TypeError, "payload must be a dict or None"),
    ],
)
def test_emit_refuses_what_hermes_refuses(
    event: str, payload: Any, error: type[Exception], words: str
) -> None:
    _, ctx, _ = load(lambda ctx: None)
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
        ctx.emit(event, payload)
    with pytest.raises(TypeError, match="must be callable"):
        ctx.subscribe("kitm:x", 5)


def test_set_config_writes_the_plugins_settings_and_get_config_reads_them_back() -> None:
    _, ctx, _ = load(lambda ctx: None)
    ctx.set_config("retry.policy", "fast")
    assert ctx.get_config("retry.policy") == "fast"
    with pytest.raises(ValueError, match="plugin-relative config key"):
        ctx.set_config("model.default", "x")


def test_state_keeps_json_values_per_plugin_and_refuses_bad_keys_and_values() -> None:
    _, ctx, _ = load(lambda ctx: None)
    ctx.state.set("count", [1, 2])
    assert ctx.state.get("count") == [1, 2]
    assert ctx.state.get("missing", "dflt") == "dflt"
    with pytest.raises(ValueError, match="Plugin state keys"):
        ctx.state.set("a..b", 1)
    with pytest.raises(ValueError, match="not JSON-serializable"):
        ctx.state.set("obj", object())


def test_has_plugin_sees_enabled_plugins_by_key_or_name() -> None:
    host, ctx, _ = load(lambda ctx: None)
    assert ctx.has_plugin("kitm")
    assert not ctx.has_plugin("nobody")
    del host


def test_on_unload_runs_its_callback_once_when_disposed_and_when_register_raises() -> None:
    ran: list[str] = []

    def register(ctx: Any) -> None:
        ctx.on_unload(lambda: ran.append("cleanup"))
        raise RuntimeError("register failed")

    _, ctx, loaded = load(register)
    assert not loaded.enabled
    assert ran == ["cleanup"]
    with pytest.raises(TypeError, match="on_unload callback must be callable"):
        ctx.on_unload(5)


def test_spawn_task_needs_a_running_loop_and_its_handle_cancels_it() -> None:
    _, ctx, _ = load(lambda ctx: None)

    async def forever() -> None:
        await asyncio.sleep(3600)

    coro = forever()
    with pytest.raises(RuntimeError, match="no running event loop"):
        ctx.spawn_task(coro)
    coro.close()
    with pytest.raises(TypeError, match="spawn_task expects a coroutine"):
        ctx.spawn_task(5)

    async def inside() -> bool:
        task = ctx.spawn_task(forever(), name="kitm-bg")
        [handle] = [h for h in ctx._handles if h.kind == "background_task"]
        handle.dispose()
        await asyncio.sleep(0)
        return task.cancelled()

    assert asyncio.run(inside())


def test_call_mcp_is_refused_outside_the_allowlist_and_finds_no_server_inside() -> None:
    config = {"plugins": {"entries": {"kitm": {"mcp_allowlist": ["allowed"]}}}}
    _, ctx, _ = load(lambda ctx: None, config=config)
    with pytest.raises(PermissionError, match="not allowed to call MCP server 'other'"):
        ctx.call_mcp("other", "tool")
    answer = ctx.call_mcp("allowed", "tool", {"a": 1})
    assert answer["ok"] is False


def test_system_prompt_sections_are_recorded_validated_and_taken_back() -> None:
    _, ctx, _ = load(lambda ctx: None)
    handle = ctx.register_system_prompt_section("kitm.rules", "Be brief.")
    assert ctx._state.provisions["system_prompt_section"]["kitm.rules"][1]["plugin"] == "kitm"
    with pytest.raises(ValueError, match="already registered by plugin 'kitm'"):
        ctx.register_system_prompt_section("kitm.rules", "again")
    for bad, error in (({"id": "Upper"}, ValueError), ({"content": 5}, TypeError)):
        args = {"id": "kitm.x", "content": "c", **bad}
        with pytest.raises(error):
            ctx.register_system_prompt_section(args["id"], args["content"])
    with pytest.raises(ValueError, match="max_chars must be between 1 and 4000"):
        ctx.register_system_prompt_section("kitm.big", "c", max_chars=5000)
    handle.dispose()
    assert "system_prompt_section" not in ctx._state.provisions


def test_approval_transports_are_validated_as_the_manager_validates_them() -> None:
    _, ctx, _ = load(lambda ctx: None)
    ctx.register_approval_transport(" Pager ", print)
    assert ctx._state.provisions["approval_transport"]["pager"][0] == "kitm"
    with pytest.raises(ValueError, match="'builtin' is reserved"):
        ctx.register_approval_transport("builtin", print)
    with pytest.raises(ValueError, match="already registered by 'kitm'"):
        ctx.register_approval_transport("pager", print)
    with pytest.raises(TypeError, match="present_fn must be callable"):
        ctx.register_approval_transport("other", 5)


def test_redaction_patterns_count_what_is_accepted_and_warn_on_the_rest() -> None:
    host, ctx, _ = load(lambda ctx: None)
    assert (
        ctx.register_redaction_patterns(
            [r"kitm-[A-Za-z0-9]{20,}", "(", "", r"kitm-[A-Za-z0-9]{20,}"]
        )
        == 1
    )
    assert len(host.events) == 2
    assert ctx.register_redaction_patterns([r"kitm-[A-Za-z0-9]{20,}"]) == 0  # a duplicate


def test_platform_handlers_need_a_callable_and_a_platform() -> None:
    _, ctx, _ = load(lambda ctx: None, version=HANDLERS.version)
    ctx.register_telegram_handler(print)
    ctx.register_platform_handler(" Discord ", print)
    assert set(ctx._state.provisions["platform_handler"]) == {"telegram", "discord"}
    with pytest.raises(
        ValueError, match="tried to register a platform handler factory with an empty"
    ):
        ctx.register_platform_handler(" ", print)
    with pytest.raises(ValueError, match="non-callable factory"):
        ctx.register_platform_handler("slack", 5)


class Gate:
    name = "kitm_gate"
    display_name = "Kit gate"

    def start_login(self, *a: Any) -> None: ...
    def complete_login(self, *a: Any) -> None: ...
    def verify_session(self, *a: Any) -> None: ...
    def refresh_session(self, *a: Any) -> None: ...
    def revoke_session(self, *a: Any) -> None: ...


def _hermes_has_module(name: str) -> bool:
    """Whether the installed hermes ships the module ``hermes_cli.<name>``, found without importing
    ``hermes_cli`` (``find_spec`` of a submodule imports its package: hermes imported at
    collection would boot before tests/host's fixture sets its home)."""
    spec = importlib.util.find_spec("hermes_cli")
    places = spec.submodule_search_locations if spec is not None else None
    return any(
        (Path(place) / f"{name}.py").is_file() or (Path(place) / name / "__init__.py").is_file()
        for place in places or ()
    )


HAS_DASHBOARD_AUTH = _hermes_has_module("dashboard_auth")
needs_dashboard_auth = pytest.mark.skipif(
    not HAS_DASHBOARD_AUTH,
    reason="a provider must inherit the installed hermes' DashboardAuthProvider, which it lacks",
)


def _dashboard_twice(version: str) -> tuple[Any, Any, Any]:
    from hermes_cli.dashboard_auth import DashboardAuthProvider

    provider_class = type("KitmGate", (Gate, DashboardAuthProvider), {})
    _, ctx, _ = load(lambda ctx: None, version=version)
    first = ctx.register_dashboard_auth_provider(provider_class())
    second_provider = provider_class()
    second = ctx.register_dashboard_auth_provider(second_provider)
    return ctx, (first, second), second_provider


@needs_dashboard_auth
def test_a_per_home_release_refuses_a_second_dashboard_auth_provider_of_a_name() -> None:
    ctx, (first, second), _ = _dashboard_twice(PER_HOME_AUTH.version)
    assert first is not None
    assert first.persistent is False
    assert second is None
    assert "already registered" in ctx._state.events[-1].message


@needs_dashboard_auth
def test_a_global_slot_release_replaces_a_same_named_provider_and_persists_the_handle() -> None:
    ctx, (first, second), provider = _dashboard_twice(GLOBAL_AUTH.version)
    assert first.persistent is True
    assert second.persistent is True
    assert ctx._state.provisions["dashboard_auth"]["kitm_gate"][1] is provider
    assert not ctx._state.events


SIMPLE_PROVIDER_KINDS = ("image_gen", "video_gen", "web_search", "browser", "tts", "transcription")


def test_the_provider_registrars_keep_hermes_names_and_parameters() -> None:
    import inspect

    from kit_devtools.testing import HostContext
    from kit_devtools.testing._upstream_context import UpstreamContext

    for kind in (*SIMPLE_PROVIDER_KINDS, "dashboard_auth"):
        member = getattr(HostContext, f"register_{kind}_provider")
        assert member.__name__ == f"register_{kind}_provider"
        assert list(inspect.signature(member).parameters) == ["self", "provider"]
    assert list(inspect.signature(HostContext.register_secret_source).parameters) == [
        "self",
        "source",
    ]
    for name in ("register_context_engine", "register_platform", "register_auxiliary_task"):
        upstream = inspect.signature(getattr(UpstreamContext, name)).parameters
        assert list(upstream) == list(inspect.signature(getattr(HostContext, name)).parameters)


@pytest.mark.parametrize("kind", SIMPLE_PROVIDER_KINDS)
def test_an_upstream_provider_registrar_returns_the_handle_that_takes_it_back(kind: str) -> None:
    from kit_devtools.testing._provider_checks import base_class
    from kit_devtools.testing._providers import PROVIDER_KINDS

    release = [r for r in registry_releases() if r.registration_ledger][-1]
    _, module, base_name, _ = PROVIDER_KINDS[kind]
    base = base_class(module, base_name) or object
    provider_class = type("KitmProvider", (base,), {"name": "kitm_backend"})
    provider_class.__abstractmethods__ = frozenset()
    _, ctx, _ = load(lambda ctx: None, version=release.version)
    provider = provider_class()
    handle = getattr(ctx, f"register_{kind}_provider")(provider)
    assert (handle.kind, handle.key) == (f"{kind}_provider", "kitm_backend")
    assert ctx._state.provisions[kind]["kitm_backend"] == ("kitm", provider)
    handle.dispose()
    assert kind not in ctx._state.provisions


def test_a_slack_action_handler_is_refused_in_hermes_words() -> None:
    _, ctx, _ = load(lambda ctx: None)
    prefix = "Plugin 'kitm' tried to register a Slack action handler with"
    with pytest.raises(ValueError, match=rf"^{prefix} a non-callable callback\.$"):
        ctx.register_slack_action_handler("kitm_approve", "not callable")
    with pytest.raises(ValueError, match=rf"^{prefix} an empty action_id\.$"):
        ctx.register_slack_action_handler("  ", print)
    assert ctx.register_slack_action_handler("kitm_approve", print).kind == "slack_action_handler"
