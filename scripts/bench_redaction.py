"""Redaction time against input size: benign, adversarial and dense-secret texts, 16 KB to 1 MB.

Each row is one kind of text; each column one size (doubling from 16 KiB to 1 MiB); each
figure the median of several runs of ``redact_text`` over that text, in milliseconds.
The last columns give the growth factor per doubling (median over the doublings; about
2x means linear) and the worst one. The adversarial texts are built to make a
backtracking pattern retry what it already scanned: repeated prefixes and fragments of
every shape with the part that would complete them missing. The last table shows what a
tool call pays at most: ``redact_preview`` of a 1 MiB text cut to the kit's limits.
Prints figures only.
"""

from __future__ import annotations

import random
import statistics
import sys
from pathlib import Path
from time import perf_counter_ns

sys.path.insert(0, str(Path(__file__).parent))

import itertools

from _bench import machine, table
from kit_core._runtime import ERROR_CHARS, PREVIEW_CHARS, TRACE_CHARS
from kit_core.redaction import redact_preview, redact_text

SIZES = [2**k * 1024 for k in range(4, 11)]  # 16 KiB .. 1 MiB
RUNS = 7


def prose(size: int) -> str:
    rng = random.Random(7)
    words = [
        *("the", "a", "tool", "call", "returned", "an", "error", "while", "the", "agent"),
        *("read", "its", "config", "file", "for", "the", "author", "of", "this", "note"),
        *("about", "basic", "usage", "of", "keys", "tokens", "and", "secrets", "in", "logs"),
    ]
    out: list[str] = []
    length = 0
    while length < size:
        word = rng.choice(words)
        out.append(word)
        length += len(word) + 1
    return " ".join(out)[:size]


def json_log(size: int) -> str:
    line = (
        '{"level": "info", "id": 12345, "name": "worker-sk-queue", "url":'
        ' "https://example.com/a?b=c", "took_ms": 4.2, "note": "nothing secret here"}\n'
    )
    return (line * (size // len(line) + 1))[:size]


def repeated(unit: str) -> object:
    def make(size: int) -> str:
        return (unit * (size // len(unit) + 1))[:size]

    return make


TEXTS = {
    "benign: English prose": prose,
    "benign: JSON log lines": json_log,
    "benign: one long word": repeated("a"),
    "adversarial: eyJ- fragments (JWT)": repeated("eyJ-"),
    "adversarial: sk- prefixes": repeated("sk-"),
    "adversarial: ask- (glued sk-)": repeated("ask-"),
    "adversarial: ghp_ prefixes": repeated("ghp_"),
    "adversarial: BEGIN lines, no END": repeated("-----BEGIN RSA PRIVATE KEY-----"),
    "adversarial: a:// a://": repeated("a://b:"),
    "adversarial: digits and colons": repeated("1234567:"),
    "adversarial: bearer bearer": repeated("bearer "),
    "adversarial: open quote after password": lambda n: 'password="' + "a" * n,
    "adversarial: key word, then spaces": lambda n: "token" + " " * n,
    "adversarial: author:author:": repeated("author:"),
    "adversarial: non-ASCII around keys": repeated("\u0130token=\u00e4 "),
    "dense: token=a (one secret every 8 chars)": repeated("token=a "),
    "dense: GitHub tokens": repeated("ghp_" + "b" * 20 + " "),
}


def median_ms(text: str) -> float:
    times: list[int] = []
    for _ in range(RUNS):
        started = perf_counter_ns()
        redact_text(text)
        times.append(perf_counter_ns() - started)
    return statistics.median(times) / 1e6


def main() -> None:
    print("## Redaction time (redact_text), median of", RUNS, "runs, ms")
    print(machine())
    print()
    headers = ["text", *(f"{s // 1024} KiB" for s in SIZES), "x/doubling", "worst x"]
    rows: list[list[str]] = []
    for name, make in TEXTS.items():
        figures = [median_ms(make(size)) for size in SIZES]  # pyright: ignore[reportCallIssue]
        growth = [b / a for a, b in itertools.pairwise(figures) if a > 0]
        rows.append(
            [
                name,
                *(f"{f:.2f}" for f in figures),
                f"{statistics.median(growth):.2f}",
                f"{max(growth):.2f}",
            ]
        )
    print(table(headers, rows))
    print()
    print("## What one call pays at most: redact_preview of a 1 MiB text, median ms")
    print()
    big = {name: make(SIZES[-1]) for name, make in TEXTS.items()}  # pyright: ignore[reportCallIssue]
    limits = [("value preview", PREVIEW_CHARS), ("error", ERROR_CHARS), ("traceback", TRACE_CHARS)]
    rows = []
    for label, limit in limits:
        worst = 0.0
        for text in big.values():
            times: list[int] = []
            for _ in range(RUNS):
                started = perf_counter_ns()
                redact_preview(text, limit)
                times.append(perf_counter_ns() - started)
            worst = max(worst, statistics.median(times) / 1e6)
        rows.append([f"{label} ({limit:,} chars)", f"{worst:.3f}"])
    print(table(["cut to", "worst text, ms"], rows))


if __name__ == "__main__":
    main()
