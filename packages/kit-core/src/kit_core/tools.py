"""``@tool``: turn a plain handler into a tool the host and the model get right.

The decorated function keeps its name and docstring, takes ``(args, **kwargs)``
like any hermes handler, always returns a JSON ``str`` (a coroutine resolving to
one for ``async def`` handlers) and never raises; a handler annotated ``-> Rich``
answers with hermes' multimodal envelope instead (:mod:`kit_core.content`). Type
checkers see the handler's own parameters and that answer. Its :class:`ToolSpec` is read with
``declaration_of(fn)`` (:mod:`kit_core.declarations`).
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable, Coroutine, Mapping, Sequence
from types import FunctionType
from typing import Any, Concatenate, Never, ParamSpec, Protocol, Self, cast, overload

from kit_core._call_log import success_level
from kit_core._decoration import check_options, compile_checks, resolve_description
from kit_core._handler_shape import check_handler
from kit_core._method_tool import instance_first, is_method, method_wrapper
from kit_core._runtime import ToolRunner
from kit_core._schema import check_function_schema, describe_arguments, schema_from_specs
from kit_core._snapshot import Snapshot
from kit_core._tool_wrapper import wrapper_of
from kit_core.args import ArgSpec
from kit_core.content import Rich
from kit_core.declarations import declare
from kit_core.errors import ToolDefinitionError
from kit_core.names import validate_tool_name
from kit_core.toolspec import ToolSpec

__all__ = ["AsyncRichToolFunction", "AsyncToolFunction", "RichToolFunction", "ToolFunction", "tool"]

_P = ParamSpec("_P")
_Q = ParamSpec("_Q")


class ToolFunction(Protocol[_P]):
    """A synchronous handler decorated with ``@tool``: the handler's parameters, a ``str``
    answer. Read from an instance, a method tool is bound to it, as a function is."""

    __name__: str

    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> str: ...

    @overload
    def __get__(self, instance: None, owner: type | None = None, /) -> Self: ...
    @overload
    def __get__(
        self: ToolFunction[Concatenate[Any, _Q]], instance: object, owner: type | None = None, /
    ) -> ToolFunction[_Q]: ...


class AsyncToolFunction(Protocol[_P]):
    """An ``async def`` handler decorated with ``@tool``: the handler's parameters, a
    coroutine resolving to a ``str`` answer."""

    __name__: str

    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> Coroutine[Any, Any, str]: ...

    @overload
    def __get__(self, instance: None, owner: type | None = None, /) -> Self: ...
    @overload
    def __get__(
        self: AsyncToolFunction[Concatenate[Any, _Q]],
        instance: object,
        owner: type | None = None,
        /,
    ) -> AsyncToolFunction[_Q]: ...


class RichToolFunction(Protocol[_P]):
    """A synchronous handler annotated ``-> Rich``, decorated with ``@tool``: it answers
    with hermes' multimodal envelope (a ``dict``, see :mod:`kit_core.content`), or a
    ``str`` error envelope."""

    __name__: str

    def __call__(self, *args: _P.args, **kwargs: _P.kwargs) -> str | dict[str, Any]: ...


class AsyncRichToolFunction(Protocol[_P]):
    """An ``async def`` handler annotated ``-> Rich``, decorated with ``@tool``."""

    __name__: str

    def __call__(
        self, *args: _P.args, **kwargs: _P.kwargs
    ) -> Coroutine[Any, Any, str | dict[str, Any]]: ...


class ToolDecorator:
    """What ``tool(...)`` returns: apply it to a handler."""

    __slots__ = ("_options",)

    def __init__(self, options: dict[str, Any]) -> None:
        self._options = options

    # A handler annotated `-> Any` matches both; annotate sync handlers with their real
    # return type (or `object`) so type checkers pick the sync overload.
    @overload
    def __call__(  # pyright: ignore[reportOverlappingOverload]
        self, fn: Callable[_P, Coroutine[Any, Any, Rich]], /
    ) -> AsyncRichToolFunction[_P]: ...
    @overload
    def __call__(
        self, fn: Callable[_P, Coroutine[Any, Any, object]], /
    ) -> AsyncToolFunction[_P]: ...
    @overload
    def __call__(self, fn: Callable[_P, Rich], /) -> RichToolFunction[_P]: ...
    @overload
    def __call__(self, fn: Callable[_P, object], /) -> ToolFunction[_P]: ...
    def __call__(self, fn: Callable[..., Any], /) -> Any:
        return _decorate(fn, **self._options)


def tool(
    *misused: Never,
    toolset: str = "",
    params: Mapping[str, ArgSpec] | None = None,
    schema: Mapping[str, Any] | None = None,
    name: str | None = None,
    namespace: str | None = None,
    description: str | None = None,
    requires_env: Sequence[str] | None = None,
    check_fn: Callable[[], Any] | None = None,
    emoji: str = "",
    validate_required: bool = True,
    allow_undocumented: bool = False,
) -> ToolDecorator:
    """Declare a hermes tool.

    Two styles: a handler written ``(args, **kwargs)`` with its arguments given as
    ``params=`` (or a hand-written ``schema=``), or a handler with typed parameters,
    whose signature, ``Annotated`` metadata (:class:`~kit_core.typed.Arg`) and docstring
    give the arguments, their descriptions and the tool's description; the kit calls
    it with the checked arguments as keywords. Both build the same schema, checks,
    envelope and log lines.

    Args:
        toolset: the host toolset (use one unique to your plugin, e.g. its name).
        params: argument specs (``str_arg(...)`` and friends); exclusive with ``schema``.
        schema: a hand-written function schema to keep; deep-copied and checked.
        name: the tool name; defaults to the function name. Checked by
            :func:`~kit_core.names.validate_tool_name`.
        namespace: when given, the name must start with ``<namespace>_``.
        description: the model-facing description; defaults to the docstring.
        requires_env: environment variables the tool needs.
        check_fn: zero-argument availability probe; the host hides the tool when it
            returns False.
        emoji: shown by the host next to the tool.
        validate_required: ``False`` keeps the schema but skips the kit's argument checks
            (for ``(args, **kwargs)`` handlers that keep their established validation).
        allow_undocumented: a typed handler's argument without a description (docstring,
            ``Annotated``) is refused unless this is True.

    Raises:
        ToolDefinitionError: at decoration, naming the rule broken and the fix.
    """
    if misused:
        what = getattr(misused[0], "__name__", type(misused[0]).__name__)
        msg = (
            f"@tool takes keyword arguments only and is written with parentheses: put"
            f" @tool(toolset='myplugin', params={{...}}) above {what}"
        )
        raise ToolDefinitionError(msg)
    return ToolDecorator(
        {
            "toolset": toolset,
            "params": params,
            "schema": schema,
            "name": name,
            "namespace": namespace,
            "description": description,
            "requires_env": requires_env,
            "check_fn": check_fn,
            "emoji": emoji,
            "validate_required": validate_required,
            "allow_undocumented": allow_undocumented,
        }
    )


def _decorate(fn: Callable[..., Any], **opts: Any) -> Any:
    raw_name = opts["name"] if opts["name"] is not None else getattr(fn, "__name__", None)
    label = f"@tool {raw_name!r}"
    method = is_method(fn)
    typed = check_handler(fn, label, opts, method)
    env_names = check_options(label, opts)
    name = validate_tool_name(raw_name, namespace=opts["namespace"])
    label = f"@tool {name!r}"
    handler: Callable[..., Any] = fn
    direct = None
    if typed:
        if not opts["validate_required"]:
            msg = (
                f"{label}: validate_required=False is for (args, **kwargs) handlers that check"
                " their own arguments; a typed handler's arguments are checked by the kit"
            )
            raise ToolDefinitionError(msg)
        from kit_core._typed_tool import typed_handler  # here: only typed tools need it

        read = typed_handler(fn, label, opts["allow_undocumented"], method=method)
        opts = {**opts, "params": read.params}
        handler, direct = read.call, read.direct
        description = resolve_description(label, fn, opts, read.docstring.description)
    else:
        if method:
            handler = instance_first(fn, _itself)
        description = resolve_description(label, fn, opts)
    if opts["schema"] is not None:
        schema = check_function_schema(opts["schema"], name=name)
        props: dict[str, Any] = schema["parameters"]["properties"]
        required: list[str] = list(schema["parameters"].get("required", []))
        examples = {
            k: p["examples"][0]
            for k, p in props.items()
            if isinstance(p.get("examples"), list) and p["examples"]
        }
        optional = [k for k in props if k not in required]
        schema["description"] = describe_arguments(description, required, optional, examples)
    else:
        params: Mapping[str, ArgSpec] = opts["params"] or {}
        schema = schema_from_specs(name, description, params, copy_specs=False)
        examples = {k: s.example for k, s in params.items() if s.example is not None}
    check = compile_checks(label, schema["parameters"], examples, opts["validate_required"])
    is_async = inspect.iscoroutinefunction(fn)
    module = getattr(fn, "__module__", None) or "hermes_plugin_kit"
    logger = logging.getLogger(module)
    runner = ToolRunner(
        name, handler, check, env_names, logger, success_level(module), direct, is_async=is_async
    )
    spec = ToolSpec(
        name=name,
        toolset=opts["toolset"].strip(),
        description=schema["description"],
        requires_env=env_names,
        check_fn=opts["check_fn"],
        emoji=opts["emoji"],
        is_async=is_async,
        validate_required=opts["validate_required"],
        handler=fn,
        module=module,
        examples=examples,
        is_method=method,
        _schema=Snapshot(schema),
    )
    wrapper: Any = _defined_beside(wrapper_of(runner), fn)
    if method:
        wrapper = _defined_beside(method_wrapper(wrapper, is_async), fn)
    return declare(wrapper, spec)


def _itself(handler: Callable[..., Any]) -> Callable[..., Any]:
    """A spec-style method bound to its instance is already the ``(args, **kwargs)``
    handler."""
    return handler


def _defined_beside(wrapper: FunctionType, fn: Callable[..., Any]) -> FunctionType:
    """The wrapper, re-created in the handler's module and dressed as the handler.

    hermes decides which plugin owns a handler from ``handler.__globals__["__name__"]``
    (its override and deregister policy); a wrapper defined in kit_core would belong to
    no plugin. The wrapper's body uses only its closure, so its globals can be the
    handler's.
    """
    namespace = getattr(fn, "__globals__", None)
    if isinstance(namespace, dict):
        wrapper = FunctionType(
            wrapper.__code__,
            cast("dict[str, Any]", namespace),
            wrapper.__name__,
            wrapper.__defaults__,
            wrapper.__closure__,
        )
    functools.update_wrapper(wrapper, fn)
    return wrapper
