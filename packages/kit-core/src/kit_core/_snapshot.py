"""One stored copy of a tool's schema, and a fresh deep copy of it for whoever asks.

A tool's schema is built once, when the tool is declared, and nothing of the kit changes
it afterwards; but the host keeps the dict it is given (hermes 0.19.0 stores it on its
``ToolEntry`` and hands out shallow copies of it), and an author may edit what
``ToolSpec.schema`` returns. So everyone who receives the schema gets a deep copy of
their own, and none of them can change another's.

``copy.deepcopy`` of a three-argument schema costs about 13 µs, and a ``marshal`` round
trip 1.5 µs: a :class:`Snapshot` of plain JSON data keeps its ``marshal`` bytes and loads
them for each copy. Anything that is not plain JSON data (a subclass, a ``set``, an
object of the author's, a cycle, nesting deeper than ``marshal`` takes) is kept as a deep
copy and copied with ``copy.deepcopy``. Plain data shared twice inside the value is
copied twice (JSON has no identity).
"""

from __future__ import annotations

import copy
import marshal
from typing import Any, Final, cast

__all__ = ["ATOMS", "Snapshot", "deep_copy", "is_plain"]

ATOMS: Final[frozenset[type]] = frozenset({str, int, float, bool, type(None)})
"""The exact types ``copy.deepcopy`` returns as they are and ``marshal`` keeps exactly."""


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


class Snapshot:
    """A value frozen at one moment; :meth:`copy` returns a new deep copy of it each time.

    Later changes to the value given are not seen: its leaves are taken (plain JSON
    data) or it is deep-copied here.
    """

    __slots__ = ("_data", "_kept")

    def __init__(self, value: Any) -> None:
        self._data = _marshalled(value)
        """The value's ``marshal`` bytes, for plain JSON data; else None."""
        self._kept: Any = copy.deepcopy(value) if self._data is None else None

    def copy(self) -> Any:
        """A new deep copy of the value, sharing nothing mutable with any other copy."""
        data = self._data
        if data is not None:
            return marshal.loads(data)
        return copy.deepcopy(self._kept)
