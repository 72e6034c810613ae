"""The kit under Python 3.14's deferred annotations (PEP 649/749), simulated on 3.11-3.13.

On 3.14 ``def handler(args: Ctx, **kwargs)`` compiles when ``Ctx`` is imported only under
``TYPE_CHECKING``, and ``inspect.signature`` (default ``Format.VALUE``) then evaluates the
annotation and raises ``NameError``. 3.11 has the same situation with ``from __future__
import annotations`` string annotations, evaluated by ``inspect.signature(...,
eval_str=True)``: the ``evaluating_signatures`` fixture makes every ``inspect.signature``
call evaluate annotations, as 3.14's default does, and the kit must still read the
parameters it needs (kinds and defaults, never annotation values).
"""

from __future__ import annotations

import functools
import importlib.util
import inspect
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from kit_core import tool
from kit_core._annotations import annotated_names, code_signature, signature_of
from kit_core._record import Record
from kit_core.errors import ToolDefinitionError
from kit_devtools.cli._tool_rules import signature_shape

PLUGIN = """\
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hermes_cli.plugins import PluginContext  # never imported at run time


def available() -> Availability:  # defined later in the module
    return Availability()


def offline() -> PluginContext:
    return None


def handler(args: dict[str, Any], ctx: PluginContext | None = None, **kwargs: Any) -> str:
    return "ok"


def two_required(args: PluginContext, other: PluginContext, **kwargs: Any) -> str:
    return "no"


@functools.wraps(handler)
def wrapped(*args: Any, **kwargs: Any) -> str:
    return handler(*args, **kwargs)


def hook(*, session_id: PluginContext = None, **kwargs: PluginContext) -> None:
    return None


def no_kwargs(*, session_id: PluginContext = None) -> None:
    return None


def say(raw: PluginContext) -> str:
    return "said"


class Availability:
    pass
"""


@pytest.fixture
def deferred(tmp_path: Path) -> ModuleType:
    path = tmp_path / "deferred_plugin.py"
    path.write_text(PLUGIN, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("deferred_plugin", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def evaluating_signatures(monkeypatch: pytest.MonkeyPatch) -> None:
    """``inspect.signature`` evaluates annotations, as 3.14's default (Format.VALUE) does."""
    original = inspect.signature

    def evaluating(obj: Callable[..., Any], *, follow_wrapped: bool = True) -> inspect.Signature:
        return original(obj, follow_wrapped=follow_wrapped, eval_str=True)

    monkeypatch.setattr(inspect, "signature", evaluating)


def test_the_simulation_raises_where_3_14_does(
    deferred: ModuleType, evaluating_signatures: None
) -> None:
    with pytest.raises(NameError, match="PluginContext"):
        inspect.signature(deferred.handler)
    # a forward reference to a name defined later in the module evaluates fine
    assert inspect.signature(deferred.available).return_annotation is deferred.Availability


def test_signature_of_reads_parameters_whatever_the_annotations(
    deferred: ModuleType, evaluating_signatures: None
) -> None:
    assert str(signature_of(deferred.handler)) == "(args, ctx=None, **kwargs)"
    assert str(signature_of(deferred.wrapped)) == "(args, ctx=None, **kwargs)"
    assert str(signature_of(deferred.hook)) == "(*, session_id=None, **kwargs)"
    # a forward reference that evaluates keeps its annotation
    assert signature_of(deferred.available).return_annotation is deferred.Availability


def test_tool_accepts_a_check_fn_and_a_wrapped_handler_with_deferred_annotations(
    deferred: ModuleType, evaluating_signatures: None
) -> None:
    """@tool reads check_fn's signature (kit_core._decoration) and a wrapper's
    (kit_core._handler_shape)."""
    for check_fn in (deferred.offline, deferred.available):
        decorated = tool(toolset="demo", name="demo_run", description="Run.", check_fn=check_fn)(
            deferred.wrapped
        )
        assert callable(decorated)


def test_tool_still_refuses_a_bad_handler_whose_annotations_cannot_be_evaluated(
    deferred: ModuleType, evaluating_signatures: None
) -> None:
    bad = functools.wraps(deferred.two_required)(lambda *a, **k: None)
    with pytest.raises(ToolDefinitionError, match=r"must take \(args, \*\*kwargs\)"):
        tool(toolset="demo", name="demo_bad", description="Bad.", params={})(bad)


def test_checks_callback_shape_under_deferred_annotations(
    deferred: ModuleType, evaluating_signatures: None
) -> None:
    """kit_devtools' HPK121/HPK301 read the signature of a handler or callback."""
    assert signature_shape(deferred.handler) == (True, True)
    assert signature_shape(deferred.hook) == (False, True)


@pytest.mark.parametrize(
    "source",
    [
        "def f(a, b=1, /, c=2, *args, d, e=3, **kw): pass",
        "def f(x, *, y): pass",
        "def f(): pass",
        "def f(*args): pass",
        "def f(a, /, **kw): pass",
    ],
)
def test_the_code_object_fallback_matches_inspect(source: str) -> None:
    namespace: dict[str, Any] = {}
    exec(source, namespace)
    assert code_signature(namespace["f"]) == inspect.signature(namespace["f"])


def test_record_fields_come_from_annotated_names_without_evaluating_them() -> None:
    """Record orders its fields by the class annotations (strings here, naming a type that
    exists nowhere); on 3.14 they are read as forward references (Format.FORWARDREF)."""

    class Later(Record):
        __slots__ = ("first", "second")
        first: Nowhere  # noqa: F821  # pyright: ignore[reportUndefinedVariable]
        second: int

        def __init__(self, first: object, second: int) -> None:
            object.__setattr__(self, "first", first)
            object.__setattr__(self, "second", second)

    assert annotated_names(Later) == ("first", "second")
    assert repr(Later(1, 2)).endswith("Later(first=1, second=2)")


def test_hooks_commands_and_the_media_guard_read_callbacks_under_deferred_annotations(
    deferred: ModuleType, evaluating_signatures: None
) -> None:
    """kit-lifecycle's **kwargs and command checks, and kit-media's reading of a host
    guard's keywords, never evaluate annotations (a NameError on 3.14 before)."""
    from kit_lifecycle import DeclarationError, command, hook
    from kit_media._guard import accepted_keywords

    assert callable(hook("on_session_end")(deferred.hook))
    with pytest.raises(DeclarationError, match=r"must accept \*\*kwargs"):
        hook("on_session_end")(deferred.no_kwargs)
    assert callable(command("deferred-say", "Say.")(deferred.say))
    assert accepted_keywords(deferred.no_kwargs) == frozenset({"session_id"})
