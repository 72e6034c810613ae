"""A value as a log line shows it: redacted JSON, cut short, with bounded work.

Whatever the caller passed (a 10 MB string, a million keys, a set, bytes, an object
whose ``repr`` raises), the preview reads a bounded part of it, redacts every string it
shows, secret keys' values included, and never raises.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Iterable, Mapping
from typing import Any, Final, cast

from kit_core.redaction import REDACTED, is_secret_key, redact_preview

__all__ = ["preview"]

_ENCODER: Final = json.JSONEncoder(ensure_ascii=False)
_MAX_DEPTH: Final = 32
_MAX_INT_BITS: Final = 256
_FLAT_KEYS: Final = 16


class _Budget:
    """How many more values the preview may look at."""

    __slots__ = ("left",)

    def __init__(self, left: int) -> None:
        self.left = left

    def take(self) -> bool:
        self.left -= 1
        return self.left >= 0


def _text(value: object, secrets: tuple[str, ...], limit: int) -> str:
    """A redacted, cut ``repr`` of a value JSON has no type for; never raises."""
    try:
        if isinstance(value, bytes | bytearray):
            shown = repr(bytes(value[: 2 * limit]))
        else:
            shown = repr(value)
        if shown.__class__ is not str:
            shown = f"<{type(value).__name__}>"
    except Exception:
        shown = f"<{type(value).__name__}>"
    return redact_preview(shown, limit, secrets)


def _items(items: Iterable[Any], size: int, budget: _Budget) -> tuple[list[Any], bool]:
    """At most as many items as the budget allows, and whether some were left out."""
    if size <= budget.left:
        return list(items), False
    taken = list(itertools.islice(items, max(budget.left, 0) + 1))
    more = len(taken) > budget.left
    return taken[: max(budget.left, 0)], more


def _shown(value: Any, secrets: tuple[str, ...], limit: int, depth: int, budget: _Budget) -> Any:
    if not budget.take():
        return "…"
    cls = type(value)  # pyright: ignore[reportUnknownVariableType]
    if cls is str:
        return redact_preview(value, limit, secrets)
    if cls is bool or cls is float or value is None:
        return value
    if cls is int:
        return (
            value if value.bit_length() <= _MAX_INT_BITS else f"<int of {value.bit_length()} bits>"
        )
    if depth >= _MAX_DEPTH:
        return "<max depth>"
    if cls is dict or isinstance(value, Mapping):
        mapping = cast("Mapping[Any, Any]", value)
        pairs, more = _items(mapping.items(), len(mapping), budget)
        shown: dict[str, Any] = {}
        for key, item in pairs:
            name = key if isinstance(key, str) else _text(key, secrets, limit)
            shown[redact_preview(name, limit, secrets)] = (
                REDACTED if is_secret_key(key) else _shown(item, secrets, limit, depth + 1, budget)
            )
        if more:
            shown["…"] = "…"
        return shown
    if cls is list or isinstance(value, list | tuple | set | frozenset):
        collection = cast("list[Any] | tuple[Any, ...] | set[Any] | frozenset[Any]", value)
        members, more = _items(collection, len(collection), budget)
        listed = [_shown(m, secrets, limit, depth + 1, budget) for m in members]
        return [*listed, "…"] if more else listed
    return _text(value, secrets, limit)


@functools.lru_cache(maxsize=512)
def _plain_key(key: str, limit: int) -> str:
    """A ``str`` key as :func:`_shown` shows it when no secret is named (the same few
    keys come back in every call)."""
    return redact_preview(key, limit, ())


def _flat(value: dict[Any, Any], secrets: tuple[str, ...], limit: int) -> dict[str, Any] | None:
    """What :func:`_shown` makes of a dict of a few ``str`` keys and ``str``, number,
    ``bool`` or ``None`` values (a tool's arguments, nearly always), without its walk;
    None for any other dict."""
    if len(value) > _FLAT_KEYS or len(value) >= limit:
        return None
    shown: dict[str, Any] = {}
    for key, item in value.items():
        if key.__class__ is not str:
            return None
        name = redact_preview(key, limit, secrets) if secrets else _plain_key(key, limit)
        cls = item.__class__
        if is_secret_key(key):
            shown[name] = REDACTED
        elif cls is str:
            shown[name] = redact_preview(item, limit, secrets)
        elif (
            cls is bool
            or cls is float
            or item is None
            or (cls is int and item.bit_length() <= _MAX_INT_BITS)
        ):
            shown[name] = item
        else:
            return None
    return shown


def preview(value: Any, secrets: tuple[str, ...], limit: int) -> str:
    """Redacted JSON of ``value``, at most ``limit`` characters (plus ``…``)."""
    try:
        shown = _flat(value, secrets, limit) if value.__class__ is dict else None
        if shown is None:
            shown = _shown(value, secrets, limit, 0, _Budget(limit))
        text = _ENCODER.encode(shown)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + "…"
