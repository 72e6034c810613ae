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

This module holds the registrar calls of one registration (:class:`Rollback`) and the
error that reports a failure; each kind of undo is :mod:`kit_lifecycle._undo`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, Literal

from kit_core import redact_text
from kit_core._running_host import keeps_ledger, loaded
from kit_core.redaction import redact_preview
from kit_lifecycle._undo import NOTHING, Callback, Entry, Handle, Ledgered, NoUndo, Outcome, Tool
from kit_lifecycle.errors import PartialRegistrationError

if TYPE_CHECKING:
    from kit_lifecycle._undo import Undo

__all__ = ["Rollback", "Surface", "ToolRefusedError"]

Surface = Literal["command", "CLI command", "tool", "middleware", "hook", "skill", "receipt"]

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


class _Step:
    """One registrar call: what it registered, how to undo it (None: this host offers no
    way, the common case of a test double, kept without an object per call), and whether
    it returned."""

    __slots__ = ("done", "name", "surface", "undo")

    def __init__(self, surface: Surface, name: str, undo: Undo | None) -> None:
        self.surface = surface
        self.name = name
        self.undo = undo
        self.done = False

    def take_back(self) -> Outcome:
        """Undo the call as far as the host allows (what ``NoUndo(_NO_UNDO)`` does for a
        step without an undo: a call that returned is reported kept)."""
        if self.undo is None:
            return Outcome(kept=_NO_UNDO) if self.done else NOTHING
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
            undo: Undo | None = None  # _undo_for's NoUndo(_NO_UNDO), without the object
        else:
            try:
                undo = self._undo_for(surface, name, obj)
            except Exception:  # a host table that cannot be read is not the kit's to edit
                undo = NoUndo("the host's tables could not be read to undo it")
        step = _Step(surface, name, undo)
        self._steps.append(step)  # first: a call that raises may have stored something
        return step

    def _settle(self, step: _Step, result: object) -> None:
        if result is not None and callable(getattr(result, "dispose", None)):
            step.undo = Handle(result)
            self._handles = True
        elif step.undo is not None:
            step.undo.settle(result)
        if result is None and step.surface == "tool" and (self._ledger or self._handles):
            # a host whose registrars return handles returns None for a tool it refused
            # (upstream: a name a built-in holds; hermes_cli.plugins.PluginContext.register_tool)
            raise ToolRefusedError(step.name)
        step.done = True

    def _table(self, attribute: str) -> dict[Any, Any] | None:
        table = getattr(self._manager, attribute, None)
        return table if isinstance(table, dict) else None  # pyright: ignore[reportUnknownVariableType]

    def _undo_for(self, surface: Surface, name: str, obj: object) -> Undo:
        if surface == "receipt":
            return NoUndo("")  # nothing registered
        if self._ledger:  # a handle will say how to undo it; else the ledger does
            ledger = self._table("_ownership_ledger")
            key = getattr(self._ctx, "plugin_id", None)
            if ledger is None or not isinstance(key, str):
                return NoUndo("")
            return Ledgered(ledger, key)
        if self._manager is None:
            return NoUndo(_NO_UNDO)
        if surface == "tool":
            registry = loaded("tools.registry", "registry")
            if not callable(getattr(registry, "get_entry", None)) or not callable(
                getattr(registry, "deregister", None)
            ):
                return NoUndo("hermes' tool registry is not loaded, so it cannot be asked")
            return Tool(registry, getattr(self._manager, "_plugin_tool_names", None), name, obj)
        if surface in ("middleware", "hook"):
            table = self._table("_middleware" if surface == "middleware" else "_hooks")
            return NoUndo(_NO_UNDO) if table is None else Callback(table, name, obj)
        if surface == "skill":
            table = self._table("_plugin_skills")
            manifest_name = getattr(getattr(self._ctx, "manifest", None), "name", "")
            remove = getattr(self._manager, "remove_plugin_skill", None)  # public in 0.19.0
            key = f"{manifest_name}:{name}"  # hermes 0.19.0 namespaces skills by manifest name
            return (
                NoUndo(_NO_UNDO)
                if table is None
                else Entry(table, key, remove if callable(remove) else None)
            )
        table = self._table("_plugin_commands" if surface == "command" else "_cli_commands")
        return NoUndo(_NO_UNDO) if table is None else Entry(table, name)

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
                outcome = Outcome(kept=f"undoing it raised {type(undo_exc).__name__}")
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
