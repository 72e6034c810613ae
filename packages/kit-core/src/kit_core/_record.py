"""``Record``: a frozen, slotted value class without ``@dataclass``'s import-time cost.

``@dataclass(frozen=True, slots=True)`` generates and compiles ``__init__``, ``__repr__``,
``__eq__``, ``__setattr__`` and ``__hash__`` when the class statement runs, about 0.2 ms
to 0.9 ms per class on every import of the kit (nothing of it is cached in bytecode).
The kit's declaration records are built at every plugin import, so they are written out
instead: a subclass lists its fields in ``__slots__`` and assigns them in ``__init__``
with ``object.__setattr__``; this base gives it the rest, as the dataclass did.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any, ClassVar, dataclass_transform

from kit_core._annotations import annotated_names

__all__ = ["Record"]


@dataclass_transform(frozen_default=True)  # type checkers refuse assignments, as before
class Record:
    """Frozen and slotted; ``repr`` shows the fields but ``_hidden``; equality and hash
    compare the fields (``_compared = False``: identity, as ``eq=False``)."""

    __slots__ = ()
    _hidden: ClassVar[frozenset[str]] = frozenset()
    _compared: ClassVar[bool] = True

    _field_order: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls) -> None:
        """Record the slotted fields in the order the classes annotate them."""
        super().__init_subclass__()
        names: list[str] = []
        for klass in reversed(cls.__mro__):
            slots = klass.__dict__.get("__slots__", ())
            names.extend(name for name in annotated_names(klass) if name in slots)
        cls._field_order = tuple(names)

    def _fields(self) -> tuple[str, ...]:
        return self._field_order

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields())

    def __setattr__(self, name: str, value: object) -> None:
        msg = f"cannot assign to field {name!r}"
        raise FrozenInstanceError(msg)

    def __delattr__(self, name: str) -> None:
        msg = f"cannot delete field {name!r}"
        raise FrozenInstanceError(msg)

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{name}={getattr(self, name)!r}" for name in self._fields() if name not in self._hidden
        )
        return f"{type(self).__qualname__}({shown})"

    def __eq__(self, other: object) -> bool:
        if not self._compared:
            return self is other
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        if not self._compared:
            return object.__hash__(self)
        return hash(self._values())
