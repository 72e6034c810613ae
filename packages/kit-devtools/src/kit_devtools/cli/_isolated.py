"""The ``hermes-plugin-kit`` command runs plugin code in a child process of its own.

``check``, ``compat``, ``preflight`` and ``call`` import the plugin and run its
``register()`` (``check --probe`` and ``call`` its handlers too): code nobody here wrote.
The command itself only starts a child (``python -m kit_devtools.cli._child``) and relays
its report, so that whatever the plugin does:

* it runs with a fresh temporary ``HOME`` and ``HERMES_HOME`` (removed afterwards), in an
  environment without the operator's variables: only :data:`KEPT` (the search path, the
  locale, the interpreter's own) and, for each variable a ``--pass-env NAME`` names, its
  real value. The variables the plugin's manifest lists under ``requires_env`` get the
  placeholder :data:`PLACEHOLDER`, so a plugin that needs them loads, and no secret of the
  operator's is ever in reach;
* it has no network: the child refuses to open an internet socket (IPv4 or IPv6; local
  sockets work) unless ``--network`` is given;
* ``sys.exit()``, ``os._exit()``, a crash or a signal end the child, not the command: a
  child that ends without its report gives an error report and status 1, never 0; one
  that runs past :data:`TIMEOUT` seconds is killed. However the run ends (a report, a
  timeout, Ctrl-C, or SIGTERM or SIGHUP to the command), every process the child left
  behind is killed (the child leads a session of its own: what it started is found in
  that session, in a process group of its own or not, as ``check --real``'s hermes
  worker is) and the temporary homes are removed;
* the report is the child's standard output, unchanged; what plugin code prints goes to
  standard error.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Final, cast

from kit_devtools.testing._host_envs import HOSTS_VARIABLE, cache_root

__all__ = ["ISOLATED", "KEPT", "PLACEHOLDER", "run_isolated"]

ISOLATED: Final = frozenset({"check", "compat", "preflight", "call"})
"""The commands that run plugin code (``new`` writes files only)."""

KEPT: Final = frozenset(
    {"PATH", "LANG", "LANGUAGE", "TERM", "TZ", "TMPDIR", "PYTHONPATH", "VIRTUAL_ENV",
     "NO_COLOR", "COLUMNS", "SYSTEMROOT", "PYTHONIOENCODING", "PYTHONUTF8"}
)  # fmt: skip
"""Variables the child gets as they are (and every ``LC_*``): none of them a secret."""

MAX_TIMEOUT: Final = 3600.0
"""The longest ``check --timeout`` the command takes."""

PLACEHOLDER: Final = "hpk-placeholder-not-a-secret"
"""The value of each ``requires_env`` variable the author did not ``--pass-env``."""

TIMEOUT: Final = 600.0
"""Seconds the child may run before it and what it started are killed (more when ``check
--timeout`` gives hermes longer: twice that, and a minute)."""


def run_isolated(
    argv: Sequence[str], *, pass_env: Sequence[str], network: bool, timeout: float | None = None
) -> int:
    """Run ``hermes-plugin-kit argv`` in a child process as the module docstring says;
    returns the status to exit with."""
    timeout = _allowed(argv) if timeout is None else timeout
    with tempfile.TemporaryDirectory(prefix="hpk-run-") as root:
        home = Path(root) / "home"
        (home / ".hermes").mkdir(parents=True)
        env = {k: v for k, v in os.environ.items() if k in KEPT or k.startswith("LC_")}
        env.update(dict.fromkeys(_required_env(argv), PLACEHOLDER))
        env.update({name: os.environ[name] for name in pass_env if name in os.environ})
        env.update(HOME=str(home), HERMES_HOME=str(home / ".hermes"), TMPDIR=root)
        env[HOSTS_VARIABLE] = str(cache_root())  # the cached hermes releases, not the home's
        if network:
            env["HPK_NETWORK"] = "1"
        command = [sys.executable, "-m", "kit_devtools.cli._child", *argv]
        child = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, start_new_session=True)
        chunks: list[bytes] = []
        # read while it runs (a report past the pipe's buffer must not stall it); a process
        # the plugin started may hold the pipe open after the child is gone
        reader = threading.Thread(target=_read_all, args=(child, chunks), daemon=True)
        reader.start()
        try:
            with _signals_stop():
                child.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return _failed(argv, f"it ran for more than {timeout:.0f} s and was stopped")
        except _Stopped as stop:
            _failed(argv, f"the command was stopped by {stop.signal.name}")
            return 128 + stop.signal
        finally:  # also on Ctrl-C or a signal to the command: the child and what the
            _end_session(child.pid)  # plugin left running go too, and the pipe closes
            reader.join(timeout=30)
            child.wait()
        out = b"".join(chunks)
    status = child.returncode
    if out and status in (0, 1, 2):
        sys.stdout.buffer.write(out)
        sys.stdout.flush()
        return status
    if status < 0:
        why = f"it was ended by signal {signal.Signals(-status).name}"
    else:
        why = f"it exited with status {status} before writing its report"
    return _failed(argv, why + " (a plugin calling os._exit() or crashing the interpreter)")


def _allowed(argv: Sequence[str]) -> float:
    """How long the child may run: :data:`TIMEOUT`, or longer for a longer ``--timeout``."""
    given = [b for a, b in itertools.pairwise(argv) if a == "--timeout"]
    given += [a.partition("=")[2] for a in argv if a.startswith("--timeout=")]
    try:
        longest = max((float(value) for value in given), default=0.0)
    except ValueError:  # the child's parser says so
        longest = 0.0
    if not 0 < longest <= MAX_TIMEOUT:  # the child's parser refuses it (nan, inf too)
        longest = 0.0
    return max(TIMEOUT, 2 * longest + 60)


def _read_all(child: subprocess.Popen[bytes], into: list[bytes]) -> None:
    if child.stdout is None:
        return
    descriptor = child.stdout.fileno()
    with contextlib.suppress(OSError, ValueError):
        while block := os.read(descriptor, 65536):
            into.append(block)


class _Stopped(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signal = signal.Signals(signum)


@contextlib.contextmanager
def _signals_stop() -> Generator[None, None, None]:
    """SIGTERM and SIGHUP raise :class:`_Stopped` while the child runs (by default they
    would end the command at once, with no cleanup)."""

    def stop(signum: int, _frame: object) -> None:
        raise _Stopped(signum)

    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers; a caller's own then stand
        return
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _end_session(leader: int) -> None:
    """Kill every process of the session ``leader`` leads: its own process group, and
    on Linux every other group of the session too (read from ``/proc``)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(leader, signal.SIGKILL)
    for pid in _session_members(leader):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def _session_members(session: int) -> list[int]:
    """The processes whose session is ``session`` (none where there is no ``/proc``)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as stat:
                    fields = stat.read().rpartition(b")")[2].split()
            except OSError:
                continue  # it ended meanwhile
            if len(fields) > 3 and int(fields[3]) == session:  # state ppid pgrp session
                found.append(int(entry.name))
    return found


def _failed(argv: Sequence[str], why: str) -> int:
    """An error report for a child that gave none; status 1."""
    message = f"the process that ran the plugin's code ended without a report: {why}"
    wants_json = (
        "--json" in argv
        or "--format=json" in argv
        or any(a == "--format" and b == "json" for a, b in itertools.pairwise(argv))
    )
    if wants_json:
        print(json.dumps({"error": message, "findings": [], "errors": 1}))
    else:
        print(f"hermes-plugin-kit: {message}", file=sys.stderr)
    return 1


def _required_env(argv: Sequence[str]) -> list[str]:
    """The ``requires_env`` names of the manifest of the plugin directory ``argv`` names."""
    from kit_devtools.testing._manifest import ManifestError, bounded_text, load_bounded

    for part in argv[1:]:
        manifest = Path(part) / "plugin.yaml"
        if not manifest.is_file():
            continue
        try:
            data: object = load_bounded(bounded_text(manifest, "utf-8-sig"))
        except (ManifestError, OSError, UnicodeDecodeError):
            return []
        listed = (
            cast("dict[str, object]", data).get("requires_env") if isinstance(data, dict) else None
        )
        found: list[str] = []
        for entry in cast("list[object]", listed) if isinstance(listed, list) else []:
            name = (
                cast("dict[str, object]", entry).get("name") if isinstance(entry, dict) else entry
            )
            if isinstance(name, str) and name.isidentifier():
                found.append(name)
        return found
    return []
