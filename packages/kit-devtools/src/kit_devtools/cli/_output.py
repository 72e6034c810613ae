"""Where the author commands write: their report on the standard output the command
started with, everything plugin code prints on standard error, so that ``--json`` and
``--format json`` stay JSON whatever the plugin prints."""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Generator
from typing import TextIO

__all__ = ["emit", "quiet_logs", "refuse", "reports_on_stdout"]

_REPORT: list[TextIO] = []
"""The standard output of each command running now (innermost last)."""


@contextlib.contextmanager
def reports_on_stdout() -> Generator[None, None, None]:
    """Within: :func:`emit` writes to today's standard output, ``print`` to stderr."""
    _REPORT.append(sys.stdout)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        _REPORT.pop()


def emit(text: str = "", end: str = "\n") -> None:
    """Write a line of the command's report."""
    out = _REPORT[-1] if _REPORT else sys.stdout
    out.write(text + end)
    out.flush()


def refuse(message: str) -> int:
    """Say on standard error why the command cannot run; its exit status, 2."""
    print(f"hermes-plugin-kit: {message}", file=sys.stderr)
    return 2


@contextlib.contextmanager
def quiet_logs() -> Generator[None, None, None]:
    """Within: the plugin's own logging and the host's warnings stay out of the report (a
    handler on the root logger, so logging's last resort prints nothing)."""
    root = logging.getLogger()
    handler, level = logging.NullHandler(), root.level
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
