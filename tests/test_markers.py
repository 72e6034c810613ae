"""scripts/_markers.py: the evidence scripts rewrite only the generated part of a docs page."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "_markers.py"
_spec = importlib.util.spec_from_file_location("_markers", SCRIPT)
assert _spec is not None
assert _spec.loader is not None
markers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(markers)

START, END = "<!-- t:start -->", "<!-- t:end -->"


def test_only_the_text_between_the_markers_changes(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(f"# Title\n\n{START}\nold\nrows\n{END}\n\nAfter.\n", encoding="utf-8")
    markers.write_between_markers(page, START, END, "| new |")
    assert page.read_text(encoding="utf-8") == f"# Title\n\n{START}\n| new |\n{END}\n\nAfter.\n"


def test_a_page_without_the_markers_is_refused_and_left_alone(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Title\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"page.md has no <!-- t:start --> \.\.\. <!-- t:end -->"):
        markers.write_between_markers(page, START, END, "x")
    assert page.read_text(encoding="utf-8") == "# Title\n"
