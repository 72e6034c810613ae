"""One reader finds every kind of declaration the kit packages make, and the registrars find
them the same way: a module that imports ``MEDIA_DELIVERY_HOOKS`` registers those hooks."""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import pytest
from tests._hermes_context import RecordingContext

from hermes_plugin_kit import (
    MEDIA_DELIVERY_HOOKS,
    CommandSpec,
    CommandType,
    Declaration,
    HookSpec,
    MiddlewareKind,
    MiddlewareSpec,
    RegistrationError,
    ToolSpec,
    clear_media_delivery_state,
    command,
    declaration_of,
    declarations_in,
    declare,
    hook,
    middleware,
    register_all,
    register_plugin,
    tool,
    transform_media_delivery_output,
)


@tool(toolset="decls", name="decls_sync")
def decls_sync(args: dict[str, Any], **kwargs: Any) -> object:
    """A sync tool."""
    return args


@tool(toolset="decls", name="decls_async")
async def decls_async(args: dict[str, Any], **kwargs: Any) -> object:
    """An async tool."""
    return args


@command("decls-slash")
def decls_slash(raw: str) -> str:
    """A slash command."""
    return raw


@command("decls-cli", type=CommandType.CLI)
def decls_cli(args: Any) -> int:
    """A terminal command."""
    return 0


@middleware(MiddlewareKind.TOOL_REQUEST)
def decls_middleware(**kwargs: Any) -> None:
    return None


@hook("pre_llm_call")
def decls_hook(**kwargs: Any) -> None:
    return None


EVERY_KIND: list[tuple[Callable[..., Any], type[Declaration], str, str]] = [
    (decls_sync, ToolSpec, "tool", "decls_sync"),
    (decls_async, ToolSpec, "tool", "decls_async"),
    (decls_slash, CommandSpec, "command", "decls-slash"),
    (decls_cli, CommandSpec, "command", "decls-cli"),
    (decls_middleware, MiddlewareSpec, "middleware", "tool_request"),
    (decls_hook, HookSpec, "hook", "pre_llm_call"),
    (transform_media_delivery_output, HookSpec, "hook", "transform_llm_output"),
    (clear_media_delivery_state, HookSpec, "hook", "on_session_end"),
]


def named(record: Declaration) -> str:
    """What a record registers under: a tool, command or hook name, a middleware kind."""
    if isinstance(record, MiddlewareSpec):
        return record.kind
    assert isinstance(record, ToolSpec | CommandSpec | HookSpec)
    return record.name


@pytest.mark.parametrize(
    ("declared", "kind", "surface", "name"), EVERY_KIND, ids=[e[3] for e in EVERY_KIND]
)
def test_one_reader_finds_every_kind(
    declared: Callable[..., Any], kind: type[Declaration], surface: str, name: str
) -> None:
    record = declaration_of(declared)
    assert type(record) is kind
    assert isinstance(record, Declaration)
    assert record.surface == surface
    assert named(record) == name
    assert declaration_of(declared, kind) is record
    others = {ToolSpec, CommandSpec, MiddlewareSpec, HookSpec} - {kind}
    assert all(declaration_of(declared, other) is None for other in others)


def test_the_callback_a_record_registers_is_the_declared_object() -> None:
    for declared in (decls_slash, decls_cli):
        assert getattr(declaration_of(declared), "handler", None) is declared
    for declared in (decls_middleware, decls_hook, *MEDIA_DELIVERY_HOOKS):
        assert getattr(declaration_of(declared), "callback", None) is declared


# -- a module registered as a whole -----------------------------------------------------------


@pytest.fixture
def plugin_module() -> Iterator[Any]:
    """A plugin module with one tool and ``from kit_media import MEDIA_DELIVERY_HOOKS``."""
    module: Any = types.ModuleType("decls_media_plugin")
    module.decls_sync = decls_sync
    module.MEDIA_DELIVERY_HOOKS = MEDIA_DELIVERY_HOOKS
    sys.modules[module.__name__] = module
    yield module
    del sys.modules[module.__name__]


EXPECTED_HOOKS = [
    ("on_session_end", clear_media_delivery_state),
    ("transform_llm_output", transform_media_delivery_output),
]


@pytest.mark.parametrize("by_name", [False, True], ids=["module", "module name"])
def test_register_plugin_registers_the_media_hooks_a_module_imports(
    plugin_module: Any, by_name: bool
) -> None:
    host = RecordingContext()
    summary = register_plugin(host, plugin_module.__name__ if by_name else plugin_module)
    assert summary.hooks == ("on_session_end", "transform_llm_output")
    assert summary.tools == ("decls_sync",)
    assert host.hooks == EXPECTED_HOOKS  # the functions themselves, unwrapped
    assert list(host.tools) == ["decls_sync"]


def test_the_module_and_the_iterable_forms_agree(plugin_module: Any) -> None:
    from_module, from_items = RecordingContext(), RecordingContext()
    register_plugin(from_module, plugin_module)
    register_plugin(from_items, [decls_sync, *MEDIA_DELIVERY_HOOKS])
    assert (from_module.hooks, from_module.tools) == (from_items.hooks, from_items.tools)


def test_the_hook_functions_imported_one_by_one_register_too(plugin_module: Any) -> None:
    del plugin_module.MEDIA_DELIVERY_HOOKS
    plugin_module.transform_media_delivery_output = transform_media_delivery_output
    plugin_module.clear_media_delivery_state = clear_media_delivery_state
    plugin_module.HOOKS = MEDIA_DELIVERY_HOOKS  # the same objects again: counted once
    host = RecordingContext()
    register_plugin(host, plugin_module)
    assert host.hooks == EXPECTED_HOOKS


def test_register_all_registers_the_tools_only(plugin_module: Any) -> None:
    host = RecordingContext()
    assert register_all(host, plugin_module) == 1
    assert (list(host.tools), host.hooks) == (["decls_sync"], [])


def test_a_second_callback_for_a_media_hook_is_refused_not_dropped(plugin_module: Any) -> None:
    plugin_module.own_output = hook("transform_llm_output")(lambda **kwargs: None)
    host = RecordingContext()
    with pytest.raises(RegistrationError, match="duplicate hook name: transform_llm_output"):
        register_plugin(host, plugin_module)
    assert (list(host.tools), host.hooks) == ([], [])


def test_the_registrars_find_the_same_declarations(plugin_module: Any) -> None:
    found = [(where, value) for where, value, _ in declarations_in(plugin_module)]
    assert found == [
        ("MEDIA_DELIVERY_HOOKS[0]", transform_media_delivery_output),
        ("MEDIA_DELIVERY_HOOKS[1]", clear_media_delivery_state),
        ("decls_sync", decls_sync),
    ]


class FutureSpec(Declaration):
    """A record of a surface this kit's register_plugin does not know."""

    __slots__ = ()
    surface: ClassVar[str] = "future"


def test_a_declaration_register_plugin_cannot_register_is_refused_not_skipped(
    plugin_module: Any,
) -> None:
    def later(**kwargs: Any) -> None:
        return None

    plugin_module.later = declare(later, FutureSpec())
    host = RecordingContext()
    with pytest.raises(RegistrationError, match=r"FutureSpec declaration \(surface 'future'\)"):
        register_plugin(host, plugin_module)
    with pytest.raises(RegistrationError, match="register_plugin does not register"):
        register_plugin(host, [later])
    assert (list(host.tools), host.hooks) == ([], [])
