"""``new`` refuses names that cannot work, and what it scaffolds passes ``check``.

The plugin examples of the README and of docs/ are checked by tests/docs/test_code_blocks.py.
"""

from __future__ import annotations

import json
import re
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from kit_devtools.cli import main
from kit_devtools.cli._scaffold import refusal
from kit_devtools.testing.host_names import HERMES_TOP_LEVEL, hermes_top_level

ROOT = Path(__file__).resolve().parents[2]


def check_json(target: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, Any]:
    status = main(["check", str(target), "--format", "json", *extra])
    return status, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("name", "problem", "fix"),
    [
        ("memory-sync", "reserved Hermes core namespace 'memory_'", "'my-memory-sync'"),
        ("memory", "tool namespace 'memory' is reserved", "'my-memory'"),
        ("todo", "tool namespace 'todo' is reserved", "'todo-tools'"),
        ("tool-search", "tool namespace 'tool_search' is reserved", "'tool-search-tools'"),
        ("cron", "top-level package of hermes-agent itself", "'cron-tools'"),
        ("tools", "hermes would import its own 'tools'", "'tools-tools'"),
        ("hermes-cli", "top-level package of hermes-agent", "'hermes-cli-tools'"),
        ("gateway", "top-level package of hermes-agent", "'gateway-tools'"),
        ("discord", "a toolset of hermes' own", "'discord-tools'"),
        ("web", "a toolset of hermes' own", "'web-tools'"),
        ("Word_Tools", "lowercase kebab-case", "'word-tools'"),
        ("email", "already imports as a module of Python's standard library", "'email-tools'"),
        ("json", "already imports as a module of Python's standard library", "'json-tools'"),
        ("yaml", "already imports as an installed module", "'yaml-tools'"),
        ("kit-media", "a distribution the new project itself depends on", "'my-kit-media'"),
        ("kit-core", "uv refuses a project that requires itself", "'kit-core-tools'"),
        ("hermes-plugin-kit", "a distribution the new project itself", "'my-hermes-plugin-kit'"),
        ("pytest", "a distribution the new project itself depends on", "'pytest-tools'"),
        ("pluggy", "a distribution the new project itself depends on", "'pluggy-tools'"),
    ],
)
def test_new_refuses_a_name_that_cannot_work_naming_the_problem_and_a_fix(
    name: str, problem: str, fix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", name, "--directory", str(tmp_path), "--kit-source", "path"]) == 2
    err = capsys.readouterr().err
    assert problem in err
    assert fix in err
    assert not (tmp_path / name).exists()
    suggested = re.findall(r"'([a-z0-9-]+)'", err.rpartition("e.g.")[2])
    assert suggested
    assert all(refusal(s) is None for s in suggested)


def test_hermes_top_level_comes_from_the_installed_distribution_and_the_kept_list() -> None:
    names = hermes_top_level()
    assert names >= HERMES_TOP_LEVEL
    assert {"cron", "tools", "agent", "gateway", "utils", "hermes_cli", "plugins"} <= names


def test_without_hermes_installed_the_kept_list_still_refuses_cron(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def missing(name: str) -> Any:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "distribution", missing)
    assert hermes_top_level() == HERMES_TOP_LEVEL
    assert "top-level package of hermes-agent" in (refusal("cron") or "")


@pytest.mark.parametrize("name", ["word-tools", "memo-sync", "cron-jobs", "discord-threads"])
def test_a_scaffold_passes_check_with_no_findings(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", name, "--directory", str(tmp_path), "--kit-source", "path"]) == 0
    capsys.readouterr()
    target = tmp_path / name / "src" / name.replace("-", "_")
    status, report = check_json(target, capsys, "--probe")
    assert (status, report["findings"]) == (0, [])
    assert report["plugin"]["enabled"] is True


def test_a_memory_provider_may_not_take_the_name_of_the_hermes_its_dev_group_installs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a memory provider's project requires hermes-agent (its base class): uv would refuse
    # a project of that name; a standalone project does not require it
    argv = ["new", "hermes-agent", "--directory", str(tmp_path), "--kit-source", "path"]
    assert main([*argv, "--kind", "memory-provider"]) == 2
    err = capsys.readouterr().err
    assert "'hermes-agent' is the name of a distribution the new project itself depends on" in err
    assert refusal("hermes-agent") is None
