"""``load_plugin``: import a plugin directory the way hermes does, without registering it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from kit_core.hermes import PLUGIN_PACKAGE
from kit_devtools.testing._loader import ensure_namespace

__all__ = ["load_plugin"]


def load_plugin(path: str | Path) -> ModuleType:
    """Import a plugin directory (``plugin.yaml`` + ``__init__.py``) the way hermes does.

    The package is imported as ``hermes_plugins.<name>`` (the directory name, ``-`` as
    ``_``) so its relative imports work; an already imported one is returned as it is.
    :meth:`InMemoryHost.load <kit_devtools.testing.InMemoryHost.load>` also
    registers it, with a fresh import.
    """
    directory = Path(path).resolve()
    init = directory / "__init__.py"
    if not init.is_file():
        msg = f"{directory} is not a plugin directory: it has no __init__.py"
        raise FileNotFoundError(msg)
    slug = directory.name.replace("-", "_")
    module_name = f"{PLUGIN_PACKAGE}.{slug}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    ensure_namespace()
    spec = importlib.util.spec_from_file_location(
        module_name, init, submodule_search_locations=[str(directory)]
    )
    if spec is None or spec.loader is None:
        msg = f"cannot load the plugin package at {directory}"
        raise ImportError(msg)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module
