"""One stored copy of a tool's schema, and a fresh deep copy of it for whoever asks.

A tool's schema is built once, when the tool is declared, and nothing of the kit changes
it afterwards; but the host keeps the dict it is given (hermes 0.19.0 stores it on its
``ToolEntry`` and hands out shallow copies of it), and an author may edit what
``ToolSpec.schema`` returns. So everyone who receives the schema gets a deep copy of
their own, and none of them can change another's.

``copy.deepcopy`` of a three-argument schema costs about 13 µs, and a ``marshal`` round
trip 1.5 µs. A :class:`Snapshot` of plain JSON data keeps instead its immutable leaves
(strings, numbers, lists of them as tuples) in one tuple, and a copier function compiled
once per *layout* (the nesting of dicts and lists, whatever the leaves) that rebuilds
the containers around them: about 0.6 µs, and the copies share the strings. The source
of a copier is made of generated names only (``a0``, ``a1`` …), never of the data.

Anything that is not plain JSON data (a subclass, a ``set``, an object of the author's,
a cycle, nesting deeper than :data:`MAX_DEPTH`) is kept as a deep copy and copied with
``copy.deepcopy``, as before. Plain data shared twice inside the value is copied twice
(JSON has no identity).
"""

from __future__ import annotations

import copy
import functools
import marshal
from collections.abc import Callable
from types import CodeType, FunctionType
from typing import Any, Final, cast

__all__ = ["ATOMS", "MAX_DEPTH", "Snapshot", "deep_copy", "is_plain"]

ATOMS: Final[frozenset[type]] = frozenset({str, int, float, bool, type(None)})
"""The exact types ``copy.deepcopy`` returns as they are and ``marshal`` keeps exactly."""
MAX_DEPTH: Final = 32
"""The deepest nesting a compiled copier is made for (the parser allows 200 brackets)."""
_MAX_LEAVES: Final = 2_000


def is_plain(value: Any) -> bool:
    """Whether ``value`` is made only of ``dict``, ``list`` and ``tuple`` (exact types)
    holding exact ``str``, ``int``, ``float``, ``bool`` and ``None``.

    Raises:
        RecursionError: for a structure nested too deep or holding itself.
    """
    cls: type[Any] = type(value)  # pyright: ignore[reportUnknownVariableType]
    if cls in ATOMS:
        return True
    if cls is dict:
        for key, item in cast("dict[Any, Any]", value).items():
            if type(key) not in ATOMS or (type(item) not in ATOMS and not is_plain(item)):
                return False
        return True
    if cls is list or cls is tuple:
        for item in cast("list[Any]", value):
            if type(item) not in ATOMS and not is_plain(item):
                return False
        return True
    return False


def _marshalled(value: Any) -> bytes | None:
    """``value`` as marshal bytes when it is plain JSON data, else None."""
    try:
        return marshal.dumps(value) if is_plain(value) else None
    except (RecursionError, ValueError):  # nested too deep for either
        return None


def deep_copy(value: Any) -> Any:
    """``copy.deepcopy(value)``, by a ``marshal`` round trip when ``value`` is plain JSON
    data (several times faster)."""
    data = _marshalled(value)
    return copy.deepcopy(value) if data is None else marshal.loads(data)


class _NotPlain(Exception):
    pass


def _walk(value: Any, leaf: Callable[[Any], None], mark: Callable[[str], None], depth: int) -> None:
    """Hand the leaves of ``value`` to ``leaf`` and its layout to ``mark``; raise
    :class:`_NotPlain` for anything but plain JSON data.

    Marks: ``a`` one leaf; ``L`` / ``T`` a list / tuple of leaves, kept as one tuple
    leaf; ``{`` … ``}`` a dict whose entries are ``k`` (a key leaf and a value leaf) or
    ``K`` (a key leaf, then the marks of its value); ``[`` … ``]`` / ``(`` … ``)`` a list
    / tuple holding containers.
    """
    cls: type[Any] = type(value)  # pyright: ignore[reportUnknownVariableType]
    if cls in ATOMS:
        leaf(value)
        mark("a")
        return
    if depth > MAX_DEPTH:
        raise _NotPlain
    if cls is dict:
        mark("{")
        for key, item in cast("dict[Any, Any]", value).items():
            if type(key) not in ATOMS:
                raise _NotPlain
            leaf(key)
            if type(item) in ATOMS:
                leaf(item)
                mark("k")
            else:
                mark("K")
                _walk(item, leaf, mark, depth + 1)
        mark("}")
        return
    if cls is list or cls is tuple:
        items = cast("list[Any]", value)
        for item in items:
            if type(item) not in ATOMS:
                mark("[" if cls is list else "(")
                for each in items:
                    _walk(each, leaf, mark, depth + 1)
                mark("]" if cls is list else ")")
                return
        leaf(tuple(items))  # all immutable: one leaf, shared by every copy
        mark("L" if cls is list else "T")
        return
    raise _NotPlain


def _expression(marks: str) -> tuple[str, int]:
    """The Python expression that rebuilds a value of layout ``marks`` from the locals
    ``a0``, ``a1`` …, and how many leaves it reads."""
    position = 0
    count = 0

    def leaf() -> str:
        nonlocal count
        count += 1
        return f"a{count - 1}"

    def value() -> str:
        nonlocal position
        mark = marks[position]
        position += 1
        if mark == "a" or mark == "T":
            return leaf()
        if mark == "L":
            return f"[*{leaf()}]"
        parts: list[str] = []
        close = {"{": "}", "[": "]", "(": ")"}[mark]
        while marks[position] != close:
            if mark == "{":
                entry = marks[position]
                position += 1
                key = leaf()
                parts.append(f"{key}: {leaf() if entry == 'k' else value()}")
            else:
                parts.append(value())
        position += 1
        inner = ", ".join(parts)
        return "{" + inner + "}" if mark == "{" else f"[{inner}]" if mark == "[" else f"({inner},)"

    expression = value()
    return expression, count


@functools.lru_cache(maxsize=256)
def _copier(marks: str) -> FunctionType:
    """The copier of one layout, compiled once (the source holds generated names only)."""
    expression, count = _expression(marks)
    names = "".join(f"a{i}, " for i in range(count))
    unpack = f"    {names}= leaves\n" if count else ""
    source = f"def copy(leaves):\n{unpack}    return {expression}\n"
    module = compile(source, "<kit_core snapshot copier>", "exec")
    code = next(c for c in module.co_consts if isinstance(c, CodeType))
    return FunctionType(code, {"__builtins__": {}})


class Snapshot:
    """A value frozen at one moment; :meth:`copy` returns a new deep copy of it each time.

    Later changes to the value given are not seen: its leaves are taken (plain JSON
    data) or it is deep-copied here.
    """

    __slots__ = ("_copier", "_kept")

    def __init__(self, value: Any) -> None:
        leaves: list[Any] = []
        marks: list[str] = []
        try:
            _walk(value, leaves.append, marks.append, 0)
            if len(leaves) > _MAX_LEAVES:
                raise _NotPlain
        except (_NotPlain, RecursionError):
            self._copier: FunctionType | None = None
            self._kept: Any = copy.deepcopy(value)
            return
        self._copier = _copier("".join(marks))
        self._kept = tuple(leaves)

    def copy(self) -> Any:
        """A new deep copy of the value, sharing nothing mutable with any other copy."""
        copier = self._copier
        if copier is not None:
            return copier(self._kept)
        return copy.deepcopy(self._kept)
