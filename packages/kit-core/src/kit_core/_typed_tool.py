"""A tool declared by its handler's typed signature: its argument specs, and the
``(args, **kwargs)`` callable the kit's one call path runs in its place.

hermes calls every tool handler as ``handler(args, **kwargs)``: ``args`` the model's
arguments, the keywords its own (``task_id``, ``user_task``, and ``session_id`` from
0.17.0; the host model's ``tool_keywords``, read from each release's dispatch). A typed
handler takes the model's arguments as keyword parameters instead; the kit checks them
as it checks a spec-style tool's (the same compiled check, from the same specs), then
calls the handler with them, the runtime keywords going to its ``**kwargs`` or to one
:class:`~kit_core.typed.ToolContext` parameter, never into the model's schema.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from functools import cache
from types import FunctionType
from typing import Any, Final

from kit_core._annotations import code_parameters, signature_of
from kit_core._docstrings import Docstring, parse_docstring
from kit_core._hints import hints_of
from kit_core._method_tool import instance_first
from kit_core._pydantic import ModelRefused
from kit_core._typed import Derived, derive
from kit_core._typed_schema import json_default
from kit_core.args import ArgSpec
from kit_core.errors import ToolDefinitionError
from kit_core.typed import ToolContext

__all__ = ["TypedHandler", "typed_handler"]


@cache
def runtime_keywords() -> frozenset[str]:
    """Every keyword a known hermes release passes a tool handler besides the model's
    arguments (read from the host model when the first typed tool is declared)."""
    from kit_core.hermes import known_releases

    found: set[str] = set()
    for release in known_releases():
        found |= release.tool_keywords
    return frozenset(found)


class TypedHandler:
    """A typed handler read: its argument specs, its docstring, and its adapter."""

    __slots__ = ("call", "direct", "docstring", "params")

    def __init__(
        self,
        params: dict[str, ArgSpec],
        docstring: Docstring,
        call: Callable[..., Any],
        direct: frozenset[str],
    ) -> None:
        self.params = params
        self.docstring = docstring
        self.call = call
        self.direct = direct


_EMPTY: Final = inspect.Parameter.empty
_KEYWORDS: Final = inspect.Parameter.VAR_KEYWORD
_POSITIONAL_ONLY: Final = inspect.Parameter.POSITIONAL_ONLY
_VAR_POSITIONAL: Final = inspect.Parameter.VAR_POSITIONAL


def _parameters(fn: Callable[..., Any]) -> list[tuple[str, Any, Any]]:
    """``(name, kind, default)`` of each parameter: from a plain function's code object,
    else from its signature (a wrapper, a partial, a callable object)."""
    if (
        type(fn) is not FunctionType
        or "__wrapped__" in fn.__dict__
        or "__signature__" in fn.__dict__
    ):
        return [(p.name, p.kind, p.default) for p in signature_of(fn).parameters.values()]
    return code_parameters(fn)


_OPTIONAL_CONTEXT: Final = ToolContext | None
"""``ctx: ToolContext | None = None`` (or ``Optional[ToolContext]``, equal to it): a context
parameter a direct call may leave out (the kit always passes it), so type checkers accept
``tool(city="Oslo")``."""


def typed_handler(
    fn: Callable[..., Any], label: str, allow_undocumented: bool, *, method: bool = False
) -> TypedHandler:
    """Read a typed handler's signature and docstring (a ``method``'s without its
    ``self``, which :func:`~kit_core._method_tool.instance_first` passes).

    Raises:
        ToolDefinitionError: a parameter the model cannot be given (unannotated,
            positional-only, ``*args``, a hermes runtime keyword, an undescribable type),
            naming it and the fix.
    """
    try:
        hints = hints_of(fn)
    except Exception as exc:
        msg = (
            f"{label}: the handler's annotations cannot be resolved ({type(exc).__name__}:"
            f" {exc}); define the types they name at module level"
        )
        raise ToolDefinitionError(msg) from exc
    docstring = parse_docstring(getattr(fn, "__doc__", None))
    reserved = runtime_keywords()
    params: dict[str, ArgSpec] = {}
    converters: dict[str, Callable[[Any], Any]] = {}
    context: str | None = None
    keywords = False
    for name, kind, value in _parameters(fn)[1 if method else 0 :]:
        where = f"{label}: parameter {name!r}"
        if kind is _KEYWORDS:
            keywords = True
            continue
        if kind is _POSITIONAL_ONLY or kind is _VAR_POSITIONAL:
            msg = (
                f"{where} is positional-only, but a typed handler is called with keyword"
                " arguments; make it a normal parameter"
            )
            raise ToolDefinitionError(msg)
        annotation = hints.get(name, _EMPTY)
        if annotation is ToolContext or annotation == _OPTIONAL_CONTEXT:
            if context is not None:
                msg = f"{where}: only one ToolContext parameter is allowed (also {context!r})"
                raise ToolDefinitionError(msg)
            context = name
            continue
        if name in reserved:
            msg = (
                f"{where} has the name of a keyword hermes passes every tool"
                f" ({', '.join(sorted(reserved))}); it would clash with it. Rename it, or"
                " read the value from **kwargs or a ToolContext parameter"
            )
            raise ToolDefinitionError(msg)
        if annotation is _EMPTY:
            msg = (
                f"{where} has no type annotation, so the kit cannot tell the model what to"
                f" pass; write e.g. `{name}: str`. (A spec-style handler takes (args, **kwargs)"
                " and declares params=)"
            )
            raise ToolDefinitionError(msg)
        required = value is _EMPTY
        default = None if required else json_default(value, where)
        derived: Derived = derive(
            annotation,
            docstring.names.get(name),
            required=required,
            default=default,
            where=where,
            allow_undocumented=allow_undocumented,
            absent_is_none=value is None,
        )
        params[name] = derived.spec
        if derived.convert is not None:
            converters[name] = derived.convert
    if method:
        call = instance_first(fn, lambda bound: _adapter(bound, converters, context, keywords))
    else:
        call = _adapter(fn, converters, context, keywords)
    return TypedHandler(params, docstring, call, frozenset(params))


def _adapter(
    fn: Callable[..., Any],
    converters: Mapping[str, Callable[[Any], Any]],
    context: str | None,
    keywords: bool,
) -> Callable[..., Any]:
    """``(args, **kwargs)`` calling ``fn`` with the checked arguments as keywords (converted
    where the annotation asks), the runtime keywords to ``fn``'s ``**kwargs`` or context
    parameter. An ``async def`` handler's coroutine is returned as it is, for the kit to
    await."""
    converted: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    if converters:
        convert_all = dict(converters)

        def convert(args: dict[str, Any]) -> dict[str, Any]:
            try:
                return {
                    k: (convert_all[k](v) if k in convert_all and v is not None else v)
                    for k, v in args.items()
                }
            except ModelRefused as refused:  # the runner answers it as an argument error
                raise refused.locate(args) from None

        converted = convert
    if context is not None:
        name = context

        def with_context(args: dict[str, Any], **kwargs: Any) -> Any:
            values = converted(args) if converted is not None else args
            if keywords:
                return fn(**{**kwargs, **values, name: ToolContext.from_keywords(kwargs)})
            return fn(**values, **{name: ToolContext.from_keywords(kwargs)})

        return with_context
    if keywords:

        def with_keywords(args: dict[str, Any], **kwargs: Any) -> Any:
            return fn(**{**kwargs, **(converted(args) if converted is not None else args)})

        return with_keywords
    if converted is not None:

        def with_conversion(args: dict[str, Any], **kwargs: Any) -> Any:
            return fn(**converted(args))

        return with_conversion

    def plain(args: dict[str, Any], **kwargs: Any) -> Any:
        return fn(**args)

    return plain
