"""A ``@tool`` written as a method of a provider class: ``def search(self, query: str)``.

A memory provider or context engine answers its own tool calls (hermes calls the
provider's ``handle_tool_call``, never a registered handler), so its tools may need the
provider instance. A handler whose first parameter is named ``self`` is such a method:
the rest of its signature is read as any handler's (``(self, args, **kwargs)`` with
``params=``, or typed parameters), and the decorated method takes the instance first,
``(self, args=None, /, **kwargs)``, so ``provider.search({"query": "x"})`` and
:class:`~kit_core.provider_tools.ProviderTools` bound to the provider both call it with
its instance.

The instance travels to the author's method through the kit's one call path (checks,
envelope, logging) as a keyword no Python parameter can be named (:data:`INSTANCE`),
taken out again before the method runs.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from types import FunctionType
from typing import Any, Final

from kit_core._annotations import signature_of
from kit_core.errors import RegistrationError

__all__ = ["INSTANCE", "instance_first", "is_method", "method_wrapper", "refuse_registering"]

INSTANCE: Final = "<self>"
"""The keyword the instance of a method tool travels under: not an identifier, so it never
meets a parameter or a keyword hermes passes."""


def is_method(fn: object) -> bool:
    """Whether ``fn``'s first parameter is a positional one named ``self``."""
    if type(fn) is FunctionType and not {"__signature__", "__wrapped__"} & fn.__dict__.keys():
        code = fn.__code__
        return code.co_argcount > 0 and code.co_varnames[0] == "self"
    try:
        params = list(signature_of(fn).parameters.values())  # pyright: ignore[reportArgumentType]
    except (TypeError, ValueError):
        return False
    return bool(params) and params[0].name == "self" and params[0].kind in _POSITIONAL


_POSITIONAL: Final = (
    inspect.Parameter.POSITIONAL_ONLY,
    inspect.Parameter.POSITIONAL_OR_KEYWORD,
)


class UnboundMethodTool(TypeError):
    """A method tool called without its instance."""


def instance_first(
    fn: Callable[..., Any], adapt: Callable[[Callable[..., Any]], Callable[..., Any]]
) -> Callable[..., Any]:
    """The ``(args, **kwargs)`` handler of a method tool: takes the instance out of the
    keywords and calls ``adapt(fn bound to it)`` with the rest.

    ``adapt`` turns the bound method into the ``(args, **kwargs)`` callable the kit runs:
    itself for a spec-style method, the typed adapter for a typed one.
    """
    method = getattr(fn, "__name__", "the method")

    def call(args: dict[str, Any], **kwargs: Any) -> Any:
        instance = kwargs.pop(INSTANCE, _UNBOUND)
        if instance is _UNBOUND:
            msg = (
                f"{method}() is a method of a provider class (its first parameter is self)"
                " and was called without its instance; call it on the provider"
                f" (provider.{method}(args)) or through the provider's ProviderTools"
                " (self.tools.handle(name, args))"
            )
            raise UnboundMethodTool(msg)
        return adapt(functools.partial(fn, instance))(args, **kwargs)

    return call


_UNBOUND: Final = object()


def method_wrapper(inner: Callable[..., Any], is_async: bool) -> FunctionType:
    """The decorated method: ``(self, args=None, /, **kwargs)`` calling the kit's wrapper
    ``inner`` with the instance among the keywords. Its body names only its closure (the
    kit re-creates it in the handler's module)."""
    key = INSTANCE
    if is_async:

        async def async_method(self: Any, raw: Any = None, /, **kwargs: Any) -> str:
            kwargs[key] = self
            return await inner(raw, **kwargs)

        return async_method

    def method(self: Any, raw: Any = None, /, **kwargs: Any) -> str:
        kwargs[key] = self
        return inner(raw, **kwargs)

    return method


def refuse_registering(name: str, is_method: bool, where: str) -> None:
    """Refuse to hand a method tool to the host's ``register_tool``: hermes calls a
    registered handler as ``handler(args, **kwargs)``, with no instance.

    Raises:
        RegistrationError: ``is_method``, naming the tool and the fix.
    """
    if is_method:
        msg = (
            f"tool {name} (at {where}) is a method of a provider class (its first parameter is"
            " self), which hermes cannot call as a registered tool; list it in the provider's"
            " ProviderTools and answer it from handle_tool_call, or drop self to register it"
        )
        raise RegistrationError(msg)
