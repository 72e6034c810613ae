"""The in-memory host's loading and ``register_*`` refusals, with hand-written plugins.

Most plugins in the wild do not use the kit, so every plugin here calls ``ctx`` directly.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from kit_devtools.testing import (
    BUILTIN_TOOLS,
    HostContext,
    InMemoryHost,
    PluginToolOverrideError,
)

SCHEMA = {"name": "x", "description": "Do x.", "parameters": {"type": "object", "properties": {}}}


def handler(args: dict[str, Any], **kwargs: Any) -> str:
    return json.dumps({"ok": True, "args": args})


def module_plugin(register: Callable[[Any], None], name: str = "handmade") -> ModuleType:
    module = ModuleType(name)
    module.register = register  # type: ignore[attr-defined]
    return module


def write_plugin(
    root: Path, name: str, init: str, manifest: str | None = None, **files: str
) -> Path:
    directory = root / name
    directory.mkdir()
    (directory / "__init__.py").write_text(textwrap.dedent(init), encoding="utf-8")
    if manifest is None:
        manifest = f"name: {name}\nversion: 1.0\nkind: standalone\n"
    (directory / "plugin.yaml").write_text(textwrap.dedent(manifest), encoding="utf-8")
    for file_name, text in files.items():
        (directory / f"{file_name}.py").write_text(textwrap.dedent(text), encoding="utf-8")
    return directory


# -- tools ----------------------------------------------------------------------------------


def test_a_tool_is_stored_with_the_hosts_fields() -> None:
    host = InMemoryHost()

    def register(ctx: Any) -> None:
        ctx.register_tool("hm_x", "handmade", SCHEMA, handler, emoji="x")

    loaded = host.load(module_plugin(register))
    entry = host.tools["hm_x"]
    assert (entry.toolset, entry.requires_env, entry.is_async) == ("handmade", [], False)
    assert entry.description == "Do x."  # from the schema when description= is empty
    assert (entry.emoji, entry.plugin, entry.check_fn) == ("x", "handmade", None)
    assert loaded.tools == ("hm_x",)
    assert (loaded.enabled, loaded.error, loaded.source) == (True, None, "module")


def test_a_builtin_name_in_another_toolset_is_refused_but_credited() -> None:
    host = InMemoryHost()
    assert BUILTIN_TOOLS["read_file"] == "file"

    def register(ctx: Any) -> None:
        ctx.register_tool("read_file", "handmade", SCHEMA, handler)
        ctx.register_tool("hm_ok", "handmade", SCHEMA, handler)

    loaded = host.load(module_plugin(register))
    assert loaded.enabled
    assert loaded.tools == ("read_file", "hm_ok")  # hermes credits the refused name too
    assert "read_file" not in host.tools
    [event] = host.events
    assert (event.level, event.surface, event.name, event.plugin) == (
        "ERROR",
        "tool",
        "read_file",
        "handmade",
    )
    assert "would shadow existing tool from toolset 'file'" in event.message
    assert "built-in hermes tool" in json.loads(host.dispatch("read_file", {}))["error"]


@pytest.mark.parametrize(
    ("release", "second_credit"), [("0.16.0", ()), ("0.17.0", ("on_session_start",))]
)
def test_a_hook_two_plugins_register_is_credited_as_the_release_credits_it(
    release: str, second_credit: tuple[str, ...]
) -> None:
    """Before 0.17.0 hermes credits a hook name only to the first plugin that registers it."""
    host = InMemoryHost(hermes=release)

    def register(ctx: Any) -> None:
        ctx.register_hook("on_session_start", lambda **kwargs: None)

    first = host.load(module_plugin(register, "first"))
    second = host.load(module_plugin(register, "second"))
    assert first.hooks == ("on_session_start",)
    assert second.hooks == second_credit
    assert len(host.hooks["on_session_start"]) == 2  # both callbacks run either way


def test_a_name_of_another_plugins_toolset_is_refused_the_same_toolset_replaces() -> None:
    host = InMemoryHost()

    def first(ctx: Any) -> None:
        ctx.register_tool("shared_x", "one", SCHEMA, handler)

    def second(ctx: Any) -> None:
        ctx.register_tool("shared_x", "two", SCHEMA, handler)
        ctx.register_tool("mcp_x", "mcp-a", SCHEMA, handler)
        ctx.register_tool("mcp_x", "mcp-b", SCHEMA, print)  # MCP over MCP is allowed

    def third(ctx: Any) -> None:
        ctx.register_tool("shared_x", "one", {**SCHEMA, "description": "new"}, print)

    host.load(module_plugin(first, "first"))
    host.load(module_plugin(second, "second"))
    assert host.tools["shared_x"].toolset == "one"
    assert host.tools["mcp_x"].toolset == "mcp-b"
    third_loaded = host.load(module_plugin(third, "third"))
    assert host.tools["shared_x"].handler is print  # silently replaced
    assert host.tools["shared_x"].plugin == "third"
    assert third_loaded.tools == ()  # the name was already credited to a plugin


def test_override_needs_the_operators_opt_in() -> None:
    host = InMemoryHost()

    def register(ctx: Any) -> None:
        ctx.register_tool("hm_before", "handmade", SCHEMA, handler)
        ctx.register_tool("terminal", "handmade", SCHEMA, handler, override=True)

    loaded = host.load(module_plugin(register))
    assert not loaded.enabled
    assert isinstance(loaded.exception, PluginToolOverrideError)
    assert isinstance(loaded.exception, PermissionError)
    assert loaded.error == (
        "Plugin 'handmade' cannot override built-in tool 'terminal'. Set "
        "plugins.entries.handmade.allow_tool_override: true in config.yaml to allow this "
        "plugin to replace built-in tools."
    )
    assert "hm_before" in host.tools  # not rolled back, as in hermes
    assert loaded.tools == ("hm_before",)
    assert host.events[-1].surface == "plugin"
    assert host.events[-1].message.startswith("Failed to load plugin 'handmade': ")

    allowed = InMemoryHost(
        config={"plugins": {"entries": {"handmade": {"allow_tool_override": 1}}}}
    )
    assert allowed.load(module_plugin(register)).enabled
    assert allowed.tools["terminal"].toolset == "handmade"


def test_the_registry_binds_override_to_the_module_that_defined_the_handler(
    tmp_path: Path,
) -> None:
    # hermes records the opt-in for hermes_plugins.<slug> only; a handler defined in a
    # submodule of the plugin is refused by the registry itself, even when allowed
    directory = write_plugin(
        tmp_path,
        "override_sub",
        """
        from .tools import run
        from . import tools

        def register(ctx):
            ctx.register_tool("web_search", "override_sub", tools.SCHEMA, tools.run, override=True)
        """,
        tools="""
        SCHEMA = {"name": "web_search", "description": "d", "parameters": {}}

        def run(args, **kwargs):
            return "{}"
        """,
    )
    config = {"plugins": {"entries": {"override_sub": {"allow_tool_override": True}}}}
    host = InMemoryHost(config=config)
    loaded = host.load(directory)
    assert not loaded.enabled
    assert type(loaded.exception) is PermissionError
    assert loaded.error == (
        "Plugin module 'hermes_plugins.override_sub.tools' cannot override built-in tool"
        " 'web_search' without operator opt-in (allow_tool_override)."
    )
    assert loaded.tools == ()  # refused by the registry: never added to the credit list


def test_a_schema_that_is_not_a_dict_fails_like_hermes() -> None:
    host = InMemoryHost()

    def register(ctx: Any) -> None:
        ctx.register_tool("hm_bad", "handmade", ["not", "a", "dict"], handler)

    loaded = host.load(module_plugin(register))
    assert not loaded.enabled
    assert loaded.error == "'list' object has no attribute 'get'"
    described = InMemoryHost()

    def described_register(ctx: Any) -> None:
        ctx.register_tool("hm_bad", "handmade", ["x"], handler, description="given")

    assert described.load(module_plugin(described_register)).enabled


# -- hooks, middleware, commands, skills ------------------------------------------------------


def test_unknown_hook_and_middleware_names_warn_and_are_stored() -> None:
    host = InMemoryHost()

    def register(ctx: Any) -> None:
        ctx.register_hook("pre_tool_cal", print)
        ctx.register_hook("pre_tool_call", print)
        ctx.register_middleware("tool_requests", print)

    loaded = host.load(module_plugin(register))
    assert loaded.hooks == ("pre_tool_cal", "pre_tool_call")
    assert loaded.middleware == ("tool_requests",)
    assert [h.callback for h in host.hooks["pre_tool_cal"]] == [print]
    warnings = [(e.level, e.surface, e.name) for e in host.events]
    assert warnings == [
        ("WARNING", "hook", "pre_tool_cal"),
        ("WARNING", "middleware", "tool_requests"),
    ]
    assert (
        "registered unknown hook 'pre_tool_cal' (valid: api_request_error,"
        in host.events[0].message
    )
    assert host.events[1].message.endswith(
        "(valid: llm_execution, llm_request, tool_execution, tool_request)"
    )


def test_commands_are_normalised_skipped_or_overwritten_like_hermes() -> None:
    host = InMemoryHost()

    def register(ctx: Any) -> None:
        ctx.register_command("/My Report", print, args_hint="  <day>  ")
        ctx.register_command("snake_case", print, "Keeps its underscore")
        ctx.register_command("  /  ", print)
        ctx.register_command("/HELP", print)
        ctx.register_command("q", print)  # an alias of a built-in
        ctx.register_command("my-report", len, "second")
        ctx.register_cli_command("hm-admin", "Administer", print)

    loaded = host.load(module_plugin(register))
    assert loaded.commands == ("my-report", "snake_case")
    assert loaded.cli_commands == ("hm-admin",)
    report = host.commands["my-report"]
    assert (report.handler, report.description, report.args_hint) == (len, "second", "")
    assert host.commands["snake_case"].description == "Keeps its underscore"
    skipped = [(e.level, e.surface, e.name) for e in host.events]
    assert skipped == [
        ("WARNING", "command", "  /  "),
        ("WARNING", "command", "help"),
        ("WARNING", "command", "q"),
    ]
    assert "conflicts with a built-in command" in host.events[1].message
    cli = host.cli_commands["hm-admin"]
    assert (cli.help, cli.setup_fn, cli.handler_fn, cli.plugin) == (
        "Administer",
        print,
        None,
        "handmade",
    )


def test_a_first_registration_keeps_its_description_default() -> None:
    host = InMemoryHost()
    host.load(module_plugin(lambda ctx: ctx.register_command("hm-x", print, args_hint=" a ")))
    assert (host.commands["hm-x"].description, host.commands["hm-x"].args_hint) == (
        "Plugin command",
        "a",
    )


@pytest.mark.parametrize(
    ("name", "path", "error", "message"),
    [
        ("a:b", "SKILL.md", ValueError, "Skill name 'a:b' must not contain ':'"),
        ("", "SKILL.md", ValueError, "Invalid skill name ''. Must match [a-zA-Z0-9_-]+."),
        ("a b", "SKILL.md", ValueError, "Invalid skill name 'a b'"),
        ("ok", "missing.md", FileNotFoundError, "SKILL.md not found at "),
    ],
)
def test_skills_raise_where_hermes_raises(
    tmp_path: Path, name: str, path: str, error: type[Exception], message: str
) -> None:
    (tmp_path / "SKILL.md").write_text("# skill\n", encoding="utf-8")
    host = InMemoryHost()
    loaded = host.load(module_plugin(lambda ctx: ctx.register_skill(name, tmp_path / path)))
    assert type(loaded.exception) is error
    assert str(loaded.error).startswith(message)


def test_a_skill_path_given_as_str_fails_on_exists_and_a_folder_is_accepted(
    tmp_path: Path,
) -> None:
    host = InMemoryHost()
    loaded = host.load(module_plugin(lambda ctx: ctx.register_skill("s", str(tmp_path))))
    assert type(loaded.exception) is AttributeError
    assert loaded.error == "'str' object has no attribute 'exists'"
    folder = InMemoryHost()
    loaded = folder.load(module_plugin(lambda ctx: ctx.register_skill("s", tmp_path, "d")))
    assert loaded.skills == ("handmade:s",)
    skill = folder.skills["handmade:s"]
    assert (skill.name, skill.path, skill.description) == ("s", tmp_path, "d")


# -- the rest of the context ------------------------------------------------------------------


def test_the_context_is_the_hosts_shape() -> None:
    seen: list[HostContext] = []
    host = InMemoryHost()
    host.load(module_plugin(seen.append))
    [ctx] = seen
    assert ctx.profile_name == "default"
    assert ctx.manifest.name == ctx.manifest.key == "handmade"
    assert not hasattr(ctx.manifest, "config")  # hermes 0.19.0 has no manifest.config
    assert ctx.inject_message("hi") is False
    assert host.events[-1].message.startswith("inject_message: no CLI reference")
    with host.activate():
        ctx.register_platform("irc", "IRC", print, print, emoji="💬")
    owner, entry = host.provisions["platform"]["irc"]
    assert owner == "handmade"
    assert (entry["label"], entry["emoji"], entry["source"]) == ("IRC", "💬", "plugin")
    with host.activate(), pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        ctx.register_platform("irc2", "IRC", print, print, colour="red")


def test_dispatch_tool_runs_the_handler_alone() -> None:
    host = InMemoryHost()
    seen: list[Any] = []

    def register(ctx: Any) -> None:
        ctx.register_tool("hm_x", "handmade", SCHEMA, lambda args, **kw: json.dumps(kw))
        ctx.register_hook("pre_tool_call", lambda **kw: seen.append(kw))
        seen.append(ctx.dispatch_tool("hm_x", {}, parent="p"))

    host.load(module_plugin(register))
    assert seen == ['{"parent": "p"}']  # no hook ran
