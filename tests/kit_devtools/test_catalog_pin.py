"""``preflight --catalog-entry``: the entry's fields from git and the manifest, and what
git says of its pin (pushed, old enough, the tree the entry describes)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from kit_devtools.cli import _catalog, main
from kit_devtools.cli._catalog import catalog_entry, https_repo
from kit_devtools.cli._preflight import preflight_directory

ROOT = Path(__file__).resolve().parents[2]
DAY = 86_400


def git(where: Path, *args: str, when: float | None = None) -> str:
    stamp = f"@{int(when or time.time())} +0000"
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
        "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp,
    }  # fmt: skip
    done = subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True,
                          env=env, check=True)  # fmt: skip
    return done.stdout.strip()


@pytest.fixture(autouse=True)
def _kits_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No hermes catalogue loader is asked here (tests/host asks the real ones)."""
    monkeypatch.setattr(_catalog, "LOADER", "no_such_module_of_hermes")
    monkeypatch.setenv("HERMES_PLUGIN_KIT_HOSTS", str(tmp_path / "no-cached-releases"))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A repository holding unit-convert under plugins/units, pushed a month ago to a
    bare 'origin'."""
    remote, work = tmp_path / "origin.git", tmp_path / "work"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    work.mkdir()
    git(work, "init", "-q", "-b", "main")
    shutil.copytree(ROOT / "examples" / "unit-convert", work / "plugins" / "units",
                    ignore=shutil.ignore_patterns("__pycache__", "snapshots", "tests"))  # fmt: skip
    git(work, "add", ".")
    git(work, "commit", "-q", "-m", "units", when=time.time() - 30 * DAY)
    git(work, "remote", "add", "origin", str(remote))
    git(work, "push", "-q", "origin", "main")
    return work / "plugins" / "units"


def entry_of(directory: Path, **options: Any) -> _catalog.Entry:
    return catalog_entry(preflight_directory(directory), **options)


def test_a_pushed_month_old_pin_gives_a_clean_entry(project: Path) -> None:
    (project / "__pycache__").mkdir()  # what importing the plugin writes is no change
    (project / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"")
    made = entry_of(project, repo="git@github.com:acme/units.git")
    assert made.findings == []
    assert (
        made.checked_by
        == "the kit's reading of hermes' catalogue loader (hermes_cli/plugin_catalog.py)"
    )
    head = git(project, "rev-parse", "HEAD")
    assert made.data == {
        "name": "unit-convert",
        "repo": "https://github.com/acme/units",
        "subdir": "plugins/units",
        "sha": head,
        "version": "0.1.0",
        "description": "Convert temperatures and lengths (a tool-only example built with kit-core)",
        "maintainer": "acme",
        "tier": "community",
        "category": "tools",
        "requires_hermes": ">=0.13.0",
        "capabilities": {
            "provides_tools": ["units_convert_length", "units_convert_temperature"],
            "provides_hooks": [],
            "provides_middleware": [],
            "requires_env": [],
        },
    }


def test_an_unpushed_new_commit_and_a_changed_tree_are_named(project: Path) -> None:
    (project / "notes.txt").write_text("new\n", encoding="utf-8")
    dirty = entry_of(project, repo="https://github.com/acme/units")
    assert [f.rule for f in dirty.findings] == ["HPK066"]
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "notes", when=time.time() - 3 * DAY)
    fresh = entry_of(project, repo="https://github.com/acme/units")
    rules = {f.rule: f.message for f in fresh.findings}
    assert set(rules) == {"HPK064", "HPK065"}
    assert "is on no remote branch: it is not pushed" in rules["HPK064"]
    assert rules["HPK065"].startswith("the pinned commit is 3 days old")
    old = git(project, "rev-parse", "HEAD~1")
    pinned_old = entry_of(project, repo="https://github.com/acme/units", sha=old)
    assert [f.rule for f in pinned_old.findings] == ["HPK066"]  # the tree has the new file


def test_a_pin_the_repository_lacks_and_a_bad_entry_are_refused(project: Path) -> None:
    made = entry_of(project, repo="http://github.com/acme/units", sha="f" * 40)
    messages = {f.rule: f.message for f in made.findings}
    assert messages["HPK063"] == (
        "hermes' catalogue loader refuses the entry: repo must be an https:// URL"
        " (got 'http://github.com/acme/units')"
    )
    assert messages["HPK064"] == f"the pin {'f' * 40} is not a commit of this repository"


def test_outside_git_the_pin_cannot_be_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plugin = tmp_path / "units"
    shutil.copytree(ROOT / "examples" / "unit-convert", plugin,
                    ignore=shutil.ignore_patterns("__pycache__", "snapshots", "tests"))  # fmt: skip
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    made = entry_of(plugin, repo="https://github.com/acme/units", sha="a" * 40)
    (only,) = made.findings
    assert only.rule == "HPK064"
    assert "not in a git repository" in only.message


@pytest.mark.parametrize(
    ("url", "https"),
    [
        ("git@github.com:acme/units.git", "https://github.com/acme/units"),
        ("ssh://git@github.com/acme/units.git", "https://github.com/acme/units"),
        ("https://github.com/acme/units.git", "https://github.com/acme/units"),
        ("https://gitlab.com/acme/group/units/", "https://gitlab.com/acme/group/units"),
    ],
)
def test_remote_urls_become_the_https_address(url: str, https: str) -> None:
    assert https_repo(url) == https


def test_the_command_writes_the_entry_and_reports_it(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "plugin-catalog"
    out.mkdir()
    repo = "https://github.com/acme/units"
    status = main(["preflight", str(project), "--catalog-entry", str(out), "--json",
                   "--repo", repo, "--category", "automation"])  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    written = out / "unit-convert.yaml"
    assert status == 0
    assert report["catalog_entry"]["path"] == str(written)
    entry = yaml.safe_load(written.read_text(encoding="utf-8"))
    assert entry == report["catalog_entry"]["entry"]
    assert entry["category"] == "automation"
    assert list(entry)[:4] == ["name", "repo", "subdir", "sha"]
