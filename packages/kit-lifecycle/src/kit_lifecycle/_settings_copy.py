"""A deep copy of a plugin's settings that never raises, and says what it could not copy.

Mappings and lists are copied level by level without recursion, so any depth is fine, and
a value reached twice (a YAML anchor, a cycle) is copied once and shared as it was in the
original. Any other value goes through :func:`copy.deepcopy`; one that cannot be copied
(a lock, an open file, a tuple nested past the recursion limit) is kept as it is, the
host's own object, and reported by its key path.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, Final, cast

from kit_core import redact_text

_IMMUTABLE: Final = frozenset({str, int, float, bool, type(None), bytes, complex})
_SHOWN_LEVELS: Final = 6
"""A key path deeper than twice this shows its first and last levels only."""
_KEY_CHARS: Final = 40


class _Path:
    """Where a value sits: its parent's path and its key (built as the copy descends)."""

    __slots__ = ("key", "parent")

    def __init__(self, parent: _Path | None, key: object) -> None:
        self.parent = parent
        self.key = key

    def text(self, root: str) -> str:
        levels: list[str] = []
        node: _Path | None = self
        while node is not None:
            levels.append(_level(node.key))
            node = node.parent
        levels.reverse()
        if len(levels) > 2 * _SHOWN_LEVELS:
            hidden = len(levels) - 2 * _SHOWN_LEVELS
            levels = [
                *levels[:_SHOWN_LEVELS],
                f"…({hidden} levels)…",
                *levels[-_SHOWN_LEVELS:],
            ]
        return redact_text(root + "".join(levels))  # a key may itself look like a secret


def _level(key: object) -> str:
    if isinstance(key, str) and key.isidentifier():
        return f".{key}"
    text = repr(key)
    return f"[{text if len(text) <= _KEY_CHARS else text[: _KEY_CHARS - 1] + '…'}]"


def _why(exc: Exception) -> str:
    if isinstance(exc, RecursionError):
        return "nested too deeply to copy (RecursionError)"
    return f"cannot be copied ({type(exc).__name__})"


_Work = list[tuple[list[tuple[object, object]], "dict[Any, Any] | list[Any]", "_Path | None"]]


def copy_settings(
    settings: Mapping[Any, Any], root: str
) -> tuple[dict[Any, Any] | None, list[str]]:
    """A copy of ``settings`` as a plain dict, and ``"<key path>: <why>"`` for every value
    kept uncopied; or None and the name of the exception, when ``settings`` itself cannot
    be read."""
    problems: list[tuple[_Path | None, Exception]] = []
    memo: dict[int, object] = {}
    work: _Work = []
    top = _copy(settings, None, memo, work, problems)
    if top is settings:
        return None, [type(exc).__name__ for _, exc in problems]
    while work:
        items, target, path = work.pop()
        for key, value in items:
            copied = _copy(value, _Path(path, key), memo, work, problems)
            if isinstance(target, list):
                target.append(copied)
            else:
                target[key] = copied
    report = [f"{path.text(root) if path else root}: {_why(exc)}" for path, exc in problems]
    return cast("dict[Any, Any]", top), report


def _copy(
    value: object,
    path: _Path | None,
    memo: dict[int, object],
    work: _Work,
    problems: list[tuple[_Path | None, Exception]],
) -> object:
    """The copy of ``value``: a container is made empty now and filled from ``work``."""
    original = value
    if value.__class__ in _IMMUTABLE:
        return value
    if id(value) in memo:
        return memo[id(value)]
    target: dict[Any, Any] | list[Any]
    try:
        if isinstance(value, Mapping):
            items: list[tuple[object, object]] = list(
                cast("Mapping[object, object]", value).items()
            )
            target = {}
        elif isinstance(value, list):
            items = list(enumerate(cast("list[object]", value)))
            target = []
        else:
            copied = copy.deepcopy(value)
            memo[id(value)] = copied
            return copied
    except Exception as exc:  # a lock, a broken __deepcopy__ or items(), too deep a tuple
        problems.append((path, exc))
        return original
    memo[id(original)] = target
    work.append((items, target, path))
    return target
