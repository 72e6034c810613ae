"""What a plugin actually uses of its host, recorded while ``register(ctx)`` runs.

``compat`` loads the plugin into an :class:`~kit_devtools.testing.InMemoryHost` whose
``PluginContext`` records every public member the plugin reads (a property) or calls (a
method), with the call's arguments: the keywords decide the oldest release whose
signature of that member takes them (``register_tool(..., override=...)`` came with
0.14.0). Calls the context makes to itself are not the plugin's and are not recorded. A
member read with ``getattr(ctx, name, default)`` that the release lacks raises
AttributeError before anything is recorded: a plugin that copes with its absence does
not need it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kit_devtools.testing import InMemoryHost
from kit_devtools.testing.context import HostContext

__all__ = ["ContextCall", "Recorder", "RecordingHost"]

_NOT_THE_PLUGINS = frozenset({"manifest"})
"""Public attributes every context has and no release added (``ctx.manifest``)."""


@dataclass(frozen=True, slots=True)
class ContextCall:
    """One use of a ``PluginContext`` member: a property read, or a call."""

    member: str
    called: bool
    positional: int = 0
    keywords: tuple[str, ...] = ()
    arguments: tuple[Any, ...] = ()
    keyword_values: Mapping[str, Any] = field(default_factory=dict[str, Any])


@dataclass
class Recorder:
    """The uses of one context, in order."""

    calls: list[ContextCall] = field(default_factory=list[ContextCall])
    missing: list[str] = field(default_factory=list[str])
    """Public members the plugin looked up that the context lacks, in order."""
    depth: int = 0

    def wrap(self, member: str, method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        def recorded(*args: Any, **kwargs: Any) -> Any:
            self.calls.append(
                ContextCall(member, True, len(args), tuple(kwargs), tuple(args), dict(kwargs))
            )
            self.depth += 1
            try:
                return method(*args, **kwargs)
            finally:
                self.depth -= 1

        return recorded


def _recording_class(base: type[HostContext]) -> type[HostContext]:
    class Recording(base):
        def __getattribute__(self, name: str) -> Any:
            recorder: Recorder = object.__getattribute__(self, "_compat_recorder")
            try:
                value = super().__getattribute__(name)
            except AttributeError:
                if not name.startswith("_") and not recorder.depth:
                    recorder.missing.append(name)
                raise
            if name.startswith("_") or name in _NOT_THE_PLUGINS:
                return value
            if recorder.depth:
                return value
            if isinstance(getattr(type(self), name, None), property) or not callable(value):
                recorder.calls.append(ContextCall(name, False))
                return value
            return recorder.wrap(name, value)

    Recording.__name__ = Recording.__qualname__ = base.__name__
    return Recording


class RecordingHost(InMemoryHost):
    """An in-memory host whose plugin contexts record what the plugin uses of them."""

    def __init__(self, recorder: Recorder, **options: Any) -> None:
        super().__init__(**options)
        self.recorder = recorder

    def _context(self, manifest: Any, data: Mapping[str, Any]) -> HostContext:
        ctx = super()._context(manifest, data)
        object.__setattr__(ctx, "_compat_recorder", self.recorder)
        object.__setattr__(ctx, "__class__", _recording_class(type(ctx)))
        return ctx
