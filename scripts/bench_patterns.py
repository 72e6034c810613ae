"""``pattern`` checks: the kit's bounded matcher on the patterns authors write, adversarial
arguments included, against argument length; and what Python's backtracking ``re`` takes
on the same (run in a child process with a time limit, since it may not finish).

Each figure is the median of several searches of one argument, in milliseconds, first
search included (the matcher builds its states as it reads). Prints figures only.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
from pathlib import Path
from time import perf_counter_ns

sys.path.insert(0, str(Path(__file__).parent))

from _bench import machine, table
from kit_core._ecma import SearchTooCostly, compile_ecma

RUNS = 5
RE_LIMIT = 5.0
"""Seconds Python's re gets per case before it is called off."""

CASES = [
    # (what, pattern, argument of length n)
    ("slug", r"^([a-z0-9]+-?)*[a-z0-9]+$", lambda n: "a" * (n - 1) + "!"),
    ("host name", r"^([a-zA-Z0-9]+[-.]?)*[a-zA-Z0-9]+\.[a-z]{2,}$", lambda n: "a" * n),
    ("e-mail", r"^[\w.+-]+@([\w-]+\.)+[a-z]{2,}$", lambda n: "a" * (n // 2) + "@" + "a" * (n // 2)),
    ("unanchored", r"(x+x+)+y", lambda n: "x" * n),
    ("words", r"^(\w+\s?)*$", lambda n: ("word " * n)[: n - 1] + "!"),
    ("benign", r"^[a-z]+$", lambda n: "a" * n),
]  # fmt: skip
LENGTHS = [30, 1_000, 100_000, 1_000_000]


def kit_ms(pattern: str, text: str) -> str:
    times = []
    for _ in range(RUNS):
        compiled = compile_ecma(pattern)  # a fresh matcher: its first search is measured
        start = perf_counter_ns()
        try:
            compiled.search(text)
        except SearchTooCostly:
            return "refused"
        times.append((perf_counter_ns() - start) / 1e6)
    return f"{statistics.median(times):.2f}"


def re_ms(pattern: str, text: str) -> str:
    code = (
        "import re, sys, time\n"
        "p, t = sys.argv[1], sys.stdin.read()\n"
        "c = re.compile(p)\n"
        "s = time.perf_counter(); c.search(t); print((time.perf_counter() - s) * 1000)\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, pattern],
            input=text,
            capture_output=True,
            text=True,
            timeout=RE_LIMIT,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return f"> {RE_LIMIT:.0f} s"
    return f"{float(done.stdout):.2f}"


def main() -> None:
    print(f"pattern search, median of {RUNS} (ms); {machine()}")
    rows = []
    for what, pattern, make in CASES:
        for length in LENGTHS:
            text = make(length)
            rows.append([what, f"{len(text):,}", kit_ms(pattern, text), re_ms(pattern, text)])
    print(table(["pattern", "argument length", "kit (ms)", "Python re (ms)"], rows, right=1))


if __name__ == "__main__":
    main()
