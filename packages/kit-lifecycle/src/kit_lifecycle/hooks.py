"""``@hook``: a lifecycle callback that passes everything through and logs safely.

The decorated callback keeps its own signature for type checkers and carries a
:class:`~kit_core.HookSpec`, read with :func:`kit_core.declaration_of`.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable, Sequence
from typing import Any, ParamSpec, TypeVar, cast

from kit_core import HookSpec, declare
from kit_core._call_log import success_level
from kit_core.hermes import modelled_hooks
from kit_lifecycle._callbacks import check_snake, did_you_mean, require_kwargs_callback
from kit_lifecycle._observe import call_observed, call_observed_async
from kit_lifecycle._secrets import EnvSecrets, attach, check_env_names
from kit_lifecycle.errors import DeclarationError

__all__ = ["hook"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _check_name(name: object, allow_unknown: bool) -> str:
    if not isinstance(name, str) or not name.strip():
        msg = f"hook name is required, e.g. @hook('pre_llm_call'); got {name!r}"
        raise DeclarationError(msg)
    name = check_snake("hook name", name.strip(), "pre_llm_call")
    if name not in modelled_hooks() and not allow_unknown:
        hint = did_you_mean(name, modelled_hooks())
        msg = (
            f"hook {name!r} is not a hook of any hermes-agent release the kit knows{hint} A"
            " host would store it and never call it. Pass allow_unknown=True only for a hook"
            " of a newer host"
        )
        raise DeclarationError(msg)
    return name


def hook(
    name: str, *, allow_unknown: bool = False, requires_env: Sequence[str] | None = None
) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """Declare a callback for the host hook ``name``.

    The callback receives the host's keyword arguments unchanged and its return value
    goes back unchanged; an exception propagates (the same object) so the host sees it
    and applies its own policy. For most hooks that policy isolates the callback (hermes
    logs it and calls the next one), but upstream hermes (0.21) fails ``pre_tool_call``
    closed: a guard that raises, or runs past ``plugins.hook_callback_timeout`` (30 s),
    blocks the tool call, for every tool of every plugin; :func:`register_plugin` warns
    about it on such a host. Type checkers see the callback's own signature. Logs: the
    hook name, elapsed time, result type and the ``session_id`` / ``task_id`` the host
    passed, never payloads or exception messages.

    An ``async def`` callback is wrapped in an ``async def`` (the host awaits it, and the
    log line times and types the awaited result, or logs the exception raised inside);
    it is refused where the host loaded in the process does not await hooks (any
    hermes-agent release of the package registry; with no hermes loaded too).

    Secret values never show in those lines nor in the message of an exception leaving
    the callback: secret-shaped text, and the current values of the environment
    variables named in ``requires_env`` and, once :func:`register_plugin` registered
    the hook, in the ``requires_env`` of the plugin's tools.

    Raises:
        DeclarationError: an unknown hook name (with a did-you-mean) unless
            ``allow_unknown``; a callback without ``**kwargs``; an async generator;
            ``requires_env`` that is not a list of variable names. (An ``async def``
            callback is refused by ``register_plugin`` on a release that never awaits
            hooks, naming it; the decorator's verdict never depends on what is imported.)
    """
    hook_name = _check_name(name, allow_unknown)
    label = f"@hook({hook_name!r})"
    env_names = check_env_names(label, requires_env)

    def decorate(fn: Callable[_P, _R]) -> Callable[_P, _R]:
        require_kwargs_callback(label, fn)
        if inspect.isasyncgenfunction(fn):
            msg = (
                f"{label}: an async generator never runs as a hook: a host that awaits hooks"
                " awaits a coroutine, and one that does not drops the generator; write a def"
                " or an async def that returns its result"
            )
            raise DeclarationError(msg)
        module = getattr(fn, "__module__", None) or "hermes_plugin_kit"
        logger = logging.getLogger(module)
        ok_level = success_level(module)  # a hook can run on every tool call: lowerable
        env = EnvSecrets(env_names)
        wrapper: Callable[..., Any]
        if inspect.iscoroutinefunction(fn):

            @functools.wraps(fn)
            async def awaited(**kwargs: Any) -> Any:
                return await call_observed_async(fn, kwargs, hook_name, logger, env, ok_level)

            wrapper = awaited
        else:

            @functools.wraps(fn)
            def called(**kwargs: Any) -> Any:
                return call_observed(fn, kwargs, hook_name, logger, env, ok_level)

            wrapper = called
        attach(wrapper, env)
        return cast("Callable[_P, _R]", declare(wrapper, HookSpec(hook_name, wrapper)))

    return decorate
