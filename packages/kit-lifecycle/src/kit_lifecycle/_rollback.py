"""Taking back a registration that failed midway, as far as the host allows.

``register_plugin`` hands a plugin to the host one registrar call at a time. When a call
raises, or the receipt cannot be logged, :class:`Rollback` undoes every earlier call,
newest first, and the failing call too when it stored something before raising:

* a host whose registrars return a handle with ``dispose()`` (hermes releases from
  0.20.1 on, which also unwind a failed ``register()`` themselves) is asked to dispose
  each registration. A registrar that stored its registration and then raised returns
  no handle: its entry in the host's registration ledger (``_ownership_ledger``, plugin
  key -> the handles of what it registered, newest last) is disposed instead
  (``PluginRegistration.dispose``, hermes_cli/plugins_ledger.py ``PluginRegistration``
  in 0.21.3 and 0.22.2, hermes_cli/plugins.py ``PluginRegistration`` in 0.20.1), as
  hermes' loader disposes a failed plugin's whole ledger slice
  (``_load_plugin_scoped``, hermes_cli/plugins_loader.py, 0.21.3);
* hermes-agent 0.19.0 returns nothing. Its public APIs take back a tool
  (``tools.registry.registry.deregister``) and a skill
  (``PluginManager.remove_plugin_skill``). Hooks, middleware, slash and CLI commands
  exist only in the plugin manager's private tables (``_hooks``, ``_middleware``,
  ``_plugin_commands``, ``_cli_commands``; a tool's name also goes into
  ``_plugin_tool_names``): the kit takes out of them exactly the object its own call put
  there, as newer hermes' registration ledger does, and touches nothing else;
* any other context (a test double, an unknown host) cannot be asked to undo anything:
  what it holds is reported as left registered.

Every undo depends on identity: what the host refused is not touched, an entry replaced
since by another registration is left alone, and an entry that replaced an earlier one of
the same name puts the earlier one back. A tool that replaced an earlier tool stays: hermes
0.19.0 keeps no copy of the one it replaced.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, Literal, cast

from kit_core import redact_text
from kit_core._running_host import keeps_ledger, loaded
from kit_core.redaction import redact_preview
from kit_lifecycle.errors import PartialRegistrationError

Surface = Literal["command", "CLI command", "tool", "middleware", "hook", "skill", "receipt"]

_MISSING: Final = object()
_ERROR_CHARS: Final = 300
_NO_UNDO: Final = "this host offers no way to remove a registration"
_RECEIPT: Final = "the registration receipt"


class ToolRefusedError(Exception):
    """A host whose registrars return handles returned none for a tool: it refused it."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"the host refused tool {name!r} (register_tool returned no registration; the"
            " hermes log says why: most often a name a built-in tool already holds)"
        )


class _Outcome:
    """What undoing one registration did: removed it, or kept it and why (plain slots, not
    a dataclass: the module is imported with every kit-lifecycle plugin)."""

    __slots__ = ("kept", "removed")

    def __init__(self, *, removed: bool = False, kept: str = "") -> None:
        self.removed = removed
        self.kept = kept


_REMOVED: Final = _Outcome(removed=True)
_NOTHING: Final = _Outcome()
"""The host holds nothing of this call (it refused it, or raised before storing it)."""


if TYPE_CHECKING:  # for the type checker only: a Protocol costs import time
    from typing import Protocol

    class _Undo(Protocol):
        def settle(self, result: object) -> None:
            """Note what the host holds right after the call returned ``result``."""
            ...

        def undo(self) -> _Outcome: ...


class _NoUndo:
    """A registration this host cannot be asked to take back."""

    __slots__ = ("settled", "why")

    def __init__(self, why: str) -> None:
        self.why = why
        self.settled = False

    def settle(self, result: object) -> None:
        self.settled = True

    def undo(self) -> _Outcome:
        # a call that raised most likely stored nothing; only a completed one is reported
        return _Outcome(kept=self.why) if self.settled and self.why else _NOTHING


class _Handle:
    """A registration the host returned a handle for (``handle.dispose()`` undoes it)."""

    __slots__ = ("handle",)

    def __init__(self, handle: Any) -> None:
        self.handle = handle

    def settle(self, result: object) -> None:
        pass

    def undo(self) -> _Outcome:
        self.handle.dispose()
        return _REMOVED


class _Ledgered:
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

    def undo(self) -> _Outcome:
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
        return _REMOVED if new else _NOTHING


def _ids(registrations: object) -> set[int]:
    if not isinstance(registrations, list):
        return set()
    return {id(r) for r in registrations}  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]


class _Entry:
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

    def undo(self) -> _Outcome:
        now = self.table.get(self.key, _MISSING)
        if now is self.before or (self.settled and self.after is self.before):
            return _NOTHING
        if self.settled and now is not self.after:
            return _Outcome(kept="replaced since by another registration of that name")
        if self.before is not _MISSING:
            self.table[self.key] = self.before  # the earlier registration it replaced
        elif self.remove is not None:
            self.remove(self.key)
        else:
            del self.table[self.key]
        return _REMOVED


def _count(callbacks: object, callback: object) -> int:
    if not isinstance(callbacks, list):
        return 0
    return sum(1 for cb in callbacks if cb is callback)  # pyright: ignore[reportUnknownVariableType]


class _Callback:
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

    def undo(self) -> _Outcome:
        callbacks: Any = self.table.get(self.key)
        if _count(callbacks, self.callback) <= self.count:
            return _NOTHING
        last = max(i for i, cb in enumerate(callbacks) if cb is self.callback)
        del callbacks[last]
        if not callbacks and not self.existed:
            del self.table[self.key]
        return _REMOVED


class _Tool:
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

    def undo(self) -> _Outcome:
        now: Any = self.registry.get_entry(self.name)
        if now is not self.before and getattr(now, "handler", None) is not self.handler:
            return _Outcome(kept="replaced since by another tool of that name")
        if now is not self.before and self.before is not None:
            toolset = getattr(self.before, "toolset", "?")
            return _Outcome(
                kept=(
                    f"it replaced the tool of that name registered earlier in toolset"
                    f" {toolset!r}, and hermes keeps no copy of that one to put back"
                )
            )
        outcome = _NOTHING
        if now is not self.before:
            self.registry.deregister(self.name)
            outcome = _REMOVED
        if self.names is not None and not self.listed:
            self.names.discard(self.name)  # the host lists even a tool its registry refused
        return outcome


class _Step:
    """One registrar call: what it registered, how to undo it (None: this host offers no
    way, the common case of a test double, kept without an object per call), and whether
    it returned."""

    __slots__ = ("done", "name", "surface", "undo")

    def __init__(self, surface: Surface, name: str, undo: _Undo | None) -> None:
        self.surface = surface
        self.name = name
        self.undo = undo
        self.done = False

    def take_back(self) -> _Outcome:
        """Undo the call as far as the host allows (what ``_NoUndo(_NO_UNDO)`` does for a
        step without an undo: a call that returned is reported kept)."""
        if self.undo is None:
            return _Outcome(kept=_NO_UNDO) if self.done else _NOTHING
        return self.undo.undo()

    @property
    def label(self) -> str:
        """``"hook 'pre_tool_call'"``, or ``"the registration receipt"`` (worded only when
        a failure is reported)."""
        return _RECEIPT if self.surface == "receipt" else f"{self.surface} {self.name!r}"


class Rollback:
    """The registrar calls of one ``register_plugin``, each with how to take it back."""

    __slots__ = ("_ctx", "_handles", "_ledger", "_manager", "_steps")

    def __init__(self, ctx: Any) -> None:
        self._ctx = ctx
        self._manager: Any = getattr(ctx, "_manager", None)  # a hermes 0.19.0 PluginContext's
        # a host with a registration ledger returns a handle for what it registered (and
        # nothing for what it refused) and unwinds a failed register() itself: its private
        # tables are never the kit's to edit
        self._ledger = keeps_ledger(ctx)
        self._steps: list[_Step] = []
        self._handles = False
        """Whether a registrar of this host returned a handle (so None means refused)."""

    def run(
        self, surface: Surface, name: str, call: Callable[[], object], obj: object = None
    ) -> None:
        """``call()``, the registrar call for ``surface`` ``name`` (``obj``: the callback or
        tool handler it hands over), remembered with how to take it back."""
        step = self._step(surface, name, obj)
        self._settle(step, call())

    def run_with(
        self,
        surface: Surface,
        name: str,
        registrar: Callable[..., object],
        kwargs: dict[str, Any],
        obj: object = None,
    ) -> None:
        """:meth:`run` of ``registrar(**kwargs)`` (no closure to build for each call)."""
        step = self._step(surface, name, obj)
        self._settle(step, registrar(**kwargs))

    def _step(self, surface: Surface, name: str, obj: object) -> _Step:
        if self._manager is None and not self._ledger and surface != "receipt":
            undo: _Undo | None = None  # _undo_for's _NoUndo(_NO_UNDO), without the object
        else:
            try:
                undo = self._undo_for(surface, name, obj)
            except Exception:  # a host table that cannot be read is not the kit's to edit
                undo = _NoUndo("the host's tables could not be read to undo it")
        step = _Step(surface, name, undo)
        self._steps.append(step)  # first: a call that raises may have stored something
        return step

    def _settle(self, step: _Step, result: object) -> None:
        if result is not None and callable(getattr(result, "dispose", None)):
            step.undo = _Handle(result)
            self._handles = True
        elif step.undo is not None:
            step.undo.settle(result)
        if result is None and step.surface == "tool" and (self._ledger or self._handles):
            # a host whose registrars return handles returns None for a tool it refused
            # (upstream: a name a built-in holds; hermes_cli/plugins.py L483-486 @00067189)
            raise ToolRefusedError(step.name)
        step.done = True

    def _table(self, attribute: str) -> dict[Any, Any] | None:
        table = getattr(self._manager, attribute, None)
        return table if isinstance(table, dict) else None  # pyright: ignore[reportUnknownVariableType]

    def _undo_for(self, surface: Surface, name: str, obj: object) -> _Undo:
        if surface == "receipt":
            return _NoUndo("")  # nothing registered
        if self._ledger:  # a handle will say how to undo it; else the ledger does
            ledger = self._table("_ownership_ledger")
            key = getattr(self._ctx, "plugin_id", None)
            if ledger is None or not isinstance(key, str):
                return _NoUndo("")
            return _Ledgered(ledger, key)
        if self._manager is None:
            return _NoUndo(_NO_UNDO)
        if surface == "tool":
            registry = loaded("tools.registry", "registry")
            if not callable(getattr(registry, "get_entry", None)) or not callable(
                getattr(registry, "deregister", None)
            ):
                return _NoUndo("hermes' tool registry is not loaded, so it cannot be asked")
            return _Tool(registry, getattr(self._manager, "_plugin_tool_names", None), name, obj)
        if surface in ("middleware", "hook"):
            table = self._table("_middleware" if surface == "middleware" else "_hooks")
            return _NoUndo(_NO_UNDO) if table is None else _Callback(table, name, obj)
        if surface == "skill":
            table = self._table("_plugin_skills")
            manifest_name = getattr(getattr(self._ctx, "manifest", None), "name", "")
            remove = getattr(self._manager, "remove_plugin_skill", None)  # public in 0.19.0
            key = f"{manifest_name}:{name}"  # hermes 0.19.0 namespaces skills by manifest name
            return (
                _NoUndo(_NO_UNDO)
                if table is None
                else _Entry(table, key, remove if callable(remove) else None)
            )
        table = self._table("_plugin_commands" if surface == "command" else "_cli_commands")
        return _NoUndo(_NO_UNDO) if table is None else _Entry(table, name)

    def failure(
        self, exc: BaseException, plugin: str, secrets: tuple[str, ...]
    ) -> PartialRegistrationError:
        """Undo every step, newest first, and describe the failure in one error."""
        failed = next((s.label for s in reversed(self._steps) if not s.done), "the registration")
        rolled_back: list[str] = []
        left: list[str] = []
        for step in reversed(self._steps):
            try:
                outcome = step.take_back()
            except Exception as undo_exc:  # the host refused; keep undoing the rest
                outcome = _Outcome(kept=f"undoing it raised {type(undo_exc).__name__}")
            if outcome.removed:
                rolled_back.append(step.label)
            elif outcome.kept:
                left.append(f"{step.label} ({outcome.kept})")

        def clean(text: str) -> str:
            return redact_text(text, secrets)

        message = (
            f"plugin {plugin!r}: {'logging' if failed == _RECEIPT else 'registering'} {failed}"
            f" failed with {type(exc).__name__}:"
            f" {_error_text(exc, secrets)}. "
            + (f"Rolled back: {', '.join(rolled_back)}. " if rolled_back else "")
            + (
                f"Left registered: {'; '.join(left)}. Fix the cause and restart hermes (what is"
                " left registered stays until then)."
                if left
                else "Nothing is left registered: fix the cause and load the plugin again."
            )
        )
        return PartialRegistrationError(
            clean(message),
            failed=clean(failed),
            rolled_back=tuple(map(clean, rolled_back)),
            left_registered=tuple(map(clean, left)),
        )


def _error_text(exc: BaseException, secrets: tuple[str, ...]) -> str:
    """The exception's message on one line, redacted before it is cut (a cut secret
    could no longer be recognised), reading a bounded part of a huge one."""
    try:
        text = str(exc)
    except Exception:  # a broken __str__ must not hide the failure
        text = ""
    text = " ".join(redact_preview(text, 4 * _ERROR_CHARS, secrets).split()) or "(no message)"
    return text if len(text) <= _ERROR_CHARS else text[: _ERROR_CHARS - 1] + "…"
