"""``@middleware``: a callback that rewrites or wraps tool and model calls.

The decorated callback keeps its own signature for type checkers and carries a
:class:`MiddlewareSpec`, read with :func:`kit_core.declaration_of`.
"""

from __future__ import annotations

import enum
import functools
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, ParamSpec, TypeVar, cast

from kit_core import Declaration, declare
from kit_core._call_log import success_level
from kit_core.hermes import modelled_middleware
from kit_lifecycle._callbacks import check_snake, did_you_mean, is_async, require_kwargs_callback
from kit_lifecycle._observe import call_observed
from kit_lifecycle._secrets import EnvSecrets, attach, check_env_names
from kit_lifecycle.errors import DeclarationError

__all__ = ["MiddlewareKind", "MiddlewareSpec", "middleware"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


class MiddlewareKind(enum.StrEnum):
    """The middleware phases of hermes-agent, with the host's string values."""

    TOOL_REQUEST = "tool_request"
    """Return ``{"args": {...}}`` to replace a tool's arguments before guards and execution."""
    TOOL_EXECUTION = "tool_execution"
    """Call ``next_call(args)`` once to run the tool; return what it returned (a str)."""
    LLM_REQUEST = "llm_request"
    """Return ``{"request": {...}}`` to replace the provider request."""
    LLM_EXECUTION = "llm_execution"
    """Call ``next_call(request)`` once to run the model call; return its response."""


@dataclass(frozen=True, slots=True)
class MiddlewareSpec(Declaration):
    """A middleware declaration: the phase and the (wrapped) callback to register."""

    surface: ClassVar[str] = "middleware"
    kind: str
    callback: Callable[..., Any] = field(repr=False)


def _kind(kind: object, allow_unknown: bool) -> str:
    if isinstance(kind, MiddlewareKind):
        return kind.value
    if not isinstance(kind, str) or not kind.strip():
        msg = f"middleware kind is required, e.g. MiddlewareKind.TOOL_REQUEST; got {kind!r}"
        raise DeclarationError(msg)
    value = check_snake("middleware kind", kind.strip(), "tool_request")
    known = modelled_middleware()
    if value not in known and not allow_unknown:
        hint = did_you_mean(value, known)
        msg = (
            f"middleware kind {value!r} is not a middleware phase of any hermes-agent release"
            f" the kit knows{hint} Known kinds: {', '.join(sorted(known))}. A host would store"
            " the callback and never call it. Pass allow_unknown=True only for a phase of a"
            " newer host"
        )
        raise DeclarationError(msg)
    return value


def _single_use(next_call: Callable[..., Any], label: str) -> Callable[..., Any]:
    lock = threading.Lock()
    used = False

    @functools.wraps(next_call)
    def once(*args: Any, **kwargs: Any) -> Any:
        nonlocal used
        with lock:
            if used:
                msg = (
                    f"{label} called next_call() a second time; it runs the real call and may be"
                    " called at most once: keep its result and return that"
                )
                raise RuntimeError(msg)
            used = True
        return next_call(*args, **kwargs)

    return once


def middleware(
    kind: MiddlewareKind | str,
    *,
    allow_unknown: bool = False,
    requires_env: Sequence[str] | None = None,
) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """Declare a middleware callback for ``kind`` (a :class:`MiddlewareKind`, its string,
    or, with ``allow_unknown=True``, the string of a newer host's phase).

    Keyword arguments and the return value pass through; exceptions propagate (the same
    object), and type checkers see the callback's own signature. An execution callback
    gets a single-use ``next_call``: a second call raises a clear ``RuntimeError``
    instead of running the tool or model twice. Logs: the kind, elapsed time, result
    type and ``session_id``/``task_id``, never payloads or exception messages.

    Secret values never show in those lines nor in the message of an exception leaving
    the callback: secret-shaped text, and the current values of the environment
    variables named in ``requires_env`` and, once :func:`register_plugin` registered
    the middleware, in the ``requires_env`` of the plugin's tools.

    Raises:
        DeclarationError: a blank kind; a kind no known hermes-agent release has (with a
            did-you-mean) unless ``allow_unknown``; an ``async def`` callback (hermes never awaits
            middleware), a callback without ``**kwargs``, or ``requires_env`` that is
            not a list of variable names.
    """
    value = _kind(kind, allow_unknown)
    label = f"@middleware({value!r})"
    env_names = check_env_names(label, requires_env)

    def decorate(fn: Callable[_P, _R]) -> Callable[_P, _R]:
        require_kwargs_callback(label, fn)
        if is_async(fn):
            msg = (
                f"{label}: middleware callbacks must be synchronous: hermes-agent does not await"
                " middleware callbacks, so an async def would return an unawaited coroutine"
                " (ignored for request phases, used as the result for execution phases)"
            )
            raise DeclarationError(msg)
        module = getattr(fn, "__module__", None) or "hermes_plugin_kit"
        logger = logging.getLogger(module)
        ok_level = success_level(module)  # tool middleware runs on every tool call
        prefix = f"{value} middleware"
        env = EnvSecrets(env_names)

        @functools.wraps(fn)
        def wrapper(**kwargs: Any) -> Any:
            next_call = kwargs.get("next_call")
            if callable(next_call):
                kwargs["next_call"] = _single_use(next_call, f"{prefix} {fn.__name__}")
            return call_observed(fn, kwargs, prefix, logger, env, ok_level)

        attach(wrapper, env)
        return cast("Callable[_P, _R]", declare(wrapper, MiddlewareSpec(value, wrapper)))

    return decorate
