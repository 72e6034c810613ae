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
  from a package index, a stamp that cannot be read): unknown, which agrees with nothing.

It is the kit's one such check: it compares what is imported (each folder's build, read
once), and walks no ``sys.path`` and no installer records. A refusal names each package
of another build and kit_core's, by folder, the short tree hash and the short commit
the stamp recorded, and the fix. ``hermes-plugin-kit doctor`` loads this module from its
file alone (it is standard library only and imports nothing of the kit) to explain a mix
that refuses to import.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from typing import Final, cast

__all__ = [
    "FIX",
    "PACKAGES",
    "STAMP",
    "build_of",
    "check",
    "checkout_of",
    "confirm",
    "describe",
    "problem",
    "stamp_of",
]

PACKAGES: Final = ("kit_core", "kit_lifecycle", "kit_media", "hermes_plugin_kit", "kit_devtools")
"""The kit's import packages (their distributions are the same names with dashes)."""

STAMP: Final = "_build.json"
_MAX_STAMP: Final = 4096
SHORT: Final = 12
"""Characters of a tree hash or commit shown in a message (git's short form is a prefix)."""

FIX: Final = (
    'install every kit package from one build: `uv add "hermes-plugin-kit @'
    ' git+<repo-url>@<sha>#subdirectory=packages/hermes-plugin-kit"` (uv builds the siblings'
    " from the same commit; without a uv project, `uv pip install --reinstall` it), remove"
    " a copy of the kit vendored into a plugin or put on sys.path ahead of the install, and"
    " never let an installer take a kit package from a package index (pip does for every"
    " sibling it is not given: docs/install.md)"
)


def stamp_of(folder: str) -> dict[str, str] | None:
    """The build stamp of the kit package in ``folder``: its string fields (``tree``, and
    ``version`` and ``commit`` when recorded), or None when it has none, or one that cannot
    be read or names no tree (which says nothing, so it counts as no build).

    Raises:
        OSError: when ``folder`` has no readable ``_build.json``.
    """
    with open(os.path.join(folder, STAMP), "rb") as file:
        raw = file.read(_MAX_STAMP)
    import json  # only for a built install; hermes imports it anyway

    try:
        stamp: object = json.loads(raw)
    except (ValueError, RecursionError):  # ValueError covers bad UTF-8 and bad JSON
        return None
    if not isinstance(stamp, dict):
        return None
    items = cast("dict[object, object]", stamp).items()
    fields = {k: v for k, v in items if isinstance(k, str) and isinstance(v, str)}
    return fields if fields.get("tree") else None


def checkout_of(folder: str) -> str | None:
    """The ``packages`` folder of the workspace checkout ``folder`` is a member's package
    of (``packages/<member>/src/<package>``), or None."""
    src = os.path.dirname(folder)
    member = os.path.dirname(src)
    packages = os.path.dirname(member)
    workspace = os.path.dirname(packages)
    if (
        os.path.basename(src) == "src"
        and os.path.isfile(os.path.join(member, "pyproject.toml"))
        and os.path.isfile(os.path.join(workspace, "pyproject.toml"))
    ):
        return packages
    return None


def build_of(folder: str) -> str | None:
    """The build of the kit package in ``folder``: ``"build <tree hash>"``, ``"checkout
    <packages folder>"``, or None when nothing says (see the module docstring)."""
    try:
        stamp = stamp_of(folder)
    except OSError:
        packages = checkout_of(folder)
        return None if packages is None else f"checkout {packages}"
    return None if stamp is None else f"build {stamp['tree']}"


def _folder_of(name: str) -> str | None:
    """Where ``name`` is imported from: its module's folder when imported, else where the
    import system would find it (without importing it); None when it is not installed."""
    path = getattr(sys.modules.get(name), "__file__", None)
    if not isinstance(path, str):
        try:  # a top-level name: found, never imported
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            return None
        path = spec.origin if spec is not None else None
    return os.path.dirname(os.path.abspath(path)) if isinstance(path, str) else None


def describe(folder: str, build: str | None) -> str:
    """``build`` (of ``folder``) as a reader knows it: ``build <tree hash> of commit
    <commit>`` (both 12 characters; the commit when the stamp recorded one), ``checkout
    <packages folder>``, or why it is of no build."""
    if build is None:
        if os.path.lexists(os.path.join(folder, STAMP)):
            return (
                f"no build of this kit's (its {STAMP} cannot be read or names no tree: a"
                " damaged or hand-made copy)"
            )
        return f"no build of this kit's (no {STAMP}, not in a checkout)"
    kind, _, ident = build.partition(" ")
    if kind != "build":
        return build
    try:
        commit = (stamp_of(folder) or {}).get("commit", "")
    except OSError:  # pragma: no cover - the stamp was read a moment ago
        commit = ""
    described = f"build {ident[:SHORT]}"
    return f"{described} of commit {commit[:SHORT]}" if commit else described


def refusal(
    who: str, others: list[tuple[str, str, str | None]], core: str, mine: str | None
) -> str:
    """Why ``who`` cannot start: each kit package of ``others`` (name, folder, build) is not
    of kit_core's build (``mine``, of the folder ``core``)."""
    listed = ", ".join(
        f"{name} at {folder} is {describe(folder, build)}" for name, folder, build in others
    )
    return (
        f"{who} cannot start: {listed}, but kit_core at {core} is {describe(core, mine)};"
        " plugins share one environment, and the kit packages must be of one build."
        f" Fix: {FIX}"
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


def problem(core_folder: str) -> str | None:
    """The refusal :func:`check` raises for ``kit_core`` in ``core_folder`` (every installed
    sibling of another build, named with both builds), or None when there is none."""
    mine = _build_in(core_folder)
    others = [
        (name, folder, theirs)
        for name in PACKAGES[1:]
        if (folder := _folder_of(name)) is not None
        and ((theirs := _build_in(folder)) is None or theirs != mine)
    ]
    return refusal("kit_core", others, core_folder, mine) if others else None


def check(file: str) -> None:
    """At ``kit_core``'s import (its ``__file__``): refuse every installed sibling of
    another build.

    Raises:
        ImportError: naming each such sibling, both folders and builds, and the fix.
    """
    core_folder = os.path.dirname(os.path.abspath(file))
    refused = problem(core_folder)
    if refused is not None:
        raise ImportError(refused)
    _core[:] = [(core_folder, _build_in(core_folder))]


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
        raise ImportError(refusal(name, [(name, folder, theirs)], core, mine))
