"""``requires_env``: the environment variables a callback needs, whose values are secret.

What ``@tool`` and kit-lifecycle's ``@hook``, ``@middleware`` and ``@command`` accept as
``requires_env=``, and the current values the kit redacts. An author redacting text of
their own can do the same: ``redact_text(text, requires_env_values(["MY_TOKEN"]))``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import cast

__all__ = ["check_requires_env", "requires_env_values"]


def check_requires_env(label: str, names: object, error: type[Exception]) -> tuple[str, ...]:
    """``requires_env=`` as given to a decorator: a list of variable names (None: none).

    Raises:
        error: naming what is wrong and how to write it.
    """
    if names is None:
        return ()
    if isinstance(names, str) or not isinstance(names, Sequence):
        msg = f"{label}: requires_env must be a list of variable names, e.g. [{names!r}]"
        raise error(msg)
    given: tuple[object, ...] = tuple(cast("Sequence[object]", names))
    # [A-Za-z_][A-Za-z0-9_]* in full: an ASCII identifier
    bad = [n for n in given if not isinstance(n, str) or not (n.isascii() and n.isidentifier())]
    if bad:
        msg = f"{label}: requires_env holds invalid variable names {bad!r}; use e.g. 'MY_API_TOKEN'"
        raise error(msg)
    return cast("tuple[str, ...]", given)


def requires_env_values(names: Iterable[str]) -> tuple[str, ...]:
    """The current values of the named variables that are set (read at each call, so a
    rotated key is hidden too)."""
    return tuple(v for n in names if (v := os.environ.get(n)))
