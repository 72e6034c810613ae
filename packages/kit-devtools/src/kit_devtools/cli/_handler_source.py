"""What a hand-written tool handler's source returns, read without running it: the first
``return`` that hands hermes a dict (``return {...}``, ``return {k: v for ...}``,
``return dict(...)``), for HPK125.

Only the handler's own body counts (not a function or class defined inside it); a dict
with a ``"_multimodal"`` key is hermes' multimodal envelope, which hermes takes as it is.
The handler is found in its file's syntax tree by where its code starts, so a lambda in
a call that spans lines is found too. A handler whose source cannot be read (a builtin,
a ``functools.partial``, a callable object, code made at run time), or whose line holds
two lambdas, is not judged.
"""

from __future__ import annotations

import ast
import inspect
import linecache
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from kit_devtools.testing._pipeline import MULTIMODAL_KEY

__all__ = ["DictReturn", "dict_return"]


class DictReturn(NamedTuple):
    """Where the handler returns a dict: ``__init__.py:12``, and the statement."""

    where: str
    statement: str


def dict_return(handler: object) -> DictReturn | None:
    """The first statement of ``handler``'s own body that returns a dict, or None."""
    try:
        bound: Any = getattr(handler, "__func__", handler)
        function = inspect.unwrap(bound)
        code = function.__code__
        file = inspect.getsourcefile(function)
    except (AttributeError, TypeError, ValueError):
        return None
    if not file:
        return None
    try:
        tree = ast.parse("".join(linecache.getlines(file)))
    except (SyntaxError, ValueError):
        return None
    node = _defined_at(tree, code.co_firstlineno, code.co_name)
    if node is None:
        return None
    for statement, value in _own_returns(node):
        if _is_dict(value):
            text = " ".join(ast.unparse(statement).split())
            return DictReturn(f"{Path(file).name}:{statement.lineno}", _clip(text))
    return None


_Function = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


def _defined_at(tree: ast.Module, line: int, name: str) -> _Function | None:
    """The one definition of ``name`` (a lambda's is ``<lambda>``) whose code starts on
    ``line`` (a decorated function's at its first decorator); None when there is none or
    more than one (two lambdas on a line)."""
    found: list[_Function] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            starts = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            if starts == line:
                found.append(node)
        elif isinstance(node, ast.Lambda) and name == "<lambda>" and node.lineno == line:
            found.append(node)
    return found[0] if len(found) == 1 else None


def _own_returns(function: _Function) -> Iterator[tuple[ast.Return | ast.Lambda, ast.expr]]:
    """Each ``return`` of ``function`` itself with its value (a lambda: itself and its
    body)."""
    if isinstance(function, ast.Lambda):
        yield function, function.body
        return
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop(0)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Return) and node.value is not None:
            yield node, node.value
        pending[:0] = list(ast.iter_child_nodes(node))


def _is_dict(value: ast.expr) -> bool:
    if isinstance(value, ast.Dict):
        return not any(
            isinstance(key, ast.Constant) and key.value == MULTIMODAL_KEY for key in value.keys
        )
    if isinstance(value, ast.DictComp):
        return True
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict":
        return not any(keyword.arg == MULTIMODAL_KEY for keyword in value.keywords)
    return False


def _clip(statement: str, limit: int = 80) -> str:
    return statement if len(statement) <= limit else statement[: limit - 1] + "…"
