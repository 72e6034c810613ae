"""Test helpers for plugin authors: load a plugin and record what it registers.

:class:`RecordingContext` stands in for the ``PluginContext`` hermes-agent
hands to ``register(ctx)``: its ``register_tool`` has the host's signature, it
keeps every registration, shows each tool exactly as the model receives it, and
calls tools the way the host's registry does.
"""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["RecordingContext", "RegisteredTool", "load_plugin"]


@dataclass(frozen=True, slots=True)
class RegisteredTool:
    """One ``register_tool`` call, with the host's parameter names."""

    name: str
    toolset: str
    schema: dict[str, Any]
    handler: Callable[..., Any] = field(repr=False)
    check_fn: Callable[[], Any] | None = None
    requires_env: list[str] | None = None
    is_async: bool = False
    description: str = ""
    emoji: str = ""
    override: bool = False


@dataclass(slots=True)
class _Manifest:
    name: str


class RecordingContext:
    """A ``PluginContext`` stand-in that records registrations (tools, for now)."""

    def __init__(self, plugin_name: str = "plugin") -> None:
        self.manifest = _Manifest(plugin_name)
        self.tools: dict[str, RegisteredTool] = {}

    def register_tool(
        self,
        name: str,
        toolset: str,
        schema: dict[str, Any],
        handler: Callable[..., Any],
        check_fn: Callable[[], Any] | None = None,
        requires_env: list[str] | None = None,
        is_async: bool = False,
        description: str = "",
        emoji: str = "",
        override: bool = False,
    ) -> None:
        """Record a tool, as ``PluginContext.register_tool`` of hermes-agent 0.19.0 takes it."""
        self.tools[name] = RegisteredTool(
            name,
            toolset,
            schema,
            handler,
            check_fn,
            requires_env,
            is_async,
            description,
            emoji,
            override,
        )

    def definitions(self) -> list[dict[str, Any]]:
        """Each available tool as the model receives it, sorted by name.

        Like the host, the registered name overrides any name inside the schema, and a
        tool whose ``check_fn`` returns false is left out.
        """
        return [
            {"type": "function", "function": {**entry.schema, "name": entry.name}}
            for _, entry in sorted(self.tools.items())
            if entry.check_fn is None or entry.check_fn()
        ]

    def call(self, name: str, args: Any = None, **kwargs: Any) -> Any:
        """Call a registered tool as the host's registry does (awaiting async handlers)."""
        entry = self.tools[name]
        result = entry.handler(args, **kwargs)
        if entry.is_async:
            return asyncio.run(result)
        return result


def load_plugin(path: str | Path) -> ModuleType:
    """Import a plugin directory (``plugin.yaml`` + ``__init__.py``) the way hermes does.

    The package is imported as ``hermes_plugins.<name>`` so its relative imports work.
    """
    directory = Path(path).resolve()
    init = directory / "__init__.py"
    if not init.is_file():
        msg = f"{directory} is not a plugin directory: it has no __init__.py"
        raise FileNotFoundError(msg)
    slug = directory.name.replace("-", "_")
    module_name = f"hermes_plugins.{slug}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    if "hermes_plugins" not in sys.modules:
        namespace = ModuleType("hermes_plugins")
        namespace.__path__ = []
        sys.modules["hermes_plugins"] = namespace
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
