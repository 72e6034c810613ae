"""Each lint rule is declared once, in a module that detects it, and every finding of it
fills exactly the placeholders of its message and fix: read from the kit-devtools sources
with ``ast``, so a rule's text and the details its detectors pass cannot drift apart
unseen (``str.format`` would raise, or leave a detail out, only when the rule fires).

A ``finding("HPKnnn", where, key=...)`` call names its rule and its details literally: the
details are the rule's placeholders, no more, no fewer. A call whose rule is chosen at run
time is listed in :data:`DYNAMIC` with the rules it can give: its details fill each of
them (a rule ignores the ones it does not name), and each detail is named by one of them.
No call passes ``**details``: the test could not tell which details they are.
"""

from __future__ import annotations

import ast
import re
import string
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest

import kit_devtools
from kit_devtools.cli.findings import FAMILIES, E, Rule, declare, declared
from kit_devtools.cli.rules import DECLARING, RULES

SOURCES: Final = Path(kit_devtools.__file__).parent
RULE_ID: Final = re.compile(r"HPK\d{3}")

DYNAMIC: Final[dict[tuple[str, str], frozenset[str]]] = {
    ("cli/_memory_contract.py", "memory_contract_findings"): frozenset(
        {"HPK605", "HPK606", "HPK607"}
    ),
    ("cli/_provider_contracts.py", "provider_contract_findings"): frozenset(
        {"HPK621", "HPK622", "HPK623", "HPK624"}
    ),
    ("cli/_scan.py", "scan_findings"): frozenset({"HPK060", "HPK061"}),
    ("cli/_tool_probe.py", "_probe_problem"): frozenset({"HPK134", "HPK135"}),
    ("cli/_upstream.py", "upstream_findings"): frozenset({"HPK058", "HPK059"}),
}
"""The ``finding()`` calls whose rule is a value chosen at run time (module, function):
the rules each can give."""


def modules() -> Iterator[tuple[str, ast.Module]]:
    """Each kit-devtools module, by its path in the package, parsed."""
    for path in sorted(SOURCES.rglob("*.py")):
        yield path.relative_to(SOURCES).as_posix(), ast.parse(path.read_text("utf-8"))


def placeholders(template: str) -> set[str]:
    """The names a rule's template is filled with (``{name!r}`` names ``name``)."""
    names: set[str] = set()
    for _, field, _, _ in string.Formatter().parse(template):
        if field is not None:
            name = re.split(r"[.\[]", field)[0]
            assert name.isidentifier(), f"{template!r}: a detail is named, never numbered"
            names.add(name)
    return names


class Call:
    """One ``finding()`` call: where, the rules it can give, the details it passes."""

    def __init__(self, module: str, function: str, node: ast.Call) -> None:
        self.module, self.function, self.node = module, function, node
        self.at = f"{module}:{node.lineno}"
        first = node.args[0] if node.args else None
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            self.literal: str | None = first.value
            self.rules = frozenset({first.value})
        else:
            self.literal = None
            self.rules = DYNAMIC.get((module, function), frozenset())
        self.details = {k.arg for k in node.keywords if k.arg is not None}


def finding_calls() -> list[Call]:
    """Every call of ``finding`` in a module that imports it from ``cli.findings``."""
    calls: list[Call] = []
    for module, tree in modules():
        imports = any(
            isinstance(node, ast.ImportFrom)
            and node.module == "kit_devtools.cli.findings"
            and any(alias.name == "finding" for alias in node.names)
            for node in ast.walk(tree)
        )
        if not imports:
            continue
        calls += _calls_in(module, tree, "")
    return calls


def _calls_in(module: str, node: ast.AST, function: str) -> list[Call]:
    found: list[Call] = []
    for child in ast.iter_child_nodes(node):
        inner = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else ""
        if isinstance(child, ast.Call) and ast.unparse(child.func) == "finding":
            found.append(Call(module, function, child))
        found += _calls_in(module, child, inner or function)
    return found


def declarations() -> dict[str, list[tuple[str, str]]]:
    """Each rule id declared with ``declare(family, {...})``, with the module and family of
    each declaration of it."""
    found: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for module, tree in modules():
        for node in tree.body:
            if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)):
                continue
            call = node.value
            if not (isinstance(call.func, ast.Name) and call.func.id == "declare"):
                continue
            family, table = call.args
            at = f"{module}:{node.lineno}"
            assert isinstance(family, ast.Constant), at
            assert isinstance(family.value, str), at
            assert isinstance(table, ast.Dict), f"{at}: a literal table"
            for key in table.keys:
                assert isinstance(key, ast.Constant), at
                assert isinstance(key.value, str), at
                found[key.value].append((module, family.value))
    return found


CALLS: Final = finding_calls()
DECLARED: Final = declarations()


def test_the_sources_hold_the_calls_and_declarations_this_test_reads() -> None:
    assert len(CALLS) > len(RULES)
    assert set(DECLARED) == set(RULES)
    declaring = {module for where in DECLARED.values() for module, _ in where}
    imported = {Path(str(m.__file__)).relative_to(SOURCES).as_posix() for m in DECLARING}
    assert declaring == imported, "rules.DECLARING imports every module that declares rules"


@pytest.mark.parametrize("call", CALLS, ids=lambda call: call.at)
def test_every_finding_passes_exactly_the_details_of_its_rule(call: Call) -> None:
    node = call.node
    assert len(node.args) == 2, f"{call.at}: finding(rule, where, detail=...)"
    assert not any(isinstance(a, ast.Starred) for a in node.args), call.at
    assert all(k.arg is not None for k in node.keywords), (
        f"{call.at}: pass each detail by its name, not **details"
    )
    assert call.rules, (
        f"{call.at}: the rule is chosen at run time in {call.function}();"
        " list the rules it can give in DYNAMIC"
    )
    used: set[str] = set()
    for rule in call.rules:
        assert RULE_ID.fullmatch(rule), f"{call.at}: {rule!r}"
        assert rule in RULES, f"{call.at}: {rule} is not declared"
        wanted = placeholders(RULES[rule].message) | placeholders(RULES[rule].fix)
        assert wanted <= call.details, f"{call.at}: {rule} also takes {wanted - call.details}"
        used |= wanted
    assert call.details == used, f"{call.at}: no rule of it takes {call.details - used}"


def test_every_dynamic_listing_is_a_call_of_the_code() -> None:
    dynamic = {(c.module, c.function) for c in CALLS if c.literal is None}
    assert dynamic == set(DYNAMIC), sorted(dynamic ^ set(DYNAMIC))
    for (module, _), rules in DYNAMIC.items():
        source = (SOURCES / module).read_text("utf-8")
        assert all(f'"{rule}"' in source for rule in rules), (module, sorted(rules))


def test_every_rule_is_declared_once_in_a_module_that_finds_it() -> None:
    emitted: dict[str, set[str]] = defaultdict(set)
    for call in CALLS:
        for rule in call.rules:
            emitted[rule].add(call.module)
    twice = {rule: where for rule, where in DECLARED.items() if len(where) > 1}
    assert not twice, twice
    assert set(emitted) <= set(DECLARED), sorted(set(emitted) - set(DECLARED))
    never = set(DECLARED) - set(emitted)
    assert not never, f"declared, never found: {sorted(never)}"
    elsewhere = {
        rule: (where[0][0], sorted(emitted[rule]))
        for rule, where in DECLARED.items()
        if where[0][0] not in emitted[rule]
    }
    assert not elsewhere, f"declared where no check finds it: {elsewhere}"


def test_the_table_goes_family_by_family_each_by_id() -> None:
    def family(rule: str) -> int:
        return FAMILIES.index(DECLARED[rule][0][1])

    assert declared() == RULES
    assert list(RULES) == sorted(RULES, key=lambda rule: (family(rule), rule))


def test_a_rule_is_declared_once_and_of_a_known_family() -> None:
    rule = Rule(E, "m", "f", "hermes")
    with pytest.raises(ValueError, match="HPK001 is declared twice"):
        declare("plugin and manifest", {"HPK001": rule})
    with pytest.raises(ValueError, match="not in tuple"):
        declare("no such family", {"HPK999": rule})
    assert "HPK999" not in declared()
