"""Which build each kit package is of, and the import-time refusal of a mix.

Every kit package imports ``kit_core`` first, so this check runs before any other kit
code, whichever package a plugin imports: ``kit_core`` compares its own build with the
build of each sibling that would be imported (found as the import system finds it, never
imported for the check), and each sibling, as it is imported, compares the folder it is
really imported from (:func:`confirm`). A sibling of another build is refused before its
code runs.

A package's build is what the folder it is imported from says:

- a wheel's ``<package>/_build.json`` (written by ``packages/build_stamp.py``): the hash of
  the runtime source of the whole workspace it was built from, so wheels of one tree
  agree and wheels of two commits do not, even from one checkout;
- a folder inside a checkout of the workspace (``packages/<member>/src/<package>``, an
  editable install): that checkout;
- anything else (a copy vendored from source, another project's package of the same name
  from a package index): unknown, which agrees with nothing.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from typing import Final

__all__ = ["PACKAGES", "STAMP", "build_of", "check", "confirm"]

PACKAGES: Final = ("kit_core", "kit_lifecycle", "kit_media", "hermes_plugin_kit", "kit_devtools")
"""The kit's import packages (their distributions are the same names with dashes)."""

STAMP: Final = "_build.json"
_MAX_STAMP: Final = 4096

FIX: Final = (
    'install every kit package from one build: `uv add "hermes-plugin-kit @'
    ' git+<repo-url>@<sha>#subdirectory=packages/hermes-plugin-kit"` (uv builds the siblings'
    " from the same commit; without a uv project, `uv pip install --reinstall` it), remove"
    " a copy of the kit vendored into a plugin or put on sys.path ahead of the install, and"
    " never let an installer take a kit package from a package index (pip does for every"
    " sibling it is not given: docs/install.md)"
)


def build_of(folder: str) -> str | None:
    """The build of the kit package in ``folder``: ``"build <tree hash>"``, ``"checkout
    <packages folder>"``, or None when nothing says (see the module docstring)."""
    try:
        with open(os.path.join(folder, STAMP), "rb") as file:
            raw = file.read(_MAX_STAMP)
    except OSError:
        src = os.path.dirname(folder)
        member = os.path.dirname(src)
        packages = os.path.dirname(member)
        workspace = os.path.dirname(packages)
        if (
            os.path.basename(src) == "src"
            and os.path.isfile(os.path.join(member, "pyproject.toml"))
            and os.path.isfile(os.path.join(workspace, "pyproject.toml"))
        ):
            return f"checkout {packages}"
        return None
    import json  # only for a built install; hermes imports it anyway

    try:
        stamp: object = json.loads(raw)
    except ValueError:
        return None
    tree = stamp.get("tree") if isinstance(stamp, dict) else None  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    return f"build {tree}" if isinstance(tree, str) and tree else None


def _folder_of(name: str) -> str | None:
    """Where ``name`` is imported from: its module's folder when imported, else where the
    import system would find it (without importing it); None when it is not installed."""
    module = sys.modules.get(name)
    path = getattr(module, "__file__", None) if module is not None else None
    if not isinstance(path, str):
        try:  # a top-level name: found, never imported
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            return None
        path = spec.origin if spec is not None else None
    return os.path.dirname(os.path.abspath(path)) if isinstance(path, str) else None


def _describe(build: str | None) -> str:
    if build is None:
        return "no build of this kit's (no _build.json, not in a checkout)"
    kind, _, ident = build.partition(" ")
    return f"build {ident[:12]}" if kind == "build" else build


def _refusal(
    who: str, name: str, folder: str, build: str | None, core: str, core_build: str | None
) -> str:
    return (
        f"{who} cannot start: {name} at {folder} is {_describe(build)}, but kit_core at"
        f" {core} is {_describe(core_build)}; plugins share one environment, and the kit"
        f" packages must be of one build. Fix: {FIX}"
    )


_known: dict[str, str | None] = {}
"""The build of each folder read so far: a sibling checked at kit_core's import is not read
again when it is imported."""
_core: list[tuple[str, str | None]] = []
"""kit_core's folder and build, once :func:`check` passed."""


def _build_in(folder: str) -> str | None:
    if folder not in _known:
        _known[folder] = build_of(folder)
    return _known[folder]


def check(file: str) -> None:
    """At ``kit_core``'s import (its ``__file__``): refuse every installed sibling of
    another build.

    Raises:
        ImportError: naming the sibling, both folders and builds, and the fix.
    """
    core_folder = os.path.dirname(os.path.abspath(file))
    mine = _build_in(core_folder)
    for name in PACKAGES[1:]:
        folder = _folder_of(name)
        if folder is None:
            continue
        theirs = _build_in(folder)
        if theirs is None or theirs != mine:
            raise ImportError(_refusal("kit_core", name, folder, theirs, core_folder, mine))
    _core[:] = [(core_folder, mine)]


def confirm(name: str, file: str) -> None:
    """At the import of the kit package ``name`` (its ``__file__``): refuse it when the
    folder it is really imported from is not of ``kit_core``'s build (a copy earlier on
    ``sys.path`` than the one checked, or one a plugin put there since).

    Raises:
        ImportError: as :func:`check`.
    """
    if not _core:  # pragma: no cover - kit_core's check runs before any sibling imports
        return
    [(core, mine)] = _core
    folder = os.path.dirname(os.path.abspath(file))
    theirs = _build_in(folder)
    if theirs is None or theirs != mine:
        raise ImportError(_refusal(name, name, folder, theirs, core, mine))
