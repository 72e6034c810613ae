"""A plugin fresh from ``new`` passes ``check``, ``compat`` and ``preflight`` with no
finding on day one (issue 14, item 4)."""

from __future__ import annotations

import os
import subprocess
import sys
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


def test_the_projects_own_entry_point_is_the_plugin_not_a_rival(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `uv sync` installs the new project with its entry point (word-tools = "word_tools"),
    # which names the very directory check is pointed at: no HPK019 (issue 24, item 1);
    # another package's entry point of that name still gets it
    assert main(["new", "word-tools", "--directory", str(tmp_path), "--kit-source", "path"]) == 0
    capsys.readouterr()
    src = tmp_path / "word-tools" / "src"
    site = tmp_path / "site"
    info = site / "word_tools-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: word-tools\nVersion: 0.1.0\n")
    entry_points = info / "entry_points.txt"
    entry_points.write_text("[hermes_agent.plugins]\nword-tools = word_tools\n")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.syspath_prepend(str(src))  # what the editable install's .pth adds
    assert main(["check", str(src / "word_tools")]) == 0, capsys.readouterr().out
    capsys.readouterr()
    entry_points.write_text("[hermes_agent.plugins]\nword-tools = other_words\n")
    assert main(["check", str(src / "word_tools")]) == 1
    assert "HPK019" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("kind", "name", "line"),
    [
        ("memory-provider", "tea-memory", "memory provider: tea_memory (loaded by: register(ctx)"),
        ("context-engine", "trim-context", "context_engine: trim_context"),
        ("tts", "beep-voice", "tts: beep_voice"),
        ("transcription", "wave-ears", "transcription: wave_ears"),
        ("model-provider", "acme-llm", "model provider profiles: acme-llm"),
    ],
)
def test_a_fresh_provider_of_each_kind_passes_its_suite_and_its_tests(
    kind: str, name: str, line: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # here, on the hermes of this environment (tests/kit_devtools/test_cli.py syncs the
    # memory provider's and the context engine's own projects with uv)
    argv = ["new", name, "--kind", kind, "--directory", str(tmp_path), "--kit-source", "path"]
    assert main(argv) == 0
    capsys.readouterr()
    project = tmp_path / name
    plugin = project / "src" / name.replace("-", "_")
    for command in (["check", "--probe"], ["preflight"]):
        status = main([*command, str(plugin)])
        out = capsys.readouterr().out
        assert status == 0, out
        assert out.rstrip().endswith("0 error(s), 0 warning(s), 0 convention(s)")
        assert command == ["preflight"] or line in out
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(plugin.parent), *sys.path])}
    tests = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]
    run = subprocess.run(tests, cwd=project, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 passed" in run.stdout  # the suite on the in-memory host, and the behaviour
