"""``load_plugin``: import a plugin directory the way hermes does, without registering it."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

from kit_core.hermes import PLUGIN_PACKAGE
from kit_devtools.testing._loader import ensure_namespace, exec_package

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
    no_spec = f"cannot load the plugin package at {directory}"
    return exec_package(module_name, directory, no_spec, forget=sys.modules.pop)
