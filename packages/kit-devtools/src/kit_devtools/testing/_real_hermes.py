"""hermes' own modules behind the in-memory host's stand-ins, where hermes is installed.

A stand-in answers what the host models (``hermes_cli.plugins``' hooks,
``hermes_cli.config.load_config`` ...). Plugins import more than that from the same
packages while they load: platform adapters take ``BasePlatformAdapter`` from
``gateway.platforms.base`` and ``Platform`` from ``gateway.config``, plugins read
``hermes_cli.config.get_env_value``. In hermes those imports succeed, so where hermes-agent
is installed they succeed here too: a stand-in package searches hermes' own folder for the
submodules it does not stand in for, and a name a stand-in module lacks is read from
hermes' own module, imported on first use (not before: importing ``gateway`` costs
hundreds of milliseconds). Where hermes is not installed they fail as before, the plugin
could not have run without hermes anyway.

The kit's own modules are answered by the stand-ins alone: they ask the host what it can
do (``getattr(registry, "get_entry", None)``, ``BasePlatformAdapter.extract_media``), and
the host they are given is the in-memory one, not whatever hermes is installed beside it.
"""

from __future__ import annotations

import functools
import importlib
import importlib.machinery
import inspect
import sys
import threading
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, Final

from kit_devtools.testing._failure import KIT
from kit_devtools.testing.host_names import hermes_top_level

_MISSING: Final = object()
_LOCK = threading.RLock()
_loaded: dict[str, ModuleType] = {}
"""hermes' modules imported for a fallback while hosts are active; forgotten with the
stand-ins, so each activation reads one consistent set."""
_loading: set[str] = set()
_baseline: set[str] = set()
"""The modules of the process when the stand-ins went in. What hermes imports beyond them
(``hermes_constants``, ``agent``, ``utils`` ...), through a fallback or a submodule found
on a stand-in package's path, is taken out again with the stand-ins: hermes is never left
half-imported for whatever runs next (a real host, a test booting hermes in its own home).
"""


@functools.cache
def hermes_installed() -> bool:
    """Whether hermes is installed, whichever distribution provides it (never imports it)."""
    from kit_core.hermes import installed_distribution

    return installed_distribution() is not None


_SPECS: dict[tuple[str, tuple[str, ...] | None], importlib.machinery.ModuleSpec | None] = {}
"""Specs found, by name and search path: the stand-ins are rebuilt at every first
activation, and hermes' files do not move while a process runs."""


def real_spec(name: str) -> importlib.machinery.ModuleSpec | None:
    """Where hermes' own module ``name`` is, found without importing it (its parent
    package, or the parent's stand-in, must be in ``sys.modules``); None where hermes is
    not installed or has no such module."""
    if not hermes_installed():
        return None
    parent = name.rpartition(".")[0]
    try:
        path = tuple(getattr(sys.modules[parent], "__path__", ())) if parent else None
        key = (name, path)
        if key not in _SPECS:
            _SPECS[key] = importlib.machinery.PathFinder.find_spec(
                name, list(path) if path is not None else None
            )
    except (KeyError, ImportError, ValueError):
        return None
    return _SPECS[key]


def search_path(name: str) -> list[str]:
    """Where hermes' own package ``name`` keeps its submodules: the ``__path__`` of its
    stand-in. Empty where hermes is not installed (nothing is importable under it)."""
    spec = real_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return []
    return list(spec.submodule_search_locations)


def real_module(name: str) -> ModuleType | None:
    """hermes' own module ``name``, imported with its stand-in set aside for the while; None
    where hermes is not installed, lacks it, or it does not import."""
    if name in _loaded or not hermes_installed():
        return _loaded.get(name)
    with _LOCK:
        if name in _loading:  # hermes' module reads its own name while it imports
            return None
        _loading.add(name)
        stand_in = sys.modules.pop(name, None)
        parent_name, _, child = name.rpartition(".")
        parent = sys.modules.get(parent_name) if parent_name else None
        before = vars(parent).get(child, _MISSING) if parent is not None else _MISSING
        try:
            module: ModuleType | None = importlib.import_module(name)
        except Exception:  # not in this hermes, or it fails here: the stand-in has no name
            module = None
        finally:
            sys.modules.pop(name, None)
            if stand_in is not None:
                sys.modules[name] = stand_in
            if parent is not None:  # the import bound hermes' module on the package
                if before is _MISSING:
                    vars(parent).pop(child, None)
                else:
                    setattr(parent, child, before)
            _loading.discard(name)
        if module is not None:
            _loaded[name] = module
        return module


def asked_by_kit() -> bool:
    """Whether the code reading a missing name (two frames up) is the kit's own."""
    frame = inspect.currentframe()
    caller = frame.f_back.f_back if frame is not None and frame.f_back is not None else None
    module = str(caller.f_globals.get("__name__", "")) if caller is not None else ""
    return module.partition(".")[0] in KIT


def fallback(
    name: str,
    saved: Callable[[], ModuleType | None],
    computed: Mapping[str, Callable[[], Any]] | None = None,
) -> Callable[[str], Any]:
    """A module ``__getattr__`` for the stand-in ``name``: a ``computed`` attribute is
    answered by its function (for everyone); what the stand-in does not define is read
    from hermes' module (the one it hides, ``saved()``, or else imported now), except by
    the kit itself."""

    def __getattr__(attribute: str) -> Any:
        if computed is not None and attribute in computed:
            return computed[attribute]()
        real = None
        if not attribute.startswith("__") and not asked_by_kit():
            real = saved() or real_module(name)
        if real is None:
            msg = f"module {name!r} has no attribute {attribute!r}"
            raise AttributeError(msg)
        return getattr(real, attribute)

    return __getattr__


def remember() -> None:
    """Note the modules of the process as the stand-ins go in (see :func:`forget`)."""
    with _LOCK:
        _baseline.clear()
        _baseline.update(sys.modules)


@functools.cache
def _hermes_packages() -> frozenset[str]:
    """The installed hermes-agent's top-level modules and packages (none where it is not
    installed): ``host_names.hermes_top_level``, read once."""
    return hermes_top_level() if hermes_installed() else frozenset()


def forget() -> None:
    """Drop the modules imported for fallbacks (the stand-ins are gone), and every hermes
    module those imports brought into the process."""
    with _LOCK:
        _loaded.clear()
        if _baseline:
            packages = _hermes_packages()
            for name in [n for n in sys.modules if n not in _baseline]:
                if name.partition(".")[0] in packages:
                    del sys.modules[name]
        _baseline.clear()
