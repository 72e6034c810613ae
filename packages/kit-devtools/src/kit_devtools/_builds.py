"""Which build each installed kit package is of, read as ``kit_core`` reads it at import,
for ``hermes-plugin-kit doctor``.

``kit_core``'s import refuses a mix of builds (``kit_core._build``), and that refusal is
what doctor must explain, so nothing here imports the façade or ``kit_core``: its
``_build.py`` is standard library only and imports nothing of the kit, and is loaded
from its file on its own (unless ``kit_core`` is already imported). This module is
standard library only too, so the ``hermes-plugin-kit`` entry point can report on an
install whose ``kit_core`` refuses to import.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tomllib
from types import ModuleType
from typing import Any, Final, cast

BUILD_MODULE: Final = "kit_core._build"
STANDALONE: Final = "kit_devtools._kit_build"
FOREIGN_STANDALONE: Final = "kit_devtools._kit_foreign_core"
RUNTIME: Final = ("kit-core", "kit-lifecycle", "kit-media", "hermes-plugin-kit")
"""The distributions the façade needs: a missing one is a problem (kit-devtools, running
this, is installed)."""


def core_folder() -> str | None:
    """The folder ``kit_core`` is (or would be) imported from, without importing it."""
    module = sys.modules.get("kit_core")
    path = getattr(module, "__file__", None) if module is not None else None
    if not isinstance(path, str):
        spec = importlib.util.find_spec("kit_core")
        path = spec.origin if spec is not None else None
    return os.path.dirname(os.path.abspath(path)) if isinstance(path, str) else None


def _alone(path: str | None, name: str) -> ModuleType | None:
    """The module in the file ``path``, loaded on its own as ``name`` (once per process,
    as an import would keep it); None when there is no such file."""
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    if path is None or not os.path.isfile(path):
        return None
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py path always has one
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules[name] = module
    return module


def build_check() -> ModuleType | None:
    """``kit_core._build``, loaded from its file alone unless ``kit_core`` is imported;
    None when ``kit_core`` is not installed or is not this kit's (it has no ``_build.py``)."""
    folder = core_folder()
    path = os.path.join(folder, "_build.py") if folder is not None else None
    return sys.modules.get(BUILD_MODULE) or _alone(path, STANDALONE)


def foreign_core_check() -> ModuleType | None:
    """The façade's check of a ``kit_core`` that is not this kit's
    (``hermes_plugin_kit._foreign_core``), loaded from its file alone: importing the
    façade would raise it. None when the façade is not installed."""
    spec = importlib.util.find_spec("hermes_plugin_kit")  # finds, does not run, __init__
    places = spec.submodule_search_locations if spec is not None else None
    path = os.path.join(next(iter(places)), "_foreign_core.py") if places else None
    return _alone(path, FOREIGN_STANDALONE)


def version_of(check: Any, folder: str) -> str:
    """The version a kit package's folder says: its stamp's (a wheel), its member's
    ``pyproject.toml`` (a checkout), or ``version unknown``."""
    found: dict[str, Any] | None
    try:
        found = check.stamp_of(folder)
    except OSError:
        found = None
        if check.checkout_of(folder) is not None:
            try:
                with open(os.path.join(folder, "..", "..", "pyproject.toml"), "rb") as file:
                    project = tomllib.load(file).get("project")
            except (OSError, ValueError):
                project = None
            found = cast("dict[str, Any]", project) if isinstance(project, dict) else None
    version = found.get("version") if found is not None else None
    return version if isinstance(version, str) and version else "version unknown"


def report() -> tuple[list[str], str | None]:
    """A line for each kit package (its version, its build and its folder), and the
    problem: the refusal ``kit_core``'s import raises, a missing runtime package, or a
    ``kit_core`` that is not this kit's. None when there is none."""
    check: Any = build_check()
    if check is None:
        folder = core_folder()
        where = f"the kit_core at {folder}" if folder else "no kit_core"
        foreign = foreign_core_check()
        problem = (
            foreign.problem()
            if foreign is not None
            else f"{where} is not hermes-plugin-kit's kit-core, and hermes-plugin-kit is not"
            " installed: install hermes-plugin-kit[dev] (docs/install.md)"
        )
        return [f"kit-core: {where}, not this kit's"], problem
    lines: list[str] = []
    missing: list[str] = []
    for package in check.PACKAGES:
        dist = package.replace("_", "-")
        folder = check._folder_of(package)
        if folder is None:
            lines.append(f"{dist} not installed")
            if dist in RUNTIME:
                missing.append(dist)
            continue
        described = check.describe(folder, check.build_of(folder))
        lines.append(f"{dist} {version_of(check, folder)} ({described}) at {folder}")
    problem: str | None = None
    if missing:
        problem = f"kit packages missing: {', '.join(missing)}. Fix: {check.FIX}"
    core = core_folder()
    refused = check.problem(core) if core is not None else None
    if refused is not None:
        problem = refused if problem is None else f"{refused}; and {problem}"
    return lines, problem
