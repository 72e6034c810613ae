"""Reading a docstring's description and its per-name descriptions, standard library only.

Three styles are understood, as their tools write them:

- Google: a section header (``Args:``, ``Arguments:``, ``Parameters:``, ``Attributes:``,
  ``Keyword Args:``) then ``name: text`` or ``name (type): text`` entries, continued on
  lines indented deeper than the entry;
- NumPy: a header (``Parameters``, ``Attributes``, ``Other Parameters``) underlined with
  dashes, then ``name : type`` lines whose text is indented below them;
- Sphinx: ``:param name: text``, ``:param type name: text``, ``:ivar name: text``,
  ``:var name: text`` and ``:cvar name: text`` fields.

The description is the text before the first section or field of any kind (a
``Returns:`` or ``Raises:`` section ends it as well), with paragraphs kept and
lines of one paragraph joined.
"""

from __future__ import annotations

import inspect
import re
from functools import lru_cache
from typing import Final

__all__ = ["Docstring", "parse_docstring"]

_NAMED_SECTIONS: Final = frozenset(
    {
        "args",
        "arguments",
        "parameters",
        "params",
        "attributes",
        "keyword args",
        "keyword arguments",
        "other parameters",
    }
)
_OTHER_SECTIONS: Final = frozenset(
    {
        "returns",
        "return",
        "yields",
        "yield",
        "raises",
        "warns",
        "examples",
        "example",
        "notes",
        "note",
        "see also",
        "warnings",
        "warning",
        "references",
        "todo",
        "methods",
    }
)
"""Other sections a header may name: they end the description, their entries are not
read. A line ending in ``:`` that names none of these is description text."""
_GOOGLE_HEADER: Final = re.compile(r"^([A-Za-z][A-Za-z ]*):\s*$")
_NUMPY_RULE: Final = re.compile(r"^-{3,}\s*$")
_GOOGLE_ENTRY: Final = re.compile(r"^\*{0,2}([A-Za-z_][A-Za-z0-9_]*)\s*(?:\([^)]*\))?\s*:(.*)$")
_NUMPY_ENTRY: Final = re.compile(r"^\*{0,2}([A-Za-z_][A-Za-z0-9_]*)\s*(?::.*)?$")
_SPHINX_FIELD: Final = re.compile(
    r"^:(param|parameter|arg|argument|key|keyword|ivar|var|cvar)\s+(?:[^:]*\s)?"
    r"\*{0,2}([A-Za-z_][A-Za-z0-9_]*)\s*:(.*)$"
)
_ANY_FIELD: Final = re.compile(r"^:[A-Za-z]+[^:]*:")


class Docstring:
    """A docstring read: its description and the descriptions of the names it documents."""

    __slots__ = ("description", "names")

    def __init__(self, description: str, names: dict[str, str]) -> None:
        self.description = description
        self.names = names


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _join(lines: list[str]) -> str:
    """Lines as text: a paragraph's lines joined with spaces, paragraphs by a blank line."""
    paragraphs: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            paragraphs[-1].append(line.strip())
        elif paragraphs[-1]:
            paragraphs.append([])
    return "\n\n".join(" ".join(p) for p in paragraphs if p)


def _entries(lines: list[str], entry: re.Pattern[str], inline: bool) -> dict[str, str]:
    """The entries of one section's body: a line matching ``entry`` at the body's own
    indent starts one, deeper lines continue it. ``inline``: the entry's line holds the
    start of its text (Google), else only its name and type (NumPy)."""
    found: dict[str, list[str]] = {}
    base = min((_indent(line) for line in lines if line.strip()), default=0)
    current: list[str] | None = None
    for line in lines:
        if line.strip() and _indent(line) == base:
            match = entry.match(line.strip())
            if match is None:
                current = None
                continue
            current = found.setdefault(match.group(1), [])
            if inline:
                current.append(match.group(2))
        elif current is not None:
            current.append(line)
    return {name: text for name, body in found.items() if (text := _join(body))}


def _google_header(lines: list[str], at: int) -> str | None:
    match = _GOOGLE_HEADER.match(lines[at].strip())
    name = match.group(1).lower() if match else None
    return name if name in _NAMED_SECTIONS or name in _OTHER_SECTIONS else None


def _numpy_header(lines: list[str], at: int) -> str | None:
    if at + 1 < len(lines) and _NUMPY_RULE.match(lines[at + 1].strip()):
        name = lines[at].strip().lower()
        return name if name in _NAMED_SECTIONS or name in _OTHER_SECTIONS else None
    return None


@lru_cache(maxsize=1024)
def parse_docstring(doc: object) -> Docstring:
    """The description and per-name texts of a docstring as written (``__doc__``; ``None``
    or anything but a str: no docstring); kept for the next one with the same text (the
    result is only read)."""
    if not isinstance(doc, str) or not doc.strip():
        return Docstring("", {})
    lines = inspect.cleandoc(doc).splitlines()
    names: dict[str, str] = {}
    description_end = len(lines)
    at = 0
    while at < len(lines):
        line = lines[at]
        stripped = line.strip()
        numpy = _numpy_header(lines, at) if _indent(line) == 0 else None
        google = _google_header(lines, at) if _indent(line) == 0 and numpy is None else None
        if numpy is not None or google is not None:
            description_end = min(description_end, at)
            start = at + (2 if numpy is not None else 1)
            end = start
            while end < len(lines) and (
                not lines[end].strip() or (_indent(lines[end]) > 0 if google is not None else True)
            ):
                if numpy is not None and (
                    _numpy_header(lines, end) is not None or _ANY_FIELD.match(lines[end].strip())
                ):
                    break
                end += 1
            header = numpy if numpy is not None else google
            if header in _NAMED_SECTIONS:
                body = lines[start:end]
                if numpy is not None:
                    names.update(_entries(body, _NUMPY_ENTRY, inline=False))
                else:
                    names.update(_entries(body, _GOOGLE_ENTRY, inline=True))
            at = max(end, at + 1)
            continue
        field = _SPHINX_FIELD.match(stripped)
        if field is not None or _ANY_FIELD.match(stripped):
            description_end = min(description_end, at)
            end = at + 1
            while end < len(lines) and lines[end].strip() and _indent(lines[end]) > 0:
                end += 1
            if field is not None:
                text = _join([field.group(3), *lines[at + 1 : end]])
                if text:
                    names[field.group(2)] = text
            at = end
            continue
        at += 1
    return Docstring(_join(lines[:description_end]), names)
