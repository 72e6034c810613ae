"""``preflight --write``: set the ``provides_*`` lists of a plugin.yaml by editing its text.

Only the lines of the lists that change are rewritten; every other line, comments and key
order included, is kept byte for byte. A list keeps its style (``[a, b]`` on the key's
line, or one ``- item`` a line with its indentation) and a comment on the key's line;
comment lines inside a replaced block list go with it. A list the file lacks is appended
at its end. The result is parsed again and must equal the old mapping with the new lists,
or nothing is written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final, cast

import yaml

__all__ = ["set_provides"]

_PLAIN: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
_RESERVED: Final = frozenset(
    {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}
)  # fmt: skip
_FLOW_LINE: Final = re.compile(r"^\s*(\[[^\]#]*\])?\s*(#.*)?$")


def _scalar(name: str) -> str:
    if _PLAIN.fullmatch(name) and name.lower() not in _RESERVED:
        return name
    return json.dumps(name)


def _flow(names: Sequence[str]) -> str:
    return "[" + ", ".join(_scalar(n) for n in names) + "]"


def _key_line(lines: list[str], key: str) -> int | None:
    pattern = re.compile(rf"^{re.escape(key)}\s*:(?=\s|$)")
    return next((i for i, line in enumerate(lines) if pattern.match(line)), None)


def _block_end(lines: list[str], start: int) -> int:
    """The index after the last line of the block value that begins after ``start``."""
    end, j = start + 1, start + 1
    while j < len(lines):
        line = lines[j]
        if not line.strip():
            j += 1
            continue
        if line[0] in " \t-":
            end = j = j + 1
            continue
        break
    return end


def _replace(lines: list[str], i: int, key: str, names: Sequence[str]) -> list[str]:
    line = lines[i]
    newline = "\n" if line.endswith("\n") else ""
    rest = line.rstrip("\r\n")[line.index(":") + 1 :]
    flow = _FLOW_LINE.match(rest)
    if flow is None:
        msg = f"{key} is written in a form preflight --write does not edit: {rest.strip()!r}"
        raise ValueError(msg)
    value, comment = flow.group(1), flow.group(2)
    if value is not None or not names:  # a flow list (or an empty one) on the key's line
        end = i + 1 if value is not None else _block_end(lines, i)
        tail = f"  {comment}" if comment else ""
        return [*lines[:i], f"{key}: {_flow(names)}{tail}{newline}", *lines[end:]]
    end = _block_end(lines, i)
    items = [ln for ln in lines[i + 1 : end] if ln.lstrip().startswith("-")]
    indent = items[0][: len(items[0]) - len(items[0].lstrip())] if items else "  "
    block = [f"{indent}- {_scalar(n)}\n" for n in names]
    if end == len(lines) and lines[end - 1 : end] and not lines[end - 1].endswith("\n"):
        block[-1] = block[-1].rstrip("\n")
    return [*lines[: i + 1], *block, *lines[end:]]


def set_provides(text: str, lists: Mapping[str, Sequence[str]]) -> str:
    """``text`` (a plugin.yaml) with each ``key: names`` of ``lists`` set; a key the text
    lacks is appended only when its list is not empty. Raises ValueError when the edit
    would change anything else."""
    before: object = yaml.safe_load(text)
    if not isinstance(before, dict):
        msg = "plugin.yaml is not a mapping"
        raise ValueError(msg)
    lines = text.splitlines(keepends=True)
    for key, names in lists.items():
        i = _key_line(lines, key)
        if i is not None:
            lines = _replace(lines, i, key, names)
        elif names:
            if lines and not lines[-1].endswith("\n"):
                lines[-1] += "\n"
            lines.append(f"{key}: {_flow(names)}\n")
    result = "".join(lines)
    expected: dict[str, Any] = dict(cast("dict[str, Any]", before))
    for key, names in lists.items():
        if key in expected or names:
            expected[key] = list(names)
    if yaml.safe_load(result) != expected:
        msg = "editing the provides_* lists would change other keys; edit plugin.yaml by hand"
        raise ValueError(msg)
    return result
