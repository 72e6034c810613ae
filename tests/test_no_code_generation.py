"""The runtime generates no code: no module of the runtime packages calls ``exec``,
``eval`` or ``compile`` (hermes' install scan rates run-time code generation high, and a
maintainer cannot follow a path that is written at run time). Annotation texts are
evaluated by ``typing``, as Python's own tools evaluate them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.python_independent  # reading source

PACKAGES = Path(__file__).resolve().parents[1] / "packages"
RUNTIME = ("kit-core", "kit-lifecycle", "kit-media", "hermes-plugin-kit")
GENERATING = {"exec", "eval", "compile"}


def generating_calls(source: str) -> list[tuple[int, str]]:
    """(line, name) of each call of a builtin that runs or compiles code: a bare name,
    or an attribute of ``builtins``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        called = node.func
        if isinstance(called, ast.Name) and called.id in GENERATING:
            found.append((node.lineno, called.id))
        elif (
            isinstance(called, ast.Attribute)
            and called.attr in GENERATING
            and isinstance(called.value, ast.Name)
            and called.value.id == "builtins"
        ):
            found.append((node.lineno, f"builtins.{called.attr}"))
    return found


def test_the_check_finds_each_way_of_calling_them() -> None:
    source = "exec('x')\nbuiltins.eval('1')\ny = compile('1', 'f', 'eval')\nre.compile('x')\n"
    assert generating_calls(source) == [(1, "exec"), (2, "builtins.eval"), (3, "compile")]


def test_no_runtime_module_runs_or_compiles_code() -> None:
    found = {
        f"{path.relative_to(PACKAGES)}:{line}": name
        for package in RUNTIME
        for path in sorted((PACKAGES / package / "src").rglob("*.py"))
        for line, name in generating_calls(path.read_text("utf-8"))
    }
    assert not found, f"code generated at run time: {found}"
