"""The warm process of the real-host worker (``_real_worker.py --warm CONTROL_FD EXITS``,
:mod:`~kit_devtools.testing._warm_hermes`): it imports what hermes imports before plugin
discovery, says ``{"ready": true}`` on the control socket, then forks one worker per
request, each running the worker's own ``main`` on the pipes that came with the request,
and writes each one's exit code to ``EXITS/<pid>``; it ends when the parent closes the
control socket.

Standard library only: the worker (run by path, the kit perhaps not importable) loads this
file beside it by path and hands it the worker module itself, whose loader patch, failure
report and ``main`` the warm process and its forked workers use.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import select
import site
import socket
import sys
import traceback
from typing import Any


def _path_files() -> dict[str, float]:
    """The ``.pth`` files of the site directories, with their modification times."""
    found: dict[str, float] = {}
    for directory in {*site.getsitepackages(), site.getusersitepackages()}:
        with contextlib.suppress(OSError):
            for entry in os.scandir(directory):
                if entry.name.endswith(".pth"):
                    found[entry.path] = entry.stat().st_mtime
    return found


def _prewarm(worker: Any) -> None:
    """Import what hermes imports before it discovers plugins: its plugin manager (with
    the loader wrapped as the worker wraps it), its tool registry and the built-in tool
    modules (``discover_builtin_tools``, which ``model_tools`` calls first; 0.13.0 on)."""
    worker._patch_loader(importlib.import_module("hermes_cli.plugins"))
    registry = importlib.import_module("tools.registry")
    discover = getattr(registry, "discover_builtin_tools", None)
    if callable(discover):
        discover()


def _forked(
    requests: int, answers: int, request: dict[str, Any], seen: dict[str, float], worker: Any
) -> None:
    """In a forked worker: the protocol on the pipes ``requests`` and ``answers``, the
    host's environment, stderr appended to the request's ``stderr``,
    what was installed since the warm process started made importable (a ``.pth`` an
    editable install wrote), then the worker's own ``main``. The worker leads a process
    group of its own, as a cold one does, so that the host ends what plugins start."""
    os.setpgid(0, 0)
    os.dup2(requests, 0)
    os.dup2(answers, 1)
    os.close(requests)
    os.close(answers)
    started_with = os.environ.get("PYTHONPATH")
    os.environ.clear()
    os.environ.update(request["env"])
    _search_path(started_with, os.environ.get("PYTHONPATH"))
    log = os.open(str(request["stderr"]), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    os.dup2(log, 2)
    os.close(log)
    for path, mtime in _path_files().items():
        if seen.get(path) != mtime:
            site.addpackage(os.path.dirname(path), os.path.basename(path), None)
    importlib.invalidate_caches()
    worker.main(os.fdopen(0, "r", encoding="utf-8", closefd=False))


def _search_path(before: str | None, after: str | None) -> None:
    """``sys.path`` as a fresh start with the ``PYTHONPATH`` ``after`` makes it (its entries
    first, made absolute, each path once), in a worker forked from a process that started
    with ``before`` (the host checked that no module imported since comes from an entry
    that changed)."""
    if before == after:
        return
    old = [os.path.abspath(e) for e in before.split(os.pathsep)] if before else []
    new = [os.path.abspath(e) for e in after.split(os.pathsep)] if after else []
    rest = [entry for entry in sys.path if entry not in old]
    sys.path[:] = list(dict.fromkeys([*new, *rest]))


def _reap(exits: str) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        done = os.path.join(exits, str(pid))
        with open(done + ".tmp", "w", encoding="utf-8") as file:
            file.write(str(os.waitstatus_to_exitcode(status)))
        os.replace(done + ".tmp", done)


def warm(control: socket.socket, exits: str, worker: Any) -> None:
    """The warm process: prewarm, then fork a worker per request until the parent leaves
    (``worker``: the worker module, ``_real_worker.py`` run as ``__main__``)."""
    try:
        _prewarm(worker)
        seen = _path_files()
        imported = sorted({name.partition(".")[0] for name in sys.modules})
        ready: dict[str, Any] = {"ready": True, "imported": imported}
    except BaseException as exc:  # the parent starts cold workers, which say what broke
        ready, seen = {"ready": False, **worker._failure(exc)}, {}
    sys.stdout.flush()
    sys.stderr.flush()
    control.sendall(json.dumps(ready).encode())
    if not ready["ready"]:
        return
    while True:
        readable, _, _ = select.select([control], [], [], 0.2)
        _reap(exits)
        if not readable:
            continue
        message, fds, _, _ = socket.recv_fds(control, 65536, 2)
        if not message or len(fds) != 2:
            return  # the parent closed the control socket
        request = json.loads(message)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            status = 0
            try:
                control.close()
                _forked(fds[0], fds[1], request, seen, worker)
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else 1
            except BaseException:
                traceback.print_exc()
                status = 1
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(status)
        os.close(fds[0])
        os.close(fds[1])
        with contextlib.suppress(FileNotFoundError):  # an earlier worker's of the same pid
            os.remove(os.path.join(exits, str(pid)))
        control.sendall(json.dumps({"pid": pid}).encode())
