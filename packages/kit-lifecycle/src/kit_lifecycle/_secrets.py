"""The environment variables whose values a hook, middleware or command must never show.

A plugin's tools name theirs in ``requires_env``. ``register_plugin`` binds all of them to
every hook, middleware and command callback it registers; a callback used without
``register_plugin`` names its own with ``requires_env=`` on its decorator (the two add
up). The values are read from the environment whenever a line is logged or an exception
leaves the callback, so a key rotated while hermes runs stays hidden too.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Final, cast

from kit_core._env import check_requires_env, requires_env_values
from kit_core._runtime import ERROR_CHARS
from kit_core.redaction import redact_preview
from kit_lifecycle.errors import DeclarationError

_ATTRIBUTE: Final = "__hpk_secret_env__"
_CHAIN: Final = 16
"""How many chained exceptions (``__cause__``/``__context__``) are cleaned, at most."""


class EnvSecrets:
    """The names of the environment variables a callback's logs and errors never show."""

    __slots__ = ("_lock", "_names")

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._names: tuple[str, ...] = tuple(sorted(set(names)))
        self._lock = threading.Lock()

    @property
    def names(self) -> tuple[str, ...]:
        return self._names

    def add(self, names: Iterable[str]) -> None:
        """Hide these variables' values too (names are only ever added)."""
        with self._lock:
            self._names = tuple(sorted({*self._names, *names}))

    def values(self) -> tuple[str, ...]:
        """The current values of the variables that are set."""
        return requires_env_values(self._names)


def check_env_names(label: str, names: object) -> tuple[str, ...]:
    """``requires_env=`` of a decorator: a list of environment variable names.

    Raises:
        DeclarationError: naming what is wrong and how to write it.
    """
    return check_requires_env(label, names, DeclarationError)


def attach(callback: object, env: EnvSecrets) -> None:
    """Give a kit-built callback its :class:`EnvSecrets`."""
    setattr(callback, _ATTRIBUTE, env)


def secret_env_of(callback: object) -> EnvSecrets | None:
    """The :class:`EnvSecrets` of a kit-built hook, middleware or command callback."""
    env = getattr(callback, _ATTRIBUTE, None)
    return env if isinstance(env, EnvSecrets) else None


def scrub(exc: BaseException, secrets: tuple[str, ...]) -> None:
    """Replace secret values in the message of ``exc`` (and of the exceptions chained to
    it) with ``***``, in place: the same exception object goes on to the host, which logs
    its text (and, on newer hosts, may show it to the model as a block message).

    Only the string arguments and notes are rewritten; an exception whose ``__str__``
    reads other attributes keeps those as they are. Each is cut to ``ERROR_CHARS``
    first, as a tool handler's error is, so a huge message costs bounded work.
    """
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen and len(seen) < _CHAIN:
        seen.add(id(current))
        try:
            args = current.args
            cleaned = tuple(_cleaned(a, secrets) if isinstance(a, str) else a for a in args)
            if cleaned != args:
                current.args = cleaned
            notes: object = getattr(current, "__notes__", None)
            if isinstance(notes, list):
                notes_list = cast("list[object]", notes)
                notes_list[:] = [
                    _cleaned(n, secrets) if isinstance(n, str) else n for n in notes_list
                ]
        except Exception:  # an exception type that refuses new arguments keeps its own
            pass
        current = current.__cause__ or current.__context__


def _cleaned(text: str, secrets: tuple[str, ...]) -> str:
    return redact_preview(text, ERROR_CHARS, secrets)
