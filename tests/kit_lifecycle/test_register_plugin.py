"""register_plugin: three declaration forms, checks before any host call, order, one receipt."""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests._hermes_context import RecordingContext

from kit_core import (
    HookSpec,
    RegistrationError,
    ToolSpec,
    declaration_of,
    declare,
    str_arg,
    tool,
)
from kit_core.hermes import newest_registry_release
from kit_lifecycle import (
    CommandType,
    MiddlewareKind,
    PluginSkill,
    RegistrationSummary,
    command,
    hook,
    middleware,
    plugin_skill,
    register_plugin,
)
from kit_lifecycle.summary import RECEIPT_PREFIX


def spec_of(fn: object) -> ToolSpec:
    """The ToolSpec of a @tool function."""
    spec = declaration_of(fn, ToolSpec)
    assert spec is not None, f"{fn!r} carries no ToolSpec"
    return spec


def manifest(name: str | None) -> types.SimpleNamespace:
    return types.SimpleNamespace(name=name)


# --- the demo plugin's declarations ----------------------------------------------------------


@tool(toolset="lcdemo", name="lcdemo_fetch_note", params={"id": str_arg("Note id", required=True)})
def fetch_note(args: dict[str, Any], **kwargs: Any) -> object:
    """Fetch a note."""
    return {"id": args["id"]}


@tool(toolset="lcdemo", name="lcdemo_add_note", emoji="📝", requires_env=["LCDEMO_TOKEN"])
async def add_note(args: dict[str, Any], **kwargs: Any) -> object:
    """Add a note."""
    return {"ok": True}


@command("lcdemo-ping", "Ping the demo.", "<text>")
def ping(raw: str) -> str:
    return f"pong {raw}"


@command("lcdemo-echo")
def echo_cmd(raw: str) -> str:
    """Echo the text back.

    Second paragraph.
    """
    return raw


def setup_sync(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--target", default="all")


@command("lcdemo-sync", "Sync the notes.\nLong help.", type=CommandType.CLI, setup_fn=setup_sync)
def sync(ns: argparse.Namespace) -> str:
    return f"synced {ns.target}"


@command("lcdemo-stats", type="cli", help="Show stats.")
def stats(ns: argparse.Namespace) -> int:
    """Print statistics about notes."""
    return 0


@middleware(MiddlewareKind.TOOL_REQUEST)
def rewrite(**kwargs: Any) -> Any:
    return None


@middleware(MiddlewareKind.LLM_EXECUTION)
def wrap_llm(**kwargs: Any) -> Any:
    return kwargs["next_call"]()


@hook("pre_llm_call")
def add_context(**kwargs: Any) -> Any:
    return {"context": "demo"}


@hook("on_session_end")
def end_session(**kwargs: Any) -> None:
    return None


def deliver(**kwargs: Any) -> None:
    """A plain callable declared with a HookSpec and registered unwrapped (the kit-media
    style)."""


declare(deliver, HookSpec("transform_llm_output", deliver))

DECLARATIONS: list[Callable[..., Any]] = [
    wrap_llm,
    stats,
    fetch_note,
    end_session,
    ping,
    deliver,
    add_note,
    sync,
    rewrite,
    echo_cmd,
    add_context,
]

MODULE_NAME = "lcdemo_plugin_declarations"


def helper(x: int) -> int:
    return x


def make_module(module_name: str = MODULE_NAME, **members: Any) -> types.ModuleType:
    module = types.ModuleType(module_name)
    vars(module).update(members)
    return module


def demo_module() -> types.ModuleType:
    members: dict[str, Any] = {getattr(fn, "__name__", repr(fn)): fn for fn in DECLARATIONS}
    # things a plugin module also holds, none of them declarations
    members |= {"json": json, "helper": helper, "LIMIT": 3, "Path": Path, "tool": tool}
    return make_module(MODULE_NAME, **members)


@pytest.fixture
def skills(tmp_path: Path) -> tuple[PluginSkill, ...]:
    for name in ("alpha", "beta"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "SKILL.md").write_text(f"---\nname: {name}\n---\n", encoding="utf-8")
    return (
        plugin_skill("beta", tmp_path / "beta" / "SKILL.md", "Beta skill."),
        plugin_skill("gamma", tmp_path / "gamma" / "SKILL.md", "Gamma skill.", optional=True),
        plugin_skill("alpha", str(tmp_path / "alpha" / "SKILL.md"), "Alpha skill."),
    )


@pytest.fixture
def loaded_module(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    module = demo_module()
    monkeypatch.setitem(sys.modules, MODULE_NAME, module)
    return module


EXPECTED_ORDER = [
    ("register_command", "lcdemo-echo"),
    ("register_command", "lcdemo-ping"),
    ("register_cli_command", "lcdemo-stats"),
    ("register_cli_command", "lcdemo-sync"),
    ("register_tool", "lcdemo_add_note"),
    ("register_tool", "lcdemo_fetch_note"),
    ("register_middleware", "llm_execution"),
    ("register_middleware", "tool_request"),
    ("register_hook", "on_session_end"),
    ("register_hook", "pre_llm_call"),
    ("register_hook", "transform_llm_output"),
    ("register_skill", "alpha"),
    ("register_skill", "beta"),
]

EXPECTED_SUMMARY = RegistrationSummary(
    tools=("lcdemo_add_note", "lcdemo_fetch_note"),
    hooks=("on_session_end", "pre_llm_call", "transform_llm_output"),
    skills=("alpha", "beta"),
    skipped_optional_skills=("gamma",),
    commands=("lcdemo-echo", "lcdemo-ping"),
    middlewares=("llm_execution", "tool_request"),
    cli_commands=("lcdemo-stats", "lcdemo-sync"),
)

EXPECTED_RECEIPT = (
    "hermes_plugin_kit: registered plugin lifecycle; plugin=lc-demo;"
    " commands=lcdemo-echo,lcdemo-ping; cli_commands=lcdemo-stats,lcdemo-sync;"
    " tools=lcdemo_add_note,lcdemo_fetch_note; middlewares=llm_execution,tool_request;"
    " hooks=on_session_end,pre_llm_call,transform_llm_output; skills=alpha,beta;"
    " skipped_optional_skills=gamma"
)


def info_records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno == logging.INFO]


# --- forms, order and host arguments -------------------------------------------------------------


def test_the_three_forms_give_identical_summaries_and_host_calls(
    loaded_module: types.ModuleType, skills: tuple[PluginSkill, ...]
) -> None:
    results: list[tuple[RegistrationSummary, list[tuple[str, dict[str, Any]]]]] = []
    for declarations in (loaded_module, MODULE_NAME, DECLARATIONS, tuple(reversed(DECLARATIONS))):
        ctx = RecordingContext(manifest("lc-demo"))
        summary = register_plugin(ctx, declarations, skills)
        results.append((summary, ctx.calls))
    first_summary, first_calls = results[0]
    assert first_summary == EXPECTED_SUMMARY
    for summary, calls in results[1:]:
        assert summary == first_summary
        assert calls == first_calls


def test_an_iterator_and_a_generator_work_too(skills: tuple[PluginSkill, ...]) -> None:
    ctx = RecordingContext(manifest("lc-demo"))
    assert register_plugin(ctx, iter(DECLARATIONS), skills) == EXPECTED_SUMMARY
    ctx2 = RecordingContext(manifest("lc-demo"))
    assert register_plugin(ctx2, (d for d in DECLARATIONS), skills) == EXPECTED_SUMMARY
    assert ctx.calls == ctx2.calls


def test_registration_order(skills: tuple[PluginSkill, ...]) -> None:
    ctx = RecordingContext(manifest("lc-demo"))
    register_plugin(ctx, DECLARATIONS, skills)
    assert ctx.names() == EXPECTED_ORDER


def test_the_exact_host_arguments(skills: tuple[PluginSkill, ...], tmp_path: Path) -> None:
    ctx = RecordingContext(manifest("lc-demo"))
    register_plugin(ctx, DECLARATIONS, skills)
    calls = dict(zip((name for _, name in EXPECTED_ORDER), ctx.calls, strict=True))

    assert calls["lcdemo-echo"][1] == {
        "name": "lcdemo-echo",
        "handler": echo_cmd,
        "description": "Echo the text back.\n\nSecond paragraph.",
        "args_hint": "",
    }
    assert calls["lcdemo-ping"][1] == {
        "name": "lcdemo-ping",
        "handler": ping,
        "description": "Ping the demo.",
        "args_hint": "<text>",
    }
    assert calls["lcdemo-sync"][1] == {
        "name": "lcdemo-sync",
        "help": "Sync the notes.",
        "setup_fn": setup_sync,
        "handler_fn": sync,
        "description": "Sync the notes.\nLong help.",
    }
    stats_call = calls["lcdemo-stats"][1]
    assert stats_call["help"] == "Show stats."
    assert stats_call["handler_fn"] is stats
    assert stats_call["description"] == "Print statistics about notes."
    assert callable(stats_call["setup_fn"])  # a no-op: the host always calls setup_fn(subparser)

    for fn in (fetch_note, add_note):
        spec = spec_of(fn)
        assert calls[spec.name][1] == {**spec.register_kwargs(fn), "override": False}
    add = calls["lcdemo_add_note"][1]
    assert add["handler"] is add_note
    assert add["is_async"] is True
    assert add["emoji"] == "📝"
    assert add["requires_env"] == ["LCDEMO_TOKEN"]
    assert add["schema"]["name"] == "lcdemo_add_note"
    assert calls["lcdemo_fetch_note"][1]["is_async"] is False

    assert calls["tool_request"][1] == {"kind": "tool_request", "callback": rewrite}
    assert calls["llm_execution"][1] == {"kind": "llm_execution", "callback": wrap_llm}
    assert type(calls["tool_request"][1]["kind"]) is str
    assert calls["pre_llm_call"][1] == {"hook_name": "pre_llm_call", "callback": add_context}
    assert calls["on_session_end"][1] == {"hook_name": "on_session_end", "callback": end_session}
    assert calls["transform_llm_output"][1] == {
        "hook_name": "transform_llm_output",
        "callback": deliver,
    }
    alpha = calls["alpha"][1]
    assert alpha == {
        "name": "alpha",
        "path": tmp_path / "alpha" / "SKILL.md",
        "description": "Alpha skill.",
    }
    assert isinstance(alpha["path"], Path)


def test_registered_cli_commands_run_like_the_host_wires_them(
    skills: tuple[PluginSkill, ...],
) -> None:
    ctx = RecordingContext(manifest("lc-demo"))
    register_plugin(ctx, DECLARATIONS, skills)
    parser = argparse.ArgumentParser(prog="hermes")
    subparsers = parser.add_subparsers()
    for method, kwargs in ctx.calls:
        if method != "register_cli_command":
            continue
        sub = subparsers.add_parser(
            kwargs["name"], help=kwargs["help"], description=kwargs["description"]
        )
        kwargs["setup_fn"](sub)
        sub.set_defaults(func=kwargs["handler_fn"])
    args = parser.parse_args(["lcdemo-sync", "--target", "inbox"])
    assert args.func(args) == "synced inbox"
    args = parser.parse_args(["lcdemo-stats"])
    assert vars(args).keys() == {"func"}
    assert args.func(args) == 0


def test_registered_slash_handlers_answer(skills: tuple[PluginSkill, ...]) -> None:
    ctx = RecordingContext(manifest("lc-demo"))
    register_plugin(ctx, DECLARATIONS, skills)
    handlers = {k["name"]: k["handler"] for m, k in ctx.calls if m == "register_command"}
    assert handlers["lcdemo-ping"]("there") == "pong there"


def test_the_same_object_twice_is_registered_once() -> None:
    ctx = RecordingContext()
    twice = [ping, ping, rewrite, fetch_note, rewrite, fetch_note, add_context, add_context]
    summary = register_plugin(ctx, twice, plugin_name="lc-demo")
    assert summary == RegistrationSummary(
        tools=("lcdemo_fetch_note",),
        hooks=("pre_llm_call",),
        commands=("lcdemo-ping",),
        middlewares=("tool_request",),
    )
    assert len(ctx.calls) == 4


def test_a_module_attribute_alias_is_registered_once() -> None:
    ctx = RecordingContext()
    module = make_module(ping=ping, ping_alias=ping, fetch=fetch_note, fetch_again=fetch_note)
    summary = register_plugin(ctx, module)
    assert summary.commands == ("lcdemo-ping",)
    assert summary.tools == ("lcdemo_fetch_note",)
    assert len(ctx.calls) == 2


def test_a_single_skill_may_be_passed_without_a_tuple(skills: tuple[PluginSkill, ...]) -> None:
    ctx = RecordingContext(manifest("lc-demo"))
    summary = register_plugin(ctx, [], skills[2])  # pyright: ignore[reportArgumentType]
    assert summary.skills == ("alpha",)


def test_nothing_to_register() -> None:
    ctx = RecordingContext()
    assert register_plugin(ctx, []) == RegistrationSummary()
    assert ctx.calls == []


def test_a_context_with_only_the_needed_registrars_is_enough() -> None:
    class ToolsOnly:
        def __init__(self) -> None:
            self.names: list[str] = []

        def register_tool(self, **kwargs: Any) -> None:
            self.names.append(kwargs["name"])

    ctx = ToolsOnly()
    summary = register_plugin(ctx, [fetch_note, add_note], plugin_name="lc-demo")
    assert ctx.names == ["lcdemo_add_note", "lcdemo_fetch_note"]
    assert summary.tools == ("lcdemo_add_note", "lcdemo_fetch_note")


# --- everything is checked before the first host call ----------------------------------------


def two_tools() -> tuple[Any, Any]:
    @tool(toolset="lcdemo", name="lcdemo_dup")
    def first(args: dict[str, Any], **kwargs: Any) -> object:
        """First."""
        return {}

    @tool(toolset="lcdemo", name="lcdemo_dup")
    def second(args: dict[str, Any], **kwargs: Any) -> object:
        """Second."""
        return {}

    return first, second


def two_slash_commands() -> tuple[Any, Any]:
    return (
        command("lcdemo-dup", "First.")(lambda raw: raw),
        command("lcdemo-dup", "Second.")(lambda raw: raw),
    )


def two_cli_commands() -> tuple[Any, Any]:
    return (
        command("lcdemo-dup-cli", "First.", type="cli")(lambda ns: 0),
        command("lcdemo-dup-cli", "Second.", type=CommandType.CLI)(lambda ns: 1),
    )


def two_middlewares() -> tuple[Any, Any]:
    def first(**kwargs: Any) -> None:
        pass

    def second(**kwargs: Any) -> None:
        pass

    return middleware(MiddlewareKind.TOOL_REQUEST)(first), middleware(" tool_request ")(second)


def two_hooks() -> tuple[Any, Any]:
    def first(**kwargs: Any) -> None:
        pass

    def second(**kwargs: Any) -> None:
        pass

    return hook("pre_llm_call")(first), declare(second, HookSpec("pre_llm_call", second))


def slash_and_cli() -> tuple[Any, Any]:
    return (
        command("lcdemo-both", "Slash.")(lambda raw: raw),
        command("lcdemo-both", "CLI.", type="cli")(lambda ns: 0),
    )


DUPLICATES = {
    "tool": (two_tools, "duplicate tool name: lcdemo_dup"),
    "command": (two_slash_commands, "duplicate command name: lcdemo-dup"),
    "cli": (two_cli_commands, "duplicate CLI command name: lcdemo-dup-cli"),
    "middleware": (two_middlewares, "duplicate middleware kind: tool_request"),
    "hook": (two_hooks, "duplicate hook name: pre_llm_call"),
    "slash-and-cli": (
        slash_and_cli,
        "command name lcdemo-both is declared both as a slash command and a CLI command",
    ),
}


@pytest.mark.parametrize("case", DUPLICATES)
@pytest.mark.parametrize("form", ["iterable", "module", "module name"])
def test_duplicates_are_refused_before_any_host_call(
    case: str,
    form: str,
    skills: tuple[PluginSkill, ...],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    caplog.set_level(logging.DEBUG)
    make, message = DUPLICATES[case]
    first, second = make()
    # valid declarations around the duplicates: a partial registration would show
    declarations: Any = [*DECLARATIONS, first, second]
    if form != "iterable":
        module = demo_module()
        vars(module).update({"dup_a_first": first, "dup_b_second": second})
        declarations = module
        if form == "module name":
            monkeypatch.setitem(sys.modules, MODULE_NAME, module)
            declarations = MODULE_NAME
    ctx = RecordingContext(manifest("lc-demo"))
    with pytest.raises(RegistrationError) as excinfo:
        register_plugin(ctx, declarations, skills)
    assert message in str(excinfo.value)
    assert ctx.calls == []
    assert info_records(caplog) == []


def test_a_duplicate_message_says_how_to_fix_it() -> None:
    with pytest.raises(RegistrationError) as excinfo:
        register_plugin(RecordingContext(), list(two_tools()))
    msg = str(excinfo.value)
    assert msg.startswith("duplicate tool name: lcdemo_dup (two different declarations)")
    assert "combine the behaviour inside it" in msg


def test_duplicate_skills_are_refused_before_any_host_call(
    skills: tuple[PluginSkill, ...], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    again = plugin_skill("beta", tmp_path / "alpha" / "SKILL.md", "Beta again.")
    ctx = RecordingContext(manifest("lc-demo"))
    with pytest.raises(RegistrationError) as excinfo:
        register_plugin(ctx, DECLARATIONS, (*skills, again))
    assert str(excinfo.value) == (
        f"duplicate skill name: beta (at {skills[0].path} and at {again.path});"
        " give each skill its own name"
    )
    assert ctx.calls == []
    assert info_records(caplog) == []


@pytest.mark.parametrize("order", ["missing optional first", "both missing optional"])
def test_a_skill_name_is_unique_even_when_the_first_one_is_skipped(
    order: str, skills: tuple[PluginSkill, ...], tmp_path: Path
) -> None:
    present_gamma = tmp_path / "gamma2" / "SKILL.md"
    present_gamma.parent.mkdir()
    present_gamma.write_text("---\nname: gamma\n---\n", encoding="utf-8")
    missing_optional = skills[1]  # gamma, optional, its file does not exist
    if order == "missing optional first":
        second = plugin_skill("gamma", present_gamma, "Gamma, shipped.")
    else:
        second = plugin_skill("gamma", tmp_path / "nowhere" / "SKILL.md", "Gamma.", optional=True)
    ctx = RecordingContext(manifest("lc-demo"))
    with pytest.raises(RegistrationError, match="duplicate skill name: gamma"):
        register_plugin(ctx, DECLARATIONS, (skills[0], missing_optional, second))
    assert ctx.calls == []


def test_a_skipped_skill_after_a_registered_one_of_the_same_name_is_a_duplicate(
    skills: tuple[PluginSkill, ...], tmp_path: Path
) -> None:
    skipped_beta = plugin_skill("beta", tmp_path / "nowhere" / "SKILL.md", "B.", optional=True)
    ctx = RecordingContext(manifest("lc-demo"))
    with pytest.raises(RegistrationError, match="duplicate skill name: beta"):
        register_plugin(ctx, DECLARATIONS, (*skills, skipped_beta))
    assert ctx.calls == []


def test_a_missing_required_skill_is_refused_before_any_host_call(
    skills: tuple[PluginSkill, ...], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    path = tmp_path / "delta" / "SKILL.md"
    required = plugin_skill("delta", path, "Delta skill.")
    ctx = RecordingContext(manifest("lc-demo"))
    with pytest.raises(RegistrationError) as excinfo:
        register_plugin(ctx, DECLARATIONS, (*skills, required))
    assert str(excinfo.value) == (
        f"skill 'delta': SKILL.md not found at {path}; ship the file with the plugin,"
        " or declare it with optional=True"
    )
    assert ctx.calls == []
    assert info_records(caplog) == []


@pytest.mark.parametrize(
    ("given", "suggested"),
    [("skills/x", "skills/x/SKILL.md"), ("skills/x/SKILL.md", "skills/x/SKILL.md")],
)
def test_a_missing_skill_given_by_a_relative_path_says_to_start_from_the_plugin(
    given: str, suggested: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """hermes runs from any folder: a relative path is looked for from the working
    directory, never the plugin's own."""
    monkeypatch.chdir(tmp_path)
    required = plugin_skill("x", Path(given), "X skill.")
    ctx = RecordingContext(manifest("lc-demo"))
    with pytest.raises(RegistrationError) as excinfo:
        register_plugin(ctx, DECLARATIONS, (required,))
    assert str(excinfo.value) == (
        f"skill 'x': SKILL.md not found at {given} (the path is relative, so it is looked for"
        f" from the working directory {tmp_path}, not from the plugin's folder: use"
        f" Path(__file__).parent / {suggested!r}); ship the file with the plugin, or declare"
        " it with optional=True"
    )
    assert ctx.calls == []


def test_an_optional_skill_missing_at_a_relative_path_is_warned_about_with_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.chdir(tmp_path)
    caplog.set_level(logging.WARNING)
    optional = plugin_skill("x", Path("skills/x/SKILL.md"), "X skill.", optional=True)
    register_plugin(RecordingContext(manifest("lc-demo")), DECLARATIONS, (optional,))
    (warning,) = [r.getMessage() for r in caplog.records if "optional skill" in r.getMessage()]
    assert warning.endswith("use Path(__file__).parent / 'skills/x/SKILL.md')")


def test_a_missing_optional_skill_is_skipped_with_a_warning(
    skills: tuple[PluginSkill, ...], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    ctx = RecordingContext(manifest("lc-demo"))
    summary = register_plugin(ctx, DECLARATIONS, skills)
    assert summary.skipped_optional_skills == ("gamma",)
    assert "gamma" not in summary.skills
    assert ("register_skill", "gamma") not in ctx.names()
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert [r.getMessage() for r in warnings] == [
        "hermes_plugin_kit: optional skill missing; name=gamma;"
        f" path={tmp_path / 'gamma' / 'SKILL.md'}"
    ]
    assert warnings[0].name == ping.__module__


@pytest.mark.parametrize(
    "registrar",
    [
        "register_command",
        "register_cli_command",
        "register_tool",
        "register_middleware",
        "register_hook",
        "register_skill",
    ],
)
def test_a_context_missing_a_needed_registrar_is_refused(
    registrar: str, skills: tuple[PluginSkill, ...]
) -> None:
    ctx = RecordingContext(manifest("lc-demo"))
    setattr(ctx, registrar, None)
    with pytest.raises(RegistrationError) as excinfo:
        register_plugin(ctx, DECLARATIONS, skills)
    assert str(excinfo.value) == (
        f"this hermes plugin context (RecordingContext) does not support {registrar}(); pass the"
        " PluginContext hermes gives register(ctx), or a newer hermes-agent"
    )
    assert ctx.calls == []


def test_a_plugin_name_that_cannot_namespace_skills_is_refused(
    skills: tuple[PluginSkill, ...],
) -> None:
    ctx = RecordingContext(manifest("lc demo"))
    with pytest.raises(RegistrationError, match=r"plugin name 'lc demo' cannot namespace skills"):
        register_plugin(ctx, DECLARATIONS, skills)
    assert ctx.calls == []
    # without skills the name needs no namespace
    assert register_plugin(ctx, DECLARATIONS).tools == EXPECTED_SUMMARY.tools


def plant_registry(monkeypatch: pytest.MonkeyPatch, entries: dict[str, str]) -> None:
    class Registry:
        def get_entry(self, name: str) -> Any:
            toolset = entries.get(name)
            return None if toolset is None else types.SimpleNamespace(toolset=toolset)

    fake = types.ModuleType("tools.registry")
    fake.registry = Registry()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tools.registry", fake)


def test_a_tool_name_hermes_already_holds_is_refused(
    monkeypatch: pytest.MonkeyPatch, skills: tuple[PluginSkill, ...]
) -> None:
    plant_registry(monkeypatch, {"lcdemo_fetch_note": "web"})
    ctx = RecordingContext(manifest("lc-demo"))
    with pytest.raises(RegistrationError) as excinfo:
        register_plugin(ctx, DECLARATIONS, skills)
    msg = str(excinfo.value)
    assert "tool 'lcdemo_fetch_note' is already registered by hermes in toolset 'web'" in msg
    assert "tool_name('lc_demo', verb, noun)" in msg
    assert ctx.calls == []


def test_a_tool_already_held_in_the_plugins_own_toolset_is_fine(
    monkeypatch: pytest.MonkeyPatch, skills: tuple[PluginSkill, ...]
) -> None:
    plant_registry(monkeypatch, {"lcdemo_fetch_note": "lcdemo"})
    assert register_plugin(RecordingContext(manifest("lc-demo")), DECLARATIONS, skills) == (
        EXPECTED_SUMMARY
    )


# --- bad declarations -------------------------------------------------------------------------


def undecorated(raw: str) -> str:
    return raw


DECORATE = (
    "decorate it with @tool, @command, @middleware or @hook, or leave it out (only decorated"
    " callables are registered)"
)
PASS_MODULES = "pass modules, module names and decorated callables (skills go in skills=)"


@pytest.mark.parametrize(
    ("items", "index", "fix"),
    [
        ([ping, len], 1, DECORATE),
        ([5], 0, PASS_MODULES),
        ([ping, rewrite, undecorated], 2, DECORATE),
        ([None, ping], 0, PASS_MODULES),
    ],
)
def test_a_non_declaration_is_refused_naming_its_index_and_the_fix(
    items: list[Any], index: int, fix: str
) -> None:
    ctx = RecordingContext()
    with pytest.raises(RegistrationError) as excinfo:
        register_plugin(ctx, items)
    assert str(excinfo.value) == (
        f"declarations[{index}] ({items[index]!r}) is neither a module nor a @tool, @command,"
        f" @middleware or @hook declaration; {fix}"
    )
    assert ctx.calls == []


def test_a_skill_among_the_declarations_points_to_skills(skills: tuple[PluginSkill, ...]) -> None:
    ctx = RecordingContext()
    with pytest.raises(
        RegistrationError, match=r"declarations\[1\] .*; pass skills in skills=, not among the"
    ):
        register_plugin(ctx, [ping, skills[0]])  # pyright: ignore[reportArgumentType]
    assert ctx.calls == []


@pytest.mark.parametrize("declarations", [5, None, b"lcdemo", {"ping": ping}])
def test_declarations_of_the_wrong_kind_are_refused(declarations: Any) -> None:
    with pytest.raises(RegistrationError) as excinfo:
        register_plugin(RecordingContext(), declarations)
    assert str(excinfo.value).startswith(
        "declarations must be a module, a loaded module's name, or an iterable of modules"
        " and decorated callables; got "
    )


def test_an_unimportable_module_name_is_refused() -> None:
    with pytest.raises(RegistrationError, match="cannot import module 'lcdemo_no_such_module_x'"):
        register_plugin(RecordingContext(), "lcdemo_no_such_module_x")


@pytest.mark.parametrize("bad", ["alpha", 3, None])
def test_skills_must_be_plugin_skill_declarations(bad: object) -> None:
    ctx = RecordingContext()
    with pytest.raises(RegistrationError) as excinfo:
        register_plugin(ctx, [ping], [bad])  # type: ignore[list-item]
    assert str(excinfo.value) == f"skills must contain plugin_skill() declarations, got {bad!r}"
    assert ctx.calls == []


# --- plugin name, logger and the receipt ---------------------------------------------------------


def receipt_plugin(caplog: pytest.LogCaptureFixture) -> str:
    (record,) = info_records(caplog)
    found = re.search(r"; plugin=([^;]*);", record.getMessage())
    assert found is not None
    return found.group(1)


def test_plugin_name_argument_wins(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    register_plugin(RecordingContext(manifest("from-manifest")), [ping], plugin_name="  given  ")
    assert receipt_plugin(caplog) == "given"


def test_the_manifest_name_comes_next(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    register_plugin(RecordingContext(manifest(" from-manifest ")), make_module(ping=ping))
    assert receipt_plugin(caplog) == "from-manifest"


@pytest.mark.parametrize("ctx_manifest", [None, manifest(""), manifest("  "), manifest(None)])
def test_then_the_module_name(ctx_manifest: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    register_plugin(RecordingContext(ctx_manifest), make_module(ping=ping))
    assert receipt_plugin(caplog) == MODULE_NAME


def test_an_iterable_is_named_after_its_first_declarations_module(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    register_plugin(RecordingContext(), [ping])
    assert receipt_plugin(caplog) == ping.__module__


def test_an_empty_iterable_without_a_manifest_is_the_kits_name(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    register_plugin(RecordingContext(), [])
    (record,) = info_records(caplog)
    assert record.name == "hermes_plugin_kit"
    assert record.getMessage() == (
        "hermes_plugin_kit: registered plugin lifecycle; plugin=hermes_plugin_kit;"
        " commands=<none>; cli_commands=<none>; tools=<none>; middlewares=<none>; hooks=<none>;"
        " skills=<none>; skipped_optional_skills=<none>"
    )


@pytest.mark.parametrize("bad", ["", "   ", 5])
def test_a_blank_plugin_name_is_refused(bad: Any) -> None:
    ctx = RecordingContext(manifest("lc-demo"))
    with pytest.raises(RegistrationError, match="plugin_name must be a non-empty string"):
        register_plugin(ctx, [ping], plugin_name=bad)
    assert ctx.calls == []


@pytest.mark.parametrize("bad", ["lcdemo", print, logging.LoggerAdapter(logging.getLogger("x"))])
def test_the_logger_must_be_a_logger(bad: Any) -> None:
    ctx = RecordingContext(manifest("lc-demo"))
    with pytest.raises((RegistrationError, TypeError), match=r"logger must be a logging\.Logger"):
        register_plugin(ctx, [ping], logger=bad)
    assert ctx.calls == []


def test_exactly_one_info_receipt_with_the_exact_text(
    skills: tuple[PluginSkill, ...], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    register_plugin(RecordingContext(manifest("lc-demo")), DECLARATIONS, skills)
    (receipt,) = info_records(caplog)
    assert receipt.getMessage() == EXPECTED_RECEIPT
    assert receipt.getMessage().startswith(RECEIPT_PREFIX + "; plugin=lc-demo; ")
    assert receipt.name == ping.__module__
    # no other record announces a registration (no register_all "registered N tool(s)" line)
    assert not [r for r in caplog.records if "tool(s)" in r.getMessage()]
    assert [r.levelno for r in caplog.records if r.levelno >= logging.INFO] == [
        logging.WARNING,  # the skipped optional skill
        logging.INFO,
    ]


def test_the_receipt_goes_to_the_given_logger(
    skills: tuple[PluginSkill, ...], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    logger = logging.getLogger("lcdemo.receipts")
    register_plugin(RecordingContext(manifest("lc-demo")), DECLARATIONS, skills, logger=logger)
    (receipt,) = info_records(caplog)
    assert receipt.name == "lcdemo.receipts"
    assert receipt.getMessage() == EXPECTED_RECEIPT
    assert {r.name for r in caplog.records} == {"lcdemo.receipts"}


def test_a_module_registers_on_its_own_logger(
    loaded_module: types.ModuleType, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    register_plugin(RecordingContext(manifest("lc-demo")), MODULE_NAME)
    (receipt,) = info_records(caplog)
    assert receipt.name == MODULE_NAME


# --- property: the receipt lists exactly what was declared ------------------------------------

HOOK_NAMES = ("pre_tool_call", "post_tool_call", "pre_llm_call", "on_session_end", "subagent_stop")


def _handler(args: dict[str, Any], **kwargs: Any) -> object:
    """Do a thing."""
    return {}


def _observer(**kwargs: Any) -> None:
    return None


def _reply(raw: str) -> str:
    return raw


names = st.from_regex(r"[a-z][a-z0-9]{0,6}", fullmatch=True)


class Keep(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@settings(max_examples=40, deadline=None)
@given(
    tools=st.sets(names, max_size=4),
    commands=st.sets(names, max_size=4),
    cli_commands=st.sets(names, max_size=3),
    hooks=st.sets(st.sampled_from(HOOK_NAMES)),
    kinds=st.sets(st.sampled_from(list(MiddlewareKind))),
    shuffle=st.randoms(use_true_random=False),
)
def test_the_receipt_lists_exactly_the_declared_names(
    tools: set[str],
    commands: set[str],
    cli_commands: set[str],
    hooks: set[str],
    kinds: set[MiddlewareKind],
    shuffle: Any,
) -> None:
    declarations: list[Any] = [tool(toolset="lcprop", name=f"lcprop_{n}")(_handler) for n in tools]
    declarations += [command(f"zz-{n}", "Slash.")(_reply) for n in commands]
    declarations += [command(f"zy-{n}", "CLI.", type="cli")(_reply) for n in cli_commands]
    declarations += [hook(h)(_observer) for h in hooks]
    declarations += [middleware(k)(_observer) for k in kinds]
    shuffle.shuffle(declarations)

    logger = logging.getLogger("lcprop.receipt")
    keep = Keep()
    previous = logger.level
    logger.addHandler(keep)
    logger.setLevel(logging.INFO)
    try:
        ctx = RecordingContext(manifest("lc-prop"))
        summary = register_plugin(ctx, declarations, logger=logger)
    finally:
        logger.removeHandler(keep)
        logger.setLevel(previous)

    expected = {
        "commands": sorted(f"zz-{n}" for n in commands),
        "cli_commands": sorted(f"zy-{n}" for n in cli_commands),
        "tools": sorted(f"lcprop_{n}" for n in tools),
        "middlewares": sorted(k.value for k in kinds),
        "hooks": sorted(hooks),
        "skills": [],
        "skipped_optional_skills": [],
    }
    for key, value in expected.items():
        assert list(getattr(summary, key)) == value
    receipts = [r.getMessage() for r in keep.records if r.levelno == logging.INFO]
    assert len(receipts) == 1
    fields = receipts[0].split("; ")
    assert fields[:2] == [RECEIPT_PREFIX, "plugin=lc-prop"]
    parsed = dict(field.split("=", 1) for field in fields[2:])
    assert list(parsed) == list(expected)
    for key, value in expected.items():
        assert parsed[key] == (",".join(value) or "<none>")
    assert len(ctx.calls) == sum(len(v) for v in expected.values())


# --- hermes' own `hermes plugins validate` capability probe ---------------------------------

# The PluginContext methods the newest release has, as the probe computes them for its stub
# (`_probe_options`: public callables of PluginContext); properties are not among them.
PROBE_CONTEXT_METHODS = frozenset(
    name
    for name, signature in newest_registry_release().context.items()
    if signature.startswith("(")
)


class ProbeContext:
    """Shaped as hermes' capability probe's context: the ``RecordingContext`` of
    ``_PROBE_SCRIPT`` that ``_run_capability_probe`` runs (``hermes_cli/plugin_validate.py``,
    0.21.4 and later; 0.22.2's packaging read): a ``plugin_id`` class attribute and no
    ``manifest`` (nor ``_manifest``); the recorded registrars; any other name the real
    ``PluginContext`` has as a method is a no-op, every other name raises AttributeError."""

    plugin_config: dict[str, Any] = {}  # noqa: RUF012 - the probe's own class attribute
    profile_name = "default"
    plugin_id = "hermes_validate_probe_plugin"

    def __init__(self) -> None:
        self.recorded: dict[str, list[str]] = {"tools": [], "hooks": [], "commands": []}

    def register_tool(self, name: str, *args: Any, **kwargs: Any) -> None:
        self.recorded["tools"].append(str(name))

    def register_hook(self, hook_name: str, callback: Any) -> None:
        self.recorded["hooks"].append(str(hook_name))

    def register_middleware(self, kind: str, callback: Any) -> None:
        self.recorded.setdefault("middleware", []).append(str(kind))

    def register_command(self, name: str, *args: Any, **kwargs: Any) -> None:
        self.recorded["commands"].append(str(name))

    def register_cli_command(self, name: str, *args: Any, **kwargs: Any) -> None:
        self.recorded["commands"].append(str(name))

    def get_config(self, key: str, default: Any = None) -> Any:
        return default

    def __getattr__(self, name: str) -> Any:
        if name in PROBE_CONTEXT_METHODS:

            def _noop(*args: Any, **kwargs: Any) -> None:
                return None

            return _noop
        raise AttributeError(name)


def test_the_probe_context_is_shaped_as_hermes_gives_it() -> None:
    ctx = ProbeContext()
    assert "register_skill" in PROBE_CONTEXT_METHODS
    assert "manifest" not in PROBE_CONTEXT_METHODS
    assert not hasattr(ctx, "manifest")
    assert not hasattr(ctx, "_manifest")
    assert callable(ctx.register_skill)


def test_under_hermes_validate_probe_a_plugin_with_skills_is_named_by_plugin_id(
    skills: tuple[PluginSkill, ...], caplog: pytest.LogCaptureFixture
) -> None:
    """The probe imports the plugin as ``hermes_validate_probe_plugin``; the declarations
    often live in a submodule, whose dotted name cannot namespace skills. With no manifest,
    the name is the context's plugin_id, so register() does not raise under the probe."""
    caplog.set_level(logging.INFO)
    ctx = ProbeContext()
    declarations = make_module("hermes_validate_probe_plugin.tools", ping=ping)
    summary = register_plugin(ctx, declarations, skills)
    assert summary.skills == ("alpha", "beta")  # gamma is optional and absent
    assert summary.commands == ("lcdemo-ping",)
    assert ctx.recorded["commands"] == ["lcdemo-ping"]
    assert receipt_plugin(caplog) == "hermes_validate_probe_plugin"


def test_a_manifest_name_still_comes_before_plugin_id(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    ctx = RecordingContext(manifest("from-manifest"))
    ctx.plugin_id = "from-plugin-id"  # type: ignore[attr-defined]
    register_plugin(ctx, make_module(ping=ping))
    assert receipt_plugin(caplog) == "from-manifest"


@pytest.mark.parametrize("plugin_id", ["", "  ", None, 7, lambda *args, **kwargs: None])
def test_a_plugin_id_that_is_not_a_name_falls_back_to_the_module(
    plugin_id: object, caplog: pytest.LogCaptureFixture
) -> None:
    """0.21.3's probe answers every attribute with a no-op callable: not a name either."""
    caplog.set_level(logging.INFO)
    ctx = RecordingContext()
    ctx.plugin_id = plugin_id  # type: ignore[attr-defined]
    register_plugin(ctx, make_module(ping=ping))
    assert receipt_plugin(caplog) == MODULE_NAME


class OldProbeContext(ProbeContext):
    """0.21.3's probe context (``hermes_cli/plugin_validate.py`` L188-263): no ``plugin_id``
    of its own, and every name it lacks, ``plugin_id`` and ``manifest`` too, is a no-op."""

    plugin_id = None

    def __getattribute__(self, name: str) -> Any:
        if name in {"plugin_id", "manifest", "_manifest", "register_skill"}:
            return lambda *args, **kwargs: None
        return super().__getattribute__(name)


def test_under_the_0_21_3_probe_a_submodule_named_plugin_with_skills_registers(
    skills: tuple[PluginSkill, ...], caplog: pytest.LogCaptureFixture
) -> None:
    """That probe names the plugin nothing: the first module's dotted name is only the
    receipt's name, which namespaces no skill there (its register_skill is a no-op), so it
    is not refused as a namespace."""
    caplog.set_level(logging.INFO)
    ctx = OldProbeContext()
    declarations = make_module("hermes_validate_probe_plugin.surfaces", ping=ping)
    summary = register_plugin(ctx, declarations, skills)
    assert summary.skills == ("alpha", "beta")
    assert ctx.recorded["commands"] == ["lcdemo-ping"]
    assert receipt_plugin(caplog) == "hermes_validate_probe_plugin.surfaces"
