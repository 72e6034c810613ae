"""Whether a process has ended, for the tests that check the kit leaves none behind."""

from __future__ import annotations

import os


def ended(pid: int) -> bool:
    """Whether ``pid`` is gone or a zombie (ended, its parent yet to reap it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            return stat.read().rpartition(")")[2].split()[0] == "Z"
    except OSError:
        return True
