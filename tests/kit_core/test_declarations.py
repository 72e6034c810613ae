"""One declaration record under one attribute, one reader, one way to find them in a module."""

from __future__ import annotations

import dataclasses
import sys
import types
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from kit_core import (
    Declaration,
    HookSpec,
    RegistrationError,
    ToolSpec,
    declaration_of,
    declarations_in,
    declare,
    register_all,
    str_arg,
    tool,
)
from kit_core.registration import collect_tools


def decl_first(args: dict[str, Any], **kwargs: Any) -> str:
    """First tool."""
    return "1"


def decl_second(args: dict[str, Any], **kwargs: Any) -> str:
    """Second tool."""
    return "2"


def observer(**kwargs: Any) -> None:
    return None


def make_tool(name: str) -> Any:
    return tool(toolset="decl", name=name, params={"q": str_arg("Query")})(decl_first)


@pytest.fixture
def module() -> Iterator[Any]:
    """A fresh module, loaded under its name; typed Any so tests can set its attributes."""
    mod = types.ModuleType("kit_core_decl_fixture")
    sys.modules[mod.__name__] = mod
    yield mod
    del sys.modules[mod.__name__]


# -- the record and the reader ----------------------------------------------------------------


def test_a_tool_carries_its_tool_spec_and_nothing_else() -> None:
    fn = make_tool("decl_one")
    spec = declaration_of(fn)
    assert isinstance(spec, ToolSpec)
    assert spec.name == "decl_one"
    assert spec.surface == "tool"
    assert declaration_of(fn, ToolSpec) is spec
    assert declaration_of(fn, HookSpec) is None  # a record of another kind is not returned
    assert declaration_of(fn, Declaration) is spec
    # the kit's metadata is one attribute: no per-kind attributes remain
    assert [k for k in vars(fn) if k.endswith("_spec")] == []
    assert declaration_of(decl_first) is None  # the handler itself is left undeclared


@pytest.mark.parametrize("value", [None, 0, "tool", object(), print, [make_tool], HookSpec])
def test_anything_undeclared_reads_as_none(value: object) -> None:
    assert declaration_of(value) is None


def test_declare_attaches_a_record_and_returns_the_target_unchanged() -> None:
    def clear(**kwargs: Any) -> None:
        return None

    spec = HookSpec("on_session_end", clear)
    assert declare(clear, spec) is clear
    assert declaration_of(clear) is spec
    assert declaration_of(clear, HookSpec) is spec
    assert spec.surface == "hook"
    replacement = HookSpec("on_session_finalize", clear)
    declare(clear, replacement)  # one attribute: the newer record replaces the older
    assert declaration_of(clear) is replacement


def test_declare_refuses_what_is_not_a_record_or_cannot_hold_one() -> None:
    def fn(**kwargs: Any) -> None:
        return None

    with pytest.raises(TypeError, match="takes a Declaration record, got tuple"):
        declare(fn, ("on_session_end", fn))  # pyright: ignore[reportArgumentType]
    with pytest.raises(TypeError, match="a builtin_function_or_method cannot carry"):
        declare(print, HookSpec("on_session_end", print))
    assert declaration_of(fn) is None


def test_a_record_is_frozen() -> None:
    spec = HookSpec("on_session_end", observer)
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.name = "other"  # type: ignore[misc]


# -- finding declarations in a module --------------------------------------------------------


def test_declarations_in_reads_attributes_in_name_order_each_object_once(
    module: Any,
) -> None:
    one, two = make_tool("decl_one"), make_tool("decl_two")
    hook = declare(observer, HookSpec("on_session_end", observer))
    module.b_tool = two
    module.a_tool = one
    module.alias = one  # the same object under a second name counts once, where first found
    module.z_hook = hook
    module.plain = decl_second
    module.number = 3
    found = declarations_in(module)
    assert [(where, value) for where, value, _ in found] == [
        ("a_tool", one),
        ("b_tool", two),
        ("z_hook", hook),
    ]
    assert [record for _, _, record in found] == [
        declaration_of(one),
        declaration_of(two),
        declaration_of(hook),
    ]
    assert [where for where, _, _ in declarations_in(module, HookSpec)] == ["z_hook"]
    assert [where for where, _, _ in declarations_in(module.__name__, ToolSpec)] == [
        "a_tool",
        "b_tool",
    ]


def test_a_tuple_or_list_of_declarations_contributes_each_item(
    module: Any,
) -> None:
    one, two = make_tool("decl_one"), make_tool("decl_two")
    module.TOOLS = (one, two)
    module.later = [two]  # read after TOOLS, where it was already found
    found = declarations_in(module)
    assert [(where, value) for where, value, _ in found] == [("TOOLS[0]", one), ("TOOLS[1]", two)]


def test_a_container_holding_anything_else_is_not_a_declaration_list(
    module: Any,
) -> None:
    module.MIXED = (make_tool("decl_one"), "not declared")
    module.EMPTY = ()
    module.NAMES = ["decl_one"]
    module.NESTED = ((make_tool("decl_two"),),)
    assert declarations_in(module) == []


def test_declarations_in_refuses_what_is_not_a_module() -> None:
    with pytest.raises(RegistrationError, match="cannot import module 'no_such_decl_module'"):
        declarations_in("no_such_decl_module")
    with pytest.raises(RegistrationError, match="expected a module or a module name, got int"):
        declarations_in(3)  # pyright: ignore[reportArgumentType]


# -- register_all finds tools the same way -----------------------------------------------------


class Recorder:
    def __init__(self) -> None:
        self.names: list[str] = []

    def register_tool(self, **kwargs: Any) -> None:
        self.names.append(kwargs["name"])


def test_register_all_registers_tools_held_in_a_tuple(module: Any) -> None:
    one, two = make_tool("decl_one"), make_tool("decl_two")
    module.TOOLS = (one, two)
    module.observer = declare(observer, HookSpec("on_session_end", observer))  # not a tool
    assert [spec.name for spec, _ in collect_tools(module)] == ["decl_one", "decl_two"]
    ctx = Recorder()
    assert register_all(ctx, module) == 2
    assert ctx.names == ["decl_one", "decl_two"]


def test_two_tools_of_one_name_in_a_tuple_are_refused_naming_where(
    module: Any,
) -> None:
    module.TOOLS = (make_tool("decl_one"), make_tool("decl_one"))
    with pytest.raises(RegistrationError, match=r"'TOOLS\[0\]' and 'TOOLS\[1\]'\); rename one"):
        collect_tools(module)


class OtherDeclaration(Declaration):
    """A record of a surface kit-core does not register."""

    __slots__ = ()
    surface: ClassVar[str] = "other"


def test_register_all_passes_over_records_of_other_surfaces(module: Any) -> None:
    def other(**kwargs: Any) -> None:
        return None

    module.other = declare(other, OtherDeclaration())
    module.one = make_tool("decl_one")
    assert declaration_of(module.other) is not None
    assert [where for where, _, _ in declarations_in(module)] == ["one", "other"]
    assert [spec.name for spec, _ in collect_tools(module)] == ["decl_one"]
