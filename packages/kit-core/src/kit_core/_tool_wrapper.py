"""The function a tool is: ``(args=None, /, **kwargs)``, sync or ``async def`` as its
handler is, which runs the call through its :class:`~kit_core._runtime.ToolRunner`.
"""

from __future__ import annotations

from collections.abc import Callable
from time import perf_counter
from types import FunctionType
from typing import Any, Final, cast

from kit_core._call_guards import propagates
from kit_core._runtime import ToolRunner

__all__ = ["wrapper_of"]


def _wrapper_factory() -> Callable[[ToolRunner], FunctionType]:
    """:func:`wrapper_of`, with the names every tool's wrapper uses bound once: the
    wrappers share these cells, and each has only its own tool's in addition."""
    clock, everything, lets_through = perf_counter, BaseException, propagates

    def wrapper_of(runner: ToolRunner) -> FunctionType:
        """The function a tool is: ``(args=None, /, **kwargs)``, sync or ``async def`` as its
        handler is, the two the same path but for the ``await``: check the arguments
        (:meth:`ToolRunner.begin`), call the handler, encode what it returned
        (:meth:`ToolRunner.finish`); whatever the handler raises is an error envelope
        (:meth:`ToolRunner.fail`). Its body names only its closure, so the kit can re-create
        it in the handler's module (see ``kit_core.tools``)."""
        handler = runner.handler
        begin, finish, fail = runner.begin, runner.finish, runner.fail

        if runner.is_async:

            async def async_wrapper(raw: Any = None, /, **kwargs: Any) -> str | dict[str, Any]:
                started = clock()
                try:
                    args, kwargs, refused, info = begin(raw, kwargs, started)
                    if refused is not None:
                        return refused
                    result = await handler(args, **kwargs)
                except everything as exc:
                    if lets_through(exc):
                        raise
                    return fail(exc, started)
                return finish(result, started, info)

            return cast("FunctionType", async_wrapper)

        def sync_wrapper(raw: Any = None, /, **kwargs: Any) -> str | dict[str, Any]:
            started = clock()
            try:
                args, kwargs, refused, info = begin(raw, kwargs, started)
                if refused is not None:
                    return refused
                result = handler(args, **kwargs)
            except everything as exc:
                if lets_through(exc):
                    raise
                return fail(exc, started)
            return finish(result, started, info)

        return cast("FunctionType", sync_wrapper)

    return wrapper_of


wrapper_of: Final = _wrapper_factory()
