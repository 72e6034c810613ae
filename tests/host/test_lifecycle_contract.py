"""kit-lifecycle against the real hermes-agent 0.19.0.

The ``kit_lifecycle_contract`` plugin (tests/host/plugins) declares a tool, two slash
commands, a CLI command, all four middleware kinds, two hooks and a skill with the kit
and registers them with one ``register_plugin`` call; these tests drive each surface
through the host's own entry points.

The rollback tests register a second plugin through the host's own ``PluginContext``
and ``PluginManager`` (the live ones every other plugin here was loaded into), make one
registrar call fail, and check that the manager's tables and the tool registry are
exactly as they were.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

from kit_core import RegistrationError, str_arg, tool
from kit_core.hermes import installed_release, newest_registry_release
from kit_lifecycle import (
    CommandType,
    MiddlewareKind,
    PartialRegistrationError,
    PluginSkill,
    command,
    hook,
    middleware,
    plugin_skill,
    register_plugin,
)

if TYPE_CHECKING:
    from tests.host.conftest import HermesHost

PLUGIN = "kit_lifecycle_contract"


RELEASE = installed_release() or newest_registry_release()
"""The release installed here, as the host model knows it (what it offers decides which
declarations a plugin may register on it)."""
MIDDLEWARE = RELEASE.offers("register_middleware")
LEDGER = RELEASE.registration_ledger
"""Whether the release keeps a registration ledger (0.20.1 on): its registrars return
handles, which is how a registration is taken back."""


@pytest.fixture
def surfaces(hermes_host: HermesHost) -> ModuleType:
    module = hermes_host.plugin_module(PLUGIN, "surfaces")
    module.CALLS.clear()
    return module


def test_every_surface_is_registered_and_credited_to_the_plugin(hermes_host: HermesHost) -> None:
    info = hermes_host.list_plugins()[PLUGIN]
    assert (info["enabled"], info["error"]) == (True, None)
    assert (info["tools"], info["hooks"], info["commands"]) == (1, 2, 2)
    assert info.get("middleware") == (4 if MIDDLEWARE else None)  # not counted before it


def test_register_plugin_returned_the_summary_the_receipt_reports(hermes_host: HermesHost) -> None:
    (summary,) = hermes_host.plugin_module(PLUGIN).SUMMARY
    assert summary.tools == ("klc_echo",)
    assert summary.commands == ("klc-later", "klc-status")
    assert summary.cli_commands == ("klc-admin",)
    kinds = ("llm_execution", "llm_request", "tool_execution", "tool_request")
    assert summary.middlewares == (kinds if MIDDLEWARE else ())
    assert summary.hooks == ("pre_llm_call", "pre_tool_call")
    assert summary.skills == ("klc-guide",)
    assert summary.skipped_optional_skills == ("klc-extra",)


def test_slash_command_is_found_and_answers_through_the_host_lookup(
    hermes_host: HermesHost, surfaces: ModuleType
) -> None:
    plugins = hermes_host.plugins
    listed = plugins.get_plugin_commands()["klc-status"]
    assert listed["description"] == "Report what the plugin has seen."
    assert listed["args_hint"] == "<scope>"
    assert listed["plugin"] == PLUGIN
    handler = plugins.get_plugin_command_handler("klc-status")
    reply = plugins.resolve_plugin_command_result(handler("tools"))
    assert reply == "klc status for tools: 1 call(s)"
    assert surfaces.CALLS == [("klc-status", "tools")]


def test_async_slash_command_is_awaited_by_the_host(hermes_host: HermesHost) -> None:
    handler = hermes_host.plugins.get_plugin_command_handler("klc-later")
    result = handler("soon")
    assert asyncio.iscoroutine(result)
    assert hermes_host.plugins.resolve_plugin_command_result(result) == "later: soon"


def test_cli_command_builds_and_runs_like_the_hermes_entry_point(
    hermes_host: HermesHost, surfaces: ModuleType
) -> None:
    entry = hermes_host.manager._cli_commands["klc-admin"]
    assert entry["help"] == "Administer the lifecycle contract plugin."
    assert entry["plugin"] == PLUGIN
    # what hermes_cli/main.py does for each plugin CLI command
    parser = argparse.ArgumentParser(prog="hermes")
    subparsers = parser.add_subparsers(dest="command")
    sub = subparsers.add_parser(
        entry["name"], help=entry["help"], description=entry.get("description", "")
    )
    entry["setup_fn"](sub)
    sub.set_defaults(func=entry["handler_fn"])
    args = parser.parse_args(["klc-admin", "--scope", "boards"])
    assert args.func(args) == 0
    assert surfaces.CALLS == [("klc-admin", "boards")]


def call(hermes_host: HermesHost, args: dict[str, Any]) -> Any:
    out = hermes_host.call("klc_echo", args, task_id="t-klc", session_id="s-klc")
    return json.loads(out)


@pytest.mark.surface("middleware")
@pytest.mark.needs("register_middleware")
def test_tool_middleware_rewrites_the_arguments_and_wraps_the_real_call(
    hermes_host: HermesHost, surfaces: ModuleType
) -> None:
    assert call(hermes_host, {"text": "hi"}) == {
        "success": True,
        "data": {"echo": "HI"},
        "stamped_by": "klc",
    }
    assert surfaces.CALLS == [("klc_echo", "HI")]


def test_a_pre_tool_call_block_stops_the_tool(
    hermes_host: HermesHost, surfaces: ModuleType
) -> None:
    # the guard sees the arguments after the tool_request middleware rewrote them (upper case)
    text = "forbidden" if MIDDLEWARE else "FORBIDDEN"
    assert call(hermes_host, {"text": text}) == {"error": "klc refuses forbidden text"}
    assert surfaces.CALLS == []


@pytest.mark.surface("middleware")
@pytest.mark.needs("register_middleware")
def test_other_plugins_tools_pass_through_this_plugins_middleware(hermes_host: HermesHost) -> None:
    out = json.loads(hermes_host.call("kitc_echo", {"text": "plain"}, task_id="t", session_id="s"))
    assert out["success"] is True
    assert "stamped_by" not in out


@pytest.mark.surface("middleware")
@pytest.mark.needs("register_middleware")
def test_llm_middleware_runs_through_the_hosts_helpers(hermes_host: HermesHost) -> None:
    from hermes_cli import middleware as host_middleware

    context = {"task_id": "t", "session_id": "s", "turn_id": "u", "api_request_id": "a"}
    applied = host_middleware.apply_llm_request_middleware(
        {"model": "m", "klc": True, "max_tokens": 100}, **context
    )
    assert applied.payload["max_tokens"] == 7
    assert {"source": "klc"} in [dict(t) for t in applied.trace]
    untouched = host_middleware.apply_llm_request_middleware({"model": "m"}, **context)
    assert untouched.payload == {"model": "m"}

    calls: list[Any] = []

    def provider(request: Any = None) -> dict[str, Any]:
        calls.append(request)
        return {"response_for": request["model"]}

    wrapped = host_middleware.run_llm_execution_middleware(
        {"model": "m", "klc": True}, provider, **context
    )
    assert wrapped == {"klc_wrapped": {"response_for": "m"}}
    assert len(calls) == 1


def test_pre_llm_call_context_reaches_the_host(hermes_host: HermesHost) -> None:
    results = hermes_host.plugins.invoke_hook(
        "pre_llm_call",
        session_id="s",
        task_id="t",
        turn_id="u",
        user_message="klc please",
        conversation_history=[],
        is_first_turn=True,
        model="m",
        platform="cli",
        sender_id="me",
    )
    assert {"context": "klc context: the lifecycle contract plugin is loaded"} in results
    quiet = hermes_host.plugins.invoke_hook("pre_llm_call", session_id="s", user_message="hello")
    assert {"context": "klc context: the lifecycle contract plugin is loaded"} not in quiet


def test_the_skill_resolves_through_the_hosts_plugin_skill_lookup(hermes_host: HermesHost) -> None:
    qualified = f"{PLUGIN}:klc-guide"
    path = hermes_host.manager.find_plugin_skill(qualified)
    assert path is not None
    assert path.name == "SKILL.md"
    from tools.skills_tool import skill_view

    viewed = json.loads(skill_view(qualified))
    assert viewed["success"] is True
    assert "klc guide" in viewed["content"]
    assert hermes_host.manager.find_plugin_skill(f"{PLUGIN}:klc-extra") is None


def test_a_skill_file_not_named_skill_md_is_served_by_the_host(
    hermes_host: HermesHost, tmp_path: Path
) -> None:
    # hermes reads the file a skill was registered with, whatever its name: the kit's
    # plugin_skill takes it, and check raises no HPK401 for it
    path = tmp_path / "triage.md"
    path.write_text("---\nname: klc-named\n---\nklc named guide.\n", encoding="utf-8")
    summary = register_plugin(
        host_context(hermes_host), [], [plugin_skill("klc-named", path, "Named otherwise.")]
    )
    qualified = f"{ROLLBACK_PLUGIN}:klc-named"
    try:
        assert summary.skills == ("klc-named",)
        from tools.skills_tool import skill_view

        viewed = json.loads(skill_view(qualified))
        assert viewed["success"] is True
        assert "klc named guide" in viewed["content"]
    finally:
        manager = hermes_host.manager
        for registration in reversed(
            manager.__dict__.get("_ownership_ledger", {}).pop(ROLLBACK_PLUGIN, [])
        ):
            registration.dispose()
        manager._plugin_skills.pop(qualified, None)


# -- a registration that fails midway, against the live host ----------------------------------

ROLLBACK_PLUGIN = "klc_rollback"


@tool(toolset="klc_rollback", name="klc_rb_lookup", params={"q": str_arg("Query")})
def klc_rb_lookup(args: dict[str, Any], **kwargs: Any) -> object:
    """Look something up."""
    return args


@command("klc-rb-say", "Say something.")
def klc_rb_say(raw_args: str) -> str:
    return raw_args


@command("klc-rb-admin", "Administer the rollback plugin.", type=CommandType.CLI)
def klc_rb_admin(args: Any) -> int:
    return 0


@middleware(MiddlewareKind.TOOL_REQUEST)
def klc_rb_request(**kwargs: Any) -> None:
    return None


@hook("on_session_end")
def klc_rb_end(**kwargs: Any) -> None:
    return None


ROLLBACK_DECLARATIONS = (
    (klc_rb_say, klc_rb_admin, klc_rb_lookup)
    + ((klc_rb_request,) if MIDDLEWARE else ())
    + (klc_rb_end,)
)
ROLLBACK_STEPS = (
    "command 'klc-rb-say'",
    "CLI command 'klc-rb-admin'",
    "tool 'klc_rb_lookup'",
    *(("middleware 'tool_request'",) if MIDDLEWARE else ()),
    "hook 'on_session_end'",
    "skill 'klc-rb-guide'",
)
"""The registrar calls register_plugin makes for these declarations, in order (a release
without middleware gets none: register_plugin would refuse it)."""


class Planted(RuntimeError):
    """The failure planted at one registrar call."""


@pytest.fixture
def rollback_skill(tmp_path: Path) -> PluginSkill:
    path = tmp_path / "klc-rb-guide" / "SKILL.md"
    path.parent.mkdir()
    path.write_text("---\nname: klc-rb-guide\n---\nA guide.\n")
    return plugin_skill("klc-rb-guide", path, "How the rollback plugin works.")


def host_state(hermes_host: HermesHost) -> dict[str, Any]:
    """What the host holds, by identity (an equal copy is not the same registration)."""
    manager, registry = hermes_host.manager, hermes_host.registry
    return {
        "hooks": {k: [id(cb) for cb in v] for k, v in manager._hooks.items()},
        "middleware": {
            k: [id(cb) for cb in v] for k, v in getattr(manager, "_middleware", {}).items()
        },
        "commands": {k: id(v) for k, v in manager._plugin_commands.items()},
        "cli_commands": {k: id(v) for k, v in manager._cli_commands.items()},
        "skills": {k: id(v) for k, v in manager._plugin_skills.items()},
        "tool_names": sorted(manager._plugin_tool_names),
        # the active home's view (from 0.20.1 on, plugin tools live in its overlay)
        "tools": {n: id(registry.get_entry(n)) for n in registry.get_all_tool_names()},
        # the registration ledger (0.20.1 on): plugin key -> the handles it holds
        "ledger": {
            k: [id(r) for r in v] for k, v in getattr(manager, "_ownership_ledger", {}).items()
        },
    }


def host_context(hermes_host: HermesHost, fail_at: str = "", after: bool = False) -> Any:
    """The host's own PluginContext for a new plugin, raising at ``fail_at`` before (or,
    with ``after``, right after) the host stored that registration."""
    plugins = hermes_host.plugins

    def gate(label: str, stored: bool) -> None:
        if label == fail_at and stored == after:
            raise Planted(f"{label} refused")

    class Failing(plugins.PluginContext):
        # each returns what the host's registrar returned (from 0.20.1 on, the handle the
        # kit disposes to take the registration back)
        def register_command(self, name: str, handler: Any, **kw: Any) -> Any:
            gate(f"command {name!r}", False)
            result = super().register_command(name, handler, **kw)
            gate(f"command {name!r}", True)
            return result

        def register_cli_command(self, name: str, help: str, setup_fn: Any, **kw: Any) -> Any:
            gate(f"CLI command {name!r}", False)
            result = super().register_cli_command(name, help, setup_fn, **kw)
            gate(f"CLI command {name!r}", True)
            return result

        def register_tool(self, name: str, toolset: str, schema: Any, handler: Any, **kw: Any):
            gate(f"tool {name!r}", False)
            result = super().register_tool(name, toolset, schema, handler, **kw)
            gate(f"tool {name!r}", True)
            return result

        def register_hook(self, hook_name: str, callback: Any) -> Any:
            gate(f"hook {hook_name!r}", False)
            result = super().register_hook(hook_name, callback)
            gate(f"hook {hook_name!r}", True)
            return result

        def register_skill(self, name: str, path: Path, description: str = "") -> Any:
            gate(f"skill {name!r}", False)
            result = super().register_skill(name, path, description)
            gate(f"skill {name!r}", True)
            return result

    class FailingMiddleware(Failing):
        def register_middleware(self, kind: str, callback: Any) -> Any:
            gate(f"middleware {kind!r}", False)
            result = super().register_middleware(kind, callback)
            gate(f"middleware {kind!r}", True)
            return result

    manifest = plugins.PluginManifest(name=ROLLBACK_PLUGIN, source="user", key=ROLLBACK_PLUGIN)
    kind = FailingMiddleware if hasattr(plugins.PluginContext, "register_middleware") else Failing
    return kind(manifest, hermes_host.manager)


@pytest.mark.parametrize("after", [False, True], ids=["before-storing", "after-storing"])
@pytest.mark.parametrize("step", ROLLBACK_STEPS)
def test_a_registrar_failing_midway_leaves_the_real_host_as_it_was(
    step: str, after: bool, hermes_host: HermesHost, rollback_skill: PluginSkill
) -> None:
    before = host_state(hermes_host)
    ctx = host_context(hermes_host, fail_at=step, after=after)
    with pytest.raises(PartialRegistrationError) as caught:
        register_plugin(ctx, ROLLBACK_DECLARATIONS, [rollback_skill])
    assert host_state(hermes_host) == before
    assert hermes_host.registry.get_entry("klc_rb_lookup") is None
    assert hermes_host.plugins.get_plugin_command_handler("klc-rb-say") is None
    error = caught.value
    assert error.failed == step
    stored = ROLLBACK_STEPS[: ROLLBACK_STEPS.index(step) + (1 if after else 0)]
    assert error.rolled_back == tuple(reversed(stored))
    assert error.left_registered == ()


def test_a_skill_file_gone_at_registration_rolls_the_real_host_back(
    hermes_host: HermesHost,
    rollback_skill: PluginSkill,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rollback_skill.path.unlink()  # removed after the kit checked it was there:
    monkeypatch.setattr(PluginSkill, "present", property(lambda self: True))
    before = host_state(hermes_host)
    with pytest.raises(PartialRegistrationError) as caught:
        register_plugin(host_context(hermes_host), ROLLBACK_DECLARATIONS, [rollback_skill])
    assert host_state(hermes_host) == before
    error = caught.value
    assert error.failed == "skill 'klc-rb-guide'"
    assert f"FileNotFoundError: SKILL.md not found at {rollback_skill.path}" in str(error)
    assert error.rolled_back == tuple(reversed(ROLLBACK_STEPS[:-1]))


def test_a_receipt_logger_that_raises_rolls_the_real_host_back(
    hermes_host: HermesHost, rollback_skill: PluginSkill
) -> None:
    class FullDisk(logging.Logger):
        def info(self, msg: object, *args: object, **kwargs: Any) -> None:
            raise OSError("no space left on device")

    before = host_state(hermes_host)
    with pytest.raises(PartialRegistrationError) as caught:
        register_plugin(
            host_context(hermes_host),
            ROLLBACK_DECLARATIONS,
            [rollback_skill],
            logger=FullDisk("klc.rollback"),
        )
    assert host_state(hermes_host) == before
    assert caught.value.failed == "the registration receipt"
    assert caught.value.rolled_back == tuple(reversed(ROLLBACK_STEPS))


def unregister_rollback_plugin(hermes_host: HermesHost) -> None:
    """Take the rollback plugin's registrations out of the live host as hermes does."""
    manager = hermes_host.manager
    if LEDGER:  # what unload() disposes (PluginLedgerMixin._unload_scoped, 0.21.3)
        for registration in reversed(manager._ownership_ledger.get(ROLLBACK_PLUGIN, [])):
            registration.dispose()
        return
    tables = [(manager._hooks, "on_session_end", klc_rb_end)]
    if MIDDLEWARE:
        tables.append((manager._middleware, "tool_request", klc_rb_request))
    for table, key, callback in tables:
        table[key].remove(callback)
        if not table[key]:
            del table[key]
    del manager._plugin_commands["klc-rb-say"], manager._cli_commands["klc-rb-admin"]
    manager.remove_plugin_skill(f"{ROLLBACK_PLUGIN}:klc-rb-guide")
    hermes_host.registry.deregister("klc_rb_lookup")
    manager._plugin_tool_names.discard("klc_rb_lookup")


def test_the_same_plugin_registers_cleanly_after_a_rollback(
    hermes_host: HermesHost, rollback_skill: PluginSkill
) -> None:
    before = host_state(hermes_host)
    with pytest.raises(PartialRegistrationError):
        register_plugin(
            host_context(hermes_host, fail_at="skill 'klc-rb-guide'"),
            ROLLBACK_DECLARATIONS,
            [rollback_skill],
        )
    ctx = host_context(hermes_host)
    try:
        summary = register_plugin(ctx, ROLLBACK_DECLARATIONS, [rollback_skill])
        assert summary.tools == ("klc_rb_lookup",)
        assert hermes_host.manager._hooks["on_session_end"].count(klc_rb_end) == 1
        assert hermes_host.registry.get_entry("klc_rb_lookup").handler is klc_rb_lookup
    finally:  # take it out again, so the shared host is as the other tests expect it
        unregister_rollback_plugin(hermes_host)
    assert host_state(hermes_host) == before


# -- what hermes logs of a failing hook never shows the plugin's requires_env values ----------

SECRET_ENV = "KLC_SECRET_SERVICE_KEY"


@tool(toolset="klc_secret", name="klc_secret_fetch", requires_env=[SECRET_ENV], params={})
def klc_secret_fetch(args: dict[str, Any], **kwargs: Any) -> object:
    """Fetch with the service key."""
    return args


@hook("on_session_end")
def klc_secret_end(**kwargs: Any) -> None:
    raise PermissionError(f"session {kwargs.get('session_id')} refused")


@middleware(MiddlewareKind.TOOL_REQUEST)
def klc_secret_request(**kwargs: Any) -> None:
    raise PermissionError(f"task {kwargs.get('task_id')} refused")


def test_hermes_warning_for_a_failing_hook_hides_the_plugins_key(
    hermes_host: HermesHost, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    value = "klc0secret0service0value0abcdef"
    monkeypatch.setenv(SECRET_ENV, value)
    plugins = hermes_host.plugins
    manager = plugins.PluginManager()  # its own tables; the tool registry is shared
    manifest = plugins.PluginManifest(name="klc_secret", source="user", key="klc_secret")
    caplog.set_level(logging.DEBUG)
    try:
        register_plugin(
            plugins.PluginContext(manifest, manager),
            (klc_secret_fetch, klc_secret_end, *((klc_secret_request,) if MIDDLEWARE else ())),
        )
        assert manager.invoke_hook("on_session_end", session_id=value, task_id=value) == []
        if MIDDLEWARE:
            assert manager.invoke_middleware("tool_request", args={}, task_id=value) == []
    finally:
        hermes_host.registry.deregister("klc_secret_fetch")
    host_lines = [r.getMessage() for r in caplog.records if r.name == "hermes_cli.plugins"]

    def logged(line: str) -> bool:
        # 0.22.2 appends what the hook provides (``_report_hook_failure``,
        # hermes_cli/plugins_dispatch.py): "... refused (hook provides: ...; identical ...)"
        return any(h == line or h.startswith(f"{line} (") for h in host_lines)

    assert logged("Hook 'on_session_end' callback klc_secret_end raised: session *** refused")
    assert not MIDDLEWARE or logged(
        "Middleware 'tool_request' callback klc_secret_request raised: task *** refused"
    )
    assert all(value not in r.getMessage() for r in caplog.records)


# -- a surface the release lacks is refused whole, naming the release that has it -----------


@pytest.mark.surface("middleware")
@pytest.mark.lacks("register_middleware")
def test_middleware_on_a_release_without_it_is_refused_naming_the_release_and_nothing_stays(
    hermes_host: HermesHost, rollback_skill: PluginSkill
) -> None:
    plugins = hermes_host.plugins
    manifest = plugins.PluginManifest(name=ROLLBACK_PLUGIN, source="user", key=ROLLBACK_PLUGIN)
    before = host_state(hermes_host)
    with pytest.raises(RegistrationError) as caught:
        register_plugin(
            plugins.PluginContext(manifest, hermes_host.manager),
            (*ROLLBACK_DECLARATIONS, klc_rb_request),
            [rollback_skill],
        )
    assert str(caught.value).startswith(
        f"hermes-agent {RELEASE.version} has no register_middleware(): it came with"
        " hermes-agent 0.17.0. Upgrade hermes to 0.17.0 or later, or leave the middleware out"
    )
    assert host_state(hermes_host) == before  # refused before anything reached the host
    assert hermes_host.registry.get_entry("klc_rb_lookup") is None
