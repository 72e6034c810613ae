"""What the in-memory host's stand-in modules share: which hosts are active, the
modules the stand-ins hide, how a stand-in module is made, and how it offers a member only
where the release the host plays has it (:func:`offered`).

``_shims`` builds the stand-ins (with ``_shims_hermes_cli``, ``_shims_tools`` and
``_shims_gateway``) and puts them in and out of ``sys.modules``; this module holds the
state both they and their builders read, so neither imports the other.
"""

from __future__ import annotations

import importlib.machinery
import threading
from collections.abc import Callable, Iterator
from collections.abc import Set as AbstractSet
from contextvars import ContextVar
from types import ModuleType
from typing import Any, Final

from kit_devtools.testing import _real_hermes

SHIM_MARK: Final = "__hermes_plugin_kit_shim__"
"""Set in the namespace of every stand-in module."""

PACKAGES: Final = ("hermes_cli", "tools", "gateway", "gateway.platforms")
"""Parent packages created when not imported yet: empty, with hermes' own submodules
importable under them where hermes is installed, and nothing where it is not."""

MISSING: Final = object()
LOCK = threading.RLock()


def stand_in_module(name: str, doc: str, **attributes: Any) -> ModuleType:
    """A module standing in for hermes' ``name``: ``attributes``, then hermes' own names.

    Where hermes is installed it carries the ``__spec__`` and ``__file__`` of hermes' own
    module, so a plugin that looks for hermes (``importlib.util.find_spec``, ``__file__``)
    finds it as it would in hermes; the spec has no loader, so nothing re-imports it.
    """
    module = ModuleType(name, doc)
    found = _real_hermes.real_spec(name)
    spec = importlib.machinery.ModuleSpec(name, None, origin=found.origin if found else None)
    if found is not None and found.origin:
        spec.has_location = True
        module.__file__ = found.origin
    if found is not None and found.submodule_search_locations is not None:
        spec.submodule_search_locations = list(found.submodule_search_locations)
    module.__spec__ = spec
    module.__dict__.update(attributes)
    module.__dict__[SHIM_MARK] = True
    module.__dict__["__getattr__"] = _real_hermes.fallback(name, lambda: hidden(name))
    return module


def hidden(name: str) -> ModuleType | None:
    """The real module the stand-in ``name`` hides while hosts are active, if any."""
    saved = SAVED.get(name)
    return saved if isinstance(saved, ModuleType) and not vars(saved).get(SHIM_MARK) else None


CURRENT: ContextVar[Any] = ContextVar("hermes_plugin_kit_host", default=None)
SESSION_ID_VARIABLE = "HERMES_SESSION_ID"
SESSION_ID: ContextVar[str] = ContextVar(SESSION_ID_VARIABLE)
SESSION_BINDER = "gateway.session_context.set_current_session_id"
"""What binds the turn's session id to that variable in hermes (called for
``agent.session_id``, from 0.15.0): a release without it binds none (0.13.0 and 0.14.0
declare the variable, and nothing sets it)."""
ACTIVE: list[Any] = []
"""Hosts active now, in activation order (any thread)."""
SAVED: dict[str, Any] = {}
CREATED: list[str] = []


def current_host() -> Any:
    """The host this call runs under: this context's, else the latest activated one
    (for threads a plugin starts without copying the context)."""
    host = CURRENT.get()
    if host is not None:
        return host
    if ACTIVE:
        return ACTIVE[-1]
    msg = "no in-memory host is active"
    raise RuntimeError(msg)


class CurrentHost:
    """Forwards every attribute to :func:`current_host`, so one set of stand-ins serves
    every host (nested, or active in several threads at once)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(current_host(), name)


VERSIONED: Final = "hermes_cli"
"""The package whose ``__version__`` names the release a host plays."""


class HostHooks(AbstractSet[str]):
    """``hermes_cli.plugins.VALID_HOOKS`` of the release the current host plays."""

    def _names(self) -> frozenset[str]:
        return current_host().release.hooks

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._names()))

    def __len__(self) -> int:
        return len(self._names())

    def __repr__(self) -> str:
        return repr(set(self._names()))


def offered(host: Any, value: Callable[..., Any], has: Callable[[Any], bool]) -> Callable[[], Any]:
    """``value`` where the release the host plays has it (``has(release)``); elsewhere an
    AttributeError, as on that release."""

    def answer() -> Any:
        if not has(host._state.release):
            raise AttributeError(value.__name__)
        return value

    return answer
