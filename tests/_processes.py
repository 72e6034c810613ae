"""Whether a process has ended, for the tests that check the kit leaves none behind; the
count of those checked is printed at the end of the run (tests/conftest.py)."""

from __future__ import annotations

import os
import time
from collections import Counter

CHECKED: Counter[str] = Counter()
"""``ended`` / ``alive``: processes plugins under test started, found ended or not."""


def ended(pid: int, within: float = 30.0) -> bool:
    """Whether ``pid`` is gone or a zombie (ended, its parent yet to reap it), waiting up
    to ``within`` seconds for it: a SIGKILL is delivered asynchronously, and on a loaded
    machine the killed process can still be listed as running for a moment. A process
    that does not end in that time is reported alive."""
    deadline = time.monotonic() + within
    while not (gone := _gone(pid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    CHECKED["ended" if gone else "alive"] += 1
    return gone


def _gone(pid: int) -> bool:
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
    return gone
