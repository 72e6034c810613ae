"""Which interpreter ``preflight --scan`` runs hermes' install scan in."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kit_core.hermes import registry_releases
from kit_devtools.cli import _scan
from kit_devtools.cli._scan import Scanner, scanner


def cached(root: Path, version: str, *, with_scanner: bool) -> Path:
    folder = root / version
    (folder / "bin").mkdir(parents=True)
    python = folder / "bin" / "python"
    python.symlink_to(sys.executable)
    tools = folder / "lib" / "python3.11" / "site-packages" / "tools"
    tools.mkdir(parents=True)
    (tools / "skills_guard.py").write_text("")
    if with_scanner:
        (tools / "plugin_guard.py").write_text("")
    return python


def test_the_newest_cached_release_with_a_scanner_is_chosen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HERMES_PLUGIN_KIT_HOSTS", str(tmp_path))
    monkeypatch.setattr(_scan, "has_module", lambda module: module == _scan.ENGINE)
    cached(tmp_path, "0.19.0", with_scanner=False)
    cached(tmp_path, "0.21.3", with_scanner=True)
    newest = cached(tmp_path, "0.21.10", with_scanner=True)
    cached(tmp_path, "0.22.0", with_scanner=False)
    assert scanner() == Scanner(str(newest), "plugin")


def test_the_installed_engine_is_the_fallback_and_nothing_is_said_plainly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HERMES_PLUGIN_KIT_HOSTS", str(tmp_path / "none"))
    monkeypatch.setattr(_scan, "has_module", lambda module: module == _scan.ENGINE)
    assert scanner() == Scanner(sys.executable, "engine")
    monkeypatch.setattr(_scan, "has_module", lambda module: False)
    why = scanner()
    assert isinstance(why, str)
    assert "--scan-with" in why


def test_scan_with_takes_a_series_or_newest_as_hermes_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []

    def environment(release: str) -> Path:
        asked.append(release)
        return tmp_path / release / "bin" / "python"

    monkeypatch.setattr("kit_devtools.testing._host_envs.environment", environment)
    newest = registry_releases()[-1].version
    assert scanner("newest") == Scanner(str(tmp_path / newest / "bin" / "python"), "plugin")
    scanner(newest.rpartition(".")[0])
    scanner("0.19.0")
    assert asked == [newest, newest, "0.19.0"]


def test_the_installed_scanner_comes_before_a_cached_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HERMES_PLUGIN_KIT_HOSTS", str(tmp_path))
    cached(tmp_path, "0.22.2", with_scanner=True)
    monkeypatch.setattr(_scan, "has_module", lambda module: True)
    assert scanner() == Scanner(sys.executable, "plugin")


def test_the_isolated_child_is_told_where_the_cached_releases_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kit_devtools.cli import _isolated

    seen: dict[str, str] = {}

    class Child:
        pid = 0
        returncode = 0
        stdout = None

        def __init__(self, command: list[str], env: dict[str, str], **_: object) -> None:
            seen.update(env)

        def wait(self, timeout: float | None = None) -> int:
            return 0

    monkeypatch.setenv("HERMES_PLUGIN_KIT_HOSTS", str(tmp_path / "hosts"))
    monkeypatch.setattr("subprocess.Popen", Child)
    monkeypatch.setattr(_isolated, "_read_all", lambda child, chunks: None)
    monkeypatch.setattr(_isolated, "_end_session", lambda pid: None)
    _isolated.run_isolated(["preflight", str(tmp_path)], pass_env=[], network=False)
    assert seen["HERMES_PLUGIN_KIT_HOSTS"] == str(tmp_path / "hosts")
    assert seen["HOME"] != str(Path.home())
