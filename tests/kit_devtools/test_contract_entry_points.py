"""The provider contract suites on an installed entry point: every plugin published on the
registry is one, and hermes' plugin manager loads it by name, so a RealHost drives the
provider of an entry point as the in-memory host does (scripts/corpus_contracts.py runs
the suites on the corpus' context engines, TTS and transcription providers this way)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.kit_devtools._provider_kinds import engine_source

from kit_devtools.testing import InMemoryHost, RealHost
from kit_devtools.testing._real_hermes import hermes_installed
from kit_devtools.testing.contracts import check_provider

pytestmark = pytest.mark.skipif(not hermes_installed(), reason="needs hermes-agent installed")


@pytest.fixture(autouse=True)
def forget_fake_engine() -> Iterator[None]:
    """The in-memory host imports the plugin here: other tests install their own."""
    yield
    for name in [n for n in sys.modules if n.partition(".")[0] == "fake_engine"]:
        del sys.modules[name]


def install(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A distribution whose entry point registers a context engine that breaks three
    rules, importable here and in hermes' process."""
    info = site / "fake_engine-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-engine\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[hermes_agent.plugins]\nfake-engine = fake_engine\n")
    (site / "fake_engine").mkdir()
    (site / "fake_engine" / "__init__.py").write_text(engine_source("summary_engine"))
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("PYTHONPATH", str(site))


def test_hermes_drives_an_entry_points_engine_as_the_in_memory_host_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(tmp_path, monkeypatch)
    memory = check_provider("fake-engine", kind="context-engine", host=InMemoryHost())
    with RealHost() as real:
        found = check_provider("fake-engine", kind="context-engine", host=real)
    broken = ["get_tool_schemas", "compress", "handle_tool_call('trim_stats')"]
    assert [v.member for v in memory.violations] == broken
    assert [(v.member, v.rule) for v in found.violations] == [
        (v.member, v.rule) for v in memory.violations
    ]
    assert "compress" in found.checked


def test_an_entry_point_hermes_does_not_know_is_a_violation_not_a_crash() -> None:
    """As context-compiler-hermes-plugin's, in a group hermes never scans."""
    with RealHost() as real:
        found = check_provider("no-such-entry-point", kind="tts", host=real)
    memory = check_provider("no-such-entry-point", kind="tts", host=InMemoryHost())
    assert [(v.member, v.detail) for v in found.violations] == [
        ("register", "hermes did not discover it")
    ]
    assert [(v.member, v.rule) for v in memory.violations] == [
        (v.member, v.rule) for v in found.violations
    ]
    assert "no-such-entry-point" in memory.violations[0].detail
