"""A plugin fresh from ``new`` passes ``check``, ``compat`` and ``preflight`` with no
finding on day one (issue 14, item 4)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kit_devtools.cli import main


@pytest.mark.parametrize("command", ["check", "compat", "preflight"])
def test_a_fresh_plugin_has_no_finding(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "word-tools", "--directory", str(tmp_path), "--kit-source", "path"]) == 0
    capsys.readouterr()
    plugin = tmp_path / "word-tools" / "src" / "word_tools"
    status = main([command, str(plugin)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "findings: none" in out
    assert out.rstrip().endswith("0 error(s), 0 warning(s), 0 convention(s)")


def test_the_manifest_is_v1_with_the_floor_and_the_declared_tool(tmp_path: Path) -> None:
    assert main(["new", "word-tools", "--directory", str(tmp_path), "--kit-source", "path"]) == 0
    manifest = yaml.safe_load(
        (tmp_path / "word-tools" / "src" / "word_tools" / "plugin.yaml").read_text("utf-8")
    )
    assert manifest["manifest_version"] == 1  # every released installer refuses 2
    assert manifest["requires_hermes"] == ">=0.13.0"  # what compat computes for it
    assert manifest["provides_tools"] == ["word_tools_count_words"]
    init = (tmp_path / "word-tools" / "src" / "word_tools" / "__init__.py").read_text("utf-8")
    assert "from . import tools" in init  # relative: hermes imports it as hermes_plugins.*
