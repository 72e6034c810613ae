"""``preflight --every-release`` on a real release: each leg of the host matrix runs the
per-release step (preflight and check in that release's interpreter) on its own release,
for a plugin whose ``requires_hermes`` claims releases without middleware."""

from __future__ import annotations

import shutil
import stat
import sys
from pathlib import Path

import pytest

from kit_core.hermes import installed_release
from kit_devtools.cli._every_release import across_releases

pytestmark = pytest.mark.host

ROOT = Path(__file__).resolve().parents[2]
RELEASE = installed_release()


@pytest.fixture
def claims_too_much(tmp_path: Path) -> Path:
    """team-notes (middleware, needs 0.17.0) with ``requires_hermes: ">=0.13"``."""
    plugin = tmp_path / "team-notes"
    shutil.copytree(ROOT / "examples" / "team-notes", plugin,
                    ignore=shutil.ignore_patterns("__pycache__", "snapshots", "tests"))  # fmt: skip
    manifest = plugin / "plugin.yaml"
    text = manifest.read_text(encoding="utf-8").replace('">=0.17.0"', '">=0.13"')
    manifest.write_text(text, encoding="utf-8")
    return plugin


def this_release_as_cached(root: Path, version: str) -> None:
    """A cache root whose ``<version>`` environment is this interpreter (a wrapper: a
    venv's python only finds its packages from its own folder)."""
    python = root / version / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    python.chmod(python.stat().st_mode | stat.S_IXUSR)


def test_this_release_is_run_and_a_surface_it_lacks_is_named(
    claims_too_much: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert RELEASE is not None
    root = tmp_path / "hosts"
    this_release_as_cached(root, RELEASE.version)
    monkeypatch.setenv("HERMES_PLUGIN_KIT_HOSTS", str(root))
    monkeypatch.setattr("kit_devtools.cli._every_release.installed_release", lambda: None)
    across = across_releases(claims_too_much, f"=={RELEASE.version}", [])
    run = across.runs[RELEASE.version]
    assert run["release"].startswith(RELEASE.version), run
    errors = {f.rule for f in across.findings if f.severity == "error"}
    if RELEASE.offers("register_middleware"):
        assert run["check"]["errors"] == 0, across.findings
        assert not errors, across.findings
    else:  # hermes refuses the plugin here: found before a user of this release installs it
        assert run["check"]["errors"] > 0
        assert errors, across.findings
        assert all(f.where.endswith(f"(hermes {RELEASE.version})") for f in across.findings)
