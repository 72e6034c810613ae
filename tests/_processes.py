"""Whether a process has ended, for the tests that check the kit leaves none behind; the
count of those checked is printed at the end of the run (tests/conftest.py)."""

from __future__ import annotations

import os
from collections import Counter

CHECKED: Counter[str] = Counter()
"""``ended`` / ``alive``: processes plugins under test started, found ended or not."""


def ended(pid: int) -> bool:
    """Whether ``pid`` is gone or a zombie (ended, its parent yet to reap it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        gone = True
    else:
        try:
            with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
                gone = stat.read().rpartition(")")[2].split()[0] == "Z"
        except OSError:
            gone = True
    CHECKED["ended" if gone else "alive"] += 1
    return gone
