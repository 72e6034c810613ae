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
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final, cast

from kit_core.hermes import MANIFEST_FILES, plain_version, release_label
from kit_devtools.testing import _warm_hermes
from kit_devtools.testing._failure import PluginLoadError

__all__ = ["RealHost", "RealHostCallError", "RealHostDied", "RealPlugin"]

WORKER: Final = Path(__file__).with_name("_real_worker.py")
SCRUBBED: Final = (
    "HERMES_SAFE_MODE",
    "HERMES_ENABLE_PROJECT_PLUGINS",
    "HERMES_BUNDLED_PLUGINS",
    "HERMES_KANBAN_TASK",
)
"""Variables that would change what hermes discovers (scrubbed here and by ``check --real``)."""
STDERR_TAIL: Final = 25
TIMEOUT: Final = 300.0
"""Seconds the worker may take to start (import hermes, discover) or to answer."""


class RealHostDied(RuntimeError):
    """The hermes worker process exited; the message ends with its stderr."""


class RealHostCallError(RuntimeError):
    """hermes raised while answering; ``type`` names the exception, ``remote_traceback``
    is the worker's traceback."""

    def __init__(self, type_name: str, message: str, remote_traceback: str) -> None:
        super().__init__(f"{type_name}: {message}")
        self.type = type_name
        self.remote_traceback = remote_traceback


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


class RealHost:
    """Real hermes-agent, with plugins loaded through its own plugin manager.

    Args:
        python: the interpreter of the environment hermes-agent is installed in (by
            default this one).
        config: more of the home's ``config.yaml``, merged with what the host writes
            (see :func:`_home_config`): ``plugins.entries`` and the rest of ``plugins``
            are kept, and ``plugins.enabled`` lists the loaded plugins after any named.
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
            _warm_hermes.lease(self.python, WORKER, self._config, _environment()) if warm else None
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

    # -- the worker -------------------------------------------------------------------------

    def _start(self) -> None:
        self._stop()
        self._gone = None
        env = _environment()
        # a warm process may not have finished importing: it reads config.yaml meanwhile
        warm = self._warm if self._warm and self._warm.usable(env, self.timeout) else None
        plugins = self._home / "plugins"
        shutil.rmtree(plugins, ignore_errors=True)
        enabled: set[str] = set(self._entry_points)
        for directory, name in self._directories:
            ignore = _within(directory)
            shutil.copytree(directory, plugins / directory.name, ignore=ignore, symlinks=True)
            enabled |= {directory.name, name}
        config = _home_config(self._config, enabled)
        (self._home / "config.yaml").write_text(json.dumps(config), encoding="utf-8")
        log = self._home / "worker.stderr"
        log.write_text(warm.import_log() if warm else "", encoding="utf-8")
        self._stderr = log.open("a+", encoding="utf-8")
        self._process = warm.fork(log, env) if warm else None
        if self._process is None:
            self._process = subprocess.Popen(
                [self.python, "-P", str(WORKER)],  # -P: the worker's folder is not on sys.path
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                text=True,
                cwd=self._home,
                env={**env, "HERMES_HOME": str(self._home)},
                process_group=0,  # what the plugins start is ended with the worker
            )
        ready = self._receive("start")
        if not ready.get("ready"):
            raise RealHostDied(
                f"hermes failed while importing and discovering plugins: {ready.get('type')}:"
                f" {ready.get('error')}\n{ready.get('traceback', '')}"
            )
        reported = ready.get("version")
        self.package_version = reported if isinstance(reported, str) else None
        self.version = plain_version(reported) if isinstance(reported, str) else None

    def _receive(self, what: str) -> dict[str, Any]:
        assert self._process is not None
        assert self._process.stdout is not None
        # one line answers each request, so nothing waits in the pipe's buffer unread
        ready, _, _ = select.select([self._process.stdout], [], [], self.timeout)
        if not ready:
            self._process.kill()
            self._process.wait()
            why = f"it did not answer {what} within {self.timeout:g} s and was killed"
            raise self._died(why)
        line = self._process.stdout.readline()
        if not line:
            code = self._process.wait()
            raise self._died(f"it exited with code {code} during {what}")
        message: dict[str, Any] = json.loads(line)
        return message

    def _died(self, why: str) -> RealHostDied:
        """The worker is gone: end what it left, and say why with its stderr's end (and
        again at the next request, until a ``load()`` starts a new worker)."""
        tail = self.stderr_tail()
        self._stop()
        self._gone = f"the hermes worker ({self.python}) is gone: {why}"
        return RealHostDied(f"{self._gone}; the end of its stderr:\n{tail}")

    def stderr_tail(self, lines: int = STDERR_TAIL) -> str:
        """The last lines the worker wrote to stderr (hermes' logs, plugins' prints)."""
        if self._stderr is None:
            return ""
        self._stderr.flush()
        text = (self._home / "worker.stderr").read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def _ask(self, op: str, **request: Any) -> Any:
        if self._process is None:
            if self._gone is not None:
                raise RealHostDied(f"{self._gone}; load() a plugin again to start a new one")
            raise RuntimeError("no plugin loaded: call load(path) first")
        assert self._process.stdin is not None
        try:
            self._process.stdin.write(json.dumps({"op": op, **request}) + "\n")
            self._process.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the worker is gone: _receive says how
        answer = self._receive(op)
        printed = answer.get("stdout")
        if printed:  # what the plugin printed answering: on this process's stdout, as
            sys.stdout.write(printed)  # in-process (the in-memory host) it would be
            sys.stdout.flush()
        if not answer.get("ok"):
            kind, error = str(answer.get("type")), str(answer.get("error"))
            if kind == "KeyError":
                raise KeyError(error)
            raise RealHostCallError(kind, error, str(answer.get("traceback", "")))
        return answer["value"] if "value" in answer else answer["repr"]

    def _stop(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            with contextlib.suppress(OSError):
                assert process.stdin is not None
                process.stdin.close()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if process.stdout is not None:
                process.stdout.close()
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)  # what plugins started and left
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

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
        found = [p for p in self._plugins.values() if p.path == directory]
        if not found:
            raise PluginLoadError(
                f"hermes did not discover {directory} (no plugin.yaml it reads, or it was"
                f" not enabled as {name!r}); hermes listed {sorted(loaded)}"
            )
        plugin = found[0]
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
        self._plugins = {
            key: _plugin(key, info, path)
            for key, info in loaded.items()
            for path, _ in [self._path_of(key, info)]
        }
        return loaded

    def _path_of(self, key: str, info: Mapping[str, Any]) -> tuple[Path, str]:
        name = str(info.get("listed", {}).get("name", key))
        for directory, manifest_name in self._directories:
            if key in (directory.name, manifest_name) or name == manifest_name:
                return directory, name
        return Path(), name

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
        answer: dict[str, Any] = self._ask("registered")
        return answer

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
        wanted = None if toolsets is None else list(toolsets)
        found: list[dict[str, Any]] = self._ask("definitions", toolsets=wanted)
        return found

    def call_tool(self, name: str, args: Any, **context: Any) -> Any:
        """One tool call through ``model_tools.handle_function_call`` (hooks, middleware,
        dispatch); ``context``: ``task_id``, ``session_id``, ``tool_call_id`` ..."""
        return self._ask("call_tool", name=name, args=args, context=context)

    def invoke_hook(self, hook_name: str, **kwargs: Any) -> list[Any]:
        """``hermes_cli.plugins.invoke_hook``: the callbacks' non-None results."""
        found: list[Any] = self._ask("invoke_hook", name=hook_name, kwargs=kwargs)
        return found

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
        found: list[dict[str, Any] | None] = self._ask(
            "memory_contract",
            names=names,
            init_kwargs=init_kwargs,
            bound=bound,
        )
        return found

    def drive_providers(self, kind: str, plugin: str, **options: Any) -> list[dict[str, Any]]:
        """Drive the providers of ``kind`` (``context-engine``, ``tts`` ...) that the plugin
        of key ``plugin`` gave hermes' own registries, with the release's own calls (the
        contract suites' drivers, run in the worker): one result per provider."""
        found: list[dict[str, Any]] = self._ask(
            "drive_providers", kind=kind, plugin=plugin, options=options
        )
        return found

    def memory_provider(self, folder: str) -> dict[str, Any] | None:
        """hermes' memory discovery on the installed folder ``folder`` (what
        ``memory.provider: <folder>`` loads, plugin.yaml or not): the provider's ``name``
        and the ``tools`` its memory manager offers, or None when it gets no provider."""
        found: dict[str, Any] | None = self._ask("memory_provider", name=folder)
        return found

    def cron_provider(self, folder: str) -> dict[str, Any] | None:
        """hermes' cron discovery on the installed folder ``folder`` (what ``cron.provider:
        <folder>`` loads, 0.18.0 on): the scheduler's ``name``, or None when it gets none."""
        found: dict[str, Any] | None = self._ask("cron_provider", name=folder)
        return found

    def run_cli(self, argv: Sequence[str]) -> Any:
        """``hermes <argv>`` against the plugins' terminal commands (the argparse tree
        built as ``hermes_cli.main`` builds it); returns ``args.func(args)``."""
        return self._ask("run_cli", argv=list(argv))


def _within(root: Path) -> Callable[[str, list[str]], set[str]]:
    """The ``copytree`` filter of a plugin's copy: no bytecode, and no symbolic link that
    leaves the plugin's folder, dangles or loops (links are copied as links, never
    followed: a link to ``~/.ssh`` is not copied into the temporary home, and a loop
    cannot hang or crash the copy)."""
    base = root.resolve()
    bytecode = shutil.ignore_patterns("__pycache__", "*.pyc")

    def ignore(folder: str, names: list[str]) -> set[str]:
        dropped = set(bytecode(folder, names))
        for name in names:
            path = Path(folder, name)
            if not path.is_symlink():
                continue
            try:
                target = path.resolve(strict=True)
            except (OSError, RuntimeError):  # dangling, or a loop
                dropped.add(name)
                continue
            if not target.is_relative_to(base):
                dropped.add(name)
        return dropped

    return ignore


def _home_config(config: Mapping[str, Any], enabled: set[str]) -> dict[str, Any]:
    """The home's ``config.yaml``: ``config`` with the plugins loaded enabled. Only
    ``plugins.enabled`` is the host's (the plugins ``config`` enables, then the loaded
    ones); everything else under ``plugins`` (``entries`` and their settings,
    ``disabled``) and outside it is ``config``'s, as given."""
    merged = dict(config)
    plugins = merged.get("plugins")
    section: dict[str, Any] = (
        dict(cast("Mapping[str, Any]", plugins)) if isinstance(plugins, Mapping) else {}
    )
    given = section.get("enabled")
    named = [str(n) for n in cast("list[Any]", given)] if isinstance(given, list) else []
    section["enabled"] = [*dict.fromkeys([*named, *sorted(enabled - set(named))])]
    merged["plugins"] = section
    return merged


def _environment() -> dict[str, str]:
    """The environment a worker gets (``HERMES_HOME`` aside): this one, scrubbed."""
    return {k: v for k, v in os.environ.items() if k not in SCRUBBED and k != "HERMES_HOME"}


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
        tools=tuple(info.get("tools", ())),
        hooks=tuple(info.get("hooks", ())),
        middleware=tuple(info.get("middleware", ())),
        commands=tuple(info.get("commands", ())),
        listed=dict(listed),
        returned=value,
    )
