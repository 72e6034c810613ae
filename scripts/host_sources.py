"""Print, as one JSON object, where the hermes-agent installed beside this interpreter
defines each name the kit cites: ``{"name": "path Lstart-end", ...}``, the path relative
to the folder hermes is installed in; a name this release lacks is left out.

Run it with the interpreter of an environment that has hermes-agent installed (as
``scripts/host_facts.py``), the names given as arguments. ``scripts/host_model.py`` runs
it on every release of the model and writes what it prints into the page
``docs/hermes-sources.md``, so the kit's docstrings and rule texts name hermes code
(``hermes_cli.plugins.PluginManager._load_plugin``) and never a line number that the
next release moves.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import logging
import os
import sys
import tempfile
import warnings
from pathlib import Path
from types import ModuleType


def _resolve(name: str) -> tuple[object, object, str] | None:
    """The value ``name`` is, the module or class that holds it, and its last part."""
    parts = name.split(".")
    holder: object = None
    for cut in range(len(parts), 0, -1):  # the longest importable module prefix
        try:
            holder = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        rest = parts[cut:]
        break
    else:
        return None
    if not rest:
        return holder, None, parts[-1]
    for part in rest[:-1]:
        holder = inspect.getattr_static(holder, part, None)
        if holder is None:
            return None
    value = inspect.getattr_static(holder, rest[-1], _MISSING)
    return (None if value is _MISSING else (value, holder, rest[-1]))


_MISSING = object()


def _assignment(tree: ast.AST, target: str) -> ast.stmt | None:
    """The statement of ``tree``'s body that binds ``target``."""
    for statement in getattr(tree, "body", ()):
        names: list[ast.expr] = []
        if isinstance(statement, ast.Assign):
            names = statement.targets
        elif isinstance(statement, ast.AnnAssign):
            names = [statement.target]
        if any(isinstance(n, ast.Name) and n.id == target for n in names):
            return statement
    return None


def _span(name: str, root: Path) -> str | None:
    found = _resolve(name)
    if found is None:
        return None
    value, holder, last = found
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, property) and value.fget is not None:
        value = value.fget
    if inspect.isfunction(value) or inspect.isclass(value) or isinstance(value, ModuleType):
        value = inspect.unwrap(value)  # type: ignore[arg-type]
        path = inspect.getsourcefile(value)  # type: ignore[arg-type]
        lines, start = inspect.getsourcelines(value)  # type: ignore[arg-type]
        start = max(start, 1)
        end = start + len(lines) - 1
    else:  # a constant: its assignment in the module or class that holds it
        path = inspect.getsourcefile(holder)  # type: ignore[arg-type]
        if path is None:
            return None
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
        if inspect.isclass(holder):
            owner = next(
                (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)
                 and n.name == holder.__name__),
                None,
            )  # fmt: skip
            tree = owner or tree
        statement = _assignment(tree, last)
        if statement is None:
            return None
        start, end = statement.lineno, statement.end_lineno or statement.lineno
    if path is None:
        return None
    relative = Path(path).resolve().relative_to(root).as_posix()
    return f"{relative} L{start}" + (f"-{end}" if end != start else "")


def main(names: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="hermes-sources-") as home:
        os.environ["HERMES_HOME"] = home
        logging.disable(logging.CRITICAL)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            root = Path(importlib.import_module("hermes_cli").__file__ or "").parents[1]
            spans = {name: _span(name, root.resolve()) for name in names}
    sys.stdout.write(json.dumps({k: v for k, v in spans.items() if v}) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
