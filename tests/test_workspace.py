"""Release invariants uv does not check: one version, exact sibling pins, and the layering."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ROOT / "packages"

# The layering of docs/development.md ("Rules the tests enforce"): kit_devtools ->
# hermes_plugin_kit -> (kit_lifecycle, kit_media) -> kit_core -> standard library.
# Siblings are pinned to one version, so a package may import a lower sibling's private
# module; nothing imports kit_devtools.
LAYER = {
    "kit_core": 0,
    "kit_lifecycle": 1,
    "kit_media": 1,
    "hermes_plugin_kit": 2,
    "kit_devtools": 3,
}
RUNTIME = ("kit-core", "kit-lifecycle", "kit-media", "hermes-plugin-kit")
DEV_ONLY_DEPENDENCIES = {"kit-devtools": {"pyyaml"}}
"""What an author's dev environment reasonably has (docs/development.md); never a runtime
package."""


def load(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))


MEMBERS = {
    load(path)["project"]["name"]: path.parent for path in sorted(PACKAGES.glob("*/pyproject.toml"))
}


def import_name(dist: str) -> str:
    return dist.replace("-", "_")


def declared_siblings(dist: str) -> dict[str, str]:
    """Sibling dependencies of a member, as {dist: specifier}."""
    deps = load(MEMBERS[dist] / "pyproject.toml")["project"].get("dependencies", [])
    out = {}
    for dep in deps:
        name = re.split(r"[\s<>=!~;\[]", dep, maxsplit=1)[0]
        if name in MEMBERS:
            out[name] = dep[len(name) :].strip()
    return out


def test_the_workspace_lists_every_member() -> None:
    root = load(ROOT / "pyproject.toml")
    assert sorted(root["tool"]["uv"]["workspace"]["members"]) == sorted(
        str(path.relative_to(ROOT)) for path in MEMBERS.values()
    )
    assert set(root["tool"]["uv"]["sources"]) == set(MEMBERS)
    assert "hermes-plugin-kit" in MEMBERS
    assert "kit-core" in MEMBERS


def test_all_members_carry_one_version() -> None:
    versions = {
        dist: load(path / "pyproject.toml")["project"]["version"] for dist, path in MEMBERS.items()
    }
    assert len(set(versions.values())) == 1, versions


def test_the_build_check_covers_every_member() -> None:
    from kit_core._build import PACKAGES

    assert PACKAGES[0] == "kit_core"  # it checks the others at its import
    assert {package.replace("_", "-") for package in PACKAGES} == set(MEMBERS), (
        "a new member must be named in kit_core._build.PACKAGES, or the import-time check misses it"
    )


@pytest.mark.parametrize("dist", sorted(MEMBERS))
def test_sibling_pins_are_exact_to_the_shared_version(dist: str) -> None:
    version = load(MEMBERS[dist] / "pyproject.toml")["project"]["version"]
    for sibling, spec in declared_siblings(dist).items():
        assert spec == f"=={version}", (
            f"{dist} pins {sibling}{spec}; it must be {sibling}=={version}"
        )


@pytest.mark.parametrize("dist", sorted(MEMBERS))
def test_installed_metadata_matches_the_pyproject(dist: str) -> None:
    assert metadata.version(dist) == load(MEMBERS[dist] / "pyproject.toml")["project"]["version"]


def test_the_layering_names_every_member() -> None:
    assert set(LAYER) == {import_name(dist) for dist in MEMBERS}
    assert set(MEMBERS) == {*RUNTIME, *DEV_ONLY_DEPENDENCIES}


@pytest.mark.parametrize("dist", sorted(MEMBERS))
def test_members_have_no_runtime_dependency_outside_the_workspace(dist: str) -> None:
    deps = load(MEMBERS[dist] / "pyproject.toml")["project"].get("dependencies", [])
    outside = {
        re.split(r"[\s<>=!~;\[]", dep, maxsplit=1)[0].lower()
        for dep in deps
        if re.split(r"[\s<>=!~;\[]", dep, maxsplit=1)[0] not in MEMBERS
    }
    assert outside == DEV_ONLY_DEPENDENCIES.get(dist, set()), (
        f"{dist} depends on {sorted(outside)}: the runtime is standard library only"
    )


def test_the_facade_offers_the_author_tooling_only_as_an_extra_at_the_same_version() -> None:
    project = load(MEMBERS["hermes-plugin-kit"] / "pyproject.toml")["project"]
    version = project["version"]
    # with pytest: the pytest plugin's fixtures are what an author's tests use
    assert project["optional-dependencies"] == {"dev": [f"kit-devtools[pytest]=={version}"]}
    assert "scripts" not in project
    assert "entry-points" not in project
    devtools = load(MEMBERS["kit-devtools"] / "pyproject.toml")["project"]
    assert devtools["scripts"] == {"hermes-plugin-kit": "kit_devtools._console:console"}
    assert set(devtools["entry-points"]) == {"pytest11"}


def imports_of(path: Path) -> set[str]:
    """The top-level package of every absolute import in a file."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def layering_problems(dist: str, source: Path) -> list[str]:
    own = import_name(dist)
    allowed = {import_name(s) for s in declared_siblings(dist)}
    problems = []
    for path in sorted(source.rglob("*.py")):
        for top in imports_of(path):
            if top == own or top not in LAYER:
                continue
            where = path.relative_to(source.parent)
            if top not in allowed:
                problems.append(f"{where} imports {top}, which {dist} does not declare")
            if LAYER[top] >= LAYER[own]:
                problems.append(f"{where} imports {top}, which is not a layer below {own}")
    return problems


@pytest.mark.parametrize("dist", sorted(MEMBERS))
def test_packages_import_only_declared_lower_layers(dist: str) -> None:
    assert layering_problems(dist, MEMBERS[dist] / "src") == []


def test_the_layering_check_catches_a_planted_violation(tmp_path: Path) -> None:
    bad = tmp_path / "kit_core" / "bad.py"
    bad.parent.mkdir()
    bad.write_text("from hermes_plugin_kit import tool\nimport kit_media._x\n", encoding="utf-8")
    problems = layering_problems("kit-core", tmp_path)
    assert any("imports hermes_plugin_kit, which kit-core does not declare" in p for p in problems)
    assert any("imports kit_media, which kit-core does not declare" in p for p in problems)
    assert any("not a layer below kit_core" in p for p in problems)
    devtools = tmp_path / "kit_lifecycle" / "uses_devtools.py"
    devtools.parent.mkdir()
    devtools.write_text("from kit_devtools.testing import InMemoryHost\n", encoding="utf-8")
    problems = layering_problems("kit-lifecycle", tmp_path)
    assert any(
        "kit_lifecycle/uses_devtools.py imports kit_devtools, which is not a layer" in p
        for p in problems
    )


@pytest.mark.parametrize("dist", sorted(MEMBERS))
def test_each_package_is_typed_and_src_laid_out(dist: str) -> None:
    package = MEMBERS[dist] / "src" / import_name(dist)
    assert (package / "__init__.py").is_file()
    assert (package / "py.typed").is_file()
    assert load(MEMBERS[dist] / "pyproject.toml")["project"]["requires-python"] == ">=3.11"


def _tool(name: str) -> str:
    found = Path(sys.executable).parent / name
    return str(found) if found.exists() else name


@pytest.mark.python_independent
def test_packages_lint_clean_for_python_3_14() -> None:
    """ruff with 3.14 as the target. The pyupgrade (UP) rules are left out: they propose
    syntax only newer Pythons have (PEP 695 type parameters, dropping version checks), and
    the packages run on 3.11 and later."""
    run = subprocess.run(
        [_tool("ruff"), "check", "--target-version", "py314", "--extend-ignore", "UP",
         "--output-format", "concise", "packages"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.python_independent
def test_packages_type_check_for_python_3_14() -> None:
    """pyright (strict, the workspace's settings) with 3.14 as the Python version: the
    standard library's 3.14 stubs, and the 3.14 branches of version checks."""
    run = subprocess.run(
        [_tool("pyright"), "--pythonversion", "3.14", "packages"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
