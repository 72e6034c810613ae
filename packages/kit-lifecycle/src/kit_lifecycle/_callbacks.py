"""Checks shared by every lifecycle decorator."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable
from typing import Any, Final

from kit_core._annotations import signature_of
from kit_lifecycle.errors import DeclarationError

_SNAKE: Final = re.compile(r"[a-z][a-z0-9_]*")


def callback_name(fn: object) -> str:
    return str(getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or fn)


def require_kwargs_callback(label: str, fn: object) -> Callable[..., Any]:
    """A callable that accepts ``**kwargs`` (hermes adds keywords to every call)."""
    if not callable(fn):
        msg = f"{label}: expected a function, got {type(fn).__name__}"
        raise DeclarationError(msg)
    try:
        params = signature_of(fn).parameters.values()
    except (TypeError, ValueError):
        return fn
    if not any(p.kind is p.VAR_KEYWORD for p in params):
        msg = (
            f"{label}: {callback_name(fn)} must accept **kwargs: hermes passes every hook and"
            " middleware argument by keyword and adds new ones over time (at least"
            " telemetry_schema_version), and a callback that cannot take them silently never runs;"
            f" write `def {getattr(fn, '__name__', 'callback')}(**kwargs):`"
        )
        raise DeclarationError(msg)
    return fn


def is_async(fn: object) -> bool:
    return inspect.iscoroutinefunction(fn) or inspect.isasyncgenfunction(fn)


def check_snake(what: str, value: str, example: str) -> str:
    if not _SNAKE.fullmatch(value):
        msg = f"{what} {value!r} must be lowercase snake_case like {example!r}"
        raise DeclarationError(msg)
    return value


def did_you_mean(value: str, known: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` naming the closest of ``known``, else ``"."``."""
    import difflib  # here, not at import: only a misspelt name needs it

    close = difflib.get_close_matches(value, sorted(known), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else "."
