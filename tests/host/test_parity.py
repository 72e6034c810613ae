"""The in-memory host answers exactly like the real hermes-agent 0.19.0 (marked ``host``).

The same plugins the ``hermes_host`` fixture loads (``tests/host/plugins/*`` and
``examples/unit-convert``), read from their source directories into a fresh
:class:`~kit_devtools.testing.InMemoryHost`, must give identical tool definitions,
identical ``handle_function_call`` answers, identical hook and middleware results,
identical command answers and identical registration credits; and the host's built-in
name lists must be the real ones. The real host is shared with the other host test
files: the plugin state a test touches is saved and put back.
"""

from __future__ import annotations

import argparse
import contextvars
import copy
import importlib
import inspect
import json
from collections.abc import Callable, Iterator
from dataclasses import asdict
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import pytest
from tests.host._parity_inputs import (
    CALLS,
    COMMANDS,
    DISPATCHES,
    HOOK_CALLS,
    LLM_CONTEXT,
    LLM_REQUESTS,
    SOURCES,
    TOOLSETS,
)

import kit_media
from kit_core.hermes import installed_release
from kit_devtools.testing import (
    AGENT_LOOP_TOOLS,
    BUILTIN_COMMANDS,
    BUILTIN_TOOLS,
    TOOL_SEARCH_TOOLS,
    VALID_HOOKS,
    VALID_MIDDLEWARE,
    InMemoryHost,
)

if TYPE_CHECKING:
    from tests.host.conftest import HermesHost


@pytest.fixture
def memory() -> InMemoryHost:
    """A fresh in-memory host with the plugins, in the order hermes discovered them."""
    host = InMemoryHost()
    for source in SOURCES.values():
        loaded = host.load(source)
        assert loaded.enabled, loaded.error
    return host


def submodule(memory: InMemoryHost, key: str, name: str) -> Any:
    """A submodule of the in-memory host's copy of plugin ``key``."""
    return getattr(memory.plugins[key].module, name)


def calls_of(memory: InMemoryHost, key: str, name: str) -> list[Any]:
    return submodule(memory, key, name).CALLS


@pytest.fixture
def fresh_calls(hermes_host: HermesHost, memory: InMemoryHost) -> Iterator[None]:
    """Empty CALLS lists in both hosts' copies of the plugins; the real ones put back."""
    modules = [
        hermes_host.plugin_module("kit_contract", "tools"),
        hermes_host.plugin_module("kit_lifecycle_contract", "surfaces"),
        submodule(memory, "kit_contract", "tools"),
        submodule(memory, "kit_lifecycle_contract", "surfaces"),
    ]
    saved = [list(m.CALLS) for m in modules]
    for module in modules:
        module.CALLS.clear()
    yield
    for module, calls in zip(modules, saved, strict=True):
        module.CALLS[:] = calls


def _ours(callback: Any) -> bool:
    """Whether a callback comes from one of the plugins under test (or the kit itself)."""
    module = str(getattr(callback, "__module__", ""))
    slugs = tuple(f"hermes_plugins.{key.replace('-', '_')}" for key in SOURCES)
    return module.startswith((*slugs, "kit_"))


# -- what hermes knows by name --------------------------------------------------------------


def real_builtin_tools(hermes_host: HermesHost) -> dict[str, str]:
    """The registry's tools that no test plugin put there (a refused name stays built-in)."""
    ours: set[str] = set()
    for loaded in hermes_host.manager._plugins.values():
        if loaded.manifest.source != "bundled":
            ours.update(loaded.tools_registered)
    found = {}
    for name, entry in hermes_host.registry._tools.items():
        defined_in = getattr(entry.handler, "__module__", "") or ""
        if name not in ours or defined_in.startswith(("tools.", "plugins.")):
            found[name] = entry.toolset
    return found


def test_the_builtin_tool_list_is_the_real_registrys(hermes_host: HermesHost) -> None:
    assert dict(BUILTIN_TOOLS) == real_builtin_tools(hermes_host)


def _names_of(module: str, table: str) -> set[str]:
    """A table of hermes' names; a module the release does not have holds none
    (``hermes_cli.middleware``: 0.17.0 on; ``tools.tool_search``: 0.16.0 on)."""
    try:
        return set(getattr(importlib.import_module(module), table))
    except ModuleNotFoundError:
        return set()


def test_the_builtin_names_are_the_hosts(hermes_host: HermesHost) -> None:
    assert _names_of("hermes_cli.commands", "_COMMAND_LOOKUP") == BUILTIN_COMMANDS
    assert _names_of("hermes_cli.plugins", "VALID_HOOKS") == VALID_HOOKS
    assert _names_of("hermes_cli.middleware", "VALID_MIDDLEWARE") == VALID_MIDDLEWARE
    assert set(hermes_host.model_tools._AGENT_LOOP_TOOLS) == AGENT_LOOP_TOOLS
    assert _names_of("tools.tool_search", "BRIDGE_TOOL_NAMES") == TOOL_SEARCH_TOOLS


# -- registration ---------------------------------------------------------------------------


def test_plugins_are_credited_alike(hermes_host: HermesHost, memory: InMemoryHost) -> None:
    manager = hermes_host.manager
    for key in SOURCES:
        real, mine = manager._plugins[key], memory.plugins[key]
        assert (mine.enabled, mine.error) == (real.enabled, real.error), key
        assert sorted(mine.tools) == sorted(real.tools_registered), key
        # hermes lists them in the order its hook table first saw each name, bundled
        # plugins' registrations included (0.17.0's register on_session_end and others
        # before any plugin here), which the in-memory host has no part of: compared as sets
        assert sorted(mine.hooks) == sorted(real.hooks_registered), key
        # a release without middleware records none (0.17.0 on)
        assert list(mine.middleware) == getattr(real, "middleware_registered", []), key
        assert list(mine.commands) == real.commands_registered, key
        name = real.manifest.name
        assert list(mine.cli_commands) == [
            c for c, e in manager._cli_commands.items() if e["plugin"] == name
        ], key
        assert list(mine.skills) == [
            s for s, e in manager._plugin_skills.items() if e["plugin"] == name
        ], key


def test_registrations_store_the_same_fields(hermes_host: HermesHost, memory: InMemoryHost) -> None:
    manager, registry = hermes_host.manager, hermes_host.registry
    for name, mine in memory.tools.items():
        real = registry.get_entry(name)  # from 0.20.1 on, in the home's overlay
        assert real is not None, name
        assert (mine.toolset, mine.schema, mine.is_async, mine.emoji) == (
            real.toolset,
            real.schema,
            real.is_async,
            real.emoji,
        )
        assert (mine.requires_env, mine.description) == (real.requires_env, real.description)
    for name, mine in memory.commands.items():
        real = manager._plugin_commands[name]
        assert (mine.description, mine.args_hint, mine.plugin) == (
            real["description"],
            real["args_hint"],
            real["plugin"],
        )
    for name, mine in memory.skills.items():
        real = manager._plugin_skills[name]
        assert (mine.name, mine.description, mine.path.name) == (
            real["bare_name"],
            real["description"],
            real["path"].name,
        )
    # the real host's tables also hold what bundled plugins it loads on demand registered
    # (a platform adapter loaded by a send, in another test): compare the kit plugins' part
    for table, mine_table in (
        (getattr(manager, "_middleware", {}), memory.middleware),
        (manager._hooks, memory.hooks),
    ):
        real_part = {k: [c for c in cbs if _ours(c)] for k, cbs in table.items()}
        real_part = {k: cbs for k, cbs in real_part.items() if cbs}
        assert {k: [e.callback.__qualname__ for e in v] for k, v in mine_table.items()} == {
            k: [c.__qualname__ for c in cbs] for k, cbs in real_part.items()
        }


def test_tool_definitions_are_identical(hermes_host: HermesHost, memory: InMemoryHost) -> None:
    real = hermes_host.definitions(*TOOLSETS)
    mine = {d["function"]["name"]: d for d in memory.definitions(TOOLSETS)}
    assert sorted(mine) == sorted(real)
    assert "kitc_gated" not in mine  # its check_fn fails in both
    for name, definition in mine.items():
        assert definition == real[name], name
        assert json.dumps(definition) == json.dumps(real[name]), f"{name}: key order differs"


_RELEASE = installed_release()


@pytest.mark.needs("bridge_default")
def test_the_default_model_view_is_the_real_releases(
    hermes_host: HermesHost, memory: InMemoryHost
) -> None:
    """What the model is sent by default (tools.tool_search.enabled: auto): the bridge's
    names, the catalog listing at the end of tool_search's description, and what
    tool_describe answers for each tool (through handle_function_call)."""
    mine = memory.model_view(TOOLSETS)
    with hermes_host.default_tool_search():
        found = hermes_host.model_tools.get_tool_definitions(
            enabled_toolsets=list(TOOLSETS), quiet_mode=True
        )
        bridged = {d["function"]["name"]: d["function"] for d in found}
        listed = bridged["tool_search"]["description"]
        by_list = "names" in bridged["tool_describe"]["parameters"]["properties"]
        described = {}
        for name in mine.described:
            args: dict[str, Any] = {"names": [name]} if by_list else {"name": name}
            answer = json.loads(hermes_host.call("tool_describe", args, task_id="t"))
            described[name] = answer["tools"][name] if by_list else answer
            described[name].pop("name", None)
    assert mine.bridge is True
    assert set(mine.tools) == set(bridged)
    assert mine.listing is not None
    assert listed[listed.index("Deferred tool catalog") :] == mine.listing
    assert dict(mine.described) == described
    for entry in mine.entries.values():
        assert entry in mine.listing.splitlines()


FIRST_SENTENCES = [
    "Echo the text back, repeated. Required: `text`.",
    "Look it up! Then say so.",
    "Is it there? Then say so.",
    "Use e.g. a file. Or not.",
    "Version 2.5 of the tool. More.",
    "Line one\nline two.",
    "A very long first sentence that goes on and on well past the sixty character cut.",
    "Averyveryveryveryveryveryveryveryveryveryveryveryveryverylongwordbeyondsixty.",
    "   spaced    out   text.  ",
    "",
]


@pytest.mark.needs("bridge_default")
def test_a_tools_one_line_entry_is_cut_as_the_release_cuts_it() -> None:
    """The first-sentence rule of the catalog listing (_short_desc) on edge cases."""
    from tools import tool_search

    from kit_devtools.testing._bridge import short_description

    real = getattr(tool_search, "_short_desc", None)
    if real is None:  # 0.21.3 on: the catalog has a module of its own
        catalog = importlib.import_module("tools.tool_search_catalog")
        real = catalog._short_desc
    assert _RELEASE is not None
    for text in FIRST_SENTENCES:
        assert short_description(text, _RELEASE) == real(text), text


# -- the tool-call pipeline -----------------------------------------------------------------


def _parity_calls() -> list[tuple[str, Any, dict[str, Any]]]:
    """The calls both hosts answer alike: not one to a tool the release has built in (the
    in-memory host does not run built-in tools and says so: send_message up to 0.16.0)."""
    if _RELEASE is None:
        return CALLS
    built_in = set(_RELEASE.tools) - set(_RELEASE.agent_loop_tools)
    return [call for call in CALLS if call[0] not in built_in]


PARITY_CALLS = _parity_calls()


@pytest.mark.usefixtures("fresh_calls")
@pytest.mark.parametrize(
    ("name", "args", "context"), PARITY_CALLS, ids=[c[0] for c in PARITY_CALLS]
)
def test_tool_calls_answer_identically(
    hermes_host: HermesHost,
    memory: InMemoryHost,
    name: str,
    args: Any,
    context: dict[str, Any],
) -> None:
    real = _outcome(lambda: hermes_host.call(name, copy.deepcopy(args), **context))
    mine = _outcome(lambda: memory.call_tool(name, copy.deepcopy(args), **context))
    if isinstance(real, BaseException):  # a keyword this release's pipeline does not take
        assert type(mine) is type(real)
        assert str(mine).startswith(str(real)), (mine, real)
    else:
        assert mine == real
    real_tools = hermes_host.plugin_module("kit_contract", "tools").CALLS
    real_surfaces = hermes_host.plugin_module("kit_lifecycle_contract", "surfaces").CALLS
    assert real_tools == calls_of(memory, "kit_contract", "tools")
    assert real_surfaces == calls_of(memory, "kit_lifecycle_contract", "surfaces")


def _outcome(call: Callable[[], Any]) -> Any:
    """What ``call`` returned, or the exception it raised."""
    try:
        return call()
    except Exception as exc:
        return exc


def test_dispatch_alone_answers_identically(hermes_host: HermesHost, memory: InMemoryHost) -> None:
    for name, args in DISPATCHES:
        real = hermes_host.registry.dispatch(name, dict(args), task_id="t", anything=1)
        assert memory.dispatch(name, dict(args), task_id="t", anything=1) == real


# -- hooks, middleware, commands ------------------------------------------------------------


@pytest.mark.parametrize(("hook", "kwargs"), HOOK_CALLS, ids=[h[0] for h in HOOK_CALLS])
def test_hooks_answer_identically(
    hermes_host: HermesHost, memory: InMemoryHost, hook: str, kwargs: dict[str, Any]
) -> None:
    real = hermes_host.plugins.invoke_hook(hook, **copy.deepcopy(kwargs))
    assert memory.invoke_hook(hook, **copy.deepcopy(kwargs)) == real


@pytest.mark.needs("register_middleware")
def test_llm_middleware_answers_identically(hermes_host: HermesHost, memory: InMemoryHost) -> None:
    from hermes_cli import middleware

    context = LLM_CONTEXT
    for request in LLM_REQUESTS:
        real = middleware.apply_llm_request_middleware(copy.deepcopy(request), **context)
        mine = memory.apply_llm_request_middleware(copy.deepcopy(request), **context)
        assert asdict(mine) == {
            "payload": real.payload,
            "original_payload": real.original_payload,
            "changed": real.changed,
            "trace": real.trace,
        }

    def provider(request: Any = None) -> dict[str, Any]:
        return {"response_for": request["model"]}

    for request in ({"model": "m", "klc": True}, {"model": "n"}):
        real = middleware.run_llm_execution_middleware(dict(request), provider, **context)
        assert memory.run_llm_execution_middleware(dict(request), provider, **context) == real


@pytest.mark.usefixtures("fresh_calls")
@pytest.mark.parametrize(("command", "raw"), COMMANDS)
def test_slash_commands_answer_identically(
    hermes_host: HermesHost, memory: InMemoryHost, command: str, raw: str
) -> None:
    plugins = hermes_host.plugins
    real = plugins.resolve_plugin_command_result(plugins.get_plugin_command_handler(command)(raw))
    assert memory.run_command(command, raw) == real


@pytest.mark.usefixtures("fresh_calls")
def test_terminal_commands_answer_identically(
    hermes_host: HermesHost, memory: InMemoryHost
) -> None:
    # the plugin part of hermes_cli/main.py 13748-13779, then main()'s args.func(args)
    parser = argparse.ArgumentParser(prog="hermes")
    subparsers = parser.add_subparsers(dest="command")
    for info in hermes_host.manager._cli_commands.values():
        sub = subparsers.add_parser(
            info["name"], help=info["help"], description=info.get("description", "")
        )
        info["setup_fn"](sub)
        if info.get("handler_fn") is not None:
            sub.set_defaults(func=info["handler_fn"])
    args = parser.parse_args(["klc-admin", "--scope", "boards"])
    real = args.func(args)
    assert memory.run_cli(["klc-admin", "--scope", "boards"]) == real
    real_calls = hermes_host.plugin_module("kit_lifecycle_contract", "surfaces").CALLS
    assert real_calls == calls_of(memory, "kit_lifecycle_contract", "surfaces")


# -- send_message through kit-media -------------------------------------------------------

TOKEN = "7012345678:AAHf3kQx9V2mZP1wLrT8sYbN4cJd6eGuK0o"
CHAT, TOPIC, SESSION = "-1001234567890", "17585", "20260101_120000_parity"
SESSION_ENV = {
    "HERMES_SESSION_PLATFORM": "telegram",
    "HERMES_SESSION_CHAT_ID": CHAT,
    "HERMES_SESSION_THREAD_ID": TOPIC,
    "HERMES_SESSION_ID": SESSION,
}
TELEGRAM_METHODS = (
    "initialize",
    "shutdown",
    "get_me",
    "send_message",
    "send_photo",
    "send_voice",
    "send_audio",
    "send_video",
    "send_document",
    "send_media_group",
)
MEDIA_ENV = (
    "TELEGRAM_HOME_CHANNEL",
    "TELEGRAM_PROXY",
    "HTTPS_PROXY",
    "HTTP_PROXY",
    "ALL_PROXY",
    "https_proxy",
    "http_proxy",
    "all_proxy",
    "HERMES_MEDIA_DELIVERY_STRICT",
    "HERMES_MEDIA_ALLOW_DIRS",
    *SESSION_ENV,
)


@pytest.fixture
def real_send(
    hermes_host: HermesHost, monkeypatch: pytest.MonkeyPatch
) -> Iterator[SimpleNamespace]:
    """The real host set up to send to Telegram: a bot token, Bot's network methods faked,
    ``send_message_tool`` wrapped to record its arguments, the contract plugin's records
    empty; ``run(fn)`` runs ``fn`` in a gateway turn's session context, the turn's session
    bound as the release binds it (``set_session_vars`` from 0.17.0; before,
    ``set_current_session_id``, from 0.15.0; 0.13.0 and 0.14.0 bind none)."""
    import telegram
    from gateway import session_context
    from tools import send_message_tool

    for name in MEDIA_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)

    async def network(bot: Any, *args: Any, **kwargs: Any) -> Any:
        return SimpleNamespace(message_id=4201)

    for method in TELEGRAM_METHODS:
        monkeypatch.setattr(telegram.Bot, method, network)
    sent: list[dict[str, Any]] = []
    original = send_message_tool.send_message_tool

    def recording(args: Any, **kwargs: Any) -> Any:
        sent.append(copy.deepcopy(args))
        return original(args, **kwargs)

    monkeypatch.setattr(send_message_tool, "send_message_tool", recording)
    engaged = getattr(session_context, "session_context_engaged", None)
    if callable(engaged):  # the process-wide "engaged" latch, 0.18.0 and newer
        monkeypatch.setattr(session_context, "_session_context_engaged", engaged())
    plugin = hermes_host.plugin_module("kit_media_contract")
    monkeypatch.setattr(plugin, "BLOCK_SEND_MESSAGE", None)

    def run(fn: Callable[[], Any]) -> Any:
        def bound() -> Any:
            fields: dict[str, Any] = {
                "platform": "telegram",
                "chat_id": CHAT,
                "thread_id": TOPIC,
                "session_key": f"agent:main:telegram:group:{CHAT}:{TOPIC}",
                "session_id": SESSION,  # a session variable from 0.17.0 on
            }
            accepted = inspect.signature(session_context.set_session_vars).parameters
            session_context.set_session_vars(**{k: v for k, v in fields.items() if k in accepted})
            binder = getattr(session_context, "set_current_session_id", None)
            if "session_id" not in accepted and callable(binder):
                binder(SESSION)  # agent_init binds the turn's session (0.15.0, 0.16.0)
            return fn()

        return contextvars.copy_context().run(bound)

    saved = (list(plugin.PRE_CALLS), list(plugin.POST_CALLS))
    plugin.PRE_CALLS.clear()
    plugin.POST_CALLS.clear()
    kit_media.clear_media_delivery_state(session_id=SESSION)
    yield SimpleNamespace(sent=sent, run=run, plugin=plugin)
    kit_media.clear_media_delivery_state(session_id=SESSION)
    plugin.PRE_CALLS[:] = saved[0]
    plugin.POST_CALLS[:] = saved[1]


def _comparable(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``post_tool_call`` records without the timing and the platform's message id."""
    out = []
    for call in calls:
        kept = {k: v for k, v in call.items() if k != "duration_ms"}
        reply = json.loads(kept["result"])
        reply.pop("message_id", None)
        out.append({**kept, "result": reply})
    return out


@pytest.mark.parametrize("block", [None, "parity: sending is paused"])
def test_a_media_send_goes_through_the_same_guard_and_send_message(
    hermes_host: HermesHost,
    memory: InMemoryHost,
    real_send: SimpleNamespace,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    block: str | None,
) -> None:
    image = tmp_path / "parity.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 32)
    args = {"path": str(image), "media_type": "document"}
    context = {"task_id": "task-m", "session_id": SESSION, "tool_call_id": "call-m"}
    mine_plugin: Any = memory.plugins["kit_media_contract"].module
    monkeypatch.setattr(real_send.plugin, "BLOCK_SEND_MESSAGE", block)
    mine_plugin.BLOCK_SEND_MESSAGE = block

    real = json.loads(
        real_send.run(lambda: hermes_host.call("kitm_deliver", dict(args), **context))
    )
    real_hook = hermes_host.plugins.invoke_hook(
        "transform_llm_output", response_text="done", session_id=SESSION
    )
    kit_media.clear_media_delivery_state(session_id=SESSION)
    memory.session_env.update(SESSION_ENV)
    mine = json.loads(memory.call_tool("kitm_deliver", dict(args), **context))
    mine_hook = memory.invoke_hook("transform_llm_output", response_text="done", session_id=SESSION)

    assert memory.sent_messages == real_send.sent
    if block is None:  # the one field a recorded send cannot know: the platform's message id
        ids = [r["data"]["host_result"].pop("message_id", None) for r in (mine, real)]
        assert None not in ids
    else:  # the tool returned the failed delivery: both answer with the error envelope
        assert real["error_code"] == "media_delivery_failed"
        assert real["error"].endswith(f": {block}")
    assert mine == real
    assert mine_hook == real_hook
    assert mine_plugin.PRE_CALLS == real_send.plugin.PRE_CALLS
    assert _comparable(mine_plugin.POST_CALLS) == _comparable(real_send.plugin.POST_CALLS)
    if block is None:
        assert real["data"]["success"] is True
        assert real_send.sent == [
            {
                "action": "send",
                "target": f"telegram:{CHAT}:{TOPIC}",
                "message": f"[[as_document]]\nMEDIA:{image}",
            }
        ]
    else:
        assert real_send.sent == []
