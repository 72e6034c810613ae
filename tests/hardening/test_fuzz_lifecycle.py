"""Fuzzing commands, hooks, middleware and ``register_plugin``.

Commands, hooks and middleware re-raise their callback's exception by contract (hermes
isolates plugins per call); everything the kit adds (logging, reply conversion, the
single-use ``next_call``) must never raise on its own. ``register_plugin`` either
registers everything or raises ``RegistrationError`` with the host context untouched.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kit_core import KitError, RegistrationError, int_arg, str_arg, tool
from kit_lifecycle import (
    CommandType,
    MiddlewareKind,
    command,
    hook,
    middleware,
    plugin_skill,
    register_plugin,
)
from kit_media import MEDIA_DELIVERY_HOOKS

HARDENING = settings(parent=settings.get_profile("hpk-hardening"))


class Weird:
    def __repr__(self) -> str:
        return "<Weird>"

    def __str__(self) -> str:
        raise RuntimeError("str failed")


def cycle() -> list[Any]:
    loop: list[Any] = []
    loop.append(loop)
    return loop


odd = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(0, 9).map(lambda k: 10**5000 + k),
    st.floats(),
    st.text(alphabet=st.characters(exclude_categories=()), max_size=30),
    st.builds(Weird),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=3),
)
returns = st.one_of(
    odd,
    st.just({(1, 2): "tuple key"}),
    st.just(float("nan")),
    st.builds(lambda: cycle()),
    st.just(b"\xff bytes"),
)
CURRENT: dict[str, Any] = {}


class Planned(Exception):
    """What a callback raises on purpose."""


def outcome() -> Any:
    if CURRENT.get("raise"):
        raise Planned("callback failed")
    return CURRENT.get("value")


@command("hardening-echo", "Echo the raw text.")
def echo(raw_args: str) -> object:
    return outcome()


@command("hardening-async", "Echo, async.")
async def echo_async(raw_args: str) -> object:
    return outcome()


@HARDENING
@given(text=odd | st.text(max_size=300), value=returns, fail=st.booleans())
def test_slash_commands_reply_with_text_or_reraise(
    text: Any, value: Any, fail: bool, tally: Any
) -> None:
    CURRENT.update(value=value, **{"raise": fail})
    for call in (lambda: echo(text), lambda: asyncio.run(echo_async(text))):
        if fail:
            with pytest.raises(Planned):
                call()
            continue
        reply = call()
        assert reply is None or isinstance(reply, str)
    tally.fuzz("command text", 2)


@hook("pre_llm_call")
def on_pre_llm(**kwargs: Any) -> object:
    return outcome()


@middleware(MiddlewareKind.TOOL_EXECUTION)
def run_tool(**kwargs: Any) -> object:
    result = kwargs["next_call"](kwargs.get("args"))
    if CURRENT.get("twice"):
        kwargs["next_call"](kwargs.get("args"))
    return result if not CURRENT.get("raise") else outcome()


@middleware(MiddlewareKind.LLM_REQUEST)
def shape_request(**kwargs: Any) -> object:
    return outcome()


identifiers = st.from_regex(r"[a-z_][a-z0-9_]{0,10}", fullmatch=True)
hook_kwargs = st.dictionaries(identifiers, odd, max_size=6).flatmap(
    lambda extra: st.fixed_dictionaries(
        {}, optional={"session_id": odd, "task_id": odd, "telemetry_schema_version": odd}
    ).map(lambda ids: {**extra, **ids})
)


@HARDENING
@given(kwargs=hook_kwargs, value=returns, fail=st.booleans(), twice=st.booleans())
def test_hooks_and_middleware_pass_through_or_reraise(
    kwargs: dict[str, Any], value: Any, fail: bool, twice: bool, tally: Any
) -> None:
    CURRENT.update(value=value, twice=twice, **{"raise": fail})
    for callback in (on_pre_llm, shape_request):
        if fail:
            with pytest.raises(Planned):
                callback(**kwargs)
        else:
            assert callback(**kwargs) is value
    ran: list[Any] = []

    def next_call(args: Any) -> str:
        ran.append(args)
        return '{"ok": true}'

    kwargs = {**kwargs, "next_call": next_call}
    if twice:
        with pytest.raises(RuntimeError, match="second time"):
            run_tool(**kwargs)
    elif fail:
        with pytest.raises(Planned):
            run_tool(**kwargs)
    else:
        assert run_tool(**kwargs) == '{"ok": true}'
    assert len(ran) == 1  # never twice, whatever the callback does
    tally.fuzz("hook and middleware keywords", 3)


# -- register_plugin: all or nothing -----------------------------------------------------------


def _tool(name: str) -> Any:
    def handler(args: dict[str, Any], **kwargs: Any) -> object:
        return args

    handler.__name__ = name
    return tool(toolset="hardening", params={"q": str_arg("Q", required=True)}, description="T.")(
        handler
    )


def _slash(name: str, kind: CommandType = CommandType.SLASH) -> Any:
    def handler(raw: Any) -> object:
        return raw

    return command(name, "A command.", type=kind)(handler)


def _hook(name: str) -> Any:
    def callback(**kwargs: Any) -> None:
        return None

    return hook(name)(callback)


def _middleware(kind: MiddlewareKind) -> Any:
    def callback(**kwargs: Any) -> None:
        return None

    return middleware(kind)(callback)


POOL: dict[str, Any] = {
    "tool_a": _tool("hardening_tool_a"),
    "tool_b": _tool("hardening_tool_b"),
    "tool_a_again": _tool("hardening_tool_a"),  # another tool of the same name
    "tool_wide": tool(
        toolset="hardening",
        name="hardening_tool_wide",
        params={"n": int_arg("N", minimum=1)},
        description="W.",
    )(lambda args, **kwargs: args),
    "slash": _slash("hardening-one"),
    "slash_two": _slash("hardening-two"),
    "cli_clash": _slash("hardening-one", CommandType.CLI),
    "cli": _slash("hardening-three", CommandType.CLI),
    "hook": _hook("pre_llm_call"),
    "hook_again": _hook("pre_llm_call"),
    "hook_other": _hook("post_llm_call"),
    "mw": _middleware(MiddlewareKind.TOOL_EXECUTION),
    "mw_again": _middleware(MiddlewareKind.TOOL_EXECUTION),
    "mw_other": _middleware(MiddlewareKind.LLM_REQUEST),
    "media_transform": MEDIA_DELIVERY_HOOKS[0],
    "media_clear": MEDIA_DELIVERY_HOOKS[1],
    "not_a_declaration": len,
    "a_number": 5,
    "nothing": None,
}
REGISTRARS = (
    "register_tool",
    "register_command",
    "register_cli_command",
    "register_middleware",
    "register_hook",
    "register_skill",
)


def recording_context(enabled: frozenset[str]) -> tuple[Any, list[tuple[str, Any, Any]]]:
    calls: list[tuple[str, Any, Any]] = []

    def recorder(registrar: str) -> Any:
        def record(*args: Any, **kwargs: Any) -> None:
            calls.append((registrar, args, kwargs))

        return record

    return SimpleNamespace(**{r: recorder(r) for r in enabled}), calls


@pytest.fixture(scope="module")
def skills(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("skills")
    present = folder / "present" / "SKILL.md"
    present.parent.mkdir()
    present.write_text("---\nname: present\n---\nA skill.\n")
    missing = folder / "missing" / "SKILL.md"
    return {
        "present": plugin_skill("present", present, "A present skill."),
        "present_again": plugin_skill("present", present, "The same name again."),
        "missing": plugin_skill("missing", missing, "A required skill that is missing."),
        "optional": plugin_skill("optional", missing, "An optional one.", optional=True),
        "odd": 5,
    }


@HARDENING
@given(
    chosen=st.lists(st.sampled_from(sorted(POOL)), max_size=8),
    chosen_skills=st.lists(
        st.sampled_from(["present", "present_again", "missing", "optional", "odd"]), max_size=3
    )
    | st.sampled_from([None, 5, "present"]),
    form=st.sampled_from(["list", "module", "name"]),
    enabled=st.sets(st.sampled_from(REGISTRARS)).map(frozenset),
    plugin_name=st.none() | st.sampled_from(["hardening-plugin", "bad name!", "", "  "]),
)
def test_register_plugin_registers_everything_or_nothing(
    chosen: list[str],
    chosen_skills: Any,
    form: str,
    enabled: frozenset[str],
    plugin_name: str | None,
    skills: dict[str, Any],
    tally: Any,
) -> None:
    declarations = [POOL[name] for name in chosen]
    skill_list = (
        [skills[s] for s in chosen_skills] if isinstance(chosen_skills, list) else chosen_skills
    )
    ctx, calls = recording_context(enabled)
    module = ModuleType("hardening_fuzzed_plugin")
    for index, name in enumerate(chosen):
        setattr(module, f"{name}_{index}", POOL[name])
    given_declarations: Any = {"list": declarations, "module": module, "name": module.__name__}[
        form
    ]
    sys.modules[module.__name__] = module
    refused: KitError | None = None
    summary = None
    try:
        summary = register_plugin(ctx, given_declarations, skill_list, plugin_name=plugin_name)
    except KitError as exc:
        refused = exc
    finally:
        del sys.modules[module.__name__]
    tally.fuzz("register_plugin declarations")
    if refused is not None:
        assert isinstance(refused, RegistrationError), f"{type(refused).__name__}: {refused}"
        assert calls == [], f"half-registered before {refused}"
        return
    assert summary is not None
    registered = {
        "register_tool": sorted(kw["name"] for r, _, kw in calls if r == "register_tool"),
        "register_hook": sorted(a[0] for r, a, _ in calls if r == "register_hook"),
        "register_middleware": sorted(a[0] for r, a, _ in calls if r == "register_middleware"),
    }
    assert registered["register_tool"] == sorted(summary.tools)
    assert registered["register_hook"] == sorted(summary.hooks)
    assert registered["register_middleware"] == sorted(summary.middlewares)
    assert len(calls) == sum(
        len(names)
        for names in (
            summary.tools,
            summary.hooks,
            summary.middlewares,
            summary.commands,
            summary.cli_commands,
            summary.skills,
        )
    )


@pytest.mark.parametrize("bad", [Path("/nonexistent"), b"bytes", object()])
def test_register_plugin_refuses_what_is_not_declarations(bad: Any, tally: Any) -> None:
    ctx, calls = recording_context(frozenset(REGISTRARS))
    with pytest.raises(RegistrationError):
        register_plugin(ctx, bad)
    assert calls == []
    tally.fuzz("register_plugin declarations")
