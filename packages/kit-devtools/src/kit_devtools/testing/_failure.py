"""Why a plugin did not load, worded for its author: refusals with their fix, and where
an exception was raised (file, line, the end of the traceback)."""

from __future__ import annotations

import os
import sys
import traceback
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from kit_devtools.testing.entries import LoadedPlugin

__all__ = ["PluginLoadError", "PluginRefused", "load_failure", "where"]

FRAMES: Final = 3
"""Frames of the traceback's end shown: the raising line and what called it."""

KIT: Final = ("kit_core", "kit_lifecycle", "kit_media", "hermes_plugin_kit", "kit_devtools")
"""The kit's packages: their frames (the host's loader, the kit's own checks raising) are
not where the author's code went wrong."""


def _kit_folders() -> tuple[str, ...]:
    paths = [getattr(sys.modules.get(name), "__file__", None) for name in KIT]
    return tuple(os.path.dirname(path) + os.sep for path in paths if isinstance(path, str))


class PluginRefused(Exception):
    """hermes would not load the plugin at all: ``reason`` and the ``fix`` for the author;
    ``error`` is how hermes words it where it lists the plugin (the reason by default)."""

    def __init__(self, reason: str, fix: str, error: str | None = None) -> None:
        super().__init__(f"{reason}; {fix}")
        self.reason = reason
        self.fix = fix
        self.error = reason if error is None else error


class ManifestNotRead(PluginRefused):
    """The kit does not read the plugin's manifest (past the kit's bounds on size and
    aliases): no verdict of hermes', which reads it unbounded."""

    def __init__(self, file: str, why: str, fix: str) -> None:
        super().__init__(f"the kit does not read {file}: {why}", fix)
        self.file = file
        self.why = why


class PluginLoadError(RuntimeError):
    """A strict host's ``load()``: the plugin did not load (the message says why and where)."""


def where(exc: BaseException) -> str:
    """The end of ``exc``'s traceback, innermost last: ``file:line in function: code``
    for up to :data:`FRAMES` frames (a ``SyntaxError`` names its own file and line)."""
    kit = _kit_folders()
    frames = [
        frame
        for frame in traceback.extract_tb(exc.__traceback__)
        # neither the import system's frames nor the kit's
        if not frame.filename.startswith("<frozen ") and not frame.filename.startswith(kit)
    ][-FRAMES:]
    lines = [f"{f.filename}:{f.lineno} in {f.name}: {(f.line or '').strip()}" for f in frames]
    if isinstance(exc, SyntaxError) and exc.filename:
        lines.append(f"{exc.filename}:{exc.lineno}: {(exc.text or '').strip()}")
    return " <- ".join(reversed(lines))


def load_failure(plugin: LoadedPlugin) -> str:
    """Why ``plugin`` did not load, with the fix or the place it failed."""
    head = f"plugin {plugin.key} did not load"
    exc = plugin.exception
    if isinstance(exc, PluginRefused):
        return f"{head}: {exc.reason}. Fix: {exc.fix}"
    if exc is None:
        return f"{head}: {plugin.error}"
    return f"{head}: {type(exc).__name__}: {exc} (at {where(exc)})"
