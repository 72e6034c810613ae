"""Reading signatures and annotated names without evaluating annotations (PEP 649/749).

On Python 3.14 annotations are evaluated lazily: ``def handler(args: Ctx, **kw)`` compiles
even when ``Ctx`` is imported only under ``TYPE_CHECKING`` or defined later in the module,
and evaluation happens when something asks for the values. ``inspect.signature`` and
``inspect.get_annotations`` ask for them by default (``Format.VALUE``), so they raise
``NameError`` where 3.11-3.13 never did (there such a ``def`` fails at definition time,
or, under ``from __future__ import annotations``, the annotations are strings nobody
evaluates). The kit needs parameter kinds and defaults and annotated names, never the
annotation values, so it asks for forward references on 3.14 (what PEP 749 recommends to
introspection tools: ``Format.FORWARDREF``), and if reading still fails because an
annotation raises, it reads a plain function's parameters from its code object, without
annotations. On 3.11-3.13 the standard calls are used as they are.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from types import FunctionType
from typing import Any

__all__ = ["annotated_names", "code_parameters", "code_signature", "signature_of"]


def _signature(fn: Callable[..., Any]) -> inspect.Signature:
    if sys.version_info >= (3, 14):
        import annotationlib

        return inspect.signature(fn, annotation_format=annotationlib.Format.FORWARDREF)
    return inspect.signature(fn)


def signature_of(fn: Callable[..., Any]) -> inspect.Signature:
    """``inspect.signature(fn)``, but an annotation that cannot be evaluated never makes it
    fail: raises only what ``inspect.signature`` raises for an unreadable signature
    (``TypeError``, ``ValueError``)."""
    try:
        return _signature(fn)
    except (TypeError, ValueError):
        raise
    except Exception as exc:  # an annotation raised while it was evaluated
        target = inspect.unwrap(fn, stop=lambda f: "__signature__" in getattr(f, "__dict__", {}))
        if type(target) is not FunctionType:
            msg = f"the signature of {fn!r} cannot be read: {type(exc).__name__}: {exc}"
            raise TypeError(msg) from exc
        return code_signature(target)


def code_parameters(fn: FunctionType) -> list[tuple[str, Any, Any]]:
    """``(name, kind, default)`` of each parameter of a plain function, read from its code
    object as ``inspect.signature`` reads them, without annotations and without building
    ``inspect.Parameter`` objects (``@tool`` reads every typed handler this way)."""
    code = fn.__code__
    names = code.co_varnames
    positional, posonly = code.co_argcount, code.co_posonlyargcount
    defaults = fn.__defaults__ or ()
    first_default = positional - len(defaults)
    kind = inspect.Parameter
    found: list[tuple[str, Any, Any]] = [
        (
            name,
            kind.POSITIONAL_ONLY if index < posonly else kind.POSITIONAL_OR_KEYWORD,
            defaults[index - first_default] if index >= first_default else kind.empty,
        )
        for index, name in enumerate(names[:positional])
    ]
    if code.co_flags & inspect.CO_VARARGS:
        found.append((names[positional + code.co_kwonlyargcount], kind.VAR_POSITIONAL, kind.empty))
    kwdefaults = fn.__kwdefaults__ or {}
    found.extend(
        (name, kind.KEYWORD_ONLY, kwdefaults.get(name, kind.empty))
        for name in names[positional : positional + code.co_kwonlyargcount]
    )
    if code.co_flags & inspect.CO_VARKEYWORDS:
        at = positional + code.co_kwonlyargcount + bool(code.co_flags & inspect.CO_VARARGS)
        found.append((names[at], kind.VAR_KEYWORD, kind.empty))
    return found


def code_signature(fn: FunctionType) -> inspect.Signature:
    """The parameters of a plain function, from its code object, with no annotations."""
    return inspect.Signature(
        [
            inspect.Parameter(name, which, default=default)
            for name, which, default in code_parameters(fn)
        ]
    )


def annotated_names(obj: type) -> tuple[str, ...]:
    """The names a class body annotates, in order, without evaluating the annotations."""
    if sys.version_info >= (3, 14):
        import annotationlib

        found = annotationlib.get_annotations(obj, format=annotationlib.Format.FORWARDREF)
        return tuple(found)
    # before 3.14 a class's annotations were evaluated when its body ran (or are strings
    # under the __future__ import), and get_annotations without eval_str evaluates nothing
    return tuple(inspect.get_annotations(obj))
