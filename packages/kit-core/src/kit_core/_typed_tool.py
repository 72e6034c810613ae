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
import typing
from collections.abc import Callable, Mapping
from functools import cache
from types import CodeType, FunctionType
from typing import Any, cast

from kit_core._docstrings import Docstring, parse_docstring
from kit_core._typed import Derived, derive, json_default
from kit_core.args import ArgSpec
from kit_core.errors import ToolDefinitionError
from kit_core.typed import ToolContext

__all__ = ["TypedHandler", "typed_handler"]


@cache
def _compiled(annotation: str) -> CodeType:
    """A string annotation compiled once: a plugin declares many tools whose annotations
    read the same (``Annotated[str, Arg(...)]``), and compiling is most of evaluating."""
    return compile(annotation, "<annotation>", "eval")


def _hints(fn: Callable[..., Any]) -> dict[str, Any]:
    """``typing.get_type_hints(fn, include_extras=True)`` for a plain function: each
    string annotation (``from __future__ import annotations``) evaluated in the handler's
    module, from a cached compilation; anything else as ``get_type_hints`` reads it."""
    target = inspect.unwrap(fn)
    namespace = getattr(target, "__globals__", None)
    if type(target) is not FunctionType or not isinstance(namespace, dict):
        return typing.get_type_hints(fn, include_extras=True)
    found: dict[str, Any] = {}
    for name, value in inspect.get_annotations(target).items():
        if isinstance(value, str):
            value = eval(_compiled(value), cast("dict[str, Any]", namespace))
        found[name] = type(None) if value is None else value
    return found


@cache
def runtime_keywords() -> frozenset[str]:
    """Every keyword a known hermes release passes a tool handler besides the model's
    arguments (read from the host model when the first typed tool is declared)."""
    from kit_core._host_model import known_releases

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
        direct: Callable[[dict[str, Any]], tuple[dict[str, Any], dict[str, Any]]],
    ) -> None:
        self.params = params
        self.docstring = docstring
        self.call = call
        self.direct = direct


def typed_handler(
    fn: Callable[..., Any], label: str, allow_undocumented: bool, signature: inspect.Signature
) -> TypedHandler:
    """Read a typed handler's signature and docstring.

    Raises:
        ToolDefinitionError: a parameter the model cannot be given (unannotated,
            positional-only, ``*args``, a hermes runtime keyword, an undescribable type),
            naming it and the fix.
    """
    try:
        hints = _hints(fn)
    except Exception as exc:
        msg = (
            f"{label}: the handler's annotations cannot be resolved ({type(exc).__name__}:"
            f" {exc}); define the types they name at module level"
        )
        raise ToolDefinitionError(msg) from exc
    docstring = parse_docstring(inspect.getdoc(fn))
    reserved = runtime_keywords()
    params: dict[str, ArgSpec] = {}
    converters: dict[str, Callable[[Any], Any]] = {}
    context: str | None = None
    keywords = False
    for p in signature.parameters.values():
        where = f"{label}: parameter {p.name!r}"
        if p.kind is p.VAR_KEYWORD:
            keywords = True
            continue
        if p.kind is p.VAR_POSITIONAL or p.kind is p.POSITIONAL_ONLY:
            msg = (
                f"{where} is positional-only, but a typed handler is called with keyword"
                " arguments; make it a normal parameter"
            )
            raise ToolDefinitionError(msg)
        annotation = hints.get(p.name, p.empty)
        if annotation is ToolContext:
            if context is not None:
                msg = f"{where}: only one ToolContext parameter is allowed (also {context!r})"
                raise ToolDefinitionError(msg)
            context = p.name
            continue
        if p.name in reserved:
            msg = (
                f"{where} has the name of a keyword hermes passes every tool"
                f" ({', '.join(sorted(reserved))}); it would clash with it. Rename it, or"
                " read the value from **kwargs or a ToolContext parameter"
            )
            raise ToolDefinitionError(msg)
        if annotation is p.empty:
            msg = (
                f"{where} has no type annotation, so the kit cannot tell the model what to"
                f" pass; write e.g. `{p.name}: str`. (A spec-style handler takes (args, **kwargs)"
                " and declares params=)"
            )
            raise ToolDefinitionError(msg)
        required = p.default is p.empty
        default = None if required else json_default(p.default, where)
        derived: Derived = derive(
            annotation,
            docstring.names.get(p.name),
            required=required,
            default=default,
            where=where,
            allow_undocumented=allow_undocumented,
            absent_is_none=p.default is None,
        )
        params[p.name] = derived.spec
        if derived.convert is not None:
            converters[p.name] = derived.convert
    call = _adapter(fn, converters, context, keywords)
    names = frozenset(params)

    def direct(keywords_: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """A direct call's keywords split into the model's arguments and the rest."""
        args = {k: v for k, v in keywords_.items() if k in names}
        return args, {k: v for k, v in keywords_.items() if k not in names}

    return TypedHandler(params, docstring, call, direct)


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
            return {
                k: (convert_all[k](v) if k in convert_all and v is not None else v)
                for k, v in args.items()
            }

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
