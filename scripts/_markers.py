"""Rewrite the generated part of a docs page: the text between two HTML comment markers."""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["write_between_markers"]


def write_between_markers(path: Path, start: str, end: str, text: str) -> None:
    """Put ``text`` between the ``start`` and ``end`` markers of ``path``; stop with an error
    naming the page when it has no such markers."""
    content = path.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(start) + ".*?" + re.escape(end), re.DOTALL)
    if not pattern.search(content):
        msg = f"{path} has no {start} ... {end} markers"
        raise SystemExit(msg)
    path.write_text(pattern.sub(lambda _: f"{start}\n{text}\n{end}", content), encoding="utf-8")
