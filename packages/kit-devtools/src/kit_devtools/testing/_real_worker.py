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
"traceback": ...}``. What hermes or a plugin prints never goes to the protocol: while a
request is answered, the standard output (file descriptor 1, so a process the plugin
starts too) goes to a file, sent back as the answer's ``"stdout"`` (the parent prints it
on its own standard output, where a test's ``capsys`` reads it, as with the in-memory
host); at any other time (discovery) it goes to stderr.

``--warm CONTROL_FD EXITS`` runs it as a *warm* process instead
(:mod:`~kit_devtools.testing._warm_hermes`): it imports what hermes imports before plugin
discovery (the plugin manager, the tool registry and every built-in tool module, about
three quarters of hermes' start), says ``{"ready": true}`` on the control socket, and then
forks one worker per request. Each forked worker gets its protocol pipes with the request
(``socket.send_fds``), makes hermes' plugin discovery (``import model_tools``) in the home
the parent filled, and answers as above. The warm process reaps its workers and writes
each one's exit code to ``EXITS/<pid>``; it ends when the parent closes the control socket.
Its code is ``_real_warm.py``, loaded beside this file by path.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import importlib
import importlib.util
import inspect
import json
import os
import socket
import sys
import tempfile
import traceback
from collections.abc import Callable, Generator
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
                **{w: sorted(getattr(record, f"{w}_registered", []) or []) for w in _CREDITED},
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
        tools, hooks, middleware = (self.own_credits(w) for w in ("tools", "hooks", "middleware"))
        return {
            "tools": {n: registry.get_toolset_for_tool(n) for n in sorted(tools)},
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

    def definitions(self, toolsets: list[str] | None = None) -> list[dict[str, Any]]:
        plugin_tools = self.own_credits("tools")
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

    def call_tool(self, name: str, args: Any, context: dict[str, Any] | None = None) -> Any:
        return self.model_tools.handle_function_call(name, args, **(context or {}))

    def invoke_hook(self, name: str, kwargs: dict[str, Any] | None = None) -> Any:
        return self.plugins.invoke_hook(name, **(kwargs or {}))

    def run_command(self, name: str, raw_args: str = "") -> Any:
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

    def memory_contract(self, name: str, init_kwargs: list[str], bound: float) -> Any:
        """The memory provider ``name`` of the home, loaded by hermes' memory discovery and
        driven through hermes' own ``MemoryManager`` (``_memory_drive``); None when
        discovery gives no provider. The manager's shutdown drain waits ``bound`` seconds at
        most (a provider still blocking has been judged by then)."""
        drive = _kit_module("kit_devtools.testing._memory_drive")
        provider = importlib.import_module("plugins.memory").load_memory_provider(name)
        if provider is None:
            return None
        manager: Any = importlib.import_module("agent.memory_manager")
        if hasattr(manager, "_SYNC_DRAIN_TIMEOUT_S"):
            manager._SYNC_DRAIN_TIMEOUT_S = min(manager._SYNC_DRAIN_TIMEOUT_S, bound)
        base = importlib.import_module("agent.memory_provider").MemoryProvider
        core = getattr(importlib.import_module("toolsets"), "_HERMES_CORE_TOOLS", ())
        facts = drive.release_facts(base, manager.MemoryManager, core)
        facts["init_kwargs"] = init_kwargs
        try:  # the release's own keywords, where its agent start has a builder of them
            values = drive.release_init(importlib.import_module("agent.agent_init"))
        except Exception:
            values = None
        if values is not None:
            facts["init_values"], facts["init_kwargs"] = values, sorted(values)
        facts["hermes_home"] = str(importlib.import_module("hermes_constants").get_hermes_home())
        probe_args = _sibling("../cli/_probe_args.py")
        return drive.drive(
            provider, manager.MemoryManager(), facts, bound=bound, args_for=probe_args.arguments_for
        )

    def drive_providers(self, kind: str, plugin: str, options: dict[str, Any]) -> Any:
        """The contract suites' driver of ``kind`` on the providers of the plugin ``plugin``
        (kit_devtools' driver modules, imported from beside this file without the rest of
        the kit: they need only the standard library and hermes)."""
        record = getattr(self.manager, "_plugins", {}).get(plugin)
        module = str(getattr(getattr(record, "module", None), "__name__", "") or "")
        drive = _kit_module("kit_devtools.testing._provider_drive")
        return drive.drive_registered(kind, {**options, "module": module})

    def memory_provider(self, name: str) -> dict[str, Any] | None:
        """What hermes' memory discovery gets from the provider folder ``name`` (the path
        ``memory.provider: <name>`` takes: ``plugins.memory.load_memory_provider``) and the
        tools its ``MemoryManager`` offers after ``add_provider``; None for no provider."""
        provider = importlib.import_module("plugins.memory").load_memory_provider(name)
        if provider is None:
            return None
        manager = importlib.import_module("agent.memory_manager").MemoryManager()
        manager.add_provider(provider)
        tools = [str(s.get("name")) for s in manager.get_all_tool_schemas()]
        return {"name": provider.name, "tools": tools}

    def cron_provider(self, name: str) -> dict[str, Any] | None:
        """What hermes' cron discovery gets from the provider folder ``name`` (the path
        ``cron.provider: <name>`` takes: ``plugins.cron_providers.load_cron_scheduler``,
        0.18.0 on); None for no scheduler."""
        module = importlib.import_module("plugins.cron_providers")
        provider = module.load_cron_scheduler(name)
        return None if provider is None else {"name": provider.name}

    def answer(self, request: dict[str, Any]) -> Any:
        op = request.pop("op")
        if op == "exit":
            os._exit(int(request.get("code", 0)))
        if op == "memory_contract":  # several providers, one after the other
            kwargs, bound = list(request["init_kwargs"]), float(request["bound"])
            return [self.memory_contract(n, kwargs, bound) for n in request["names"]]
        if op not in _OPS:
            raise ValueError(f"unknown op {op!r}")
        return getattr(self, op)(**request)


_OPS = frozenset(
    {"memory_provider", "cron_provider", "loaded", "registered", "definitions", "call_tool"}
    | {"invoke_hook", "run_command", "run_cli", "drive_providers"}
)
"""The requests answered by the method of their name, with the request's other keys."""
_CREDITED = ("tools", "hooks", "middleware", "commands")
"""The names a plugin manager's record credits to its plugin (``<what>_registered``)."""


def _sibling(relative: str) -> Any:
    """A standard-library module of the kit at ``relative`` to this file, loaded by path
    (the worker runs by path, with the kit's packages perhaps not importable)."""
    path = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), relative))
    name = "_hpk_" + os.path.splitext(os.path.basename(path))[0]
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def _kit_module(name: str) -> Any:
    """The kit's standard-library module ``name`` (``kit_devtools.testing._...``), imported
    from beside this file without the rest of the kit: ``kit_devtools`` and
    ``kit_devtools.testing`` are made packages of this file's folders (their ``__init__``
    not run) where they are not imported yet, so such modules import one another."""
    testing = os.path.dirname(os.path.abspath(__file__))
    for package_name, folder in (
        ("kit_devtools", os.path.dirname(testing)),
        ("kit_devtools.testing", testing),
    ):
        if package_name not in sys.modules:
            package = type(sys)(package_name)
            package.__path__ = [folder]
            sys.modules[package_name] = package
    return importlib.import_module(name)


def _failure(exc: BaseException) -> dict[str, Any]:
    return {
        "ok": False,
        "type": type(exc).__name__,
        "error": str(exc),
        "traceback": "".join(traceback.format_exception(exc)),
    }


@contextlib.contextmanager
def _printed() -> Generator[list[str], None, None]:
    """Within: what is written to standard output (``sys.stdout`` and file descriptor 1),
    then put back on stderr; the text is the list's one item at the end."""
    found: list[str] = []
    sys.stdout.flush()
    with tempfile.TemporaryFile() as file:
        os.dup2(file.fileno(), 1)
        try:
            yield found
        finally:
            sys.stdout.flush()
            os.dup2(2, 1)
            file.seek(0)
            found.append(file.read().decode("utf-8", errors="replace"))


def main(requests: Any = None) -> None:
    """Discover, then answer each request line of ``requests`` (stdin by default)."""
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)  # prints of hermes and plugins go to stderr, but a request's: _printed
    sys.stdout = os.fdopen(1, "w", encoding="utf-8", errors="replace", buffering=1, closefd=False)

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
    for line in requests if requests is not None else sys.stdin:
        if not line.strip():
            continue
        with _printed() as printed:
            try:
                answer = _encode(worker.answer(json.loads(line)))
            except Exception as exc:
                answer = _failure(exc)
        send({**answer, "stdout": printed[0]} if printed[0] else answer)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--warm"]:  # the warm process (_real_warm.py, loaded by path)
        control = socket.socket(fileno=int(sys.argv[2]))
        _sibling("_real_warm.py").warm(control, sys.argv[3], sys.modules[__name__])
    else:
        main()
