"""A hermes release is named in code through the host model (``kit_core.hermes``), never
as a literal that goes stale when the next release comes.

The runtime packages hold none: a message names the release in use from the model (its
``label``, ``first_release``, ``newest_registry_release``). kit-devtools still holds the
literals listed in ``DEVTOOLS``, each a file's count: a new one, or one more in a listed
file, fails here; a count that drops must be lowered here too. Docstrings and comments
are not code: they cite the release they were read from.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import pytest

PACKAGES = Path(__file__).resolve().parents[1] / "packages"
RELEASE = re.compile(r"\b0\.(?:1[3-9]|2[0-9])\.[0-9]+\b")
"""A hermes release, 0.13.0 on."""
MODEL = {"hermes.py", "_host_releases.py"}
"""The host model and its data, written from each release (scripts/host_model.py)."""
PACKAGES_ALL = ("kit-core", "kit-lifecycle", "kit-media", "hermes-plugin-kit", "kit-devtools")


def _cited(node: ast.AST) -> list[ast.AST]:
    """The parts of a lint rule's ``mirrors`` argument (``Rule(severity, message, fix,
    mirrors)``): what hermes does, cited as a docstring cites it."""
    if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Rule"):
        return []
    given = node.args[3:4] + [k.value for k in node.keywords if k.arg == "mirrors"]
    return [part for value in given for part in ast.walk(value)]


def code_strings(tree: ast.Module) -> list[str]:
    """The string constants of code: not those that document (a string statement, such
    as a module's, class's, function's or attribute's docstring, and what a lint rule
    says it mirrors)."""
    documenting: set[int] = set()
    for node in ast.walk(tree):
        documenting.update(id(part) for part in _cited(node))
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for statement in body:
                if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                    documenting.add(id(statement.value))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in documenting
    ]


def release_literals(package: str) -> Counter[str]:
    """How many string constants of code name a release, by file (relative to the
    package's import folder)."""
    found: Counter[str] = Counter()
    for source in sorted((PACKAGES / package / "src").iterdir()):
        for path in sorted(source.rglob("*.py")):
            if path.name in MODEL:
                continue
            strings = code_strings(ast.parse(path.read_text(encoding="utf-8")))
            count = sum(1 for text in strings if RELEASE.search(text))
            if count:
                found[path.relative_to(source).as_posix()] += count
    return found


@pytest.mark.python_independent
@pytest.mark.parametrize("package", PACKAGES_ALL)
def test_no_package_names_a_release_outside_the_host_model(package: str) -> None:
    assert release_literals(package) == Counter(), (
        "name the release from kit_core.hermes (a HostRelease's label, first_version,"
        " registry_releases), not as a literal"
    )


def test_a_string_of_code_is_read_and_a_docstring_is_not() -> None:
    source = (
        '"""Read from 0.19.0."""\nX = "hermes 0.22.2"\n"""Since 0.21.3."""\n'
        'def f():\n    """From 0.20.1."""\n    return f"on {X} 0.23.0"\n'
    )
    assert code_strings(ast.parse(source)) == ["hermes 0.22.2", "on ", " 0.23.0"]
    rule = (
        'Rule(E, "on 0.21.3", "fix", "hermes x (0.21.3 on)")\nRule(E, "m", "f", mirrors="0.20.1")'
    )
    assert code_strings(ast.parse(rule)) == ["on 0.21.3", "fix", "m", "f"]
    assert RELEASE.search(" 0.23.0")
    assert not RELEASE.search("version 0.1.0")
