"""``preflight --every-release``: which releases a spec claims, and how the per-release
reports come together (the per-release step itself runs on real releases in
tests/host/test_every_release.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kit_core.hermes import registry_releases
from kit_devtools.cli import _every_release
from kit_devtools.cli._every_release import across_releases, claimed
from kit_devtools.cli.findings import Finding, Severity


def test_a_spec_claims_the_supported_releases_it_admits() -> None:
    assert claimed(">=0.21")[:1] == ["0.21.0"]
    assert claimed(">=0.17,<0.18.1") == ["0.17.0", "0.18.0"]
    assert claimed("")[0] == "0.13.0"
    assert claimed("==0.99") == []


def item(rule: str, severity: str = "error") -> dict[str, Any]:
    return {"rule": rule, "severity": severity, "where": "plugin p", "message": f"{rule} said",
            "fix": "fix it"}  # fmt: skip


def test_findings_are_told_with_the_releases_they_hold_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_every_release, "installed_release", lambda: None)
    said = {
        "0.17.0": ([item("HPK001"), item("HPK104", "warning")], {"release": "0.17.0"}),
        "0.18.0": ([item("HPK001"), item("HPK104", "warning")], {"release": "0.18.0"}),
        "0.18.1": ([item("HPK104", "warning")], {"release": "0.18.1"}),
        "0.18.2": ([], {"problem": "its environment could not be made: offline"}),
    }
    known = [Finding("HPK104", Severity.WARNING, "plugin p", "HPK104 said", "fix it")]
    across = across_releases(Path("p"), ">=0.17,<0.19", known, lambda _, v: said[v])
    assert [(f.rule, f.severity, f.where) for f in across.findings] == [
        ("HPK068", Severity.WARNING, "hermes 0.18.2"),
        ("HPK001", Severity.ERROR, "plugin p (hermes 0.17.0, 0.18.0)"),
    ]  # HPK104 is the installed release's own finding: not repeated
    assert "offline" in across.findings[0].message
    assert across.runs["0.18.2"] == {"problem": "its environment could not be made: offline"}


def test_the_installed_release_is_the_reports_own_run(monkeypatch: pytest.MonkeyPatch) -> None:
    release = registry_releases()[-1]
    monkeypatch.setattr(_every_release, "installed_release", lambda: release)
    asked: list[str] = []

    def one(_: Path, version: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        asked.append(version)
        return [], {"release": version}

    across = across_releases(Path("p"), f"=={release.version}", [], one)
    assert asked == []
    assert across.runs == {release.version: {"installed": True}}
