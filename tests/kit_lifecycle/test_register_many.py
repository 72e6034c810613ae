"""``register_plugin`` with several modules, and modules mixed with decorated callables:
one plan, duplicates found across all of them, each duplicate named by both places."""

from __future__ import annotations

import logging
import sys
import types
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from kit_core import RegistrationError, str_arg, tool
from kit_lifecycle import command, hook, middleware, register_plugin


class Recorder:
    """A plugin context that records what each registrar got, by name."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def register_tool(self, name: str, **kwargs: Any) -> object:
        self.calls.append(("tool", name))

    def register_command(self, name: str, handler: Callable[..., Any], **kwargs: Any) -> object:
        self.calls.append(("command", name))

    def register_cli_command(self, name: str, **kwargs: Any) -> object:
        self.calls.append(("cli", name))

    def register_middleware(self, kind: str, callback: Callable[..., Any]) -> object:
        self.calls.append(("middleware", kind))

    def register_hook(self, name: str, callback: Callable[..., Any]) -> object:
        self.calls.append(("hook", name))


def _lookup(args: dict[str, Any], **kwargs: Any) -> str:
    return "ok"


def a_tool(name: str) -> Callable[..., str]:
    return tool(toolset="many", description="Look up.", name=name, params={"q": str_arg("Q")})(
        _lookup
    )


def a_command(name: str) -> Callable[..., Any]:
    def handler(raw: str) -> str:
        return raw

    return command(name, "Say.")(handler)


def _rewrite(**kwargs: Any) -> None:
    return None


REWRITE = middleware("tool_request")(_rewrite)


def _on_call(**kwargs: Any) -> None:
    return None


ON_CALL = hook("pre_llm_call")(_on_call)


def module(name: str, **attributes: Any) -> types.ModuleType:
    made = types.ModuleType(name)
    for key, value in attributes.items():
        setattr(made, key, value)
    return made


@pytest.fixture
def modules() -> Iterator[tuple[types.ModuleType, types.ModuleType]]:
    tools_module = module("many_tools", lookup=a_tool("many_lookup"), rewrite=REWRITE)
    commands_module = module("many_commands", say=a_command("many-say"), on_call=ON_CALL)
    sys.modules["many_commands"] = commands_module
    try:
        yield tools_module, commands_module
    finally:
        del sys.modules["many_commands"]


def test_several_modules_register_everything(
    modules: tuple[types.ModuleType, types.ModuleType],
) -> None:
    ctx = Recorder()
    summary = register_plugin(ctx, list(modules), plugin_name="many")
    assert summary.tools == ("many_lookup",)
    assert summary.commands == ("many-say",)
    assert summary.middlewares == ("tool_request",)
    assert summary.hooks == ("pre_llm_call",)
    assert sorted(ctx.calls) == [
        ("command", "many-say"),
        ("hook", "pre_llm_call"),
        ("middleware", "tool_request"),
        ("tool", "many_lookup"),
    ]


def test_modules_module_names_and_callables_mix(
    modules: tuple[types.ModuleType, types.ModuleType],
) -> None:
    tools_module, _ = modules
    extra = a_tool("many_extra")
    ctx = Recorder()
    summary = register_plugin(ctx, [tools_module, "many_commands", extra], plugin_name="many")
    assert summary.tools == ("many_extra", "many_lookup")
    assert summary.commands == ("many-say",)


def test_the_first_module_names_the_plugin_and_gets_the_receipt(
    modules: tuple[types.ModuleType, types.ModuleType], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    register_plugin(Recorder(), list(modules))
    (receipt,) = [r for r in caplog.records if r.name == "many_tools"]
    assert "many_tools" in receipt.getMessage()


def test_one_object_reached_twice_counts_once(
    modules: tuple[types.ModuleType, types.ModuleType],
) -> None:
    tools_module, commands_module = modules
    also = module("many_again", lookup=tools_module.lookup, hooks=(ON_CALL,))
    ctx = Recorder()
    summary = register_plugin(
        ctx,
        [tools_module, commands_module, also, tools_module.lookup, ON_CALL, tools_module],
        plugin_name="many",
    )
    assert summary.tools == ("many_lookup",)
    assert summary.hooks == ("pre_llm_call",)
    assert len(ctx.calls) == 4


def test_two_declarations_of_one_name_in_two_modules_are_named_both(
    modules: tuple[types.ModuleType, types.ModuleType],
) -> None:
    tools_module, commands_module = modules
    other = module("many_other", lookup_v2=a_tool("many_lookup"))
    ctx = Recorder()
    with pytest.raises(RegistrationError) as caught:
        register_plugin(ctx, [tools_module, commands_module, other], plugin_name="many")
    text = str(caught.value)
    assert text.startswith("duplicate tool name: many_lookup (two different declarations)")
    assert "at many_tools.lookup and at many_other.lookup_v2" in text
    assert ctx.calls == []


def test_a_module_and_a_callable_declaring_one_name_are_named_both(
    modules: tuple[types.ModuleType, types.ModuleType],
) -> None:
    tools_module, _ = modules
    ctx = Recorder()
    with pytest.raises(RegistrationError) as caught:
        register_plugin(ctx, [tools_module, a_command("x-one"), a_tool("many_lookup")])
    text = str(caught.value)
    assert "at many_tools.lookup and at declarations[2] " in text
    assert "_lookup" in text.rsplit("declarations[2]", 1)[1]
    assert ctx.calls == []


def test_a_slash_and_cli_clash_across_modules_names_both() -> None:
    def cli_handler(ns: Any) -> int:
        return 0

    slash = module("many_slash", say=a_command("many-both"))
    cli = module("many_cli", say=command("many-both", "CLI.", type="cli")(cli_handler))
    with pytest.raises(RegistrationError) as caught:
        register_plugin(Recorder(), [slash, cli])
    assert "(many_slash.say and many_cli.say)" in str(caught.value)


def test_a_bad_item_among_modules_is_named_by_index(
    modules: tuple[types.ModuleType, types.ModuleType],
) -> None:
    with pytest.raises(RegistrationError, match=r"declarations\[1\] \(5\) is neither a module nor"):
        register_plugin(Recorder(), [modules[0], 5])  # pyright: ignore[reportArgumentType]


class _Provider:
    @tool(toolset="many")
    def many_recall(self, query: str) -> str:
        """Recall.

        Args:
            query: what to recall.
        """
        return query


def test_a_providers_method_tool_is_refused_before_anything_is_registered(
    modules: tuple[types.ModuleType, types.ModuleType],
) -> None:
    ctx = Recorder()
    with pytest.raises(RegistrationError, match=r"many_recall .*a method of a provider class"):
        register_plugin(ctx, [modules[0], _Provider.many_recall])
    assert ctx.calls == []


def test_an_unimportable_module_name_among_items_is_named_by_index(
    modules: tuple[types.ModuleType, types.ModuleType],
) -> None:
    ctx = Recorder()
    with pytest.raises(RegistrationError) as caught:
        register_plugin(ctx, [modules[0], "many_no_such_module_q"])
    assert str(caught.value).startswith(
        "cannot import module 'many_no_such_module_q' to register its declarations"
        " (declarations[1]): "
    )
    assert ctx.calls == []


def _twice(name: str) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """Two different declarations of one name, for each surface."""
    if name == "tool":
        return a_tool("many_twice"), a_tool("many_twice")
    if name == "command":
        return a_command("many-twice"), a_command("many-twice")
    if name == "middleware":
        return middleware("tool_request")(_lookup), middleware("tool_request")(_rewrite)
    return hook("pre_llm_call")(_lookup), hook("pre_llm_call")(_rewrite)


@pytest.mark.parametrize(
    ("surface", "what"),
    [
        ("tool", "tool name: many_twice"),
        ("command", "command name: many-twice"),
        ("middleware", "middleware kind: tool_request"),
        ("hook", "hook name: pre_llm_call"),
    ],
)
def test_every_surface_finds_a_duplicate_across_modules(surface: str, what: str) -> None:
    first, second = _twice(surface)
    left = module("many_left", keep=a_tool("many_keep"), item=first)
    right = module("many_right", item=second)
    ctx = Recorder()
    with pytest.raises(RegistrationError) as caught:
        register_plugin(ctx, [left, right], plugin_name="many")
    assert str(caught.value).startswith(
        f"duplicate {what} (two different declarations), at many_left.item and at many_right.item; "
    )
    assert ctx.calls == []


def test_a_generator_of_items_is_one_plan() -> None:
    made = (a_tool(f"many_gen_{n}") for n in range(3))
    ctx = Recorder()
    summary = register_plugin(ctx, made, plugin_name="many")
    assert summary.tools == ("many_gen_0", "many_gen_1", "many_gen_2")
    assert ctx.calls == [("tool", "many_gen_0"), ("tool", "many_gen_1"), ("tool", "many_gen_2")]


class Handle:
    def __init__(self, log: list[str], name: str) -> None:
        self.log = log
        self.name = name

    def dispose(self) -> None:
        self.log.append(f"disposed {self.name}")


class Disposing(Recorder):
    """A host whose registrars return handles, and whose hook registrar fails."""

    def __init__(self) -> None:
        super().__init__()
        self.undone: list[str] = []

    def register_tool(self, name: str, **kwargs: Any) -> Handle:
        super().register_tool(name, **kwargs)
        return Handle(self.undone, name)

    def register_command(self, name: str, handler: Callable[..., Any], **kwargs: Any) -> Handle:
        super().register_command(name, handler, **kwargs)
        return Handle(self.undone, name)

    def register_middleware(self, kind: str, callback: Callable[..., Any]) -> Handle:
        super().register_middleware(kind, callback)
        return Handle(self.undone, kind)

    def register_hook(self, name: str, callback: Callable[..., Any]) -> None:
        msg = "hook table is full"
        raise RuntimeError(msg)


def test_a_failure_midway_rolls_back_what_every_module_registered(
    modules: tuple[types.ModuleType, types.ModuleType],
) -> None:
    ctx = Disposing()
    with pytest.raises(RegistrationError, match="hook table is full"):
        register_plugin(ctx, [*modules, a_tool("many_extra")], plugin_name="many")
    assert ctx.calls == [
        ("command", "many-say"),
        ("tool", "many_extra"),
        ("tool", "many_lookup"),
        ("middleware", "tool_request"),
    ]
    assert ctx.undone == [
        "disposed tool_request",
        "disposed many_lookup",
        "disposed many_extra",
        "disposed many-say",
    ]
