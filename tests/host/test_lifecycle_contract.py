"""kit-lifecycle against the real hermes-agent 0.19.0.

The ``kit_lifecycle_contract`` plugin (tests/host/plugins) declares a tool, two slash
commands, a CLI command, all four middleware kinds, two hooks and a skill with the kit
and registers them with one ``register_plugin`` call; these tests drive each surface
through the host's own entry points.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from tests.host.conftest import HermesHost

PLUGIN = "kit_lifecycle_contract"


@pytest.fixture
def surfaces(hermes_host: HermesHost) -> ModuleType:
    module = hermes_host.plugin_module(PLUGIN, "surfaces")
    module.CALLS.clear()
    return module


def test_every_surface_is_registered_and_credited_to_the_plugin(hermes_host: HermesHost) -> None:
    info = hermes_host.list_plugins()[PLUGIN]
    assert (info["enabled"], info["error"]) == (True, None)
    assert (info["tools"], info["hooks"], info["middleware"], info["commands"]) == (1, 2, 4, 2)


def test_register_plugin_returned_the_summary_the_receipt_reports(hermes_host: HermesHost) -> None:
    (summary,) = hermes_host.plugin_module(PLUGIN).SUMMARY
    assert summary.tools == ("klc_echo",)
    assert summary.commands == ("klc-later", "klc-status")
    assert summary.cli_commands == ("klc-admin",)
    assert summary.middlewares == ("llm_execution", "llm_request", "tool_execution", "tool_request")
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
    # the guard sees the arguments after the tool_request middleware rewrote them
    assert call(hermes_host, {"text": "forbidden"}) == {"error": "klc refuses forbidden text"}
    assert surfaces.CALLS == []


def test_other_plugins_tools_pass_through_this_plugins_middleware(hermes_host: HermesHost) -> None:
    out = json.loads(hermes_host.call("kitc_echo", {"text": "plain"}, task_id="t", session_id="s"))
    assert out["success"] is True
    assert "stamped_by" not in out


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
