"""The hermes home a plugin sees in the in-memory host: a temporary directory laid out as
hermes lays out its own, or a real one the author names.

hermes creates ``$HERMES_HOME`` and its folders before it loads plugins
(``hermes_cli.config.ensure_hermes_home``), and plugins open their files there while
registering (databases, caches, logs). Without a home on disk such a plugin fails in the kit
and loads in hermes; with ``HERMES_HOME`` unset it would reach the author's own
``~/.hermes``. While the host runs plugin code, ``HERMES_HOME`` names this home, which
``hermes_constants.get_hermes_home()`` reads.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import weakref
from collections.abc import Generator, Iterable, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import yaml

from kit_devtools.testing.host_names import MODELLED

__all__ = ["HOME_FOLDERS", "HermesHome"]

HOME_FOLDERS: Final = MODELLED.home_folders
"""The folders hermes lays out in an empty home (``ensure_hermes_home``) on the release the
in-memory host plays by default; another release's are its ``home_folders`` (observed:
five on 0.13.0, ten on 0.19.0)."""

_VARIABLE: Final = "HERMES_HOME"


class HermesHome:
    """A provisioned temporary home (removed with its host), laid out with ``folders`` (the
    played release's ``home_folders``), or the one ``path`` names."""

    def __init__(
        self,
        path: str | Path | None,
        config: Mapping[str, Any],
        folders: Iterable[str] = HOME_FOLDERS,
    ) -> None:
        self._given = Path(path).expanduser() if path is not None else None
        self._config = config
        self._folders = tuple(folders)
        self._path: Path | None = None

    @property
    def path(self) -> Path:
        """The home, provisioned on first use."""
        if self._path is None:
            self._path = self._given if self._given is not None else self._provision()
        return self._path

    def _provision(self) -> Path:
        home = Path(tempfile.mkdtemp(prefix="hermes-home-"))
        weakref.finalize(self, shutil.rmtree, home, ignore_errors=True)
        for folder in self._folders:
            (home / folder).mkdir(parents=True, exist_ok=True)
        (home / "plugins").mkdir()
        text = yaml.safe_dump(dict(self._config), sort_keys=False) if self._config else ""
        (home / "config.yaml").write_text(text, encoding="utf-8")
        return home

    @contextmanager
    def bound(self) -> Generator[None, None, None]:
        """``HERMES_HOME`` names this home for the duration (see :func:`_bind`)."""
        with _bind(str(self.path)):
            yield


_LOCK: Final = threading.Lock()
_BOUND: list[tuple[object, str]] = []
"""The homes bound now, oldest first, each under a token of its binding (any thread)."""
_SAVED: list[str | None] = []
"""``HERMES_HOME`` as it was before the first of them was bound."""


@contextmanager
def _bind(home: str) -> Generator[None, None, None]:
    """``HERMES_HOME`` names ``home`` while bound. The variable is one per process, so
    with hosts running in several threads it names the latest bound home, and when the
    last binding ends it is put back as it was before the first (a thread's host never
    restores another's). ``hermes_constants.get_hermes_home()``, which hermes and most
    plugins read the home by, answers each call with its own host's home in any thread
    (the in-memory host's stand-in for it, :mod:`kit_devtools.testing._shims`)."""
    token = object()
    with _LOCK:
        if not _BOUND:
            _SAVED[:] = [os.environ.get(_VARIABLE)]
        _BOUND.append((token, home))
        os.environ[_VARIABLE] = home
    try:
        yield
    finally:
        with _LOCK:
            _BOUND[:] = [entry for entry in _BOUND if entry[0] is not token]
            if _BOUND:
                os.environ[_VARIABLE] = _BOUND[-1][1]
            elif _SAVED[0] is None:
                os.environ.pop(_VARIABLE, None)
            else:
                os.environ[_VARIABLE] = _SAVED[0]
