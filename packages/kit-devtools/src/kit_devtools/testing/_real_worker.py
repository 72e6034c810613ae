"""The worker of :class:`~kit_devtools.testing.real.RealHost`: real hermes in a process of
its own, answering JSON lines.

Run by path (``python _real_worker.py``) with the interpreter of the selected hermes
environment, so it needs only the standard library and hermes: ``HERMES_HOME`` is set by
the parent to a fresh home whose ``plugins/`` holds the plugin directories and whose
``config.yaml`` enables them. Importing ``model_tools`` runs hermes' own discovery, as the
CLI and the gateway do.

Protocol: the worker writes one line ``{"ready": ...}`` after discovery, then answers each
request line ``{"op": ..., ...}`` with one line ``{"ok": true, "value": ...}`` (or
``"repr"`` when the value is not JSON) or ``{"ok": false, "type": ..., "error": ...,
"traceback": ...}``. What hermes or a plugin prints goes to stderr, never to the protocol.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import inspect
import json
import os
import sys
import traceback
from collections.abc import Callable
from typing import Any

_returned: dict[str, Any] = {}
"""What each plugin's ``register()`` returned, by module name."""


def _wrap_register(module: Any) -> Any:
    """Record what ``register()`` returns (hermes discards it): the kit's receipt."""
    register = getattr(module, "register", None)
    if callable(register) and not getattr(register, "_hpk_wrapped", False):
        name = str(getattr(module, "__name__", "?"))

        def recorded(ctx: Any) -> Any:
            value = register(ctx)
            _returned[name] = value
            return value

        recorded._hpk_wrapped = True  # type: ignore[attr-defined]
        module.register = recorded
    return module


def _patch_loader(plugins: Any) -> None:
    manager_type = getattr(plugins, "PluginManager", None)
    for method in ("_load_directory_module", "_load_entrypoint_module"):
        original = getattr(manager_type, method, None)
        if original is None:
            continue

        # whatever else the release passes goes through: 0.20.1 and later call
        # _load_directory_module(manifest, module_name=...)
        def loader(
            self: Any, manifest: Any, *args: Any, _original: Any = original, **kw: Any
        ) -> Any:
            return _wrap_register(_original(self, manifest, *args, **kw))

        setattr(manager_type, method, loader)


def _encode(value: Any) -> dict[str, Any]:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = {"type": type(value).__name__, **dataclasses.asdict(value)}
    try:
        return {"ok": True, "value": json.loads(json.dumps(value))}
    except (TypeError, ValueError):
        return {"ok": True, "repr": repr(value)}


class Worker:
    def __init__(self) -> None:
        plugins = importlib.import_module("hermes_cli.plugins")
        _patch_loader(plugins)
        self.model_tools: Any = importlib.import_module("model_tools")  # discovery
        self.plugins: Any = plugins
        self.manager: Any = plugins.get_plugin_manager()

    def own(self) -> list[Any]:
        """The manager's records of the plugins installed in the home (source ``user``),
        not of hermes' bundled plugins."""
        return [
            record
            for record in getattr(self.manager, "_plugins", {}).values()
            if getattr(getattr(record, "manifest", None), "source", None) == "user"
        ]

    def own_credits(self, what: str) -> set[str]:
        """The names hermes credited to those plugins (``tools``, ``hooks`` ...)."""
        return {str(n) for r in self.own() for n in getattr(r, f"{what}_registered", []) or []}

    def own_tools(self) -> set[str]:
        return self.own_credits("tools")

    def loaded(self) -> dict[str, Any]:
        """Per plugin key: ``list_plugins()``'s entry, the names hermes credited and what
        ``register()`` returned."""
        listed = {info["key"]: info for info in self.manager.list_plugins()}
        found: dict[str, Any] = {}
        for key, record in getattr(self.manager, "_plugins", {}).items():
            module = getattr(record, "module", None)
            name = getattr(module, "__name__", None)
            found[key] = {
                "listed": listed.get(key, {}),
                "tools": sorted(getattr(record, "tools_registered", []) or []),
                "hooks": sorted(getattr(record, "hooks_registered", []) or []),
                "middleware": sorted(getattr(record, "middleware_registered", []) or []),
                "commands": sorted(getattr(record, "commands_registered", []) or []),
                "returned": _encode(_returned[name]) if name in _returned else None,
            }
        return found

    def registered(self) -> dict[str, Any]:
        """The registrations of the home's plugins. Hooks and middleware are counted per
        name over every callback hermes holds (a bundled plugin's too: hermes does not
        record whose a callback is), for the names credited to the home's plugins."""
        manager = self.manager
        registry = importlib.import_module("tools.registry").registry
        names = {str(getattr(getattr(r, "manifest", None), "name", "")) for r in self.own()}
        hooks, middleware = self.own_credits("hooks"), self.own_credits("middleware")
        return {
            "tools": {n: registry.get_toolset_for_tool(n) for n in sorted(self.own_tools())},
            "hooks": {k: len(v) for k, v in getattr(manager, "_hooks", {}).items() if k in hooks},
            "middleware": {
                k: len(v) for k, v in getattr(manager, "_middleware", {}).items() if k in middleware
            },
            "commands": {
                name: {k: v for k, v in entry.items() if k != "handler"}
                for name, entry in getattr(manager, "_plugin_commands", {}).items()
                if entry.get("plugin") in names
            },
            "cli_commands": {
                name: {"help": entry.get("help"), "plugin": entry.get("plugin")}
                for name, entry in getattr(manager, "_cli_commands", {}).items()
                if entry.get("plugin") in names
            },
            "skills": sorted(
                q for q in getattr(manager, "_plugin_skills", {}) if q.partition(":")[0] in names
            ),
        }

    def definitions(self, toolsets: list[str] | None) -> list[dict[str, Any]]:
        plugin_tools = self.own_tools()
        if toolsets is None:  # the plugins' tools, as the in-memory host lists them
            registry = importlib.import_module("tools.registry").registry
            toolsets = sorted({str(registry.get_toolset_for_tool(n)) for n in plugin_tools})
        # From 0.20.0 the default config sends the tool-search bridge in place of plugin
        # tools (tools/tool_search.py assemble_tool_defs); the schemas the model gets are then
        # tool_describe's, read from get_tool_definitions(skip_tool_search_assembly=True)
        # (model_tools.handle_function_call's bridge branch, 0.20.0), the same as with the
        # bridge off. Releases without the keyword have no assembly to skip.
        extra: dict[str, Any] = {}
        get = self.model_tools.get_tool_definitions
        if "skip_tool_search_assembly" in inspect.signature(get).parameters:
            extra["skip_tool_search_assembly"] = True
        found = get(enabled_toolsets=toolsets, quiet_mode=True, **extra)
        chosen = [d for d in found if d["function"]["name"] in plugin_tools]
        return sorted(chosen, key=lambda d: str(d["function"]["name"]))

    def call_tool(self, name: str, args: Any, context: dict[str, Any]) -> Any:
        return self.model_tools.handle_function_call(name, args, **context)

    def invoke_hook(self, name: str, kwargs: dict[str, Any]) -> Any:
        return self.plugins.invoke_hook(name, **kwargs)

    def run_command(self, name: str, raw_args: str) -> Any:
        clean = name.lstrip("/").lower()
        handler = self.plugins.get_plugin_command_handler(clean)
        if handler is None:
            known = sorted(self.plugins.get_plugin_commands())
            raise KeyError(f"no plugin slash command /{clean}; hermes has {known}")
        return self.plugins.resolve_plugin_command_result(handler(raw_args))

    def run_cli(self, argv: list[str]) -> Any:
        """``hermes <argv>`` against the plugins' terminal commands: the argparse tree
        built as ``hermes_cli.main`` builds it from the manager's CLI commands."""
        parser = argparse.ArgumentParser(prog="hermes")
        subparsers = parser.add_subparsers(dest="command")
        for info in getattr(self.manager, "_cli_commands", {}).values():
            sub = subparsers.add_parser(
                info["name"], help=info["help"], description=info.get("description", "")
            )
            info["setup_fn"](sub)
            if info.get("handler_fn") is not None:
                sub.set_defaults(func=info["handler_fn"])
        try:
            parsed = parser.parse_args(argv)
        except SystemExit as exc:
            raise ValueError(f"hermes {' '.join(argv)}: argparse exited {exc.code}") from None
        func: Callable[[Any], Any] | None = getattr(parsed, "func", None)
        if func is None:
            raise KeyError(f"no plugin terminal command in {argv!r}")
        return func(parsed)

    def answer(self, request: dict[str, Any]) -> Any:
        op = request["op"]
        if op == "loaded":
            return self.loaded()
        if op == "registered":
            return self.registered()
        if op == "definitions":
            return self.definitions(request.get("toolsets"))
        if op == "call_tool":
            return self.call_tool(request["name"], request["args"], request.get("context", {}))
        if op == "invoke_hook":
            return self.invoke_hook(request["name"], request.get("kwargs", {}))
        if op == "run_command":
            return self.run_command(request["name"], request.get("raw_args", ""))
        if op == "run_cli":
            return self.run_cli(list(request["argv"]))
        if op == "exit":
            os._exit(int(request.get("code", 0)))
        raise ValueError(f"unknown op {op!r}")


def _failure(exc: BaseException) -> dict[str, Any]:
    return {
        "ok": False,
        "type": type(exc).__name__,
        "error": str(exc),
        "traceback": "".join(traceback.format_exception(exc)),
    }


def main() -> None:
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)  # prints of hermes and plugins go to stderr
    sys.stdout = sys.stderr

    def send(message: dict[str, Any]) -> None:
        protocol.write(json.dumps(message) + "\n")
        protocol.flush()

    try:
        worker = Worker()
        version = getattr(importlib.import_module("hermes_cli"), "__version__", None)
        send({"ready": True, "version": version, "python": sys.version.split()[0]})
    except BaseException as exc:
        send({"ready": False, **_failure(exc)})
        raise
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            send(_encode(worker.answer(json.loads(line))))
        except Exception as exc:
            send(_failure(exc))


if __name__ == "__main__":
    main()
