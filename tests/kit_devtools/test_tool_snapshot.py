"""``assert_tool_snapshot`` and the pytest plugin's ``tool_snapshot`` and ``plugin_host``."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kit_devtools.testing import InMemoryHost, assert_tool_snapshot

ROOT = Path(__file__).resolve().parents[2]
DEFINITION = {
    "type": "function",
    "function": {
        "name": "hm_echo",
        "description": "Echo the text — unchanged.",
        "parameters": {"type": "object", "properties": {"text": {"type": "string"}}},
    },
}


def test_a_missing_snapshot_is_written_then_matched(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "hm_echo.json"
    assert_tool_snapshot(DEFINITION, path)
    assert json.loads(path.read_text(encoding="utf-8")) == DEFINITION
    assert "—" in path.read_text(encoding="utf-8")  # written as UTF-8, not escaped
    assert_tool_snapshot(DEFINITION, path)


@pytest.mark.parametrize("ci", ["true", "1", "yes"])
def test_a_missing_snapshot_fails_in_ci_and_says_how_to_make_it(
    ci: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A snapshot written in a CI job is compared with nothing and lost with the job."""
    monkeypatch.setenv("CI", ci)
    path = tmp_path / "snapshots" / "hm_echo.json"
    with pytest.raises(AssertionError) as failure:
        assert_tool_snapshot(DEFINITION, path)
    message = str(failure.value)
    assert f"the snapshot {path} of hm_echo does not exist" in message
    assert "CI is set" in message
    assert "create it locally" in message
    assert "--update-tool-snapshots" in message
    assert not path.exists()
    assert_tool_snapshot(DEFINITION, path, update=True)  # asked for: written
    assert_tool_snapshot(DEFINITION, path)  # and compared
    for unset in ("", "false", "0"):
        monkeypatch.setenv("CI", unset)
        assert_tool_snapshot(DEFINITION, tmp_path / unset / "hm_echo.json")


def test_the_pytest_fixture_fails_on_a_missing_snapshot_in_ci(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "test_plugin.py").write_text(textwrap.dedent(PLUGIN_TEST), encoding="utf-8")
    monkeypatch.setenv("CI", "true")
    failed = run_pytest(tmp_path)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "does not exist, and this is a CI run" in failed.stdout
    assert not (tmp_path / "snapshots").exists()


def test_a_changed_definition_fails_with_a_diff_and_is_rewritten_on_request(
    tmp_path: Path,
) -> None:
    path = tmp_path / "hm_echo.json"
    assert_tool_snapshot(DEFINITION, path)
    changed = json.loads(json.dumps(DEFINITION))
    changed["function"]["parameters"]["required"] = ["text"]
    with pytest.raises(AssertionError) as failure:
        assert_tool_snapshot(changed, path)
    message = str(failure.value)
    assert "the model-facing definition of hm_echo changed" in message
    assert f"--- {path} (snapshot)" in message
    assert "+++ hm_echo (now)" in message
    added = [line[1:].strip() for line in message.splitlines() if line.startswith("+ ")]
    removed = [line[1:].strip() for line in message.splitlines() if line.startswith("- ")]
    assert added == ["},", '"required": [', '"text"', "]"]
    assert removed == ["}"]
    assert "--update-tool-snapshots" in message
    assert json.loads(path.read_text(encoding="utf-8")) == DEFINITION  # left alone
    assert_tool_snapshot(changed, path, update=True)
    assert json.loads(path.read_text(encoding="utf-8")) == changed


def test_formatting_alone_is_not_a_change(tmp_path: Path) -> None:
    path = tmp_path / "hm_echo.json"
    path.write_text(json.dumps(DEFINITION), encoding="utf-8")  # one line, ASCII-escaped
    assert_tool_snapshot(DEFINITION, path)


def test_a_real_definition_round_trips(tmp_path: Path) -> None:
    host = InMemoryHost()
    host.load(ROOT / "examples" / "unit-convert")
    for definition in host.definitions():
        path = tmp_path / f"{definition['function']['name']}.json"
        assert_tool_snapshot(definition, path)
        assert_tool_snapshot(definition, path)  # the same definition matches its snapshot


PLUGIN_TEST = f"""
from pathlib import Path

EXAMPLE = Path({str(ROOT / "examples" / "unit-convert")!r})


def test_snapshots(plugin_host, tool_snapshot):
    assert plugin_host.tools == {{}}
    plugin_host.load(EXAMPLE)
    for definition in plugin_host.definitions():
        tool_snapshot(definition)
    tool_snapshot(plugin_host.definitions()[0], "named/length.json")


def test_each_test_gets_a_fresh_host(plugin_host):
    assert plugin_host.tools == {{}}
"""


def run_pytest(folder: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *options],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_pytest_plugin_is_registered_and_wires_the_update_option(tmp_path: Path) -> None:
    (tmp_path / "test_plugin.py").write_text(textwrap.dedent(PLUGIN_TEST), encoding="utf-8")
    first = run_pytest(tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    snapshots = tmp_path / "snapshots"
    assert sorted(p.name for p in snapshots.iterdir()) == [
        "units_convert_length.json",
        "units_convert_temperature.json",
    ]
    assert (tmp_path / "named" / "length.json").is_file()
    stale = snapshots / "units_convert_length.json"
    stale.write_text(stale.read_text(encoding="utf-8").replace("metric", "METRIC"), "utf-8")
    failed = run_pytest(tmp_path)
    assert failed.returncode == 1
    assert "changed from its snapshot" in failed.stdout
    updated = run_pytest(tmp_path, "--update-tool-snapshots")
    assert updated.returncode == 0, updated.stdout + updated.stderr
    assert "METRIC" not in stale.read_text(encoding="utf-8")
    assert run_pytest(tmp_path).returncode == 0
