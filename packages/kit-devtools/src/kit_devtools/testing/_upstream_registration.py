"""Upstream hermes' ``PluginRegistration``, for :mod:`_upstream_context`: the handle every
``register_*`` of a release with the registration ledger returns, whose ``dispose()`` takes
the registration back."""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from typing import Any


class PluginRegistration:
    """A handle for one registration (``kind``, ``key``, ``plugin_key``, ``persistent``, as
    hermes' ``PluginRegistration``); ``dispose()`` takes it back (once) and drops it from
    the ledger (``_on_dispose`` -> ``_forget_registrations``)."""

    __slots__ = ("_forget", "_release", "key", "kind", "persistent", "plugin_key")

    def __init__(
        self,
        kind: str,
        key: str,
        release: Callable[[], None],
        plugin_key: str = "",
        *,
        persistent: bool = False,
        forget: Callable[[PluginRegistration], None] | None = None,
    ) -> None:
        self.kind = kind
        self.key = key
        self.plugin_key = plugin_key
        self.persistent = persistent
        self._release: Callable[[], None] | None = release
        self._forget = forget

    def __repr__(self) -> str:
        return (
            f"PluginRegistration(kind={self.kind!r}, key={self.key!r},"
            f" plugin_key={self.plugin_key!r}, persistent={self.persistent!r})"
        )

    @property
    def active(self) -> bool:
        """Whether this handle still owns its registration."""
        return self._release is not None

    def dispose(self) -> None:
        release, self._release = self._release, None
        if release is None:
            return
        try:
            release()
        finally:
            if self._forget is not None:
                self._forget(self)


def taking_back(
    table: MutableMapping[str, Any],
    key: str,
    entry: object,
    previous: object = None,
    removed: Callable[[], object] | None = None,
) -> Callable[[], None]:
    """A handle's release: if ``table[key]`` still is ``entry``, ``previous`` goes back in
    its place, or (None) the key is removed and ``removed()`` called."""

    def release() -> None:
        if table.get(key) is not entry:
            return
        if previous is not None:
            table[key] = previous
            return
        del table[key]
        if removed is not None:
            removed()

    return release
