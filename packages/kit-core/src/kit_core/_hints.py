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

Texts that differ only in their literals share one compiled form: ``Annotated[str,
Arg("A city", example="Oslo")]`` and ``Annotated[str, Arg("A day", example="Monday")]``
are both ``Annotated[str, Arg(_0, example=_1)]``, evaluated with each text's own string
and number literals bound to those placeholder names. Compiling is the larger part of
evaluating a new text, and a plugin's descriptions change from argument to argument where
the shape of its annotations does not. A text that holds anything but names, simple
literals, brackets, calls, attribute reads, ``|`` and ``-`` (an escape, a prefixed or
triple-quoted string, a slice, a comprehension, a lambda) is compiled as it is.
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable
from functools import lru_cache
from types import FunctionType, SimpleNamespace
from typing import Any, Final

__all__ = ["clear_hints", "hints_of"]

_UNBOUND: Final = object()
_EVALUATED: dict[tuple[str, int], tuple[dict[str, Any], tuple[object, ...], object]] = {}
"""(text, id(module namespace)) -> (the namespace, what its names were bound to, value)."""

_LITERAL: Final = re.compile(
    r"""(?=['"0-9])(?<![\w'"])(?:'([^'\\\n]*)'|"([^"\\\n]*)"|(?<!\.)([0-9]+(?:\.[0-9]+)?))"""
    r"""(?![\w.'"])"""
)
"""A string literal without prefix, escape or triple quotes, or a decimal int or float."""
_PLAIN: Final = re.compile(r"[\w\s\[\](),.|=-]*")
"""What a text may hold besides its literals for them to be lifted out: names, calls,
subscripts, attribute reads, keyword arguments, ``|`` and a sign."""
_SCOPED: Final = re.compile(r"\bfor\b")
"""A comprehension: its own scope would not see the placeholders."""
_PLACEHOLDER: Final = "__hpk_literal_"
_PLACEHOLDERS: Final = tuple(f" {_PLACEHOLDER}{n} " for n in range(32))


class _Shape:
    """Annotation texts that differ only in their literals, as one ``typing.ForwardRef``
    (typing compiles it once), and the names it reads in the handler's module."""

    __slots__ = ("holder", "names")

    def __init__(self, skeleton: str) -> None:
        ref = typing.ForwardRef(skeleton)
        self.holder = SimpleNamespace(__annotations__={"value": ref})
        """What ``typing.get_type_hints`` evaluates: the reference as an annotation."""
        self.names = tuple(
            n for n in ref.__forward_code__.co_names if not n.startswith(_PLACEHOLDER)
        )
        """The names the text reads in its module."""


@lru_cache(maxsize=1024)
def _shape(skeleton: str) -> _Shape:
    """Kept across :func:`clear_hints`, as a spec-style tool's check is kept per shape."""
    return _Shape(skeleton)


@lru_cache(maxsize=4096)
def _compiled(text: str) -> tuple[_Shape, dict[str, object] | None]:
    """An annotation text's shape and its literals (None: compiled as it is)."""
    parts = _LITERAL.split(text)
    lifted = (len(parts) - 1) // 4
    if 0 < lifted <= len(_PLACEHOLDERS):
        skeleton = [parts[0]]
        literals: dict[str, object] = {}
        for at in range(lifted):
            single, double, number, after = parts[4 * at + 1 : 4 * at + 5]
            placeholder = _PLACEHOLDERS[at]
            literals[placeholder.strip()] = (
                single
                if single is not None
                else double
                if double is not None
                else float(number)
                if "." in number
                else int(number)
            )
            skeleton += (placeholder, after)
        plain = "".join(skeleton)
        if _PLAIN.fullmatch(plain) and not _SCOPED.search(plain):
            try:
                return _shape(plain), literals
            except SyntaxError:  # e.g. implicit concatenation, "a" "b": compiled as written
                pass
    return _shape(text), None


def _evaluate(text: str, namespace: dict[str, Any]) -> object:
    shape, literals = _compiled(text)
    bound = tuple(namespace.get(name, _UNBOUND) for name in shape.names)
    key = (text, id(namespace))
    kept = _EVALUATED.get(key)
    if (
        kept is not None
        and kept[0] is namespace
        and all(a is b for a, b in zip(kept[1], bound, strict=True))
    ):
        return kept[2]
    # locals never the namespace itself: typing would keep the first value of a reference
    # evaluated with its globals as locals, and a shape is shared by modules and rebindings
    value = typing.get_type_hints(
        shape.holder, globalns=namespace, localns=literals or {}, include_extras=True
    )["value"]
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
    """Forget every evaluated annotation and every text compiled (for a benchmark of first
    declarations); the compiled shapes stay."""
    _EVALUATED.clear()
    _compiled.cache_clear()
