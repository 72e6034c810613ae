"""Stand-ins for the hermes modules plugins import lazily, installed only while a host runs.

kit-media (and hand-written plugins) import ``tools.send_message_tool``,
``hermes_cli.plugins``, ``gateway.session_context`` ... at call time. While a host is
active, ``sys.modules`` maps those names to small modules that answer from this host;
afterwards every entry is put back exactly as it was (a real hermes module included),
and nothing imported under a stand-in package is left behind. Where hermes-agent is
installed, what the stand-ins do not model comes from hermes itself (``_real_hermes``).

This module builds the set (:func:`build`) and puts it in and out of ``sys.modules``; the
stand-ins with more than a name or two are made in ``_shims_hermes_cli``,
``_shims_tools`` and ``_shims_gateway``.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Generator
from types import ModuleType
from typing import Any

from kit_devtools.testing import _media, _real_hermes
from kit_devtools.testing._shims_gateway import response_filters_module, session_module
from kit_devtools.testing._shims_hermes_cli import (
    config_module,
    middleware_module,
    plugins_module,
)
from kit_devtools.testing._shims_tools import (
    Registry,
    model_tools_module,
    tool_error,
    tool_result,
)
from kit_devtools.testing._standin_state import (
    ACTIVE,
    CREATED,
    CURRENT,
    LOCK,
    MISSING,
    PACKAGES,
    SAVED,
    SESSION_BINDER,
    SESSION_ID,
    SESSION_ID_VARIABLE,
    VERSIONED,
    CurrentHost,
    current_host,
    hidden,
    stand_in_module,
)


def build(host: Any) -> dict[str, ModuleType]:
    """The stand-in modules, answering from ``host`` (looked up on every call)."""
    return {
        "hermes_cli.plugins": plugins_module(host),
        "hermes_cli.middleware": middleware_module(host),
        "hermes_cli.config": config_module(host),
        "tools.registry": stand_in_module(
            "tools.registry",
            "The in-memory host's stand-in for tools.registry.",
            registry=Registry(host),
            tool_error=tool_error,
            tool_result=tool_result,
        ),
        "tools.send_message_tool": stand_in_module(
            "tools.send_message_tool",
            "The in-memory host's recorded send_message.",
            send_message_tool=lambda args, **kw: _media.send_message(host, args, **kw),  # pyright: ignore[reportUnknownLambdaType]
            _media_caption_split=_media.media_caption_split,
        ),
        "gateway.session_context": session_module(host),
        "gateway.platforms.base": stand_in_module(
            "gateway.platforms.base",
            "The in-memory host's stand-in for hermes' media path policy.",
            validate_media_delivery_path=_media.validate_media_delivery_path,
        ),
        "gateway.response_filters": response_filters_module(host),
        "hermes_constants": stand_in_module(
            "hermes_constants",
            "The in-memory host's stand-in: get_hermes_home() is the calling host's home.",
            # per call, from the host this call runs under (HERMES_HOME is one per process)
            get_hermes_home=lambda: current_host().hermes_home,
        ),
        "model_tools": model_tools_module(host),
    }


def _install() -> None:
    _real_hermes.remember()
    for name in PACKAGES:
        real = sys.modules.get(name)
        if real is not None and name != VERSIONED:
            continue  # hermes' own package stays; its stand-in submodules go in below
        package = stand_in_module(name, "A stand-in package of the in-memory host.")
        package.__path__ = list(getattr(real, "__path__", ())) or _real_hermes.search_path(name)
        if package.__spec__ is not None:
            package.__spec__.submodule_search_locations = package.__path__
        if name == VERSIONED:  # in front of hermes' own package, if imported: the version
            # is the one of the release the current host plays, the rest is hermes'
            vars(package)["__getattr__"] = _real_hermes.fallback(
                name,
                lambda: hidden(VERSIONED),
                {"__version__": lambda: current_host().release.version},
            )
        SAVED[name] = MISSING if real is None else real
        sys.modules[name] = package
        if real is None:
            CREATED.append(name)
    for name, module in build(CurrentHost()).items():
        SAVED[name] = sys.modules.get(name, MISSING)
        sys.modules[name] = module
        parent, _, child = name.rpartition(".")
        if parent in CREATED:
            setattr(sys.modules[parent], child, module)


def _restore() -> None:
    prefixes = tuple(f"{p}." for p in CREATED)
    for name in [n for n in sys.modules if prefixes and n.startswith(prefixes)]:
        if name not in SAVED:
            del sys.modules[name]
    for name, old in reversed(SAVED.items()):
        if old is MISSING:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = old
    SAVED.clear()
    CREATED.clear()
    _real_hermes.forget()


@contextlib.contextmanager
def activated(host: Any) -> Generator[None, None, None]:
    """Make ``host`` the one the stand-ins answer from; install them in ``sys.modules``
    for the first active host and put everything back when the last one finishes.

    A ``HERMES_SESSION_ID`` in the host's ``session_env`` is also bound, for the call, to
    a context variable of that name, as hermes binds the turn's session id: code that
    reads the bound session, as kit-media does to arm suppression, finds it there. Only on
    a release that binds it (:data:`SESSION_BINDER`, from 0.15.0): before, the variable
    stays unset, as there.
    """
    session_id = host.session_env.get(SESSION_ID_VARIABLE)
    binds = SESSION_BINDER in host._state.release.functions
    session_token = SESSION_ID.set(session_id) if binds and isinstance(session_id, str) else None
    token = CURRENT.set(host)
    with LOCK:
        if not ACTIVE:
            _install()
        ACTIVE.append(host)
    try:
        yield
    finally:
        with LOCK:
            for index in range(len(ACTIVE) - 1, -1, -1):
                if ACTIVE[index] is host:
                    del ACTIVE[index]
                    break
            if not ACTIVE:
                _restore()
        try:
            CURRENT.reset(token)
            if session_token is not None:
                SESSION_ID.reset(session_token)
        except ValueError:  # left in another context (a generator closed elsewhere)
            CURRENT.set(None)
