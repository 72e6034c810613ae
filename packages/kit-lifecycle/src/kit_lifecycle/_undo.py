"""How one registrar call is taken back, by what the host offers for it.

Each kind holds what it needs to undo one call and answers :meth:`undo` with an
:class:`Outcome` (removed, or kept and why): :class:`Handle` disposes the handle the
host returned; :class:`Ledgered` disposes what the call added to the host's registration
ledger; :class:`Entry`, :class:`Callback` and :class:`Tool` take the kit's own object
out of hermes 0.19.0's tables and tool registry, by identity; :class:`NoUndo` is a
registration the host cannot be asked to take back. :class:`~kit_lifecycle._rollback.Rollback`
picks one for each call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, cast

__all__ = [
    "NOTHING",
    "REMOVED",
    "Callback",
    "Entry",
    "Handle",
    "Ledgered",
    "NoUndo",
    "Outcome",
    "Tool",
]

_MISSING: Final = object()


class Outcome:
    """What undoing one registration did: removed it, or kept it and why (plain slots, not
    a dataclass: the module is imported with every kit-lifecycle plugin)."""

    __slots__ = ("kept", "removed")

    def __init__(self, *, removed: bool = False, kept: str = "") -> None:
        self.removed = removed
        self.kept = kept


REMOVED: Final = Outcome(removed=True)
NOTHING: Final = Outcome()
"""The host holds nothing of this call (it refused it, or raised before storing it)."""


if TYPE_CHECKING:  # for the type checker only: a Protocol costs import time
    from typing import Protocol

    class Undo(Protocol):
        def settle(self, result: object) -> None:
            """Note what the host holds right after the call returned ``result``."""
            ...

        def undo(self) -> Outcome: ...


class NoUndo:
    """A registration this host cannot be asked to take back."""

    __slots__ = ("settled", "why")

    def __init__(self, why: str) -> None:
        self.why = why
        self.settled = False

    def settle(self, result: object) -> None:
        self.settled = True

    def undo(self) -> Outcome:
        # a call that raised most likely stored nothing; only a completed one is reported
        return Outcome(kept=self.why) if self.settled and self.why else NOTHING


class Handle:
    """A registration the host returned a handle for (``handle.dispose()`` undoes it)."""

    __slots__ = ("handle",)

    def __init__(self, handle: Any) -> None:
        self.handle = handle

    def settle(self, result: object) -> None:
        pass

    def undo(self) -> Outcome:
        self.handle.dispose()
        return REMOVED


class Ledgered:
    """A registrar call on a host with a registration ledger, for when it returns no handle:
    the ledger entries this plugin gained during the call are what it registered."""

    __slots__ = ("after", "before", "key", "ledger")

    def __init__(self, ledger: dict[Any, Any], key: str) -> None:
        self.ledger = ledger
        self.key = key
        self.before = _ids(ledger.get(key))
        self.after: set[int] | None = None

    def settle(self, result: object) -> None:
        self.after = _ids(self.ledger.get(self.key))

    def undo(self) -> Outcome:
        owned: object = self.ledger.get(self.key)
        held: list[Any] = list(cast("list[Any]", owned)) if isinstance(owned, list) else []
        new = [
            r
            for r in held
            if id(r) not in self.before
            and (self.after is None or id(r) in self.after)
            and getattr(r, "active", True)
        ]
        for registration in reversed(new):
            registration.dispose()
        return REMOVED if new else NOTHING


def _ids(registrations: object) -> set[int]:
    if not isinstance(registrations, list):
        return set()
    return {id(r) for r in registrations}  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]


class Entry:
    """One key of a host table of ``name -> entry`` (commands, CLI commands, skills)."""

    __slots__ = ("after", "before", "key", "remove", "settled", "table")

    def __init__(
        self, table: dict[Any, Any], key: str, remove: Callable[[str], object] | None = None
    ) -> None:
        self.table = table
        self.key = key
        self.remove = remove
        self.before: object = table.get(key, _MISSING)
        self.after: object = _MISSING
        self.settled = False

    def settle(self, result: object) -> None:
        self.after = self.table.get(self.key, _MISSING)
        self.settled = True

    def undo(self) -> Outcome:
        now = self.table.get(self.key, _MISSING)
        if now is self.before or (self.settled and self.after is self.before):
            return NOTHING
        if self.settled and now is not self.after:
            return Outcome(kept="replaced since by another registration of that name")
        if self.before is not _MISSING:
            self.table[self.key] = self.before  # the earlier registration it replaced
        elif self.remove is not None:
            self.remove(self.key)
        else:
            del self.table[self.key]
        return REMOVED


def _count(callbacks: object, callback: object) -> int:
    if not isinstance(callbacks, list):
        return 0
    return sum(1 for cb in callbacks if cb is callback)  # pyright: ignore[reportUnknownVariableType]


class Callback:
    """One callback appended to a host table of ``name -> [callbacks]`` (hooks, middleware)."""

    __slots__ = ("callback", "count", "existed", "key", "table")

    def __init__(self, table: dict[Any, Any], key: str, callback: object) -> None:
        self.table = table
        self.key = key
        self.callback = callback
        self.existed = key in table
        self.count = _count(table.get(key), callback)

    def settle(self, result: object) -> None:
        pass

    def undo(self) -> Outcome:
        callbacks: Any = self.table.get(self.key)
        if _count(callbacks, self.callback) <= self.count:
            return NOTHING
        last = max(i for i, cb in enumerate(callbacks) if cb is self.callback)
        del callbacks[last]
        if not callbacks and not self.existed:
            del self.table[self.key]
        return REMOVED


class Tool:
    """One tool in hermes' tool registry, and its name in the manager's plugin tool names."""

    __slots__ = ("before", "handler", "listed", "name", "names", "registry")

    def __init__(self, registry: Any, names: object, name: str, handler: object) -> None:
        self.registry = registry
        self.names: set[Any] | None = names if isinstance(names, set) else None
        self.name = name
        self.handler = handler
        self.before: Any = registry.get_entry(name)
        self.listed = self.names is not None and name in self.names

    def settle(self, result: object) -> None:
        pass

    def undo(self) -> Outcome:
        now: Any = self.registry.get_entry(self.name)
        if now is not self.before and getattr(now, "handler", None) is not self.handler:
            return Outcome(kept="replaced since by another tool of that name")
        if now is not self.before and self.before is not None:
            toolset = getattr(self.before, "toolset", "?")
            return Outcome(
                kept=(
                    f"it replaced the tool of that name registered earlier in toolset"
                    f" {toolset!r}, and hermes keeps no copy of that one to put back"
                )
            )
        outcome = NOTHING
        if now is not self.before:
            self.registry.deregister(self.name)
            outcome = REMOVED
        if self.names is not None and not self.listed:
            self.names.discard(self.name)  # the host lists even a tool its registry refused
        return outcome
