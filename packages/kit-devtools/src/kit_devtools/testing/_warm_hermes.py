"""Warm hermes processes: hermes imported once per environment, a worker forked per start.

Importing hermes takes three to four seconds of CPU, and a :class:`RealHost` starts a
worker for each ``load()`` (hermes discovers plugins once per process). A *warm* process
(``_real_worker.py --warm``) imports everything hermes imports before discovery, in the
home the host will use, and then forks one worker per start: the worker only discovers
(``import model_tools``), which is what differs from plugin to plugin.

What keeps a forked worker what a fresh process would be:

* the home is the warm process's own (hermes keeps paths under ``HERMES_HOME`` that it
  read at import, such as its skills folder and state database), leased to one host at a
  time and put back as it was after the import when the host closes;
* the home's ``config.yaml`` at import is the host's (without ``plugins``, which only
  discovery reads), and the environment is the host's: a host whose configuration or
  environment differs gets a warm process of its own, or a cold worker (but for
  ``PYTHONPATH``, which a forked worker applies to ``sys.path`` as a fresh start does,
  unless that would change where an imported module comes from: :data:`SEARCH_PATH`);
* the warm process runs one thread (``fork`` copies no other) and holds no file of the
  home open (a check of this is in the real-host suite);
* a ``.pth`` file written after the warm process started (an editable install) is read
  in the forked worker before discovery.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final, cast

__all__ = ["Forked", "Warm", "give_back", "lease"]

IDLE: Final = 2
"""Warm processes kept for reuse when no host holds them (each holds hermes in memory)."""
REPORT_GRACE: Final = 2.0
"""Seconds a reaped worker's exit code may take to be written before it counts as killed."""
VOLATILE: Final = frozenset({"PYTEST_CURRENT_TEST"})
"""Variables that change from test to test and that hermes never reads: a warm process
serves any value of them (each forked worker gets the host's environment exactly)."""
SEARCH_PATH: Final = "PYTHONPATH"
"""Applied rather than fixed at start: a forked worker puts the host's ``PYTHONPATH``
entries first on ``sys.path``, as a fresh start does, so a warm process serves a host
whose entries differ from its own unless an entry that differs holds a module the warm
process has already imported (:func:`shadows`), which a fresh process would import from
there instead."""


class Forked:
    """A worker forked by a warm process, driven as :class:`subprocess.Popen` is: ``stdin``
    and ``stdout`` pipes, ``wait``, ``kill``. Its exit code comes from the warm process,
    which reaps it."""

    def __init__(self, pid: int, stdin: int, stdout: int, exits: Path) -> None:
        self.pid = pid
        self.stdin = os.fdopen(stdin, "w", encoding="utf-8")
        self.stdout = os.fdopen(stdout, "r", encoding="utf-8")
        self.returncode: int | None = None
        self._exit = exits / str(pid)

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self._reported()
        if self.returncode is None and not _alive(self.pid):
            # reaped: the warm process writes the exit code just after, unless it is gone
            deadline = time.monotonic() + REPORT_GRACE
            while (code := self._reported()) is None and time.monotonic() < deadline:
                time.sleep(0.01)
            self.returncode = -signal.SIGKILL if code is None else code
        return self.returncode

    def _reported(self) -> int | None:
        """The exit code the warm process wrote for this worker, if it has."""
        with contextlib.suppress(FileNotFoundError, ValueError):
            code = int(self._exit.read_text(encoding="utf-8"))
            self._exit.unlink()
            return code
        return None

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"hermes worker {self.pid}", timeout or 0)
            time.sleep(0.01)
        return code

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    """Whether ``pid`` still exists (a zombie the warm process has yet to reap does)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Warm:
    """One warm process and the home it imported hermes in."""

    def __init__(
        self,
        python: str,
        worker: Path,
        key: tuple[str, str, str],
        config: Mapping[str, Any],
        env: dict[str, str],
    ):
        self.key = key
        self.env = env
        self.root = Path(tempfile.mkdtemp(prefix="hermes-real-host-"))
        self.home = self.root / "home"
        self.exits = self.root / "exits"
        self._pristine = self.root / "pristine"
        self._log = self.root / "warm.stderr"
        self.home.mkdir()
        self.exits.mkdir()
        (self.home / "config.yaml").write_text(json.dumps(config, default=str), encoding="utf-8")
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._control = ours
        with self._log.open("w", encoding="utf-8") as log:
            self.process = subprocess.Popen(
                [python, "-P", str(worker), "--warm", str(theirs.fileno()), str(self.exits)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                cwd=self.home,
                env={**env, "HERMES_HOME": str(self.home)},
                pass_fds=[theirs.fileno()],
            )
        theirs.close()
        self.ready: bool | None = None
        self.imported: frozenset[str] = frozenset()
        """The top-level modules the warm process imported (sent when it is ready)."""
        self.leased = False

    def usable(self, env: Mapping[str, str], timeout: float) -> bool:
        """Whether a worker can be forked for a host with ``env``: the warm process
        finished its import (waiting for it up to ``timeout``) in the same environment."""
        if _settled(env) != _settled(self.env):
            return False
        if self.ready is None:
            readable, _, _ = select.select([self._control], [], [], timeout)
            message = self._control.recv(65536) if readable else b""
            answer: dict[str, Any] = json.loads(message) if message else {}
            self.ready = bool(answer.get("ready"))
            self.imported = frozenset(cast("list[str]", answer.get("imported", [])))
            if self.ready:  # the home as the import left it, for the next host
                shutil.copytree(self.home, self._pristine, symlinks=True)
            else:  # the home stays the host's until it gives it back
                self._end()
        if self.ready and shadows(self.env.get(SEARCH_PATH), env.get(SEARCH_PATH), self.imported):
            return False
        return self.ready and self.alive

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def import_log(self) -> str:
        """What hermes wrote while importing (a fresh worker's stderr starts with it)."""
        return self._log.read_text(encoding="utf-8", errors="replace")

    def fork(self, stderr: Path, env: Mapping[str, str]) -> Forked | None:
        """A worker with the environment ``env`` (and the home) whose stderr is appended to
        ``stderr``; None when the warm process is gone (then the host starts a cold one)."""
        child_in, to_child = os.pipe()
        from_child, child_out = os.pipe()
        answer: dict[str, Any] = {}
        try:
            request = json.dumps(
                {"stderr": str(stderr), "env": {**env, "HERMES_HOME": str(self.home)}}
            ).encode()
            socket.send_fds(self._control, [request], [child_in, child_out])
            readable, _, _ = select.select([self._control], [], [], 60)
            if readable:
                answer = json.loads(self._control.recv(65536) or b"{}")
        except OSError:
            pass
        finally:
            os.close(child_in)
            os.close(child_out)
        if "pid" not in answer:
            os.close(to_child)
            os.close(from_child)
            self._end()
            return None
        return Forked(int(answer["pid"]), to_child, from_child, self.exits)

    def reset(self) -> None:
        """Put the home back as the import left it (the folder itself stays: it is the
        warm process's working directory)."""
        for entry in self.home.iterdir():
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
        if self._pristine.is_dir():
            shutil.copytree(self._pristine, self.home, symlinks=True, dirs_exist_ok=True)

    def _end(self) -> None:
        self.ready = False
        with contextlib.suppress(OSError):
            self._control.close()  # the warm process ends when it reads the end
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def close(self) -> None:
        """End the warm process and remove its home."""
        self._end()
        shutil.rmtree(self.root, ignore_errors=True)


def _settled(env: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k not in VOLATILE and k != SEARCH_PATH}


def shadows(before: str | None, after: str | None, imported: frozenset[str]) -> bool:
    """Whether going from the ``PYTHONPATH`` ``before`` to ``after`` changes where one of
    the ``imported`` top-level modules comes from: an entry in one and not the other
    holds such a module (or cannot be read, a zip file or a missing folder counting as
    one that might)."""
    old, new = _entries(before), _entries(after)
    return any(_tops(entry) & imported for entry in set(old) ^ set(new))


def _entries(value: str | None) -> list[str]:
    return [os.path.abspath(entry) for entry in (value or "").split(os.pathsep)] if value else []


def _tops(entry: str) -> set[str]:
    """The top-level module names a ``sys.path`` entry offers; a sentinel name, which every
    warm process has imported (``sys``), for one it cannot list."""
    try:
        names = os.listdir(entry)
    except OSError:
        return set() if not os.path.exists(entry) else {"sys"}
    return {name.split(".", 1)[0] for name in names if not name.startswith(".")}


_lock = threading.Lock()
_idle: list[Warm] = []
_leased: list[Warm] = []


def lease(python: str, worker: Path, config: Mapping[str, Any], env: dict[str, str]) -> Warm:
    """A warm process for ``python`` whose home was configured with ``config`` (without
    ``plugins``), held by the caller until :func:`give_back`: an idle one, or a new one
    (its import starts now, while the caller installs its plugins)."""
    settled = {k: v for k, v in config.items() if k != "plugins"}
    key = (
        python,
        json.dumps(settled, sort_keys=True, default=str),
        json.dumps(_settled(env), sort_keys=True),
    )
    with _lock:
        for warm in _idle:
            if warm.key == key:
                _idle.remove(warm)
                break
        else:
            warm = Warm(python, worker, key, settled, env)
        warm.leased = True
        _leased.append(warm)
        return warm


def give_back(warm: Warm) -> None:
    """The host is done: reset the home and keep the warm process for the next one."""
    with _lock:
        if warm in _leased:
            _leased.remove(warm)
        warm.leased = False
        if warm.ready is False or not warm.alive:
            warm.close()
            return
        warm.reset()
        _idle.insert(0, warm)
        while len(_idle) > IDLE:
            _idle.pop().close()


@atexit.register
def _close_all() -> None:
    with _lock:
        for warm in [*_idle, *_leased]:
            warm.close()
        _idle.clear()
        _leased.clear()
