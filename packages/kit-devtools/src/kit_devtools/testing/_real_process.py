"""The hermes worker under :class:`~kit_devtools.testing.real.RealHost`, as the process the
host talks to: started in the host's home with the plugins copied in and enabled (forked
from a warm process where one serves, else a fresh ``_real_worker.py``), asked one JSON
line and answering one, what it printed while answering passed on, its death reported with
the end of its stderr, and its end taking what the plugins started with it. The exceptions
it raises (:class:`RealHostDied`, :class:`RealHostCallError`) are exported by
:mod:`~kit_devtools.testing.real`.
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
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any, Final, cast

from kit_core.hermes import plain_version
from kit_devtools.testing import _warm_hermes

WORKER: Final = Path(__file__).with_name("_real_worker.py")
SCRUBBED: Final = (
    "HERMES_SAFE_MODE",
    "HERMES_ENABLE_PROJECT_PLUGINS",
    "HERMES_BUNDLED_PLUGINS",
    "HERMES_KANBAN_TASK",
)
"""Variables that would change what hermes discovers (scrubbed here and by ``check --real``)."""
STDERR_TAIL: Final = 25


class RealHostDied(RuntimeError):
    """The hermes worker process exited; the message ends with its stderr."""


class RealHostCallError(RuntimeError):
    """hermes raised while answering; ``type`` names the exception, ``remote_traceback``
    is the worker's traceback."""

    def __init__(self, type_name: str, message: str, remote_traceback: str) -> None:
        super().__init__(f"{type_name}: {message}")
        self.type = type_name
        self.remote_traceback = remote_traceback


class WorkerProcess:
    """The mixin :class:`~kit_devtools.testing.real.RealHost` gets its worker from: the
    start, one request and its answer, the stderr's end, and the stop."""

    python: str
    timeout: float
    version: str | None
    package_version: str | None
    _config: dict[str, Any]
    _warm: _warm_hermes.Warm | None
    _home: Path
    _directories: list[tuple[Path, str]]
    _entry_points: list[str]
    _process: subprocess.Popen[str] | _warm_hermes.Forked | None
    _stderr: IO[str] | None
    _gone: str | None

    def _start(self) -> None:
        self._stop()
        self._gone = None
        env = environment()
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
        return json.loads(line)

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


def environment() -> dict[str, str]:
    """The environment a worker gets (``HERMES_HOME`` aside): this one, scrubbed."""
    return {k: v for k, v in os.environ.items() if k not in SCRUBBED and k != "HERMES_HOME"}
