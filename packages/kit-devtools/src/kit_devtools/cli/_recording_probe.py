"""The capability probe for a plugin hermes' loader refuses by kind (a memory or model
provider): the in-memory host never calls its ``register()``, but catalogue admission does.

Mirrors ``hermes_cli.plugin_validate._PROBE_SCRIPT``: the directory's ``__init__.py`` is
imported as a package of its own, ``register(ctx)`` is called with a context that records
``register_tool``/``register_hook``/``register_middleware`` names (middleware by kind) and
accepts every other call as a no-op, and ``get_config`` answers the default.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

__all__ = ["recording_probe"]


class _Recorder:
    plugin_config: dict[str, Any] = {}  # noqa: RUF012 - what upstream's stub offers
    profile_name = "default"

    def __init__(self) -> None:
        self.recorded: dict[str, list[str]] = {"tools": [], "hooks": [], "middleware": []}

    def register_tool(self, name: object, *_: object, **__: object) -> None:
        self.recorded["tools"].append(str(name))

    def register_hook(self, hook_name: object, _callback: object = None) -> None:
        self.recorded["hooks"].append(str(hook_name))

    def register_middleware(self, kind: object, _callback: object = None) -> None:
        self.recorded["middleware"].append(str(kind))

    def get_config(self, _key: object = None, default: object = None) -> object:
        return default

    def __getattr__(self, _name: str) -> Any:
        def accept(*_: object, **__: object) -> None:
            return None

        return accept


def recording_probe(directory: Path) -> dict[str, list[str]] | str:
    """What ``register()`` registers, or why it did not run (upstream's wording)."""
    name = f"hpk_preflight_probe_{abs(hash(directory))}"
    spec = importlib.util.spec_from_file_location(
        name, directory / "__init__.py", submodule_search_locations=[str(directory)]
    )
    if spec is None or spec.loader is None:
        return "import failed: no loader"
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        try:
            spec.loader.exec_module(module)
        except Exception as exc:
            return f"import failed: {exc}"
        register = getattr(module, "register", None)
        if register is None:
            return "no register() function"
        recorder = _Recorder()
        try:
            register(recorder)
        except Exception as exc:
            return f"register() raised: {exc}"
        return recorder.recorded
    finally:
        for loaded in [m for m in sys.modules if m == name or m.startswith(f"{name}.")]:
            sys.modules.pop(loaded, None)
