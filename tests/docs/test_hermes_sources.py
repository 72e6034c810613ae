"""The kit names the hermes code it follows and never cites a line (the pages name it too):
where each release defines each name is on one generated page, docs/hermes-sources.md
(scripts/host_model.py writes it with the model), which must hold every release of the
model and every name of ``scripts/host_sources.py``'s ``CITED``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from kit_core.hermes import known_releases

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "hermes-sources.md"
PACKAGES = ROOT / "packages"


def _cited() -> tuple[str, ...]:
    """``CITED`` of scripts/host_sources.py, read without running the script."""
    tree = ast.parse((ROOT / "scripts" / "host_sources.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "CITED":
            assert node.value is not None
            return tuple(ast.literal_eval(node.value))
    raise AssertionError("scripts/host_sources.py has no CITED")


CITED = _cited()

LINE_CITATION = re.compile(
    r"\bL\d+(?:-\d+)?\b"  # L123, L12-34
    r"|\.py(?:``)?(?::| L?| lines? )\d+"  # plugins.py:12, plugins.py`` 12-34, x.py lines 5
    r"|\blines? \d+(?:-\d+)?\b"  # lines 122-161
    r"|@[0-9a-f]{8,40}\b"  # an upstream commit
    r"|(?<![\w.-])\d{2,5}-\d{2,5}(?![\w.-])"  # a bare range: add_provider 394-445
)
"""What a citation of hermes by line looks like."""
NOT_CITATIONS = {"_handler_source.py": "``__init__.py:12``", "_ecma.py": "Schema 2020-12"}
"""Text the pattern matches that cites no hermes line (the kit's own output format)."""


def _page_rows() -> dict[str, str]:
    rows = re.findall(r"^\| `([^`]+)` \| (.*) \|$", PAGE.read_text(encoding="utf-8"), re.M)
    return dict(rows)


@pytest.mark.python_independent
def test_no_package_cites_hermes_by_line() -> None:
    found: list[str] = []
    for path in sorted(PACKAGES.rglob("*.py")):
        if path.name == "_host_releases.py" or "__pycache__" in path.parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            allowed = NOT_CITATIONS.get(path.name)
            if LINE_CITATION.search(line) and not (allowed and allowed in line):
                found.append(f"{path.relative_to(PACKAGES)}:{number}: {line.strip()}")
    assert not found, (
        "name the hermes function, class or constant (``module.qualname``) and add it to"
        " CITED in scripts/host_sources.py; docs/hermes-sources.md gives its lines:\n"
        + "\n".join(found)
    )


@pytest.mark.python_independent
def test_the_page_lists_every_modelled_release() -> None:
    listed = re.search(r"^Releases: (.+)\.$", PAGE.read_text(encoding="utf-8"), re.M)
    assert listed, "docs/hermes-sources.md has no Releases line"
    assert listed.group(1).split(", ") == [r.version for r in known_releases()], (
        "docs/hermes-sources.md is older than the host model: run scripts/host_model.py"
    )


@pytest.mark.python_independent
def test_the_page_locates_every_cited_name_in_some_release() -> None:
    rows = _page_rows()
    assert set(rows) == set(CITED), "run scripts/host_model.py to write the page again"
    nowhere = [name for name, cell in rows.items() if "`" not in cell]
    assert not nowhere, f"no modelled release defines {nowhere}: a typo, or a name gone"


@pytest.mark.python_independent
def test_every_cited_name_is_named_in_a_package_or_a_page() -> None:
    sources = [*PACKAGES.rglob("*.py"), *(ROOT / "docs").glob("*.md")]
    text = "\n".join(p.read_text(encoding="utf-8") for p in sources if p != PAGE)
    unused = sorted(name for name in CITED if name not in text)
    assert not unused, f"CITED names nothing the packages or pages mention (drop them): {unused}"


def test_the_citation_pattern_tells_a_line_from_a_name() -> None:
    cited_forms = ("plugins.py L12-34", "``model_tools.py:1264-1279``", "(L56)", "@00067189",
                   "``tools/registry.py`` 615-644", "lines 122-161",
                   "add_provider 394-445")  # fmt: skip
    for cited in cited_forms:
        assert LINE_CITATION.search(cited), cited
    for named in ("``hermes_cli.plugins.PluginManager.invoke_hook``", "hermes 0.21.3",
                  "HPK116", "0.13.0 to 0.15.2"):  # fmt: skip
        assert not LINE_CITATION.search(named), named
