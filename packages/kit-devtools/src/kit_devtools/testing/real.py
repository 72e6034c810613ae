"""``RealHost``: a plugin loaded by hermes' own plugin manager, in a process of its own.

The same test API as :class:`~kit_devtools.testing.InMemoryHost`, answered by real
hermes-agent: a worker process (``_real_worker.py``) runs the chosen environment's
Python with a fresh temporary ``HERMES_HOME``, the plugin directories copied into its
``plugins/`` and enabled in its ``config.yaml``, and imports ``model_tools`` as the CLI
and the gateway do (hermes' discovery loads the plugins). Requests and answers are JSON
lines; an answer that is not JSON comes back as its ``repr``.

What hermes does not offer publicly is read from its plugin manager's records (names
credited to each plugin, the registered hooks, middleware and commands); ``register()``'s
return value, which hermes discards, is recorded by wrapping the plugin module's
``register`` as hermes imports it: the kit's :class:`~kit_lifecycle.RegistrationSummary`
comes back as a dict (``RealPlugin.returned``). What the plugin prints while hermes
answers a call (a tool, a hook, a slash or CLI command) is printed on this process's
standard output, as it is when the in-memory host runs the plugin in-process (a test's
``capsys`` reads it); what it prints while hermes starts is in :meth:`RealHost.stderr_tail`.
Not available: plugin module objects and
exceptions (only their type and message cross the process boundary), ``activate()``,
``send_message`` recording, provisions, and in-process callbacks.

The worker's start, its requests and answers, and its end are
:mod:`~kit_devtools.testing._real_process`'s (``RealHost`` gets them from its mixin).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final

from kit_core.hermes import MANIFEST_FILES, release_label
from kit_devtools.testing import _warm_hermes
from kit_devtools.testing._failure import PluginLoadError
from kit_devtools.testing._real_process import SCRUBBED as SCRUBBED
from kit_devtools.testing._real_process import STDERR_TAIL as STDERR_TAIL
from kit_devtools.testing._real_process import (
    WORKER,
    RealHostCallError,
    RealHostDied,
    WorkerProcess,
    environment,
)

__all__ = ["RealHost", "RealHostCallError", "RealHostDied", "RealPlugin"]

TIMEOUT: Final = 300.0
"""Seconds the worker may take to start (import hermes, discover) or to answer."""


@dataclass(frozen=True, slots=True)
class RealPlugin:
    """What hermes made of one plugin: its ``list_plugins()`` entry, the names its
    manager credited, and what ``register()`` returned (None when it returned None)."""

    key: str
    name: str
    path: Path
    enabled: bool
    error: str | None
    tools: tuple[str, ...] = ()
    hooks: tuple[str, ...] = ()
    middleware: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    listed: Mapping[str, Any] = field(default_factory=dict[str, Any])
    returned: Any = None


class RealHost(WorkerProcess):
    """Real hermes-agent, with plugins loaded through its own plugin manager.

    Args:
        python: the interpreter of the environment hermes-agent is installed in (by
            default this one).
        config: more of the home's ``config.yaml``, merged with what the host writes
            (see :func:`~kit_devtools.testing._real_process._home_config`):
            ``plugins.entries`` and the rest of ``plugins`` are kept, and
            ``plugins.enabled`` lists the loaded plugins after any named.
        prepare: called with each plugin directory before hermes loads it (the pytest
            fixture installs the plugin's project into a release's environment there).
        timeout: seconds the worker may take to start or to answer one request; then it
            is killed and :class:`RealHostDied` says so.
        warm: fork each worker from a process that imported hermes once
            (:mod:`~kit_devtools.testing._warm_hermes`; a start then costs discovery
            only, about a fifth of a fresh one); False: a fresh process every start.

    ``load()`` raises :class:`PluginLoadError` when hermes does not load the plugin (as
    the strict ``plugin_host``). Each ``load()`` starts a new worker with every plugin
    loaded so far (hermes discovers once per process), forked from a warm process that
    imported hermes once (``warm``). :meth:`close` ends the worker and every process a
    plugin started (the worker leads a process group of its own).
    """

    def __init__(
        self,
        python: str | Path | None = None,
        *,
        config: Mapping[str, Any] | None = None,
        prepare: Callable[[Path], None] | None = None,
        timeout: float = TIMEOUT,
        warm: bool = True,
    ) -> None:
        self.python = str(python or sys.executable)
        self.timeout = timeout
        self._prepare = prepare
        self._config = dict(config or {})
        self._warm = (
            _warm_hermes.lease(self.python, WORKER, self._config, environment()) if warm else None
        )
        self._home = (
            self._warm.home
            if self._warm is not None
            else Path(tempfile.mkdtemp(prefix="hermes-real-host-"))
        )
        self._directories: list[tuple[Path, str]] = []
        self._entry_points: list[str] = []
        self._process: subprocess.Popen[str] | _warm_hermes.Forked | None = None
        self._stderr: IO[str] | None = None
        self._plugins: dict[str, RealPlugin] = {}
        self._gone: str | None = None
        """Why the last worker ended unasked (it exited, or was killed for a timeout)."""
        self.version: str | None = None
        """The hermes release (``0.21.3``), from the version the worker reports (after the
        first load)."""
        self.package_version: str | None = None
        """The version as hermes reports it: a packaging's own (``0.21.3.post1``)."""

    def __repr__(self) -> str:
        return f"RealHost(python={self.python!r}, hermes={self.version!r})"

    @property
    def hermes_home(self) -> Path:
        return self._home

    def close(self) -> None:
        """End the worker and remove the temporary hermes home (a warm process's home is
        put back as its import left it, for the next host)."""
        self._stop()
        warm, self._warm = self._warm, None
        if warm is not None:
            _warm_hermes.give_back(warm)
        else:
            shutil.rmtree(self._home, ignore_errors=True)

    def __enter__(self) -> RealHost:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- loading ---------------------------------------------------------------------------

    def load(self, target: str | Path) -> RealPlugin:
        """Install the plugin directory ``target`` as an operator does and let hermes
        load it; raises :class:`PluginLoadError` when hermes did not."""
        directory = Path(target).resolve()
        if not any((directory / file).is_file() for file in MANIFEST_FILES):
            raise LookupError(f"{directory} is not a plugin directory (no plugin.yaml)")
        name = self._install(directory)
        loaded = self._start_and_read()
        plugin = next((p for p in self._plugins.values() if p.path == directory), None)
        if plugin is None:
            raise PluginLoadError(
                f"hermes did not discover {directory} (no plugin.yaml it reads, or it was"
                f" not enabled as {name!r}); hermes listed {sorted(loaded)}"
            )
        if not plugin.enabled:
            raise PluginLoadError(
                f"{release_label(self.package_version)} did not load plugin {plugin.name!r}:"
                f" {plugin.error}"
                f"\nthe end of hermes' log:\n{self.stderr_tail()}"
            )
        return plugin

    def load_all(
        self, targets: Sequence[str | Path], *, entry_points: Sequence[str] = ()
    ) -> dict[Path, RealPlugin]:
        """Install the plugin directories ``targets``, enable the installed entry points
        named ``entry_points`` (``hermes_agent.plugins``), and let hermes discover them in
        one start; never raises for a plugin hermes refuses. Returns what hermes made of
        each directory it discovered (enabled or not); one it did not discover is absent
        (an entry point's record is in :attr:`plugins`)."""
        for target in targets:
            self._install(Path(target).resolve())
        self._entry_points.extend(entry_points)
        self._start_and_read()
        return {p.path: p for p in self._plugins.values() if p.path != Path()}

    def _install(self, directory: Path) -> str:
        """Install ``directory`` as an operator does and enable it under the name hermes
        keys it by (its manifest's ``name`` when that is a string, else the folder's);
        returns that name."""
        from kit_devtools.testing._loader import directory_manifest  # PyYAML: on first use

        data, _ = directory_manifest(directory)
        raw = data.get("name", directory.name)
        name = raw if isinstance(raw, str) else directory.name
        if self._prepare is not None:
            self._prepare(directory)
        self._directories.append((directory, name))
        return name

    def _start_and_read(self) -> dict[str, Any]:
        """Start hermes with every plugin so far and read what it made of each."""
        self._start()
        loaded: dict[str, Any] = self._ask("loaded")
        self._plugins = {k: _plugin(k, info, self._path_of(k, info)) for k, info in loaded.items()}
        return loaded

    def _path_of(self, key: str, info: Mapping[str, Any]) -> Path:
        name = str(info.get("listed", {}).get("name", key))
        for directory, manifest_name in self._directories:
            if key in (directory.name, manifest_name) or name == manifest_name:
                return directory
        return Path()

    @property
    def plugins(self) -> Mapping[str, RealPlugin]:
        """What hermes made of each plugin it discovered, by key."""
        return dict(self._plugins)

    # -- what was registered ---------------------------------------------------------------

    def registered(self) -> dict[str, Any]:
        """What the loaded plugins registered, read afresh from hermes' plugin manager:
        ``tools`` (name -> toolset), ``hooks`` and ``middleware`` (name -> number of
        callbacks hermes holds under it, a bundled plugin's included: hermes does not
        record whose a callback is), ``commands`` and ``cli_commands`` (name -> what
        hermes stored but the handler), ``skills`` (qualified names). hermes' bundled
        plugins' own registrations are left out."""
        return self._ask("registered")

    @property
    def tools(self) -> Mapping[str, str]:
        return dict(self.registered()["tools"])

    @property
    def hooks(self) -> Mapping[str, int]:
        return dict(self.registered()["hooks"])

    @property
    def middleware(self) -> Mapping[str, int]:
        return dict(self.registered()["middleware"])

    @property
    def commands(self) -> Mapping[str, Mapping[str, Any]]:
        return dict(self.registered()["commands"])

    @property
    def cli_commands(self) -> Mapping[str, Mapping[str, Any]]:
        return dict(self.registered()["cli_commands"])

    @property
    def skills(self) -> tuple[str, ...]:
        return tuple(self.registered()["skills"])

    # -- calls ------------------------------------------------------------------------------

    def definitions(self, toolsets: Sequence[str] | None = None) -> list[dict[str, Any]]:
        """The plugins' tools as the model receives them (``get_tool_definitions``),
        sorted by name; only the tools of ``toolsets`` when given. On a release that sends
        the tool-search bridge by default (0.20.0 on) these are the schemas the model gets
        from ``tool_describe``, and directly with the bridge switched off
        (``tools.tool_search.enabled: off``), never the bridge itself."""
        return self._ask("definitions", toolsets=None if toolsets is None else list(toolsets))

    def call_tool(self, name: str, args: Any, **context: Any) -> Any:
        """One tool call through ``model_tools.handle_function_call`` (hooks, middleware,
        dispatch); ``context``: ``task_id``, ``session_id``, ``tool_call_id`` ..."""
        return self._ask("call_tool", name=name, args=args, context=context)

    def invoke_hook(self, hook_name: str, **kwargs: Any) -> list[Any]:
        """``hermes_cli.plugins.invoke_hook``: the callbacks' non-None results."""
        return self._ask("invoke_hook", name=hook_name, kwargs=kwargs)

    def run_command(self, name: str, raw_args: str = "") -> Any:
        """Slash command ``/name raw_args`` through hermes' registry of plugin commands
        (``get_plugin_command_handler``, ``resolve_plugin_command_result``); KeyError for
        an unknown name."""
        return self._ask("run_command", name=name, raw_args=raw_args)

    def memory_contract(self, target: str | Path, *, bound: float) -> dict[str, Any] | None:
        """Install the memory-provider directory ``target`` as an operator does, let hermes'
        memory discovery load it (``plugins.memory.load_memory_provider``, as
        ``memory.provider: <folder>`` does) and drive it through hermes' own
        ``MemoryManager`` in the lifecycle of the release
        (:mod:`~kit_devtools.testing._memory_drive`): the members driven and the violations,
        or None when discovery gives no provider. Each call starts hermes afresh."""
        (found,) = self.memory_contracts([target], bound=bound)
        return found

    def memory_contracts(
        self, targets: Sequence[str | Path], *, bound: float
    ) -> list[dict[str, Any] | None]:
        """:meth:`memory_contract` for several directories, installed together and driven
        in one start of hermes, one after the other, each through a ``MemoryManager`` of
        its own; what each gave, in order."""
        from kit_devtools.testing._memory_lifecycle import lifecycle

        directories = [Path(target).resolve() for target in targets]
        names = [d.name for d in directories]
        if len(set(names)) < len(names):
            raise ValueError(
                f"memory providers are keyed by their folder's name, and {names} repeats one:"
                " give each provider a folder of its own name"
            )
        for directory in directories:
            self._install(directory)
        self._start_and_read()
        init_kwargs = list(lifecycle(self.version or "0.0.0").init_kwargs)
        return self._ask("memory_contract", names=names, init_kwargs=init_kwargs, bound=bound)

    def drive_providers(self, kind: str, plugin: str, **options: Any) -> list[dict[str, Any]]:
        """Drive the providers of ``kind`` (``context-engine``, ``tts`` ...) that the plugin
        of key ``plugin`` gave hermes' own registries, with the release's own calls (the
        contract suites' drivers, run in the worker): one result per provider."""
        return self._ask("drive_providers", kind=kind, plugin=plugin, options=options)

    def memory_provider(self, folder: str) -> dict[str, Any] | None:
        """hermes' memory discovery on the installed folder ``folder`` (what
        ``memory.provider: <folder>`` loads, plugin.yaml or not): the provider's ``name``
        and the ``tools`` its memory manager offers, or None when it gets no provider."""
        return self._ask("memory_provider", name=folder)

    def cron_provider(self, folder: str) -> dict[str, Any] | None:
        """hermes' cron discovery on the installed folder ``folder`` (what ``cron.provider:
        <folder>`` loads, 0.18.0 on): the scheduler's ``name``, or None when it gets none."""
        return self._ask("cron_provider", name=folder)

    def run_cli(self, argv: Sequence[str]) -> Any:
        """``hermes <argv>`` against the plugins' terminal commands (the argparse tree
        built as ``hermes_cli.main`` builds it); returns ``args.func(args)``."""
        return self._ask("run_cli", argv=list(argv))


def _plugin(key: str, info: Mapping[str, Any], path: Path) -> RealPlugin:
    listed: Mapping[str, Any] = info.get("listed", {})
    returned: Mapping[str, Any] | None = info.get("returned")
    value = None
    if returned is not None:
        value = returned["value"] if "value" in returned else returned.get("repr")
    return RealPlugin(
        key=key,
        name=str(listed.get("name", key)),
        path=path,
        enabled=bool(listed.get("enabled")),
        error=listed.get("error"),
        listed=dict(listed),
        returned=value,
        **{w: tuple(info.get(w, ())) for w in ("tools", "hooks", "middleware", "commands")},
    )
