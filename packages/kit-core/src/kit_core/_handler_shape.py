"""The shape of a ``@tool`` handler: ``(args, **kwargs)`` (spec style) or typed
parameters, and a method's the same without its ``self``."""

from __future__ import annotations

import inspect
from types import FunctionType
from typing import Any

from kit_core._annotations import signature_of
from kit_core.declarations import declaration_of
from kit_core.errors import ToolDefinitionError
from kit_core.toolspec import ToolSpec

__all__ = ["check_handler", "is_args_handler", "plain_function_fits"]


def check_handler(fn: object, label: str, opts: dict[str, Any], method: bool) -> bool:
    """Check the handler; True when it is a typed handler (no ``params=`` or ``schema=``,
    and not written ``(args, **kwargs)``). A ``method`` is read without its ``self``."""
    if declaration_of(fn, ToolSpec) is not None:
        msg = f"{label}: the function is already a @tool; apply @tool once"
        raise ToolDefinitionError(msg)
    if not callable(fn):
        msg = f"{label}: @tool must decorate a function, got {type(fn).__name__}"
        raise ToolDefinitionError(msg)
    declared = opts["params"] is not None or opts["schema"] is not None
    fits = None if method else plain_function_fits(fn)
    if fits and (declared or fn.__code__.co_varnames[0] == "args"):
        return False
    if fits is False and not declared:  # a plain function of another shape
        return True
    try:
        signature = signature_of(fn)
    except (TypeError, ValueError):
        return False
    params = list(signature.parameters.values())[1 if method else 0 :]
    if is_args_handler(params, any_first=declared):
        return False
    if not declared:
        return True
    shape = "self, args, **kwargs" if method else "args, **kwargs"
    msg = (
        f"{label}: with params= or schema=, the handler must take ({shape}): the host"
        " passes the arguments dict positionally and runtime keys such as task_id and"
        f" session_id as keywords; write `def {getattr(fn, '__name__', 'handler')}({shape}):`,"
        " or drop params= and declare the arguments as typed parameters"
    )
    raise ToolDefinitionError(msg)


def is_args_handler(params: list[inspect.Parameter], any_first: bool) -> bool:
    """Whether a handler is written ``(args, **kwargs)``: a first positional parameter (or
    ``*args``), no other required one, and ``**kwargs``. Without ``any_first`` (no
    ``params=`` to say which style), the first parameter must also be unannotated or
    named ``args``: ``def f(query: str, **kwargs)`` is a typed handler."""
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    kinds = {p.kind for p in params}
    if inspect.Parameter.VAR_KEYWORD not in kinds:
        return False
    if not positional:
        return inspect.Parameter.VAR_POSITIONAL in kinds
    first = positional[0]
    if any(p.default is p.empty for p in positional[1:]):
        return False
    return any_first or first.annotation is first.empty or first.name == "args"


def plain_function_fits(fn: object) -> bool | None:
    """Whether a plain ``def`` takes ``(args, **kwargs)``, read from its code object as
    ``inspect.signature`` would read it (at a fraction of the cost); None for anything
    else (a wrapper with ``__wrapped__`` or ``__signature__``, a partial, a method)."""
    if type(fn) is not FunctionType:
        return None
    if "__wrapped__" in fn.__dict__ or "__signature__" in fn.__dict__:
        return None
    code = fn.__code__
    positional = code.co_argcount  # positional-only ones included
    with_default = len(fn.__defaults__ or ())  # the last positional ones
    takes_args = positional > 0 or bool(code.co_flags & inspect.CO_VARARGS)
    extra_required = positional - with_default > 1
    return takes_args and not extra_required and bool(code.co_flags & inspect.CO_VARKEYWORDS)
