"""The evaluated annotations of a typed tool handler, each annotation text evaluated once
per module while the names it reads stay bound to the same objects.

A plugin's tools repeat their annotations (``Annotated[str, Arg(...)]``, ``Scale``), and
evaluating one is most of what declaring a typed tool costs: compiling its text and
building ``typing``'s objects. Under ``from __future__ import annotations`` (and on 3.14,
whose annotations are evaluated on demand) the text is evaluated in the handler's module;
the kit keeps the value of each ``(text, module)`` with the objects the text's names were
bound to then, and evaluates again when any of them was rebound. The values are the
typing objects and :class:`~kit_core.typed.Arg` records the annotation builds, which
nothing changes after.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from functools import cache
from types import CodeType, FunctionType
from typing import Any, Final

__all__ = ["clear_hints", "hints_of"]

_UNBOUND: Final = object()
_EVALUATED: dict[tuple[str, int], tuple[dict[str, Any], tuple[object, ...], object]] = {}
"""(text, id(module namespace)) -> (the namespace, what its names were bound to, value)."""


@cache
def _compiled(text: str) -> CodeType:
    return compile(text, "<annotation>", "eval")


def _evaluate(text: str, namespace: dict[str, Any]) -> object:
    code = _compiled(text)
    bound = tuple(namespace.get(name, _UNBOUND) for name in code.co_names)
    key = (text, id(namespace))
    kept = _EVALUATED.get(key)
    if (
        kept is not None
        and kept[0] is namespace
        and all(a is b for a, b in zip(kept[1], bound, strict=True))
    ):
        return kept[2]
    value = eval(code, namespace)
    _EVALUATED[key] = (namespace, bound, value)
    return value


def hints_of(fn: Callable[..., Any]) -> dict[str, Any]:
    """``typing.get_type_hints(fn, include_extras=True)`` of the parameters: for a plain
    function, each string annotation evaluated in its module as described above (``None``
    read as ``NoneType``); anything else as ``get_type_hints`` reads it."""
    target = inspect.unwrap(fn)
    namespace = getattr(target, "__globals__", None)
    if type(target) is not FunctionType or not isinstance(namespace, dict):
        return typing.get_type_hints(fn, include_extras=True)
    found: dict[str, Any] = {}
    for name, value in target.__annotations__.items():  # 3.14: evaluated on first read
        if name == "return":
            continue  # a tool's return annotation says nothing to the model
        if isinstance(value, str):
            value = _evaluate(value, namespace)  # pyright: ignore[reportUnknownArgumentType]
        found[name] = type(None) if value is None else value
    return found


def clear_hints() -> None:
    """Forget every evaluated and compiled annotation (for a benchmark of first
    declarations)."""
    _EVALUATED.clear()
    _compiled.cache_clear()
