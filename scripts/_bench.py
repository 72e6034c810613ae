"""Shared pieces of the benchmark scripts: the machine line, timing and table printing.

No figure is ever asserted: the scripts print, a reader compares.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
from collections.abc import Callable, Sequence
from time import perf_counter_ns


def machine() -> str:
    """One line naming what the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    memory = ""
    try:
        pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        memory = f", {pages / 2**30:.0f} GiB"
    except (ValueError, OSError, AttributeError):
        pass
    implementation = platform.python_implementation()
    return (
        f"{implementation} {platform.python_version()} on {platform.system()} {platform.machine()},"
        f" {cpu}, {os.cpu_count()} cores{memory}"
    )


def batch_ns(fn: Callable[[object], object], arg: object, calls: int) -> float:
    """Nanoseconds per call of ``fn(arg)`` over one batch of ``calls`` calls."""
    loop = range(calls)
    started = perf_counter_ns()
    for _ in loop:
        fn(arg)
    return (perf_counter_ns() - started) / calls


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: int = 1) -> str:
    """A Markdown table; columns from ``right`` on are right-aligned (they hold figures)."""
    widths = [max(len(str(r[i])) for r in (headers, *rows)) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        out = [
            (c.rjust(w) if i >= right else c.ljust(w))
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "| " + " | ".join(out) + " |"

    rule = ["-" * (w + 1) + ":" if i >= right else "-" * (w + 2) for i, w in enumerate(widths)]
    return "\n".join([line(headers), "|" + "|".join(rule) + "|", *(line(r) for r in rows)])


def flush() -> None:
    sys.stdout.flush()
